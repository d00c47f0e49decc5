/*
 * early-backward.c - DAPPLE's early backward scheduling: stage i injects
 * K_i microbatches, then strictly alternates one backward and one
 * forward, so its activation memory is bounded by K_i instead of M.
 *
 * S. Fan et al., "DAPPLE: a pipelined data parallel approach for training
 * large models", PPoPP 2021 (spec dapple.md §3.3).
 *
 * K_i = min(S-i, M) when the stage's activation-communication ratio (ACR)
 * is small, min(2(S-i)-1, M) when it is large (the transfers then count as
 * pipeline stages of their own). Source [3P]: a third-party reading note;
 * the ACR threshold is not published: a parameter, 0.5 by default [O].
 * ACR here [O] = the stage's outgoing transfer time C_i over its compute
 * F_i + B_i under the project's costs (0 for the last stage).
 *
 * The pick is greedy by default: a ready backward first (lowest
 * microbatch), else the next forward if the cap allows; it never idles
 * when something may run, and equals the strict alternation whenever the
 * backwards arrive in time (balanced stages). strict=1 [O] follows the
 * alternation literally, waiting for the task whose turn it is; then the
 * caps are made non-increasing along the pipeline (K_i = max over j >= i),
 * without which the strict order could deadlock. strict=1 is the order of
 * DAPPLE's recursive timeline (dapple_model.h, sb_dapple_timeline).
 *
 * Without the plan's costs (sb_pipeline_sched_cap, used by planners to bound
 * memory) the cap is the large-ACR value, an upper bound of both.
 *
 * Family: pipeline (core/pipeline/).
 */
#include "dapple_model.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "acr_threshold", 0.5, 0, 1e9, 0,
	  "activation-communication ratio above which K_i = 2(S-i)-1 instead of S-i" },
	{ "strict", 0, 0, 1, 1,
	  "1: alternate 1B/1F literally (wait for the task whose turn it is)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int stage_k(const struct sb_pipeline_view *v, int s, double thr)
{
	const struct sb_pipeline_plan *p = v->plan;
	double acr = v->costs ? sb_dapple_acr(v->costs, v->copy, s) : INFINITY;
	return sb_dapple_inject(p->S, s, p->M, acr, thr);
}

static int cap(const struct sb_pipeline_view *v, const struct sb_opts *o)
{
	double thr = sb_opts_get_or(o, "acr_threshold", 0.5);
	int k = stage_k(v, v->stage, thr), s;
	if (sb_opts_get_or(o, "strict", 0) > 0)
		for (s = v->stage + 1; s < v->plan->S; s++) {
			int ks = stage_k(v, s, thr);
			k = ks > k ? ks : k;
		}
	return k;
}

static int find(const struct sb_pipeline_task *ready, int n, int kind, int mb)
{
	int i;
	for (i = 0; i < n; i++)
		if (ready[i].kind == kind && ready[i].mb == mb)
			return i;
	return -1;
}

static int pick(const struct sb_pipeline_view *v, const struct sb_pipeline_task *ready, int n,
		const struct sb_opts *o)
{
	int i, best = -1;
	if (sb_opts_get_or(o, "strict", 0) > 0) {
		/* the sequence F_0..F_{K-1}, B_0, F_K, B_1, ...: a forward is due
		 * while fewer than K are in flight and forwards remain */
		if (v->inflight < cap(v, o) && v->fdone < v->plan->M)
			return find(ready, n, SB_PIPELINE_F, v->fdone);
		return find(ready, n, SB_PIPELINE_B, v->bdone);
	}
	for (i = 0; i < n; i++)
		if (best < 0 || ready[i].kind > ready[best].kind ||
		    (ready[i].kind == ready[best].kind && ready[i].mb < ready[best].mb))
			best = i;
	return best;
}

const struct sb_pipeline_schedule sb_pipeline_schedule_early_backward = {
	.name = "early-backward",
	.cite = "Fan et al., DAPPLE: a pipelined data parallel approach for training large "
		"models, PPoPP 2021",
	.desc = "inject K_i = S-i (2(S-i)-1 when communication-heavy) microbatches, then 1B/1F",
	.provenance = "reconstruction (ours)",
	.params = params,
	.cap = cap,
	.pick = pick,
};
