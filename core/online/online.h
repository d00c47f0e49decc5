/*
 * online.h - the online family: the posted-price online allocation game
 * (an online 0/1 knapsack in which the seller posts a unit price).
 *
 * Model [O, advlearn.md §2; the problem instantiation is a reconstruction:
 * the paper's full text was not available]. One resource type (K = 1) with
 * integer capacity C. Rounds t = 0..T-1, one buyer per round with integer
 * demand d_t in 1..D and per-unit valuation v_t in [L, U]. The demand is
 * revealed, then the algorithm posts a unit price p_t (possibly drawn at
 * random), then the buyer takes the d_t units iff v_t >= p_t and d_t fits
 * the remaining capacity. Welfare ALG = sum_t v_t d_t x_t. The offline
 * optimum OPT is the 0/1 knapsack max sum v_t d_t x_t, sum d_t x_t <= C.
 * The competitive ratio of a randomised algorithm on an instance is
 * OPT / E[ALG]; its empirical competitive ratio is the maximum over a set
 * of inputs.
 *
 * The policy interface makes the exact expectation possible: a policy's
 * price distribution may depend only on (t, c, d_t) and on one random
 * choice made before round 0 (its "component", e.g. the threshold of the
 * randomised single-threshold policy). E[ALG] is then the per-round DP
 *   V_T(c) = 0,  V_t(c) = sum_a pi(a | t, c, d_t) Q_t(c, a),
 *   Q_t(c, a) = 1[v_t >= a and d_t <= c] (v_t d_t + V_{t+1}(c - d_t))
 *             + 1[otherwise] V_{t+1}(c),
 * averaged over components; O(T (C + 1) |support|) per instance.
 *
 * K = 2 resource types [O, advlearn.md §2 "K = 2 as a variant"]:
 * capacities C_1, C_2; buyer t demands the vector d_t in {1..D}^2, revealed
 * before pricing. The seller posts ONE per-unit bundle price p_t (a grid
 * level for the learned table): the spec's bundle rule
 * v_t |d_t| >= sum_k p_{t,k} d_{t,k} with per-type prices is the same
 * acceptance as v_t >= p_t with p_t = sum_k p_{t,k} d_{t,k} / |d_t|, and
 * the demand is known when the price is posted, so per-type policies (zlw)
 * post that bundle price. Welfare v_t |d_t| x_t, |d_t| = d_{t,1} + d_{t,2};
 * OPT is the 2-D 0/1 knapsack. Everything runs through the same code as
 * K = 1, which is the special case: the remaining capacity is one state
 * index s (mixed radix, s = c_1 (C_2 + 1) + c_2; K = 1: s = c) and the
 * demand one code d (d - 1 = (d_1 - 1) D + d_2 - 1; K = 1: the demand), so
 * the DP is over (t, s), O(T (C_1 + 1) (C_2 + 1) |support|) per instance,
 * and K = 1 computes exactly what it computed before K = 2 existed.
 */
#ifndef SB_ONLINE_H
#define SB_ONLINE_H

#include "adversary.h"
#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

/* Limits of the game (checked with an error naming the field, exit 2). */
#define SB_ONLINE_MAXT 1000     /* rounds */
#define SB_ONLINE_MAXC 10000    /* capacity units */
#define SB_ONLINE_MAXM 64       /* price grid levels, and support of a price distribution */
#define SB_ONLINE_MAXCOMP 64    /* components of a policy's initial random choice */
#define SB_ONLINE_MAXRATIO 1e6  /* U / L */
#define SB_ONLINE_MAXK 2        /* resource types */
#define SB_ONLINE_MAXS 1000000  /* capacity states prod_k (C_k + 1) */

/* The game's parameters and its price grid: M prices geometric in [L, U]
 * (price[0] = L, price[M - 1] = U exactly). C is C_1 (the capacity when
 * K = 1); D the largest demand per type. */
