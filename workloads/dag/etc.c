/*
 * etc.c - unrelated-machines instances as CSV matrices, in the form used
 * for the example of H. Topcuoglu, S. Hariri, M.-Y. Wu, "Performance-
 * effective and low-complexity task scheduling for heterogeneous
 * computing", IEEE TPDS 13(3), 2002.
 *
 * Format: the test inputs of github.com/mackncheesiest/heft (test/
 * canonicalgraph_*.csv, randomgraph_*.csv), described in
 * ../shared/data/SOURCES.md, section 3:
 *   *_task_exe_time.csv     header "TP,P_0,..", rows "T_i,w(i,P_0),..";
 *   *_task_connectivity.csv square, header "T,T0,.." or "T,T_0,..",
 *                           entry (i,j) = data on edge i -> j, 0 = none;
 *   *_resource_BW.csv       square symmetric bandwidths "P,P_0,..", zero
 *                           diagonal, optional last row "Startup,L_0,..".
 * In that code an edge between different processors costs data/BW (+ L,
 * the start-up cost); we store BW as the link rate, so the dag model's
 * size/rate is exactly that cost. Verified: the canonical example loads as
 * 10 tasks on 3 processors. Our design: start-up costs must be 0 (the dag
 * model has no latency term); row labels of square matrices must match the
 * column labels; off-diagonal bandwidths must be positive and symmetric;
 * ops(v) = mean execution time and out(v) = largest outgoing data, for
 * policies that look at the related-machines fields.
 */
#include "load.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	MAT_SQUARE = 1,     /* rows = columns, row label i = column label i */
	MAT_ZERO_DIAG = 2,  /* diagonal entries must be 0 */
	MAT_BANDWIDTH = 4,  /* off-diagonal positive and symmetric */
	MAT_STARTUP = 8,    /* an optional last row "Startup" of zeros */
};

struct matrix {
	int rows, cols;
	double *v;      /* rows*cols, row-major */
	int *line;      /* line of each row */
	char **label;   /* cols column labels (point into the file buffer) */
};

static void matrix_release(struct matrix *m)
{
	sb_free(m->v);
	sb_free(m->line);
	sb_free(m->label);
	memset(m, 0, sizeof *m);
}

/* Read a labelled CSV matrix from f. want_cols < 0: as many as the header
 * has. want_rows < 0: any number (at least one). */
static int read_matrix(struct sb_wl_file *f, struct matrix *m, int want_rows,
		       int want_cols, int flags, const char *why,
		       struct sb_err *err)
{
	char *line, *c, **fld = NULL;
	size_t nfld = 0, cap_v = 0, cap_line = 0;
	int rc = 0, nf, i, startup_line = 0;
	void *t;

