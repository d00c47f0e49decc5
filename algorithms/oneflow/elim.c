/*
 * elim.c - OneFlow's auto-parallel SBP search: graph elimination, then a
 * greedy neighbourhood search. Family: sbp. OneFlow repository algorithm
 * (newer than the paper), not the paper's.
 *
 * Oneflow-Inc/oneflow, oneflow/core/auto_parallel/sbp_graph.h and
 * sbp_constructor.cpp; J. Yuan et al., "OneFlow: Redesign the Distributed
 * Deep Learning Framework from Scratch", arXiv:2110.15032, 2021.
 *
 * The graph of ops (nodes with a cost per signature) and edges (a cost
 * matrix per pair of signatures) is reduced until nothing changes:
 * edge elimination sums parallel edges; child elimination folds a node of
 * degree 1 into its neighbour's cost vector (keeping, per neighbour
 * signature, the best of the leaf); node elimination replaces a node of
 * degree 2 by one edge between its neighbours (keeping the best middle
 * signature per pair). When stuck, two adjacent nodes whose signature
 * product is at most `cap` (OneFlow: 100) are merged into one. What
 * remains is assigned greedily, the eliminated nodes are restored in
 * reverse order, and a local search tries every signature of one node and
 * every pair of signatures of two adjacent nodes until no move improves.
 * Exact on chains and trees (child and node elimination are exact there).
 *
 * Verified [V, code]: the three eliminations, merging with a cap of 100,
 * greedy improvement afterwards. Ours [O]: the order of eliminations, the
 * assignment of what cannot be eliminated, and the neighbourhood (OneFlow
 * brute-forces neighbourhoods of up to 4 nodes; we use 1 and 2).
 *
 * Family: sbp (core/sbp/).
 */
#include "sbp/sbp.h"

