/*
 * test_base.c - the cluster baselines Optimus-like and QSSF-like
 * (baselines/cluster/optimus.c, qssf.c): the loss-curve model and its fit,
 * rankings on hand-built job sets where the expected order is known, and
 * valid, deterministic runs through the independent checker.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "baselines/cluster/optimus.h"
#include "cluster/cluster.h"
#include "workloads/cluster/jobs.h"
#include "rng.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static struct sb_cluster one_server(int gpus)
{
	struct sb_cluster c;
	struct sb_err err;
	cr_assert_eq(sb_cluster_named("testbed", &c, &err), 0);
	c.nserver = 1;
	c.gpus = gpus;
	return c;
}

/* An empty job set of n jobs over the catalogue models. */
static void jobset(struct sb_jobset *js, int n)
{
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = n;
	js->job = SB_NEW(struct sb_job, n);
}

/* Job i: data-parallel `model` on d GPUs of user `user`, arriving at t and
 * running `secs` seconds on its reference placement on c (rounded to
 * whole iterations). */
static void set_job(struct sb_jobset *js, const struct sb_cluster *c, int i, const char *model,
		    int d, int user, double t, double secs)
{
	struct sb_job *j = &js->job[i];
	struct sb_jobgraph h;
	int k = sb_catalog_find(model), srv[64];
	double tau;

	cr_assert(k >= 0, "model %s", model);
	memset(j, 0, sizeof *j);
	j->id = i;
	j->arrival = t;
	j->model = k;
	j->d = d;
	j->t = j->p = 1;
	j->gpus = d;
	j->micro = 1;
	j->batch = js->model[k].batch;
	j->family = -1;
	j->user = user;
	j->batch_mult = j->lr_mult = j->data_frac = 1;
	j->trace_runtime = -1;
	j->iters = 1;
	sb_jobgraph_build(&h, j, &js->model[k], c);
	tau = sb_job_ref_placement(c, &h, srv);
	sb_jobgraph_release(&h);
	j->iters = (long)ceil(secs / tau);
}

/* Simulate `policy` with scheduler options kv ("a=1,b=2" or NULL). */
static int run(const struct sb_cluster *c, const struct sb_jobset *js, const char *policy,
	       const char *kv, uint64_t seed, struct sb_cluster_result *r)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_err err;
	char buf[256], *tok, *save = NULL;
	int rc;

	cr_assert_eq(sb_cluster_combo_parse(&cb, policy, &err), 0, "%s", err.msg);
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	if (kv) {
		snprintf(buf, sizeof buf, "%s", kv);
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
			cr_assert_eq(sb_opts_set(&so, cb.sched->params, tok, "test", &err), 0, "%s",
				     err.msg);
	}
	rc = sb_cluster_simulate(c, js, &cb, &so, &po, seed, r, &err);
	cr_assert_eq(rc, 0, "%s: %s", policy, err.msg);
	return rc;
}

