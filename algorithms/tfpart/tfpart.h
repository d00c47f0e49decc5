/*
 * tfpart.h - helpers shared by the policies of Mayer, Mayer, Laich, "The
 * TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!",
 * DIDL 2017 (the files of algorithms/tfpart; spec: tfpart.md).
 *
 * Partitioners keep their bookkeeping in a struct sb_tfpart: colocation
 * components, free memory per device (spec section 2), and the work already
 * assigned to each device (the load of sections 3.1 and 3.3). A component
 * is always placed whole, through sb_tfpart_assign.
 *
 * The normalised execution and traffic factors E^ and T^ of MITE (3.2,
 * steps 3-5) are also used by DFS (3.5); the placement-aware b-level of PCT
 * (section 4) is also MSR's tie-break. Both live here, once.
 *
 * Family: dag (core/dag/).
 */
#ifndef SB_TFPART_H
#define SB_TFPART_H

#include "dag/dag.h"
#include "dag/util.h"

struct sb_tfpart {
	const struct sb_dag_inst *in;
	const char *who;        /* policy name, the prefix of error messages */
	struct sb_dag_comps c;
	int *place;             /* the plan's placement (not owned), -1 = open */
	double *free_mem;       /* per device: M(d) minus what is assigned */
	double *load_ops;       /* per device: sum of ops assigned */
	/* scratch for sb_tfpart_et, one entry per device */
	int *feas;
	double *e, *t;
	int *mark, *list;
};

/* Start partitioning into place[] (n entries, set to -1 here). who names
 * the policy in error messages. Release with sb_tfpart_release. */
void sb_tfpart_init(struct sb_tfpart *p, const struct sb_dag_inst *in,
		    int *place, const char *who);
void sb_tfpart_release(struct sb_tfpart *p);

/* 1 if component k is placed (all members share a device). */
static inline int sb_tfpart_done(const struct sb_tfpart *p, int k)
{
	return p->place[p->c.member[p->c.off[k]]] >= 0;
}

/* Place component k on d; updates free memory and load. */
void sb_tfpart_assign(struct sb_tfpart *p, int k, int d);

/* Report that the component of op v fits on no device:
 * "cp: no device can hold colocation group of op 17 (demand 3555)".
 * Returns SB_EXIT_INPUT. */
int sb_tfpart_nofit(const struct sb_tfpart *p, int v, struct sb_err *err);

/*
 * MITE's normalised factors for component k (spec 3.2, steps 3-5): for
 * every device d on which k fits, p->feas[d] = 1 and
 *   p->e[d] = E^(d) = E(d)/max E, E(d) = (load_ops(d) + ops(k)) / s(d),
 *   p->t[d] = T^(d) = T(d)/max T (1 everywhere if every T is 0),
 * exact zeros replaced by 1e-6. T(d) counts, for each member v, the floored
 * transfer time of every assigned predecessor on another device, and the
 * transfer of out(v) to every distinct other device hosting an assigned
 * successor of v -- or, with first_succ_only (the Java quirk), only to the
 * first such successor. Returns the number of feasible devices.
 */
int sb_tfpart_et(struct sb_tfpart *p, int k, int first_succ_only);

/*
 * PCT's static b-level on the execution graph (spec section 4):
 *   bl(t) = w(t) + max over exec successors s of (bl(s) + delay(t, s)),
 * with w(op) = its duration on its device and, for Send(u, d'), the work
 * send_ops of the Send on p(u) plus that of the Recv on d' (both 10-op
 * nodes in the TF model); the Send -> consumer delay is the transfer.
 * bl has x->ntask entries (caller-owned).
 */
void sb_tfpart_pct_blevel(const struct sb_dag_exec *x, double *bl);
/* PCT's scheduler keys: key = -bl, so the largest b-level runs first. */
void sb_tfpart_pct_keys(const struct sb_dag_exec *x, double *key);

/*
 * The averaged upward rank of CP (spec 3.1), which the authors' code also
 * gives HeftPartitioning (PartitioningPreprocessor):
 *   rank(v) = ops(v)/s_mean + max_w rank(w) + out(v)/r_mean  (sinks: ops/s_mean),
 * next[v] = the arg-max successor (-1 at sinks; ties to the lower id).
 * compat = 1 reproduces the Java code: r_mean is the first device's rate
 * row summed (zero self-entry included) over |D|, and the running maximum
 * already includes out(v)/r_mean, so a successor within that margin of the
 * best never replaces it. rank and next have n entries (caller-owned).
 */
void sb_tfpart_rank_up(const struct sb_dag_inst *in, int compat, double *rank, int *next);

#endif
