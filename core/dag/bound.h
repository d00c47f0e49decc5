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
