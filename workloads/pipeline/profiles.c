/*
 * profiles.c - per-layer profiles of the pipeline family: the measured
 * profiles of PipeDream (D. Narayanan et al., "PipeDream: Generalized
 * Pipeline Parallelism for DNN Training", SOSP 2019) and DAPPLE (S. Fan et
 * al., "DAPPLE: A Pipelined Data Parallel Approach for Training Large
 * Models", PPoPP 2021), and analytic profiles of our own (spec pipeplan.md
 * §5) with a roofline time model.
 *
 * Format: graph.txt as read by PipeDream's graph/graph.py and DAPPLE's
 * src/input/torch_graph_py.rs; layouts and quirks in
 * ../shared/data/SOURCES.md, section 6 (workloads/pipeline/load.h summarises them).
 *
 * Linearisation (reconstructed from msr-fiddle/pipedream
 * optimizer/optimizer_graph_hierarchical.py and graph/graph.py, read, not
 * copied). PipeDream drops the "Input" sources and the "__getitem__" sinks,
 * builds the DAG of antichains reachable from the first source (a state =
 * an antichain, i.e. the down-set of nodes at or before it; a successor
 * state advances one node of the antichain to one of its successors and
 * absorbs whatever ancestors that node has outside the down-set), sorts
 * the states topologically and sums node costs over the down-sets. We do
 * the same along ONE path of that antichain DAG, which makes the states
 * nested and the model a chain:
 *   1. drop sources whose description starts with "Input" and then sinks
 *      whose description starts with "__getitem__" (one pass each, as
 *      PipeDream);
 *   2. rank the remaining nodes by a topological order (Kahn's algorithm,
 *      smallest node id first among the ready nodes);
 *   3. D = {the first remaining source in file order} (PipeDream starts
 *      its antichain DAG at sources()[0], the first in file order); then,
 *      while nodes remain, advance to the smallest-ranked node y outside D
 *      with a predecessor in D (a PipeDream next state) and add y together
 *      with its ancestors outside D (the nodes PipeDream's state absorbs,
 *      e.g. GNMT's decoder embedding and "hidden" source, pulled in by the
 *      attention node); if no node outside D has a predecessor in D, the
 *      rest is another weakly connected component (PipeDream never reaches
 *      it and drops its cost): we start it at its first source in file
 *      order instead;
 *   4. each step is one layer: fwd, bwd, params and stash are sums over its
 *      nodes; act = the activations of the nodes of D with a successor
 *      outside D (exactly the tensors crossing the cut; PipeDream's
 *      output_activation_size sums its "augmented antichain", which can
 *      count a tensor whose consumers are all inside D when the antichain
 *      has several nodes); the last layer's act = its sinks' outputs.
 * Times are ms at the profile batch size (PipeDream divides by 1000); we
 * divide by 1000 and by pbs. Sizes are bytes (per profile batch: divided
 * by pbs, except parameters). PipeDream profiles have no stash: a layer
 * stashes its nodes' outputs (PipeDream's memory model sums node
 * activation sizes the same way).
 *
 * Verified: layer counts and totals of the shared files against an
 * independent script over their lines, and dapple.md §5's table
 * (tests/test_pipeload.c). Reconstructed (our design): the single path of
 * step 3 - PipeDream's DP may cut at any state of its antichain DAG, a
 * planner on our chain only at the cuts of this path -, the exact cut
 * activation, the kept extra components, strict parsing (four named cost
 * fields in PipeDream's order, ids "node<integer>", no cycles or
 * self-loops, duplicate edges merged).
 */
#include "load.h"
#include "wlfile.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest accepted time (ms) and size (bytes) of one node: sums over a
 * million nodes stay far from overflow. */
#define PROF_MAX_MS 1e12
#define PROF_MAX_BYTES 1e18
#define PROF_MAX_NODES (INT_MAX / 16)

/* sha256 of DAPPLE's hand-edited vgg-19-pbs-32.txt (SOURCES.md §6). Its
 * parameter sizes are bytes / 1.048576 (FC1: 392015625 = 411058176 bytes,
 * 102.76M fp32 weights, exactly), i.e. in units of 1e-6 MiB; activations
 * use the same unit, rounded by hand (FC outputs 15625 = 0.015625 MiB =
 * 4096 fp32 values exactly). */
#define DAPPLE_VGG19_SHA256 \
	"effeacc60da4a9017eb23051fb26a5996be27dcc584c759f88781cd67eb2934c"
#define MIB_MICRO 1.048576

/* ------------------------------------------------------------------ */
/* Parsing                                                             */
/* ------------------------------------------------------------------ */

struct pnode {
	long id;
	int line;
	double f, b, a, p;   /* ms, ms, bytes, bytes at the profile batch */
	const char *desc;    /* into the file buffer */
};

struct pedge {
	long u, v;           /* node ids until resolved */
	int line;
};

/* Split s in place at every " -- "; returns the number of parts (stores at
 * most max). */
static int split_dashes(char *s, char **part, int max)
{
	int np = 0;

	for (;;) {
		char *q = strstr(s, " -- ");
		if (np < max)
			part[np] = s;
		np++;
		if (!q)
			break;
		*q = '\0';
		s = q + 4;
	}
	return np;
}

/* "node<integer>" into *id. */
static int parse_id(const struct sb_wl_file *f, struct sb_err *err,
		    const char *field, char *tok, long *id)
{
	tok = sb_wl_trim(tok);
	if (strncmp(tok, "node", 4))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "expected 'node<integer>', got '%.40s'", tok);
	return sb_wl_long(f, err, field, tok + 4, 0, LONG_MAX, id);
}

