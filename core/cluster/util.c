/*
 * util.c - queues, dispatchers and placement helpers shared by the
 * cluster schedulers and placers (see cluster/util.h).
 */
#include "util.h"

#include <stdlib.h>
#include <string.h>

void sb_clq_init(struct sb_clq *q)
{
	memset(q, 0, sizeof *q);
}

void sb_clq_release(struct sb_clq *q)
{
	sb_free(q->job);
	memset(q, 0, sizeof *q);
}

static void clq_room(struct sb_clq *q)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 64;
		q->job = sb_xrealloc(q->job, sizeof(int) * (size_t)q->cap);
	}
}

void sb_clq_push(struct sb_clq *q, int j)
{
	clq_room(q);
	q->job[q->n++] = j;
}

void sb_clq_insert(struct sb_clq *q, int j)
{
	int i;
	clq_room(q);
	/* arrivals come in order: the common case appends */
	for (i = q->n; i > 0 && q->job[i - 1] > j; i--)
		q->job[i] = q->job[i - 1];
	q->job[i] = j;
	q->n++;
}

void sb_clq_remove_at(struct sb_clq *q, int i)
{
	memmove(q->job + i, q->job + i + 1, sizeof(int) * (size_t)(q->n - i - 1));
	q->n--;
}

void *sb_clq_hook_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct sb_clq *q = SB_NEW(struct sb_clq, 1);
	(void)s;
	(void)o;
	(void)rng;
	sb_clq_init(q);
	return q;
}

void sb_clq_hook_release(void *ctx)
{
	sb_clq_release(ctx);
	sb_free(ctx);
}

void sb_clq_hook_arrival(void *ctx, struct sb_csim *s, int j)
{
	(void)s;
	sb_clq_insert(ctx, j);
}

void sb_cluster_dispatch_list(struct sb_csim *s, struct sb_clq *q, int strict)
{
	int i, w = 0, n = q->n;
	/* one pass that compacts the queue: linear in its length, and it
	 * stops as soon as no GPU is free */
	for (i = 0; i < n; i++) {
		int j = q->job[i];
		if (sb_cluster_sim_free(s) == 0)
			break;
		if (sb_cluster_sim_start(s, j) == 0)
			continue;          /* started: leaves the queue */
		q->job[w++] = j;
		if (strict) {
			i++;               /* head-of-line blocking */
			break;
		}
	}
	if (n > i)
		memmove(q->job + w, q->job + i, sizeof(int) * (size_t)(n - i));
	q->n = w + (n - i);
}

void sb_cluster_dispatch_order(struct sb_csim *s, const int *order, int n, double qmin,
			       int skip)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int i, N = cl->nserver * cl->gpus, cum = 0;
	unsigned char *adm = SB_NEW(unsigned char, n > 0 ? n : 1);

	for (i = 0; i < n; i++) {
		int g = sb_cluster_sim_job(s, order[i])->gpus;
		if (cum + g > N) {
			if (!skip)
				break;
			continue;
		}
		cum += g;
		adm[i] = 1;
	}
	for (i = 0; i < n; i++) {
		int j = order[i];
		if (!adm[i] && sb_cluster_sim_state(s, j) == SB_JOB_RUNNING &&
		    sb_cluster_sim_since(s, j) >= qmin)
			sb_cluster_sim_preempt(s, j);
	}
	for (i = 0; i < n; i++) {
		int j = order[i];
		if (adm[i] && sb_cluster_sim_state(s, j) == SB_JOB_PENDING)
			sb_cluster_sim_start(s, j);
	}
	sb_free(adm);
}

/* ------------------------------------------------------------------ */
/* D2 without sorting the whole queue                                  */
/* ------------------------------------------------------------------ */

