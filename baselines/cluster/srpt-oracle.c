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
 * that stopped it), and the waiting jobs stay in a list sorted by key
 * across decisions. The running jobs' keys only shrink, so their list of
 * the last decision is nearly sorted (insertion sort), and the rank is the
 * merge of the two, walked only as far as D2 admits: per decision the
 * cost is in the running and admitted jobs, not the queue, and the actions
 * are those of re-keying and sorting everything
 * (tests/cluster/test_sim.c, "fast paths", compares the two).
 */
#include "cluster/util.h"

#include <string.h>

static const struct sb_param params[] = {
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct state {
	double qmin;
	double *key;
	int *wait, nwait;      /* pending jobs, best first */
	int *run, nrun;        /* running jobs as ranked at the last decision */
	int *order, *pre;
};

/* The rank: smaller remaining work first, ties to the earlier arrival. */
static int before(const struct state *st, int x, int y)
{
	if (st->key[x] != st->key[y])
		return st->key[x] < st->key[y];
	return x < y;
}

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, sb_cluster_sim_njobs(s));
	st->wait = SB_NEW(int, sb_cluster_sim_njobs(s));
	st->run = SB_NEW(int, sb_cluster_sim_njobs(s));
	st->order = SB_NEW(int, sb_cluster_sim_njobs(s));
	st->pre = SB_NEW(int, sb_cluster_sim_njobs(s));
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->key);
	sb_free(st->wait);
	sb_free(st->run);
	sb_free(st->order);
	sb_free(st->pre);
	sb_free(st);
}

static void set_key(struct state *st, const struct sb_csim *s, int j)
{
	const struct sb_job *jb = sb_cluster_sim_job(s, j);
	st->key[j] = (double)jb->gpus * (double)(jb->iters - sb_cluster_sim_done(s, j)) *
		     sb_cluster_sim_tau_ref(s, j);
}

/* Insert pending job j into the waiting list at its rank. */
static void wait_insert(struct state *st, int j)
{
	int lo = 0, hi = st->nwait;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (before(st, st->wait[mid], j))
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(st->wait + lo + 1, st->wait + lo, sizeof(int) * (size_t)(st->nwait - lo));
	st->wait[lo] = j;
	st->nwait++;
}

static void on_arrival(void *ctx, struct sb_csim *s, int j)
{
	set_key(ctx, s, j);
	wait_insert(ctx, j);
}

/*
 * D2 (sb_cluster_dispatch_order with skip = 0) on the merge of the two
 * lists, walked only as far as admission goes: past the first job that
 * does not fit, the waiting jobs stay as they are and only the running
 * ones matter (preempted in rank order).
 */
static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int i, k, n = 0, a = 0, b = 0, cum = 0, N = cl->nserver * cl->gpus, na, nr, nw, np;
	int *adm = st->order;

	/* finished jobs leave; the others are re-keyed and re-sorted */
	for (i = 0; i < st->nrun; i++) {
		int j = st->run[i];
		if (sb_cluster_sim_state(s, j) != SB_JOB_RUNNING)
			continue;
		set_key(st, s, j);
		for (k = n; k > 0 && before(st, j, st->run[k - 1]); k--)
			st->run[k] = st->run[k - 1];
		st->run[k] = j;
		n++;
	}
	st->nrun = n;
	/* the admitted prefix of the rank */
	for (na = 0; a < st->nrun || b < st->nwait; na++) {
		int fromrun = b == st->nwait ||
			      (a < st->nrun && before(st, st->run[a], st->wait[b]));
		int j = fromrun ? st->run[a] : st->wait[b];
		int g = sb_cluster_sim_job(s, j)->gpus;
		if (cum + g > N)
			break;
		cum += g;
		adm[na] = j;
		if (fromrun)
			a++;
		else
			b++;
	}
	/* the running jobs left out: run[a..nrun), in rank order */
	nr = np = 0;
	for (i = a; i < st->nrun; i++) {
		int j = st->run[i];
		if (sb_cluster_sim_since(s, j) >= st->qmin) {
			sb_cluster_sim_preempt(s, j);
			st->pre[np++] = j;
		} else {
			st->run[a + nr++] = j;
		}
	}
	for (i = 0; i < na; i++)
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_PENDING)
			sb_cluster_sim_start(s, adm[i]);
	/* the lists of the next decision: the admitted prefix first, as
	 * ranked, then the rest */
	memmove(st->wait, st->wait + b, sizeof(int) * (size_t)(st->nwait - b));
	st->nwait -= b;
	for (i = a; i < a + nr; i++)
		adm[na + i - a] = st->run[i];
	nw = 0;
	for (i = 0; i < na + nr; i++) {
		int j = adm[i];
		if (sb_cluster_sim_state(s, j) == SB_JOB_RUNNING)
			st->run[i - nw] = j;
		else
			nw++;
	}
	for (i = 0; i < np; i++)
		wait_insert(st, st->pre[i]);
	k = na + nr - nw;
	/* admitted jobs that could not start rank before every other waiting
	 * job: they go to the front */
	memmove(st->wait + nw, st->wait, sizeof(int) * (size_t)st->nwait);
	for (i = n = 0; i < na; i++)
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_PENDING)
			st->wait[n++] = adm[i];
	st->nwait += nw;
	st->nrun = k;
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
