/*
 * online_cr.c - advlearn F3 (classical policies; the learned one is not
 * built yet): the empirical competitive ratio of every online policy, the
 * maximum of OPT / E[ALG] over the union of the staircase family (every
 * truncation), uniform and log-uniform random inputs, against U/L, next to
 * the policy's proven ratio; also the mean ratio on the random inputs
 * (F4's average case) and the ratio to the LP relaxation (fractional OPT).
 * Every E[ALG] is exact (per-round DP) and checked; OPT is the knapsack DP,
 * cross-checked with GLPK's ILP on the worst instance of each policy.
 * [O: advlearn.md §5, §8; the problem instantiation is reconstructed.]
 */
#include "online/online.h"
#include "workloads/online/gen.h"
#include "exp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double ratios[] = { 2, 5, 10, 20, 50 };

static const struct sb_param params[] = {
	{ "nul", 5, 1, 5, 1, "how many of U/L = 2, 5, 10, 20, 50" },
	{ "T", 60, 2, 400, 1, "rounds" },
	{ "C", 10, 1, 200, 1, "capacity units" },
	{ "D", 1, 1, 50, 1, "largest demand (1: small items)" },
	{ "M", 16, 2, 64, 1, "price grid levels" },
	{ "random", 200, 1, 100000, 1, "random instances of each kind (uniform, log-uniform)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "ul", SB_COL_DBL, "U/L" },
	{ "policy", SB_COL_STR, "" },
	{ "T", SB_COL_INT, "rounds" },
	{ "C", SB_COL_INT, "units" },
	{ "D", SB_COL_INT, "units" },
	{ "instances", SB_COL_INT, "" },
	{ "cr", SB_COL_DBL, "max OPT/E[ALG]" },
	{ "cr_lp", SB_COL_DBL, "max LP/E[ALG]" },
	{ "worst_kind", SB_COL_STR, "" },
	{ "worst_opt_glpk", SB_COL_DBL, "welfare" },
	{ "mean_random", SB_COL_DBL, "mean OPT/E[ALG]" },
	{ "proven", SB_COL_DBL, "ratio (0: none)" },
	{ "ln_bound", SB_COL_DBL, "1+ln(U/L)" },
	{ "cr_ln", SB_COL_DBL, "cr / (1+ln(U/L))" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "nul");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: staircases (every truncation), uniform and log-uniform random buyers");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int T = (int)sb_opts_get(&c->opts, "T"), C = (int)sb_opts_get(&c->opts, "C");
	int D = (int)sb_opts_get(&c->opts, "D"), M = (int)sb_opts_get(&c->opts, "M");
	int nrand = (int)sb_opts_get(&c->opts, "random");
	int per = C, levels, nst, ninst, np, i, k, rc = 0;
	const struct sb_online_policy *const *p = sb_online_policies(&np);
	struct sb_online_game g;
	struct sb_online_inst *inst;
	double *opt, *lp;
	char (*kind)[16];

	if ((rc = sb_online_game_init(&g, T, C, D, M, 1, ratios[point], err)))
		return rc;
	/* staircase levels: as many as fit in T rounds with C unit buyers each */
	levels = T / per < M ? T / per : M;
	if (levels < 2)
		levels = 2;
	nst = levels;
	ninst = nst + 2 * nrand;
	inst = SB_NEW(struct sb_online_inst, ninst);
	opt = SB_NEW(double, ninst);
	lp = SB_NEW(double, ninst);
	kind = sb_xcalloc((size_t)ninst, sizeof *kind);
	for (k = 0; k < ninst; k++) {
		if (k < nst) {
			sb_online_gen_staircase(&g, &inst[k], levels, k, 1);
			snprintf(kind[k], sizeof kind[k], "stair%d", k);
		} else {
			int r = k - nst;
			struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, (uint64_t)r,
							  SB_RNG_INSTANCE);
			sb_online_gen_random(&g, &inst[k], r >= nrand, &gen);
			snprintf(kind[k], sizeof kind[k], r >= nrand ? "logrand" : "rand");
		}
		opt[k] = sb_online_opt(&g, &inst[k], NULL);
		/* the LP relaxation of a one-row knapsack is the greedy fractional
		 * fill by value density; GLPK checks the worst cases below */
		{
			double dummy;
			if ((rc = sb_online_opt_glpk(&g, &inst[k], &dummy, &lp[k], err)))
				goto out;
		}
	}
	for (i = 0; i < np && !rc; i++) {
		struct sb_opts o;
		double cr = 0, crlp = 0, sum = 0, ilp = 0, dummy;
		int worst = 0;
		size_t row;
		if (p[i]->offline || p[i]->stored)
			continue;
		sb_opts_defaults(&o, p[i]->params);
		for (k = 0; k < ninst; k++) {
			struct sb_online_result r;
			struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, (uint64_t)k,
							  SB_RNG_POLICY ^ sb_hash_str(p[i]->name));
			double q;
			if ((rc = sb_online_run(&g, &inst[k], p[i], &o, &rng, &r, err)))
				goto out;
			q = opt[k] / r.ealg;
			if (q > cr) {
				cr = q;
				worst = k;
			}
			crlp = sb_max(crlp, lp[k] / r.ealg);
			if (k >= nst)
				sum += q;
			sb_online_result_release(&r);
		}
		if ((rc = sb_online_opt_glpk(&g, &inst[worst], &ilp, &dummy, err)))
			goto out;
		if (fabs(ilp - opt[worst]) > 1e-6 * (1 + opt[worst])) {
			rc = sb_err_set(err, SB_EXIT_RUN, "knapsack DP %.10g and GLPK %.10g disagree",
					opt[worst], ilp);
			goto out;
		}
		row = sb_table_add(out);
		sb_table_set_dbl(out, row, "ul", ratios[point]);
		sb_table_set_str(out, row, "policy", p[i]->name);
		sb_table_set_int(out, row, "T", T);
		sb_table_set_int(out, row, "C", C);
		sb_table_set_int(out, row, "D", D);
		sb_table_set_int(out, row, "instances", ninst);
		sb_table_set_dbl(out, row, "cr", cr);
		sb_table_set_dbl(out, row, "cr_lp", crlp);
		sb_table_set_str(out, row, "worst_kind", kind[worst]);
		sb_table_set_dbl(out, row, "worst_opt_glpk", ilp);
		sb_table_set_dbl(out, row, "mean_random", sum / (2 * nrand));
		sb_table_set_dbl(out, row, "proven", p[i]->proven_ratio ?
				 p[i]->proven_ratio(&g, &o) : 0);
		sb_table_set_dbl(out, row, "ln_bound", 1 + log(ratios[point]));
		sb_table_set_dbl(out, row, "cr_ln", cr / (1 + log(ratios[point])));
	}
out:
	for (k = 0; k < ninst; k++)
		sb_online_inst_release(&inst[k]);
	sb_free(inst);
	sb_free(opt);
	sb_free(lp);
	sb_free(kind);
	return rc;
}

const struct sb_experiment sb_experiment_online_cr = {
	.name = "online_cr",
	.desc = "empirical competitive ratio of every online policy vs U/L (staircases + random)",
	.figure = "online-F3",
	.family = "online",
	.params = params,
	.quick_set = "nul=2 random=20",
	.cols = cols,
	.summary_by = "ul policy",
	.summary_of = "cr",
	.setup = setup,
	.run_point = run_point,
};
