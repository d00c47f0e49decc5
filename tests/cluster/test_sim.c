/*
 * test_sim.c - the cluster family's core: job graphs and iteration
 * times, the simulator and its independent checker, W1, and the shared
 * properties of every registered scheduler and placer.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/util.h"
#include "workloads/cluster/jobs.h"
#include "registry.h"

static struct sb_cluster named(const char *name)
{
	struct sb_cluster c;
	struct sb_err err;
	cr_assert_eq(sb_cluster_named(name, &c, &err), 0);
	return c;
}

static struct sb_job job_of(const char *model, int d, int t, int p)
{
	struct sb_job j;
	int nc, k = sb_catalog_find(model);
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	cr_assert(k >= 0, "model %s in the catalogue", model);
	memset(&j, 0, sizeof j);
	j.model = k;
	j.d = d;
	j.t = t;
	j.p = p;
	j.gpus = d * t * p;
	j.micro = 4 * p;
	j.batch = cat[k].model.batch;
	j.iters = 100;
	j.family = -1;
	return j;
}

/* The spec's sanity check (asrpt.md §8): GPT-2 medium (2,2,2) on 8 GPUs,
 * T_comp about 0.18 s per iteration and about 3.2 GB of tensor-parallel
 * traffic per GPU per iteration, 11 ms over NVLink, 0.26 s across servers. */
Test(cluster, gpt2_medium_sanity)
{
	struct sb_cluster c = named("sim128");
	struct sb_job j = job_of("gpt2-medium", 2, 2, 2);
	int nc, e, ntp = 0, srv[8], v;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	struct sb_jobgraph h;
	double one, split;

	sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
	cr_assert_eq(h.nv, 8);
	cr_expect(fabs(h.t_comp - 0.18) < 0.005, "T_comp %g", h.t_comp);
	for (e = 0; e < h.ne; e++)
		if (h.type[e] == SB_EDGE_TP) {
			ntp++;
			cr_expect(fabs(h.w[e] - 3.22e9) < 0.01e9, "TP bytes %g", h.w[e]);
			cr_expect(fabs(h.w[e] / c.b_in - 0.0107) < 0.0005);
			cr_expect(fabs(h.w[e] / c.b_out - 0.258) < 0.002);
		}
	cr_expect_eq(ntp, 4, "one TP edge per (replica, stage) pair of shards");
	for (v = 0; v < 8; v++)
		srv[v] = 0;
	one = sb_job_iter_time(&c, &h, srv);
	cr_expect(fabs(one - sb_job_iter_time_lb(&c, &h)) < 1e-12,
		  "one server: every transfer at intra-server speed");
	/* split a tensor-parallel pair across servers: slower */
	srv[1] = 1;
	split = sb_job_iter_time(&c, &h, srv);
	cr_expect(split > one + 0.2, "split TP pair %g vs %g", split, one);
	cr_expect(sb_jobgraph_cut(&h, srv) > 3e9);
	sb_jobgraph_release(&h);
}

/* Splitting a tensor-parallel group over servers never makes an iteration
 * faster than keeping it on one server, and no placement of any catalogue
 * job beats sb_job_iter_time_lb (spec §11). */
Test(cluster, tau_never_below_one_server)
{
	struct sb_cluster c = named("sim128");
	int nc, k, cf, trial, t;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	struct sb_rng r = sb_rng_stream(5, 0, 0, SB_RNG_TEST);

	for (t = 2; t <= 8; t *= 2) {
		struct sb_job j = job_of("gpt2-large", 1, t, 1);
		struct sb_jobgraph h;
		int srv[8] = { 0 }, v;
		double one;
		sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
		one = sb_job_iter_time(&c, &h, srv);
		for (trial = 0; trial < 50; trial++) {
			for (v = 0; v < t; v++)
				srv[v] = (int)sb_rng_below(&r, 3);
			cr_expect(sb_job_iter_time(&c, &h, srv) >= one - 1e-12);
		}
		sb_jobgraph_release(&h);
	}
	for (k = 0; k < nc; k++)
		for (cf = 0; cf < cat[k].nconf; cf++) {
			const struct sb_config *f = &cat[k].conf[cf];
			struct sb_job j = job_of(cat[k].model.name, f->d, f->t, f->p);
			struct sb_jobgraph h;
			int srv[64], v;
			double lb;
			sb_jobgraph_build(&h, &j, &cat[k].model, &c);
			lb = sb_job_iter_time_lb(&c, &h);
			cr_expect(lb > 0 && isfinite(lb));
			for (trial = 0; trial < 20; trial++) {
				for (v = 0; v < h.nv; v++)
					srv[v] = (int)sb_rng_below(&r, 5);
				cr_expect(sb_job_iter_time(&c, &h, srv) >= lb * (1 - 1e-12),
					  "%s (%d,%d,%d)", cat[k].model.name, f->d, f->t, f->p);
			}
			sb_jobgraph_release(&h);
		}
}

