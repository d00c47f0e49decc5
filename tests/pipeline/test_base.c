/*
 * test_base.c - the pipeline baseline planners (baselines/pipeline/:
 * gpipe-balanced, dp, dp-overlap, pipedream, pipedream-2bw, piper): every
 * plan validates, fits and passes the checker on the analytic models and
 * named topologies; known answers on small instances (GPipe's closed
 * form, a hand-computed PipeDream DP, Piper's DP against brute force);
 * DP's failure on a model too large for one GPU.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workloads/pipeline/load.h"
#include "pipetest.h"
#include "tests/testutil.h"
#include "rng.h"

static const char *const planners[] = {
	"gpipe-balanced", "dp", "dp-overlap", "pipedream", "pipedream-2bw", "piper",
};
#define NPLANNERS (int)(sizeof planners / sizeof planners[0])

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* L identical layers, n GPUs in one server joined by bandwidth bw. */
static void mk(struct sb_pmodel *m, struct sb_topo *t, int L, double f, double b, double a,
	       double w, int n, double bw)
{
	sb_test_model_uniform(m, L, f, b, a, w);
	sb_test_topo_flat(t, n, bw, 1e15);
}

/* Run planner `name` on (m, t, batch, M) with parameters kv (NULL or
 * "k=v"); returns its code, plan in p when 0. */
static int run_planner(const char *name, const struct sb_pmodel *m, const struct sb_topo *t,
		       double batch, int M, const char *kv, const struct sb_pipeline_schedule *sched,
		       struct sb_pipeline_plan *p, struct sb_err *err)
{
	const struct sb_pipeline_planner *pl = sb_pipeline_planner_find(name);
	struct sb_pipeline_problem pb;
	struct sb_opts o;
	cr_assert(pl, "planner %s registered", name);
	sb_opts_defaults(&o, pl->params);
	if (kv)
		cr_assert_eq(sb_opts_set(&o, pl->params, kv, "test", err), 0, "%s", err->msg);
	memset(&pb, 0, sizeof pb);
	pb.model = m;
	pb.topo = t;
	pb.batch = batch;
	pb.M = M;
	pb.sched = sched;
	return pl->plan(&pb, &o, p, err);
}

/* The schedule a plan runs under: the one it names, else its planner's. */
static const struct sb_pipeline_schedule *plan_sched(const struct sb_pipeline_plan *p)
{
	const struct sb_pipeline_planner *pl = sb_pipeline_planner_find(p->planner);
	const char *name = p->schedule[0] ? p->schedule : pl ? pl->schedule : "";
	const struct sb_pipeline_schedule *sc = sb_pipeline_schedule_find(name);
	cr_assert(sc, "plan of %s names schedule '%s', not registered", p->planner, name);
	return sc;
}

/* Evaluate (simulate + check) p under its schedule; the plan must fit. */
static double eval_fits(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			const struct sb_topo *t, const char *what)
{
	const struct sb_pipeline_schedule *sc = plan_sched(p);
	struct sb_pipeline_result r;
	struct sb_opts so;
	struct sb_err err;
	double T;
	sb_opts_defaults(&so, sc->params);
	cr_assert_eq(sb_pipeline_plan_validate(p, m, t, &err), 0, "%s: %s", what, err.msg);
	cr_assert_eq(sb_pipeline_evaluate(p, m, t, sc, &so, &r, &err), 0, "%s: %s", what, err.msg);
	cr_assert(r.fits, "%s: peak %.4g GB > %.4g GB", what, r.peak_mem / 1e9, t->mem / 1e9);
	cr_assert(r.iter_time > 0 && isfinite(r.iter_time), "%s: T = %g", what, r.iter_time);
	T = r.iter_time;
	sb_pipeline_result_release(&r);
	return T;
}

/* ------------------------------------------------------------------ */
/* Registration                                                        */
/* ------------------------------------------------------------------ */

Test(pipebase, registered_well_formed)
{
	int n, i, k;
	const struct sb_pipeline_planner *const *pl = sb_pipeline_planners(&n);
	for (k = 0; k < NPLANNERS; k++)
		cr_assert(sb_pipeline_planner_find(planners[k]), "%s not registered", planners[k]);
	for (i = 0; i < n; i++) {
		const char *file = sb_pipeline_planner_file(pl[i]), *slash;
		const struct sb_param *p;
		char base[64];
		cr_assert(file, "%s has no file", pl[i]->name);
		slash = strrchr(file, '/');
		snprintf(base, sizeof base, "%.*s", (int)strcspn(slash ? slash + 1 : file, "."),
			 slash ? slash + 1 : file);
		cr_assert_str_eq(pl[i]->name, base, "planner name must equal its file name");
		cr_assert(pl[i]->cite && pl[i]->cite[0] && pl[i]->desc && pl[i]->desc[0] &&
			  pl[i]->provenance && pl[i]->provenance[0], "%s: missing text", pl[i]->name);
		cr_assert(pl[i]->plan, "%s: no plan hook", pl[i]->name);
		cr_assert(sb_pipeline_schedule_find(pl[i]->schedule), "%s: schedule '%s' not registered",
			  pl[i]->name, pl[i]->schedule);
		for (p = pl[i]->params; p && p->name; p++)
			cr_assert(p->lo <= p->def && p->def <= p->hi && p->help && p->help[0],
				  "%s: parameter %s", pl[i]->name, p->name);
	}
}

/* ------------------------------------------------------------------ */
/* Every planner on the analytic models x named topologies             */
/* ------------------------------------------------------------------ */

