/*
 * bound.h - GLPK optima and bounds of the alloc family (ours [O]):
 *   - the configuration ILP of gadget.md §8 for ring-all-reduce jobs
 *     under EXC, ENE and FAIR (maximisation: an upper bound on every
 *     run of the simulator; exact for EXC and ENE, for FAIR the log is
 *     replaced by 16 tangents plus the cap, so the bound is an upper one);
 *   - the time-indexed mixed packing/covering ILP of pslocality.md §2 for
 *     PS jobs under JCT (minimisation of flow slots: a lower bound on every
 *     run; per-worker rates at full PS provisioning, no PS ratio, so every
 *     simulated layout is feasible in it);
 *   - their LP relaxations for larger instances.
 * Solves stop on a deterministic node / iteration limit; a solve that stops
 * early reports its incumbent and its bound, never "optimal"; an infeasible
 * or unbounded model is an error with a message, never a number.
 */
#ifndef SB_ALLOC_BOUND_H
#define SB_ALLOC_BOUND_H

#include "alloc.h"
#include "lp.h"

struct sb_alloc_bound {
	char model[48];        /* "gadget-config-ilp", "pslocality-lp", ... */
	char status[24];       /* "optimal", "node-limit", "lp-optimal", ... */
	int optimal;           /* 1: bound == optimum of the model */
	double bound;          /* proven bound: >= every utility (max) or <=
	                          every flow (min) of the simulator */
	int has_incumbent;
	double incumbent;      /* best integer solution found (ILP) */
	double seconds;        /* wall clock (timing only) */
	long nodes;
	int ncols, nrows;
	int start_used;        /* a start schedule was given and GLPK took it
	                          as its first incumbent */
};

/* Node and iteration limits of every stored solve. */
#define SB_ALLOC_NODE_LIMIT 3000L
#define SB_ALLOC_ITER_LIMIT 5000000L

/* Bound of in's objective: relax = 1 for the LP relaxation, 0 for the ILP.
 * SB_EXIT_INPUT when the instance is outside the model (e.g. PS jobs under
 * a utility objective), SB_EXIT_RUN when GLPK fails or the model is
 * infeasible (a job that cannot finish in the horizon) or unbounded. */
int sb_alloc_bound(const struct sb_alloc_inst *in, int relax, struct sb_alloc_bound *b,
		   struct sb_err *err);
/* The same with another node limit (> 0), e.g. for tests that need many
 * quick bounds; the bound stays valid, only "optimal" becomes rarer. */
int sb_alloc_bound_nodes(const struct sb_alloc_inst *in, int relax, long nodes,
			 struct sb_alloc_bound *b, struct sb_err *err);
/* GADGET's configuration ILP in one of its two exact forms: the compact
 * model of gadget.md §8 (u, v, x per job, server and slot), or the
 * slot-pattern model (pattern.c: counts of whole-slot configurations per
 * epoch of equal slots, without the compact model's slot and server
 * symmetry, so small instances are proven optimal). AUTO takes the pattern
 * form when its enumeration stays within its deterministic limits, else the
 * compact one; PATTERN alone is SB_EXIT_INPUT beyond them. Both have the same
 * integer optimum; the pattern LP is the tighter relaxation. */
enum sb_alloc_form { SB_ALLOC_FORM_AUTO = 0, SB_ALLOC_FORM_COMPACT = 1, SB_ALLOC_FORM_PATTERN = 2,
		     SB_ALLOC_FORM_PRICE = 3 };
/* PRICE: the pattern model solved by our branch-and-price (price.c), whose
 * node bounds see each job's integrality; nodes = its node limit. Its LP
 * (relax = 1) is the pattern form's. SB_EXIT_INPUT beyond the enumeration's
 * limits. */
/* start (NULL: none) is a checked run of in, e.g. sb_alloc_best_run's: its
 * schedule becomes the search's first incumbent (in the pattern form each
 * slot's layout is replaced by a kept pattern that dominates it, so the
 * incumbent is at least start's utility). Without one, GLPK's own
 * heuristics rarely find an integer solution of the pattern form (at J = 6,
 * S = 4, T = 10: none in 50 nodes), so nothing can be pruned; with one, a
 * start whose utility reaches the LP bound is proven optimal at the root.
 * The bound is what GLPK proves either way. */
int sb_alloc_gadget_bound(const struct sb_alloc_inst *in, int relax, long nodes, int form,
			  const struct sb_alloc_result *start, struct sb_alloc_bound *b,
			  struct sb_err *err);
/* The best checked run of in among the registered policies that fit it
 * (highest utility; under JCT fewest flow slots; ties to the first in
 * registry order), each policy with its default options and a stream keyed
 * by (seed, its name). *name = the policy's. r is the caller's to release. */
