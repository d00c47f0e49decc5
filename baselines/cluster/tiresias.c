/*
 * tiresias.c - discretised two-dimensional least-attained-service (2D-LAS)
 * of Tiresias: J. Gu, M. Chowdhury, K. G. Shin, Y. Zhu, M. Jeon, J. Qian,
 * H. Liu, C. Guo, "Tiresias: a GPU cluster manager for distributed deep
 * learning", USENIX NSDI 2019 (spec asrpt.md §5 baseline 5), and the
 * queue engine it shares with tiresias-gittins.c (tiresias.h).
 *
 * Non-clairvoyant: a job's attained service is GPUs x executed seconds.
 * Queue k holds the jobs whose service lies between the thresholds k-1 and
 * k (GPU-seconds; 3250, 7200, 18000 in the public simulator's jobs.py, of
 * which its 3-queue configuration uses the first two); lower queues first;
 * preemptive at every event (a job crossing a threshold triggers one).
 * Starvation knob S (the paper's PromoteKnob): a job in a queue above 0
 * that has waited S times its last run is put back in queue 0 and its
 * service counted afresh; S = 0 turns it off.
 *
 * Inside a queue, two rules (parameter fitfirst):
 *   0: arrival order; admission and preemption by the shared priority
 *      dispatcher D2 (cluster/util.h), which stops at the first job that
 *      does not fit [O];
 *   1: the rule of Tiresias' simulator (run_sim.py dlas_sim_jobs, "in each
 *      queue, jobs are scheduled in fit-first with FIFO", read, not copied)
 *      [V, code]: a queue is a list; arrivals and demoted jobs join its
 *      end; every job that fits by GPU count is admitted, the others are
 *      skipped; after each decision the waiting jobs of a queue move
 *      behind its running ones (so a preempted job goes to the back).
 * The default, -1, is 1 in trace-replay mode and 0 otherwise. Placement:
 * the consolidating placer without refinement (Tiresias places
 * consolidated where it can).
 *
 * qmin [O]: a running job is preempted only once its run has lasted qmin
 * seconds (D2's rule, also with fitfirst); the default is the cluster's
 * restart cost, so 0 in trace replay, where none is charged, and every
 * resumed run gets past its restart. Without it the Gittins order, whose
 * rank moves with every size of the table a job's service passes,
 * preempted runs still inside their restart at decision after decision:
 * on the Tiresias trace at 16 GPUs with a 30 s restart, 4,791 preemptions
 * of 60 jobs, runs of 2-5 s that made no progress, mean JCT 2,178 s
 * against 339 s without a restart cost (qmin = 30: 92 preemptions,
 * 641 s; 2D-LAS preempts 4 times either way). --set qmin=0 keeps that
 * reading.
 *
 * Speed (issue #11 item 7): with fitfirst = 0 and the starvation knob off,
 * a waiting job keeps its queue and index (its service does not grow; the
 * Gittins table is rebuilt rarely, and then every job is re-ranked), so
 * the waiting jobs stay in a heap in rank order. A running job's rank
 * changes only when its service reaches the next queue threshold or the
 * next size of the Gittins table: each running job waits in a heap keyed
 * by (an estimate of) that instant, and a decision re-ranks, exactly as
 * the plain path does, only the jobs whose instant is due within a
 * rounding margin (1e-8 relative, far above the error of the estimate).
 * The running jobs stay sorted (sb_cluster_d2s_dispatch), and the wake-up,
 * the earliest threshold crossing, is computed exactly for the jobs of a
 * second heap whose estimated crossing lies within the margin of the
 * earliest. The runs' bookkeeping (exec_start, last_run) is read only by
 * the starvation knob, so the fast path skips it. The actions and
 * wake-ups are those of ranking every job at every decision, the plain
 * path the other settings keep (tests/cluster/test_sim.c, cluster_fast,
 * compares the two, also with a dense history table and in overload).
 *
 * Wake-ups fall exactly on the next threshold crossing. Tiresias'
 * simulator computes them from executed seconds where GPU-seconds are
 * meant, so it may wake later and demote at the next event instead; on
 * the 60-job trace that changes no number (README, "Replaying the
 * Tiresias trace").
 */
