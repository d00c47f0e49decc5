/*
 * optimus.c - Optimus: greedy on marginal utility. A job with no worker
 * has infinite priority; otherwise the gain of one more worker is the drop
 * in estimated remaining time, remaining / speed(k) - remaining /
 * speed(k+1), speed being the model's progress rate with the job's layout
 * (gadget.md §4: for RAR, speed = pi_j(k, sigma)). The worker goes to the
 * server with the least used resources; stop when the best gain <= 0 or
 * nothing fits; at most 16 workers.
 * Rule [V, DL2 optimus_env.py; Peng et al., EuroSys 2018]. PS jobs grow by
 * a worker with its bundled PS rather than deciding PSs apart [O].
 *
 * Incremental form (ours): the plain rule re-evaluates every job's gain
 * after every worker, O(workers x jobs x servers) per slot, quadratic under
 * bursts. A job's gain depends only on its own layout and on one fact about
 * the others: the least-used server that has room for its next unit, which
 * is the same for every job whose unit has the same demand (a class). So
 * each job's two possible gains (the unit lands on the one server it runs
 * on, staying local; or elsewhere) are computed when the job itself
 * changes and kept in heaps ordered as the plain scan chooses (largest
 * gain, then the earlier arrival): per class the jobs that are not local,
 * and per class and server the local ones under each of their two gains.
 * A step looks up each class's least-used server (O(servers)) and the heap
 * tops that apply. tests/alloc/test_fast.c checks it against the plain
 * rule, grant by grant, on seeded bursty instances.
 */
#include "alloc/alloc.h"

#include <math.h>
#include <string.h>

#define KMAX 16   /* Optimus's worker cap (DL2) */

struct ent {
	double g;
	int pos, ver;
};

struct heap {
	struct ent *e;
	int n, cap;
};

/* the plain scan's order: larger gain first, then the earlier arrival */
static int better(const struct ent *a, const struct ent *b)
{
	return a->g > b->g || (a->g == b->g && a->pos < b->pos);
}

static void heap_push(struct heap *h, struct ent x)
{
	int i;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->e = sb_xrealloc(h->e, (size_t)h->cap * sizeof *h->e);
	}
	for (i = h->n++; i > 0 && better(&x, &h->e[(i - 1) / 2]); i = (i - 1) / 2)
		h->e[i] = h->e[(i - 1) / 2];
	h->e[i] = x;
}

static void heap_pop(struct heap *h)
{
	struct ent x = h->e[--h->n];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, m = l;
		if (l >= h->n)
			break;
		if (l + 1 < h->n && better(&h->e[l + 1], &h->e[l]))
			m = l + 1;
		if (!better(&h->e[m], &x))
			break;
		h->e[i] = h->e[m];
		i = m;
	}
	if (h->n)
		h->e[i] = x;
}

/* the top that is still current (stale entries dropped), or NULL */
static const struct ent *heap_top(struct heap *h, const int *ver)
{
	while (h->n && h->e[0].ver != ver[h->e[0].pos])
		heap_pop(h);
	return h->n ? &h->e[0] : NULL;
}

struct state {
	const struct sb_alloc_view *v;
	struct sb_alloc_plan *pl;
	int S, nc, ccap;
	int *ver;
	double (*dem)[SB_ALLOC_NRES];   /* per class: demand of one unit */
	struct heap *hm;                /* per class: jobs not local */
	struct heap *hst, *hlm;         /* per class x server: local jobs by the
	                                   gain of staying / of moving */
};

static int class_of(struct state *st, const double *d)
{
	int c, r;
	for (c = 0; c < st->nc; c++)
		if (!memcmp(st->dem[c], d, sizeof st->dem[c]))
			return c;
	if (st->nc == st->ccap) {
		int old = st->ccap;
		st->ccap = st->ccap ? 2 * st->ccap : 4;
		st->dem = sb_xrealloc(st->dem, (size_t)st->ccap * sizeof *st->dem);
		st->hm = sb_xrealloc(st->hm, (size_t)st->ccap * sizeof *st->hm);
		st->hst = sb_xrealloc(st->hst, (size_t)st->ccap * st->S * sizeof *st->hst);
		st->hlm = sb_xrealloc(st->hlm, (size_t)st->ccap * st->S * sizeof *st->hlm);
		memset(st->hm + old, 0, (size_t)(st->ccap - old) * sizeof *st->hm);
		memset(st->hst + (size_t)old * st->S, 0,
		       (size_t)(st->ccap - old) * st->S * sizeof *st->hst);
		memset(st->hlm + (size_t)old * st->S, 0,
		       (size_t)(st->ccap - old) * st->S * sizeof *st->hlm);
	}
	for (r = 0; r < SB_ALLOC_NRES; r++)
		st->dem[st->nc][r] = d[r];
	return st->nc++;
}

