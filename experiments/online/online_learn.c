/*
 * online_learn.c - advlearn F1, F2, F5 and the learned policies' rows of
 * F3/F4: trains the learned posted-price policy (per-round update against
 * the adversary network with a hall of fame) and its two ablations
 * (random instances; vanilla REINFORCE) at each U/L, and stores
 *   - kind "iter":   the training log (game value, best-response ratio and
 *                    worst ratio found, ZCL's ratio on the same batch);
 *   - kind "policy": the trained table pi(m | t, c, d), which `sb eval
 *                    online --table` and the table-reading policies load,
 *                    so figures redraw without retraining;
 *   - kind "hall":   the hall of fame (the stored evaluation instances:
 *                    column iter is the member, t the round);
 *   - kind "price":  the mean posted price against utilisation at mid
 *                    horizon, next to ZCL's psi (F2);
 *   - kind "cr":     the empirical competitive ratio of the point's learned
 *                    policy (and, at the `learned` points, of every
 *                    classical online policy): the worst OPT/E[ALG] over
 *                    staircases (every truncation and demand), uniform and
 *                    log-uniform random inputs, the hall of fame and a
 *                    best-response adversary trained against that policy;
 *                    every recorded E[ALG] comes from sb_online_run (both
 *                    checkers), OPT from the knapsack DP checked by GLPK on
 *                    the worst instance.
 * [O: advlearn.md §3, §5, §8; reconstructed problem and training.]
 */
#include "online/online.h"
#include "online/ptable.h"
#include "algorithms/advlearn/train.h"
#include "workloads/online/gen.h"
#include "exp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double ratios[] = { 2, 5, 10, 20, 50 };
static const char *const variants[] = { "learned", "learned-random", "learned-reinforce" };
#define NVAR 3

