/*
 * cache_part.c - figure F4 of spec bgl.md §11: every registered
 * partitioner on the family's graphs (Cora or its labelled-SBM fallback,
 * R-MAT, SBM), P in {2, 4, 8}. Two measures of the traffic a partition
 * causes, both exact counts (no time involved):
 *  - from the sampler's trace (one epoch, fan-outs of `layers`, the
 *    partition as the machines' node sets, no cache): frontier nodes
 *    expanded on another machine (remote sampling requests) and input rows
 *    fetched from another machine (remote feature rows, deduplicated per
 *    batch); the trace knows a node's home machine only, so PaGraph's
 *    replicas do not shorten it there;
 *  - the exact expectation of the tree model of core/cache/part.h, in
 *    which replicas count as local (PaGraph's point).
 * Also edge cut, balance of nodes, edges and training nodes, replication.
 * Every partition passes the checker before a metric is recorded;
 * partition wall time goes to the `timing` dataset only.
 */
#include "cache/part.h"
#include "common.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define NP 3

static const struct sb_param params[] = {
	SB_CACHE_EXP_PARAMS,
	{ "reps", 5, 1, 100, 1, "seeds per graph and P (partitioner streams)" },
	SB_CACHE_EXP_BGL_P0(0.01),
	SB_CACHE_EXP_PART_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "P", SB_COL_INT, "machines" },
	{ "rep", SB_COL_INT, "" },
	{ "partitioner", SB_COL_STR, "" },
	{ "nodes", SB_COL_INT, "" },
	{ "edges", SB_COL_INT, "undirected" },
	{ "trace_req", SB_COL_INT, "remote sampling requests per epoch (sampler trace)" },
	{ "trace_req_frac", SB_COL_DBL, "of expanded frontier nodes" },
	{ "trace_msgs", SB_COL_INT, "(batch, hop, remote machine) messages per epoch" },
	{ "trace_rows", SB_COL_INT, "remote feature rows per epoch (sampler trace)" },
	{ "trace_rows_frac", SB_COL_DBL, "of input rows" },
	{ "trace_vs_hash", SB_COL_DBL, "trace_req / hash's" },
	{ "cut_frac", SB_COL_DBL, "fraction of edges" },
	{ "remote_req", SB_COL_DBL, "expected remote sampling requests per epoch" },
	{ "remote_req_frac", SB_COL_DBL, "fraction of expansions" },
	{ "remote_rows", SB_COL_DBL, "expected remote feature rows per epoch" },
	{ "remote_rows_frac", SB_COL_DBL, "fraction of input rows" },
	{ "req_vs_hash", SB_COL_DBL, "remote requests / hash's" },
	{ "bal_nodes", SB_COL_DBL, "max / mean" },
	{ "bal_edges", SB_COL_DBL, "max / mean" },
	{ "bal_train", SB_COL_DBL, "max / mean" },
	{ "repl", SB_COL_DBL, "stored copies / nodes" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "P", SB_COL_INT, "machines" },
	{ "rep", SB_COL_INT, "" },
	{ "partitioner", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "partition wall time, s" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_cache_exp_load(c, NP * (int)sb_opts_get(&c->opts, "reps"), err);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The trace of setup s with the partition as the machines' node sets,
 * replayed without a cache ("none"): remote counts into st. */
static int trace_counts(struct sb_cache_setup *s, const int32_t *part, int P,
			struct sb_cache_stats *st, int64_t *expanded, struct sb_err *err)
{
	const struct sb_cache_policy *none = sb_cache_policy_find("none");
	struct sb_cache_trace t;
	struct sb_cache_cost cost;
	struct sb_opts o;
	int32_t b;
	int l, rc;

	s->P = P;
	s->k = 1;
	s->part = part;
	s->epochs = 1;
	sb_cache_cost_defaults(&cost);
	sb_opts_defaults(&o, none->params);
	if ((rc = sb_cache_setup_check(s, err)) || (rc = sb_cache_trace_build(s, 0, 1, &t, err)))
		return rc;
	rc = sb_cache_run(s, &t, none, &o, &cost, 1, st, err);
	*expanded = 0;
	for (b = 0; b < t.nbatch; b++)
		for (l = 0; l < s->smp.nlayers; l++)
			*expanded += t.b[b].hop_dst[l];
	sb_cache_trace_release(&t);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	static const int Ps[NP] = { 2, 4, 8 };
	const struct sb_cache_graphs *gs = c->state;
	int reps = (int)sb_opts_get(&c->opts, "reps"), np, i, rc = 0;
	int gi = point / (NP * reps), P = Ps[point / reps % NP], rep = point % reps;
	const struct sb_cache_partitioner *const *ps = sb_cache_partitioners(&np);
	const struct sb_cache_graph *g = &gs->g[gi];
	const char *name = gs->label[gi];
	double hash_req = 0, hash_trace = 0;
	struct sb_cache_setup s;
	uint8_t *train;
	int32_t *tlist, v;

	/* P = 1 here only sizes the batches; trace_counts sets the machines */
	sb_cache_exp_setup(c, g, 1, 1, 0.01, &s, &tlist);
	if (!(train = sb_calloc((size_t)g->n, 1))) {
		sb_free(tlist);
		return sb_err_set(err, SB_EXIT_RUN, "out of memory");
	}
	for (v = 0; v < s.ntrain; v++)
		train[tlist[v]] = 1;
	/* hash first, so every row can carry its ratio to hash */
	for (i = -1; i < np && !rc; i++) {
		const struct sb_cache_partitioner *p = i < 0 ? sb_cache_partitioner_find("hash") : ps[i];
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, (uint64_t)rep,
						  SB_RNG_POLICY ^ sb_hash_str(p->name));
		struct sb_cache_part pt;
		struct sb_cache_part_metrics m;
		struct sb_cache_stats st;
		struct sb_opts o;
		int64_t expanded;
		double t0;
		size_t row;
		if (i >= 0 && !strcmp(p->name, "hash"))
			continue;
		if ((rc = sb_cache_exp_part_opts(c, p, &o, err)))
			break;
		t0 = now();
		if ((rc = sb_cache_part_run(g, train, P, p, &o, &rng, &s.smp, &pt, &m, err)))
			break;
		row = sb_table_add(timing);
		sb_table_set_str(timing, row, "graph", name);
		sb_table_set_int(timing, row, "P", P);
		sb_table_set_int(timing, row, "rep", rep);
		sb_table_set_str(timing, row, "partitioner", p->name);
		sb_table_set_dbl(timing, row, "seconds", now() - t0);
		if ((rc = trace_counts(&s, pt.part, P, &st, &expanded, err))) {
			sb_cache_part_release(&pt);
			break;
		}
		if (i < 0) {
			hash_req = m.remote_expand;
			hash_trace = (double)st.remote_sample_nodes;
		}
		row = sb_table_add(out);
		sb_table_set_str(out, row, "graph", name);
		sb_table_set_int(out, row, "P", P);
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_str(out, row, "partitioner", p->name);
		sb_table_set_int(out, row, "nodes", g->n);
		sb_table_set_int(out, row, "edges", g->m);
		sb_table_set_int(out, row, "trace_req", st.remote_sample_nodes);
		sb_table_set_dbl(out, row, "trace_req_frac",
				 expanded ? (double)st.remote_sample_nodes / (double)expanded : 0);
		sb_table_set_int(out, row, "trace_msgs", st.remote_sample_msgs);
		sb_table_set_int(out, row, "trace_rows", st.miss_remote);
		sb_table_set_dbl(out, row, "trace_rows_frac",
				 st.requests ? (double)st.miss_remote / (double)st.requests : 0);
		sb_table_set_dbl(out, row, "trace_vs_hash",
				 hash_trace > 0 ? (double)st.remote_sample_nodes / hash_trace : 0);
		sb_table_set_dbl(out, row, "cut_frac", m.cut_frac);
		sb_table_set_dbl(out, row, "remote_req", m.remote_expand);
		sb_table_set_dbl(out, row, "remote_req_frac", m.expand ? m.remote_expand / m.expand : 0);
		sb_table_set_dbl(out, row, "remote_rows", m.remote_rows);
		sb_table_set_dbl(out, row, "remote_rows_frac", m.rows ? m.remote_rows / m.rows : 0);
		sb_table_set_dbl(out, row, "req_vs_hash", hash_req > 0 ? m.remote_expand / hash_req : 0);
		sb_table_set_dbl(out, row, "bal_nodes", m.bal_nodes);
		sb_table_set_dbl(out, row, "bal_edges", m.bal_edges);
		sb_table_set_dbl(out, row, "bal_train", m.bal_train);
		sb_table_set_dbl(out, row, "repl", m.repl);
		sb_cache_part_release(&pt);
	}
	sb_free(train);
	sb_free(tlist);
	return rc;
}

const struct sb_experiment sb_experiment_cache_part = {
	.name = "cache_part",
	.desc = "partitioners: edge cut, expected remote sampling requests and feature rows, balance",
	.figure = "bgl-F4",
	.family = "cache",
	.params = params,
	.quick_set = "rmat_scale=11 sbm_nodes=4096 batches=20 reps=3",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "graph P partitioner",
	.summary_of = "trace_req_frac trace_rows_frac trace_vs_hash cut_frac remote_req_frac "
		      "remote_rows_frac req_vs_hash bal_nodes bal_train repl",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_cache_exp_teardown,
};