static void checked(const struct sb_cluster *c, const struct sb_jobset *js,
		    const struct sb_cluster_result *r, const char *what)
{
	char why[256];
	cr_assert_eq(sb_cluster_check(c, js, r, why, sizeof why), 0, "%s: %s", what, why);
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

Test(clbase, registered)
{
	const struct sb_cluster_policy *o = sb_cluster_policy_find("optimus");
	const struct sb_cluster_policy *q = sb_cluster_policy_find("qssf");
	struct sb_opts so;

	cr_assert(o && o->schedule && !o->place);
	cr_assert(q && q->schedule && !q->place);
	cr_expect_str_eq(o->default_place, "packed");
	cr_expect_str_eq(q->default_place, "packed");
	/* clairvoyant only to synthesise the loss curves */
	cr_expect_eq(o->clairvoyant, 1);
	cr_expect_eq(q->clairvoyant, 0);
	sb_opts_defaults(&so, o->params);
	cr_expect_eq(sb_opts_get(&so, "qmin"), 300);
	cr_expect_eq(sb_opts_get(&so, "period"), 600);
	cr_expect_eq(sb_opts_get(&so, "noise"), 0.01);
	sb_opts_defaults(&so, q->params);
	cr_expect_eq(sb_opts_get(&so, "backfill"), 0);
}

/* ------------------------------------------------------------------ */
/* Optimus: the loss-curve model                                       */
/* ------------------------------------------------------------------ */

/* A synthesised curve decreases and reaches the target exactly at n. */
Test(clbase, optimus_curve_reaches_target_at_n)
{
	struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
	long ns[] = { 1, 7, 1000, 123456, 5000000 };
	int i, t;

	for (t = 0; t < 20; t++)
		for (i = 0; i < 5; i++) {
			double b[3], target, n = (double)ns[i];
			sb_optimus_curve(&r, ns[i], b, &target);
			cr_expect(b[0] > 0 && b[1] > 0 && b[2] >= 0.1 && b[2] <= 1);
			cr_expect(fabs(sb_optimus_loss(b, n) - target) <= 1e-12 * target);
			cr_expect(sb_optimus_loss(b, 0) > sb_optimus_loss(b, n / 2));
			cr_expect(sb_optimus_loss(b, n / 2) > target);
			cr_expect(fabs(sb_optimus_iters_to(b, target) - n) <= 1e-6 * n,
				  "n = %ld: %g", ns[i], sb_optimus_iters_to(b, target));
		}
}

Test(clbase, optimus_iters_to_edges)
{
	double b[3] = { 1e-3, 0.5, 0.2 };
	cr_expect(isinf(sb_optimus_iters_to(b, 0.2)), "target at the asymptote: never");
	cr_expect(isinf(sb_optimus_iters_to(b, 0.1)), "target below the asymptote: never");
	cr_expect_eq(sb_optimus_iters_to(b, 5), 0, "target above the initial loss");
	cr_expect(fabs(sb_optimus_iters_to(b, sb_optimus_loss(b, 4321)) - 4321) < 1e-6);
}

/* Noiseless samples of a known curve, over the whole run or only its
 * first 5% / 20%: the fit recovers (b0, b1, b2). */
Test(clbase, optimus_fit_recovers_noiseless_curve)
{
	const double truth[][3] = {
		{ 2e-4, 0.5, 0.3 }, { 1e-6, 0.25, 0.1 }, { 0.05, 1.0, 0.0 }, { 3e-3, 0.9, 1.5 },
	};
	const double span[] = { 1e4, 1e6, 100, 2e3 };
	const double frac[] = { 1, 0.2, 0.05 };
	int c, f, i;

	for (c = 0; c < 4; c++)
		for (f = 0; f < 3; f++) {
			double k[64], l[64], b[3], K = span[c] * frac[f];
			for (i = 0; i < 64; i++) {
				k[i] = ceil((i + 1) * K / 64);
				l[i] = sb_optimus_loss(truth[c], k[i]);
			}
			cr_assert_eq(sb_optimus_fit(k, l, 64, b), 0, "curve %d, fraction %g", c,
				     frac[f]);
			for (i = 0; i < 3; i++)
				cr_expect(fabs(b[i] - truth[c][i]) <= 1e-6 * sb_max(truth[c][i], 1e-3 *
										truth[c][1]),
					  "curve %d fraction %g: b%d = %.10g, want %.10g", c, frac[f],
					  i, b[i], truth[c][i]);
			cr_assert_eq(sb_optimus_fit_vp(k, l, 64, b), 0, "vp: curve %d, fraction %g",
				     c, frac[f]);
			for (i = 0; i < 3; i++)
				cr_expect(fabs(b[i] - truth[c][i]) <= 1e-6 * sb_max(truth[c][i], 1e-3 *
										truth[c][1]),
					  "vp: curve %d fraction %g: b%d = %.10g, want %.10g", c,
					  frac[f], i, b[i], truth[c][i]);
		}
}

/* optimus-vp's fit against the reference on noisy samples drawn as the
 * policy draws them (1% noise, 64 samples up to 2-100% of the run): where
 * both succeed they reach the same minimum (costs equal to 1e-9, curves
 * at the samples equal to 1e-7 relative), and they seldom disagree on
 * success (a failed fit keeps the job's previous estimate). */
Test(clbase, optimus_fit_vp_matches_reference)
{
	struct sb_rng r = sb_rng_stream(12, 0, 0, SB_RNG_TEST);
	int t, i, both = 0, differ = 0, T = 400;

	for (t = 0; t < T; t++) {
		long n = 1000 + (long)sb_rng_below(&r, 100000);
		long done = (long)((0.02 + 0.98 * sb_rng_uniform(&r)) * (double)n);
		double b[3], target, k[64], l[64], bg[3], bv[3], cg = 0, cv = 0;
		int rg, rv;
		sb_optimus_curve(&r, n, b, &target);
		for (i = 0; i < 64; i++) {
			k[i] = (double)(((long)(i + 1) * done + 63) / 64);
			l[i] = sb_optimus_loss(b, k[i]) * (1 + 0.01 * sb_rng_normal(&r, 0, 1));
		}
		rg = sb_optimus_fit(k, l, 64, bg);
		rv = sb_optimus_fit_vp(k, l, 64, bv);
		if (rg != rv) {
			differ++;
			continue;
		}
		if (rg != 0)
			continue;
		both++;
		for (i = 0; i < 64; i++) {
			double eg = sb_optimus_loss(bg, k[i]), ev = sb_optimus_loss(bv, k[i]);
			cr_expect(fabs(eg - ev) <= 1e-7 * eg, "set %d, sample %d: %.12g vs %.12g", t,
				  i, eg, ev);
			cg += (eg - l[i]) * (eg - l[i]) / (l[i] * l[i]);
			cv += (ev - l[i]) * (ev - l[i]) / (l[i] * l[i]);
		}
		cr_expect(fabs(cg - cv) <= 1e-9 * cg, "set %d: cost %.15g vs %.15g", t, cg, cv);
	}
	cr_expect(both >= 0.8 * T, "both fits succeed on %d of %d sets", both, T);
	cr_expect(differ <= 0.05 * T, "one fit fails, the other not, on %d of %d sets", differ, T);
}

/* Three samples are enough for three parameters. */
Test(clbase, optimus_fit_three_samples)
{
	double t[3] = { 1e-2, 0.5, 0.4 }, k[3] = { 10, 50, 200 }, l[3], b[3];
	int i;
	for (i = 0; i < 3; i++)
		l[i] = sb_optimus_loss(t, k[i]);
	cr_assert_eq(sb_optimus_fit(k, l, 3, b), 0);
	for (i = 0; i < 3; i++)
		cr_expect(fabs(b[i] - t[i]) <= 1e-6 * t[i], "b%d = %g", i, b[i]);
}

Test(clbase, optimus_fit_rejects_bad_samples)
{
	double k[4] = { 1, 2, 3, 4 }, l[4] = { 2, 1.5, 1.2, 1.1 }, b[3] = { -1, -1, -1 };
	cr_expect_eq(sb_optimus_fit(k, l, 2, b), -1, "two samples");
	l[2] = NAN;
	cr_expect_eq(sb_optimus_fit(k, l, 4, b), -1, "NaN loss");
	l[2] = 0;
	cr_expect_eq(sb_optimus_fit(k, l, 4, b), -1, "zero loss");
	l[2] = 1.2;
	k[1] = -1;
	cr_expect_eq(sb_optimus_fit(k, l, 4, b), -1, "negative iteration");
	cr_expect(b[0] == -1 && b[1] == -1 && b[2] == -1, "b untouched on failure");
}

/* With 1% noise, a fit on 60% of the run predicts n within 10% on most
 * curves, and far better than on 5% of it (where the asymptote is barely
 * visible): prediction improves as the job runs. */
Test(clbase, optimus_fit_noisy_improves_with_progress)
{
	struct sb_rng r = sb_rng_stream(11, 0, 0, SB_RNG_TEST);
	int t, i, good_late = 0, good_early = 0, T = 200;

	for (t = 0; t < T; t++) {
		long n = 1000 + (long)sb_rng_below(&r, 100000);
		double b[3], target, fr[2] = { 0.6, 0.05 };
		int p;
		sb_optimus_curve(&r, n, b, &target);
		for (p = 0; p < 2; p++) {
			double k[64], l[64], bf[3], nh;
			long done = (long)(fr[p] * (double)n);
			for (i = 0; i < 64; i++) {
				k[i] = (double)(((long)(i + 1) * done + 63) / 64);
				l[i] = sb_optimus_loss(b, k[i]) * (1 + 0.01 * sb_rng_normal(&r, 0, 1));
			}
			if (sb_optimus_fit(k, l, 64, bf) != 0)
				continue;
			nh = sb_optimus_iters_to(bf, target);
			if (fabs(nh - (double)n) <= 0.1 * (double)n)
				*(p == 0 ? &good_late : &good_early) += 1;
		}
	}
	cr_expect(good_late >= 0.95 * T, "within 10%% from 60%% of the run: %d of %d", good_late,
		  T);
	cr_expect(good_early < good_late / 2, "from 5%%: %d, from 60%%: %d", good_early,
		  good_late);
}

/* ------------------------------------------------------------------ */
/* Optimus: ranking                                                    */
/* ------------------------------------------------------------------ */

/*
 * Two GPUs, three one-GPU jobs at t = 0: A (long, 20,000 s), B (short,
 * 1,500 s), C (5,000 s). With no fit yet all keys tie and A, B start in
 * arrival order. At the first progress check (600 s) A and B have exact
 * fits (noise 0), C none, so C gets the median key, between B's and A's:
 * A, which has the longest true remaining time, is preempted for C; B,
 * the shortest, runs on; and once C has a fit of its own it stays ahead
 * of A. FIFO would run C only after B.
 */
Test(clbase, optimus_shorter_remaining_runs_first)
{
	struct sb_cluster c = one_server(2);
	struct sb_jobset js;
	struct sb_cluster_result r;

	jobset(&js, 3);
	set_job(&js, &c, 0, "resnet50", 1, 0, 0, 20000);
	set_job(&js, &c, 1, "resnet50", 1, 0, 0, 1500);
	set_job(&js, &c, 2, "resnet50", 1, 0, 0, 5000);
	run(&c, &js, "optimus", "noise=0", 1, &r);
	checked(&c, &js, &r, "optimus");
	cr_expect_eq(r.first_start[0], 0);
	cr_expect_eq(r.first_start[1], 0);
	cr_expect(fabs(r.first_start[2] - 600) < 1e-9, "C starts at the first check: %g",
		  r.first_start[2]);
	cr_expect_eq(r.npreempt[0], 1, "A preempted once");
	cr_expect_eq(r.npreempt[1], 0, "B never preempted");
	cr_expect_eq(r.npreempt[2], 0, "C never preempted");
	cr_expect(r.finish[1] < r.finish[2] && r.finish[2] < r.finish[0], "B %g, C %g, A %g",
		  r.finish[1], r.finish[2], r.finish[0]);
	sb_cluster_result_release(&r);

	/* the same set under FIFO: C waits for B */
	run(&c, &js, "fifo", NULL, 1, &r);
	cr_expect(r.first_start[2] >= r.finish[1]);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* A job is never preempted before it has run q_min seconds: with q_min
 * above the first check, A keeps its GPU until later. */
Test(clbase, optimus_respects_qmin)
{
	struct sb_cluster c = one_server(2);
	struct sb_jobset js;
	struct sb_cluster_result r;
	int k;

	jobset(&js, 3);
	set_job(&js, &c, 0, "resnet50", 1, 0, 0, 20000);
	set_job(&js, &c, 1, "resnet50", 1, 0, 0, 1500);
	set_job(&js, &c, 2, "resnet50", 1, 0, 0, 5000);
	run(&c, &js, "optimus", "noise=0,qmin=1000", 1, &r);
	checked(&c, &js, &r, "optimus qmin=1000");
	for (k = 0; k < r.nseg; k++)
		if (r.seg[k].preempted)
			cr_expect(r.seg[k].end - r.seg[k].start >= 1000 - 1e-9,
				  "segment of job %d preempted after %g s", r.seg[k].job,
				  r.seg[k].end - r.seg[k].start);
	cr_expect(fabs(r.first_start[2] - 1200) < 1e-9, "C starts at the check after 1000 s: %g",
		  r.first_start[2]);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* ------------------------------------------------------------------ */
/* QSSF                                                                */
/* ------------------------------------------------------------------ */

/*
 * One GPU. User 0's past ResNet-50 job was short (1,000 s), user 1's long
 * (10,000 s). Behind a blocker, user 1's (truly short) job arrives before
 * user 0's (truly long) one: QSSF starts user 0's first (estimate 1,000
 * GPU-s against 10,000), FIFO the other way round.
 */
Test(clbase, qssf_orders_by_user_history)
{
	struct sb_cluster c = one_server(1);
	struct sb_jobset js;
	struct sb_cluster_result r;
	double tb;

	jobset(&js, 5);
	set_job(&js, &c, 0, "resnet50", 1, 0, 0, 1000);
	set_job(&js, &c, 1, "resnet50", 1, 1, 1100, 10000);
	tb = 1100 + 10000 + 100;
	set_job(&js, &c, 2, "vgg16", 1, 2, tb, 2000);
	set_job(&js, &c, 3, "resnet50", 1, 1, tb + 1, 500);
	set_job(&js, &c, 4, "resnet50", 1, 0, tb + 2, 20000);
	run(&c, &js, "qssf", NULL, 1, &r);
	checked(&c, &js, &r, "qssf");
	cr_expect_eq(r.first_start[2], tb, "the blocker starts on arrival");
	cr_expect(r.first_start[4] < r.first_start[3], "user 0's job first: %g vs %g",
		  r.first_start[4], r.first_start[3]);
	cr_expect(fabs(r.first_start[4] - r.finish[2]) < 1e-9);
	sb_cluster_result_release(&r);

	run(&c, &js, "fifo", NULL, 1, &r);
	cr_expect(r.first_start[3] < r.first_start[4]);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* The history mean is over the same user's jobs of the same model and
 * GPU count first: user 0 has a long 1-GPU VGG-16 job and a short 1-GPU
 * ResNet-50 one; for a new 1-GPU ResNet-50 job of user 0 the ResNet-50
 * history counts, not the user's overall mean. User 1, with no history of
 * their own, gets the ResNet-50 mean of all users. */
Test(clbase, qssf_most_specific_history_first)
{
	struct sb_cluster c = one_server(1);
	struct sb_jobset js;
	struct sb_cluster_result r;
	double tb = 1000 + 8000 + 100;

	jobset(&js, 6);
	set_job(&js, &c, 0, "resnet50", 1, 0, 0, 1000);
	set_job(&js, &c, 1, "vgg16", 1, 0, 1000 + 10, 8000);
	set_job(&js, &c, 2, "vgg16", 1, 2, tb, 2000);       /* blocker */
	/* user 1, VGG-16: the VGG-16 mean, 8,000 */
	set_job(&js, &c, 3, "vgg16", 1, 1, tb + 1, 100);
	/* user 0, ResNet-50: the user's ResNet-50 mean, 1,000 (the user's
	 * overall mean would be 4,500) */
	set_job(&js, &c, 4, "resnet50", 1, 0, tb + 2, 3000);
	/* user 1, ResNet-50: the ResNet-50 mean of all users, 1,000; ties
	 * with job 4 and goes after it (arrival) */
	set_job(&js, &c, 5, "resnet50", 1, 1, tb + 3, 3000);
	run(&c, &js, "qssf", NULL, 1, &r);
	checked(&c, &js, &r, "qssf");
	cr_expect(r.first_start[4] < r.first_start[5] && r.first_start[5] < r.first_start[3],
		  "order 4, 5, 3: %g %g %g", r.first_start[4], r.first_start[5], r.first_start[3]);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* No history at all: smaller g_j first, arrival among equals; the 4-GPU
 * job that would fit first under FIFO waits. */
Test(clbase, qssf_without_history_by_gpus)
{
	struct sb_cluster c = one_server(4);
	struct sb_jobset js;
	struct sb_cluster_result r;

	jobset(&js, 4);
	set_job(&js, &c, 0, "resnet50", 4, 0, 0, 1000);
	set_job(&js, &c, 1, "resnet50", 2, 1, 0, 1000);
	set_job(&js, &c, 2, "resnet50", 1, 2, 0, 1000);
	set_job(&js, &c, 3, "resnet50", 1, 3, 0, 1000);
	run(&c, &js, "qssf", NULL, 1, &r);
	checked(&c, &js, &r, "qssf");
	cr_expect_eq(r.first_start[1], 0);
	cr_expect_eq(r.first_start[2], 0);
	cr_expect_eq(r.first_start[3], 0);
	cr_expect(r.first_start[0] > 0);
	sb_cluster_result_release(&r);
	run(&c, &js, "fifo", NULL, 1, &r);
	cr_expect_eq(r.first_start[0], 0);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/*
 * Four GPUs, two of them held by a blocker. Job 3 (4 GPUs, user 0's
 * history: 4 x 1,000 GPU-s) outranks job 4 (1 GPU, user 1's history:
 * 20,000 GPU-s) but does not fit. As in Helios, QSSF stops there and job
 * 4 waits although a GPU is free; with backfill=1 job 4 starts at once.
 */
Test(clbase, qssf_strict_unless_backfill)
{
	struct sb_cluster c = one_server(4);
	struct sb_jobset js;
	struct sb_cluster_result r;
	double tb = 20000 + 10;

	jobset(&js, 5);
	set_job(&js, &c, 0, "resnet50", 1, 0, 0, 1000);
	set_job(&js, &c, 1, "resnet50", 1, 1, 0, 20000);
	set_job(&js, &c, 2, "vgg16", 2, 2, tb, 3000);
	set_job(&js, &c, 3, "resnet50", 4, 0, tb + 10, 1000);
	set_job(&js, &c, 4, "resnet50", 1, 1, tb + 20, 1000);
	run(&c, &js, "qssf", NULL, 1, &r);
	checked(&c, &js, &r, "qssf");
	cr_expect(fabs(r.first_start[3] - r.finish[2]) < 1e-9, "job 3 right after the blocker");
	cr_expect(r.first_start[4] >= r.finish[3] - 1e-9, "job 4 after job 3: %g vs %g",
		  r.first_start[4], r.finish[3]);
	sb_cluster_result_release(&r);

	run(&c, &js, "qssf", "backfill=1", 1, &r);
	checked(&c, &js, &r, "qssf backfill=1");
	cr_expect_eq(r.first_start[4], tb + 20, "backfilled on arrival");
	cr_expect(fabs(r.first_start[3] - r.finish[2]) < 1e-9);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
}

/* ------------------------------------------------------------------ */
/* Both: valid and deterministic on W1                                 */
/* ------------------------------------------------------------------ */

Test(clbase, valid_and_deterministic_on_w1)
{
	static const char *const runs[][2] = {
		{ "optimus", NULL }, { "optimus", "noise=0.05,period=0" },
		{ "optimus+kl", "qmin=0,period=60" }, { "qssf", NULL },
		{ "qssf", "backfill=1" }, { "qssf+firstfit", NULL },
	};
	struct sb_cluster c;
	struct sb_err err;
	struct sb_w1_params p;
	struct sb_jobset js;
	struct sb_rng rng = sb_rng_stream(21, 0, 0, SB_RNG_INSTANCE);
	int i, k;

	cr_assert_eq(sb_cluster_named("sim128", &c, &err), 0);
	sb_w1_defaults(&p);
	p.njobs = 300;
	p.load = 0.9;
	p.max_base = 1e4;
	sb_w1_generate(&js, &p, &c, &rng);
	for (i = 0; i < (int)(sizeof runs / sizeof runs[0]); i++) {
		struct sb_cluster_result a, b;
		char what[96];
		snprintf(what, sizeof what, "%s %s", runs[i][0], runs[i][1] ? runs[i][1] : "");
		run(&c, &js, runs[i][0], runs[i][1], 5, &a);
		checked(&c, &js, &a, what);
		run(&c, &js, runs[i][0], runs[i][1], 5, &b);
		cr_assert_eq(a.nseg, b.nseg, "%s: not deterministic", what);
		for (k = 0; k < js.n; k++)
			cr_assert(a.finish[k] == b.finish[k], "%s: job %d", what, k);
		sb_cluster_result_release(&a);
		sb_cluster_result_release(&b);
	}
	sb_jobset_release(&js);
}
