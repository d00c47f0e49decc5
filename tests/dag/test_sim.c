/*
 * test_sim.c - the dag simulator and its independent checker, and the
 * property test over every registered policy: on hundreds of seeded
 * random instances every combination yields a schedule the checker
 * accepts and a makespan no smaller than any lower bound.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "dag/dag.h"
#include "dag/bound.h"
#include "dag/util.h"
#include "rng.h"
#include "tests/testutil.h"
#include "workloads/dag/load.h"

/* A small instance by hand: n ops, given edges, nd devices. */
static void make_inst(struct sb_dag_inst *in, int n, int ne, const int *eu, const int *ev,
		      int nd, const double *speed, double rate, double send_ops)
{
	struct sb_err err;
	int d, e;
	memset(in, 0, sizeof *in);
	sb_dag_alloc(&in->g, n);
	for (d = 0; d < n; d++) {
		in->g.ops[d] = 10 * (d + 1);
		in->g.out[d] = 6;
		in->g.ram[d] = 1;
	}
	cr_assert_eq(sb_dag_finish(&in->g, ne, eu, ev, NULL, 0, NULL, NULL, &err), 0, "%s",
		     err.msg);
	sb_devices_alloc(&in->dev, nd);
	for (d = 0; d < nd; d++) {
		in->dev.speed[d] = speed[d];
		in->dev.mem[d] = 1e9;
		for (e = 0; e < nd; e++)
			in->dev.rate[d * nd + e] = d == e ? 0 : rate;
	}
	in->send_ops = send_ops;
	in->name = sb_xstrdup("hand");
}

/* run placement `place` with scheduler `sched`, check, return makespan */
static double run_place(const struct sb_dag_inst *in, const int *place, const char *sched,
			int *nsend)
{
	struct sb_dag_plan plan;
	struct sb_dag_exec x;
	struct sb_dag_result res;
	struct sb_dag_schedule s;
	struct sb_err err;
	struct sb_opts o;
	const struct sb_dag_policy *p = sb_dag_policy_find(sched);
	double ms;
	cr_assert(p, "scheduler %s registered", sched);
	sb_dag_plan_init(&plan, in->g.n);
	memcpy(plan.place, place, sizeof(int) * (size_t)in->g.n);
	sb_dag_exec_build(&x, in, plan.place);
	sb_opts_defaults(&o, p->params);
	cr_assert_eq(sb_dag_simulate(&x, &plan, p, &o, &res, &err), 0, "%s", err.msg);
	sb_dag_schedule_of_result(&s, &x, &res);
	cr_assert_eq(sb_dag_check(in, &s, &err), 0, "%s", err.msg);
	ms = res.makespan;
	if (nsend)
		*nsend = x.nsend;
	sb_dag_result_release(&res);
	sb_dag_exec_release(&x);
	sb_dag_plan_release(&plan);
	return ms;
}

Test(dagsim, chain_on_one_device)
{
	int eu[3] = { 0, 1, 2 }, ev[3] = { 1, 2, 3 }, place[4] = { 1, 1, 1, 1 }, ns;
	double sp[2] = { 5, 20 };
	struct sb_dag_inst in;
	make_inst(&in, 4, 3, eu, ev, 2, sp, 3, 10);
	cr_assert_float_eq(run_place(&in, place, "fifo", &ns), (10 + 20 + 30 + 40) / 20.0, 1e-12);
	cr_assert_eq(ns, 0);
	sb_dag_inst_release(&in);
}

Test(dagsim, send_then_transfer)
{
	/* u (10 ops) on d0 (speed 5) -> v (20 ops) on d1 (speed 10):
	 * 2 + send 10/5 + 6/3 + 2 = 8 */
	int eu[1] = { 0 }, ev[1] = { 1 }, place[2] = { 0, 1 }, ns;
	double sp[2] = { 5, 10 };
	struct sb_dag_inst in;
	make_inst(&in, 2, 1, eu, ev, 2, sp, 3, 10);
	cr_assert_float_eq(run_place(&in, place, "fifo", &ns), 8.0, 1e-12);
	cr_assert_eq(ns, 1);
	in.send_ops = 0; /* pure delay: 2 + 2 + 2 */
	cr_assert_float_eq(run_place(&in, place, "fifo", &ns), 6.0, 1e-12);
	sb_dag_inst_release(&in);
}

