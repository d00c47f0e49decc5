/*
 * util.h - what the cluster schedulers and placers share: a FIFO of
 * pending jobs, the preemptive priority dispatcher, and server choice and
 * worker filling for placement.
 */
#ifndef SB_CLUSTER_UTIL_H
#define SB_CLUSTER_UTIL_H

#include "cluster.h"

/* ------------------------------------------------------------------ */
/* Queues                                                              */
/* ------------------------------------------------------------------ */

/* Pending jobs in arrival order (a job is appended when it arrives and
 * when it is preempted, in its arrival position). */
struct sb_clq {
	int n, cap;
	int *job;
};

void sb_clq_init(struct sb_clq *q);
void sb_clq_release(struct sb_clq *q);
/* Insert j keeping arrival (= id) order. */
void sb_clq_insert(struct sb_clq *q, int j);
/* Append j at the end (for lists kept in another order). */
void sb_clq_push(struct sb_clq *q, int j);
void sb_clq_remove_at(struct sb_clq *q, int i);
/* Scheduler hooks of a policy whose private state is just such a queue of
 * arrived jobs (FIFO and its variants). */
void *sb_clq_hook_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng);
void sb_clq_hook_release(void *ctx);
void sb_clq_hook_arrival(void *ctx, struct sb_csim *s, int j);

/*
 * Non-preemptive list dispatch: start jobs of q in order while they can be
 * placed; strict = 1 stops at the first job that cannot start (FIFO),
 * strict = 0 tries every job (first-fit backfilling). Started jobs leave q.
 */
void sb_cluster_dispatch_list(struct sb_csim *s, struct sb_clq *q, int strict);

/*
 * Preemptive priority dispatch (spec asrpt.md §3 D2): rank the arrived,
 * unfinished jobs by key (smaller first; ties to the earlier arrival),
 * admit them in rank order while the admitted GPUs fit in the cluster
 * (stop at the first that does not), preempt running jobs outside the
 * admitted set that have run at least qmin seconds since they last
 * started, and start the admitted pending jobs in rank order where the
 * placer finds room. key[j] is read for active jobs only.
 */
void sb_cluster_dispatch_priority(struct sb_csim *s, const double *key, double qmin);

/* Rank order for sb_cluster_dispatch_ranked: nonzero when job x ranks
 * before job y; must be a strict total order (break ties by id). */
typedef int (*sb_cluster_before)(const void *ctx, int x, int y);
/* The two ranks most policies use: smaller key first (ctx = the keys,
 * double per job), ties to the lower id; and by id alone (ctx unused). */
int sb_cluster_key_before(const void *ctx, int x, int y);
int sb_cluster_id_before(const void *ctx, int x, int y);

/*
 * D2 (skip = 0 below) on the rank that before() defines over jobs[0..n)
 * (every arrived, unfinished job once, in any order; the array is used as
 * scratch): the same actions in the same sequence as sorting them and
 * calling sb_cluster_dispatch_order, without the sort.
 */
void sb_cluster_dispatch_ranked(struct sb_csim *s, int *jobs, int n, sb_cluster_before before,
				const void *ctx, double qmin);
/* Tests set this to 1 to make sb_cluster_dispatch_ranked (and the policies
 * built on it) sort the whole rank as before: the plain reference path
 * the fast one is compared with. 0 in every real run. */
extern int sb_cluster_dispatch_plain;

/*
 * The same with the rank given: order[0..n) holds every arrived,
 * unfinished job once, best first. skip = 0 stops admitting at the first
 * job whose GPUs do not fit (D2); skip = 1 skips it and admits every later
 * job that still fits by GPU count (the rule of Tiresias' simulator).
 */
void sb_cluster_dispatch_order(struct sb_csim *s, const int *order, int n, double qmin,
			       int skip);

/* ------------------------------------------------------------------ */
/* Incremental D2: the rank kept across decisions                      */
/* ------------------------------------------------------------------ */

/*
 * D2 for policies whose pending jobs keep their place in the rank while
 * they wait (issue #11 item 7): the policy keeps its pending jobs in a
 * structure of its own that yields them best first, and re-keys only the
 * running jobs before each decision. The dispatcher keeps the running jobs
 * in the rank of the last decision (nearly sorted: an insertion sort
 * restores it) and walks the merge of the two only as far as D2 admits, so
 * a decision costs in the running and admitted jobs, not the queue. The
 * actions and their order are those of sb_cluster_dispatch_order (skip = 0)
 * on the whole rank sorted by before().
 */
struct sb_cluster_pending {
	/* The best pending job not taken in this walk, or -1. */
	int (*head)(void *ctx);
	/* The head is admitted: remove it. */
	void (*take)(void *ctx);
	/* j is pending again (preempted now, or admitted and no room to
	 * start), at the key before() reads for it now. */
	void (*put)(void *ctx, int j);
};

struct sb_cluster_d2 {
	int *run, nrun;          /* running jobs, rank of the last decision */
	int *adm, *pre;          /* scratch */
};