int sb_alloc_best_run(const struct sb_alloc_inst *in, uint64_t seed, struct sb_alloc_result *r,
		      const char **name, struct sb_err *err);
/* Columns the exact model of in would have (to choose ILP or LP). */
long sb_alloc_bound_size(const struct sb_alloc_inst *in);

/* The PS-locality time-indexed model over slots t0 .. t0+T-1 (pslocality.md
 * §2), exposed for the rounding of algorithms/pslocality. Column indices
 * are -1 where a variable does not exist (before the job's arrival). */
struct sb_alloc_psmodel {
	struct sb_lp *lp;
	int J, H, T, t0;
	int *y, *wl, *pl, *wd, *pd;   /* [(i * H + h) * T + (t - t0)] */
	int *z, *f;                   /* [i * T + (t - t0)] */
	double *rho_l, *rho_d;        /* per-worker progress per slot */
	double *need;                 /* work each job must still do */
	double constant;              /* added to the LP objective: flow slots */
	int force;                    /* as built (see below) */
};
/* Build it for the jobs of in with remaining work need[] (NULL: targets)
 * from slot t0 (jobs arriving later keep their arrival). force = 1 makes
 * every job finish inside the window (the offline ILP); force = 0 lets a
 * job run past it, counted as not finished in the window (rolling). */
void sb_alloc_psmodel_build(const struct sb_alloc_inst *in, const double *need, int t0, int T,
			    int force, struct sb_alloc_psmodel *m);
void sb_alloc_psmodel_release(struct sb_alloc_psmodel *m);
/* Solve with the family's limits (relax = 1: LP). */
int sb_alloc_psmodel_solve(struct sb_alloc_psmodel *m, int relax, struct sb_lp_result *res,
			   struct sb_err *err);
/* The LP relaxation of m (built for in) solved through its server symmetry
 * when in's servers are identical: the same model on one server of H times
 * the capacity has the same LP optimum (every row is a sum over servers, or
 * per server and implied for the sum; an optimum averaged over the H!
 * server permutations is symmetric), and its solution divided by H on
 * every server is an optimum of m's LP. H times fewer columns; res is as
 * from sb_alloc_psmodel_solve(m, 1, ...) with x in m's columns.
 * SB_EXIT_INPUT when the servers differ. */
int sb_alloc_psmodel_lp_sym(const struct sb_alloc_inst *in, const struct sb_alloc_psmodel *m,
			    struct sb_lp_result *res, struct sb_err *err);

/* A multiple-choice multi-dimensional knapsack (smd.md §2, one SMD round):
 * item i picks exactly one of its configurations off[i] .. off[i+1]-1 (the
 * first is "idle", demand 0); config c costs cost[c] and uses dem[c][r] of
 * cap[r]. Minimise the total cost. */
struct sb_alloc_mmkp {
	int n;
	int *off;                       /* n + 1 */
	double *cost;
	double (*dem)[SB_ALLOC_NRES];
	double cap[SB_ALLOC_NRES];
};
/* Its ILP (relax = 0) or LP relaxation (relax = 1): a lower bound on every
 * feasible choice; the exact optimum when b->optimal. */
int sb_alloc_mmkp_bound(const struct sb_alloc_mmkp *m, int relax, struct sb_alloc_bound *b,
			struct sb_err *err);
/* The round's best choice (choice[i] = a configuration of item i;
 * *optimal = 1 when proven): sb_alloc_mmkp_dp's exact optimum where it
 * applies, else the ILP's best within the family's node limit, starting
 * from the feasible choice start[] (so there is always an incumbent);
 * SB_EXIT_RUN when GLPK fails or only its safety time limit stopped it.
 * choice may be start. */
int sb_alloc_mmkp_choose(const struct sb_alloc_mmkp *m, const int *start, int *choice,
			 int *optimal, struct sb_err *err);

/* The exact optimum of m by dynamic programming over the lattice of
 * resources used (mmkp.c): 1 with choice[] and *cost when every demand is
 * a whole multiple of a quarter unit and the lattice fits the DP's memory
 * cap; 0 when it does not apply (nothing written). start[] is a feasible
 * choice; states that cannot beat it are dropped. */
int sb_alloc_mmkp_dp(const struct sb_alloc_mmkp *m, const int *start, int *choice,
		     double *cost);

/* The independent check of one round's choice: one configuration of its
 * own per item, capacity kept; 0 and *cost = its total, else 1 and why. */
int sb_alloc_mmkp_check(const struct sb_alloc_mmkp *m, const int *choice, double *cost,
			char *why, size_t len);
