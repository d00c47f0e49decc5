/*
 * gadget-pd.c - GADGET-PD: the primal-dual reading of GADGET
 * (gadget.md §3, "alternative reading"), reconstructed [R]. M. Yu, Y. Tian,
 * B. Ji, C. Wu, H. Rajan, J. Liu, "GADGET: Online Resource Optimization for
 * Scheduling Ring-All-Reduce Learning Jobs", IEEE INFOCOM 2022 (abstract
 * only [V]; the primal-dual form is our hypothesis from the OASiS lineage).
 *
 * Algorithm: prices per server and slot exponential in utilisation,
 * p = L (U/L)^(used/G_s); at arrival, the job's cheapest whole-horizon
 * schedule (per slot a ring of k GPUs on the cheapest single server that
 * holds it, or dealt over the cheapest servers), the progress it reaches
 * chosen to maximise utility gained - price paid; admitted iff positive,
 * then reserved (core/alloc/pd.c, shared with OASiS). The utility is the
 * instance's objective: EXC and FAIR gain U_j(P + planned) - U_j(P) (a
 * partial plan is allowed: the rest is worthless or too dear), ENE the
 * EXC gain with eta added to the price of every GPU-slot. A job whose plan
 * ends before its work is decided again at the next slot; a job not
 * admitted is offered again once an admitted job has left (at most
 * `retry` such jobs a slot, earliest first; ours [O]).
 *
 * Family: alloc (core/alloc/).
 */
#include "alloc/pd.h"

static const struct sb_param params[] = {
	{ "horizon", 60, 1, 1000, 1, "slots planned ahead at each decision" },
	{ "units", 64, 1, 4096, 1, "steps of a job's work in the dynamic programme" },
	{ "retry", 8, 0, 1000, 1, "refused jobs offered again per slot once an admitted job has left (0: never)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* ENE's energy term is charged through the price (gpu_cost), so the
 * utility here is taken with no GPU-slots: weight x progress fraction. */
static double value(void *arg, const struct sb_alloc_inst *in, int j, double done, double frac,
		    int c)
{
	double need = in->job[j].target - done;
	(void)arg;
	(void)c;
	return sb_alloc_job_utility(in, j, done + frac * need, 0) - sb_alloc_job_utility(in, j, done, 0);
}

static void *init(const struct sb_alloc_inst *in, const struct sb_opts *o, struct sb_rng *rng)
{
	struct sb_alloc_pd_cfg c = { (int)sb_opts_get(o, "horizon"), (int)sb_opts_get(o, "units"),
				     (int)sb_opts_get(o, "retry"),
				     in->util == SB_ALLOC_ENE ? in->eta : 0, value, NULL, 0 };
	return sb_alloc_pd_new(in, &c);
}

static void release(void *ctx)
{
	sb_alloc_pd_free(ctx);
}

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	sb_alloc_pd_allocate(ctx, v, pl);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_gadget_pd = {
	.name = "gadget-pd",
	.cite = "Yu, Tian, Ji, Wu, Rajan, Liu, GADGET: Online Resource Optimization for Scheduling Ring-All-Reduce Learning Jobs, INFOCOM 2022",
	.desc = "primal-dual reading: admit a job's cheapest ring schedule iff its utility beats the exponential prices",
	.provenance = "reconstructed",
	.params = params,
	.init = init,
	.release = release,
	.allocate = allocate,
};
