/*
 * optimus.c - Optimus-like: preemptive shortest estimated remaining time
 * first, the remaining iterations predicted online from each job's
 * training-loss curve. After Y. Peng, Y. Bao, Y. Chen, C. Wu, C. Guo,
 * "Optimus: an efficient dynamic resource scheduler for deep learning
 * clusters", EuroSys 2018 (spec asrpt.md §5 baseline 6 [O]).
 *
 * Optimus models the training loss of an SGD job as l(k) = 1 / (b0 k + b1)
 * + b2, fits (b0, b1, b2) online by least squares to the losses the job
 * has reported, and from the fit predicts how many iterations are left
 * until convergence; its scheduler then gives resources by marginal gain,
 * which favours jobs with little time left. Here configurations are rigid
 * (g_j is fixed), so the marginal-gain resource scaling is DISABLED and
 * what remains is the ranking: shortest estimated remaining GPU-time
 * (remaining iterations x tau_ref x g_j) first, admitted and preempted by
 * the shared dispatcher D2 (cluster/util.h) with q_min, placed on the
 * fewest servers ("packed").
 *
 * The loss curves are part of the workload, synthesised here because the
 * job sets carry none: job j's true curve has b drawn from the policy's
 * stream and is scaled so that it reaches the job's target loss exactly
 * at its true iteration count n_j (sb_optimus_curve). This is the ONLY use
 * of n_j, and the only reason the policy is declared clairvoyant: init
 * reads job->iters to build the curve, and from then on the scheduler
 * sees nothing but noisy loss samples l(k) (1 + noise z) for k <= the
 * iterations done so far (observe()) and the target (which the user
 * gives). The noise z of sample k is a fixed function of (job, k) seeded
 * from the policy's stream, so a sample reads the same whenever it is
 * observed.
 *
 * From the paper, as asrpt.md §5 and gadget.md summarise it (not checked
 * against its text here): the loss model and its online fit-then-extrapolate use, the
 * marginal-gain allocation and fewest-server placement. Our choices [O]:
 * convergence = reaching a target loss; the curve distribution
 * (optimus.h); a fit on at most 64 samples evenly spaced over the
 * observed iterations, by GSL's trust-region Levenberg-Marquardt on
 * relative residuals with b0, b1 > 0 (the paper reportedly uses
 * non-negative least squares, the spec suggests plain Gauss-Newton); a
 * refit whenever the observed iterations have grown by 10% since the last
 * attempt (progress as a fraction of n_j is not observable), checked at
 * every event and at wake-ups every `period` seconds while jobs run; a
 * failed or non-physical fit (b2 < 0, target at or below the asymptote)
 * keeps the previous estimate; an estimate already exceeded counts as
 * nothing left; a job with fewer than 3 samples gets the median key of
 * the active jobs that have an estimate (all keys 0, i.e. arrival order,
 * when none has).
 *
 * Speed (issue #11 item 7): a waiting job's samples do not grow, so only
 * running jobs are refitted (a waiting job was checked at the decision
 * that stopped it, with the same count) and only they are re-keyed. The
 * waiting jobs with an estimate stay in a heap by key, with their keys in
 * a sorted array for the median; those without one share the median as
 * key and rank among themselves by id (a heap of ids). The running jobs'
 * keys are kept sorted across decisions (insertion sort), the median is
 * selected from the two sorted arrays, and the shared incremental D2
 * (sb_cluster_d2_dispatch) walks the rank only as far as it admits. Same
 * keys, same rank, same actions as the plain path, which refits, keys and
 * sorts every active job at every decision (tests/cluster/test_sim.c,
 * cluster_fast, compares the two; sb_cluster_dispatch_plain selects it).
 * GSL's fit is most of this policy's time in `make bench`. optimus-vp
 * (optimus-vp.c) is this policy with the same cost minimised by variable
 * projection (sb_optimus_fit_vp, below): a labelled speed variant, this
 * file's GSL path the reference.
 */
#include "cluster/util.h"
#include "optimus.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct sb_param sb_optimus_params[] = {
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ "period", 600, 0, 1e9, 0, "seconds between progress checks while jobs run (0: events only)" },
	{ "noise", 0.01, 0, 0.5, 0, "relative noise of the observed loss samples" },
	{ NULL, 0, 0, 0, 0, NULL },
};

