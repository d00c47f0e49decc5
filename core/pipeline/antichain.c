/*
 * antichain.c - the states PipeDream's optimizer cuts a model at: the DAG
 * of antichains of the operator graph (D. Narayanan et al., "PipeDream:
 * Generalized Pipeline Parallelism for DNN Training", SOSP 2019).
 *
 * Verified [V, code: msr-fiddle/pipedream graph/graph.py antichain_dag,
 * augment_antichain, next_antichains; optimizer/optimizer_graph_
 * hierarchical.py main; read, not copied]: a state is an antichain of the
 * operator graph; its down-set D is the antichain with all its ancestors.
 * The first state is the first source in file order. From D, upstream
 * advances a node x of the "augmented antichain" (the antichain plus every
 * ancestor p of an antichain node a with an edge to a node that is
 * neither a nor an ancestor of a) to a successor y outside the antichain
 * whose successors are outside the augmented antichain, and keeps the
 * maximal nodes. Since the augmented antichain holds every node of D with
 * an edge leaving D, that is exactly: the next states of D are
 * D + y + ancestors(y) for every y outside D with a predecessor in D. The
 * states are discovered breadth first, sorted topologically by a
 * depth-first search over them in discovery order (reverse post-order);
 * per state: the sums over D of compute (forward + backward), activation
 * and parameter sizes, and the "output activation", the sum over the
 * augmented antichain (it can count a tensor whose consumers are all in
 * D: upstream's number, kept). all_predecessor_ids are the transitive
 * predecessors in the antichain DAG.
 *
 * Ours [O]: upstream iterates Python sets of node ids (hash-randomised), so
 * its discovery order, hence its topological order, varies from run to
 * run; we discover successors in node order (file order), which changes
 * only ties and float summation order of upstream's objective (measured
 * equal to 1e-12 on the shipped profiles, docs/pipedream-optimizer.md). A
 * chain model without a graph is its own graph (one node per layer).
 */
#include "pipeline.h"

#include <stdint.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Node sets                                                           */
/* ------------------------------------------------------------------ */

#define HAS(set, v) (((set)[(v) >> 6] >> ((v) & 63)) & 1u)
#define ADD(set, v) ((set)[(v) >> 6] |= (uint64_t)1 << ((v) & 63))

/* Hash table of down-sets, open addressing; values are state ids. */
struct dtab {
	size_t cap;
	int *id;
};

