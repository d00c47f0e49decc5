/*
 * test_bound.c - the dag family's bounds and optima (dag/bound.c,
 * spec tfpart.md §10): closed-form bounds <= MILP optimum = brute force on
 * seeded random instances, exact-Send ILP = exact brute force, relaxed <=
 * exact, a chain on one device, the time-indexed model against the brute
 * force, the warm start and honest time limits.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <math.h>
#include <string.h>

#include "dag/dag.h"
#include "dag/bound.h"
#include "opts.h"
#include "rng.h"
#include "sb.h"

#define TL 60.0
#define REL 1e-6

struct gen {
	int n, ndev;
	double edge_p;
	double send_ops;
	int inf_rates;      /* 1: free transfers */
	int equal_speeds;   /* 1: all speeds 1 */
	int constrained;    /* 1: colocation pairs, type constraints, tight memory */
	int etc;            /* 1: an ETC matrix (unrelated machines), some pairs forbidden */
};

/* A small random instance: integer work 1..9, tensor sizes 1..6, random
 * edges i -> j (i < j), devices of two speeds (1 and 2) and two types,
 * symmetric finite rates 1..4, ample memory unless constrained. */
static void mk_inst(struct sb_dag_inst *in, const struct gen *gp, uint64_t seed,
		    uint64_t idx)
{
	struct sb_rng r = sb_rng_stream(seed, idx, 0, SB_RNG_TEST);
	struct sb_err err;
	int n = gp->n, nd = gp->ndev, i, j, ne = 0, np = 0;
	int eu[64], ev[64], cu[4], cv[4];
	double totmem = 0;

	memset(in, 0, sizeof *in);
	in->name = sb_xstrdup("rand");
	sb_dag_alloc(&in->g, n);
	for (i = 0; i < n; i++) {
		in->g.ops[i] = (double)sb_rng_int(&r, 1, 9);
		in->g.out[i] = (double)sb_rng_int(&r, 1, 6);
		in->g.ram[i] = gp->constrained ? (double)sb_rng_int(&r, 1, 5) : 0;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (sb_rng_uniform(&r) < gp->edge_p && ne < 64) {
				eu[ne] = i;
				ev[ne++] = j;
			}
	if (gp->constrained && n >= 3) {
		/* one colocation pair and one type constraint */
		cu[np] = (int)sb_rng_below(&r, (uint32_t)n);
		cv[np] = (int)sb_rng_below(&r, (uint32_t)n);
		np++;
		in->g.dc[sb_rng_below(&r, (uint32_t)n)] = (int)sb_rng_below(&r, 2);
	}
	cr_assert_eq(sb_dag_finish(&in->g, ne, eu, ev, NULL, np, cu, cv, &err), 0,
		     "%s", err.msg);
	sb_devices_alloc(&in->dev, nd);
	for (i = 0; i < n; i++)
		totmem += sb_dag_mem(in, i);
	for (i = 0; i < nd; i++) {
		in->dev.speed[i] = gp->equal_speeds ? 1.0 : (sb_rng_bernoulli(&r, 0.5) ? 2.0 : 1.0);
		in->dev.type[i] = gp->constrained ? i % 2 : SB_DEV_CPU;
		in->dev.mem[i] = gp->constrained ? ceil(0.7 * totmem) : 1e9;
	}
	for (i = 0; i < nd; i++)
		for (j = i; j < nd; j++) {
			double rate = i == j || gp->inf_rates ? INFINITY
				: (double)sb_rng_int(&r, 1, 4);
			in->dev.rate[i * nd + j] = in->dev.rate[j * nd + i] = rate;
		}
	in->send_ops = gp->send_ops;
	if (gp->etc) {
		in->etc = SB_NEW(double, (size_t)n * nd);
		for (i = 0; i < n; i++)
			for (j = 0; j < nd; j++)
				in->etc[i * nd + j] = j > 0 && sb_rng_bernoulli(&r, 0.15)
					? INFINITY : (double)sb_rng_int(&r, 1, 9);
	}
}

static double rel_diff(double a, double b)
{
	return fabs(a - b) / sb_max(1.0, fabs(b));
}

static double solve_relaxed(const struct sb_dag_inst *in, struct sb_lp_result *res)
{
	struct sb_dag_milp_opts o;
	struct sb_err err;

	memset(&o, 0, sizeof o);
	o.time_limit = TL;
	cr_assert_eq(sb_dag_milp_relaxed(in, &o, res, &err), 0, "%s", err.msg);
	return res->obj;
}

static double solve_exact(const struct sb_dag_inst *in, struct sb_lp_result *res)
{
	struct sb_dag_milp_opts o;
	struct sb_err err;

	memset(&o, 0, sizeof o);
	o.time_limit = TL;
	cr_assert_eq(sb_dag_milp_exact(in, &o, res, &err), 0, "%s", err.msg);
	return res->obj;
}

/* lb <= relaxed MILP optimum == relaxed brute force, on `count` instances */
static void check_relaxed(const struct gen *base, int count, uint64_t seed, int nmin,
			  int nmax)
{
	int i;
	for (i = 0; i < count; i++) {
		struct gen gp = *base;
		struct sb_dag_inst in;
		struct sb_dag_bounds b;
		struct sb_lp_result res;
		double bf, milp;

		gp.n = nmin + i % (nmax - nmin + 1);
		gp.ndev = 2 + i % 2;
		mk_inst(&in, &gp, seed, (uint64_t)i);
		sb_dag_lower_bounds(&in, &b);
		bf = sb_dag_bruteforce_relaxed(&in);
		milp = solve_relaxed(&in, &res);
		if (!isfinite(bf)) {
			cr_assert_eq(res.status, SB_LP_INFEASIBLE, "instance %d", i);
		} else {
			cr_assert_eq(res.status, SB_LP_OPTIMAL, "instance %d: %s", i,
				     sb_lp_status_name(res.status));
			cr_assert(rel_diff(milp, bf) <= REL,
				  "instance %d (n %d, %d dev): milp %.9g != brute force %.9g",
				  i, gp.n, gp.ndev, milp, bf);
			cr_assert(rel_diff(res.bound, milp) <= REL);
			cr_assert(b.lb <= bf * (1 + 1e-12), "instance %d: lb %g > opt %g",
				  i, b.lb, bf);
		}
		sb_lp_result_release(&res);
		sb_dag_inst_release(&in);
	}
}

/* exact ILP == exact brute force; relaxed <= exact */
static void check_exact(const struct gen *base, int count, uint64_t seed, int nmin,
			int nmax)
{
	int i;
	for (i = 0; i < count; i++) {
		struct gen gp = *base;
		struct sb_dag_inst in;
		struct sb_lp_result re, rr;
		double bf, ex, rx;

		gp.n = nmin + i % (nmax - nmin + 1);
		gp.ndev = 2 + i % 2;
		mk_inst(&in, &gp, seed, (uint64_t)i);
		bf = sb_dag_bruteforce_exact(&in);
		ex = solve_exact(&in, &re);
		rx = solve_relaxed(&in, &rr);
		if (!isfinite(bf)) {
			cr_assert_eq(re.status, SB_LP_INFEASIBLE);
		} else {
			cr_assert_eq(re.status, SB_LP_OPTIMAL, "instance %d: %s", i,
				     sb_lp_status_name(re.status));
			cr_assert(rel_diff(ex, bf) <= REL,
				  "instance %d (n %d, %d dev): exact ilp %.9g != brute force %.9g",
				  i, gp.n, gp.ndev, ex, bf);
			cr_assert(rx <= ex * (1 + REL), "instance %d: relaxed %g > exact %g",
				  i, rx, ex);
			cr_assert(rel_diff(rx, sb_dag_bruteforce_relaxed(&in)) <= REL);
		}
		sb_lp_result_release(&re);
		sb_lp_result_release(&rr);
		sb_dag_inst_release(&in);
	}
}

Test(dagbound, relaxed_milp_equals_bruteforce)
{
	struct gen gp = { .edge_p = 0.4, .send_ops = 1 };
	check_relaxed(&gp, 50, 101, 3, 6);
}

Test(dagbound, exact_ilp_equals_bruteforce)
{
	struct gen gp = { .edge_p = 0.4, .send_ops = 1 };
	check_exact(&gp, 20, 202, 3, 5);
}

Test(dagbound, constrained_instances)
{
	/* colocation, type constraints and memory that binds */
	struct gen gp = { .edge_p = 0.4, .send_ops = 1, .constrained = 1 };
	check_relaxed(&gp, 20, 303, 3, 6);
	check_exact(&gp, 8, 304, 3, 5);
}

Test(dagbound, etc_matrix)
{
	/* unrelated machines, some (op, device) pairs forbidden */
	struct gen gp = { .edge_p = 0.4, .send_ops = 1, .etc = 1 };
	check_relaxed(&gp, 20, 505, 3, 6);
	check_exact(&gp, 8, 506, 3, 5);
}

Test(dagbound, heavy_sends)
{
	/* Sends that cost as much as ops: the exact model differs from the
	 * relaxed one */
	struct gen gp = { .edge_p = 0.6, .send_ops = 4 };
	check_exact(&gp, 10, 404, 3, 5);
}

Test(dagbound, chain_on_one_device)
{
	struct sb_dag_inst in;
	struct sb_dag_bounds b;
	struct sb_lp_result res;
	struct sb_err err;
	int eu[5], ev[5], i;
	double sum = 0, v;

	memset(&in, 0, sizeof in);
	sb_dag_alloc(&in.g, 6);
	for (i = 0; i < 6; i++) {
		in.g.ops[i] = i + 1;
		in.g.out[i] = 3;
		sum += i + 1;
	}
	for (i = 0; i < 5; i++) {
		eu[i] = i;
		ev[i] = i + 1;
	}
	cr_assert_eq(sb_dag_finish(&in.g, 5, eu, ev, NULL, 0, NULL, NULL, &err), 0);
	sb_devices_alloc(&in.dev, 1);
	in.dev.speed[0] = 2;
	in.dev.mem[0] = 1e9;
	in.dev.rate[0] = INFINITY;
	in.send_ops = 10;
	sb_dag_lower_bounds(&in, &b);
	cr_assert_float_eq(b.cp, sum / 2, 1e-12);
	cr_assert_float_eq(b.lb, sum / 2, 1e-12);
	/* (the assert macros evaluate their arguments twice) */
	v = sb_dag_bruteforce_relaxed(&in);
	cr_assert_float_eq(v, sum / 2, 1e-12);
	v = sb_dag_bruteforce_exact(&in);
	cr_assert_float_eq(v, sum / 2, 1e-12);
	v = solve_relaxed(&in, &res);
	cr_assert_float_eq(v, sum / 2, 1e-9);
	cr_assert_eq(res.status, SB_LP_OPTIMAL);
	sb_lp_result_release(&res);
	v = solve_exact(&in, &res);
	cr_assert_float_eq(v, sum / 2, 1e-9);
	sb_lp_result_release(&res);
	sb_dag_inst_release(&in);
}

Test(dagbound, closed_form_values)
{
	/* ops 4, 6, 2, 8 on a fork 0 -> {1, 2} -> 3 (plus 1 -> 3, 2 -> 3);
	 * devices: CPU speed 1, GPU speed 3; op 1 is CPU-only, ops 2 and 3
	 * are colocated. */
	struct sb_dag_inst in;
	struct sb_dag_bounds b;
	struct sb_err err;
	int eu[] = { 0, 0, 1, 2 }, ev[] = { 1, 2, 3, 3 }, cu[] = { 2 }, cv[] = { 3 };
	double ops[] = { 4, 6, 2, 8 };
	int i;

	memset(&in, 0, sizeof in);
	sb_dag_alloc(&in.g, 4);
	for (i = 0; i < 4; i++)
		in.g.ops[i] = ops[i];
	in.g.dc[1] = SB_DEV_CPU;
	cr_assert_eq(sb_dag_finish(&in.g, 4, eu, ev, NULL, 1, cu, cv, &err), 0);
	sb_devices_alloc(&in.dev, 2);
	in.dev.speed[0] = 1;
	in.dev.type[0] = SB_DEV_CPU;
	in.dev.speed[1] = 3;
	in.dev.type[1] = SB_DEV_GPU;
	in.dev.mem[0] = in.dev.mem[1] = 100;
	in.dev.rate[1] = in.dev.rate[2] = 1;
	in.dev.rate[0] = in.dev.rate[3] = INFINITY;
	sb_dag_lower_bounds(&in, &b);
	/* path 0 -> 1 -> 3: 4/3 + 6/1 + 8/3 = 10 */
	cr_assert_float_eq(b.cp, 10, 1e-12);
	cr_assert_float_eq(b.work, 20.0 / 4, 1e-12);
	cr_assert_float_eq(b.work_class, 6.0 / 1, 1e-12);   /* op 1, CPU only */
	cr_assert_float_eq(b.coloc, 6.0, 1e-12);            /* {1} on the CPU */
	cr_assert_float_eq(b.lb, 10, 1e-12);
	cr_assert(sb_dag_bruteforce_exact(&in) >= 10);
	sb_dag_inst_release(&in);
}

Test(dagbound, infeasible_memory)
{
	struct gen gp = { .n = 4, .ndev = 2, .edge_p = 0.5, .send_ops = 1 };
	struct sb_dag_inst in;
	struct sb_dag_bounds b;
	struct sb_lp_result res;

	mk_inst(&in, &gp, 5, 0);
	in.g.ram[2] = 100;                 /* fits nowhere */
	in.dev.mem[0] = in.dev.mem[1] = 50;
	sb_dag_lower_bounds(&in, &b);
	cr_assert(isinf(b.lb));
	cr_assert(isinf(sb_dag_bruteforce_relaxed(&in)));
	solve_relaxed(&in, &res);
	cr_assert_eq(res.status, SB_LP_INFEASIBLE);
	sb_lp_result_release(&res);

	/* each op fits alone, but not all together */
	in.g.ram[2] = 0;
	in.dev.mem[0] = in.dev.mem[1] = 0.3 * 1e-9;
	{
		int v;
		double need = 0;
		for (v = 0; v < 4; v++)
			need = sb_max(need, sb_dag_mem(&in, v));
		in.dev.mem[0] = in.dev.mem[1] = need;
	}
	if (isinf(sb_dag_bruteforce_relaxed(&in))) {
		solve_relaxed(&in, &res);
		cr_assert_eq(res.status, SB_LP_INFEASIBLE);
		sb_lp_result_release(&res);
	}
	sb_dag_inst_release(&in);
}

/* STG-like: integer durations, identical unit-speed processors, no
 * communication. The time-indexed model, both MILPs and the brute force
 * must agree. */
Test(dagbound, time_indexed_matches_bruteforce)
{
	int i;
	for (i = 0; i < 6; i++) {
		struct gen gp = { .n = 5 + i % 3, .ndev = 2, .edge_p = 0.35, .send_ops = 0,
				  .inf_rates = 1, .equal_speeds = 1 };
		struct sb_dag_inst in;
		struct sb_lp_result ti, rx;
		struct sb_err err;
		double bf, v;

		mk_inst(&in, &gp, 606, (uint64_t)i);
		bf = sb_dag_bruteforce_relaxed(&in);
		v = sb_dag_bruteforce_exact(&in);
		cr_assert_float_eq(v, bf, 1e-12);
		cr_assert_eq(sb_dag_time_indexed(&in, 2, 0, NULL, &ti, &err), 0, "%s", err.msg);
		cr_assert_eq(ti.status, SB_LP_OPTIMAL);
		cr_assert_float_eq(ti.obj, bf, 1e-6, "instance %d: time-indexed %g, brute %g",
				   i, ti.obj, bf);
		v = solve_relaxed(&in, &rx);
		cr_assert_float_eq(v, bf, 1e-6);
		sb_lp_result_release(&ti);
		sb_lp_result_release(&rx);
		/* a horizon below the critical path: no schedule */
		cr_assert_eq(sb_dag_time_indexed(&in, 2, 1, NULL, &ti, &err), 0);
		cr_assert_eq(ti.status, SB_LP_INFEASIBLE);
		sb_lp_result_release(&ti);
		sb_dag_inst_release(&in);
	}
}

Test(dagbound, time_indexed_rejects_fractional_work)
{
	struct gen gp = { .n = 4, .ndev = 2, .edge_p = 0.5, .inf_rates = 1,
			  .equal_speeds = 1 };
	struct sb_dag_inst in;
	struct sb_lp_result ti;
	struct sb_err err;

	mk_inst(&in, &gp, 7, 0);
	in.g.ops[1] = 2.5;
	cr_assert_eq(sb_dag_time_indexed(&in, 2, 0, NULL, &ti, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "integer") != NULL, "%s", err.msg);
	sb_dag_inst_release(&in);
}

/* A serial schedule on device 0 in topological order: what a simulator
 * would produce with everything placed on one device. */
static double serial_schedule(const struct sb_dag_inst *in, int *place, double *start)
{
	double t = 0;
	int i;
	for (i = 0; i < in->g.n; i++) {
		int v = in->g.topo[i];
		place[v] = 0;
		start[v] = t;
		t += sb_dag_time(in, v, 0);
	}
	return t;
}

Test(dagbound, warm_start)
{
	int i;
	for (i = 0; i < 6; i++) {
		struct gen gp = { .n = 6 + i % 3, .ndev = 3, .edge_p = 0.35, .send_ops = 1 };
		struct sb_dag_inst in;
		struct sb_dag_milp_opts o;
		struct sb_lp_result cold, warm;
		struct sb_err err;
		int place[16];
		double start[16], inc;

		mk_inst(&in, &gp, 707, (uint64_t)i);
		inc = serial_schedule(&in, place, start);
		solve_relaxed(&in, &cold);
		memset(&o, 0, sizeof o);
		o.time_limit = TL;
		o.inc_place = place;
		o.inc_start = start;
		o.inc_makespan = inc;
		cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &warm, &err), 0, "%s", err.msg);
		cr_assert_eq(warm.status, SB_LP_OPTIMAL);
		cr_assert(rel_diff(warm.obj, cold.obj) <= REL, "warm %g cold %g",
			  warm.obj, cold.obj);
		cr_assert(warm.obj <= inc * (1 + 1e-12));
		sb_lp_result_release(&warm);
		cr_assert_eq(sb_dag_milp_exact(&in, &o, &warm, &err), 0, "%s", err.msg);
		cr_assert_eq(warm.status, SB_LP_OPTIMAL);
		cr_assert(warm.obj >= cold.obj * (1 - REL));
		sb_lp_result_release(&warm);

		/* no time to search: the incumbent itself comes back */
		o.time_limit = 1e-6;
		cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &warm, &err), 0, "%s", err.msg);
		cr_assert(warm.status == SB_LP_FEASIBLE || warm.status == SB_LP_OPTIMAL);
		cr_assert(warm.obj <= inc * (1 + 1e-12));
		cr_assert(warm.bound <= cold.obj * (1 + REL));
		sb_lp_result_release(&warm);
		sb_lp_result_release(&cold);
		sb_dag_inst_release(&in);
	}
}