#include "cluster/util.h"
#include "tiresias.h"

#include "heap.h"

#include <math.h>
#include <stdlib.h>

static const struct sb_param params[] = {
	SB_TIRESIAS_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double limits[3] = { 3250, 7200, 18000 };

struct state {
	int nq, fitfirst, gittins;
	double starve, delta, qmin;
	double *base, *exec_start, *last_run;
	unsigned char *was_running;
	int *q;
	double *stamp;         /* position in its queue's list (fitfirst) */
	double counter;
	double *rank;          /* Gittins index of the attained service */
	double *arr;           /* arrival of each job (read by job_before) */
	int *order;
	/* Gittins sizes: the job set's history, else the GPU-seconds of the
	 * jobs completed so far (rebuilt as they grow by 10%) */
	struct sb_gittins gt;
	int learn;
	double *done_gput;
	int ndone, nbuilt;
	/* the fast path: waiting jobs in a heap, running ones sorted */
	int fast, rekey;
	/* the table position of each job's index (gk) and the table it was
	 * found in (gver): a running job's service moves on slowly, so its
	 * position is usually the same or the next one */
	int *gk;
	unsigned *gver, tver;
	struct sb_cluster_jheap wait;
	struct sb_cluster_d2s d2;
	/* running jobs by the instant their rank may change (chg) and by the
	 * instant they cross their queue's threshold (qx); an entry is live
	 * while its version is the job's (val = job | version << 32) */
	struct sb_heap chg, qx;
	unsigned *cver, *qver;
	int *due;              /* scratch */
};

/* ------------------------------------------------------------------ */
/* Gittins index (tiresias.h)                                          */
/* ------------------------------------------------------------------ */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* First k in v[0..m) with v[k] > a (m if none). */
static int above(const double *v, int m, double a)
{
	int lo = 0, hi = m;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (v[mid] > a)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Python 2's round(x, d), half away from zero. */
static double round_to(double x, double scale)
{
	return round(x * scale) / scale;
}

void sb_gittins_build(struct sb_gittins *g, const double *v, int m, double delta)
{
	double *pre;
	int i;

	sb_gittins_release(g);
	g->m = m;
	g->v = SB_NEW(double, m > 0 ? m : 1);
	g->gi = SB_NEW(double, m + 1);
	for (i = 0; i < m; i++)
		g->v[i] = floor(v[i]);
	qsort(g->v, (size_t)m, sizeof *g->v, cmp_dbl);
	pre = SB_NEW(double, m + 1);
	for (i = 0; i < m; i++)
		pre[i + 1] = pre[i] + g->v[i];
	for (i = 0; i < m; i++) {
		double a = g->v[i] - 1, top = g->v[m - 1] - 1, p, e;
		int idx, idd;
		if (a > top)
			continue;             /* index 0 */
		idx = above(g->v, m, a);
		idd = a + delta > top ? m - 1 : above(g->v, m, a + delta);
		p = round_to((double)(idd - idx) / (m - idx), 1e5);
		/* integer division in the Python 2 original */
		e = floor((pre[idd] - pre[idx] + delta * (m - idd)) / (m - idx));
		g->gi[i] = e > 0 ? round_to(p * 1e6 / e, 1e4) : 0;
	}
	sb_free(pre);
}

double sb_gittins_index(const struct sb_gittins *g, double a)
{
	if (g->m == 0 || a > g->v[g->m - 1])
		return 0;
	return g->gi[above(g->v, g->m, a)];
}

void sb_gittins_release(struct sb_gittins *g)
{
	sb_free(g->v);
	sb_free(g->gi);
	g->v = g->gi = NULL;
	g->m = 0;
}

/* ------------------------------------------------------------------ */
/* The queue engine                                                    */
/* ------------------------------------------------------------------ */

static int job_before(const void *ctx, int x, int y);
static void rank_job(struct state *st, const struct sb_csim *s, int j);

void *sb_tiresias_init(struct sb_csim *s, const struct sb_opts *o, int gittins)
{
	struct state *st = SB_NEW(struct state, 1);
	int n = sb_cluster_sim_njobs(s), nh, i;
	const double *hist = sb_cluster_sim_history(s, &nh);

	st->nq = (int)sb_opts_get(o, "queues");
	st->starve = sb_opts_get(o, "starve");
	st->fitfirst = (int)sb_opts_get(o, "fitfirst");
	if (st->fitfirst < 0)
		st->fitfirst = sb_cluster_sim_cluster(s)->replay;
	st->qmin = sb_opts_get(o, "qmin");
	if (st->qmin < 0)
		st->qmin = sb_cluster_restart(sb_cluster_sim_cluster(s));
	st->gittins = gittins;
	st->base = SB_NEW(double, n);
	st->exec_start = SB_NEW(double, n);
	st->last_run = SB_NEW(double, n);
	st->was_running = SB_NEW(unsigned char, n);
	st->q = SB_NEW(int, n);
	st->stamp = SB_NEW(double, n);
	st->rank = SB_NEW(double, n);
	st->arr = SB_NEW(double, n > 0 ? n : 1);
	for (i = 0; i < n; i++)
		st->arr[i] = sb_cluster_sim_job(s, i)->arrival;
	st->order = SB_NEW(int, n > 0 ? n : 1);
	st->fast = !st->fitfirst && st->starve == 0 && !sb_cluster_dispatch_plain;
	if (st->fast) {
		sb_cluster_jheap_init(&st->wait, job_before, st);
		sb_cluster_d2s_init(&st->d2, s);
		sb_heap_init(&st->chg);
		sb_heap_init(&st->qx);
		st->cver = SB_NEW(unsigned, n > 0 ? n : 1);
		st->qver = SB_NEW(unsigned, n > 0 ? n : 1);
		st->due = SB_NEW(int, n > 0 ? n : 1);
		st->gk = SB_NEW(int, n > 0 ? n : 1);
		st->gver = SB_NEW(unsigned, n > 0 ? n : 1);
		st->tver = 1;
	}
	if (gittins) {
		st->delta = sb_opts_get(o, "delta");
		st->learn = nh == 0;
		if (st->learn)
			st->done_gput = SB_NEW(double, n > 0 ? n : 1);
		else
			sb_gittins_build(&st->gt, hist, nh, st->delta);
	}
	return st;
}

void sb_tiresias_release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->base);
	sb_free(st->exec_start);
	sb_free(st->last_run);
	sb_free(st->was_running);
	sb_free(st->q);
	sb_free(st->stamp);
	sb_free(st->rank);
	sb_free(st->arr);
	sb_free(st->order);
	sb_free(st->done_gput);
	sb_gittins_release(&st->gt);
	if (st->fast) {
		sb_cluster_jheap_release(&st->wait);
		sb_cluster_d2s_release(&st->d2);
		sb_heap_release(&st->chg);
		sb_heap_release(&st->qx);
	}
	sb_free(st->cver);
	sb_free(st->qver);
	sb_free(st->due);
	sb_free(st->gk);
	sb_free(st->gver);
	sb_free(st);
}

