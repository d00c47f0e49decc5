/*
 * alloc_ps_load.c - figure pslocality-F1 (pslocality.md §8, ours [O]):
 * total and mean completion time of parameter-server jobs against the
 * arrival intensity K (at most K arrivals per slot, DL2's Google-trace
 * pattern for K when DATA_DIR has it), for RR-kappa (`pslocality`,
 * reconstructed), OASiS (reconstructed) and the online baselines, every
 * run checked. The horizon ends `tail` slots after the last arrival; a job
 * unfinished there counts to the horizon (flow slots), so a scheme that
 * leaves jobs waiting is charged for it. excess = this policy's mean
 * completion time over the best other policy's at the same instance
 * (negative: it is the lowest), for the claims.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 4, 1, 1000, 1, "instances per intensity" },
	{ "intensities", 5, 1, 5, 1, "intensities K = 1 .. this many (arrivals per slot at most)" },
	{ "jobs", 60, 1, 100000, 1, "jobs per instance" },
	{ "servers", 8, 1, 4096, 1, "servers of 8 GPUs and 24 CPUs" },
	{ "tail", 400, 0, 100000, 1, "slots after the last arrival before the horizon (long: every queueing scheme finishes)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "intensity", SB_COL_INT, "arrivals per slot at most" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "flow_slots", SB_COL_DBL, "slots" },
	{ "mean_h", SB_COL_DBL, "h" },
	{ "excess", SB_COL_DBL, "h" },
	{ "jct_mean", SB_COL_DBL, "s" },
	{ "unfinished", SB_COL_INT, "" },
	{ "local", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "intensities") * (int)sb_opts_get(&c->opts, "reps");
	return sb_alloc_exp_ps_setup(c, err);
}

struct emit {
	struct sb_table *out;
	int K, rep;
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct emit *e = arg;
	size_t row = sb_table_add(e->out);
	(void)seconds;
	sb_table_set_int(e->out, row, "intensity", e->K);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_int(e->out, row, "jobs", in->njob);
	sb_table_set_dbl(e->out, row, "flow_slots", r->flow_slots);
	sb_table_set_dbl(e->out, row, "mean_h", sb_alloc_exp_ps_mean_h(in, r));
	sb_table_set_dbl(e->out, row, "jct_mean", r->jct_mean);
	sb_table_set_int(e->out, row, "unfinished", r->unfinished);
	sb_table_set_dbl(e->out, row, "local",
			 r->job_slots ? (double)r->local_slots / r->job_slots : 1);
}

/* excess of rows first..nrow over the best other row */
static void set_excess(struct sb_table *out, size_t first)
{
	int col = sb_table_col(out, "mean_h");
	size_t k, m;
	for (k = first; k < out->nrow; k++) {
		double best = INFINITY;
		for (m = first; m < out->nrow; m++)
			if (m != k)
				best = fmin(best, sb_table_get_dbl(out, m, col));
		sb_table_set_dbl(out, k, "excess", sb_table_get_dbl(out, k, col) - best);
	}
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps");
	struct emit e = { out, point / reps + 1, point % reps };
	struct sb_alloc_inst in;
	size_t first = out->nrow;
	int rc;

	(void)timing;
	sb_alloc_exp_ps_inst(&in, c, e.K, (int)sb_opts_get(&c->opts, "servers"),
			     (int)sb_opts_get(&c->opts, "jobs"), (int)sb_opts_get(&c->opts, "tail"),
			     point);
	rc = sb_alloc_exp_each(c, point, &in, sb_alloc_exp_ps_set, emit, &e, err);
	if (!rc)
		set_excess(out, first);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_ps_load = {
	.name = "alloc_ps_load",
	.desc = "total and mean completion time of PS jobs against the arrival intensity (RR-kappa and OASiS reconstructed)",
	.figure = "pslocality-F1",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 intensities=3 jobs=24 servers=4",
	.cols = cols,
	.summary_by = "intensity policy",
	.summary_of = "mean_h flow_slots unfinished",
	.setup = setup,
	.teardown = sb_alloc_exp_ps_teardown,
	.run_point = run_point,
};
