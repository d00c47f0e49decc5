/*
 * bound.h - lower bounds and exact optima of the pipeline family
 * (spec pipeplan.md §3 step 4 and §6; our design [O], named "SPP-R
 * (ours)": the paper, Luo et al., INFOCOM 2022, is known only from its
 * abstract). The combinatorial bounds are defined in lb.c, the MILPs and
 * the enumeration of their plan space in milp.c.
 *
 *   sb_pipeline_lb_costs / _plan  combinatorial bound of one plan, valid for
 *                             every schedule of it (pipesim's model)
 *   sb_pipeline_lb_problem        bound of a problem, valid for every plan any
 *                             planner can produce with that batch and M
 *   sb_pipeline_milp              §6 MILP over partitions, replicated device
 *                             groups and schedules (copies = 1)
 *   sb_pipeline_milp_sched        the same model with the plan fixed: the best
 *                             schedule of one plan
 *   sb_pipeline_enumerate         every plan of the MILP's space, each solved
 *                             by sb_pipeline_milp_sched (tiny instances)
 *
 * All of them use the costs of pipeline/cost.c (sb_pipeline_costs_build, also
 * for the MILP's precomputed columns), so their values compare directly
 * with simulated iteration times. The MILPs model pipesim's semantics
 * exactly: one task at a time per stage, FIFO transfers per link
 * direction, all-reduce after the last backward, memory kappa W +
 * in-flight x stash per GPU; any schedule a policy produces in pipesim is
 * a feasible solution, so their optimum is <= every simulated time of a
 * plan in their space that fits.
 */
#ifndef SB_PIPELINE_BOUND_H
#define SB_PIPELINE_BOUND_H

#include "lp.h"
#include "pipeline.h"

/* Parts of the bound of one plan (seconds, optimizer step included). */
struct sb_pipeline_lb_parts {
	double stage;   /* max over stages: earliest start + its serial work
	                   (with the wait for the first gradient) + the
	                   backward chain and all-reduce after its last task */
	double link;    /* max over link directions: M serial transfers
	                   between the earliest first and the latest last use */
	double chain;   /* one microbatch's critical path (+ stage 0's AR) */
	double lb;      /* max of the above */
};

/* Bound of a plan with costs c and M microbatches per copy; parts may be
 * NULL. Valid for every schedule (every timeline sb_pipeline_check accepts). */
double sb_pipeline_lb_costs(const struct sb_pipeline_costs *c, int M, struct sb_pipeline_lb_parts *parts);
/* Same, building the costs of plan p (no validation). */
double sb_pipeline_lb_plan(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_topo *t, struct sb_pipeline_lb_parts *parts);

/* Bound of a problem: every valid plan of m on t with global batch
 * `batch` and M microbatches per copy (any copies, replication,
 * re-computation, overlap, kappa, schedule) has a simulated iteration time
 * >= this. pipeline/bound.c gives the argument. */
double sb_pipeline_lb_problem(const struct sb_pmodel *m, const struct sb_topo *t, double batch,
			  int M);

/* Limits of the exact methods. */
#define SB_PIPELINE_MILP_MAX_L 10
#define SB_PIPELINE_MILP_MAX_N 4
#define SB_PIPELINE_MILP_MAX_M 6
#define SB_PIPELINE_SCHED_MAX_TASKS 64   /* copies x S x M of a fixed plan */

struct sb_pipeline_milp_opts {
	double time_limit;     /* seconds; <= 0 means 60 */
	long node_limit;       /* branch-and-bound subproblems; 0: none (a
	                          node limit gives the same result everywhere) */
	int overlap;           /* plans of the space use wait-free AR (plan.overlap) */
	const struct sb_pipeline_plan *warm;  /* sb_pipeline_milp: a plan of the space
	                          (e.g. SPP-R's), simulated under its schedule
	                          and offered as the first incumbent; NULL: none */
	double cutoff;         /* > 0: only solutions with T <= cutoff are of
	                          interest (INFEASIBLE then means none is) */
	int no_lb_cut;         /* 1: leave out the row T >= combinatorial
	                          bound (to test the model without it) */
};

struct sb_pipeline_milp_result {
	int status;            /* enum sb_lp_status */
	int stopped;           /* enum sb_lp_stop */
	double obj;            /* incumbent iteration time; INFINITY if none */
	double bound;          /* proven lower bound on the optimum (>= lb) */
	double lb;             /* combinatorial bound (plan or problem), a cut */
	double seconds;
	long nodes;
	int ncols, nrows, nbin;
	int warm_used;         /* the warm start was accepted as an incumbent */
	struct sb_pipeline_plan plan;  /* the incumbent's plan (S = 0: none);
	                          sb_pipeline_milp only */
};

void sb_pipeline_milp_result_release(struct sb_pipeline_milp_result *r);

/*
 * §6 with the replication extension: one binary per (stage slot, layer
 * segment, device group) with F, B, AR and memory precomputed by
 * sb_pipeline_costs_build, transfers C_s between the groups of consecutive
 * slots (latency + beta act / smallest bandwidth), start times of every
 * task and transfer, pairwise order binaries between a forward and the
 * earlier microbatches' backwards on a stage, the in-flight memory rows.
 * Plans: copies = 1, no re-computation, overlap from mo, kappa from pb;
 * any number of stages up to min(L, N), any GPU subsets with at most
 * batch/M replicas. L <= 10, N <= 4, M <= 6 (pb->M must be set), else
 * SB_EXIT_INPUT. 0 (status in res), SB_EXIT_INPUT or SB_EXIT_RUN (GLPK)
 * with err. Owner: res.
 */
int sb_pipeline_milp(const struct sb_pipeline_problem *pb, const struct sb_pipeline_milp_opts *mo,
		 struct sb_pipeline_milp_result *res, struct sb_err *err);

/* The best schedule of plan p (any copies; costs from sb_pipeline_costs_build;
 * memory of the topology): res->obj and res->bound, status honest.
 * copies x S x M <= SB_PIPELINE_SCHED_MAX_TASKS, else SB_EXIT_INPUT. mo may
 * be NULL (mo->overlap and mo->warm are ignored: the plan says). */
int sb_pipeline_milp_sched(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_topo *t, const struct sb_pipeline_milp_opts *mo,
		       struct sb_pipeline_milp_result *res, struct sb_err *err);

struct sb_pipeline_enum_result {
	double best;           /* best iteration time; INFINITY if no plan fits */
	struct sb_pipeline_plan plan;  /* its plan (S = 0: none) */
	long plans;            /* plans of the space */
	long pruned;           /* skipped: their bound could not beat the best */
	long solved;           /* scheduling MILPs solved */
	int exact;             /* 1: every solve was proven, best is the optimum */
	double seconds;
};

void sb_pipeline_enum_result_release(struct sb_pipeline_enum_result *r);

/*
 * Every plan of sb_pipeline_milp's space (partitions x ordered disjoint GPU
 * groups), bounded by sb_pipeline_lb_plan against the best so far, the rest
 * solved by sb_pipeline_milp_sched (mo: limits per solve and overlap). Same
 * size limits as sb_pipeline_milp. Owner: res.
 */
int sb_pipeline_enumerate(const struct sb_pipeline_problem *pb, const struct sb_pipeline_milp_opts *mo,
		      struct sb_pipeline_enum_result *res, struct sb_err *err);

#endif