void sb_tiresias_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	st->stamp[j] = ++st->counter;
	if (st->fast) {
		rank_job(st, s, j);
		sb_cluster_jheap_push(&st->wait, j);
	}
}

void sb_tiresias_finish(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	if (st->fast) {
		sb_cluster_d2s_gone(&st->d2, j);
		st->cver[j]++;
		st->qver[j]++;
	}
	if (!st->learn)
		return;
	st->done_gput[st->ndone++] = sb_max(1, sb_cluster_sim_attained(s, j));
	if (st->ndone >= st->nbuilt + 1 + st->nbuilt / 10) {
		sb_gittins_build(&st->gt, st->done_gput, st->ndone, st->delta);
		st->nbuilt = st->ndone;
		st->rekey = 1;
		st->tver++;
	}
}

static int queue_of(const struct state *st, double service)
{
	int q = 0;
	while (q < st->nq - 1 && service >= limits[q])
		q++;
	return q;
}

/* Lower queue first; inside a queue the higher Gittins index first, then
 * the earlier arrival (by submission in Tiresias' simulator); then the
 * list position (fitfirst) or the job id. */
static int job_before(const void *ctx, int x, int y)
{
	const struct state *st = ctx;
	if (st->q[x] != st->q[y])
		return st->q[x] < st->q[y];
	if (st->gittins) {
		if (st->rank[x] != st->rank[y])
			return st->rank[x] > st->rank[y];
		if (st->arr[x] != st->arr[y])
			return st->arr[x] < st->arr[y];
	}
	if (st->fitfirst && st->stamp[x] != st->stamp[y])
		return st->stamp[x] < st->stamp[y];
	return x < y;
}

