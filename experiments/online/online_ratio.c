/*
 * online_ratio.c - advlearn's competitive-ratio table (issue #14 item 6):
 * for every online policy, the worst OPT/E[ALG] found by the union of
 *   (a) a best-response adversary network trained against that policy
 *       (REINFORCE, advlearn.md §3),
 *   (b) the staircase families (every demand and truncation),
 *   (c) uniform and log-uniform random inputs,
 *   (d) exhaustive enumeration of the type grid (T <= 6),
 *   (e) the engine's annealing search over the buyers (`sb adversary
 *       online`, core/adversary.h), started afresh for each policy,
 * next to the policy's proven ratio where one exists. Three regimes at
 * each U/L: "small" (unit demands, C = 10, T = 60: the small-item regime of
 * ZCL's 1 + ln(U/L), where (d) is out of reach), "enum" (T = 6, C = 4,
 * demands 1..2: large items, every instance of an 8-level value grid
 * enumerated) and "k2" (K = 2 resource types, C_1 = C_2 = 4, demand
 * vectors in {1..2}^2, T = 5, every instance of a 6-level value grid
 * enumerated; the policies' K = 2 rules are in their headers). The k2
 * points come after the 2 nul K = 1 points, so the K = 1 rows keep their
 * point numbers (RNG streams) and are the same as before k2 existed. The learned tables are trained on each point's game (they
 * exist only for the game they were trained on). Every ratio recorded is
 * replayed through sb_online_run (both checkers); OPT is the knapsack DP,
 * checked with GLPK's ILP on each policy's worst instance. The mean ratio
 * on the random inputs is F4 (the average case); the "enum" and "k2"
 * regimes' empirical CRs are F6's two settings (large items; K = 2). The
 * columns C and D of a k2 row are each type's capacity and largest demand.
 * [O: advlearn.md §5, §8; the problem and the training are reconstructed.]
 */
#include "online/online.h"
#include "online/ptable.h"
#include "algorithms/advlearn/train.h"
#include "workloads/online/gen.h"
#include "adversary.h"
#include "exp.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const double ratios[] = { 2, 5, 10, 20, 50 };
static const char *const regimes[] = { "small", "enum", "k2" };
static const char *const learned[] = { "learned", "learned-random", "learned-reinforce" };