/*
 * D2 only needs the admitted prefix of the rank (at most one job per GPU,
 * plus the first that does not fit) and the rank among the running jobs
 * left out. A binary heap gives the prefix in O(n + k log n) instead of a
 * sort of every waiting job at every decision (issue #11 item 7); with a
 * strict total order (ties to the job id) the heap pops exactly the order
 * the sort gave, so the actions and their sequence are the same.
 */
static void sift_down(int *h, int n, int i, sb_cluster_before before, const void *ctx)
{
	int x = h[i];
	for (;;) {
		int c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(ctx, h[c + 1], h[c]))
			c++;
		if (!before(ctx, h[c], x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static sb_cluster_before run_before;
static const void *run_ctx;

static int cmp_before(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (x == y)
		return 0;
	return run_before(run_ctx, x, y) ? -1 : 1;
}

int sb_cluster_dispatch_plain;

void sb_cluster_dispatch_ranked(struct sb_csim *s, int *jobs, int n, sb_cluster_before before,
				const void *ctx, double qmin)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int i, N = cl->nserver * cl->gpus, cum = 0, na = 0, nr = 0, m = n;
	int *adm;

	if (sb_cluster_dispatch_plain) {
		run_before = before;
		run_ctx = ctx;
		qsort(jobs, (size_t)n, sizeof *jobs, cmp_before);
		sb_cluster_dispatch_order(s, jobs, n, qmin, 0);
		return;
	}
	adm = SB_NEW(int, n > 0 ? n : 1);

	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(jobs, n, i, before, ctx);
	while (m > 0) {
		int j = jobs[0], g = sb_cluster_sim_job(s, j)->gpus;
		if (cum + g > N)
			break;          /* j stays in the heap: not admitted */
		cum += g;
		adm[na++] = j;
		jobs[0] = jobs[--m];
		sift_down(jobs, m, 0, before, ctx);
	}
	/* the running jobs left out, preempted in rank order */
	for (i = 0; i < m; i++)
		if (sb_cluster_sim_state(s, jobs[i]) == SB_JOB_RUNNING)
			jobs[nr++] = jobs[i];
	run_before = before;
	run_ctx = ctx;
	qsort(jobs, (size_t)nr, sizeof *jobs, cmp_before);
	for (i = 0; i < nr; i++)
		if (sb_cluster_sim_since(s, jobs[i]) >= qmin)
			sb_cluster_sim_preempt(s, jobs[i]);
	for (i = 0; i < na; i++)
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_PENDING)
			sb_cluster_sim_start(s, adm[i]);
	sb_free(adm);
}

int sb_cluster_key_before(const void *ctx, int x, int y)
{
	const double *key = ctx;
	if (key[x] != key[y])
		return key[x] < key[y];
	return x < y;
}

int sb_cluster_id_before(const void *ctx, int x, int y)
{
	(void)ctx;
	return x < y;
}

void sb_cluster_dispatch_priority(struct sb_csim *s, const double *key, double qmin)
{
	int n;
	const int *act = sb_cluster_sim_active(s, &n);
	int *jobs = SB_NEW(int, n > 0 ? n : 1);

	memcpy(jobs, act, sizeof(int) * (size_t)n);
	sb_cluster_dispatch_ranked(s, jobs, n, sb_cluster_key_before, key, qmin);
	sb_free(jobs);
}

/* ------------------------------------------------------------------ */
/* Incremental D2                                                      */
/* ------------------------------------------------------------------ */

void sb_cluster_d2_init(struct sb_cluster_d2 *d, int njobs)
{
	memset(d, 0, sizeof *d);
	d->run = SB_NEW(int, njobs > 0 ? njobs : 1);
	d->adm = SB_NEW(int, njobs > 0 ? njobs : 1);
	d->pre = SB_NEW(int, njobs > 0 ? njobs : 1);
}

void sb_cluster_d2_release(struct sb_cluster_d2 *d)
{
	sb_free(d->run);
	sb_free(d->adm);
	sb_free(d->pre);
	memset(d, 0, sizeof *d);
}

/* The decision when every pending job fits in the free GPUs: D2 then
 * admits the whole rank, preempts nothing and starts the pending jobs in
 * their order, which needs no key of a running job. Takes the pending
 * jobs in order while they fit; if they all do, starts them (those the
 * placer cannot start yet go back) and returns 1; else puts the taken ones
 * back and returns 0 (nothing done; the jobs taken and put back fit in the
 * free GPUs together, so there are few when the queue is long and the
 * cluster full). */
static int d2_all_fit(struct sb_csim *s, struct sb_cluster_d2 *d,
		      const struct sb_cluster_pending *pend, void *pctx)
{
	int free = sb_cluster_sim_free(s), cum = 0, na = 0, i, h;
	int *adm = d->adm;

	while ((h = pend->head(pctx)) >= 0) {
		int g = sb_cluster_sim_job(s, h)->gpus;
		if (cum + g > free)
			break;
		cum += g;
		adm[na++] = h;
		pend->take(pctx);
	}
	if (h >= 0) {
		for (i = 0; i < na; i++)
			pend->put(pctx, adm[i]);
		return 0;
	}
	for (i = 0; i < na; i++) {
		sb_cluster_sim_start(s, adm[i]);
		/* the rank of the next decision: the next full decision
		 * drops the finished jobs and re-sorts */
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_RUNNING)
			d->run[d->nrun++] = adm[i];
	}
	for (i = 0; i < na; i++)
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_PENDING)
			pend->put(pctx, adm[i]);
	return 1;
}

