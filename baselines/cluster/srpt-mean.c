/*
 * srpt-mean.c - preemptive SRPT on history-mean sizes (spec asrpt.md §5
 * baseline 4 [O]): a job's iteration count is estimated as the mean of the
 * completed jobs of its recurrence family, else of all completed jobs;
 * with no completed job at all every estimate is equal, so jobs run in
 * arrival order. Isolates what the random forest adds over a plain mean.
 * Dispatch as srpt-oracle (D2 with q_min); an estimate already exceeded
 * counts as nothing left (remaining work 0, the job keeps its place).
 *
 * Speed (issue #11 item 7): every completion changes an estimate, and with
 * it the key of every waiting job that uses it, so no single heap of
 * waiting jobs stays ordered. But jobs alike in (family, g_j, tau_ref,
 * iterations done) always have equal keys, whatever the estimates, and
 * rank among themselves by id: the waiting jobs are kept in such classes
 * (each a heap of ids), and the classes in a heap by (key of the class,
 * its first id). A completion re-keys the classes, not the jobs; the
 * running jobs are re-keyed at a decision where a waiting job does not fit
 * in the free GPUs (D2 reads no key of theirs otherwise), and the rank is
 * walked only as far as D2 admits (sb_cluster_d2_dispatch). The keys are computed by
 * the same expression as the plain path, so the rank and the actions are
 * those of re-keying and sorting every job at every decision
 * (tests/cluster/test_sim.c, cluster_fast, compares the two).
 */
#include "cluster/util.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* Waiting jobs alike in everything their key depends on. */
struct klass {
	int family, g;
	double tau;
	long done;
	double key;              /* at the current estimates */
	struct sb_cluster_jheap ids;
};

struct state {
	double qmin;
	double *key;
	int nfam;
	double *fsum;
	int *fcnt;
	double gsum;
	int gcnt;
	/* fast path */
	int fast, stale;
	const struct sb_csim *s;
	struct klass *cls;
	int ncls, ccls;
	int *slot;               /* hash of classes, -1 empty; nslot a power of 2 */
	size_t nslot;
	int *top, ntop, *pos;    /* classes with waiting jobs, by (key, first id) */
	struct sb_cluster_d2 d2;
};

static double estimate(const struct state *st, int family)
{
	if (family >= 0 && st->fcnt[family] > 0)
		return st->fsum[family] / st->fcnt[family];
	if (st->gcnt > 0)
		return st->gsum / st->gcnt;
	return 0;
}

/* The key of a job of g GPUs, reference iteration time tau, `done`
 * iterations done (the expression of record: change it nowhere else). */
static double key_of(const struct state *st, int family, int g, double tau, long done)
{
	double rem = estimate(st, family) - (double)done;
	return (double)g * (rem > 0 ? rem : 0) * tau;
}

static double job_key(const struct state *st, const struct sb_csim *s, int j)
{
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	return key_of(st, job->family, job->gpus, sb_cluster_sim_tau_ref(s, j),
		      sb_cluster_sim_done(s, j));
}

/* ------------------------------------------------------------------ */
/* Classes of waiting jobs (fast path)                                  */
/* ------------------------------------------------------------------ */

static uint64_t class_hash(int family, int g, double tau, long done)
{
	uint64_t t, h = (uint64_t)(uint32_t)family * 0x9e3779b97f4a7c15ULL;
	memcpy(&t, &tau, sizeof t);
	h ^= (uint64_t)(uint32_t)g + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= t + 0x85157af5ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)done + 0xda942042e4dd58b5ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	return h * 0xbf58476d1ce4e5b9ULL;
}

static int class_find(struct state *st, int family, int g, double tau, long done);

static void class_rehash(struct state *st)
{
	size_t i;
	int c;
	st->nslot = st->nslot ? 2 * st->nslot : 1024;
	sb_free(st->slot);
	st->slot = SB_NEW(int, st->nslot);
	for (i = 0; i < st->nslot; i++)
		st->slot[i] = -1;
	for (c = 0; c < st->ncls; c++) {
		const struct klass *k = &st->cls[c];
		for (i = class_hash(k->family, k->g, k->tau, k->done) & (st->nslot - 1);
		     st->slot[i] >= 0; i = (i + 1) & (st->nslot - 1))
			;
		st->slot[i] = c;
	}
}

/* The class of (family, g, tau, done), created when new. */
static int class_find(struct state *st, int family, int g, double tau, long done)
{
	size_t i;
	struct klass *k;
	if (2 * (size_t)(st->ncls + 1) > st->nslot)
		class_rehash(st);
	for (i = class_hash(family, g, tau, done) & (st->nslot - 1); st->slot[i] >= 0;
	     i = (i + 1) & (st->nslot - 1)) {
		k = &st->cls[st->slot[i]];
		if (k->family == family && k->g == g && k->tau == tau && k->done == done)
			return st->slot[i];
	}
	if (st->ncls == st->ccls) {
		st->ccls = st->ccls ? 2 * st->ccls : 256;
		st->cls = sb_xrealloc(st->cls, sizeof *st->cls * (size_t)st->ccls);
		st->pos = sb_xrealloc(st->pos, sizeof *st->pos * (size_t)st->ccls);
		st->top = sb_xrealloc(st->top, sizeof *st->top * (size_t)st->ccls);
	}
	k = &st->cls[st->ncls];
	k->family = family;
	k->g = g;
	k->tau = tau;
	k->done = done;
	k->key = 0;
	sb_cluster_jheap_init(&k->ids, sb_cluster_id_before, NULL);
	st->pos[st->ncls] = -1;
	st->slot[i] = st->ncls;
	return st->ncls++;
}