static const struct state *cmp_st;

static int cmp_job(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (x == y)
		return 0;
	return job_before(cmp_st, x, y) ? -1 : 1;
}

/* Attained service counted towards the queues. */
static double service(const struct state *st, const struct sb_csim *s, int j)
{
	return sb_cluster_sim_attained(s, j) - st->base[j];
}

/* sb_gittins_index(&st->gt, a) for job j: the index of the first sample
 * above a (gi[m] = 0 covers a beyond the largest), found from the position
 * of j's last look-up when that is still the first above a. */
static double gittins_of(struct state *st, int j, double a)
{
	const struct sb_gittins *g = &st->gt;
	int k = st->gk[j];
	if (g->m == 0)
		return 0;
	if (st->gver[j] != st->tver || (k > 0 && g->v[k - 1] > a)) {
		k = above(g->v, g->m, a);
	} else {
		/* forward: a short walk, then a search if it runs long */
		int step = 0;
		while (k < g->m && g->v[k] <= a && step++ < 8)
			k++;
		if (k < g->m && g->v[k] <= a)
			k = above(g->v, g->m, a);
	}
	st->gk[j] = k;
	st->gver[j] = st->tver;
	return g->gi[k];
}

/* Queue and index of j from its service now. */
static void rank_job(struct state *st, const struct sb_csim *s, int j)
{
	double svc = service(st, s, j);
	st->q[j] = queue_of(st, svc);
	if (st->gittins)
		st->rank[j] = gittins_of(st, j, floor(svc));
}

/* rank_job, counting a change of queue or index as the policy's work
 * (the plain path counts them too, and also a job's first index after its
 * arrival); returns whether it changed. */
static int rerank(struct state *st, struct sb_csim *s, int j)
{
	int q = st->q[j];
	double r = st->rank[j];
	rank_job(st, s, j);
	if (st->q[j] == q && st->rank[j] == r)
		return 0;
	sb_cluster_sim_work(s, "rank-changes", 1);
	return 1;
}

/* Bookkeeping of j's runs after a decision; returns the next instant its
 * queue changes (or it may be promoted), or +inf. */
static double after(struct state *st, const struct sb_csim *s, int j, double now)
{
	int g = sb_cluster_sim_job(s, j)->gpus;
	double svc = service(st, s, j), wake = INFINITY;
	int q = queue_of(st, svc);
	if (sb_cluster_sim_state(s, j) == SB_JOB_RUNNING) {
		if (!st->was_running[j]) {
			st->was_running[j] = 1;
			st->exec_start[j] = sb_cluster_sim_executed(s, j);
		}
		if (q < st->nq - 1)
			wake = now + (limits[q] - svc) / g;
	} else {
		if (st->was_running[j]) {
			st->was_running[j] = 0;
			st->last_run[j] = sb_cluster_sim_executed(s, j) - st->exec_start[j];
		}
		if (st->starve > 0 && q > 0 && st->last_run[j] > 0)
			wake = now - sb_cluster_sim_since(s, j) + st->starve * st->last_run[j];
	}
	return wake;
}