static const struct sb_param params[] = {
	{ "nul", 5, 1, 5, 1, "how many of U/L = 2, 5, 10, 20, 50" },
	{ "T", 60, 2, 400, 1, "rounds of the small-item regime" },
	{ "C", 10, 1, 200, 1, "capacity of the small-item regime" },
	{ "et", 6, 2, 6, 1, "rounds of the enumerated regime" },
	{ "ec", 4, 1, 50, 1, "capacity of the enumerated regime" },
	{ "ed", 2, 1, 50, 1, "largest demand of the enumerated regime" },
	{ "nv", 8, 2, 64, 1, "value levels of the enumeration" },
	{ "M", 16, 2, 64, 1, "price grid levels" },
	{ "random", 200, 1, 100000, 1, "random instances of each kind (uniform, log-uniform)" },
	{ "br_steps", 300, 1, 100000, 1, "steps of the best-response adversary" },
	{ "iters", 3000, 1, 100000, 1, "training iterations of the learned tables" },
	{ "sa_iters", 20000, 1, 1e7, 1, "proposals of the annealing search" },
	{ "k2", 1, 0, 1, 1, "1: run the K = 2 regime too" },
	{ "k2t", 5, 2, 6, 1, "rounds of the K = 2 regime (enumerated)" },
	{ "k2c", 4, 1, 20, 1, "capacity of each type in the K = 2 regime" },
	{ "k2d", 2, 1, 20, 1, "largest demand per type in the K = 2 regime" },
	{ "k2nv", 6, 2, 64, 1, "value levels of the K = 2 enumeration" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "regime", SB_COL_STR, "" },
	{ "ul", SB_COL_DBL, "U/L" },
	{ "policy", SB_COL_STR, "" },
	{ "T", SB_COL_INT, "rounds" },
	{ "C", SB_COL_INT, "units" },
	{ "D", SB_COL_INT, "units" },
	{ "cr_adv", SB_COL_DBL, "max OPT/E[ALG], best response" },
	{ "cr_stair", SB_COL_DBL, "max OPT/E[ALG], staircases" },
	{ "cr_rand", SB_COL_DBL, "max OPT/E[ALG], random" },
	{ "mean_rand", SB_COL_DBL, "mean OPT/E[ALG], random (F4)" },
	{ "cr_enum", SB_COL_DBL, "max OPT/E[ALG], enumeration (0: not run)" },
	{ "cr_sa", SB_COL_DBL, "max OPT/E[ALG], annealing" },
	{ "enum_instances", SB_COL_INT, "" },
	{ "cr", SB_COL_DBL, "max OPT/E[ALG], union" },
	{ "worst_kind", SB_COL_STR, "" },
	{ "worst_opt_glpk", SB_COL_DBL, "welfare" },
	{ "proven", SB_COL_DBL, "ratio (0: none)" },
	{ "ln_bound", SB_COL_DBL, "1+ln(U/L)" },
	{ "cr_ln", SB_COL_DBL, "cr / (1+ln(U/L))" },
	{ "adv_ln", SB_COL_DBL, "cr_adv / (1+ln(U/L))" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (2 + (int)sb_opts_get(&c->opts, "k2")) * (int)sb_opts_get(&c->opts, "nul");
	if (sb_opts_get(&c->opts, "k2d") > sb_opts_get(&c->opts, "k2c"))
		return sb_err_set(err, SB_EXIT_INPUT, "online_ratio: field 'k2d': largest demand "
				  "%g above the capacity k2c = %g", sb_opts_get(&c->opts, "k2d"),
				  sb_opts_get(&c->opts, "k2c"));
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: best-response adversaries, staircases, random buyers, enumeration");
	return 0;
}

static int opt_of(const char *key, struct sb_exp_ctx *c)
{
	return (int)sb_opts_get(&c->opts, key);
}

/* OPT/E[ALG] of p on `in` through sb_online_run (both checkers). */
static int ratio_of(struct sb_exp_ctx *c, int point, const struct sb_online_game *g,
		    const struct sb_online_inst *in, const struct sb_online_policy *p,
		    const struct sb_opts *o, uint64_t rep, double *q, struct sb_err *err)
{
	struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, rep,
					  SB_RNG_POLICY ^ sb_hash_str(p->name));
	struct sb_online_result r;
	int rc;

	if ((rc = sb_online_run(g, in, p, o, &rng, &r, err)))
		return rc;
	*q = sb_online_opt(g, in, NULL) / r.ealg;
	sb_online_result_release(&r);
	return 0;
}

struct worst {
	double cr;
	char kind[SB_ONLINE_KIND_LEN];
	struct sb_online_inst in;
};

static void offer(struct worst *w, double q, const char *kind, const struct sb_online_inst *in)
{
	if (!(q > w->cr))
		return;
	w->cr = q;
	snprintf(w->kind, sizeof w->kind, "%s", kind);
	sb_online_inst_release(&w->in);
	sb_online_inst_alloc(&w->in, in->T);
	memcpy(w->in.d, in->d, (size_t)in->T * sizeof *in->d);
	memcpy(w->in.v, in->v, (size_t)in->T * sizeof *in->v);
}

/* (e): the annealing search of `sb adversary online` on this game; the
 * worst instance into *in (allocated here). */
static int anneal(struct sb_exp_ctx *c, int point, const struct sb_online_game *g,
		  const struct sb_online_policy *p, int nv, struct sb_online_inst *in,
		  struct sb_err *err)
{
	const struct sb_adversary *h = &sb_online_adversary;
	struct sb_adversary_space sp;
	struct sb_adversary_found f;
	struct sb_opts o;
	char kv[8][64];
	void *ctx;
	int k, rc, nkv = g->K == 1 ? 6 : 8;

	snprintf(kv[0], sizeof kv[0], "T=%d", g->T);
	snprintf(kv[1], sizeof kv[1], "C=%d", g->C);
	snprintf(kv[2], sizeof kv[2], "D=%d", g->D);
	snprintf(kv[3], sizeof kv[3], "M=%d", g->M);
	snprintf(kv[4], sizeof kv[4], "ul=%.17g", g->U / g->L);
	snprintf(kv[5], sizeof kv[5], "nv=%d", nv);
	snprintf(kv[6], sizeof kv[6], "K=%d", g->K);
	snprintf(kv[7], sizeof kv[7], "C2=%d", g->Ck[g->K - 1]);
	sb_opts_defaults(&o, h->params);
	for (k = 0; k < nkv; k++)
		if ((rc = sb_opts_set(&o, h->params, kv[k], "online_ratio", err)))
			return rc;
	if ((rc = h->open(p->name, NULL, &o, &ctx, &sp, err)))
		return rc;
	rc = sb_adversary_anneal(h, ctx, &sp, opt_of("sa_iters", c), c->seed,
				 (uint64_t)point * 1000 + sb_hash_str(p->name) % 1000, &f, err);
	sb_adversary_close(h, ctx);
	if (!rc) {
		sb_online_inst_alloc(in, g->T);
		sb_online_adversary_decode(g, nv, f.gene, in);
	}
	return rc;
}

