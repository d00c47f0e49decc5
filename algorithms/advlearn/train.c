/*
 * train.c - alternating training of the price network against the
 * adversary network (see train.h). [O: our realisation of advlearn.md §3;
 * the verified ideas are the game and the per-round update.]
 *
 * The price network maps (t/T, c/C, d/D) to a softmax over the M price
 * levels (K = 2: five inputs, (t/T, c_1/C_1, c_2/C_2, d_1/D, d_2/D), and
 * the levels are per-unit bundle prices; the exact per-round DP runs over
 * the (C_1 + 1)(C_2 + 1) capacity states, so K = 2 trains by the same
 * exact update, not by the spec's Monte-Carlo roll-outs, while those
 * states stay few: C = 4..6 per type [O]); the state is Markov, so each parameter step evaluates it once on
 * the whole grid and instances read the resulting table. The per-round
 * update is the exact gradient of OPT/E[ALG]: with V the backward DP and
 * rho the forward reach probabilities, dE[ALG]/dpi(a | t, c) =
 * rho_t(c) Q_t(c, a), so every action of every reachable round gets its
 * gradient and nothing is sampled. The adversary maps (t/T, z), z ~ N(0,
 * I_8) fixed per instance, to a softmax over 16 value levels x D demands
 * and is trained by REINFORCE with a moving-average baseline and an
 * entropy bonus. The hall of fame starts with the staircases, pinned, and
 * takes each best response's worst instance (see hall_seed: sequences the
 * adversary network cannot propose).
 *
 * Family: online (core/online/).
 */
#include "algorithms/advlearn/train.h"
#include "online/ptable.h"
#include "workloads/online/gen.h"
#include "nn.h"

#include <math.h>
#include <string.h>

#define NZ 8          /* adversary noise dimensions */
#define NV 16         /* adversary value levels */
#define HID 32

void sb_advlearn_defaults(struct sb_advlearn_cfg *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->update = SB_ADVLEARN_PERROUND;
	cfg->inputs = SB_ADVLEARN_ADVERSARY;
	cfg->iters = 3000;
	cfg->batch = 64;
	cfg->steps = 5;
	cfg->hall = 256;
	cfg->hall_frac = 0.2;
	cfg->br_every = 100;
	cfg->br_steps = 300;
	cfg->lr = 1e-3;
	cfg->adv_lr = 5e-4;
	cfg->entropy = 0.01;
	cfg->seed_hall = 1;
	cfg->br_feedback = 1;
}

void sb_advlearn_out_release(struct sb_advlearn_out *out)
{
	int i;

	for (i = 0; i < out->nhall; i++)
		sb_online_inst_release(&out->hall[i]);
	sb_free(out->hall);
	sb_free(out->hall_ratio);
	sb_free(out->prob);
	sb_free(out->log);
	memset(out, 0, sizeof *out);
}

/* ------------------------------------------------------ the DP pieces */

/* The price levels at which a buyer of per-unit value v buys: the grid
 * is increasing, so they are the first take_levels(g, v). */
static int take_levels(const struct sb_online_game *g, double v)
{
	int a = 0;

	while (a < g->M && g->price[a] <= v)
		a++;
	return a;
}

/* E[ALG] of table prob on `in`; with G != NULL also adds w dE[ALG]/dpi to
 * G (same layout as prob). V is (T + 1) S scratch, rho likewise; c runs
 * over the capacity states (K = 1: the units left). */
