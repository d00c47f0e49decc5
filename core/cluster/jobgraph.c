/*
 * jobgraph.c - a training job's communication graph and its iteration time
 * on a placement (spec asrpt.md §2.2; the formulas are our reconstruction
 * [R]: Megatron-style tensor parallelism, GPipe-style pipelines, ring
 * all-reduce for data parallelism).
 *
 *   compute   T = 6 P (batch x seq) / (g F eps)         transformers
 *               3 FLOPs_fwd batch / (g F eps)            CNNs
 *             times the pipeline bubble (m + p - 1) / m
 *   TP edge   4 L_s m (2 (t-1) / t) b seq h 2 bytes      (ring of t shards)
 *   PP edge   2 m b act / t bytes                        (act: bytes of one
 *                                                         sample's boundary
 *                                                         activation, fp16)
 *   DP edge   (2 (d-1) / d) grad / (p t) bytes           (ring of d replicas)
 *
 * with b = batch / (d m) samples per micro-batch and L_s = L / p layers per
 * stage. Phase model: tau = T + max_PP + max_TP + max_DP where max_X is the
 * slowest edge of type X, an intra-server edge moving at b_in and an
 * inter-server edge at b_out divided by the number of inter-server edges of
 * that phase at the busier of its two servers (the NIC is shared by the
 * flows of one phase). Additive model (option): tau = T + sum over edges of
 * w / B with unshared B, so that minimising tau is exactly a weighted
 * min-cut.
 */
#include "cluster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Building                                                            */
/* ------------------------------------------------------------------ */

struct ebuf {
	int n, cap;
	int *u, *v;
	unsigned char *type;
	double *w;
};

static void eadd(struct ebuf *b, int u, int v, int type, double w)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->u = sb_xrealloc(b->u, sizeof(int) * (size_t)b->cap);
		b->v = sb_xrealloc(b->v, sizeof(int) * (size_t)b->cap);
		b->type = sb_xrealloc(b->type, (size_t)b->cap);
		b->w = sb_xrealloc(b->w, sizeof(double) * (size_t)b->cap);
	}
	b->u[b->n] = u;
	b->v[b->n] = v;
	b->type[b->n] = (unsigned char)type;
	b->w[b->n] = w;
	b->n++;
}

/* A ring over `len` members at[0], at[stride], ...; a ring of two is one
 * edge, of one nothing. */
static void ring(struct ebuf *b, int first, int stride, int len, int type, double w)
{
	int i;
	if (len < 2 || !(w > 0))
		return;
	if (len == 2) {
		eadd(b, first, first + stride, type, w);
		return;
	}
	for (i = 0; i < len; i++)
		eadd(b, first + i * stride, first + ((i + 1) % len) * stride, type, w);
}

void sb_jobgraph_build(struct sb_jobgraph *h, const struct sb_job *j,
		       const struct sb_model *m, const struct sb_cluster *c)
{
	struct ebuf b;
	int d = j->d, t = j->t, p = j->p, mb = j->micro, r, s, k;
	double g = (double)j->gpus, per_micro = (double)j->batch / ((double)d * mb);
	double flops, w_tp = 0, w_pp = 0, w_dp = 0;

	memset(&b, 0, sizeof b);
	memset(h, 0, sizeof *h);
	h->nv = j->gpus;
	if (m->cls == SB_MODEL_TRANSFORMER) {
		flops = 6.0 * m->params * (double)j->batch * m->seq;
		if (t > 1)
			w_tp = 4.0 * ((double)m->layers / p) * mb * (2.0 * (t - 1) / t) *
			       per_micro * m->seq * m->hidden * 2.0;
	} else {
		flops = 3.0 * m->fwd_flops * (double)j->batch;
	}
	h->t_comp = flops / (g * c->gpu_flops * c->mfe) * ((double)(mb + p - 1) / mb);
	/* Tiresias' simulator replays a measured duration whatever the
	 * placement; the communication graph is still built (cut bytes) */
	if (c->replay && j->trace_runtime > 0 && j->iters > 0)
		h->replay_tau = j->trace_runtime / (double)j->iters;
	if (p > 1)
		w_pp = 2.0 * mb * per_micro * m->act_bytes / t;
	if (d > 1)
		w_dp = (2.0 * (d - 1) / d) * m->grad_bytes / ((double)p * t);

	for (r = 0; r < d; r++)
		for (s = 0; s < p; s++) {
			int base = (r * p + s) * t;
			ring(&b, base, 1, t, SB_EDGE_TP, w_tp);
			if (s + 1 < p && w_pp > 0)
				for (k = 0; k < t; k++)
					eadd(&b, base + k, base + t + k, SB_EDGE_PP, w_pp);
		}
	for (s = 0; s < p; s++)
		for (k = 0; k < t; k++)
			ring(&b, s * t + k, p * t, d, SB_EDGE_DP, w_dp);
	h->ne = b.n;
	h->eu = b.u;
	h->ev = b.v;
	h->type = b.type;
	h->w = b.w;
}