static int eval_policy(struct sb_exp_ctx *c, int point, const struct sb_online_game *g,
		       const struct sb_online_policy *p, const struct sb_online_inst *set,
		       char (*kind)[SB_ONLINE_KIND_LEN], int nset, int regime, int nv,
		       struct sb_table *out, struct sb_err *err)
{
	struct sb_advlearn_pol q = { p, { 0 }, 0, { 0, "" } };
	struct worst w = { -1, "", { 0 } };
	struct sb_online_inst in = { 0 };
	double cr_adv = 0, cr_stair = 0, cr_rand = 0, cr_enum = 0, cr_sa, x, last, ilp, lp, bound;
	double sum_rand = 0;
	int nrand = 0;
	unsigned long long code = 0, count = 0;
	int k, rc = 0, enumerate = regime > 0;
	size_t row;

	sb_opts_defaults(&q.o, p->params);
	for (k = 0; k < nset; k++) {
		if ((rc = ratio_of(c, point, g, &set[k], p, &q.o, (uint64_t)k, &x, err)))
			goto out;
		if (!strncmp(kind[k], "stair", 5))
			cr_stair = sb_max(cr_stair, x);
		else {
			cr_rand = sb_max(cr_rand, x);
			sum_rand += x;
			nrand++;
		}
		offer(&w, x, kind[k], &set[k]);
	}
	sb_advlearn_best_response(g, sb_advlearn_policy_ratio, &q, opt_of("br_steps", c), 64,
				  5e-3, 0.01, c->seed, (uint64_t)point,
				  1000 + sb_hash_str(p->name) % 1000, &last, &in);
	if ((rc = q.rc)) {
		*err = q.err;
		goto out;
	}
	if ((rc = ratio_of(c, point, g, &in, p, &q.o, (uint64_t)nset, &cr_adv, err)))
		goto out;
	offer(&w, cr_adv, "best-response", &in);
	if (enumerate) {
		double dfs;
		if ((rc = sb_online_exhaust(g, p, &q.o, nv, &dfs, &code, &count, err)))
			goto out;
		sb_online_inst_release(&in);
		sb_online_gen_enum(g, &in, nv, code);
		if ((rc = ratio_of(c, point, g, &in, p, &q.o, (uint64_t)nset + 1, &cr_enum, err)))
			goto out;
		/* the enumeration's forward sums and the simulator's backward DP
		 * are two computations of one number (infinite when the policy
		 * sells nothing, e.g. zlw pricing large items above L) */
		if (!(cr_enum == dfs || fabs(cr_enum - dfs) <= 1e-9 * cr_enum)) {
			rc = sb_err_set(err, SB_EXIT_RUN, "%s: enumeration ratio %.12g, simulator "
					"%.12g on instance %llu", p->name, dfs, cr_enum, code);
			goto out;
		}
		offer(&w, cr_enum, "enum", &in);
	}
	/* after the enumeration: a tie is credited to the exhaustive search */
	sb_online_inst_release(&in);
	if ((rc = anneal(c, point, g, p, enumerate ? nv : g->M, &in, err)) ||
	    (rc = ratio_of(c, point, g, &in, p, &q.o, (uint64_t)nset + 2, &cr_sa, err)))
		goto out;
	offer(&w, cr_sa, "anneal", &in);
	if ((rc = sb_online_opt_glpk(g, &w.in, &ilp, &lp, err)))
		goto out;
	if (fabs(ilp - sb_online_opt(g, &w.in, NULL)) > 1e-6 * (1 + ilp)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "knapsack DP and GLPK disagree (%s)", p->name);
		goto out;
	}
	bound = 1 + log(g->U / g->L);
	row = sb_table_add(out);
	sb_table_set_str(out, row, "regime", regimes[regime]);
	sb_table_set_dbl(out, row, "ul", g->U / g->L);
	sb_table_set_str(out, row, "policy", p->name);
	sb_table_set_int(out, row, "T", g->T);
	sb_table_set_int(out, row, "C", g->C);
	sb_table_set_int(out, row, "D", g->D);
	sb_table_set_dbl(out, row, "cr_adv", cr_adv);
	sb_table_set_dbl(out, row, "cr_stair", cr_stair);
	sb_table_set_dbl(out, row, "cr_rand", cr_rand);
	sb_table_set_dbl(out, row, "mean_rand", nrand ? sum_rand / nrand : 0);
	sb_table_set_dbl(out, row, "cr_enum", cr_enum);
	sb_table_set_dbl(out, row, "cr_sa", cr_sa);
	sb_table_set_int(out, row, "enum_instances", (long long)count);
	sb_table_set_dbl(out, row, "cr", w.cr);
	sb_table_set_str(out, row, "worst_kind", w.kind);
	sb_table_set_dbl(out, row, "worst_opt_glpk", ilp);
	sb_table_set_dbl(out, row, "proven", p->proven_ratio ? p->proven_ratio(g, &q.o) : 0);
	sb_table_set_dbl(out, row, "ln_bound", bound);
	sb_table_set_dbl(out, row, "cr_ln", w.cr / bound);
	sb_table_set_dbl(out, row, "adv_ln", cr_adv / bound);