static double table_value(const struct sb_online_game *g, const double *prob,
			  const struct sb_online_inst *in, double *V, double *rho, double *G,
			  double w)
{
	int T = g->T, S = g->S, M = g->M, t, c, a;
	size_t W = (size_t)S;

	memset(V + (size_t)T * W, 0, W * sizeof *V);
	for (t = T - 1; t >= 0; t--) {
		const double *nx = V + (size_t)(t + 1) * W;
		int d = in->d[t], kv = take_levels(g, in->v[t]), off = sb_online_off(g, d);
		double *cur = V + (size_t)t * W, gain = in->v[t] * sb_online_size(g, d);
		for (c = 0; c < S; c++) {
			const double *q = prob + sb_online_ptable_cell(g, t, c, d) * (size_t)M;
			double acc = 0;
			if (!sb_online_fits(g, c, d)) {
				cur[c] = nx[c];
				continue;
			}
			for (a = 0; a < kv; a++)
				acc += q[a];
			cur[c] = acc > 0 ? acc * (gain + nx[c - off]) + (1 - acc) * nx[c] : nx[c];
		}
	}
	if (G) {
		memset(rho, 0, (size_t)(T + 1) * W * sizeof *rho);
		rho[S - 1] = 1;
		for (t = 0; t < T; t++) {
			const double *nx = V + (size_t)(t + 1) * W, *r = rho + (size_t)t * W;
			int d = in->d[t], kv = take_levels(g, in->v[t]), off = sb_online_off(g, d);
			double *rn = rho + (size_t)(t + 1) * W, gain = in->v[t] * sb_online_size(g, d);
			for (c = 0; c < S; c++) {
				size_t x = sb_online_ptable_cell(g, t, c, d) * (size_t)M;
				const double *q = prob + x;
				double acc = 0, wr = w * r[c], qt, qn = nx[c];
				int fits = sb_online_fits(g, c, d), kt = fits ? kv : 0;
				if (r[c] == 0)
					continue;
				/* the buyer takes at the first kt levels (Q = gain +
				 * V(c - d)), not at the others (Q = V(c)) */
				qt = fits ? gain + nx[c - off] : 0;
				for (a = 0; a < kt; a++) {
					G[x + (size_t)a] += wr * qt;
					acc += q[a];
				}
				for (; a < M; a++)
					G[x + (size_t)a] += wr * qn;
				if (fits)
					rn[c - off] += r[c] * acc;
				rn[c] += r[c] * (1 - acc);
			}
		}
	}
	return V[S - 1];
}

double sb_advlearn_table_ratio(void *prob, const struct sb_online_game *g,
			       const struct sb_online_inst *in, double opt)
{
	double *V = SB_NEW(double, (size_t)(g->T + 1) * g->S), e;

	e = table_value(g, prob, in, V, NULL, NULL, 0);
	sb_free(V);
	return opt / e;
}

double sb_advlearn_policy_ratio(void *ctx, const struct sb_online_game *g,
				const struct sb_online_inst *in, double opt)
{
	struct sb_advlearn_pol *q = ctx;
	struct sb_online_table tb;
	double e;

	if (q->rc || (q->rc = sb_online_tabulate(g, in, q->p, &q->o, &tb, &q->err)))
		return 0;
	e = sb_online_expect(g, in, &tb);
	sb_online_table_release(&tb);
	return opt / e;
}

double sb_advlearn_grad(const struct sb_online_game *g, const double *prob,
			const struct sb_online_inst *in, double opt, double *G)
{
	size_t W = (size_t)(g->T + 1) * g->S;
	double *V = SB_NEW(double, W), *rho = SB_NEW(double, W), e;

	e = table_value(g, prob, in, V, rho, NULL, 0);
	table_value(g, prob, in, V, rho, G, -opt / (e * e));
	sb_free(V);
	sb_free(rho);
	return opt / e;
}

/* ------------------------------------------------------------ networks */

static struct sb_nn *mlp(int in, int out, struct sb_rng *r, struct sb_err *err)
{
	int size[4] = { in, HID, HID, out };
	enum sb_nn_act act[3] = { SB_NN_RELU, SB_NN_RELU, SB_NN_LINEAR };
	struct sb_nn *nn = sb_nn_new(3, size, act, err);

	if (nn)
		sb_nn_init(nn, r);
	return nn;
}

/* the price network on the whole grid: prob (cells x M) */
static void policy_table(struct sb_nn *nn, const struct sb_online_game *g, const double *grid,
			 double *prob)
{
	size_t n = sb_online_ptable_cells(g);
	const double *z = sb_nn_forward(nn, grid, (int)n);

	sb_nn_softmax(z, prob, (int)n, g->M, NULL);
}

