/*
 * pslocality.c - PS-locality's online scheme (RR-kappa): at every slot the
 * LP relaxation of the time-indexed mixed packing/covering model over the
 * next `window` slots for the jobs present (their remaining work; nobody
 * forced to finish inside the window), one randomized rounding of it with
 * scaling kappa, the rounded slot executed after repair (shrink what does
 * not fit; then the capacity left to the least remaining work, `fill`).
 * Reconstructed [R] from pslocality.md §2-3 (rolling horizon, "execute
 * slot t only; re-solve"); the repair rule is ours [O]. M. Yu, J. Liu,
 * C. Wu, B. Ji, E. S. Bentley, "Toward Efficient Online Scheduling for
 * Distributed Machine Learning Systems", IEEE TNSE 2022.
 * An LP that stops at its iteration limit is not rounded: that slot is
 * all repair (counted nowhere else, deterministic).
 *
 * Family: alloc (core/alloc/).
 */
#include "rr.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "window", 6, 1, 50, 1, "look-ahead slots of the LP" },
	{ "kappa", 1.5, 1, 20, 0, "scaling of the LP solution before rounding" },
	{ "fill", 1, 0, 1, 1, "1: give the capacity left to the least remaining work" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	const struct sb_alloc_inst *in = v->in;
	struct sb_alloc_psmodel m;
	struct sb_lp_result res;
	double *need = SB_NEW(double, in->njob);
	int i, rc;

	for (i = 0; i < v->nactive; i++)
		need[v->active[i]] = in->job[v->active[i]].target - v->progress[v->active[i]];
	sb_alloc_psmodel_build(in, need, v->t, (int)sb_opts_get(o, "window"), 0, &m);
	rc = sb_alloc_psmodel_solve(&m, 1, &res, err);
	if (!rc && res.status == SB_LP_OPTIMAL && res.x) {
		struct sb_rr_plan r;
		sb_rr_plan_init(&r, m.J, m.H, m.T);
		sb_rr_round(in, &m, res.x, sb_opts_get(o, "kappa"), rng, &r);
		sb_rr_apply(&r, v->t, v, pl);
		sb_rr_plan_release(&r);
	}
	if (!rc && sb_opts_get(o, "fill") > 0)
		sb_rr_fill(v, pl, rng);
	sb_lp_result_release(&res);
	sb_alloc_psmodel_release(&m);
	sb_free(need);
	return rc;
}

const struct sb_alloc_policy sb_alloc_policy_pslocality = {
	.name = "pslocality",
	.cite = "Yu, Liu, Wu, Ji, Bentley, Toward Efficient Online Scheduling for Distributed Machine Learning Systems, IEEE TNSE 2022",
	.desc = "rolling LP of the packing/covering model, randomized rounding, repair",
	.provenance = "reconstructed",
	.params = params,
	.modes = 1u << SB_ALLOC_PS,
	.allocate = allocate,
};