/* Class a ranks before class b: by key, then by first id. */
static int class_before(const struct state *st, int a, int b)
{
	const struct klass *x = &st->cls[a], *y = &st->cls[b];
	if (x->key != y->key)
		return x->key < y->key;
	return sb_cluster_jheap_top(&x->ids) < sb_cluster_jheap_top(&y->ids);
}

static void top_set(struct state *st, int i, int c)
{
	st->top[i] = c;
	st->pos[c] = i;
}

static void top_up(struct state *st, int i)
{
	int c = st->top[i];
	while (i > 0 && class_before(st, c, st->top[(i - 1) / 2])) {
		top_set(st, i, st->top[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	top_set(st, i, c);
}

static void top_down(struct state *st, int i)
{
	int c = st->top[i];
	for (;;) {
		int l = 2 * i + 1;
		if (l >= st->ntop)
			break;
		if (l + 1 < st->ntop && class_before(st, st->top[l + 1], st->top[l]))
			l++;
		if (!class_before(st, st->top[l], c))
			break;
		top_set(st, i, st->top[l]);
		i = l;
	}
	top_set(st, i, c);
}

/* After the estimates changed: every class re-keyed, the heap rebuilt. */
static void rekey_classes(struct state *st)
{
	int i;
	for (i = 0; i < st->ntop; i++) {
		struct klass *k = &st->cls[st->top[i]];
		k->key = key_of(st, k->family, k->g, k->tau, k->done);
		st->key[sb_cluster_jheap_top(&k->ids)] = k->key;
	}
	for (i = st->ntop / 2 - 1; i >= 0; i--)
		top_down(st, i);
}

static int wait_head(void *ctx)
{
	const struct state *st = ctx;
	return st->ntop ? sb_cluster_jheap_top(&st->cls[st->top[0]].ids) : -1;
}

static void wait_take(void *ctx)
{
	struct state *st = ctx;
	int c = st->top[0];
	struct klass *k = &st->cls[c];
	sb_cluster_jheap_pop(&k->ids);
	if (k->ids.n == 0) {
		st->pos[c] = -1;
		if (--st->ntop == 0)
			return;
		top_set(st, 0, st->top[st->ntop]);
	} else {
		st->key[sb_cluster_jheap_top(&k->ids)] = k->key;
	}
	top_down(st, 0);
}

/* Waiting job j (key[j] current) into its class. */
static void wait_put(void *ctx, int j)
{
	struct state *st = ctx;
	const struct sb_job *job = sb_cluster_sim_job(st->s, j);
	int c = class_find(st, job->family, job->gpus, sb_cluster_sim_tau_ref(st->s, j),
			   sb_cluster_sim_done(st->s, j));
	struct klass *k = &st->cls[c];
	sb_cluster_jheap_push(&k->ids, j);
	if (st->pos[c] < 0) {
		k->key = st->key[j];
		top_set(st, st->ntop++, c);
	} else if (sb_cluster_jheap_top(&k->ids) != j) {
		return;
	}
	SB_ASSERT(k->key == st->key[j]);
	top_up(st, st->pos[c]);
}

static const struct sb_cluster_pending wait_ops = { wait_head, wait_take, wait_put };

/* ------------------------------------------------------------------ */
/* Hooks                                                               */
/* ------------------------------------------------------------------ */

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
	st->s = s;
	st->fast = !sb_cluster_dispatch_plain;
	if (st->fast)
		sb_cluster_d2_init(&st->d2, n);
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	int c;
	sb_free(st->key);
	sb_free(st->fsum);
	sb_free(st->fcnt);
	for (c = 0; c < st->ncls; c++)
		sb_cluster_jheap_release(&st->cls[c].ids);
	sb_free(st->cls);
	sb_free(st->slot);
	sb_free(st->top);
	sb_free(st->pos);
	if (st->fast)
		sb_cluster_d2_release(&st->d2);
	sb_free(st);
}

static void on_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	if (!st->fast)
		return;
	if (st->stale) {
		/* the class keys must be current before a new one joins */
		rekey_classes(st);
		st->stale = 0;
	}
	st->key[j] = job_key(st, s, j);
	wait_put(st, j);
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
	st->stale = 1;
}

/* The running jobs' keys, when D2 needs them. */
static void rekey_running(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act = sb_cluster_sim_running(s, &n);
	for (i = 0; i < n; i++)
		st->key[act[i]] = job_key(st, s, act[i]);
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act;
	if (st->fast) {
		if (st->stale) {
			rekey_classes(st);
			st->stale = 0;
		}
		sb_cluster_d2_dispatch(s, &st->d2, sb_cluster_key_before, st->key, &wait_ops, st,
				       st->qmin, rekey_running, st);
		return;
	}
	act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++)
		st->key[act[i]] = job_key(st, s, act[i]);
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
	.on_arrival = on_arrival,
	.on_finish = on_finish,
	.schedule = schedule,
	.default_place = "packed",
};
