/*
 * interf_pred.c - the learned interference predictor S^ (spec marl.md
 * §3.8). Verified [V, abstract]: a learned interference model predicts
 * slowdowns of co-locations for which no measurement exists. The network,
 * features, sampling and training are [O], our design: an MLP 27 -> 64 ->
 * 32 -> 1 (ReLU) on core/nn.h predicting log S, trained with MSE and Adam
 * on co-location states sampled from the ground truth of interf.c (the
 * stand-in for testbed profiling), single-threaded from one seeded stream,
 * so the same seed gives the same weights bit for bit.
 */
#include "cluster/interf.h"
#include "nn.h"
#include "rng.h"

#include <math.h>
#include <string.h>

struct sb_interf_pred {
	struct sb_nn *nn;
	int nho;
	double *ho_true, *ho_pred;
};

void sb_interf_pred_defaults(struct sb_interf_pred_params *p)
{
	p->nsamples = 5000;
	p->nheld = 1000;
	p->epochs = 60;
	p->batch = 64;
	p->lr = 1e-3;
	p->seed = 1;
}

void sb_interf_features(const struct sb_interf *m, const struct sb_interf_job *jobs, int n,
			int j, double *feat)
{
	const struct sb_cluster_tree *t = m->topo;
	const struct sb_interf_job *me = &jobs[j];
	int k, a, d, x, spread = sb_cluster_tree_spread(t, me->gpus, me->w);
	int *occ = SB_NEW(int, t->ngpu), *best = SB_NEW(int, n > 0 ? n : 1);

	memset(feat, 0, sizeof(double) * SB_INTERF_NFEAT);
	if (me->type < 8)
		feat[me->type] = 1;
	feat[8] = me->w / 8.0;
	if (spread >= 1)
		feat[9 + spread - 1] = 1;
	/* co-runners through the servers j uses (who sits on which GPU),
	 * each at its closest level; then summed in job order */
	for (k = 0; k < n; k++) {
		best[k] = -1;
		for (a = 0; a < jobs[k].w; a++)
			occ[jobs[k].gpus[a]] = k + 1;
	}
	for (a = 0; a < me->w; a++) {
		int srv = me->gpus[a] / t->gpus;
		for (x = srv * t->gpus; x < (srv + 1) * t->gpus; x++) {
			int o = occ[x] - 1, idx;
			if (o < 0 || o == j)
				continue;
			idx = sb_interf_level(t, me->gpus[a], x);
			if (best[o] < 0 || idx < best[o])
				best[o] = idx;
		}
	}
	for (k = 0; k < n; k++) {
		if (best[k] < 0)
			continue;
		for (d = 0; d < SB_INTERF_NRES; d++)
			feat[15 + best[k] * SB_INTERF_NRES + d] += m->type[jobs[k].type].r[d];
		feat[24 + best[k]] += 0.25;
	}
	sb_free(occ);
	sb_free(best);
}

/* One sampled co-location state on an empty cluster: 2..10 jobs of
 * random types and sizes at random feasible anchors, half of the time
 * within one rack (so that co-location is common); returns the index of
 * the target job. ids make the pair noise differ between samples. */
static int sample_state(const struct sb_interf *m, struct sb_rng *r, int sample,
			struct sb_interf_job *jobs, int *gpubuf, int *n)
{
	static const int ws[4] = { 1, 2, 4, 8 };
	static const double mix[4] = { 0.45, 0.25, 0.20, 0.10 };
	const struct sb_cluster_tree *t = m->topo;
	unsigned char *gfree = SB_NEW(unsigned char, t->ngpu);
	unsigned char *mask = SB_NEW(unsigned char, t->nserver);
	int *fs = SB_NEW(int, t->nserver), want = 2 + (int)sb_rng_below(r, 9), k, x, used = 0;
	int rack = sb_rng_bernoulli(r, 0.5) ? (int)sb_rng_below(r, (uint32_t)t->nrack) : -1;

	memset(gfree, 1, (size_t)t->ngpu);
	for (x = 0; x < t->nserver; x++)
		fs[x] = t->gpus;
	*n = 0;
	for (k = 0; k < want; k++) {
		double u = sb_rng_uniform(r), acc = 0;
		int w = 8, c, cnt = 0, pick, s, v;
		for (c = 0; c < 4; c++) {
			acc += mix[c];
			if (u < acc) {
				w = ws[c];
				break;
			}
		}
		if (sb_cluster_tree_anchor_mask(t, fs, w, mask) == 0)
			continue;
		for (s = 0; s < t->nserver; s++)
			cnt += mask[s] && (rack < 0 || t->server_rack[s] == rack);
		if (cnt == 0) {
			rack = -1;
			for (s = 0; s < t->nserver; s++)
				cnt += mask[s];
		}
		pick = (int)sb_rng_below(r, (uint32_t)cnt);
		for (s = 0; s < t->nserver; s++)
			if (mask[s] && (rack < 0 || t->server_rack[s] == rack) && pick-- == 0)
				break;
		if (sb_cluster_tree_fill(t, gfree, s, w, gpubuf + used))
			SB_BUG("interference sample: anchor %d in the mask does not fill", s);
		for (v = 0; v < w; v++) {
			gfree[gpubuf[used + v]] = 0;
			fs[gpubuf[used + v] / t->gpus]--;
		}
		jobs[*n].id = sample * 16 + k;
		jobs[*n].type = (int)sb_rng_below(r, (uint32_t)m->ntype);
		jobs[*n].w = w;
		jobs[*n].gpus = gpubuf + used;
		used += w;
		(*n)++;
	}
	sb_free(gfree);
	sb_free(mask);
	sb_free(fs);
	return *n > 0 ? (int)sb_rng_below(r, (uint32_t)*n) : -1;
}

