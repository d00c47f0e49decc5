/*
 * tfcsv.c - TensorFlow graph and device CSVs of Mayer, Mayer, Laich,
 * "The TensorFlow Partitioning and Scheduling Problem: It's the Critical
 * Path!", DIDL 2017, and the text-parsing helpers shared by the loaders of
 * workloads/.
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
/* Shared parsing helpers                                              */
/* ------------------------------------------------------------------ */

int sb_wl_open(struct sb_wl_file *f, const char *what, const char *path,
	       struct sb_err *err)
{
	FILE *fp;
	size_t cap = 0, got;
	char *nul, *t;
	int rc = 0, line;

	memset(f, 0, sizeof *f);
	f->what = what;
	f->path = path;
	fp = fopen(path, "rb");
	if (!fp)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot read %s '%s': %s",
				  what, path, strerror(errno));
	for (;;) {
		if (!(t = sb_wl_grow(f->buf, &cap, f->len + 65536 + 1, 1))) {
			rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		f->buf = t;
		got = fread(f->buf + f->len, 1, cap - f->len - 1, fp);
		f->len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, 0, NULL, "%s", strerror(errno));
		goto out;
	}
	f->buf[f->len] = '\0';
	nul = memchr(f->buf, '\0', f->len);
	if (nul) {
		const char *c;
		for (line = 1, c = f->buf; c < nul; c++)
			line += *c == '\n';
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, line, NULL,
				"NUL byte in a text file");
	}
out:
	fclose(fp);
	if (rc)
		sb_wl_close(f);
	return rc;
}

char *sb_wl_next(struct sb_wl_file *f)
{
	char *s, *nl;
	size_t k;

	if (!f->buf || f->pos >= f->len)
		return NULL;
	s = f->buf + f->pos;
	nl = memchr(s, '\n', f->len - f->pos);
	if (nl) {
		*nl = '\0';
		f->pos = (size_t)(nl - f->buf) + 1;
	} else {
		f->pos = f->len;
	}
	k = strlen(s);
	if (k > 0 && s[k - 1] == '\r')
		s[k - 1] = '\0';
	f->lineno++;
	return s;
}

void sb_wl_close(struct sb_wl_file *f)
{
	sb_free(f->buf);
	f->buf = NULL;
	f->len = f->pos = 0;
}

int sb_wl_fail(const struct sb_wl_file *f, struct sb_err *err, int code,
	       int line, const char *field, const char *fmt, ...)
{
	char where[160] = "", what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (line > 0 && field)
		snprintf(where, sizeof where, "line %d: field '%.100s': ", line, field);
	else if (line > 0)
		snprintf(where, sizeof where, "line %d: ", line);
	else if (field)
		snprintf(where, sizeof where, "field '%.100s': ", field);
	return sb_err_set(err, code, "cannot read %s '%s': %s%s", f->what,
			  f->path, where, what);
}

char *sb_wl_trim(char *s)
{
	size_t k;

	while (*s == ' ' || *s == '\t')
		s++;
	k = strlen(s);
	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		s[--k] = '\0';
	return s;
}

int sb_wl_split(char *s, char sep, char **fields, int max)
{
	int nf = 0;

	for (;;) {
		char *e = strchr(s, sep);
		if (nf < max)
			fields[nf] = s;
		if (nf < INT_MAX)
			nf++;
		if (!e)
			break;
		*e = '\0';
		s = e + 1;
	}
	return nf;
}

/* Skip blanks; return the start of the token and set *len to its length
 * without trailing blanks. */
static const char *token_bounds(const char *s, size_t *len)
{
	size_t k;

	while (*s == ' ' || *s == '\t')
		s++;
	k = strlen(s);
	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		k--;
	*len = k;
	return s;
}

static int only_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

int sb_wl_double(const struct sb_wl_file *f, struct sb_err *err,
		 const char *field, const char *s, double lo, double hi,
		 double *out)
{
	size_t len;
	const char *t = token_bounds(s, &len);
	char *end;
	double v;

	if (len == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "missing value");
	errno = 0;
	v = strtod(t, &end);
	if (end == t || !only_blanks(end))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "not a number: '%.*s'", (int)(len > 40 ? 40 : len), t);
	if (isnan(v) || isinf(v))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "not a finite number: '%.*s'",
				  (int)(len > 40 ? 40 : len), t);
	if (v < lo && lo == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "negative value %g", v);
	if (v < lo)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "value %g below %g", v, lo);
	if (v > hi)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "value %g out of range (at most %g)", v, hi);
	*out = v;
	return 0;
}

int sb_wl_long(const struct sb_wl_file *f, struct sb_err *err,
	       const char *field, const char *s, long lo, long hi, long *out)
{
	size_t len;
	const char *t = token_bounds(s, &len);
	char *end;
	long v;

	if (len == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "missing value");
	errno = 0;
	v = strtol(t, &end, 10);
	if (end == t || !only_blanks(end))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "not an integer: '%.*s'", (int)(len > 40 ? 40 : len), t);
	if (errno == ERANGE || v > hi || (v < lo && lo != 0))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "value '%.*s' out of range [%ld, %ld]",
				  (int)(len > 40 ? 40 : len), t, lo, hi);
	if (v < lo)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "negative value %ld", v);
	*out = v;
	return 0;
}