/* Additive model: tau = T_comp + sum w / b_in + cut (1/b_out - 1/b_in),
 * so minimising tau is minimising the weighted cut. */
Test(cluster, additive_tau_is_cut)
{
	struct sb_cluster c = named("sim128");
	struct sb_job j = job_of("bert-large", 2, 2, 2);
	int nc, srv[8] = { 0, 0, 1, 1, 0, 1, 0, 1 }, e;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	struct sb_jobgraph h;
	double sum = 0, cut, tau;

	c.additive = 1;
	sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
	for (e = 0; e < h.ne; e++)
		sum += h.w[e] / c.b_in;
	cut = sb_jobgraph_cut(&h, srv);
	tau = sb_job_iter_time(&c, &h, srv);
	cr_expect(fabs(tau - (h.t_comp + sum + cut * (1 / c.b_out - 1 / c.b_in))) <=
		  1e-12 * tau, "additive tau %g", tau);
	sb_jobgraph_release(&h);
}

/* ------------------------------------------------------------------ */
/* Simulation                                                          */
/* ------------------------------------------------------------------ */

/* Run policy with "key=value" scheduler options (NULL: defaults). */
static int run_set(const struct sb_cluster *c, const struct sb_jobset *js, const char *policy,
		   const char *set, struct sb_cluster_result *r, struct sb_err *err)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	int rc = sb_cluster_combo_parse(&cb, policy, err);
	if (rc)
		return rc;
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	if (set && (rc = sb_opts_set(&so, cb.sched->params, set, policy, err)) != 0)
		return rc;
	return sb_cluster_simulate(c, js, &cb, &so, &po, 7, r, err);
}

static int run(const struct sb_cluster *c, const struct sb_jobset *js, const char *policy,
	       struct sb_cluster_result *r, struct sb_err *err)
{
	return run_set(c, js, policy, NULL, r, err);
}

static void small_w1(struct sb_jobset *js, const struct sb_cluster *c, int n, double load,
		     uint64_t seed)
{
	struct sb_w1_params p;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);
	sb_w1_defaults(&p);
	p.njobs = n;
	p.load = load;
	p.max_base = 3e3;
	p.max_gpus = c->nserver * c->gpus;
	sb_w1_generate(js, &p, c, &r);
}

Test(cluster, w1_is_valid_and_deterministic)
{
	struct sb_cluster c = named("sim128");
	struct sb_jobset a, b;
	struct sb_err err;
	int i, fam = 0;

	small_w1(&a, &c, 400, 0.8, 3);
	small_w1(&b, &c, 400, 0.8, 3);
	cr_assert_eq(sb_jobset_validate(&a, &c, &err), 0, "%s", err.msg);
	for (i = 0; i < a.n; i++) {
		cr_assert(memcmp(&a.job[i], &b.job[i], sizeof a.job[i]) == 0, "job %d differs", i);
		fam += a.job[i].family >= 0;
	}
	cr_expect(fam > 0.7 * a.n && fam < 0.9 * a.n, "%d of %d jobs in families", fam, a.n);
	sb_jobset_release(&a);
	sb_jobset_release(&b);
}

/* Every registered scheduler with every registered placer: the run passes
 * the independent checker, and the same seed gives the same result. */
Test(cluster, every_policy_is_valid)
{
	struct sb_cluster c = named("testbed");
	int ns, a, b, inst;
	const struct sb_cluster_policy *const *all = sb_cluster_policies(&ns);

	for (inst = 0; inst < 4; inst++) {
		struct sb_jobset js;
		small_w1(&js, &c, 60, 0.5 + 0.2 * inst, 100 + inst);
		/* the testbed has 16 GPUs: keep jobs that fit */
		for (a = 0; a < js.n; a++)
			cr_assert(js.job[a].gpus <= 16);
		for (a = 0; a < ns; a++) {
			if (!all[a]->schedule)
				continue;
			for (b = 0; b < ns; b++) {
				struct sb_cluster_result r1, r2;
				struct sb_err err;
				char label[128], why[256];
				int k;
				if (!all[b]->place)
					continue;
				snprintf(label, sizeof label, "%s+%s", all[a]->name, all[b]->name);
				cr_assert_eq(run(&c, &js, label, &r1, &err), 0, "%s: %s", label, err.msg);
				cr_assert_eq(sb_cluster_check(&c, &js, &r1, why, sizeof why), 0,
					     "%s: %s", label, why);
				cr_assert_eq(run(&c, &js, label, &r2, &err), 0);
				cr_assert_eq(r1.nseg, r2.nseg, "%s: not deterministic", label);
				for (k = 0; k < js.n; k++)
					cr_assert(r1.finish[k] == r2.finish[k], "%s: job %d", label, k);
				sb_cluster_result_release(&r1);
				sb_cluster_result_release(&r2);
			}
		}
		sb_jobset_release(&js);
	}
}