#define NSAMPLE 64     /* loss samples per fit */
#define REFIT 1.1      /* refit after 10% more observed iterations */
#define MINSAMPLE 3    /* fewer samples: no fit (three parameters) */

/* ------------------------------------------------------------------ */
/* The loss-curve model and its fit (optimus.h)                        */
/* ------------------------------------------------------------------ */

double sb_optimus_loss(const double b[3], double k)
{
	return 1 / (b[0] * k + b[1]) + b[2];
}

double sb_optimus_iters_to(const double b[3], double target)
{
	double k;
	if (!(target > b[2]))
		return INFINITY;
	k = (1 / (target - b[2]) - b[1]) / b[0];
	return k > 0 ? k : 0;
}

void sb_optimus_curve(struct sb_rng *rng, long n, double b[3], double *target)
{
	double b2 = 0.1 + 0.9 * sb_rng_uniform(rng);
	double gap = 1 + 3 * sb_rng_uniform(rng);
	double f = 0.05 + 0.2 * sb_rng_uniform(rng);
	SB_ASSERT(n > 0);
	b[1] = 1 / gap;
	b[0] = b[1] * (1 / f - 1) / (double)n;
	b[2] = b2;
	*target = sb_optimus_loss(b, (double)n);
}

/* Samples at x = k / K (so the fitted parameters are O(1) whatever the
 * iteration counts), residuals relative to the observed loss (the noise
 * is relative). Parameters u = (ln c0, ln c1, c2) with c0 = b0 K, c1 = b1:
 * the denominator stays positive. */
struct fitdata {
	const double *x, *l;
	size_t n;
};

static int fit_f(const gsl_vector *u, void *p, gsl_vector *r)
{
	const struct fitdata *d = p;
	double c0 = exp(gsl_vector_get(u, 0)), c1 = exp(gsl_vector_get(u, 1));
	double c2 = gsl_vector_get(u, 2);
	size_t i;
	for (i = 0; i < d->n; i++)
		gsl_vector_set(r, i, (1 / (c0 * d->x[i] + c1) + c2 - d->l[i]) / d->l[i]);
	return GSL_SUCCESS;
}

static int fit_df(const gsl_vector *u, void *p, gsl_matrix *J)
{
	const struct fitdata *d = p;
	double c0 = exp(gsl_vector_get(u, 0)), c1 = exp(gsl_vector_get(u, 1));
	size_t i;
	for (i = 0; i < d->n; i++) {
		double den = c0 * d->x[i] + c1, g = -1 / (den * den * d->l[i]);
		gsl_matrix_set(J, i, 0, g * c0 * d->x[i]);
		gsl_matrix_set(J, i, 1, g * c1);
		gsl_matrix_set(J, i, 2, 1 / d->l[i]);
	}
	return GSL_SUCCESS;
}

static double fit_cost(const struct fitdata *d, double c0, double c1, double c2)
{
	double s = 0;
	size_t i;
	for (i = 0; i < d->n; i++) {
		double r = (1 / (c0 * d->x[i] + c1) + c2 - d->l[i]) / d->l[i];
		s += r * r;
	}
	return s;
}

/* Starting point: for a few asymptotes c2 below the smallest loss,
 * 1 / (l - c2) is linear in x; weighted linear least squares (weights
 * turning its residuals back into relative loss residuals) gives c0, c1;
 * keep the candidate of least cost. Returns 0, or -1 if none has
 * c0, c1 > 0. */
