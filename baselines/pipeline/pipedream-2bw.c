/*
 * pipedream-2bw.c - PipeDream-2BW's planner: w identical pipelines of d
 * stages (d w = N GPUs), the layers split evenly over the stages, and
 * the microbatch size and re-computation chosen with a throughput and a
 * memory model; run under 1F1B with a flush (the synchronous
 * PipeDream-Flush variant of the paper, whose plan shape is the same).
 *
 * D. Narayanan, A. Phanishayee, K. Shi, X. Chen, M. Zaharia,
 * "Memory-efficient pipeline-parallel DNN training", ICML 2021.
 *
 * Algorithm [V, spec pipeplan.md §4]: enumerate the equi-replicated
 * configurations (w copies, d stages, d w = N), the microbatch size b
 * (hence M = batch / (w b) microbatches per pipeline) and re-computation
 * on or off; predict each one's time with a throughput model (per-stage
 * compute, point-to-point activations between stages, all-reduce among
 * the w replicas of a stage, inside or across servers) and keep the
 * fastest configuration that fits the memory model.
 *
 * Our reconstruction [O]:
 *   - layers into stages: the min-max contiguous partition of the
 *     per-sample cost (forward + backward, + forward again with
 *     re-computation). The paper splits identical transformer blocks
 *     equally; on such blocks this is the same split, and it also covers
 *     the models whose layers differ (VGG, GNMT, the embedding and head
 *     layers of BERT);
 *   - two GPU layouts, both enumerated: pipelines on consecutive GPUs
 *     (copy c, stage s on GPU c d + s: transfers inside a server,
 *     all-reduce across) and replicas on consecutive GPUs (GPU s w + c:
 *     the all-reduce inside a server);
 *   - predicted time of one iteration
 *       T = (M + d - 1) max_s (F_s + B_s + 2 C_s) + max_s AR_s,
 *     F, B per microbatch of b samples, C_s = b act / (smallest bandwidth
 *     from a GPU of stage s to its next stage in the same copy) counted
 *     for the activation and its gradient, AR_s = 2 (w-1)/w W_s / (the
 *     smallest bandwidth among the w GPUs of stage s);
 *   - memory: our model (sb_pipeline_stage_mem) with the schedule's in-flight
 *     count (1F1B: d - s); one weight version, as in the Flush variant;
 *   - with the problem's M only b = batch / (w M) >= 1 is allowed; ties
 *     go to fewer stages, the first layout, no re-computation, fewer
 *     microbatches.
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { LAYOUT_PIPELINES = 0, LAYOUT_REPLICAS = 1 };

struct cfg {
	int d, w, layout, recompute, M;
	double T;
};

struct part_ctx {
	const struct sb_pipeline_prefix *x;
	int recompute;
};

static double part_cost(void *vc, int first, int last, int stage)
{
	const struct part_ctx *c = vc;
	double f = c->x->fwd[last + 1] - c->x->fwd[first];
	(void)stage;
	return f + c->x->bwd[last + 1] - c->x->bwd[first] + (c->recompute ? f : 0);
}

static int gpu_of(const struct cfg *c, int copy, int stage)
{
	return c->layout == LAYOUT_PIPELINES ? copy * c->d + stage : stage * c->w + copy;
}

/* Predicted iteration time of configuration c with stage ends last[],
 * or INFINITY when a stage does not fit in memory. */
