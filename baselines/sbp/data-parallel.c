/*
 * data-parallel.c - pure data parallelism: the batch split on every
 * hierarchy axis (input S(0)), every weight and its update replicated (B);
 * weight gradients come out of the wgrad matmuls as P and are all-reduced
 * (P -> B) into the update. Ours [O] (spec oneflow.md §8.3).
 */
#include "strategy.h"

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	(void)o;
	return sb_sbp_fixed_plan(g, "d", sig, err);
}

const struct sb_sbp_planner sb_sbp_planner_data_parallel = {
	.name = "data-parallel",
	.cite = "data parallelism with all-reduce (e.g. Li et al., PyTorch Distributed, VLDB 2020)",
	.desc = "input S(0), weights and updates B: gradients all-reduced",
	.provenance = "ours",
	.plan = plan,
};
