/*
 * cluster_w2.c - table asrpt-T2 (spec asrpt.md §10): average JCT of every
 * scheduler on the Tiresias 60-job trace (W3) on the 16-GPU testbed
 * emulation (4 servers x 4 GPUs, PCIe inside, 10 GbE between), plus the
 * placement ablations of A-SRPT. Replicates differ only in the policies'
 * random streams (the trace is fixed). Without `make data` a synthetic
 * stand-in of the same shape is used, and the results say so.
 */
#include "common.h"
#include "workloads/cluster/trace.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 2, 1, 100, 1, "replicates (model draws and policy streams)" },
	{ "load", 0.8, 0.05, 2, 0, "offered load the arrivals are scaled to" },
	{ "warmup", 0.2, 0, 0.9, 0, "share of the first jobs left out of the metrics" },
	{ "jobs", 0, 0, 1e7, 1, "only the first this many jobs of the trace (0: all; QUICK runs a prefix)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = { SB_CLUSTER_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col timing_cols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

struct state {
	int reps, real, jobs;
	double load, warmup;
	struct sb_cluster cl;
	struct sb_trace tr;
	char **labels;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	char buf[4096];
	const char *path = sb_exp_data(c, "philly/jobs.json", buf, sizeof buf);
	int rc;
	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->load = sb_opts_get(&c->opts, "load");
	s->warmup = sb_opts_get(&c->opts, "warmup");
	s->jobs = (int)sb_opts_get(&c->opts, "jobs");
	s->labels = sb_cluster_exp_all_schedulers(NULL);
	rc = sb_cluster_named("sim512", &s->cl, err);
	if (!rc && path) {
		rc = sb_load_philly_jobs(path, &s->tr, err);
		if (!rc)
			rc = sb_exp_add_input(c, path, err);
		s->real = rc == 0;
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s",
		 s->real ? "real: Philly jobs.json (W2: submission times, GPU counts, runtimes; "
			   "models and recurrence synthesised)"
			 : "synthetic fallback: W1 (no Philly data; run make data)");
	c->npoints = s->reps;
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	struct sb_jobset js;
	struct sb_rng r = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	int k, rc = 0;
	if (s->real) {
		rc = sb_w2_from_trace(&s->tr, &s->cl, s->load, &r, &js, err);
		if (rc)
			return rc;
	} else {
		sb_cluster_exp_w1(c, &s->cl, 1000, s->load, (uint64_t)point, &js);
	}
	/* jobs are in arrival order, so a prefix is a shorter trace at the same
	 * rate */
	if (s->jobs > 0 && js.n > s->jobs)
		js.n = s->jobs;
	for (k = 0; s->labels[k] && !rc; k++)
		rc = sb_cluster_exp_run(c, &s->cl, &js, s->real ? "W2" : "W1-fallback", s->labels[k], NULL,
				  (uint64_t)point, point, (int)(s->warmup * js.n), out, timing, NULL,
				  err);
	sb_jobset_release(&js);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct state *s = c->state;
	if (!s)
		return;
	sb_exp_free_list(s->labels);
	if (s->real)
		sb_trace_release(&s->tr);
	sb_free(s);
}

const struct sb_experiment sb_experiment_cluster_w2 = {
	.name = "cluster_w2",
	.desc = "every scheduler on W2 (Philly-derived, large jobs) at load 0.8, 512 GPUs",
	.figure = "asrpt-T2",
	.family = "cluster",
	.params = params,
	.quick_set = "reps=1 jobs=600",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "policy",
	.summary_of = "jct_mean jct_p95 makespan ratio_lb1 util slowdown",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