/* Simulate placement `place` with scheduler `sched` (start times of the
 * ops into start); returns the makespan. */
static double simulate(const struct sb_dag_inst *in, const int *place, const char *sched,
		       double *start)
{
	const struct sb_dag_policy *p = sb_dag_policy_find(sched);
	struct sb_dag_plan plan;
	struct sb_dag_exec x;
	struct sb_dag_result res;
	struct sb_err err;
	struct sb_opts o;
	double ms;

	cr_assert(p, "scheduler %s registered", sched);
	sb_dag_plan_init(&plan, in->g.n);
	memcpy(plan.place, place, sizeof(int) * (size_t)in->g.n);
	sb_dag_exec_build(&x, in, plan.place);
	sb_opts_defaults(&o, p->params);
	cr_assert_eq(sb_dag_simulate(&x, &plan, p, &o, &res, &err), 0, "%s", err.msg);
	memcpy(start, res.start, sizeof(double) * (size_t)in->g.n);
	ms = res.makespan;
	sb_dag_result_release(&res);
	sb_dag_exec_release(&x);
	sb_dag_plan_release(&plan);
	return ms;
}

/* The property the experiments rely on: lb <= relaxed MILP <= exact
 * optimum <= any simulated schedule, and a simulated schedule is accepted
 * as a warm start by both models. */
