/*
 * load.c - loaders of the alloc family (alloc_wl.h): DL2's job types and
 * arrival patterns (github.com/pengyanghua/DL2 at 2e54920, trace.py, as
 * transcribed in ../shared/data/dl2/, SOURCES.md §8 [V]), job tables and
 * cluster files a user brings (formats ours [O]).
 */
#include "alloc_wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* CSV with a fixed header                                             */
/* ------------------------------------------------------------------ */

static char *csv_next(struct sb_wl_file *f)
{
	char *s;
	while ((s = sb_wl_next(f)))
		if (!sb_wl_blank(s))
			return s;
	return NULL;
}

/* Open path and check that its first non-blank line is exactly head. */
static int csv_open(struct sb_wl_file *f, const char *what, const char *path,
		    const char *const *head, int ncol, struct sb_err *err)
{
	char *row, *col[16];
	int rc, n, i;

	if ((rc = sb_wl_open(f, what, path, err)))
		return rc;
	if (!(row = csv_next(f))) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, 0, NULL, "empty file (no header)");
		goto fail;
	}
	n = sb_wl_split(row, ',', col, 16);
	for (i = 0; i < ncol; i++)
		if (i >= n || strcmp(sb_wl_trim(col[i]), head[i])) {
			rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
					"header: column %d must be '%s'", i + 1, head[i]);
			goto fail;
		}
	if (n != ncol) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				"header: %d columns, expected %d", n, ncol);
		goto fail;
	}
	return 0;
fail:
	sb_wl_close(f);
	return rc;
}

static int csv_fields(struct sb_wl_file *f, char *row, char **col, int ncol, struct sb_err *err)
{
	int n = sb_wl_split(row, ',', col, ncol), i;
	if (n != ncol)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				  "%d fields, expected %d", n, ncol);
	for (i = 0; i < ncol; i++)
		col[i] = sb_wl_trim(col[i]);
	return 0;
}

static int name_field(struct sb_wl_file *f, struct sb_err *err, const char *field,
		      const char *s, char *out, size_t size)
{
	size_t n = strlen(s);
	if (n == 0 || n >= size)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "%s (1..%zu characters)", n ? "too long" : "empty", size - 1);
	memcpy(out, s, n + 1);
	return 0;
}

/* ------------------------------------------------------------------ */
/* DL2 job types                                                       */
/* ------------------------------------------------------------------ */

static const struct sb_alloc_type dl2_types[8] = {
	{ "resnet-50", 0.449, 102.2, 115, 91.875, 306.5, 2, 4, 2, 0, 0.3 },
	{ "vgg-16", 0.535, 553.4, 115, 233.0, 427.75, 2, 4, 2, 0, 0.96 },
	{ "resnext-110", 0.226, 6.92, 390, 59.5, 63.0, 2, 4, 2, 0, 0.05 },
	{ "inception-bn", 0.815, 42.1, 120, 145.875, 1082.125, 2, 4, 2, 0, 0.54 },
	{ "seq2seq", 0.075, 36.5, 780, 120.125, 181.125, 2, 4, 2, 0, 0.95 },
	{ "cnn-text-classification", 0.585, 24.0, 193, 60.75, 159.625, 2, 0, 2, 0, 0.46 },
	{ "dssm", 0.567, 6.0, 349, 92.125, 65.625, 2, 0, 2, 0, 0.33 },
	{ "wlm", 0.154, 19.2, 165, 10.375, 22.875, 2, 4, 2, 0, 0.23 },
};

void sb_alloc_types_builtin(struct sb_alloc_types *ty)
{
	memset(ty, 0, sizeof *ty);
	ty->n = 8;
	memcpy(ty->t, dl2_types, sizeof dl2_types);
	snprintf(ty->source, sizeof ty->source, "builtin (DL2 trace.py transcription)");
}

int sb_alloc_type_find(const struct sb_alloc_types *ty, const char *model)
{
	int k;
	for (k = 0; k < ty->n; k++)
		if (!strcmp(ty->t[k].model, model))
			return k;
	return -1;
}

