/*
 * oasis.c - OASiS: online primal-dual admission and allocation of
 * parameter-server jobs with resource pricing. Y. Bao, Y. Peng, C. Wu,
 * Z. Li, "Online Job Scheduling in Distributed Machine Learning Clusters",
 * IEEE INFOCOM 2018 (arXiv 1801.00936).
 *
 * OUR RECONSTRUCTION [R] from the published description as pslocality.md
 * §4 gives it, not the authors' code: at each arrival the job's best
 * schedule under the current resource prices (the number of concurrent
 * workers per slot may change), admitted iff its utility minus its
 * resource cost is positive [V, abstract]; prices exponential in
 * utilisation, p = L (U/L)^(used/capacity), and a utility that is a
 * non-increasing sigmoid of the completion time,
 * f(tau) = gamma1 / (1 + exp(gamma2 (tau - gamma3))) [M]. The engine
 * (prices, the dynamic programme over the window, reservations) is
 * core/alloc/pd.c, shared with GADGET-PD.
 * Ours [O]: gamma1 = the job's weight, gamma3 = twice its duration in
 * slots with the workers it requests (spread, a PS per worker, the whole
 * cluster to itself), gamma2 = 4 / gamma3, so its utility halves when it
 * takes twice that long; a unit is one worker with its bundled PS (DL2's PS
 * mode; OASiS keeps workers and PSs apart, which our model does not
 * price); `retry` = 8 offers up to 8 jobs that were not admitted again a
 * slot, earliest first, at the then-current prices, once an admitted job
 * has left since (the paper rejects them for good: retry = 0), so that
 * completion times compare with schemes that queue; a job's utility still
 * counts from its arrival.
 */
#include "alloc/pd.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "horizon", 120, 1, 1000, 1, "slots planned ahead at each decision" },
	{ "units", 64, 1, 4096, 1, "steps of a job's work in the dynamic programme" },
	{ "retry", 8, 0, 1000, 1, "refused jobs offered again per slot once an admitted job has left (0: never)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx {
	struct sb_alloc_pd *pd;
	double *g3;             /* per job: gamma3, slots */
};

static double value(void *arg, const struct sb_alloc_inst *in, int j, double done, double frac,
		    int c)
{
	const struct ctx *x = arg;
	double tau = c + 1 - in->job[j].arrival, g3 = x->g3[j];
	if (frac < 1)
		return 0;   /* an unfinished job earns nothing */
	return in->job[j].weight / (1 + exp(4 / g3 * (tau - g3)));
}

static void *init(const struct sb_alloc_inst *in, const struct sb_opts *o, struct sb_rng *rng)
{
	struct ctx *x = SB_NEW(struct ctx, 1);
	struct sb_alloc_pd_cfg c = { (int)sb_opts_get(o, "horizon"), (int)sb_opts_get(o, "units"),
				     (int)sb_opts_get(o, "retry"), 0, value, x, 0 };
	int j;

	x->g3 = SB_NEW(double, in->njob + 1);
	for (j = 0; j < in->njob; j++) {
		int k = in->job[j].req_workers;
		double r = sb_alloc_rate(in, j, k, sb_alloc_ps_for(in, j, k), 0);
		x->g3[j] = r > 0 ? 2 * ceil(in->job[j].target / r) : 1;
	}
	x->pd = sb_alloc_pd_new(in, &c);
	return x;
}

static void release(void *ctx)
{
	struct ctx *x = ctx;
	sb_alloc_pd_free(x->pd);
	sb_free(x->g3);
	sb_free(x);
}

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	struct ctx *x = ctx;
	sb_alloc_pd_allocate(x->pd, v, pl);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_oasis = {
	.name = "oasis",
	.cite = "Bao, Peng, Wu, Li, Online Job Scheduling in Distributed Machine Learning Clusters, INFOCOM 2018",
	.desc = "primal-dual: admit a job iff its sigmoid utility beats its plan's exponential price",
	.provenance = "reconstructed",
	.params = params,
	.modes = 1u << SB_ALLOC_PS,
	.init = init,
	.release = release,
	.allocate = allocate,
};