void sb_cluster_d2_dispatch(struct sb_csim *s, struct sb_cluster_d2 *d, sb_cluster_before before,
			    const void *bctx, const struct sb_cluster_pending *pend, void *pctx,
			    double qmin, sb_cluster_rekey rekey, void *rctx)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int i, k, n = 0, a = 0, cum = 0, N = cl->nserver * cl->gpus, na, nr, np, nw, nrun, rg = 0;
	int *run = d->run, *adm = d->adm;

	if (d2_all_fit(s, d, pend, pctx))
		return;
	if (rekey)
		rekey(rctx, s);
	/* finished jobs leave; the others were re-keyed: re-sort */
	for (i = 0; i < d->nrun; i++) {
		int j = run[i];
		if (sb_cluster_sim_state(s, j) != SB_JOB_RUNNING)
			continue;
		for (k = n; k > 0 && before(bctx, j, run[k - 1]); k--)
			run[k] = run[k - 1];
		run[k] = j;
		n++;
		rg += sb_cluster_sim_job(s, j)->gpus;
	}
	d->nrun = n;
	sb_cluster_sim_running(s, &nrun);
	SB_ASSERT(nrun == n);   /* every start goes through here */
	/* d2_all_fit reads the running jobs' GPUs as those not free */
	SB_ASSERT(rg == N - sb_cluster_sim_free(s));
	/* the admitted prefix of the merged rank */
	for (na = 0;; na++) {
		int h = pend->head(pctx), fromrun, j, g;
		if (h < 0 && a == n)
			break;
		fromrun = a < n && (h < 0 || before(bctx, run[a], h));
		j = fromrun ? run[a] : h;
		g = sb_cluster_sim_job(s, j)->gpus;
		if (cum + g > N)
			break;
		cum += g;
		adm[na] = j;
		if (fromrun)
			a++;
		else
			pend->take(pctx);
	}
	/* the running jobs left out, run[a..n), in rank order */
	nr = np = 0;
	for (i = a; i < n; i++) {
		int j = run[i];
		if (sb_cluster_sim_since(s, j) >= qmin) {
			sb_cluster_sim_preempt(s, j);
			d->pre[np++] = j;
		} else {
			run[a + nr++] = j;
		}
	}
	for (i = 0; i < na; i++)
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_PENDING)
			sb_cluster_sim_start(s, adm[i]);
	/* the rank of the next decision: the admitted jobs that run, in rank
	 * order, then the running ones left out */
	for (i = a; i < a + nr; i++)
		adm[na + i - a] = run[i];
	for (i = nw = 0; i < na + nr; i++) {
		int j = adm[i];
		if (sb_cluster_sim_state(s, j) == SB_JOB_RUNNING)
			run[i - nw] = j;
		else
			nw++;
	}
	d->nrun = na + nr - nw;
	for (i = 0; i < np; i++)
		pend->put(pctx, d->pre[i]);
	for (i = 0; i < na; i++)
		if (sb_cluster_sim_state(s, adm[i]) == SB_JOB_PENDING)
			pend->put(pctx, adm[i]);
}