/* The checker is not a rubber stamp: tampered results fail. */
Test(cluster, checker_catches_tampering)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_err err;
	char why[256];
	int k, other = -1;
	long it;
	double t;

	small_w1(&js, &c, 40, 0.9, 11);
	cr_assert_eq(run(&c, &js, "fifo+packed", &r, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0, "%s", why);

	/* an iteration missing */
	it = r.seg[0].iters;
	r.seg[0].iters--;
	cr_expect_neq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0);
	r.seg[0].iters = it;
	/* a start before the arrival */
	t = r.seg[3].start;
	r.seg[3].start = js.job[r.seg[3].job].arrival - 1;
	cr_expect_neq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0);
	r.seg[3].start = t;
	/* two jobs on one GPU at once: give segment 1 the GPUs of an
	 * overlapping segment */
	for (k = 1; k < r.nseg && other < 0; k++)
		if (r.seg[k].start < r.seg[0].end && r.seg[k].end > r.seg[0].start)
			other = k;
	if (other > 0) {
		int save = r.gpu[r.seg[other].gpu_off];
		r.gpu[r.seg[other].gpu_off] = r.gpu[r.seg[0].gpu_off];
		cr_expect_neq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0);
		r.gpu[r.seg[other].gpu_off] = save;
	}
	/* a wrong finish time */
	r.finish[5] += 1;
	cr_expect_neq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0);
	r.finish[5] -= 1;
	cr_expect_eq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0, "%s", why);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* FIFO on one server with one GPU and unit jobs: finish times are the
 * textbook cumulative sums. */
Test(cluster, fifo_single_gpu_textbook)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_err err;
	char why[256];
	int i;
	double t = 0, tau;

	c.nserver = 1;
	c.gpus = 1;
	memset(&js, 0, sizeof js);
	sb_catalog_models(&js);
	js.n = 5;
	js.job = calloc(5, sizeof *js.job);
	for (i = 0; i < 5; i++) {
		js.job[i] = job_of("resnet50", 1, 1, 1);
		js.job[i].id = i;
		js.job[i].arrival = 0;
		js.job[i].iters = 100 * (5 - i);
	}
	cr_assert_eq(run(&c, &js, "fifo+firstfit", &r, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0, "%s", why);
	tau = r.tau_ref[0];
	for (i = 0; i < 5; i++) {
		t += (double)js.job[i].iters * tau;
		cr_expect(fabs(r.finish[i] - t) <= 1e-9 * t, "job %d: %g vs %g", i, r.finish[i], t);
	}
	sb_cluster_result_release(&r);
	free(js.job);
	js.job = NULL;
	sb_jobset_release(&js);
}

/* A policy that never starts anything is reported, not looped on. */
static void do_nothing(void *ctx, struct sb_csim *s)
{
	(void)ctx;
	(void)s;
}

static const struct sb_cluster_policy lazy = {
	.name = "lazy", .schedule = do_nothing, .default_place = "packed",
};

Test(cluster, stalled_policy_is_an_error)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_cluster_combo cb;
	struct sb_opts o;
	struct sb_err err;

	small_w1(&js, &c, 10, 0.5, 1);
	memset(&cb, 0, sizeof cb);
	cb.sched = &lazy;
	cb.place = sb_cluster_policy_find("packed");
	snprintf(cb.label, sizeof cb.label, "lazy+packed");
	sb_opts_defaults(&o, NULL);
	cr_assert_eq(sb_cluster_simulate(&c, &js, &cb, &o, &o, 1, &r, &err), SB_EXIT_RUN);
	cr_expect(strstr(err.msg, "idle cluster") != NULL, "%s", err.msg);
	sb_jobset_release(&js);
}

/* A policy whose solver cannot answer fails the run (nothing recorded),
 * instead of deciding something else quietly. It fails at its third
 * decision, after jobs have started. */
static void fail_third(void *ctx, struct sb_csim *s)
{
	int *calls = ctx, n, i;
	const int *act;
	if (++*calls == 3) {
		sb_cluster_sim_fail(s, "solver stopped on its safety net (%d)", 42);
		return;
	}
	act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++)
		if (sb_cluster_sim_state(s, act[i]) == SB_JOB_PENDING)
			sb_cluster_sim_start(s, act[i]);
}