out:
	sb_online_inst_release(&in);
	sb_online_inst_release(&w.in);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int nul = opt_of("nul", c), k2 = point >= 2 * nul;
	/* K = 1 points first (regime = point % 2 at U/L index point / 2), then
	 * the k2 points at U/L index point - 2 nul */
	int regime = k2 ? 2 : point % 2, ui = k2 ? point - 2 * nul : point / 2;
	int enumerate = regime > 0, np, i, k, nset, rc, v;
	int nv = opt_of(k2 ? "k2nv" : "nv", c);
	const struct sb_online_policy *const *p = sb_online_policies(&np);
	struct sb_online_game g;
	struct sb_online_inst *set;
	char (*kind)[SB_ONLINE_KIND_LEN];

	if (k2) {
		int cap[2] = { opt_of("k2c", c), opt_of("k2c", c) };
		rc = sb_online_game_init_k(&g, opt_of("k2t", c), 2, cap, opt_of("k2d", c),
					   opt_of("M", c), 1, ratios[ui], err);
	} else {
		rc = sb_online_game_init(&g, opt_of(enumerate ? "et" : "T", c),
					 opt_of(enumerate ? "ec" : "C", c),
					 enumerate ? opt_of("ed", c) : 1, opt_of("M", c), 1,
					 ratios[ui], err);
	}
	if (rc)
		return rc;
	/* the learned tables of this point's game; a table is defined only for
	 * the game it was trained on, so earlier points' tables are dropped */
	sb_online_ptable_clear();
	for (v = 0; v < 3; v++) {
		struct sb_advlearn_cfg cfg;
		struct sb_advlearn_out res;
		sb_advlearn_defaults(&cfg);
		cfg.update = v == 2 ? SB_ADVLEARN_REINFORCE : SB_ADVLEARN_PERROUND;
		cfg.inputs = v == 1 ? SB_ADVLEARN_RANDOM : SB_ADVLEARN_ADVERSARY;
		cfg.iters = opt_of("iters", c);
		cfg.br_every = 0;
		cfg.seed = c->seed;
		cfg.point = (uint64_t)point;
		if ((rc = sb_advlearn_train(&g, &cfg, &res, err)))
			return rc;
		rc = sb_online_ptable_put(learned[v], &g, res.prob, err);
		sb_advlearn_out_release(&res);
		if (rc)
			return rc;
	}
	nset = sb_online_gen_evalset(&g, c->seed, (uint64_t)point, opt_of("random", c), 0, &set,
				     &kind);
	for (i = 0; i < np && !rc; i++)
		if (!p[i]->offline)
			rc = eval_policy(c, point, &g, p[i], set, kind, nset, regime, nv, out, err);
	for (k = 0; k < nset; k++)
		sb_online_inst_release(&set[k]);
	sb_free(set);
	sb_free(kind);
	return rc;
}

const struct sb_experiment sb_experiment_online_ratio = {
	.name = "online_ratio",
	.desc = "competitive-ratio table: best response, staircases, random and enumeration per policy (K = 1, 2)",
	.figure = "online-T1",
	.family = "online",
	.params = params,
	.quick_set = "nul=2 T=30 et=4 random=20 br_steps=40 iters=30 sa_iters=2000 k2t=4 k2nv=4",
	.cols = cols,
	.summary_by = "regime ul policy",
	.summary_of = "cr",
	.setup = setup,
	.run_point = run_point,
};
