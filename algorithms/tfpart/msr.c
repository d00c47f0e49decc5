/*
 * msr.c - MSR, the "most sends, most readiness" dynamic scheduler
 * (HighDegreeVerticesFirstScheduler).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 4.
 *
 * When device d is free it runs the ready task of highest score
 *   score(v) = sum over successors w of
 *              1 + [p(w) != d] (1 + [w misses exactly one input]
 *                               (1 + 5 [p(w) has no ready task now])),
 * evaluated on the Java graph where a Send feeds one Recv on the remote
 * device: the Recv has one input, the Send itself, so a Send scores 3, or 8
 * when the receiving device has nothing ready; a compute op, whose
 * successors (local consumers and its Sends) are all on d, scores its
 * out-degree. Sends go first, above all to starved devices, then high
 * fan-out ops. Ties go to the larger PCT b-level (the priority hook below
 * computes PCT's keys, so the simulator hands them over as st->prio), then
 * to the earlier ready position.
 *
 * Provenance: verified (authors' Java code).
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

/* ------------------------------------------------------------------ */
/* Score                                                               */
/* ------------------------------------------------------------------ */

static int score(const struct sb_dag_simstate *st, int t, int d)
{
	const struct sb_dag_exec *x = st->x;
	int k, s = 0;

	if (t >= x->n)
		return 3 + 5 * (st->nready[x->send_dst[t - x->n]] == 0);
	for (k = x->x_off[t]; k < x->x_off[t + 1]; k++) {
		int w = x->x_to[k], e = x->dev[w];
		s += 1;
		if (e != d)
			s += 1 + (st->missing[w] == 1) * (1 + 5 * (st->nready[e] == 0));
	}
	return s;
}

/* ------------------------------------------------------------------ */
/* Hooks                                                               */
/* ------------------------------------------------------------------ */

static int msr_priority(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
			const struct sb_opts *o, double *key, struct sb_err *err)
{
	sb_tfpart_pct_keys(x, key);
	return 0;
}

static int msr_pick(const struct sb_dag_simstate *st, int d, const int *ready,
		    int nready, const struct sb_opts *o)
{
	int i, best = 0, bs = score(st, ready[0], d);

	for (i = 1; i < nready; i++) {
		int s = score(st, ready[i], d);
		if (s > bs || (s == bs && st->prio &&
			       st->prio[ready[i]] < st->prio[ready[best]])) {
			best = i;
			bs = s;
		}
	}
	return best;
}

const struct sb_dag_policy sb_dag_policy_msr = {
	.name = "msr",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "Sends first (above all to starved devices), then high fan-out ops; ties to PCT",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.priority = msr_priority,
	.pick = msr_pick,
};