static int fit_start(const struct fitdata *d, double *c, double *cost)
{
	static const double frac[] = { 0, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99 };
	double lmin = INFINITY;
	size_t i, f;
	int found = -1;

	for (i = 0; i < d->n; i++)
		lmin = sb_min(lmin, d->l[i]);
	*cost = INFINITY;
	for (f = 0; f < sizeof frac / sizeof frac[0]; f++) {
		double c2 = frac[f] * lmin, sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, det, c0,
		       c1, cs;
		for (i = 0; i < d->n; i++) {
			double e = d->l[i] - c2, w = e * e / d->l[i], y = 1 / e;
			w *= w;
			sw += w;
			sx += w * d->x[i];
			sy += w * y;
			sxx += w * d->x[i] * d->x[i];
			sxy += w * d->x[i] * y;
		}
		det = sw * sxx - sx * sx;
		if (!(det > 0))
			continue;
		c0 = (sw * sxy - sx * sy) / det;
		c1 = (sy - c0 * sx) / sw;
		if (!(c0 > 0 && c1 > 0 && isfinite(c0) && isfinite(c1)))
			continue;
		cs = fit_cost(d, c0, c1, c2);
		if (cs < *cost) {
			*cost = cs;
			c[0] = c0;
			c[1] = c1;
			c[2] = c2;
			found = 0;
		}
	}
	return found;
}

/* A solver: refines the start c (of cost `cost`) in place; 0, or -1 when
 * it fails. */
typedef int (*fit_refine_fn)(const struct fitdata *d, double c[3], double cost);

/* The reference: GSL's trust-region Levenberg-Marquardt on (ln c0, ln c1,
 * c2). */
static int refine_lm(const struct fitdata *d, double c[3], double cost)
{
	gsl_multifit_nlinear_parameters prm = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_workspace *w = NULL;
	gsl_multifit_nlinear_fdf fdf;
	double u[3];
	int i, rc = -1, info;

	u[0] = log(c[0]);
	u[1] = log(c[1]);
	u[2] = c[2];
	/* already exact: the solver would report no progress */
	if (cost > 1e-24) {
		gsl_vector_view u0 = gsl_vector_view_array(u, 3);
		const gsl_vector *pos;
		fdf.f = fit_f;
		fdf.df = fit_df;
		fdf.fvv = NULL;
		fdf.n = d->n;
		fdf.p = 3;
		fdf.params = (void *)d;
		w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &prm, d->n, 3);
		if (!w)
			goto out;
		if (gsl_multifit_nlinear_init(&u0.vector, &fdf, w) != GSL_SUCCESS)
			goto out;
		if (gsl_multifit_nlinear_driver(100, 1e-10, 1e-10, 0, NULL, NULL, &info, w) !=
		    GSL_SUCCESS)
			goto out;
		pos = gsl_multifit_nlinear_position(w);
		for (i = 0; i < 3; i++)
			u[i] = gsl_vector_get(pos, (size_t)i);
	}
	c[0] = exp(u[0]);
	c[1] = exp(u[1]);
	c[2] = u[2];
	rc = 0;
out:
	if (w)
		gsl_multifit_nlinear_free(w);
	return rc;
}

/* Variable projection [O]. With r = c0 / c1 and a = 1 / c1 the model is
 * a phi_i + c2, phi_i = 1 / (1 + r x_i): for a fixed r, least squares in
 * (a, c2) with weights 1 / l_i^2 (relative residuals) is a 2 x 2 linear
 * system. Where its a is not positive the best curve for that r with
 * a >= 0 is flat (a = 0, c2 the weighted mean), which keeps the projected
 * cost continuous in t = ln r. */
struct vproj {
	const struct fitdata *d;
	double *phi;          /* n: phi_i at the last t */
	double a, c2;         /* the linear part at the last t */
};

static double vp_cost(double t, void *p)
{
	struct vproj *v = p;
	const struct fitdata *d = v->d;
	double r = exp(t), s11 = 0, s12 = 0, s22 = 0, y1 = 0, y2 = 0, det, cost = 0;
	size_t i;

	for (i = 0; i < d->n; i++) {
		double il = 1 / d->l[i], w = il * il, phi = 1 / (1 + r * d->x[i]);
		v->phi[i] = phi;
		s11 += w * phi * phi;
		s12 += w * phi;
		s22 += w;
		y1 += il * phi;
		y2 += il;
	}
	det = s11 * s22 - s12 * s12;
	v->a = det > 1e-14 * s11 * s22 ? (y1 * s22 - y2 * s12) / det : 0;
	if (v->a > 0) {
		v->c2 = (y2 - v->a * s12) / s22;
	} else {
		v->a = 0;
		v->c2 = y2 / s22;
	}
	for (i = 0; i < d->n; i++) {
		double e = (v->a * v->phi[i] + v->c2 - d->l[i]) / d->l[i];
		cost += e * e;
	}
	return cost;
}

