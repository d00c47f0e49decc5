/*
 * boundutil.h - what the dag family's bounds share (internal to core/dag/:
 * lb.c, brute.c, milp.c, timeidx.c): device and op quantities, longest
 * paths, the evaluation of per-device sequences, GLPK parameters and the
 * honest result of a model that certifies only its floor.
 */
#ifndef SB_DAG_BOUNDUTIL_H
#define SB_DAG_BOUNDUTIL_H

#include "bound.h"
#include "util.h"

#define MILP_MAX_N 200    /* beyond this the disjunctive model is hopeless */
#define EXACT_MAX_N 12

/* Tight tolerances (big-M rows; the experiments compare makespans with
 * the bound at 1e-9) and pseudocost branching (several times faster than
 * GLPK's default on these models, measured on n = 12..20). */
extern const struct sb_lp_params sb_dag_bnd_lp_params;

/* Duration of a Send on device d, exactly as sb_dag_exec_build has it. */
double sb_dag_bnd_send_dur(const struct sb_dag_inst *in, int d);
/* ok[k*nd+d] for every colocation component k and device d: may k run on
 * d (type, finite time, memory of k alone)? Owned by the caller. */
unsigned char *sb_dag_bnd_comp_ok_table(const struct sb_dag_inst *in,
					const struct sb_dag_comps *c);

/* Fastest allowed time of each op (INFINITY if it has no device). */
void sb_dag_bnd_fastest_times(const struct sb_dag_inst *in, const unsigned char *ok,
			  double *tmin);

/* head[v]: heaviest path into v (excluding v), tail[v]: heaviest path out
 * of v (excluding v), with weights w. Returns the heaviest path. */
double sb_dag_bnd_heads_tails(const struct sb_dag *g, const double *w, double *head,
			  double *tail);

/*
 * Earliest start of every task of x when each device runs the tasks it
 * hosts in the order of key[] (ties: topological rank). Sends occupy their
 * device only when sends_occupy is set (and Sends have a duration);
 * otherwise they are pure delays. Fills start[] (ntask) and returns the
 * makespan, or -1 if the orders contradict the precedences.
 */
double sb_dag_bnd_eval_sequences(const struct sb_dag_exec *x, const double *key,
			     int sends_occupy, double *start);

void sb_dag_bnd_infeasible(struct sb_lp_result *res);

/* C >= lb is a row of every model, so a search stopped before it proved
 * anything still certifies lb. */
void sb_dag_bnd_floor(struct sb_lp_result *res, double lb);

#endif
