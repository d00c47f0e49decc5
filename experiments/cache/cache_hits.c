/*
 * cache_hits.c - F1 and F7 of spec bgl.md §11: hit ratio against the total
 * GPU cache size for every cache policy, with Belady's MIN (the dynamic
 * optimum, with and without bypass) and the optimal static content on the
 * same trace, and every policy's hits over Belady's hits (MIN on the
 * policy's own routing; with a free initial content for static policies,
 * which start full). One NVLink group
 * of k = 4 GPUs on one machine by default (BGL's sharded setting), uniform
 * shuffle order (PO-K is not built yet), 3 epochs with warm caches.
 * Exact counts; the modelled epoch time is "simulated with cost model
 * bgl-9.5" (defaults of spec §9.5).
 */
#include "common.h"

#include <stdio.h>
#include <string.h>

static const double fracs[] = { 0.01, 0.02, 0.05, 0.10, 0.20 };
#define NF 5

static const struct sb_param params[] = {
	SB_CACHE_EXP_PARAMS,
	{ "P", 1, 1, 8, 1, "machines" },
	{ "k", 4, 1, 8, 1, "GPUs per machine" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "frac", SB_COL_DBL, "total GPU cache / |V|" },
	{ "capacity", SB_COL_INT, "nodes per GPU" },
	{ "policy", SB_COL_STR, "" },
	{ "requests", SB_COL_INT, "feature rows" },
	{ "hits", SB_COL_INT, "feature rows" },
	{ "hit_ratio", SB_COL_DBL, "" },
	{ "hit_local", SB_COL_INT, "feature rows" },
	{ "hit_peer", SB_COL_INT, "feature rows" },
	{ "belady_hits", SB_COL_INT, "feature rows (MIN on the policy's routing; warm for static)" },
	{ "ratio_belady", SB_COL_DBL, "hits / Belady hits" },
	{ "above_belady", SB_COL_INT, "1 if hits > Belady hits" },
	{ "meta_ops_per_req", SB_COL_DBL, "" },
	{ "t_epoch", SB_COL_DBL, "s (simulated with cost model bgl-9.5)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cache_exp_load(c, NF, err);
}

static void row(struct sb_table *out, const char *graph, double frac, int64_t cap,
		const char *pol, int64_t req, int64_t hits, const struct sb_cache_stats *st,
		int64_t bel, double meta, double t)
{
	size_t r = sb_table_add(out);
	sb_table_set_str(out, r, "graph", graph);
	sb_table_set_dbl(out, r, "frac", frac);
	sb_table_set_int(out, r, "capacity", cap);
	sb_table_set_str(out, r, "policy", pol);
	sb_table_set_int(out, r, "requests", req);
	sb_table_set_int(out, r, "hits", hits);
	sb_table_set_dbl(out, r, "hit_ratio", req ? (double)hits / (double)req : 0);
	sb_table_set_int(out, r, "hit_local", st ? st->hit_local : hits);
	sb_table_set_int(out, r, "hit_peer", st ? st->hit_peer : 0);
	sb_table_set_int(out, r, "belady_hits", bel);
	sb_table_set_dbl(out, r, "ratio_belady", bel ? (double)hits / (double)bel : 1);
	sb_table_set_int(out, r, "above_belady", hits > bel);
	sb_table_set_dbl(out, r, "meta_ops_per_req", meta);
	sb_table_set_dbl(out, r, "t_epoch", t);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_cache_graphs *gs = c->state;
	int gi = point / NF, np, i, rc;
	double frac = fracs[point % NF];
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	struct sb_cache_setup s;
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_opts none;
	int32_t *train;
	int64_t bel, beln, warm, sopt;

	sb_cache_exp_setup(c, &gs->g[gi], (int)sb_opts_get(&c->opts, "P"),
			   (int)sb_opts_get(&c->opts, "k"), frac, &s, &train);
	sb_cache_cost_defaults(&cost);
	sb_opts_defaults(&none, NULL);
	if ((rc = sb_cache_setup_check(&s, err)) || (rc = sb_cache_trace_build(&s, 0, s.epochs, &t, err))) {
		sb_free(train);
		return rc;
	}
	if (!(rc = sb_cache_belady(&s, &t, 0, SB_CACHE_MIN_BYPASS, &bel, err)) &&
	    !(rc = sb_cache_belady(&s, &t, 0, 0, &beln, err)) &&
	    !(rc = sb_cache_belady(&s, &t, 0, SB_CACHE_MIN_BYPASS | SB_CACHE_MIN_WARM, &warm, err)) &&
	    !(rc = sb_cache_static_opt(&s, &t, 0, &sopt, err))) {
		row(out, gs->label[gi], frac, s.capacity, "belady", t.nreq, bel, NULL, bel, 0, 0);
		row(out, gs->label[gi], frac, s.capacity, "belady-nobypass", t.nreq, beln, NULL,
		    bel, 0, 0);
		/* a static content is there before the first request: its bound
		 * is MIN with a free initial content */
		row(out, gs->label[gi], frac, s.capacity, "static-opt", t.nreq, sopt, NULL, warm, 0, 0);
	}
	for (i = 0; i < np && !rc; i++) {
		struct sb_cache_stats st;
		struct sb_opts o;
		int64_t bound;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_cache_run(&s, &t, p[i], &o, &cost, 1, &st, err)) ||
		    (rc = sb_cache_bound(&s, &t, p[i], &bound, err)))
			break;
		row(out, gs->label[gi], frac, s.capacity, p[i]->name, st.requests, sb_cache_hits(&st),
		    &st, bound, st.requests ? (double)st.meta_ops / st.requests : 0, st.t_epoch);
	}
	sb_cache_trace_release(&t);
	sb_free(train);
	return rc;
}

const struct sb_experiment sb_experiment_cache_hits = {
	.name = "cache_hits",
	.desc = "F1/F7: hit ratio vs cache size per policy, with Belady's MIN and static optimum",
	.figure = "bgl-F1",
	.family = "cache",
	.params = params,
	.quick_set = "rmat_scale=12 sbm_nodes=4096 epochs=2 batches=40",
	.cols = cols,
	.summary_by = "graph frac policy",
	.summary_of = "hit_ratio ratio_belady",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cache_exp_teardown,
};