/* The rounding margin around an estimated instant t (seconds): the
 * estimates below and the plain path's own arithmetic differ by a few
 * units in the last place of the times and services involved; 1e-8
 * relative leaves a factor of 10^7 to spare. */
static double margin(double t, double now)
{
	return 1e-8 * (1 + fabs(t) + fabs(now));
}

static int64_t entry(int j, unsigned ver)
{
	return (int64_t)j | ((int64_t)ver << 32);
}

/* Running job j, ranked at now with service svc: enter it in chg at the
 * instant its service reaches the next queue threshold or the next size
 * of the Gittins table (where its rank may change), and, if newq (it
 * started or changed queue), in qx at its threshold crossing (the plain
 * path's wake-up for it) if it has one; its older qx entry goes stale. */
static void watch(struct state *st, const struct sb_csim *s, int j, double now, double svc,
		  int newq)
{
	double g = sb_cluster_sim_job(s, j)->gpus, T = INFINITY;
	if (newq)
		st->qver[j]++;
	if (st->q[j] < st->nq - 1) {
		T = limits[st->q[j]];
		if (newq)
			sb_heap_push(&st->qx, now + (T - svc) / g, entry(j, st->qver[j]));
	}
	if (st->gittins && st->gt.m > 0 && st->gver[j] == st->tver && st->gk[j] < st->gt.m)
		T = sb_min(T, st->gt.v[st->gk[j]]);
	if (isfinite(T))
		sb_heap_push(&st->chg, now + (T - svc) / g, entry(j, ++st->cver[j]));
}

static int live(const struct sb_heap_item *it, const unsigned *ver)
{
	return (unsigned)(it->val >> 32) == ver[(int)(it->val & 0xffffffff)];
}

/* Re-rank the running jobs whose instant in chg is due (within the
 * margin); those whose rank changed move in the sorted running list. */
static void rerank_due(struct state *st, struct sb_csim *s, double now)
{
	const struct sb_heap_item *top;
	struct sb_heap_item it;
	int nd = 0, i;

	while ((top = sb_heap_peek(&st->chg)) && top->key <= now + margin(top->key, now)) {
		sb_heap_pop(&st->chg, &it);
		if (live(&it, st->cver))
			st->due[nd++] = (int)(it.val & 0xffffffff);
	}
	for (i = 0; i < nd; i++) {
		int j = st->due[i], q = st->q[j];
		if (rerank(st, s, j))
			sb_cluster_d2s_moved(&st->d2, j);
		watch(st, s, j, now, service(st, s, j), st->q[j] != q);
	}
}

/* next_crossing's walk: the job's next threshold crossing if its entry is
 * live and a lower queue remains */
struct cross_walk {
	struct state *st;
	const struct sb_csim *s;
	double now, wake;
};

static double cross_visit(void *ctx, const struct sb_heap_item *it, double lim)
{
	struct cross_walk *w = ctx;

	if (live(it, w->st->qver)) {
		int j = (int)(it->val & 0xffffffff), g = sb_cluster_sim_job(w->s, j)->gpus;
		double svc = service(w->st, w->s, j);
		int q = queue_of(w->st, svc);
		if (q < w->st->nq - 1)
			w->wake = sb_min(w->wake, w->now + (limits[q] - svc) / g);
	}
	return lim;
}

/* The plain path's wake-up: the earliest threshold crossing of a running
 * job, min over them of now + (limit - service) / GPUs, evaluated exactly
 * for the jobs whose estimate lies within the margin of the earliest (the
 * heap's entries up to that key, found without taking them out). */
static double next_crossing(struct state *st, const struct sb_csim *s, double now)
{
	const struct sb_heap_item *top;
	struct sb_heap_item it;
	struct cross_walk w = { st, s, now, INFINITY };

	while ((top = sb_heap_peek(&st->qx)) && !live(top, st->qver))
		sb_heap_pop(&st->qx, &it);
	if (!top)
		return INFINITY;
	sb_heap_walk_le(&st->qx, top->key + 2 * margin(top->key, now), cross_visit, &w);
	return w.wake;
}

