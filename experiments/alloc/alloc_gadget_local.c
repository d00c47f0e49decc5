/*
 * alloc_gadget_local.c - figure gadget-F4 (gadget.md §7, ours [O]): the
 * share of job-slots whose ring sits on one server, under EXC, ENE and FAIR,
 * per policy, on the medium ring-all-reduce instances of the GADGET
 * figures (spread = 1 - local, so that lower is better for the claims).
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	SB_ALLOC_EXP_RAR_PARAMS(10, 4),
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "util", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "job_slots", SB_COL_INT, "" },
	{ "local", SB_COL_DBL, "" },
	{ "spread", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct sb_alloc_exp_rows *e = arg;
	size_t row = sb_table_add(e->out);
	double f = r->job_slots ? (double)r->local_slots / r->job_slots : 1;
	(void)in;
	(void)seconds;
	sb_table_set_str(e->out, row, "util", sb_alloc_util_name(e->util));
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_int(e->out, row, "job_slots", r->job_slots);
	sb_table_set_dbl(e->out, row, "local", f);
	sb_table_set_dbl(e->out, row, "spread", 1 - f);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	(void)timing;
	return sb_alloc_exp_rar_run(c, point, out, emit, err);
}

const struct sb_experiment sb_experiment_alloc_gadget_local = {
	.name = "alloc_gadget_local",
	.desc = "share of job-slots embedded on one server under EXC, ENE and FAIR (GADGET-R and GADGET-PD reconstructed)",
	.figure = "gadget-F4",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=2 arrive=24 tail=6",
	.cols = cols,
	.summary_by = "util policy",
	.summary_of = "local spread",
	.setup = sb_alloc_exp_rar_setup,
	.run_point = run_point,
};
