/*
 * alloc_ps_local.c - figure pslocality-F3 (pslocality.md §8, ours [O]):
 * per scheme, the fraction of job-slots in the local regime (every worker
 * and PS of the job on one machine) on medium parameter-server instances
 * (intensity K, DL2 types), for RR-kappa (`pslocality`, reconstructed),
 * OASiS (reconstructed) and the online baselines, every run checked.
 * spread = 1 - local, so that lower is better for the claims. A job with
 * one worker and its PS on one machine is local whatever the scheme, so
 * the mean workers per running job-slot (`workers`) is stored beside it.
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 6, 1, 1000, 1, "instances" },
	{ "intensity", 3, 1, 5, 1, "arrivals per slot at most" },
	{ "jobs", 60, 1, 100000, 1, "jobs per instance" },
	{ "servers", 8, 1, 4096, 1, "servers of 8 GPUs and 24 CPUs" },
	{ "tail", 400, 0, 100000, 1, "slots after the last arrival before the horizon (long: every queueing scheme finishes)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "job_slots", SB_COL_INT, "" },
	{ "local", SB_COL_DBL, "" },
	{ "spread", SB_COL_DBL, "" },
	{ "workers", SB_COL_DBL, "workers per running job-slot" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps");
	return sb_alloc_exp_ps_setup(c, err);
}

struct emit {
	struct sb_table *out;
	int rep;
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct emit *e = arg;
	size_t row = sb_table_add(e->out);
	double f = r->job_slots ? (double)r->local_slots / r->job_slots : 1, w = 0;
	int g;
	(void)in;
	for (g = 0; g < r->ngrant; g++)
		w += r->grant[g].workers;
	(void)seconds;
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_int(e->out, row, "job_slots", r->job_slots);
	sb_table_set_dbl(e->out, row, "local", f);
	sb_table_set_dbl(e->out, row, "spread", 1 - f);
	sb_table_set_dbl(e->out, row, "workers", r->job_slots ? w / r->job_slots : 0);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct emit e = { out, point };
	struct sb_alloc_inst in;
	int rc;

	(void)timing;
	sb_alloc_exp_ps_inst(&in, c, (int)sb_opts_get(&c->opts, "intensity"),
			     (int)sb_opts_get(&c->opts, "servers"), (int)sb_opts_get(&c->opts, "jobs"),
			     (int)sb_opts_get(&c->opts, "tail"), point);
	rc = sb_alloc_exp_each(c, point, &in, sb_alloc_exp_ps_set, emit, &e, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_ps_local = {
	.name = "alloc_ps_local",
	.desc = "fraction of PS job-slots in the local regime per scheme (RR-kappa and OASiS reconstructed)",
	.figure = "pslocality-F3",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 jobs=24 servers=4",
	.cols = cols,
	.summary_by = "policy",
	.summary_of = "local spread workers",
	.setup = setup,
	.teardown = sb_alloc_exp_ps_teardown,
	.run_point = run_point,
};
