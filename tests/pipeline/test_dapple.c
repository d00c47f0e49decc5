/*
 * test_dapple.c - DAPPLE (dapple.md §9): closed forms on balanced stages,
 * pipesim against the recursive 1F1B timeline task by task, the pivot
 * heuristic against brute force, DAPPLE's rules and latency by hand,
 * early-backward's in-flight caps, the placement policies, and both
 * planners' plans through the simulator and the checker.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/dapple/dapple_model.h"
#include "pipeline/pipeline.h"
#include "pipetest.h"
#include "workloads/pipeline/load.h"
#include "rng.h"
#include "tests/testutil.h"

#define EPS 1e-9

/* S one-layer stages: fwd f[s], bwd b[s], output act[s] bytes, params
 * w; S GPUs in one server joined by bandwidth bw (INFINITY: free). */
static void mk(struct sb_pmodel *m, struct sb_topo *t, int S, const double *f, const double *b,
	       const double *act, double w, double bw)
{
	int i;
	memset(m, 0, sizeof *m);
	m->n = S;
	m->pbs = 1;
	snprintf(m->name, sizeof m->name, "test");
	m->layer = SB_NEW(struct sb_layer, S);
	for (i = 0; i < S; i++) {
		m->layer[i].fwd = f[i];
		m->layer[i].bwd = b[i];
		m->layer[i].act = act[i];
		m->layer[i].stash = 1;
		m->layer[i].params = w;
	}
	sb_test_topo_flat(t, S, bw, 1e18);
}

static void release(struct sb_pmodel *m, struct sb_topo *t)
{
	sb_pmodel_release(m);
	sb_topo_release(t);
}


/* Options of schedule sc with up to two "k=v" settings (NULL: none). */
static void sched_opts(const struct sb_pipeline_schedule *sc, struct sb_opts *o, const char *set1,
		       const char *set2)
{
	struct sb_err err;
	sb_opts_defaults(o, sc->params);
	if (set1)
		cr_assert_eq(sb_opts_set(o, sc->params, set1, "test", &err), 0, "%s", err.msg);
	if (set2)
		cr_assert_eq(sb_opts_set(o, sc->params, set2, "test", &err), 0, "%s", err.msg);
}

static double simulate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		       const struct sb_opts *o, struct sb_pipeline_result *r)
{
	struct sb_err err;
	cr_assert_eq(sb_pipeline_evaluate(p, m, t, sc, o, r, &err), 0, "%s", err.msg);
	return r->iter_time;
}

/* ------------------------------------------------------------------ */
/* Balanced stages without communication                               */
/* ------------------------------------------------------------------ */

Test(dapple, balanced_closed_form)
{
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	const struct sb_pipeline_schedule *gp = sb_pipeline_schedule_find("gpipe");
	int S, M;
	cr_assert(eb && gp);
	for (S = 1; S <= 6; S++)
		for (M = 1; M <= 10; M += 3) {
			double f[6], b[6], a[6], F[11], B[11], want = (M + S - 1) * 3.0, T;
			int K[11], x, n = 2 * S - 1;
			struct sb_pmodel m;
			struct sb_topo t;
			struct sb_pipeline_plan p;
			struct sb_pipeline_result r;
			struct sb_opts o, og, os;
			struct sb_dapple_env e;
			for (x = 0; x < S; x++) {
				f[x] = 1;
				b[x] = 2;
				a[x] = 0;
			}
			mk(&m, &t, S, f, b, a, 0, INFINITY);
			sb_test_straight(&p, S, M);
			sched_opts(eb, &o, NULL, NULL);
			sched_opts(eb, &os, "strict=1", NULL);
			sb_opts_defaults(&og, gp->params);
			T = simulate(&p, &m, &t, eb, &o, &r);
			cr_expect(fabs(T - want) < EPS, "early-backward S=%d M=%d: %g", S, M, T);
			sb_pipeline_result_release(&r);
			T = simulate(&p, &m, &t, eb, &os, &r);
			cr_expect(fabs(T - want) < EPS, "strict S=%d M=%d: %g", S, M, T);
			sb_pipeline_result_release(&r);
			T = simulate(&p, &m, &t, gp, &og, &r);
			cr_expect(fabs(T - want) < EPS, "gpipe S=%d M=%d: %g", S, M, T);
			sb_pipeline_result_release(&r);
			/* the recursion over S stages, and over 2S-1 slots with
			 * empty transfers as DAPPLE counts them */
			for (x = 0; x < S; x++) {
				F[x] = 1;
				B[x] = 2;
				K[x] = S - x;
			}
			T = sb_dapple_timeline(S, M, F, B, NULL, K, NULL, NULL);
			cr_expect(fabs(T - want) < EPS, "timeline S=%d M=%d: %g", S, M, T);
			for (x = 0; x < n; x++) {
				F[x] = x % 2 ? 0 : 1;
				B[x] = x % 2 ? 0 : 2;
				K[x] = n - x;
			}
			T = sb_dapple_timeline(n, M, F, B, NULL, K, NULL, NULL);
			cr_expect(fabs(T - want) < EPS, "2S-1 slots S=%d M=%d: %g", S, M, T);
			sb_dapple_env_init(&e, &t, 1.0 / 3, 0);
			T = sb_dapple_recursive(&e, &p, &m);
			cr_expect(fabs(T - want) < EPS, "recursive S=%d M=%d: %g", S, M, T);
			/* DAPPLE's latency model is exact here */
			T = sb_dapple_estimate(&e, &p, &m, NULL);
			cr_expect(fabs(T - want) < EPS, "latency S=%d M=%d: %g", S, M, T);
			sb_dapple_env_release(&e);
			sb_pipeline_plan_release(&p);
			release(&m, &t);
		}
}

