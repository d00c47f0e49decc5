/*
 * bound.h - bounds and optima for the cluster family (spec asrpt.md §7).
 * All of them are our own benchmark design [O]: the paper's body is
 * not available to us, so none of this is the paper's.
 *
 * Objective everywhere: total completion time sum_j C_j (finish times, not
 * flow times). The lower bounds LB1 and LB2 use p_j = n_j tau_lb_j as a
 * job's processing time, tau_lb_j = sb_job_iter_time_lb (no placement is
 * faster), so they hold whatever placement, preemption or restart overhead
 * a policy uses. The tiny-instance bracket (L, U) is about a different
 * quantity, the non-preemptive fixed-placement optimum: see
 * sb_cluster_opt_tiny.
 *
 * This header declares them all; one file per bound in core/cluster/
 * defines them:
 *   lb1.c        sb_cluster_tau_lb, sb_cluster_srpt_completions,
 *                sb_cluster_lb1 (LB1, no solver)
 *   lb2.c        sb_cluster_lb2 (LB2, time-indexed LP, GLPK)
 *   opt_tiny.c   sb_cluster_pattern_tau, sb_cluster_opt_tiny,
 *                sb_cluster_tiny_sched_release (OPT bracket, ILPs),
 *                sb_cluster_opt_exact (OPT_np by enumeration)
 *   place_ilp.c  sb_cluster_place_ilp, sb_cluster_place_ilp_spec
 *                (placement ILP)
 * boundutil.h (internal to those files) holds what several of them share:
 * the ILP settings and the row buffer.
 */
#ifndef SB_CLUSTER_BOUND_H
#define SB_CLUSTER_BOUND_H

#include "cluster.h"
#include "lp.h"

/* tau_lb[j] = sb_job_iter_time_lb of every job of js on c (array of js->n);
 * in the topology mode (c->interf) the isolated best-locality time
 * sb_interf_tau_iso, which no placement and no co-location beats (S >= 1,
 * bandwidths fall with the span), so LB1 and LB2 bound that mode too (the
 * marl.md §7 JCT lower bound is LB2 on it). */
void sb_cluster_tau_lb(const struct sb_cluster *c, const struct sb_jobset *js,
		       double *tau_lb);

/* ------------------------------------------------------------------ */
/* LB1: virtual single machine (no solver)                             */
/* ------------------------------------------------------------------ */

/*
 * LB1: max( sum of completion times of preemptive SRPT on one machine of
 * speed N = S x G fed the works g_j n_j tau_lb_j at their arrivals,
 * sum over jobs of a_j + n_j tau_lb_j ). The first term is a bound because
 * any cluster schedule can be replayed on that machine at rate g_j per
 * running job, and SRPT is optimal for 1|r_j, pmtn|sum C_j. O(n log n).
 * sb_cluster_srpt_completions fills cv[j] (array of js->n) with each job's
 * SRPT completion.
 */
double sb_cluster_lb1(const struct sb_cluster *c, const struct sb_jobset *js,
		      const double *tau_lb);
void sb_cluster_srpt_completions(const struct sb_cluster *c, const struct sb_jobset *js,
				 const double *tau_lb, double *cv);

/* ------------------------------------------------------------------ */
/* LB2: time-indexed LP relaxation                                     */
/* ------------------------------------------------------------------ */

#define SB_CLB_LB2_SLOTS 400        /* default number of slots T */
#define SB_CLB_LB2_ITERS 2000000L   /* default simplex iteration limit */

/*
 * LB2 (spec §7, with the corrections explained in cluster/lb2.c): the
 * time-indexed LP over T = slots slots of length horizon / T plus one
 * unbounded overflow slot after them, so the bound holds for every
 * schedule, also for one that ends after `horizon`. horizon (> 0, seconds
 * from time 0, not from the first arrival) only sets the resolution: pass
 * an upper bound on the makespan of a good schedule, e.g. the last finish
 * of a FIFO run. slots <= 0: SB_CLB_LB2_SLOTS; iter_limit <= 0:
 * SB_CLB_LB2_ITERS (a deterministic limit; a wall-time limit of
 * SB_CLB_TIME_LIMIT seconds is only a safety net, and res->stopped says
 * which one ended a solve). tau_lb may be NULL (computed here).
 *
 * *lb receives the LP optimum, or NAN when the solve did not prove it (an
 * LP stopped early has no valid bound in hand: the primal value of a
 * simplex that did not finish is not a bound, and the wrapper gives no
 * dual bound); callers then fall back to LB1. res (may be NULL) receives
 * the solver result (status, seconds, stop reason; res->x is the LP
 * solution, owned by the caller: sb_lp_result_release); its objective is
 * in units of slots, *lb in seconds. LB1 and LB2 are not ordered: report
 * max(LB1, LB2).
 *
 * Returns 0, SB_EXIT_INPUT (bad horizon, slots, job set or cluster, or a
 * model too large) or SB_EXIT_RUN (GLPK failed) with err filled.
 */