/* Split the cost part at commas outside brackets. */
static int split_costs(char *s, char **item, int max)
{
	int n = 0, depth = 0;

	item[n++] = s;
	for (; *s; s++) {
		if (*s == '[')
			depth++;
		else if (*s == ']' && depth > 0)
			depth--;
		else if (*s == ',' && depth == 0) {
			*s = '\0';
			if (n < max)
				item[n] = s + 1;
			if (n < INT_MAX)
				n++;
		}
	}
	return n;
}

/* "<bytes>" or "[b1; b2; ...]" (summed, as both upstream parsers do). */
static int parse_act(const struct sb_wl_file *f, struct sb_err *err, char *v,
		     double *out)
{
	size_t k;
	char *e;
	double sum = 0, x;
	int rc;

	v = sb_wl_trim(v);
	if (*v != '[')
		return sb_wl_double(f, err, "activation_size", v, 0, PROF_MAX_BYTES, out);
	k = strlen(v);
	if (v[k - 1] != ']')
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, "activation_size",
				  "list without its closing ']'");
	v[k - 1] = '\0';
	for (v++;; v = e + 1) {
		e = strchr(v, ';');
		if (e)
			*e = '\0';
		if ((rc = sb_wl_double(f, err, "activation_size", v, 0,
				       PROF_MAX_BYTES, &x)))
			return rc;
		sum += x;
		if (!e)
			break;
	}
	if (sum > PROF_MAX_BYTES)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, "activation_size",
				  "list sums to %g, more than %g", sum, PROF_MAX_BYTES);
	*out = sum;
	return 0;
}

static const char *const cost_key[4] = {
	"forward_compute_time", "backward_compute_time", "activation_size",
	"parameter_size",
};

/* A node line (starting with a non-blank). */
static int parse_node(const struct sb_wl_file *f, struct sb_err *err, char *s,
		      struct pnode *x)
{
	char *part[4], *item[4];
	double *dst[4];
	long stage;
	int np, ni, i, rc;

	np = split_dashes(s, part, 4);
	if (np != 3 && np != 4)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				  "%d part%s separated by ' -- ', expected "
				  "'nodeK -- <description> -- <costs>' (edge lines "
				  "start with a blank)", np, np == 1 ? "" : "s");
	if ((rc = parse_id(f, err, "node id", part[0], &x->id)))
		return rc;
	x->line = f->lineno;
	x->desc = sb_wl_trim(part[1]);
	ni = split_costs(part[2], item, 4);
	if (ni != 4)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, NULL,
				  "%d comma-separated costs, expected 4 (%s, %s, %s, %s)",
				  ni, cost_key[0], cost_key[1], cost_key[2], cost_key[3]);
	dst[0] = &x->f;
	dst[1] = &x->b;
	dst[2] = &x->a;
	dst[3] = &x->p;
	for (i = 0; i < 4; i++) {
		char *t = sb_wl_trim(item[i]), *eq = strchr(t, '=');
		size_t kl = strlen(cost_key[i]);
		if (!eq || (size_t)(eq - t) != kl || strncmp(t, cost_key[i], kl))
			return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, cost_key[i],
					  "expected '%s=<value>', got '%.40s'",
					  cost_key[i], t);
		if (i == 2)
			rc = parse_act(f, err, eq + 1, dst[i]);
		else
			rc = sb_wl_double(f, err, cost_key[i], eq + 1, 0,
					  i < 2 ? PROF_MAX_MS : PROF_MAX_BYTES, dst[i]);
		if (rc)
			return rc;
	}
	if (np == 4) {
		char *t = sb_wl_trim(part[3]);
		if (strncmp(t, "stage_id=", 9))
			return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, "stage_id",
					  "expected 'stage_id=<integer>', got '%.40s'", t);
		if ((rc = sb_wl_long(f, err, "stage_id", t + 9, 0, INT_MAX, &stage)))
			return rc;
	}
	return 0;
}

/* An edge line (starting with a blank). */
static int parse_edge(const struct sb_wl_file *f, struct sb_err *err, char *s,
		      struct pedge *e)
{
	char *part[2];
	int np = split_dashes(sb_wl_trim(s), part, 2), rc;

	if (np != 2)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, "edge",
				  "%d part%s separated by ' -- ', expected 'nodeA -- nodeB'",
				  np, np == 1 ? "" : "s");
	if ((rc = parse_id(f, err, "edge", part[0], &e->u)) ||
	    (rc = parse_id(f, err, "edge", part[1], &e->v)))
		return rc;
	if (e->u == e->v)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, "edge",
				  "node%ld -- node%ld is a self-loop", e->u, e->v);
	e->line = f->lineno;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Linearisation                                                       */
/* ------------------------------------------------------------------ */

/* A binary min-heap of (key, node) over caller-sized arrays (the loader
 * reports running out of memory, so no growing heap here). */
struct iheap {
	long *key;
	int *val;
	int n;
};

static void ih_push(struct iheap *h, long key, int v)
{
	int i = h->n++;

	while (i > 0) {
		int p = (i - 1) / 2;
		if (h->key[p] <= key)
			break;
		h->key[i] = h->key[p];
		h->val[i] = h->val[p];
		i = p;
	}
	h->key[i] = key;
	h->val[i] = v;
}

static int ih_pop(struct iheap *h)
{
	int top = h->val[0], i = 0, n = --h->n;
	long key = h->key[n];
	int v = h->val[n];

	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h->key[c + 1] < h->key[c])
			c++;
		if (key <= h->key[c])
			break;
		h->key[i] = h->key[c];
		h->val[i] = h->val[c];
		i = c;
	}
	if (n > 0) {
		h->key[i] = key;
		h->val[i] = v;
	}
	return top;
}

