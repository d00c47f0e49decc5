/*
 * bsp.c - bulk synchronous parallel: every worker pushes after each step
 * and pulls only when its clock equals the slowest worker's (staleness
 * bound 1 in commits). Verified [V, code]: the ADSP authors run BSP with
 * their SSP code (cifar10/mySSP.py) and a bound under which a worker
 * proceeds only at the minimum clock; the bound value is our reading of
 * their strict `<` test [M].
 */
#include "sync/sync.h"

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	ctl->bound = 1;
	ctl->setting = 1;
	return 0;
}

const struct sb_sync_policy sb_sync_policy_bsp = {
	.name = "bsp",
	.cite = "Valiant, A bridging model for parallel computation, CACM 1990",
	.desc = "push every step, barrier at every step (bound 1)",
	.provenance = "verified: adsp code (mySSP.py)",
	.init = init,
	.should_commit = sb_sync_every_step,
};