Test(dagsim, one_send_per_remote_device)
{
	/* 0 feeds 1,2,3 on device 1 and 4 on device 2: two Sends */
	int eu[4] = { 0, 0, 0, 0 }, ev[4] = { 1, 2, 3, 4 }, place[5] = { 0, 1, 1, 1, 2 }, ns;
	double sp[3] = { 10, 10, 10 };
	struct sb_dag_inst in;
	struct sb_dag_exec x;
	make_inst(&in, 5, 4, eu, ev, 3, sp, 3, 10);
	run_place(&in, place, "fifo", &ns);
	cr_assert_eq(ns, 2);
	sb_dag_exec_build(&x, &in, place);
	cr_assert_float_eq(x.comm_volume, 12, 1e-12);
	sb_dag_exec_release(&x);
	sb_dag_inst_release(&in);
}

Test(dagsim, checker_rejects_broken_schedules)
{
	int eu[2] = { 0, 1 }, ev[2] = { 1, 2 }, place[3] = { 0, 1, 1 };
	double sp[2] = { 10, 10 };
	struct sb_dag_inst in;
	struct sb_dag_plan plan;
	struct sb_dag_exec x;
	struct sb_dag_result res;
	struct sb_dag_schedule s;
	struct sb_err err;
	const struct sb_dag_policy *fifo = sb_dag_policy_find("fifo");
	double keep;

	make_inst(&in, 3, 2, eu, ev, 2, sp, 3, 10);
	sb_dag_plan_init(&plan, 3);
	memcpy(plan.place, place, sizeof place);
	sb_dag_exec_build(&x, &in, plan.place);
	cr_assert_eq(sb_dag_simulate(&x, &plan, fifo, NULL, &res, &err), 0);
	sb_dag_schedule_of_result(&s, &x, &res);
	cr_assert_eq(sb_dag_check(&in, &s, &err), 0, "%s", err.msg);

	keep = res.start[2]; /* op 2 starts before op 1 ends */
	res.start[2] -= 1; res.finish[2] -= 1;
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	res.start[2] = keep; res.finish[2] = keep + 3;

	keep = res.finish[1]; /* wrong duration */
	res.finish[1] += 0.5;
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	cr_assert(strstr(err.msg, "runs"));
	res.finish[1] = keep;

	s.nsend = 0; /* the needed Send is missing */
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	cr_assert(strstr(err.msg, "no send"));
	s.nsend = x.nsend;

	s.makespan += 1; /* wrong claim */
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	s.makespan -= 1;

	in.dev.mem[1] = 0.5; /* memory over capacity */
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	cr_assert(strstr(err.msg, "memory"));
	in.dev.mem[1] = 1e9;

	in.g.dc[2] = SB_DEV_GPU; /* constraint broken (devices are CPUs) */
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	in.g.dc[2] = SB_DC_ANY;
	cr_assert_eq(sb_dag_check(&in, &s, &err), 0, "%s", err.msg);

	sb_dag_result_release(&res);
	sb_dag_exec_release(&x);
	sb_dag_plan_release(&plan);
	sb_dag_inst_release(&in);
}

