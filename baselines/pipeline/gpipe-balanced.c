/*
 * gpipe-balanced.c - GPipe's partitioner: S stages of contiguous layers,
 * one GPU each, balanced so that the most expensive stage is as cheap as
 * possible; run under the GPipe schedule (all forwards, all backwards,
 * flush), re-materialisation on by default.
 *
 * Y. Huang, Y. Cheng, A. Bapna, O. Firat, M. X. Chen, D. Chen, H. Lee,
 * J. Ngiam, Q. V. Le, Y. Wu, Z. Chen, "GPipe: efficient training of giant
 * neural networks using pipeline parallelism", NeurIPS 2019.
 *
 * Algorithm: S stages balanced by estimated cost, one device per stage,
 * all forwards then all backwards, re-materialisation [V, spec
 * pipeplan.md §4]. The paper balances the cells' estimated costs (we
 * recall: by minimising their variance [M]); we minimise the largest
 * stage cost instead, exactly, with the O(S L^2) min-max partition [O]
 * (the bottleneck is what the iteration time depends on). Stage cost =
 * forward + backward per sample as the cost model charges them, i.e.
 * with re-computation the backward includes the re-run forward [O].
 * Stage s runs on GPU s (GPU id order) [O]. A stage is only allowed if it
 * fits the GPU memory with the schedule's in-flight count (GPipe: all M
 * microbatches) [O]. Microbatches when the problem leaves them open: the
 * paper's guideline that the bubble is negligible for M >= 4 S [M], as
 * the smallest whole divisor of the batch that is >= 4 S (else one sample
 * per microbatch) [O].
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "stages", 0, 0, 256, 1, "pipeline stages S (0: one per GPU, at most one per layer)" },
	{ "recompute", 1, 0, 1, 1, "1: re-materialise activations in the backward (GPipe's "
	  "default), 0: stash every microbatch's activations" },
	{ NULL, 0, 0, 0, 0, NULL }
};

struct ctx {
	const struct sb_pmodel *m;
	const struct sb_pipeline_prefix *x;
	const struct sb_pipeline_schedule *sc;
	const struct sb_opts *so;
	int S, M, recompute;
	double beta, kappa, limit;
};

static double stage_cost(void *vc, int first, int last, int stage)
{
	const struct ctx *c = vc;
	const struct sb_pipeline_prefix *x = c->x;
	double f = x->fwd[last + 1] - x->fwd[first], b = x->bwd[last + 1] - x->bwd[first];
	int cap = sb_pbase_cap(c->sc, c->so, c->S, c->M, stage);
	if (sb_pipeline_stage_mem(c->m, x, first, last, 1, c->beta, cap, c->kappa, c->recompute) >
	    c->limit)
		return INFINITY;
	return f + b + (c->recompute ? f : 0);
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	struct sb_opts so;
	struct sb_pipeline_prefix x;
	struct ctx c;
	int S = (int)sb_opts_get(o, "stages"), M, s, *last, rc = 0;
	double opt;

	c.sc = sb_pbase_sched(pb, "gpipe", &so, err);
	if (!c.sc)
		return SB_EXIT_INPUT;
	if (S == 0)
		S = t->n;
	if (S > m->n)
		S = m->n;
	if (S > t->n)
		return sb_err_set(err, SB_EXIT_INPUT, "gpipe-balanced: %d stages need %d GPUs, the "
				  "topology has %d", S, S, t->n);
	if (!(pb->batch >= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "gpipe-balanced: batch %g < 1", pb->batch);
	M = pb->M;
	if (M == 0) {
		M = sb_pbase_divisor_ge(pb->batch, 4 * S);
		if (M == 0)
			M = (int)sb_min(4 * S, floor(pb->batch));
	}
	if (M > pb->batch)
		return sb_err_set(err, SB_EXIT_INPUT, "gpipe-balanced: %d microbatches of a batch of "
				  "%g samples", M, pb->batch);
	c.m = m;
	c.x = &x;
	c.so = &so;
	c.S = S;
	c.M = M;
	c.recompute = (int)sb_opts_get(o, "recompute");
	c.beta = pb->batch / M;
	c.kappa = pb->kappa;
	c.limit = sb_pbase_mem_limit(t);
	sb_pipeline_prefix_init(&x, m);
	last = SB_NEW(int, S);
	opt = sb_pipeline_minmax(m->n, S, stage_cost, &c, last);
	if (opt == INFINITY) {
		rc = sb_err_set(err, SB_EXIT_RUN, "gpipe-balanced: no partition into %d stages fits "
				"%.4g GB per GPU under schedule %s with %d microbatches%s", S,
				t->mem / 1e9, c.sc->name, M,
				c.recompute ? "" : " (try recompute=1)");
		goto out;
	}
	sb_pipeline_plan_init(out, S, 1);
	out->M = M;
	out->recompute = c.recompute;
	for (s = 0; s < S; s++) {
		out->st[s].first = s ? last[s - 1] + 1 : 0;
		out->st[s].last = last[s];
		out->st[s].r = 1;
		out->st[s].gpu[0] = s;
	}
	sb_pbase_finish(out, pb, "gpipe-balanced", c.sc);
out:
	sb_free(last);
	sb_pipeline_prefix_release(&x);
	return rc;
}

const struct sb_pipeline_planner sb_pipeline_planner_gpipe_balanced = {
	.name = "gpipe-balanced",
	.cite = "Huang et al., GPipe: efficient training of giant neural networks using "
		"pipeline parallelism, NeurIPS 2019",
	.desc = "S stages, one GPU each in id order, min-max balanced cost, re-materialisation",
	.provenance = "published algorithm",
	.params = params,
	.schedule = "gpipe",
	.plan = plan,
};