	memset(m, 0, sizeof *m);
	while ((line = sb_wl_next(f)) && !*sb_wl_trim(line))
		;
	if (!line) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno + 1, NULL,
				"empty file (expected a header line)");
		goto out;
	}
	/* One pointer per field: count the separators first. */
	for (nfld = 1, c = line; (c = strchr(c, ',')); c++)
		nfld++;
	if (nfld > INT_MAX / 2 || !(fld = sb_malloc(nfld * sizeof *fld))) {
		rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	nf = sb_wl_split(line, ',', fld, (int)nfld);
	if (nf < 2) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				"header has no column labels");
		goto out;
	}
	if (want_cols >= 0 && nf - 1 != want_cols) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				"%d columns, expected %d (%s)", nf - 1, want_cols, why);
		goto out;
	}
	m->cols = nf - 1;
	if (!(m->label = sb_malloc((size_t)m->cols * sizeof *m->label))) {
		rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < m->cols; i++)
		m->label[i] = sb_wl_trim(fld[i + 1]);
	if (flags & MAT_SQUARE)
		want_rows = m->cols;

	while ((line = sb_wl_next(f))) {
		char *label;
		double *row;
		int r = m->rows;

		if (!*sb_wl_trim(line))
			continue;
		nf = sb_wl_split(line, ',', fld, (int)nfld);
		if (nf != m->cols + 1) {
			rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
					"%d fields, expected %d (a label and %d values)",
					nf, m->cols + 1, m->cols);
			goto out;
		}
		label = sb_wl_trim(fld[0]);
		if (startup_line) {
			rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
					"a row after the Startup row of line %d",
					startup_line);
			goto out;
		}
		if ((flags & MAT_STARTUP) && !strcasecmp(label, "Startup")) {
			startup_line = f->lineno;
			for (i = 0; i < m->cols; i++) {
				double x;
				if ((rc = sb_wl_double(f, err, m->label[i], fld[i + 1], 0,
						       SB_WL_MAX, &x)))
					goto out;
				if (x != 0) {
					rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno,
							m->label[i],
							"start-up cost %g is not supported (the model has no latency term; use 0)",
							x);
					goto out;
				}
			}
			continue;
		}
		if (want_rows >= 0 && r >= want_rows) {
			rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
					"more than %d rows (%s)", want_rows, why);
			goto out;
		}
		if ((flags & MAT_SQUARE) && strcmp(label, m->label[r])) {
			rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, "row label",
					"'%.40s' does not match column label '%.40s'",
					label, m->label[r]);
			goto out;
		}
		if (r >= INT_MAX - 1 ||
		    !(t = sb_wl_grow(m->v, &cap_v, (size_t)(r + 1) * (size_t)m->cols,
				     sizeof *m->v))) {
			rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		m->v = t;
		if (!(t = sb_wl_grow(m->line, &cap_line, (size_t)r + 1, sizeof *m->line))) {
			rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		m->line = t;
		m->line[r] = f->lineno;
		row = m->v + (size_t)r * (size_t)m->cols;
		for (i = 0; i < m->cols; i++) {
			if ((rc = sb_wl_double(f, err, m->label[i], fld[i + 1], 0,
					       SB_WL_MAX, &row[i])))
				goto out;
			if ((flags & MAT_ZERO_DIAG) && i == r && row[i] != 0) {
				rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, m->label[i],
						"non-zero diagonal entry %g (self-loop)", row[i]);
				goto out;
			}
			if ((flags & MAT_BANDWIDTH) && i != r && row[i] <= 0) {
				rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, m->label[i],
						"bandwidth must be positive");
				goto out;
			}
			if ((flags & MAT_BANDWIDTH) && i < r &&
			    row[i] != m->v[(size_t)i * (size_t)m->cols + (size_t)r]) {
				rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, m->label[i],
						"bandwidth %g differs from %g on line %d (the matrix must be symmetric)",
						row[i], m->v[(size_t)i * (size_t)m->cols + (size_t)r],
						m->line[i]);
				goto out;
			}
		}
		m->rows++;
	}
	if (m->rows == 0 || (want_rows >= 0 && m->rows != want_rows)) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno + 1, NULL,
				"%d rows, expected %s%d (%s)", m->rows,
				want_rows >= 0 ? "" : "at least ",
				want_rows >= 0 ? want_rows : 1, why);
		goto out;
	}
out:
	sb_free(fld);
	if (rc)
		matrix_release(m);
	return rc;
}

/* The instance name: exe file name without extension and without the
 * "_task_exe_time" suffix. */
static char *etc_name(const char *exe_csv)
{
	static const char suffix[] = "_task_exe_time";
	char *s = sb_wl_basename(exe_csv);
	size_t k, ks = sizeof suffix - 1;

	if (s && (k = strlen(s)) > ks && !strcmp(s + k - ks, suffix))
		s[k - ks] = '\0';
	return s;
}

int sb_load_etc(const char *exe_csv, const char *conn_csv, const char *bw_csv,
		struct sb_dag_inst *in, struct sb_err *err)
{
	struct sb_wl_file fe, fc, fb;
	struct matrix me = { 0 }, mc = { 0 }, mb = { 0 };
	int *eu = NULL, *ev = NULL, *eline = NULL, *elab = NULL, *cyc = NULL;
	double *esize = NULL;
	int rc, n, nd, i, j, ne = 0;
	size_t nz = 0;
	char why[64];

