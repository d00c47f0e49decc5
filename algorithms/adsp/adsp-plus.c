/*
 * adsp-plus.c - ADSP+ : ADSP's workers with a fixed commit rate ΔC chosen
 * offline.
 * Family: sync (core/sync/).
 * Hu, Wang & Wu, AAAI 2020 [V, code: the commit rule of strain.py; the
 * offline grid of offline_search_commit_rate.py]. The grid search itself
 * is a sweep over `dc` run by an experiment; this policy is one point of
 * that grid. Non-integer ΔC (0.25, 0.5) is allowed as in the authors'
 * commit-rate study.
 */
#include "adsp.h"

static const struct sb_param params[] = {
	{ "dc", 2, 0.01, 1000, 0, "commits per worker per check period" },
	{ "min_interval", 10, 0, 1e6, 0, "minimum seconds between commits" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx { double dc, min_interval; };

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	c->dc = sb_opts_get(o, "dc");
	c->min_interval = sb_opts_get(o, "min_interval");
	*ctx = c;
	ctl->bound = SB_SYNC_INF;
	ctl->setting = c->dc;
	return 0;
}

static int should_commit(void *ctx, const struct sb_sync_sim *s, int i)
{
	struct ctx *c = ctx;
	return sb_adsp_commit(c->dc, c->min_interval, 1, s, i);
}

const struct sb_sync_policy sb_sync_policy_adsp_plus = {
	.name = "adsp-plus",
	.cite = "Hu, Wang & Wu, Distributed Machine Learning through Heterogeneous Edge "
		"Systems, AAAI 2020 (ADSP+)",
	.desc = "ADSP with a fixed commit rate dc from an offline grid search",
	.provenance = "verified: adsp code (strain.py)",
	.params = params,
	.init = init,
	.release = sb_free,
	.should_commit = should_commit,
};
