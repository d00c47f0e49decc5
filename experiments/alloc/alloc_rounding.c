/*
 * alloc_rounding.c - figures pslocality-F4 and F5 (pslocality.md §7-8,
 * ours [O]): the randomized-rounding study. Per seeded instance (PS jobs,
 * 6 jobs x 4 servers x 12 slots by default) the LP relaxation of the
 * time-indexed packing/covering model is solved once; then, for each
 * scaling kappa in {1, 1.5, 2, ln m} (m = packing rows), `trials` seeded
 * roundings of it (algorithms/pslocality/rr.c, the rounding the
 * pslocality policy uses) are drawn, and before any repair each records
 *   ratio    = rounded flow slots / LP optimum (the model's rates; a job
 *              whose rounded work falls short counts the window end),
 *   viol     = the largest load / capacity over servers, resources, slots,
 *   cov_fail = jobs whose covering row is violated,
 * next to the shape of the theorem's packing bound, ln m / ln ln m
 * (`shape`; the constant of the paper's bound is unknown to us).
 */
#include "common.h"

#include "algorithms/pslocality/rr.h"
#include "alloc/bound.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 10, 1, 1000, 1, "instances" },
	{ "trials", 1000, 1, 1e6, 1, "roundings per instance and kappa" },
	{ "jobs", 6, 1, 1000, 1, "PS jobs per instance" },
	{ "servers", 4, 1, 1024, 1, "servers of 8 GPUs" },
	{ "slots", 12, 2, 1000, 1, "slots of the model's window" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "kappa", SB_COL_DBL, "" },
	{ "kappa_name", SB_COL_STR, "" },
	{ "trial", SB_COL_INT, "" },
	{ "lp", SB_COL_DBL, "flow slots" },
	{ "flow", SB_COL_DBL, "flow slots" },
	{ "ratio", SB_COL_DBL, "" },
	{ "viol", SB_COL_DBL, "" },
	{ "cov_fail", SB_COL_INT, "jobs" },
	{ "shape", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	(void)err;
	c->npoints = (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: small PS instances from the built-in DL2 job types");
	return 0;
}

struct rows {
	struct sb_table *out;
	int point;
	double kappa, lp, lnm;
	const char *kname;
};

static void emit(void *arg, int trial, const struct sb_rr_stats *st)
{
	struct rows *e = arg;
	size_t row = sb_table_add(e->out);
	sb_table_set_int(e->out, row, "rep", e->point);
	sb_table_set_dbl(e->out, row, "kappa", e->kappa);
	sb_table_set_str(e->out, row, "kappa_name", e->kname);
	sb_table_set_int(e->out, row, "trial", trial);
	sb_table_set_dbl(e->out, row, "lp", e->lp);
	sb_table_set_dbl(e->out, row, "flow", st->flow);
	sb_table_set_dbl(e->out, row, "ratio", st->flow / e->lp);
	sb_table_set_dbl(e->out, row, "viol", st->max_viol);
	sb_table_set_int(e->out, row, "cov_fail", st->cov_fail);
	sb_table_set_dbl(e->out, row, "shape", e->lnm / log(e->lnm));
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int trials = (int)sb_opts_get(&c->opts, "trials"), k, rc;
	struct sb_alloc_exp_pslp x;
	struct rows e = { out, point, 0, 0, 0, NULL };
	double kap[4], secs;
	const char *kname[4] = { "1", "1.5", "2", "lnm" };

	(void)timing;
	if ((rc = sb_alloc_exp_ps_lp(c, point, (int)sb_opts_get(&c->opts, "jobs"),
				     (int)sb_opts_get(&c->opts, "servers"),
				     (int)sb_opts_get(&c->opts, "slots"), &x, &secs, err)))
		return rc;
	e.lp = x.lp;
	/* m = the packing rows: servers x resources x slots */
	e.lnm = log((double)x.in.nserver * SB_ALLOC_NRES * x.m.T);
	kap[0] = 1;
	kap[1] = 1.5;
	kap[2] = 2;
	kap[3] = e.lnm;
	for (k = 0; k < 4; k++) {
		/* one stream per (instance, kappa, trial): trials can be added
		 * or dropped without moving the others */
		e.kappa = kap[k];
		e.kname = kname[k];
		sb_alloc_exp_ps_rounds(c, point, &x, kap[k], (uint64_t)k * 1000003, trials, emit, &e);
	}
	sb_alloc_exp_ps_lp_release(&x);
	return 0;
}

const struct sb_experiment sb_experiment_alloc_rounding = {
	.name = "alloc_rounding",
	.desc = "1,000 seeded randomized roundings of the PS-locality LP per instance and kappa (F4-F5, reconstructed)",
	.figure = "pslocality-F4",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=3 trials=200",
	.cols = cols,
	.summary_by = "kappa_name",
	.summary_of = "ratio viol cov_fail",
	.setup = setup,
	.run_point = run_point,
};