void *sb_wl_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap;
	void *q;

	if (need <= c)
		return p;
	if (c < 16)
		c = 16;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return NULL;
	q = sb_realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}

int sb_wl_find_cycle(int n, int m, const int *eu, const int *ev, int *cyc)
{
	int *soff = sb_calloc((size_t)n + 1, sizeof *soff);
	int *poff = sb_calloc((size_t)n + 1, sizeof *poff);
	int *se = sb_malloc(((size_t)m + 1) * sizeof *se);
	int *pe = sb_malloc(((size_t)m + 1) * sizeof *pe);
	int *indeg = sb_calloc((size_t)n + 1, sizeof *indeg);
	int *fill = sb_calloc((size_t)n + 1, sizeof *fill);
	int *queue = sb_malloc(((size_t)n + 1) * sizeof *queue);
	int *at = fill; /* reused once the CSR is built */
	int i, k, head = 0, tail = 0, len = 0, x;

	if (!soff || !poff || !se || !pe || !indeg || !fill || !queue) {
		len = -1;
		goto out;
	}
	for (k = 0; k < m; k++) {
		soff[eu[k] + 1]++;
		poff[ev[k] + 1]++;
		indeg[ev[k]]++;
	}
	for (i = 0; i < n; i++) {
		soff[i + 1] += soff[i];
		poff[i + 1] += poff[i];
	}
	for (k = 0; k < m; k++)
		se[soff[eu[k]] + fill[eu[k]]++] = k;
	memset(fill, 0, (size_t)n * sizeof *fill);
	for (k = 0; k < m; k++)
		pe[poff[ev[k]] + fill[ev[k]]++] = k;

	/* Kahn's algorithm; what it cannot remove contains a cycle. */
	for (i = 0; i < n; i++)
		if (!indeg[i])
			queue[tail++] = i;
	while (head < tail) {
		int u = queue[head++];
		for (k = soff[u]; k < soff[u + 1]; k++)
			if (--indeg[ev[se[k]]] == 0)
				queue[tail++] = ev[se[k]];
	}
	if (tail == n)
		goto out;

	/* Every node left has a predecessor that is also left: walk backwards
	 * until a node repeats. at[x] = step at which x was visited. */
	for (i = 0; i < n; i++)
		at[i] = -1;
	for (x = 0; !indeg[x]; x++)
		;
	for (;;) {
		int e = -1;
		at[x] = len;
		for (k = poff[x]; k < poff[x + 1]; k++)
			if (indeg[eu[pe[k]]]) {
				e = pe[k];
				break;
			}
		SB_ASSERT(e >= 0);
		cyc[len++] = e;
		x = eu[e];
		if (at[x] >= 0)
			break;
	}
	/* cyc[at[x] .. len) runs backwards along the cycle: reverse it and
	 * move it to the front. */
	{
		int from = at[x], cnt = len - from;
		for (i = 0; i < cnt / 2; i++) {
			int t = cyc[from + i];
			cyc[from + i] = cyc[len - 1 - i];
			cyc[len - 1 - i] = t;
		}
		memmove(cyc, cyc + from, (size_t)cnt * sizeof *cyc);
		len = cnt;
	}
out:
	sb_free(soff);
	sb_free(poff);
	sb_free(se);
	sb_free(pe);
	sb_free(indeg);
	sb_free(fill);
	sb_free(queue);
	return len;
}

void sb_wl_cycle_str(char *buf, size_t size, const long *ext_id,
		     const int *eu, const int *cyc, int len)
{
	size_t used = 0;
	int i, shown = len > 8 ? 6 : len;

	buf[0] = '\0';
	for (i = 0; i < shown && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%ld -> ",
					 ext_id[eu[cyc[i]]]);
	if (shown < len && used < size)
		used += (size_t)snprintf(buf + used, size - used, "... -> ");
	if (used < size)
		snprintf(buf + used, size - used, "%ld", ext_id[eu[cyc[0]]]);
}

char *sb_wl_basename(const char *path)
{
	const char *b = strrchr(path, '/');
	const char *dot;
	size_t k;
	char *s;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	k = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	s = sb_malloc(k + 1);
	if (s) {
		memcpy(s, b, k);
		s[k] = '\0';
	}
	return s;
}

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
	const char *t = token_bounds(s, &len);

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
		if (only_blanks(tok))
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

		if (only_blanks(line))
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
				       0, HUGE_VAL, &r->out)) ||
		    (rc = sb_wl_double(&f, err, graph_col[C_OPS], fld[C_OPS],
				       0, HUGE_VAL, &r->ops)))
			goto out;
		if (ncols >= 8 &&
		    ((rc = sb_wl_double(&f, err, graph_col[C_RAM], fld[C_RAM],
					0, HUGE_VAL, &r->ram)) ||
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

		if (only_blanks(line))
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
				       HUGE_VAL, &r->ram)) ||
		    (rc = sb_wl_double(&f, err, dev_col[D_OPS], fld[D_OPS],
				       0, HUGE_VAL, &r->speed)))
			goto out;
		if (r->speed <= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, dev_col[D_OPS],
					"speed must be positive");
			goto out;
		}
		ty = token_bounds(fld[D_TYPE], &len);
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
					       HUGE_VAL, &x)))
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
