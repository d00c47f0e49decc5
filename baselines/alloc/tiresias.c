/*
 * tiresias.c - Tiresias discretised 2D least-attained-service: jobs ranked
 * by queue (attained GPU-seconds against the thresholds 3250, 7200, 18000
 * of the public simulator's jobs.py, as the cluster family's tiresias
 * uses) and arrival inside a queue; non-elastic, each with its requested
 * worker count; placed consolidated where possible (yarn-style), else
 * spread; a job that does not fit is skipped.
 * Rule [V, SymbioticLab/Tiresias simulator README; Gu et al., NSDI 2019].
 * Re-deciding every slot without a preemption cost is ours [O].
 */
#include "alloc/alloc.h"

static const struct sb_param params[] = {
	{ "queues", 3, 1, 4, 1, "number of queues (thresholds 3250, 7200, 18000 GPU-s)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double limits[3] = { 3250, 7200, 18000 };

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int nq = (int)sb_opts_get(o, "queues"), i;
	double *key = SB_NEW(double, v->in->njob);
	int *ord = SB_NEW(int, v->nactive);

	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i], q = 0;
		while (q < nq - 1 && v->attained[j] >= limits[q])
			q++;
		key[j] = q;
	}
	sb_alloc_order(v, key, ord);
	for (i = 0; i < v->nactive; i++)
		sb_alloc_embed(pl, ord[i], v->in->job[ord[i]].req_workers);
	sb_free(key);
	sb_free(ord);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_tiresias = {
	.name = "tiresias",
	.cite = "Gu et al., Tiresias: A GPU Cluster Manager for Distributed Deep Learning, NSDI 2019",
	.desc = "2D-LAS queues on attained GPU-time, requested workers, consolidated placement",
	.provenance = "verified: public simulator",
	.params = params,
	.allocate = allocate,
};
