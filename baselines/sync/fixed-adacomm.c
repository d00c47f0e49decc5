/*
 * fixed-adacomm.c - local SGD with a fixed period: every worker runs tau
 * local steps, pushes its accumulated change, waits at a barrier until all
 * workers have pushed as often (bound 1) and pulls the average. tau = 40
 * as in the ADSP authors' "Fixed ADACOMM" runs [V, code: myAdacomm.py].
 */
#include "sync/sync.h"

static const struct sb_param params[] = {
	{ "tau", 40, 1, 100000, 1, "local steps between synchronisations" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx { long tau; };

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	c->tau = (long)sb_opts_get(o, "tau");
	*ctx = c;
	ctl->bound = 1;
	ctl->setting = (double)c->tau;
	return 0;
}

static int should_commit(void *ctx, const struct sb_sync_sim *s, int i)
{
	return s->since[i] >= ((struct ctx *)ctx)->tau;
}

const struct sb_sync_policy sb_sync_policy_fixed_adacomm = {
	.name = "fixed-adacomm",
	.cite = "Wang & Joshi, Adaptive communication strategies to achieve the best "
		"error-runtime trade-off in local-update SGD, SysML 2019",
	.desc = "tau = 40 local steps, then a barrier and averaging",
	.provenance = "verified: adsp code (myAdacomm.py)",
	.params = params,
	.init = init,
	.release = sb_free,
	.should_commit = should_commit,
};