void sb_jobgraph_release(struct sb_jobgraph *h)
{
	if (!h)
		return;
	sb_free(h->eu);
	sb_free(h->ev);
	sb_free(h->type);
	sb_free(h->w);
	memset(h, 0, sizeof *h);
}

/* ------------------------------------------------------------------ */
/* Iteration time                                                      */
/* ------------------------------------------------------------------ */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Local index of server s among the sorted distinct servers uniq[0..nu). */
static int local(const int *uniq, int nu, int s)
{
	const int *p = bsearch(&s, uniq, (size_t)nu, sizeof *uniq, cmp_int);
	SB_ASSERT(p != NULL);
	return (int)(p - uniq);
}

double sb_job_iter_time(const struct sb_cluster *c, const struct sb_jobgraph *h,
			const int *server)
{
	int nv = h->nv, nu = 0, e, x, i;
	int small_uniq[64], small_flows[3 * 64];
	int *uniq, *flows;
	double phase[3] = { 0, 0, 0 }, sum = 0, tau;

	if (h->replay_tau > 0)
		return h->replay_tau;
	uniq = nv <= 64 ? small_uniq : SB_NEW(int, nv);
	if (c->additive) {
		for (e = 0; e < h->ne; e++)
			sum += h->w[e] / (server[h->eu[e]] == server[h->ev[e]] ? c->b_in : c->b_out);
		if (uniq != small_uniq)
			sb_free(uniq);
		return h->t_comp + sum;
	}
	for (i = 0; i < nv; i++)
		uniq[i] = server[i];
	qsort(uniq, (size_t)nv, sizeof *uniq, cmp_int);
	for (i = 0; i < nv; i++)
		if (i == 0 || uniq[i] != uniq[nu - 1])
			uniq[nu++] = uniq[i];
	flows = 3 * nu <= 3 * 64 ? small_flows : SB_NEW(int, 3 * nu);
	memset(flows, 0, sizeof(int) * 3 * (size_t)nu);
	for (e = 0; e < h->ne; e++) {
		int su = server[h->eu[e]], sv = server[h->ev[e]];
		if (su == sv)
			continue;
		flows[h->type[e] * nu + local(uniq, nu, su)]++;
		flows[h->type[e] * nu + local(uniq, nu, sv)]++;
	}
	for (e = 0; e < h->ne; e++) {
		int su = server[h->eu[e]], sv = server[h->ev[e]];
		double bw;
		x = h->type[e];
		if (su == sv) {
			bw = c->b_in;
		} else {
			int fu = flows[x * nu + local(uniq, nu, su)];
			int fv = flows[x * nu + local(uniq, nu, sv)];
			bw = c->b_out / (fu > fv ? fu : fv);
		}
		phase[x] = sb_max(phase[x], h->w[e] / bw);
	}
	tau = h->t_comp + phase[SB_EDGE_PP] + phase[SB_EDGE_TP] + phase[SB_EDGE_DP];
	if (uniq != small_uniq)
		sb_free(uniq);
	if (flows != small_flows)
		sb_free(flows);
	return tau;
}

double sb_job_iter_time_lb(const struct sb_cluster *c, const struct sb_jobgraph *h)
{
	double phase[3] = { 0, 0, 0 }, sum = 0;
	int e;
	if (h->replay_tau > 0)
		return h->replay_tau;
	for (e = 0; e < h->ne; e++) {
		phase[h->type[e]] = sb_max(phase[h->type[e]], h->w[e] / c->b_in);
		sum += h->w[e] / c->b_in;
	}
	if (c->additive)
		return h->t_comp + sum;
	return h->t_comp + phase[0] + phase[1] + phase[2];
}

double sb_jobgraph_cut(const struct sb_jobgraph *h, const int *server)
{
	double cut = 0;
	int e;
	for (e = 0; e < h->ne; e++)
		if (server[h->eu[e]] != server[h->ev[e]])
			cut += h->w[e];
	return cut;
}

double sb_job_ref_placement(const struct sb_cluster *c, const struct sb_jobgraph *h,
			    int *server)
{
	int v;
	for (v = 0; v < h->nv; v++)
		server[v] = v / c->gpus;
	return sb_job_iter_time(c, h, server);
}