static void schedule_fast(struct state *st, struct sb_csim *s)
{
	int n, i;
	const int *run;
	double now = sb_cluster_sim_now(s), wake;

	if (st->rekey) {
		/* a new Gittins table: every job's index may change */
		for (i = 0; i < st->wait.n; i++)
			rerank(st, s, st->wait.a[i]);
		sb_cluster_jheap_heapify(&st->wait);
		sb_heap_clear(&st->chg);
		sb_heap_clear(&st->qx);
		run = sb_cluster_sim_running(s, &n);
		for (i = 0; i < n; i++) {
			int j = run[i];
			rerank(st, s, j);
			watch(st, s, j, now, service(st, s, j), 1);
		}
		sb_cluster_d2s_resort(&st->d2);
		st->rekey = 0;
	} else {
		rerank_due(st, s, now);
	}
	sb_cluster_d2s_dispatch(s, &st->d2, job_before, st, &sb_cluster_jheap_pending, &st->wait,
				st->qmin);
	for (i = 0; i < st->d2.nstopped; i++) {
		st->cver[st->d2.stopped[i]]++;
		st->qver[st->d2.stopped[i]]++;
	}
	for (i = 0; i < st->d2.nstarted; i++) {
		int j = st->d2.started[i];
		watch(st, s, j, now, service(st, s, j), 1);
	}
	wake = next_crossing(st, s, now);
	if (wake > now && isfinite(wake))
		sb_cluster_sim_wake(s, wake);
}

void sb_tiresias_schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act;
	double now = sb_cluster_sim_now(s), wake = INFINITY;

	if (st->fast) {
		schedule_fast(st, s);
		return;
	}
	act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++) {
		int j = act[i], q, changed;
		double svc = service(st, s, j);
		q = queue_of(st, svc);
		if (st->starve > 0 && q > 0 && sb_cluster_sim_state(s, j) == SB_JOB_PENDING &&
		    st->last_run[j] > 0 && sb_cluster_sim_since(s, j) >= st->starve * st->last_run[j]) {
			st->base[j] = sb_cluster_sim_attained(s, j);
			svc = 0;
			q = 0;
		}
		/* a job that changes queue joins the end of its new one */
		changed = q != st->q[j];
		if (changed) {
			st->q[j] = q;
			st->stamp[j] = ++st->counter;
		}
		if (st->gittins) {
			double r = sb_gittins_index(&st->gt, floor(svc));
			if (r != st->rank[j])
				changed = 1;
			st->rank[j] = r;
		}
		if (changed)
			sb_cluster_sim_work(s, "rank-changes", 1);
		st->order[i] = j;
	}
	cmp_st = st;
	if (st->fitfirst) {
		qsort(st->order, (size_t)n, sizeof *st->order, cmp_job);
		sb_cluster_dispatch_order(s, st->order, n, st->qmin, 1);
		for (i = 0; i < n; i++)
			if (sb_cluster_sim_state(s, st->order[i]) == SB_JOB_PENDING)
				st->stamp[st->order[i]] = ++st->counter;
	} else {
		/* D2 needs only the admitted prefix of the rank */
		sb_cluster_dispatch_ranked(s, st->order, n, job_before, st, st->qmin);
	}

	/* bookkeeping of runs, and the next instant a queue changes */
	act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++)
		wake = sb_min(wake, after(st, s, act[i], now));
	if (wake > now && isfinite(wake))
		sb_cluster_sim_wake(s, wake);
}

/* ------------------------------------------------------------------ */
/* 2D-LAS                                                              */
/* ------------------------------------------------------------------ */

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	(void)rng;
	return sb_tiresias_init(s, o, 0);
}

const struct sb_cluster_policy sb_cluster_policy_tiresias = {
	.name = "tiresias",
	.cite = "Gu et al., Tiresias: a GPU cluster manager for distributed deep learning, "
		"NSDI 2019",
	.desc = "discretised 2D-LAS: queues by attained GPU-seconds, preemptive",
	.params = params,
	.init = init,
	SB_TIRESIAS_COMMON,
};