Test(dagbound, bounds_below_simulator)
{
	const char *scheds[] = { "fifo", "pct" };
	int i, j, k;
	for (i = 0; i < 12; i++) {
		struct gen gp = { .n = 4 + i % 2, .ndev = 2 + i % 2, .edge_p = 0.5,
				  .send_ops = 1 + i % 3 };
		struct sb_rng r = sb_rng_stream(1212, (uint64_t)i, 1, SB_RNG_TEST);
		struct sb_dag_inst in;
		struct sb_dag_bounds b;
		struct sb_lp_result rx, ex, w;
		struct sb_dag_milp_opts o;
		struct sb_err err;
		double bf;
		int place[8];
		double start[8];

		mk_inst(&in, &gp, 1212, (uint64_t)i);
		sb_dag_lower_bounds(&in, &b);
		bf = sb_dag_bruteforce_exact(&in);
		solve_relaxed(&in, &rx);
		solve_exact(&in, &ex);
		cr_assert(b.lb <= rx.bound * (1 + 1e-9));
		cr_assert(rx.bound <= bf * (1 + 1e-9));
		cr_assert(rel_diff(ex.obj, bf) <= REL);
		for (j = 0; j < 4; j++) {
			for (k = 0; k < gp.n; k++)
				place[k] = (int)sb_rng_below(&r, (uint32_t)gp.ndev);
			for (k = 0; k < 2; k++) {
				double ms = simulate(&in, place, scheds[k], start);
				cr_assert(bf <= ms * (1 + 1e-9), "instance %d: optimum %g > "
					  "simulated %g (%s)", i, bf, ms, scheds[k]);
				memset(&o, 0, sizeof o);
				o.time_limit = TL;
				o.inc_place = place;
				o.inc_start = start;
				o.inc_makespan = ms;
				cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &w, &err), 0);
				cr_assert_eq(w.status, SB_LP_OPTIMAL);
				cr_assert(rel_diff(w.obj, rx.obj) <= REL);
				sb_lp_result_release(&w);
				cr_assert_eq(sb_dag_milp_exact(&in, &o, &w, &err), 0);
				cr_assert_eq(w.status, SB_LP_OPTIMAL);
				cr_assert(rel_diff(w.obj, bf) <= REL);
				sb_lp_result_release(&w);
			}
		}
		sb_lp_result_release(&rx);
		sb_lp_result_release(&ex);
		sb_dag_inst_release(&in);
	}
}

