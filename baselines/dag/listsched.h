/*
 * listsched.h - machinery shared by the dag list-scheduling baselines
 * (heft, cpop, etf, m-etf, m-sct) and the placement errors of every dag
 * baseline. Not a policy: it registers nothing.
 *
 * The list schedulers plan a full schedule in their own model: op v takes
 * t(v,d) = sb_dag_time on device d; the data of edge (u,v) reaches device d
 * at F(u) + sb_dag_xfer(size(u,v), p(u), d) (0 on the same device; Sends are
 * pure delays that occupy no device); one op at a time per device.
 * Colocation: the first member of a component to be scheduled chooses the
 * device and reserves the memory of the whole component there; later
 * members have no choice. Priorities compare with a relative tolerance of
 * 1e-9 (sb_ls_near) so that ties in exact arithmetic stay ties in floating
 * point and are broken the documented way.
 */
#ifndef SB_LISTSCHED_H
#define SB_LISTSCHED_H

#include "dag/dag.h"
#include "dag/util.h"

/* 1 if a and b are equal up to a relative 1e-9. */
int sb_ls_near(double a, double b);

/* Report that component k has no device it may go to: either no device is
 * allowed for all its members, or none has memory left (free_mem may be
 * NULL: memory not considered). Names the component's first op. Returns
 * SB_EXIT_INPUT. */
