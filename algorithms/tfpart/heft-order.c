/*
 * heft-order.c - HEFT-order local scheduler.
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 4.
 *
 * Replays a planned schedule's order: the ready task with the smallest
 * planned finish time runs first; a Send inherits the planned finish of its
 * producer, so it follows it as closely as the device allows. Meaningful
 * only after a partitioner that plans a schedule (HEFT and friends); with
 * HEFT partitioning it is the authors' "adapted HEFT" baseline.
 *
 * Provenance: verified (authors' Java code).
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

static int heft_order_priority(const struct sb_dag_exec *x,
			       const struct sb_dag_plan *plan,
			       const struct sb_opts *o, double *key,
			       struct sb_err *err)
{
	int t;
	if (!plan || !plan->has_plan)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "heft-order needs a partitioner that plans a schedule "
				  "(heft, cpop, etf, m-etf, m-sct)");
	for (t = 0; t < x->n; t++)
		key[t] = plan->plan_finish[t];
	for (t = x->n; t < x->ntask; t++)
		key[t] = plan->plan_finish[x->send_op[t - x->n]];
	return 0;
}

const struct sb_dag_policy sb_dag_policy_heft_order = {
	.name = "heft-order",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "smallest planned finish time first (needs a planning partitioner)",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.priority = heft_order_priority,
};