Test(dagsim, overlap_is_rejected)
{
	/* two independent ops on one device forced to overlap */
	int place[2] = { 0, 0 };
	double sp[1] = { 10 };
	struct sb_dag_inst in;
	double st[2] = { 0, 0.5 }, fi[2] = { 1, 2.5 };
	struct sb_dag_schedule s = { 2, place, st, fi, 0, NULL, NULL, NULL, NULL, 0, 2.5 };
	struct sb_err err;
	make_inst(&in, 2, 0, NULL, NULL, 1, sp, 1, 10);
	cr_assert_neq(sb_dag_check(&in, &s, &err), 0);
	cr_assert(strstr(err.msg, "two tasks at once"), "%s", err.msg);
	st[1] = 1; fi[1] = 3;
	s.makespan = 3;
	cr_assert_eq(sb_dag_check(&in, &s, &err), 0, "%s", err.msg);
	sb_dag_inst_release(&in);
}

/* ------------------------------------------------------------------ */
/* Property test over the registry                                     */
/* ------------------------------------------------------------------ */

/* random instance with constraints and colocation on mixed devices */
static void random_inst(struct sb_dag_inst *in, struct sb_rng *r, int n, int nd)
{
	int *eu = SB_NEW(int, n * n), *ev = SB_NEW(int, n * n), ne = 0, i, j, d, e;
	int cu[8], cv[8], nc = 0;
	struct sb_err err;
	double p = 0.05 + 0.4 * sb_rng_uniform(r);
	memset(in, 0, sizeof *in);
	sb_dag_alloc(&in->g, n);
	for (i = 0; i < n; i++) {
		in->g.ops[i] = (double)sb_rng_int(r, 1, 100);
		in->g.out[i] = (double)sb_rng_int(r, 1, 100);
		in->g.ram[i] = (double)sb_rng_int(r, 1, 100);
		if (sb_rng_bernoulli(r, 0.05))
			in->g.dc[i] = (int)sb_rng_int(r, 0, 1);
		for (j = i + 1; j < n; j++)
			if (sb_rng_bernoulli(r, p)) {
				eu[ne] = i;
				ev[ne++] = j;
			}
	}
	for (i = 0; i < 3 && n > 4; i++) {
		int a = (int)sb_rng_int(r, 0, n - 1), b = (int)sb_rng_int(r, 0, n - 1);
		if (in->g.dc[a] == SB_DC_ANY && in->g.dc[b] == SB_DC_ANY) {
			cu[nc] = a;
			cv[nc++] = b;
		}
	}
	cr_assert_eq(sb_dag_finish(&in->g, ne, eu, ev, NULL, nc, cu, cv, &err), 0);
	sb_devices_alloc(&in->dev, nd);
	for (d = 0; d < nd; d++) {
		in->dev.speed[d] = (double)sb_rng_int(r, 10, 100);
		in->dev.mem[d] = 1e8;
		in->dev.type[d] = d < 2 ? d : (int)sb_rng_int(r, 0, 1); /* both types exist */
	}
	for (d = 0; d < nd; d++)
		for (e = d + 1; e < nd; e++)
			in->dev.rate[d * nd + e] = in->dev.rate[e * nd + d] =
				(double)sb_rng_int(r, 10, 60);
	in->send_ops = 10;
	in->name = sb_xstrdup("random");
	sb_free(eu);
	sb_free(ev);
}

