/*
 * qssf.c - QSSF-like (quasi-shortest-service-first) of Helios: Q. Hu,
 * P. Sun, S. Yan, Y. Wen, T. Zhang, "Characterization and prediction of
 * deep learning workloads in large-scale GPU datacenters", SC 2021 (spec
 * asrpt.md §5 baseline 7), after the public HeliosArtifact (framework/
 * QSSF Service: policies/qssf.py and estimators/estimator.py,
 * NaiveEstimator).
 *
 * Non-preemptive. A pending job's priority is its estimated GPU-time,
 * mean duration of similar completed jobs x g_j, smaller first. As in
 * NaiveEstimator (read in the artifact; its job name is our model name,
 * since job sets carry no names), "similar" is the first non-empty of:
 * the same user's jobs of the same model and g_j, of the same model; all
 * users' jobs of the same model; the same user's jobs; all completed jobs
 * (the mean aggregate; the artifact's fuzzy name matching has no analogue
 * here). A duration is the measured run time (sb_cluster_sim_executed at finish;
 * no restart overhead, nothing is preempted). As in qssf.py a priority,
 * once computed, is kept (frozen) for the job's life.
 *
 * Our choices [O]: the history starts empty (the artifact preloads the
 * previous month of its trace), so before the first completion no job has
 * an estimate; the total order is: jobs with an estimate first, by
 * estimate, then jobs without, by g_j (qssf.py sorts by GPU count before
 * it sorts by priority), remaining ties by g_j then arrival. Estimates
 * are computed at every decision for every pending job without one (the
 * artifact skips this when only new jobs wait, which matters only for
 * simultaneous arrivals). Dispatch as in qssf.py: start jobs in that
 * order while they can be placed and stop at the first that cannot (the
 * artifact's loop breaks, so Helios does NOT backfill); backfill = 1
 * skips jobs that do not fit instead. Placement "packed" (the artifact's
 * consolidating placer).
 *
 * Speed (issue #11 item 7): an estimate, once known, is frozen, and a job
 * without one can get one only when the history grows (a completion) or
 * when it is new; so the waiting jobs stay in two heaps (with an estimate,
 * by (estimate, g_j, id); without, by (g_j, id)) and a decision starts
 * jobs from their heads until one does not start, instead of estimating
 * and sorting the whole queue. The starts are those of the plain path
 * (tests/cluster/test_sim.c, cluster_fast, compares the two); backfill = 1
 * keeps the plain path.
 */
#include "cluster/util.h"

#include <stdint.h>
#include <stdlib.h>

static const struct sb_param params[] = {
	{ "backfill", 0, 0, 1, 1, "1: skip jobs that do not fit (Helios stops at the first)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* History levels, most specific first. */
enum { L_USER_MODEL_G = 1, L_USER_MODEL, L_MODEL, L_USER, L_ALL, L_END };

/* Sum and count of the durations of one history group (open addressing,
 * level 0 = empty slot). */
struct group {
	int level, user, model, g;
	double sum;
	long cnt;
};

struct state {
	int backfill;
	struct sb_clq q;         /* pending jobs, reordered at each decision */
	double *est;             /* frozen estimate (GPU-seconds) */
	unsigned char *known;
	struct group *tab;
	size_t cap, used;
	/* fast path (backfill = 0) */
	int fast, grown;
	const struct sb_csim *s;
	struct sb_cluster_jheap est_q, new_q;   /* with / without an estimate */
	struct sb_clq arrived;                  /* not yet estimated */
};

static int cmp_prio_st(const struct state *st, const struct sb_csim *s, int x, int y);

static int est_before(const void *ctx, int x, int y)
{
	const struct state *st = ctx;
	return cmp_prio_st(st, st->s, x, y) < 0;
}

/* ------------------------------------------------------------------ */
/* History                                                             */
/* ------------------------------------------------------------------ */

static uint64_t group_hash(int level, int user, int model, int g)
{
	uint64_t h = (uint64_t)level * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t)(uint32_t)user + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)model + 0x85157af5ULL + (h << 6) + (h >> 2);
	h ^= (uint64_t)(uint32_t)g + 0xda942042e4dd58b5ULL + (h << 6) + (h >> 2);
	h ^= h >> 31;
	return h * 0xbf58476d1ce4e5b9ULL;
}

