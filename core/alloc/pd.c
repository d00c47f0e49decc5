/*
 * pd.c - the alloc family's online primal-dual reservation engine (see
 * pd.h): exponential prices per server, resource and slot, each job's
 * cheapest plan over the window by a dynamic programme, admission iff its
 * value exceeds its cost. Reconstructed [R] from pslocality.md §4 (OASiS,
 * Bao et al., INFOCOM 2018) and gadget.md §3 (GADGET-PD).
 *
 * Speed: a slot's prices and options depend only on what that slot holds,
 * and consecutive slots of the window often hold exactly the same (a plan
 * reserves one layout over several slots; the far end is empty), so such
 * a slot reuses the previous one's (bit for bit the same numbers; the
 * plain mode recomputes every slot and is what tests/alloc/test_fast.c
 * holds the engine to). On the bench's 10,000-job Philly replay this took
 * GADGET-PD from 13.2 to 2.4 CPU s with the same checked grants.
 */
#include "pd.h"

#include <math.h>
#include <string.h>

struct resv {
	int slot, server, w, p;
};

struct jobres {
	struct resv *r;
	int n, cap, pos;        /* reservations, in slot order; next to run */
	int seen, admitted;
	long done_seen;         /* jobs gone when it was last considered */
};

/* The most steps of a job's work in the programme (see consider). */
#define QMAX 512

/* one option of a slot: k workers, local (kind 1) or dealt (kind 0) */
struct opt {
	int k, kind, u;
	double cost;
};

struct sb_alloc_pd {
	const struct sb_alloc_inst *in;
	struct sb_alloc_pd_cfg c;
	int W, base, H;
	double (*used)[SB_ALLOC_NRES];  /* [(slot % W) * H + h] */
	double lo, hi;
	struct jobres *jr;
	int *live, nlive;               /* admitted jobs with reservations left */
	int *stamp, now;
	long ndone;                     /* admitted jobs that have left */
	long reused;                    /* slots priced and optioned as the previous */
	int Q;                          /* steps of the job being decided */
	/* scratch of one decision */
	double *pw, *pp;                /* [tt * H + h]: price of a worker, of a PS */
	double (*fr)[SB_ALLOC_NRES];    /* [h]: free capacity while dealing */
	double (*fr0)[SB_ALLOC_NRES];   /* [h]: free capacity of the slot */
	unsigned char *same;            /* [tt]: slot t + tt holds what t + tt - 1
	                                   holds (so its prices and options are
	                                   the previous slot's) */
	int *cnt;
	struct opt *opt;                /* [tt * 2K + o] */
	int *nopt;
	double *cur, *nxt;
	int *choice, *from;             /* [tt * (Q + 1) + q] */
};

/* ------------------------------------------------------------------ */
/* Prices and the options of one slot                                  */
/* ------------------------------------------------------------------ */

static double *used_at(struct sb_alloc_pd *pd, int slot, int h)
{
	return pd->used[(size_t)(slot % pd->W) * pd->H + h];
}

static void prices(struct sb_alloc_pd *pd, int j, int t, int Tw)
{
	const struct sb_alloc_inst *in = pd->in;
	const struct sb_alloc_job *jb = &in->job[j];
	int tt, h, r;
	for (tt = 0; tt < Tw; tt++) {
		/* a job's plan often reserves the same layout over several
		 * slots, and the far end of the window is empty: equal slots
		 * are priced (and optioned, see consider) once */
		pd->same[tt] = !pd->c.plain && tt > 0 && !memcmp(used_at(pd, t + tt, 0), used_at(pd, t + tt - 1, 0),
						 (size_t)pd->H * sizeof *pd->used);
		if (pd->same[tt]) {
			pd->reused++;
			memcpy(pd->pw + (size_t)tt * pd->H, pd->pw + (size_t)(tt - 1) * pd->H,
			       (size_t)pd->H * sizeof *pd->pw);
			memcpy(pd->pp + (size_t)tt * pd->H, pd->pp + (size_t)(tt - 1) * pd->H,
			       (size_t)pd->H * sizeof *pd->pp);
			continue;
		}
		for (h = 0; h < pd->H; h++) {
			const double *u = used_at(pd, t + tt, h);
			double w = pd->c.gpu_cost * jb->wdem[0], p = 0;
			for (r = 0; r < SB_ALLOC_NRES; r++) {
				double cap = in->cap[h][r], pr;
				if (cap <= 0)
					continue;
				pr = pd->lo * pow(pd->hi / pd->lo, sb_min(1, u[r] / cap));
				w += jb->wdem[r] / cap * pr;
				p += jb->pdem[r] / cap * pr;
			}
			pd->pw[(size_t)tt * pd->H + h] = w;
			pd->pp[(size_t)tt * pd->H + h] = p;
		}
	}
}

