/*
 * dapple.c - the DAPPLE planner as described for the paper: pipeline
 * stages replicated over GPU sets (split-concat), chosen by DAPPLE's
 * latency model, with whole-pipeline replication on top.
 *
 * S. Fan et al., "DAPPLE: a pipelined data parallel approach for training
 * large models", PPoPP 2021 (spec dapple.md §2, §3.1).
 *
 * Algorithm: for each outer replication factor rp in {i, K/i : i <= ceil
 * (sqrt K)} (K GPUs; copies of width K/rp), a DP over states (layers,
 * GPUs used, GPU set) whose value is DAPPLE's latency L = T_w + T_s + T_e
 * of the partial pipeline (dapple_model.h). A transition adds one stage
 * on m' free GPUs chosen by a placement policy (Fresh / Append / Scatter
 * First), recomputes the pivot from the partial pipeline's pivot and the
 * new slots (the stage and its transfer) in O(1), and drops stages that do
 * not fit in memory. The answer is the smallest L over the states covering
 * every layer and over rp. With M left open (problem M = 0), the
 * microbatch is the largest power of two that fits (dapple.md §2
 * "Memory"), no smaller than min_micro_batch.
 *
 * Verified vs reconstructed: the state, the transition, the three
 * placement policies, rp with its transpose, pruning by memory and by the
 * all-machine bound come from the co-author's slides [V, slides] and a
 * reading note [3P]; the latency model is [3P] (pivot index unverified:
 * parameter pivot_index). Ours [O]:
 *   - the DP runs from the last layer backwards (a state is a suffix of
 *     the model): the in-flight count S - s of a new stage, and so its
 *     memory, is then known when the stage is added; the pivot scan,
 *     which runs from the last slot to the first, continues from the
 *     suffix's pivot, so recomputing it stays O(1);
 *   - a state is one GPU set; `beam` sets are kept per (layers, GPU count)
 *     cell, so the search is polynomial (the paper's exact DP over sets is
 *     exponential). With pivot_index 0 the pivot is the argmax of V, so
 *     L >= V(Q) >= M (F+B) of every stage and >= the share of the layers
 *     still to place: states that cannot beat the best plan so far are
 *     cut, and rp runs from the most copies (cheap) to one copy (widest)
 *     so that the wide DPs start with a good bound. pivot_index 1 has no
 *     such bound and searches without cuts (slower);
 *   - "fits" for the choice of M: some partition into stages and GPU
 *     counts passes the memory checks, whatever the GPU sets (a small DP
 *     over the fewest stages a suffix needs); copies get whole samples;
 *   - memory is checked both by DAPPLE's formula and by the project's
 *     model under the schedule the plan runs under (early-backward by
 *     default, whose cap depends on the stage's ACR), and again exactly
 *     on the final plan, so that every plan fits in pipesim;
 *   - copies are consecutive blocks of GPUs in (server, id) order, all
 *     mirroring copy 0's placement; "Gaps First" (stubbed out in the
 *     authors' code) is not offered.
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
	{ "pivot_index", 0, 0, 1, 1,
	  "pivot test sums slots up to Q (0) or up to Q-1 (1, the reading note's form)" },
	{ "p2p_ratio", 1.0 / 3.0, 0.01, 1, 0,
	  "Ethernet P2P over Ethernet NCCL bandwidth (DAPPLE's code: 1 GB/s over 3 GB/s)" },
	{ "min_micro_batch", 1, 1, 1e9, 0,
	  "smallest microbatch in samples when the planner chooses M" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* A partial pipeline: stages covering layers j..N-1 (j: its cell), with
 * DAPPLE's latency kept up to date stage by stage. */
struct st {
	uint64_t used, head;  /* GPUs used; those of the first stage */
	struct sb_dapple_suffix lat;
	int next;             /* the suffix after the first stage, -1: none */
};

