/*
 * local-first.c - locality first: jobs in arrival order, each given the
 * most workers (up to its cap) that one server can hold with their PSs;
 * a job that fits on no server gets as many as the cluster spreads.
 * Ours [O], pslocality.md §4 (locality-only heuristic).
 */
#include "alloc/alloc.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int i, k;
	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i], s, placed = 0;
		for (k = v->in->job[j].max_workers; k >= 1 && !placed; k--)
			for (s = 0; s < v->in->nserver && !placed; s++)
				if (sb_alloc_plan_fits(pl, j, s, k, sb_alloc_ps_for(v->in, j, k))) {
					sb_alloc_plan_add(pl, j, s, k, sb_alloc_ps_for(v->in, j, k));
					placed = 1;
				}
		while (!placed && pl->w[j] < v->in->job[j].max_workers &&
		       sb_alloc_add_unit(pl, j, SB_ALLOC_LEAST, rng) >= 0)
			;
	}
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_local_first = {
	.name = "local-first",
	.cite = "locality-only heuristic (pslocality.md §4)",
	.desc = "arrival order, the most workers one server holds, else spread",
	.provenance = "ours",
	.allocate = allocate,
};
