/*
 * sync_momentum.c - adsp-F6: implicit against explicit momentum (adsp.md
 * §3 "Theory" and §6.6b-c [V, code: vary_commit_rate_mu.py]). The
 * authors plot the implicit momentum of asynchronous commits,
 * mu_impl(ΔC) = 1 - 1 / (1 + (M - 1) kappa / ΔC) with kappa = 0.05, against
 * the best explicit PS momentum found by a sweep (theirs: about 0.15), and
 * read the crossing as the commit rate to aim for. Rows of kind "sweep":
 * ADSP+ at a fixed commit rate `dc` with the PS's explicit momentum mu
 * (v = mu v + Delta/M, W += v), convergence time per seed; rows of kind
 * "curve": mu_impl at the ΔC grid of sync_commit for this M (analytic,
 * the authors' formula; kappa is theirs for M = 18 and kept for any M
 * [M]). Which scheme and ΔC the authors swept mu on is not in their
 * scripts: ADSP+ at dc = 10, the grid's least implicit momentum, is our
 * choice [O]. Substitutes and departures: experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

#include <stdio.h>

static const double mus[] = { 0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.75, 0.9 };
#define NMU ((int)(sizeof mus / sizeof mus[0]))
static const double grid[] = { 0.25, 0.5, 1, 2, 3, 4, 5, 6, 10 };
#define NG ((int)(sizeof grid / sizeof grid[0]))

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	SB_SYNC_EXP_SYSTEM,
	{ "dc", 10, 0.01, 1000, 0, "ADSP+'s commit rate during the momentum sweep" },
	{ "kappa", 0.05, 0, 10, 0, "kappa of mu_impl (the authors': 0.05 for M = 18)" },
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "kind", SB_COL_STR, "sweep: a run with explicit momentum; curve: mu_impl(dc)" },
	{ "rep", SB_COL_INT, "" },
	{ "mu", SB_COL_DBL, "explicit PS momentum (sweep) or mu_impl (curve)" },
	{ "dc", SB_COL_DBL, "commits per worker per check period" },
	{ "conv_time", SB_COL_DBL, "s (-1: not converged)" },
	{ "conv_eff", SB_COL_DBL, "s (the horizon if not converged)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	/* the last point writes the analytic curve */
	c->npoints = (int)sb_opts_get(&c->opts, "reps") * NMU + 1;
	return sb_sync_exp_setup(c, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_opts *o = &c->opts;
	int rep = point / NMU, rc, k, m = (int)sb_opts_get(o, "workers");
	struct sb_sync_world w;
	struct sb_sync_result r;
	char set[64];
	size_t row;

	if (point == c->npoints - 1) {
		for (k = 0; k < NG; k++) {
			row = sb_table_add(out);
			sb_table_set_str(out, row, "kind", "curve");
			sb_table_set_dbl(out, row, "dc", grid[k]);
			sb_table_set_dbl(out, row, "mu", 1 - 1 / (1 + (m - 1) *
								  sb_opts_get(o, "kappa") / grid[k]));
		}
		return 0;
	}
	if ((rc = sb_sync_exp_world(c, rep, m, sb_opts_get(o, "h"), &w, err)))
		return rc;
	w.in.ps_momentum = mus[point % NMU];
	snprintf(set, sizeof set, "dc=%.17g", sb_opts_get(o, "dc"));
	if (!(rc = sb_sync_exp_run(&w.in, "adsp-plus", set, &r, err))) {
		row = sb_table_add(out);
		sb_table_set_str(out, row, "kind", "sweep");
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_dbl(out, row, "mu", w.in.ps_momentum);
		sb_table_set_dbl(out, row, "dc", sb_opts_get(o, "dc"));
		sb_table_set_dbl(out, row, "conv_time", r.conv_time);
		sb_table_set_dbl(out, row, "conv_eff", sb_sync_exp_conv(&w.in, &r));
		sb_sync_result_release(&r);
	}
	sb_sync_world_release(&w);
	return rc;
}

const struct sb_experiment sb_experiment_sync_momentum = {
	.name = "sync_momentum",
	.desc = "implicit momentum against the commit rate, and an explicit-momentum sweep",
	.figure = "adsp-F6",
	.family = "sync",
	.params = params,
	.quick_set = "reps=1 workers=6 mlp=0 horizon=2400",
	.cols = cols,
	.summary_by = "kind mu dc",
	.summary_of = "conv_eff",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_sync_exp_teardown,
};
