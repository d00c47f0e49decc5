/*
 * dp_common.c - pure data parallelism with gradient accumulation, the
 * DP baselines of DAPPLE (dp_common.h; spec dapple.md §4, pipeplan.md §4
 * "Pure DP").
 *
 * Every GPU holds the whole model and processes batch / N samples per
 * iteration in M microbatches of batch / (N M), accumulating gradients;
 * after the last backward the gradients are all-reduced over all GPUs
 * (ring, at the smallest bandwidth among them), either after the backward
 * (dp) or layer by layer behind it (dp-overlap: DAPPLE's "normal
 * overlap"). No re-computation: DAPPLE's DP baselines accumulate
 * gradients instead.
 *
 * Representation [O]: one stage replicated over r GPUs that split every
 * microbatch (copies = 1, r = N) when N <= 64, the most replicas a stage
 * holds; beyond that, the fewest identical copies c of a one-stage
 * pipeline with r = N / c <= 64. Both cost the same in our model (each GPU
 * computes batch / (N M) samples per microbatch, one all-reduce over all
 * N GPUs); r = N keeps the plan text listing every GPU.
 *
 * Microbatches when the problem leaves them open [O]: the smallest M whose
 * microbatch fits the memory of a GPU under the schedule's in-flight count
 * (1 under 1f1b: gradient accumulation), taking only divisors of the
 * per-GPU batch when it is whole so that every microbatch has the same
 * whole number of samples.
 */
#include "dp_common.h"
#include "pbase_util.h"

#include <math.h>

/* Fewest copies c of a one-stage pipeline with N / c replicas each, at
 * most 64 (the size of sb_pipeline_stage.gpu). */
static int dp_copies(int N)
{
	int c;
	for (c = 1; c <= N; c++)
		if (N % c == 0 && N / c <= 64)
			return c;
	return N;
}

static double dp_mem(const struct sb_pmodel *m, const struct sb_pipeline_prefix *x,
		     const struct sb_pipeline_schedule *sc, const struct sb_opts *so, double batch,
		     int copies, int r, int M, double kappa)
{
	int cap = sb_pbase_cap(sc, so, 1, M, 0);
	return sb_pipeline_stage_mem(m, x, 0, m->n - 1, r, batch / ((double)copies * M), cap, kappa,
				 0);
}

int sb_dp_plan(const struct sb_pipeline_problem *pb, int overlap, const char *planner,
	       struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;
	struct sb_pipeline_prefix x;
	int N = t->n, copies = dp_copies(N), r = N / copies, M = 0, k, i, rc = 0;
	double per_gpu = pb->batch / N, limit = sb_pbase_mem_limit(t);

	sc = sb_pbase_sched(pb, "1f1b", &so, err);
	if (!sc)
		return SB_EXIT_INPUT;
	/* too few samples for data parallelism over every GPU: no plan of
	 * this family (not a bad input) */
	if (!(per_gpu >= 1))
		return sb_err_set(err, SB_EXIT_RUN, "%s: batch %g leaves %d GPUs less than one "
				  "sample each", planner, pb->batch, N);
	if (pb->M > 0 && pb->M > per_gpu * (1 + 1e-12))
		return sb_err_set(err, SB_EXIT_RUN, "%s: %d microbatches of %g samples per GPU "
				  "leave less than one sample per microbatch", planner, pb->M,
				  per_gpu);
	sb_pipeline_prefix_init(&x, m);
	if (pb->M > 0) {
		if (dp_mem(m, &x, sc, &so, pb->batch, copies, r, pb->M, pb->kappa) <= limit)
			M = pb->M;
	} else {
		int whole = sb_pbase_whole(per_gpu), most = (int)floor(per_gpu + 1e-9);
		for (k = 1; k <= most && !M; k++) {
			if (whole && most % k)
				continue;
			if (dp_mem(m, &x, sc, &so, pb->batch, copies, r, k, pb->kappa) <= limit)
				M = k;
		}
	}
	if (!M) {
		int worst = pb->M > 0 ? pb->M : (int)floor(per_gpu + 1e-9);
		rc = sb_err_set(err, SB_EXIT_RUN, "%s: the model does not fit one GPU: %.4g GB per "
				"GPU (%.4g GB of training state) with M = %d (%g samples per GPU "
				"per microbatch) under schedule %s, GPUs have %.4g GB", planner,
				dp_mem(m, &x, sc, &so, pb->batch, copies, r, worst, pb->kappa) / 1e9,
				(pb->kappa > 0 ? pb->kappa : 2) * x.params[m->n] / 1e9, worst,
				per_gpu / worst, sc->name, t->mem / 1e9);
		goto out;
	}
	sb_pipeline_plan_init(out, 1, copies);
	out->M = M;
	out->overlap = overlap;
	for (k = 0; k < copies; k++) {
		struct sb_pipeline_stage *st = &out->st[k];
		st->first = 0;
		st->last = m->n - 1;
		st->r = r;
		for (i = 0; i < r; i++)
			st->gpu[i] = k * r + i;
	}
	sb_pbase_finish(out, pb, planner, sc);
out:
	sb_pipeline_prefix_release(&x);
	return rc;
}