struct ctx {
	const struct sb_pmodel *m;
	const struct sb_topo *t;
	struct sb_dapple_env env;
	struct sb_pipeline_prefix x;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;    /* the schedule's default options */
	int eb, strict;       /* sc is early-backward (caps by ACR), its strict mode */
	double thr;           /* its ACR threshold */
	double batch, kappa, speed;
	int beam, policies;
	int bounds;           /* prune by L >= max_s V(s): only true when the
				 pivot is the argmax (pivot_index 0) */
	/* per DP run */
	const struct sb_dapple_grid *g;
	int M, W, N;
	double beta;
	int *kfix;            /* caps of a schedule other than early-backward,
				 per number of stages from a stage to the end */
	struct st *s;         /* (N+1) x (W+1) x beam */
	int *cnt;
	double *cw;
	struct sb_dapple_sum *zs;   /* the suffix's first stage, per copy */
	struct sb_dapple_sum *gr;   /* the new stage, per policy and copy */
	int *zl, *yl;         /* GPU lists: rp x 64, 64 */
	/* the best plan so far */
	struct sb_pipeline_plan best;
	double best_L;
	int have;
};

/* cells by GPU count, then first layer: a stage's candidates (varying its
 * first layer) land in neighbouring cells */
#define CELL(c, j, m) ((m) * ((c)->N + 1) + (j))

/* Keep o in cell `cell` if it is new (by GPU sets) and among the best. */
static void insert(struct ctx *c, int cell, const struct st *o)
{
	sb_dapple_beam_insert(&c->s[(size_t)cell * c->beam], sizeof *o, offsetof(struct st, lat.L),
			      c->beam, &c->cnt[cell], &c->cw[cell], o);
}

static int mem_first(const struct ctx *c, int j, double coef)
{
	return sb_dapple_mem_first(&c->x, j, c->kappa, coef, c->t->mem);
}

