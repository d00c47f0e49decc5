/*
 * alloc_ps_machines.c - figure pslocality-F2 (pslocality.md §8, ours [O]):
 * mean completion time of parameter-server jobs against the number of
 * machines (servers of 8 GPUs and 24 CPUs), the jobs and their arrivals
 * (intensity K) fixed per instance, for RR-kappa (`pslocality`,
 * reconstructed), OASiS (reconstructed) and the online baselines, every
 * run checked. The same jobs at every size (the instance is keyed by the
 * replicate alone), so the curves show capacity, not other jobs. A job
 * unfinished at the horizon counts to it.
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 4, 1, 1000, 1, "instances (the same at every size)" },
	{ "sizes", 4, 1, 8, 1, "machine counts 4, 8, 12, ... (this many)" },
	{ "intensity", 3, 1, 5, 1, "arrivals per slot at most" },
	{ "jobs", 60, 1, 100000, 1, "jobs per instance" },
	{ "tail", 400, 0, 100000, 1, "slots after the last arrival before the horizon (long: every queueing scheme finishes)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "servers", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "flow_slots", SB_COL_DBL, "slots" },
	{ "mean_h", SB_COL_DBL, "h" },
	{ "unfinished", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	return sb_alloc_exp_ps_setup(c, err);
}

struct emit {
	struct sb_table *out;
	int servers, rep;
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct emit *e = arg;
	size_t row = sb_table_add(e->out);
	(void)seconds;
	sb_table_set_int(e->out, row, "servers", e->servers);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_int(e->out, row, "jobs", in->njob);
	sb_table_set_dbl(e->out, row, "flow_slots", r->flow_slots);
	sb_table_set_dbl(e->out, row, "mean_h", sb_alloc_exp_ps_mean_h(in, r));
	sb_table_set_int(e->out, row, "unfinished", r->unfinished);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), rc;
	struct emit e = { out, 4 * (point / reps + 1), point % reps };
	struct sb_alloc_inst in;

	(void)timing;
	/* keyed by the replicate alone: the same jobs at every size */
	sb_alloc_exp_ps_inst(&in, c, (int)sb_opts_get(&c->opts, "intensity"), e.servers,
			     (int)sb_opts_get(&c->opts, "jobs"), (int)sb_opts_get(&c->opts, "tail"),
			     e.rep);
	rc = sb_alloc_exp_each(c, point, &in, sb_alloc_exp_ps_set, emit, &e, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_ps_machines = {
	.name = "alloc_ps_machines",
	.desc = "mean completion time of PS jobs against the number of machines (RR-kappa and OASiS reconstructed)",
	.figure = "pslocality-F2",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=3 jobs=24",
	.cols = cols,
	.summary_by = "servers policy",
	.summary_of = "mean_h unfinished",
	.setup = setup,
	.teardown = sb_alloc_exp_ps_teardown,
	.run_point = run_point,
};
