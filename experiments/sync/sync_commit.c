/*
 * sync_commit.c - adsp-F5 and ADSP+'s offline grid: convergence time of
 * ADSP with a fixed commit rate ΔC in {0.25, 0.5, 1, 2, 3, 4, 5, 6, 10}
 * commits per worker per check period (the authors' grid, adsp.md §6.6a
 * [V, code: vary_commit_rate_mu.py]; their curve is a shallow U), and of
 * ADSP with its online search, on the same world. The grid's best ΔC is
 * what ADSP+ would pick offline; the claim is that the online search
 * lands within 15% of it (#18). dc is the grid value, or for the online
 * rows the commit rate the search settled on last (dc_final). Substitutes
 * and departures: experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

#include <stdio.h>

static const double grid[] = { 0.25, 0.5, 1, 2, 3, 4, 5, 6, 10 };
#define NG ((int)(sizeof grid / sizeof grid[0]))

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	SB_SYNC_EXP_SYSTEM,
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "dc", SB_COL_DBL, "commits per worker per check period" },
	SB_SYNC_EXP_COLS,
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps") * (NG + 1);
	return sb_sync_exp_setup(c, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int rep = point / (NG + 1), k = point % (NG + 1), rc;
	const char *name = k < NG ? "adsp-plus" : "adsp";
	struct sb_sync_world w;
	struct sb_sync_result r;
	char set[64];
	size_t row;

	if ((rc = sb_sync_exp_world(c, rep, (int)sb_opts_get(&c->opts, "workers"),
				    sb_opts_get(&c->opts, "h"), &w, err)))
		return rc;
	snprintf(set, sizeof set, "dc=%.17g", k < NG ? grid[k] : 1);
	if (!(rc = sb_sync_exp_run(&w.in, name, k < NG ? set : NULL, &r, err))) {
		row = sb_table_add(out);
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_dbl(out, row, "dc", k < NG ? grid[k] : r.dc_final);
		sb_sync_exp_rows(&w.in, &name, &r, 1, out, row);
		sb_sync_result_release(&r);
	}
	sb_sync_world_release(&w);
	return rc;
}

const struct sb_experiment sb_experiment_sync_commit = {
	.name = "sync_commit",
	.desc = "convergence time against a fixed commit rate (ADSP+ grid) and the online search",
	.figure = "adsp-F5",
	.family = "sync",
	.params = params,
	.quick_set = "reps=1 workers=6 mlp=0 horizon=2400",
	.cols = cols,
	.summary_by = "policy dc",
	.summary_of = "conv_eff",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_sync_exp_teardown,
};
