/*
 * gadget_engine.c - GADGET-R's per-slot greedy with ring embedding and
 * look-ahead (alloc family), reconstructed [R] from gadget.md §3:
 * M. Yu, Y. Tian, B. Ji, C. Wu, H. Rajan, J. Liu, "GADGET: Online Resource
 * Optimization for Scheduling Ring-All-Reduce Learning Jobs", IEEE INFOCOM
 * 2022 (abstract only: greedy ring-all-reduce graph embedding [V]).
 *
 * Every slot starts with all GPUs free (re-planning is free, gadget.md §3
 * step 1 [O]). Each active job's candidate is the worker count k' > k_j
 * with the best *average* utility gain per added worker, its rate taken
 * with the embedding k' would get (one server if one holds k', else
 * spread): the look-ahead matters because a ring's throughput can drop
 * from 1 to 2 workers when m / B_out is large. The best candidate is
 * re-evaluated (gains only fall as the slot fills, so a stale gain is an
 * upper bound: lazy evaluation is exact), committed by re-embedding the
 * job, and the loop ends when no gain is positive or nothing fits.
 * Utility gains follow the instance's objective: EXC (weighted progress
 * fraction, nothing beyond the target), ENE (the same minus eta per GPU),
 * FAIR (log of the fraction); JCT is treated like EXC [O].
 *
 * Family: alloc (core/alloc/).
 */
#include "gadget.h"

#include <math.h>

static double uval(const struct sb_alloc_inst *in, int j, double progress)
{
	const struct sb_alloc_job *jb = &in->job[j];
	double x = sb_min(progress, jb->target) / jb->target;
	return in->util == SB_ALLOC_FAIR ? log(in->eps + x) : jb->weight * x;
}

static double cost(const struct sb_alloc_inst *in, int j, int k)
{
	return in->util == SB_ALLOC_ENE ? in->eta * k * in->job[j].wdem[0] : 0;
}

/* Best average gain per worker over k' in (k_j, K_j] into *k. */
static double best_step(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, int j,
			int nolocal, int *k)
{
	const struct sb_alloc_inst *in = v->in;
	int cur = pl->w[j], one, all, kk, K = in->job[j].max_workers;
	double P = v->progress[j], base, best = -INFINITY;

	sb_alloc_room(pl, j, &one, &all);
	base = uval(in, j, P + (cur ? sb_alloc_rate(in, j, cur, pl->p[j],
						    !nolocal && sb_alloc_plan_local(pl, j)) : 0)) -
	       cost(in, j, cur);
	*k = -1;
	for (kk = cur + 1; kk <= K && kk <= all; kk++) {
		double r = sb_alloc_rate(in, j, kk, sb_alloc_ps_for(in, j, kk), !nolocal && kk <= one);
		double g = (uval(in, j, P + r) - cost(in, j, kk) - base) / (kk - cur);
		if (g > best + 1e-15) {
			best = g;
			*k = kk;
		}
	}
	return best;
}

static int grow(struct sb_alloc_plan *pl, int j, int k, int nolocal, struct sb_rng *rng)
{
	if (!nolocal)
		return sb_alloc_embed(pl, j, k);
	while (pl->w[j] < k)
		if (sb_alloc_add_unit(pl, j, SB_ALLOC_LEAST, rng) < 0)
			return 0;
	return 1;
}

void sb_gadget_greedy(const struct sb_alloc_view *v, struct sb_alloc_plan *pl,
		      struct sb_rng *rng, int nolocal)
{
	int n = v->nactive, i;
	double *gain = SB_NEW(double, n > 0 ? n : 1);
	int *target = SB_NEW(int, n > 0 ? n : 1);

	for (i = 0; i < n; i++)
		gain[i] = best_step(v, pl, v->active[i], nolocal, &target[i]);
	for (;;) {
		int b = -1;
		double g;
		for (i = 0; i < n; i++)
			if (target[i] > 0 && gain[i] > 0 && (b < 0 || gain[i] > gain[b]))
				b = i;
		if (b < 0)
			break;
		g = best_step(v, pl, v->active[b], nolocal, &target[b]);
		if (g < gain[b] - 1e-12 * (1 + fabs(gain[b]))) {
			gain[b] = g;    /* stale: evaluate again against the others */
			continue;
		}
		if (target[b] < 0 || !grow(pl, v->active[b], target[b], nolocal, rng)) {
			target[b] = -1; /* cannot grow any more this slot */
			continue;
		}
		gain[b] = best_step(v, pl, v->active[b], nolocal, &target[b]);
	}
	sb_free(gain);
	sb_free(target);
}