/* the price network's inputs on the grid: 1 + 2K per cell, (t/T, then
 * c_k/C_k per type, then d_k/D per type); K = 1: (t/T, c/C, d/D) */
static double *make_grid(const struct sb_online_game *g)
{
	int nin = 1 + 2 * g->K, t, c, d, k;
	double *x = SB_NEW(double, sb_online_ptable_cells(g) * (size_t)nin);

	for (t = 0; t < g->T; t++)
		for (c = 0; c < g->S; c++)
			for (d = 1; d <= g->ND; d++) {
				double *r = x + (size_t)nin * sb_online_ptable_cell(g, t, c, d);
				r[0] = (double)t / g->T;
				for (k = 0; k < g->K; k++) {
					r[1 + k] = (double)sb_online_left(g, c, k) / g->Ck[k];
					r[1 + g->K + k] = (double)sb_online_dem(g, d, k) / g->D;
				}
			}
	return x;
}

/* The adversary: one net, its optimiser and the last batch it sampled. */
struct adv {
	struct sb_nn *nn;
	struct sb_nn_opt opt;
	int B, T, K;
	double *x;      /* B T x (1 + NZ) inputs */
	double *p;      /* B T x K probabilities */
	int *type;      /* B T sampled types */
	double *dz, *dp;  /* adv_update's scratch: B T x K and K */
	double base;    /* moving-average baseline of the ratio */
	int based;
};

static int adv_init(struct adv *a, const struct sb_online_game *g, int B, double lr,
		    struct sb_rng *r, struct sb_err *err)
{
	memset(a, 0, sizeof *a);
	a->B = B;
	a->T = g->T;
	a->K = NV * g->ND;   /* value level x demand code */
	if (!(a->nn = mlp(1 + NZ, a->K, r, err)))
		return err->code;
	if (sb_nn_adam_init(&a->opt, a->nn->nparams, lr))
		return sb_err_set(err, SB_EXIT_RUN, "adversary: out of memory");
	a->x = SB_NEW(double, (size_t)B * g->T * (1 + NZ));
	a->p = SB_NEW(double, (size_t)B * g->T * a->K);
	a->type = SB_NEW(int, (size_t)B * g->T);
	a->dz = SB_NEW(double, (size_t)B * g->T * a->K);
	a->dp = SB_NEW(double, a->K);
	return 0;
}

static void adv_release(struct adv *a)
{
	sb_nn_free(a->nn);
	sb_nn_opt_release(&a->opt);
	sb_free(a->x);
	sb_free(a->p);
	sb_free(a->type);
	sb_free(a->dz);
	sb_free(a->dp);
}

/* Sample B instances round by round into in[0..B) (allocated here). */
static void adv_sample(struct adv *a, const struct sb_online_game *g, struct sb_online_inst *in,
		       struct sb_rng *r)
{
	int b, t, k, n = a->B * a->T;
	const double *z;

	for (b = 0; b < a->B; b++) {
		double noise[NZ];
		for (k = 0; k < NZ; k++)
			noise[k] = sb_rng_normal(r, 0, 1);
		for (t = 0; t < a->T; t++) {
			double *x = a->x + ((size_t)b * a->T + t) * (1 + NZ);
			x[0] = (double)t / a->T;
			memcpy(x + 1, noise, sizeof noise);
		}
	}
	z = sb_nn_forward(a->nn, a->x, n);
	sb_nn_softmax(z, a->p, n, a->K, NULL);
	for (b = 0; b < a->B; b++) {
		sb_online_inst_alloc(&in[b], g->T);
		for (t = 0; t < a->T; t++) {
			size_t row = (size_t)b * a->T + t;
			const double *p = a->p + row * a->K;
			double u = sb_rng_uniform(r), s = 0;
			for (k = 0; k < a->K - 1; k++) {
				s += p[k];
				if (u < s)
					break;
			}
			a->type[row] = k;
			in[b].v[t] = sb_online_level(g->L, g->U, NV, k % NV);
			in[b].d[t] = 1 + k / NV;
		}
	}
}