/* ------------------------------------------------------------------ */
/* D2 with the running jobs kept sorted (util.h)                       */
/* ------------------------------------------------------------------ */

void sb_cluster_d2s_init(struct sb_cluster_d2s *d, const struct sb_csim *s)
{
	int n = sb_cluster_sim_njobs(s), m = n > 0 ? n : 1, j;
	memset(d, 0, sizeof *d);
	d->run = SB_NEW(int, m);
	d->pre = SB_NEW(int, m + 1);
	d->g = SB_NEW(int, m);
	d->mark = SB_NEW(unsigned char, m);
	d->touched = SB_NEW(int, m);
	d->adm = SB_NEW(int, m);
	d->at = SB_NEW(int, m);
	d->started = SB_NEW(int, m);
	d->stopped = SB_NEW(int, m);
	d->keep = SB_NEW(int, m);
	for (j = 0; j < n; j++)
		d->g[j] = sb_cluster_sim_job(s, j)->gpus;
}

void sb_cluster_d2s_release(struct sb_cluster_d2s *d)
{
	sb_free(d->run);
	sb_free(d->pre);
	sb_free(d->g);
	sb_free(d->mark);
	sb_free(d->touched);
	sb_free(d->adm);
	sb_free(d->at);
	sb_free(d->started);
	sb_free(d->stopped);
	sb_free(d->keep);
	memset(d, 0, sizeof *d);
}

void sb_cluster_d2s_moved(struct sb_cluster_d2s *d, int j)
{
	if (!d->mark[j])
		d->touched[d->ntouched++] = j;
	if (d->mark[j] != 2)
		d->mark[j] = 1;
}

void sb_cluster_d2s_gone(struct sb_cluster_d2s *d, int j)
{
	if (!d->mark[j])
		d->touched[d->ntouched++] = j;
	d->mark[j] = 2;
}

void sb_cluster_d2s_resort(struct sb_cluster_d2s *d)
{
	d->all = 1;
}