struct sb_online_game {
	int T, C, D, M;
	double L, U;
	double price[SB_ONLINE_MAXM];
	int K;                          /* resource types, 1..SB_ONLINE_MAXK */
	int Ck[SB_ONLINE_MAXK];         /* capacity of each type (Ck[0] = C) */
	int S;                          /* capacity states prod_k (Ck[k] + 1); full: S - 1 */
	int ND;                         /* demand codes D^K (codes 1..ND) */
	int stride[SB_ONLINE_MAXK];     /* of type k in the state index */
	int dpow[SB_ONLINE_MAXK];       /* of type k in the demand code */
};
/* Fill g after range checks: 1 <= T <= MAXT, 1 <= C <= MAXC, 1 <= D <= C,
 * 2 <= M <= MAXM, 0 < L < U, U / L <= MAXRATIO. Returns 0 or SB_EXIT_INPUT
 * with err naming the field. One resource type (K = 1). */
int sb_online_game_init(struct sb_online_game *g, int T, int C, int D, int M, double L,
			double U, struct sb_err *err);
/* The same with K types of capacities C[0..K): 1 <= K <= MAXK, each C[k]
 * in [1, MAXC], D <= min C[k], prod (C[k] + 1) <= MAXS. */
int sb_online_game_init_k(struct sb_online_game *g, int T, int K, const int *C, int D, int M,
			  double L, double U, struct sb_err *err);

/* Units of type k left in capacity state s. */
static inline int sb_online_left(const struct sb_online_game *g, int s, int k)
{
	return g->K == 1 ? s : (s / g->stride[k]) % (g->Ck[k] + 1);
}
/* Units of type k in demand code d (1..ND). */
static inline int sb_online_dem(const struct sb_online_game *g, int d, int k)
{
	return g->K == 1 ? d : ((d - 1) / g->dpow[k]) % g->D + 1;
}
/* The demand code of the vector dv[0..K). */
static inline int sb_online_dcode(const struct sb_online_game *g, const int *dv)
{
	int k, d = 0;

	for (k = 0; k < g->K; k++)
		d += (dv[k] - 1) * g->dpow[k];
	return d + 1;
}
/* |d|: the units of all types a buyer of demand code d takes. */
static inline int sb_online_size(const struct sb_online_game *g, int d)
{
	int k, n = 0;

	if (g->K == 1)
		return d;
	for (k = 0; k < g->K; k++)
		n += sb_online_dem(g, d, k);
	return n;
}
/* The state index a sale of demand d subtracts (when it fits). */
static inline int sb_online_off(const struct sb_online_game *g, int d)
{
	int k, n = 0;

	if (g->K == 1)
		return d;
	for (k = 0; k < g->K; k++)
		n += sb_online_dem(g, d, k) * g->stride[k];
	return n;
}
/* 1 if demand d fits in every type of capacity state s. */
static inline int sb_online_fits(const struct sb_online_game *g, int s, int d)
{
	int k;

	if (g->K == 1)
		return d <= s;
	for (k = 0; k < g->K; k++)
		if (sb_online_dem(g, d, k) > sb_online_left(g, s, k))
			return 0;
	return 1;
}
/* The largest utilisation over the types, max_k (C_k - c_k) / C_k. */
double sb_online_util_max(const struct sb_online_game *g, int s);
/* Level m of a geometric grid of n levels in [L, U] (the price grid and the
 * adversary's value grid use the same formula, so equal levels compare
 * equal exactly). */
double sb_online_level(double L, double U, int n, int m);

/* An instance: T buyers (owned arrays; free with sb_online_inst_release). */
struct sb_online_inst {
	int T;
	int *d;       /* demand code of buyer t, 1..ND (K = 1: the demand, 1..D) */
	double *v;    /* per-unit valuation of buyer t, in [L, U] */
};
void sb_online_inst_alloc(struct sb_online_inst *in, int T);
void sb_online_inst_release(struct sb_online_inst *in);
/* 0 if in is a valid instance of g (T rounds, demand codes in 1..ND, values in
 * [L, U]), else SB_EXIT_INPUT with err naming the round and field. */
int sb_online_inst_check(const struct sb_online_game *g, const struct sb_online_inst *in,
			 struct sb_err *err);

/* A policy: every baselines/online/ and algorithms/<paper>/ file of this
 * family ends with one `const struct sb_online_policy sb_online_policy_<name>`. */