Test(dagsim, every_policy_valid_and_above_bounds)
{
	int np, i, k, inst, checked = 0;
	const struct sb_dag_policy *const *all = sb_dag_policies(&np);
	for (inst = 0; inst < 200; inst++) {
		struct sb_rng r = sb_rng_stream(2024, (uint64_t)inst, 0, SB_RNG_TEST);
		struct sb_dag_inst in;
		struct sb_dag_bounds b;
		random_inst(&in, &r, 5 + inst % 30, 2 + inst % 6);
		sb_dag_lower_bounds(&in, &b);
		for (i = 0; i < np; i++) {
			if (!all[i]->partition)
				continue;
			for (k = 0; k < np; k++) {
				struct sb_dag_combo c;
				struct sb_dag_metrics m;
				struct sb_opts po, so;
				struct sb_err err;
				struct sb_rng pr = sb_rng_stream(1, (uint64_t)inst, (uint64_t)k,
								 SB_RNG_POLICY);
				if (!(all[k]->priority || all[k]->pick))
					continue;
				if (!strcmp(all[k]->name, "heft-order") &&
				    !(all[i]->default_sched && !strcmp(all[i]->default_sched, "heft-order")))
					continue;
				c.part = all[i];
				c.sched = all[k];
				snprintf(c.label, sizeof c.label, "%s+%s", all[i]->name, all[k]->name);
				sb_opts_defaults(&po, c.part->params);
				sb_opts_defaults(&so, c.sched->params);
				cr_assert_eq(sb_dag_run_combo(&in, &c, &po, &so, &pr, &m, NULL, &err), 0,
					     "instance %d: %s", inst, err.msg);
				cr_assert_geq(m.makespan, b.lb * (1 - 1e-9),
					      "instance %d: %s makespan %g below lower bound %g",
					      inst, c.label, m.makespan, b.lb);
				if (!isnan(m.plan_makespan))
					cr_assert_geq(m.plan_makespan, b.lb * (1 - 1e-9));
				checked++;
			}
		}
		sb_dag_inst_release(&in);
	}
	cr_assert_gt(checked, 200);
}

Test(dagsim, deterministic_given_seed)
{
	struct sb_rng r = sb_rng_stream(99, 0, 0, SB_RNG_TEST);
	struct sb_dag_inst in;
	int np, i;
	const struct sb_dag_policy *const *all = sb_dag_policies(&np);
	random_inst(&in, &r, 40, 5);
	for (i = 0; i < np; i++) {
		struct sb_dag_combo c;
		struct sb_dag_metrics m1, m2;
		struct sb_opts po, so;
		struct sb_err err;
		struct sb_rng a = sb_rng_stream(5, 0, 0, SB_RNG_POLICY), b = a;
		int *p1, *p2;
		if (!all[i]->partition)
			continue;
		p1 = SB_NEW(int, in.g.n);
		p2 = SB_NEW(int, in.g.n);
		c.part = all[i];
		c.sched = sb_dag_policy_find("pct");
		snprintf(c.label, sizeof c.label, "%s+pct", all[i]->name);
		sb_opts_defaults(&po, c.part->params);
		sb_opts_defaults(&so, c.sched->params);
		cr_assert_eq(sb_dag_run_combo(&in, &c, &po, &so, &a, &m1, p1, &err), 0);
		cr_assert_eq(sb_dag_run_combo(&in, &c, &po, &so, &b, &m2, p2, &err), 0);
		cr_assert_eq(memcmp(&m1.makespan, &m2.makespan, sizeof(double)), 0, "%s", c.label);
		cr_assert_eq(memcmp(p1, p2, sizeof(int) * (size_t)in.g.n), 0, "%s", c.label);
		sb_free(p1);
		sb_free(p2);
	}
	sb_dag_inst_release(&in);
}

/* Regression: with unbounded device memory (STG instances) MITE's memory
 * factor was inf/inf = NaN and every op went to device 0. */
Test(dagsim, mite_spreads_with_unbounded_memory)
{
	double sp[4] = { 1, 1, 1, 1 };
	struct sb_dag_inst in;
	struct sb_dag_combo c;
	struct sb_dag_metrics m;
	struct sb_opts po, so;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
	int d;
	make_inst(&in, 12, 0, NULL, NULL, 4, sp, INFINITY, 0);
	for (d = 0; d < 4; d++)
		in.dev.mem[d] = INFINITY;
	cr_assert_eq(sb_dag_combo_parse(&c, "mite+pct", &err), 0);
	sb_opts_defaults(&po, c.part->params);
	sb_opts_defaults(&so, c.sched->params);
	cr_assert_eq(sb_dag_run_combo(&in, &c, &po, &so, &r, &m, NULL, &err), 0, "%s", err.msg);
	cr_assert_gt(m.devices_used, 1, "12 independent ops on 4 devices all went to one device");
	sb_dag_inst_release(&in);
}