int sb_cluster_lb2(const struct sb_cluster *c, const struct sb_jobset *js,
		   const double *tau_lb, double horizon, int slots, long iter_limit,
		   double *lb, struct sb_lp_result *res, struct sb_err *err);

#define SB_CLB_TIME_LIMIT 600.0     /* seconds: safety net of every solve */

/* ------------------------------------------------------------------ */
/* Iteration time of a placement pattern                               */
/* ------------------------------------------------------------------ */

#define SB_CLB_ENUM_MAX 12          /* workers at most for exact enumeration */

/*
 * tau_j(k): the minimum of sb_job_iter_time over every assignment of the
 * workers (vertices) of h to servers 0..nserver-1 with exactly count[m]
 * workers on server m (sum count = h->nv <= SB_CLB_ENUM_MAX), by exact
 * enumeration (servers of equal count that are still empty are
 * interchangeable, so only one of them is tried). server (may be NULL,
 * array of h->nv) receives an assignment attaining the minimum (the first
 * in enumeration order).
 */
double sb_cluster_pattern_tau(const struct sb_cluster *c, const struct sb_jobgraph *h,
			      const int *count, int nserver, int *server);

/* ------------------------------------------------------------------ */
/* OPT bracket on tiny instances                                       */
/* ------------------------------------------------------------------ */

#define SB_CLB_TINY_SERVERS 4       /* limits of sb_cluster_opt_tiny (the */
#define SB_CLB_TINY_GPUS 8          /* spec's tiny instances: S <= 3,    */
#define SB_CLB_TINY_JOBS 12         /* G <= 4, <= 8 jobs)                */
#define SB_CLB_TINY_JOB_GPUS 8

/* A non-preemptive schedule with fixed placements: job j runs on servers
 * server[voff[j] + v] (worker v) from start[j] to finish[j] =
 * start[j] + n_j tau_j(that assignment), uninterrupted. Owned; free with
 * sb_cluster_tiny_sched_release. */
struct sb_cluster_tiny_sched {
	int n;
	double *start, *finish;
	int *voff;                  /* n + 1 */
	int *server;
};

void sb_cluster_tiny_sched_release(struct sb_cluster_tiny_sched *s);

/*
 * A bracket L <= OPT_np <= U for tiny instances (nserver <= 4, gpus <= 8,
 * <= 12 jobs of <= 8 GPUs; meant for S <= 3, G <= 4, <= 8 jobs), where
 * OPT_np is the minimum of sum_j C_j over NON-PREEMPTIVE schedules with
 * FIXED PLACEMENT on the server structure: each job runs once,
 * uninterrupted, from a start >= a_j, on g_j GPUs with at most G GPUs in
 * use per server at any time, for n_j tau_j(its assignment of workers to
 * servers) seconds (sb_job_iter_time). Every non-preemptive simulator run
 * is such a schedule, so L <= its sum of finish times. OPT_np bounds
 * nothing about preemptive policies (they may beat it).
 *
 * Both numbers come from time-indexed ILPs with slots of delta seconds
 * (delta <= 0: a default of about 1/60 of a list schedule's makespan) and
 * placement patterns k in {0..G}^S, sum k = g_j, with durations from
 * sb_cluster_pattern_tau:
 *   U: durations rounded up to whole slots and starts on slot boundaries
 *      at or after a_j: every solution is a schedule, U is the sum of its
 *      true finish times (start + n_j tau_j(k)); a list schedule is the
 *      first incumbent, so U is finite even when the search stops early.
 *   L: starts and durations rounded down: the image of every schedule is
 *      a solution of no larger cost, so the ILP's proven bound is <= OPT_np
 *      (whether or not the search finished).
 * node_limit > 0 bounds each of the two searches (deterministic); 0: none.
 * lower_status / upper_status: enum sb_lp_status of the two searches
 * (SB_LP_OPTIMAL: that ILP was solved to optimality; L and U are valid
 * either way, only less tight). sched (may be NULL) receives the schedule
 * of U. Returns 0, SB_EXIT_INPUT (instance outside the limits, delta too
 * small for the model size) or SB_EXIT_RUN (GLPK failed).
 */