Test(dagbound, lp_relaxation_is_a_bound)
{
	int i;
	for (i = 0; i < 10; i++) {
		struct gen gp = { .n = 6, .ndev = 3, .edge_p = 0.4, .send_ops = 1 };
		struct sb_dag_inst in;
		struct sb_dag_milp_opts o;
		struct sb_dag_bounds b;
		struct sb_lp_result lp;
		struct sb_err err;
		double bf;

		mk_inst(&in, &gp, 808, (uint64_t)i);
		sb_dag_lower_bounds(&in, &b);
		bf = sb_dag_bruteforce_relaxed(&in);
		memset(&o, 0, sizeof o);
		o.time_limit = TL;
		o.relax = 1;
		cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &lp, &err), 0, "%s", err.msg);
		cr_assert_eq(lp.status, SB_LP_OPTIMAL);
		cr_assert(lp.bound >= b.lb * (1 - 1e-9), "lp %g < lb %g", lp.bound, b.lb);
		cr_assert(lp.bound <= bf * (1 + 1e-9), "lp %g > opt %g", lp.bound, bf);
		sb_lp_result_release(&lp);
		sb_dag_inst_release(&in);
	}
}

Test(dagbound, time_limit_is_honest)
{
	struct gen gp = { .n = 22, .ndev = 4, .edge_p = 0.15, .send_ops = 1 };
	struct sb_dag_inst in;
	struct sb_dag_milp_opts o;
	struct sb_dag_bounds b;
	struct sb_lp_result res;
	struct sb_err err;
	int place[32];
	double start[32], inc;

	mk_inst(&in, &gp, 909, 0);
	sb_dag_lower_bounds(&in, &b);
	inc = serial_schedule(&in, place, start);
	memset(&o, 0, sizeof o);
	o.time_limit = 0.5;
	o.inc_place = place;
	o.inc_start = start;
	o.inc_makespan = inc;
	cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &res, &err), 0, "%s", err.msg);
	cr_assert(res.status == SB_LP_FEASIBLE || res.status == SB_LP_OPTIMAL,
		  "%s", sb_lp_status_name(res.status));
	cr_assert(res.bound <= res.obj * (1 + 1e-12));
	cr_assert(res.bound >= b.lb * (1 - 1e-9), "bound %g below lb %g", res.bound, b.lb);
	cr_assert(res.obj <= inc * (1 + 1e-12));
	cr_assert(res.seconds < 10);
	cr_log_info("n 22, 4 dev, 0.5 s: %s obj %g bound %g (lb %g, serial %g)",
		    sb_lp_status_name(res.status), res.obj, res.bound, b.lb, inc);
	sb_lp_result_release(&res);
	sb_dag_inst_release(&in);
}

