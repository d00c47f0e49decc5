/*
 * sync_search.c - adsp-F7: online against offline commit-rate search
 * (adsp.md §6.7 [V, code: offline_search_commit_rate.py draws ADSP, Fixed
 * ADACOMM, ADSP+ and ADSP+ without its search time]). Loss curves of
 * ADSP (online search, its cost inside its own run), Fixed ADACOMM, and
 * ADSP+ with the ΔC an offline grid search picked, drawn twice: shifted by
 * the search's simulated time ("adsp-plus") and without it
 * ("adsp-plus-nosearch"). The offline search is ours [O]: each ΔC of the
 * grid trains from the initial model for `trial` check periods and the
 * lowest final check loss wins (ties: the lower ΔC); its time is the sum
 * of the trials, as if run one after another on the same cluster. Rows of
 * kind "curve" are one check each, of kind "scheme" a run's totals (for
 * adsp-plus: convergence time plus the search). Substitutes and
 * departures: experiments/sync/common.h.
 */
#include "experiments/sync/common.h"

#include <stdio.h>
#include <string.h>

static const double grid[] = { 0.25, 0.5, 1, 2, 3, 4, 5, 6, 10 };
#define NG ((int)(sizeof grid / sizeof grid[0]))

static const struct sb_param params[] = {
	{ "reps", 1, 1, 100, 1, "seeds" },
	SB_SYNC_EXP_SYSTEM,
	{ "trial", 5, 1, 1000, 1, "check periods each grid point of the offline search trains" },
	SB_SYNC_EXP_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	SB_SYNC_EXP_CURVE_COLS,
	SB_SYNC_EXP_COLS,
	{ "dc", SB_COL_DBL, "commit rate used (ADSP: its last)" },
	{ "search_s", SB_COL_DBL, "simulated s of offline search" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps");
	return sb_sync_exp_setup(c, err);
}

static void keys(struct sb_table *out, size_t row, const void *arg)
{
	sb_table_set_int(out, row, "rep", *(const int *)arg);
}

/* The offline grid: the ΔC whose trial ends with the lowest loss. */
static int offline_search(const struct sb_sync_world *w, double trial, double *best,
			  double *spent, struct sb_err *err)
{
	struct sb_sync_inst in = w->in;
	double best_loss = 0;
	char set[64];
	int k, rc;

	in.horizon = trial;
	in.stop_at_conv = 0;
	*spent = 0;
	for (k = 0; k < NG; k++) {
		struct sb_sync_result r;
		snprintf(set, sizeof set, "dc=%.17g", grid[k]);
		if ((rc = sb_sync_exp_run(&in, "adsp-plus", set, &r, err)))
			return rc;
		if (k == 0 || r.final_loss < best_loss) {
			best_loss = r.final_loss;
			*best = grid[k];
		}
		*spent += r.end;
		sb_sync_result_release(&r);
	}
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	static const char *const names[4] = { "adsp", "fixed-adacomm", "adsp-plus",
					      "adsp-plus-nosearch" };
	struct sb_sync_world w;
	struct sb_sync_result r[3];
	double dc = 1, spent = 0;
	char set[64];
	int rc, i;
	size_t first;

	memset(r, 0, sizeof r);
	if ((rc = sb_sync_exp_world(c, point, (int)sb_opts_get(&c->opts, "workers"),
				    sb_opts_get(&c->opts, "h"), &w, err)))
		return rc;
	w.in.stop_at_conv = 0;
	rc = offline_search(&w, sb_opts_get(&c->opts, "trial") * w.in.period, &dc, &spent, err);
	snprintf(set, sizeof set, "dc=%.17g", dc);
	if (!rc)
		rc = sb_sync_exp_run(&w.in, "adsp", NULL, &r[0], err);
	if (!rc)
		rc = sb_sync_exp_run(&w.in, "fixed-adacomm", NULL, &r[1], err);
	if (!rc)
		rc = sb_sync_exp_run(&w.in, "adsp-plus", set, &r[2], err);
	if (!rc) {
		first = out->nrow;
		for (i = 0; i < 3; i++) {
			size_t row = sb_table_add(out);
			keys(out, row, &point);
			sb_table_set_str(out, row, "kind", "scheme");
			sb_table_set_dbl(out, row, "dc", i == 0 ? r[0].dc_final : i == 2 ? dc : 0);
			sb_table_set_dbl(out, row, "search_s", i == 2 ? spent : 0);
		}
		/* ADSP+ pays for its offline search before it starts */
		if (r[2].conv_time >= 0)
			r[2].conv_time += spent;
		sb_sync_exp_rows(&w.in, names, r, 3, out, first);
		if (r[2].conv_time < 0)
			sb_table_set_dbl(out, first + 2, "conv_eff", w.in.horizon + spent);
		for (i = 0; i < 4; i++)
			sb_sync_exp_curve(names[i], &r[i < 3 ? i : 2], i == 2 ? spent : 0, out, keys,
					  &point);
	}
	for (i = 0; i < 3; i++)
		sb_sync_result_release(&r[i]);
	sb_sync_world_release(&w);
	return rc;
}

const struct sb_experiment sb_experiment_sync_search = {
	.name = "sync_search",
	.desc = "online (ADSP) against offline (ADSP+ grid) commit-rate search, loss curves",
	.figure = "adsp-F7",
	.family = "sync",
	.params = params,
	.quick_set = "workers=6 mlp=0 horizon=1800 trial=3",
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_sync_exp_teardown,
};