/* Known infeasible: pure DP cannot hold GPT-2 XL (12.5 GB of weights and
 * gradients plus 9 GB of activations per sample); PipeDream's plan for it
 * at microbatches of 4 samples stashes too much under 1F1B (it does not
 * re-compute). Everything else must plan. */
static int expect_fail(const char *planner, const char *model, int M)
{
	if (strcmp(model, "gpt2-xl"))
		return 0;
	return !strncmp(planner, "dp", 2) || (!strcmp(planner, "pipedream") && M == 16);
}

/* Structure each planner promises. */
static void check_shape(const char *name, const struct sb_pipeline_plan *p, const struct sb_topo *t,
			const char *what)
{
	int s, used = 0;
	for (s = 0; s < p->S * p->copies; s++)
		used += p->st[s].r;
	cr_assert(used <= t->n, "%s: %d GPUs used", what, used);
	if (!strcmp(name, "gpipe-balanced")) {
		cr_assert_eq(p->copies, 1, "%s", what);
		for (s = 0; s < p->S; s++)
			cr_assert(p->st[s].r == 1 && p->st[s].gpu[0] == s, "%s: stage %d", what, s);
		cr_assert_eq(p->S, t->n, "%s: one stage per GPU", what);
	} else if (!strncmp(name, "dp", 2)) {
		cr_assert_eq(p->S, 1, "%s", what);
		cr_assert_eq(used, t->n, "%s: every GPU", what);
		cr_assert_eq(p->overlap, !strcmp(name, "dp-overlap"), "%s", what);
	} else if (!strcmp(name, "pipedream-2bw")) {
		cr_assert_eq(p->S * p->copies, t->n, "%s: d w = N", what);
		for (s = 0; s < p->S * p->copies; s++)
			cr_assert_eq(p->st[s].r, 1, "%s", what);
	}
}

Test(pipebase, every_planner_fits_and_checks)
{
	const char *models[] = { "vgg19", "bert-48", "gnmt-16", "gpt2-xl" };
	const char *topos[] = { "2x8-nvlink-25gbe", "4x4-pcie-10gbe", "config-b" };
	int im, it, k, mi, nplans = 0, nfail = 0;
	for (im = 0; im < 4; im++) {
		struct sb_pmodel m;
		struct sb_err err;
		cr_assert_eq(sb_analytic_model(models[im], &m, &err), 0, "%s", err.msg);
		for (it = 0; it < 3; it++) {
			struct sb_topo t;
			cr_assert_eq(sb_topo_named(topos[it], &t, &err), 0, "%s", err.msg);
			for (k = 0; k < NPLANNERS; k++)
				for (mi = 0; mi < 2; mi++) {
					int M = mi ? 16 : 0, rc;
					struct sb_pipeline_plan p;
					char what[160];
					/* pure DP cannot split 64 samples over 16 GPUs 16 ways */
					if (M && !strncmp(planners[k], "dp", 2))
						continue;
					snprintf(what, sizeof what, "%s on %s / %s, M=%d", planners[k],
						 models[im], topos[it], M);
					rc = run_planner(planners[k], &m, &t, 64, M, NULL, NULL, &p, &err);
					if (expect_fail(planners[k], models[im], M)) {
						cr_expect_eq(rc, SB_EXIT_RUN, "%s: rc %d", what, rc);
						cr_expect(err.msg[0], "%s: no message", what);
						if (!rc)
							sb_pipeline_plan_release(&p);
						nfail++;
						continue;
					}
					cr_assert_eq(rc, 0, "%s: %s", what, err.msg);
					cr_assert_str_eq(p.planner, planners[k], "%s", what);
					cr_assert_eq(p.batch, 64, "%s", what);
					if (M)
						cr_assert_eq(p.M, M, "%s: M = %d", what, p.M);
					check_shape(planners[k], &p, &t, what);
					eval_fits(&p, &m, &t, what);
					sb_pipeline_plan_release(&p);
					nplans++;
				}
			sb_topo_release(&t);
		}
		sb_pmodel_release(&m);
	}
	cr_expect_eq(nplans + nfail, 4 * 3 * (NPLANNERS * 2 - 2));
	cr_expect_eq(nfail, 3 * 3);
}