/* Expand state si of cell (j, m): every stage that can go in front. */
static void expand(struct ctx *c, int j, int m, int si, double *inc)
{
	const struct st *s = &c->s[si];
	const struct sb_dapple_grid *g = c->g;
	const struct sb_pipeline_prefix *x = &c->x;
	int ord[3][64], npol = 0, mp, p, q, k, i;
	int rp = g->rp, W = c->W, pbs = c->m->pbs > 0 ? c->m->pbs : 1;
	int nafter = s->lat.nst + 1, kd = nafter < c->M ? nafter : c->M;
	uint64_t mask[3] = { 0, 0, 0 };
	double act = c->beta * c->m->layer[j - 1].act, bs = c->beta / c->speed, share;
	struct sb_dapple_sum *zs = s->lat.nst > 0 ? c->zs : NULL;

	/* layers 0..j-1 on at most W - m GPUs: some stage gets a 1/(W-m)
	 * share of them, and all of them come before the suffix */
	share = bs * (x->fwd[j] + x->bwd[j]) / (W - m);
	if (sb_max(s->lat.nst > 0 ? s->lat.V + share : 0, c->M * share) >= *inc)
		return;
	for (k = 0; zs && k < rp; k++)
		sb_dapple_sum_of(&c->env, &zs[k], c->zl + k * 64,
				 sb_dapple_gpus(g, k, s->head, c->zl + k * 64));
	/* every policy is prefix-closed: its stage of mp GPUs is the first mp
	 * of its order, so the sets and their summaries grow with mp */
	for (p = 1; p <= 4; p <<= 1)
		if (c->policies & p) {
			sb_dapple_order(g, s->used, p, ord[npol]);
			memset(c->gr + npol * rp, 0, sizeof *c->gr * (size_t)rp);
			npol++;
		}
	for (mp = 1; mp <= W - m && mp <= c->beta + 1e-9; mp++) {
		/* DAPPLE counts activations in whole profiled batches */
		double units = ceil(c->beta / ((double)mp * pbs) - 1e-9) * pbs, br = c->beta / mp;
		/* memory, found once per stage width: the stage must start at
		 * i >= imem (DAPPLE's formula, and the project's model with the
		 * smallest cap the schedule may give it); from isure on it fits
		 * whatever its ACR (early-backward) */
		int klo = c->eb ? kd : c->kfix[nafter];
		int khi = c->eb ? (2 * nafter - 1 < c->M ? 2 * nafter - 1 : c->M) : klo;
		int imem, isure, rem = W - m - mp, i0;
		/* reciprocals outside the loop: it runs O(N^2 W^2) times */
		double bsr = bs / mp, bsrem = rem > 0 ? bs / rem : 0;

		for (p = 0; p < npol; p++) {
			int kl = ord[p][mp - 1];
			mask[p] |= (uint64_t)1 << kl;
			for (k = 0; k < rp; k++)
				sb_dapple_sum_add(&c->env, &c->gr[p * rp + k], zs ? &zs[k] : NULL,
						  c->zl + k * 64, g->gpu[k * W + kl]);
		}
		imem = mem_first(c, j, kd * units);
		i0 = mem_first(c, j, klo * br);
		imem = imem > i0 ? imem : i0;
		isure = mem_first(c, j, khi * br);
		isure = isure > imem ? isure : imem;
		if (imem >= j)
			continue;
		/* the layers before i need GPUs of their own, and some stage
		 * of theirs lasts M (F+B) >= M bs (their sum) / rem: start at
		 * the largest i that can still win */
		i0 = rem == 0 ? 0 : j - 1;
		if (i0 > 0) {
			double cut = *inc * rem / (c->M * bs);
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
		if (i0 < imem)
			continue;
		for (p = 0; p < npol; p++) {
			const struct sb_dapple_sum *gr = c->gr + p * rp;
			double Fc = 0, Bc = 0, arcoef, eth = INFINITY, comm = -1;
			int dup = 0, one = 1;
			uint64_t y = mask[p];
			for (q = 0; q < p; q++)
				dup |= mask[q] == y;
			if (dup)
				continue;
			for (k = 0; k < rp; k++) {
				eth = sb_min(eth, gr[k].eth);
				one &= gr[k].one && gr[k].srv == gr[0].srv;
				if (!zs)
					continue;
				Fc = sb_max(Fc, sb_dapple_sum_transfer(&c->env, act, &gr[k], &zs[k], 1));
				Bc = sb_max(Bc, sb_dapple_sum_transfer(&c->env, act, &gr[k], &zs[k], 0));
			}
			arcoef = sb_dapple_allreduce_rule(&c->env, 1.0, mp * rp, one, gr[0].srv, eth);
			for (i = i0; i >= imem; i--) {
				double Fn = bsr * (x->fwd[j] - x->fwd[i]);
				double Bn = bsr * (x->bwd[j] - x->bwd[i]);
				double w = x->params[j] - x->params[i];
				double pre = i > 0 ? bsrem * (x->fwd[i] + x->bwd[i]) : 0, lb;
				double xn = Fn + Bn;
				struct st o;
				if (c->M * xn >= *inc)
					break;      /* L >= M (F+B) of every stage */
				int cell = CELL(c, i, m + mp);
				/* V of the pivot (the argmax) with the stage in front,
				 * and L >= V + the stage's all-reduce: cheaper than
				 * prepend(), and most candidates stop here */
				double vq = sb_max(s->lat.V + xn + Fc + Bc,
						   sb_max(xn + c->M * (Fc + Bc), c->M * xn));
				if (vq + pre >= *inc)
					continue;
				if (c->bounds && c->cnt[cell] == c->beam && vq + arcoef * w >= c->cw[cell])
					continue;
				if (i < isure) {
					/* the cap depends on the stage's ACR in pipesim;
					 * strict mode: a later stage may raise it */
					int kk;
					if (c->strict)
						continue;
					if (comm < 0 && zs)
						for (k = 0; k < rp; k++) {
							int *yl = c->yl;
							for (q = 0; q < mp; q++)
								yl[q] = g->gpu[k * W + ord[p][q]];
							comm = sb_max(comm, c->t->latency + act /
								      sb_pipeline_min_bw(c->t, yl, mp,
										       c->zl + k * 64,
										       zs[k].n));
						}
					kk = sb_dapple_inject(nafter, 0, c->M,
							      nafter > 1 ? comm / xn : 0, c->thr);
					if (c->kappa * w + kk * br * (x->stash[j] - x->stash[i]) >
					    c->t->mem)
						continue;
				}
				sb_dapple_suffix_prepend(&s->lat, &o.lat, Fn, Bn, arcoef * w, Fc, Bc, c->M,
							 c->env.pivot_index);
				lb = i > 0 ? o.lat.V + pre : o.lat.L;
				if (lb >= *inc)
					continue;
				o.used = s->used | y;
				o.head = y;
				o.next = si;
				insert(c, cell, &o);
				if (i == 0 && c->bounds)
					*inc = o.lat.L;
			}
		}
	}
}

/* Plan of state si (a complete pipeline). */
static void build(struct ctx *c, int si, struct sb_pipeline_plan *p)
{
	int first[64], last[64], S = 0, k = si;
	uint64_t set[64];
	while (k >= 0 && c->s[k].lat.nst > 0) {
		int cell = k / c->beam, nx = c->s[k].next, ncell = nx / c->beam;
		SB_ASSERT(S < 64);
		first[S] = cell % (c->N + 1);
		last[S] = ncell % (c->N + 1) - 1;
		set[S++] = c->s[k].head;
		k = nx;
	}
	sb_dapple_plan_build(p, c->g, S, first, last, set, c->M, c->batch, c->kappa, "dapple",
			     c->sc->name);
}

/* Caps of a schedule other than early-backward for a stage with k stages
 * from it to the end: the stage seen as stage 0 of a k-stage plan, without
 * costs (as through sb_pipeline_sched_cap). */
static void fixed_caps(struct ctx *c, int M, int W)
{
	int k;
	c->kfix = SB_NEW(int, W + 2);
	for (k = 1; k <= W + 1 && !c->eb; k++)
		c->kfix[k] = sb_dapple_cap_ahead(c->sc, &c->so, k, M, c->g->rp, c->batch);
}

/*
 * Does some partition of the model into stages on c->g's width fit in
 * memory with M microbatches, whatever the GPU sets (early-backward taken
 * at its large-ACR cap)? g(j, m) = fewest stages of a suffix j..N-1 on m
 * GPUs that fits: fewer stages after a stage only lower its in-flight
 * count, so the fewest is the one to extend.
 */
static int partition_fits(struct ctx *c, int M)
{
	const struct sb_pipeline_prefix *x = &c->x;
	int N = c->m->n, W = c->g->width, j, m, mp, i, ok = 0, big = 1 << 30;
	int pbs = c->m->pbs > 0 ? c->m->pbs : 1, *g = SB_NEW(int, (N + 1) * (W + 1));
	double beta = c->batch / ((double)c->g->rp * M);

	fixed_caps(c, M, W);
	for (j = 0; j < (N + 1) * (W + 1); j++)
		g[j] = big;
	g[N * (W + 1)] = 0;
	for (j = N; j >= 1; j--)
		for (m = 0; m < W; m++) {
			int na, kd, kp;
			if (g[j * (W + 1) + m] == big)
				continue;
			na = g[j * (W + 1) + m] + 1;
			kd = na < M ? na : M;
			kp = c->eb ? (2 * na - 1 < M ? 2 * na - 1 : M) : c->kfix[na];
			for (mp = 1; mp <= W - m && mp <= beta + 1e-9; mp++) {
				double units = ceil(beta / ((double)mp * pbs) - 1e-9) * pbs;
				for (i = m + mp == W ? 0 : j - 1; i >= 0; i--) {
					double w = x->params[j] - x->params[i];
					double a = x->stash[j] - x->stash[i];
					int *cell = &g[i * (W + 1) + m + mp];
					if (c->kappa * w + kd * a * units > c->t->mem ||
					    c->kappa * w + kp * beta / mp * a > c->t->mem)
						break;
					if (na < *cell)
						*cell = na;
				}
			}
		}
	for (m = 1; m <= W; m++)
		ok |= g[m] < big;
	sb_free(g);
	sb_free(c->kfix);
	c->kfix = NULL;
	return ok;
}

/* One DP for the grid c->g with M microbatches; it keeps its best plan if
 * it beats c->best (whose L bounds the search). */
static void run(struct ctx *c, int M)
{
	int j, m, k, W = c->g->width, N = c->m->n;
	size_t ncell = (size_t)(N + 1) * (W + 1);
	double inc = c->have && c->bounds ? c->best_L : INFINITY;

	c->M = M;
	c->W = W;
	c->N = N;
	c->beta = c->batch / ((double)c->g->rp * M);
	c->s = SB_NEW(struct st, ncell * c->beam);
	c->cnt = SB_NEW(int, ncell);
	c->cw = SB_NEW(double, ncell);
	c->zs = SB_NEW(struct sb_dapple_sum, c->g->rp);
	c->gr = SB_NEW(struct sb_dapple_sum, 3 * c->g->rp);
	c->zl = SB_NEW(int, c->g->rp * 64);
	c->yl = SB_NEW(int, 64);
	fixed_caps(c, M, W);
	/* the empty suffix */
	c->s[(size_t)CELL(c, N, 0) * c->beam].next = -1;
	c->cnt[CELL(c, N, 0)] = 1;
	for (j = N; j >= 1; j--)
		for (m = 0; m < W; m++)
			for (k = 0; k < c->cnt[CELL(c, j, m)]; k++) {
				int si = CELL(c, j, m) * c->beam + k;
				if (c->s[si].lat.V >= inc)
					continue;
				expand(c, j, m, si, &inc);
			}
	/* complete plans, best first, until one passes the exact check */
	for (;;) {
		int bi = -1;
		struct sb_pipeline_plan p;
		double L;
		for (m = 1; m <= W; m++)
			for (k = 0; k < c->cnt[CELL(c, 0, m)]; k++) {
				int si = CELL(c, 0, m) * c->beam + k;
				if (c->s[si].lat.nst > 0 && (bi < 0 || c->s[si].lat.L < c->s[bi].lat.L))
					bi = si;
			}
		if (bi < 0 || (c->have && c->s[bi].lat.L >= c->best_L))
			break;
		build(c, bi, &p);
		if (sb_pipeline_plan_validate(&p, c->m, c->t, NULL) != 0 ||
		    !sb_dapple_plan_fits(&p, c->m, c->t, c->sc, &c->so)) {
			sb_pipeline_plan_release(&p);
			c->s[bi].lat.nst = 0;     /* rejected: next candidate */
			continue;
		}
		L = sb_dapple_estimate(&c->env, &p, c->m, NULL);
		/* the O(1) recurrence must agree with the model */
		SB_ASSERT(fabs(L - c->s[bi].lat.L) <= 1e-9 * sb_max(1, L));
		sb_pipeline_plan_release(&c->best);
		c->best = p;
		c->best_L = L;
		c->have = 1;
		break;
	}
	sb_free(c->s);
	sb_free(c->cnt);
	sb_free(c->cw);
	sb_free(c->kfix);
	sb_free(c->zs);
	sb_free(c->gr);
	sb_free(c->zl);
	sb_free(c->yl);
	c->s = NULL;
	c->cnt = NULL;
	c->kfix = NULL;
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	struct ctx c;
	int K, i, n = 0, rps[64], a, b;
	double mmb = sb_opts_get(o, "min_micro_batch"), ctot;

	memset(out, 0, sizeof *out);
	if (!pb->model || !pb->topo || pb->model->n < 1 || pb->topo->n < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "dapple: empty model or topology");
	if (!(pb->batch >= 1) || pb->M < 0)
		return sb_err_set(err, SB_EXIT_INPUT, "dapple: batch %g or M %d out of range",
				  pb->batch, pb->M);
	memset(&c, 0, sizeof c);
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
	sb_dapple_env_init(&c.env, c.t, sb_opts_get(o, "p2p_ratio"),
			   (int)sb_opts_get(o, "pivot_index"));
	c.bounds = c.env.pivot_index == 0;
	sb_pipeline_prefix_init(&c.x, c.m);
	ctot = c.x.fwd[c.m->n] + c.x.bwd[c.m->n];

	/* replication factors i and their transposes K / i (copies of at
	 * most 64 GPUs), most copies first: narrow pipelines are cheap to
	 * plan, and their best L bounds the wide ones */
	K = c.t->n;
	for (i = 1; (i - 1) * (i - 1) < K && i <= K; i++) {
		int cand[2] = { i, K / i };
		for (a = 0; a < 2; a++) {
			for (b = 0; b < n && rps[b] != cand[a]; b++)
				;
			if (b == n && n < 64 && K / cand[a] <= 64)
				rps[n++] = cand[a];
		}
	}
	for (a = 1; a < n; a++)
		for (b = a; b > 0 && rps[b] > rps[b - 1]; b--) {
			int tmp = rps[b];
			rps[b] = rps[b - 1];
			rps[b - 1] = tmp;
		}
	for (a = 0; a < n; a++) {
		struct sb_dapple_grid g;
		double Bc = c.batch / rps[a], mb;
		int width = K / rps[a], M = pb->M;
		/* copies get whole samples (rp = 1 takes the batch as given) */
		if (Bc < 1 || (rps[a] > 1 && fabs(Bc - floor(Bc + 0.5)) > 1e-9))
			continue;
		/* every stage computes at least its share of the whole model */
		if (c.bounds && c.have && Bc * ctot / (width * c.speed) >= c.best_L)
			continue;
		sb_dapple_grid_init(&g, c.t, rps[a]);
		c.g = &g;
		if (M > 0) {
			if (Bc >= M)
				run(&c, M);
		} else {
			/* the largest power-of-two microbatch some partition fits;
			 * should the search (sets, beam) find no plan there while
			 * none exists yet, a smaller one */
			for (mb = 1; mb * 2 <= Bc; mb *= 2)
				;
			for (; mb >= mmb; mb /= 2) {
				M = (int)floor(Bc / mb + 1e-9);
				if (!partition_fits(&c, M))
					continue;
				run(&c, M);
				if (c.have)
					break;
			}
		}
		sb_dapple_grid_release(&g);
	}
	sb_pipeline_prefix_release(&c.x);
	sb_dapple_env_release(&c.env);
	if (!c.have)
		return sb_err_set(err, SB_EXIT_RUN, "dapple: no plan of model %s fits %s "
				  "(%.3g bytes per GPU, batch %g)", c.m->name, c.t->name, c.t->mem,
				  c.batch);
	*out = c.best;
	return 0;
}

const struct sb_pipeline_planner sb_pipeline_planner_dapple = {
	.name = "dapple",
	.cite = "Fan et al., DAPPLE: a pipelined data parallel approach for training large "
		"models, PPoPP 2021",
	.desc = "DP over (layers, GPUs, GPU set) with Fresh/Append/Scatter First placement, "
		"DAPPLE's latency model and pivot stage, outer replication up to sqrt(K)",
	.provenance = "reconstruction (ours)",
	.params = params,
	.schedule = "early-backward",
	.plan = plan,
};
