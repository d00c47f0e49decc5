/*
 * asp.c - asynchronous parallel: push after every step, never wait
 * (SSP with s = infinity). Not among the ADSP authors' bars; added as the
 * no-barrier reference [O].
 */
#include "sync/sync.h"

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	ctl->bound = SB_SYNC_INF;
	ctl->setting = SB_SYNC_INF;
	return 0;
}

const struct sb_sync_policy sb_sync_policy_asp = {
	.name = "asp",
	.cite = "Recht et al., Hogwild!, NIPS 2011 (asynchronous SGD)",
	.desc = "push every step, never wait",
	.provenance = "ours",
	.init = init,
	.should_commit = sb_sync_every_step,
};
