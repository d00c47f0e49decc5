/*
 * sync_schemes.c - adsp-F1: convergence time of every scheme with its
 * computation / blocked / communication split (the authors' motivation
 * study, adsp.md §6.1: BSP 30,336 s > SSP 16,308 s > Fixed ADACOMM 4,901 s
 * > ADACOMM 3,579 s > ADSP 2,449 s, ADSP with zero blocked time [V, code]).
 * We compare rankings only, never seconds: our clock, model and data are
 * substitutes [O]. Each point is one seed; n_faster / n_slower count the
 * schemes strictly faster / slower to converge at that seed (a scheme
 * that never converges within the horizon is slower than any that does).
 */
#include "sync/sync.h"
#include "exp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const schemes[] = { "bsp", "ssp", "fixed-adacomm", "adacomm", "adsp", "asp" };
#define NS ((int)(sizeof schemes / sizeof schemes[0]))

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "seeds" },
	{ "workers", 18, 1, 1000, 1, "workers M" },
	{ "h", 2.6, 1, 100, 0, "heterogeneity H = mean v / min v" },
	{ "mlp", 1, 0, 1, 1, "1: MLP 64-64-10, 0: softmax regression" },
	{ "horizon", 4000, 10, 1e6, 0, "simulated seconds" },
	{ "sep", 0.4, 0.01, 10, 0, "Gaussian-mixture class-mean spread" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "conv_time", SB_COL_DBL, "s (-1: not converged)" },
	{ "converged", SB_COL_INT, "" },
	{ "n_faster", SB_COL_INT, "schemes" },
	{ "n_slower", SB_COL_INT, "schemes" },
	{ "compute", SB_COL_DBL, "s per worker" },
	{ "blocked", SB_COL_DBL, "s per worker" },
	{ "comm", SB_COL_DBL, "s per worker" },
	{ "steps", SB_COL_INT, "" },
	{ "target", SB_COL_DBL, "loss" },
	{ "gap_bound", SB_COL_DBL, "time to the steps / wait-free bound" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note, "synthetic: Gaussian mixture d=64 "
		 "k=10 sep=%g, 20k/4k", sb_opts_get(&c->opts, "sep"));
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_opts *o = &c->opts;
	struct sb_sync_world_cfg cfg = { NULL, sb_opts_get(o, "sep"),
		(int)sb_opts_get(o, "workers"), sb_opts_get(o, "h"), 1.0, 0.05, SB_SYNC_MLP,
		c->seed, (uint64_t)point };
	struct sb_sync_world w;
	struct sb_sync_result r[NS];
	double conv[NS];
	int i, j, rc;

	if (!sb_opts_get(o, "mlp")) {
		cfg.model = SB_SYNC_SOFTMAX;
		cfg.lr = 0.1;
	}
	if ((rc = sb_sync_world_make(&w, &cfg, err)))
		return rc;
	w.in.horizon = sb_opts_get(o, "horizon");
	w.in.stop_at_conv = 1;
	w.in.target = 1.05 * sb_sync_reference_loss(&w.in, 30);
	memset(r, 0, sizeof r);
	for (i = 0; i < NS && !rc; i++) {
		const struct sb_sync_policy *p = sb_sync_policy_find(schemes[i]);
		struct sb_opts po;
		sb_opts_defaults(&po, p->params);
		rc = sb_sync_run(&w.in, p, &po, &r[i], err);
		conv[i] = rc || r[i].conv_time < 0 ? HUGE_VAL : r[i].conv_time;
	}
	for (i = 0; i < NS && !rc; i++) {
		size_t row = sb_table_add(out);
		int faster = 0, slower = 0, m = w.in.m;
		for (j = 0; j < NS; j++) {
			faster += conv[j] < conv[i];
			slower += conv[j] > conv[i];
		}
		sb_table_set_int(out, row, "rep", point);
		sb_table_set_str(out, row, "policy", schemes[i]);
		sb_table_set_dbl(out, row, "conv_time", r[i].conv_time);
		sb_table_set_int(out, row, "converged", r[i].conv_time >= 0);
		sb_table_set_int(out, row, "n_faster", faster);
		sb_table_set_int(out, row, "n_slower", slower);
		sb_table_set_dbl(out, row, "compute", r[i].compute / m);
		sb_table_set_dbl(out, row, "blocked", r[i].blocked / m);
		sb_table_set_dbl(out, row, "comm", r[i].comm / m);
		sb_table_set_int(out, row, "steps", r[i].steps);
		sb_table_set_dbl(out, row, "target", w.in.target);
		sb_table_set_dbl(out, row, "gap_bound", r[i].steps ?
				 sb_sync_time_to_steps(&r[i], r[i].steps) /
				 sb_sync_bound(&w.in, r[i].steps) : 1);
	}
	for (i = 0; i < NS; i++)
		sb_sync_result_release(&r[i]);
	sb_sync_world_release(&w);
	return rc;
}

const struct sb_experiment sb_experiment_sync_schemes = {
	.name = "sync_schemes",
	.desc = "convergence time and computation/blocked/communication per scheme",
	.figure = "adsp-F1",
	.family = "sync",
	.params = params,
	.quick_set = "reps=2 workers=6 mlp=0 horizon=2400",
	.cols = cols,
	.summary_by = "policy",
	.summary_of = "conv_time compute blocked comm",
	.setup = setup,
	.run_point = run_point,
};
