/*
 * tree-dp.c - exact dynamic programming (Viterbi) over the signatures of a
 * graph whose undirected skeleton is a tree: chains of layers, and chains
 * with weights hanging off them. Ours, a textbook method kept apart from
 * the elimination code so that the tests can compare two independent
 * exact methods (and the ILP) on such graphs.
 *
 * Each component is rooted at its smallest op; in post-order,
 * f[v][s] = node(v, s) + sum over children c of min_t (f[c][t] + edge(v s,
 * c t)); the root takes its best state and each child the state that
 * achieved the minimum for its parent's.
 */
#include "sbp/sbp.h"

#include <math.h>
#include <string.h>

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	int n = g->nop, *order = SB_NEW(int, n + 1), *pe = SB_NEW(int, n + 1), *seen = SB_NEW(int, n + 1);
	int *stack = SB_NEW(int, n + 1), no = 0, r, i, j, s, t, maxk = 1;
	double *f, *best;

	(void)o;
	(void)err;
	for (i = 0; i < n; i++)
		if (g->op[i].nsig > maxk)
			maxk = g->op[i].nsig;
	f = SB_NEW(double, (size_t)n * (size_t)maxk + 1);
	best = SB_NEW(double, maxk);
	/* pre-order by DFS from each unvisited op; pe[v] = edge to its parent */
	for (r = 0; r < n; r++) {
		int sp = 0;
		if (seen[r])
			continue;
		seen[r] = 1;
		pe[r] = -1;
		stack[sp++] = r;
		while (sp) {
			int v = stack[--sp];
			order[no++] = v;
			for (j = g->adj_off[v]; j < g->adj_off[v + 1]; j++) {
				int e = g->adj[j], c = g->edge[e].u == v ? g->edge[e].v : g->edge[e].u;
				if (seen[c])
					continue;
				seen[c] = 1;
				pe[c] = e;
				stack[sp++] = c;
			}
		}
	}
	for (i = 0; i < n; i++)
		for (s = 0; s < g->op[i].nsig; s++)
			f[(size_t)i * maxk + s] = sb_sbp_node_cost(g, i, s);
	/* post-order: fold each op into its parent */
	for (i = n - 1; i >= 0; i--) {
		int c = order[i], e = pe[c], p;
		if (e < 0)
			continue;
		p = g->edge[e].u == c ? g->edge[e].v : g->edge[e].u;
		for (s = 0; s < g->op[p].nsig; s++) {
			double m = INFINITY;
			for (t = 0; t < g->op[c].nsig; t++) {
				double x = f[(size_t)c * maxk + t] +
					(g->edge[e].u == p ? sb_sbp_edge_cost(g, e, s, t)
							   : sb_sbp_edge_cost(g, e, t, s));
				if (x < m)
					m = x;
			}
			f[(size_t)p * maxk + s] += m;
		}
	}
	/* pre-order: roots take their best, children the best for the parent */
	for (i = 0; i < n; i++) {
		int c = order[i], e = pe[c], p;
		double m = INFINITY;
		sig[c] = 0;
		for (t = 0; t < g->op[c].nsig; t++) {
			double x = f[(size_t)c * maxk + t];
			if (e >= 0) {
				p = g->edge[e].u == c ? g->edge[e].v : g->edge[e].u;
				x += g->edge[e].u == p ? sb_sbp_edge_cost(g, e, sig[p], t)
						       : sb_sbp_edge_cost(g, e, t, sig[p]);
			}
			if (x < m)
				m = x, sig[c] = t;
		}
	}
	sb_free(order);
	sb_free(pe);
	sb_free(seen);
	sb_free(stack);
	sb_free(f);
	sb_free(best);
	return 0;
}

const struct sb_sbp_planner sb_sbp_planner_tree_dp = {
	.name = "tree-dp",
	.cite = "dynamic programming on trees (Viterbi on chains)",
	.desc = "exact DP over signatures on chains and trees (refuses graphs with cycles)",
	.provenance = "ours",
	.trees_only = 1,
	.plan = plan,
};