/* The score of a ratio: an instance on which the policy sells nothing
 * has OPT/E[ALG] = inf (e.g. zlw's K = 2 bundle prices above every value),
 * and inf - baseline is NaN; such an instance scores ADV_INF_SCORE. */
#define ADV_INF_SCORE 1e6
static double score(double r)
{
	return isinf(r) ? ADV_INF_SCORE : r;
}

/* One REINFORCE step towards larger ratios R[0..B) of the last sample. */
static void adv_update(struct adv *a, const double *R, double entropy)
{
	int b, t, k, n = a->B * a->T;
	double mean = 0, *dz = a->dz, *dp = a->dp;

	for (b = 0; b < a->B; b++)
		mean += score(R[b]) / a->B;
	if (!a->based) {
		a->base = mean;
		a->based = 1;
	}
	for (b = 0; b < a->B; b++)
		for (t = 0; t < a->T; t++) {
			size_t row = (size_t)b * a->T + t;
			const double *p = a->p + row * a->K;
			double *g = dz + row * a->K, adv = score(R[b]) - a->base;
			/* entropy bonus: d(-H)/dp_k = log p_k + 1, through the softmax */
			for (k = 0; k < a->K; k++)
				dp[k] = entropy * (log(p[k] > 1e-300 ? p[k] : 1e-300) + 1) / n;
			sb_nn_softmax_backward(p, dp, g, 1, a->K);
			/* maximise R: descend on -(R - b) log p(type) */
			for (k = 0; k < a->K; k++)
				g[k] -= adv * ((k == a->type[row]) - p[k]) / a->B;
		}
	a->base = 0.9 * a->base + 0.1 * mean;
	/* the last forward pass was this batch's: backward uses its activations */
	sb_nn_zero_grad(a->nn);
	sb_nn_backward(a->nn, dz, NULL);
	sb_nn_clip_grad(a->nn, 5);
	sb_nn_opt_step(&a->opt, a->nn->w, a->nn->g);
}

static void release_batch(struct sb_online_inst *in, int n)
{
	int i;

	for (i = 0; i < n; i++)
		sb_online_inst_release(&in[i]);
}

static void copy_inst(struct sb_online_inst *dst, const struct sb_online_inst *src)
{
	sb_online_inst_release(dst);
	sb_online_inst_alloc(dst, src->T);
	memcpy(dst->d, src->d, (size_t)src->T * sizeof *dst->d);
	memcpy(dst->v, src->v, (size_t)src->T * sizeof *dst->v);
}

double sb_advlearn_best_response(const struct sb_online_game *g, sb_advlearn_ratio_fn ratio,
				 void *ctx, int steps, int batch, double lr, double entropy,
				 uint64_t seed, uint64_t point, uint64_t rep, double *last,
				 struct sb_online_inst *worst)
{
	struct sb_rng init = sb_rng_stream(seed, point, rep, SB_RNG_NOISE);
	struct sb_rng r = sb_rng_stream(seed, point, rep, SB_RNG_INSTANCE);
	struct sb_online_inst *in = SB_NEW(struct sb_online_inst, batch);
	double *R = SB_NEW(double, batch), best = 0;
	struct sb_err err = { 0, "" };
	struct adv a;
	int s, b;

	if (adv_init(&a, g, batch, lr, &init, &err))
		sb_die(SB_EXIT_RUN, "best response: %s", err.msg);
	*last = 0;
	for (s = 0; s < steps; s++) {
		adv_sample(&a, g, in, &r);
		for (b = 0; b < batch; b++) {
			R[b] = ratio(ctx, g, &in[b], sb_online_opt(g, &in[b], NULL));
			if (R[b] > best) {
				best = R[b];
				if (worst)
					copy_inst(worst, &in[b]);
			}
		}
		if (s == steps - 1)
			for (b = 0; b < batch; b++)
				*last += R[b] / batch;
		adv_update(&a, R, entropy);
		release_batch(in, batch);
	}
	adv_release(&a);
	sb_free(in);
	sb_free(R);
	return best;
}

/* ------------------------------------------------------------ training */

