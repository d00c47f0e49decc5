/*
 * cache_sys.c - F5 of spec bgl.md §11: the modelled epoch-time breakdown
 * of three system configurations (spec §8), simulated with cost model
 * bgl-9.5 with stage isolation (core/cache/iso.c [O]):
 *   dgl      METIS partition (node and training-node balance), uniform
 *            shuffle, no feature cache, stages sharing the cores;
 *   pagraph  PaGraph's partition, shuffle, the static highest-degree cache
 *            replicated on every GPU [V, code: PaGraph], shared stages;
 *   bgl      BGL's block partitioner (released flags), PO-K, BGL's FIFO
 *            cache sharded over each NVLink group, isolated stages;
 *   bgl-shared  BGL with shared stages (the ablation: what isolation adds).
 * P machines x k GPUs, total cache `frac` of |V|. The counts behind the
 * times (hits, remote rows, RPCs, sampled edges) are exact replays of the
 * sampler's trace, every replay checked; the times are the model's. The
 * trace knows a node's home machine only, so PaGraph's replicas do not
 * shorten its sampling RPCs here (its sampling traffic is an upper bound).
 */
#include "cache/part.h"
#include "common.h"

#include <stdio.h>
#include <string.h>

static const struct sysconf {
	const char *name, *part, *order, *policy;
	int isolate;
} sys[] = {
	{ "dgl", "metis", "shuffle", "none", 0 },
	{ "pagraph", "pagraph", "shuffle", "static-degree-rep", 0 },
	{ "bgl-shared", "bgl-released", "po", "fifo", 0 },
	{ "bgl", "bgl-released", "po", "fifo", 1 },
};
#define NS 4

static const struct sb_param params[] = {
	SB_CACHE_EXP_PARAMS,
	{ "P", 2, 1, 8, 1, "machines" },
	{ "k", 4, 1, 8, 1, "GPUs per machine" },
	{ "frac", 0.05, 0.001, 1, 0, "total GPU cache / |V|" },
	SB_CACHE_ISO_PARAMS,
	SB_CACHE_EXP_BGL_P0(0.01),
	SB_CACHE_EXP_ORDER_PARAMS,
	SB_CACHE_EXP_PART_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "system", SB_COL_STR, "dgl, pagraph, bgl-shared, bgl" },
	{ "isolated", SB_COL_INT, "1: stages on their own cores" },
	{ "hit_ratio", SB_COL_DBL, "" },
	{ "remote_rows", SB_COL_INT, "feature rows from other machines" },
	{ "rpcs", SB_COL_INT, "remote sampling and feature messages" },
	{ "sampled_edges", SB_COL_INT, "" },
	{ "c_sample", SB_COL_INT, "cores of the sampling stage (bottleneck machine)" },
	{ "c_gather", SB_COL_INT, "cores of the gather stage" },
	{ "t_epoch", SB_COL_DBL, "s (simulated with cost model bgl-9.5 with stage isolation)" },
	{ "t_sample", SB_COL_DBL, "s (model): sampling CPU" },
	{ "t_gather", SB_COL_DBL, "s (model): feature gather CPU" },
	{ "t_net", SB_COL_DBL, "s (model): network bytes" },
	{ "t_rpc", SB_COL_DBL, "s (model): RPC round trips of one GPU" },
	{ "t_h2d", SB_COL_DBL, "s (model): PCIe" },
	{ "t_nvlink", SB_COL_DBL, "s (model): peer reads" },
	{ "t_compute", SB_COL_DBL, "s (model): GPU" },
	{ "speedup_dgl", SB_COL_DBL, "dgl's t_epoch / this t_epoch" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cache_exp_load(c, 1, err);
}