static int starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int cmp_edge(const void *a, const void *b)
{
	const int *x = a, *y = b;
	if (x[0] != y[0])
		return (x[0] > y[0]) - (x[0] < y[0]);
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* m->graph: the kept nodes in file order with the chain layer of each,
 * for planners that cut elsewhere than the chain (PipeDream's antichains). */
static int keep_graph(const struct sb_wl_file *f, struct sb_err *err, int n,
		      const struct pnode *nd, const int *keep, const int *soff,
		      const int *succ, const int *lay, int pbs, double scale,
		      struct sb_pmodel *m)
{
	struct sb_pgraph *g = sb_calloc(1, sizeof *g);
	int *idx = sb_malloc(((size_t)n + 1) * sizeof *idx);
	int i, k, nk = 0, ne = 0;

	if (!g || !idx) {
		sb_free(g);
		sb_free(idx);
		return sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
	}
	for (i = 0; i < n; i++)
		if (keep[i]) {
			idx[i] = nk++;
			for (k = soff[i]; k < soff[i + 1]; k++)
				ne++;
		}
	g->n = nk;
	g->fwd = sb_calloc((size_t)nk + 1, sizeof *g->fwd);
	g->bwd = sb_calloc((size_t)nk + 1, sizeof *g->bwd);
	g->act = sb_calloc((size_t)nk + 1, sizeof *g->act);
	g->params = sb_calloc((size_t)nk + 1, sizeof *g->params);
	g->layer = sb_calloc((size_t)nk + 1, sizeof *g->layer);
	g->off = sb_calloc((size_t)nk + 2, sizeof *g->off);
	g->succ = sb_calloc((size_t)ne + 1, sizeof *g->succ);
	m->graph = g;
	if (!g->fwd || !g->bwd || !g->act || !g->params || !g->layer || !g->off || !g->succ) {
		sb_free(idx);
		return sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
	}
	for (i = 0, ne = 0; i < n; i++) {
		int v;
		if (!keep[i])
			continue;
		v = idx[i];
		/* the same per-sample units as the chain's layers */
		g->fwd[v] = nd[i].f / 1000.0 / pbs;
		g->bwd[v] = nd[i].b / 1000.0 / pbs;
		g->act[v] = nd[i].a * scale / pbs;
		g->params[v] = nd[i].p * scale;
		g->layer[v] = lay[i];
		for (k = soff[i]; k < soff[i + 1]; k++)
			g->succ[ne++] = idx[succ[k]];
		g->off[v + 1] = ne;
	}
	sb_free(idx);
	return 0;
}

/*
 * Fill m->layer / m->n from the nodes nd[0..n) and the distinct edges
 * e[2k] -> e[2k+1] (node indices, acyclic). scale converts the file's
 * size unit to bytes.
 */
static int linearise(const struct sb_wl_file *f, struct sb_err *err, int n,
		     const struct pnode *nd, int ne, const int *e, int pbs,
		     double scale, struct sb_pmodel *m)
{
	int *keep = sb_calloc((size_t)n + 1, sizeof *keep);
	int *soff = sb_calloc((size_t)n + 1, sizeof *soff);
	int *poff = sb_calloc((size_t)n + 1, sizeof *poff);
	int *succ = sb_malloc(((size_t)ne + 1) * sizeof *succ);
	int *pred = sb_malloc(((size_t)ne + 1) * sizeof *pred);
	int *fill = sb_calloc((size_t)n + 1, sizeof *fill);
	long *rank = sb_malloc(((size_t)n + 1) * sizeof *rank);
	int *indeg = sb_calloc((size_t)n + 1, sizeof *indeg);
	int *inD = sb_calloc((size_t)n + 1, sizeof *inD);
	int *rem = sb_calloc((size_t)n + 1, sizeof *rem);
	int *stack = sb_malloc(((size_t)n + 1) * sizeof *stack);
	int *lay = sb_malloc(((size_t)n + 1) * sizeof *lay);
	struct iheap h = { sb_malloc(((size_t)ne + n + 1) * sizeof(long)),
			   sb_malloc(((size_t)ne + n + 1) * sizeof(int)), 0 };
	int i, k, rc = 0, nk = 0, nD = 0, nl = 0, cursor = 0;
	double cross = 0;

	if (!keep || !soff || !poff || !succ || !pred || !fill || !rank || !indeg ||
	    !inD || !rem || !stack || !lay || !h.key || !h.val) {
		rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	/* Step 1: drop Input sources, then __getitem__ sinks. */
	for (k = 0; k < ne; k++) {
		indeg[e[2 * k + 1]]++;
		fill[e[2 * k]]++;
	}
	for (i = 0; i < n; i++)
		keep[i] = !(indeg[i] == 0 && starts_with(nd[i].desc, "Input"));
	for (i = 0; i < n; i++)
		if (keep[i] && fill[i] == 0 && starts_with(nd[i].desc, "__getitem__"))
			keep[i] = 0;
	for (i = 0; i < n; i++)
		nk += keep[i];
	if (nk == 0) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, 0, NULL,
				"no node left once the Input sources and __getitem__ "
				"sinks are dropped");
		goto out;
	}
	/* CSR of the kept graph. */
	memset(indeg, 0, (size_t)n * sizeof *indeg);
	memset(fill, 0, (size_t)n * sizeof *fill);
	for (k = 0; k < ne; k++)
		if (keep[e[2 * k]] && keep[e[2 * k + 1]]) {
			soff[e[2 * k] + 1]++;
			poff[e[2 * k + 1] + 1]++;
			indeg[e[2 * k + 1]]++;
		}
	for (i = 0; i < n; i++) {
		soff[i + 1] += soff[i];
		poff[i + 1] += poff[i];
	}
	for (k = 0; k < ne; k++) {
		int u = e[2 * k], v = e[2 * k + 1];
		if (keep[u] && keep[v]) {
			succ[soff[u] + fill[u]++] = v;
			pred[poff[v] + rem[v]++] = u;
		}
	}
	memset(rem, 0, (size_t)n * sizeof *rem);

	/* Step 2: Kahn's order, smallest id first. */
	for (i = 0; i < n; i++) {
		rank[i] = LONG_MAX;
		if (keep[i] && indeg[i] == 0)
			ih_push(&h, nd[i].id, i);
	}
	for (k = 0; h.n > 0; k++) {
		int u = ih_pop(&h);
		rank[u] = k;
		for (i = soff[u]; i < soff[u + 1]; i++)
			if (--indeg[succ[i]] == 0)
				ih_push(&h, nd[succ[i]].id, succ[i]);
	}
	SB_ASSERT(k == nk);

	/* Steps 3 and 4: walk one path of PipeDream's antichain DAG. The
	 * cursor runs over the nodes in file order (sources are taken in the
	 * order PipeDream's sources() lists them). */
	m->layer = sb_calloc((size_t)nk, sizeof *m->layer);
	if (!m->layer) {
		rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	while (nD < nk) {
		struct sb_layer *l = &m->layer[nl];
		double fs = 0, bs = 0, as = 0, ps = 0, sinks = 0;
		int y = -1, top = 0;

		while (h.n > 0 && y < 0) {
			int v = ih_pop(&h);
			if (!inD[v])
				y = v;
		}
		if (y < 0) { /* the start, or a new weakly connected component */
			while (!keep[cursor] || inD[cursor] || poff[cursor] != poff[cursor + 1])
				cursor++;
			y = cursor;
		}
		stack[top++] = y;
		while (top > 0) {
			int v = stack[--top];
			if (inD[v])
				continue;
			inD[v] = 1;
			lay[v] = nl;
			nD++;
			fs += nd[v].f;
			bs += nd[v].b;
			as += nd[v].a;
			ps += nd[v].p;
			for (i = soff[v]; i < soff[v + 1]; i++)
				if (!inD[succ[i]]) {
					rem[v]++;
					ih_push(&h, rank[succ[i]], succ[i]);
				}
			if (rem[v] > 0)
				cross += nd[v].a;
			if (soff[v] == soff[v + 1])
				sinks += nd[v].a;
			for (i = poff[v]; i < poff[v + 1]; i++) {
				int p = pred[i];
				if (!inD[p])
					stack[top++] = p;
				else if (--rem[p] == 0)
					cross -= nd[p].a;
			}
		}
		snprintf(l->name, sizeof l->name, "node%ld %s", nd[y].id, nd[y].desc);
		l->fwd = fs / 1000.0 / pbs;
		l->bwd = bs / 1000.0 / pbs;
		l->stash = as * scale / pbs;
		l->params = ps * scale;
		if (nD == nk)
			cross = 0; /* nothing left to cross; drop rounding residue */
		l->act = (nD == nk ? sinks : (cross > 0 ? cross : 0)) * scale / pbs;
		nl++;
	}
	m->n = nl;
	rc = keep_graph(f, err, n, nd, keep, soff, succ, lay, pbs, scale, m);
out:
	sb_free(lay);
	sb_free(keep);
	sb_free(soff);
	sb_free(poff);
	sb_free(succ);
	sb_free(pred);
	sb_free(fill);
	sb_free(rank);
	sb_free(indeg);
	sb_free(inD);
	sb_free(rem);
	sb_free(stack);
	sb_free(h.key);
	sb_free(h.val);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Loading                                                             */
/* ------------------------------------------------------------------ */

struct id_at {
	long id;
	int idx;
};

static int cmp_id_at(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;
	if (x->id != y->id)
		return (x->id > y->id) - (x->id < y->id);
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int find_id(const struct id_at *s, int n, long id)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		if (s[mid].id == id)
			return s[mid].idx;
		if (s[mid].id < id)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* The common loader: what = "pipedream profile" / "dapple profile"; note
 * (may be "") ends the source string. */
static int load_profile(const char *what, const char *path, int pbs,
			double scale, const char *note, struct sb_pmodel *m,
			struct sb_err *err)
{
	struct sb_wl_file f;
	struct pnode *nd = NULL;
	struct pedge *pe = NULL;
	struct id_at *byid = NULL;
	int *e = NULL, *eline = NULL, *eu = NULL, *ev = NULL, *cyc = NULL;
	long *ext = NULL;
	size_t cap_n = 0, cap_e = 0;
	int n = 0, ne = 0, nd_e = 0, rc, i, k;
	char *line, *base = NULL;

	memset(m, 0, sizeof *m);
	rc = sb_wl_open(&f, what, path, err);
	if (rc)
		return rc;
	if (pbs < 1) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL,
				"profile batch size %d, expected >= 1", pbs);
		goto out;
	}
	while ((line = sb_wl_next(&f))) {
		void *t;
		if (!*sb_wl_trim(line))
			continue;
		if (*line == ' ' || *line == '\t') {
			/* sb_wl_trim returned a pointer past the blanks but left
			 * the line itself starting with them. */
			if (ne >= PROF_MAX_NODES * 4) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"more than %d edges", PROF_MAX_NODES * 4);
				goto out;
			}
			if (!(t = sb_wl_grow(pe, &cap_e, (size_t)ne + 1, sizeof *pe))) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			pe = t;
			if ((rc = parse_edge(&f, err, line, &pe[ne])))
				goto out;
			ne++;
		} else {
			if (n >= PROF_MAX_NODES) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"more than %d nodes", PROF_MAX_NODES);
				goto out;
			}
			if (!(t = sb_wl_grow(nd, &cap_n, (size_t)n + 1, sizeof *nd))) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			nd = t;
			if ((rc = parse_node(&f, err, line, &nd[n])))
				goto out;
			n++;
		}
	}
	if (n == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"no node lines (empty file?)");
		goto out;
	}

	/* Ids: unique; edges: known ids, merged duplicates, no cycle. */
	byid = sb_malloc((size_t)n * sizeof *byid);
	e = sb_malloc(((size_t)ne + 1) * 3 * sizeof *e);
	ext = sb_malloc((size_t)n * sizeof *ext);
	if (!byid || !e || !ext) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		byid[i].id = nd[i].id;
		byid[i].idx = i;
		ext[i] = nd[i].id;
	}
	qsort(byid, (size_t)n, sizeof *byid, cmp_id_at);
	for (i = 1; i < n; i++)
		if (byid[i].id == byid[i - 1].id) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[byid[i].idx].line,
					"node id", "duplicate node id node%ld (also on line %d)",
					byid[i].id, nd[byid[i - 1].idx].line);
			goto out;
		}
	for (k = 0; k < ne; k++) {
		int u = find_id(byid, n, pe[k].u), v = find_id(byid, n, pe[k].v);
		if (u < 0 || v < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, pe[k].line, "edge",
					"unknown node id node%ld", u < 0 ? pe[k].u : pe[k].v);
			goto out;
		}
		e[3 * k] = u;
		e[3 * k + 1] = v;
		e[3 * k + 2] = pe[k].line;
	}
	qsort(e, (size_t)ne, 3 * sizeof *e, cmp_edge);
	eu = sb_malloc(((size_t)ne + 1) * sizeof *eu);
	ev = sb_malloc(((size_t)ne + 1) * sizeof *ev);
	eline = sb_malloc(((size_t)ne + 1) * sizeof *eline);
	cyc = sb_malloc(((size_t)n + 1) * sizeof *cyc);
	if (!eu || !ev || !eline || !cyc) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (k = 0; k < ne; k++) {
		if (nd_e > 0 && eu[nd_e - 1] == e[3 * k] && ev[nd_e - 1] == e[3 * k + 1])
			continue;
		eu[nd_e] = e[3 * k];
		ev[nd_e] = e[3 * k + 1];
		eline[nd_e++] = e[3 * k + 2];
	}
	{
		int len = sb_wl_find_cycle(n, nd_e, eu, ev, cyc);
		if (len < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		if (len > 0) {
			char c[200];
			int x = cyc[len - 1];
			sb_wl_cycle_str(c, sizeof c, ext, eu, cyc, len);
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, eline[x], "edge",
					"node%ld -- node%ld closes a cycle (%s)",
					ext[eu[x]], ext[ev[x]], c);
			goto out;
		}
	}
	for (k = 0; k < nd_e; k++) {
		e[2 * k] = eu[k];
		e[2 * k + 1] = ev[k];
	}
	if ((rc = linearise(&f, err, n, nd, nd_e, e, pbs, scale, m)))
		goto out;

	/* Name: the directory of ".../<model>/graph.txt", else the file. */
	base = sb_wl_basename(path);
	if (!base) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	if (!strcmp(base, "graph")) {
		const char *end = strrchr(path, '/'), *start;
		if (end && end > path) {
			for (start = end; start > path && start[-1] != '/'; start--)
				;
			snprintf(m->name, sizeof m->name, "%.*s", (int)(end - start), start);
		}
	}
	if (!m->name[0])
		snprintf(m->name, sizeof m->name, "%s", base);
	m->pbs = pbs;
	snprintf(m->source, sizeof m->source,
		 "real: %s (%s, pbs %d, %d nodes -> %d layers%s)", path,
		 !strcmp(what, "dapple profile") ? "DAPPLE profile" : "PipeDream graph.txt",
		 pbs, n, m->n, note);
