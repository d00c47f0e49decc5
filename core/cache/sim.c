/*
 * sim.c - the cache family's trace-driven simulator and time cost model
 * (cache.h): routes every request of a trace to its cache instance, calls
 * the policy's hooks in BGL's per-batch order (all lookups, then the
 * misses admitted in request order [V, code:
 * multi_gpu_tensor_cache_engine.cc]), feeds every event to the
 * independent checker, and prices each batch with the cost model of spec
 * bgl.md §9.5 [O].
 */
#include "cache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Cost model                                                          */
/* ------------------------------------------------------------------ */

const struct sb_param sb_cache_cost_params[] = {
	{ "pcie_gbs", 12, 0.1, 1000, 0, "host to GPU bandwidth, GB/s (PCIe 3.0 x16, effective)" },
	{ "nvlink_gbs", 150, 0.1, 10000, 0, "peer GPU bandwidth, GB/s (V100 NVLink, aggregate)" },
	{ "net_gbs", 12.5, 0.01, 1000, 0, "network per machine, GB/s, shared by its GPUs (100 Gb/s)" },
	{ "rtt_us", 20, 0, 1e6, 0, "round trip per remote RPC, microseconds" },
	{ "edge_ns", 50, 0, 1e6, 0, "sampling cost per sampled edge, ns" },
	{ "meta_ns", -1, -1, 1e6, 0, "cache metadata per request, ns (-1: the policy's default)" },
	{ "gpu_tflops", 14, 0.01, 1e4, 0, "GPU throughput, TFLOP/s" },
	{ "feat_dim", 100, 1, 1e5, 1, "feature dimension (a row is 4 * feat_dim bytes)" },
	{ "hidden", 256, 1, 1e5, 1, "GraphSAGE hidden width" },
	{ "classes", 47, 1, 1e5, 1, "output classes" },
	{ NULL, 0, 0, 0, 0, NULL },
};

void sb_cache_cost_defaults(struct sb_cache_cost *c)
{
	struct sb_opts o;
	sb_opts_defaults(&o, sb_cache_cost_params);
	sb_cache_cost_from_opts(c, &o);
}

void sb_cache_cost_from_opts(struct sb_cache_cost *c, const struct sb_opts *o)
{
	c->pcie_gbs = sb_opts_get(o, "pcie_gbs");
	c->nvlink_gbs = sb_opts_get(o, "nvlink_gbs");
	c->net_gbs = sb_opts_get(o, "net_gbs");
	c->rtt_us = sb_opts_get(o, "rtt_us");
	c->edge_ns = sb_opts_get(o, "edge_ns");
	c->meta_ns = sb_opts_get(o, "meta_ns");
	c->gpu_tflops = sb_opts_get(o, "gpu_tflops");
	c->feat_dim = (int)sb_opts_get(o, "feat_dim");
	c->hidden = (int)sb_opts_get(o, "hidden");
	c->classes = (int)sb_opts_get(o, "classes");
}

/* Per-batch counts the model prices. */
struct bcount {
	int64_t req, hit_local, hit_peer, miss_host, miss_remote;
	uint64_t remote_machines;
};

enum { ST_SAMPLE, ST_FEAT, ST_H2D, ST_COMPUTE, ST_BATCH, NST };

double sb_cache_batch_flops(const struct sb_cache_cost *c, int L, const struct sb_cache_batch *b)
{
	double flops = 0;
	int l;
	for (l = 0; l < L; l++) {
		double din = l == L - 1 ? c->feat_dim : c->hidden;
		double dout = l == 0 ? c->classes : c->hidden;
		flops += 2.0 * (double)b->hop_edges[l] * din +
			 2.0 * (double)b->hop_dst[l] * 2 * din * dout;
	}
	return flops;
}

/* Stage times of one batch, seconds. GraphSAGE FLOPs [O]: layer l (hop l,
 * seeds at hop 0) aggregates hop_edges rows of its input width and
 * applies a [2 d_in x d_out] weight to its hop_dst destination nodes;
 * training is taken as 3x the forward pass. */
