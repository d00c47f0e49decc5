/*
 * test_fast.c - the alloc baselines made incremental for speed give the
 * schedules of their reference form exactly: DRF's heap against the linear
 * scan DL2's rule describes, and Optimus's per-class heaps against the
 * plain re-evaluation of every job's gain after every worker (both kept
 * here as the references), grant by grant, on seeded instances with bursts
 * of arrivals, ring-all-reduce and PS. The primal-dual engine of GADGET-PD
 * and OASiS (core/alloc/pd.c) reuses the prices and options of a slot that
 * holds what the previous one holds: held to its plain mode the same way.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc/pd.h"
#include "tests/alloc/small.h"

static double ref_share(const struct sb_alloc_plan *pl, const double *total, int j)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	double d = 0;
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (total[r] > 0)
			d = sb_max(d, (pl->w[j] * jb->wdem[r] + pl->p[j] * jb->pdem[r]) / total[r]);
	return d;
}

/* the DRF of DL2's drf_env.py as a linear scan (the code before the heap) */
static int ref_drf(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		   struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	double total[SB_ALLOC_NRES] = { 0 };
	int s, r;
	(void)ctx;
	(void)o;
	(void)err;
	for (s = 0; s < v->in->nserver; s++)
		for (r = 0; r < SB_ALLOC_NRES; r++)
			total[r] += v->in->cap[s][r];
	for (;;) {
		int i, best = -1;
		double bs = INFINITY;
		for (i = 0; i < v->nactive; i++) {
			int j = v->active[i];
			double d;
			if (pl->w[j] >= v->in->job[j].max_workers)
				continue;
			d = ref_share(pl, total, j);
			if (d < bs) {
				bs = d;
				best = j;
			}
		}
		if (best < 0 || sb_alloc_add_unit(pl, best, SB_ALLOC_PACK, rng) < 0)
			return 0;
	}
}

static const struct sb_alloc_policy reference = {
	.name = "drf-reference",
	.allocate = ref_drf,
};

/* Optimus as DL2's optimus_env.py describes it (the code before the
 * heaps): every job's gain tried on the plan after every worker. */
static double ref_gain(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, int j,
		       struct sb_rng *rng)
{
	double rem = v->in->job[j].target - v->progress[j], r0, r1;
	int p0 = pl->p[j], s;

	if (pl->w[j] >= 16 || pl->w[j] >= v->in->job[j].max_workers)
		return -INFINITY;
	r0 = sb_alloc_plan_rate(pl, j);
	if ((s = sb_alloc_add_unit(pl, j, SB_ALLOC_LEAST, rng)) < 0)
		return -INFINITY;
	r1 = sb_alloc_plan_rate(pl, j);
	sb_alloc_plan_take(pl, j, s, 1, pl->p[j] - p0);
	return r0 <= 0 ? INFINITY : rem / r0 - rem / r1;
}

static int ref_optimus(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		       struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	(void)ctx;
	(void)o;
	(void)err;
	for (;;) {
		int i, best = -1;
		double bg = 0;
		for (i = 0; i < v->nactive; i++) {
			int j = v->active[i];
			double g = ref_gain(v, pl, j, rng);
			if (g > bg) {
				bg = g;
				best = j;
			}
		}
		if (best < 0 || sb_alloc_add_unit(pl, best, SB_ALLOC_LEAST, rng) < 0)
			return 0;
	}
}

static const struct sb_alloc_policy optimus_reference = {
	.name = "optimus-reference",
	.allocate = ref_optimus,
};

static int by_job_server(const void *a, const void *b)
{
	const struct sb_alloc_grant *x = a, *y = b;
	return x->job != y->job ? x->job - y->job : x->server - y->server;
}

/* The order of a slot's grants carries no meaning (the plain Optimus
 * leaves an emptied grant behind wherever it tried a worker, which moves
 * the job's later grant there earlier in the list): sorted for sets =
 * 1. */
static void sort_slots(struct sb_alloc_result *r)
{
	int t;
	for (t = 0; t < r->nslot; t++)
		qsort(r->grant + r->slot_off[t], (size_t)(r->slot_off[t + 1] - r->slot_off[t]),
		      sizeof *r->grant, by_job_server);
}