/* Solve the 3 x 3 system A z = y by Gaussian elimination with partial
 * pivoting; -1 if A is singular to working precision. */
static int solve3(double A[3][3], double y[3], double z[3])
{
	int i, j, k;

	for (k = 0; k < 3; k++) {
		int p = k;
		for (i = k + 1; i < 3; i++)
			if (fabs(A[i][k]) > fabs(A[p][k]))
				p = i;
		if (!(fabs(A[p][k]) > 1e-300))
			return -1;
		for (j = 0; j < 3; j++) {
			double t = A[k][j];
			A[k][j] = A[p][j];
			A[p][j] = t;
		}
		{
			double t = y[k];
			y[k] = y[p];
			y[p] = t;
		}
		for (i = k + 1; i < 3; i++) {
			double f = A[i][k] / A[k][k];
			for (j = k; j < 3; j++)
				A[i][j] -= f * A[k][j];
			y[i] -= f * y[k];
		}
	}
	for (k = 2; k >= 0; k--) {
		double t = y[k];
		for (j = k + 1; j < 3; j++)
			t -= A[k][j] * z[j];
		z[k] = t / A[k][k];
	}
	return 0;
}

/* Gauss-Newton steps on (ln c0, ln c1, c2) from c, kept while the cost
 * falls: the one-dimensional search stops at a tolerance on ln r of
 * 1e-5 (below that its cost is flat to rounding), these steps take the
 * fit to the precision of the residuals. */
static void polish_gn(const struct fitdata *d, double c[3])
{
	double u[3] = { log(c[0]), log(c[1]), c[2] };
	double cost = fit_cost(d, c[0], c[1], c[2]);
	int it, q;

	for (it = 0; it < 20; it++) {
		double A[3][3] = { { 0 } }, y[3] = { 0 }, z[3], e0 = exp(u[0]), e1 = exp(u[1]),
		       nc, big = 0;
		size_t i;
		for (i = 0; i < d->n; i++) {
			double den = e0 * d->x[i] + e1, g = -1 / (den * den * d->l[i]);
			double J[3] = { g * e0 * d->x[i], g * e1, 1 / d->l[i] };
			double r = (1 / den + u[2] - d->l[i]) / d->l[i];
			int a, b;
			for (a = 0; a < 3; a++) {
				y[a] -= J[a] * r;
				for (b = 0; b < 3; b++)
					A[a][b] += J[a] * J[b];
			}
		}
		if (solve3(A, y, z) != 0)
			break;
		nc = fit_cost(d, exp(u[0] + z[0]), exp(u[1] + z[1]), u[2] + z[2]);
		if (!(nc < cost))
			break;
		for (q = 0; q < 3; q++) {
			big = sb_max(big, fabs(z[q]) / (1 + fabs(u[q])));
			u[q] += z[q];
		}
		cost = nc;
		if (big < 1e-13)
			break;
	}
	c[0] = exp(u[0]);
	c[1] = exp(u[1]);
	c[2] = u[2];
}

/* ln r is searched within +-VP_TMAX: beyond, the curve is a straight line
 * (r -> 0) or a step at the first sample (r -> inf), and the fit fails as
 * GSL's does when it drifts there. */
#define VP_TMAX 50.0