/* ------------------------------------------------------------------ */
/* pipesim = the recursive timeline, task by task                      */
/* ------------------------------------------------------------------ */

/*
 * Simulate a straight plan under early-backward (options o) and compare
 * every task and transfer with sb_dapple_timeline over 2S-1 slots: the
 * stages with the caps pipesim used, the links as FIFO queues (K = 0).
 * Returns the number of events that differ.
 */
static int des_vs_timeline(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			   const struct sb_topo *t, const struct sb_opts *o, double *Tdes,
			   double *Ttl)
{
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	struct sb_pipeline_result r;
	struct sb_pipeline_costs c;
	int S = p->S, M = p->M, n = 2 * S - 1, s, e, bad = 0, K[32];
	double F[32], B[32], AR[32], *fs = calloc((size_t)n * M, sizeof *fs);
	double *bs = calloc((size_t)n * M, sizeof *bs);

	*Tdes = simulate(p, m, t, eb, o, &r);
	sb_pipeline_costs_build(&c, p, m, t);
	for (s = 0; s < S; s++) {
		struct sb_pipeline_view v;
		memset(&v, 0, sizeof v);
		v.plan = p;
		v.costs = &c;
		v.stage = s;
		F[2 * s] = c.F[s];
		B[2 * s] = c.B[s];
		AR[2 * s] = c.AR[s];
		K[2 * s] = eb->cap(&v, o);
		if (s + 1 < S) {
			F[2 * s + 1] = B[2 * s + 1] = c.C[s];
			AR[2 * s + 1] = 0;
			K[2 * s + 1] = 0;
		}
	}
	*Ttl = sb_dapple_timeline(n, M, F, B, AR, K, fs, bs);
	for (e = 0; e < r.nev; e++) {
		const struct sb_pipeline_event *ev = &r.ev[e];
		int x = ev->stage >= 0 ? 2 * ev->stage : 2 * ev->link + 1;
		double want = ev->kind == SB_PIPELINE_F ? fs[ev->mb * n + x] : bs[ev->mb * n + x];
		bad += fabs(ev->start - want) > EPS;
	}
	cr_expect_eq(r.nev, 2 * M * (2 * S - 1), "every task and transfer once");
	sb_pipeline_result_release(&r);
	sb_pipeline_costs_release(&c);
	free(fs);
	free(bs);
	return bad;
}

Test(dapple, des_matches_timeline_strict)
{
	struct sb_rng rng;
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	static const char *const thr[3] = { "acr_threshold=0", "acr_threshold=0.5",
					    "acr_threshold=1e9" };
	int it, high = 0;
	sb_rng_seed(&rng, 42, 7);
	for (it = 0; it < 300; it++) {
		int S = 1 + (int)sb_rng_below(&rng, 6), M = 1 + (int)sb_rng_below(&rng, 10), s;
		double f[6], b[6], a[6], bw = 1.0 / (0.05 + 2 * sb_rng_uniform(&rng)), T1, T2;
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_opts o;
		/* unbalanced stages, one transfer time for every link */
		for (s = 0; s < S; s++) {
			f[s] = 0.2 + sb_rng_uniform(&rng);
			b[s] = 0.2 + 2 * sb_rng_uniform(&rng);
			a[s] = 1;
		}
		mk(&m, &t, S, f, b, a, 10, bw);
		sb_test_straight(&p, S, M);
		sched_opts(eb, &o, "strict=1", thr[it % 3]);
		cr_expect_eq(des_vs_timeline(&p, &m, &t, &o, &T1, &T2), 0,
			     "S=%d M=%d: pipesim differs from the timeline", S, M);
		cr_expect(fabs(T1 - T2) < EPS, "S=%d M=%d: %g vs %g", S, M, T1, T2);
		high += it % 3 == 0 && S > 2 && M > 3;
		sb_pipeline_plan_release(&p);
		release(&m, &t);
	}
	cr_assert_gt(high, 10);
}