void sb_cluster_d2_init(struct sb_cluster_d2 *d, int njobs);
void sb_cluster_d2_release(struct sb_cluster_d2 *d);
/* Brings the keys of the running jobs up to date (policy state in ctx). */
typedef void (*sb_cluster_rekey)(void *ctx, struct sb_csim *s);
/* One D2 decision. The keys of the running jobs are read only when some
 * pending job does not fit in the free GPUs: rekey(rctx, s) is called
 * first then (NULL: they are current already). When every pending job
 * fits, the decision starts them in their order and reads no key of a
 * running job (D2 admits the whole rank and preempts nothing). */
void sb_cluster_d2_dispatch(struct sb_csim *s, struct sb_cluster_d2 *d, sb_cluster_before before,
			    const void *bctx, const struct sb_cluster_pending *pend, void *pctx,
			    double qmin, sb_cluster_rekey rekey, void *rctx);

/*
 * D2 for policies whose running jobs also keep their rank while they run,
 * except at instants the policy knows (issue #11 item 7: Tiresias' rank of
 * a running job changes only when its service crosses a queue threshold or
 * an entry of the Gittins table). The running jobs stay sorted across
 * decisions; the policy names the running jobs whose key it changed
 * (sb_cluster_d2s_moved), those that finished (sb_cluster_d2s_gone), or
 * asks for a full re-sort (sb_cluster_d2s_resort). The admitted prefix of
 * the merged rank is found with binary searches on prefix sums of the
 * running jobs' GPUs, and the started jobs are merged in at the positions
 * those searches found. A decision costs a few passes over int arrays and
 * a search per moved or admitted job, instead of a comparison per running
 * job. The actions and their order are those of sb_cluster_d2_dispatch
 * with the same qmin (every running job outside the admitted prefix that
 * has run at least qmin seconds is preempted; the others keep running and
 * stay ranked after the prefix); tests/cluster/test_sim.c (cluster_fast)
 * compares them.
 */
struct sb_cluster_d2s {
	int *run, nrun;            /* running jobs, in rank order */
	int *pre, npre;            /* prefix sums of the GPUs of run[]: pre[0..npre] hold */
	int *g;                    /* GPUs of each job */
	unsigned char *mark;       /* 1: moved, 2: gone */
	int *touched, ntouched;    /* marked jobs */
	int *adm, *at;             /* admitted pending jobs, their places in run[] */
	int all;                   /* re-sort every running job */
	/* out: the jobs the last decision started and preempted, in order */
	int *started, nstarted;
	int *stopped, nstopped;
	int *keep;                 /* scratch: running jobs outside the prefix kept by qmin */
};

void sb_cluster_d2s_init(struct sb_cluster_d2s *d, const struct sb_csim *s);
void sb_cluster_d2s_release(struct sb_cluster_d2s *d);
/* Running job j has a new key (before the next dispatch). */
void sb_cluster_d2s_moved(struct sb_cluster_d2s *d, int j);
/* Running job j finished (on_finish). */
void sb_cluster_d2s_gone(struct sb_cluster_d2s *d, int j);
/* Every running job may have a new key. */
void sb_cluster_d2s_resort(struct sb_cluster_d2s *d);
/* One D2 decision. */
void sb_cluster_d2s_dispatch(struct sb_csim *s, struct sb_cluster_d2s *d, sb_cluster_before before,
			     const void *bctx, const struct sb_cluster_pending *pend, void *pctx,
			     double qmin);

/* A binary heap of jobs in before() order (a strict total order, so the
 * pops come in exactly the order a sort gives). */
struct sb_cluster_jheap {
	int *a, n, cap;
	sb_cluster_before before;
	const void *ctx;
};

void sb_cluster_jheap_init(struct sb_cluster_jheap *h, sb_cluster_before before, const void *ctx);
void sb_cluster_jheap_release(struct sb_cluster_jheap *h);
void sb_cluster_jheap_push(struct sb_cluster_jheap *h, int j);
/* The best job, -1 if empty. */
static inline int sb_cluster_jheap_top(const struct sb_cluster_jheap *h)
{
	return h->n ? h->a[0] : -1;
}
void sb_cluster_jheap_pop(struct sb_cluster_jheap *h);
/* Restore the order after the keys of its jobs changed. */
void sb_cluster_jheap_heapify(struct sb_cluster_jheap *h);
/* A pending source that is one such heap (ctx = the heap). */
extern const struct sb_cluster_pending sb_cluster_jheap_pending;

/* ------------------------------------------------------------------ */
/* Placement helpers                                                   */
/* ------------------------------------------------------------------ */

/*
 * Servers for a job of g GPUs (spec §3 step E.1): the best-fitting single
 * server if one has g free GPUs (fewest free; ties to the lower id), else
 * the servers by free GPUs, most first (ties to the lower id), up to the
 * shortest prefix with g free in all. Fills srv[0..k) and returns k, or 0
 * if the cluster has fewer than g free GPUs.
 */
int sb_cluster_pick_servers(const struct sb_csim *s, int g, int *srv);
/* Fill workers 0..g-1 in vertex order into the free GPUs of servers
 * srv[0..k) in that order (lowest GPU ids first). */
void sb_cluster_fill(const struct sb_csim *s, const int *srv, int k, int g, int *gpus);

#endif