	memset(in, 0, sizeof *in);
	memset(&fc, 0, sizeof fc);
	memset(&fb, 0, sizeof fb);
	if ((rc = sb_wl_open(&fe, "execution times", exe_csv, err)))
		return rc;
	if ((rc = read_matrix(&fe, &me, -1, -1, 0, "one per task", err)))
		goto out;
	n = me.rows;
	nd = me.cols;
	if ((rc = sb_wl_open(&fc, "connectivity", conn_csv, err)))
		goto out;
	snprintf(why, sizeof why, "one per task: %d tasks", n);
	if ((rc = read_matrix(&fc, &mc, n, n, MAT_SQUARE | MAT_ZERO_DIAG, why, err)))
		goto out;
	if ((rc = sb_wl_open(&fb, "bandwidths", bw_csv, err)))
		goto out;
	snprintf(why, sizeof why, "one per processor: %d processors", nd);
	if ((rc = read_matrix(&fb, &mb, nd, nd,
			      MAT_SQUARE | MAT_BANDWIDTH | MAT_STARTUP, why, err)))
		goto out;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			nz += mc.v[(size_t)i * n + j] != 0;
	if (nz > INT_MAX - 1) {
		rc = sb_wl_fail(&fc, err, SB_EXIT_INPUT, 0, NULL, "too many edges");
		goto out;
	}
	eu = sb_malloc((nz + 1) * sizeof *eu);
	ev = sb_malloc((nz + 1) * sizeof *ev);
	eline = sb_malloc((nz + 1) * sizeof *eline);
	elab = sb_malloc((nz + 1) * sizeof *elab);
	esize = sb_malloc((nz + 1) * sizeof *esize);
	cyc = sb_malloc((size_t)n * sizeof *cyc);
	if (!eu || !ev || !eline || !elab || !esize || !cyc) {
		rc = sb_wl_fail(&fc, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	sb_dag_alloc(&in->g, n);
	ne = 0;
	for (i = 0; i < n; i++) {
		double sum = 0, mx = 0;
		for (j = 0; j < nd; j++)
			sum += me.v[(size_t)i * nd + j];
		for (j = 0; j < n; j++) {
			double x = mc.v[(size_t)i * n + j];
			if (x == 0)
				continue;
			eu[ne] = i;
			ev[ne] = j;
			esize[ne] = x;
			eline[ne] = mc.line[i];
			elab[ne++] = j;
			if (x > mx)
				mx = x;
		}
		in->g.ops[i] = sum / nd;
		in->g.out[i] = mx;
	}
	{
		int len = sb_wl_find_cycle(n, ne, eu, ev, cyc);
		if (len < 0) {
			rc = sb_wl_fail(&fc, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		if (len > 0) {
			char c[200];
			int e = cyc[len - 1];
			sb_wl_cycle_str(c, sizeof c, in->g.ext_id, eu, cyc, len);
			rc = sb_wl_fail(&fc, err, SB_EXIT_INPUT, eline[e], mc.label[elab[e]],
					"edge %d -> %d closes a cycle (%s)", eu[e], ev[e], c);
			goto out;
		}
	}
	rc = sb_dag_finish(&in->g, ne, eu, ev, esize, 0, NULL, NULL, err);
	if (rc) {
		sb_err_prefix(err, "cannot read connectivity '%s': ", conn_csv);
		goto out;
	}

	sb_devices_alloc(&in->dev, nd);
	for (i = 0; i < nd; i++) {
		in->dev.speed[i] = 1;
		in->dev.mem[i] = INFINITY;
		in->dev.type[i] = SB_DEV_CPU;
		for (j = 0; j < nd; j++)
			in->dev.rate[(size_t)i * nd + j] =
				i == j ? 0 : mb.v[(size_t)i * nd + j];
	}
	in->etc = me.v;
	me.v = NULL;
	in->send_ops = 0;
	in->name = etc_name(exe_csv);
	{
		size_t len = strlen(exe_csv) + strlen(conn_csv) + strlen(bw_csv) + 32;
		in->source = sb_malloc(len);
		if (in->source)
			snprintf(in->source, len, "exe=%s conn=%s bw=%s", exe_csv,
				 conn_csv, bw_csv);
	}
	if (!in->name || !in->source)
		rc = sb_wl_fail(&fe, err, SB_EXIT_RUN, 0, NULL, "out of memory");
out:
	matrix_release(&me);
	matrix_release(&mc);
	matrix_release(&mb);
	sb_wl_close(&fe);
	sb_wl_close(&fc);
	sb_wl_close(&fb);
	sb_free(eu);
	sb_free(ev);
	sb_free(eline);
	sb_free(elab);
	sb_free(esize);
	sb_free(cyc);
	if (rc)
		sb_dag_inst_release(in);
	return rc;
}

int sb_load_etc_prefix(const char *prefix, struct sb_dag_inst *in,
		       struct sb_err *err)
{
	static const char *const suffix[3] = {
		"_task_exe_time.csv", "_task_connectivity.csv", "_resource_BW.csv",
	};
	char *path[3] = { NULL, NULL, NULL };
	int rc = 0, i;

	memset(in, 0, sizeof *in);
	for (i = 0; i < 3; i++) {
		size_t len = strlen(prefix) + strlen(suffix[i]) + 1;
		if (!(path[i] = sb_malloc(len))) {
			rc = sb_err_set(err, SB_EXIT_RUN,
					"cannot read etc '%s': out of memory", prefix);
			goto out;
		}
		snprintf(path[i], len, "%s%s", prefix, suffix[i]);
	}
	rc = sb_load_etc(path[0], path[1], path[2], in, err);
out:
	for (i = 0; i < 3; i++)
		sb_free(path[i]);
	return rc;
}