Test(dapple, des_matches_timeline_balanced_greedy)
{
	struct sb_rng rng;
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	int it;
	sb_rng_seed(&rng, 43, 7);
	for (it = 0; it < 200; it++) {
		int S = 1 + (int)sb_rng_below(&rng, 6), M = 1 + (int)sb_rng_below(&rng, 10), s;
		double f[6], b[6], a[6], bw = 1.0 / (0.05 + 2 * sb_rng_uniform(&rng)), T1, T2;
		double fv = 0.2 + sb_rng_uniform(&rng), bv = 0.2 + 2 * sb_rng_uniform(&rng);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_opts o;
		for (s = 0; s < S; s++) {
			f[s] = fv;
			b[s] = bv;
			a[s] = 1;
		}
		mk(&m, &t, S, f, b, a, 10, bw);
		sb_test_straight(&p, S, M);
		sched_opts(eb, &o, it % 2 ? "acr_threshold=0" : "acr_threshold=1e9", NULL);
		cr_expect_eq(des_vs_timeline(&p, &m, &t, &o, &T1, &T2), 0,
			     "S=%d M=%d: greedy pipesim differs from the timeline", S, M);
		cr_expect(fabs(T1 - T2) < EPS);
		sb_pipeline_plan_release(&p);
		release(&m, &t);
	}
}

/* DAPPLE counts a transfer as a stage that serialises both directions;
 * pipesim's links are full duplex. With the same caps DAPPLE's timeline
 * only adds constraints: never earlier, sometimes later. */
Test(dapple, transfers_as_stages_never_faster)
{
	struct sb_rng rng;
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	int it, later = 0;
	sb_rng_seed(&rng, 44, 7);
	for (it = 0; it < 200; it++) {
		int S = 2 + (int)sb_rng_below(&rng, 5), M = 2 + (int)sb_rng_below(&rng, 9), s, n;
		double f[6], b[6], a[6], F[11], B[11], T1, T2, Td;
		int K[11];
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_pipeline_costs c;
		struct sb_opts o;
		for (s = 0; s < S; s++) {
			f[s] = 0.2 + sb_rng_uniform(&rng);
			b[s] = 0.2 + 2 * sb_rng_uniform(&rng);
			a[s] = 1;
		}
		mk(&m, &t, S, f, b, a, 0, 1.0 / (0.1 + sb_rng_uniform(&rng)));
		sb_test_straight(&p, S, M);
		/* every stage communication-heavy: K = 2(S-s)-1, DAPPLE's */
		sched_opts(eb, &o, "strict=1", "acr_threshold=0");
		cr_assert_eq(des_vs_timeline(&p, &m, &t, &o, &T1, &T2), 0);
		sb_pipeline_costs_build(&c, &p, &m, &t);
		n = 2 * S - 1;
		for (s = 0; s < n; s++) {
			F[s] = s % 2 ? c.C[s / 2] : c.F[s / 2];
			B[s] = s % 2 ? c.C[s / 2] : c.B[s / 2];
			K[s] = n - s;
		}
		Td = sb_dapple_timeline(n, M, F, B, NULL, K, NULL, NULL);
		cr_expect_geq(Td, T1 - EPS, "S=%d M=%d: %g < %g", S, M, Td, T1);
		later += Td > T1 + EPS;
		sb_pipeline_costs_release(&c);
		sb_pipeline_plan_release(&p);
		release(&m, &t);
	}
	cr_expect_gt(later, 0, "the two transfer models never differed");
}

/* ------------------------------------------------------------------ */
/* The pivot and the latency model                                     */
/* ------------------------------------------------------------------ */

Test(dapple, pivot_is_brute_force_argmax)
{
	struct sb_rng rng;
	int it, differ = 0;
	sb_rng_seed(&rng, 45, 7);
	for (it = 0; it < 5000; it++) {
		int n = 1 + (int)sb_rng_below(&rng, 15), M = 1 + (int)sb_rng_below(&rng, 20), s;
		int q, best = 0;
		double F[15], B[15], pre = 0, vbest = -INFINITY;
		for (s = 0; s < n; s++) {
			/* small integers: ties happen */
			F[s] = (double)sb_rng_below(&rng, 4);
			B[s] = (double)sb_rng_below(&rng, 6);
		}
		for (s = 0; s < n; s++) {
			double v = pre + M * (F[s] + B[s]);
			if (v >= vbest) {
				vbest = v;
				best = s;
			}
			pre += F[s] + B[s];
		}
		q = sb_dapple_pivot(n, F, B, M, 0);
		cr_assert_eq(q, best, "n=%d M=%d: pivot %d, argmax %d", n, M, q, best);
		differ += sb_dapple_pivot(n, F, B, M, 1) != q;
	}
	/* the other summation index is a different heuristic */
	cr_expect_gt(differ, 0);
}

