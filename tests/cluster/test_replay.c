/*
 * test_replay.c - trace-replay mode of clustersim (the semantics of
 * Tiresias' simulator) and the 2D-Gittins index: what can be held without
 * upstream's code, and the numbers upstream's simulator gives on its own
 * 60-job trace (measured with SymbioticLab/Tiresias simulator/run_sim.py,
 * scheme "count", schedules fifo, dlas-gpu and dlas-gpu-gittins; README,
 * "Replaying the Tiresias trace").
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baselines/cluster/tiresias.h"
#include "cluster/cluster.h"
#include "tests/testutil.h"
#include "workloads/cluster/jobs.h"
#include "workloads/cluster/trace.h"

static struct sb_cluster named(const char *name)
{
	struct sb_cluster c;
	struct sb_err err;
	cr_assert_eq(sb_cluster_named(name, &c, &err), 0);
	return c;
}

/* n data-parallel VGG-16 jobs (heavy gradients: placement matters). */
static void vgg_jobs(struct sb_jobset *js, int n)
{
	int nc, k = sb_catalog_find("vgg16"), i;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = n;
	js->job = SB_NEW(struct sb_job, n);
	for (i = 0; i < n; i++) {
		struct sb_job *j = &js->job[i];
		j->id = i;
		j->model = k;
		j->d = j->gpus = 4;
		j->t = j->p = 1;
		j->micro = 4;
		j->batch = cat[k].model.batch;
		j->iters = 100;
		j->family = -1;
		j->trace_runtime = 100;
	}
}

static int run(const struct sb_cluster *c, const struct sb_jobset *js, const char *policy,
	       const char *set, struct sb_cluster_result *r)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_err err;
	char why[256];
	int rc;
	cr_assert_eq(sb_cluster_combo_parse(&cb, policy, &err), 0, "%s", err.msg);
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	if (set)
		cr_assert_eq(sb_opts_set(&so, cb.sched->params, set, "test", &err), 0, "%s", err.msg);
	rc = sb_cluster_simulate(c, js, &cb, &so, &po, 5, r, &err);
	cr_assert_eq(rc, 0, "%s: %s", policy, err.msg);
	cr_assert_eq(sb_cluster_check(c, js, r, why, sizeof why), 0, "%s: %s", policy, why);
	return rc;
}

/* A 4-GPU job spread over four servers runs its trace duration in replay
 * mode, and longer in the placement model; arrivals are seen at the next
 * whole second. */
Test(replay, duration_whatever_the_placement)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	int i;

	vgg_jobs(&js, 4);
	for (i = 0; i < 4; i++)
		js.job[i].arrival = 0.5;
	c.replay = 1;
	run(&c, &js, "fifo+random", NULL, &r);
	for (i = 0; i < 4; i++)
		cr_expect_eq(r.finish[i], 101, "job %d finishes at %g", i, r.finish[i]);
	sb_cluster_result_release(&r);
	c.replay = 0;
	run(&c, &js, "fifo+random", NULL, &r);
	for (i = 0; i < 4; i++)
		cr_expect(r.finish[i] != 101, "placement model: job %d unaffected", i);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

Test(replay, no_restart_and_durations_required)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_err err;

	c.replay = 1;
	cr_expect_eq(sb_cluster_restart(&c), 0);
	c.replay = 0;
	cr_expect_eq(sb_cluster_restart(&c), 30);
	vgg_jobs(&js, 2);
	js.job[1].trace_runtime = -1;
	c.replay = 1;
	cr_expect_eq(sb_jobset_validate(&js, &c, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "job 1: field 'trace_runtime") != NULL, "%s", err.msg);
	sb_jobset_release(&js);
}

/* Tiresias' rule admits every job that fits by GPU count: a 4-GPU job
 * starts beside an 8-GPU one while a 12-GPU job ahead of it waits; D2
 * stops at the 12-GPU job, so both start when the 8-GPU job ends. */
