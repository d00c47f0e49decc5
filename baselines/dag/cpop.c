/*
 * cpop.c - Critical Path On a Processor.
 *
 * H. Topcuoglu, S. Hariri, M.-Y. Wu, "Performance-effective and
 * low-complexity task scheduling for heterogeneous computing", IEEE TPDS
 * 13(3), 2002.
 *
 * Algorithm (published): with HEFT's mean costs, rank_d(v) = max over
 * predecessors u of (rank_d(u) + w̄(u) + c̄(u,v)) (0 at an entry) and
 * prio(v) = rank_u(v) + rank_d(v). |CP| = prio(entry); the critical path
 * starts at the entry and repeatedly follows a successor whose priority
 * equals |CP|. The critical-path processor p_CP minimises the sum of the
 * CP ops' times. Ready ops are popped by decreasing priority: a CP op goes
 * to p_CP (insertion-based start), any other op to the device with the
 * smallest insertion-based finish time. Verified on the paper's example:
 * makespan 86, CP = {1, 2, 9, 10} on P2 (tests/test_dagbase.c).
 *
 * Our choices: with several entries the CP starts at the entry of largest
 * priority; priorities are compared within a relative 1e-9, ties to the
 * lower id (a successor of largest priority is followed if none matches,
 * which only rounding can cause); p_CP is chosen among devices that allow
 * every CP op (ties to the lower id; no such device: no CP device, every op
 * is placed by finish time); a CP op whose component is already elsewhere
 * or does not fit on p_CP goes by finish time. Colocation and memory as in
 * listsched.h; Sends are pure delays in the plan.
 */
#include "listsched.h"

#include <math.h>

/* Device minimising the summed time of the CP ops, among devices that
 * allow all of them; -1 if none does. */
static int cp_device(const struct sb_dag_inst *in, const int *cp, int ncp)
{
	int d, i, best = -1;
	double best_sum = INFINITY;

	for (d = 0; d < in->dev.n; d++) {
		double sum = 0;
		for (i = 0; i < ncp && sb_dag_allowed(in, cp[i], d); i++)
			sum += sb_dag_time(in, cp[i], d);
		if (i == ncp && sum < best_sum) {
			best = d;
			best_sum = sum;
		}
	}
	return best;
}

/* Walk the critical path from the entry of largest priority; returns its
 * length in ops, stored in cp[]. */
static int critical_path(const struct sb_dag *g, const double *prio, int *cp)
{
	int v, e, entry = -1, ncp = 0;

	for (v = 0; v < g->n; v++)
		if (g->pred_off[v] == g->pred_off[v + 1] &&
		    (entry < 0 || (!sb_ls_near(prio[v], prio[entry]) &&
				   prio[v] > prio[entry])))
			entry = v;
	for (v = entry; v >= 0;) {
		int next = -1, best = -1;
		cp[ncp++] = v;
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
			int w = g->succ[e];
			if (next < 0 && sb_ls_near(prio[w], prio[entry]))
				next = w;
			if (best < 0 || prio[w] > prio[best])
				best = w;
		}
		v = next >= 0 ? next : best;
	}
	return ncp;
}

static int cpop_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			  struct sb_rng *rng, struct sb_dag_plan *plan,
			  struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	double *wbar = SB_NEW(double, g->n);
	double *cbar = SB_NEW(double, g->m);
	double *up = SB_NEW(double, g->n);
	double *down = SB_NEW(double, g->n);
	int *cp = SB_NEW(int, g->n);
	int *want = SB_NEW(int, g->n);
	int v, i, ncp, pcp, rc;

	sb_ls_mean_costs(in, wbar, cbar);
	sb_ls_rank_up(g, wbar, cbar, up);
	sb_ls_rank_down(g, wbar, cbar, down);
	for (v = 0; v < g->n; v++) {
		up[v] += down[v];   /* up now holds the priority */
		want[v] = -1;
	}
	ncp = g->n ? critical_path(g, up, cp) : 0;
	pcp = cp_device(in, cp, ncp);
	for (i = 0; i < ncp; i++)
		want[cp[i]] = pcp;
	rc = sb_ls_insertion(in, up, want, NULL, NULL, plan, err);
	sb_free(wbar);
	sb_free(cbar);
	sb_free(up);
	sb_free(down);
	sb_free(cp);
	sb_free(want);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_cpop = {
	.name = "cpop",
	.cite = "Topcuoglu, Hariri, Wu, Performance-effective and low-complexity "
		"task scheduling for heterogeneous computing, IEEE TPDS 2002",
	.desc = "critical path on its best processor, others by earliest finish time",
	.provenance = "published algorithm",
	.params = NULL,
	.partition = cpop_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "heft-order",
};
