/*
 * test_alloc.c - the alloc family's simulator and checker: the checker
 * rejects every kind of broken run, every registered policy gives checked
 * runs on seeded random instances of both job modes, and the model keeps
 * the properties its specs state (gadget.md §9, smd.md §9).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "alloc/alloc.h"
#include "tests/alloc/small.h"

static void small(struct sb_alloc_inst *in, int mode, int njob, int S, int G, int T, int K,
		  uint64_t seed)
{
	sb_test_alloc_small(in, mode, mode == SB_ALLOC_RAR ? SB_ALLOC_EXC : SB_ALLOC_JCT, njob, S, G,
			    T, K, 0, seed);
}

static int run(const struct sb_alloc_inst *in, const char *name, struct sb_alloc_result *r)
{
	const struct sb_alloc_policy *p = sb_alloc_policy_find(name);
	struct sb_opts o;
	struct sb_err err;
	struct sb_rng rng = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
	int rc;
	cr_assert_not_null(p, "%s", name);
	sb_opts_defaults(&o, p->params);
	rc = sb_alloc_run(in, p, &o, &rng, r, &err);
	cr_assert_eq(rc, 0, "%s: %s", name, err.msg);
	return rc;
}

/* A deep copy of r with room for one more grant. */
static void copy(const struct sb_alloc_result *r, struct sb_alloc_result *c, int J)
{
	*c = *r;
	c->grant = SB_NEW(struct sb_alloc_grant, r->ngrant + 1);
	memcpy(c->grant, r->grant, sizeof *r->grant * (size_t)r->ngrant);
	c->slot_off = SB_NEW(int, r->nslot + 1);
	memcpy(c->slot_off, r->slot_off, sizeof(int) * (size_t)(r->nslot + 1));
	c->progress = SB_NEW(double, J);
	memcpy(c->progress, r->progress, sizeof(double) * (size_t)J);
	c->finish = SB_NEW(double, J);
	memcpy(c->finish, r->finish, sizeof(double) * (size_t)J);
	c->gpu_slots = SB_NEW(double, J);
	memcpy(c->gpu_slots, r->gpu_slots, sizeof(double) * (size_t)J);
	c->busy = NULL;
}

static void expect_reject(const struct sb_alloc_inst *in, const struct sb_alloc_result *r,
			  const char *what)
{
	char why[512];
	cr_assert_eq(sb_alloc_check(in, r, why, sizeof why), 1, "accepted: expected '%s'", what);
	cr_assert(strstr(why, what), "message '%s' lacks '%s'", why, what);
}

Test(alloc, checker_rejects_each_kind_of_violation)
{
	struct sb_alloc_inst in;
	struct sb_alloc_result r, c;
	char why[512];
	int k;

	small(&in, SB_ALLOC_RAR, 4, 2, 4, 10, 6, 3);
	run(&in, "fifo", &r);
	cr_assert_gt(r.ngrant, 1);
	cr_assert_eq(sb_alloc_check(&in, &r, why, sizeof why), 0, "%s", why);

	/* over capacity: one grant above its server's GPUs (cap 6 workers > 4 GPUs) */
	copy(&r, &c, in.njob);
	c.grant[0].workers = 5;
	expect_reject(&in, &c, "over capacity");
	sb_alloc_result_release(&c);

	/* above the worker cap */
	copy(&r, &c, in.njob);
	in.job[c.grant[0].job].max_workers = c.grant[0].workers - 1 > 0 ? c.grant[0].workers - 1 : 0;
	if (c.grant[0].workers == 1)
		in.job[c.grant[0].job].max_workers = 0;
	expect_reject(&in, &c, "above its cap");
	in.job[c.grant[0].job].max_workers = 6;
	sb_alloc_result_release(&c);

	/* before arrival */
	copy(&r, &c, in.njob);
	{
		int j = c.grant[0].job, a = in.job[j].arrival;
		in.job[j].arrival = in.nslot - 1 > a ? in.nslot - 1 : a + 1;
		expect_reject(&in, &c, "before its arrival");
		in.job[j].arrival = a;
	}
	sb_alloc_result_release(&c);

	/* a ring-all-reduce job with a PS */
	copy(&r, &c, in.njob);
	c.grant[0].ps = 1;
	expect_reject(&in, &c, "has 1 PSs");
	sb_alloc_result_release(&c);

	/* two layouts of one job on one server in one slot */
	copy(&r, &c, in.njob);
	for (k = c.ngrant; k > 1; k--)
		c.grant[k] = c.grant[k - 1];
	c.grant[1] = c.grant[0];
	c.grant[0].workers = c.grant[1].workers = 1;
	c.ngrant++;
	for (k = 1; k <= c.nslot; k++)
		if (c.slot_off[k] > 0)   /* the slots from grant 0's on */
			c.slot_off[k]++;
	expect_reject(&in, &c, "two layouts");
	sb_alloc_result_release(&c);

	/* resources after completion: a grant appended to the last slot for a
	 * job that finished earlier */
	copy(&r, &c, in.njob);
	{
		int j, found = -1;
		for (j = 0; j < in.njob && found < 0; j++)
			if (c.finish[j] >= 0 && c.finish[j] < (c.nslot - 1) * in.slot_s)
				found = j;
		cr_assert_geq(found, 0, "no job finishes before the last slot");
		c.grant[c.ngrant] = (struct sb_alloc_grant){ found, 1, 1, 0 };
		/* server 1 has room only if the last slot leaves it; use a
		 * server with no grant in the last slot */
		c.ngrant++;
		c.slot_off[c.nslot] = c.ngrant;
		cr_assert_eq(sb_alloc_check(&in, &c, why, sizeof why), 1);
		cr_assert(strstr(why, "after it completed") || strstr(why, "over capacity"), "%s", why);
	}
	sb_alloc_result_release(&c);

	/* progress above target, progress mismatch, wrong metric */
	copy(&r, &c, in.njob);
	c.progress[0] = in.job[0].target * 1.5;
	expect_reject(&in, &c, "above its target");
	c.progress[0] = r.progress[0] * 0.5;
	expect_reject(&in, &c, "the grants give");
	c.progress[0] = r.progress[0];
	c.utility += 1;
	expect_reject(&in, &c, "utility");
	c.utility = r.utility;
	c.flow_slots += 1;
	expect_reject(&in, &c, "flow");
	sb_alloc_result_release(&c);

	/* grants to a job or server that does not exist; empty grants */
	copy(&r, &c, in.njob);
	c.grant[0].server = in.nserver;
	expect_reject(&in, &c, "no such job or server");
	c.grant[0].server = r.grant[0].server;
	c.grant[0].workers = 0;
	expect_reject(&in, &c, "0 workers and 0 PSs");
	sb_alloc_result_release(&c);

	sb_alloc_result_release(&r);
	sb_alloc_inst_release(&in);

	/* a PS job needs both workers and PSs */
	small(&in, SB_ALLOC_PS, 4, 2, 4, 10, 4, 5);
	run(&in, "fifo", &r);
	cr_assert_eq(sb_alloc_check(&in, &r, why, sizeof why), 0, "%s", why);
	copy(&r, &c, in.njob);
	c.grant[0].ps = 0;
	for (k = 1; k < c.slot_off[1]; k++)
		if (c.grant[k].job == c.grant[0].job)
			c.grant[k].ps = 0;
	expect_reject(&in, &c, "needs both");
	sb_alloc_result_release(&c);
	sb_alloc_result_release(&r);
	sb_alloc_inst_release(&in);
}