Test(dapple, latency_by_hand)
{
	/* two stages and their transfer: x = 3, 1, 6; V = 12, 7, 28: Q = 2.
	 * T_w = 1 + 0.5 + 2, T_s = 3 x 6, T_e = AR_0 + B_0 + B_1 + B_2 =
	 * 3 + 6.5 (stage 1: 1 + 4). */
	double F[3] = { 1, 0.5, 2 }, B[3] = { 2, 0.5, 4 }, AR[3] = { 3, 0, 1 };
	double F2[3] = { 3, 0, 1 }, B2[3] = { 6, 0, 2 };
	int q;
	cr_expect(fabs(sb_dapple_latency(3, F, B, AR, 4, 0, &q) - 31) < EPS);
	cr_expect_eq(q, 2);
	/* a heavy first stage is the pivot: V = 36, 9, 21; L = 3 + 27 + 6 */
	cr_expect(fabs(sb_dapple_latency(3, F2, B2, NULL, 4, 0, &q) - 36) < EPS);
	cr_expect_eq(q, 0);
	/* one microbatch: the pivot is the last slot and the model exact */
	cr_expect(fabs(sb_dapple_latency(3, F, B, AR, 1, 0, &q) - (3.5 + 3 + 6.5)) < EPS);
	cr_expect_eq(q, 2);
}

/* The planners' O(1) recurrence, stage by stage from the last, equals
 * the latency model over the whole slot sequence (both pivot forms). */
Test(dapple, suffix_recurrence_matches_latency)
{
	struct sb_rng rng;
	int it, moved = 0;
	sb_rng_seed(&rng, 46, 7);
	for (it = 0; it < 4000; it++) {
		int S = 1 + (int)sb_rng_below(&rng, 8), M = 1 + (int)sb_rng_below(&rng, 12);
		int index = it % 2, s, n = 2 * S - 1, q;
		double F[15], B[15], AR[15], L;
		struct sb_dapple_suffix suf, nx;
		memset(&suf, 0, sizeof suf);
		for (s = 0; s < n; s++) {
			/* stages, transfers, all-reduces of every relative size */
			F[s] = sb_rng_uniform(&rng) * (s % 2 ? 0.5 : 2);
			B[s] = sb_rng_uniform(&rng) * (s % 2 ? 0.5 : 4);
			AR[s] = s % 2 ? 0 : sb_rng_uniform(&rng) * 20 * sb_rng_below(&rng, 2);
		}
		for (s = S - 1; s >= 0; s--) {
			sb_dapple_suffix_prepend(&suf, &nx, F[2 * s], B[2 * s], AR[2 * s],
						 s + 1 < S ? F[2 * s + 1] : 0,
						 s + 1 < S ? B[2 * s + 1] : 0, M, index);
			suf = nx;
			/* every suffix is itself a pipeline */
			L = sb_dapple_latency(n - 2 * s, F + 2 * s, B + 2 * s, AR + 2 * s, M, index,
					      &q);
			cr_assert(fabs(L - suf.L) <= 1e-9 * sb_max(1, L), "S=%d M=%d index=%d from "
				  "stage %d: %.12g vs %.12g", S, M, index, s, suf.L, L);
			moved += q < n - 2 * s - 1 && s + 1 < S;
		}
		cr_assert_eq(suf.nst, S);
	}
	cr_expect_gt(moved, 100, "the pivot rarely left the last slot");
}

