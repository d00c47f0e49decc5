/*
 * tiresias.c - inputs of the Tiresias GPU-cluster simulator of J. Gu,
 * M. Chowdhury, K. G. Shin, Y. Zhu, M. Jeon, J. Qian, H. Liu, C. Guo,
 * "Tiresias: A GPU Cluster Manager for Distributed Deep Learning", NSDI
 * 2019, the single-column value files, and the helpers shared by the trace
 * loaders of trace.h.
 *
 * Format: github.com/SymbioticLab/Tiresias, simulator/ (README.md, the
 * files 60_job.csv, cluster_spec.csv, nXgY.csv, yarn-gput*.csv) and the
 * table tiresias_model_tensors.csv that ../shared/data transcribes from
 * simulator/models.py; layouts in ../shared/data/SOURCES.md, section 4.
 * philly_runtime.csv (section 5) has the same single-column layout as
 * yarn-gput*.csv. Verified: every shared file loads with the counts and
 * totals SOURCES.md lists (tests/test_traces.c). Our design: strict
 * headers and column counts, unique job ids, positive durations and GPU
 * counts, the interval column checked but not used, tensor indices
 * 0..k-1 exactly once per model; see trace.h for the conventions.
 */
#include "trace.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest time accepted, in seconds (about 31,700 years): sums and
 * differences of such times stay exact enough in a double. */
#define TRACE_MAX_SECONDS 1e12

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

void sb_trace_release(struct sb_trace *t)
{
	sb_free(t->job);
	memset(t, 0, sizeof *t);
}

struct id_ref {
	const char *id;
	int line;
};

static int cmp_id_ref(const void *a, const void *b)
{
	const struct id_ref *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	if (c)
		return c;
	return (x->line > y->line) - (x->line < y->line);
}

int sb_trace_unique_ids(const struct sb_trace_job *job, int n, const int *line,
			const struct sb_wl_file *f, const char *field,
			struct sb_err *err)
{
	struct id_ref *r;
	int i, dup = -1;

	if (n < 2)
		return 0;
	r = sb_malloc((size_t)n * sizeof *r);
	if (!r)
		return sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
	for (i = 0; i < n; i++) {
		r[i].id = job[i].id;
		r[i].line = line[i];
	}
	/* Equal ids end up adjacent in line order: the repeat seen first in
	 * the file is the smallest second line among adjacent equal pairs. */
	qsort(r, (size_t)n, sizeof *r, cmp_id_ref);
	for (i = 1; i < n; i++)
		if (!strcmp(r[i].id, r[i - 1].id) && (dup < 0 || r[i].line < r[dup].line))
			dup = i;
	if (dup >= 0) {
		int rc = sb_wl_fail(f, err, SB_EXIT_INPUT, r[dup].line, field,
				    "duplicate id '%s' (also on line %d)", r[dup].id,
				    r[dup - 1].line);
		sb_free(r);
		return rc;
	}
	sb_free(r);
	return 0;
}

struct submit_ref {
	double submit;
	int order;
};

static int cmp_submit_ref(const void *a, const void *b)
{
	const struct submit_ref *x = a, *y = b;

	if (x->submit != y->submit)
		return x->submit < y->submit ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

int sb_trace_order(struct sb_trace *t, const struct sb_wl_file *f,
		   struct sb_err *err)
{
	struct submit_ref *r;
	struct sb_trace_job *sorted;
	double t0;
	int i;

	if (t->n == 0)
		return 0;
	r = sb_malloc((size_t)t->n * sizeof *r);
	sorted = sb_malloc((size_t)t->n * sizeof *sorted);
	if (!r || !sorted) {
		sb_free(r);
		sb_free(sorted);
		return sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
	}
	for (i = 0; i < t->n; i++) {
		r[i].submit = t->job[i].submit;
		r[i].order = i;
	}
	qsort(r, (size_t)t->n, sizeof *r, cmp_submit_ref);
	t0 = r[0].submit;
	for (i = 0; i < t->n; i++) {
		sorted[i] = t->job[r[i].order];
		sorted[i].submit -= t0;
	}
	sb_free(t->job);
	t->job = sorted;
	sb_free(r);
	return 0;
}

/* The next line that is not blank, or NULL at the end of the file. */
static char *next_row(struct sb_wl_file *f)
{
	char *s;

	while ((s = sb_wl_next(f)))
		if (*sb_wl_trim(s))
			return s;
	return NULL;
}

/* Read the header: the first non-blank line must hold exactly the k
 * column names of want. */
static int read_header(struct sb_wl_file *f, const char *const *want, int k,
		       struct sb_err *err)
{
	char *line = next_row(f), *col[16], expect[256] = "";
	size_t used = 0;
	int i, nf;

	for (i = 0; i < k && used < sizeof expect; i++)
		used += (size_t)snprintf(expect + used, sizeof expect - used, "%s%s",
					 i ? "," : "", want[i]);
	if (!line)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno + 1, NULL,
				  "no header (empty file), expected '%s'", expect);
	nf = sb_wl_split(line, ',', col, 16);
	if (nf != k)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				  "header with %d column%s, expected %d: '%s'", nf,
				  nf == 1 ? "" : "s", k, expect);
	for (i = 0; i < k; i++) {
		const char *name = sb_wl_trim(col[i]);
		if (strcmp(name, want[i]))
			return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, want[i],
					  "header column %d is '%.60s', expected '%s'",
					  i + 1, name, expect);
	}
	return 0;
}

