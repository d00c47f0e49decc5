/*
 * alloc_gadget_cdf.c - figure gadget-F2 (gadget.md §7, ours [O]): the
 * distribution of job completion times under EXC, ENE and FAIR, one row per
 * job and policy (jct NaN for a job unfinished at the horizon), on the
 * medium ring-all-reduce instances of the GADGET figures.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	SB_ALLOC_EXP_RAR_PARAMS(5, 4),
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "util", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "job", SB_COL_INT, "" },
	{ "finished", SB_COL_INT, "" },
	{ "jct", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct sb_alloc_exp_rows *e = arg;
	int j;
	(void)seconds;
	for (j = 0; j < in->njob; j++) {
		size_t row = sb_table_add(e->out);
		sb_table_set_str(e->out, row, "util", sb_alloc_util_name(e->util));
		sb_table_set_int(e->out, row, "rep", e->rep);
		sb_table_set_str(e->out, row, "policy", policy);
		sb_table_set_int(e->out, row, "job", j);
		sb_table_set_int(e->out, row, "finished", r->finish[j] >= 0);
		sb_table_set_dbl(e->out, row, "jct", r->finish[j] >= 0 ?
				 r->finish[j] - in->job[j].arrival * in->slot_s : NAN);
	}
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	(void)timing;
	return sb_alloc_exp_rar_run(c, point, out, emit, err);
}

const struct sb_experiment sb_experiment_alloc_gadget_cdf = {
	.name = "alloc_gadget_cdf",
	.desc = "distribution of job completion times under EXC, ENE and FAIR (GADGET-R and GADGET-PD reconstructed)",
	.figure = "gadget-F2",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=2 arrive=24 tail=6",
	.cols = cols,
	.summary_by = "util policy",
	.summary_of = "finished",
	.setup = sb_alloc_exp_rar_setup,
	.run_point = run_point,
};