static int refine_vp(const struct fitdata *d, double c[3], double cost)
{
	gsl_function F;
	gsl_min_fminimizer *m = NULL;
	struct vproj v;
	double t0, f0, tl, fl, th, fh, h = 1, tm;
	int it, rc = -1, status;

	if (!(cost > 1e-24))
		return 0;   /* already exact */
	v.d = d;
	v.phi = SB_NEW(double, d->n);
	F.function = vp_cost;
	F.params = &v;
	/* bracket a minimum of the projected cost around the start */
	t0 = log(c[0] / c[1]);
	if (!(fabs(t0) < VP_TMAX))
		goto out;
	f0 = vp_cost(t0, &v);
	tl = t0 - h;
	fl = vp_cost(tl, &v);
	th = t0 + h;
	fh = vp_cost(th, &v);
	while (!(f0 < fl && f0 < fh)) {
		/* walk downhill, the step growing by the golden ratio */
		h *= 1.618;
		if (fl < fh) {
			th = t0;
			fh = f0;
			t0 = tl;
			f0 = fl;
			tl = t0 - h;
			if (!(tl > -VP_TMAX))
				goto out;
			fl = vp_cost(tl, &v);
		} else {
			tl = t0;
			fl = f0;
			t0 = th;
			f0 = fh;
			th = t0 + h;
			if (!(th < VP_TMAX))
				goto out;
			fh = vp_cost(th, &v);
		}
		if (!(isfinite(fl) && isfinite(fh) && isfinite(f0)))
			goto out;
	}
	m = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
	if (!m || gsl_min_fminimizer_set_with_values(m, &F, t0, f0, tl, fl, th, fh) != GSL_SUCCESS)
		goto out;
	for (it = 0; it < 100; it++) {
		if (gsl_min_fminimizer_iterate(m) != GSL_SUCCESS)
			goto out;
		status = gsl_min_test_interval(gsl_min_fminimizer_x_lower(m),
					       gsl_min_fminimizer_x_upper(m), 1e-5, 0);
		if (status == GSL_SUCCESS)
			break;
	}
	if (it == 100)
		goto out;
	tm = gsl_min_fminimizer_x_minimum(m);
	vp_cost(tm, &v);
	if (!(v.a > 0))
		goto out;   /* flat: no decreasing curve */
	c[1] = 1 / v.a;
	c[0] = exp(tm) * c[1];
	c[2] = v.c2;
	polish_gn(d, c);
	rc = 0;
out:
	if (m)
		gsl_min_fminimizer_free(m);
	sb_free(v.phi);
	return rc;
}

/* Checks, scaling, starting point and the physical checks of both fits;
 * `refine` is the only difference. */
static int fit_with(const double *k, const double *l, int n, double b[3], fit_refine_fn refine)
{
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	struct fitdata d;
	double *x = NULL, kmax = 0, c[3], cost;
	int i, rc = -1;

	if (n < MINSAMPLE)
		goto out;
	for (i = 0; i < n; i++) {
		if (!(isfinite(k[i]) && k[i] >= 0 && isfinite(l[i]) && l[i] > 0))
			goto out;
		kmax = sb_max(kmax, k[i]);
	}
	if (!(kmax > 0))
		goto out;
	x = SB_NEW(double, n);
	for (i = 0; i < n; i++)
		x[i] = k[i] / kmax;
	d.x = x;
	d.l = l;
	d.n = (size_t)n;
	if (fit_start(&d, c, &cost) != 0) {
		/* a flat start: the solver may still find a decreasing curve */
		c[2] = 0;
		c[1] = 1 / l[0];
		c[0] = 1e-3 * c[1];
		cost = fit_cost(&d, c[0], c[1], c[2]);
	}
	if (refine(&d, c, cost) != 0)
		goto out;
	if (!(c[0] > 0 && c[1] > 0 && isfinite(c[0]) && isfinite(c[1]) && isfinite(c[2])))
		goto out;
	/* a loss has no negative asymptote; rounding may put a zero one a
	 * hair below 0 */
	if (c[2] < -1e-9 * l[0])
		goto out;
	c[2] = sb_max(c[2], 0);
	b[0] = c[0] / kmax;
	b[1] = c[1];
	b[2] = c[2];
	rc = 0;
out:
	sb_free(x);
	gsl_set_error_handler(old);
	return rc;
}

int sb_optimus_fit(const double *k, const double *l, int n, double b[3])
{
	return fit_with(k, l, n, b, refine_lm);
}

int sb_optimus_fit_vp(const double *k, const double *l, int n, double b[3])
{
	return fit_with(k, l, n, b, refine_vp);
}

/* ------------------------------------------------------------------ */
/* The observed workload: the only code that knows the true curves     */
/* ------------------------------------------------------------------ */

struct curve {
	double b[3];          /* true curve, reaches target at n_j */
	uint64_t seed;        /* noise of its samples */
};

