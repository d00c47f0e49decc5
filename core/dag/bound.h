/*
 * bound.h - lower bounds and exact optima for the dag family
 * (spec tfpart.md §10, all [O]: our design, not from the paper).
 *
 *   sb_dag_lower_bounds      §10.3 closed-form bounds, O(V + E + V*D)
 *   sb_dag_milp_relaxed      §10.1 MILP with Sends as pure delays: its
 *                            optimum is a certified lower bound on the
 *                            simulator optimum (every simulator schedule is
 *                            feasible for it)
 *   sb_dag_milp_exact        §10.2 ILP with Sends as device tasks: its
 *                            optimum is the best makespan of any feasible
 *                            schedule of the dag.h model (n <= 12)
 *   sb_dag_time_indexed      §10.4 P|prec|Cmax, identical processors,
 *                            integer durations (STG checks)
 *   sb_dag_bruteforce_*      enumeration for tiny instances, to validate
 *                            the models above
 *
 * Files: lb.c (§10.3), milp.c (§10.1, §10.2), timeidx.c (§10.4), brute.c
 * (enumeration); what they share is in boundutil.c (internal).
 *
 * Spec: tfpart.md §2 (model) and §10 (bounds), all [O] (our design; the
 * paper has no bounds). What is ours beyond the spec text, and why:
 *   - §10.3 generalised to ETC matrices and to memory: an op's allowed
 *     devices are those its whole colocation component may use (type,
 *     finite time) and fits on alone (memory). LB_work is Σ ops / Σ s for
 *     related machines and Σ min_d t / |D| for an ETC matrix; the class
 *     refinement is done for every device type.
 *   - §10.1 is built with one assignment binary per colocation component
 *     (x_{v,d} := X_{comp(v),d}), which is the spec's model with its
 *     colocation equalities substituted. The comm rows are the spec's
 *     pairwise rows plus, per source device d, the aggregated row
 *     k >= c_min(d) (X_{u,d} - X_{v,d}) (valid, tighter in the LP).
 *     Valid cuts added (none changes the optimum): C >= closed-form LB
 *     (asked for), C >= load of each device, heads and tails of each op
 *     (S_v >= longest fastest-time path into v, C >= S_v + P_v + tail(v)),
 *     C <= an upper bound UB, and y <= q (the order of two tasks on
 *     different devices is fixed to 0; several times faster).
 *   - Big-M: UB is the smallest of the caller's simulator makespan, the
 *     warm start's makespan and a serial schedule's makespan; each row
 *     gets its own M = (upper bound on S_a + P_a) - (lower bound on S_b)
 *     from UB, heads and tails, instead of the spec's single H (same
 *     integer solutions with C <= UB, tighter LP).
 *   - GLPK: integrality tolerance 1e-9 and objective tolerance 1e-10
 *     (big-M rows; the experiments compare makespans with the bound at
 *     1e-9) and hybrid pseudocost branching (measured several times faster
 *     than GLPK's default on n = 12..20).
 *   - §10.2: the consumer row uses Σ_d t_xfer(d,d') x_{u,d} directly (it
 *     is exact whenever the row is active), so the spec's w variables are
 *     not needed; Send σ_{u,d'} is active iff z_{u,d'} = 1, and its
 *     same-device indicator with another task includes z. Big-M as above.
 *   - Warm start: device labels of the incumbent are permuted within each
 *     class of identical devices so that it satisfies the symmetry rows.
 *     For §10.2 only op start times are given, so the Sends are put into
 *     each device's op order (right after the producer, or as late as the
 *     consumers allow, whichever is better) and the schedule is re-timed.
 *   - §10.4 as written, with each op's start restricted to
 *     [head, horizon - p - tail] (integer longest paths; other starts are
 *     infeasible anyway), C >= completion of every sink and
 *     C >= max(critical path, ceil(Σ p / m)).
 *   - Brute force: enumerate placements (per component, respecting type,
 *     time and memory), then per placement a depth-first search over the
 *     execution graph (sb_dag_exec_build: ops and Sends) that appends one
 *     ready task at a time at its earliest start on its device. Only
 *     orders with non-decreasing start times are followed (every
 *     semi-active schedule is reached by sorting it by start time), and a
 *     branch stops when a device's remaining work cannot beat the best.
 *
 * Verified: by tests/test_dagbound.c against the brute force on random
 * instances (MILP optimum = enumeration), chain = Σ ops / s, §10.4 against
 * the brute force with free communication.
 */
