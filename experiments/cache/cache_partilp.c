/*
 * cache_partilp.c - every partitioner against the GLPK partition optimum
 * on tiny graphs (spec bgl.md §10.3 [O]): BFS balls of `ball` nodes cut
 * from Cora (or its labelled-SBM fallback), P in {2, 3, 4}, objective A
 * (edges cut) and objective B (expected remote sampling requests, fan-outs
 * 5,10; the metric remote_req of cache_part). The ILP stops after `nodes`
 * branch-and-bound nodes (deterministic); `status` says whether it proved
 * its optimum. ratio = heuristic / optimum; a heuristic outside the ILP's
 * balance rows (feasible = 0) is not bounded by it, and PaGraph's
 * replicated partitions are not in the ILP's space at all (skipped).
 */
#include "cache/part.h"
#include "common.h"
#include "lp.h"
#include "workloads/cache/graphs.h"

#include <stdio.h>
#include <string.h>

#define NP 3

static const struct sb_param params[] = {
	{ "ball", 30, 8, 40, 1, "nodes per tiny graph (BFS ball)" },
	{ "train", 0.3, 0.05, 1, 0, "training fraction (high, so objective B has mass)" },
	{ "eps", 0.1, 0, 1, 0, "balance of the ILP's rows" },
	{ "nodes", 20000, 1, 1e8, 1, "GLPK branch-and-bound node limit" },
	{ "reps", 6, 1, 1000, 1, "balls per P" },
	SB_CACHE_EXP_BGL_P0(0.2),
	SB_CACHE_EXP_PART_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "P", SB_COL_INT, "machines" },
	{ "rep", SB_COL_INT, "" },
	{ "obj", SB_COL_STR, "cut or traffic" },
	{ "partitioner", SB_COL_STR, "" },
	{ "nodes", SB_COL_INT, "" },
	{ "edges", SB_COL_INT, "" },
	{ "value", SB_COL_DBL, "edges cut or expected remote requests" },
	{ "opt", SB_COL_DBL, "ILP incumbent" },
	{ "bound", SB_COL_DBL, "ILP lower bound" },
	{ "status", SB_COL_STR, "ILP status" },
	{ "feasible", SB_COL_INT, "1: within the ILP's balance rows" },
	{ "ratio", SB_COL_DBL, "value / opt (opt = 0: 1 + value)" },
	{ "below_opt", SB_COL_INT, "1: feasible, proven optimum, yet value below it (a bug)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	char buf[4096], *path;
	int rc;

	if ((rc = sb_cache_exp_check_policy_opts(c, err)))
		return rc;
	c->npoints = NP * (int)sb_opts_get(&c->opts, "reps");
	if ((path = (char *)sb_exp_data(c, "cora/cora.cites", buf, sizeof buf))) {
		if (!(c->state = sb_malloc(strlen(path) + 1)))
			return sb_err_set(err, SB_EXIT_RUN, "out of memory");
		strcpy(c->state, path);
		if ((rc = sb_exp_add_input(c, path, err)))
			return rc;
		snprintf(c->inputs_note, sizeof c->inputs_note, "real: BFS balls of cora.cites");
	} else {
		snprintf(c->inputs_note, sizeof c->inputs_note,
			 "synthetic fallback: BFS balls of a labelled SBM in place of Cora");
	}
	return 0;
}

static void teardown(struct sb_exp_ctx *c)
{
	sb_free(c->state);
}

/* The subgraph induced by the first `size` nodes a BFS from a random
 * start reaches (a start whose component is smaller is redrawn). */
static int ball(const struct sb_cache_graph *G, int size, struct sb_rng *r,
		struct sb_cache_graph *g, struct sb_err *err)
{
	int32_t *id = sb_xmalloc(sizeof *id * (size_t)G->n), q[64], nq = 0, head, i, m = 0;
	int32_t eu[64 * 63], ev[64 * 63];
	int64_t e;
	int tries, rc;