struct state {
	double qmin, period, noise;
	sb_optimus_fit_fn fit;        /* the loss-curve fit of the variant */
	struct curve *cur;    /* private to observe() */
	double *target;       /* the job's target loss (given by its user) */
	double *nhat;         /* estimated total iterations, < 0: none yet */
	long *done_fit;       /* observed iterations at the last fit attempt */
	double *key;
	double *scratch;
	double wake_at;
	/* fast path */
	int fast;
	double med;
	struct sb_cluster_jheap est_q;   /* waiting, with an estimate, by key */
	struct sb_cluster_jheap none_q;  /* waiting, without, by id */
	double *pkeys;                   /* keys of est_q, sorted */
	int npkeys;
	int *rsorted, nrs;               /* running jobs with an estimate, by key */
	unsigned char *mark;             /* scratch: running with an estimate */
	struct sb_cluster_d2 d2;
};


/* The loss job j reports at iteration k; only iterations it has done. */
static double observe(const struct state *st, struct sb_csim *s, int j, long k)
{
	const struct curve *cv = &st->cur[j];
	double l = sb_optimus_loss(cv->b, (double)k), z;
	struct sb_rng r;

	SB_ASSERT(k >= 0 && k <= sb_cluster_sim_done(s, j));
	if (st->noise == 0)
		return l;
	r = sb_rng_stream(cv->seed, (uint64_t)k, 0, SB_RNG_NOISE);
	z = sb_rng_normal(&r, 0, 1);
	/* a loss stays positive however unlucky the draw */
	return l * sb_max(1 + st->noise * z, 0.01);
}

/* ------------------------------------------------------------------ */
/* Scheduler                                                           */
/* ------------------------------------------------------------------ */

void *sb_optimus_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng,
		      sb_optimus_fit_fn fit)
{
	struct state *st = SB_NEW(struct state, 1);
	int n = sb_cluster_sim_njobs(s), j;

	st->fit = fit;
	st->qmin = sb_opts_get(o, "qmin");
	st->period = sb_opts_get(o, "period");
	st->noise = sb_opts_get(o, "noise");
	st->cur = SB_NEW(struct curve, n);
	st->target = SB_NEW(double, n);
	st->nhat = SB_NEW(double, n);
	st->done_fit = SB_NEW(long, n);
	st->key = SB_NEW(double, n);
	st->scratch = SB_NEW(double, n > 0 ? n : 1);
	st->wake_at = -INFINITY;
	st->fast = !sb_cluster_dispatch_plain;
	sb_cluster_jheap_init(&st->est_q, sb_cluster_key_before, st->key);
	sb_cluster_jheap_init(&st->none_q, sb_cluster_id_before, NULL);
	st->pkeys = SB_NEW(double, n > 0 ? n : 1);
	st->rsorted = SB_NEW(int, n > 0 ? n : 1);
	st->mark = SB_NEW(unsigned char, n > 0 ? n : 1);
	sb_cluster_d2_init(&st->d2, n);
	for (j = 0; j < n; j++) {
		/* n_j is read here, to synthesise the curve, and nowhere else */
		sb_optimus_curve(rng, sb_cluster_sim_job(s, j)->iters, st->cur[j].b, &st->target[j]);
		st->cur[j].seed = sb_rng_u64(rng);
		st->nhat[j] = -1;
	}
	return st;
}

void sb_optimus_release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->cur);
	sb_free(st->target);
	sb_free(st->nhat);
	sb_free(st->done_fit);
	sb_free(st->key);
	sb_free(st->scratch);
	sb_cluster_jheap_release(&st->est_q);
	sb_cluster_jheap_release(&st->none_q);
	sb_free(st->pkeys);
	sb_free(st->rsorted);
	sb_free(st->mark);
	sb_cluster_d2_release(&st->d2);
	sb_free(st);
}

/* Fit j's curve to its samples so far and re-estimate its total
 * iterations; a failed fit keeps the previous estimate. */
