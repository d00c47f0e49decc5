/*
 * cache_meta.c - F6 of spec bgl.md §11: the measured cost per request of
 * each dynamic cache policy's own work (lookups and admissions, nothing
 * else), so that no metadata cost is assumed. CPU time of the policy's
 * hooks on the same pre-routed trace (one NVLink group of 4 GPUs, 5% of
 * |V| cached), reps repetitions; the times are in the `timing` dataset
 * (wall-clock measurements, machine dependent), the deterministic
 * metadata operation counts in `points`.
 */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sb_param params[] = {
	SB_CACHE_EXP_PARAMS,
	{ "reps", 7, 1, 100, 1, "timed repetitions per policy" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "requests", SB_COL_INT, "feature rows" },
	{ "meta_ops_per_req", SB_COL_DBL, "" },
	{ "hit_ratio", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "ns_per_req", SB_COL_DBL, "ns (CPU time)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cache_exp_load(c, 1, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_cache_graphs *gs = c->state;
	int np, i, r, reps = (int)sb_opts_get(&c->opts, "reps"), rc;
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	int32_t *train;
	double *ns = SB_NEW(double, reps);

	sb_cache_exp_setup(c, &gs->g[point], 1, 4, 0.05, &s, &train);
	sb_cache_cost_defaults(&cost);
	if ((rc = sb_cache_setup_check(&s, err)) ||
	    (rc = sb_cache_trace_build(&s, 0, s.epochs, &t, err))) {
		sb_free(train);
		sb_free(ns);
		return rc;
	}
	for (i = 0; i < np && !rc; i++) {
		struct sb_cache_stats st;
		struct sb_opts o;
		size_t row;
		if (!p[i]->insert || p[i]->presample)
			continue;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_cache_run(&s, &t, p[i], &o, &cost, 1, &st, err)) ||
		    (rc = sb_cache_policy_ns(&s, &t, p[i], &o, reps, ns, err)))
			break;
		row = sb_table_add(out);
		sb_table_set_str(out, row, "graph", gs->label[point]);
		sb_table_set_str(out, row, "policy", p[i]->name);
		sb_table_set_int(out, row, "requests", st.requests);
		sb_table_set_dbl(out, row, "meta_ops_per_req", (double)st.meta_ops / st.requests);
		sb_table_set_dbl(out, row, "hit_ratio", (double)sb_cache_hits(&st) / st.requests);
		for (r = 0; timing && r < reps; r++) {
			row = sb_table_add(timing);
			sb_table_set_str(timing, row, "graph", gs->label[point]);
			sb_table_set_str(timing, row, "policy", p[i]->name);
			sb_table_set_int(timing, row, "rep", r);
			sb_table_set_dbl(timing, row, "ns_per_req", ns[r]);
		}
	}
	sb_cache_trace_release(&t);
	sb_free(train);
	sb_free(ns);
	return rc;
}

const struct sb_experiment sb_experiment_cache_meta = {
	.name = "cache_meta",
	.desc = "F6: measured CPU ns per request of each dynamic cache policy (FIFO, LRU, LFU, CLOCK)",
	.figure = "bgl-F6",
	.family = "cache",
	.params = params,
	.quick_set = "rmat_scale=12 sbm_nodes=4096 epochs=2 batches=40 reps=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cache_exp_teardown,
};