int sb_alloc_load_types(const char *path, struct sb_alloc_types *ty, struct sb_err *err)
{
	static const char *const head[12] = {
		"type_id", "model", "local_comp_time_s", "model_size_mb", "epoch_size",
		"inter_bw_mb_per_s", "intra_bw_mb_per_s", "worker_cpu", "worker_gpu",
		"ps_cpu", "ps_gpu", "num_epochs_fraction",
	};
	struct sb_wl_file f;
	char *row, *col[12];
	int rc, k;

	memset(ty, 0, sizeof *ty);
	if ((rc = csv_open(&f, "job types", path, head, 12, err)))
		return rc;
	while ((row = csv_next(&f))) {
		struct sb_alloc_type *t;
		double *v[10];
		long id;
		if (ty->n == SB_ALLOC_MAXTYPE) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"more than %d job types", SB_ALLOC_MAXTYPE);
			goto out;
		}
		t = &ty->t[ty->n];
		if ((rc = csv_fields(&f, row, col, 12, err)) ||
		    (rc = sb_wl_long(&f, err, head[0], col[0], 1, SB_ALLOC_MAXTYPE, &id)))
			goto out;
		if (id != ty->n + 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[0],
					"%ld, expected %d (ids run 1, 2, ... in order)", id, ty->n + 1);
			goto out;
		}
		if ((rc = name_field(&f, err, head[1], col[1], t->model, sizeof t->model)))
			goto out;
		if (sb_alloc_type_find(ty, t->model) >= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[1],
					"duplicate model '%s'", t->model);
			goto out;
		}
		v[0] = &t->compute; v[1] = &t->model_mb; v[2] = &t->epoch_size;
		v[3] = &t->bw_inter; v[4] = &t->bw_intra; v[5] = &t->worker_cpu;
		v[6] = &t->worker_gpu; v[7] = &t->ps_cpu; v[8] = &t->ps_gpu; v[9] = &t->epoch_frac;
		for (k = 0; k < 10; k++) {
			/* times, sizes and bandwidths must be positive; demands may be 0 */
			double lo = (k < 5 || k == 9) ? 1e-12 : 0, hi = k == 9 ? 1 : SB_WL_MAX;
			if ((rc = sb_wl_double(&f, err, head[k + 2], col[k + 2], lo, hi, v[k])))
				goto out;
		}
		if (t->worker_cpu + t->worker_gpu <= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[7],
					"a worker needs some CPU or GPU");
			goto out;
		}
		ty->n++;
	}
	if (!ty->n)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "no job type after the header");
	else
		snprintf(ty->source, sizeof ty->source, "file=%s", path);
out:
	sb_wl_close(&f);
	if (rc)
		memset(ty, 0, sizeof *ty);
	return rc;
}

/* ------------------------------------------------------------------ */
/* DL2 arrival patterns                                                */
/* ------------------------------------------------------------------ */

int sb_alloc_load_arrivals(const char *path, int K, int **counts, int *n, struct sb_err *err)
{
	static const char *const head[3] = { "max_arrivals_per_ts", "timeslot", "num_arrivals" };
	struct sb_wl_file f;
	char *row, *col[3], known[256] = "";
	long lastk = -1, lastslot = -1;
	size_t cap = 0;
	int rc;

	*counts = NULL;
	*n = 0;
	if ((rc = csv_open(&f, "arrival patterns", path, head, 3, err)))
		return rc;
	while ((row = csv_next(&f))) {
		long k, slot, a;
		if ((rc = csv_fields(&f, row, col, 3, err)) ||
		    (rc = sb_wl_long(&f, err, head[0], col[0], 1, 1000000, &k)) ||
		    (rc = sb_wl_long(&f, err, head[1], col[1], 0, 1000000, &slot)) ||
		    (rc = sb_wl_long(&f, err, head[2], col[2], 0, 1000000, &a)))
			goto out;
		if (k != lastk) {
			size_t len = strlen(known);
			if (len < sizeof known - 16)
				snprintf(known + len, sizeof known - len, "%s%ld", len ? ", " : "", k);
			lastslot = -1;
			lastk = k;
		}
		if (slot != lastslot + 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[1],
					"%ld, expected %ld (slots of a pattern run 0, 1, ...)", slot,
					lastslot + 1);
			goto out;
		}
		lastslot = slot;
		if (k != K)
			continue;
		{
			int *p = sb_wl_grow(*counts, &cap, (size_t)*n + 1, sizeof **counts);
			if (!p) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			*counts = p;
			(*counts)[(*n)++] = (int)(a < K ? a : K);
		}
	}
	if (!*n)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, head[0],
				"no pattern for %d arrivals per slot (the file has: %s)", K,
				known[0] ? known : "none");
