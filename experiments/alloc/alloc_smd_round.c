/*
 * alloc_smd_round.c - figure smd-F4 (smd.md §8 and §7, ours [O]): SMD's
 * per-round cost against the round's optimum, on seeded rounds.
 *   kind "round": one round of `jobs` queued PS jobs (remaining work = the
 *     whole job) on `servers` servers; SMD's two-level heuristic with the
 *     greedy outer selection (smd_round.c) and with the LP-outer selection
 *     (the MMKP LP relaxation picks the configurations, the same greedy
 *     repairs), against the round's MMKP ILP (GLPK, node limit) and its LP
 *     relaxation. ratio = cost / the ILP optimum when proven, else / the
 *     ILP's bound (then optimal = 0: a ratio to a bound, still >= 1).
 *   kind "inner": the sum-of-ratios inner problem of three jobs that must
 *     all run on one server (W_i, P_i <= 6): Dinkelbach's method as the
 *     spec states it and with the weighted update (smd_dinkelbach.c,
 *     reconstructed / ours) against exhaustive enumeration.
 * Every choice passes the round's independent check
 * (sb_alloc_mmkp_check) before its cost is recorded. Deterministic
 * (GLPK on node limits).
 */
#include "common.h"
#include "algorithms/smd/smd.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 50, 1, 100000, 1, "rounds (and tiny inner instances)" },
	{ "jobs", 12, 1, 200, 1, "queued jobs per round" },
	{ "servers", 4, 1, 4096, 1, "servers of 8 GPUs and 24 CPUs per round" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "instance", SB_COL_INT, "" },
	{ "kind", SB_COL_STR, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "variant", SB_COL_STR, "" },
	{ "cost", SB_COL_DBL, "s" },
	{ "opt", SB_COL_DBL, "s" },
	{ "optimal", SB_COL_INT, "" },
	{ "ratio", SB_COL_DBL, "" },
	{ "iters", SB_COL_INT, "" },
	{ "converged", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps");
	return sb_alloc_exp_smd_setup(c, "one round, every job queued (no arrivals)", 0, err);
}

struct rows {
	struct sb_table *out;
	int instance, jobs;
	const char *kind;
	double opt;
	int optimal;
};

/* Add one row (cost already checked, or a bound). */
static void row(struct rows *e, const char *variant, double cost, int iters, int converged)
{
	size_t r = sb_table_add(e->out);
	sb_table_set_int(e->out, r, "instance", e->instance);
	sb_table_set_str(e->out, r, "kind", e->kind);
	sb_table_set_int(e->out, r, "jobs", e->jobs);
	sb_table_set_str(e->out, r, "variant", variant);
	sb_table_set_dbl(e->out, r, "cost", cost);
	sb_table_set_dbl(e->out, r, "opt", e->opt);
	sb_table_set_int(e->out, r, "optimal", e->optimal);
	sb_table_set_dbl(e->out, r, "ratio", cost / e->opt);
	sb_table_set_int(e->out, r, "iters", iters);
	sb_table_set_int(e->out, r, "converged", converged);
}

/* Check choice against the round, then add its row. */
static int emit(struct rows *e, const struct sb_smd_round *rd, const char *variant,
		const int *choice, int iters, int converged, struct sb_err *err)
{
	double cost;
	int rc = sb_alloc_exp_smd_check(&rd->m, choice, "alloc_smd_round", variant, &cost, err);
	if (!rc)
		row(e, variant, cost, iters, converged);
	return rc;
}

/* One instance's round over all its jobs (remaining = target). */
struct rcase {
	struct sb_alloc_inst in;
	struct sb_smd_round rd;
	double *rem;
	int *choice;
};

static void rcase_open(struct rcase *k)
{
	int *jobs = SB_NEW(int, k->in.njob + 1), j;
	k->rem = SB_NEW(double, k->in.njob + 1);
	for (j = 0; j < k->in.njob; j++) {
		jobs[j] = j;
		k->rem[j] = k->in.job[j].target;
	}
	sb_smd_round_build(&k->rd, &k->in, jobs, k->in.njob, k->rem, -1);
	k->choice = SB_NEW(int, k->rd.m.n + 1);
	sb_free(jobs);
}

