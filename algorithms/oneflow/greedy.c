/*
 * greedy.c - OneFlow's per-op SBP inference: the data input is pinned to
 * S(0) on every hierarchy axis (what a user of OneFlow writes), every
 * other op, in topological order, takes the signature of least cost (its
 * compute plus the boxing its inputs need from producers already decided,
 * rule "min cost" of SbpInferRuleTag); a weight takes the SBP its first
 * consumer wants at the least cost.
 *
 * J. Yuan et al., "OneFlow: Redesign the Distributed Deep Learning
 * Framework from Scratch", arXiv:2110.15032, 2021.
 *
 * Verified [V, docs + code]: propagation in topological order with
 * producers fixed, scored by boxing cost plus compute, users pin inputs.
 * Ours [O]: unpinned weights decided by their first consumer (OneFlow's
 * users usually pin them, which is what the fixed strategies do); ties go
 * to the first listed signature. Our model splits only evenly, so an input
 * whose batch axis is not a multiple of the devices cannot be S(0) on
 * every axis; greedy then lets it be B on the axes where it cannot split
 * (OneFlow itself would split unevenly). The fixed data-parallel and ZeRO
 * strategies have no such freedom and reject the graph (exit 2).
 *
 * Family: sbp (core/sbp/).
 */
#include "sbp/sbp.h"

/* does signature s of op o split the output S(0) on every axis, or (when
 * b_ok) S(0) or B on every axis? */
static int data_sig(const struct sb_sbp_graph *g, int o, int s, int b_ok)
{
	int d;
	for (d = 0; d < g->pl.ndim; d++) {
		const struct sb_sbp *x = &g->op[o].sig[s].out.d[d];
		if (!(x->kind == SB_SBP_S && x->axis == 0) && !(b_ok && x->kind == SB_SBP_B))
			return 0;
	}
	return 1;
}

static int allow(const struct sb_sbp_graph *g, int o, int s, const void *ctx)
{
	int t;
	(void)ctx;
	if (g->op[o].kind != SB_OP_INPUT)
		return 1;
	for (t = 0; t < g->op[o].nsig; t++)
		if (data_sig(g, o, t, 0))
			return data_sig(g, o, s, 0);
	/* no S(0) on every axis (a batch smaller than, or not a multiple of,
	 * the devices): the user keeps the input whole where it cannot split */
	return data_sig(g, o, s, 1);
}

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	(void)o;
	return sb_sbp_greedy(g, allow, NULL, sig, err);
}

const struct sb_sbp_planner sb_sbp_planner_greedy = {
	.name = "greedy",
	.cite = "Yuan et al., OneFlow: Redesign the Distributed Deep Learning Framework from "
		"Scratch, arXiv:2110.15032, 2021",
	.desc = "OneFlow-style SBP inference: input S(0), ops in topological order take the "
		"cheapest signature",
	.provenance = "verified: mechanism (docs, code)",
	.plan = plan,
};