/* A planner asked for another schedule plans for that schedule's memory. */
Test(pipebase, plans_for_the_problem_schedule)
{
	const struct sb_pipeline_schedule *gp = sb_pipeline_schedule_find("gpipe");
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	int k;
	cr_assert_eq(sb_analytic_model("bert-48", &m, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_topo_named("config-a", &t, &err), 0, "%s", err.msg);
	for (k = 0; k < NPLANNERS; k++) {
		struct sb_pipeline_plan p;
		int rc = run_planner(planners[k], &m, &t, 64, 0, NULL, gp, &p, &err);
		cr_assert(rc == 0 || rc == SB_EXIT_RUN, "%s: rc %d %s", planners[k], rc, err.msg);
		if (rc)
			continue;
		cr_assert_str_eq(p.schedule, "gpipe", "%s", planners[k]);
		eval_fits(&p, &m, &t, planners[k]);
		sb_pipeline_plan_release(&p);
	}
	sb_topo_release(&t);
	sb_pmodel_release(&m);
}

/* ------------------------------------------------------------------ */
/* gpipe-balanced                                                      */
/* ------------------------------------------------------------------ */

/* k S identical layers on S GPUs with free transfers: k layers per stage
 * and T = (M + S - 1)(F + B), B including the re-forward. */
Test(pipebase, gpipe_identical_layers_closed_form)
{
	int S, k, M, rc;
	for (S = 1; S <= 5; S++)
		for (k = 1; k <= 3; k++)
			for (rc = 0; rc <= 1; rc++) {
				struct sb_pmodel m;
				struct sb_topo t;
				struct sb_pipeline_plan p;
				struct sb_err err;
				char kv[32], what[64];
				double F, B, T;
				int s;
				M = 8;
				mk(&m, &t, k * S, 1.0, 2.0, 0, 10.0, S, 1.0);
				snprintf(kv, sizeof kv, "recompute=%d", rc);
				snprintf(what, sizeof what, "S=%d k=%d recompute=%d", S, k, rc);
				cr_assert_eq(run_planner("gpipe-balanced", &m, &t, 2 * M, M, kv, NULL, &p,
							 &err), 0, "%s", err.msg);
				cr_assert_eq(p.S, S, "%s", what);
				cr_assert_eq(p.recompute, rc, "%s", what);
				for (s = 0; s < S; s++)
					cr_expect(p.st[s].first == s * k && p.st[s].last == s * k + k - 1,
						  "%s: stage %d is %d-%d", what, s, p.st[s].first,
						  p.st[s].last);
				F = 2.0 * k * 1.0;
				B = 2.0 * k * 2.0 + (rc ? F : 0);
				T = eval_fits(&p, &m, &t, what);
				cr_expect(fabs(T - (M + S - 1) * (F + B)) < 1e-9, "%s: T %g vs %g", what, T,
					  (M + S - 1) * (F + B));
				sb_pipeline_plan_release(&p);
				sb_pmodel_release(&m);
				sb_topo_release(&t);
			}
}

/* On random layers the largest stage cost equals the brute-force min-max
 * over every partition into S contiguous stages. */
Test(pipebase, gpipe_minmax_is_optimal)
{
	struct sb_rng rng;
	int trial;
	sb_rng_seed(&rng, 42, 1);
	for (trial = 0; trial < 200; trial++) {
		int L = 2 + (int)sb_rng_below(&rng, 7), S = 1 + (int)sb_rng_below(&rng, (uint32_t)L);
		int mask, s, l;
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_err err;
		double best = INFINITY, got = 0;
		char kv[32];
		mk(&m, &t, L, 1, 1, 0, 0, S, 1.0);
		for (l = 0; l < L; l++) {
			m.layer[l].fwd = sb_rng_uniform(&rng);
			m.layer[l].bwd = sb_rng_uniform(&rng);
		}
		/* masks of S-1 cut positions among the L-1 gaps */
		for (mask = 0; mask < 1 << (L - 1); mask++) {
			double worst = 0, cur = 0;
			if (__builtin_popcount((unsigned)mask) != S - 1)
				continue;
			for (l = 0; l < L; l++) {
				cur += m.layer[l].fwd + m.layer[l].bwd;
				if (l == L - 1 || mask >> l & 1) {
					worst = sb_max(worst, cur);
					cur = 0;
				}
			}
			best = sb_min(best, worst);
		}
		snprintf(kv, sizeof kv, "recompute=0");
		cr_assert_eq(run_planner("gpipe-balanced", &m, &t, 4, 2, kv, NULL, &p, &err), 0,
			     "%s", err.msg);
		for (s = 0; s < p.S; s++) {
			double c = 0;
			for (l = p.st[s].first; l <= p.st[s].last; l++)
				c += m.layer[l].fwd + m.layer[l].bwd;
			got = sb_max(got, c);
		}
		cr_expect(fabs(got - best) <= 1e-12 * best, "trial %d: %g vs brute force %g", trial,
			  got, best);
		sb_pipeline_plan_release(&p);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
}

/* ------------------------------------------------------------------ */
/* dp, dp-overlap                                                      */
/* ------------------------------------------------------------------ */

Test(pipebase, dp_single_gpu_is_one_stage)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_err err;
	double T;
	mk(&m, &t, 6, 1.0, 2.0, 1.0, 5.0, 1, 1.0);
	cr_assert_eq(run_planner("dp", &m, &t, 8, 0, NULL, NULL, &p, &err), 0, "%s", err.msg);
	cr_expect(p.S == 1 && p.copies == 1 && p.st[0].r == 1 && p.st[0].gpu[0] == 0);
	cr_expect(p.st[0].first == 0 && p.st[0].last == 5);
	cr_expect_eq(p.M, 1, "memory is plentiful: no accumulation");
	/* one GPU, no all-reduce: T = batch (f + b) */
	T = eval_fits(&p, &m, &t, "dp on 1 GPU");
	cr_expect(fabs(T - 8 * 6 * 3.0) < 1e-9, "T = %g", T);
	sb_pipeline_plan_release(&p);
	sb_pmodel_release(&m);
	sb_topo_release(&t);
}

/* The smallest M whose microbatch fits: 6 layers of 5 parameter bytes
 * (kappa 2: 60 bytes) and 1 byte stashed per sample and layer; with 8
 * samples per GPU, M = 1 needs 108 bytes, M = 2 84, M = 4 72, M = 8 66. */
Test(pipebase, dp_accumulates_to_fit)
{
	const double mem[] = { 200, 100, 80, 70, 65 };
	const int want[] = { 1, 2, 4, 8, 0 };
	int k;
	for (k = 0; k < 5; k++) {
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_err err;
		int rc;
		mk(&m, &t, 6, 1.0, 2.0, 1.0, 5.0, 2, 1.0);
		t.mem = mem[k];
		rc = run_planner("dp", &m, &t, 16, 0, NULL, NULL, &p, &err);
		if (want[k]) {
			cr_assert_eq(rc, 0, "mem %g: %s", mem[k], err.msg);
			cr_expect_eq(p.M, want[k], "mem %g: M = %d", mem[k], p.M);
			eval_fits(&p, &m, &t, "dp");
			sb_pipeline_plan_release(&p);
		} else {
			cr_expect_eq(rc, SB_EXIT_RUN, "mem %g: rc %d", mem[k], rc);
		}
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
}

Test(pipebase, dp_overlap_never_slower)
{
	const char *models[] = { "vgg19", "bert-48", "gnmt-16", "resnet50" };
	const char *topos[] = { "config-a", "4x4-pcie-10gbe", "config-c", "dgx1" };
	int im, it;
	for (im = 0; im < 4; im++)
		for (it = 0; it < 4; it++) {
			struct sb_pmodel m;
			struct sb_topo t;
			struct sb_pipeline_plan a, b;
			struct sb_err err;
			double Ta, Tb;
			cr_assert_eq(sb_analytic_model(models[im], &m, &err), 0, "%s", err.msg);
			cr_assert_eq(sb_topo_named(topos[it], &t, &err), 0, "%s", err.msg);
			cr_assert_eq(run_planner("dp", &m, &t, 64, 0, NULL, NULL, &a, &err), 0, "%s",
				     err.msg);
			cr_assert_eq(run_planner("dp-overlap", &m, &t, 64, 0, NULL, NULL, &b, &err), 0,
				     "%s", err.msg);
			cr_expect_eq(a.M, b.M);
			Ta = eval_fits(&a, &m, &t, "dp");
			Tb = eval_fits(&b, &m, &t, "dp-overlap");
			/* every model has parameters and more than one GPU: the
			 * all-reduce is not trivial, some of it is hidden */
			cr_expect(Tb < Ta, "%s on %s: dp-overlap %g, dp %g", models[im], topos[it], Tb,
				  Ta);
			sb_pipeline_plan_release(&a);
			sb_pipeline_plan_release(&b);
			sb_pmodel_release(&m);
			sb_topo_release(&t);
		}
}

/* No all-reduce (one GPU, or no parameters): the two are the same. */
Test(pipebase, dp_overlap_equal_without_allreduce)
{
	int k;
	for (k = 0; k < 2; k++) {
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan a, b;
		struct sb_err err;
		double Ta, Tb;
		mk(&m, &t, 5, 1.0, 2.0, 1.0, k ? 0.0 : 7.0, k ? 4 : 1, 1.0);
		cr_assert_eq(run_planner("dp", &m, &t, 8, 0, NULL, NULL, &a, &err), 0, "%s", err.msg);
		cr_assert_eq(run_planner("dp-overlap", &m, &t, 8, 0, NULL, NULL, &b, &err), 0, "%s",
			     err.msg);
		Ta = eval_fits(&a, &m, &t, "dp");
		Tb = eval_fits(&b, &m, &t, "dp-overlap");
		cr_expect(fabs(Ta - Tb) < 1e-12, "case %d: %g vs %g", k, Ta, Tb);
		sb_pipeline_plan_release(&a);
		sb_pipeline_plan_release(&b);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
}

/* GPT-2 XL does not fit one 16 GB GPU; neither does a model whose
 * weights alone exceed the memory. */
Test(pipebase, model_too_large_for_dp)
{
	const char *dps[] = { "dp", "dp-overlap" };
	int k;
	for (k = 0; k < 2; k++) {
		struct sb_pmodel m, big;
		struct sb_topo t, tt;
		struct sb_pipeline_plan p;
		struct sb_err err;
		cr_assert_eq(sb_analytic_model("gpt2-xl", &m, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_topo_named("config-a", &t, &err), 0, "%s", err.msg);
		err.msg[0] = 0;
		cr_expect_eq(run_planner(dps[k], &m, &t, 64, 0, NULL, NULL, &p, &err), SB_EXIT_RUN);
		cr_expect(strstr(err.msg, "does not fit") != NULL, "%s", err.msg);
		mk(&big, &tt, 4, 1.0, 2.0, 0, 100.0, 2, 1.0);
		tt.mem = 799;       /* 2 x 400 bytes of state */
		cr_expect_eq(run_planner(dps[k], &big, &tt, 8, 0, NULL, NULL, &p, &err), SB_EXIT_RUN);
		/* a pipeline of two stages does fit */
		cr_assert_eq(run_planner("gpipe-balanced", &big, &tt, 8, 0, NULL, NULL, &p, &err), 0,
			     "%s", err.msg);
		eval_fits(&p, &big, &tt, "gpipe-balanced");
		sb_pipeline_plan_release(&p);
		sb_pmodel_release(&m);
		sb_pmodel_release(&big);
		sb_topo_release(&t);
		sb_topo_release(&tt);
	}
}

/* ------------------------------------------------------------------ */
/* pipedream                                                           */
/* ------------------------------------------------------------------ */

/*
 * Three layers on two GPUs at 1 byte/s, microbatches of b = 2 samples
 * (batch 2, M 1). Per sample: fwd+bwd 2, 3, 5; parameters 1, 2, 4 bytes;
 * activations 1, 5 bytes. So C_0 = 4, C_1 = 6, C_2 = 10, W = 1, 2, 4, and
 * the activation term of a cut after layer k is 2 b a_k / BW = 4 or 20.
 *   A[0][0][0] = 4, A[0][1][0] = 10, all on one worker;
 *   A[0][2][1] = min( (20 + 4 * 7 / 2) / 2 = 17          one stage x2
 *                     max(4, 16 [, 4]) = 16                cut after 0
 *                     max(10, 10 [, 20]) = 10 [20] )       cut after 1
 * Upstream's default has no activation term: 10, layers 0-1 | layer 2.
 * With it (ours_chain, or upstream with compression ratio 1; the output
 * term of the last state is not counted) 16: layer 0 | layers 1-2. With no
 * parameters one stage on both GPUs costs 20 / 2 = 10 and wins (the cut
 * after 1 ties at 10 without the activation term and the earlier
 * candidate stays). The objective is the planner's prediction.
 */
Test(pipebase, pipedream_hand_computed)
{
	struct {
		const char *kv;
		int zero_w;
		int S, last0, r0;
		double obj;
	} cases[] = {
		{ NULL, 0, 2, 1, 1, 10 },
		{ "ours_chain=1", 0, 2, 0, 1, 16 },
		{ "activation_compression_ratio=1", 0, 2, 0, 1, 16 },
		{ "activation_compression_ratio=4", 0, 2, 1, 1, 10 },
		{ NULL, 1, 1, 2, 2, 10 },
		{ "ours_chain=1", 1, 1, 2, 2, 10 },
	};
	const double fb[3][2] = { { 1, 1 }, { 1, 2 }, { 2, 3 } }, w[3] = { 1, 2, 4 }, a[3] = { 1, 5, 0 };
	int k, l;
	for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_err err;
		mk(&m, &t, 3, 0, 0, 0, 0, 2, 1.0);
		for (l = 0; l < 3; l++) {
			m.layer[l].fwd = fb[l][0];
			m.layer[l].bwd = fb[l][1];
			m.layer[l].params = cases[k].zero_w ? 0 : w[l];
			m.layer[l].act = a[l];
			m.layer[l].stash = 0;
		}
		cr_assert_eq(run_planner("pipedream", &m, &t, 2, 1, cases[k].kv, NULL, &p, &err), 0,
			     "%s", err.msg);
		cr_expect_eq(p.S, cases[k].S, "case %d: S = %d", k, p.S);
		cr_expect_eq(p.st[0].last, cases[k].last0, "case %d: first stage ends at %d", k,
			     p.st[0].last);
		cr_expect_eq(p.st[0].r, cases[k].r0, "case %d: r = %d", k, p.st[0].r);
		cr_expect(fabs(p.objective - cases[k].obj) < 1e-12, "case %d: objective %.17g, "
			  "expected %g", k, p.objective, cases[k].obj);
		cr_expect_eq(p.objective_batch, 2);
		if (p.S == 2)
			cr_expect(p.st[0].gpu[0] == 0 && p.st[1].gpu[0] == 1 && p.st[1].r == 1);
		cr_expect_str_eq(p.schedule, "1f1b");
		cr_expect_null(p.model, "a chain model's plan indexes its layers");
		eval_fits(&p, &m, &t, "pipedream");
		sb_pipeline_plan_release(&p);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
}

/*
 * Two servers of two GPUs (--topo 2x2:4:1: 4 byt/s inside a server, 1
 * between), one layer of C = 2 s per sample and W = 8 bytes, b = 1.
 * Lower level: one stage on both GPUs of a server, (2 + 4 * 1 * 8 /
 * (4 * 2)) / 2 = 3. Upper level, the range replicated on both servers:
 * upstream divides its data-parallel time by the 2 GPUs per server,
 * (3 + 4 * 1 * 8 / (1 * 2) / 2) / 2 = 5.5; ours_chain does not,
 * (3 + 16) / 2 = 9.5. Both: one stage on all four GPUs.
 */
Test(pipebase, pipedream_two_level_division)
{
	const char *kv[2] = { NULL, "ours_chain=1" };
	const double obj[2] = { 5.5, 9.5 };
	int k;
	for (k = 0; k < 2; k++) {
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_err err;
		sb_test_model_uniform(&m, 1, 1, 1, 0, 8);
		cr_assert_eq(sb_topo_named("2x2:4:1", &t, &err), 0, "%s", err.msg);
		cr_assert_eq(t.nserver, 2);
		cr_assert_eq(run_planner("pipedream", &m, &t, 4, 0, kv[k], NULL, &p, &err), 0, "%s",
			     err.msg);
		cr_expect(fabs(p.objective - obj[k]) < 1e-12, "%s: objective %.17g, expected %g",
			  kv[k] ? kv[k] : "upstream", p.objective, obj[k]);
		cr_expect(p.S == 1 && p.st[0].r == 4, "%s: S %d r %d", kv[k] ? kv[k] : "upstream",
			  p.S, p.st[0].r);
		eval_fits(&p, &m, &t, "pipedream");
		sb_pipeline_plan_release(&p);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
}

/* A PipeDream profile of the diamond a -> b, a -> c, b -> d, c -> d (ids 1
 * to 4; times in ms at pbs 1, so seconds per sample are time / 1000). */
static const char *diamond(double fa, double fb, double fc, double fd, double wb)
{
	static char text[1024];
	snprintf(text, sizeof text,
		 "node1 -- a -- forward_compute_time=%g, backward_compute_time=0.0, "
		 "activation_size=1.0, parameter_size=0.0\n"
		 "node2 -- b -- forward_compute_time=%g, backward_compute_time=0.0, "
		 "activation_size=2.0, parameter_size=%g\n"
		 "node3 -- c -- forward_compute_time=%g, backward_compute_time=0.0, "
		 "activation_size=4.0, parameter_size=0.0\n"
		 "node4 -- d -- forward_compute_time=%g, backward_compute_time=0.0, "
		 "activation_size=8.0, parameter_size=0.0\n"
		 "\tnode1 -- node2\n\tnode1 -- node3\n\tnode2 -- node4\n\tnode3 -- node4\n",
		 fa, fb, wb, fc, fd);
	return sb_test_write(text);
}

/*
 * The antichain DAG of the diamond, by hand: states {a}, {a,c}, {a,b},
 * {a,b,c}, {a,b,c,d} in upstream's topological order (discovered {a},
 * {a,b}, {a,c}, ...; the depth-first sort puts {a,c} first). Output
 * activations of the augmented antichains: a; a + c; a + b; a + b + c (a
 * counts although b and c are both in: upstream's number); d. Ancestors
 * in the antichain DAG: {a} of the two middle states, the three before
 * it of {a,b,c}, all four of the last. The chain of the same model has
 * one state per layer, each preceded by all before it.
 */
Test(pipebase, antichain_states_diamond)
{
	const char *path = diamond(1, 10, 100, 1000, 0);
	const double comp[5] = { 1, 101, 11, 111, 1111 }, out[5] = { 1, 5, 3, 7, 8 };
	const int anc[5][5] = { { 0 }, { 1, 0 }, { 1, 0, 0 }, { 1, 1, 1, 0 }, { 1, 1, 1, 1, 0 } };
	struct sb_pmodel m;
	struct sb_pipeline_states st;
	struct sb_err err;
	int i, k;
	cr_assert_not_null(path);
	cr_assert_eq(sb_load_pipedream_profile(path, 1, &m, &err), 0, "%s", err.msg);
	remove(path);
	cr_assert_not_null(m.graph);
	cr_assert_eq(m.graph->n, 4);
	cr_assert_eq(sb_pipeline_states_build(&m, 1, 100, &st, &err), 0, "%s", err.msg);
	cr_assert_eq(st.n, 5);
	for (i = 0; i < 5; i++) {
		cr_expect(fabs(st.comp[i] - comp[i] / 1000) < 1e-15, "state %d: comp %g", i,
			  st.comp[i]);
		cr_expect_eq(st.out_act[i], out[i], "state %d: output activation %g", i,
			     st.out_act[i]);
		for (k = 0; k < 5; k++)
			cr_expect_eq(sb_pipeline_states_is_anc(&st, k, i), anc[i][k],
				     "state %d precedes %d: %d", k, i, anc[i][k]);
		cr_expect_eq(st.anc_off[i + 1] - st.anc_off[i], i == 4 ? 4 : i == 3 ? 3 : i ? 1 : 0);
	}
	cr_expect(sb_pipeline_states_has(&st, 1, 2) && !sb_pipeline_states_has(&st, 1, 1),
		  "state 1 is {a, c}");
	cr_expect_eq(sb_pipeline_states_build(&m, 1, 4, &st, &err), SB_EXIT_RUN);
	sb_pipeline_states_release(&st);
	cr_assert_eq(sb_pipeline_states_build(&m, 0, 100, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(st.n, 4);
	for (i = 0; i < 4; i++)
		cr_expect_eq(st.anc_off[i + 1] - st.anc_off[i], i);
	sb_pipeline_states_release(&st);
	sb_pmodel_release(&m);
}

/*
 * The best cut of the diamond is off the loaded chain (a | b | c | d):
 * with a = 1, b = 3, c = 4, d = 2 s per sample, b's 1-byte parameters at
 * 1 byte/s and two GPUs, {a, c} | {b, d} costs max(5, 5) = 5, one stage
 * on both GPUs (10 + 4 * 1 / 2) / 2 = 6, and the chain's cuts 9, 6, 8.
 * The plan carries the graph cut along it (two layers) and simulates;
 * ours_chain finds the chain's best, 6 (the cut after b).
 */
Test(pipebase, pipedream_cut_off_the_chain)
{
	const char *path = diamond(1000, 3000, 4000, 2000, 1);
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_err err;
	cr_assert_not_null(path);
	cr_assert_eq(sb_load_pipedream_profile(path, 1, &m, &err), 0, "%s", err.msg);
	remove(path);
	sb_test_topo_flat(&t, 2, 1, 1e15);
	cr_assert_eq(run_planner("pipedream", &m, &t, 1, 0, NULL, NULL, &p, &err), 0, "%s",
		     err.msg);
	cr_expect(fabs(p.objective - 5) < 1e-12, "objective %.17g", p.objective);
	cr_assert_not_null(p.model, "the cut {a, c} is not a cut of the chain");
	cr_assert_eq(p.model->n, 2);
	cr_expect(fabs(p.model->layer[0].fwd - 5) < 1e-12 && fabs(p.model->layer[1].fwd - 5) < 1e-12);
	/* a's output to b and c's to d cross the cut */
	cr_expect_eq(p.model->layer[0].act, 5);
	cr_expect_eq(p.model->layer[1].params, 1);
	cr_expect(p.S == 2 && p.st[0].last == 0 && p.st[1].first == 1);
	eval_fits(&p, &m, &t, "pipedream");
	sb_pipeline_plan_release(&p);
	cr_assert_eq(run_planner("pipedream", &m, &t, 1, 0, "ours_chain=1", NULL, &p, &err), 0,
		     "%s", err.msg);
	cr_expect_null(p.model);
	cr_expect(p.S == 2 && p.st[0].last == 1, "ours_chain: first stage ends at %d",
		  p.st[0].last);
	sb_pipeline_plan_release(&p);
	sb_topo_release(&t);
	sb_pmodel_release(&m);
}

/* With the problem's M the replicas of a stage never outnumber the
 * samples of a microbatch (split-concat), on a model PipeDream likes to
 * replicate (VGG-19's convolutions have few parameters). */
Test(pipebase, pipedream_replicas_within_microbatch)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	int M, s;
	cr_assert_eq(sb_analytic_model("vgg19", &m, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_topo_named("config-b", &t, &err), 0, "%s", err.msg);
	for (M = 1; M <= 64; M *= 2) {
		struct sb_pipeline_plan p;
		cr_assert_eq(run_planner("pipedream", &m, &t, 64, M, NULL, NULL, &p, &err), 0, "%s",
			     err.msg);
		for (s = 0; s < p.S; s++)
			cr_expect(p.st[s].r <= 64 / M, "M=%d: stage %d has %d replicas", M, s,
				  p.st[s].r);
		eval_fits(&p, &m, &t, "pipedream");
		sb_pipeline_plan_release(&p);
	}
	sb_topo_release(&t);
	sb_pmodel_release(&m);
}

/* ------------------------------------------------------------------ */
/* pipedream-2bw                                                       */
/* ------------------------------------------------------------------ */

/* Without parameters nothing is all-reduced and one stage per copy has no
 * fill or drain: w = N copies of the whole model. With heavy parameters
 * on a slow network every all-reduce costs more than the pipeline's
 * bubble: one pipeline of N stages. */
Test(pipebase, pipedream_2bw_extremes)
{
	int k;
	for (k = 0; k < 2; k++) {
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_err err;
		mk(&m, &t, 8, 1.0, 2.0, 0.0, k ? 1e6 : 0.0, 4, 1.0);
		cr_assert_eq(run_planner("pipedream-2bw", &m, &t, 32, 0, NULL, NULL, &p, &err), 0,
			     "%s", err.msg);
		cr_expect_eq(p.S, k ? 4 : 1, "case %d: S = %d", k, p.S);
		cr_expect_eq(p.copies, k ? 1 : 4, "case %d: copies = %d", k, p.copies);
		cr_expect_eq(p.recompute, 0, "re-computation only costs here");
		eval_fits(&p, &m, &t, "pipedream-2bw");
		sb_pipeline_plan_release(&p);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
}

/* ------------------------------------------------------------------ */
/* piper                                                               */
/* ------------------------------------------------------------------ */

/* Piper's objective and memory as its header states them, written out
 * again here: per microbatch of beta samples, bandwidth bw, M microbatches
 * per batch, kappa 2. */
struct piper_inst {
	const struct sb_pmodel *m;
	double beta, bw, mem;
	int M, N, dcap;
};

static double piper_time(const struct piper_inst *q, int i, int j, int d)
{
	double edge = 0, W = 0, comp = 0;
	int l;
	if (i > 0)
		edge += q->m->layer[i - 1].act;
	if (j + 1 < q->m->n)
		edge += q->m->layer[j].act;
	for (l = i; l <= j; l++) {
		W += q->m->layer[l].params;
		comp += q->m->layer[l].fwd + q->m->layer[l].bwd;
	}
	return (2 * q->beta * edge / d + 4.0 * (d - 1) * W / (d * (double)q->M)) / q->bw +
	       q->beta * comp / d;
}

static int piper_fits(const struct piper_inst *q, int i, int j, int d, int suffix)
{
	double a = 0, w = 0;
	int l, y = (suffix + d - 1) / d;
	for (l = i; l <= j; l++) {
		a += q->m->layer[l].stash;
		w += q->m->layer[l].params;
	}
	return q->beta * a * y + 2 * w <= q->mem * (1 - 1e-9);
}

/* Objective of stages (first[s]..last[s], degree deg[s]); INFINITY if a
 * stage breaks the memory or the degree limits. */
static double piper_objective(const struct piper_inst *q, int S, const int *first,
			      const int *last, const int *deg)
{
	double worst = 0;
	int s, suffix = 0, total = 0;
	for (s = 0; s < S; s++)
		total += deg[s];
	if (total > q->N)
		return INFINITY;
	for (s = S - 1; s >= 0; s--) {
		suffix += deg[s];
		if (deg[s] < 1 || deg[s] > q->dcap || !piper_fits(q, first[s], last[s], deg[s], suffix))
			return INFINITY;
		worst = sb_max(worst, piper_time(q, first[s], last[s], deg[s]));
	}
	return worst;
}

/* Brute force: every composition of the layers, every degree vector. */
static double piper_brute(const struct piper_inst *q)
{
	int L = q->m->n, mask, first[8], last[8], deg[8], S, l, s;
	double best = INFINITY;
	for (mask = 0; mask < 1 << (L - 1); mask++) {
		long combos = 1, c;
		S = 0;
		first[0] = 0;
		for (l = 0; l < L; l++)
			if (l == L - 1 || mask >> l & 1) {
				last[S++] = l;
				if (l + 1 < L)
					first[S] = l + 1;
			}
		for (s = 0; s < S; s++)
			combos *= q->dcap;
		for (c = 0; c < combos; c++) {
			long v = c;
			for (s = 0; s < S; s++) {
				deg[s] = 1 + (int)(v % q->dcap);
				v /= q->dcap;
			}
			best = sb_min(best, piper_objective(q, S, first, last, deg));
		}
	}
	return best;
}

Test(pipebase, piper_dp_equals_brute_force)
{
	struct sb_rng rng;
	int trial, nfeasible = 0, nrepl = 0;
	sb_rng_seed(&rng, 7, 3);
	for (trial = 0; trial < 300; trial++) {
		int L = 1 + (int)sb_rng_below(&rng, 5), N = 1 + (int)sb_rng_below(&rng, 4);
		int M = 1 << sb_rng_below(&rng, 3), beta = 1 << sb_rng_below(&rng, 3), l, g, h, rc, s;
		int first[8], last[8], deg[8];
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_err err;
		struct piper_inst q;
		double brute, got;
		mk(&m, &t, L, 0, 0, 0, 0, N, 1.0);
		for (l = 0; l < L; l++) {
			m.layer[l].fwd = 0.1 + sb_rng_uniform(&rng);
			m.layer[l].bwd = 0.1 + 2 * sb_rng_uniform(&rng);
			m.layer[l].act = 5 * sb_rng_uniform(&rng);
			m.layer[l].params = 10 * sb_rng_uniform(&rng);
			m.layer[l].stash = 3 * sb_rng_uniform(&rng);
		}
		q.bw = INFINITY;
		for (g = 0; g < N; g++)
			for (h = g + 1; h < N; h++) {
				t.bw[g * N + h] = t.bw[h * N + g] = 1 + 9 * sb_rng_uniform(&rng);
				q.bw = sb_min(q.bw, t.bw[g * N + h]);
			}
		t.mem = 10 + 60 * sb_rng_uniform(&rng);
		q.m = &m;
		q.beta = beta;
		q.mem = t.mem;
		q.M = M;
		q.N = N;
		q.dcap = beta < N ? beta : N;
		brute = piper_brute(&q);
		rc = run_planner("piper", &m, &t, (double)M * beta, M, NULL, NULL, &p, &err);
		if (brute == INFINITY) {
			cr_expect_eq(rc, SB_EXIT_RUN, "trial %d: nothing fits, rc %d", trial, rc);
			if (!rc)
				sb_pipeline_plan_release(&p);
			sb_pmodel_release(&m);
			sb_topo_release(&t);
			continue;
		}
		cr_assert_eq(rc, 0, "trial %d: %s", trial, err.msg);
		cr_assert_eq(p.M, M);
		for (s = 0; s < p.S; s++) {
			first[s] = p.st[s].first;
			last[s] = p.st[s].last;
			deg[s] = p.st[s].r;
			nrepl += deg[s] > 1;
		}
		got = piper_objective(&q, p.S, first, last, deg);
		cr_expect(fabs(got - brute) <= 1e-9 * brute, "trial %d: DP %.17g, brute force %.17g",
			  trial, got, brute);
		eval_fits(&p, &m, &t, "piper");
		nfeasible++;
		sb_pipeline_plan_release(&p);
		sb_pmodel_release(&m);
		sb_topo_release(&t);
	}
	/* the instances exercise both outcomes and replication */
	cr_expect(nfeasible > 150 && nfeasible < 300, "%d feasible", nfeasible);
	cr_expect(nrepl > 20, "%d replicated stages", nrepl);
}

/* ------------------------------------------------------------------ */
/* Size: 100 layers on 64 GPUs (times are logged, not asserted)        */
/* ------------------------------------------------------------------ */

Test(pipebase, large_instance)
{
	struct sb_pmodel m, b48;
	struct sb_topo t;
	struct sb_rng rng;
	struct sb_err err;
	int l, k, mi;
	cr_assert_eq(sb_analytic_model("bert-48", &b48, &err), 0, "%s", err.msg);
	memset(&m, 0, sizeof m);
	m.n = 100;
	m.pbs = 1;
	m.layer = SB_NEW(struct sb_layer, 100);
	for (l = 0; l < 100; l++) {
		/* transformer layers of uneven cost, lighter to fit 64 GPUs */
		m.layer[l] = b48.layer[1 + l % 48];
		m.layer[l].fwd *= 0.5 + (l % 7) / 7.0;
		m.layer[l].bwd *= 0.5 + (l % 5) / 5.0;
		m.layer[l].params *= 0.5;
		m.layer[l].stash *= 0.3;
	}
	sb_rng_seed(&rng, 1, 11);
	sb_topo_random(&t, 64, &rng);
	for (k = 0; k < NPLANNERS; k++)
		for (mi = 0; mi < 2; mi++) {
			struct sb_pipeline_plan p;
			int M = mi ? 32 : 0, rc;
			double t0 = sb_now(), dt;
			char what[64];
			if (M && !strncmp(planners[k], "dp", 2))
				continue;
			rc = run_planner(planners[k], &m, &t, 512, M, NULL, NULL, &p, &err);
			dt = sb_now() - t0;
			snprintf(what, sizeof what, "%s, 100 layers, 64 GPUs, M=%d", planners[k], M);
			cr_assert_eq(rc, 0, "%s: %s", what, err.msg);
			cr_log_info("%s: planned in %.3f s", what, dt);
			eval_fits(&p, &m, &t, what);
			sb_pipeline_plan_release(&p);
		}
	sb_topo_release(&t);
	sb_pmodel_release(&m);
	sb_pmodel_release(&b48);
}
