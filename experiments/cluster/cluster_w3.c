/*
 * cluster_w3.c - figure asrpt-F1 (spec asrpt.md §10): average JCT of every
 * scheduler on the Tiresias 60-job trace (W3) on the 16-GPU testbed
 * emulation (4 servers x 4 GPUs, PCIe inside, 10 GbE between), plus the
 * placement ablations of A-SRPT. Replicates differ only in the policies'
 * random streams (the trace is fixed). Without `make data` a synthetic
 * stand-in of the same shape is used, and the results say so.
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 3, 1, 100, 1, "replicates (policy random streams)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = { SB_CLUSTER_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static const char *const ablations[] = {
	"asrpt+packed", "asrpt+firstfit", "asrpt+random", "asrpt-pre+firstfit", NULL,
};

struct state {
	int reps, real;
	struct sb_cluster cl;
	struct sb_jobset js;
	char **labels;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	int rc;
	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->labels = sb_cluster_exp_all_schedulers(ablations);
	rc = sb_cluster_named("testbed", &s->cl, err);
	if (!rc)
		rc = sb_cluster_exp_w3(c, &s->cl, &s->js, &s->real, err);
	if (!rc)
		snprintf(c->inputs_note, sizeof c->inputs_note, "%s", s->js.source);
	c->npoints = s->reps;
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int k, rc = 0;
	for (k = 0; s->labels[k] && !rc; k++)
		rc = sb_cluster_exp_run(c, &s->cl, &s->js, s->real ? "W3" : "W3-synthetic",
				  s->labels[k], NULL, 0, point, 0, out, timing, NULL, err);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct state *s = c->state;
	if (!s)
		return;
	sb_exp_free_list(s->labels);
	sb_jobset_release(&s->js);
	sb_free(s);
}

const struct sb_experiment sb_experiment_cluster_w3 = {
	.name = "cluster_w3",
	.desc = "average JCT of every scheduler on the Tiresias 60-job trace, 16 GPUs",
	.figure = "asrpt-F1",
	.family = "cluster",
	.params = params,
	.quick_set = "reps=2",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "policy",
	.summary_of = "jct_mean jct_p95 makespan ratio_lb1 util slowdown",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