static void price(const struct sb_cache_cost *c, double meta_ns, int L, int k,
		  const struct sb_cache_batch *b, const struct bcount *n, double *t)
{
	double row = 4.0 * c->feat_dim, flops = sb_cache_batch_flops(c, L, b);
	t[ST_SAMPLE] = (double)b->sampled_edges * c->edge_ns * 1e-9 +
		       b->remote_sample_msgs * c->rtt_us * 1e-6;
	t[ST_FEAT] = (double)n->req * meta_ns * 1e-9 +
		     (double)n->hit_peer * row / (c->nvlink_gbs * 1e9) +
		     (double)n->miss_remote * row / (c->net_gbs * 1e9 / k) +
		     __builtin_popcountll(n->remote_machines) * c->rtt_us * 1e-6;
	t[ST_H2D] = (double)(n->miss_host + n->miss_remote) * row / (c->pcie_gbs * 1e9);
	t[ST_COMPUTE] = 3 * flops / (c->gpu_tflops * 1e12);
	t[ST_BATCH] = sb_max(sb_max(t[ST_SAMPLE], t[ST_FEAT]), sb_max(t[ST_H2D], t[ST_COMPUTE]));
}

/* ------------------------------------------------------------------ */
/* Routing                                                             */
/* ------------------------------------------------------------------ */

static void group_of(const struct sb_cache_setup *s, int32_t w, int32_t *gb, int32_t *kg)
{
	*gb = w / SB_CACHE_NVLINK_GROUP * SB_CACHE_NVLINK_GROUP;
	*kg = s->k - *gb < SB_CACHE_NVLINK_GROUP ? s->k - *gb : SB_CACHE_NVLINK_GROUP;
}

void sb_cache_route(const struct sb_cache_setup *s, int replicated, int32_t m, int32_t w,
		    int32_t v, int32_t *shard, int32_t *local)
{
	int32_t gb, kg;
	if (replicated) {
		*shard = m * s->k + w;
		*local = v;
		return;
	}
	group_of(s, w, &gb, &kg);
	*shard = m * s->k + gb + v % kg;
	*local = v / kg;
}

void sb_cache_shard_range(const struct sb_cache_setup *s, int replicated, int32_t sh,
			  struct sb_cache_shard *out)
{
	int32_t w = sh % s->k, gb, kg, o;
	memset(out, 0, sizeof *out);
	out->capacity = s->capacity;
	out->g = s->g;
	if (replicated) {
		out->nloc = s->g->n;
		out->stride = 1;
		return;
	}
	group_of(s, w, &gb, &kg);
	o = w - gb;
	out->nloc = (s->g->n - o + kg - 1) / kg;
	out->stride = kg;
	out->base = o;
}

/* ------------------------------------------------------------------ */
/* Replay                                                              */
/* ------------------------------------------------------------------ */

int sb_cache_run(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		 const struct sb_cache_policy *p, const struct sb_opts *o,
		 const struct sb_cache_cost *cost, int check, struct sb_cache_stats *st,
		 struct sb_err *err)
{
	return sb_cache_run_gpus(s, t, p, o, cost, check, st, NULL, err);
}

int sb_cache_run_gpus(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		      const struct sb_cache_policy *p, const struct sb_opts *o,
		      const struct sb_cache_cost *cost, int check, struct sb_cache_stats *st,
		      struct sb_cache_gpu_counts *gpu, struct sb_err *err)
{
	int32_t nsh = s->P * s->k, sh, bi, L = s->smp.nlayers;
	void **ctx = SB_NEW(void *, nsh);
	struct sb_cache_shard *info = SB_NEW(struct sb_cache_shard, nsh);
	uint32_t **pre = NULL;
	struct sb_cache_checker *chk = check ? sb_cache_checker_new(s, p->replicated) : NULL;
	int32_t *miss_v = NULL, *miss_sh = NULL, *miss_loc = NULL;
	int64_t maxb = 0;
	double (*gsum)[NST] = sb_xcalloc((size_t)nsh, sizeof *gsum);
	double meta_ns = cost->meta_ns >= 0 ? cost->meta_ns : p->meta_ns;
	int epochs = 0, cur_epoch = 0, rc = 0;
	char why[512];