/* First i in [lo, hi) with !before(run[i], h) (hi if none). */
static int d2s_place(const int *run, int lo, int hi, int h, sb_cluster_before before,
		     const void *bctx)
{
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (before(bctx, run[mid], h))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The running list after the marks: gone jobs out, moved ones at their
 * new places (or everything sorted afresh). */
static void d2s_update(struct sb_cluster_d2s *d, sb_cluster_before before, const void *bctx)
{
	int i, k, w = 0;

	if (!d->ntouched && !d->all)
		return;
	for (i = 0; i < d->nrun; i++) {
		int j = d->run[i];
		if (!d->mark[j] || (d->all && d->mark[j] == 1))
			d->run[w++] = j;
		else if (w < d->npre)
			d->npre = w;    /* the prefix sums hold up to here */
	}
	if (d->all)
		d->npre = 0;
	if (d->all) {
		run_before = before;
		run_ctx = bctx;
		qsort(d->run, (size_t)w, sizeof *d->run, cmp_before);
	} else {
		for (k = 0; k < d->ntouched; k++) {
			int j = d->touched[k], p;
			if (d->mark[j] != 1)
				continue;
			p = d2s_place(d->run, 0, w, j, before, bctx);
			if (p < d->npre)
				d->npre = p;
			memmove(d->run + p + 1, d->run + p, sizeof(int) * (size_t)(w - p));
			d->run[p] = j;
			w++;
		}
	}
	for (k = 0; k < d->ntouched; k++)
		d->mark[d->touched[k]] = 0;
	d->ntouched = 0;
	d->all = 0;
	d->nrun = w;
}

/* The GPUs of run[0..q): prefix sums kept across decisions up to the
 * first place the list changed (npre), extended on demand. */
static int d2s_pre(struct sb_cluster_d2s *d, int q)
{
	while (d->npre < q) {
		d->pre[d->npre + 1] = d->pre[d->npre] + d->g[d->run[d->npre]];
		d->npre++;
	}
	return d->pre[q];
}

void sb_cluster_d2s_dispatch(struct sb_csim *s, struct sb_cluster_d2s *d, sb_cluster_before before,
			     const void *bctx, const struct sb_cluster_pending *pend, void *pctx,
			     double qmin)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int N = cl->nserver * cl->gpus, n, i, k, p = 0, P = 0, a, na = 0, w, nrun, ns, lo, nkeep = 0;
	int *run;

	d2s_update(d, before, bctx);
	run = d->run;
	n = d->nrun;
	sb_cluster_sim_running(s, &nrun);
	SB_ASSERT(nrun == n);   /* every start and stop is known here */
	/* the admitted prefix of the merged rank: the running jobs ranked
	 * before the pending head h are run[p..q) */
	for (;;) {
		int h = pend->head(pctx), q = h < 0 ? n : d2s_place(run, p, n, h, before, bctx);
		/* every running job fits: their GPUs are the busy ones */
		int rq = q == n ? N - sb_cluster_sim_free(s) : d2s_pre(d, q);
		if (rq + P > N) {
			/* the cut is the first running job in [p, q) that does
			 * not fit (pre[p] + P <= N holds) */
			int hi = q - 1;
			d2s_pre(d, q);
			lo = p;
			while (lo < hi) {
				int mid = lo + (hi - lo) / 2;
				if (d->pre[mid + 1] + P > N)
					hi = mid;
				else
					lo = mid + 1;
			}
			a = lo;
			break;
		}
		if (h < 0) {
			a = n;
			break;
		}
		if (rq + P + d->g[h] > N) {
			a = q;
			break;
		}
		P += d->g[h];
		d->adm[na] = h;
		d->at[na++] = q;
		pend->take(pctx);
		p = q;
	}
	/* preemptions in rank order, then starts in rank order; a job that
	 * has run less than qmin keeps running and stays ranked after the
	 * admitted prefix (appended behind it and the started jobs below) */
	d->nstopped = 0;
	for (i = a; i < n; i++) {
		if (qmin > 0 && sb_cluster_sim_since(s, run[i]) < qmin) {
			d->keep[nkeep++] = run[i];
			continue;
		}
		sb_cluster_sim_preempt(s, run[i]);
		d->stopped[d->nstopped++] = run[i];
	}
	d->nstarted = 0;
	for (k = 0; k < na; k++)
		if (sb_cluster_sim_start(s, d->adm[k]) == 0)
			d->started[d->nstarted++] = d->adm[k];
		else
			d->at[k] = -1;
	/* the rank of the next decision: run[0..a) with the started jobs
	 * merged in at their places, in place from the back */
	if (a < d->npre)
		d->npre = a;
	ns = d->nstarted;
	w = a + ns;
	i = a;
	for (k = na - 1; k >= 0 && ns > 0; k--) {
		if (d->at[k] < 0)
			continue;
		while (i > d->at[k])
			run[--w] = run[--i];
		run[--w] = d->adm[k];
		ns--;
		if (d->at[k] < d->npre)
			d->npre = d->at[k];
	}
	for (i = 0; i < nkeep; i++)
		run[a + d->nstarted + i] = d->keep[i];
	d->nrun = a + d->nstarted + nkeep;
	for (i = 0; i < d->nstopped; i++)
		pend->put(pctx, d->stopped[i]);
	for (k = 0; k < na; k++)
		if (d->at[k] < 0)
			pend->put(pctx, d->adm[k]);
}

