/*
 * common.c - the sync experiments' shared world, run and rows (common.h).
 * Ours [O].
 */
#include "experiments/sync/common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int sb_sync_exp_setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	char buf[1024];
	const char *path = NULL;
	int rc;

	if (sb_opts_get(&c->opts, "digits"))
		path = sb_exp_data(c, "digits/digits.csv", buf, sizeof buf);
	if (path) {
		struct sb_sync_data d;
		/* load once here so a malformed file fails the run before any point */
		if ((rc = sb_sync_digits_load(&d, path, err)))
			return rc;
		snprintf(c->inputs_note, sizeof c->inputs_note, "real: scikit-learn digits "
			 "(%d rows, %s)", d.n, path);
		sb_sync_data_release(&d);
		if ((rc = sb_exp_add_input(c, path, err)))
			return rc;
		c->state = sb_xstrdup(path);
		return 0;
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "synthetic%s: Gaussian mixture d=64 "
		 "k=10 sep=%g, 20k/4k; slowest step %g s",
		 sb_opts_get(&c->opts, "digits") ? " fallback (no digits/digits.csv in DATA_DIR)"
						  : "", sb_opts_get(&c->opts, "sep"),
		 SB_SYNC_EXP_SLOW);
	return 0;
}

void sb_sync_exp_teardown(struct sb_exp_ctx *c)
{
	sb_free(c->state);
	c->state = NULL;
}

int sb_sync_exp_world(struct sb_exp_ctx *c, int rep, int m, double h,
		      struct sb_sync_world *w, struct sb_err *err)
{
	const struct sb_opts *o = &c->opts;
	struct sb_sync_world_cfg cfg = { c->state, sb_opts_get(o, "sep"), m, h,
		SB_SYNC_EXP_SLOW, 0.05, SB_SYNC_MLP, c->seed, (uint64_t)rep };
	int rc;

	if (!sb_opts_get(o, "mlp")) {
		cfg.model = SB_SYNC_SOFTMAX;
		cfg.lr = 0.1;
	}
	if ((rc = sb_sync_world_make(w, &cfg, err)))
		return rc;
	w->in.horizon = sb_opts_get(o, "horizon");
	w->in.stop_at_conv = 1;
	w->in.target = 1.05 * sb_sync_reference_loss(&w->in, 30);
	return 0;
}

int sb_sync_exp_run(const struct sb_sync_inst *in, const char *name, const char *set,
		    struct sb_sync_result *r, struct sb_err *err)
{
	const struct sb_sync_policy *p = sb_sync_policy_find(name);
	struct sb_opts po;
	int rc;

	if (!p)
		SB_BUG("sync experiment: no policy '%s'", name);
	sb_opts_defaults(&po, p->params);
	if (set && (rc = sb_opts_set(&po, p->params, set, "--set", err)))
		return rc;
	return sb_sync_run(in, p, &po, r, err);
}

double sb_sync_exp_conv(const struct sb_sync_inst *in, const struct sb_sync_result *r)
{
	return r->conv_time >= 0 ? r->conv_time : in->horizon;
}

void sb_sync_exp_rows(const struct sb_sync_inst *in, const char *const *names,
		      const struct sb_sync_result *r, int n, struct sb_table *out,
		      size_t first)
{
	double adsp = 0, conv_i, conv_j;
	int i, j, m = in->m;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], "adsp"))
			adsp = sb_sync_exp_conv(in, &r[i]);
	for (i = 0; i < n; i++) {
		size_t row = first + (size_t)i;
		int faster = 0, slower = 0;
		/* a run that never converged is slower than any that did */
		conv_i = r[i].conv_time >= 0 ? r[i].conv_time : HUGE_VAL;
		for (j = 0; j < n; j++) {
			conv_j = r[j].conv_time >= 0 ? r[j].conv_time : HUGE_VAL;
			faster += conv_j < conv_i;
			slower += conv_j > conv_i;
		}
		sb_table_set_str(out, row, "policy", names[i]);
		sb_table_set_dbl(out, row, "conv_time", r[i].conv_time);
		sb_table_set_int(out, row, "converged", r[i].conv_time >= 0);
		sb_table_set_dbl(out, row, "conv_eff", sb_sync_exp_conv(in, &r[i]));
		sb_table_set_dbl(out, row, "vs_adsp", adsp > 0 ? sb_sync_exp_conv(in, &r[i]) / adsp
								: 0);
		sb_table_set_int(out, row, "n_faster", faster);
		sb_table_set_int(out, row, "n_slower", slower);
		sb_table_set_dbl(out, row, "compute", r[i].compute / m);
		sb_table_set_dbl(out, row, "blocked", r[i].blocked / m);
		sb_table_set_dbl(out, row, "comm", r[i].comm / m);
		sb_table_set_int(out, row, "steps", r[i].steps);
		sb_table_set_dbl(out, row, "steps_per_s", r[i].end > 0 ? r[i].steps / r[i].end : 0);
		sb_table_set_dbl(out, row, "target", in->target);
		sb_table_set_dbl(out, row, "gap_bound", r[i].steps ?
				 sb_sync_time_to_steps(&r[i], r[i].steps) /
				 sb_sync_bound(in, r[i].steps) : 1);
	}
}

