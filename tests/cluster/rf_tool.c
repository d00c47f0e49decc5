/*
 * rf_tool.c - fit A-SRPT's random forest and the OLS comparator
 * (algorithms/asrpt/rf.c) to a CSV file and report their accuracy on
 * held-out rows; the C side of tests/rf_sklearn.py.
 *
 * Input: a header line, then rows of numbers; the last column is the
 * target, the others are features. The first floor(train * rows) rows
 * train, the rest test (no shuffling: the caller decides the order).
 * Output: one "key: value" per line on stdout. Exit 0, 1 on a run-time
 * failure, 2 for bad usage or input.
 */
#include "algorithms/asrpt/rf.h"
#include "sb.h"
#include "wlfile.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: rf_tool [--train FRAC] [--seed N] [--ntrees N] [--mtry N]\n"
	"               [--min-leaf N] [--max-depth N] [--bootstrap 0|1] FILE.csv\n"
	"  FRAC in (0, 1), default 0.7; mtry 0 = features/3; other defaults\n"
	"  as sb_rf_params_default (100 trees, min leaf 5, depth 16, bootstrap)\n";

static int bad_usage(const char *fmt, const char *arg)
{
	fputs("error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(usage, stderr);
	return SB_EXIT_INPUT;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* The data set: n rows of p features (row-major) and targets. */
struct data {
	int n, p;
	char **name;    /* p + 1 column names (owned, as is each name) */
	double *X, *y;
};

static void data_release(struct data *d)
{
	int j;

	if (d->name)
		for (j = 0; j <= d->p; j++)
			sb_free(d->name[j]);
	sb_free(d->name);
	sb_free(d->X);
	sb_free(d->y);
	memset(d, 0, sizeof *d);
}

static int read_csv(struct data *d, const char *path, struct sb_err *err)
{
	struct sb_wl_file f;
	char *line, **fld = NULL;
	size_t cap = 0;
	int rc, nf, j;

	memset(d, 0, sizeof *d);
	if ((rc = sb_wl_open(&f, "data set", path, err)))
		return rc;
	line = sb_wl_next(&f);
	if (!line) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "empty file");
		goto out;
	}
	for (nf = 1, j = 0; line[j]; j++)
		nf += line[j] == ',';
	if (nf < 2) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 1, NULL,
				"need a header of at least two columns (features, target)");
		goto out;
	}
	fld = SB_NEW(char *, nf);
	sb_wl_split(line, ',', fld, nf);
	d->p = nf - 1;
	d->name = SB_NEW(char *, nf);
	for (j = 0; j < nf; j++)
		d->name[j] = sb_xstrdup(sb_wl_trim(fld[j]));

	while ((line = sb_wl_next(&f))) {
		double *row;
		if (!*sb_wl_trim(line))
			continue;
		if (sb_wl_split(line, ',', fld, nf) != nf) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"expected %d fields like the header", nf);
			goto out;
		}
		if (d->n == INT_MAX) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL, "too many rows");
			goto out;
		}
		if ((size_t)d->n == cap) {
			cap = cap ? 2 * cap : 1024;
			d->X = sb_xrealloc(d->X, cap * (size_t)d->p * sizeof *d->X);
			d->y = sb_xrealloc(d->y, cap * sizeof *d->y);
		}
		row = d->X + (size_t)d->n * d->p;
		for (j = 0; j < nf; j++) {
			double *v = j < d->p ? &row[j] : &d->y[d->n];
			if ((rc = sb_wl_double(&f, err, d->name[j], fld[j], -DBL_MAX,
					       DBL_MAX, v)))
				goto out;
		}
		d->n++;
	}
	if (d->n < 2)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL,
				"need at least two rows (one to train, one to test)");
out:
	sb_free(fld);
	sb_wl_close(&f);
	if (rc)
		data_release(d);
	return rc;
}

static void report(const char *who, const double *y, const double *yhat, int n)
{
	printf("%s_r2: %.6f\n", who, sb_pred_r2(y, yhat, n));
	printf("%s_mape: %.6f\n", who, sb_pred_mape(y, yhat, n));
	printf("%s_mdape: %.6f\n", who, sb_pred_mdape(y, yhat, n));
	printf("%s_within25: %.6f\n", who, sb_pred_within(y, yhat, n, 0.25));
}