struct sb_interf_pred *sb_interf_pred_train(const struct sb_interf *m,
					    const struct sb_interf_pred_params *p,
					    double *mape, double *train_mape)
{
	static const int size[4] = { SB_INTERF_NFEAT, 64, 32, 1 };
	static const enum sb_nn_act act[3] = { SB_NN_RELU, SB_NN_RELU, SB_NN_LINEAR };
	struct sb_interf_pred *pr = SB_NEW(struct sb_interf_pred, 1);
	struct sb_rng rs = sb_rng_stream(p->seed, 0, 0, SB_RNG_INSTANCE ^ sb_hash_str("interf-samples"));
	struct sb_rng rw = sb_rng_stream(p->seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str("interf-train"));
	int ns = p->nsamples, nho = p->nheld, ntr = ns - nho, i, e, b, k;
	double *X = SB_NEW(double, (size_t)ns * SB_INTERF_NFEAT), *Y = SB_NEW(double, ns);
	double *xb = SB_NEW(double, (size_t)p->batch * SB_INTERF_NFEAT), *yb = SB_NEW(double, p->batch);
	double *dy = SB_NEW(double, p->batch), err_sum;
	int *perm = SB_NEW(int, ntr > 0 ? ntr : 1);
	struct sb_interf_job jobs[16];
	int gpubuf[16 * 8];
	struct sb_nn_opt opt;
	struct sb_err err;

	SB_ASSERT(ntr > 0 && nho > 0 && p->batch > 0);
	pr->nn = sb_nn_new(3, size, act, &err);
	if (!pr->nn)
		SB_BUG("interference predictor: %s", err.msg);
	sb_nn_init(pr->nn, &rw);
	/* the samples: the target job's features and true log S */
	for (i = 0; i < ns; i++) {
		int n, tj;
		double S[16];
		do
			tj = sample_state(m, &rs, i, jobs, gpubuf, &n);
		while (tj < 0);
		sb_interf_eval(m, jobs, n, S, NULL);
		sb_interf_features(m, jobs, n, tj, X + (size_t)i * SB_INTERF_NFEAT);
		Y[i] = log(S[tj]);
	}
	if (sb_nn_adam_init(&opt, pr->nn->nparams, p->lr))
		SB_BUG("interference predictor: out of memory");
	for (i = 0; i < ntr; i++)
		perm[i] = i;
	for (e = 0; e < p->epochs; e++) {
		sb_rng_shuffle_int(&rw, perm, (size_t)ntr);
		for (b = 0; b < ntr; b += p->batch) {
			int rows = ntr - b < p->batch ? ntr - b : p->batch;
			const double *out;
			for (k = 0; k < rows; k++) {
				memcpy(xb + (size_t)k * SB_INTERF_NFEAT,
				       X + (size_t)perm[b + k] * SB_INTERF_NFEAT,
				       sizeof(double) * SB_INTERF_NFEAT);
				yb[k] = Y[perm[b + k]];
			}
			sb_nn_zero_grad(pr->nn);
			out = sb_nn_forward(pr->nn, xb, rows);
			sb_nn_mse(out, yb, dy, rows, 1);
			sb_nn_backward(pr->nn, dy, NULL);
			sb_nn_opt_step(&opt, pr->nn->w, pr->nn->g);
		}
	}
	sb_nn_opt_release(&opt);
	/* MAPE of S (not log S), train and held out */
	pr->nho = nho;
	pr->ho_true = SB_NEW(double, nho);
	pr->ho_pred = SB_NEW(double, nho);
	err_sum = 0;
	for (i = 0; i < ns; i++) {
		double y = *sb_nn_forward(pr->nn, X + (size_t)i * SB_INTERF_NFEAT, 1);
		double sh = sb_max(1.0, exp(y)), st = exp(Y[i]);
		if (i < ntr) {
			err_sum += fabs(sh - st) / st;
		} else {
			pr->ho_true[i - ntr] = st;
			pr->ho_pred[i - ntr] = sh;
		}
	}
	if (train_mape)
		*train_mape = 100 * err_sum / ntr;
	err_sum = 0;
	for (i = 0; i < nho; i++)
		err_sum += fabs(pr->ho_pred[i] - pr->ho_true[i]) / pr->ho_true[i];
	if (mape)
		*mape = 100 * err_sum / nho;
	sb_free(X);
	sb_free(Y);
	sb_free(xb);
	sb_free(yb);
	sb_free(dy);
	sb_free(perm);
	return pr;
}

void sb_interf_pred_free(struct sb_interf_pred *pr)
{
	if (!pr)
		return;
	sb_nn_free(pr->nn);
	sb_free(pr->ho_true);
	sb_free(pr->ho_pred);
	sb_free(pr);
}

double sb_interf_pred_S(const struct sb_interf_pred *pr, const struct sb_interf *m,
			const struct sb_interf_job *jobs, int n, int j)
{
	double f[SB_INTERF_NFEAT];
	sb_interf_features(m, jobs, n, j, f);
	/* forward() keeps its workspace in the net: logically const here */
	return sb_max(1.0, exp(*sb_nn_forward(((struct sb_interf_pred *)pr)->nn, f, 1)));
}

void sb_interf_pred_heldout(const struct sb_interf_pred *pr, const double **truth,
			    const double **pred, int *n)
{
	*truth = pr->ho_true;
	*pred = pr->ho_pred;
	*n = pr->nho;
}

const double *sb_interf_pred_weights(const struct sb_interf_pred *pr, size_t *n)
{
	*n = pr->nn->nparams;
	return pr->nn->w;
}