	memset(st, 0, sizeof *st);
	if (gpu)
		memset(gpu, 0, (size_t)nsh * sizeof *gpu);
	if (p->presample) {
		struct sb_cache_trace pt;
		if ((rc = sb_cache_trace_build(s, -1, 1, &pt, err)))
			goto out;
		pre = sb_cache_counts(s, &pt, p->replicated);
		sb_cache_trace_release(&pt);
	}
	for (sh = 0; sh < nsh && !rc; sh++) {
		sb_cache_shard_range(s, p->replicated, sh, &info[sh]);
		info[sh].presample = pre ? pre[sh] : NULL;
		if ((rc = p->init(&info[sh], o, &ctx[sh], err)))
			break;
		if (p->contents) {
			int32_t *c = SB_NEW(int32_t, s->capacity);
			int64_t nc = p->contents(ctx[sh], c);
			if (chk)
				sb_cache_check_contents(chk, sh, c, nc);
			sb_free(c);
		}
	}
	if (rc)
		goto out;
	for (bi = 0; bi < t->nbatch; bi++)
		if (t->b[bi].count > maxb)
			maxb = t->b[bi].count;
	miss_v = SB_NEW(int32_t, maxb + 1);
	miss_sh = SB_NEW(int32_t, maxb + 1);
	miss_loc = SB_NEW(int32_t, maxb + 1);
	for (bi = 0; bi <= t->nbatch; bi++) {
		const struct sb_cache_batch *b = bi < t->nbatch ? &t->b[bi] : NULL;
		struct bcount n = { 0 };
		int64_t i, nm = 0;
		int32_t m, w, gb, kg;
		double tb[NST];
		if (!b || b->epoch != cur_epoch) {
			/* an epoch ends: its time is the slowest GPU's */
			int32_t best = -1;
			for (sh = 0; sh < nsh; sh++)
				if (gsum[sh][ST_BATCH] > 0 &&
				    (best < 0 || gsum[sh][ST_BATCH] > gsum[best][ST_BATCH]))
					best = sh;
			if (best >= 0) {
				st->t_epoch += gsum[best][ST_BATCH];
				st->t_sample += gsum[best][ST_SAMPLE];
				st->t_feat += gsum[best][ST_FEAT];
				st->t_h2d += gsum[best][ST_H2D];
				st->t_compute += gsum[best][ST_COMPUTE];
				epochs++;
			}
			memset(gsum, 0, (size_t)nsh * sizeof *gsum);
			if (!b)
				break;
			cur_epoch = b->epoch;
		}
		m = b->machine;
		w = b->gpu;
		group_of(s, w, &gb, &kg);
		for (i = b->first; i < b->first + b->count; i++) {
			int32_t v = t->req[i], loc, hit;
			if (p->replicated) {
				sh = m * s->k + w;
				loc = v;
			} else if (kg == 1) {
				sh = m * s->k + w;
				loc = v;
			} else {
				sh = m * s->k + gb + v % kg;
				loc = v / kg;
			}
			hit = p->lookup(ctx[sh], loc);
			if (chk)
				sb_cache_check_request(chk, bi, m, w, v, hit);
			if (hit) {
				if (sh == m * s->k + w)
					n.hit_local++;
				else
					n.hit_peer++;
			} else {
				int32_t mv = s->part ? s->part[v] : v % s->P;
				if (mv == m) {
					n.miss_host++;
				} else {
					n.miss_remote++;
					n.remote_machines |= (uint64_t)1 << mv;
				}
				miss_v[nm] = v;
				miss_sh[nm] = sh;
				miss_loc[nm++] = loc;
			}
		}
		n.req = b->count;
		for (i = 0; i < nm; i++) {
			int32_t vic = p->insert ? p->insert(ctx[miss_sh[i]], miss_loc[i]) : SB_CACHE_BYPASS;
			if (chk)
				sb_cache_check_insert(chk, bi, m, w, miss_v[i], vic);
			if (vic == SB_CACHE_BYPASS) {
				st->bypasses++;
			} else {
				st->inserts++;
				st->evictions += vic >= 0;
			}
		}
		st->requests += n.req;
		st->hit_local += n.hit_local;
		st->hit_peer += n.hit_peer;
		st->miss_host += n.miss_host;
		st->miss_remote += n.miss_remote;
		st->remote_feat_msgs += __builtin_popcountll(n.remote_machines);
		st->sampled_edges += b->sampled_edges;
		st->remote_sample_nodes += b->remote_sample_nodes;
		st->remote_sample_msgs += b->remote_sample_msgs;
		price(cost, meta_ns, L, s->k, b, &n, tb);
		for (i = 0; i < NST; i++)
			gsum[m * s->k + w][i] += tb[i];
		if (gpu) {
			struct sb_cache_gpu_counts *gc = &gpu[m * s->k + w];
			gc->batches++;
			gc->requests += n.req;
			gc->hit_peer += n.hit_peer;
			gc->miss_host += n.miss_host;
			gc->miss_remote += n.miss_remote;
			gc->remote_feat_msgs += __builtin_popcountll(n.remote_machines);
			gc->sampled_edges += b->sampled_edges;
			gc->remote_sample_msgs += b->remote_sample_msgs;
			gc->flops += sb_cache_batch_flops(cost, L, b);
		}
	}
	if (epochs > 0) {
		st->t_epoch /= epochs;
		st->t_sample /= epochs;
		st->t_feat /= epochs;
		st->t_h2d /= epochs;
		st->t_compute /= epochs;
	}
	for (sh = 0; sh < nsh; sh++)
		if (p->meta_ops && ctx[sh])
			st->meta_ops += p->meta_ops(ctx[sh]);
	if (chk && sb_cache_check_finish(chk, t, st, why, sizeof why))
		rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: checker rejects the replay: %s",
				p->name, why);
