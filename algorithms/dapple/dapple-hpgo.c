/*
 * dapple-hpgo.c - the DAPPLE planner as released by the authors (the HPGO
 * package), written from the spec's description of its behaviour: a
 * PipeDream-style DP minimising the slowest stage, extra straight and
 * two-stage candidates, every candidate scored by DAPPLE's analytical
 * speed-up.
 *
 * S. Fan et al., "DAPPLE: a pipelined data parallel approach for training
 * large models", PPoPP 2021 (spec dapple.md §3.2: planner as released).
 *
 * Algorithm: for every pipeline width i = 2..G (G GPUs) with rp = G / i
 * copies, a DP over (layers, GPUs, GPU set) minimises the block time of
 * the slowest stage per iteration, block = max(block of the rest,
 * compute(stage) / (m' rp), split_concat(2 activation of the cut)), GPU
 * sets from the Fresh / Append / Scatter First policies. Extra candidates:
 * two-stage straight pipelines replicated G/2 times, one G-stage straight
 * pipeline, and every two-stage split of the whole cluster. Each candidate
 * is scored by sync_pipeline_speedup_analytical with M = GBS / (rp
 * min_micro_batch):
 *   block = slowest stage / M,
 *   length = block (M-1) + total compute / (rp M)
 *            + sum over cuts of split_concat(activation / (rp M)),
 *   delta = max_s max(0, AR_s - s block),   speed-up = total / (length +
 *   delta); the planner returns the best-scoring candidate that fits.
 *
 * Verified vs reconstructed: the structure above is [V, code] as the spec
 * reports it (no line of the released code was consulted); its cost rules
 * are those of dapple_model.h. Ours [O]:
 *   - activation volumes per pipeline copy and iteration (Bc = GBS / rp
 *     samples) for the DP's transfer term, per microbatch in the score;
 *   - one DP per distinct rp serves every width i with G / i = rp (its
 *     final states with i GPUs), run from the last layer backwards with
 *     `beam` GPU sets per cell, as in the dapple planner;
 *   - memory is checked (DAPPLE's formula and the project's model under
 *     the plan's schedule), which the description does not mention, so
 *     that every plan fits in pipesim;
 *   - the microbatch is at least the widest stage (every replica gets a
 *     sample): M = GBS / (rp max(min_micro_batch, widest stage)); copies
 *     get whole samples;
 *   - the straight G-stage pipeline is cut by a min-max partition of the
 *     compute; two-stage splits give the first m GPUs in (server, id)
 *     order to the first stage.
 *
 * Family: pipeline (core/pipeline/).
 */
