/*
 * sppr.c - SPP-R (ours): pipeline planning on an arbitrary GPU topology,
 * our reconstruction of the planner of Z. Luo, X. Yi, G. Long, S. Fan,
 * C. Wu, J. Yang, W. Lin, "Efficient pipeline planning for expedited
 * distributed DNN training", INFOCOM 2022. Only the abstract is known to
 * us (joint partition + device mapping, then a microbatch scheduler, on a
 * general bandwidth graph); the algorithm below is ours (spec pipeplan.md
 * §3), not the paper's.
 *
 *   1. Device order: recursive bisection of the bandwidth graph
 *      (Kernighan-Lin from a greedy split, minimising the bandwidth cut),
 *      the leaves concatenated with each sibling pair oriented so that
 *      the GPUs meeting at the boundary are the best connected. Windows
 *      of the order are then well-connected GPU groups.
 *   2. DP over (layer suffix, position in the order): a stage is a layer
 *      range on a window of consecutive GPUs of the order (replicas split
 *      each microbatch), followed by the best candidates for the rest.
 *      Each cell keeps its top K candidates, ranked by the busiest stage
 *      or link per iteration plus the fill and drain of one microbatch,
 *      (M + S - 1) u for balanced stages. Memory uses the in-flight count
 *      of the target schedule; we run the DP over suffixes rather than
 *      the spec's prefixes because 1F1B's count of a stage is the number
 *      of stages from it to the end, which a suffix candidate knows.
 *   3. Every complete candidate is simulated (pipesim) under 1F1B and
 *      cp-list (SPP-R step 3) and the best true iteration time wins; the
 *      plan names its schedule. Plans whose bound (pipeline/bound.c)
 *      cannot beat the best so far are not simulated. With M left open,
 *      M in {4, 8, 16, 32} (at most the batch) are all tried.
 *   4. Local search on the winner (our addition, parameter `refine`):
 *      a GPU moved to another stage, to or from idle; stage boundaries
 *      moved by one layer; GPUs swapped between stages or with idle
 *      ones; each move kept if the simulated time drops.
 *
 * Cost O(L^2 N^2 K) per M for the DP, O(N^3) for the order and the
 * bandwidth tables; memory O(L N K + N^3).
 *
 * Family: pipeline (core/pipeline/).
 */