out:
	for (sh = 0; sh < nsh; sh++)
		if (ctx[sh] && p->release)
			p->release(ctx[sh]);
	if (rc)
		memset(st, 0, sizeof *st);
	sb_cache_checker_free(chk);
	sb_cache_counts_free(pre);
	sb_free(ctx);
	sb_free(info);
	sb_free(miss_v);
	sb_free(miss_sh);
	sb_free(miss_loc);
	sb_free(gsum);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Policy cost alone                                                   */
/* ------------------------------------------------------------------ */

int sb_cache_policy_ns(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		       const struct sb_cache_policy *p, const struct sb_opts *o, int reps,
		       double *ns, struct sb_err *err)
{
	int32_t nsh = s->P * s->k, sh;
	int64_t *start = SB_NEW(int64_t, nsh + 1), i;
	int32_t *req = SB_NEW(int32_t, t->nreq + 1), *bat = SB_NEW(int32_t, t->nreq + 1);
	int32_t *miss = SB_NEW(int32_t, t->nreq + 1);
	int r, rc = 0;

	if (p->presample || !p->insert) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "policy %s: only dynamic policies are timed "
				"alone", p->name);
		goto out;
	}
	/* every request belongs to exactly one shard, so the streams fit */
	for (sh = 0; sh < nsh; sh++)
		start[sh + 1] = start[sh] + sb_cache_shard_stream(s, t, p->replicated, sh,
								  req + start[sh], bat + start[sh]);
	for (r = 0; r < reps && !rc; r++) {
		double t0, used = 0;
		for (sh = 0; sh < nsh && !rc; sh++) {
			struct sb_cache_shard info;
			void *ctx;
			sb_cache_shard_range(s, p->replicated, sh, &info);
			if ((rc = p->init(&info, o, &ctx, err)))
				break;
			t0 = sb_cpu_now();
			for (i = start[sh]; i < start[sh + 1];) {
				int64_t j, nm = 0, q;
				/* the miss list grows without a branch: hits
				 * and misses alternate unpredictably, and a
				 * mispredicted branch per request would cost
				 * more than the lookup being timed */
				for (j = i; j < start[sh + 1] && bat[j] == bat[i]; j++) {
					miss[nm] = req[j];
					nm += !p->lookup(ctx, req[j]);
				}
				for (q = 0; q < nm; q++)
					p->insert(ctx, miss[q]);
				i = j;
			}
			used += sb_cpu_now() - t0;
			p->release(ctx);
		}
		ns[r] = t->nreq ? used * 1e9 / (double)t->nreq : 0;
	}
out:
	sb_free(start);
	sb_free(req);
	sb_free(bat);
	sb_free(miss);
	return rc;
}
