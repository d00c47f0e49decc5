/*@next (printed by make new-baseline, not copied)
 * edit its plan hook, then 'make && bin/sb list pipeline' shows it;
 * 'bin/sb eval pipeline --model gnmt-16 --topo 2x8-nvlink-25gbe --batch 1024 --policy @NAME@ --bound' tries it,
 * and 'make test' checks it, with every planner, against the lower bounds on random instances.
 */
/*
 * @NAME@.c - <one line: what this pipeline planner does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (pipeline/pipeline.h, struct sb_pipeline_planner): plan() gets the model
 * (a chain of layers, per-sample costs), the topology (GPUs, bandwidth
 * matrix, memory), the global batch and M (0: choose it) and fills a plan:
 * S stages of contiguous layers, each on r GPUs that split every
 * microbatch, optionally `copies` identical pipelines. The harness
 * simulates one iteration under the plan's schedule (pipesim), validates
 * the timeline with the independent checker, and compares it with the
 * lower bound of pipeline/bound.c. Return SB_EXIT_RUN when no plan of
 * your family fits the GPUs' memory. pipeline/pipeline.h also has prefix sums
 * (sb_pipeline_prefix) and the memory of a stage (sb_pipeline_stage_mem).
 *
 * This starting point: S stages of equal layer counts, one GPU each.
 */
#include "pipeline/pipeline.h"

#include <stdio.h>

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ "stages", 0, 0, 64, 1, "pipeline stages, one GPU each (0: every GPU)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	const struct sb_pipeline_schedule *sc = pb->sched ? pb->sched : sb_pipeline_schedule_find("1f1b");
	struct sb_pipeline_prefix x;
	int S = (int)sb_opts_get(o, "stages"), M = pb->M > 0 ? pb->M : 32, s, rc = 0;

	if (S == 0 || S > t->n)
		S = t->n;
	if (S > m->n)
		S = m->n;
	if (M > pb->batch)
		M = (int)pb->batch;
	sb_pipeline_plan_init(out, S, 1);
	out->M = M;
	out->batch = pb->batch;
	out->kappa = pb->kappa;
	snprintf(out->planner, sizeof out->planner, "@NAME@");
	snprintf(out->schedule, sizeof out->schedule, "%s", sc->name);
	for (s = 0; s < S; s++) {
		out->st[s].first = s * m->n / S;
		out->st[s].last = (s + 1) * m->n / S - 1;
		out->st[s].r = 1;
		out->st[s].gpu[0] = s;
	}
	/* every stage must hold its parameters and the microbatches the
	 * schedule keeps in flight */
	sb_pipeline_prefix_init(&x, m);
	for (s = 0; s < S && !rc; s++) {
		double mem = sb_pipeline_stage_mem(m, &x, out->st[s].first, out->st[s].last, 1,
					       pb->batch / M, sb_pipeline_sched_cap(sc, out, s, NULL),
					       pb->kappa, 0);
		if (mem > t->mem)
			rc = sb_err_set(err, SB_EXIT_RUN, "@NAME@: stage %d needs %.3g GB per GPU, "
					"the GPUs have %.3g", s, mem / 1e9, t->mem / 1e9);
	}
	sb_pipeline_prefix_release(&x);
	if (rc)
		sb_pipeline_plan_release(out);
	return rc;
}

const struct sb_pipeline_planner sb_pipeline_planner_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line for sb list>",
	.provenance = "<published algorithm | public code | reconstruction (ours)>",
	.params = params,
	.schedule = "1f1b",
	.plan = plan,
};
