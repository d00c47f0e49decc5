/*
 * optimus.c - Optimus: greedy on marginal utility. A job with no worker
 * has infinite priority; otherwise the gain of one more worker is the drop
 * in estimated remaining time, remaining / speed(k) - remaining /
 * speed(k+1), speed being the model's progress rate with the job's layout
 * (gadget.md §4: for RAR, speed = pi_j(k, sigma)). The worker goes to the
 * server with the least used resources; stop when the best gain <= 0 or
 * nothing fits; at most 16 workers.
 * Rule [V, DL2 optimus_env.py; Peng et al., EuroSys 2018]. PS jobs grow by
 * a worker with its bundled PS rather than deciding PSs apart [O].
 */
#include "alloc/alloc.h"

#include <math.h>

/* Gain of one more worker of j: tried on the plan and taken back. */
static double gain(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, int j,
		   struct sb_rng *rng)
{
	double rem = v->in->job[j].target - v->progress[j], r0, r1;
	int p0 = pl->p[j], s;

	if (pl->w[j] >= 16 || pl->w[j] >= v->in->job[j].max_workers)
		return -INFINITY;
	r0 = sb_alloc_plan_rate(pl, j);
	if ((s = sb_alloc_add_unit(pl, j, SB_ALLOC_LEAST, rng)) < 0)
		return -INFINITY;
	r1 = sb_alloc_plan_rate(pl, j);
	sb_alloc_plan_take(pl, j, s, 1, pl->p[j] - p0);
	return r0 <= 0 ? INFINITY : rem / r0 - rem / r1;
}

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	for (;;) {
		int i, best = -1;
		double bg = 0;
		for (i = 0; i < v->nactive; i++) {
			int j = v->active[i];
			double g = gain(v, pl, j, rng);
			if (g > bg) {
				bg = g;
				best = j;
			}
		}
		if (best < 0 || sb_alloc_add_unit(pl, best, SB_ALLOC_LEAST, rng) < 0)
			return 0;
	}
}

const struct sb_alloc_policy sb_alloc_policy_optimus = {
	.name = "optimus",
	.cite = "Peng et al., Optimus: An Efficient Dynamic Resource Scheduler for Deep Learning Clusters, EuroSys 2018; DL2 optimus_env.py",
	.desc = "greedy on the drop in remaining time per added worker, least-used server",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
