/*
 * tfcsv.c - TensorFlow graph and device CSVs of Mayer, Mayer, Laich,
 * "The TensorFlow Partitioning and Scheduling Problem: It's the Critical
 * Path!", DIDL 2017.
 *
 * Format: the authors' simulator (github.com/mayerrn/tensorflowPartitioning
 * AndScheduling, Code/PartSchedSimulation, GraphReader and DeviceReader);
 * layouts and known answers are written down in ../shared/data/SOURCES.md,
 * section 1. Verified against that description and the committed files:
 * header skipping (and "Meta"), edges listed in both endpoint lists,
 * transitive colocation, the 9- and 8-column layouts, upper-triangular
 * device rates. Our design: the legacy 6-column layout of sample_graph.csv
 * is accepted with ram = 0 and no constraint (the upstream loader needs 8
 * columns); ids must be unique and known, the graph acyclic, every number
 * finite and non-negative (speeds and rates positive); device rows must be
 * in id order; blank lines are skipped; RAM is stored as a double.
 */
#include "load.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Graph CSV                                                           */
/* ------------------------------------------------------------------ */

enum { C_ID, C_OUT, C_IN, C_COLOC, C_TENSOR, C_OPS, C_RAM, C_DC, C_NAME };

static const char *const graph_col[] = {
	"Id", "(Outgoing) node", "(Incoming) node", "Colocation nodes",
	"#tensorSize", "#operations", "RAM storage", "Device constraint", "name",
};

struct tf_row {
	long id;
	int line;
	double out, ops, ram;
	int dc;
};

/* An id found in a list of row `row`; kind is C_OUT, C_IN or C_COLOC. */
struct tf_ref {
	long id;
	int row;
	int kind;
};

struct id_rank {
	long id;
	int row;
};

static int id_rank_cmp(const void *a, const void *b)
{
	const struct id_rank *x = a, *y = b;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* Index of id among the sorted keys, or -1. */
static int find_id(const struct id_rank *keys, int n, long id)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (keys[mid].id == id)
			return mid;
		if (keys[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int parse_dc(const struct sb_wl_file *f, struct sb_err *err,
		    const char *s, int *dc)
{
	size_t len;
	const char *t = sb_wl_token(s, &len);

	if (len == 2 && !strncmp(t, "NO", 2))
		*dc = SB_DC_ANY;
	else if (len == 3 && !strncmp(t, "CPU", 3))
		*dc = SB_DEV_CPU;
	else if (len == 3 && !strncmp(t, "GPU", 3))
		*dc = SB_DEV_GPU;
	else if (len == 3 && !strncmp(t, "TPU", 3))
		*dc = SB_DEV_TPU;
	else
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno,
				  graph_col[C_DC],
				  "unknown constraint '%.*s' (expected NO, CPU, GPU or TPU)",
				  (int)(len > 40 ? 40 : len), t);
	return 0;
}

struct tf_parse {
	struct tf_row *row;
	size_t nrow, cap_row;
	struct tf_ref *ref;
	size_t nref, cap_ref;
};

/* Append the ';'-separated ids of field s (column kind) of the row being
 * parsed, p->row[p->nrow]. */
static int parse_list(struct sb_wl_file *f, struct sb_err *err,
		      struct tf_parse *p, char *s, int kind)
{
	const char *field = graph_col[kind];
	char *tok, *next;
	void *t;

	s = sb_wl_trim(s);
	if (!*s)
		return 0;
	for (tok = s; tok; tok = next) {
		long id = 0;
		int rc;
		next = strchr(tok, ';');
		if (next)
			*next++ = '\0';
		if (sb_wl_blank(tok))
			return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
					  "empty entry in the id list");
		rc = sb_wl_long(f, err, field, tok, 0, INT_MAX, &id);
		if (rc)
			return rc;
		if (kind != C_COLOC && id == p->row[p->nrow].id)
			return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
					  "op %ld lists itself (self-loop)", id);
		if (!(t = sb_wl_grow(p->ref, &p->cap_ref, p->nref + 1, sizeof *p->ref)))
			return sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		p->ref = t;
		p->ref[p->nref++] = (struct tf_ref){ id, (int)p->nrow, kind };
	}
	return 0;
}

