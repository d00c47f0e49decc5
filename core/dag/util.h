/*
 * util.h - helpers shared by the dag partitioners and baselines:
 * colocation components with their demands, feasibility with memory
 * bookkeeping, and longest-path quantities. Written once here so that no
 * policy re-derives them.
 */
#ifndef SB_DAG_UTIL_H
#define SB_DAG_UTIL_H

#include "dag.h"

#define SB_DC_CONFLICT (-2) /* members require different device types */

struct sb_dag_comps {
	int n;          /* number of components */
	int *off;       /* CSR: members of k are mem[off[k]..off[k+1]) */
	int *member;    /* ops in increasing id order within a component */
	double *ops;    /* total work */
	double *mem;    /* total memory demand (sb_dag_mem summed) */
	int *dc;        /* SB_DC_ANY, a device type, or SB_DC_CONFLICT */
};

void sb_dag_comps_build(struct sb_dag_comps *c, const struct sb_dag_inst *in);
void sb_dag_comps_release(struct sb_dag_comps *c);

/* 1 if every member of component k may run on d (type and finite time). */
int sb_dag_comp_allowed(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
			int k, int d);
/* 1 if component k is allowed on d and fits into free_mem[d]. */
int sb_dag_comp_fits(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		     int k, int d, const double *free_mem);
/* Place component k on d: sets place[] of every member and subtracts its
 * memory from free_mem[d] (free_mem may be NULL). */
void sb_dag_comp_place(const struct sb_dag_comps *c, int k, int d, int *place,
		       double *free_mem);
/* free_mem[d] = M(d) for every device (caller-allocated, ndev entries). */
void sb_dag_free_mem_init(const struct sb_dag_inst *in, double *free_mem);

/* Fastest device (largest speed; ties to lower id) on which component k
 * fits; -1 if none. */
int sb_dag_fastest_fit(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		       int k, const double *free_mem);

/* Longest paths in work units (ops): pre[v] = heaviest source->v path
 * excluding v, post[v] = heaviest v->sink path including v, so the
 * heaviest path through v weighs pre[v] + post[v]. Returns the heaviest
 * path of the graph. Either array may be NULL. */
double sb_dag_through(const struct sb_dag_inst *in, double *pre, double *post);

/* Mean device speed, and mean link rate over ordered pairs d != e
 * (INFINITY rates are skipped; returns INFINITY if all are). */
double sb_dag_mean_speed(const struct sb_dag_inst *in);
double sb_dag_mean_rate(const struct sb_dag_inst *in);
/* Mean execution time of v over the devices it is allowed on. */
double sb_dag_mean_time(const struct sb_dag_inst *in, int v);

#endif