/* A node budget is a deterministic amount of work: two solves give the
 * same status, incumbent, bound and node count, within the budget, and the
 * reported time covers the whole call. */
Test(dagbound, node_budget_is_deterministic)
{
	struct gen gp = { .n = 22, .ndev = 4, .edge_p = 0.15, .send_ops = 1 };
	struct sb_dag_inst in;
	struct sb_dag_milp_opts o;
	struct sb_lp_result r1, r2;
	struct sb_err err;
	int place[32];
	double start[32], inc, t0;

	mk_inst(&in, &gp, 909, 0);
	inc = serial_schedule(&in, place, start);
	memset(&o, 0, sizeof o);
	o.time_limit = 600;
	o.node_limit = 40;
	o.inc_place = place;
	o.inc_start = start;
	o.inc_makespan = inc;
	t0 = sb_now();
	cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &r1, &err), 0, "%s", err.msg);
	cr_assert(r1.seconds <= sb_now() - t0 + 1e-9);
	cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &r2, &err), 0, "%s", err.msg);
	cr_assert_eq(r1.stopped, SB_LP_STOP_NODES, "%s", sb_lp_stop_name(r1.stopped));
	cr_assert(r1.nodes <= 40 && r1.nodes > 0);
	cr_assert_eq(r1.status, r2.status);
	cr_assert_eq(r1.stopped, r2.stopped);
	cr_assert_eq(r1.nodes, r2.nodes);
	cr_assert_eq(r1.iters, r2.iters);
	cr_assert(r1.obj == r2.obj && r1.bound == r2.bound, "%.17g/%.17g vs %.17g/%.17g",
		  r1.obj, r1.bound, r2.obj, r2.bound);
	sb_lp_result_release(&r1);
	sb_lp_result_release(&r2);
	sb_dag_inst_release(&in);
}