int main(int argc, char **argv)
{
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_ols ols;
	struct sb_err err;
	struct data d;
	const char *path = NULL;
	double frac = 0.7, t0, secs, *yhat;
	unsigned long long seed = 1;
	int i, rc, ntrain, ntest;

	sb_rf_params_default(&par);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		long v;
		int *dst = NULL;
		if (!strcmp(a, "--train") && i + 1 < argc) {
			char *end;
			errno = 0;
			frac = strtod(argv[++i], &end);
			if (errno || end == argv[i] || *end || !(frac > 0 && frac < 1))
				return bad_usage("--train '%s': expected a number in (0, 1)",
						 argv[i]);
			continue;
		}
		if (!strcmp(a, "--seed") && i + 1 < argc) {
			char *end;
			errno = 0;
			seed = strtoull(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end || argv[i][0] == '-')
				return bad_usage("--seed '%s': not a non-negative integer",
						 argv[i]);
			continue;
		}
		if (!strcmp(a, "--ntrees"))
			dst = &par.ntrees;
		else if (!strcmp(a, "--mtry"))
			dst = &par.mtry;
		else if (!strcmp(a, "--min-leaf"))
			dst = &par.min_leaf;
		else if (!strcmp(a, "--max-depth"))
			dst = &par.max_depth;
		else if (!strcmp(a, "--bootstrap"))
			dst = &par.bootstrap;
		if (dst && i + 1 < argc) {
			/* ranges are checked by sb_rf_fit, naming the field */
			if (parse_int(argv[++i], INT_MIN, INT_MAX, &v))
				return bad_usage("%s: not an integer", argv[i]);
			*dst = (int)v;
		} else if (a[0] == '-' && a[1]) {
			return bad_usage("unknown option or missing value: '%s'", a);
		} else if (path) {
			return bad_usage("more than one input file: '%s'", a);
		} else {
			path = a;
		}
	}
	if (!path)
		return bad_usage("%s", "need a CSV file");

	if ((rc = read_csv(&d, path, &err))) {
		sb_err_print(&err);
		return rc;
	}
	ntrain = (int)(frac * d.n);
	ntest = d.n - ntrain;
	if (ntrain < 1 || ntest < 1) {
		fprintf(stderr, "error: --train %g of %d rows leaves %d to train and "
			"%d to test\n", frac, d.n, ntrain, ntest);
		data_release(&d);
		return SB_EXIT_INPUT;
	}

	t0 = sb_now();
	rc = sb_rf_fit(&rf, d.X, d.y, ntrain, d.p, &par, seed, &err);
	secs = sb_now() - t0;
	if (rc) {
		sb_err_print(&err);
		data_release(&d);
		return rc;
	}
	if ((rc = sb_ols_fit(&ols, d.X, d.y, ntrain, d.p, &err))) {
		sb_err_print(&err);
		sb_rf_release(&rf);
		data_release(&d);
		return rc;
	}

	printf("file: %s\n", path);
	printf("rows: %d\n", d.n);
	printf("features: %d\n", d.p);
	printf("train: %d\n", ntrain);
	printf("test: %d\n", ntest);
	printf("seed: %llu\n", seed);
	printf("ntrees: %d\n", rf.par.ntrees);
	printf("mtry: %d\n", rf.par.mtry);
	printf("min_leaf: %d\n", rf.par.min_leaf);
	printf("max_depth: %d\n", rf.par.max_depth);
	printf("bootstrap: %d\n", rf.par.bootstrap);
	printf("rf_fit_seconds: %.4f\n", secs);
	printf("rf_oob_mse: %.6g\n", sb_rf_oob_mse(&rf));

	yhat = SB_NEW(double, ntest);
	for (i = 0; i < ntest; i++)
		yhat[i] = sb_rf_predict(&rf, d.X + (size_t)(ntrain + i) * d.p);
	report("rf", d.y + ntrain, yhat, ntest);
	for (i = 0; i < ntest; i++)
		yhat[i] = sb_ols_predict(&ols, d.X + (size_t)(ntrain + i) * d.p);
	printf("ols_rank: %d\n", ols.rank);
	report("ols", d.y + ntrain, yhat, ntest);

	sb_free(yhat);
	sb_ols_release(&ols);
	sb_rf_release(&rf);
	data_release(&d);
	return 0;
}