int sb_sync_exp_schemes(const struct sb_sync_world *w, const char *const *names, int n,
			int curves, struct sb_table *out,
			void (*set_keys)(struct sb_table *out, size_t row, const void *arg),
			const void *arg, struct sb_err *err)
{
	struct sb_sync_result *r = SB_NEW(struct sb_sync_result, n);
	size_t first = out->nrow;
	int i, rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = sb_sync_exp_run(&w->in, names[i], NULL, &r[i], err);
	if (!rc) {
		for (i = 0; i < n; i++) {
			size_t row = sb_table_add(out);
			set_keys(out, row, arg);
			if (curves)
				sb_table_set_str(out, row, "kind", "scheme");
		}
		sb_sync_exp_rows(&w->in, names, r, n, out, first);
		for (i = 0; i < n && curves; i++)
			sb_sync_exp_curve(names[i], &r[i], 0, out, set_keys, arg);
	}
	for (i = 0; i < n; i++)
		sb_sync_result_release(&r[i]);
	sb_free(r);
	return rc;
}

void sb_sync_exp_curve(const char *name, const struct sb_sync_result *r, double shift,
		       struct sb_table *out,
		       void (*set_keys)(struct sb_table *out, size_t row, const void *arg),
		       const void *arg)
{
	int k;
	/* evaluations come every Γ/2 from t = 0; the even ones are the checks */
	for (k = 0; k < r->neval; k += 2) {
		size_t row = sb_table_add(out);
		set_keys(out, row, arg);
		sb_table_set_str(out, row, "kind", "curve");
		sb_table_set_str(out, row, "policy", name);
		sb_table_set_dbl(out, row, "t", r->eval_t[k] + shift);
		sb_table_set_dbl(out, row, "loss", r->eval_loss[k]);
		sb_table_set_int(out, row, "csteps", r->eval_steps[k]);
	}
}

const struct sb_col sb_sync_exp_f1_cols[] = {
	{ "rep", SB_COL_INT, "" },
	SB_SYNC_EXP_COLS,
	{ NULL, 0, NULL },
};

int sb_sync_exp_f1_setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps");
	return sb_sync_exp_setup(c, err);
}

static void f1_keys(struct sb_table *out, size_t row, const void *arg)
{
	sb_table_set_int(out, row, "rep", *(const int *)arg);
}

/* curves = 1 (F2): every run lasts the horizon and adds its loss curve */
static int schemes_point(struct sb_exp_ctx *c, int point, struct sb_table *out, int curves,
			 struct sb_err *err)
{
	static const char *const schemes[] = { "bsp", "ssp", "fixed-adacomm", "adacomm", "adsp",
					       "asp" };
	struct sb_sync_world w;
	int rc = sb_sync_exp_world(c, point, (int)sb_opts_get(&c->opts, "workers"),
				   sb_opts_get(&c->opts, "h"), &w, err);
	if (rc)
		return rc;
	w.in.stop_at_conv = !curves;
	rc = sb_sync_exp_schemes(&w, schemes, (int)(sizeof schemes / sizeof schemes[0]), curves,
				 out, f1_keys, &point, err);
	sb_sync_world_release(&w);
	return rc;
}

int sb_sync_exp_f1_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
			 struct sb_table *timing, struct sb_err *err)
{
	return schemes_point(c, point, out, 0, err);
}

int sb_sync_exp_curves_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
			     struct sb_table *timing, struct sb_err *err)
{
	return schemes_point(c, point, out, 1, err);
}

int sb_sync_exp_sweep_setup(struct sb_exp_ctx *c, const struct sb_sync_sweep *sw,
			    struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "reps") * sw->n;
	return sb_sync_exp_setup(c, err);
}

struct sweep_key { const struct sb_sync_sweep *sw; int rep; double val; };

static void sweep_keys(struct sb_table *out, size_t row, const void *arg)
{
	const struct sweep_key *k = arg;
	sb_table_set_int(out, row, "rep", k->rep);
	if (k->sw->of == SB_SYNC_SWEEP_WORKERS)
		sb_table_set_int(out, row, k->sw->col, (int64_t)k->val);
	else
		sb_table_set_dbl(out, row, k->sw->col, k->val);
}

int sb_sync_exp_sweep_point(struct sb_exp_ctx *c, const struct sb_sync_sweep *sw, int point,
			    struct sb_table *out, struct sb_err *err)
{
	const struct sb_opts *o = &c->opts;
	struct sweep_key k = { sw, point / sw->n, sw->vals[point % sw->n] };
	int m = (int)sb_opts_get(o, "workers"), rc;
	double h = sw->of == SB_SYNC_SWEEP_H ? k.val : sb_opts_get(o, "h");
	struct sb_sync_world w;

	if (sw->of == SB_SYNC_SWEEP_WORKERS)
		k.val = m = (int)(m * k.val);
	if ((rc = sb_sync_exp_world(c, k.rep, m, h, &w, err)))
		return rc;
	if (sw->of == SB_SYNC_SWEEP_DELAY)
		w.in.delay = k.val;
	rc = sb_sync_exp_schemes(&w, sw->schemes, sw->ns, 0, out, sweep_keys, &k, err);
	sb_sync_world_release(&w);
	return rc;
}