#include "opts.h"
#include "pipeline/pipeline.h"
#include "pipeline/bound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "K", 8, 1, 64, 1, "candidates kept per DP cell (top-K)" },
	{ "refine", 400, 0, 1e6, 1, "simulations the local search of step 4 may spend (0: none)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* ------------------------------------------------------------------ */
/* Step 1: device order by recursive bisection                         */
/* ------------------------------------------------------------------ */

static double bw(const struct sb_topo *t, int g, int h)
{
	return g == h ? 0 : t->bw[g * t->n + h];
}

/*
 * Split set[0..n) into a first part of na = ceil(n/2) GPUs and the rest
 * with a small bandwidth cut: greedy growth from set[0] (always add the
 * GPU best connected to the part), then Kernighan-Lin passes (tentative
 * best swaps, keep the best prefix) while they gain.
 */
static void kl_bisect(const struct sb_topo *t, int *set, int n, int na)
{
	int *part = SB_NEW(int, n), *lock = SB_NEW(int, n), *sa = SB_NEW(int, n);
	int *sb_ = SB_NEW(int, n), i, j, k, step, pass;
	double *D = SB_NEW(double, n), *gain = SB_NEW(double, n), total = 0;

	for (i = 0; i < n; i++) {
		part[i] = 1;
		for (j = 0; j < n; j++)
			total += bw(t, set[i], set[j]);
	}
	part[0] = 0;
	for (k = 1; k < na; k++) {
		int best = -1;
		double bc = -1;
		for (i = 0; i < n; i++) {
			double c = 0;
			if (part[i] == 0)
				continue;
			for (j = 0; j < n; j++)
				if (part[j] == 0)
					c += bw(t, set[i], set[j]);
			if (c > bc) {
				bc = c;
				best = i;
			}
		}
		part[best] = 0;
	}
	for (pass = 0; pass < 32 && na > 0 && na < n; pass++) {
		int nsw = 0, bestk = 0;
		double run = 0, bestrun = 0;
		for (i = 0; i < n; i++) {
			lock[i] = 0;
			D[i] = 0;
			for (j = 0; j < n; j++)
				D[i] += (part[i] == part[j] ? -1 : 1) * bw(t, set[i], set[j]);
		}
		for (step = 0; step < n / 2; step++) {
			int ba = -1, bb = -1;
			double bg = -INFINITY;
			for (i = 0; i < n; i++) {
				if (lock[i] || part[i] != 0)
					continue;
				for (j = 0; j < n; j++) {
					double g;
					if (lock[j] || part[j] != 1)
						continue;
					g = D[i] + D[j] - 2 * bw(t, set[i], set[j]);
					if (g > bg) {
						bg = g;
						ba = i;
						bb = j;
					}
				}
			}
			if (ba < 0)
				break;
			lock[ba] = lock[bb] = 1;
			for (k = 0; k < n; k++) {
				double da = bw(t, set[k], set[ba]), db = bw(t, set[k], set[bb]);
				if (lock[k])
					continue;
				D[k] += part[k] == 0 ? 2 * da - 2 * db : 2 * db - 2 * da;
			}
			part[ba] = 1;
			part[bb] = 0;
			sa[nsw] = ba;
			sb_[nsw] = bb;
			gain[nsw++] = bg;
			run += bg;
			if (run > bestrun + 1e-12 * total) {
				bestrun = run;
				bestk = nsw;
			}
		}
		/* undo the swaps after the best prefix */
		for (k = nsw - 1; k >= bestk; k--) {
			part[sa[k]] = 0;
			part[sb_[k]] = 1;
		}
		if (bestk == 0)
			break;
	}
	/* first part first, each part in its original order */
	for (i = 0, k = 0; i < n; i++)
		if (part[i] == 0)
			sa[k++] = set[i];
	for (i = 0; i < n; i++)
		if (part[i] == 1)
			sa[k++] = set[i];
	memcpy(set, sa, sizeof *set * (size_t)n);
	sb_free(part);
	sb_free(lock);
	sb_free(sa);
	sb_free(sb_);
	sb_free(D);
	sb_free(gain);
}

static void reverse(int *a, int n)
{
	int i;
	for (i = 0; i < n / 2; i++) {
		int x = a[i];
		a[i] = a[n - 1 - i];
		a[n - 1 - i] = x;
	}
}

static void order_rec(const struct sb_topo *t, int *set, int n)
{
	int na = (n + 1) / 2, *A = set, *B = set + na, nb = n - na, ra, rb, best_a = 0, best_b = 0;
	double best = -1;
	if (n <= 1)
		return;
	kl_bisect(t, set, n, na);
	order_rec(t, A, na);
	order_rec(t, B, nb);
	/* orient the two halves: the boundary pair should be well connected */
	for (ra = 0; ra < 2; ra++)
		for (rb = 0; rb < 2; rb++) {
			int x = ra ? A[0] : A[na - 1], y = rb ? B[nb - 1] : B[0];
			if (bw(t, x, y) > best) {
				best = bw(t, x, y);
				best_a = ra;
				best_b = rb;
			}
		}
	if (best_a)
		reverse(A, na);
	if (best_b)
		reverse(B, nb);
}

/* ------------------------------------------------------------------ */
/* Step 2: top-K DP over (layer suffix, order position)                */
/* ------------------------------------------------------------------ */

/* A suffix plan: layers a..L-1 on GPUs from order position k1 on. */
struct cand {
	double est;      /* ranking key: bott + sum - umax */
	double bott;     /* busiest stage (M(F+B) + AR) or link (M C) */
	double sum;      /* one microbatch through it: sum of F + B + 2 C */
	double umax;     /* largest F + B of a stage */
	int depth;       /* stages */
	int b, k2;       /* its first stage: layers a..b-1, GPUs k1..k2-1 */
	int next;        /* the rest: index in cell (b, k2); -1 for none */
};

struct dp {
	const struct sb_pipeline_problem *pb;
	int L, N, K, M;
	const int *order;
	const struct sb_pipeline_prefix *x;
	double beta, sigma, kappa;
	const double *segbw;   /* (N+1)^2: smallest bandwidth inside a window */
	const double *cross;   /* (N+1)^3: between windows [k1,k2) and [k2,k3) */
	int *budget;           /* in-flight microbatches of a stage with d
	                          stages from it to the end (d = 1..) */
	struct cand *cell;     /* (L+1) x (N+1) x K */
	int *cnt;
};

#define CELL(d, a, k) ((size_t)((a) * ((d)->N + 1) + (k)))

/* Insert c into a cell sorted by est, keeping at most K. */
static void cell_insert(struct cand *cs, int *n, int K, const struct cand *c)
{
	int i = *n < K ? (*n)++ : K - 1;
	while (i > 0 && cs[i - 1].est > c->est) {
		cs[i] = cs[i - 1];
		i--;
	}
	cs[i] = *c;
}

static void dp_run(struct dp *d)
{
	const struct sb_pipeline_prefix *x = d->x;
	const struct sb_pmodel *m = d->pb->model;
	const struct sb_topo *t = d->pb->topo;
	int L = d->L, N = d->N, K = d->K, M = d->M, a, k1, b, k2, i;
	int rcap = (int)sb_min(64, floor(d->pb->batch / M));
	double mem = t->mem, unit = d->beta / d->sigma, alpha = t->latency;

	for (i = 0; i < (L + 1) * (N + 1); i++)
		d->cnt[i] = 0;
	for (a = L - 1; a >= 0; a--)
		for (k1 = N - 1; k1 >= 0; k1--) {
			struct cand *cs = &d->cell[CELL(d, a, k1) * K];
			int *n = &d->cnt[CELL(d, a, k1)];
			int rmax = N - k1 < rcap ? N - k1 : rcap;
			if (rmax < 1)
				continue;
			for (b = a + 1; b <= L; b++) {
				double W = x->params[b] - x->params[a], fb, stash, act;
				fb = (x->fwd[b] - x->fwd[a]) + (x->bwd[b] - x->bwd[a]);
				if (d->kappa * W > mem)
					break;      /* more layers only weigh more */
				/* even on every GPU left, this stage is too slow to
				 * enter the cell: so are longer ones */
				if (*n == K && M * unit * fb / rmax >= cs[K - 1].est)
					break;
				stash = d->beta * (x->stash[b] - x->stash[a]);
				act = b < L ? d->beta * m->layer[b - 1].act : 0;
				for (k2 = k1 + 1; k2 <= k1 + rmax; k2++) {
					int r = k2 - k1;
					double u = unit * fb / r, ar, work, fix = d->kappa * W, sr;
					const struct cand *nx;
					int nn, j;
					ar = r > 1 ? 2.0 * (r - 1) / r * W / d->segbw[k1 * (N + 1) + k2] : 0;
					work = M * u + ar;
					if (*n == K && work >= cs[K - 1].est)
						continue;
					sr = stash / r;
					if (fix + sr > mem)
						continue;
					if (b == L) {
						struct cand c;
						c.bott = work;
						c.sum = u;
						c.umax = u;
						c.est = work;
						c.depth = 1;
						c.b = b;
						c.k2 = k2;
						c.next = -1;
						if (fix + d->budget[1] * sr <= mem)
							cell_insert(cs, n, K, &c);
						continue;
					}
					nx = &d->cell[CELL(d, b, k2) * K];
					nn = d->cnt[CELL(d, b, k2)];
					for (j = 0; j < nn; j++) {
						struct cand c;
						double C;
						if (*n == K && nx[j].est >= cs[K - 1].est)
							break;  /* est only grows along a chain */
						if (fix + d->budget[nx[j].depth + 1] * sr > mem)
							continue;
						C = alpha + act / d->cross[((size_t)k1 * (N + 1) + k2) *
									  (N + 1) + nx[j].k2];
						c.bott = sb_max(nx[j].bott, sb_max(work, M * C));
						c.sum = nx[j].sum + u + 2 * C;
						c.umax = sb_max(nx[j].umax, u);
						c.est = c.bott + c.sum - c.umax;
						if (*n == K && c.est >= cs[K - 1].est)
							continue;
						c.depth = nx[j].depth + 1;
						c.b = b;
						c.k2 = k2;
						c.next = j;
						cell_insert(cs, n, K, &c);
					}
				}
			}
		}
}

/* The plan of candidate (a, k1, idx). */
static void build_plan(const struct dp *d, int k1, int idx, struct sb_pipeline_plan *p)
{
	const struct cand *c = &d->cell[CELL(d, 0, k1) * d->K + idx];
	int a = 0, s = 0, g;
	sb_pipeline_plan_init(p, c->depth, 1);
	p->M = d->M;
	p->batch = d->pb->batch;
	p->kappa = d->pb->kappa;
	snprintf(p->planner, sizeof p->planner, "sppr");
	for (;;) {
		struct sb_pipeline_stage *st = &p->st[s++];
		st->first = a;
		st->last = c->b - 1;
		st->r = c->k2 - k1;
		for (g = 0; g < st->r; g++)
			st->gpu[g] = d->order[k1 + g];
		if (c->next < 0)
			break;
		a = c->b;
		k1 = c->k2;
		c = &d->cell[CELL(d, a, k1) * d->K + c->next];
	}
	SB_ASSERT(s == p->S);
}

/* ------------------------------------------------------------------ */
/* Step 3 and the planner                                              */
/* ------------------------------------------------------------------ */

struct best {
	double T;
	struct sb_pipeline_plan plan;
	const struct sb_pipeline_schedule *sc;
};

/*
 * In-flight counts the DP budgets for: mode 0 as 1F1B (min(d, M), which
 * cp-list's memory cap then never undercuts), 1 whatever the problem's
 * schedule says for a stage d from the end (its cap on a plan of
 * min(L, N) stages), 2 one microbatch (all cp-list needs to run).
 */
static void set_budget(struct dp *d, int mode, const struct sb_pipeline_schedule *sc)
{
	int D = d->L < d->N ? d->L : d->N, k;
	struct sb_pipeline_plan dummy;
	struct sb_opts so;
	if (mode == 1) {
		sb_pipeline_plan_init(&dummy, D, 1);
		dummy.M = d->M;
		dummy.batch = d->pb->batch;
		sb_opts_defaults(&so, sc->params);
	}
	for (k = 1; k <= D + 1; k++) {
		if (mode == 0)
			d->budget[k] = k < d->M ? k : d->M;
		else if (mode == 1)
			d->budget[k] = sb_pipeline_sched_cap(sc, &dummy, D - (k > D ? D : k), &so);
		else
			d->budget[k] = 1;
	}
	if (mode == 1)
		sb_pipeline_plan_release(&dummy);
}

/* dst (owned, replaced) = a copy of src */
static void plan_copy(struct sb_pipeline_plan *dst, const struct sb_pipeline_plan *src)
{
	struct sb_pipeline_stage *st;
	sb_pipeline_plan_release(dst);
	*dst = *src;
	st = SB_NEW(struct sb_pipeline_stage, src->S * src->copies);
	memcpy(st, src->st, sizeof *st * (size_t)(src->S * src->copies));
	dst->st = st;
}

struct pooled {
	double est;
	int k1, i;
};

static int cmp_pooled(const void *pa, const void *pb_)
{
	const struct pooled *x = pa, *y = pb_;
	if (x->est != y->est)
		return x->est < y->est ? -1 : 1;
	if (x->k1 != y->k1)
		return x->k1 - y->k1;
	return x->i - y->i;
}

/* Simulate the complete candidates of one DP (the K best estimates over
 * every start position) under the schedules; keep the fastest plan that
 * fits. A plan whose bound cannot beat the best so far is skipped. */
static void score(const struct dp *d, const struct sb_pipeline_schedule *const *sc, int nsc,
		  struct best *bst)
{
	const struct sb_topo *t = d->pb->topo;
	int N = d->N, K = d->K, k1, i, j, npool = 0;
	struct pooled *pool = SB_NEW(struct pooled, N * K);

	for (k1 = 0; k1 < N; k1++)
		for (i = 0; i < d->cnt[CELL(d, 0, k1)]; i++) {
			pool[npool].est = d->cell[CELL(d, 0, k1) * K + i].est;
			pool[npool].k1 = k1;
			pool[npool++].i = i;
		}
	qsort(pool, (size_t)npool, sizeof *pool, cmp_pooled);
	if (npool > K)
		npool = K;
	for (i = 0; i < npool; i++) {
		struct sb_pipeline_plan p;
		double lb;
		build_plan(d, pool[i].k1, pool[i].i, &p);
		lb = sb_pipeline_lb_plan(&p, d->pb->model, t, NULL);
		for (j = 0; j < nsc && lb < bst->T; j++) {
			struct sb_opts so;
			struct sb_pipeline_result r;
			struct sb_err err;
			sb_opts_defaults(&so, sc[j]->params);
			if (sb_pipeline_simulate(&p, d->pb->model, t, sc[j], &so, &r, &err))
				continue;
			if (r.peak_mem <= t->mem && r.iter_time < bst->T) {
				bst->T = r.iter_time;
				bst->sc = sc[j];
				plan_copy(&bst->plan, &p);
			}
			sb_pipeline_result_release(&r);
		}
		sb_pipeline_plan_release(&p);
	}
	sb_free(pool);
}

/* ------------------------------------------------------------------ */
/* Step 4 (ours): local refinement of the winner                       */
/* ------------------------------------------------------------------ */

/* Simulated time of p under sc if it fits, else INFINITY. */
static double sim_time(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_topo *t, const struct sb_pipeline_schedule *sc)
{
	struct sb_opts so;
	struct sb_pipeline_result r;
	struct sb_err err;
	double T = INFINITY;
	sb_opts_defaults(&so, sc->params);
	if (sb_pipeline_simulate(p, m, t, sc, &so, &r, &err))
		return INFINITY;
	if (r.peak_mem <= t->mem)
		T = r.iter_time;
	sb_pipeline_result_release(&r);
	return T;
}

/*
 * The DP maps stages to windows of one device order, which cannot express
 * every good mapping or replication; first-improvement local search on
 * the winner, in a fixed scan order (deterministic): move a GPU to
 * another stage (changing both replica counts), to idle or from idle;
 * move a stage boundary by one layer; swap two GPUs of different stages
 * or a used GPU with an idle one; each judged by simulation; until a pass
 * gains nothing or the evaluation budget is spent.
 */
static void refine(const struct sb_pipeline_problem *pb, struct best *bst, int budget)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	struct sb_pipeline_plan *p = &bst->plan;
	int N = t->n, S = p->S, s, a, b, gained = 1, *where;
	if (p->copies != 1)
		return;
	where = SB_NEW(int, 2 * N);   /* GPU -> stage * 64 + slot, -1 idle */
	while (gained && budget > 0) {
		gained = 0;
		/* a GPU changes stage, joins one from idle, or leaves one */
		for (a = 0; a < N && budget > 0; a++) {
			int from = -1, slot = -1, to, k;
			for (s = 0; s < S && from < 0; s++)
				for (k = 0; k < p->st[s].r; k++)
					if (p->st[s].gpu[k] == a)
						from = s, slot = k;
			for (to = -1; to < S && budget > 0; to++) {
				struct sb_pipeline_stage *f = from >= 0 ? &p->st[from] : NULL;
				struct sb_pipeline_stage *g = to >= 0 ? &p->st[to] : NULL;
				double T;
				if (to == from || (f && f->r == 1) || (g && g->r == 64) || (!f && !g))
					continue;
				if (f) {
					f->gpu[slot] = f->gpu[f->r - 1];
					f->r--;
				}
				if (g)
					g->gpu[g->r++] = a;
				T = sim_time(p, m, t, bst->sc);
				budget--;
				if (T < bst->T * (1 - 1e-12)) {
					bst->T = T;
					gained = 1;
					from = to;
					slot = g ? g->r - 1 : -1;
					continue;
				}
				if (g)
					g->r--;
				if (f) {
					f->gpu[f->r++] = f->gpu[slot];
					f->gpu[slot] = a;
				}
			}
		}
		/* boundaries */
		for (s = 0; s + 1 < S && budget > 0; s++) {
			int dir;
			for (dir = -1; dir <= 1; dir += 2) {
				struct sb_pipeline_stage *u = &p->st[s], *v = &p->st[s + 1];
				double T;
				if ((dir < 0 && u->last == u->first) || (dir > 0 && v->last == v->first))
					continue;
				u->last += dir;
				v->first += dir;
				T = sim_time(p, m, t, bst->sc);
				budget--;
				if (T < bst->T * (1 - 1e-12)) {
					bst->T = T;
					gained = 1;
				} else {
					u->last -= dir;
					v->first -= dir;
				}
			}
		}
		/* GPU swaps, between stages or with an idle GPU */
		for (a = 0; a < N; a++)
			where[a] = -1;
		for (s = 0; s < S; s++)
			for (b = 0; b < p->st[s].r; b++)
				where[p->st[s].gpu[b]] = s * 64 + b;
		for (a = 0; a < N && budget > 0; a++)
			for (b = a + 1; b < N && budget > 0; b++) {
				int wa = where[a], wb = where[b];
				int *ga, *gb;
				double T;
				if (wa < 0 && wb < 0)
					continue;
				if (wa >= 0 && wb >= 0 && wa / 64 == wb / 64)
					continue;
				ga = wa >= 0 ? &p->st[wa / 64].gpu[wa % 64] : NULL;
				gb = wb >= 0 ? &p->st[wb / 64].gpu[wb % 64] : NULL;
				if (ga)
					*ga = b;
				if (gb)
					*gb = a;
				T = sim_time(p, m, t, bst->sc);
				budget--;
				if (T < bst->T * (1 - 1e-12)) {
					bst->T = T;
					gained = 1;
					where[a] = wb;
					where[b] = wa;
				} else {
					if (ga)
						*ga = a;
					if (gb)
						*gb = b;
				}
			}
	}
	sb_free(where);
}