/* The slot of a group; create = 1 inserts it when missing, else NULL. */
static struct group *group_find(struct state *st, int level, int user, int model, int g,
				int create)
{
	size_t i;
	if (create && 2 * (st->used + 1) > st->cap) {
		struct group *old = st->tab;
		size_t oc = st->cap, k;
		st->cap = oc ? 2 * oc : 256;
		st->tab = SB_NEW(struct group, st->cap);
		st->used = 0;
		for (k = 0; k < oc; k++)
			if (old[k].level) {
				struct group *ng = group_find(st, old[k].level, old[k].user,
							      old[k].model, old[k].g, 1);
				ng->sum = old[k].sum;
				ng->cnt = old[k].cnt;
			}
		sb_free(old);
	}
	if (!st->cap)
		return NULL;
	for (i = group_hash(level, user, model, g) & (st->cap - 1);; i = (i + 1) & (st->cap - 1)) {
		struct group *e = &st->tab[i];
		if (!e->level) {
			if (!create)
				return NULL;
			e->level = level;
			e->user = user;
			e->model = model;
			e->g = g;
			st->used++;
			return e;
		}
		if (e->level == level && e->user == user && e->model == model && e->g == g)
			return e;
	}
}

/* The group of job j at a level (fields that do not apply are -1). */
static struct group *job_group(struct state *st, const struct sb_job *job, int level,
			       int create)
{
	int u = job->user, m = job->model, g = job->gpus;
	switch (level) {
	case L_USER_MODEL_G: return group_find(st, level, u, m, g, create);
	case L_USER_MODEL: return group_find(st, level, u, m, -1, create);
	case L_MODEL: return group_find(st, level, -1, m, -1, create);
	case L_USER: return group_find(st, level, u, -1, -1, create);
	default: return group_find(st, L_ALL, -1, -1, -1, create);
	}
}

/* Estimated GPU-time of j from the history: 0, or -1 without history. */
static int estimate(struct state *st, const struct sb_job *job, double *est)
{
	int level;
	for (level = L_USER_MODEL_G; level < L_END; level++) {
		const struct group *e;
		if (job->user < 0 && (level == L_USER_MODEL_G || level == L_USER_MODEL ||
				      level == L_USER))
			continue;
		e = job_group(st, job, level, 0);
		if (e && e->cnt > 0) {
			*est = e->sum / (double)e->cnt * job->gpus;
			return 0;
		}
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Scheduler                                                           */
/* ------------------------------------------------------------------ */

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	int n = sb_cluster_sim_njobs(s);
	(void)rng;
	st->backfill = (int)sb_opts_get(o, "backfill");
	sb_clq_init(&st->q);
	st->est = SB_NEW(double, n);
	st->known = SB_NEW(unsigned char, n);
	st->s = s;
	st->fast = !st->backfill && !sb_cluster_dispatch_plain;
	sb_cluster_jheap_init(&st->est_q, est_before, st);
	sb_cluster_jheap_init(&st->new_q, est_before, st);
	sb_clq_init(&st->arrived);
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_clq_release(&st->q);
	sb_free(st->est);
	sb_free(st->known);
	sb_free(st->tab);
	sb_cluster_jheap_release(&st->est_q);
	sb_cluster_jheap_release(&st->new_q);
	sb_clq_release(&st->arrived);
	sb_free(st);
}

static void on_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	(void)s;
	sb_clq_push(st->fast ? &st->arrived : &st->q, j);
}

static void on_finish(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	double dur = sb_cluster_sim_executed(s, j);
	int level;
	for (level = L_USER_MODEL_G; level < L_END; level++) {
		struct group *e;
		if (job->user < 0 && (level == L_USER_MODEL_G || level == L_USER_MODEL ||
				      level == L_USER))
			continue;
		e = job_group(st, job, level, 1);
		e->sum += dur;
		e->cnt++;
	}
	st->grown = 1;
}

