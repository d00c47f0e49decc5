/*
 * pct.c - PCT, the placement-aware critical-time scheduler
 * (LargestRemainedTimeToFinishFirst; the thesis scheduler).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 4.
 *
 * Once the placement is known, every task gets its static b-level on the
 * execution graph, in the time units of its device:
 *   bl(v) = t(v, p(v)) + max over successors w of (bl(w) + transfer(v, w)),
 * where a Send and its (free-standing in the Java graph) Recv each count as
 * a send_ops-op node (10 in the TF model) on the sending and the receiving
 * device (tfpart_common.c). A free device runs the ready task with the
 * largest b-level: key = -bl. Equal keys run in ready order (the Java
 * comparison is strict).
 *
 * Provenance: verified (authors' Java code).
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

static int pct_priority(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
			const struct sb_opts *o, double *key, struct sb_err *err)
{
	sb_tfpart_pct_keys(x, key);
	return 0;
}

const struct sb_dag_policy sb_dag_policy_pct = {
	.name = "pct",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "largest placement-aware b-level first (Sends and Recvs as 10-op nodes)",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.priority = pct_priority,
};