/* Hall of fame: the worst instances seen, replacing the mildest member;
 * the first `pinned` members (the seeds) are never replaced. */
struct hall {
	int n, cap, pinned;
	struct sb_online_inst *in;
	double *ratio;
};

static void hall_offer(struct hall *h, const struct sb_online_inst *in, double q)
{
	int i, lo = h->pinned;

	if (h->n < h->cap) {
		copy_inst(&h->in[h->n], in);
		h->ratio[h->n++] = q;
		return;
	}
	if (lo >= h->n)
		return;
	for (i = lo + 1; i < h->n; i++)
		if (h->ratio[i] < h->ratio[lo])
			lo = i;
	if (q > h->ratio[lo]) {
		copy_inst(&h->in[lo], in);
		h->ratio[lo] = q;
	}
}

static double zcl_ratio(const struct sb_online_game *g, const struct sb_online_inst *in,
			double opt, struct sb_err *err, int *rc)
{
	const struct sb_online_policy *p = sb_online_policy_find("zcl");
	struct sb_opts o;
	struct sb_online_table tb;
	char why[256];
	double e;

	sb_opts_defaults(&o, p->params);
	if ((*rc = sb_online_tabulate(g, in, p, &o, &tb, err)))
		return 0;
	e = sb_online_expect(g, in, &tb);
	if (sb_online_check_expect(g, in, &tb, e, why, sizeof why))
		*rc = sb_err_set(err, SB_EXIT_RUN, "zcl: checker rejects E[ALG]: %s", why);
	sb_online_table_release(&tb);
	return opt / e;
}

/* Sample one episode of the table policy; add the REINFORCE gradient of
 * -w (W/OPT - base) log pi(a_t | s_t) to G (as dL/dpi). Returns W/OPT. */
static double reinforce_episode(const struct sb_online_game *g, const double *prob,
				const struct sb_online_inst *in, double opt, double base, double w,
				double *G, struct sb_rng *r, int *cellv, int *actv)
{
	int t, c = g->S - 1, a, M = g->M;
	double W = 0, adv;

	for (t = 0; t < g->T; t++) {
		size_t x = sb_online_ptable_cell(g, t, c, in->d[t]) * (size_t)M;
		double u = sb_rng_uniform(r), s = 0;
		for (a = 0; a < M - 1; a++) {
			s += prob[x + (size_t)a];
			if (u < s)
				break;
		}
		cellv[t] = (int)x;
		actv[t] = a;
		if (sb_online_fits(g, c, in->d[t]) && in->v[t] >= g->price[a]) {
			c -= sb_online_off(g, in->d[t]);
			W += in->v[t] * sb_online_size(g, in->d[t]);
		}
	}
	adv = W / opt - base;
	/* dL/dpi_a = -w adv / pi_a at the sampled action: through the softmax
	 * this is -w adv (onehot - pi), the score function */
	for (t = 0; t < g->T; t++)
		G[(size_t)cellv[t] + (size_t)actv[t]] -= w * adv / prob[(size_t)cellv[t] +
								(size_t)actv[t]];
	return W / opt;
}

/*
 * Seed the hall of fame with the staircases (every demand and truncation),
 * pinned. The adversary network draws each round independently from its
 * softmax, so a sequence such as "every buyer at L" (the staircase cut
 * after its first level) has probability about 16^-T under its initial
 * distribution and is never proposed; a price table that never sees it is
 * never trained on the states it visits, and can put no mass on L there
 * (the 2,300x ratios of ol-4 before this). Their ratios are taken under
 * the initial policy, for the record only: pinned members stay.
 */
static void hall_seed(struct hall *h, const struct sb_online_game *g, struct sb_nn *pn,
		      const double *grid, double *prob, double *V,
		      const struct sb_advlearn_cfg *cfg)
{
	struct sb_online_inst *st;
	char (*kind)[SB_ONLINE_KIND_LEN];
	int n = sb_online_gen_evalset(g, cfg->seed, cfg->point, 0, 0, &st, &kind), k;

	policy_table(pn, g, grid, prob);
	/* at most half the hall, so that it still learns */
	for (k = 0; k < n && h->n < h->cap / 2; k++) {
		double opt = sb_online_opt(g, &st[k], NULL);
		hall_offer(h, &st[k], opt / table_value(g, prob, &st[k], V, NULL, NULL, 0));
	}
	h->pinned = h->n;
	for (k = 0; k < n; k++)
		sb_online_inst_release(&st[k]);
	sb_free(st);
	sb_free(kind);
}