static int fail_calls;

static void *fail_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	(void)s;
	(void)o;
	(void)rng;
	fail_calls = 0;
	return &fail_calls;
}

static const struct sb_cluster_policy failing = {
	.name = "failing", .init = fail_init, .schedule = fail_third, .default_place = "packed",
};

Test(cluster, policy_failure_fails_the_run)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_cluster_combo cb;
	struct sb_opts o;
	struct sb_err err;

	small_w1(&js, &c, 10, 0.5, 1);
	memset(&cb, 0, sizeof cb);
	cb.sched = &failing;
	cb.place = sb_cluster_policy_find("packed");
	snprintf(cb.label, sizeof cb.label, "failing+packed");
	sb_opts_defaults(&o, NULL);
	cr_assert_eq(sb_cluster_simulate(&c, &js, &cb, &o, &o, 1, &r, &err), SB_EXIT_RUN);
	cr_expect(strstr(err.msg, "policy failing+packed failed") != NULL, "%s", err.msg);
	cr_expect(strstr(err.msg, "safety net (42)") != NULL, "%s", err.msg);
	cr_expect_eq(fail_calls, 3);
	sb_jobset_release(&js);
}

Test(cluster, bad_input)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_err err;

	small_w1(&js, &c, 10, 0.5, 2);
	js.job[3].gpus = 32;
	js.job[3].d = 32;
	js.job[3].t = js.job[3].p = 1;
	cr_expect_eq(run(&c, &js, "fifo", &r, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "job 3") && strstr(err.msg, "gpus"), "%s", err.msg);
	js.job[3].gpus = js.job[3].d = 1;
	js.job[3].t = js.job[3].p = 1;
	js.job[4].arrival = -1;
	cr_expect_eq(run(&c, &js, "fifo", &r, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "arrival") != NULL, "%s", err.msg);
	js.job[4].arrival = js.job[3].arrival;
	c.b_out = 2 * c.b_in;
	cr_expect_eq(run(&c, &js, "fifo", &r, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "inter-server") != NULL, "%s", err.msg);
	cr_expect_eq(run(&c, &js, "nosuch", &r, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "fifo") != NULL, "lists the schedulers: %s", err.msg);
	cr_expect_eq(run(&c, &js, "fifo+fifo", &r, &err), SB_EXIT_INPUT);
	sb_jobset_release(&js);
}

/* Regression: the strict list dispatcher started at most one job per
 * decision, so four 1-GPU jobs arriving together on a free server ran one
 * after another. All four must start at once. */
Test(cluster, fifo_starts_every_job_that_fits)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_err err;
	int i;
	const char *pols[] = { "fifo", "asrpt-oracle", NULL };

	memset(&js, 0, sizeof js);
	sb_catalog_models(&js);
	js.n = 4;
	js.job = calloc(4, sizeof *js.job);
	for (i = 0; i < 4; i++) {
		js.job[i] = job_of("resnet50", 1, 1, 1);
		js.job[i].id = i;
	}
	for (i = 0; pols[i]; i++) {
		int k;
		double last = 0;
		cr_assert_eq(run(&c, &js, pols[i], &r, &err), 0, "%s", err.msg);
		for (k = 0; k < 4; k++)
			last = sb_max(last, r.first_start[k]);
		/* fifo: at once; the virtual machine releases them by t = W / N */
		cr_expect(last <= (i == 0 ? 0 : 4 * 100 * r.tau_ref[0] / 16 + 1e-9),
			  "%s: last start %g", pols[i], last);
		sb_cluster_result_release(&r);
	}
	free(js.job);
	js.job = NULL;
	sb_jobset_release(&js);
}


/* Issue #11: A-SRPT's strict list (dispatch=1) with exact predictions
 * still checks our Lemma 2 per job at the end of every run (a violation
 * aborts), now that asrpt-oracle's own dispatch is D0; and D0 without the
 * compact rule never leaves GPUs idle while a waiting job has room for it
 * by count, which the capacity account of the metrics measures. */
