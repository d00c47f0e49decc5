/*
 * data.c - the sync family's data: the seeded Gaussian mixture of
 * adsp.md §7 [O] (the default) and a loader for the scikit-learn "digits"
 * set (1,797 rows x 64 pixels in 0..16, 10 classes) as a CSV a user puts
 * in DATA_DIR: 64 feature columns then the label, optionally a header.
 */
#include "sync/sync.h"
#include "wlfile.h"

#include <string.h>

void sb_sync_data_release(struct sb_sync_data *s)
{
	sb_free(s->x);
	sb_free(s->y);
	memset(s, 0, sizeof *s);
}

void sb_sync_gmm(struct sb_sync_data *s, int n, int d, int k, double sep, struct sb_rng *r)
{
	double *mu = SB_NEW(double, (size_t)k * d);
	int i, j;

	s->n = n;
	s->d = d;
	s->k = k;
	s->x = SB_NEW(double, (size_t)n * d);
	s->y = SB_NEW(int, n);
	for (i = 0; i < k * d; i++)
		mu[i] = sb_rng_normal(r, 0, sep);
	for (i = 0; i < n; i++) {
		s->y[i] = (int)sb_rng_below(r, (uint32_t)k);
		for (j = 0; j < d; j++)
			s->x[(size_t)i * d + j] = mu[(size_t)s->y[i] * d + j] + sb_rng_normal(r, 0, 1);
	}
	sb_free(mu);
}

int sb_sync_digits_load(struct sb_sync_data *s, const char *path, struct sb_err *err)
{
	struct sb_wl_file f;
	char *line, *fld[66];
	size_t cap = 0, capy = 0;
	int rc, nf, j;

	memset(s, 0, sizeof *s);
	if ((rc = sb_wl_open(&f, "digits", path, err)))
		return rc;
	if (f.len >= 2 && (unsigned char)f.buf[0] == 0x1f && (unsigned char)f.buf[1] == 0x8b) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 1, NULL, "gzip-compressed: decompress "
				"it first (gunzip -k)");
		goto out;
	}
	s->d = 64;
	s->k = 10;
	while ((line = sb_wl_next(&f))) {
		double v;
		long lab;
		line = sb_wl_trim(line);
		if (sb_wl_blank(line))
			continue;
		nf = sb_wl_split(line, ',', fld, 66);
		if (s->n == 0 && nf == 65 && sb_wl_double(&f, err, "pixel 1", sb_wl_trim(fld[0]),
							  0, 16, &v)) {
			continue;   /* a header line */
		}
		if (nf != 65) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL, "%d fields, expected "
					"65 (64 pixels, then the label)", nf);
			goto out;
		}
		{
			double *gx = sb_wl_grow(s->x, &cap, (size_t)(s->n + 1) * 64, sizeof *s->x);
			int *gy = gx ? sb_wl_grow(s->y, &capy, (size_t)s->n + 1, sizeof *s->y) : NULL;
			if (gx)
				s->x = gx;
			if (!gy) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			s->y = gy;
		}
		for (j = 0; j < 64; j++) {
			char name[16];
			snprintf(name, sizeof name, "pixel %d", j + 1);
			if ((rc = sb_wl_double(&f, err, name, sb_wl_trim(fld[j]), 0, 16, &v)))
				goto out;
			/* scaled to [0, 1] so one learning rate suits both data sets */
			s->x[(size_t)s->n * 64 + j] = v / 16;
		}
		if ((rc = sb_wl_long(&f, err, "label", sb_wl_trim(fld[64]), 0, 9, &lab)))
			goto out;
		s->y[s->n++] = (int)lab;
	}
	if (s->n < 20)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL, "%d rows: need at least 20",
				s->n);
out:
	if (rc)
		sb_sync_data_release(s);
	sb_wl_close(&f);
	return rc;
}

void sb_sync_split(const struct sb_sync_data *s, int ntest, struct sb_rng *r,
		   struct sb_sync_data *train, struct sb_sync_data *test)
{
	int *idx = SB_NEW(int, s->n), i;
	struct sb_sync_data *part[2] = { train, test };
	int p, lo[2] = { 0, s->n - ntest }, hi[2] = { s->n - ntest, s->n };

	for (i = 0; i < s->n; i++)
		idx[i] = i;
	sb_rng_shuffle_int(r, idx, (size_t)s->n);
	for (p = 0; p < 2; p++) {
		struct sb_sync_data *o = part[p];
		o->n = hi[p] - lo[p];
		o->d = s->d;
		o->k = s->k;
		o->x = SB_NEW(double, (size_t)o->n * s->d);
		o->y = SB_NEW(int, o->n);
		for (i = 0; i < o->n; i++) {
			memcpy(o->x + (size_t)i * s->d, s->x + (size_t)idx[lo[p] + i] * s->d,
			       (size_t)s->d * sizeof *o->x);
			o->y[i] = s->y[idx[lo[p] + i]];
		}
	}
	sb_free(idx);
}

int sb_sync_world_make(struct sb_sync_world *w, const struct sb_sync_world_cfg *cfg,
		       struct sb_err *err)
{
	struct sb_rng gen = sb_rng_stream(cfg->seed, cfg->point, 0, SB_RNG_INSTANCE);
	struct sb_rng split = sb_rng_split(&gen), net = sb_rng_split(&gen);
	int rc;

	memset(w, 0, sizeof *w);
	if (!(cfg->lr > 0))
		return sb_err_set(err, SB_EXIT_INPUT, "learning rate %g: must be > 0", cfg->lr);
	if (cfg->digits) {
		if ((rc = sb_sync_digits_load(&w->all, cfg->digits, err)))
			return rc;
		sb_sync_split(&w->all, w->all.n / 5, &split, &w->train, &w->test);
		snprintf(w->source, sizeof w->source, "real: scikit-learn digits (%d rows)", w->all.n);
	} else {
		/* the test set is drawn with the same class means: one mixture,
		 * then split */
		sb_sync_gmm(&w->all, 24000, 64, 10, cfg->sep, &gen);
		sb_sync_split(&w->all, 4000, &split, &w->train, &w->test);
		snprintf(w->source, sizeof w->source, "synthetic: Gaussian mixture d=64 k=10 "
			 "sep=%g, 20k/4k", cfg->sep);
	}
	sb_sync_inst_defaults(&w->in, cfg->m);
	w->in.model = cfg->model;
	w->in.lr = cfg->lr;
	w->in.train = &w->train;
	w->in.test = &w->test;
	w->in.seed = cfg->seed;
	w->in.point = cfg->point;
	if ((rc = sb_sync_speeds(&w->in, cfg->h, cfg->slow, &net, err)))
		sb_sync_world_release(w);
	return rc;
}

void sb_sync_world_release(struct sb_sync_world *w)
{
	sb_sync_inst_release(&w->in);
	sb_sync_data_release(&w->all);
	sb_sync_data_release(&w->train);
	sb_sync_data_release(&w->test);
}
