/*
 * srtf.c - shortest remaining time first: jobs ranked by their remaining
 * work over the rate of their requested configuration (spread, a PS per
 * worker), each started with that configuration where it fits, else
 * skipped. Rule [V, DL2 srtf_env.py]; placement ours [O].
 */
#include "alloc/alloc.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	const struct sb_alloc_inst *in = v->in;
	double *key = SB_NEW(double, in->njob);
	int *ord = SB_NEW(int, v->nactive), i;

	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i], k = in->job[j].req_workers;
		key[j] = (in->job[j].target - v->progress[j]) /
			 sb_alloc_rate(in, j, k, sb_alloc_ps_for(in, j, k), 0);
	}
	sb_alloc_order(v, key, ord);
	for (i = 0; i < v->nactive; i++)
		sb_alloc_place_k(pl, ord[i], in->job[ord[i]].req_workers, SB_ALLOC_PACK, rng);
	sb_free(key);
	sb_free(ord);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_srtf = {
	.name = "srtf",
	.cite = "shortest remaining time first, DL2 srtf_env.py (Peng et al., IEEE TPDS 2021)",
	.desc = "least remaining time at the requested configuration first",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
