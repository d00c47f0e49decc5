/*
 * alloc_smd_machines.c - figure smd-F2 (smd.md §8, ours [O]): mean job
 * completion time of parameter-server jobs against the number of servers,
 * for SMD (reconstructed), its layer-oblivious ablation and the PS-mode
 * baselines, every run to completion and checked. The same jobs (keyed by
 * rep alone) on 5, 10, 20, 40, ... servers of 8 GPUs and 24 CPUs; inputs
 * as in smd-F1. Hypothesis of the spec: the gap between the schemes
 * narrows as capacity stops binding; the column spread = the slowest
 * scheme's mean JCT over the fastest one's on the same instance. The
 * spec's series also has Myopic-OPT (smd.md §7-8: each SMD round solved
 * to its MMKP optimum; ours [O]): it is run on the same instances and its
 * rows carry the online schemes' spread (it is a reference, not one of the
 * schemes the spread compares). Its rounds are solved exactly by the DP of
 * core/alloc/mmkp.c: the 20 full-size points take 16 s on 2 workers, where
 * GLPK's node-limited search had not finished one point in 33 min;
 * --set myopic=0 leaves it out.
 */
#include "common.h"

static const struct sb_param params[] = {
	{ "reps", 5, 1, 1000, 1, "instances per cluster size" },
	{ "sizes", 4, 1, 8, 1, "cluster sizes 5, 10, 20, ... servers (this many)" },
	{ "jobs", 100, 1, 100000, 1, "PS jobs per instance" },
	{ "myopic", 1, 0, 1, 1, "1: also Myopic-OPT (each round's MMKP solved exactly)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	return sb_alloc_exp_smd_setup(c, "Poisson arrivals (synthetic)", 0, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), rc;
	int servers = 5 << (point / reps), rep = point % reps;
	struct sb_alloc_inst in;

	(void)timing;
	/* keyed by rep alone: every cluster size sees the same jobs */
	sb_alloc_exp_smd_inst(c, rep, (int)sb_opts_get(&c->opts, "jobs"), servers, &in);
	rc = sb_alloc_exp_smd_compare(c, point, &in, out, servers, rep, err);
	if (!rc && sb_opts_get(&c->opts, "myopic") > 0) {
		static const char *const myopic[] = { "smd-myopic-opt", NULL };
		struct sb_alloc_exp_smd_rows e = { out, servers, rep };
		double spread = sb_table_get_dbl(out, out->nrow - 1, sb_table_col(out, "spread"));
		if (!(rc = sb_alloc_exp_each(c, point, &in, myopic, sb_alloc_exp_smd_emit, &e, err)))
			sb_table_set_dbl(out, out->nrow - 1, "spread", spread);
	}
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_smd_machines = {
	.name = "alloc_smd_machines",
	.desc = "mean JCT of parameter-server jobs against the number of servers (SMD reconstructed)",
	.figure = "smd-F2",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=3 jobs=50",
	.cols = sb_alloc_exp_smd_cols,
	.summary_by = "servers policy",
	.summary_of = "jct_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_alloc_exp_smd_teardown,
};