/* Bandwidth tables of the windows of an order: segbw[k1][k2] = the
 * smallest bandwidth inside window [k1, k2), cross[k1][k2][k3] = the
 * smallest between [k1, k2) and [k2, k3). rm: scratch of N + 1. */
static void window_tables(const struct sb_topo *t, const int *order, int N, double *segbw,
			  double *cross, double *rm)
{
	int i, k1, k2, k3;
	for (k1 = 0; k1 < N; k1++) {
		double mn = INFINITY;
		for (k2 = k1 + 1; k2 <= N; k2++) {
			for (i = k1; i < k2 - 1; i++)
				mn = sb_min(mn, bw(t, order[i], order[k2 - 1]));
			segbw[k1 * (N + 1) + k2] = mn;
		}
	}
	for (k2 = 1; k2 < N; k2++) {
		for (k1 = 0; k1 < k2; k1++)
			rm[k1] = INFINITY;
		for (k3 = k2 + 1; k3 <= N; k3++) {
			double cur = INFINITY;
			for (k1 = k2 - 1; k1 >= 0; k1--) {
				rm[k1] = sb_min(rm[k1], bw(t, order[k1], order[k3 - 1]));
				cur = sb_min(cur, rm[k1]);
				cross[((size_t)k1 * (N + 1) + k2) * (N + 1) + k3] = cur;
			}
		}
	}
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	const struct sb_pipeline_schedule *cpl = sb_pipeline_schedule_find("cp-list");
	const struct sb_pipeline_schedule *f1b = sb_pipeline_schedule_find("1f1b");
	const struct sb_pipeline_schedule *sc[2];
	static const int Mtry[] = { 4, 8, 16, 32 };
	struct sb_pipeline_prefix x;
	struct best bst;
	struct dp d;
	int L, N, K, nsc, nM = 0, Ms[8], mi, i, mode, custom, dirn;
	int *order;
	double *segbw, *cross, *rm;

	memset(out, 0, sizeof *out);
	if (!m || !t || m->n < 1 || t->n < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "sppr: empty model or topology");
	if (!(pb->batch >= 1) || pb->M < 0 || pb->M > pb->batch)
		return sb_err_set(err, SB_EXIT_INPUT, "sppr: batch %g and M %d: need batch >= "
				  "max(1, M)", pb->batch, pb->M);
	if (!cpl || !f1b)
		SB_BUG("sppr: schedules cp-list and 1f1b must be registered");
	L = m->n;
	N = t->n;
	K = (int)sb_opts_get_or(o, "K", 8);
	if (pb->sched) {
		sc[0] = pb->sched;
		nsc = 1;
	} else {
		sc[0] = f1b;
		sc[1] = cpl;
		nsc = 2;
	}
	if (pb->M > 0) {
		Ms[nM++] = pb->M;
	} else {
		for (i = 0; i < 4; i++)
			if (Mtry[i] <= pb->batch)
				Ms[nM++] = Mtry[i];
		if (nM == 0)
			Ms[nM++] = (int)floor(pb->batch);
	}

	/* step 1 */
	order = SB_NEW(int, N);
	for (i = 0; i < N; i++)
		order[i] = i;
	order_rec(t, order, N);
	segbw = SB_NEW(double, (N + 1) * (N + 1));
	cross = SB_NEW(double, (size_t)(N + 1) * (N + 1) * (N + 1));
	rm = SB_NEW(double, N + 1);

	sb_pipeline_prefix_init(&x, m);
	memset(&d, 0, sizeof d);
	d.pb = pb;
	d.L = L;
	d.N = N;
	d.K = K;
	d.order = order;
	d.x = &x;
	d.sigma = t->speed > 0 ? t->speed : 1;
	d.kappa = pb->kappa > 0 ? pb->kappa : 2;
	d.segbw = segbw;
	d.cross = cross;
	d.budget = SB_NEW(int, (L < N ? L : N) + 2);
	d.cell = SB_NEW(struct cand, (size_t)(L + 1) * (N + 1) * K);
	d.cnt = SB_NEW(int, (L + 1) * (N + 1));
	memset(&bst, 0, sizeof bst);
	bst.T = INFINITY;
	sb_pipeline_plan_init(&bst.plan, 1, 1);

	/* the problem's own schedule budgets for itself; otherwise budget as
	 * 1F1B and, if nothing fits, for one microbatch under cp-list */
	custom = pb->sched && pb->sched != cpl;
	for (mode = custom ? 1 : 0; mode <= 2 && !isfinite(bst.T); mode += custom ? 3 : 2) {
		/* the order and its reverse: which end of the order the first
		 * stage sits at matters (it carries no incoming transfer) */
		for (dirn = 0; dirn < 2; dirn++) {
			if (dirn)
				reverse(order, N);
			window_tables(t, order, N, segbw, cross, rm);
			for (mi = 0; mi < nM; mi++) {
				d.M = Ms[mi];
				d.beta = pb->batch / d.M;
				set_budget(&d, mode, sc[0]);
				dp_run(&d);
				if (mode == 2)
					score(&d, &cpl, 1, &bst);
				else
					score(&d, sc, nsc, &bst);
			}
		}
		reverse(order, N);
	}

	sb_pipeline_prefix_release(&x);
	sb_free(order);
	sb_free(segbw);
	sb_free(cross);
	sb_free(rm);
	sb_free(d.budget);
	sb_free(d.cell);
	sb_free(d.cnt);
	if (isfinite(bst.T))
		refine(pb, &bst, (int)sb_opts_get_or(o, "refine", 400));
	if (!isfinite(bst.T)) {
		sb_pipeline_plan_release(&bst.plan);
		return sb_err_set(err, SB_EXIT_RUN, "sppr: no plan of %s on %s fits the GPUs' "
				  "memory (batch %g)", m->name, t->name, pb->batch);
	}
	*out = bst.plan;
	snprintf(out->schedule, sizeof out->schedule, "%s", bst.sc->name);
	return 0;
}

const struct sb_pipeline_planner sb_pipeline_planner_sppr = {
	.name = "sppr",
	.cite = "Luo et al., Efficient pipeline planning for expedited distributed DNN training, "
		"INFOCOM 2022 (abstract only; SPP-R is our reconstruction)",
	.desc = "SPP-R (ours): device order by recursive KL bisection of the bandwidth graph, "
		"top-K DP over (layer suffix, GPU window) with replication, every candidate "
		"simulated under 1f1b and cp-list",
	.provenance = "reconstruction (ours)",
	.params = params,
	.schedule = "cp-list",
	.plan = plan,
};
