/*
 * sbp_crossover.c - F8: which strategy the ILP optimum chooses for two
 * GPT blocks (forward and backward) as tokens per step b s and hidden
 * size h vary, on p = 2, 4, 8 and the hierarchies 2x4, 4x2. The analytic
 * per-block rule (spec oneflow.md §8.4 [O]) says tensor parallelism wins
 * iff b s < 3h. tp_frac: share of the weight bytes the optimum reads split;
 * `side` marks the points well inside either region (b s < 2h, b s > 4.5h:
 * a factor 1.5 around 3h) for the claims. The ILP's branch-and-bound
 * nodes are in `points` (deterministic), its wall time in `timing`; a
 * solve that reaches the time-limit safety net fails the run rather than
 * store a machine-dependent row.
 */
#include "exp.h"
#include "lp.h"
#include "sbp/sbp.h"
#include "workloads/sbp/models.h"

#include <stdio.h>
#include <string.h>

static const char *const hiers[] = { "2x4", "4x2", "2", "4", "8" };
static const int hidden[] = { 1024, 2048, 4096, 8192 };
/* tokens per step: 2^k and 3 2^(k-1) from 512 to 65536 */
static const int tokens[] = { 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
			      16384, 24576, 32768, 49152, 65536 };
#define NH 5
#define NHID 4
#define NT 15

