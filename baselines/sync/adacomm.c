/*
 * adacomm.c - ADACOMM: local SGD with an adaptive period tau. Workers run
 * tau local steps, push, wait at a barrier (bound 1) and pull the average.
 * Verified [V, code: cifar10/myAdacomm.py]: tau0 is the best of {1, 5,
 * 10, 20, 40, 60, 80, 100}, each tried for one check period from the same
 * restored model, the largest loss drop winning (the search's time counts);
 * then at every check tau = ceil(sqrt(F_t / F_0) tau0) - the rule of Wang
 * & Joshi - or, with variant=1, the authors' variant: the rule's value if
 * it is smaller than tau, else ceil(tau / 2).
 */
#include "sync/sync.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "variant", 0, 0, 1, 1, "1: the ADSP authors' halving variant of the rule" },
	{ "search", 1, 0, 1, 1, "0: skip the tau0 search and start at tau0" },
	{ "tau0", 20, 1, 100000, 1, "tau0 when search=0" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const long cand[] = { 1, 5, 10, 20, 40, 60, 80, 100 };
#define NCAND ((int)(sizeof cand / sizeof cand[0]))

struct ctx {
	int variant, trial;      /* trial: candidate under test, NCAND when done */
	long tau, tau0;
	double f0, best_drop;
	int best;
};

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	c->variant = (int)sb_opts_get(o, "variant");
	c->trial = sb_opts_get(o, "search") ? -1 : NCAND;
	c->tau = c->tau0 = sb_opts_get(o, "search") ? cand[0] : (long)sb_opts_get(o, "tau0");
	c->f0 = -1;
	*ctx = c;
	ctl->bound = 1;
	ctl->setting = (double)c->tau;
	return 0;
}

static int should_commit(void *ctx, const struct sb_sync_sim *s, int i)
{
	return s->since[i] >= ((struct ctx *)ctx)->tau;
}

/* tau after a check with loss f (adsp.md §4) */
long sb_adacomm_next_tau(long tau, long tau0, double f0, double f, int variant);
long sb_adacomm_next_tau(long tau, long tau0, double f0, double f, int variant)
{
	long rule = (long)ceil(sqrt(f / f0) * (double)tau0);
	if (rule < 1)
		rule = 1;
	if (!variant)
		return rule;
	return rule < tau ? rule : (tau + 1) / 2 > 1 ? (tau + 1) / 2 : 1;
}

static void on_eval(void *ctx, const struct sb_sync_sim *s, double loss, int full,
		    struct sb_sync_ctl *ctl)
{
	struct ctx *c = ctx;
	if (!full)
		return;
	if (c->trial < 0) {              /* t = 0: save the model the trials share */
		ctl->snapshot = 1;
		c->f0 = loss;
		c->trial = 0;
		c->best = 0;
		c->best_drop = -HUGE_VAL;
	} else if (c->trial < NCAND) {
		if (c->f0 - loss > c->best_drop) {
			c->best_drop = c->f0 - loss;
			c->best = c->trial;
		}
		ctl->restore = 1;
		if (++c->trial < NCAND) {
			c->tau = cand[c->trial];
		} else {
			c->tau = c->tau0 = cand[c->best];
		}
	} else if (c->f0 < 0) {
		c->f0 = loss;
	} else {
		c->tau = sb_adacomm_next_tau(c->tau, c->tau0, c->f0, loss, c->variant);
	}
	ctl->setting = (double)c->tau;
}

const struct sb_sync_policy sb_sync_policy_adacomm = {
	.name = "adacomm",
	.cite = "Wang & Joshi, Adaptive communication strategies to achieve the best "
		"error-runtime trade-off in local-update SGD, SysML 2019",
	.desc = "local SGD, barrier every tau steps; tau0 searched, then shrunk with the loss",
	.provenance = "verified: adsp code (myAdacomm.py)",
	.params = params,
	.init = init,
	.release = sb_free,
	.should_commit = should_commit,
	.on_eval = on_eval,
};
