/*
 * adversary.c - the online family's hook for `sb adversary online` (see
 * core/adversary.h) [O]: instances are T buyers, two genes each (a value
 * level of an nv-level geometric grid in [L, U], the level numbering of
 * sb_online_gen_enum, and a demand 1..D, K = 2: a demand code 1..D^2);
 * the reference is the knapsack
 * optimum (OPT/E[ALG]) or a second policy (E[ALG'] / E[ALG]). Every E[ALG]
 * is the exact DP of sb_online_run, checked by both checkers.
 */
#include "online.h"
#include "online/ptable.h"
#include "adversary.h"

#include <math.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "T", 6, 1, SB_ADV_MAXGENES / 2, 1, "rounds (buyers)" },
	{ "C", 4, 1, 100, 1, "capacity units" },
	{ "D", 2, 1, 100, 1, "largest demand" },
	{ "M", 16, 2, SB_ONLINE_MAXM, 1, "price grid levels" },
	{ "ul", 5, 1.000001, SB_ONLINE_MAXRATIO, 0, "U/L (L = 1)" },
	{ "nv", 8, 2, SB_ONLINE_MAXM, 1, "value levels the buyers take" },
	{ "K", 1, 1, SB_ONLINE_MAXK, 1, "resource types (2: demand vectors, capacities C, C2)" },
	{ "C2", 4, 1, 100, 1, "capacity units of type 2 (K = 2 only)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx {
	struct sb_online_game g;
	const struct sb_online_policy *p, *q;   /* q: versus, NULL for OPT */
	struct sb_opts po, qo;
	int nv;
	struct sb_online_inst in;
};

static int usable(const struct sb_online_game *g, const char *name,
		  const struct sb_online_policy **p, struct sb_err *err)
{
	if (!(*p = sb_online_policy_find(name)))
		return sb_err_set(err, SB_EXIT_INPUT, "online: unknown policy '%s' (sb list "
				  "online)", name);
	/* a table exists only for the game it was trained on: an experiment
	 * that trained one for this game may search it, the command line not */
	if ((*p)->stored && !sb_online_ptable_find(name, g))
		return sb_err_set(err, SB_EXIT_INPUT, "online: policy '%s' reads a trained table "
				  "and none is stored for this game; use sb eval online --table",
				  name);
	return 0;
}

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	int rc, t, cap[2] = { (int)sb_opts_get(o, "C"), (int)sb_opts_get(o, "C2") };

	memset(c, 0, sizeof *c);
	if ((rc = sb_online_game_init_k(&c->g, (int)sb_opts_get(o, "T"), (int)sb_opts_get(o, "K"),
					cap, (int)sb_opts_get(o, "D"), (int)sb_opts_get(o, "M"), 1,
					sb_opts_get(o, "ul"), err)) ||
	    (rc = usable(&c->g, policy, &c->p, err)) ||
	    (versus && (rc = usable(&c->g, versus, &c->q, err))))
		goto out;
	if (c->p->offline) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "online: '%s' is an offline reference, not an "
				"online policy", policy);
		goto out;
	}
	if (2 * c->g.T > SB_ADV_MAXGENES) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "online: T = %d needs %d genes, more than %d",
				c->g.T, 2 * c->g.T, SB_ADV_MAXGENES);
		goto out;
	}
	c->nv = (int)sb_opts_get(o, "nv");
	sb_opts_defaults(&c->po, c->p->params);
	if (c->q)
		sb_opts_defaults(&c->qo, c->q->params);
	sb_online_inst_alloc(&c->in, c->g.T);
	sp->ngenes = 2 * c->g.T;
	for (t = 0; t < c->g.T; t++) {
		sp->hi[2 * t] = c->nv;
		sp->hi[2 * t + 1] = c->g.ND;
	}
	*out = c;
	return 0;
out:
	sb_free(c);
	return rc;
}

void sb_online_adversary_decode(const struct sb_online_game *g, int nv, const int *gene,
				struct sb_online_inst *in)
{
	int t;

	for (t = 0; t < g->T; t++) {
		in->v[t] = sb_online_level(g->L, g->U, nv, gene[2 * t]);
		in->d[t] = 1 + gene[2 * t + 1];
	}
}

static void decode(struct ctx *c, const int *gene)
{
	sb_online_adversary_decode(&c->g, c->nv, gene, &c->in);
}

static int welfare(struct ctx *c, const struct sb_online_policy *p, const struct sb_opts *o,
		   double *e, struct sb_err *err)
{
	struct sb_rng rng = sb_rng_stream(0, 0, 0, SB_RNG_POLICY ^ sb_hash_str(p->name));
	struct sb_online_result r;
	int rc = sb_online_run(&c->g, &c->in, p, o, &rng, &r, err);

	if (!rc)
		*e = r.ealg;
	sb_online_result_release(&r);
	return rc;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	double e, ref;
	int rc;

	decode(c, gene);
	if ((rc = welfare(c, c->p, &c->po, &e, err)))
		return rc;
	if (c->q) {
		if ((rc = welfare(c, c->q, &c->qo, &ref, err)))
			return rc;
	} else {
		ref = sb_online_opt(&c->g, &c->in, NULL);
	}
	*q = e > 0 ? ref / e : (ref > 0 ? INFINITY : 1);
	return 0;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	int t;

	decode(c, gene);
	if (c->g.K == 1) {
		fprintf(out, "instance: T %d C %d D %d M %d U/L %g\ninstance: d,v\n", c->g.T,
			c->g.C, c->g.D, c->g.M, c->g.U / c->g.L);
		for (t = 0; t < c->g.T; t++)
			fprintf(out, "instance: %d,%.17g\n", c->in.d[t], c->in.v[t]);
	} else {
		fprintf(out, "instance: T %d K 2 C %d C2 %d D %d M %d U/L %g\ninstance: d1,d2,v\n",
			c->g.T, c->g.Ck[0], c->g.Ck[1], c->g.D, c->g.M, c->g.U / c->g.L);
		for (t = 0; t < c->g.T; t++)
			fprintf(out, "instance: %d,%d,%.17g\n", sb_online_dem(&c->g, c->in.d[t], 0),
				sb_online_dem(&c->g, c->in.d[t], 1), c->in.v[t]);
	}
	fprintf(out, "opt: %.10g\n", sb_online_opt(&c->g, &c->in, NULL));
}

static void close_(void *ctx)
{
	struct ctx *c = ctx;

	sb_online_inst_release(&c->in);
	sb_free(c);
}

static const char *policy(int i)
{
	int n, k, j = 0;
	const struct sb_online_policy *const *p = sb_online_policies(&n);

	for (k = 0; k < n; k++)
		if (!p[k]->offline && !p[k]->stored && j++ == i)
			return p[k]->name;
	return NULL;
}

const struct sb_adversary sb_online_adversary = {
	.desc = "T buyers (value level, demand); reference: the knapsack optimum, OPT/E[ALG]",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	.close = close_,
	.policy = policy,
	.bench_set = "T=5 C=3 D=2 nv=6",
};