static double predict(const struct cfg *c, const int *last, const struct sb_pipeline_problem *pb,
		      const struct sb_pipeline_prefix *x, const struct sb_pipeline_schedule *sc,
		      const struct sb_opts *so, int *gbuf)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	double speed = t->speed > 0 ? t->speed : 1, b = pb->batch / ((double)c->w * c->M);
	double limit = sb_pbase_mem_limit(t), stage = 0, ar = 0;
	int s, k;

	for (s = 0; s < c->d; s++) {
		int first = s ? last[s - 1] + 1 : 0;
		double f = b * (x->fwd[last[s] + 1] - x->fwd[first]) / speed;
		double bw = b * (x->bwd[last[s] + 1] - x->bwd[first]) / speed, comm = 0;
		double W = x->params[last[s] + 1] - x->params[first];
		int cap = sb_pbase_cap(sc, so, c->d, c->M, s);
		if (sb_pipeline_stage_mem(m, x, first, last[s], 1, b, cap, pb->kappa, c->recompute) > limit)
			return INFINITY;
		if (s + 1 < c->d) {
			double lbw = INFINITY;
			for (k = 0; k < c->w; k++)
				lbw = sb_min(lbw, t->bw[gpu_of(c, k, s) * t->n + gpu_of(c, k, s + 1)]);
			comm = 2 * (t->latency + b * m->layer[last[s]].act / lbw);
		}
		stage = sb_max(stage, f + bw + (c->recompute ? f : 0) + comm);
		if (c->w > 1) {
			for (k = 0; k < c->w; k++)
				gbuf[k] = gpu_of(c, k, s);
			ar = sb_max(ar, 2.0 * (c->w - 1) / c->w * W / sb_pipeline_min_bw(t, gbuf, c->w, gbuf, c->w));
		}
	}
	return (c->M + c->d - 1) * stage + ar;
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;
	struct sb_pipeline_prefix x;
	struct cfg best, c;
	int N = t->n, L = m->n, *last = SB_NEW(int, L), *blast = SB_NEW(int, L);
	int *gbuf = SB_NEW(int, N), s, k, rc = 0;

	(void)o;
	sc = sb_pbase_sched(pb, "1f1b", &so, err);
	if (!sc) {
		rc = SB_EXIT_INPUT;
		goto done;
	}
	sb_pipeline_prefix_init(&x, m);
	memset(&best, 0, sizeof best);
	best.T = INFINITY;
	for (c.d = 1; c.d <= N && c.d <= L; c.d++) {
		if (N % c.d)
			continue;
		c.w = N / c.d;
		for (c.recompute = 0; c.recompute <= 1; c.recompute++) {
			struct part_ctx pc = { &x, c.recompute };
			double per = pb->batch / c.w;  /* samples per pipeline */
			int Mmax = pb->M > 0 ? pb->M : (int)floor(per + 1e-9), Mmin = pb->M > 0 ? pb->M : 1;
			if (!(per >= 1))
				continue;
			sb_pipeline_minmax(L, c.d, part_cost, &pc, last);
			for (c.layout = 0; c.layout <= 1; c.layout++) {
				if (c.layout == LAYOUT_REPLICAS && (c.w == 1 || c.d == 1))
					continue;
				for (c.M = Mmin; c.M <= Mmax; c.M++) {
					/* every microbatch a whole number of samples, at least one */
					if (per / c.M < 1 - 1e-12)
						continue;
					if (pb->M == 0 && sb_pbase_whole(per) &&
					    (long)floor(per + 0.5) % c.M)
						continue;
					c.T = predict(&c, last, pb, &x, sc, &so, gbuf);
					if (c.T < best.T) {
						best = c;
						memcpy(blast, last, sizeof *last * (size_t)c.d);
					}
				}
			}
		}
	}
	if (best.T == INFINITY) {
		rc = sb_err_set(err, SB_EXIT_RUN, "pipedream-2bw: no configuration of d stages x w "
				"copies (d w = %d)%s fits %.4g GB per GPU under schedule %s, even "
				"with re-computation", N, pb->M > 0 ? " with the given M" : "",
				t->mem / 1e9, sc->name);
		goto out;
	}
	sb_pipeline_plan_init(out, best.d, best.w);
	out->M = best.M;
	out->recompute = best.recompute;
	for (k = 0; k < best.w; k++)
		for (s = 0; s < best.d; s++) {
			struct sb_pipeline_stage *st = &out->st[k * best.d + s];
			st->first = s ? blast[s - 1] + 1 : 0;
			st->last = blast[s];
			st->r = 1;
			st->gpu[0] = gpu_of(&best, k, s);
		}
	sb_pbase_finish(out, pb, "pipedream-2bw", sc);
out:
	sb_pipeline_prefix_release(&x);
done:
	sb_free(last);
	sb_free(blast);
	sb_free(gbuf);
	return rc;
}

const struct sb_pipeline_planner sb_pipeline_planner_pipedream_2bw = {
	.name = "pipedream-2bw",
	.cite = "Narayanan et al., Memory-efficient pipeline-parallel DNN training, ICML 2021",
	.desc = "w copies x d stages (d w = N), balanced split, microbatch size and "
		"re-computation from a throughput and memory model",
	.provenance = "reconstruction (ours)",
	.params = NULL,
	.schedule = "1f1b",
	.plan = plan,
};
