/*
 * lof.c - LargestOpsFirst local scheduler.
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 4.
 *
 * The ready task with the largest b-level in raw ops runs first, ignoring
 * speeds, transfers and placement: for an op, the heaviest op path from it
 * to a sink (ops included); for Send(u, d'), the work of the Send and of its
 * Recv (send_ops each) plus the heaviest such path of the consumers it
 * feeds. key = -b-level; equal keys run in ready order.
 *
 * Provenance: verified (authors' Java code) for ops; the key of a Send is
 * our reading of the Java graph, where Send and Recv are 10-op nodes.
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

static int lof_priority(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
			const struct sb_opts *o, double *key, struct sb_err *err)
{
	const struct sb_dag_inst *in = x->in;
	double w = in->send_ops > 0 ? 2 * in->send_ops : 0;
	int t, k;

	sb_dag_through(in, NULL, key);
	for (t = x->n; t < x->ntask; t++) {
		double m = 0;
		for (k = x->x_off[t]; k < x->x_off[t + 1]; k++)
			m = sb_max(m, key[x->x_to[k]]);
		key[t] = w + m;
	}
	for (t = 0; t < x->ntask; t++)
		key[t] = -key[t];
	return 0;
}

const struct sb_dag_policy sb_dag_policy_lof = {
	.name = "lof",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "largest b-level in raw ops first, ignoring speeds and placement",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.priority = lof_priority,
};