/* Split a data row into exactly k fields. */
static int split_row(struct sb_wl_file *f, char *line, char **col, int k,
		     struct sb_err *err)
{
	int nf = sb_wl_split(line, ',', col, k);

	if (nf != k)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				  "%d column%s, expected %d", nf, nf == 1 ? "" : "s", k);
	return 0;
}

/* Copy the trimmed text s (1..size-1 characters) into out. */
static int copy_name(const struct sb_wl_file *f, struct sb_err *err,
		     const char *field, char *s, char *out, size_t size)
{
	size_t k;

	s = sb_wl_trim(s);
	k = strlen(s);
	if (k == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "missing value");
	if (k >= size)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "'%.40s...' is longer than %zu characters", s, size - 1);
	memcpy(out, s, k + 1);
	return 0;
}

static int oom(const struct sb_wl_file *f, struct sb_err *err)
{
	return sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
}

/* ------------------------------------------------------------------ */
/* Job trace (60_job.csv)                                              */
/* ------------------------------------------------------------------ */

int sb_load_tiresias_jobs(const char *path, struct sb_trace *t,
			  struct sb_err *err)
{
	static const char *const head[] = {
		"job_id", "num_gpu", "submit_time", "iterations", "model_name",
		"duration", "interval",
	};
	struct sb_wl_file f;
	int *line = NULL, rc;
	size_t cap = 0, cap_line = 0;
	char *row, *col[7];
	void *grown;

	memset(t, 0, sizeof *t);
	if ((rc = sb_wl_open(&f, "trace", path, err)))
		return rc;
	if ((rc = read_header(&f, head, 7, err)))
		goto out;
	while ((row = next_row(&f))) {
		struct sb_trace_job *x;
		double interval;
		long v;

		if ((rc = split_row(&f, row, col, 7, err)))
			goto out;
		if (t->n == INT_MAX) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"more than %d jobs", INT_MAX);
			goto out;
		}
		if (!(grown = sb_wl_grow(t->job, &cap, (size_t)t->n + 1, sizeof *t->job))) {
			rc = oom(&f, err);
			goto out;
		}
		t->job = grown;
		if (!(grown = sb_wl_grow(line, &cap_line, (size_t)t->n + 1, sizeof *line))) {
			rc = oom(&f, err);
			goto out;
		}
		line = grown;
		x = &t->job[t->n];
		memset(x, 0, sizeof *x);
		line[t->n] = f.lineno;
		if ((rc = copy_name(&f, err, "job_id", col[0], x->id, sizeof x->id)))
			goto out;
		if ((rc = sb_wl_long(&f, err, "num_gpu", col[1], 1, INT_MAX, &v)))
			goto out;
		x->gpus = (int)v;
		if ((rc = sb_wl_double(&f, err, "submit_time", col[2], 0,
				       TRACE_MAX_SECONDS, &x->submit)))
			goto out;
		if ((rc = sb_wl_long(&f, err, "iterations", col[3], 1, LONG_MAX,
				     &x->iters)))
			goto out;
		if ((rc = copy_name(&f, err, "model_name", col[4], x->model,
				    sizeof x->model)))
			goto out;
		if ((rc = sb_wl_double(&f, err, "duration", col[5], 0,
				       TRACE_MAX_SECONDS, &x->runtime)))
			goto out;
		if (x->runtime == 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "duration",
					"zero duration (a job must run)");
			goto out;
		}
		if ((rc = sb_wl_double(&f, err, "interval", col[6], 0,
				       TRACE_MAX_SECONDS, &interval)))
			goto out;
		x->attempts = 1;
		t->n++;
	}
	if (t->n == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no jobs after the header");
		goto out;
	}
	if ((rc = sb_trace_unique_ids(t->job, t->n, line, &f, "job_id", err)))
		goto out;
	if ((rc = sb_trace_order(t, &f, err)))
		goto out;
	snprintf(t->source, sizeof t->source, "tiresias=%s", path);
