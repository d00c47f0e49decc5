/*
 * alloc_smd_speed.c - figure smd-F6 (smd.md §8, ours [O]): the step time
 * of a parameter-server job against the PS-to-worker ratio p / w, from
 * three sources per DL2 model:
 *   - dl2: DL2's measured speeds (config_speed.txt [V]): w / (sum of the
 *     workers' speeds), seconds per synchronous step;
 *   - fit: the Optimus form (smd.md §4, [M]; workloads/alloc/speed.c)
 *     fitted by non-negative least squares to all of that model's rows;
 *   - wfbp: our layered step-time model [R] (core/alloc/model.c) for the
 *     DL2 type, spread across servers, layers as in smd-F3.
 * One row per measured (p, w) of the model (a row whose measured speed is
 * 0, nine in DL2's file, has tau_dl2 = nan); *_rel divides each series by
 * its own value at p = w for the same w (nan when the table has no p = w),
 * so that the three series, in different units of work per step (DL2's
 * fixed total batch against our fixed per-worker step), compare by trend.
 * Without the speed table the rows cover p, w = 1..12 with the model only
 * (dl2 and fit nan) and the inputs note says so. Deterministic.
 */
#include "common.h"

#include <math.h>

static const struct sb_param params[] = {
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "model", SB_COL_STR, "" },
	{ "layers", SB_COL_STR, "" },
	{ "workers", SB_COL_INT, "" },
	{ "ps", SB_COL_INT, "" },
	{ "ratio", SB_COL_DBL, "" },
	{ "tau_dl2", SB_COL_DBL, "s" },
	{ "tau_fit", SB_COL_DBL, "s" },
	{ "tau_wfbp", SB_COL_DBL, "s" },
	{ "dl2_rel", SB_COL_DBL, "" },
	{ "fit_rel", SB_COL_DBL, "" },
	{ "wfbp_rel", SB_COL_DBL, "" },
	{ "fit_rms", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	const struct sb_alloc_exp_smd *s;
	int rc = sb_alloc_exp_smd_setup(c, "no arrivals (one job per model)", 1, err);
	if (rc)
		return rc;
	s = c->state;
	c->npoints = s->ty.n;
	return 0;
}

struct src {
	const struct sb_alloc_speeds *sp;
	int m;                       /* model in sp, or -1 */
	const struct sb_alloc_job *jb;
	double theta[SB_ALLOC_FIT_N], rms;
	int fitted;
};

/* The three step times at (p, w); nan where a source is missing. */
static void taus(const struct src *x, int p, int w, double *t)
{
	const struct sb_alloc_speed_row *r = x->m >= 0 ? sb_alloc_speeds_find(x->sp, x->m, p, w) : NULL;
	t[0] = r && r->speed > 0 ? w / r->speed : NAN;
	t[1] = r && x->fitted ? sb_alloc_speed_fit_tau(x->theta, r->batch, p, w) : NAN;
	t[2] = sb_alloc_tau(x->jb, w, p, 0, 1);
}

static void emit(struct sb_table *out, const struct src *x, const char *layers, int p, int w)
{
	double t[3], t0[3];
	size_t row = sb_table_add(out);
	int k, base = x->m < 0 || sb_alloc_speeds_find(x->sp, x->m, w, w);

	taus(x, p, w, t);
	if (base)
		taus(x, w, w, t0);
	else
		t0[0] = t0[1] = t0[2] = NAN;
	sb_table_set_str(out, row, "model", x->jb->model);
	sb_table_set_str(out, row, "layers", layers);
	sb_table_set_int(out, row, "workers", w);
	sb_table_set_int(out, row, "ps", p);
	sb_table_set_dbl(out, row, "ratio", (double)p / w);
	sb_table_set_dbl(out, row, "tau_dl2", t[0]);
	sb_table_set_dbl(out, row, "tau_fit", t[1]);
	sb_table_set_dbl(out, row, "tau_wfbp", t[2]);
	for (k = 0; k < 3; k++)
		t[k] /= t0[k];
	sb_table_set_dbl(out, row, "dl2_rel", t[0]);
	sb_table_set_dbl(out, row, "fit_rel", t[1]);
	sb_table_set_dbl(out, row, "wfbp_rel", t[2]);
	sb_table_set_dbl(out, row, "fit_rms", x->fitted ? x->rms : NAN);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_alloc_exp_smd *s = c->state;
	struct sb_alloc_inst in;
	struct src x;
	const char *layers;
	int i, p, w;

	(void)timing;
	(void)err;
	/* the same jobs and layers as smd-F3 */
	sb_alloc_exp_smd_types(c, SB_ALLOC_MAXK, &in);
	x.sp = &s->speeds;
	x.jb = &in.job[point];
	x.m = s->have_speeds ? sb_alloc_speeds_model(&s->speeds, x.jb->model) : -1;
	x.fitted = x.m >= 0 && !sb_alloc_speed_fit(&s->speeds, x.m, x.theta, &x.rms);
	layers = sb_alloc_exp_smd_layers(c, x.jb);
	if (x.m >= 0) {
		for (i = 0; i < s->speeds.n; i++)
			if (s->speeds.row[i].model == x.m)
				emit(out, &x, layers, s->speeds.row[i].ps, s->speeds.row[i].workers);
	} else {
		for (w = 1; w <= 12; w++)
			for (p = 1; p <= 12; p++)
				emit(out, &x, layers, p, w);
	}
	sb_alloc_inst_release(&in);
	return 0;
}

const struct sb_experiment sb_experiment_alloc_smd_speed = {
	.name = "alloc_smd_speed",
	.desc = "step time against the PS/worker ratio: WFBP model, Optimus-form fit, DL2 measured speeds",
	.figure = "smd-F6",
	.family = "alloc",
	.params = params,
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_alloc_exp_smd_teardown,
};
