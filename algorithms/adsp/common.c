/*
 * Family: sync (core/sync/).
 * common.c - ADSP's commit rule and the scheduler's curve fit (adsp.h).
 * The rule and the fitted form are the authors' [V, code]; solving the
 * fit with GSL's Levenberg-Marquardt (the authors use scipy's curve_fit,
 * itself LM) is our substitution [O].
 */
#include "adsp.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <string.h>

int sb_adsp_commit(double dc, double min_interval, long bootstrap,
		   const struct sb_sync_sim *s, int i)
{
	double ti;
	if (dc <= 0)
		return s->since[i] >= bootstrap;
	ti = s->in->period / dc - s->o[i];
	if (ti < min_interval)
		ti = min_interval;
	return s->now - s->last_commit[i] >= ti;
}

struct pts { const double *t, *l; };

static int f(const gsl_vector *x, void *data, gsl_vector *r)
{
	const struct pts *d = data;
	double a = gsl_vector_get(x, 0), b = gsl_vector_get(x, 1), e = gsl_vector_get(x, 2);
	size_t k;
	for (k = 0; k < r->size; k++)
		gsl_vector_set(r, k, 1 / (a * a * d->t[k] + b) + e - d->l[k]);
	return GSL_SUCCESS;
}

static int df(const gsl_vector *x, void *data, gsl_matrix *J)
{
	const struct pts *d = data;
	double a = gsl_vector_get(x, 0), b = gsl_vector_get(x, 1);
	size_t k;
	for (k = 0; k < J->size1; k++) {
		double u = a * a * d->t[k] + b, g = -1 / (u * u);
		gsl_matrix_set(J, k, 0, g * 2 * a * d->t[k]);
		gsl_matrix_set(J, k, 1, g);
		gsl_matrix_set(J, k, 2, 1);
	}
	return GSL_SUCCESS;
}

int sb_adsp_fit(const double *t, const double *l, int n, double p[3])
{
	gsl_multifit_nlinear_parameters par = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w;
	gsl_multifit_nlinear_fdf fdf;
	gsl_error_handler_t *old;
	struct pts d = { t, l };
	double x0[3], lmin = l[0], lmax = l[0], span;
	gsl_vector_view xv = gsl_vector_view_array(x0, 3);
	int k, info, st, bad = 1;

	if (n < 3)
		return 1;
	for (k = 1; k < n; k++) {
		lmin = l[k] < lmin ? l[k] : lmin;
		lmax = l[k] > lmax ? l[k] : lmax;
	}
	span = t[n - 1] - t[0] > 0 ? t[n - 1] - t[0] : 1;
	/* start: a curve through the first point that halves the excess
	 * above a floor just under the lowest loss over the window */
	x0[2] = lmin - 0.5 * (lmax - lmin) - 1e-3;
	x0[1] = 1 / (l[0] - x0[2]);
	x0[0] = sqrt(x0[1] / span);
	fdf.f = f;
	fdf.df = df;
	fdf.fvv = NULL;
	fdf.n = (size_t)n;
	fdf.p = 3;
	fdf.params = &d;
	par.trs = gsl_multifit_nlinear_trs_lm;
	old = gsl_set_error_handler_off();
	w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &par, (size_t)n, 3);
	if (w && gsl_multifit_nlinear_init(&xv.vector, &fdf, w) == GSL_SUCCESS) {
		st = gsl_multifit_nlinear_driver(200, 1e-12, 1e-12, 1e-12, NULL, NULL, &info, w);
		(void)st;
		for (k = 0; k < 3; k++)
			p[k] = gsl_vector_get(w->x, (size_t)k);
		bad = !(isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]));
		if (!bad) {
			double rr = 0;
			for (k = 0; k < n; k++) {
				double e = 1 / (p[0] * p[0] * t[k] + p[1]) + p[2] - l[k];
				rr += e * e;
			}
			bad = !isfinite(rr);
		}
	}
	if (w)
		gsl_multifit_nlinear_free(w);
	gsl_set_error_handler(old);
	if (!bad)
		p[0] = fabs(p[0]);
	return bad;
}

double sb_adsp_reward(const double p[3], double target)
{
	double when;
	if (target <= p[2])
		return 0;
	when = (1 / (target - p[2]) - p[1]) / (p[0] * p[0]);
	/* already below the target at the window's start: the best score */
	return when > 1e-9 ? 1 / when : 1e9;
}