void sb_cluster_jheap_init(struct sb_cluster_jheap *h, sb_cluster_before before, const void *ctx)
{
	memset(h, 0, sizeof *h);
	h->before = before;
	h->ctx = ctx;
}

void sb_cluster_jheap_release(struct sb_cluster_jheap *h)
{
	sb_free(h->a);
	h->a = NULL;
	h->n = h->cap = 0;
}

void sb_cluster_jheap_push(struct sb_cluster_jheap *h, int j)
{
	int i;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->a = sb_xrealloc(h->a, sizeof *h->a * (size_t)h->cap);
	}
	for (i = h->n++; i > 0 && h->before(h->ctx, j, h->a[(i - 1) / 2]); i = (i - 1) / 2)
		h->a[i] = h->a[(i - 1) / 2];
	h->a[i] = j;
}

void sb_cluster_jheap_pop(struct sb_cluster_jheap *h)
{
	SB_ASSERT(h->n > 0);
	h->a[0] = h->a[--h->n];
	if (h->n)
		sift_down(h->a, h->n, 0, h->before, h->ctx);
}

void sb_cluster_jheap_heapify(struct sb_cluster_jheap *h)
{
	int i;
	for (i = h->n / 2 - 1; i >= 0; i--)
		sift_down(h->a, h->n, i, h->before, h->ctx);
}

static int jheap_head(void *ctx)
{
	return sb_cluster_jheap_top(ctx);
}

static void jheap_take(void *ctx)
{
	sb_cluster_jheap_pop(ctx);
}

static void jheap_put(void *ctx, int j)
{
	sb_cluster_jheap_push(ctx, j);
}

const struct sb_cluster_pending sb_cluster_jheap_pending = {
	.head = jheap_head,
	.take = jheap_take,
	.put = jheap_put,
};

/* ------------------------------------------------------------------ */
/* Placement                                                           */
/* ------------------------------------------------------------------ */

static const int *srv_free;

static int cmp_free_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (srv_free[x] != srv_free[y])
		return srv_free[x] > srv_free[y] ? -1 : 1;
	return (x > y) - (x < y);
}

int sb_cluster_pick_servers(const struct sb_csim *s, int g, int *srv)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const int *fr = sb_cluster_sim_free_per_server(s);
	int S = cl->nserver, i, best = -1, k, sum;
	int *all;

	if (sb_cluster_sim_free(s) < g)
		return 0;
	for (i = 0; i < S; i++)
		if (fr[i] >= g && (best < 0 || fr[i] < fr[best]))
			best = i;
	if (best >= 0) {
		srv[0] = best;
		return 1;
	}
	all = SB_NEW(int, S);
	for (i = k = 0; i < S; i++)
		if (fr[i] > 0)
			all[k++] = i;
	srv_free = fr;
	qsort(all, (size_t)k, sizeof *all, cmp_free_desc);
	for (i = sum = 0; i < k && sum < g; i++) {
		srv[i] = all[i];
		sum += fr[all[i]];
	}
	sb_free(all);
	return i;
}

void sb_cluster_fill(const struct sb_csim *s, const int *srv, int k, int g, int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const unsigned char *fg = sb_cluster_sim_gpu_free(s);
	int i, v = 0, x;
	for (i = 0; i < k && v < g; i++)
		for (x = 0; x < cl->gpus && v < g; x++)
			if (fg[srv[i] * cl->gpus + x])
				gpus[v++] = srv[i] * cl->gpus + x;
	SB_ASSERT(v == g);
}
