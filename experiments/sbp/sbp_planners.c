/*
 * sbp_planners.c - F9: every planner's cost over the ILP optimum on
 * chains (forward MLPs: trees), MLPs and GPT blocks with backward, on p = 8
 * and the hierarchy 2x4. Every plan passes the legality checker first;
 * ratio_opt >= 1 by construction when the ILP is proven optimal
 * (ilp_status records it). The ILP's wall time is in `timing`; a solve
 * that reaches the time-limit safety net fails the run.
 */
#include "exp.h"
#include "lp.h"
#include "sbp/sbp.h"
#include "workloads/sbp/models.h"

#include <stdio.h>
#include <string.h>

struct model {
	const char *name;
	int kind, L, backward;   /* kind 0: mlp, 1: gpt */
	int64_t T, h;
};

static const struct model models[] = {
	{ "chain-mlp8", 0, 8, 0, 4096, 1024 },
	{ "chain-mlp8-small", 0, 8, 0, 512, 2048 },
	{ "mlp4", 0, 4, 1, 4096, 1024 },
	{ "mlp4-small", 0, 4, 1, 512, 2048 },
	{ "gpt1", 1, 1, 1, 4096, 1024 },
	{ "gpt2-small", 1, 2, 1, 1024, 2048 },
	{ "gpt2", 1, 2, 1, 16384, 1024 },
	{ "gpt4", 1, 4, 1, 4096, 2048 },
};
#define NM ((int)(sizeof models / sizeof models[0]))
static const char *const hiers[] = { "8", "2x4" };

static const struct sb_param params[] = {
	{ "models", NM, 1, NM, 1, "how many of the models" },
	{ "hiers", 2, 1, 2, 1, "p = 8, then 2x4" },
	{ "nodes", 20000, 1, 1e9, 1, "ILP node limit" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "model", SB_COL_STR, "" },
	{ "hier", SB_COL_STR, "" },
	{ "ops", SB_COL_INT, "" },
	{ "tree", SB_COL_INT, "" },
	{ "planner", SB_COL_STR, "" },
	{ "cost", SB_COL_DBL, "bytes + 0.05 FLOPs" },
	{ "opt", SB_COL_DBL, "bytes + 0.05 FLOPs" },
	{ "ratio_opt", SB_COL_DBL, "" },
	{ "ilp_status", SB_COL_STR, "" },
	{ "ilp_nodes", SB_COL_INT, "" },
	{ "bytes", SB_COL_DBL, "B" },
	{ "comm_s", SB_COL_DBL, "s" },
	{ "flops", SB_COL_DBL, "FLOP/device" },
	{ "mem", SB_COL_DBL, "B/device" },
	{ "strategy", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "model", SB_COL_STR, "" },
	{ "hier", SB_COL_STR, "" },
	{ "ops", SB_COL_INT, "" },
	{ "ilp_cols", SB_COL_INT, "" },
	{ "ilp_seconds", SB_COL_DBL, "s (wall clock)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "models") * (int)sb_opts_get(&c->opts, "hiers");
	snprintf(c->inputs_note, sizeof c->inputs_note, "generated: MLP and GPT graphs");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int nhier = (int)sb_opts_get(&c->opts, "hiers");
	const struct model *m = &models[point / nhier];
	const char *hier = hiers[point % nhier];
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	struct sb_sbp_net net = { 5e-6, 25e9 };
	struct sb_sbp_ilp_opts io = { 0 };
	struct sb_sbp_ilp_result res;
	const struct sb_sbp_planner *const *p;
	int n, i, rc, *sig, tree;

	if ((rc = sb_sbp_place_parse(&pl, hier, 0, "hierarchy", err)))
		return rc;
	sb_sbp_graph_init(&g, m->name);
	if (m->kind == 0)
		sb_sbp_build_mlp(&g, m->L, m->T, m->h, m->backward);
	else
		sb_sbp_build_gpt(&g, m->L, 8, m->T / 8, m->h, m->h / 128, m->backward);
	if ((rc = sb_sbp_graph_finish(&g, &pl, err))) {
		sb_sbp_graph_release(&g);
		return rc;
	}
	tree = sb_sbp_is_tree(&g);
	sig = SB_NEW(int, g.nop);
	io.node_limit = (long)sb_opts_get(&c->opts, "nodes");
	rc = sb_sbp_ilp(&g, &io, sig, &res, err);
	if (!rc && res.status > 1)
		rc = sb_err_set(err, SB_EXIT_RUN, "sbp_planners: ILP without a solution on %s",
				m->name);
	if (!rc && res.stopped == SB_LP_STOP_TIME)
		rc = sb_err_set(err, SB_EXIT_RUN, "sbp_planners: ILP stopped by its wall-clock "
				"safety net on %s (%s): raise it or lower --set nodes", m->name, hier);
	if (!rc) {
		size_t tr = sb_table_add(timing);
		sb_table_set_str(timing, tr, "model", m->name);
		sb_table_set_str(timing, tr, "hier", hier);
		sb_table_set_int(timing, tr, "ops", g.nop);
		sb_table_set_int(timing, tr, "ilp_cols", res.ncols);
		sb_table_set_dbl(timing, tr, "ilp_seconds", res.seconds);
	}
	p = sb_sbp_planners(&n);
	for (i = 0; i < n && !rc; i++) {
		struct sb_sbp_plan plan;
		struct sb_opts o;
		size_t row;
		if (p[i]->trees_only && !tree)
			continue;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_sbp_run(&g, p[i], &o, &net, &plan, err)))
			break;
		row = sb_table_add(out);
		sb_table_set_str(out, row, "model", m->name);
		sb_table_set_str(out, row, "hier", hier);
		sb_table_set_int(out, row, "ops", g.nop);
		sb_table_set_int(out, row, "tree", tree);
		sb_table_set_str(out, row, "planner", p[i]->name);
		sb_table_set_dbl(out, row, "cost", plan.cost);
		sb_table_set_dbl(out, row, "opt", res.obj);
		sb_table_set_dbl(out, row, "ratio_opt", plan.cost / res.obj);
		sb_table_set_str(out, row, "ilp_status", sb_lp_status_name(res.status));
		sb_table_set_int(out, row, "ilp_nodes", res.nodes);
		sb_table_set_dbl(out, row, "bytes", plan.bytes);
		sb_table_set_dbl(out, row, "comm_s", plan.comm_s);
		sb_table_set_dbl(out, row, "flops", plan.flops);
		sb_table_set_dbl(out, row, "mem", plan.mem);
		sb_table_set_str(out, row, "strategy", plan.strategy);
		sb_sbp_plan_release(&plan);
	}
	sb_free(sig);
	sb_sbp_graph_release(&g);
	return rc;
}

const struct sb_experiment sb_experiment_sbp_planners = {
	.name = "sbp_planners",
	.desc = "F9: every sbp planner's cost over the ILP optimum on chains, MLPs and GPT blocks",
	.figure = "oneflow-F9",
	.family = "sbp",
	.params = params,
	.quick_set = "models=5 hiers=1",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = run_point,
};