out:
	sb_wl_close(&f);
	sb_free(nd);
	sb_free(pe);
	sb_free(byid);
	sb_free(e);
	sb_free(ext);
	sb_free(eu);
	sb_free(ev);
	sb_free(eline);
	sb_free(cyc);
	sb_free(base);
	if (rc)
		sb_pmodel_release(m);
	return rc;
}

int sb_load_pipedream_profile(const char *path, int pbs, struct sb_pmodel *m,
			      struct sb_err *err)
{
	return load_profile("pipedream profile", path, pbs, 1.0, "", m, err);
}

int sb_load_dapple_profile(const char *path, struct sb_pmodel *m,
			   struct sb_err *err)
{
	const char *b = strrchr(path, '/'), *p;
	struct sb_err tmp = { 0 };
	char sha[65];
	long pbs = 0;

	memset(m, 0, sizeof *m);
	b = b ? b + 1 : path;
	for (p = strstr(b, "-pbs-"); p; p = strstr(p + 1, "-pbs-")) {
		const char *d = p + 5;
		pbs = 0;
		while (*d >= '0' && *d <= '9' && pbs <= INT_MAX)
			pbs = pbs * 10 + (*d++ - '0');
		if (d > p + 5 && pbs >= 1 && pbs <= INT_MAX)
			break;
		pbs = 0;
	}
	if (pbs < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "cannot read dapple profile '%s': the file name has no "
				  "'-pbs-<N>' (profile batch size %s)", path,
				  "1..2147483647; read batch-less files with the "
				  "PipeDream loader");
	if (sb_sha256_file(path, sha, &tmp) == 0 && !strcmp(sha, DAPPLE_VGG19_SHA256))
		return load_profile("dapple profile", path, (int)pbs, MIB_MICRO,
				    "; sizes read in 1e-6 MiB (hand-edited file)", m, err);
	return load_profile("dapple profile", path, (int)pbs, 1.0, "", m, err);
}

