/*
 * zero.c - ZeRO-style sharded data parallelism: input S(0), every weight,
 * its optimizer state and update sharded S(0); a weight is all-gathered
 * (S -> B) before each matmul that reads it and its gradient is
 * reduce-scattered (P -> S) into the update. Ours [O] (spec oneflow.md
 * §8.3), after Rajbhandari et al.
 */
#include "strategy.h"

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	(void)o;
	return sb_sbp_fixed_plan(g, "z", sig, err);
}

const struct sb_sbp_planner sb_sbp_planner_zero = {
	.name = "zero",
	.cite = "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion "
		"Parameter Models, SC 2020",
	.desc = "input S(0), weights/updates S(0): gathered before use, gradients reduce-scattered",
	.provenance = "ours",
	.plan = plan,
};