static void rcase_close(struct rcase *k)
{
	sb_free(k->choice);
	sb_free(k->rem);
	sb_smd_round_release(&k->rd);
	sb_alloc_inst_release(&k->in);
}

static int round_rows(struct sb_exp_ctx *c, int point, struct sb_table *out,
		      struct sb_err *err)
{
	struct rows e = { out, point, (int)sb_opts_get(&c->opts, "jobs"), "round", 0, 0 };
	struct sb_alloc_bound ilp, lp;
	struct rcase k;
	double total;
	int rc;

	sb_alloc_exp_smd_inst(c, point, e.jobs, (int)sb_opts_get(&c->opts, "servers"), &k.in);
	rcase_open(&k);
	if ((rc = sb_alloc_mmkp_bound(&k.rd.m, 0, &ilp, err)) ||
	    (rc = sb_alloc_mmkp_bound(&k.rd.m, 1, &lp, err)))
		goto out;
	e.optimal = ilp.optimal;
	e.opt = ilp.optimal && ilp.has_incumbent ? ilp.incumbent : ilp.bound;
	sb_smd_round_solve(&k.rd, k.choice);
	if ((rc = emit(&e, &k.rd, "greedy-outer", k.choice, 0, 1, err)) ||
	    (rc = sb_smd_round_solve_lp(&k.rd, k.choice, &total, err)) ||
	    (rc = emit(&e, &k.rd, "lp-outer", k.choice, 0, 1, err)))
		goto out;
	/* the ILP's value and the LP bound as rows of their own */
	row(&e, "ilp", ilp.has_incumbent ? ilp.incumbent : ilp.bound, 0, ilp.optimal);
	row(&e, "lp", lp.bound, 0, lp.optimal);
out:
	rcase_close(&k);
	return rc;
}

static int inner_rows(struct sb_exp_ctx *c, int point, struct sb_table *out,
		      struct sb_err *err)
{
	const struct sb_alloc_exp_smd *s = c->state;
	struct rows e = { out, point, 3, "inner", 0, 1 };
	struct sb_alloc_genp g;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 1, SB_RNG_INSTANCE);
	struct rcase k;
	double sum;
	int run[3] = { 1, 1, 1 }, iters, conv, rc;

	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = 3;
	g.nserver = 1;
	g.kmax = g.pmax = 6;
	sb_alloc_gen(&k.in, &g, &s->ty, NULL, 0, s->have_tensors ? &s->tensors : NULL, &gen);
	rcase_open(&k);
	if ((rc = sb_smd_enumerate(&k.rd, run, 100000000L, k.choice, &e.opt))) {
		rc = sb_err_set(err, SB_EXIT_RUN, "alloc_smd_round: inner instance %d: %s", point,
				rc > 0 ? "no choice fits" : "too large to enumerate");
		goto out;
	}
	if ((rc = emit(&e, &k.rd, "enumeration", k.choice, 0, 1, err)) ||
	    (rc = sb_smd_dinkelbach(&k.rd, run, 0, k.choice, &sum, &iters, &conv, err)) ||
	    (rc = emit(&e, &k.rd, "dinkelbach", k.choice, iters, conv, err)) ||
	    (rc = sb_smd_dinkelbach(&k.rd, run, 1, k.choice, &sum, &iters, &conv, err)) ||
	    (rc = emit(&e, &k.rd, "dinkelbach-weighted", k.choice, iters, conv, err)))
		goto out;
out:
	rcase_close(&k);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int rc;
	(void)timing;
	if ((rc = round_rows(c, point, out, err)))
		return rc;
	return inner_rows(c, point, out, err);
}

const struct sb_experiment sb_experiment_alloc_smd_round = {
	.name = "alloc_smd_round",
	.desc = "SMD's round cost over the round's ILP optimum: greedy-outer, LP-outer; Dinkelbach inner vs enumeration",
	.figure = "smd-F4",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=10",
	.cols = cols,
	.summary_by = "kind variant",
	.summary_of = "ratio",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_alloc_exp_smd_teardown,
};