/* ------------------------------------------------------------------ */
/* Analytic profiles                                                   */
/* ------------------------------------------------------------------ */

/*
 * Roofline per operator: time = FLOPs/(peak*u) + bytes/HBM_BW, summed over
 * the operators of a layer; backward = 2x the forward FLOPs except for
 * element-wise operators (1x), and 2x the forward bytes (gradients in and
 * out). Bytes moved = activation values read and written times the bytes
 * per value, plus the operator's weights once per microbatch of ROOF_BREF
 * samples (an embedding reads only its looked-up rows). Parameters are
 * fp32 (4 bytes) in every model.
 *
 * Precision per model, chosen to match the measured V100 profiles we
 * calibrate against: DAPPLE's VGG-19 runs its convolutions at up to 33
 * TFLOP/s (more than the 15.7 of fp32), so it was mixed precision on the
 * tensor cores; PipeDream's ResNet-50 (5.7 TFLOP/s), DAPPLE's BERT-48 (7.6
 * TFLOP/s per layer) and GNMT-16 reach fp32 rates. GPT-2 XL, which has no
 * measured profile, is mixed precision as it is always trained.
 *
 * u per operator type (fraction of peak) was calibrated on those four
 * profiles (tests/test_pipeload.c prints the ratios); 3x3 convolutions
 * in fp32 exceed u = 1 of the nominal FLOP count because cuDNN uses
 * Winograd/FFT algorithms. The first convolution (3 input channels) and
 * the element-wise operators are bound by memory.
 */
