/*
 * speed.c - DL2's measured parameter-server training speeds
 * (config_speed.txt of github.com/pengyanghua/DL2 at 2e54920, SOURCES.md
 * §8 [V]) and the Optimus form fitted to them (smd.md §4, F6).
 *
 * The file holds one Python tuple literal per line,
 *   (model, sync_mode, tot_batch_size, num_ps, num_worker,
 *    [speed per worker], [CPU use per PS], [CPU use per worker]);
 * DL2's speed.py takes the job's speed as the sum of its workers' speeds
 * (training steps per second) [V]. The loader is strict: every field is
 * checked, the lists must have num_worker / num_ps / num_worker entries,
 * and a (model, sync_mode, num_ps, num_worker) key may appear once. Nine
 * rows of the real file (vgg-16 and inception-bn) have a total speed of 0
 * (no progress measured): they load, and the fit and smd-F6 skip them.
 *
 * The Optimus form (Peng et al., EuroSys '18; smd.md §4 tags it [M]):
 * step time tau(p, w) = t0 M / w + t1 + t2 w / p + t3 w + t4 p with
 * t >= 0, fitted by non-negative least squares to the measured step times
 * w / speed. With five coefficients the NNLS is solved exactly by trying
 * every support (2^5 least-squares problems) and keeping the best one whose
 * coefficients are all non-negative. Our reading of the form is
 * reconstructed [R] until checked against the Optimus paper.
 */
#include "alloc_wl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 1000000

static const char *const fields[8] = {
	"model", "sync_mode", "tot_batch_size", "num_ps", "num_worker",
	"speeds", "ps_cpu_usages", "worker_cpu_usages",
};

/* ------------------------------------------------------------------ */
/* One tuple literal                                                   */
/* ------------------------------------------------------------------ */

struct cur {
	struct sb_wl_file *f;
	struct sb_err *err;
	char *p;
};

static void blanks(struct cur *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

/* The separator `ch` after field k (or before field 0 for '('). */
static int expect(struct cur *c, char ch, int k)
{
	blanks(c);
	if (*c->p != ch)
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, k >= 0 ? fields[k] : NULL,
				  "expected '%c' %s, found %s", ch,
				  k >= 0 ? "after it" : "at the start of the tuple",
				  *c->p ? "another character" : "the end of the line");
	c->p++;
	return 0;
}

/* A quoted string (no escapes) of 1..size-1 characters. */
static int string(struct cur *c, int k, char *out, size_t size)
{
	char q, *end;
	size_t n;

	blanks(c);
	q = *c->p;
	if (q != '\'' && q != '"')
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, fields[k],
				  "expected a quoted string");
	end = strchr(c->p + 1, q);
	if (!end)
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, fields[k],
				  "unterminated string");
	n = (size_t)(end - c->p - 1);
	if (memchr(c->p + 1, '\\', n))
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, fields[k],
				  "escapes are not supported");
	if (n == 0 || n >= size)
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, fields[k],
				  "%s (1..%zu characters)", n ? "too long" : "empty", size - 1);
	memcpy(out, c->p + 1, n);
	out[n] = 0;
	c->p = end + 1;
	return 0;
}

/* A number up to the next ',', ']' or ')', in [lo, hi]. */
static int number(struct cur *c, int k, double lo, double hi, int integer, double *out)
{
	char *end = c->p + strcspn(c->p, ",])"), save = *end;
	int rc;

	*end = 0;
	if (integer) {
		long v = 0;
		rc = sb_wl_long(c->f, c->err, fields[k], c->p, (long)lo, (long)hi, &v);
		*out = (double)v;
	} else {
		rc = sb_wl_double(c->f, c->err, fields[k], c->p, lo, hi, out);
	}
	*end = save;
	c->p = end;
	return rc;
}

/* A list of exactly n numbers in [lo, hi]; *sum gets their sum. */
static int list(struct cur *c, int k, int n, double lo, double hi, double *sum)
{
	int i = 0, rc;

	blanks(c);
	if (*c->p != '[')
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, fields[k],
				  "expected a list '[...]'");
	c->p++;
	*sum = 0;
	blanks(c);
	if (*c->p != ']')
		for (;;) {
			double v;
			if ((rc = number(c, k, lo, hi, 0, &v)))
				return rc;
			*sum += v;
			i++;
			if (*c->p == ']')
				break;
			if (*c->p != ',')
				return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno,
						  fields[k], "expected ',' or ']' in the list");
			c->p++;
		}
	c->p++;   /* ']' */
	if (i != n)
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, fields[k],
				  "%d entries, expected %d (one per %s)", i, n,
				  k == 6 ? "PS" : "worker");
	return 0;
}

