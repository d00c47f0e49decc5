/*
 * cache_time.c - modelled time per epoch of every cache policy, simulated
 * with cost model bgl-9.5 (spec bgl.md §9.5 [O]: PCIe 12 GB/s, NVLink 150
 * GB/s, 12.5 GB/s network per machine, 20 us per RPC, 50 ns per sampled
 * edge, 14 TFLOP/s, per-request metadata FIFO 5 ns / LRU 30 ns / LFU 80 ns
 * as the spec assumes them; cache_meta measures them), on one machine
 * with 1 GPU, one NVLink group of 4, and 2 machines of 4 GPUs (nodes on
 * machine v mod 2: no partitioner yet). The epoch time is the slowest
 * GPU's sum of per-batch max(sampling, feature gather, host-to-device,
 * compute); the stage columns are that GPU's stage sums. Not a
 * measurement of any hardware. Cache: 5% of |V| in total.
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static const int cfg_P[] = { 1, 1, 2 }, cfg_k[] = { 1, 4, 4 };
#define NC 3

static const struct sb_param params[] = {
	SB_CACHE_EXP_PARAMS,
	{ "frac", 0.05, 0.001, 1, 0, "total GPU cache / |V|" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "config", SB_COL_STR, "machines x GPUs" },
	{ "policy", SB_COL_STR, "" },
	{ "hit_ratio", SB_COL_DBL, "" },
	{ "miss_remote", SB_COL_INT, "feature rows" },
	{ "remote_sample_msgs", SB_COL_INT, "RPCs" },
	{ "t_epoch", SB_COL_DBL, "s (simulated with cost model bgl-9.5)" },
	{ "t_sample", SB_COL_DBL, "s (model)" },
	{ "t_feat", SB_COL_DBL, "s (model)" },
	{ "t_h2d", SB_COL_DBL, "s (model)" },
	{ "t_compute", SB_COL_DBL, "s (model)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cache_exp_load(c, NC, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_cache_graphs *gs = c->state;
	int gi = point / NC, cf = point % NC, np, i, rc;
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	int32_t *train;
	char cfg[16];

	sb_cache_exp_setup(c, &gs->g[gi], cfg_P[cf], cfg_k[cf], sb_opts_get(&c->opts, "frac"), &s,
			   &train);
	snprintf(cfg, sizeof cfg, "%dx%d", cfg_P[cf], cfg_k[cf]);
	sb_cache_cost_defaults(&cost);
	if ((rc = sb_cache_setup_check(&s, err)) || (rc = sb_cache_trace_build(&s, 0, s.epochs, &t, err))) {
		sb_free(train);
		return rc;
	}
	for (i = 0; i < np && !rc; i++) {
		struct sb_cache_stats st;
		struct sb_opts o;
		size_t r;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_cache_run(&s, &t, p[i], &o, &cost, 1, &st, err)))
			break;
		r = sb_table_add(out);
		sb_table_set_str(out, r, "graph", gs->label[gi]);
		sb_table_set_str(out, r, "config", cfg);
		sb_table_set_str(out, r, "policy", p[i]->name);
		sb_table_set_dbl(out, r, "hit_ratio", (double)sb_cache_hits(&st) / (double)st.requests);
		sb_table_set_int(out, r, "miss_remote", st.miss_remote);
		sb_table_set_int(out, r, "remote_sample_msgs", st.remote_sample_msgs);
		sb_table_set_dbl(out, r, "t_epoch", st.t_epoch);
		sb_table_set_dbl(out, r, "t_sample", st.t_sample);
		sb_table_set_dbl(out, r, "t_feat", st.t_feat);
		sb_table_set_dbl(out, r, "t_h2d", st.t_h2d);
		sb_table_set_dbl(out, r, "t_compute", st.t_compute);
	}
	sb_cache_trace_release(&t);
	sb_free(train);
	return rc;
}

const struct sb_experiment sb_experiment_cache_time = {
	.name = "cache_time",
	.desc = "modelled epoch time per cache policy and cluster shape (cost model bgl-9.5)",
	.figure = "bgl-F5a",
	.family = "cache",
	.params = params,
	.quick_set = "rmat_scale=12 sbm_nodes=4096 epochs=2 batches=40",
	.cols = cols,
	.summary_by = "graph config policy",
	.summary_of = "t_epoch hit_ratio",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cache_exp_teardown,
};
