/*
 * jobcsv.c - a job set a user brings, as CSV (the cluster family's own
 * format, so that `sb eval cluster --jobs FILE` can run any workload).
 *
 * A header line names the columns, in any order:
 *   required  arrival (s, >= 0), model (a catalogue name, see sb_catalog),
 *             d, t, p (parallel degrees >= 1), iters (>= 1)
 *   optional  micro (default 4p), batch (default: the model's),
 *             family (>= -1, default -1), user (>= 0, default 0)
 * Blank lines are skipped (before the header too). Unknown columns are an
 * error (a typo would otherwise be ignored). Jobs are sorted by arrival,
 * equal arrivals in file order, and numbered in that order. The
 * catalogue's configurations are not enforced: any (d, t, p) the model
 * allows goes (CNNs are not tensor-parallel).
 */
#include "jobs.h"
#include "wlfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_ARRIVAL, C_MODEL, C_D, C_T, C_P, C_ITERS, C_MICRO, C_BATCH, C_FAMILY, C_USER, NCOL };

static const char *const colname[NCOL] = {
	"arrival", "model", "d", "t", "p", "iters", "micro", "batch", "family", "user",
};

#define MAXF 32

struct row {
	struct sb_job job;
	int line;
};

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->job.arrival != y->job.arrival)
		return x->job.arrival < y->job.arrival ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

int sb_load_jobs_csv(const char *path, struct sb_jobset *js, struct sb_err *err)
{
	struct sb_wl_file f;
	char *line, *fld[MAXF];
	int where[NCOL], nf, i, k, rc;
	struct row *rows = NULL;
	size_t cap = 0, n = 0;
	int ncat;
	const struct sb_catalog_entry *cat = sb_catalog(&ncat);

	memset(js, 0, sizeof *js);
	rc = sb_wl_open(&f, "job set", path, err);
	if (rc)
		return rc;
	/* Blank lines are skipped everywhere, before the header too (else a
	 * leading blank line would be reported as an unknown column ''). */
	while ((line = sb_wl_next(&f)) != NULL && !*sb_wl_trim(line))
		;
	if (!line) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"empty file (expected a header line)");
		goto out;
	}
	for (k = 0; k < NCOL; k++)
		where[k] = -1;
	nf = sb_wl_split(line, ',', fld, MAXF);
	if (nf > MAXF) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL, "more than %d columns", MAXF);
		goto out;
	}
	for (i = 0; i < nf; i++) {
		const char *h = sb_wl_trim(fld[i]);
		for (k = 0; k < NCOL && strcmp(h, colname[k]); k++)
			;
		if (k == NCOL || where[k] >= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, h,
					k == NCOL ? "unknown column" : "column given twice");
			goto out;
		}
		where[k] = i;
	}
	for (k = 0; k <= C_ITERS; k++)
		if (where[k] < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, colname[k],
					"required column missing");
			goto out;
		}
	while ((line = sb_wl_next(&f)) != NULL) {
		struct sb_job *j;
		long v;
		int m, got;
		if (!*sb_wl_trim(line))
			continue;
		got = sb_wl_split(line, ',', fld, MAXF);
		if (got != nf) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"%d fields, the header has %d", got, nf);
			goto out;
		}
		{
			struct row *g = sb_wl_grow(rows, &cap, n + 1, sizeof *rows);
			if (!g) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			rows = g;
		}
		memset(&rows[n], 0, sizeof rows[n]);
		rows[n].line = f.lineno;
		j = &rows[n].job;
		m = sb_catalog_find(sb_wl_trim(fld[where[C_MODEL]]));
		if (m < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "model",
					"'%s' is not in the catalogue", sb_wl_trim(fld[where[C_MODEL]]));
			goto out;
		}
		j->model = m;
		if ((rc = sb_wl_double(&f, err, "arrival", fld[where[C_ARRIVAL]], 0, 1e12,
				       &j->arrival)))
			goto out;
		if ((rc = sb_wl_long(&f, err, "d", fld[where[C_D]], 1, 4096, &v)))
			goto out;
		j->d = (int)v;
		if ((rc = sb_wl_long(&f, err, "t", fld[where[C_T]], 1, 64, &v)))
			goto out;
		j->t = (int)v;
		if ((rc = sb_wl_long(&f, err, "p", fld[where[C_P]], 1, 256, &v)))
			goto out;
		j->p = (int)v;
		if ((long)j->d * j->t * j->p > 65536) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "d",
					"d x t x p = %ld GPUs is too many", (long)j->d * j->t * j->p);
			goto out;
		}
		j->gpus = j->d * j->t * j->p;
		if (cat[m].model.cls == SB_MODEL_CNN && j->t > 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "t",
					"%s is a CNN: tensor parallelism is not modelled", cat[m].model.name);
			goto out;
		}
		if ((rc = sb_wl_long(&f, err, "iters", fld[where[C_ITERS]], 1, 1000000000000L, &v)))
			goto out;
		j->iters = v;
		j->micro = 4 * j->p;
		if (where[C_MICRO] >= 0) {
			if ((rc = sb_wl_long(&f, err, "micro", fld[where[C_MICRO]], 1, 65536, &v)))
				goto out;
			j->micro = (int)v;
		}
		j->batch = cat[m].model.batch;
		if (where[C_BATCH] >= 0) {
			if ((rc = sb_wl_long(&f, err, "batch", fld[where[C_BATCH]], 1, 1 << 24, &v)))
				goto out;
			j->batch = (int)v;
		}
		if (j->batch < (long)j->d * j->micro) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "batch",
					"%d is below d x micro = %d (one sample per micro-batch and "
					"replica at least)", j->batch, j->d * j->micro);
			goto out;
		}
		j->family = -1;
		if (where[C_FAMILY] >= 0) {
			if ((rc = sb_wl_long(&f, err, "family", fld[where[C_FAMILY]], -1, 1000000, &v)))
				goto out;
			j->family = (int)v;
		}
		if (where[C_USER] >= 0) {
			if ((rc = sb_wl_long(&f, err, "user", fld[where[C_USER]], 0, 1000000, &v)))
				goto out;
			j->user = (int)v;
		}
		j->batch_mult = (double)j->batch / cat[m].model.batch;
		j->lr_mult = 1;
		j->data_frac = 1;
		j->trace_runtime = -1;
		n++;
	}
	if (n == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no jobs after the header");
		goto out;
	}
	qsort(rows, n, sizeof *rows, cmp_row);
	/* The model table is the catalogue (as sb_catalog_models makes it),
	 * allocated here with the reporting allocator: a loader returns
	 * SB_EXIT_RUN when memory runs out, it does not exit. */
	js->job = sb_calloc(n, sizeof *js->job);
	js->model = sb_calloc((size_t)ncat, sizeof *js->model);
	if (!js->job || !js->model) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	js->nmodel = ncat;
	for (i = 0; i < ncat; i++)
		js->model[i] = cat[i].model;
	js->n = (int)n;
	for (i = 0; i < (int)n; i++) {
		js->job[i] = rows[i].job;
		js->job[i].id = i;
	}
	snprintf(js->source, sizeof js->source, "user job set '%s' (%d jobs)", path, js->n);
out:
	sb_free(rows);
	sb_wl_close(&f);
	if (rc)
		sb_jobset_release(js);
	return rc;
}