static void refit(struct state *st, struct sb_csim *s, int j, long done)
{
	double k[NSAMPLE], l[NSAMPLE], b[3], nh;
	int m = done < NSAMPLE ? (int)done : NSAMPLE, i;

	for (i = 0; i < m; i++) {
		/* evenly spaced over 1..done, the last one at done */
		long ki = ((long)(i + 1) * done + m - 1) / m;
		k[i] = (double)ki;
		l[i] = observe(st, s, j, ki);
	}
	st->done_fit[j] = done;
	sb_cluster_sim_work(s, "curve-fits", 1);
	if (st->fit(k, l, m, b) != 0)
		return;
	nh = sb_optimus_iters_to(b, st->target[j]);
	if (isfinite(nh))
		st->nhat[j] = nh;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Key of an active job with an estimate (the expression of record). */
static double est_key(const struct state *st, const struct sb_csim *s, int j, long done)
{
	double rem = sb_max(st->nhat[j] - (double)done, 0);
	return rem * sb_cluster_sim_tau_ref(s, j) * sb_cluster_sim_job(s, j)->gpus;
}

/* Median of the keys as the plain path takes it from its sorted copy. */
static double median_of(const double *v, int nm)
{
	return nm % 2 ? v[nm / 2] : 0.5 * (v[nm / 2 - 1] + v[nm / 2]);
}

/* ------------------------------------------------------------------ */
/* Fast path                                                           */
/* ------------------------------------------------------------------ */

/* First position in v[0..n) whose value is not below x. */
static int lower(const double *v, int n, double x)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void pkeys_add(struct state *st, double x)
{
	int i = lower(st->pkeys, st->npkeys, x);
	memmove(st->pkeys + i + 1, st->pkeys + i, sizeof(double) * (size_t)(st->npkeys - i));
	st->pkeys[i] = x;
	st->npkeys++;
}

static void pkeys_remove(struct state *st, double x)
{
	int i = lower(st->pkeys, st->npkeys, x);
	SB_ASSERT(i < st->npkeys && st->pkeys[i] == x);
	memmove(st->pkeys + i, st->pkeys + i + 1, sizeof(double) * (size_t)(st->npkeys - i - 1));
	st->npkeys--;
}

/* The k-th smallest (from 0) of the union of sorted a[0..na), b[0..nb). */
static double kth(const double *a, int na, const double *b, int nb, int k)
{
	/* i elements from a and k + 1 - i from b make the first k + 1 */
	int lo = k + 1 - nb > 0 ? k + 1 - nb : 0, hi = k + 1 < na ? k + 1 : na;
	for (;;) {
		int i = lo + (hi - lo) / 2, jb = k + 1 - i;
		if (i < hi && jb > 0 && b[jb - 1] > a[i])
			lo = i + 1;       /* a[i] belongs to the first k + 1 */
		else if (i > lo && jb < nb && a[i - 1] > b[jb])
			hi = i - 1;       /* too many from a */
		else if (i == 0)
			return b[jb - 1];
		else if (jb == 0)
			return a[i - 1];
		else
			return sb_max(a[i - 1], b[jb - 1]);
	}
}

static int wait_head(void *ctx)
{
	struct state *st = ctx;
	int e = sb_cluster_jheap_top(&st->est_q), u = sb_cluster_jheap_top(&st->none_q);
	if (u >= 0)
		st->key[u] = st->med;
	if (e < 0)
		return u;
	return u >= 0 && sb_cluster_key_before(st->key, u, e) ? u : e;
}

static void wait_take(void *ctx)
{
	struct state *st = ctx;
	int j = wait_head(st);
	if (st->nhat[j] >= 0) {
		pkeys_remove(st, st->key[j]);
		sb_cluster_jheap_pop(&st->est_q);
	} else {
		sb_cluster_jheap_pop(&st->none_q);
	}
}

static void wait_put(void *ctx, int j)
{
	struct state *st = ctx;
	if (st->nhat[j] >= 0) {
		pkeys_add(st, st->key[j]);
		sb_cluster_jheap_push(&st->est_q, j);
	} else {
		sb_cluster_jheap_push(&st->none_q, j);
	}
}

static const struct sb_cluster_pending wait_ops = { wait_head, wait_take, wait_put };

void sb_optimus_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	(void)s;
	if (st->fast)
		sb_cluster_jheap_push(&st->none_q, j);   /* no samples yet */
}