out:
	sb_wl_close(&f);
	if (rc) {
		sb_free(*counts);
		*counts = NULL;
		*n = 0;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Job tables                                                          */
/* ------------------------------------------------------------------ */

int sb_alloc_load_jobs(const char *path, const struct sb_alloc_types *ty,
		       struct sb_alloc_jobrow **rows, int *n, struct sb_err *err)
{
	static const char *const head[7] = {
		"arrival", "mode", "model", "epochs", "max_workers", "max_ps", "weight",
	};
	struct sb_wl_file f;
	char *row, *col[7];
	size_t cap = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	if ((rc = csv_open(&f, "job table", path, head, 7, err)))
		return rc;
	while ((row = csv_next(&f))) {
		struct sb_alloc_jobrow jr, *p;
		long a, kw, kp;
		if ((rc = csv_fields(&f, row, col, 7, err)) ||
		    (rc = sb_wl_long(&f, err, head[0], col[0], 0, 10000000, &a)))
			goto out;
		if (!strcmp(col[1], "rar") || !strcmp(col[1], "ps")) {
			jr.mode = col[1][0] == 'r' ? SB_ALLOC_RAR : SB_ALLOC_PS;
		} else {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[1],
					"'%s': expected 'rar' or 'ps'", col[1]);
			goto out;
		}
		if ((jr.type = sb_alloc_type_find(ty, col[2])) < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[2],
					"'%s' is not a job type of %s", col[2], ty->source);
			goto out;
		}
		if ((rc = sb_wl_double(&f, err, head[3], col[3], 1e-9, 1e12, &jr.epochs)) ||
		    (rc = sb_wl_long(&f, err, head[4], col[4], 1, SB_ALLOC_MAXK, &kw)) ||
		    (rc = sb_wl_long(&f, err, head[5], col[5], jr.mode == SB_ALLOC_PS,
				     jr.mode == SB_ALLOC_PS ? SB_ALLOC_MAXK : 0, &kp)) ||
		    (rc = sb_wl_double(&f, err, head[6], col[6], 1e-9, 1e9, &jr.weight)))
			goto out;
		if (jr.mode == SB_ALLOC_RAR && ty->t[jr.type].compute <= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[2], "no compute time");
			goto out;
		}
		jr.arrival = (int)a;
		jr.max_workers = (int)kw;
		jr.max_ps = (int)kp;
		if (!(p = sb_wl_grow(*rows, &cap, (size_t)*n + 1, sizeof **rows))) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		*rows = p;
		(*rows)[(*n)++] = jr;
	}
	if (!*n)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "no job after the header");
out:
	sb_wl_close(&f);
	if (rc) {
		sb_free(*rows);
		*rows = NULL;
		*n = 0;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* Cluster files                                                       */
/* ------------------------------------------------------------------ */

#define MAX_SERVERS 100000

static int tiresias_cluster(const char *path, double (**cap)[SB_ALLOC_NRES], int *ns,
			    struct sb_err *err)
{
	struct sb_cluster_shape c;
	double n;
	int rc, k;

	if ((rc = sb_load_tiresias_cluster(path, &c, err)))
		return rc;
	n = (double)c.switches * c.nodes_per_switch;
	if (n > MAX_SERVERS)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot read cluster '%s': %.0f servers, "
				  "more than %d", path, n, MAX_SERVERS);
	*ns = (int)n;
	if (!(*cap = sb_malloc((size_t)*ns * sizeof **cap)))
		return sb_err_set(err, SB_EXIT_RUN, "cannot read cluster '%s': out of memory", path);
	for (k = 0; k < *ns; k++) {
		(*cap)[k][0] = c.gpus_per_node;
		(*cap)[k][1] = c.cpus_per_node;
	}
	return 0;
}

int sb_alloc_load_cluster(const char *path, double (**cap)[SB_ALLOC_NRES], int *ns,
			  struct sb_err *err)
{
	static const char *const head[3] = { "count", "gpus", "cpus" };
	struct sb_wl_file f;
	char *row, *col[3];
	size_t capn = 0;
	int rc;

	*cap = NULL;
	*ns = 0;
	if ((rc = sb_wl_open(&f, "cluster", path, err)))
		return rc;
	row = csv_next(&f);
	if (row && !strncmp(sb_wl_trim(row), "num_switch", 10)) {
		sb_wl_close(&f);
		return tiresias_cluster(path, cap, ns, err);
	}
	sb_wl_close(&f);
	if ((rc = csv_open(&f, "cluster", path, head, 3, err)))
		return rc;
	while ((row = csv_next(&f))) {
		long cnt, g, c, k;
		void *p;
		if ((rc = csv_fields(&f, row, col, 3, err)) ||
		    (rc = sb_wl_long(&f, err, head[0], col[0], 1, MAX_SERVERS, &cnt)) ||
		    (rc = sb_wl_long(&f, err, head[1], col[1], 0, 1000000, &g)) ||
		    (rc = sb_wl_long(&f, err, head[2], col[2], 0, 1000000, &c)))
			goto out;
		if (g == 0 && c == 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[1],
					"a server with neither GPUs nor CPUs");
			goto out;
		}
		if (*ns + cnt > MAX_SERVERS) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, head[0],
					"more than %d servers in all", MAX_SERVERS);
			goto out;
		}
		if (!(p = sb_wl_grow(*cap, &capn, (size_t)(*ns + cnt), sizeof **cap))) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		*cap = p;
		for (k = 0; k < cnt; k++) {
			(*cap)[*ns][0] = (double)g;
			(*cap)[*ns][1] = (double)c;
			(*ns)++;
		}
	}
	if (!*ns)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "no server after the header");
out:
	sb_wl_close(&f);
	if (rc) {
		sb_free(*cap);
		*cap = NULL;
		*ns = 0;
	}
	return rc;
}