/* one configuration: its partition, trace, replay and price */
static int one(struct sb_exp_ctx *c, const struct sb_cache_graph *g, const struct sysconf *y,
	       int point, struct sb_cache_stats *st, struct sb_cache_iso_times *it,
	       struct sb_err *err)
{
	int P = (int)sb_opts_get(&c->opts, "P"), k = (int)sb_opts_get(&c->opts, "k"), rc, i;
	const struct sb_cache_partitioner *pp = sb_cache_partitioner_find(y->part);
	const struct sb_cache_policy *pol = sb_cache_policy_find(y->policy);
	struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, 0,
					  SB_RNG_POLICY ^ sb_hash_str(pp->name));
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_cache_iso iso;
	struct sb_cache_part pt;
	struct sb_cache_part_metrics m;
	struct sb_cache_gpu_counts *gpu = NULL;
	struct sb_opts po, oo, co;
	int32_t *train;
	uint8_t *mask = NULL;

	memset(&pt, 0, sizeof pt);
	sb_cache_exp_setup(c, g, P, k, sb_opts_get(&c->opts, "frac"), &s, &train);
	s.order = sb_cache_order_find(y->order);
	if ((rc = sb_cache_exp_order_opts(c, s.order, &oo, err)) ||
	    (rc = sb_cache_exp_part_opts(c, pp, &po, err)))
		goto out;
	s.order_opts = &oo;
	mask = SB_NEW(uint8_t, g->n);
	for (i = 0; i < s.ntrain; i++)
		mask[train[i]] = 1;
	if ((rc = sb_cache_part_run(g, mask, P, pp, &po, &rng, &s.smp, &pt, &m, err)))
		goto out;
	s.part = pt.part;
	sb_cache_cost_defaults(&cost);
	sb_opts_defaults(&co, pol->params);
	sb_cache_iso_from_opts(&iso, &c->opts, y->isolate);
	if ((rc = sb_cache_setup_check(&s, err)) || (rc = sb_cache_trace_build(&s, 0, s.epochs, &t, err)))
		goto out;
	gpu = SB_NEW(struct sb_cache_gpu_counts, (size_t)P * k);
	if (!(rc = sb_cache_run_gpus(&s, &t, pol, &co, &cost, 1, st, gpu, err)))
		sb_cache_iso_price(&s, &cost, cost.meta_ns >= 0 ? cost.meta_ns : pol->meta_ns, &iso, gpu,
				   s.epochs, it);
	sb_cache_trace_release(&t);
out:
	if (pt.part)
		sb_cache_part_release(&pt);
	sb_free(gpu);
	sb_free(mask);
	sb_free(train);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_cache_graphs *gs = c->state;
	double t_dgl = 0;
	int i, rc = 0;

	for (i = 0; i < NS && !rc; i++) {
		struct sb_cache_stats st;
		struct sb_cache_iso_times it;
		size_t r;
		if ((rc = one(c, &gs->g[point], &sys[i], point, &st, &it, err)))
			break;
		if (i == 0)
			t_dgl = it.t_epoch;
		r = sb_table_add(out);
		sb_table_set_str(out, r, "graph", gs->label[point]);
		sb_table_set_str(out, r, "system", sys[i].name);
		sb_table_set_int(out, r, "isolated", sys[i].isolate);
		sb_table_set_dbl(out, r, "hit_ratio",
				 st.requests ? (double)sb_cache_hits(&st) / (double)st.requests : 0);
		sb_table_set_int(out, r, "remote_rows", st.miss_remote);
		sb_table_set_int(out, r, "rpcs", st.remote_sample_msgs + st.remote_feat_msgs);
		sb_table_set_int(out, r, "sampled_edges", st.sampled_edges);
		sb_table_set_int(out, r, "c_sample", it.c_sample);
		sb_table_set_int(out, r, "c_gather", it.c_gather);
		sb_table_set_dbl(out, r, "t_epoch", it.t_epoch);
		sb_table_set_dbl(out, r, "t_sample", it.t_sample);
		sb_table_set_dbl(out, r, "t_gather", it.t_gather);
		sb_table_set_dbl(out, r, "t_net", it.t_net);
		sb_table_set_dbl(out, r, "t_rpc", it.t_rpc);
		sb_table_set_dbl(out, r, "t_h2d", it.t_h2d);
		sb_table_set_dbl(out, r, "t_nvlink", it.t_nvlink);
		sb_table_set_dbl(out, r, "t_compute", it.t_compute);
		sb_table_set_dbl(out, r, "speedup_dgl", it.t_epoch > 0 ? t_dgl / it.t_epoch : 0);
	}
	return rc;
}

const struct sb_experiment sb_experiment_cache_sys = {
	.name = "cache_sys",
	.desc = "F5: modelled epoch-time breakdown of DGL-like, PaGraph-like and BGL configurations (cost model bgl-9.5 with stage isolation)",
	.figure = "bgl-F5",
	.family = "cache",
	.params = params,
	.quick_set = "rmat_scale=12 sbm_nodes=4096 epochs=2 batches=40",
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cache_exp_teardown,
};