static void same_runs_as(const struct sb_alloc_inst *in, const struct sb_alloc_policy *fast,
			 const struct sb_alloc_policy *ref, int k, int sets)
{
	struct sb_alloc_result a, b;
	struct sb_opts o;
	struct sb_err err;
	struct sb_rng r1 = sb_rng_stream(11, (uint64_t)k, 0, SB_RNG_TEST);
	struct sb_rng r2 = r1;
	int g;
	sb_opts_defaults(&o, NULL);
	cr_assert_eq(sb_alloc_run(in, fast, &o, &r1, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_alloc_run(in, ref, &o, &r2, &b, &err), 0, "%s", err.msg);
	if (sets) {
		sort_slots(&a);
		sort_slots(&b);
	}
	cr_assert_eq(a.ngrant, b.ngrant, "instance %d: %d grants against %d", k, a.ngrant,
		     b.ngrant);
	cr_assert_eq(a.nslot, b.nslot);
	for (g = 0; g < a.ngrant; g++)
		cr_assert(!memcmp(&a.grant[g], &b.grant[g], sizeof a.grant[g]),
			  "instance %d: grant %d differs", k, g);
	cr_assert(!memcmp(a.slot_off, b.slot_off, sizeof *a.slot_off * (size_t)(a.nslot + 1)));
	cr_assert(!memcmp(&a.utility, &b.utility, sizeof a.utility));
	cr_assert(!memcmp(&a.jct_mean, &b.jct_mean, sizeof a.jct_mean));
	sb_alloc_result_release(&a);
	sb_alloc_result_release(&b);
}

static void same_runs(const struct sb_alloc_inst *in, const struct sb_alloc_policy *fast,
		      const struct sb_alloc_policy *ref, int k)
{
	same_runs_as(in, fast, ref, k, 0);
}

Test(alloc_fast, drf_heap_equals_linear_scan)
{
	const struct sb_alloc_policy *drf = sb_alloc_policy_find("drf");
	int k;
	cr_assert(drf);
	for (k = 0; k < 40; k++) {
		struct sb_alloc_genp g;
		struct sb_alloc_types ty;
		struct sb_alloc_inst in;
		struct sb_rng gen = sb_rng_stream(12, (uint64_t)k, 0, SB_RNG_TEST);
		sb_alloc_types_builtin(&ty);
		sb_alloc_genp_defaults(&g, k % 2 ? SB_ALLOC_PS : SB_ALLOC_RAR);
		/* bursts: up to 40 arrivals per slot on a few servers, so the
		 * queue is long and shares tie often (equal demands) */
		g.njob = 60 + 10 * (k % 5);
		g.nserver = 2 + k % 4;
		g.poisson = 5 + 10 * (k % 4);
		g.kmax = g.pmax = 1 + k % 8;
		g.nslot = 400;
		sb_alloc_gen(&in, &g, &ty, NULL, 0, NULL, &gen);
		same_runs(&in, drf, &reference, k);
		sb_alloc_inst_release(&in);
	}
}

Test(alloc_fast, optimus_heaps_equal_plain_rule)
{
	const struct sb_alloc_policy *opt = sb_alloc_policy_find("optimus");
	int k;
	cr_assert(opt);
	for (k = 0; k < 40; k++) {
		struct sb_alloc_genp g;
		struct sb_alloc_types ty;
		struct sb_alloc_inst in;
		struct sb_rng gen = sb_rng_stream(13, (uint64_t)k, 0, SB_RNG_TEST);
		sb_alloc_types_builtin(&ty);
		sb_alloc_genp_defaults(&g, k % 2 ? SB_ALLOC_PS : SB_ALLOC_RAR);
		/* bursts on a few servers, caps from 1 to 20 (Optimus stops at
		 * 16), so classes, locality and ties all change often */
		g.njob = 40 + 10 * (k % 5);
		g.nserver = 1 + k % 5;
		g.poisson = 5 + 10 * (k % 4);
		g.kmax = g.pmax = 1 + (k * 7) % 20;
		if (k % 3 == 0)
			g.pmax = 1 + k % 3;   /* fewer PSs than workers: the class changes */
		g.nslot = 300;
		sb_alloc_gen(&in, &g, &ty, NULL, 0, NULL, &gen);
		same_runs_as(&in, opt, &optimus_reference, k, 1);
		sb_alloc_inst_release(&in);
	}
}

/* ------------------------------------------------------------------ */
/* The primal-dual engine: reuse of equal slots against its plain mode  */
/* ------------------------------------------------------------------ */

static int pd_plain, pd_deadline;
static long pd_reused;

/* GADGET-PD's value (the utility gained), or with pd_deadline an OASiS-like
 * one that halves after a deadline, so that the slot c matters too. */
static double pd_value(void *arg, const struct sb_alloc_inst *in, int j, double done,
		       double frac, int c)
{
	double need = in->job[j].target - done;
	double v = sb_alloc_job_utility(in, j, done + frac * need, 0) -
		   sb_alloc_job_utility(in, j, done, 0);
	(void)arg;
	if (pd_deadline && c > in->job[j].arrival + 6)
		v *= 0.5;
	return pd_deadline ? v + frac : v;
}

static void *pd_init(const struct sb_alloc_inst *in, const struct sb_opts *o, struct sb_rng *rng)
{
	struct sb_alloc_pd_cfg c = { 20, 16, 3, in->util == SB_ALLOC_ENE ? in->eta : 0, pd_value,
				     NULL, pd_plain };
	(void)o;
	(void)rng;
	return sb_alloc_pd_new(in, &c);
}

static void pd_release(void *ctx)
{
	pd_reused += sb_alloc_pd_reused(ctx);
	sb_alloc_pd_free(ctx);
}

static int pd_allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		       struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	(void)o;
	(void)rng;
	(void)err;
	sb_alloc_pd_allocate(ctx, v, pl);
	return 0;
}