out:
	sb_wl_close(&f);
	sb_free(line);
	if (rc)
		sb_trace_release(t);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Single-column values (yarn-gput*.csv, philly_runtime.csv)           */
/* ------------------------------------------------------------------ */

int sb_load_values(const char *path, const char *column, double **v, int *n,
		   struct sb_err *err)
{
	struct sb_wl_file f;
	const char *head[1] = { column };
	size_t cap = 0;
	char *row, *col[1];
	void *grown;
	int rc;

	*v = NULL;
	*n = 0;
	if ((rc = sb_wl_open(&f, "values", path, err)))
		return rc;
	if ((rc = read_header(&f, head, 1, err)))
		goto out;
	while ((row = next_row(&f))) {
		if ((rc = split_row(&f, row, col, 1, err)))
			goto out;
		if (*n == INT_MAX) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"more than %d values", INT_MAX);
			goto out;
		}
		if (!(grown = sb_wl_grow(*v, &cap, (size_t)*n + 1, sizeof **v))) {
			rc = oom(&f, err);
			goto out;
		}
		*v = grown;
		if ((rc = sb_wl_double(&f, err, column, col[0], 0, DBL_MAX, &(*v)[*n])))
			goto out;
		(*n)++;
	}
	if (*n == 0)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no values after the header");
out:
	sb_wl_close(&f);
	if (rc) {
		sb_free(*v);
		*v = NULL;
		*n = 0;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Cluster shape (cluster_spec.csv, nXgY.csv)                          */
/* ------------------------------------------------------------------ */

int sb_load_tiresias_cluster(const char *path, struct sb_cluster_shape *c,
			     struct sb_err *err)
{
	static const char *const head[] = {
		"num_switch", "num_node_p_switch", "num_gpu_p_node", "num_cpu_p_node",
		"mem_p_node",
	};
	struct sb_wl_file f;
	char *row, *col[5];
	long v[4];
	int rc, i, data_line;

	memset(c, 0, sizeof *c);
	if ((rc = sb_wl_open(&f, "cluster", path, err)))
		return rc;
	if ((rc = read_header(&f, head, 5, err)))
		goto out;
	if (!(row = next_row(&f))) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no data row after the header");
		goto out;
	}
	data_line = f.lineno;
	if ((rc = split_row(&f, row, col, 5, err)))
		goto out;
	for (i = 0; i < 4; i++)
		if ((rc = sb_wl_long(&f, err, head[i], col[i], 1, INT_MAX, &v[i])))
			goto out;
	if ((rc = sb_wl_double(&f, err, head[4], col[4], 0, DBL_MAX, &c->mem_gb)))
		goto out;
	if (c->mem_gb == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[4],
				"zero memory per node");
		goto out;
	}
	if ((double)v[0] * (double)v[1] * (double)v[2] > INT_MAX) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
				"%ld x %ld x %ld GPUs: more than %d in all", v[0], v[1],
				v[2], INT_MAX);
		goto out;
	}
	if (next_row(&f)) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
				"a second data row (line %d is the only one allowed)",
				data_line);
		goto out;
	}
	c->switches = (int)v[0];
	c->nodes_per_switch = (int)v[1];
	c->gpus_per_node = (int)v[2];
	c->cpus_per_node = (int)v[3];
out:
	sb_wl_close(&f);
	if (rc)
		memset(c, 0, sizeof *c);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Model tensors (tiresias_model_tensors.csv)                          */
/* ------------------------------------------------------------------ */

struct tensor_row {
	char model[32];
	long idx;
	double mb;
	int line;
};

static int cmp_tensor_row(const void *a, const void *b)
{
	const struct tensor_row *x = a, *y = b;
	int c = strcmp(x->model, y->model);

	if (c)
		return c;
	if (x->idx != y->idx)
		return x->idx < y->idx ? -1 : 1;
	return (x->line > y->line) - (x->line < y->line);
}

/* A model's rows, sorted[start .. start+len), first seen on line first. */
struct tensor_group {
	int start, len, first;
};