Test(replay, fitfirst_skips_what_does_not_fit)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;

	vgg_jobs(&js, 3);
	js.job[0].d = js.job[0].gpus = 8;
	js.job[1].d = js.job[1].gpus = 12;
	js.job[1].arrival = 1;
	js.job[2].arrival = 2;
	js.job[0].batch = js.job[1].batch = 256;
	c.replay = 1;
	run(&c, &js, "tiresias", NULL, &r);
	cr_expect_eq(r.first_start[2], 2);
	cr_expect_eq(r.first_start[1], 100);
	sb_cluster_result_release(&r);
	run(&c, &js, "tiresias", "fitfirst=0", &r);
	cr_expect_eq(r.first_start[2], 100);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* Indices of a 4-sample distribution, delta 15, as upstream's
 * cal_r_gittins_index and get_gittins_index return them. */
Test(replay, gittins_index_table)
{
	static const double v[] = { 40, 10, 30, 20 };
	static const double a[] = { 0, 9, 10, 15, 25, 39, 40, 100 };
	static const double want[] = { 33333.3333, 33333.3333, 31746.1905, 31746.1905,
				       22727.2727, 0, 0, 0 };
	struct sb_gittins g;
	size_t i;
	memset(&g, 0, sizeof g);
	sb_gittins_build(&g, v, 4, 15);
	for (i = 0; i < sizeof a / sizeof a[0]; i++)
		cr_expect(fabs(sb_gittins_index(&g, a[i]) - want[i]) < 1e-9, "a = %g: %.10g, want %g",
			  a[i], sb_gittins_index(&g, a[i]), want[i]);
	sb_gittins_release(&g);
}

/* Mean JCT (s) and preemptions of Tiresias' simulator on 60_job.csv. */
static const struct {
	const char *cluster, *policy;
	double jct;
	long preempt;
} upstream[] = {
	{ "testbed", "fifo", 200.81666666666666, 0 },
	{ "testbed", "tiresias", 190.68333333333334, 0 },
	{ "testbed", "tiresias-gittins", 219.05, 35 },
	{ "tiresias64", "fifo", 178.41666666666666, 0 },
	{ "tiresias64", "tiresias", 178.41666666666666, 0 },
	{ "tiresias64", "tiresias-gittins", 178.41666666666666, 0 },
	{ "sim128", "fifo", 178.41666666666666, 0 },
	{ "sim128", "tiresias", 178.41666666666666, 0 },
	{ "sim128", "tiresias-gittins", 178.41666666666666, 0 },
};

Test(replay, tiresias_trace_as_upstream)
{
	struct sb_trace t;
	struct sb_err err;
	size_t k;
	DATA_OR_SKIP(path, "tiresias/60_job.csv");
	DATA_OR_SKIP(hist, "tiresias/yarn-gput1000.csv");

	cr_assert_eq(sb_load_tiresias_jobs(path, &t, &err), 0, "%s", err.msg);
	for (k = 0; k < sizeof upstream / sizeof upstream[0]; k++) {
		struct sb_cluster c = named(upstream[k].cluster);
		struct sb_jobset js;
		struct sb_cluster_result r;
		struct sb_cluster_metrics m;
		c.replay = 1;
		cr_assert_eq(sb_w3_from_trace(&t, &c, SB_W3_REPLAY, &js, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_load_values(hist, "duration", &js.hist, &js.nhist, &err), 0, "%s",
			     err.msg);
		run(&c, &js, upstream[k].policy, NULL, &r);
		sb_cluster_metrics(&c, &js, &r, 0, &m);
		cr_expect(fabs(m.jct_mean - upstream[k].jct) < 1e-9, "%s on %s: %.10g, upstream %.10g",
			  upstream[k].policy, upstream[k].cluster, m.jct_mean, upstream[k].jct);
		cr_expect_eq(m.preemptions, upstream[k].preempt, "%s on %s: %ld preemptions",
			     upstream[k].policy, upstream[k].cluster, m.preemptions);
		sb_cluster_result_release(&r);
		sb_jobset_release(&js);
	}
	sb_trace_release(&t);
}