Test(dapple, rules_by_hand_config_a)
{
	struct sb_topo t;
	struct sb_err err;
	struct sb_dapple_env e;
	int s8[8] = { 0, 1, 2, 3, 4, 5, 6, 7 }, x2[2] = { 0, 8 }, y1[1] = { 1 }, y2[2] = { 1, 9 };
	int a2[2] = { 0, 1 }, b1[1] = { 2 };
	cr_assert_eq(sb_topo_named("config-a", &t, &err), 0, "%s", err.msg);
	sb_dapple_env_init(&e, &t, 1.0 / 3, 0);
	/* DAPPLE's constants: NVLink 25 GB/s, Ethernet 3 GB/s, P2P 1 GB/s */
	cr_expect(fabs(e.nvl[0] - 25e9) < 1, "%g", e.nvl[0]);
	cr_expect(fabs(e.eth[1] - 3e9) < 1, "%g", e.eth[1]);
	/* all-reduce of 1 GB: 8 GPUs of a machine 2 (7/8) / 25e9 / 4 */
	cr_expect(fabs(sb_dapple_allreduce(&e, s8, 8, 1e9) - 0.0175) < EPS);
	cr_expect(fabs(sb_dapple_allreduce(&e, x2, 2, 1e9) - 1.0 / 3) < EPS);
	cr_expect(sb_dapple_allreduce(&e, y1, 1, 1e9) == 0);
	/* split-concat of 1 GB: inside a machine; half the senders on the
	 * other machine (P2P); receivers on both machines (NCCL) */
	cr_expect(fabs(sb_dapple_split_concat(&e, a2, 2, b1, 1, 1e9) - 0.04) < EPS);
	cr_expect(fabs(sb_dapple_split_concat(&e, x2, 2, y1, 1, 1e9) - 0.5) < EPS);
	cr_expect(fabs(sb_dapple_split_concat(&e, y1, 1, y2, 2, 1e9) - 1.0 / 3) < EPS);
	sb_dapple_env_release(&e);
	sb_topo_release(&t);
}

Test(dapple, memory_formula_by_hand)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_prefix x;
	double f[3] = { 1, 1, 1 }, b[3] = { 2, 2, 2 }, a[3] = { 1, 1, 1 };
	mk(&m, &t, 3, f, b, a, 100, INFINITY);
	m.layer[1].stash = 10;
	m.layer[2].stash = 30;
	sb_pipeline_prefix_init(&x, &m);
	/* layers 1..2: W = 200, A = 40 per sample; 6 samples over 4 replicas
	 * round up to 2 profiled batches of 1: 2 x 200 + 3 x 40 x 2 */
	cr_expect(fabs(sb_dapple_stage_mem(&x, 1, 1, 2, 4, 6, 3, 2) - 640) < EPS);
	/* profiled at batch 4: one batch of 4 per replica */
	cr_expect(fabs(sb_dapple_stage_mem(&x, 4, 1, 2, 4, 6, 3, 2) - (400 + 3 * 40 * 4)) < EPS);
	sb_pipeline_prefix_release(&x);
	release(&m, &t);
}

/* ------------------------------------------------------------------ */
/* early-backward: caps and memory                                     */
/* ------------------------------------------------------------------ */

Test(dapple, inflight_equals_k)
{
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	int S, M = 12, heavy;
	for (heavy = 0; heavy < 2; heavy++)
		for (S = 1; S <= 6; S++) {
			double f[6], b[6], a[6];
			struct sb_pmodel m;
			struct sb_topo t;
			struct sb_pipeline_plan p;
			struct sb_pipeline_result r;
			struct sb_pipeline_costs c;
			struct sb_opts o;
			double peak = 0;
			int s;
			for (s = 0; s < S; s++) {
				f[s] = 1;
				b[s] = 2;
				a[s] = 1;
			}
			/* a transfer of 0.3 s (ACR 0.1) or 3 s (ACR 1) */
			mk(&m, &t, S, f, b, a, 5, heavy ? 1.0 / 3 : 1.0 / 0.3);
			sb_test_straight(&p, S, M);
			sched_opts(eb, &o, NULL, NULL);
			simulate(&p, &m, &t, eb, &o, &r);
			sb_pipeline_costs_build(&c, &p, &m, &t);
			for (s = 0; s < S; s++) {
				int k = s + 1 == S ? 1 : heavy ? 2 * (S - s) - 1 : S - s;
				k = k < M ? k : M;
				cr_expect_eq(r.peak_inflight[s], k, "heavy=%d S=%d stage %d: %d in "
					     "flight, K = %d", heavy, S, s, r.peak_inflight[s], k);
				peak = sb_max(peak, c.mem_w[s] + k * c.mem_a[s]);
				/* without costs the cap is the large-ACR one */
				cr_expect_eq(sb_pipeline_sched_cap(eb, &p, s, &o),
					     2 * (S - s) - 1 < M ? 2 * (S - s) - 1 : M);
			}
			cr_expect(fabs(r.peak_mem - peak) < EPS, "memory %g vs %g", r.peak_mem, peak);
			sb_pipeline_costs_release(&c);
			sb_pipeline_result_release(&r);
			sb_pipeline_plan_release(&p);
			release(&m, &t);
		}
}

/* ------------------------------------------------------------------ */
/* Placement policies                                                  */
/* ------------------------------------------------------------------ */

