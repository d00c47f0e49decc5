/*
 * fifo.c - first in, first out, elastic: jobs in arrival order, each given
 * as many workers as fit up to its cap before the next; the slot's
 * allocation stops at the first job that gets nothing more.
 * Rule [V, DL2 fifo_env.py, github.com/pengyanghua/DL2]: PS jobs get one
 * PS bundled with each worker, as DL2 does. Placement (a server the job
 * already uses, else the first that fits) is ours [O].
 */
#include "alloc/alloc.h"

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int i;
	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i];
		while (pl->w[j] < v->in->job[j].max_workers)
			if (sb_alloc_add_unit(pl, j, SB_ALLOC_PACK, rng) < 0)
				return 0;   /* the first allocation failure ends the slot */
	}
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_fifo = {
	.name = "fifo",
	.cite = "DL2 fifo_env.py (Peng et al., DL2, IEEE TPDS 2021)",
	.desc = "arrival order, as many workers as fit per job, stop at the first failure",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