static const struct sb_param params[] = {
	{ "nul", 5, 1, 5, 1, "how many of U/L = 2, 5, 10, 20, 50" },
	{ "T", 20, 2, 60, 1, "rounds" },
	{ "C", 20, 1, 100, 1, "capacity units" },
	{ "D", 4, 1, 10, 1, "largest demand" },
	{ "M", 16, 2, 64, 1, "price grid levels" },
	{ "iters", 3000, 1, 100000, 1, "training iterations" },
	{ "batch", 64, 4, 1024, 1, "instances per iteration" },
	{ "br_every", 100, 1, 100000, 1, "iterations between best-response measurements" },
	{ "br_steps", 300, 1, 100000, 1, "steps of each best-response adversary" },
	{ "random", 200, 1, 100000, 1, "random evaluation instances of each kind" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "kind", SB_COL_STR, "" },
	{ "variant", SB_COL_STR, "" },
	{ "ul", SB_COL_DBL, "U/L" },
	{ "T", SB_COL_INT, "rounds" },
	{ "C", SB_COL_INT, "units" },
	{ "D", SB_COL_INT, "units" },
	{ "M", SB_COL_INT, "levels" },
	{ "iter", SB_COL_INT, "" },
	{ "game", SB_COL_DBL, "mean OPT/E[ALG]" },
	{ "br", SB_COL_DBL, "mean OPT/E[ALG]" },
	{ "br_max", SB_COL_DBL, "max OPT/E[ALG]" },
	{ "zcl", SB_COL_DBL, "mean OPT/E[ALG]" },
	{ "t", SB_COL_INT, "" },
	{ "c", SB_COL_INT, "units" },
	{ "d", SB_COL_INT, "units" },
	{ "m", SB_COL_INT, "" },
	{ "prob", SB_COL_DBL, "" },
	{ "v", SB_COL_DBL, "value" },
	{ "ratio", SB_COL_DBL, "OPT/E[ALG]" },
	{ "z", SB_COL_DBL, "utilisation" },
	{ "price", SB_COL_DBL, "mean posted price" },
	{ "psi", SB_COL_DBL, "ZCL psi(z)" },
	{ "policy", SB_COL_STR, "" },
	{ "cr", SB_COL_DBL, "max OPT/E[ALG]" },
	{ "worst_kind", SB_COL_STR, "" },
	{ "mean_random", SB_COL_DBL, "mean OPT/E[ALG]" },
	{ "proven", SB_COL_DBL, "ratio (0: none)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "nul") * NVAR;
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: adversary-generated, hall-of-fame, staircase and random buyers");
	return 0;
}

static size_t row_of(struct sb_table *out, const char *kind, const char *var,
		     const struct sb_online_game *g)
{
	size_t row = sb_table_add(out);

	sb_table_set_str(out, row, "kind", kind);
	sb_table_set_str(out, row, "variant", var);
	sb_table_set_dbl(out, row, "ul", g->U / g->L);
	sb_table_set_int(out, row, "T", g->T);
	sb_table_set_int(out, row, "C", g->C);
	sb_table_set_int(out, row, "D", g->D);
	sb_table_set_int(out, row, "M", g->M);
	return row;
}

/* The empirical CR of policy p over the evaluation set plus a best
 * response aimed at it; one "cr" row. */
static int eval_policy(struct sb_exp_ctx *c, int point, const struct sb_online_game *g,
		       const struct sb_online_policy *p, const char *var,
		       struct sb_online_inst *set, char (*kind)[SB_ONLINE_KIND_LEN], int nset, int nrand,
		       struct sb_table *out, struct sb_err *err)
{
	struct sb_advlearn_pol q = { p, { 0 }, 0, { 0, "" } };
	struct sb_online_inst worst = { 0 };
	int k, rc = 0, wk = -1, brs = (int)sb_opts_get(&c->opts, "br_steps");
	double cr = 0, sum = 0, last, ilp, lp;
	size_t row;

	sb_opts_defaults(&q.o, p->params);
	for (k = 0; k <= nset; k++) {
		struct sb_online_result r;
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, (uint64_t)k,
						  SB_RNG_POLICY ^ sb_hash_str(p->name));
		const struct sb_online_inst *in = k < nset ? &set[k] : &worst;
		double opt, x;
		if (k == nset) {
			/* the best response aimed at this policy, replayed below */
			sb_advlearn_best_response(g, sb_advlearn_policy_ratio, &q, brs, 64, 5e-3, 0.01, c->seed,
						  (uint64_t)point, 1000 + sb_hash_str(p->name) % 1000,
						  &last, &worst);
			if ((rc = q.rc)) {
				*err = q.err;
				goto out;
			}
		}
		if ((rc = sb_online_run(g, in, p, &q.o, &rng, &r, err)))
			goto out;
		opt = sb_online_opt(g, in, NULL);
		x = opt / r.ealg;
		sb_online_result_release(&r);
		if (x > cr) {
			cr = x;
			wk = k;
		}
		if (k < nset && strstr(kind[k], "rand"))
			sum += x;
	}
	/* GLPK's ILP confirms the optimum behind the recorded worst ratio */
	if ((rc = sb_online_opt_glpk(g, wk < nset ? &set[wk] : &worst, &ilp, &lp, err)))
		goto out;
	if (fabs(ilp - sb_online_opt(g, wk < nset ? &set[wk] : &worst, NULL)) > 1e-6 * (1 + ilp)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "knapsack DP and GLPK disagree (%s)", p->name);
		goto out;
	}
	row = row_of(out, "cr", var, g);
	sb_table_set_str(out, row, "policy", p->name);
	sb_table_set_dbl(out, row, "cr", cr);
	sb_table_set_str(out, row, "worst_kind", wk < nset ? kind[wk] : "best-response");
	sb_table_set_dbl(out, row, "mean_random", sum / (2 * nrand));
	sb_table_set_dbl(out, row, "proven", p->proven_ratio ? p->proven_ratio(g, &q.o) : 0);
	sb_table_set_dbl(out, row, "br", last);
