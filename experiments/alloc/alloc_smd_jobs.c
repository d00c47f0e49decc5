/*
 * alloc_smd_jobs.c - figure smd-F1 (smd.md §8, ours [O]): mean job
 * completion time against the number of parameter-server jobs, for SMD
 * (reconstructed), its layer-oblivious ablation and the PS-mode baselines
 * (Optimus, DRF, FIFO, Tetris, SRTF), every run to completion and checked.
 * Inputs: DL2's job-type table and Tiresias's per-layer tensor sizes when
 * DATA_DIR has them (sha256 recorded), else the built-in transcription and
 * synthetic layers; 20 servers of 8 GPUs and 24 CPUs (smd.md §5), Poisson
 * arrivals at 3 jobs per slot, so more jobs means a longer busy period.
 */
#include "common.h"

static const struct sb_param params[] = {
	{ "reps", 5, 1, 1000, 1, "instances per size" },
	{ "sizes", 3, 1, 8, 1, "job counts 50, 100, 200, ... (this many)" },
	{ "servers", 20, 1, 4096, 1, "servers of 8 GPUs and 24 CPUs" },
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
	int servers = (int)sb_opts_get(&c->opts, "servers");
	struct sb_alloc_inst in;

	(void)timing;
	sb_alloc_exp_smd_inst(c, point, 50 << (point / reps), servers, &in);
	rc = sb_alloc_exp_smd_compare(c, point, &in, out, servers, point % reps, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_smd_jobs = {
	.name = "alloc_smd_jobs",
	.desc = "mean JCT of parameter-server jobs against their number (SMD reconstructed)",
	.figure = "smd-F1",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=2",
	.cols = sb_alloc_exp_smd_cols,
	.summary_by = "jobs policy",
	.summary_of = "jct_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_alloc_exp_smd_teardown,
};