struct sb_online_policy {
	const char *name;        /* = file name = CLI name */
	const char *cite;        /* "Authors, Title, Venue Year" */
	const char *desc;        /* one line */
	const char *provenance;  /* "verified: ..." or "reconstructed" or "ours" */
	const struct sb_param *params;   /* NULL-terminated, or NULL */
	/* 1: an offline reference that sees the instance (best fixed price in
	 * hindsight); it is never an online algorithm and has no proven ratio. */
	int offline;
	/* 1: the policy reads a trained table from the results (loaded into
	 * the store of online/ptable.h); it exists only for the games it was
	 * trained on, so experiments over other games leave it out. */
	int stored;
	/* Proven competitive ratio on game g (small-item regime), or 0 if the
	 * policy has none. May be NULL. */
	double (*proven_ratio)(const struct sb_online_game *g, const struct sb_opts *o);
	/* Called once per instance before round 0. `in` is NULL unless the
	 * policy is offline. May allocate *ctx (freed by release). Sets *ncomp
	 * in 1..SB_ONLINE_MAXCOMP and weight[0..ncomp) (>= 0, summing to 1):
	 * the policy picks component k with probability weight[k] once, before
	 * round 0. Returns 0 or an exit code with err. */
	int (*reset)(const struct sb_online_game *g, const struct sb_online_inst *in,
		     const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
		     struct sb_err *err);
	/* The distribution of the price posted in round t by component comp,
	 * with capacity state c (K = 1: the units left; see sb_online_left) and
	 * demand code d revealed (K = 1: the demand): writes n pairs (price[i] > 0,
	 * per unit of the bundle when K = 2; prob[i] >= 0, sum 1) and returns n in 1..SB_ONLINE_MAXM. It may depend
	 * on nothing else: the exact DP calls it once per (comp, t, c). */
	int (*decide)(void *ctx, const struct sb_online_game *g, int comp, int t, int c, int d,
		      double *price, double *prob);
	void (*release)(void *ctx);   /* may be NULL */
};
SB_REGISTERED(sb_online_policy);

/* The reset hook of a Markov policy (one component): *ctx becomes the
 * policy's resolved options o, which decide() may read. */
int sb_online_reset_markov(const struct sb_online_game *g, const struct sb_online_inst *in,
			   const struct sb_opts *o, void **ctx, int *ncomp, double *weight,
			   struct sb_err *err);

const struct sb_online_policy *const *sb_online_policies(int *n);
const struct sb_online_policy *sb_online_policy_find(const char *name);
const char *sb_online_policy_file(const struct sb_online_policy *p);

/* A policy's decisions on one instance, tabulated: for component k, round
 * t and capacity state c, the support entries [start, start + n) of
 * price/prob (owned; free with sb_online_table_release). */
struct sb_online_table {
	int ncomp, T, S;
	double weight[SB_ONLINE_MAXCOMP];
	int *start, *n;          /* ncomp * T * S */
	double *price, *prob;    /* the supports, concatenated */
	size_t len, cap;
};
void sb_online_table_release(struct sb_online_table *tb);

/* The result of a run: the exact expected welfare and one sampled episode
 * (its posted prices and acceptances, owned). */
struct sb_online_result {
	double ealg;          /* E[ALG] by the per-round DP */
	double welfare;       /* welfare of the sampled episode */
	int comp;             /* the component the episode drew */
	int T;
	double *price;        /* posted price of each round of the episode */
	unsigned char *x;     /* 1 if buyer t took its units */
};
void sb_online_result_release(struct sb_online_result *r);

/* Run policy p on `in`: tabulate its decisions (the simulator owns the
 * loop and calls the hooks), compute E[ALG] by the DP, sample one episode
 * from rng, and validate both with the checkers; a result a checker rejects
 * is an SB_EXIT_RUN error, never a result. */
int sb_online_run(const struct sb_online_game *g, const struct sb_online_inst *in,
		  const struct sb_online_policy *p, const struct sb_opts *o, struct sb_rng *rng,
		  struct sb_online_result *r, struct sb_err *err);
/* The pieces of sb_online_run, for callers that evaluate one policy on
 * many instances (training, adversaries). */