out:
	sb_online_inst_release(&worst);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int v = point % NVAR, T = (int)sb_opts_get(&c->opts, "T");
	int C = (int)sb_opts_get(&c->opts, "C"), D = (int)sb_opts_get(&c->opts, "D");
	int M = (int)sb_opts_get(&c->opts, "M"), nrand = (int)sb_opts_get(&c->opts, "random");
	int i, k, t, cc, d, m, np, nset = 0, rc;
	const struct sb_online_policy *const *pol = sb_online_policies(&np);
	struct sb_advlearn_cfg cfg;
	struct sb_advlearn_out res;
	struct sb_online_game g;
	struct sb_online_inst *set;
	char (*kind)[SB_ONLINE_KIND_LEN];
	size_t row;

	if ((rc = sb_online_game_init(&g, T, C, D, M, 1, ratios[point / NVAR], err)))
		return rc;
	sb_advlearn_defaults(&cfg);
	cfg.update = v == 2 ? SB_ADVLEARN_REINFORCE : SB_ADVLEARN_PERROUND;
	cfg.inputs = v == 1 ? SB_ADVLEARN_RANDOM : SB_ADVLEARN_ADVERSARY;
	cfg.iters = (int)sb_opts_get(&c->opts, "iters");
	cfg.batch = (int)sb_opts_get(&c->opts, "batch");
	cfg.br_every = (int)sb_opts_get(&c->opts, "br_every");
	cfg.br_steps = (int)sb_opts_get(&c->opts, "br_steps");
	cfg.seed = c->seed;
	/* the three variants of one U/L share their streams: common random
	 * numbers for the initial networks and the first batches */
	cfg.point = (uint64_t)(point / NVAR);
	if ((rc = sb_advlearn_train(&g, &cfg, &res, err)))
		return rc;
	for (i = 0; i < res.nlog; i++) {
		row = row_of(out, "iter", variants[v], &g);
		sb_table_set_int(out, row, "iter", res.log[i].iter);
		sb_table_set_dbl(out, row, "game", res.log[i].game);
		sb_table_set_dbl(out, row, "br", res.log[i].br);
		sb_table_set_dbl(out, row, "br_max", res.log[i].br_max);
		sb_table_set_dbl(out, row, "zcl", res.log[i].zcl);
	}
	/* the last measurement once more, as the claims' rows: game value and
	 * best-response value at the end of training (the Nash gap) */
	if (res.nlog > 0) {
		const struct sb_advlearn_log *l = &res.log[res.nlog - 1];
		row = row_of(out, "final-game", variants[v], &g);
		sb_table_set_int(out, row, "iter", l->iter);
		sb_table_set_dbl(out, row, "ratio", l->game);
		row = row_of(out, "final-br", variants[v], &g);
		sb_table_set_int(out, row, "iter", l->iter);
		sb_table_set_dbl(out, row, "ratio", l->br);
	}
	for (t = 0; t < T; t++)
		for (cc = 0; cc <= C; cc++)
			for (d = 1; d <= D; d++)
				for (m = 0; m < M; m++) {
					row = row_of(out, "policy", variants[v], &g);
					sb_table_set_int(out, row, "t", t);
					sb_table_set_int(out, row, "c", cc);
					sb_table_set_int(out, row, "d", d);
					sb_table_set_int(out, row, "m", m);
					sb_table_set_dbl(out, row, "prob", res.prob[
						sb_online_ptable_cell(&g, t, cc, d) * (size_t)M + (size_t)m]);
				}
	for (k = 0; k < res.nhall; k++)
		for (t = 0; t < T; t++) {
			row = row_of(out, "hall", variants[v], &g);
			sb_table_set_int(out, row, "iter", k);
			sb_table_set_int(out, row, "t", t);
			sb_table_set_int(out, row, "d", res.hall[k].d[t]);
			sb_table_set_dbl(out, row, "v", res.hall[k].v[t]);
			sb_table_set_dbl(out, row, "ratio", res.hall_ratio[k]);
		}
	for (cc = C; cc >= 0; cc--) {
		const double *q = res.prob + sb_online_ptable_cell(&g, T / 2, cc, 1) * (size_t)M;
		double mean = 0, z = (double)(C - cc) / C;
		for (m = 0; m < M; m++)
			mean += q[m] * g.price[m];
		row = row_of(out, "price", variants[v], &g);
		sb_table_set_int(out, row, "c", cc);
		sb_table_set_dbl(out, row, "z", z);
		sb_table_set_dbl(out, row, "price", mean);
		sb_table_set_dbl(out, row, "psi", sb_online_psi(&g, z));
	}
	/* the evaluation set: staircases of every demand and truncation, random
	 * inputs, the hall of fame */
	nset = sb_online_gen_evalset(&g, c->seed, (uint64_t)point, nrand, res.nhall, &set, &kind);
	for (k = 0; k < res.nhall; k++, nset++) {
		sb_online_inst_alloc(&set[nset], T);
		memcpy(set[nset].d, res.hall[k].d, (size_t)T * sizeof *set[nset].d);
		memcpy(set[nset].v, res.hall[k].v, (size_t)T * sizeof *set[nset].v);
		snprintf(kind[nset], sizeof kind[nset], "hall");
	}
	if ((rc = sb_online_ptable_put(variants[v], &g, res.prob, err)))
		goto out;
	for (i = 0; i < np && !rc; i++) {
		int mine = !strcmp(pol[i]->name, variants[v]);
		if (pol[i]->offline || (pol[i]->stored && !mine) || (!pol[i]->stored && v != 0))
			continue;
		rc = eval_policy(c, point, &g, pol[i], variants[v], set, kind, nset, nrand, out,
				 err);
	}
out:
	for (k = 0; k < nset; k++)
		sb_online_inst_release(&set[k]);
	sb_free(set);
	sb_free(kind);
	sb_advlearn_out_release(&res);
	return rc;
}

const struct sb_experiment sb_experiment_online_learn = {
	.name = "online_learn",
	.desc = "adversarially learned pricing and ablations: training, stored tables, empirical CR",
	.figure = "online-F1",
	.family = "online",
	.params = params,
	.quick_set = "nul=2 T=10 C=10 D=2 iters=20 br_every=10 br_steps=10 random=10",
	.cols = cols,
	.summary_by = "kind variant ul policy",
	.summary_of = "cr",
	.setup = setup,
	.run_point = run_point,
};