static int tuple(struct cur *c, struct sb_alloc_speed_row *row, char *model, char *sync)
{
	double batch, ps, w, sum;
	int rc;

	if ((rc = expect(c, '(', -1)) || (rc = string(c, 0, model, 32)) ||
	    (rc = expect(c, ',', 0)) || (rc = string(c, 1, sync, 32)) ||
	    (rc = expect(c, ',', 1)) || (rc = number(c, 2, 1, 1000000, 1, &batch)) ||
	    (rc = expect(c, ',', 2)) || (rc = number(c, 3, 1, SB_ALLOC_MAXK, 1, &ps)) ||
	    (rc = expect(c, ',', 3)) || (rc = number(c, 4, 1, SB_ALLOC_MAXK, 1, &w)) ||
	    (rc = expect(c, ',', 4)))
		return rc;
	row->batch = batch;
	row->ps = (int)ps;
	row->workers = (int)w;
	/* DL2's file has workers measured at 0 and rows whose speeds are all
	 * 0 (runs that made no progress): kept, with speed 0; users of the
	 * step time w / speed skip them */
	if ((rc = list(c, 5, row->workers, 0, SB_WL_MAX, &row->speed)) ||
	    (rc = expect(c, ',', 5)) || (rc = list(c, 6, row->ps, 0, SB_WL_MAX, &sum)))
		return rc;
	row->ps_cpu = sum;
	if ((rc = expect(c, ',', 6)) || (rc = list(c, 7, row->workers, 0, SB_WL_MAX, &sum)))
		return rc;
	row->worker_cpu = sum;
	if ((rc = expect(c, ')', 7)))
		return rc;
	blanks(c);
	if (*c->p)
		return sb_wl_fail(c->f, c->err, SB_EXIT_INPUT, c->f->lineno, NULL,
				  "text after the tuple");
	return 0;
}

/* ------------------------------------------------------------------ */
/* The file                                                            */
/* ------------------------------------------------------------------ */

int sb_alloc_speeds_model(const struct sb_alloc_speeds *sp, const char *model)
{
	int k;
	for (k = 0; k < sp->nmodel; k++)
		if (!strcmp(sp->model[k], model))
			return k;
	return -1;
}

const struct sb_alloc_speed_row *sb_alloc_speeds_find(const struct sb_alloc_speeds *sp,
						      int model, int ps, int workers)
{
	int i;
	for (i = 0; i < sp->n; i++)
		if (sp->row[i].model == model && sp->row[i].ps == ps &&
		    sp->row[i].workers == workers)
			return &sp->row[i];
	return NULL;
}

void sb_alloc_speeds_release(struct sb_alloc_speeds *sp)
{
	sb_free(sp->row);
	memset(sp, 0, sizeof *sp);
}

int sb_alloc_load_speeds(const char *path, struct sb_alloc_speeds *sp, struct sb_err *err)
{
	struct sb_wl_file f;
	size_t cap = 0;
	char *line;
	int rc;

	memset(sp, 0, sizeof *sp);
	if ((rc = sb_wl_open(&f, "speed table", path, err)))
		return rc;
	while ((line = sb_wl_next(&f))) {
		struct sb_alloc_speed_row row;
		struct cur c = { &f, err, line };
		char model[32], sync[32];
		int m, i;

		if (sb_wl_blank(line))
			continue;
		memset(&row, 0, sizeof row);
		if ((rc = tuple(&c, &row, model, sync)))
			goto out;
		if ((m = sb_alloc_speeds_model(sp, model)) < 0) {
			if (sp->nmodel == SB_ALLOC_MAXTYPE) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, fields[0],
						"more than %d models", SB_ALLOC_MAXTYPE);
				goto out;
			}
			m = sp->nmodel++;
			memcpy(sp->model[m], model, sizeof model);
			memcpy(sp->sync[m], sync, sizeof sync);
		} else if (strcmp(sp->sync[m], sync)) {
			/* DL2 measured one mode per model; two would need two keys */
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, fields[1],
					"'%s', but model '%s' was measured in '%s' before", sync,
					model, sp->sync[m]);
			goto out;
		}
		row.model = m;
		for (i = 0; i < sp->n; i++)
			if (sp->row[i].model == m && sp->row[i].ps == row.ps &&
			    sp->row[i].workers == row.workers) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, fields[4],
						"duplicate measurement of '%s' with %d PSs and %d workers",
						model, row.ps, row.workers);
				goto out;
			}
		if (sp->n == MAX_ROWS) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL, "more than %d rows",
					MAX_ROWS);
			goto out;
		}
		{
			struct sb_alloc_speed_row *p =
				sb_wl_grow(sp->row, &cap, (size_t)sp->n + 1, sizeof *sp->row);
			if (!p) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			sp->row = p;
			sp->row[sp->n++] = row;
		}
	}
	if (!sp->n)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "no measurement");
	else
		snprintf(sp->source, sizeof sp->source, "file=%s", path);