Test(dapple, placement_policies)
{
	struct sb_topo t;
	struct sb_err err;
	struct sb_dapple_grid g;
	static const int pol[3] = { SB_DAPPLE_FRESH, SB_DAPPLE_APPEND, SB_DAPPLE_SCATTER };
	uint64_t used[3] = { 0x7, 0x101, 0 };
	int u, p, k;
	cr_assert_eq(sb_topo_named("config-a", &t, &err), 0, "%s", err.msg);
	sb_dapple_grid_init(&g, &t, 1);
	cr_assert_eq(g.nmach, 2);
	/* GPUs 0-2 used: Fresh takes the other machine, Append fills */
	cr_expect_eq(sb_dapple_place(&g, 0x7, 4, SB_DAPPLE_FRESH), 0xf00);
	cr_expect_eq(sb_dapple_place(&g, 0x7, 4, SB_DAPPLE_APPEND), 0x78);
	/* one GPU used in each machine: Scatter alternates between them */
	cr_expect_eq(sb_dapple_place(&g, 0x101, 4, SB_DAPPLE_SCATTER), 0x606);
	cr_expect_eq(sb_dapple_place(&g, 0x101, 4, SB_DAPPLE_FRESH), 0x1e);
	cr_expect_eq(sb_dapple_place(&g, 0, 4, SB_DAPPLE_SCATTER), 0x303);
	cr_expect_eq(sb_dapple_place(&g, 0, 17, SB_DAPPLE_FRESH), 0);
	/* prefix-closed: k GPUs are the first k of the order */
	for (u = 0; u < 3; u++)
		for (p = 0; p < 3; p++) {
			int ord[64], n = sb_dapple_order(&g, used[u], pol[p], ord);
			uint64_t acc = 0;
			cr_expect_eq(n, 16 - __builtin_popcountll(used[u]));
			for (k = 1; k <= n; k++) {
				acc |= (uint64_t)1 << ord[k - 1];
				cr_expect_eq(sb_dapple_place(&g, used[u], k, pol[p]), acc);
				cr_expect_eq(acc & used[u], 0);
			}
		}
	sb_dapple_grid_release(&g);
	/* four copies of 4: consecutive blocks in (server, id) order */
	sb_dapple_grid_init(&g, &t, 4);
	cr_expect_eq(g.width, 4);
	cr_expect_eq(g.gpu[2 * 4], 8);
	sb_dapple_grid_release(&g);
	sb_topo_release(&t);
}

/* ------------------------------------------------------------------ */
/* The planners                                                        */
/* ------------------------------------------------------------------ */

static int run_planner(const char *name, const struct sb_pmodel *m, const struct sb_topo *t,
		       double batch, int M, struct sb_pipeline_plan *p, struct sb_err *err)
{
	const struct sb_pipeline_planner *pl = sb_pipeline_planner_find(name);
	struct sb_pipeline_problem pb;
	struct sb_opts o;
	cr_assert(pl, "planner %s registered", name);
	sb_opts_defaults(&o, pl->params);
	memset(&pb, 0, sizeof pb);
	pb.model = m;
	pb.topo = t;
	pb.batch = batch;
	pb.M = M;
	return pl->plan(&pb, &o, p, err);
}

/* Plan, simulate, check: the plan fits and DAPPLE's models agree with
 * themselves. Returns the simulated iteration time. */
static double plan_ok(const char *name, const struct sb_pmodel *m, const struct sb_topo *t,
		      double batch, int M, struct sb_pipeline_plan *p)
{
	const struct sb_pipeline_schedule *sc;
	struct sb_pipeline_result r;
	struct sb_opts o;
	struct sb_err err;
	struct sb_dapple_env e;
	double T, L;
	int rc = run_planner(name, m, t, batch, M, p, &err);

	cr_assert_eq(rc, 0, "%s on %s/%s: %s", name, m->name, t->name, err.msg);
	cr_assert_eq(sb_pipeline_plan_validate(p, m, t, &err), 0, "%s", err.msg);
	cr_expect_str_eq(p->schedule, "early-backward");
	cr_expect_str_eq(p->planner, name);
	if (M > 0)
		cr_expect_eq(p->M, M);
	cr_expect(fabs(p->batch - batch) < EPS);
	sc = sb_pipeline_schedule_find(p->schedule);
	sb_opts_defaults(&o, sc->params);
	cr_assert_eq(sb_pipeline_evaluate(p, m, t, sc, &o, &r, &err), 0, "%s", err.msg);
	cr_expect(r.fits, "%s on %s/%s: %.4g bytes > %.4g", name, m->name, t->name, r.peak_mem,
		  t->mem);
	cr_expect(sb_dapple_plan_fits(p, m, t, sc, &o));
	T = r.iter_time;
	cr_expect(T > 0 && isfinite(T));
	sb_dapple_env_init(&e, t, 1.0 / 3, 0);
	L = sb_dapple_estimate(&e, p, m, NULL);
	cr_expect(L > 0 && isfinite(L));
	cr_expect(isfinite(sb_dapple_recursive(&e, p, m)), "the timeline deadlocked");
	sb_dapple_env_release(&e);
	sb_pipeline_result_release(&r);
	return T;
}

