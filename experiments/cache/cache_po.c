/*
 * cache_po.c - F2 of spec bgl.md §11: hit ratio against K of BGL's
 * proximity-aware ordering PO-K (dedup) for FIFO (BGL's cache) and LRU,
 * with the uniform shuffle as the reference order and static-degree at
 * the same cache size (the static policy PO has to beat; spec F1 shape).
 * One NVLink group of k = 4 GPUs on one machine, total cache `frac` of
 * |V|, 3 epochs with warm caches, fresh PO roots every epoch. Exact hit
 * counts of the trace-driven simulator (every replay checked).
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static const int Ks[] = { 0, 1, 2, 4, 8, 16, 64 };   /* 0: shuffle */
#define NK 7
static const char *const pols[] = { "fifo", "lru", "static-degree" };
#define NPOL 3

static const struct sb_param params[] = {
	SB_CACHE_EXP_PARAMS,
	{ "frac", 0.05, 0.001, 1, 0, "total GPU cache / |V|" },
	{ "k", 4, 1, 8, 1, "GPUs per machine" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "order", SB_COL_STR, "shuffle or po-K" },
	{ "K", SB_COL_INT, "PO passes (0: shuffle)" },
	{ "policy", SB_COL_STR, "" },
	{ "requests", SB_COL_INT, "feature rows" },
	{ "hits", SB_COL_INT, "feature rows" },
	{ "hit_ratio", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cache_exp_load(c, NK, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_cache_graphs *gs = c->state;
	int gi = point / NK, K = Ks[point % NK], i, rc;
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_opts oo;
	int32_t *train;
	char name[16], kv[16];

	sb_cache_exp_setup(c, &gs->g[gi], 1, (int)sb_opts_get(&c->opts, "k"),
			   sb_opts_get(&c->opts, "frac"), &s, &train);
	if (K) {
		s.order = sb_cache_order_find("po");
		sb_opts_defaults(&oo, s.order->params);
		snprintf(kv, sizeof kv, "k=%d", K);
		if ((rc = sb_opts_set(&oo, s.order->params, kv, "order", err))) {
			sb_free(train);
			return rc;
		}
		s.order_opts = &oo;
		snprintf(name, sizeof name, "po-%d", K);
	} else {
		snprintf(name, sizeof name, "shuffle");
	}
	sb_cache_cost_defaults(&cost);
	if ((rc = sb_cache_setup_check(&s, err)) || (rc = sb_cache_trace_build(&s, 0, s.epochs, &t, err))) {
		sb_free(train);
		return rc;
	}
	for (i = 0; i < NPOL && !rc; i++) {
		const struct sb_cache_policy *p = sb_cache_policy_find(pols[i]);
		struct sb_cache_stats st;
		struct sb_opts o;
		size_t r;
		sb_opts_defaults(&o, p->params);
		if ((rc = sb_cache_run(&s, &t, p, &o, &cost, 1, &st, err)))
			break;
		r = sb_table_add(out);
		sb_table_set_str(out, r, "graph", gs->label[gi]);
		sb_table_set_str(out, r, "order", name);
		sb_table_set_int(out, r, "K", K);
		sb_table_set_str(out, r, "policy", p->name);
		sb_table_set_int(out, r, "requests", st.requests);
		sb_table_set_int(out, r, "hits", sb_cache_hits(&st));
		sb_table_set_dbl(out, r, "hit_ratio",
				 st.requests ? (double)sb_cache_hits(&st) / (double)st.requests : 0);
	}
	sb_cache_trace_release(&t);
	sb_free(train);
	return rc;
}

const struct sb_experiment sb_experiment_cache_po = {
	.name = "cache_po",
	.desc = "F2: hit ratio vs K of proximity-aware ordering (FIFO, LRU; shuffle and static-degree for reference)",
	.figure = "bgl-F2",
	.family = "cache",
	.params = params,
	.quick_set = "rmat_scale=12 sbm_nodes=4096 epochs=2 batches=40",
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cache_exp_teardown,
};