/* The LP relaxation's optimal column values x[0 .. off[n]) and objective
 * (SMD's LP-outer selection); SB_EXIT_RUN when it is not solved to
 * optimality within the family's limits. */
int sb_alloc_mmkp_lp(const struct sb_alloc_mmkp *m, double *x, double *obj,
		     struct sb_err *err);

/* Internal to core/alloc (bound.c, pattern.c). */
/* The family's deterministic limits on lp (nodes <= 0: the default). */
void sb_alloc_bound_limits(struct sb_lp *lp, long nodes);
/* Solve lp and turn the result into b or an error; maximize: its sense;
 * constant is added to the objective. */
int sb_alloc_bound_finish(struct sb_lp *lp, const char *model, int relax, int maximize,
			  double constant, struct sb_alloc_bound *b, struct sb_err *err);
/* theta_j (objective coefficient 1) under job j's utility of progress
 * column P (gadget.md §8 (A5)); returns theta_j's column. */
int sb_alloc_bound_utility_rows(struct sb_lp *lp, const struct sb_alloc_inst *in, int j,
				int P);
/* The largest theta_j those rows allow at progress P. */
double sb_alloc_bound_theta(const struct sb_alloc_inst *in, int j, double P);
/* A start schedule by slot: k[t * njob + j] workers of job j in slot t,
 * on[...] its server when all are on one, -1 when spread; w[(t * njob + j)
 * * nserver + s] its workers on server s. */
struct sb_alloc_start {
	int *k, *on, *w;
};
void sb_alloc_start_init(struct sb_alloc_start *st, const struct sb_alloc_inst *in,
			 const struct sb_alloc_result *r);
void sb_alloc_start_release(struct sb_alloc_start *st);
/* Column values of an incumbent, set as the columns are made (unset: 0). */
struct sb_alloc_colvals {
	double *x;
	int n, cap;
};
void sb_alloc_colval(struct sb_alloc_colvals *cv, int col, double v);
/* sb_alloc_bound_finish (constant 0) with cv (NULL: none) offered as the
 * first incumbent of an ILP solve; sets b->start_used. cv stays the
 * caller's. */
int sb_alloc_bound_solve_from(struct sb_lp *lp, const char *model, int relax, int maximize,
			      struct sb_alloc_colvals *cv, struct sb_alloc_bound *b,
			      struct sb_err *err);
/* The pattern form; SB_ALLOC_PATTERN_TOO_BIG when its enumeration exceeds
 * its limits (nothing solved), else as sb_alloc_bound. Not 1: that is
 * SB_EXIT_RUN, which a solve stopped by its safety time limit returns, and
 * taking it for "too big" would hand a loaded machine's run to the compact
 * form (another model, another bound) instead of failing it. */
#define SB_ALLOC_PATTERN_TOO_BIG (-1)
int sb_alloc_gadget_pattern(const struct sb_alloc_inst *in, int relax, long nodes,
			    const struct sb_alloc_start *start, struct sb_alloc_bound *b,
			    struct sb_err *err);
/* The branch-and-price of price.c; as sb_alloc_gadget_pattern (ILP only). */
int sb_alloc_gadget_price(const struct sb_alloc_inst *in, long nodes,
			  const struct sb_alloc_start *start, struct sb_alloc_bound *b,
			  struct sb_err *err);
/* The slot patterns that pattern.c enumerates, by epoch (maximal runs of
 * slots with the same arrived jobs). */
struct sb_alloc_popt {
	int k;          /* GPUs; 0 = off */
	int local;      /* all on one server */
	double rate;    /* worker-steps per slot */
};
struct sb_alloc_epochs {
	int J, ne;
	struct sb_alloc_popt **o;  /* per job: its options, o[j][0] = off */
	int *no;
	int *t0, *n, *na;          /* per epoch: first slot, slots, arrived jobs */
	int **act;                 /* per epoch: the arrived jobs, in job order */
	long *np;                  /* per epoch: kept patterns */
	int **pat;                 /* per epoch: np x na option indices into o[act[i]] */
};
/* 0, or SB_ALLOC_PATTERN_TOO_BIG (ep then empty) beyond the enumeration's
 * deterministic limits. */
int sb_alloc_epochs_build(const struct sb_alloc_inst *in, struct sb_alloc_epochs *ep);
void sb_alloc_epochs_release(struct sb_alloc_epochs *ep);
/* The first kept pattern of epoch x that dominates start's layout in slot
 * t (every job's rate at least the start's; under ENE no more GPUs), or -1. */
long sb_alloc_epochs_dominating(const struct sb_alloc_epochs *ep, const struct sb_alloc_inst *in,
				int x, const struct sb_alloc_start *st, int t);

#endif
