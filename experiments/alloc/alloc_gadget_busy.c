/*
 * alloc_gadget_busy.c - figure gadget-F3 (gadget.md §7, ours [O]): GPU
 * utilisation per slot under EXC, ENE and FAIR, one row per slot and policy
 * on the medium ring-all-reduce instances of the GADGET figures. busy = the
 * share of the cluster's GPUs held; useful = the share whose slot's work
 * counts (a job finishing inside a slot holds its GPUs for the whole slot
 * but needs them only for the fraction it works: the rest is over-training
 * capacity, which EXC is meant to avoid).
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	SB_ALLOC_EXP_RAR_PARAMS(3, 1),
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "util", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "slot", SB_COL_INT, "" },
	{ "time_h", SB_COL_DBL, "h" },
	{ "busy", SB_COL_DBL, "" },
	{ "useful", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct sb_alloc_exp_rows *e = arg;
	double gpus = 0;
	int s, t, k;
	(void)seconds;
	for (s = 0; s < in->nserver; s++)
		gpus += in->cap[s][0];
	for (t = 0; t < r->nslot; t++) {
		size_t row = sb_table_add(e->out);
		double useful = 0;
		for (k = r->slot_off[t]; k < r->slot_off[t + 1]; k++) {
			const struct sb_alloc_grant *g = &r->grant[k];
			double f = 1, t1 = (t + 1) * in->slot_s;
			/* the share of the slot before the job finished */
			if (r->finish[g->job] >= 0 && r->finish[g->job] < t1)
				f = sb_max(0, r->finish[g->job] - t * in->slot_s) / in->slot_s;
			useful += f * g->workers * in->job[g->job].wdem[0];
		}
		sb_table_set_str(e->out, row, "util", sb_alloc_util_name(e->util));
		sb_table_set_int(e->out, row, "rep", e->rep);
		sb_table_set_str(e->out, row, "policy", policy);
		sb_table_set_int(e->out, row, "slot", t);
		sb_table_set_dbl(e->out, row, "time_h", t * in->slot_s / 3600);
		sb_table_set_dbl(e->out, row, "busy", r->busy[t] / gpus);
		sb_table_set_dbl(e->out, row, "useful", useful / gpus);
	}
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	(void)timing;
	return sb_alloc_exp_rar_run(c, point, out, emit, err);
}

const struct sb_experiment sb_experiment_alloc_gadget_busy = {
	.name = "alloc_gadget_busy",
	.desc = "GPU utilisation per slot under EXC, ENE and FAIR (GADGET-R and GADGET-PD reconstructed)",
	.figure = "gadget-F3",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 arrive=24 tail=6",
	.cols = cols,
	.summary_by = "util policy",
	.summary_of = "busy useful",
	.setup = sb_alloc_exp_rar_setup,
	.run_point = run_point,
};