int sb_load_tf_graph(const char *path, struct sb_dag *g, struct sb_err *err)
{
	struct sb_wl_file f;
	struct tf_parse p = { 0 };
	struct id_rank *keys = NULL;
	int *rank = NULL, *eu = NULL, *ev = NULL, *cu = NULL, *cv = NULL;
	int *eline = NULL, *ekind = NULL, *cyc = NULL;
	int rc, ncols = 0, first_line = 0, n, ne = 0, np = 0, i;
	size_t k;
	char *line, *fld[10];
	void *t;

	memset(g, 0, sizeof *g);
	rc = sb_wl_open(&f, "graph", path, err);
	if (rc)
		return rc;
	line = sb_wl_next(&f);
	if (!line) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 1, NULL,
				"empty file (expected a header line)");
		goto out;
	}
	{
		const char *h = line;
		while (*h == ' ' || *h == '\t')
			h++;
		if (!strncmp(h, "Meta", 4) && strchr(",\t ", h[4] ? h[4] : ','))
			sb_wl_next(&f);
	}
	while ((line = sb_wl_next(&f))) {
		struct tf_row *r;
		long id = 0;
		int nf;

		if (sb_wl_blank(line))
			continue;
		nf = sb_wl_split(line, ',', fld, 10);
		if (!ncols) {
			if (nf != 9 && nf != 8 && nf != 6) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"%d fields, expected 9, 8 (no name) or 6 (legacy layout)",
						nf);
				goto out;
			}
			ncols = nf;
			first_line = f.lineno;
		} else if (nf != ncols) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"%d fields, expected %d as on line %d",
					nf, ncols, first_line);
			goto out;
		}
		if (p.nrow >= INT_MAX - 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"too many operations");
			goto out;
		}
		if (!(t = sb_wl_grow(p.row, &p.cap_row, p.nrow + 1, sizeof *p.row))) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		p.row = t;
		r = &p.row[p.nrow];
		r->line = f.lineno;
		r->ram = 0;
		r->dc = SB_DC_ANY;
		if ((rc = sb_wl_long(&f, err, graph_col[C_ID], fld[C_ID], 0, INT_MAX, &id)))
			goto out;
		r->id = id;
		if ((rc = parse_list(&f, err, &p, fld[C_OUT], C_OUT)) ||
		    (rc = parse_list(&f, err, &p, fld[C_IN], C_IN)) ||
		    (rc = parse_list(&f, err, &p, fld[C_COLOC], C_COLOC)) ||
		    (rc = sb_wl_double(&f, err, graph_col[C_TENSOR], fld[C_TENSOR],
				       0, SB_WL_MAX, &r->out)) ||
		    (rc = sb_wl_double(&f, err, graph_col[C_OPS], fld[C_OPS],
				       0, SB_WL_MAX, &r->ops)))
			goto out;
		if (ncols >= 8 &&
		    ((rc = sb_wl_double(&f, err, graph_col[C_RAM], fld[C_RAM],
					0, SB_WL_MAX, &r->ram)) ||
		     (rc = parse_dc(&f, err, fld[C_DC], &r->dc))))
			goto out;
		p.nrow++;
	}
	if (p.nrow == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no operations after the header");
		goto out;
	}
	n = (int)p.nrow;

	/* Ops in increasing id order. */
	keys = sb_malloc((size_t)n * sizeof *keys);
	rank = sb_malloc((size_t)n * sizeof *rank);
	if (!keys || !rank) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		keys[i] = (struct id_rank){ p.row[i].id, i };
	qsort(keys, (size_t)n, sizeof *keys, id_rank_cmp);
	for (i = 0; i < n; i++) {
		if (i > 0 && keys[i].id == keys[i - 1].id) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, p.row[keys[i].row].line,
					graph_col[C_ID], "duplicate id %ld (also on line %d)",
					keys[i].id, p.row[keys[i - 1].row].line);
			goto out;
		}
		rank[keys[i].row] = i;
	}

	/* Edges and colocation pairs, each remembering where it was read. */
	if (p.nref > INT_MAX) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "too many ids");
		goto out;
	}
	eu = sb_malloc((p.nref + 1) * sizeof *eu);
	ev = sb_malloc((p.nref + 1) * sizeof *ev);
	eline = sb_malloc((p.nref + 1) * sizeof *eline);
	ekind = sb_malloc((p.nref + 1) * sizeof *ekind);
	cu = sb_malloc((p.nref + 1) * sizeof *cu);
	cv = sb_malloc((p.nref + 1) * sizeof *cv);
	cyc = sb_malloc((size_t)n * sizeof *cyc);
	if (!eu || !ev || !eline || !ekind || !cu || !cv || !cyc) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (k = 0; k < p.nref; k++) {
		const struct tf_ref *x = &p.ref[k];
		int me = rank[x->row], other = find_id(keys, n, x->id);
		if (other < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, p.row[x->row].line,
					graph_col[x->kind], "unknown op id %ld", x->id);
			goto out;
		}
		if (x->kind == C_COLOC) {
			cu[np] = me;
			cv[np++] = other;
			continue;
		}
		eu[ne] = x->kind == C_OUT ? me : other;
		ev[ne] = x->kind == C_OUT ? other : me;
		eline[ne] = p.row[x->row].line;
		ekind[ne++] = x->kind;
	}

	sb_dag_alloc(g, n);
	for (i = 0; i < n; i++) {
		const struct tf_row *r = &p.row[keys[i].row];
		g->ext_id[i] = r->id;
		g->ops[i] = r->ops;
		g->out[i] = r->out;
		g->ram[i] = r->ram;
		g->dc[i] = r->dc;
	}
	{
		int len = sb_wl_find_cycle(n, ne, eu, ev, cyc);
		if (len < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		if (len > 0) {
			char s[200];
			int e = cyc[len - 1];
			sb_wl_cycle_str(s, sizeof s, g->ext_id, eu, cyc, len);
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, eline[e],
					graph_col[ekind[e]],
					"edge %ld -> %ld closes a cycle (%s)",
					g->ext_id[eu[e]], g->ext_id[ev[e]], s);
			goto out;
		}
	}
	rc = sb_dag_finish(g, ne, eu, ev, NULL, np, cu, cv, err);
	if (rc)
		sb_err_prefix(err, "cannot read graph '%s': ", path);