int sb_cluster_opt_tiny(const struct sb_cluster *c, const struct sb_jobset *js,
			double delta, long node_limit, double *lower, double *upper,
			int *lower_status, int *upper_status,
			struct sb_cluster_tiny_sched *sched, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Exact OPT_np on tiny instances                                      */
/* ------------------------------------------------------------------ */

#define SB_CLB_EXACT_JOBS 8         /* jobs at most for sb_cluster_opt_exact */

/*
 * OPT_np itself (the quantity sb_cluster_opt_tiny brackets), by
 * enumeration of active schedules with branch and bound, no solver and no
 * time discretisation: every order of the jobs and every placement pattern
 * per job, each job started at its earliest fit (see cluster/opt_tiny.c).
 * Same instance limits as sb_cluster_opt_tiny and at most
 * SB_CLB_EXACT_JOBS jobs; meant for <= 5 jobs on 1-3 small servers.
 * node_limit > 0 bounds the search (deterministic; 0: none). *status:
 * SB_LP_OPTIMAL (*opt is OPT_np, proven), SB_LP_FEASIBLE (stopped at the
 * limit: *opt is only an upper bound, the best schedule found; callers
 * that need the optimum must reject the instance), SB_LP_NOSOLUTION
 * (stopped before any schedule: *opt NAN). *nodes (may be NULL): the
 * (job, pattern) choices tried. sched (may be NULL) receives the schedule
 * of *opt, for replay in the simulator. Returns 0 or SB_EXIT_INPUT.
 */
int sb_cluster_opt_exact(const struct sb_cluster *c, const struct sb_jobset *js, long node_limit,
			 double *opt, int *status, long *nodes,
			 struct sb_cluster_tiny_sched *sched, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Placement ILP (spec §7.4)                                           */
/* ------------------------------------------------------------------ */

#define SB_CLB_PLACE_MAX 64         /* workers at most */

/*
 * Minimum weighted cut sum_{(u,v) split} w_uv of placing the workers of h
 * on servers with free_per_server[m] free GPUs (m < nserver), one server
 * per worker, at most f_m workers on server m. Solved as an ILP without
 * server labels (workers grouped under their smallest member, groups
 * assigned to classes of servers with equal free counts: see
 * cluster/place_ilp.c), which is equivalent to the spec's model (§7.4:
 * z_{v,m} binaries, e_uv >= |z_um - z_vm|) but has neither its server symmetry
 * nor its LP bound of 0. node_limit > 0 bounds the search (0: none).
 * *status: SB_LP_OPTIMAL (cut is the minimum) or SB_LP_FEASIBLE (stopped
 * early: cut is the best placement found, an upper bound).
 * server_of_vertex (may be NULL, array of h->nv) receives the placement;
 * *cut is recomputed from it (sb_jobgraph_cut). Returns 0, SB_EXIT_INPUT
 * (fewer free GPUs than workers, too many workers, bad edges) or
 * SB_EXIT_RUN (GLPK failed).
 */
int sb_cluster_place_ilp(const struct sb_jobgraph *h, const int *free_per_server,
			 int nserver, long node_limit, double *cut, int *server_of_vertex,
			 int *status, struct sb_err *err);
/* The same with the spec's model as written (z_{v,m}, with the rule that
 * worker v may use only the first v + 1 servers of a class of equal free
 * counts): for cross-checks; its search is exponential in practice beyond
 * about 8 workers on partly occupied clusters. */
int sb_cluster_place_ilp_spec(const struct sb_jobgraph *h, const int *free_per_server,
			      int nserver, long node_limit, double *cut, int *server_of_vertex,
			      int *status, struct sb_err *err);

#endif