/* The job at position i changed (or is new): its gains into the heaps,
 * computed as the plain rule does on the plan. */
static void update(struct state *st, int i)
{
	const struct sb_alloc_inst *in = st->v->in;
	struct sb_alloc_plan *pl = st->pl;
	int j = st->v->active[i], w = pl->w[j], p = pl->p[j], dp, c, r, k, s0 = -1;
	const struct sb_alloc_job *jb = &in->job[j];
	double d[SB_ALLOC_NRES], rem = jb->target - st->v->progress[j], r0;

	st->ver[i]++;
	if (w >= KMAX || w >= jb->max_workers)
		return;
	dp = sb_alloc_ps_for(in, j, w + 1) - p > 0;
	if (p + dp > jb->max_ps)
		return;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		d[r] = 1 * jb->wdem[r] + dp * jb->pdem[r];
	c = class_of(st, d);
	r0 = sb_alloc_plan_rate(pl, j);
	if (r0 <= 0) {
		heap_push(&st->hm[c], (struct ent){ INFINITY, i, st->ver[i] });
		return;
	}
	if (sb_alloc_plan_local(pl, j))
		for (k = pl->head[j]; k >= 0 && s0 < 0; k = pl->next[k])
			if (pl->g[k].workers || pl->g[k].ps)
				s0 = pl->g[k].server;
	{
		double gm = rem / r0 - rem / sb_alloc_rate(in, j, w + 1, p + dp, 0);
		if (s0 < 0) {
			heap_push(&st->hm[c], (struct ent){ gm, i, st->ver[i] });
			return;
		}
		heap_push(&st->hst[(size_t)c * st->S + s0],
			  (struct ent){ rem / r0 - rem / sb_alloc_rate(in, j, w + 1, p + dp, 1), i,
					st->ver[i] });
		heap_push(&st->hlm[(size_t)c * st->S + s0], (struct ent){ gm, i, st->ver[i] });
	}
}

static void consider(const struct ent *e, const struct ent **best)
{
	if (e && (!*best || better(e, *best)))
		*best = e;
}

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	struct state st = { v, pl, v->in->nserver, 0, 0, NULL, NULL, NULL, NULL, NULL };
	int i, c, s, *star;

	st.ver = SB_NEW(int, v->nactive + 1);
	for (i = 0; i < v->nactive; i++)
		update(&st, i);
	star = SB_NEW(int, st.nc + 1);
	for (;;) {
		const struct ent *best = NULL;
		int pos, j;
		star = sb_xrealloc(star, (size_t)(st.nc + 1) * sizeof *star);
		for (c = 0; c < st.nc; c++) {
			if ((star[c] = sb_alloc_least_server(pl, st.dem[c])) < 0)
				continue;
			consider(heap_top(&st.hm[c], st.ver), &best);
			for (s = 0; s < st.S; s++)
				consider(s == star[c] ? heap_top(&st.hst[(size_t)c * st.S + s], st.ver)
						      : heap_top(&st.hlm[(size_t)c * st.S + s], st.ver),
					 &best);
		}
		if (!best || !(best->g > 0))
			break;
		pos = best->pos;
		j = v->active[pos];
		if (sb_alloc_add_unit(pl, j, SB_ALLOC_LEAST, rng) < 0)
			SB_BUG("optimus: job %d's unit no longer fits", j);
		update(&st, pos);
	}
	for (c = 0; c < st.nc; c++) {
		sb_free(st.hm[c].e);
		for (s = 0; s < st.S; s++) {
			sb_free(st.hst[(size_t)c * st.S + s].e);
			sb_free(st.hlm[(size_t)c * st.S + s].e);
		}
	}
	sb_free(st.hm);
	sb_free(st.hst);
	sb_free(st.hlm);
	sb_free(st.dem);
	sb_free(st.ver);
	sb_free(star);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_optimus = {
	.name = "optimus",
	.cite = "Peng et al., Optimus: An Efficient Dynamic Resource Scheduler for Deep Learning Clusters, EuroSys 2018; DL2 optimus_env.py",
	.desc = "greedy on the drop in remaining time per added worker, least-used server",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