static const struct sb_param params[] = {
	{ "hiers", NH, 1, NH, 1, "how many of 2x4, 4x2, p = 2, 4, 8 (from the last)" },
	{ "hiddens", NHID, 1, NHID, 1, "how many of h = 1024 .. 8192" },
	{ "nodes", 20000, 1, 1e9, 1, "ILP node limit" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "hier", SB_COL_STR, "" },
	{ "p", SB_COL_INT, "devices" },
	{ "h", SB_COL_INT, "" },
	{ "tokens", SB_COL_INT, "b*s" },
	{ "ratio", SB_COL_DBL, "b*s/h" },
	{ "side", SB_COL_STR, "" },
	{ "ilp_cost", SB_COL_DBL, "bytes + 0.05 FLOPs" },
	{ "ilp_status", SB_COL_STR, "" },
	{ "ilp_gap", SB_COL_DBL, "" },
	{ "ilp_nodes", SB_COL_INT, "" },
	{ "tp_frac", SB_COL_DBL, "" },
	{ "strategy", SB_COL_STR, "" },
	{ "dp_cost", SB_COL_DBL, "bytes + 0.05 FLOPs" },
	{ "tp_cost", SB_COL_DBL, "bytes + 0.05 FLOPs" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "hier", SB_COL_STR, "" },
	{ "h", SB_COL_INT, "" },
	{ "tokens", SB_COL_INT, "b*s" },
	{ "ops", SB_COL_INT, "" },
	{ "ilp_cols", SB_COL_INT, "" },
	{ "ilp_seconds", SB_COL_DBL, "s (wall clock)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "hiers") * (int)sb_opts_get(&c->opts, "hiddens") * NT;
	snprintf(c->inputs_note, sizeof c->inputs_note, "generated: GPT blocks (2, forward + "
		 "backward, 8 sequences)");
	return 0;
}

static int fixed(const struct sb_sbp_graph *g, const char *name, double *cost, struct sb_err *err)
{
	const struct sb_sbp_planner *p = sb_sbp_planner_find(name);
	struct sb_sbp_net net = { 5e-6, 25e9 };
	struct sb_sbp_plan plan;
	struct sb_opts o;
	int rc;
	sb_opts_defaults(&o, p->params);
	if ((rc = sb_sbp_run(g, p, &o, &net, &plan, err)))
		return rc;
	*cost = plan.cost;
	sb_sbp_plan_release(&plan);
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int nh = (int)sb_opts_get(&c->opts, "hiers");
	int nhid = (int)sb_opts_get(&c->opts, "hiddens");
	int t = point % NT, hi = (point / NT) % nhid, k = NH - nh + point / (NT * nhid);
	int64_t h = hidden[hi], T = tokens[t];
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	struct sb_sbp_plan plan;
	struct sb_sbp_net net = { 5e-6, 25e9 };
	struct sb_sbp_ilp_opts io = { 0 };
	struct sb_sbp_ilp_result res;
	const struct sb_sbp_planner *el = sb_sbp_planner_find("elim");
	struct sb_opts eo;
	double ratio = (double)T / h, dpc = 0, tpc = 0;
	int *start, *sig, rc;
	size_t row;

	(void)nh;
	if ((rc = sb_sbp_place_parse(&pl, hiers[k], 0, "hierarchy", err)))
		return rc;
	sb_sbp_graph_init(&g, "gpt");
	sb_sbp_build_gpt(&g, 2, 8, T / 8, h, h / 128, 1);
	if ((rc = sb_sbp_graph_finish(&g, &pl, err))) {
		sb_sbp_graph_release(&g);
		return rc;
	}
	start = SB_NEW(int, g.nop);
	sig = SB_NEW(int, g.nop);
	sb_opts_defaults(&eo, el->params);
	rc = el->plan(&g, &eo, start, err);
	io.node_limit = (long)sb_opts_get(&c->opts, "nodes");
	io.start = start;
	if (!rc)
		rc = sb_sbp_ilp(&g, &io, sig, &res, err);
	if (!rc && res.status > 1)
		rc = sb_err_set(err, SB_EXIT_RUN, "sbp_crossover: ILP without a solution (%s)",
				sb_lp_status_name(res.status));
	if (!rc && res.stopped == SB_LP_STOP_TIME)
		rc = sb_err_set(err, SB_EXIT_RUN, "sbp_crossover: ILP stopped by its wall-clock "
				"safety net (%s, h = %lld, b*s = %lld): raise it or lower --set nodes",
				hiers[k], (long long)h, (long long)T);
	if (!rc)
		rc = sb_sbp_plan_from(&g, sig, "ilp", &net, &plan, err);
	if (!rc)
		rc = fixed(&g, "data-parallel", &dpc, err);
	if (!rc)
		rc = fixed(&g, "megatron", &tpc, err);
	if (!rc) {
		row = sb_table_add(out);
		sb_table_set_str(out, row, "hier", hiers[k]);
		sb_table_set_int(out, row, "p", pl.p);
		sb_table_set_int(out, row, "h", h);
		sb_table_set_int(out, row, "tokens", T);
		sb_table_set_dbl(out, row, "ratio", ratio);
		sb_table_set_str(out, row, "side", ratio < 2 ? "tp" : ratio > 4.5 ? "dp" : "near");
		sb_table_set_dbl(out, row, "ilp_cost", plan.cost);
		sb_table_set_str(out, row, "ilp_status", sb_lp_status_name(res.status));
		sb_table_set_dbl(out, row, "ilp_gap", res.gap);
		sb_table_set_int(out, row, "ilp_nodes", res.nodes);
		sb_table_set_dbl(out, row, "tp_frac", plan.tp_frac);
		sb_table_set_str(out, row, "strategy", plan.strategy);
		sb_table_set_dbl(out, row, "dp_cost", dpc);
		sb_table_set_dbl(out, row, "tp_cost", tpc);
		sb_sbp_plan_release(&plan);
		row = sb_table_add(timing);
		sb_table_set_str(timing, row, "hier", hiers[k]);
		sb_table_set_int(timing, row, "h", h);
		sb_table_set_int(timing, row, "tokens", T);
		sb_table_set_int(timing, row, "ops", g.nop);
		sb_table_set_int(timing, row, "ilp_cols", res.ncols);
		sb_table_set_dbl(timing, row, "ilp_seconds", res.seconds);
	}
	sb_free(start);
	sb_free(sig);
	sb_sbp_graph_release(&g);
	return rc;
}

const struct sb_experiment sb_experiment_sbp_crossover = {
	.name = "sbp_crossover",
	.desc = "F8: the ILP's strategy for GPT blocks against b*s/h, p and hierarchies",
	.figure = "oneflow-F8",
	.family = "sbp",
	.params = params,
	.quick_set = "hiers=1 hiddens=1",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = run_point,
};
