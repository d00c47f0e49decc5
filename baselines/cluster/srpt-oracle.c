/*
 * srpt-oracle.c - preemptive shortest-remaining-processing-time first with
 * the true iteration counts: the value-of-prediction reference (spec
 * asrpt.md §5 baseline 3 [O]).
 *
 * Remaining work of job j = g_j x (n_j - done_j) x tau_ref_j GPU-seconds;
 * jobs are admitted in that order while their GPUs fit in the cluster, a
 * running job outside the admitted set is preempted once it has run
 * q_min seconds since it last started (dispatcher D2 of the spec).
 */
#include "cluster/util.h"

static const struct sb_param params[] = {
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct state {
	double qmin;
	double *key;
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, sb_cluster_sim_njobs(s));
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->key);
	sb_free(st);
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++) {
		const struct sb_job *j = sb_cluster_sim_job(s, act[i]);
		st->key[act[i]] = (double)j->gpus * (double)(j->iters - sb_cluster_sim_done(s, act[i])) *
				  sb_cluster_sim_tau_ref(s, act[i]);
	}
	sb_cluster_dispatch_priority(s, st->key, st->qmin);
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
	.schedule = schedule,
	.default_place = "packed",
};
