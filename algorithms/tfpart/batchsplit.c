/*
 * batchsplit.c - BatchSplit, range-based importance partitioning
 * (RangeBasedImportancePartitioning).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 3.4.
 *
 * Ops are sorted by the heaviest path through them (descending, ties to the
 * lower id) and the list is cut into |D| consecutive blocks of
 * b = floor(n/|D|) ops (at least 1), the remainder joining the last block.
 * Block i goes to device id i -- the id, not the i-th fastest device, as in
 * the Java code -- or, where the op's colocation component does not fit, to
 * the next feasible id (i+1, i+2, ... wrapping around). A component goes
 * where its first member in the sorted list goes.
 *
 * Provenance: verified (authors' Java code). The block size for n not a
 * multiple of |D| is our reading; the spec lists no Java quirk here.
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

#include <stdlib.h>

struct item {
	double through;
	int v;
};

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	if (x->through != y->through)
		return x->through > y->through ? -1 : 1;
	return (x->v > y->v) - (x->v < y->v);
}

static int batchsplit_partition(const struct sb_dag_inst *in,
				const struct sb_opts *o, struct sb_rng *rng,
				struct sb_dag_plan *plan, struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, nd = in->dev.n, i, v, rc = 0, b;
	double *pre = SB_NEW(double, n), *post = SB_NEW(double, n);
	struct item *it = SB_NEW(struct item, n);
	struct sb_tfpart p;

	sb_tfpart_init(&p, in, plan->place, "batchsplit");
	sb_dag_through(in, pre, post);
	for (v = 0; v < n; v++)
		it[v] = (struct item){ pre[v] + post[v], v };
	qsort(it, (size_t)n, sizeof *it, item_cmp);

	b = n / nd > 0 ? n / nd : 1;
	for (i = 0; i < n; i++) {
		int k = g->comp[it[i].v], blk = i / b < nd ? i / b : nd - 1, j, d = -1;
		if (sb_tfpart_done(&p, k))
			continue;
		for (j = 0; j < nd && d < 0; j++)
			if (sb_dag_comp_fits(in, &p.c, k, (blk + j) % nd, p.free_mem))
				d = (blk + j) % nd;
		if (d < 0) {
			rc = sb_tfpart_nofit(&p, it[i].v, err);
			goto out;
		}
		sb_tfpart_assign(&p, k, d);
	}
out:
	sb_tfpart_release(&p);
	sb_free(pre);
	sb_free(post);
	sb_free(it);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_batchsplit = {
	.name = "batchsplit",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "ops sorted by heaviest path through them, cut into |D| blocks, block i to device id i",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.partition = batchsplit_partition,
};