static void schedule_fast(struct state *st, struct sb_csim *s)
{
	int n, i, k, m = 0, nm;
	const int *run = sb_cluster_sim_running(s, &n);

	/* the running jobs: refitted as they progress, re-keyed; those with
	 * an estimate kept sorted by key (their order of the last decision
	 * is nearly right) */
	for (i = 0; i < n; i++) {
		int j = run[i];
		long done = sb_cluster_sim_done(s, j);
		if (done >= MINSAMPLE && (double)done >= REFIT * (double)st->done_fit[j])
			refit(st, s, j, done);
		if (st->nhat[j] >= 0) {
			st->key[j] = est_key(st, s, j, done);
			st->mark[j] = 1;
		}
	}
	for (i = 0; i < st->nrs; i++) {
		int j = st->rsorted[i];
		if (sb_cluster_sim_state(s, j) == SB_JOB_RUNNING && st->mark[j]) {
			st->mark[j] = 0;
			st->rsorted[m++] = j;
		}
	}
	for (i = 0; i < n; i++)
		if (st->mark[run[i]]) {
			st->mark[run[i]] = 0;
			st->rsorted[m++] = run[i];   /* new to the list */
		}
	for (i = 1; i < m; i++) {
		int j = st->rsorted[i];
		for (k = i; k > 0 && sb_cluster_key_before(st->key, j, st->rsorted[k - 1]); k--)
			st->rsorted[k] = st->rsorted[k - 1];
		st->rsorted[k] = j;
	}
	st->nrs = m;
	/* the median of the estimated keys, waiting and running */
	nm = st->npkeys + m;
	st->med = 0;
	if (nm > 0) {
		double *rk = st->scratch;
		for (i = 0; i < m; i++)
			rk[i] = st->key[st->rsorted[i]];
		st->med = nm % 2 ? kth(st->pkeys, st->npkeys, rk, m, nm / 2)
				 : 0.5 * (kth(st->pkeys, st->npkeys, rk, m, nm / 2 - 1) +
					  kth(st->pkeys, st->npkeys, rk, m, nm / 2));
	}
	for (i = 0; i < n; i++)
		if (st->nhat[run[i]] < 0)
			st->key[run[i]] = st->med;
	sb_cluster_d2_dispatch(s, &st->d2, sb_cluster_key_before, st->key, &wait_ops, st, st->qmin,
			       NULL, NULL);
}

void sb_optimus_schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int n, i, nm = 0;
	const int *act;
	double now = sb_cluster_sim_now(s);

	if (st->fast) {
		schedule_fast(st, s);
	} else {
		double med = 0;
		act = sb_cluster_sim_active(s, &n);
		for (i = 0; i < n; i++) {
			int j = act[i];
			long done = sb_cluster_sim_done(s, j);
			if (done >= MINSAMPLE && (double)done >= REFIT * (double)st->done_fit[j])
				refit(st, s, j, done);
			if (st->nhat[j] >= 0) {
				st->key[j] = est_key(st, s, j, done);
				st->scratch[nm++] = st->key[j];
			}
		}
		if (nm > 0) {
			qsort(st->scratch, (size_t)nm, sizeof(double), cmp_double);
			med = median_of(st->scratch, nm);
		}
		for (i = 0; i < n; i++)
			if (st->nhat[act[i]] < 0)
				st->key[act[i]] = med;
		sb_cluster_dispatch_priority(s, st->key, st->qmin);
	}

	/* one outstanding wake-up at a time, and only while jobs progress;
	 * asked again at every decision (trace replay forgets it otherwise:
	 * elsewhere the copies fall at one instant, one decision) */
	if (st->period > 0 && st->wake_at <= now &&
	    sb_cluster_sim_free(s) < cl->nserver * cl->gpus)
		st->wake_at = now + st->period;
	if (st->wake_at > now)
		sb_cluster_sim_wake(s, st->wake_at);
}

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	return sb_optimus_init(s, o, rng, sb_optimus_fit);
}

const struct sb_cluster_policy sb_cluster_policy_optimus = {
	.name = "optimus",
	.cite = "Peng et al., Optimus: an efficient dynamic resource scheduler for deep "
		"learning clusters, EuroSys 2018 (fixed GPU counts)",
	.desc = "preemptive shortest remaining time, iterations from online loss-curve fits",
	.init = init,
	SB_OPTIMUS_COMMON,
};
