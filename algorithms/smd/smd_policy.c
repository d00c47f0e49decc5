/*
 * smd_policy.c - SMD as an online policy of the alloc simulator (smd.md §3
 * step 4: re-run every round, elastic [O]); see smd_round.c for the round.
 *
 * Family: alloc (core/alloc/).
 */
#include "smd_policy.h"

int sb_smd_allocate(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, int layered,
		    int exact, struct sb_err *err)
{
	const struct sb_alloc_inst *in = v->in;
	struct sb_smd_round rd;
	double *rem = SB_NEW(double, in->njob);
	int *choice = SB_NEW(int, v->nactive + 1), i, rc = 0, optimal;

	for (i = 0; i < v->nactive; i++)
		rem[v->active[i]] = in->job[v->active[i]].target - v->progress[v->active[i]];
	sb_smd_round_build(&rd, in, v->active, v->nactive, rem, layered);
	sb_smd_round_solve(&rd, choice);
	if (exact && (rc = sb_alloc_mmkp_choose(&rd.m, choice, choice, &optimal, err)))
		goto out;
	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i], w = rd.w[choice[i]], p = rd.p[choice[i]];
		/* aggregate capacity does not guarantee per-server packing */
		while (w > 0 && !sb_alloc_embed_wp(pl, j, w, p)) {
			w--;
			if (p > w)
				p = w;
		}
	}
out:
	sb_smd_round_release(&rd);
	sb_free(rem);
	sb_free(choice);
	return rc;
}
