/*
 * dfs.c - DFS, the traffic-aware depth-first partitioner (DFSPartitioning).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 3.5.
 *
 * Sources are sorted by the heaviest path through them (descending, ties to
 * the lower id); a depth-first search along out-edges starts from each in
 * turn, visiting successors in increasing id order. Every op reached for
 * the first time whose colocation component is still open places that
 * component on the feasible device minimising E^ * T^, MITE's normalised
 * finish-time and traffic factors (tfpart_common.c), ties to the lower id.
 * Following edges depth-first keeps producer and consumer chains together,
 * which is why DFS sends little traffic.
 *
 * Provenance: verified (authors' Java code). The traffic term counts one
 * transfer per distinct remote device, as MITE's default; the spec lists no
 * Java quirk of its own for DFS, so it has no compat_java.
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* Source order                                                        */
/* ------------------------------------------------------------------ */

struct src {
	double through;
	int v;
};

static int src_cmp(const void *a, const void *b)
{
	const struct src *x = a, *y = b;
	if (x->through != y->through)
		return x->through > y->through ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

/* Component of v onto argmin E^ T^; SB_EXIT_INPUT if it fits nowhere. */
static int place_op(struct sb_tfpart *p, int v, struct sb_err *err)
{
	int k = p->in->g.comp[v], d, best = -1;
	double bestv = 0;

	if (sb_tfpart_done(p, k))
		return 0;
	if (!sb_tfpart_et(p, k, 0))
		return sb_tfpart_nofit(p, v, err);
	for (d = 0; d < p->in->dev.n; d++) {
		double val;
		if (!p->feas[d])
			continue;
		val = p->e[d] * p->t[d];
		if (best < 0 || val < bestv) {
			best = d;
			bestv = val;
		}
	}
	sb_tfpart_assign(p, k, best);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Hook                                                                */
/* ------------------------------------------------------------------ */

static int dfs_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			 struct sb_rng *rng, struct sb_dag_plan *plan,
			 struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, v, i, nsrc = 0, rc = 0;
	double *pre = SB_NEW(double, n), *post = SB_NEW(double, n);
	struct src *src = SB_NEW(struct src, n);
	/* explicit stack of (op, next edge) so deep graphs cannot overflow */
	int *stack = SB_NEW(int, n), *cursor = SB_NEW(int, n);
	char *seen = SB_NEW(char, n);
	struct sb_tfpart p;

	sb_tfpart_init(&p, in, plan->place, "dfs");
	sb_dag_through(in, pre, post);
	for (v = 0; v < n; v++)
		if (g->pred_off[v] == g->pred_off[v + 1])
			src[nsrc++] = (struct src){ pre[v] + post[v], v };
	qsort(src, (size_t)nsrc, sizeof *src, src_cmp);

	for (i = 0; i < nsrc; i++) {
		int top = 0;
		if (seen[src[i].v])
			continue;
		seen[src[i].v] = 1;
		if ((rc = place_op(&p, src[i].v, err)))
			goto out;
		stack[top] = src[i].v;
		cursor[top++] = g->succ_off[src[i].v];
		while (top > 0) {
			int u = stack[top - 1];
			if (cursor[top - 1] == g->succ_off[u + 1]) {
				top--;
				continue;
			}
			v = g->succ[cursor[top - 1]++];
			if (seen[v])
				continue;
			seen[v] = 1;
			if ((rc = place_op(&p, v, err)))
				goto out;
			stack[top] = v;
			cursor[top++] = g->succ_off[v];
		}
	}
out:
	sb_tfpart_release(&p);
	sb_free(pre);
	sb_free(post);
	sb_free(src);
	sb_free(stack);
	sb_free(cursor);
	sb_free(seen);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_dfs = {
	.name = "dfs",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "depth-first from the heaviest sources, each op to the device of least normalised time x traffic",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.partition = dfs_partition,
};