#ifndef SB_DAG_BOUND_H
#define SB_DAG_BOUND_H

#include "dag.h"
#include "lp.h"

/* §10.3. Each field is a valid lower bound on the optimum makespan of the
 * dag.h model (Sends only add time); INFINITY when some op has no device
 * it may run on (type, finite time, memory of its component alone). */
struct sb_dag_bounds {
	double cp;          /* heaviest path, each op at its fastest allowed time */
	double work;        /* all work over all devices */
	double work_class;  /* work that only one device type may run, over that type */
	double coloc;       /* largest colocation component on its best device */
	double lb;          /* max of the above */
};

void sb_dag_lower_bounds(const struct sb_dag_inst *in, struct sb_dag_bounds *b);

struct sb_dag_milp_opts {
	/* Limits of one call, whatever it takes inside (the relaxed and
	 * exact models may solve up to three times: a rejected warm start, a
	 * check of the caller's makespan). */
	double time_limit;        /* seconds of wall clock for the whole call,
	                             model building included; <= 0 means 60.
	                             A safety net: a result that hit it
	                             (stopped = SB_LP_STOP_TIME) depends on
	                             the machine and must not be stored */
	long node_limit;          /* branch-and-bound subproblems over all
	                             solves; 0: none. A search stopped by it
	                             gives the same result on every machine */
	long iter_limit;          /* simplex iterations over all solves; 0:
	                             none (deterministic too) */
	double mip_gap;           /* relative gap at which to stop (0: exact) */
	const int *inc_place;     /* a schedule to warm-start from (or NULL): */
	const double *inc_start;  /*   device and start time of every op */
	double inc_makespan;      /* makespan of a simulator schedule (or 0): an
	                             upper bound on the optimum, used for big-M */
	int no_symmetry;          /* 1: no symmetry breaking between identical
	                             devices */
	int relax;                /* 1: solve the LP relaxation only */
};

/*
 * §10.1. res->obj: best schedule found in the MILP (a makespan where Sends
 * are pure delays); res->bound: certified lower bound on the simulator
 * optimum (equal to obj when OPTIMAL, within GLPK's tolerances). With
 * relax = 1 both are the LP relaxation value. res->x is GLPK's column
 * vector (layout private). Returns 0, SB_EXIT_INPUT (instance too large
 * for the model), or SB_EXIT_RUN (GLPK failure) with err filled.
 * Owner: res (release with sb_lp_result_release).
 */
int sb_dag_milp_relaxed(const struct sb_dag_inst *in, const struct sb_dag_milp_opts *o,
			struct sb_lp_result *res, struct sb_err *err);

/* §10.2, n <= 12: one Send task per (producer, remote consumer device) on
 * the producer's device, lasting send_ops / s. Its optimum equals the best
 * makespan over all feasible (semi-active) schedules of the dag.h model.
 * With send_ops <= 0 Sends are pure delays and this is the relaxed model.
 * Same conventions as sb_dag_milp_relaxed. */
int sb_dag_milp_exact(const struct sb_dag_inst *in, const struct sb_dag_milp_opts *o,
		      struct sb_lp_result *res, struct sb_err *err);

/* §10.4: nproc identical unit-speed processors, duration ops(v) (must be
 * integral), no communication, devices/memory/constraints of `in`
 * ignored. horizon must be an upper bound on the optimum (e.g. a list
 * schedule's makespan); <= 0 means the serial time Σ ops. INFEASIBLE means
 * no schedule within the horizon. Of o (NULL: defaults) only the limits
 * and mip_gap are used. */
int sb_dag_time_indexed(const struct sb_dag_inst *in, int nproc, int horizon,
			const struct sb_dag_milp_opts *o, struct sb_lp_result *res,
			struct sb_err *err);

/* Optimum of the relaxed model (Sends as pure delays) by enumeration,
 * n <= 9; INFINITY if no placement is feasible. */
double sb_dag_bruteforce_relaxed(const struct sb_dag_inst *in);
/* Optimum of the exact model (Sends occupy their device), n <= 7. */
double sb_dag_bruteforce_exact(const struct sb_dag_inst *in);

#endif