static int cmp_tensor_group(const void *a, const void *b)
{
	const struct tensor_group *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

int sb_load_model_tensors(const char *path, struct sb_tensor_table *t,
			  struct sb_err *err)
{
	static const char *const head[] = { "model", "tensor_index", "size_mb" };
	struct sb_wl_file f;
	struct tensor_row *r = NULL;
	struct tensor_group *g = NULL;
	size_t cap = 0;
	int nr = 0, ng = 0, rc, i, k;
	char *row, *col[3];
	void *grown;

	memset(t, 0, sizeof *t);
	if ((rc = sb_wl_open(&f, "tensors", path, err)))
		return rc;
	if ((rc = read_header(&f, head, 3, err)))
		goto out;
	while ((row = next_row(&f))) {
		struct tensor_row *x;

		if ((rc = split_row(&f, row, col, 3, err)))
			goto out;
		if (nr == INT_MAX - 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"more than %d rows", INT_MAX - 1);
			goto out;
		}
		if (!(grown = sb_wl_grow(r, &cap, (size_t)nr + 1, sizeof *r))) {
			rc = oom(&f, err);
			goto out;
		}
		r = grown;
		x = &r[nr];
		memset(x, 0, sizeof *x);
		x->line = f.lineno;
		if ((rc = copy_name(&f, err, "model", col[0], x->model, sizeof x->model)))
			goto out;
		if ((rc = sb_wl_long(&f, err, "tensor_index", col[1], 0, INT_MAX - 1,
				     &x->idx)))
			goto out;
		if ((rc = sb_wl_double(&f, err, "size_mb", col[2], 0, DBL_MAX, &x->mb)))
			goto out;
		nr++;
	}
	if (nr == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no rows after the header");
		goto out;
	}

	/* Sorted by (model, index, line): a model's rows are adjacent, and
	 * indices 0..k-1 exactly once means row start+i has index i. */
	qsort(r, (size_t)nr, sizeof *r, cmp_tensor_row);
	if (!(g = sb_malloc((size_t)nr * sizeof *g))) {
		rc = oom(&f, err);
		goto out;
	}
	for (i = 0; i < nr; i = k) {
		struct tensor_group *y = &g[ng++];
		y->start = i;
		y->first = r[i].line;
		for (k = i; k < nr && !strcmp(r[k].model, r[i].model); k++) {
			const struct tensor_row *x = &r[k];
			if (x->line < y->first)
				y->first = x->line;
			if (x->idx == k - i)
				continue;
			if (k > i && x->idx == r[k - 1].idx)
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, x->line,
						"tensor_index", "index %ld of model '%s' "
						"repeated (also on line %d)", x->idx, x->model,
						r[k - 1].line);
			else
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, x->line,
						"tensor_index", "model '%s' has index %ld but "
						"not %d (indices must run 0..k-1)", x->model,
						x->idx, k - i);
			goto out;
		}
		y->len = k - i;
	}
	qsort(g, (size_t)ng, sizeof *g, cmp_tensor_group);

	t->name = sb_malloc((size_t)ng * sizeof *t->name);
	t->off = sb_malloc(((size_t)ng + 1) * sizeof *t->off);
	t->mb = sb_malloc((size_t)nr * sizeof *t->mb);
	if (!t->name || !t->off || !t->mb) {
		rc = oom(&f, err);
		goto out;
	}
	t->nmodel = ng;
	t->off[0] = 0;
	for (i = 0; i < ng; i++) {
		memcpy(t->name[i], r[g[i].start].model, sizeof t->name[i]);
		for (k = 0; k < g[i].len; k++)
			t->mb[t->off[i] + k] = r[g[i].start + k].mb;
		t->off[i + 1] = t->off[i] + g[i].len;
	}
out:
	sb_wl_close(&f);
	sb_free(r);
	sb_free(g);
	if (rc)
		sb_tensor_table_release(t);
	return rc;
}

void sb_tensor_table_release(struct sb_tensor_table *t)
{
	sb_free(t->name);
	sb_free(t->off);
	sb_free(t->mb);
	memset(t, 0, sizeof *t);
}

const double *sb_tensor_table_find(const struct sb_tensor_table *t,
				   const char *model, int *count)
{
	int i;

	for (i = 0; i < t->nmodel; i++)
		if (!strcmp(t->name[i], model)) {
			if (count)
				*count = t->off[i + 1] - t->off[i];
			return t->mb + t->off[i];
		}
	if (count)
		*count = 0;
	return NULL;
}