#include <math.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "cap", 100, 1, 100000, 1, "largest signature product of a merged node (OneFlow: 100)" },
	{ "passes", 50, 0, 10000, 1, "most local-search passes" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct wnode {
	int k;               /* states */
	double *c;           /* cost per state (owned) */
	int alive;
	int *e, ne, cap;     /* incident edges (may hold dead ones) */
};

struct wedge {
	int a, b;
	double *m;           /* k_a x k_b, row-major (owned) */
	int alive;
};

enum { R_CHILD, R_NODE, R_MERGE };

struct rec {
	int type, x, a, b;   /* child: x into a; node: x between a, b; merge:
	                        x = merged node of a (outer) and b (inner) */
	int *best;           /* child: per state of a; node: per (a, b) pair */
};

struct work {
	struct wnode *n;
	int nn;
	struct wedge *e;
	int ne, ecap;
	struct rec *r;
	int nr, rcap;
};

static void add_inc(struct wnode *v, int e)
{
	if (v->ne == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 4;
		v->e = sb_xrealloc(v->e, sizeof *v->e * (size_t)v->cap);
	}
	v->e[v->ne++] = e;
}

/* the alive edge between a and b, or -1 */
static int find_edge(const struct work *w, int a, int b)
{
	int i;
	for (i = 0; i < w->n[a].ne; i++) {
		const struct wedge *ed = &w->e[w->n[a].e[i]];
		if (ed->alive && ((ed->a == a && ed->b == b) || (ed->a == b && ed->b == a)))
			return w->n[a].e[i];
	}
	return -1;
}

/* Add cost matrix m (k_a x k_b, owned by the caller) between a and b:
 * summed into an existing edge (edge elimination) or a new edge. */
static void add_edge(struct work *w, int a, int b, const double *m)
{
	int ka = w->n[a].k, kb = w->n[b].k, e = find_edge(w, a, b), i, j;
	if (e >= 0) {
		struct wedge *ed = &w->e[e];
		for (i = 0; i < ka; i++)
			for (j = 0; j < kb; j++)
				ed->m[ed->a == a ? i * kb + j : j * ka + i] += m[i * kb + j];
		return;
	}
	if (w->ne == w->ecap) {
		w->ecap = w->ecap ? 2 * w->ecap : 64;
		w->e = sb_xrealloc(w->e, sizeof *w->e * (size_t)w->ecap);
	}
	e = w->ne++;
	w->e[e].a = a;
	w->e[e].b = b;
	w->e[e].alive = 1;
	w->e[e].m = sb_xmalloc(sizeof(double) * (size_t)ka * (size_t)kb);
	memcpy(w->e[e].m, m, sizeof(double) * (size_t)ka * (size_t)kb);
	add_inc(&w->n[a], e);
	add_inc(&w->n[b], e);
}

/* cost of edge e with `from` in state s and the other end in state t */
static double ecost(const struct work *w, int e, int from, int s, int t)
{
	const struct wedge *ed = &w->e[e];
	int kb = w->n[ed->b].k;
	return ed->a == from ? ed->m[s * kb + t] : ed->m[t * kb + s];
}

static int other(const struct work *w, int e, int v)
{
	return w->e[e].a == v ? w->e[e].b : w->e[e].a;
}

/* alive incident edges of v: count, and the first two */
static int degree(struct work *w, int v, int *e2)
{
	struct wnode *n = &w->n[v];
	int i, d = 0, k = 0;
	for (i = 0; i < n->ne; i++)
		if (w->e[n->e[i]].alive) {
			if (d < 2)
				e2[d] = n->e[i];
			d++;
			n->e[k++] = n->e[i];   /* drop dead ones as we go */
		}
	n->ne = k;
	return d;
}

static struct rec *new_rec(struct work *w, int type, int x, int a, int b, size_t nbest)
{
	struct rec *r;
	if (w->nr == w->rcap) {
		w->rcap = w->rcap ? 2 * w->rcap : 64;
		w->r = sb_xrealloc(w->r, sizeof *w->r * (size_t)w->rcap);
	}
	r = &w->r[w->nr++];
	r->type = type, r->x = x, r->a = a, r->b = b;
	r->best = nbest ? SB_NEW(int, nbest) : NULL;
	return r;
}

static void child_elim(struct work *w, int c, int e)
{
	int u = other(w, e, c), s, t, ku = w->n[u].k, kc = w->n[c].k;
	struct rec *r = new_rec(w, R_CHILD, c, u, -1, (size_t)ku);
	for (s = 0; s < ku; s++) {
		double best = INFINITY;
		for (t = 0; t < kc; t++) {
			double v = w->n[c].c[t] + ecost(w, e, u, s, t);
			if (v < best)
				best = v, r->best[s] = t;
		}
		w->n[u].c[s] += best;
	}
	w->e[e].alive = 0;
	w->n[c].alive = 0;
}

static void node_elim(struct work *w, int m, int e1, int e2)
{
	int a = other(w, e1, m), b = other(w, e2, m), ka = w->n[a].k, kb = w->n[b].k;
	int km = w->n[m].k, s, t, x;
	struct rec *r = new_rec(w, R_NODE, m, a, b, (size_t)ka * (size_t)kb);
	double *mat = sb_xmalloc(sizeof(double) * (size_t)ka * (size_t)kb);
	for (s = 0; s < ka; s++)
		for (t = 0; t < kb; t++) {
			double best = INFINITY;
			for (x = 0; x < km; x++) {
				double v = ecost(w, e1, a, s, x) + w->n[m].c[x] + ecost(w, e2, m, x, t);
				if (v < best)
					best = v, r->best[s * kb + t] = x;
			}
			mat[s * kb + t] = best;
		}
	w->e[e1].alive = w->e[e2].alive = 0;
	w->n[m].alive = 0;
	add_edge(w, a, b, mat);
	sb_free(mat);
}

static int new_node(struct work *w, int k)
{
	int v = w->nn++;
	memset(&w->n[v], 0, sizeof w->n[v]);
	w->n[v].k = k;
	w->n[v].c = SB_NEW(double, k);
	w->n[v].alive = 1;
	return v;
}

/* merge a and b (joined by edge e) into one node with ka*kb states */
static void merge(struct work *w, int a, int b, int e)
{
	int ka = w->n[a].k, kb = w->n[b].k, x = new_node(w, ka * kb), s, t, i, side;
	for (s = 0; s < ka; s++)
		for (t = 0; t < kb; t++)
			w->n[x].c[s * kb + t] = w->n[a].c[s] + w->n[b].c[t] + ecost(w, e, a, s, t);
	w->e[e].alive = 0;
	new_rec(w, R_MERGE, x, a, b, 0);
	for (side = 0; side < 2; side++) {
		int v = side ? b : a;
		for (i = 0; i < w->n[v].ne; i++) {
			int f = w->n[v].e[i], y, ky, j;
			double *mat;
			if (!w->e[f].alive)
				continue;
			y = other(w, f, v);
			ky = w->n[y].k;
			mat = sb_xmalloc(sizeof(double) * (size_t)ka * (size_t)kb * (size_t)ky);
			for (s = 0; s < ka * kb; s++)
				for (j = 0; j < ky; j++)
					mat[s * ky + j] = ecost(w, f, v, side ? s % kb : s / kb, j);
			w->e[f].alive = 0;
			add_edge(w, x, y, mat);
			sb_free(mat);
		}
	}
	w->n[a].alive = w->n[b].alive = 0;
}

/* one sweep of eliminations; returns whether anything changed */
static int eliminate(struct work *w)
{
	int v, changed = 0, e2[2];
	for (v = 0; v < w->nn; v++) {
		int d;
		if (!w->n[v].alive)
			continue;
		d = degree(w, v, e2);
		if (d == 1) {
			child_elim(w, v, e2[0]);
			changed = 1;
		} else if (d == 2 && other(w, e2[0], v) != other(w, e2[1], v)) {
			node_elim(w, v, e2[0], e2[1]);
			changed = 1;
		}
	}
	return changed;
}

/* local cost of op o in state s against the current assignment */
static double local(const struct sb_sbp_graph *g, const int *sig, int o, int s, int skip)
{
	double c = sb_sbp_node_cost(g, o, s);
	int j;
	for (j = g->adj_off[o]; j < g->adj_off[o + 1]; j++) {
		int e = g->adj[j];
		const struct sb_sbp_edge *ed = &g->edge[e];
		if (ed->u == o && ed->v != skip)
			c += sb_sbp_edge_cost(g, e, s, sig[ed->v]);
		else if (ed->v == o && ed->u != skip)
			c += sb_sbp_edge_cost(g, e, sig[ed->u], s);
	}
	return c;
}

/* 1-node and 2-node (adjacent pair) moves until none improves */
static void local_search(const struct sb_sbp_graph *g, int *sig, int passes)
{
	int pass, o, s, t, e, improved = 1;
	for (pass = 0; pass < passes && improved; pass++) {
		improved = 0;
		for (o = 0; o < g->nop; o++) {
			double cur = local(g, sig, o, sig[o], -1);
			for (s = 0; s < g->op[o].nsig; s++) {
				double c = local(g, sig, o, s, -1);
				if (c < cur - 1e-9 * (1 + fabs(cur)))
					cur = c, sig[o] = s, improved = 1;
			}
		}
		for (e = 0; e < g->nedge; e++) {
			int u = g->edge[e].u, v = g->edge[e].v, j;
			double cur;
			int bu = sig[u], bv = sig[v];
#define PAIR(su, sv) (local(g, sig, u, su, v) + local(g, sig, v, sv, u) + between)
			double between;
			/* every edge between u and v, counted once */
			for (between = 0, j = g->adj_off[u]; j < g->adj_off[u + 1]; j++) {
				const struct sb_sbp_edge *f = &g->edge[g->adj[j]];
				if (f->u == u && f->v == v)
					between += sb_sbp_edge_cost(g, g->adj[j], sig[u], sig[v]);
				else if (f->u == v && f->v == u)
					between += sb_sbp_edge_cost(g, g->adj[j], sig[v], sig[u]);
			}
			cur = PAIR(sig[u], sig[v]);
			for (s = 0; s < g->op[u].nsig; s++)
				for (t = 0; t < g->op[v].nsig; t++) {
					double c;
					int su = sig[u], sv = sig[v];
					sig[u] = s, sig[v] = t;
					for (between = 0, j = g->adj_off[u]; j < g->adj_off[u + 1]; j++) {
						const struct sb_sbp_edge *f = &g->edge[g->adj[j]];
						if (f->u == u && f->v == v)
							between += sb_sbp_edge_cost(g, g->adj[j], s, t);
						else if (f->u == v && f->v == u)
							between += sb_sbp_edge_cost(g, g->adj[j], t, s);
					}
					c = PAIR(s, t);
					sig[u] = su, sig[v] = sv;
					if (c < cur - 1e-9 * (1 + fabs(cur)))
						cur = c, bu = s, bv = t;
				}
#undef PAIR
			if (bu != sig[u] || bv != sig[v])
				sig[u] = bu, sig[v] = bv, improved = 1;
		}
	}
}

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	struct work w;
	int cap = (int)sb_opts_get(o, "cap"), v, e, i, *st;

	(void)err;
	memset(&w, 0, sizeof w);
	w.n = SB_NEW(struct wnode, 2 * g->nop + 1);
	for (v = 0; v < g->nop; v++) {
		int s;
		new_node(&w, g->op[v].nsig);
		for (s = 0; s < g->op[v].nsig; s++)
			w.n[v].c[s] = sb_sbp_node_cost(g, v, s);
	}
	for (e = 0; e < g->nedge; e++) {
		int u = g->edge[e].u, x = g->edge[e].v, ku = g->op[u].nsig, kx = g->op[x].nsig, s, t;
		double *m = sb_xmalloc(sizeof(double) * (size_t)ku * (size_t)kx);
		for (s = 0; s < ku; s++)
			for (t = 0; t < kx; t++)
				m[s * kx + t] = sb_sbp_edge_cost(g, e, s, t);
		add_edge(&w, u, x, m);
		sb_free(m);
	}
	for (;;) {
		int best = -1;
		long bp = 0;
		if (eliminate(&w))
			continue;
		/* stuck: merge the adjacent pair with the smallest product */
		for (e = 0; e < w.ne; e++) {
			long p;
			if (!w.e[e].alive)
				continue;
			p = (long)w.n[w.e[e].a].k * w.n[w.e[e].b].k;
			if (p <= cap && (best < 0 || p < bp))
				best = e, bp = p;
		}
		if (best < 0 || w.nn >= 2 * g->nop)
			break;
		merge(&w, w.e[best].a, w.e[best].b, best);
	}
	/* what is left: greedily, in node order, against assigned neighbours */
	st = SB_NEW(int, w.nn);
	for (v = 0; v < w.nn; v++)
		st[v] = -1;
	for (v = 0; v < w.nn; v++) {
		double bc = INFINITY;
		int s;
		if (!w.n[v].alive)
			continue;
		for (s = 0; s < w.n[v].k; s++) {
			double c = w.n[v].c[s];
			for (i = 0; i < w.n[v].ne; i++) {
				int f = w.n[v].e[i], y;
				if (!w.e[f].alive)
					continue;
				y = other(&w, f, v);
				if (st[y] >= 0)
					c += ecost(&w, f, v, s, st[y]);
			}
			if (c < bc)
				bc = c, st[v] = s;
		}
	}
	/* restore the eliminated nodes, last eliminated first */
	for (i = w.nr - 1; i >= 0; i--) {
		struct rec *r = &w.r[i];
		if (r->type == R_CHILD)
			st[r->x] = r->best[st[r->a]];
		else if (r->type == R_NODE)
			st[r->x] = r->best[st[r->a] * w.n[r->b].k + st[r->b]];
		else {
			st[r->a] = st[r->x] / w.n[r->b].k;
			st[r->b] = st[r->x] % w.n[r->b].k;
		}
		sb_free(r->best);
	}
	for (v = 0; v < g->nop; v++)
		sig[v] = st[v];
	local_search(g, sig, (int)sb_opts_get(o, "passes"));
	for (v = 0; v < w.nn; v++) {
		sb_free(w.n[v].c);
		sb_free(w.n[v].e);
	}
	for (e = 0; e < w.ne; e++)
		sb_free(w.e[e].m);
	sb_free(w.n);
	sb_free(w.e);
	sb_free(w.r);
	sb_free(st);
	return 0;
}

const struct sb_sbp_planner sb_sbp_planner_elim = {
	.name = "elim",
	.cite = "OneFlow repository, oneflow/core/auto_parallel (sbp_graph.h); Yuan et al., "
		"arXiv:2110.15032, 2021",
	.desc = "auto-parallel: node/edge/child elimination, merging (cap 100), then "
		"neighbourhood greedy",
	.provenance = "OneFlow repository algorithm (newer than the paper)",
	.params = params,
	.plan = plan,
};