int sb_advlearn_train(const struct sb_online_game *g, const struct sb_advlearn_cfg *cfg,
		      struct sb_advlearn_out *out, struct sb_err *err)
{
	size_t ncell = sb_online_ptable_cells(g), np = ncell * (size_t)g->M;
	struct sb_rng init = sb_rng_stream(cfg->seed, cfg->point, 0, SB_RNG_POLICY);
	struct sb_rng r = sb_rng_stream(cfg->seed, cfg->point, 0, SB_RNG_INSTANCE);
	struct sb_rng act = sb_rng_stream(cfg->seed, cfg->point, 1, SB_RNG_POLICY);
	int B = cfg->batch, nadv, it, s, b, rc = 0, nlogcap;
	double *grid = make_grid(g), *prob = SB_NEW(double, np), *G = SB_NEW(double, np);
	double *dz = SB_NEW(double, np);
	double *V = SB_NEW(double, (size_t)(g->T + 1) * g->S);
	double *rho = SB_NEW(double, (size_t)(g->T + 1) * g->S);
	double *opt = SB_NEW(double, B), *R = SB_NEW(double, B), rbase = 0;
	int *cellv = SB_NEW(int, g->T), *actv = SB_NEW(int, g->T), rbased = 0;
	struct sb_online_inst *in = SB_NEW(struct sb_online_inst, B);
	struct hall h = { 0, cfg->hall, 0, SB_NEW(struct sb_online_inst, cfg->hall),
			  SB_NEW(double, cfg->hall) };
	struct sb_online_inst brw = { 0 };
	struct sb_nn *pn = NULL;
	struct sb_nn_opt popt = { 0 };
	struct adv a = { 0 };

