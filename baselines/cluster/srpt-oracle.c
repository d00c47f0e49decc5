/*
 * srpt-oracle.c - preemptive shortest-remaining-processing-time first with
 * the true iteration counts: the value-of-prediction reference (spec
 * asrpt.md §5 baseline 3 [O]).
 *
 * Remaining work of job j = g_j x (n_j - done_j) x tau_ref_j GPU-seconds;
 * jobs are admitted in that order while their GPUs fit in the cluster, a
 * running job outside the admitted set is preempted once it has run
 * q_min seconds since it last started (dispatcher D2 of the spec).
 *
 * Speed (issue #11 item 7): a waiting job's remaining work does not
 * change, so only the running jobs are re-keyed at a decision (a job is
 * keyed when it arrives; a preempted job keeps the key of the decision
 * that stopped it); the waiting jobs stay in a heap by key, and the shared
 * incremental D2 (sb_cluster_d2_dispatch) walks the rank only as far as it
 * admits: per decision the cost is in the running and admitted jobs, not
 * the queue, and the running jobs are re-keyed only when a pending job
 * does not fit in the free GPUs (D2 needs no key of theirs otherwise);
 * the actions are those of re-keying and sorting everything
 * (tests/cluster/test_sim.c, cluster_fast, compares the two).
 */
#include "cluster/util.h"

static const struct sb_param params[] = {
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct state {
	double qmin;
	double *key;
	struct sb_cluster_jheap wait;   /* pending jobs by key */
	struct sb_cluster_d2 d2;
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, sb_cluster_sim_njobs(s));
	/* the rank: smaller remaining work first, ties to the earlier arrival */
	sb_cluster_jheap_init(&st->wait, sb_cluster_key_before, st->key);
	sb_cluster_d2_init(&st->d2, sb_cluster_sim_njobs(s));
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->key);
	sb_cluster_jheap_release(&st->wait);
	sb_cluster_d2_release(&st->d2);
	sb_free(st);
}

static void set_key(struct state *st, const struct sb_csim *s, int j)
{
	const struct sb_job *jb = sb_cluster_sim_job(s, j);
	st->key[j] = (double)jb->gpus * (double)(jb->iters - sb_cluster_sim_done(s, j)) *
		     sb_cluster_sim_tau_ref(s, j);
}

static void on_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	set_key(st, s, j);
	sb_cluster_jheap_push(&st->wait, j);
}

/* The running jobs' keys, when D2 needs them. */
static void rekey(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *run = sb_cluster_sim_running(s, &n);
	for (i = 0; i < n; i++)
		set_key(st, s, run[i]);
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	sb_cluster_d2_dispatch(s, &st->d2, sb_cluster_key_before, st->key,
			       &sb_cluster_jheap_pending, &st->wait, st->qmin, rekey, st);
}

const struct sb_cluster_policy sb_cluster_policy_srpt_oracle = {
	.name = "srpt-oracle",
	.cite = "preemptive SRPT with true sizes (baseline of Luo et al., arXiv 2501.05563, 2025)",
	.desc = "preemptive SRPT on true remaining GPU-time (clairvoyant reference)",
	.provenance = "ours",
	.params = params,
	.clairvoyant = 1,
	.init = init,
	.release = release,
	.on_arrival = on_arrival,
	.schedule = schedule,
	.default_place = "packed",
};