Test(dapple, planners_fit_and_check, .timeout = 120)
{
	static const char *const planners[2] = { "dapple", "dapple-hpgo" };
	static const char *const models[3] = { "vgg19", "bert-48", "gnmt-16" };
	static const char *const topos[4] = { "config-a", "config-b", "config-c",
					      "2x8-nvlink-25gbe" };
	static const int Ms[2] = { 0, 8 };
	const char *real = sb_test_data("dapple/vgg-19-pbs-32.txt");
	int a, b, k, q, nm = real ? 4 : 3, n = 0;
	for (b = 0; b < nm; b++) {
		struct sb_pmodel m;
		struct sb_err err;
		if (b < 3)
			cr_assert_eq(sb_analytic_model(models[b], &m, &err), 0, "%s", err.msg);
		else
			cr_assert_eq(sb_load_dapple_profile(real, &m, &err), 0, "%s", err.msg);
		for (k = 0; k < 4; k++) {
			struct sb_topo t;
			cr_assert_eq(sb_topo_named(topos[k], &t, &err), 0, "%s", err.msg);
			for (a = 0; a < 2; a++)
				for (q = 0; q < 2; q++) {
					struct sb_pipeline_plan p;
					plan_ok(planners[a], &m, &t, 256, Ms[q], &p);
					sb_pipeline_plan_release(&p);
					n++;
				}
			sb_topo_release(&t);
		}
		sb_pmodel_release(&m);
	}
	cr_expect_eq(n, nm * 16);
}

/* Irregular clusters (servers of 1-8 GPUs, mixed links and memories):
 * every plan of both planners still fits and passes the checker. */
Test(dapple, planners_random_topologies, .timeout = 120)
{
	static const char *const planners[2] = { "dapple", "dapple-hpgo" };
	static const char *const models[2] = { "vgg19", "gnmt-16" };
	static const int ngpu[6] = { 8, 12, 16, 24, 32, 48 };
	int seed, k, a, q;
	for (seed = 0; seed < 6; seed++) {
		struct sb_rng rng;
		struct sb_topo t;
		sb_rng_seed(&rng, 100 + seed, 3);
		sb_topo_random(&t, ngpu[seed], &rng);
		for (k = 0; k < 2; k++) {
			struct sb_pmodel m;
			struct sb_err err;
			cr_assert_eq(sb_analytic_model(models[k], &m, &err), 0, "%s", err.msg);
			for (a = 0; a < 2; a++)
				for (q = 0; q < 2; q++) {
					struct sb_pipeline_plan p;
					plan_ok(planners[a], &m, &t, 64.0 * (1 + seed % 3), q ? 4 : 0, &p);
					sb_pipeline_plan_release(&p);
				}
			sb_pmodel_release(&m);
		}
		sb_topo_release(&t);
	}
}

/* Nothing to all-reduce and nothing to send: pure data parallelism over
 * every GPU is optimal (no bubbles), L = batch x (f+b) / 16. */
Test(dapple, planner_free_network_is_data_parallel)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	struct sb_pipeline_plan p;
	struct sb_dapple_env e;
	double f[4] = { 1e-3, 1e-3, 1e-3, 1e-3 }, b[4] = { 2e-3, 2e-3, 2e-3, 2e-3 };
	double a[4] = { 0, 0, 0, 0 }, want = 64 * 4 * 3e-3 / 16, T;
	mk(&m, &t, 4, f, b, a, 0, INFINITY);
	free(t.bw);
	free(t.server);
	cr_assert_eq(sb_topo_named("config-a", &t, &err), 0, "%s", err.msg);
	T = plan_ok("dapple", &m, &t, 64, 4, &p);
	sb_dapple_env_init(&e, &t, 1.0 / 3, 0);
	cr_expect(fabs(sb_dapple_estimate(&e, &p, &m, NULL) - want) < EPS, "L = %g",
		  sb_dapple_estimate(&e, &p, &m, NULL));
	cr_expect(fabs(T - want) < EPS, "simulated %g, want %g", T, want);
	cr_expect_eq(p.S * p.copies * p.st[0].r, 16);
	sb_dapple_env_release(&e);
	sb_pipeline_plan_release(&p);
	free(m.layer);
	sb_topo_release(&t);
}