int sb_ls_err_nodev(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		    int k, const double *free_mem, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Mean-cost quantities (Topcuoglu et al. 2002)                        */
/* ------------------------------------------------------------------ */

/* wbar[v] = mean time of v over its allowed devices; cbar[e] (e indexes
 * g->succ) = size(e) / mean rate over pairs d != d' (0 when every rate is
 * INFINITY). cbar may be NULL. */
void sb_ls_mean_costs(const struct sb_dag_inst *in, double *wbar, double *cbar);
/* rank_u(v) = wbar(v) + max over successors w of (cbar(v,w) + rank_u(w));
 * cbar NULL means no communication (a static level). */
void sb_ls_rank_up(const struct sb_dag *g, const double *wbar,
		   const double *cbar, double *rank);
/* rank_d(v) = max over predecessors u of (rank_d(u) + wbar(u) + cbar(u,v)),
 * 0 at the entries. */
void sb_ls_rank_down(const struct sb_dag *g, const double *wbar,
		     const double *cbar, double *rank);

/* ------------------------------------------------------------------ */
/* Ready list                                                          */
/* ------------------------------------------------------------------ */

/* Ops whose predecessors are all scheduled. Order inside op[] is not
 * meaningful (removal swaps the last op into the hole). */
struct sb_ls_ready {
	int n;
	int *op;       /* ready ops op[0..n) */
	int *pos;      /* slot of each op in op[], -1 if not ready */
	int *missing;  /* unscheduled predecessors of each op */
};

/* All entries (ops without predecessors) start ready. */
void sb_ls_ready_init(struct sb_ls_ready *r, const struct sb_dag *g);
void sb_ls_ready_release(struct sb_ls_ready *r);
/* Remove v; returns the slot it occupied (the op that was last, if any,
 * now sits there: slot < r->n after the call). */
int sb_ls_ready_remove(struct sb_ls_ready *r, int v);
/* v has been scheduled: successors whose last predecessor it was become
 * ready, appended at the end of op[]. Returns how many. */
int sb_ls_ready_done(struct sb_ls_ready *r, const struct sb_dag *g, int v);
/* The ready op with the largest prio (ties within sb_ls_near to the lower
 * id), removed from the list; -1 if the list is empty. */
int sb_ls_ready_pop_max(struct sb_ls_ready *r, const double *prio);

/* ------------------------------------------------------------------ */
/* Schedule under construction                                         */
/* ------------------------------------------------------------------ */

struct sb_ls_busy {
	int n, cap;
	double *s, *f;  /* busy intervals sorted by start (hence by finish) */
};

struct sb_ls {
	const struct sb_dag_inst *in;
	const struct sb_dag *g;
	int n, nd;
	struct sb_dag_comps comps;
	unsigned char *comp_ok;  /* ncomp*nd: component allowed on device */
	int *comp_dev;           /* device of each component, -1 while unplaced */
	double *free_mem;        /* memory left per device */
	int *place;              /* = plan->place */
	double *start, *finish;  /* = plan->plan_start / plan_finish */
	double *avail;           /* finish of the latest op per device */
	int *last;               /* op with the latest finish per device, or -1 */
	struct sb_ls_busy *busy; /* per device */
	int nsched;
};

/* Start an empty schedule writing into plan (whose arrays must exist).
 * Fails with SB_EXIT_INPUT, naming an op, when a component has no allowed
 * device at all. Release s in every case. */
int sb_ls_init(struct sb_ls *s, const struct sb_dag_inst *in,
	       struct sb_dag_plan *plan, struct sb_err *err);
void sb_ls_release(struct sb_ls *s);

/* 1 if op v may go on d now: its component is placed on d, or is unplaced,
 * allowed on d and fits into d's free memory. */
int sb_ls_can(const struct sb_ls *s, int v, int d);
/* Time at which all inputs of v (all predecessors scheduled) are on d. */
double sb_ls_data_ready(const struct sb_ls *s, int v, int d);
/* Earliest start >= ready of a task of length dur in an idle gap of d
 * (insertion policy of Topcuoglu et al.). */
double sb_ls_insert_est(const struct sb_ls *s, int d, double ready, double dur);
/* Schedule v on d from start: records place and times, places and charges
 * the component when v is its first member. */
void sb_ls_assign(struct sb_ls *s, int v, int d, double start);
/* Mark the plan complete: has_plan = 1 and the makespan. */
void sb_ls_finish(struct sb_ls *s, struct sb_dag_plan *plan);

/* ------------------------------------------------------------------ */
/* The two scheduling loops                                            */
/* ------------------------------------------------------------------ */

/* When the inputs of v count as being on d, for the insertion loop; arg is
 * the caller's. sb_ls_data_ready is the published one. */
typedef double sb_ls_ready_fn(const struct sb_ls *s, int v, int d, const void *arg);

/*
 * Priority list scheduling with insertion (HEFT, CPOP): repeatedly take the
 * ready op with the largest prio (ties to the lower id) and put it on
 * want[v] if want is not NULL, want[v] >= 0 and v may go there; otherwise
 * on the device with the smallest insertion-based finish time (ties to the
 * lower device id). Its inputs are on d at ready(s, v, d, arg), or at
 * sb_ls_data_ready when ready is NULL. Fills plan; SB_EXIT_INPUT when an
 * op has no device.
 */
int sb_ls_insertion(const struct sb_dag_inst *in, const double *prio,
		    const int *want, sb_ls_ready_fn *ready, const void *arg,
		    struct sb_dag_plan *plan, struct sb_err *err);

/* How ETF breaks ties between (op, device) pairs of equal start. */
enum sb_ls_tie {
	SB_LS_TIE_LEVEL = 0, /* larger static level (mean times, no comm) */
	SB_LS_TIE_TOPO = 1,  /* earlier position in g->topo (Baechi) */
};

struct sb_ls_etf_cfg {
	int tie;         /* enum sb_ls_tie; then lower device id, lower op id */
	const int *fav;  /* m-SCT favourite child of each op (-1: none), or NULL */
};

/*
 * Earliest task first without insertion: repeatedly schedule the pair
 * (ready op v, device d) with the smallest start max(avail(d), data ready
 * of v on d). With cfg->fav (m-SCT), a device whose latest op i has a
 * ready, unplaced favourite child fc, and which is among the devices where
 * fc could start earliest, is reserved for fc: another op v may start there
 * only once it is urgent, i.e. at max(start, U(v)) with U(v) the latest of
 * v's starts over its devices. Fills plan; SB_EXIT_INPUT when an op has no
 * device left.
 */
int sb_ls_etf(const struct sb_dag_inst *in, const struct sb_ls_etf_cfg *cfg,
	      struct sb_dag_plan *plan, struct sb_err *err);

#endif
