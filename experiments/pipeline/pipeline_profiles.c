/*
 * pipeline_profiles.c - table dapple-T2 (spec dapple.md §5, pipeplan.md §5): the
 * models of the pipeline figures, from the measured V100 profiles (DAPPLE,
 * PipeDream) where DATA_DIR has them and from the project's analytic
 * roofline profiles: layers, profile batch, parameters, forward and
 * backward time at the profile batch, activations; and, for the models
 * that have both, the analytic profile's calibration error (analytic /
 * measured) on each total.
 */
#include "workloads/pipeline/load.h"
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const names[] = { "vgg19", "resnet50", "bert-48", "gnmt-16", "xlnet-36",
				      "amoeba-36", "bert-large", "gpt2-xl" };
#define NMODEL ((int)(sizeof names / sizeof names[0]))

static const struct sb_col cols[] = {
	{ "model", SB_COL_STR, "" },
	{ "profile", SB_COL_STR, "" },
	{ "layers", SB_COL_INT, "" },
	{ "pbs", SB_COL_INT, "samples" },
	{ "params_m", SB_COL_DBL, "millions (fp32)" },
	{ "fwd_ms", SB_COL_DBL, "ms at pbs" },
	{ "bwd_ms", SB_COL_DBL, "ms at pbs" },
	{ "act_mb", SB_COL_DBL, "MB per sample" },
	{ "stash_mb", SB_COL_DBL, "MB per sample" },
	{ "ratio_fwd", SB_COL_DBL, "" },
	{ "ratio_bwd", SB_COL_DBL, "" },
	{ "ratio_params", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

struct extra {
	int have[NMODEL][2];          /* [model][0 measured, 1 analytic] */
	struct sb_pmodel m[NMODEL][2];
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s;
	struct extra *x;
	int k, rc = sb_pipeline_exp_setup(c, NULL, 0, err), real;
	size_t used;
	if (rc)
		return rc;
	s = c->state;
	x = SB_NEW(struct extra, 1);
	s->extra = x;
	used = (size_t)snprintf(c->inputs_note, sizeof c->inputs_note, "profiles:");
	for (k = 0; k < NMODEL; k++) {
		if (sb_pipeline_exp_model_available(c, names[k])) {
			rc = sb_pipeline_exp_model(c, names[k], &x->m[k][0], &real, err);
			if (rc)
				return rc;
			if (real)
				x->have[k][0] = 1;
			else
				sb_pmodel_release(&x->m[k][0]);
		}
		if (sb_analytic_model(names[k], &x->m[k][1], err) == 0)
			x->have[k][1] = 1;
		if (used < sizeof c->inputs_note)
			used += (size_t)snprintf(c->inputs_note + used, sizeof c->inputs_note - used,
						 " %s (%s%s%s)", names[k], x->have[k][0] ? "measured" : "",
						 x->have[k][0] && x->have[k][1] ? ", " : "",
						 x->have[k][1] ? "analytic" : "");
	}
	c->npoints = NMODEL;
	return 0;
}

static void totals(const struct sb_pmodel *m, double *t)
{
	int l;
	memset(t, 0, 5 * sizeof *t);
	for (l = 0; l < m->n; l++) {
		t[0] += m->layer[l].fwd;
		t[1] += m->layer[l].bwd;
		t[2] += m->layer[l].params;
		t[3] += m->layer[l].act;
		t[4] += m->layer[l].stash;
	}
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = c->state;
	struct extra *x = s->extra;
	double tot[2][5];
	int v, pbs;

	(void)timing;
	(void)err;
	/* both at the measured profile's batch when there is one */
	pbs = x->have[point][0] ? x->m[point][0].pbs : 1;
	for (v = 0; v < 2; v++) {
		const struct sb_pmodel *m = &x->m[point][v];
		size_t row;
		if (!x->have[point][v])
			continue;
		totals(m, tot[v]);
		row = sb_table_add(out);
		sb_table_set_str(out, row, "model", names[point]);
		sb_table_set_str(out, row, "profile", v ? "analytic" : "measured");
		sb_table_set_int(out, row, "layers", m->n);
		sb_table_set_int(out, row, "pbs", pbs);
		sb_table_set_dbl(out, row, "params_m", tot[v][2] / 4e6);
		sb_table_set_dbl(out, row, "fwd_ms", tot[v][0] * pbs * 1e3);
		sb_table_set_dbl(out, row, "bwd_ms", tot[v][1] * pbs * 1e3);
		sb_table_set_dbl(out, row, "act_mb", tot[v][3] / 1e6);
		sb_table_set_dbl(out, row, "stash_mb", tot[v][4] / 1e6);
		if (v == 1 && x->have[point][0]) {
			sb_table_set_dbl(out, row, "ratio_fwd", tot[1][0] / tot[0][0]);
			sb_table_set_dbl(out, row, "ratio_bwd", tot[1][1] / tot[0][1]);
			sb_table_set_dbl(out, row, "ratio_params", tot[1][2] / tot[0][2]);
		}
	}
	return 0;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct sb_pipeline_exp_state *s = c->state;
	struct extra *x = s ? s->extra : NULL;
	int k;
	if (x)
		for (k = 0; k < NMODEL; k++) {
			sb_pmodel_release(&x->m[k][0]);
			sb_pmodel_release(&x->m[k][1]);
		}
	sb_pipeline_exp_teardown(c);
}

const struct sb_experiment sb_experiment_pipeline_profiles = {
	.name = "pipeline_profiles",
	.desc = "the pipeline models, measured and analytic profiles, and the analytic "
		"profiles' calibration error",
	.figure = "dapple-T2",
	.family = "pipeline",
	.params = NULL,
	.quick_set = NULL,
	.cols = cols,
	.timing_cols = NULL,
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