/* Huge gradients on a slow network: replicas would all-reduce for
 * seconds, so every stage gets one GPU and the model is pipelined. (The
 * released planner cannot do this here: a width-i candidate uses i GPUs
 * in every one of G/i copies, so it replicates; it must still fit.) */
Test(dapple, planner_heavy_weights_not_replicated)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	struct sb_pipeline_plan p;
	double f[4] = { 1e-3, 1e-3, 1e-3, 1e-3 }, b[4] = { 2e-3, 2e-3, 2e-3, 2e-3 };
	double a[4] = { 1e3, 1e3, 1e3, 1e3 };
	const char *name[2] = { "dapple", "dapple-hpgo" };
	int k, s;
	mk(&m, &t, 4, f, b, a, 1e9, INFINITY);
	free(t.bw);
	free(t.server);
	cr_assert_eq(sb_topo_named("config-c", &t, &err), 0, "%s", err.msg);
	for (k = 0; k < 2; k++) {
		plan_ok(name[k], &m, &t, 16, 4, &p);
		if (k == 1) {
			sb_pipeline_plan_release(&p);
			continue;
		}
		cr_expect_eq(p.copies, 1, "%s", name[k]);
		cr_expect_geq(p.S, 2, "%s", name[k]);
		for (s = 0; s < p.S; s++)
			cr_expect_eq(p.st[s].r, 1, "%s stage %d", name[k], s);
		sb_pipeline_plan_release(&p);
	}
	free(m.layer);
	sb_topo_release(&t);
}

/* The released planner finds the "15:1" VGG-19 split the authors report
 * (convolutions on 15 GPUs, the fully connected layers on one). */
Test(dapple, hpgo_vgg19_fifteen_to_one)
{
	const char *real = sb_test_data("dapple/vgg-19-pbs-32.txt");
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	struct sb_pipeline_plan p;
	if (!real)
		cr_skip_test("no dapple/vgg-19-pbs-32.txt");
	cr_assert_eq(sb_load_dapple_profile(real, &m, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_topo_named("config-c", &t, &err), 0, "%s", err.msg);
	plan_ok("dapple-hpgo", &m, &t, 256, 8, &p);
	cr_expect_eq(p.S, 2);
	cr_expect_eq(p.copies, 1);
	cr_expect_eq(p.st[0].r, 15);
	cr_expect_eq(p.st[1].r, 1);
	sb_pipeline_plan_release(&p);
	sb_pmodel_release(&m);
	sb_topo_release(&t);
}

/* With M open, dapple takes the largest power-of-two microbatch that
 * fits: memory-bound bert-48 needs several microbatches. */
Test(dapple, planner_chooses_m)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	struct sb_pipeline_plan p;
	double beta;
	cr_assert_eq(sb_analytic_model("bert-48", &m, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_topo_named("config-a", &t, &err), 0, "%s", err.msg);
	plan_ok("dapple", &m, &t, 256, 0, &p);
	beta = p.batch / (p.copies * (double)p.M);
	cr_expect_gt(p.M, 1);
	cr_expect(fabs(beta - exp2(round(log2(beta)))) < EPS, "microbatch %g", beta);
	sb_pipeline_plan_release(&p);
	/* vgg19 fits one microbatch of the whole batch */
	sb_pmodel_release(&m);
	cr_assert_eq(sb_analytic_model("vgg19", &m, &err), 0, "%s", err.msg);
	plan_ok("dapple", &m, &t, 64, 0, &p);
	cr_expect_eq(p.M, 1);
	sb_pipeline_plan_release(&p);
	sb_pmodel_release(&m);
	sb_topo_release(&t);
}

Test(dapple, planner_bad_input)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	struct sb_pipeline_plan p;
	double f[2] = { 1, 1 }, b[2] = { 2, 2 }, a[2] = { 1, 1 };
	const char *name[2] = { "dapple", "dapple-hpgo" };
	int k;
	mk(&m, &t, 2, f, b, a, 1, INFINITY);
	for (k = 0; k < 2; k++) {
		cr_expect_eq(run_planner(name[k], &m, &t, 0, 0, &p, &err), SB_EXIT_INPUT);
		cr_expect(strstr(err.msg, name[k]), "%s", err.msg);
		cr_expect_eq(run_planner(name[k], &m, &t, 8, -1, &p, &err), SB_EXIT_INPUT);
		/* weights beyond every GPU's memory */
		m.layer[0].params = 1e20;
		cr_expect_eq(run_planner(name[k], &m, &t, 8, 0, &p, &err), SB_EXIT_RUN);
		cr_expect(strstr(err.msg, "no plan"), "%s", err.msg);
		m.layer[0].params = 1;
	}
	release(&m, &t);
}