#include "dapple_model.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "beam", 4, 1, 64, 1, "GPU sets kept per (first layer, GPUs used) cell of the DP" },
	{ "policies", 7, 1, 7, 1,
	  "placement policies, a sum of 1 (Fresh First), 2 (Append First), 4 (Scatter First)" },
	{ "p2p_ratio", 1.0 / 3.0, 0.01, 1, 0,
	  "Ethernet P2P over Ethernet NCCL bandwidth (DAPPLE's code: 1 GB/s over 3 GB/s)" },
	{ "min_micro_batch", 0, 0, 1e9, 0,
	  "smallest microbatch in samples (0: the profile's batch size)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* A suffix of the model: stages covering layers j..N-1 (j: its cell). */
struct st {
	uint64_t used, head;  /* GPUs used; those of the first stage */
	double block;         /* its slowest stage or transfer, per iteration */
	int nst, next;        /* stages; the suffix after the first, -1: none */
};

struct ctx {
	const struct sb_pipeline_problem *pb;
	const struct sb_pmodel *m;
	const struct sb_topo *t;
	struct sb_dapple_env env;
	struct sb_pipeline_prefix x;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;    /* the schedule's default options */
	int eb, strict;       /* sc is early-backward; its strict mode */
	double thr;           /* its ACR threshold */
	double batch, kappa, speed, mmb, ctot;
	int beam, policies;
	/* per DP run */
	const struct sb_dapple_grid *g;
	int W, N, M;          /* M: microbatches assumed for memory */
	double Bc, beta;      /* samples per copy; per microbatch (memory) */
	double mpmax;         /* most replicas a stage may have */
	int lo, hi;           /* final GPU counts this run stands for */
	double *bestm;        /* per final GPU count: the best block so far */
	double *sufm;         /* max of bestm over counts >= m in lo..hi */
	int dirty;
	int *kfix;
	struct st *s;
	int *cnt;
	double *cw;
	struct sb_dapple_sum *zs, *gr;
	int *zl, *yl;
	/* the best plan so far */
	struct sb_pipeline_plan best;
	double best_T;
	int have;
};

#define CELL(c, j, m) ((m) * ((c)->N + 1) + (j))

/* ------------------------------------------------------------------ */
/* Scoring: sync_pipeline_speedup_analytical                           */
/* ------------------------------------------------------------------ */


/* Estimated iteration time (length + delta) of plan p. */
static double analytical(const struct ctx *c, const struct sb_pipeline_plan *p)
{
	double Bc = p->batch / p->copies, beta = Bc / p->M, pt = 0, cuts = 0, block, delta = 0;
	int S = p->S, s, k, n, *all = SB_NEW(int, c->t->n);

	for (s = 0; s < S; s++) {
		const struct sb_pipeline_stage *st = &p->st[s];
		double comp = c->x.fwd[st->last + 1] - c->x.fwd[st->first] +
			      c->x.bwd[st->last + 1] - c->x.bwd[st->first];
		pt = sb_max(pt, Bc * comp / (st->r * c->speed));
		if (s + 1 < S) {
			double one = 0, a = beta * c->m->layer[st->last].act;
			for (k = 0; k < p->copies; k++) {
				const struct sb_pipeline_stage *x = &p->st[k * S + s], *y = x + 1;
				one = sb_max(one, sb_dapple_split_concat(&c->env, x->gpu, x->r, y->gpu,
									 y->r, a));
			}
			/* the DP's term: both directions of a whole iteration */
			pt = sb_max(pt, 2 * p->M * one);
			cuts += one;
		}
	}
	block = pt / p->M;
	for (s = 0; s < S; s++) {
		const struct sb_pipeline_stage *st = &p->st[s];
		n = sb_pipeline_stage_gpus(p, s, all);
		delta = sb_max(delta, sb_dapple_allreduce(&c->env, all, n, c->x.params[st->last + 1] -
							  c->x.params[st->first]) - s * block);
	}
	sb_free(all);
	return block * (p->M - 1) + beta * c->ctot / c->speed + cuts + delta;
}

/* Microbatches for a candidate whose widest stage has R GPUs; 0: none. */
static int micro(const struct ctx *c, double Bc, int R)
{
	if (c->pb->M > 0)
		return Bc / c->pb->M >= R - 1e-9 ? c->pb->M : 0;
	return (int)floor(Bc / sb_max(c->mmb, R) + 1e-9);
}

/* Score the candidate of grid g (S stages: layers first..last on local
 * sets) and keep it if it is the best so far and fits. */
static void consider(struct ctx *c, const struct sb_dapple_grid *g, int S, const int *first,
		     const int *last, const uint64_t *set)
{
	struct sb_pipeline_plan p;
	int s, R = 0, M;
	double T;
	for (s = 0; s < S; s++)
		R = __builtin_popcountll(set[s]) > R ? __builtin_popcountll(set[s]) : R;
	M = micro(c, c->batch / g->rp, R);
	if (M < 1)
		return;
	sb_dapple_plan_build(&p, g, S, first, last, set, M, c->batch, c->kappa, "dapple-hpgo",
			     c->sc->name);
	T = analytical(c, &p);
	if ((!c->have || T < c->best_T) && sb_pipeline_plan_validate(&p, c->m, c->t, NULL) == 0 &&
	    sb_dapple_plan_fits(&p, c->m, c->t, c->sc, &c->so)) {
		sb_pipeline_plan_release(&c->best);
		c->best = p;
		c->best_T = T;
		c->have = 1;
		return;
	}
	sb_pipeline_plan_release(&p);
}

/* ------------------------------------------------------------------ */
/* The DP: the slowest stage, per final GPU count                      */
/* ------------------------------------------------------------------ */

/* Keep o in cell `cell` if it is new (by GPU sets) and among the best. */
static void insert(struct ctx *c, int cell, const struct st *o)
{
	sb_dapple_beam_insert(&c->s[(size_t)cell * c->beam], sizeof *o, offsetof(struct st, block),
			      c->beam, &c->cnt[cell], &c->cw[cell], o);
}

/* The best block any completion of a state with m GPUs (and layers left,
 * more) can still improve on: INFINITY while some count has no plan. */
static double bound(struct ctx *c, int m)
{
	int k;
	if (c->dirty) {
		double v = -INFINITY;
		for (k = c->W; k >= 0; k--) {
			if (k >= c->lo && k <= c->hi)
				v = sb_max(v, c->bestm[k]);
			c->sufm[k] = v;
		}
		c->dirty = 0;
	}
	return m <= c->W ? c->sufm[m] : -INFINITY;
}

static void expand(struct ctx *c, int j, int m, int si)
{
	const struct st *s = &c->s[si];
	const struct sb_dapple_grid *g = c->g;
	const struct sb_pipeline_prefix *x = &c->x;
	int ord[3][64], npol = 0, mp, p, q, k, i, rp = g->rp, W = c->W;
	int pbs = c->m->pbs > 0 ? c->m->pbs : 1, nafter = s->nst + 1;
	int kd = nafter < c->M ? nafter : c->M;
	int klo = c->eb ? kd : c->kfix[nafter];
	int khi = c->eb ? (2 * nafter - 1 < c->M ? 2 * nafter - 1 : c->M) : klo;
	uint64_t mask[3] = { 0, 0, 0 };
	double cb = c->Bc / c->speed;
	struct sb_dapple_sum *zs = s->nst > 0 ? c->zs : NULL;

	if (s->block >= bound(c, m + 1))
		return;
	for (k = 0; zs && k < rp; k++)
		sb_dapple_sum_of(&c->env, &zs[k], c->zl + k * 64,
				 sb_dapple_gpus(g, k, s->head, c->zl + k * 64));
	for (p = 1; p <= 4; p <<= 1)
		if (c->policies & p) {
			sb_dapple_order(g, s->used, p, ord[npol]);
			memset(c->gr + npol * rp, 0, sizeof *c->gr * (size_t)rp);
			npol++;
		}
	for (mp = 1; mp <= W - m && mp <= c->mpmax + 1e-9; mp++) {
		/* with M open the microbatch grows to at least the stage's
		 * width: memory at that (still optimistic) size */
		double bs = c->pb->M > 0 ? c->beta : sb_max(c->beta, mp);
		double units = ceil(bs / ((double)mp * pbs) - 1e-9) * pbs, br = bs / mp;
		double act = bs * c->m->layer[j - 1].act, brs = br / c->speed;
		int imem, isure, rem = W - m - mp, i0;
		double cmr = cb / mp, top = bound(c, m + mp);

		for (p = 0; p < npol; p++) {
			int kl = ord[p][mp - 1];
			mask[p] |= (uint64_t)1 << kl;
			for (k = 0; k < rp; k++)
				sb_dapple_sum_add(&c->env, &c->gr[p * rp + k], zs ? &zs[k] : NULL,
						  c->zl + k * 64, g->gpu[k * W + kl]);
		}
		imem = sb_dapple_mem_first(x, j, c->kappa, kd * units, c->t->mem);
		i = sb_dapple_mem_first(x, j, c->kappa, klo * br, c->t->mem);
		imem = imem > i ? imem : i;
		isure = sb_dapple_mem_first(x, j, c->kappa, khi * br, c->t->mem);
		isure = isure > imem ? isure : imem;
		if (imem >= j)
			continue;
		/* the layers before i on rem GPUs: one of their stages takes at
		 * least their compute / rem */
		i0 = rem == 0 ? 0 : j - 1;
		if (i0 > 0) {
			double cut = top * rem / cb;
			int lo = 0, hi = i0;
			while (lo < hi) {
				int mid = (lo + hi + 1) / 2;
				if (x->fwd[mid] + x->bwd[mid] < cut)
					lo = mid;
				else
					hi = mid - 1;
			}
			i0 = lo;
		}
		for (p = 0; p < npol; p++) {
			const struct sb_dapple_sum *gr = c->gr + p * rp;
			double tr = 0, comm = -1;
			int dup = 0;
			for (q = 0; q < p; q++)
				dup |= mask[q] == mask[p];
			if (dup)
				continue;
			/* the cut's activation forward and its gradient back */
			for (k = 0; zs && k < rp; k++)
				tr = sb_max(tr, sb_dapple_sum_transfer(&c->env, 2 * c->Bc *
						c->m->layer[j - 1].act, &gr[k], &zs[k], 1));
			for (i = i0; i >= imem; i--) {
				double comp = cmr * (x->fwd[j] - x->fwd[i] + x->bwd[j] - x->bwd[i]);
				double pre = i > 0 ? cb * (x->fwd[i] + x->bwd[i]) / rem : 0;
				int cell = CELL(c, i, m + mp);
				struct st o;
				if (comp >= top)
					break;      /* every completion is no better */
				o.block = sb_max(s->block, sb_max(comp, tr));
				if (sb_max(o.block, pre) >= (i > 0 ? bound(c, m + mp + 1)
								   : c->bestm[m + mp]))
					continue;
				if (i == 0 && (m + mp < c->lo || m + mp > c->hi))
					continue;   /* a width of another rp */
				if (c->cnt[cell] == c->beam && o.block >= c->cw[cell])
					continue;
				if (i < isure) {
					/* early-backward's cap depends on the ACR */
					int kk;
					if (c->strict)
						continue;
					if (comm < 0 && zs)
						for (k = 0; k < rp; k++) {
							for (q = 0; q < mp; q++)
								c->yl[q] = g->gpu[k * W + ord[p][q]];
							comm = sb_max(comm, c->t->latency + act /
								      sb_pipeline_min_bw(c->t, c->yl, mp,
										       c->zl + k * 64,
										       zs[k].n));
						}
					kk = sb_dapple_inject(nafter, 0, c->M, nafter > 1 ? comm /
							      (brs * (x->fwd[j] - x->fwd[i] + x->bwd[j] -
								      x->bwd[i])) : 0, c->thr);
					if (c->kappa * (x->params[j] - x->params[i]) +
					    kk * br * (x->stash[j] - x->stash[i]) > c->t->mem)
						continue;
				}
				o.used = s->used | mask[p];
				o.head = mask[p];
				o.nst = nafter;
				o.next = si;
				insert(c, cell, &o);
				if (i == 0 && o.block < c->bestm[m + mp]) {
					c->bestm[m + mp] = o.block;
					c->dirty = 1;
					top = bound(c, m + mp);
				}
			}
		}
	}
}

/* The candidates of one DP run: its complete states. */
static void collect(struct ctx *c)
{
	int m, k;
	for (m = c->lo; m <= c->hi; m++)
		for (k = 0; k < c->cnt[CELL(c, 0, m)]; k++) {
			int first[64], last[64], S = 0, si = CELL(c, 0, m) * c->beam + k;
			uint64_t set[64];
			while (si >= 0 && c->s[si].nst > 0) {
				int nx = c->s[si].next;
				SB_ASSERT(S < 64);
				first[S] = (si / c->beam) % (c->N + 1);
				last[S] = (nx / c->beam) % (c->N + 1) - 1;
				set[S++] = c->s[si].head;
				si = nx;
			}
			consider(c, c->g, S, first, last, set);
		}
}

/* The DP for grid c->g, standing for pipeline widths lo..hi. */
static void run(struct ctx *c, int lo, int hi)
{
	int j, m, k, W = c->g->width, N = c->m->n;
	size_t ncell = (size_t)(N + 1) * (W + 1);

	c->W = W;
	c->N = N;
	c->lo = lo;
	c->hi = hi;
	c->Bc = c->batch / c->g->rp;
	/* memory at the smallest microbatch the plan may get: optimistic,
	 * each candidate is checked exactly by consider() */
	c->M = c->pb->M > 0 ? c->pb->M : (int)floor(c->Bc / c->mmb + 1e-9);
	if (c->M < 1)
		return;
	c->beta = c->Bc / c->M;
	c->mpmax = c->pb->M > 0 ? c->beta : c->Bc;
	c->s = SB_NEW(struct st, ncell * c->beam);
	c->cnt = SB_NEW(int, ncell);
	c->cw = SB_NEW(double, ncell);
	c->bestm = SB_NEW(double, W + 2);
	c->sufm = SB_NEW(double, W + 2);
	c->zs = SB_NEW(struct sb_dapple_sum, c->g->rp);
	c->gr = SB_NEW(struct sb_dapple_sum, 3 * c->g->rp);
	c->zl = SB_NEW(int, c->g->rp * 64);
	c->yl = SB_NEW(int, 64);
	c->kfix = SB_NEW(int, W + 2);
	for (k = 1; k <= W + 1 && !c->eb; k++)
		c->kfix[k] = sb_dapple_cap_ahead(c->sc, &c->so, k, c->M, c->g->rp, c->batch);
	for (m = 0; m <= W + 1; m++)
		c->bestm[m] = INFINITY;
	c->dirty = 1;
	c->s[(size_t)CELL(c, N, 0) * c->beam].next = -1;
	c->cnt[CELL(c, N, 0)] = 1;
	for (j = N; j >= 1; j--)
		for (m = 0; m < W; m++)
			for (k = 0; k < c->cnt[CELL(c, j, m)]; k++)
				expand(c, j, m, CELL(c, j, m) * c->beam + k);
	collect(c);
	sb_free(c->s);
	sb_free(c->cnt);
	sb_free(c->cw);
	sb_free(c->bestm);
	sb_free(c->sufm);
	sb_free(c->zs);
	sb_free(c->gr);
	sb_free(c->zl);
	sb_free(c->yl);
	sb_free(c->kfix);
}

/* ------------------------------------------------------------------ */
/* Extra candidates                                                    */
/* ------------------------------------------------------------------ */

/* Two-stage straight pipelines (one GPU per stage) in G/2 copies. */
static void straight_pairs(struct ctx *c)
{
	struct sb_dapple_grid g;
	int k, first[2], last[2], N = c->m->n;
	uint64_t set[2] = { 1, 2 };
	if (c->t->n < 2 || N < 2 || c->t->n / 2 > c->batch)
		return;
	sb_dapple_grid_init(&g, c->t, c->t->n / 2);
	for (k = 0; k + 1 < N; k++) {
		first[0] = 0;
		last[0] = k;
		first[1] = k + 1;
		last[1] = N - 1;
		consider(c, &g, 2, first, last, set);
	}
	sb_dapple_grid_release(&g);
}

/* One straight pipeline over all G GPUs, cut to balance compute (a
 * min-max linear partition). */
static void straight_all(struct ctx *c)
{
	struct sb_dapple_grid g;
	int G = c->t->n, N = c->m->n, s, j, i, *arg, first[64], last[64];
	double *best;
	uint64_t set[64];
	const struct sb_pipeline_prefix *x = &c->x;
	if (G < 2 || G > 64 || N < G)
		return;
	/* best[s][j]: slowest of s+1 stages covering layers 0..j-1 */
	best = SB_NEW(double, (size_t)G * (N + 1));
	arg = SB_NEW(int, (size_t)G * (N + 1));
	for (j = 1; j <= N; j++)
		best[j] = x->fwd[j] + x->bwd[j];
	for (s = 1; s < G; s++)
		for (j = s + 1; j <= N; j++) {
			best[s * (N + 1) + j] = INFINITY;
			for (i = s; i < j; i++) {
				double v = sb_max(best[(s - 1) * (N + 1) + i],
						  x->fwd[j] - x->fwd[i] + x->bwd[j] - x->bwd[i]);
				if (v < best[s * (N + 1) + j]) {
					best[s * (N + 1) + j] = v;
					arg[s * (N + 1) + j] = i;
				}
			}
		}
	for (s = G - 1, j = N; s >= 0; s--) {
		i = s > 0 ? arg[s * (N + 1) + j] : 0;
		first[s] = i;
		last[s] = j - 1;
		set[s] = (uint64_t)1 << s;
		j = i;
	}
	sb_dapple_grid_init(&g, c->t, 1);
	consider(c, &g, G, first, last, set);
	sb_dapple_grid_release(&g);
	sb_free(best);
	sb_free(arg);
}

/* Every two-stage split of the whole cluster: cut after layer k, the
 * first m GPUs to the first stage. */
static void two_stage(struct ctx *c)
{
	struct sb_dapple_grid g;
	int G = c->t->n, N = c->m->n, k, m, first[2], last[2];
	uint64_t set[2];
	if (G < 2 || G > 64 || N < 2)
		return;
	sb_dapple_grid_init(&g, c->t, 1);
	for (k = 0; k + 1 < N; k++)
		for (m = 1; m < G; m++) {
			first[0] = 0;
			last[0] = k;
			first[1] = k + 1;
			last[1] = N - 1;
			set[0] = ((uint64_t)1 << m) - 1;
			set[1] = (G == 64 ? ~(uint64_t)0 : ((uint64_t)1 << G) - 1) & ~set[0];
			consider(c, &g, 2, first, last, set);
		}
	sb_dapple_grid_release(&g);
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	struct ctx c;
	int G, i;

	memset(out, 0, sizeof *out);
	if (!pb->model || !pb->topo || pb->model->n < 1 || pb->topo->n < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "dapple-hpgo: empty model or topology");
	if (!(pb->batch >= 1) || pb->M < 0)
		return sb_err_set(err, SB_EXIT_INPUT, "dapple-hpgo: batch %g or M %d out of range",
				  pb->batch, pb->M);
	memset(&c, 0, sizeof c);
	c.pb = pb;
	c.m = pb->model;
	c.t = pb->topo;
	c.sc = pb->sched ? pb->sched : sb_pipeline_schedule_find("early-backward");
	SB_ASSERT(c.sc);
	sb_opts_defaults(&c.so, c.sc->params);
	c.eb = !strcmp(c.sc->name, "early-backward");
	c.thr = sb_opts_get_or(&c.so, "acr_threshold", 0.5);
	c.strict = sb_opts_get_or(&c.so, "strict", 0) > 0;
	c.batch = pb->batch;
	c.kappa = pb->kappa > 0 ? pb->kappa : 2;
	c.speed = c.t->speed > 0 ? c.t->speed : 1;
	c.beam = (int)sb_opts_get(o, "beam");
	c.policies = (int)sb_opts_get(o, "policies");
	c.mmb = sb_opts_get(o, "min_micro_batch");
	if (c.mmb <= 0)
		c.mmb = c.m->pbs > 0 ? c.m->pbs : 1;
	sb_dapple_env_init(&c.env, c.t, sb_opts_get(o, "p2p_ratio"), 0);
	sb_pipeline_prefix_init(&c.x, c.m);
	c.ctot = c.x.fwd[c.m->n] + c.x.bwd[c.m->n];

	/* widths 2..G (1 on a single GPU); one DP per number of copies */
	G = c.t->n;
	for (i = G < 2 ? 1 : 2; i <= G;) {
		int rp = G / i, hi = G / rp;
		struct sb_dapple_grid g;
		double Bc = c.batch / rp;
		if (hi <= 64 && Bc >= 1 && (rp == 1 || fabs(Bc - floor(Bc + 0.5)) < 1e-9)) {
			sb_dapple_grid_init(&g, c.t, rp);
			c.g = &g;
			run(&c, i, hi);
			sb_dapple_grid_release(&g);
		}
		i = hi + 1;
	}
	straight_pairs(&c);
	straight_all(&c);
	two_stage(&c);
	sb_pipeline_prefix_release(&c.x);
	sb_dapple_env_release(&c.env);
	if (!c.have)
		return sb_err_set(err, SB_EXIT_RUN, "dapple-hpgo: no plan of model %s fits %s "
				  "(%.3g bytes per GPU, batch %g)", c.m->name, c.t->name, c.t->mem,
				  c.batch);
	*out = c.best;
	return 0;
}

const struct sb_pipeline_planner sb_pipeline_planner_dapple_hpgo = {
	.name = "dapple-hpgo",
	.cite = "Fan et al., DAPPLE: a pipelined data parallel approach for training large "
		"models, PPoPP 2021 (planner as released, HPGO)",
	.desc = "min-max stage DP per pipeline width with Fresh/Append/Scatter First, straight and "
		"two-stage candidates, scored by DAPPLE's analytical speed-up",
	.provenance = "public code, described",
	.params = params,
	.schedule = "early-backward",
	.plan = plan,
};