static int fits(const struct sb_alloc_job *jb, const double *fr, int w, int p)
{
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (w * jb->wdem[r] + p * jb->pdem[r] > fr[r] + 1e-9)
			return 0;
	return 1;
}

/*
 * The options of slot t + tt for job j (need: its remaining work), into
 * pd->opt; with want >= 0, instead the placement of option `want` into
 * out[0..*nout). The two passes are one code path, so the plan reserved
 * is the plan priced.
 */
static int slot_options(struct sb_alloc_pd *pd, int j, int t, int tt, double need, int want,
			struct resv *out, int *nout)
{
	const struct sb_alloc_inst *in = pd->in;
	const struct sb_alloc_job *jb = &in->job[j];
	int H = pd->H, K = jb->max_workers, Q = pd->Q, k, h, r, n = 0, nsrv = 0;
	const double *pw = pd->pw + (size_t)tt * H, *pp = pd->pp + (size_t)tt * H;
	struct opt *opt = pd->opt + (size_t)tt * 2 * K;
	double cost = 0;

	for (h = 0; h < H; h++) {
		const double *u = used_at(pd, t + tt, h);
		for (r = 0; r < SB_ALLOC_NRES; r++)
			pd->fr0[h][r] = pd->fr[h][r] = in->cap[h][r] - u[r];
		pd->cnt[h] = pd->cnt[H + h] = 0;
	}
	/* dealt: each worker (with its PS) to the cheapest server with room */
	for (k = 1; k <= K; k++) {
		int dp = sb_alloc_ps_for(in, j, k) - sb_alloc_ps_for(in, j, k - 1), b = -1;
		double rate;
		for (h = 0; h < H; h++)
			if (fits(jb, pd->fr[h], 1, dp) &&
			    (b < 0 || pw[h] + dp * pp[h] < pw[b] + dp * pp[b]))
				b = h;
		if (b < 0)
			break;
		cost += pw[b] + dp * pp[b];
		for (r = 0; r < SB_ALLOC_NRES; r++)
			pd->fr[b][r] -= jb->wdem[r] + dp * jb->pdem[r];
		nsrv += !pd->cnt[b]++;
		pd->cnt[H + b] += dp;
		rate = sb_alloc_rate(in, j, k, sb_alloc_ps_for(in, j, k), nsrv == 1);
		if (want < 0) {
			opt[n] = (struct opt){ k, 0, (int)sb_min(Q, floor(rate / need * Q)), cost };
			n += opt[n].u > 0;
		} else if (want == 2 * (k - 1)) {
			/* the dealt layout of k workers, from the counts */
			*nout = 0;
			for (h = 0; h < H; h++)
				if (pd->cnt[h])
					out[(*nout)++] = (struct resv){ t + tt, h, pd->cnt[h],
									pd->cnt[H + h] };
			return 0;
		}
	}
	/* local: the cheapest single server that holds all k */
	for (k = 1; k <= K; k++) {
		int ps = sb_alloc_ps_for(in, j, k), b = -1;
		double bc = 0;
		for (h = 0; h < H; h++) {
			double c = k * pw[h] + ps * pp[h];
			if (fits(jb, pd->fr0[h], k, ps) && (b < 0 || c < bc)) {
				b = h;
				bc = c;
			}
		}
		if (b < 0)
			break;
		if (want < 0) {
			double rate = sb_alloc_rate(in, j, k, ps, 1);
			opt[n] = (struct opt){ k, 1, (int)sb_min(Q, floor(rate / need * Q)), bc };
			n += opt[n].u > 0;
		} else if (want == 2 * (k - 1) + 1) {
			out[0] = (struct resv){ t + tt, b, k, ps };
			*nout = 1;
			return 0;
		}
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* One decision                                                        */
/* ------------------------------------------------------------------ */

static void reserve(struct sb_alloc_pd *pd, int j, const struct resv *g)
{
	const struct sb_alloc_job *jb = &pd->in->job[j];
	struct jobres *x = &pd->jr[j];
	double *u = used_at(pd, g->slot, g->server);
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		u[r] += g->w * jb->wdem[r] + g->p * jb->pdem[r];
	if (x->n == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 8;
		x->r = sb_xrealloc(x->r, (size_t)x->cap * sizeof *x->r);
	}
	x->r[x->n++] = *g;
}

static void consider(struct sb_alloc_pd *pd, const struct sb_alloc_view *v, int j)
{
	const struct sb_alloc_inst *in = pd->in;
	int t = v->t, Q, K = in->job[j].max_workers, Tw, tt, q, o, bt = -1, bq = -1, k;
	double need = in->job[j].target - v->progress[j], best = 0, top = 0;
	struct opt *opt;

	pd->jr[j].seen = 1;
	pd->jr[j].done_seen = pd->ndone;
	Tw = in->nslot - t < pd->W ? in->nslot - t : pd->W;
	if (need <= 0 || Tw <= 0)
		return;
	/* steps: at least `units`, and about 8 per slot at the job's best
	 * rate, so that rounding each slot's progress down loses little
	 * (a long job would otherwise make no whole step in a slot) */
	for (k = 1; k <= K; k++)
		top = sb_max(top, sb_alloc_rate(in, j, k, sb_alloc_ps_for(in, j, k), 1));
	Q = top > 0 ? (int)sb_min(QMAX, 8 * ceil(need / top)) : QMAX;
	pd->Q = Q = Q > pd->c.units ? Q : pd->c.units;
	prices(pd, j, t, Tw);
	for (q = 0; q <= Q; q++)
		pd->cur[q] = q ? INFINITY : 0;
	for (tt = 0; tt < Tw; tt++) {
		int *ch = pd->choice + (size_t)tt * (Q + 1), *fr = pd->from + (size_t)tt * (Q + 1);
		int n;
		opt = pd->opt + (size_t)tt * 2 * K;
		if (pd->same[tt]) {
			n = pd->nopt[tt - 1];
			memcpy(opt, opt - 2 * K, (size_t)n * sizeof *opt);
		} else {
			n = slot_options(pd, j, t, tt, need, -1, NULL, NULL);
		}
		pd->nopt[tt] = n;
		for (q = 0; q <= Q; q++) {
			pd->nxt[q] = pd->cur[q];
			ch[q] = -1;
			fr[q] = q;
		}
		for (q = 0; q < Q; q++) {
			if (pd->cur[q] == INFINITY)
				continue;
			for (o = 0; o < n; o++) {
				int q2 = q + opt[o].u < Q ? q + opt[o].u : Q;
				double c = pd->cur[q] + opt[o].cost;
				if (c < pd->nxt[q2] - 1e-12 * (1 + fabs(c))) {
					pd->nxt[q2] = c;
					ch[q2] = o;
					fr[q2] = q;
				}
			}
		}
		memcpy(pd->cur, pd->nxt, (size_t)(Q + 1) * sizeof *pd->cur);
		for (q = 1; q <= Q; q++)
			if (pd->cur[q] < INFINITY) {
				double net = pd->c.value(pd->c.arg, in, j, v->progress[j], (double)q / Q, t + tt) - pd->cur[q];
				if (net > best + 1e-12 * (1 + fabs(best))) {
					best = net;
					bt = tt;
					bq = q;
				}
			}
	}
	if (bt < 0)
		return;   /* nothing worth its price: not admitted */
	/* walk the plan back, then reserve it in slot order */
	{
		int *path = SB_NEW(int, bt + 1);
		struct resv g[2 * SB_ALLOC_MAXK];
		int ng = 0, i, prev = -1;
		for (q = bq, tt = bt; tt >= 0; tt--) {
			path[tt] = pd->choice[(size_t)tt * (Q + 1) + q];
			q = pd->from[(size_t)tt * (Q + 1) + q];
		}
		/* the options (and prices) of a slot depend only on that
		 * slot's reservations, which this job has not touched yet */
		for (tt = 0; tt <= bt; tt++) {
			int want;
			if (path[tt] < 0) {
				prev = -1;
				continue;
			}
			opt = pd->opt + (size_t)tt * 2 * K;
			want = 2 * (opt[path[tt]].k - 1) + opt[path[tt]].kind;
			/* a slot that held what the previous one held (before
			 * this job) places the same option the same way */
			if (pd->same[tt] && want == prev)
				for (i = 0; i < ng; i++)
					g[i].slot = t + tt;
			else
				slot_options(pd, j, t, tt, need, want, g, &ng);
			prev = want;
			for (i = 0; i < ng; i++)
				reserve(pd, j, &g[i]);
		}
		sb_free(path);
	}
	pd->jr[j].admitted = 1;
	pd->live[pd->nlive++] = j;
}

/* ------------------------------------------------------------------ */
/* The engine                                                          */
/* ------------------------------------------------------------------ */

struct sb_alloc_pd *sb_alloc_pd_new(const struct sb_alloc_inst *in, const struct sb_alloc_pd_cfg *c)
{
	struct sb_alloc_pd *pd = SB_NEW(struct sb_alloc_pd, 1);
	int H = in->nserver > 0 ? in->nserver : 1, K = 1, j, r, k, tt;
	double lo = INFINITY, hi = 0;

	pd->in = in;
	pd->c = *c;
	pd->W = c->horizon;
	pd->H = H;
	for (j = 0; j < in->njob; j++)
		if (in->job[j].max_workers > K)
			K = in->job[j].max_workers;
	pd->used = sb_xcalloc((size_t)pd->W * H, sizeof *pd->used);
	pd->jr = SB_NEW(struct jobres, in->njob + 1);
	pd->live = SB_NEW(int, in->njob + 1);
	pd->stamp = SB_NEW(int, in->njob + 1);
	pd->pw = SB_NEW(double, (size_t)pd->W * H);
	pd->pp = SB_NEW(double, (size_t)pd->W * H);
	pd->fr = sb_xcalloc((size_t)H, sizeof *pd->fr);
	pd->fr0 = sb_xcalloc((size_t)H, sizeof *pd->fr0);
	pd->same = SB_NEW(unsigned char, pd->W);
	pd->cnt = SB_NEW(int, 2 * H);   /* workers, then PSs, per server */
	pd->opt = SB_NEW(struct opt, (size_t)pd->W * 2 * K);
	pd->nopt = SB_NEW(int, pd->W);
	SB_ASSERT(c->units >= 1 && c->units <= QMAX && c->horizon >= 1);
	pd->cur = SB_NEW(double, QMAX + 1);
	pd->nxt = SB_NEW(double, QMAX + 1);
	pd->choice = SB_NEW(int, (size_t)pd->W * (QMAX + 1));
	pd->from = SB_NEW(int, (size_t)pd->W * (QMAX + 1));
	/* U: the most a normalised resource-slot can be worth to a job (its
	 * best value over its least consumption); L: the least, spread over
	 * the most it can hold in the window, over 4 */
	for (j = 0; j < in->njob && in->nserver > 0; j++) {
		const struct sb_alloc_job *jb = &in->job[j];
		double d = 0, best = 0, vmax = 0;
		for (r = 0; r < SB_ALLOC_NRES; r++)
			if (in->cap[0][r] > 0)
				d += (jb->wdem[r] + (jb->max_ps > 0) * jb->pdem[r]) / in->cap[0][r];
		for (k = 1; k <= jb->max_workers; k++)
			best = sb_max(best, sb_alloc_rate(in, j, k, sb_alloc_ps_for(in, j, k), 1) / k);
		for (tt = 0; tt < pd->W; tt++)
			vmax = sb_max(vmax, c->value(c->arg, in, j, 0, 1, jb->arrival + tt));
		if (d <= 0 || best <= 0 || vmax <= 0)
			continue;
		hi = sb_max(hi, vmax / (jb->target / best * d));
		lo = sb_min(lo, vmax / (4.0 * jb->max_workers * d * pd->W));
	}
	if (!(hi > 0) || !(lo < hi)) {
		hi = 1;
		lo = 1e-3;
	}
	pd->lo = lo;
	pd->hi = hi;
	return pd;
}

void sb_alloc_pd_free(struct sb_alloc_pd *pd)
{
	int j;
	if (!pd)
		return;
	for (j = 0; j < pd->in->njob; j++)
		sb_free(pd->jr[j].r);
	sb_free(pd->used);
	sb_free(pd->jr);
	sb_free(pd->live);
	sb_free(pd->stamp);
	sb_free(pd->pw);
	sb_free(pd->pp);
	sb_free(pd->fr);
	sb_free(pd->fr0);
	sb_free(pd->same);
	sb_free(pd->cnt);
	sb_free(pd->opt);
	sb_free(pd->nopt);
	sb_free(pd->cur);
	sb_free(pd->nxt);
	sb_free(pd->choice);
	sb_free(pd->from);
	sb_free(pd);
}

long sb_alloc_pd_reused(const struct sb_alloc_pd *pd)
{
	return pd->reused;
}

void sb_alloc_pd_allocate(struct sb_alloc_pd *pd, const struct sb_alloc_view *v,
			  struct sb_alloc_plan *pl)
{
	const struct sb_alloc_inst *in = pd->in;
	int t = v->t, i, m, s;

	/* slots before t leave the window */
	for (s = pd->base; s < t && s < pd->base + pd->W; s++)
		memset(pd->used[(size_t)(s % pd->W) * pd->H], 0, (size_t)pd->H * sizeof *pd->used);
	pd->base = t;
	pd->now++;
	for (i = 0; i < v->nactive; i++)
		pd->stamp[v->active[i]] = pd->now;
	/* a job that finished early frees what it still holds */
	for (i = m = 0; i < pd->nlive; i++) {
		int j = pd->live[i];
		struct jobres *x = &pd->jr[j];
		while (x->pos < x->n && x->r[x->pos].slot < t)
			x->pos++;
		if (pd->stamp[j] != pd->now) {
			pd->ndone++;   /* it finished: capacity is back */
			for (; x->pos < x->n; x->pos++) {
				double *u = used_at(pd, x->r[x->pos].slot, x->r[x->pos].server);
				int r;
				for (r = 0; r < SB_ALLOC_NRES; r++)
					u[r] -= x->r[x->pos].w * in->job[j].wdem[r] +
						x->r[x->pos].p * in->job[j].pdem[r];
			}
		}
		if (x->pos < x->n)
			pd->live[m++] = j;
		else if (pd->stamp[j] == pd->now)
			/* its plan ran out before its work (a partial plan): it
			 * is a new decision */
			x->admitted = x->seen = 0;
	}
	pd->nlive = m;
	for (i = m = 0; i < v->nactive; i++) {
		int j = v->active[i];
		if (pd->jr[j].admitted)
			continue;
		if (!pd->jr[j].seen)
			consider(pd, v, j);
		else if (m < pd->c.retry && pd->ndone > pd->jr[j].done_seen) {
			m++;   /* the earliest refused jobs first, at most `retry` */
			consider(pd, v, j);
		}
	}
	for (i = 0; i < pd->nlive; i++) {
		int j = pd->live[i];
		struct jobres *x = &pd->jr[j];
		for (; x->pos < x->n && x->r[x->pos].slot == t; x->pos++)
			sb_alloc_plan_add(pl, j, x->r[x->pos].server, x->r[x->pos].w, x->r[x->pos].p);
	}
}
