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

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int trials = (int)sb_opts_get(&c->opts, "trials"), k, n, rc;
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_alloc_inst in;
	struct sb_alloc_psmodel m;
	struct sb_lp_result res;
	struct sb_rr_plan r;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	double lp, lnm, kap[4];
	const char *kname[4] = { "1", "1.5", "2", "lnm" };

	(void)timing;
	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = (int)sb_opts_get(&c->opts, "jobs");
	g.nserver = (int)sb_opts_get(&c->opts, "servers");
	g.nslot = (int)sb_opts_get(&c->opts, "slots");
	g.kmax = g.pmax = 4;
	sb_alloc_gen_small(&in, &g, &ty, &gen);
	sb_alloc_psmodel_build(&in, NULL, 0, in.nslot, 1, &m);
	if ((rc = sb_alloc_psmodel_solve(&m, 1, &res, err)))
		goto out_model;
	if (res.status != SB_LP_OPTIMAL || !res.x) {
		rc = sb_err_set(err, SB_EXIT_RUN, "alloc_rounding: instance %d: the LP relaxation "
				"ended %s, not optimal", point, sb_lp_status_name(res.status));
		goto out_res;
	}
	lp = res.obj + m.constant;
	/* m = the packing rows: servers x resources x slots */
	lnm = log((double)in.nserver * SB_ALLOC_NRES * m.T);
	kap[0] = 1;
	kap[1] = 1.5;
	kap[2] = 2;
	kap[3] = lnm;
	sb_rr_plan_init(&r, m.J, m.H, m.T);
	for (k = 0; k < 4; k++)
		for (n = 0; n < trials; n++) {
			/* one stream per (instance, kappa, trial): trials can be
			 * added or dropped without moving the others */
			struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point,
							  (uint64_t)(k * 1000003 + n), SB_RNG_POLICY);
			struct sb_rr_stats st;
			size_t row;
			sb_rr_round(&in, &m, res.x, kap[k], &rng, &r);
			sb_rr_stats(&in, &m, &r, &st);
			row = sb_table_add(out);
			sb_table_set_int(out, row, "rep", point);
			sb_table_set_dbl(out, row, "kappa", kap[k]);
			sb_table_set_str(out, row, "kappa_name", kname[k]);
			sb_table_set_int(out, row, "trial", n);
			sb_table_set_dbl(out, row, "lp", lp);
			sb_table_set_dbl(out, row, "flow", st.flow);
			sb_table_set_dbl(out, row, "ratio", st.flow / lp);
			sb_table_set_dbl(out, row, "viol", st.max_viol);
			sb_table_set_int(out, row, "cov_fail", st.cov_fail);
			sb_table_set_dbl(out, row, "shape", lnm / log(lnm));
		}
	sb_rr_plan_release(&r);
out_res:
	sb_lp_result_release(&res);
out_model:
	sb_alloc_psmodel_release(&m);
	sb_alloc_inst_release(&in);
	return rc;
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