enum op_kind { OP_CONV, OP_CONV_IN, OP_FC, OP_GEMM, OP_ATTN, OP_LSTM, OP_ELEM,
	       OP_KINDS };

struct prec {
	const char *label;
	double peak;          /* FLOP/s */
	double ab;            /* bytes per activation value */
	double u[OP_KINDS];
};

static const struct prec prec_fp32 = {
	"fp32", SB_V100_FP32_FLOPS, 4,
	/* conv  conv_in  fc    gemm  attn  lstm  elem */
	{ 0.65, 0.25,    0.6,  0.6,  0.3,  0.85, 1.0 },
};

static const struct prec prec_fp16 = {
	"fp16 tensor cores", SB_V100_FP16_FLOPS, 2,
	{ 0.25, 0.05,    0.15, 0.35, 0.15, 0.2,  1.0 },
};

/* Samples over which one read of an operator's weights is spread. */
#define ROOF_BREF 32.0
#define AN_MAX_LAYERS 64

struct builder {
	struct sb_pmodel *m;
	const struct prec *pr;
	struct sb_layer *cur;
};

/* Start a layer whose input holds in_vals activation values (stashed). */
static void an_layer(struct builder *b, const char *name, double in_vals)
{
	SB_ASSERT(b->m->n < AN_MAX_LAYERS);
	b->cur = &b->m->layer[b->m->n++];
	snprintf(b->cur->name, sizeof b->cur->name, "%s", name);
	b->cur->stash = in_vals * b->pr->ab;
}

/* One operator: flops, activation values moved, weights read. */
static void an_op(struct builder *b, int kind, double flops, double vals,
		  double wread)
{
	double c = flops / (b->pr->peak * b->pr->u[kind]);
	double mem = (vals * b->pr->ab + 4 * wread / ROOF_BREF) / SB_V100_HBM_BW;

	b->cur->fwd += c + mem;
	b->cur->bwd += (kind == OP_ELEM ? 1 : 2) * c + 2 * mem;
}

static void an_params(struct builder *b, double np)
{
	b->cur->params += 4 * np;
}

static void an_stash(struct builder *b, double vals)
{
	b->cur->stash += vals * b->pr->ab;
}

static void an_out(struct builder *b, double vals)
{
	b->cur->act = vals * b->pr->ab;
}

/* k x k convolution to cout x h x h with the given stride, optional bias,
 * batch norm (2 parameters per channel) and ReLU. */
static void an_conv(struct builder *b, int k, int cin, int cout, int h,
		    int stride, int bias, int bn, int relu)
{
	double out = (double)cout * h * h, hin = (double)h * stride;
	double in = cin * hin * hin, np = (double)k * k * cin * cout + (bias ? cout : 0);

	an_op(b, cin <= 4 ? OP_CONV_IN : OP_CONV, 2.0 * k * k * cin * cout * h * h,
	      in + out, np);
	an_params(b, np);
	an_stash(b, out);
	if (bn) {
		an_op(b, OP_ELEM, 4 * out, 2 * out, 2.0 * cout);
		an_params(b, 2.0 * cout);
		an_stash(b, out);
	}
	if (relu)
		an_op(b, OP_ELEM, out, 2 * out, 0);
	an_out(b, out);
}

static void an_fc(struct builder *b, double in, double out, double rows, int relu)
{
	double np = in * out + out;

	an_op(b, OP_FC, 2 * in * out * rows, rows * (in + out), np);
	an_params(b, np);
	an_stash(b, rows * out);
	if (relu)
		an_op(b, OP_ELEM, rows * out, 2 * rows * out, 0);
	an_out(b, rows * out);
}

/* Softmax cross-entropy over vals logits. */
static void an_loss(struct builder *b, double vals)
{
	an_op(b, OP_ELEM, 5 * vals, 3 * vals, 0);
	an_stash(b, vals);
	an_out(b, 1);
}

static void an_pool(struct builder *b, int c, int hout, int k)
{
	double out = (double)c * hout * hout;

	an_op(b, OP_ELEM, (double)k * k * out, (double)k * k * out + out, 0);
	an_stash(b, out);
	an_out(b, out);
}