/* A makespan that belongs to no schedule of the model (here: the relaxed
 * optimum given to the exact model) is reported, not turned into a false
 * "infeasible". */
Test(dagbound, false_makespan_is_reported)
{
	int i, found = 0;
	for (i = 0; i < 20 && !found; i++) {
		struct gen gp = { .n = 5, .ndev = 2, .edge_p = 0.6, .send_ops = 4 };
		struct sb_dag_inst in;
		struct sb_dag_milp_opts o;
		struct sb_lp_result res;
		struct sb_err err;
		double rx, ex;

		mk_inst(&in, &gp, 1313, (uint64_t)i);
		rx = sb_dag_bruteforce_relaxed(&in);
		ex = sb_dag_bruteforce_exact(&in);
		if (ex > rx * (1 + 1e-6)) {
			found = 1;
			memset(&o, 0, sizeof o);
			o.time_limit = TL;
			o.inc_makespan = rx;
			cr_assert_eq(sb_dag_milp_exact(&in, &o, &res, &err), SB_EXIT_INPUT);
			cr_assert(strstr(err.msg, "below the optimum") != NULL, "%s", err.msg);
			/* the relaxed model accepts it: it is its optimum */
			cr_assert_eq(sb_dag_milp_relaxed(&in, &o, &res, &err), 0);
			cr_assert_eq(res.status, SB_LP_OPTIMAL);
			cr_assert(rel_diff(res.obj, rx) <= REL);
			sb_lp_result_release(&res);
		}
		sb_dag_inst_release(&in);
	}
	cr_assert(found, "no instance where Sends matter");
}

Test(dagbound, too_large_for_exact)
{
	struct gen gp = { .n = 13, .ndev = 2, .edge_p = 0.2, .send_ops = 1 };
	struct sb_dag_inst in;
	struct sb_lp_result res;
	struct sb_err err;

	mk_inst(&in, &gp, 1, 0);
	cr_assert_eq(sb_dag_milp_exact(&in, NULL, &res, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "too large") != NULL, "%s", err.msg);
	sb_dag_inst_release(&in);
}

Test(slow, dagbound_many)
{
	struct gen gp = { .edge_p = 0.4, .send_ops = 1 };
	struct gen gc = { .edge_p = 0.4, .send_ops = 2, .constrained = 1 };
	struct gen ge = { .edge_p = 0.3, .send_ops = 3, .etc = 1 };
	check_relaxed(&gp, 120, 1001, 4, 8);
	check_relaxed(&ge, 40, 1004, 4, 7);
	check_exact(&gp, 40, 1002, 4, 6);
	check_exact(&gc, 20, 1003, 4, 6);
	check_exact(&ge, 20, 1005, 5, 7);
}
