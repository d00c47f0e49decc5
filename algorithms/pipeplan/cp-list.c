/*
 * cp-list.c - SPP-R step 3 (ours): list scheduling of one pipeline
 * iteration by critical path. Whenever a stage is free it starts the ready
 * task with the largest upward rank (longest path from the task to the end
 * of the iteration, including transfers and the all-reduce tails, as
 * pipesim computes it), ties by the lower microbatch, then backward first.
 * The in-flight cap comes from memory: as many microbatches as the GPU can
 * stash next to the stage's weights, at least one, at most M.
 *
 * Z. Luo, X. Yi, G. Long, S. Fan, C. Wu, J. Yang, W. Lin, "Efficient
 * pipeline planning for expedited distributed DNN training", INFOCOM 2022.
 * Only the abstract is known to us: this scheduler is our reconstruction
 * (spec pipeplan.md §3 step 3, "SPP-R (ours)"), not the paper's.
 *
 * Two parameters keep the rules of §3 comparable on one code path: rule=1
 * ("bwd-first": backward before forward, lower microbatch first) with
 * cap=1 (S - s in flight) is 1F1B task for task (tests/test_pipebound.c
 * checks it), rule=0 with cap=0 is the critical-path rule proper.
 *
 * Family: pipeline (core/pipeline/).
 */
#include "opts.h"
#include "pipeline/pipeline.h"

enum { RULE_CP = 0, RULE_BWD_FIRST = 1 };
enum { CAP_MEMORY = 0, CAP_DEPTH = 1, CAP_M = 2 };

static const struct sb_param params[] = {
	{ "rule", RULE_CP, 0, 1, 1, "0: largest upward rank first (critical path); "
	  "1: backward first (bwd-first)" },
	{ "cap", CAP_MEMORY, 0, 2, 1, "in-flight cap: 0 what fits the GPU's memory, "
	  "1 S - s (as 1F1B), 2 M" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/*
 * Memory cap: the largest n with mem_w + n mem_a <= GPU memory, computed
 * with the very sum pipesim reports as peak memory so that a timeline
 * under this cap always fits when one microbatch does. Without costs
 * (sb_pipeline_sched_cap asks with the plan only) the answer a planner needs
 * is whether the plan can run at all under this schedule, which is
 * whether one microbatch fits: so 1.
 */
static int memory_cap(const struct sb_pipeline_view *v)
{
	const struct sb_pipeline_costs *c = v->costs;
	int M = v->plan->M, s = v->stage;
	double room, n;

	if (!c)
		return 1;
	if (!(c->mem_a[s] > 0))
		return M;
	room = c->gpu_mem - c->mem_w[s];
	if (!(room > c->mem_a[s]))
		return 1;
	n = room / c->mem_a[s];
	if (n >= M)
		return M;
	{
		int k = (int)n;
		while (k > 1 && c->mem_w[s] + k * c->mem_a[s] > c->gpu_mem)
			k--;
		return k < 1 ? 1 : k;
	}
}

static int cap(const struct sb_pipeline_view *v, const struct sb_opts *o)
{
	switch ((int)sb_opts_get_or(o, "cap", CAP_MEMORY)) {
	case CAP_DEPTH:
		return v->plan->S - v->stage;
	case CAP_M:
		return v->plan->M;
	default:
		return memory_cap(v);
	}
}

/* Rank of a ready task; 0 when the simulator gave none (then the ties
 * decide alone: lower microbatch, backward first). */
static double rank_of(const struct sb_pipeline_view *v, const struct sb_pipeline_task *t)
{
	if (!v->rank)
		return 0;
	return v->rank[(t->kind == SB_PIPELINE_B ? v->plan->S : 0) + v->stage];
}

/* 1 if task a goes before task b. */
static int before(const struct sb_pipeline_view *v, int rule, const struct sb_pipeline_task *a,
		  const struct sb_pipeline_task *b)
{
	if (rule == RULE_BWD_FIRST) {
		if (a->kind != b->kind)
			return a->kind == SB_PIPELINE_B;
		return a->mb < b->mb;
	}
	{
		double ra = rank_of(v, a), rb = rank_of(v, b);
		if (ra != rb)
			return ra > rb;
	}
	if (a->mb != b->mb)
		return a->mb < b->mb;
	return a->kind == SB_PIPELINE_B && b->kind != SB_PIPELINE_B;
}

/* Work-conserving: a free stage with a ready task always starts one. */
static int pick(const struct sb_pipeline_view *v, const struct sb_pipeline_task *ready, int n,
		const struct sb_opts *o)
{
	int rule = (int)sb_opts_get_or(o, "rule", RULE_CP), i, best = 0;
	for (i = 1; i < n; i++)
		if (before(v, rule, &ready[i], &ready[best]))
			best = i;
	return n > 0 ? best : -1;
}

const struct sb_pipeline_schedule sb_pipeline_schedule_cp_list = {
	.name = "cp-list",
	.cite = "Luo et al., Efficient pipeline planning for expedited distributed DNN "
		"training, INFOCOM 2022 (abstract only; SPP-R step 3 is our reconstruction)",
	.desc = "SPP-R (ours): list scheduling by upward rank (critical path), ties by lower "
		"microbatch then backward first; in-flight cap from GPU memory",
	.provenance = "reconstruction (ours)",
	.params = params,
	.cap = cap,
	.pick = pick,
	.wants_rank = 1,
};
