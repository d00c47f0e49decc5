/*
 * alloc_smd_runtime.c - figure smd-F5 (smd.md §8, ours [O]): the time to
 * decide one round against the number of queued jobs, for SMD's two-level
 * heuristic (greedy outer), its LP-outer variant, and the round's MMKP ILP
 * solved from scratch by GLPK (the family's node limit). A round of n jobs
 * runs on ceil(n / 4) servers, so capacity binds at every size.
 * The runtimes are wall-clock (the `timing` dataset: they depend on the
 * machine and its load); the points dataset keeps what is deterministic:
 * each method's checked cost, the ILP's status, nodes and bound.
 */
#include "common.h"
#include "algorithms/smd/smd.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 3, 1, 1000, 1, "rounds per size" },
	{ "sizes", 6, 1, 8, 1, "queue sizes 5, 10, 20, 30, 40, 60, 80, 100 (the first this many)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int queue[8] = { 5, 10, 20, 30, 40, 60, 80, 100 };

static const struct sb_col cols[] = {
	{ "jobs", SB_COL_INT, "" },
	{ "servers", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "method", SB_COL_STR, "" },
	{ "configs", SB_COL_INT, "" },
	{ "cost", SB_COL_DBL, "s" },
	{ "status", SB_COL_STR, "" },
	{ "bound", SB_COL_DBL, "s" },
	{ "nodes", SB_COL_INT, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "jobs", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "method", SB_COL_STR, "" },
	{ "seconds", SB_COL_DBL, "s (wall clock)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	return sb_alloc_exp_smd_setup(c, "one round, every job queued (no arrivals)", 0, err);
}

struct rows {
	struct sb_table *out, *timing;
	int jobs, servers, rep, configs;
};

static int emit(const struct rows *e, const struct sb_smd_round *rd, const char *method,
		const int *choice, const struct sb_alloc_bound *b, double seconds,
		struct sb_err *err)
{
	double cost = b && b->has_incumbent ? b->incumbent : 0;
	size_t row;
	int rc;

	if (choice &&
	    (rc = sb_alloc_exp_smd_check(&rd->m, choice, "alloc_smd_runtime", method, &cost, err)))
		return rc;
	row = sb_table_add(e->out);
	sb_table_set_int(e->out, row, "jobs", e->jobs);
	sb_table_set_int(e->out, row, "servers", e->servers);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "method", method);
	sb_table_set_int(e->out, row, "configs", e->configs);
	sb_table_set_dbl(e->out, row, "cost", b && !b->has_incumbent ? NAN : cost);
	sb_table_set_str(e->out, row, "status", b ? b->status : "heuristic");
	sb_table_set_dbl(e->out, row, "bound", b ? b->bound : NAN);
	sb_table_set_int(e->out, row, "nodes", b ? (int)b->nodes : 0);
	if (e->timing) {
		row = sb_table_add(e->timing);
		sb_table_set_int(e->timing, row, "jobs", e->jobs);
		sb_table_set_int(e->timing, row, "rep", e->rep);
		sb_table_set_str(e->timing, row, "method", method);
		sb_table_set_dbl(e->timing, row, "seconds", seconds);
	}
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), n = queue[point / reps], j, rc;
	struct rows e = { out, timing, n, (n + 3) / 4, point % reps, 0 };
	struct sb_alloc_inst in;
	struct sb_smd_round rd;
	struct sb_alloc_bound ilp;
	int *jobs = SB_NEW(int, n), *choice;
	double *rem = SB_NEW(double, n), t0, total;

	sb_alloc_exp_smd_inst(c, point, n, e.servers, &in);
	for (j = 0; j < n; j++) {
		jobs[j] = j;
		rem[j] = in.job[j].target;
	}
	t0 = sb_now();
	sb_smd_round_build(&rd, &in, jobs, n, rem, -1);
	choice = SB_NEW(int, n + 1);
	sb_smd_round_solve(&rd, choice);
	e.configs = rd.m.off[n];
	if ((rc = emit(&e, &rd, "smd", choice, NULL, sb_now() - t0, err)))
		goto out;
	t0 = sb_now();
	if ((rc = sb_smd_round_solve_lp(&rd, choice, &total, err)) ||
	    (rc = emit(&e, &rd, "smd-lp-outer", choice, NULL, sb_now() - t0, err)))
		goto out;
	t0 = sb_now();
	if ((rc = sb_alloc_mmkp_bound(&rd.m, 0, &ilp, err)) ||
	    (rc = emit(&e, &rd, "ilp", NULL, &ilp, sb_now() - t0, err)))
		goto out;
out:
	sb_free(choice);
	sb_free(jobs);
	sb_free(rem);
	sb_smd_round_release(&rd);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_smd_runtime = {
	.name = "alloc_smd_runtime",
	.desc = "time to decide one round against the queued jobs: SMD, LP-outer, MMKP ILP (wall clock)",
	.figure = "smd-F5",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=4",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_alloc_exp_smd_teardown,
};