/* ---- VGG-19: 16 convolutions (ReLU folded in), 5 max-pools, 3 FC. */
static void model_vgg19(struct builder *b)
{
	static const int plan[5][2] = { { 2, 64 }, { 2, 128 }, { 4, 256 },
					{ 4, 512 }, { 4, 512 } };
	int s, i, cin = 3, h = 224;
	char name[48];

	for (s = 0; s < 5; s++) {
		for (i = 0; i < plan[s][0]; i++) {
			snprintf(name, sizeof name, "conv%d_%d", s + 1, i + 1);
			an_layer(b, name, (double)cin * h * h);
			an_conv(b, 3, cin, plan[s][1], h, 1, 1, 0, 1);
			cin = plan[s][1];
		}
		snprintf(name, sizeof name, "pool%d", s + 1);
		an_layer(b, name, (double)cin * h * h);
		h /= 2;
		an_pool(b, cin, h, 2);
	}
	an_layer(b, "fc6", 25088);
	an_fc(b, 25088, 4096, 1, 1);
	an_layer(b, "fc7", 4096);
	an_fc(b, 4096, 4096, 1, 1);
	an_layer(b, "fc8", 4096);
	an_fc(b, 4096, 1000, 1, 0);
	an_layer(b, "loss", 1000);
	an_loss(b, 1000);
}

/* ---- ResNet-50 (torchvision v1.5: stride on the 3x3 convolution): stem,
 * 16 bottleneck blocks (one layer each, so every cut carries one tensor),
 * head. */
static void model_resnet50(struct builder *b)
{
	static const int blocks[4] = { 3, 4, 6, 3 };
	int s, i, cin = 64, h = 56;
	char name[48];

	an_layer(b, "stem", 3.0 * 224 * 224);
	an_conv(b, 7, 3, 64, 112, 2, 0, 1, 1);
	an_pool(b, 64, 56, 3);
	for (s = 0; s < 4; s++) {
		int w = 64 << s;
		for (i = 0; i < blocks[s]; i++) {
			int stride = (s > 0 && i == 0) ? 2 : 1, hin = h;
			double out;
			h = hin / stride;
			out = 4.0 * w * h * h;
			snprintf(name, sizeof name, "block%d_%d", s + 1, i + 1);
			an_layer(b, name, (double)cin * hin * hin);
			an_conv(b, 1, cin, w, hin, 1, 0, 1, 1);
			an_conv(b, 3, w, w, h, stride, 0, 1, 1);
			an_conv(b, 1, w, 4 * w, h, 1, 0, 1, 0);
			if (i == 0)
				an_conv(b, 1, cin, 4 * w, h, stride, 0, 1, 0);
			an_op(b, OP_ELEM, 2 * out, 4 * out, 0); /* add + ReLU */
			an_stash(b, out);
			an_out(b, out);
			cin = 4 * w;
		}
	}
	an_layer(b, "head", 2048.0 * 7 * 7);
	an_op(b, OP_ELEM, 2048.0 * 49, 2048.0 * 50, 0); /* average pool */
	an_fc(b, 2048, 1000, 1, 0);
	an_loss(b, 1000);
}

/* ---- Transformers (BERT, GPT-2). */
static void an_transformer(struct builder *b, double H, double s, double a)
{
	double sH = s * H, as2 = a * s * s;

	/* QKV, output projection and the two FFN GEMMs: 24sH^2 FLOPs. */
	an_op(b, OP_GEMM, 24 * s * H * H, 16 * sH, 12 * H * H + 9 * H);
	/* QK^T and attention x V: 4s^2H FLOPs. */
	an_op(b, OP_ATTN, 4 * s * s * H, 2 * as2 + 4 * sH, 0);
	/* softmax, dropouts, GELU, two layer norms, two residual adds. */
	an_op(b, OP_ELEM, 5 * as2 + 40 * sH, 4 * as2 + 22 * sH, 4 * H);
	an_params(b, 12 * H * H + 13 * H);
	/* Korthikanti et al.: sH(34 + 5as/H) bytes in fp16; the 2-byte
	 * values double in fp32 (the 1-byte masks are counted as 2 too). */
	b->cur->stash = sH * (34 + 5 * a * s / H) * (b->pr->ab / 2);
	an_out(b, sH);
}

static void an_embedding(struct builder *b, double rows, double H, double np)
{
	/* Gather the rows, add positions (and types), layer norm, dropout. */
	an_op(b, OP_ELEM, 10 * rows * H, 8 * rows * H, 0);
	an_params(b, np);
	an_stash(b, 2 * rows * H);
	an_out(b, rows * H);
}

/* BERT at sequence length 384 (SQuAD, as DAPPLE's profiles), vocabulary
 * 30522, 512 positions, 2 token types; head = pooler + span classifier. */
static void model_bert(struct builder *b, int L)
{
	const double H = 1024, s = 384, a = 16, V = 30522;
	char name[48];
	int i;

	an_layer(b, "embeddings", 2 * s);
	an_embedding(b, s, H, (V + 512 + 2) * H + 2 * H);
	for (i = 0; i < L; i++) {
		snprintf(name, sizeof name, "layer%d", i);
		an_layer(b, name, s * H);
		an_transformer(b, H, s, a);
	}
	an_layer(b, "head", s * H);
	an_fc(b, H, H, 1, 0);    /* pooler on [CLS] */
	an_fc(b, H, 2, s, 0);    /* start/end logits */
	an_loss(b, 2 * s);
}

/* GPT-2 XL: s = 1024, vocabulary 50257, 1024 positions; the LM head is tied
 * to the token embedding (its weights are counted once, at the
 * embedding). */
