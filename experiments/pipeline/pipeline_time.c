/*
 * pipeline_time.c - figure pipeplan-F5 (spec pipeplan.md §10, F-A5): planner
 * wall time against the number of layers (25-200, synthetic jittered
 * transformer-like chains) and of GPUs (8-64, random irregular
 * topologies), every registered planner at M = 16. The wall times are in
 * the `timing` dataset (machine-dependent); `points` keeps the plans'
 * simulated iteration times (deterministic).
 */
#include "common.h"
#include "workloads/pipeline/load.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "layers", 4, 1, 4, 1, "how many of 25, 50, 100, 200 layers" },
	{ "sizes", 4, 1, 4, 1, "how many of 8, 16, 32, 64 GPUs" },
	{ "M", 16, 1, 256, 1, "microbatches per iteration" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int layers[] = { 25, 50, 100, 200 };
static const int sizes[] = { 8, 16, 32, 64 };

static const struct sb_col cols[] = { SB_PIPELINE_EXP_COLS, { "layers", SB_COL_INT, "" },
				      { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_PIPELINE_EXP_TIMING_COLS, { NULL, 0, NULL } };

struct extra {
	int nl, ns, M;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct extra *x = sb_pipeline_exp_setup_synthetic(c, sizeof *x, "synthetic: jittered "
						     "transformer-like chains and random "
						     "irregular topologies of our own");
	(void)err;
	x->nl = (int)sb_opts_get(&c->opts, "layers");
	x->ns = (int)sb_opts_get(&c->opts, "sizes");
	x->M = (int)sb_opts_get(&c->opts, "M");
	c->npoints = x->nl * x->ns;
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = c->state;
	const struct extra *x = s->extra;
	int L = layers[point / x->ns], N = sizes[point % x->ns], k, rc = 0;
	struct sb_rng rm = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	struct sb_rng rt = sb_rng_stream(c->seed, (uint64_t)point, 1, SB_RNG_INSTANCE);
	struct sb_pmodel m;
	struct sb_topo t;

	sb_pipeline_exp_random_model(&m, L, &rm);
	sb_topo_random(&t, N, &rt);
	snprintf(t.name, sizeof t.name, "random-%d", N);
	for (k = 0; s->labels[k] && !rc; k++) {
		size_t row = out->nrow;
		rc = sb_pipeline_exp_run(&m, &t, s->labels[k], NULL, 4.0 * x->M * N, x->M, out, timing,
				   NULL, err);
		if (!rc)
			sb_table_set_int(out, row, "layers", L);
	}
	sb_topo_release(&t);
	sb_pmodel_release(&m);
	return rc;
}

const struct sb_experiment sb_experiment_pipeline_time = {
	.name = "pipeline_time",
	.desc = "planner wall time vs layers (25-200) and GPUs (8-64), every planner",
	.figure = "pipeplan-F5",
	.family = "pipeline",
	.params = params,
	.quick_set = "layers=2 sizes=2",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_pipeline_exp_teardown,
};
