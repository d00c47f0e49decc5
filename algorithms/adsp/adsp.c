/*
 * adsp.c - ADSP with the online commit-rate search.
 * Family: sync (core/sync/).
 * Hu, Wang & Wu, "Distributed Machine Learning through Heterogeneous Edge
 * Systems", AAAI 2020. Verified [V, code: cifar10/strain.py]:
 *   - workers never wait (no gate); worker i commits when the time since
 *     its last commit reaches T_i = max(10 s, Γ/ΔC - o_i), so every worker
 *     commits ΔC times per check period whatever its speed; before the
 *     scheduler's first check it commits every 40 local steps;
 *   - the scheduler (Algorithm 1) searches integer ΔC greedily: candidate
 *     c runs for one Γ, the losses at its start, Γ/2 and Γ are fitted with
 *     l(t) = 1/(a^2 t + b) + e, the score is the inverse predicted time to
 *     the target loss; c + 1 is tried while it scores better; re-search
 *     every 1,000 s or when the loss rose >= 30% between two checks.
 * Ours [O]: the authors' bootstrap "allows waiting"; ours does not wait,
 * so that ADSP's blocked time is zero from the first step (adsp.md §11);
 * the PS's pause to evaluate costs no virtual time; ΔC is capped (dc_max)
 * where T_i would sit at its 10 s floor anyway.
 */
#include "adsp.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "research", 1000, 1, 1e9, 0, "seconds between searches" },
	{ "guard", 0.3, 0, 100, 0, "re-search if the loss rose by this fraction" },
	{ "min_interval", 10, 0, 1e6, 0, "minimum seconds between commits" },
	{ "bootstrap", 40, 1, 1e6, 1, "local steps per commit before the first check" },
	{ "dc_max", 12, 1, 1000, 1, "largest commit rate the search tries" },
	{ NULL, 0, 0, 0, 0, NULL },
};

enum { BOOT, SEARCH, RUN };

struct ctx {
	int state, n;
	double dc, prev_reward, search_end, last_full, t[3], l[3];
	double research, guard, min_interval;
	long bootstrap, dc_max;
};

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	c->research = sb_opts_get(o, "research");
	c->guard = sb_opts_get(o, "guard");
	c->min_interval = sb_opts_get(o, "min_interval");
	c->bootstrap = (long)sb_opts_get(o, "bootstrap");
	c->dc_max = (long)sb_opts_get(o, "dc_max");
	c->last_full = -1;
	*ctx = c;
	ctl->bound = SB_SYNC_INF;
	return 0;
}

static int should_commit(void *ctx, const struct sb_sync_sim *s, int i)
{
	struct ctx *c = ctx;
	return sb_adsp_commit(c->state == BOOT ? 0 : c->dc, c->min_interval, c->bootstrap, s, i);
}

static void start_candidate(struct ctx *c, double dc, double t, double loss)
{
	c->dc = dc;
	c->n = 1;
	c->t[0] = t;
	c->l[0] = loss;
}

static void on_eval(void *ctx, const struct sb_sync_sim *s, double loss, int full,
		    struct sb_sync_ctl *ctl)
{
	struct ctx *c = ctx;
	double prev = c->last_full;

	if (full)
		c->last_full = loss;
	if (c->state == BOOT) {
		if (full && s->now > 0) {
			c->state = SEARCH;
			c->prev_reward = -1;
			ctl->pause = 1;
			start_candidate(c, 1, s->now, loss);
		}
	} else if (c->state == SEARCH) {
		double p[3], rw;
		c->t[c->n] = s->now;
		c->l[c->n++] = loss;
		if (c->n == 3) {
			double tt[3] = { 0, c->t[1] - c->t[0], c->t[2] - c->t[0] };
			rw = sb_adsp_fit(tt, c->l, 3, p) ? 0 : sb_adsp_reward(p, s->in->target);
			if (c->prev_reward >= 0 && rw <= c->prev_reward) {
				c->dc -= 1;      /* c + 1 scored no better: keep c */
				c->state = RUN;
				c->search_end = s->now;
			} else if (c->dc >= c->dc_max) {
				c->state = RUN;
				c->search_end = s->now;
			} else {
				c->prev_reward = rw;
				start_candidate(c, c->dc + 1, s->now, loss);
			}
		}
	} else if (full && (s->now - c->search_end >= c->research ||
			    (prev > 0 && loss >= (1 + c->guard) * prev))) {
		c->state = SEARCH;
		c->prev_reward = -1;
		ctl->pause = 1;
		start_candidate(c, 1, s->now, loss);
	}
	ctl->setting = c->state == BOOT ? 0 : c->dc;
}

const struct sb_sync_policy sb_sync_policy_adsp = {
	.name = "adsp",
	.cite = "Hu, Wang & Wu, Distributed Machine Learning through Heterogeneous Edge "
		"Systems, AAAI 2020",
	.desc = "no waiting; equal commits per check period; online commit-rate search",
	.provenance = "verified: adsp code (strain.py)",
	.params = params,
	.init = init,
	.release = sb_free,
	.should_commit = should_commit,
	.on_eval = on_eval,
};
