/*
 * ssp.c - stale synchronous parallel: every worker pushes after each step
 * (the PS applies W += Delta_i / M) and, on pull, waits while its clock is
 * s or more commits ahead of the slowest worker. s = 40 as in the ADSP
 * authors' run script. Verified [V, code: cifar10/mySSP.py, run.sh].
 */
#include "sync/sync.h"

static const struct sb_param params[] = {
	{ "s", 40, 1, 1e9, 1, "staleness bound in commits (1e9: never wait = ASP)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	double b = sb_opts_get(o, "s");
	ctl->bound = b >= SB_SYNC_INF ? SB_SYNC_INF : (long)b;
	ctl->setting = b;
	return 0;
}

const struct sb_sync_policy sb_sync_policy_ssp = {
	.name = "ssp",
	.cite = "Ho et al., More effective distributed ML via a stale synchronous parallel "
		"parameter server, NIPS 2013",
	.desc = "push every step, wait while s commits ahead of the slowest (s = 40)",
	.provenance = "verified: adsp code (mySSP.py)",
	.params = params,
	.init = init,
	.should_commit = sb_sync_every_step,
};
