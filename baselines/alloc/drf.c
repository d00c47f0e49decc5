/*
 * drf.c - dominant resource fairness: one worker (with its bundled PS) at
 * a time to the job with the smallest dominant share
 * max_r(allocated_r / capacity_r), ties to the earlier arrival; the slot
 * ends at the first job that cannot get one more.
 * Rule [V, DL2 drf_env.py]; placement (pack, then first fit) ours [O].
 */
#include "alloc/alloc.h"

#include <math.h>

static double share(const struct sb_alloc_plan *pl, const double *total, int j)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	double d = 0;
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (total[r] > 0)
			d = sb_max(d, (pl->w[j] * jb->wdem[r] + pl->p[j] * jb->pdem[r]) / total[r]);
	return d;
}

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	double total[SB_ALLOC_NRES] = { 0 };
	int s, r;
	for (s = 0; s < v->in->nserver; s++)
		for (r = 0; r < SB_ALLOC_NRES; r++)
			total[r] += v->in->cap[s][r];
	for (;;) {
		int i, best = -1;
		double bs = INFINITY;
		for (i = 0; i < v->nactive; i++) {
			int j = v->active[i];
			double d;
			if (pl->w[j] >= v->in->job[j].max_workers)
				continue;
			d = share(pl, total, j);
			if (d < bs) {
				bs = d;
				best = j;
			}
		}
		if (best < 0 || sb_alloc_add_unit(pl, best, SB_ALLOC_PACK, rng) < 0)
			return 0;
	}
}

const struct sb_alloc_policy sb_alloc_policy_drf = {
	.name = "drf",
	.cite = "Ghodsi et al., Dominant Resource Fairness, NSDI 2011; DL2 drf_env.py",
	.desc = "one worker at a time to the smallest dominant share",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