Test(alloc, every_policy_checked_on_random_instances)
{
	int np, i, k, mode;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&np);
	cr_assert_geq(np, 10);
	for (mode = 0; mode < 2; mode++)
		for (k = 0; k < 20; k++) {
			struct sb_alloc_inst in;
			small(&in, mode, 3 + k % 5, 2 + k % 3, 4 + 4 * (k % 2), 12, 8, 100 + k);
			for (i = 0; i < np; i++) {
				struct sb_alloc_result r;
				if (!sb_alloc_policy_fits(p[i], &in))
					continue;
				run(&in, p[i]->name, &r);
				cr_assert(r.progress[0] <= in.job[0].target);
				sb_alloc_result_release(&r);
			}
			sb_alloc_inst_release(&in);
		}
}

Test(alloc, step_time_model)
{
	struct sb_alloc_inst in;
	int j, w;
	small(&in, SB_ALLOC_RAR, 3, 2, 8, 10, 8, 9);
	for (j = 0; j < in.njob; j++) {
		const struct sb_alloc_job *jb = &in.job[j];
		/* w = 1: no communication; w -> inf: 2 m / B */
		cr_assert_float_eq(sb_alloc_tau(jb, 1, 0, 0, -1), jb->compute, 1e-12);
		cr_assert_float_eq(sb_alloc_tau(jb, 100000, 0, 0, -1),
				   jb->compute + 2 * jb->model_mb / jb->bw_out, 1e-3);
		for (w = 1; w <= 8; w++)
			cr_assert_leq(sb_alloc_rate(&in, j, w, 0, 0), sb_alloc_rate(&in, j, w, 0, 1));
	}
	sb_alloc_inst_release(&in);
	small(&in, SB_ALLOC_PS, 3, 2, 8, 10, 8, 9);
	for (j = 0; j < in.njob; j++) {
		const struct sb_alloc_job *jb = &in.job[j];
		double comm = 0, prev = INFINITY;
		int l, p;
		for (l = 0; l < jb->nlayer; l++)
			comm += 2 * jb->layer_mb[l] / jb->bw_out;
		/* WFBP: F + sum g <= tau <= F + sum g + sum q (smd.md §9) */
		cr_assert_geq(sb_alloc_tau(jb, 4, 4, 0, 1), jb->compute * (1 - 1e-12));
		cr_assert_leq(sb_alloc_tau(jb, 4, 4, 0, 1), jb->compute + comm + 1e-9);
		cr_assert_float_eq(sb_alloc_tau(jb, 4, 4, 0, 0), jb->compute + comm, 1e-9);
		for (p = 1; p <= 8; p++) {
			double t = sb_alloc_tau(jb, 8, p, 0, 1);
			cr_assert_leq(t, prev + 1e-12, "tau must not grow with PSs");
			prev = t;
		}
	}
	sb_alloc_inst_release(&in);
}

Test(alloc, determinism_same_seed_same_run)
{
	struct sb_alloc_inst in;
	int np, i;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&np);
	small(&in, SB_ALLOC_PS, 6, 3, 8, 12, 8, 77);
	for (i = 0; i < np; i++) {
		struct sb_alloc_result a, b;
		if (!sb_alloc_policy_fits(p[i], &in))
			continue;
		run(&in, p[i]->name, &a);
		run(&in, p[i]->name, &b);
		cr_assert_eq(a.ngrant, b.ngrant, "%s", p[i]->name);
		cr_assert(!memcmp(a.grant, b.grant, sizeof *a.grant * (size_t)a.ngrant), "%s",
			  p[i]->name);
		sb_alloc_result_release(&a);
		sb_alloc_result_release(&b);
	}
	sb_alloc_inst_release(&in);
}
