/*
 * pipeline_bound.c - figure pipeplan-F4 (spec pipeplan.md §10, F-A4): on small
 * random instances (L = 6-10 jittered layers, 4 GPUs of a random
 * irregular topology, M = 4-6), every registered planner's simulated
 * iteration time against the exact optimum OPT of the MILP's plan space
 * (copies = 1, no re-computation, no overlap: every partition x ordered
 * disjoint GPU group, each scheduled optimally by the scheduling MILP;
 * pipeline/bound.c, whose tests check it equals the full MILP) and against
 * the plan-independent lower bound. Plans outside that space (outer
 * copies, re-computation, overlap) are marked in_space = 0: OPT does not
 * bound them. The full MILP (GLPK, node-limited so the result is the same
 * on every machine) runs on the smallest size to show how far
 * branch-and-bound gets alone. SPP-R is our reconstruction of the
 * INFOCOM'22 planner.
 */
#include "pipeline/bound.h"
#include "workloads/pipeline/load.h"
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "reps", 10, 1, 1000, 1, "random instances per size" },
	{ "sizes", 3, 1, 3, 1, "how many of (L, M) = (6, 4), (8, 4), (10, 6)" },
	{ "node_limit", 20000, 100, 1e7, 1, "branch-and-bound nodes per MILP solve" },
	{ "milp_max_layers", 6, 0, 10, 1, "run the full MILP up to this many layers" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int sizeL[] = { 6, 8, 10 }, sizeM[] = { 4, 4, 6 };

static const struct sb_col cols[] = {
	SB_PIPELINE_EXP_COLS,
	{ "layers", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "in_space", SB_COL_INT, "" },
	{ "opt", SB_COL_DBL, "s" },
	{ "opt_exact", SB_COL_INT, "" },
	{ "ratio_opt", SB_COL_DBL, "" },
	{ "milp_obj", SB_COL_DBL, "s" },
	{ "milp_bound", SB_COL_DBL, "s" },
	{ "milp_status", SB_COL_INT, "" },
	{ "milp_nodes", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};

struct extra {
	int reps, nsize, milp_max;
	long nodes;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct extra *x = sb_pipeline_exp_setup_synthetic(c, sizeof *x, "synthetic: jittered "
						     "transformer-like chains and random "
						     "irregular 4-GPU topologies of our own");
	(void)err;
	x->reps = (int)sb_opts_get(&c->opts, "reps");
	x->nsize = (int)sb_opts_get(&c->opts, "sizes");
	x->nodes = (long)sb_opts_get(&c->opts, "node_limit");
	x->milp_max = (int)sb_opts_get(&c->opts, "milp_max_layers");
	c->npoints = x->nsize * x->reps;
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = c->state;
	const struct extra *x = s->extra;
	int L = sizeL[point / x->reps], M = sizeM[point / x->reps], rep = point % x->reps;
	struct sb_rng rm = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	struct sb_rng rt = sb_rng_stream(c->seed, (uint64_t)point, 1, SB_RNG_INSTANCE);
	struct sb_pipeline_milp_opts mo;
	struct sb_pipeline_milp_result mr;
	struct sb_pipeline_enum_result er;
	struct sb_pipeline_problem pb;
	struct sb_pmodel m;
	struct sb_topo t;
	double batch = 4.0 * M;
	size_t first = out->nrow, row;
	int k, rc;

	sb_pipeline_exp_random_model(&m, L, &rm);
	sb_topo_random(&t, 4, &rt);
	snprintf(t.name, sizeof t.name, "random-4");
	memset(&pb, 0, sizeof pb);
	pb.model = &m;
	pb.topo = &t;
	pb.batch = batch;
	pb.M = M;
	pb.kappa = 2;
	memset(&mo, 0, sizeof mo);
	mo.node_limit = x->nodes;
	mo.time_limit = 600;        /* a safety net only: the node limit decides */
	memset(&mr, 0, sizeof mr);
	mr.obj = mr.bound = NAN;
	mr.status = -1;
	rc = sb_pipeline_enumerate(&pb, &mo, &er, err);
	if (rc)
		goto out;
	if (er.seconds > 0 && !er.exact)
		fprintf(stderr, "pipeline_bound: point %d: some scheduling MILP stopped at its limit; "
			"OPT is the best found, not proven\n", point);
	if (L <= x->milp_max) {
		rc = sb_pipeline_milp(&pb, &mo, &mr, err);
		if (rc)
			goto out_enum;
		if (mr.stopped == SB_LP_STOP_TIME)
			fprintf(stderr, "pipeline_bound: point %d: the MILP hit its time limit; its numbers "
				"depend on this machine\n", point);
	}
	for (k = 0; s->labels[k] && !rc; k++)
		rc = sb_pipeline_exp_run(&m, &t, s->labels[k], NULL, batch, M, out, timing, NULL, err);
	for (row = first; row < out->nrow && !rc; row++) {
		int feasible = (int)sb_table_get_int(out, row, sb_table_col(out, "feasible"));
		int copies = (int)sb_table_get_int(out, row, sb_table_col(out, "copies"));
		const char *pl = sb_table_get_str(out, row, sb_table_col(out, "planner"));
		const struct sb_pipeline_planner *p = sb_pipeline_planner_find(pl);
		double it = sb_table_get_dbl(out, row, sb_table_col(out, "iter_time"));
		int in_space = 0;
		if (feasible && p) {
			/* re-plan to read the plan's flags (planners are deterministic) */
			struct sb_pipeline_plan plan;
			const struct sb_pipeline_schedule *sc;
			double secs;
			if (sb_pipeline_exp_plan(&m, &t, pl, NULL, batch, M, &plan, &sc, &secs, err) == 0) {
				in_space = copies == 1 && !plan.recompute && !plan.overlap;
				sb_pipeline_plan_release(&plan);
			}
		}
		sb_table_set_int(out, row, "layers", L);
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_int(out, row, "in_space", in_space);
		sb_table_set_dbl(out, row, "opt", er.best);
		sb_table_set_int(out, row, "opt_exact", er.exact);
		sb_table_set_dbl(out, row, "ratio_opt", it / er.best);
		sb_table_set_dbl(out, row, "milp_obj", mr.obj);
		sb_table_set_dbl(out, row, "milp_bound", mr.bound);
		sb_table_set_int(out, row, "milp_status", mr.status);
		sb_table_set_int(out, row, "milp_nodes", mr.nodes);
		if (in_space && er.exact && it < er.best * (1 - 1e-6))
			SB_BUG("pipeline_bound: %s (%.9g) beats the exact optimum %.9g of its plan space",
			       pl, it, er.best);
	}
	sb_pipeline_milp_result_release(&mr);
out_enum:
	sb_pipeline_enum_result_release(&er);
out:
	sb_topo_release(&t);
	sb_pmodel_release(&m);
	return rc;
}

static const struct sb_col timing_cols[] = { SB_PIPELINE_EXP_TIMING_COLS, { NULL, 0, NULL } };

const struct sb_experiment sb_experiment_pipeline_bound = {
	.name = "pipeline_bound",
	.desc = "small random instances: every planner vs the exact optimum of the MILP's plan "
		"space and vs the lower bound",
	.figure = "pipeplan-F4",
	.family = "pipeline",
	.params = params,
	.quick_set = "reps=1 sizes=2 node_limit=200",   /* the MILP cross-check stops at its node limit; the plan-space optimum is exact */
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "layers planner",
	.summary_of = "ratio_opt ratio_lb",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_pipeline_exp_teardown,
};