/* Start the queued jobs in order; strict: stop at the first that cannot
 * start (nothing after it starts), else try every job (backfilling).
 * Started jobs leave q, the others keep their order. */
static void dispatch(struct sb_csim *s, struct sb_clq *q, int strict)
{
	int i, w = 0;
	for (i = 0; i < q->n; i++) {
		int j = q->job[i];
		if ((w == 0 || !strict) && sb_cluster_sim_free(s) > 0 && sb_cluster_sim_start(s, j) == 0)
			continue;
		q->job[w++] = j;
	}
	q->n = w;
}

/* Estimate known first, by estimate; then by g_j; then arrival. */
static int cmp_prio_st(const struct state *st, const struct sb_csim *s, int x, int y)
{
	int gx = sb_cluster_sim_job(s, x)->gpus, gy = sb_cluster_sim_job(s, y)->gpus;
	if (st->known[x] != st->known[y])
		return st->known[x] ? -1 : 1;
	if (st->known[x] && st->est[x] != st->est[y])
		return st->est[x] < st->est[y] ? -1 : 1;
	if (gx != gy)
		return gx < gy ? -1 : 1;
	return (x > y) - (x < y);
}

static const struct state *cmp_st;
static const struct sb_csim *cmp_s;

static int cmp_prio(const void *a, const void *b)
{
	return cmp_prio_st(cmp_st, cmp_s, *(const int *)a, *(const int *)b);
}

/* j gets its estimate if the history has one, and joins its heap. */
static void file(struct state *st, struct sb_csim *s, int j)
{
	if (!st->known[j] && estimate(st, sb_cluster_sim_job(s, j), &st->est[j]) == 0)
		st->known[j] = 1;
	sb_cluster_jheap_push(st->known[j] ? &st->est_q : &st->new_q, j);
}

static void schedule_fast(struct state *st, struct sb_csim *s)
{
	int i;
	if (st->grown && st->new_q.n > 0) {
		/* a larger history may estimate the jobs that had none */
		struct sb_cluster_jheap old = st->new_q;
		sb_cluster_jheap_init(&st->new_q, est_before, st);
		for (i = 0; i < old.n; i++)
			file(st, s, old.a[i]);
		sb_cluster_jheap_release(&old);
	}
	st->grown = 0;
	for (i = 0; i < st->arrived.n; i++)
		file(st, s, st->arrived.job[i]);
	st->arrived.n = 0;
	/* strict order: start from the head until a job does not start */
	while (sb_cluster_sim_free(s) > 0) {
		struct sb_cluster_jheap *h = st->est_q.n ? &st->est_q : &st->new_q;
		int j = sb_cluster_jheap_top(h);
		if (j < 0 || sb_cluster_sim_start(s, j) != 0)
			break;
		sb_cluster_jheap_pop(h);
	}
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int i;
	if (st->fast) {
		schedule_fast(st, s);
		return;
	}
	for (i = 0; i < st->q.n; i++) {
		int j = st->q.job[i];
		if (!st->known[j] && estimate(st, sb_cluster_sim_job(s, j), &st->est[j]) == 0)
			st->known[j] = 1;
	}
	cmp_st = st;
	cmp_s = s;
	qsort(st->q.job, (size_t)st->q.n, sizeof(int), cmp_prio);
	dispatch(s, &st->q, !st->backfill);
}

const struct sb_cluster_policy sb_cluster_policy_qssf = {
	.name = "qssf",
	.cite = "Hu et al., Characterization and prediction of deep learning workloads in "
		"large-scale GPU datacenters, SC 2021 (HeliosArtifact qssf.py, NaiveEstimator)",
	.desc = "non-preemptive, smallest estimated GPU-time first (history means x GPUs)",
	.provenance = "reconstructed",
	.params = params,
	.init = init,
	.release = release,
	.on_arrival = on_arrival,
	.on_finish = on_finish,
	.schedule = schedule,
	.default_place = "packed",
};