	for (tries = 0; tries < 1000; tries++) {
		for (i = 0; i < nq; i++)
			id[q[i]] = -1;
		if (tries == 0)
			for (i = 0; i < G->n; i++)
				id[i] = -1;
		nq = 0;
		q[nq] = (int32_t)sb_rng_below(r, (uint32_t)G->n);
		id[q[nq]] = nq;
		nq++;
		for (head = 0; head < nq && nq < size; head++)
			for (e = G->off[q[head]]; e < G->off[q[head] + 1] && nq < size; e++)
				if (id[G->adj[e]] < 0) {
					id[G->adj[e]] = nq;
					q[nq++] = G->adj[e];
				}
		if (nq == size)
			break;
	}
	for (i = 0; i < nq; i++)
		for (e = G->off[q[i]]; e < G->off[q[i] + 1]; e++)
			if (id[G->adj[e]] > i) {
				eu[m] = i;
				ev[m++] = id[G->adj[e]];
			}
	rc = sb_cache_graph_from_arrays(g, nq, m, eu, ev, err);
	sb_free(id);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), P = 2 + point / reps, rep = point % reps;
	int np, i, obj, rc;
	double eps = sb_opts_get(&c->opts, "eps"), frac = sb_opts_get(&c->opts, "train");
	const struct sb_cache_partitioner *const *ps = sb_cache_partitioners(&np);
	struct sb_cache_sampler fan = { 2, { 5, 10 }, 0 };
	struct sb_rng r = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	struct sb_cache_graph G, g;
	uint8_t train[64];
	int32_t v;

	if (c->state)
		rc = sb_cache_load_edgelist(&G, "cora", c->state, err);
	else
		rc = sb_cache_gen_sbm(&G, 2708, 7, 4, 0.2, c->seed, err);
	if (rc)
		return rc;
	rc = ball(&G, (int)sb_opts_get(&c->opts, "ball"), &r, &g, err);
	sb_cache_graph_release(&G);
	if (rc)
		return rc;
	for (v = 0; v < g.n; v++)
		train[v] = v == 0 || sb_rng_uniform(&r) < frac;
	for (obj = 0; obj < 2 && !rc; obj++) {
		struct sb_cache_part pt[SB_CACHE_PART_MAX];
		struct sb_cache_part_metrics m[SB_CACHE_PART_MAX];
		struct sb_cache_part_ilp ilp;
		const int32_t *warm = NULL;
		double best = 0;
		int k = 0;
		/* every non-replicating partitioner; the best one inside the
		 * ILP's rows is its first incumbent */
		for (i = 0; i < np && i < SB_CACHE_PART_MAX && !rc; i++) {
			struct sb_rng pr = sb_rng_stream(c->seed, (uint64_t)point, 0,
							 SB_RNG_POLICY ^ sb_hash_str(ps[i]->name));
			struct sb_opts o;
			double val;
			if (ps[i]->replicates)
				continue;
			if ((rc = sb_cache_exp_part_opts(c, ps[i], &o, err)) ||
			    (rc = sb_cache_part_run(&g, train, P, ps[i], &o, &pr, &fan, &pt[i], &m[i], err)))
				break;
			val = obj ? m[i].remote_expand : (double)m[i].cut_edges;
			if (sb_cache_part_ilp_feasible(&g, train, pt[i].part, P, eps) &&
			    (!warm || val < best)) {
				warm = pt[i].part;
				best = val;
			}
			k = i + 1;
		}
		if (!rc)
			rc = sb_cache_part_ilp(&g, train, P, eps, obj, &fan,
					       (long)sb_opts_get(&c->opts, "nodes"), warm, &ilp, err);
		for (i = 0; i < k && !rc; i++) {
			size_t row;
			double val;
			if (ps[i]->replicates)
				continue;
			val = obj ? m[i].remote_expand : (double)m[i].cut_edges;
			row = sb_table_add(out);
			sb_table_set_int(out, row, "P", P);
			sb_table_set_int(out, row, "rep", rep);
			sb_table_set_str(out, row, "obj", obj ? "traffic" : "cut");
			sb_table_set_str(out, row, "partitioner", ps[i]->name);
			sb_table_set_int(out, row, "nodes", g.n);
			sb_table_set_int(out, row, "edges", g.m);
			sb_table_set_dbl(out, row, "value", val);
			sb_table_set_dbl(out, row, "opt", ilp.obj);
			sb_table_set_dbl(out, row, "bound", ilp.bound);
			sb_table_set_str(out, row, "status", sb_lp_status_name(ilp.status));
			sb_table_set_int(out, row, "feasible",
					 sb_cache_part_ilp_feasible(&g, train, pt[i].part, P, eps));
			sb_table_set_dbl(out, row, "ratio", ilp.obj > 0 ? val / ilp.obj : 1 + val);
			sb_table_set_int(out, row, "below_opt",
					 ilp.status == SB_LP_OPTIMAL &&
					 sb_cache_part_ilp_feasible(&g, train, pt[i].part, P, eps) &&
					 val < ilp.obj - 1e-6 * (1 + ilp.obj));
		}
		for (i = 0; i < k; i++)
			if (!ps[i]->replicates)
				sb_cache_part_release(&pt[i]);
		if (!rc)
			sb_cache_part_ilp_release(&ilp);
	}
	sb_cache_graph_release(&g);
	return rc;
}

const struct sb_experiment sb_experiment_cache_partilp = {
	.name = "cache_partilp",
	.desc = "partitioners / GLPK partition optimum (edge cut; expected remote requests) on tiny graphs",
	.figure = "bgl-F4b",
	.family = "cache",
	.params = params,
	.quick_set = "ball=20 reps=3",
	.cols = cols,
	.summary_by = "P obj partitioner",
	.summary_of = "ratio feasible",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
