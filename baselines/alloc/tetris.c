/*
 * tetris.c - Tetris packing: for each server in turn, score every job as
 * alignment + weight x remaining-resource, where alignment is the dot
 * product of the server's free vector and the job's per-worker demand and
 * remaining-resource is that demand x (1 - progress fraction); weight is
 * the ratio of the two scores' means; place one worker of the best job on
 * the server and score again until nothing fits there.
 * Rule [V, DL2 tetris_env.py]; Grandl et al., SIGCOMM 2014. Demands are
 * normalised by the server's capacity [O].
 */
#include "alloc/alloc.h"

#include <math.h>

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	const struct sb_alloc_inst *in = v->in;
	double *al = SB_NEW(double, v->nactive), *rem = SB_NEW(double, v->nactive);
	int s, i, r;

	for (s = 0; s < in->nserver; s++) {
		for (;;) {
			double ma = 0, mr = 0, w, best = -INFINITY;
			int n = 0, bj = -1;
			for (i = 0; i < v->nactive; i++) {
				int j = v->active[i];
				const struct sb_alloc_job *jb = &in->job[j];
				int dp = sb_alloc_ps_for(in, j, pl->w[j] + 1) > pl->p[j];
				al[i] = rem[i] = -1;
				if (!sb_alloc_plan_fits(pl, j, s, 1, dp))
					continue;
				al[i] = rem[i] = 0;
				for (r = 0; r < SB_ALLOC_NRES; r++) {
					double d = in->cap[s][r] > 0 ?
						(jb->wdem[r] + dp * jb->pdem[r]) / in->cap[s][r] : 0;
					al[i] += d * pl->free[s][r] / (in->cap[s][r] > 0 ? in->cap[s][r] : 1);
					rem[i] += d * (1 - v->progress[j] / jb->target);
				}
				ma += al[i];
				mr += rem[i];
				n++;
			}
			if (!n)
				break;
			w = mr > 0 ? ma / mr : 1;
			for (i = 0; i < v->nactive; i++)
				if (al[i] >= 0 && al[i] + w * rem[i] > best) {
					best = al[i] + w * rem[i];
					bj = v->active[i];
				}
			sb_alloc_plan_add(pl, bj, s, 1, sb_alloc_ps_for(in, bj, pl->w[bj] + 1) > pl->p[bj]);
		}
	}
	sb_free(al);
	sb_free(rem);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_tetris = {
	.name = "tetris",
	.cite = "Grandl et al., Multi-Resource Packing for Cluster Schedulers, SIGCOMM 2014; DL2 tetris_env.py",
	.desc = "per server, one worker at a time to the best alignment + remaining-work score",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