	memset(out, 0, sizeof *out);
	nadv = cfg->inputs == SB_ADVLEARN_ADVERSARY ? B - (int)(cfg->hall_frac * B) : B;
	nlogcap = cfg->br_every > 0 ? cfg->iters / cfg->br_every + 2 : 1;
	out->log = SB_NEW(struct sb_advlearn_log, nlogcap);
	if (!(pn = mlp(1 + 2 * g->K, g->M, &init, err))) {
		rc = err->code;
		goto out;
	}
	if (sb_nn_adam_init(&popt, pn->nparams, cfg->lr)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "advlearn: out of memory");
		goto out;
	}
	if ((rc = adv_init(&a, g, nadv, cfg->adv_lr, &init, err)))
		goto out;
	if (cfg->inputs == SB_ADVLEARN_ADVERSARY && cfg->seed_hall)
		hall_seed(&h, g, pn, grid, prob, V, cfg);
	for (it = 0; it <= cfg->iters; it++) {
		int nb, final = it == cfg->iters;
		double game = 0;
		/* the batch: the adversary's samples (or random inputs), then the
		 * hall of fame's members drawn uniformly */
		if (cfg->inputs == SB_ADVLEARN_ADVERSARY) {
			adv_sample(&a, g, in, &r);
			nb = nadv;
			for (b = nadv; b < B && h.n > 0; b++, nb++)
				copy_inst(&in[b], &h.in[sb_rng_below(&r, (uint32_t)h.n)]);
		} else {
			for (b = 0; b < B; b++)
				sb_online_gen_random(g, &in[b], 1, &r);
			nb = B;
		}
		for (b = 0; b < nb; b++)
			opt[b] = sb_online_opt(g, &in[b], NULL);
		for (s = 0; s < (final ? 1 : cfg->steps); s++) {
			policy_table(pn, g, grid, prob);
			memset(G, 0, np * sizeof *G);
			for (b = 0; b < nb; b++) {
				double e = table_value(g, prob, &in[b], V, rho, NULL, 0);
				if (s == 0)
					R[b] = opt[b] / e;
				if (final)
					continue;
				if (cfg->update == SB_ADVLEARN_PERROUND) {
					/* d(OPT/E)/dpi = -OPT/E^2 dE/dpi */
					table_value(g, prob, &in[b], V, rho, G, -opt[b] / (e * e) / nb);
				} else {
					double q = reinforce_episode(g, prob, &in[b], opt[b], rbase,
								     1.0 / nb, G, &act, cellv, actv);
					rbase = rbased ? 0.99 * rbase + 0.01 * q : q;
					rbased = 1;
				}
			}
			if (final)
				break;
			sb_nn_softmax_backward(prob, G, dz, (int)ncell, g->M);
			sb_nn_zero_grad(pn);
			/* the grid's forward pass is the last one the net saw */
			sb_nn_backward(pn, dz, NULL);
			sb_nn_clip_grad(pn, 1);
			sb_nn_opt_step(&popt, pn->w, pn->g);
		}
		for (b = 0; b < nadv && b < nb; b++)
			game += R[b] / (cfg->inputs == SB_ADVLEARN_ADVERSARY ? nadv : nb);
		if (cfg->inputs == SB_ADVLEARN_ADVERSARY) {
			for (b = 0; b < nadv; b++)
				hall_offer(&h, &in[b], R[b]);
			if (!final)
				adv_update(&a, R, cfg->entropy);
		}
		if (cfg->br_every > 0 && (it % cfg->br_every == 0 || final)) {
			struct sb_advlearn_log *l = &out->log[out->nlog++];
			double zsum = 0;
			policy_table(pn, g, grid, prob);
			l->iter = it;
			l->game = game;
			l->br_max = sb_advlearn_best_response(g, sb_advlearn_table_ratio, prob,
							      cfg->br_steps, 64, cfg->adv_lr * 10,
							      cfg->entropy, cfg->seed, cfg->point,
							      (uint64_t)it + 2, &l->br, &brw);
			if (cfg->inputs == SB_ADVLEARN_ADVERSARY && cfg->br_feedback) {
				/* the hall's ratios were measured against older
				 * policies: re-score them before the best response's
				 * worst instance competes for a place */
				for (b = 0; b < h.n; b++)
					h.ratio[b] = sb_advlearn_table_ratio(
						prob, g, &h.in[b], sb_online_opt(g, &h.in[b], NULL));
				if (brw.T)
					hall_offer(&h, &brw, l->br_max);
			}
			for (b = 0; b < nadv && b < nb && !rc; b++)
				zsum += zcl_ratio(g, &in[b], opt[b], err, &rc);
			if (rc)
				goto out;
			l->zcl = zsum / (nadv < nb ? nadv : nb);
		}
		release_batch(in, B);
	}
	policy_table(pn, g, grid, prob);
	out->prob = prob;
	prob = NULL;
	out->nhall = h.n;
	out->hall = h.in;
	out->hall_ratio = h.ratio;
	for (b = 0; b < h.n; b++)
		h.ratio[b] = sb_advlearn_table_ratio(out->prob, g, &h.in[b],
						     sb_online_opt(g, &h.in[b], NULL));
	h.in = NULL;
	h.ratio = NULL;
	h.n = 0;
out:
	sb_online_inst_release(&brw);
	if (rc)
		release_batch(in, B);
	for (b = 0; b < h.n; b++)
		sb_online_inst_release(&h.in[b]);
	sb_free(h.in);
	sb_free(h.ratio);
	if (a.nn)
		adv_release(&a);
	sb_nn_free(pn);
	sb_nn_opt_release(&popt);
	sb_free(grid);
	sb_free(prob);
	sb_free(G);
	sb_free(dz);
	sb_free(V);
	sb_free(rho);
	sb_free(opt);
	sb_free(R);
	sb_free(cellv);
	sb_free(actv);
	sb_free(in);
	if (rc)
		sb_advlearn_out_release(out);
	return rc;
}
