/*
 * megatron.c - Megatron-LM tensor parallelism: activations replicated
 * (input B), column-parallel weights (QKV, MLP up, odd MLP layers) S(1),
 * row-parallel weights (out-projection, MLP down) S(0), so each pair of
 * matmuls ends in P and is all-reduced once forward and once backward;
 * on a 2-D hierarchy data parallel over axis 0 and tensor parallel over
 * axis 1. Ours [O] (spec oneflow.md §8.3).
 */
#include "strategy.h"

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	(void)o;
	return sb_sbp_fixed_plan(g, g->pl.ndim == 2 ? "dt" : "t", sig, err);
}

const struct sb_sbp_planner sb_sbp_planner_megatron = {
	.name = "megatron",
	.cite = "Shoeybi et al., Megatron-LM: Training Multi-Billion Parameter Language Models "
		"Using Model Parallelism, arXiv:1909.08053, 2019",
	.desc = "tensor parallel: column weights S(1), row weights S(0), P outputs all-reduced",
	.provenance = "ours",
	.plan = plan,
};