out:
	sb_wl_close(&f);
	if (rc)
		sb_alloc_speeds_release(sp);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The Optimus form                                                    */
/* ------------------------------------------------------------------ */

static void basis(double batch, int ps, int w, double *x)
{
	x[0] = batch / w;
	x[1] = 1;
	x[2] = (double)w / ps;
	x[3] = w;
	x[4] = ps;
}

double sb_alloc_speed_fit_tau(const double theta[SB_ALLOC_FIT_N], double batch, int ps, int w)
{
	double x[SB_ALLOC_FIT_N], t = 0;
	int k;
	basis(batch, ps, w, x);
	for (k = 0; k < SB_ALLOC_FIT_N; k++)
		t += theta[k] * x[k];
	return t;
}

/* Least squares on the columns of mask: solve the normal equations by
 * Gaussian elimination with partial pivoting; 0 if singular. */
static int ls_support(const double (*ata)[SB_ALLOC_FIT_N], const double *atb, unsigned mask,
		      double *theta)
{
	double a[SB_ALLOC_FIT_N][SB_ALLOC_FIT_N + 1];
	int idx[SB_ALLOC_FIT_N], n = 0, i, j, k;

	for (k = 0; k < SB_ALLOC_FIT_N; k++) {
		theta[k] = 0;
		if (mask & (1u << k))
			idx[n++] = k;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < n; j++)
			a[i][j] = ata[idx[i]][idx[j]];
		a[i][n] = atb[idx[i]];
	}
	for (k = 0; k < n; k++) {
		int piv = k;
		for (i = k + 1; i < n; i++)
			if (fabs(a[i][k]) > fabs(a[piv][k]))
				piv = i;
		if (fabs(a[piv][k]) < 1e-12 * (1 + fabs(ata[idx[k]][idx[k]])))
			return 0;
		for (j = 0; j <= n; j++) {
			double t = a[k][j];
			a[k][j] = a[piv][j];
			a[piv][j] = t;
		}
		for (i = k + 1; i < n; i++) {
			double f = a[i][k] / a[k][k];
			for (j = k; j <= n; j++)
				a[i][j] -= f * a[k][j];
		}
	}
	for (k = n - 1; k >= 0; k--) {
		double s = a[k][n];
		for (j = k + 1; j < n; j++)
			s -= a[k][j] * theta[idx[j]];
		theta[idx[k]] = s / a[k][k];
	}
	return 1;
}

int sb_alloc_speed_fit(const struct sb_alloc_speeds *sp, int model,
		       double theta[SB_ALLOC_FIT_N], double *rms)
{
	double ata[SB_ALLOC_FIT_N][SB_ALLOC_FIT_N] = { { 0 } }, atb[SB_ALLOC_FIT_N] = { 0 };
	double best = INFINITY;
	unsigned mask;
	int i, j, k, n = 0;

	for (i = 0; i < sp->n; i++) {
		const struct sb_alloc_speed_row *r = &sp->row[i];
		double x[SB_ALLOC_FIT_N], y;
		if (r->model != model || r->speed <= 0)
			continue;
		basis(r->batch, r->ps, r->workers, x);
		y = r->workers / r->speed;
		for (j = 0; j < SB_ALLOC_FIT_N; j++) {
			for (k = 0; k < SB_ALLOC_FIT_N; k++)
				ata[j][k] += x[j] * x[k];
			atb[j] += x[j] * y;
		}
		n++;
	}
	if (!n)
		return -1;
	for (mask = 1; mask < (1u << SB_ALLOC_FIT_N); mask++) {
		double t[SB_ALLOC_FIT_N], sse = 0;
		if (!ls_support((const double (*)[SB_ALLOC_FIT_N])ata, atb, mask, t))
			continue;
		for (k = 0; k < SB_ALLOC_FIT_N; k++)
			if (t[k] < 0)
				break;
		if (k < SB_ALLOC_FIT_N)
			continue;
		for (i = 0; i < sp->n; i++) {
			const struct sb_alloc_speed_row *r = &sp->row[i];
			double e;
			if (r->model != model || r->speed <= 0)
				continue;
			e = sb_alloc_speed_fit_tau(t, r->batch, r->ps, r->workers) -
			    r->workers / r->speed;
			sse += e * e;
		}
		if (sse < best) {
			best = sse;
			memcpy(theta, t, sizeof t);
		}
	}
	if (!isfinite(best))
		return -1;
	*rms = sqrt(best / n);
	return 0;
}