static const struct sb_alloc_policy pd_policy = {
	.name = "pd-engine",
	.init = pd_init,
	.release = pd_release,
	.allocate = pd_allocate,
};

static void *pd_ref_init(const struct sb_alloc_inst *in, const struct sb_opts *o,
			 struct sb_rng *rng)
{
	int save = pd_plain;
	void *x;
	pd_plain = 1;
	x = pd_init(in, o, rng);
	pd_plain = save;
	return x;
}

static const struct sb_alloc_policy pd_reference = {
	.name = "pd-engine-plain",
	.init = pd_ref_init,
	.release = pd_release,
	.allocate = pd_allocate,
};

Test(alloc_fast, pd_reuse_equals_plain_engine)
{
	long fast_reused = 0;
	int k;
	for (k = 0; k < 48; k++) {
		struct sb_alloc_genp g;
		struct sb_alloc_types ty;
		struct sb_alloc_inst in;
		struct sb_rng gen = sb_rng_stream(14, (uint64_t)k, 0, SB_RNG_TEST);
		sb_alloc_types_builtin(&ty);
		sb_alloc_genp_defaults(&g, k % 2 ? SB_ALLOC_PS : SB_ALLOC_RAR);
		/* bursts and quiet spells on 1 to 8 servers: plans that
		 * repeat a layout over slots, a window that runs empty, and
		 * prices that change from one slot to the next */
		g.njob = 30 + 10 * (k % 4);
		g.nserver = 1 + k % 8;
		g.poisson = 0.5 + 4 * (k % 3);
		g.kmax = g.pmax = 1 + (k * 5) % 12;
		g.util = (k / 2) % 3;   /* EXC, ENE (priced GPUs), FAIR */
		g.nslot = 200;
		sb_alloc_gen(&in, &g, &ty, NULL, 0, NULL, &gen);
		pd_deadline = (k / 6) % 2;
		pd_reused = 0;
		same_runs(&in, &pd_policy, &pd_reference, k);
		fast_reused += pd_reused;
		sb_alloc_inst_release(&in);
	}
	/* the comparison means something only if slots were reused */
	cr_assert_gt(fast_reused, 1000, "only %ld slots reused", fast_reused);
}