int sb_online_tabulate(const struct sb_online_game *g, const struct sb_online_inst *in,
		       const struct sb_online_policy *p, const struct sb_opts *o,
		       struct sb_online_table *tb, struct sb_err *err);
double sb_online_expect(const struct sb_online_game *g, const struct sb_online_inst *in,
			const struct sb_online_table *tb);
/* One episode of the tabulated policy: writes price[], x[] and returns the
 * welfare; *comp gets the component drawn. */
double sb_online_sample(const struct sb_online_game *g, const struct sb_online_inst *in,
			const struct sb_online_table *tb, struct sb_rng *rng, double *price,
			unsigned char *x, int *comp);

/* The independent checkers (check.c). An episode: every acceptance follows
 * the rule (v_t >= p_t and d_t fits), capacity never goes negative, the
 * welfare is recomputed. An expectation: every tabulated distribution is a
 * distribution over positive prices, and a forward pass over the reach
 * probabilities of (t, c) gives the same E[ALG] (relative 1e-9) as the
 * backward DP. Return 0 or 1 with why[] filled. */
int sb_online_check_episode(const struct sb_online_game *g, const struct sb_online_inst *in,
			    const double *price, const unsigned char *x, double welfare,
			    char *why, size_t len);
int sb_online_check_expect(const struct sb_online_game *g, const struct sb_online_inst *in,
			   const struct sb_online_table *tb, double ealg, char *why, size_t len);

/* Exhaustive enumeration (exhaust.c): the worst OPT/E[ALG] of online
 * policy p over every instance of g's T rounds with values on nv geometric
 * levels in [L, U] and demands 1..D ((nv D)^T instances, at most 1e9, and
 * T <= SB_ONLINE_EXHAUST_MAXT). *code is the worst instance's number for
 * sb_online_gen_enum (the first in enumeration order among ties), *count
 * the instances enumerated. The caller replays the worst one through
 * sb_online_run (its checkers). Returns 0 or SB_EXIT_INPUT (offline policy,
 * too many instances) with err. */
#define SB_ONLINE_EXHAUST_MAXT 8
int sb_online_exhaust(const struct sb_online_game *g, const struct sb_online_policy *p,
		      const struct sb_opts *o, int nv, double *worst, unsigned long long *code,
		      unsigned long long *count, struct sb_err *err);

/* The offline optimum by the knapsack DP over capacity states, O(T S)
 * (K = 2: the 2-D 0/1 knapsack). If take is not NULL it receives an
 * optimal selection. */
double sb_online_opt(const struct sb_online_game *g, const struct sb_online_inst *in,
		     unsigned char *take);
/* The same optimum with GLPK (0/1 ILP, one capacity row per type, a node
 * limit: deterministic) and its
 * LP relaxation (the fractional optimum). Returns 0 or SB_EXIT_RUN with err
 * (including an ILP that stops before proving optimality). */
int sb_online_opt_glpk(const struct sb_online_game *g, const struct sb_online_inst *in,
		       double *ilp, double *lp, struct sb_err *err);

/* ZCL's threshold function (Zhou, Chakrabarty & Lukose, WINE 2008) at
 * utilisation z in [0, 1]: L up to 1 / (1 + ln(U/L)), then
 * (L/e) (U e / L)^z; its mean over [z0, z1]; and the smallest grid price
 * >= p (U if none). */
double sb_online_psi(const struct sb_online_game *g, double z);
double sb_online_psi_mean(const struct sb_online_game *g, double z0, double z1);
double sb_online_round_up(const struct sb_online_game *g, double p);

/* `sb eval online ...` (family.c) and the family's entry in the table. */
int sb_online_eval(int argc, char **argv);
extern const struct sb_family sb_family_online;
/* The family's `sb adversary` hook (adversary.c): its parameters are the
 * game (T, C, D, M, ul with L = 1) and nv, the value levels; genes 2t and
 * 2t + 1 are buyer t's value level and demand - 1, which decode writes
 * into `in` (allocated for g->T rounds). */
extern const struct sb_adversary sb_online_adversary;
void sb_online_adversary_decode(const struct sb_online_game *g, int nv, const int *gene,
				struct sb_online_inst *in);

#endif