static uint64_t set_hash(const uint64_t *s, int w)
{
	uint64_t h = 1469598103934665603ull;
	int k;
	for (k = 0; k < w; k++) {
		h ^= s[k];
		h *= 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

/* Slot of set s: its state id if present, else the empty slot (-1). */
static size_t dtab_slot(const struct dtab *t, const uint64_t *down, int w, const uint64_t *s)
{
	size_t i = (size_t)(set_hash(s, w) & (t->cap - 1));
	while (t->id[i] >= 0 && memcmp(down + (size_t)t->id[i] * w, s, (size_t)w * 8))
		i = (i + 1) & (t->cap - 1);
	return i;
}

/* ------------------------------------------------------------------ */
/* The graph a model's states are built on                             */
/* ------------------------------------------------------------------ */

/* A chain model as a graph: node l = layer l, edges l -> l+1. */
static void chain_graph(const struct sb_pmodel *m, struct sb_pgraph *g)
{
	int l;
	memset(g, 0, sizeof *g);
	g->n = m->n;
	g->fwd = SB_NEW(double, m->n);
	g->bwd = SB_NEW(double, m->n);
	g->act = SB_NEW(double, m->n);
	g->params = SB_NEW(double, m->n);
	g->off = SB_NEW(int, m->n + 1);
	g->succ = SB_NEW(int, m->n);
	g->layer = SB_NEW(int, m->n);
	for (l = 0; l < m->n; l++) {
		g->fwd[l] = m->layer[l].fwd;
		g->bwd[l] = m->layer[l].bwd;
		/* a chain layer's output is what crosses the cut after it */
		g->act[l] = m->layer[l].act;
		g->params[l] = m->layer[l].params;
		g->layer[l] = l;
		g->off[l + 1] = g->off[l] + (l + 1 < m->n);
		if (l + 1 < m->n)
			g->succ[g->off[l]] = l + 1;
	}
}

void sb_pgraph_release(struct sb_pgraph *g)
{
	if (!g)
		return;
	sb_free(g->fwd);
	sb_free(g->bwd);
	sb_free(g->act);
	sb_free(g->params);
	sb_free(g->off);
	sb_free(g->succ);
	sb_free(g->layer);
	memset(g, 0, sizeof *g);
}

/* ------------------------------------------------------------------ */
/* The antichain DAG                                                   */
/* ------------------------------------------------------------------ */

int sb_pipeline_states_build(const struct sb_pmodel *m, int use_graph, int max_states,
			     struct sb_pipeline_states *st, struct sb_err *err)
{
	struct sb_pgraph own, *g;
	int n, w, v, k, i, ns = 0, cap_s = 64, ne = 0, cap_e = 256, rc = 0, head;
	uint64_t *anc_n = NULL, *down = NULL, *cur = NULL, *next = NULL, *seen = NULL;
	int *indeg = NULL, *ea = NULL, *eb = NULL, *eoff = NULL, *eadj = NULL, *order = NULL;
	int *stack = NULL, *pos = NULL, *it = NULL, *topo_of = NULL;
	struct dtab tab = { 0, NULL };

	memset(st, 0, sizeof *st);
	memset(&own, 0, sizeof own);
	if (use_graph && m->graph) {
		g = m->graph;
	} else {
		chain_graph(m, &own);
		g = &own;
	}
	n = g->n;
	w = (n + 63) / 64;
	if (n < 1) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "antichains: model '%s' has no layers", m->name);
		goto out;
	}

	/* ancestors of every node, through Kahn's order */
	anc_n = SB_NEW(uint64_t, (size_t)n * w);
	indeg = SB_NEW(int, n);
	order = SB_NEW(int, n);
	for (v = 0; v < n; v++)
		for (k = g->off[v]; k < g->off[v + 1]; k++)
			indeg[g->succ[k]]++;
	for (v = 0, head = 0, i = 0; v < n; v++)
		if (!indeg[v])
			order[i++] = v;
	for (head = 0; head < i; head++) {
		int u = order[head];
		for (k = g->off[u]; k < g->off[u + 1]; k++) {
			int y = g->succ[k], q;
			for (q = 0; q < w; q++)
				anc_n[(size_t)y * w + q] |= anc_n[(size_t)u * w + q];
			ADD(anc_n + (size_t)y * w, u);
			if (--indeg[y] == 0)
				order[i++] = y;
		}
	}
	SB_ASSERT(i == n); /* loaders reject cycles */

	/* breadth-first discovery from the first source (file order) */
	for (v = 0; v < n; v++) {
		int q, src = 1;
		for (q = 0; q < w && src; q++)
			src = anc_n[(size_t)v * w + q] == 0;
		if (src)
			break;
	}
	down = SB_NEW(uint64_t, (size_t)cap_s * w);
	ea = SB_NEW(int, cap_e);
	eb = SB_NEW(int, cap_e);
	cur = SB_NEW(uint64_t, w);
	next = SB_NEW(uint64_t, w);
	seen = SB_NEW(uint64_t, w);
	tab.cap = 1024;
	tab.id = SB_NEW(int, tab.cap);
	memset(tab.id, 0xff, tab.cap * sizeof *tab.id);
	ADD(down, v);
	tab.id[dtab_slot(&tab, down, w, down)] = 0;
	ns = 1;
	for (head = 0; head < ns; head++) {
		memcpy(cur, down + (size_t)head * w, (size_t)w * 8);
		memset(seen, 0, (size_t)w * 8);
		for (v = 0; v < n; v++) {
			if (!HAS(cur, v))
				continue;
			for (k = g->off[v]; k < g->off[v + 1]; k++) {
				int y = g->succ[k], q;
				size_t slot;
				if (HAS(cur, y) || HAS(seen, y))
					continue;
				ADD(seen, y);
				for (q = 0; q < w; q++)
					next[q] = cur[q] | anc_n[(size_t)y * w + q];
				ADD(next, y);
				slot = dtab_slot(&tab, down, w, next);
				if (tab.id[slot] < 0) {
					if (ns >= max_states) {
						rc = sb_err_set(err, SB_EXIT_RUN, "antichains: model '%s' "
								"has more than %d antichain states",
								m->name, max_states);
						goto out;
					}
					if (ns == cap_s) {
						cap_s *= 2;
						down = sb_xrealloc(down, (size_t)cap_s * w * 8);
					}
					memcpy(down + (size_t)ns * w, next, (size_t)w * 8);
					tab.id[slot] = ns++;
					if ((size_t)ns * 2 > tab.cap) {
						size_t c2 = tab.cap * 2, s;
						sb_free(tab.id);
						tab.cap = c2;
						tab.id = SB_NEW(int, c2);
						memset(tab.id, 0xff, c2 * sizeof *tab.id);
						for (s = 0; s < (size_t)ns; s++)
							tab.id[dtab_slot(&tab, down, w,
									 down + s * w)] = (int)s;
						slot = dtab_slot(&tab, down, w, next);
					}
				}
				if (ne == cap_e) {
					cap_e *= 2;
					ea = sb_xrealloc(ea, (size_t)cap_e * sizeof *ea);
					eb = sb_xrealloc(eb, (size_t)cap_e * sizeof *eb);
				}
				ea[ne] = head;
				eb[ne++] = tab.id[slot];
			}
		}
	}

	/* topological order: depth-first over the states in discovery order,
	 * successors in edge order, each state placed in front when done */
	eoff = SB_NEW(int, ns + 1);
	eadj = SB_NEW(int, ne + 1);
	pos = SB_NEW(int, ns + 1);
	for (k = 0; k < ne; k++)
		eoff[ea[k] + 1]++;
	for (i = 0; i < ns; i++)
		eoff[i + 1] += eoff[i];
	for (k = 0; k < ne; k++)
		eadj[eoff[ea[k]] + pos[ea[k]]++] = eb[k];
	stack = SB_NEW(int, ns);
	it = SB_NEW(int, ns);
	topo_of = SB_NEW(int, ns);
	memset(pos, 0, (size_t)ns * sizeof *pos); /* 0 new, 1 open, 2 done */
	{
		int fill = ns;
		for (i = 0; i < ns; i++) {
			int top = 0;
			if (pos[i])
				continue;
			stack[top++] = i;
			pos[i] = 1;
			it[i] = eoff[i];
			while (top > 0) {
				int u = stack[top - 1];
				if (it[u] < eoff[u + 1]) {
					int y = eadj[it[u]++];
					if (!pos[y]) {
						pos[y] = 1;
						it[y] = eoff[y];
						stack[top++] = y;
					}
					continue;
				}
				pos[u] = 2;
				topo_of[u] = --fill;
				top--;
			}
		}
	}

	/* per state, in topological order */
	st->n = ns;
	st->nodes = n;
	st->words = w;
	st->awords = (ns + 63) / 64;
	st->down = SB_NEW(uint64_t, (size_t)ns * w);
	st->comp = SB_NEW(double, ns);
	st->stash = SB_NEW(double, ns);
	st->params = SB_NEW(double, ns);
	st->out_act = SB_NEW(double, ns);
	st->anc = SB_NEW(uint64_t, (size_t)ns * st->awords);
	for (i = 0; i < ns; i++) {
		int t = topo_of[i], a;
		const uint64_t *d = down + (size_t)i * w;
		memcpy(st->down + (size_t)t * w, d, (size_t)w * 8);
		for (v = 0; v < n; v++) {
			if (!HAS(d, v))
				continue;
			st->comp[t] += g->fwd[v] + g->bwd[v];
			st->stash[t] += g->act[v];
			st->params[t] += g->params[v];
		}
		/* the augmented antichain: the maximal nodes a of D and every
		 * ancestor p of some a with an edge to neither a nor an ancestor
		 * of a */
		memset(seen, 0, (size_t)w * 8);
		for (a = 0; a < n; a++) {
			int maximal = HAS(d, a);
			for (k = g->off[a]; k < g->off[a + 1] && maximal; k++)
				maximal = !HAS(d, g->succ[k]);
			if (!maximal)
				continue;
			ADD(seen, a);
			for (v = 0; v < n; v++) {
				const uint64_t *an = anc_n + (size_t)a * w;
				if (!HAS(an, v))
					continue;
				for (k = g->off[v]; k < g->off[v + 1]; k++) {
					int y = g->succ[k];
					if (y != a && !HAS(an, y)) {
						ADD(seen, v);
						break;
					}
				}
			}
		}
		for (v = 0; v < n; v++)
			if (HAS(seen, v))
				st->out_act[t] += g->act[v];
	}
	/* transitive predecessors in the antichain DAG, in topological order */
	for (i = 0; i < ns; i++)
		pos[topo_of[i]] = i;   /* pos: topological index -> discovery id */
	for (i = 0; i < ns; i++) {
		int u = pos[i], e;
		uint64_t *au = st->anc + (size_t)i * st->awords;
		for (e = eoff[u]; e < eoff[u + 1]; e++) {
			int y = topo_of[eadj[e]], q;
			uint64_t *ay = st->anc + (size_t)y * st->awords;
			for (q = 0; q < st->awords; q++)
				ay[q] |= au[q];
			ADD(ay, i);
		}
	}
	st->anc_off = SB_NEW(int, ns + 1);
	for (i = 0; i < ns; i++) {
		const uint64_t *ai = st->anc + (size_t)i * st->awords;
		int c = 0;
		for (k = 0; k < i; k++)
			c += (int)HAS(ai, k);
		st->anc_off[i + 1] = st->anc_off[i] + c;
	}
	st->anc_idx = SB_NEW(int, st->anc_off[ns] + 1);
	for (i = 0; i < ns; i++) {
		const uint64_t *ai = st->anc + (size_t)i * st->awords;
		int c = st->anc_off[i];
		for (k = 0; k < i; k++)
			if (HAS(ai, k))
				st->anc_idx[c++] = k;
	}
out:
	if (rc)
		sb_pipeline_states_release(st);
	sb_pgraph_release(&own);
	sb_free(anc_n);
	sb_free(indeg);
	sb_free(order);
	sb_free(down);
	sb_free(cur);
	sb_free(next);
	sb_free(seen);
	sb_free(ea);
	sb_free(eb);
	sb_free(eoff);
	sb_free(eadj);
	sb_free(stack);
	sb_free(pos);
	sb_free(it);
	sb_free(topo_of);
	sb_free(tab.id);
	return rc;
}

int sb_pipeline_states_is_anc(const struct sb_pipeline_states *st, int k, int j)
{
	return (int)HAS(st->anc + (size_t)j * st->awords, k);
}

int sb_pipeline_states_has(const struct sb_pipeline_states *st, int s, int node)
{
	return (int)HAS(st->down + (size_t)s * st->words, node);
}

void sb_pipeline_states_release(struct sb_pipeline_states *st)
{
	if (!st)
		return;
	sb_free(st->down);
	sb_free(st->comp);
	sb_free(st->stash);
	sb_free(st->params);
	sb_free(st->out_act);
	sb_free(st->anc);
	sb_free(st->anc_off);
	sb_free(st->anc_idx);
	memset(st, 0, sizeof *st);
}