out:
	sb_wl_close(&f);
	sb_free(p.row);
	sb_free(p.ref);
	sb_free(keys);
	sb_free(rank);
	sb_free(eu);
	sb_free(ev);
	sb_free(eline);
	sb_free(ekind);
	sb_free(cu);
	sb_free(cv);
	sb_free(cyc);
	if (rc)
		sb_dag_release(g);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Device CSV                                                          */
/* ------------------------------------------------------------------ */

enum { D_ID, D_RAM, D_OPS, D_RATES, D_TYPE, D_NCOL };

static const char *const dev_col[] = {
	"Id", "RAM", "#operations", "commnication speed", "type",
};

struct dev_row {
	int line;
	double ram, speed;
	int type;
	size_t rate_at, nrate;  /* slice of the rate list */
};

int sb_load_tf_devices(const char *path, struct sb_devices *d,
		       struct sb_err *err)
{
	struct sb_wl_file f;
	struct dev_row *row = NULL;
	double *rate = NULL;
	size_t nrow = 0, cap_row = 0, nrate = 0, cap_rate = 0;
	char *line, *fld[D_NCOL + 1];
	int rc, i, j, n;
	void *t;

	memset(d, 0, sizeof *d);
	rc = sb_wl_open(&f, "devices", path, err);
	if (rc)
		return rc;
	if (!sb_wl_next(&f)) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 1, NULL,
				"empty file (expected a header line)");
		goto out;
	}
	while ((line = sb_wl_next(&f))) {
		struct dev_row *r;
		long id = 0;
		size_t len;
		const char *ty;
		char *tok, *next;
		int nf;

		if (sb_wl_blank(line))
			continue;
		nf = sb_wl_split(line, ',', fld, D_NCOL + 1);
		if (nf != D_NCOL) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"%d fields, expected %d (Id, RAM, #operations, rates, type)",
					nf, D_NCOL);
			goto out;
		}
		if (nrow >= INT_MAX - 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"too many devices");
			goto out;
		}
		if (!(t = sb_wl_grow(row, &cap_row, nrow + 1, sizeof *row))) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		row = t;
		r = &row[nrow];
		r->line = f.lineno;
		if ((rc = sb_wl_long(&f, err, dev_col[D_ID], fld[D_ID], 0, INT_MAX, &id)))
			goto out;
		if (id != (long)nrow) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, dev_col[D_ID],
					"id %ld, expected %zu (rows must be in id order from 0)",
					id, nrow);
			goto out;
		}
		if ((rc = sb_wl_double(&f, err, dev_col[D_RAM], fld[D_RAM], 0,
				       SB_WL_MAX, &r->ram)) ||
		    (rc = sb_wl_double(&f, err, dev_col[D_OPS], fld[D_OPS],
				       0, SB_WL_MAX, &r->speed)))
			goto out;
		if (r->speed <= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, dev_col[D_OPS],
					"speed must be positive");
			goto out;
		}
		ty = sb_wl_token(fld[D_TYPE], &len);
		if (len == 3 && !strncmp(ty, "CPU", 3))
			r->type = SB_DEV_CPU;
		else if (len == 3 && !strncmp(ty, "GPU", 3))
			r->type = SB_DEV_GPU;
		else if (len == 3 && !strncmp(ty, "TPU", 3))
			r->type = SB_DEV_TPU;
		else {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, dev_col[D_TYPE],
					"unknown device type '%.*s' (expected CPU, GPU or TPU)",
					(int)(len > 40 ? 40 : len), ty);
			goto out;
		}
		r->rate_at = nrate;
		r->nrate = 0;
		/* An empty field is an empty list; otherwise every entry counts,
		 * so "1;;2" and "1;" are errors. */
		tok = sb_wl_trim(fld[D_RATES]);
		while (*tok) {
			double x = 0;
			next = strchr(tok, ';');
			if (next)
				*next = '\0';
			if ((rc = sb_wl_double(&f, err, dev_col[D_RATES], tok, 0,
					       SB_WL_MAX, &x)))
				goto out;
			if (x <= 0) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno,
						dev_col[D_RATES], "rate must be positive");
				goto out;
			}
			if (!(t = sb_wl_grow(rate, &cap_rate, nrate + 1, sizeof *rate))) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			rate = t;
			rate[nrate++] = x;
			r->nrate++;
			if (!next)
				break;
			tok = next + 1;
			if (!*tok) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno,
						dev_col[D_RATES], "empty entry in the rate list");
				goto out;
			}
		}
		nrow++;
	}
	if (nrow == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no devices after the header");
		goto out;
	}
	n = (int)nrow;
	for (i = 0; i < n; i++)
		if (row[i].nrate != (size_t)(n - 1 - i)) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, row[i].line,
					dev_col[D_RATES],
					"%zu rates, expected %d (one per device with a larger id, %d devices)",
					row[i].nrate, n - 1 - i, n);
			goto out;
		}
	sb_devices_alloc(d, n);
	for (i = 0; i < n; i++) {
		d->speed[i] = row[i].speed;
		d->mem[i] = row[i].ram;
		d->type[i] = row[i].type;
		d->rate[(size_t)i * n + i] = 0;
		for (j = i + 1; j < n; j++) {
			double x = rate[row[i].rate_at + (size_t)(j - i - 1)];
			d->rate[(size_t)i * n + j] = x;
			d->rate[(size_t)j * n + i] = x;
		}
	}
out:
	sb_wl_close(&f);
	sb_free(row);
	sb_free(rate);
	if (rc)
		sb_devices_release(d);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Instance                                                            */
/* ------------------------------------------------------------------ */

int sb_load_tf_inst(const char *graph_csv, const char *device_csv,
		    struct sb_dag_inst *in, struct sb_err *err)
{
	size_t len;
	int rc;

	memset(in, 0, sizeof *in);
	rc = sb_load_tf_graph(graph_csv, &in->g, err);
	if (rc)
		goto out;
	rc = sb_load_tf_devices(device_csv, &in->dev, err);
	if (rc)
		goto out;
	in->send_ops = 10;
	in->name = sb_wl_basename(graph_csv);
	len = strlen(graph_csv) + strlen(device_csv) + 32;
	in->source = sb_malloc(len);
	if (!in->name || !in->source) {
		rc = sb_err_set(err, SB_EXIT_RUN, "cannot read graph '%s': out of memory",
				graph_csv);
		goto out;
	}
	snprintf(in->source, len, "graph=%s devices=%s", graph_csv, device_csv);
out:
	if (rc)
		sb_dag_inst_release(in);
	return rc;
}