Test(cluster, asrpt_readings_of_step_d)
{
	struct sb_cluster c = named("sim128");
	int inst;

	c.restart = 0;
	for (inst = 0; inst < 3; inst++) {
		struct sb_jobset js;
		struct sb_cluster_result r;
		struct sb_cluster_metrics m;
		struct sb_err err;
		char why[256];

		small_w1(&js, &c, 300, 0.9, 40 + inst);
		cr_assert_eq(run_set(&c, &js, "asrpt-oracle", "dispatch=1", &r, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0, "%s", why);
		sb_cluster_result_release(&r);
		cr_assert_eq(run_set(&c, &js, "asrpt-oracle", "compact=0", &r, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(sb_cluster_check(&c, &js, &r, why, sizeof why), 0, "%s", why);
		sb_cluster_metrics(&c, &js, &r, 0, &m);
		cr_expect(m.idle_fit == 0, "D0 left %g of the capacity idle with room", m.idle_fit);
		cr_expect(m.load_eff >= m.load_ref * (1 - 1e-9), "carried %g < offered %g",
			  m.load_eff, m.load_ref);
		sb_cluster_result_release(&r);
		sb_jobset_release(&js);
	}
}

/* The capacity account on a case worked by hand (16 GPUs): a 14-GPU job
 * at 0, then at 1 s a 4-GPU job and a 1-GPU job behind it. Strict FIFO
 * blocks on the 4-GPU head, so 2 GPUs idle with room for the small job
 * until the first job ends; backfilling starts the small job at once. */
Test(cluster, capacity_account)
{
	struct sb_cluster c = named("testbed");
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_cluster_metrics m;
	struct sb_err err;
	double t_small, t_big;

	memset(&js, 0, sizeof js);
	sb_catalog_models(&js);
	js.n = 3;
	js.job = calloc(3, sizeof *js.job);
	js.job[0] = job_of("resnet50", 14, 1, 1);   /* 14 of 16 GPUs */
	js.job[1] = job_of("resnet50", 4, 1, 1);    /* blocked head: needs 4 */
	js.job[2] = job_of("resnet50", 1, 1, 1);    /* would fit in the 2 free */
	js.job[1].arrival = js.job[2].arrival = 1;
	js.job[2].iters = 10;
	js.job[0].id = 0;
	js.job[1].id = 1;
	js.job[2].id = 2;
	cr_assert_eq(run(&c, &js, "fifo", &r, &err), 0, "%s", err.msg);
	sb_cluster_metrics(&c, &js, &r, 0, &m);
	/* 2 GPUs idle from t = 1 until job 0 ends, with job 2 waiting */
	t_big = r.finish[0];
	cr_expect(fabs(m.idle_fit * 16 * 1 - 2 * (t_big - 1)) <= 1e-6 * t_big,
		  "idle_fit %g, expected %g", m.idle_fit, 2 * (t_big - 1) / 16);
	cr_expect(m.spread == 0, "spread %g", m.spread);
	sb_cluster_result_release(&r);
	cr_assert_eq(run(&c, &js, "fifo-bf", &r, &err), 0, "%s", err.msg);
	sb_cluster_metrics(&c, &js, &r, 0, &m);
	t_small = r.finish[2];
	cr_expect(t_small < t_big, "backfilled");
	cr_expect(m.idle_fit == 0, "fifo-bf idle_fit %g", m.idle_fit);
	sb_cluster_result_release(&r);
	free(js.job);
	js.job = NULL;
	sb_jobset_release(&js);
}

/*
 * The fast paths of the cluster policies (issue #11 item 7)
 * give exactly the schedules of the plain ones: every waiting or running
 * job re-keyed and the whole queue sorted at every decision.
 *
 * The plain rank is the dispatcher's reference path
 * (sb_cluster_dispatch_plain = 1: sort everything, then D2 over the full
 * order); srpt-oracle's incremental keys are compared with a reference
 * copy here that recomputes every key. Seeded W1 instances, loaded enough
 * that queues form and jobs are preempted; segments compared field by
 * field, bit for bit.
 */

/* ------------------------------------------------------------------ */
/* Plain srpt-oracle: every active job re-keyed, the whole rank sorted  */
/* ------------------------------------------------------------------ */

struct ref_state {
	double qmin;
	double *key;
};

static void *ref_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct ref_state *st = SB_NEW(struct ref_state, 1);
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, sb_cluster_sim_njobs(s));
	return st;
}

static void ref_release(void *ctx)
{
	struct ref_state *st = ctx;
	sb_free(st->key);
	sb_free(st);
}

static const double *ref_key;

static int ref_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (ref_key[x] != ref_key[y])
		return ref_key[x] < ref_key[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static void ref_schedule(void *ctx, struct sb_csim *s)
{
	struct ref_state *st = ctx;
	int n, i, *order;
	const int *act = sb_cluster_sim_active(s, &n);
	order = SB_NEW(int, n > 0 ? n : 1);
	for (i = 0; i < n; i++) {
		const struct sb_job *j = sb_cluster_sim_job(s, act[i]);
		st->key[act[i]] = (double)j->gpus * (double)(j->iters - sb_cluster_sim_done(s, act[i])) *
				  sb_cluster_sim_tau_ref(s, act[i]);
		order[i] = act[i];
	}
	ref_key = st->key;
	qsort(order, (size_t)n, sizeof *order, ref_cmp);
	sb_cluster_dispatch_order(s, order, n, st->qmin, 0);
	sb_free(order);
}

/* ------------------------------------------------------------------ */
/* Comparison                                                          */
/* ------------------------------------------------------------------ */

/* Run sched with the options of `set` ("k=v,k=v", may be NULL); the
 * result must pass the checker. */
static void simulate(const struct sb_cluster *c, const struct sb_jobset *js,
		     const struct sb_cluster_policy *sched, const char *set,
		     struct sb_cluster_result *r)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_err err;
	char buf[256], *tok, *save = NULL, why[256];
	memset(&cb, 0, sizeof cb);
	cb.sched = sched;
	cb.place = sb_cluster_policy_find(sched->default_place);
	cr_assert(cb.place);
	snprintf(cb.label, sizeof cb.label, "%s", sched->name);
	sb_opts_defaults(&so, sched->params);
	sb_opts_defaults(&po, cb.place->params);
	snprintf(buf, sizeof buf, "%s", set ? set : "");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		cr_assert_eq(sb_opts_set(&so, sched->params, tok, sched->name, &err), 0, "%s",
			     err.msg);
	cr_assert_eq(sb_cluster_simulate(c, js, &cb, &so, &po, 7, r, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cluster_check(c, js, r, why, sizeof why), 0, "%s: %s", sched->name, why);
}

/* Same segments (job, times, iterations, GPUs) in the same order. */
static void same(const struct sb_cluster_result *a, const struct sb_cluster_result *b,
		 const struct sb_jobset *js, const char *what, int inst)
{
	int k, g;
	cr_assert_eq(a->nseg, b->nseg, "%s, instance %d: %d vs %d segments", what, inst,
		     a->nseg, b->nseg);
	for (k = 0; k < a->nseg; k++) {
		const struct sb_cluster_seg *x = &a->seg[k], *y = &b->seg[k];
		cr_assert(x->job == y->job && x->start == y->start && x->end == y->end &&
			  x->iters == y->iters && x->preempted == y->preempted,
			  "%s, instance %d: segment %d differs", what, inst, k);
		for (g = 0; g < js->job[x->job].gpus; g++)
			cr_assert_eq(a->gpu[x->gpu_off + g], b->gpu[y->gpu_off + g],
				     "%s, instance %d: GPUs of segment %d", what, inst, k);
	}
	for (k = 0; k < a->n; k++)
		cr_assert(a->finish[k] == b->finish[k], "%s, instance %d: job %d", what, inst, k);
}

/* Fast path (the registered policy) against the plain one: the reference
 * policy ref if given, else the same policy with the dispatcher and the
 * policies in their plain paths (sb_cluster_dispatch_plain), with the
 * options of `set`, at loads from load0 up. Two clusters (sim128 with its
 * restart overhead, testbed without). Returns the preemptions seen, so
 * that the instances are known to exercise the preemptive path. */
/* Nonzero: compare_load gives each job set a history of GPU-seconds (the
 * distribution tiresias-gittins reads instead of learning one): log-uniform
 * from 1 to 10^6 GPU-s, so that a running job crosses many of its sizes. */
static int with_history;

/* js's history: 2,000 GPU-second sizes, log-uniform from 1 to 10^6 */
static void dense_history(struct sb_jobset *js, struct sb_rng hr)
{
	int k;
	js->nhist = 2000;
	js->hist = SB_NEW(double, js->nhist);
	for (k = 0; k < js->nhist; k++)
		js->hist[k] = pow(10, 6 * sb_rng_uniform(&hr));
}

static int compare_load(const char *name, const struct sb_cluster_policy *ref, const char *set,
			double load0)
{
	const struct sb_cluster_policy *fast = sb_cluster_policy_find(name);
	const char *const names[] = { "sim128", "testbed" };
	int inst, k, ci, npre = 0;

	cr_assert(fast, "%s is registered", name);
	for (ci = 0; ci < 2; ci++) {
		struct sb_cluster c;
		struct sb_err err;
		char what[128];
		cr_assert_eq(sb_cluster_named(names[ci], &c, &err), 0);
		if (ci)
			c.restart = 0;
		snprintf(what, sizeof what, "%s [%s] on %s", name, set ? set : "", names[ci]);
		for (inst = 0; inst < 4; inst++) {
			struct sb_jobset js;
			struct sb_cluster_result rf, rp;
			small_w1(&js, &c, ci ? 150 : 300, load0 + 0.2 * inst, 40 + inst + 10 * ci);
			if (with_history)
				dense_history(&js, sb_rng_stream(77, inst, ci, SB_RNG_INSTANCE));
			sb_cluster_dispatch_plain = 0;
			simulate(&c, &js, fast, set, &rf);
			sb_cluster_dispatch_plain = ref == NULL;
			simulate(&c, &js, ref ? ref : fast, set, &rp);
			sb_cluster_dispatch_plain = 0;
			same(&rf, &rp, &js, what, inst);
			for (k = 0; k < rf.nseg; k++)
				npre += rf.seg[k].preempted;
			sb_cluster_result_release(&rf);
			sb_cluster_result_release(&rp);
			sb_jobset_release(&js);
		}
	}
	return npre;
}

static int compare_set(const char *name, const struct sb_cluster_policy *ref, const char *set)
{
	return compare_load(name, ref, set, 0.8);
}

static int compare(const char *name, const struct sb_cluster_policy *ref)
{
	return compare_set(name, ref, NULL);
}

Test(cluster_fast, srpt_oracle_incremental_keys)
{
	struct sb_cluster_policy ref = {
		.name = "srpt-oracle-plain",
		.clairvoyant = 1,
		.init = ref_init,
		.release = ref_release,
		.schedule = ref_schedule,
		.default_place = "packed",
	};
	ref.params = sb_cluster_policy_find("srpt-oracle")->params;
	cr_expect(compare("srpt-oracle", &ref) > 0, "instances with preemptions");
	/* and the dispatcher's own reference path agrees with the copy */
	cr_expect(compare("srpt-oracle", NULL) > 0);
}

/* srpt-mean's classes of waiting jobs: also with preemption at every
 * decision (qmin = 0), which makes many classes of partly done jobs. */
Test(cluster_fast, srpt_mean)
{
	cr_expect(compare("srpt-mean", NULL) > 0, "instances with preemptions");
	cr_expect(compare_set("srpt-mean", NULL, "qmin=0") > 0, "instances with preemptions");
}

Test(cluster_fast, tiresias)
{
	cr_expect(compare("tiresias", NULL) > 0, "instances with preemptions");
	cr_expect(compare_set("tiresias", NULL, "queues=2") > 0, "instances with preemptions");
	cr_expect(compare_set("tiresias", NULL, "queues=4") > 0, "instances with preemptions");
}

/* The Gittins table learnt from completions is rebuilt as they grow:
 * every waiting job is re-ranked then. */
Test(cluster_fast, tiresias_gittins)
{
	cr_expect(compare("tiresias-gittins", NULL) > 0, "instances with preemptions");
	cr_expect(compare_set("tiresias-gittins", NULL, "delta=500") > 0,
		  "instances with preemptions");
	/* qmin: 0 (preempt at any decision), and longer than the restart */
	cr_expect(compare_set("tiresias-gittins", NULL, "qmin=0") > 0,
		  "instances with preemptions");
	cr_expect(compare_set("tiresias-gittins", NULL, "qmin=200") > 0,
		  "instances with preemptions");
	cr_expect(compare_set("tiresias", NULL, "qmin=200") > 0, "instances with preemptions");
}

/* The Tiresias engine's default qmin is the cluster's restart cost: no run
 * is preempted before it has lasted one restart. With qmin = 0 the Gittins
 * order preempted runs still inside their restart, over and over (on the
 * Tiresias trace at 16 GPUs and a 30 s restart: 4,791 preemptions of 60
 * jobs, runs of 2-5 s that made no progress). A dense history makes the
 * index change often while a job runs. */
Test(cluster_fast, tiresias_runs_last_one_restart)
{
	const char *const pols[] = { "tiresias-gittins", "tiresias" };
	int pi, inst, k, early0 = 0;

	for (pi = 0; pi < 2; pi++)
		for (inst = 0; inst < 4; inst++) {
			const struct sb_cluster_policy *p = sb_cluster_policy_find(pols[pi]);
			struct sb_cluster c;
			struct sb_err err;
			struct sb_jobset js;
			struct sb_cluster_result r, r0;
			int npre = 0;
			cr_assert_eq(sb_cluster_named("sim128", &c, &err), 0);
			cr_assert(c.restart > 0);
			small_w1(&js, &c, 300, 1.0 + 0.1 * inst, 90 + inst);
			dense_history(&js, sb_rng_stream(78, inst, 0, SB_RNG_INSTANCE));
			simulate(&c, &js, p, NULL, &r);
			for (k = 0; k < r.nseg; k++)
				if (r.seg[k].preempted) {
					npre++;
					cr_assert_geq(r.seg[k].end - r.seg[k].start,
						      c.restart * (1 - 1e-12),
						      "%s, instance %d: run of job %d preempted after %g s",
						      pols[pi], inst, r.seg[k].job,
						      r.seg[k].end - r.seg[k].start);
				}
			if (pi == 0)
				cr_expect_gt(npre, 0, "instance %d: no preemption to check", inst);
			simulate(&c, &js, p, "qmin=0", &r0);
			for (k = 0; k < r0.nseg; k++)
				early0 += r0.seg[k].preempted &&
					  r0.seg[k].end - r0.seg[k].start < c.restart;
			sb_cluster_result_release(&r);
			sb_cluster_result_release(&r0);
			sb_jobset_release(&js);
		}
	/* the rule is what keeps those runs out: without it they occur */
	cr_expect_gt(early0, 0, "qmin=0 preempted no run inside its restart");
}

/* The fast path re-ranks a running job only when its service reaches the
 * next queue threshold or table size, and computes the wake-up exactly for
 * the jobs near the earliest crossing: a dense history table (many rank
 * changes per run), overload (long queues, preemptions at most decisions),
 * four queues. */
Test(cluster_fast, tiresias_gittins_history_overload)
{
	with_history = 1;
	cr_expect(compare("tiresias-gittins", NULL) > 0, "instances with preemptions");
	cr_expect(compare_load("tiresias-gittins", NULL, "queues=4,delta=100", 1.2) > 0,
		  "instances with preemptions");
	with_history = 0;
	cr_expect(compare_load("tiresias-gittins", NULL, "queues=2", 1.2) > 0,
		  "instances with preemptions");
	cr_expect(compare_load("tiresias", NULL, "queues=4", 1.2) > 0,
		  "instances with preemptions");
}

/* optimus: refits of running jobs only, the median key of the jobs
 * without an estimate from two sorted arrays; also without the periodic
 * wake-ups and with noisier samples (more failed fits), and optimus-vp. */
Test(cluster_fast, optimus)
{
	cr_expect(compare("optimus", NULL) > 0, "instances with preemptions");
	cr_expect(compare_set("optimus", NULL, "period=0,qmin=0") > 0, "instances with preemptions");
	cr_expect(compare_set("optimus", NULL, "noise=0.3") > 0, "instances with preemptions");
	/* the variant shares the scheduler, its fit aside */
	cr_expect(compare("optimus-vp", NULL) > 0, "instances with preemptions");
}

/* qssf is non-preemptive: the comparison is of starts and GPUs; also in
 * overload, where a queue has formed before the first completion (jobs
 * without an estimate that get one later). */
Test(cluster_fast, qssf)
{
	compare("qssf", NULL);
	compare_load("qssf", NULL, NULL, 3);
}

/* A run preempted during its restart overhead completes no iteration and
 * moves no inter-server bytes (it once added negative ones: a
 * tiresias-gittins run on the Tiresias trace summed to -9.99e13 bytes). */
Test(cluster, metrics_no_bytes_for_a_run_stopped_in_its_restart)
{
	struct sb_job job[1];
	struct sb_jobset js;
	struct sb_cluster c = named("testbed");
	struct sb_cluster_seg seg[2];
	double first = 0, fin = 100, tref = 1;
	int npre = 1, gpu[4] = { 0, 4, 0, 4 };   /* two servers each time */
	struct sb_cluster_result r;
	struct sb_cluster_metrics m;

	memset(job, 0, sizeof job);
	memset(&js, 0, sizeof js);
	memset(seg, 0, sizeof seg);
	memset(&r, 0, sizeof r);
	job[0].gpus = 2;
	job[0].iters = 50;
	js.n = 1;
	js.job = job;
	/* 0-10 s: preempted 10 s into its 30 s restart; 20-100 s: 30 s of
	 * restart, then 50 iterations of 1 s at 1e9 bytes each */
	seg[0] = (struct sb_cluster_seg){ .job = 0, .start = 0, .end = 10, .overhead = 30,
					  .iters = 0, .tau = 1, .cut = 1e9, .gpu_off = 0,
					  .preempted = 1 };
	seg[1] = (struct sb_cluster_seg){ .job = 0, .start = 20, .end = 100, .overhead = 30,
					  .iters = 50, .tau = 1, .cut = 1e9, .gpu_off = 2 };
	r.n = 1;
	r.first_start = &first;
	r.finish = &fin;
	r.npreempt = &npre;
	r.tau_ref = &tref;
	r.nseg = 2;
	r.seg = seg;
	r.gpu = gpu;
	sb_cluster_metrics(&c, &js, &r, 0, &m);
	cr_assert_float_eq(m.inter_bytes, 50e9, 1e-3, "inter_bytes %g", m.inter_bytes);
}
