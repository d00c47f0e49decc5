/*
 * alloc_smd_layers.c - figure smd-F3 (smd.md §8, ours [O]): the step time
 * of one parameter-server job per DL2 model under the layered (wait-free
 * back-propagation) model and the non-layered one (compute, then every
 * layer's push and pull in sequence), for several (workers, PSs), all
 * spread across servers (the NIC bandwidth of the DL2 type). The model is
 * our reconstruction [R] of smd.md §2 (core/alloc/model.c). Layers: the
 * Tiresias tensor sizes for resnet-50 and vgg-16 when DATA_DIR has them,
 * else (and for the other six models) seeded log-uniform sizes summing to
 * the DL2 model size (the layers column says which). Deterministic: no
 * solver, no timing.
 */
#include "common.h"

#include <string.h>

static const int config[][2] = {
	{ 1, 1 }, { 2, 1 }, { 4, 1 }, { 4, 2 }, { 4, 4 }, { 8, 2 }, { 8, 4 }, { 8, 8 }, { 12, 6 }, { 12, 12 },
};
#define NCONFIG ((int)(sizeof config / sizeof config[0]))

static const struct sb_param params[] = {
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "model", SB_COL_STR, "" },
	{ "layers", SB_COL_STR, "" },
	{ "nlayer", SB_COL_INT, "" },
	{ "model_mb", SB_COL_DBL, "MB" },
	{ "late_share", SB_COL_DBL, "" },
	{ "workers", SB_COL_INT, "" },
	{ "ps", SB_COL_INT, "" },
	{ "compute", SB_COL_DBL, "s" },
	{ "comm", SB_COL_DBL, "s" },
	{ "tau_layered", SB_COL_DBL, "s" },
	{ "tau_flat", SB_COL_DBL, "s" },
	{ "rel", SB_COL_DBL, "" },
	{ "gain", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = NCONFIG;
	return sb_alloc_exp_smd_setup(c, "no arrivals (one job per model)", 0, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int w = config[point][0], p = config[point][1], j, l;
	struct sb_alloc_inst in;

	(void)timing;
	(void)err;
	/* the same layers at every configuration */
	sb_alloc_exp_smd_types(c, 16, &in);
	for (j = 0; j < in.njob; j++) {
		const struct sb_alloc_job *jb = &in.job[j];
		double lay = sb_alloc_tau(jb, w, p, 0, 1), flat = sb_alloc_tau(jb, w, p, 0, 0);
		double late = 0;
		size_t row = sb_table_add(out);
		/* share of the parameters in the last quarter of the layers: the
		 * first gradients to be ready in the backward pass */
		for (l = jb->nlayer - (jb->nlayer + 3) / 4; l < jb->nlayer; l++)
			late += jb->layer_mb[l];
		sb_table_set_str(out, row, "model", jb->model);
		sb_table_set_str(out, row, "layers", sb_alloc_exp_smd_layers(c, jb));
		sb_table_set_int(out, row, "nlayer", jb->nlayer);
		sb_table_set_dbl(out, row, "model_mb", jb->model_mb);
		sb_table_set_dbl(out, row, "late_share", late / jb->model_mb);
		sb_table_set_int(out, row, "workers", w);
		sb_table_set_int(out, row, "ps", p);
		sb_table_set_dbl(out, row, "compute", jb->compute);
		/* the non-layered step is compute plus every layer's transfer */
		sb_table_set_dbl(out, row, "comm", flat - jb->compute);
		sb_table_set_dbl(out, row, "tau_layered", lay);
		sb_table_set_dbl(out, row, "tau_flat", flat);
		sb_table_set_dbl(out, row, "rel", lay / flat);
		sb_table_set_dbl(out, row, "gain", 1 - lay / flat);
	}
	sb_alloc_inst_release(&in);
	return 0;
}

const struct sb_experiment sb_experiment_alloc_smd_layers = {
	.name = "alloc_smd_layers",
	.desc = "step time per model, layered (WFBP) against non-layered (SMD model, reconstructed)",
	.figure = "smd-F3",
	.family = "alloc",
	.params = params,
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_alloc_exp_smd_teardown,
};