static void model_gpt2xl(struct builder *b)
{
	const double H = 1600, s = 1024, a = 25, V = 50257;
	char name[48];
	int i;

	an_layer(b, "embeddings", s);
	an_embedding(b, s, H, (V + 1024) * H);
	for (i = 0; i < 48; i++) {
		snprintf(name, sizeof name, "layer%d", i);
		an_layer(b, name, s * H);
		an_transformer(b, H, s, a);
	}
	an_layer(b, "head", s * H);
	an_op(b, OP_ELEM, 8 * s * H, 2 * s * H, 2 * H);   /* final layer norm */
	an_params(b, 2 * H);
	an_op(b, OP_GEMM, 2 * s * H * V, s * (H + V), V * H); /* tied LM head */
	an_stash(b, s * H + s * V);
	an_loss(b, s * V);
}

/* ---- GNMT-16: 8 encoder layers (the first bidirectional) and 8 decoder
 * layers (the first with Bahdanau attention; the others take the attention
 * context as extra input), h = 1024, vocabulary 36560 (DAPPLE's profile),
 * source/target lengths 35/36 (the activation sizes of DAPPLE's
 * gnmt-16-pbs-64.txt). */
static void an_lstm(struct builder *b, double x, double h, double T, int dirs,
		    int residual)
{
	double np = dirs * (4 * h * (x + h) + 8 * h);

	an_op(b, OP_LSTM, dirs * 8 * h * (x + h) * T, dirs * T * (x + 12 * h), np);
	an_params(b, np);
	an_stash(b, dirs * T * (x + 5 * h));
	if (residual)
		an_op(b, OP_ELEM, T * h, 3 * T * h, 0);
	an_out(b, dirs * T * h);
}

static void model_gnmt16(struct builder *b)
{
	const double h = 1024, V = 36560, Ts = 35, Tt = 36;
	char name[48];
	int i;

	an_layer(b, "enc_embedding", Ts);
	an_embedding(b, Ts, h, V * h);
	an_layer(b, "enc_lstm0", Ts * h);
	an_lstm(b, h, h, Ts, 2, 0);
	an_layer(b, "enc_lstm1", 2 * Ts * h);
	an_lstm(b, 2 * h, h, Ts, 1, 0);
	for (i = 2; i < 8; i++) {
		snprintf(name, sizeof name, "enc_lstm%d", i);
		an_layer(b, name, Ts * h);
		an_lstm(b, h, h, Ts, 1, 1);
	}
	/* From here on the encoder output crosses every cut up to the
	 * attention layer, and the context every later one. */
	an_layer(b, "dec_embedding", Ts * h + Tt);
	an_embedding(b, Tt, h, V * h);
	b->cur->act += Ts * h * b->pr->ab;
	an_layer(b, "dec_lstm0_attention", (Ts + Tt) * h);
	an_lstm(b, h, h, Tt, 1, 0);
	an_op(b, OP_FC, 2 * h * h * (Ts + Tt), 2 * (Ts + Tt) * h, 2 * h * h);
	an_op(b, OP_ATTN, 5 * Tt * Ts * h, 3 * Tt * Ts + 2 * Tt * h, 2 * h + 1);
	an_params(b, 2 * h * h + 2 * h + 1);
	an_stash(b, Tt * Ts + Tt * h);
	an_out(b, 2 * Tt * h);
	for (i = 1; i < 8; i++) {
		snprintf(name, sizeof name, "dec_lstm%d", i);
		an_layer(b, name, 2 * Tt * h);
		an_lstm(b, 2 * h, h, Tt, 1, i >= 2);
		an_out(b, (i < 7 ? 2 : 1) * Tt * h);
	}
	an_layer(b, "classifier", Tt * h);
	an_fc(b, h, V, Tt, 0);
	an_loss(b, Tt * V);
}


static const char *const an_names[] = {
	"vgg19", "resnet50", "bert-large", "bert-48", "gpt2-xl", "gnmt-16",
};

const char *const *sb_analytic_names(int *n)
{
	*n = (int)(sizeof an_names / sizeof an_names[0]);
	return an_names;
}

int sb_analytic_model(const char *name, struct sb_pmodel *m, struct sb_err *err)
{
	struct builder b;
	const char *desc;
	int k = -1, i, nn;

	memset(m, 0, sizeof *m);
	sb_analytic_names(&nn);
	for (i = 0; i < nn; i++)
		if (!strcmp(name, an_names[i]))
			k = i;
	if (k < 0)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "unknown analytic model '%s' (known: vgg19, resnet50, "
				  "bert-large, bert-48, gpt2-xl, gnmt-16)", name);
	m->layer = sb_calloc(AN_MAX_LAYERS, sizeof *m->layer);
	if (!m->layer)
		return sb_err_set(err, SB_EXIT_RUN,
				  "cannot build analytic model '%s': out of memory", name);
	b.m = m;
	b.cur = NULL;
	b.pr = (k == 0 || k == 4) ? &prec_fp16 : &prec_fp32;
	switch (k) {
	case 0:
		model_vgg19(&b);
		desc = "VGG-19, 224x224";
		break;
	case 1:
		model_resnet50(&b);
		desc = "ResNet-50 v1.5, 224x224, one layer per bottleneck block";
		break;
	case 2:
		model_bert(&b, 24);
		desc = "BERT-Large, L=24 H=1024 a=16 s=384";
		break;
	case 3:
		model_bert(&b, 48);
		desc = "BERT-48, L=48 H=1024 a=16 s=384";
		break;
	case 4:
		model_gpt2xl(&b);
		desc = "GPT-2 XL, L=48 H=1600 a=25 s=1024";
		break;
	default:
		model_gnmt16(&b);
		desc = "GNMT-16, 8+8 LSTM h=1024, vocab 36560, T=35/36";
		break;
	}
	snprintf(m->name, sizeof m->name, "%s", name);
	m->pbs = 1;
	snprintf(m->source, sizeof m->source,
		 "analytic: %s; %s activations; V100 roofline (pipeplan.md §5)",
		 desc, b.pr->label);
	return 0;
}
