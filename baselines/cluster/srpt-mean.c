/*
 * srpt-mean.c - preemptive SRPT on history-mean sizes (spec asrpt.md §5
 * baseline 4 [O]): a job's iteration count is estimated as the mean of the
 * completed jobs of its recurrence family, else of all completed jobs;
 * with no completed job at all every estimate is equal, so jobs run in
 * arrival order. Isolates what the random forest adds over a plain mean.
 * Dispatch as srpt-oracle (D2 with q_min); an estimate already exceeded
 * counts as nothing left (remaining work 0, the job keeps its place).
 */
#include "cluster/util.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct state {
	double qmin;
	double *key;
	int nfam;
	double *fsum;
	int *fcnt;
	double gsum;
	int gcnt;
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	int n = sb_cluster_sim_njobs(s), j;
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, n);
	for (j = 0; j < n; j++)
		if (sb_cluster_sim_job(s, j)->family + 1 > st->nfam)
			st->nfam = sb_cluster_sim_job(s, j)->family + 1;
	st->fsum = SB_NEW(double, st->nfam + 1);
	st->fcnt = SB_NEW(int, st->nfam + 1);
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->key);
	sb_free(st->fsum);
	sb_free(st->fcnt);
	sb_free(st);
}

static void on_finish(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	int f = sb_cluster_sim_job(s, j)->family;
	/* the count is observed at completion */
	double n = (double)sb_cluster_sim_done(s, j);
	if (f >= 0) {
		st->fsum[f] += n;
		st->fcnt[f]++;
	}
	st->gsum += n;
	st->gcnt++;
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++) {
		const struct sb_job *j = sb_cluster_sim_job(s, act[i]);
		double est = 0, rem;
		if (j->family >= 0 && st->fcnt[j->family] > 0)
			est = st->fsum[j->family] / st->fcnt[j->family];
		else if (st->gcnt > 0)
			est = st->gsum / st->gcnt;
		rem = est - (double)sb_cluster_sim_done(s, act[i]);
		st->key[act[i]] = (double)j->gpus * (rem > 0 ? rem : 0) * sb_cluster_sim_tau_ref(s, act[i]);
	}
	sb_cluster_dispatch_priority(s, st->key, st->qmin);
}

const struct sb_cluster_policy sb_cluster_policy_srpt_mean = {
	.name = "srpt-mean",
	.cite = "preemptive SRPT on history means (baseline of Luo et al., arXiv 2501.05563, 2025)",
	.desc = "preemptive SRPT, sizes = mean of the family's completed jobs",
	.provenance = "ours",
	.params = params,
	.init = init,
	.release = release,
	.on_finish = on_finish,
	.schedule = schedule,
	.default_place = "packed",
};
