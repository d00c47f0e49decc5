/*
 * fifo.c - FIFO local scheduler.
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 4.
 *
 * A free device runs the ready task that became ready first: a task enters
 * its device's queue when its last input arrives (sources in the order the
 * simulator releases them). With a constant key the simulator's tie rule,
 * ready order, is the whole policy. Hash+FIFO is the paper's headline
 * baseline.
 *
 * Provenance: verified (authors' Java code).
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

static int fifo_priority(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
			 const struct sb_opts *o, double *key, struct sb_err *err)
{
	int t;
	for (t = 0; t < x->ntask; t++)
		key[t] = 0;
	return 0;
}

const struct sb_dag_policy sb_dag_policy_fifo = {
	.name = "fifo",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "first ready, first run",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.priority = fifo_priority,
};
