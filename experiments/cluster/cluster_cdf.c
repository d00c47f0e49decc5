/*
 * cluster_cdf.c - figure asrpt-F2 (spec asrpt.md §10): the distribution of job
 * completion times on W1 at load 0.8, 128 GPUs, one row per job and
 * policy (warm-up jobs excluded), for the CDF plot. Every policy's run is
 * validated by the checker like everywhere else.
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "jobs", 1000, 20, 1e6, 1, "jobs in the workload" },
	{ "reps", 1, 1, 100, 1, "workloads (seeds)" },
	{ "load", 0.8, 0.05, 2, 0, "offered load" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "policy", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "job", SB_COL_INT, "" },
	{ "gpus", SB_COL_INT, "" },
	{ "family", SB_COL_INT, "" },
	{ "ref_time", SB_COL_DBL, "s" },
	{ "jct", SB_COL_DBL, "s" },
	{ "queue", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

static const char *const labels[] = {
	"asrpt", "asrpt-pre", "asrpt-oracle", "tiresias", "srpt-mean", "srpt-oracle",
	"fifo", "fifo-bf", NULL,
};

static const struct sb_col run_cols[] = { SB_CLUSTER_EXP_COLS, { NULL, 0, NULL } };

struct state {
	int jobs, reps;
	double load, warmup;
	struct sb_cluster cl;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	c->state = s;
	s->jobs = (int)sb_opts_get(&c->opts, "jobs");
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->load = sb_opts_get(&c->opts, "load");
	s->warmup = sb_opts_get(&c->opts, "warmup");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: W1 recurring job families of our own (spec asrpt.md section 8)");
	c->npoints = s->reps;
	return sb_cluster_named("sim128", &s->cl, err);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	struct sb_jobset js;
	struct sb_table scratch;
	int k, j, rc = 0, first = (int)(s->warmup * s->jobs);

	(void)timing;
	sb_cluster_exp_w1(c, &s->cl, s->jobs, s->load, (uint64_t)point, &js);
	sb_table_init(&scratch, run_cols);
	for (k = 0; labels[k] && !rc; k++) {
		struct sb_cluster_result r;
		rc = sb_cluster_exp_run(c, &s->cl, &js, "W1", labels[k], NULL, (uint64_t)point, point,
				  first, &scratch, NULL, &r, err);
		if (rc)
			break;
		for (j = first; j < js.n; j++) {
			size_t row = sb_table_add(out);
			sb_table_set_str(out, row, "policy",
					 sb_table_get_str(&scratch, scratch.nrow - 1,
							  sb_table_col(&scratch, "policy")));
			sb_table_set_int(out, row, "rep", point);
			sb_table_set_int(out, row, "job", j);
			sb_table_set_int(out, row, "gpus", js.job[j].gpus);
			sb_table_set_int(out, row, "family", js.job[j].family);
			sb_table_set_dbl(out, row, "ref_time", (double)js.job[j].iters * r.tau_ref[j]);
			sb_table_set_dbl(out, row, "jct", r.finish[j] - js.job[j].arrival);
			sb_table_set_dbl(out, row, "queue", r.first_start[j] - js.job[j].arrival);
		}
		sb_cluster_result_release(&r);
	}
	sb_table_release(&scratch);
	sb_jobset_release(&js);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	sb_free(c->state);
}

const struct sb_experiment sb_experiment_cluster_cdf = {
	.name = "cluster_cdf",
	.desc = "per-job completion times (for the JCT CDF), W1 at load 0.8, 128 GPUs",
	.figure = "asrpt-F2",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=200",
	.cols = cols,
	.summary_by = "policy",
	.summary_of = "jct queue",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
