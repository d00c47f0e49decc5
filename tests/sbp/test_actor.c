/*
 * test_actor.c - the actor DES of the sbp family: the period formula on
 * chains, quotas bound live registers, back-pressure under a fast
 * producer, the deadlock edge of a reconvergent graph exactly below its
 * minimal quota, bad quotas, determinism with jitter, and the pipeline
 * scenario against the pipeline family's own simulator (core/pipeline).
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "sbp/actor.h"
#include "tests/pipeline/pipetest.h"

/* a chain d[0..n) with quota r[i] on actor i's output, N pieces */
static void chain(struct sb_actor_sys *s, const int64_t *d, const int *r, int n, int N)
{
	int i;
	sb_actor_sys_init(s);
	for (i = 0; i < n; i++) {
		char nm[8];
		snprintf(nm, sizeof nm, "a%d", i);
		sb_actor_add(s, nm, d[i]);
		if (i + 1 < n)
			sb_actor_slot(s, i, r[i], 1);
		if (i > 0)
			sb_actor_connect(s, i - 1, 0, i, 1);
	}
	s->a[0].limit = N;
}

Test(actor, period_formula_on_chains)
{
	int k;
	for (k = 0; k < 60; k++) {
		struct sb_rng g = sb_rng_stream(3, (uint64_t)k, 0, SB_RNG_TEST);
		int n = 2 + k % 5, i, N = 400, r[8];
		int64_t d[8];
		struct sb_actor_sys s;
		struct sb_actor_result res;
		struct sb_err err;
		double per, want;
		static const int quotas[] = { 1, 2, 3, SB_ACTOR_UNBOUNDED };
		for (i = 0; i < n; i++) {
			d[i] = 100 + (int64_t)sb_rng_below(&g, 900);
			r[i] = quotas[(k / 5 + i) % 4];
		}
		chain(&s, d, r, n, N);
		cr_assert_eq(sb_actor_run(&s, NULL, -1, -1, &res, &err), 0, "%s", err.msg);
		cr_assert(!res.deadlock);
		cr_assert_eq(res.acts[n - 1], N);
		/* steady state: the sink's average inter-completion time; the
		 * transient is at most one pass through the chain */
		per = (double)(res.last_end[n - 1] - res.first_end[n - 1]) / (N - 1);
		want = sb_actor_chain_period(d, r, n);
		cr_assert_leq(fabs(per - want), 4000.0 / (N - 1) + 1e-9,
			      "chain %d: measured %.3f, formula %.3f", k, per, want);
		for (i = 0; i + 1 < n; i++)
			cr_assert_leq(res.peak[i * SB_ACTOR_MAXOUT], r[i]);
		sb_actor_result_release(&res);
		sb_actor_sys_release(&s);
	}
}

Test(actor, r2_reaches_the_bottleneck_rate)
{
	int64_t d[4] = { 300, 500, 800, 200 };
	int r1[3] = { 1, 1, 1 }, r2[3] = { 2, 2, 2 };
	cr_assert_eq(sb_actor_chain_period(d, r2, 4), 800);
	cr_assert_eq(sb_actor_chain_period(d, r1, 4), 1300);
}

Test(actor, fast_producer_is_held_back_by_its_quota)
{
	int64_t d[2] = { 100, 200 };
	int k;
	for (k = 1; k <= 4; k++) {
		int r[1] = { k };
		struct sb_actor_sys s;
		struct sb_actor_result res;
		struct sb_err err;
		int i, peak = 0;
		chain(&s, d, r, 2, 1000);
		cr_assert_eq(sb_actor_run(&s, NULL, 0, 0, &res, &err), 0, "%s", err.msg);
		for (i = 0; i < res.ntrace; i++)
			peak = res.trace_n[i] > peak ? res.trace_n[i] : peak;
		cr_assert_eq(peak, k);
		sb_actor_result_release(&res);
		sb_actor_sys_release(&s);
	}
	{
		int r[1] = { SB_ACTOR_UNBOUNDED };
		struct sb_actor_sys s;
		struct sb_actor_result res;
		struct sb_err err;
		chain(&s, d, r, 2, 1000);
		cr_assert_eq(sb_actor_run(&s, NULL, 0, 0, &res, &err), 0, "%s", err.msg);
		/* unbounded: about half the pieces wait when the producer ends */
		cr_assert_geq(res.peak[0], 490);
		sb_actor_result_release(&res);
		sb_actor_sys_release(&s);
	}
}

/* A -> pack (k per act) -> D and A -> Y -> D (k per act): a reconvergent
 * graph that needs k registers on A and on Y. */
static int diamond(int k, int ra, int ry, struct sb_actor_result *res)
{
	struct sb_actor_sys s;
	struct sb_err err;
	int a, pk, y, d, rc;
	sb_actor_sys_init(&s);
	a = sb_actor_add(&s, "A", 10);
	pk = sb_actor_add(&s, "pack", 5);
	y = sb_actor_add(&s, "Y", 7);
	d = sb_actor_add(&s, "D", 20);
	sb_actor_slot(&s, a, ra, 1);
	sb_actor_slot(&s, pk, 1, 1);
	sb_actor_slot(&s, y, ry, 1);
	sb_actor_connect(&s, a, 0, pk, k);
	sb_actor_connect(&s, a, 0, y, 1);
	sb_actor_connect(&s, pk, 0, d, 1);
	sb_actor_connect(&s, y, 0, d, k);
	s.a[a].limit = 12 * k;
	rc = sb_actor_run(&s, NULL, -1, -1, res, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	sb_actor_sys_release(&s);
	return res->deadlock;
}

Test(actor, deadlock_exactly_below_the_minimal_quota)
{
	int k, ra, ry;
	for (k = 1; k <= 4; k++)
		for (ra = 1; ra <= 5; ra++)
			for (ry = 1; ry <= 5; ry++) {
				struct sb_actor_result res;
				int dl = diamond(k, ra, ry, &res);
				cr_assert_eq(dl, ra < k || ry < k, "k %d, quotas %d %d: deadlock %d", k,
					     ra, ry, dl);
				if (!dl)
					cr_assert_eq(res.acts[3], 12);
				sb_actor_result_release(&res);
			}
}

Test(actor, bad_quota_and_batch)
{
	struct sb_actor_sys s;
	struct sb_actor_result res;
	struct sb_err err;
	int64_t d[2] = { 1, 1 };
	int r[1] = { 0 };
	chain(&s, d, r, 2, 10);
	cr_assert_eq(sb_actor_run(&s, NULL, -1, -1, &res, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "quota") && strstr(err.msg, "a0"), "%s", err.msg);
	s.a[0].out[0].quota = -3;
	cr_assert_eq(sb_actor_validate(&s, &err), SB_EXIT_INPUT);
	s.a[0].out[0].quota = 1;
	s.a[1].in[0].batch = 0;
	cr_assert_eq(sb_actor_validate(&s, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "batch"), "%s", err.msg);
	s.a[1].in[0].batch = 1;
	s.a[0].limit = 0;
	cr_assert_eq(sb_actor_validate(&s, &err), SB_EXIT_INPUT);
	sb_actor_sys_release(&s);
}

Test(actor, jitter_is_deterministic)
{
	int64_t d[3] = { 1000, 3000, 2000 };
	int r[2] = { 2, 2 };
	struct sb_actor_result a, b;
	struct sb_actor_sys s;
	struct sb_err err;
	struct sb_rng x = sb_rng_stream(9, 1, 0, SB_RNG_NOISE), y = x;
	chain(&s, d, r, 3, 500);
	s.jitter = 0.1;
	cr_assert_eq(sb_actor_run(&s, &x, -1, -1, &a, &err), 0);
	cr_assert_eq(sb_actor_run(&s, &y, -1, -1, &b, &err), 0);
	cr_assert_eq(a.end, b.end);
	cr_assert_neq(a.end, 3000 * 500 + 3000);   /* noise did something */
	sb_actor_result_release(&a);
	sb_actor_result_release(&b);
	sb_actor_sys_release(&s);
}

/* ------------------------------------------------------------------ */
/* Scenario C against the pipeline family                              */
/* ------------------------------------------------------------------ */

static double pipeline_family(int S, int M, const int64_t *F, const int64_t *B, const char *sched,
			      int *peak)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_pipeline_result r;
	struct sb_opts o;
	struct sb_err err;
	const struct sb_pipeline_schedule *sc = sb_pipeline_schedule_find(sched);
	double it;
	int s;
	cr_assert(sc);
	sb_test_model_uniform(&m, S, 0, 0, 0, 0);
	for (s = 0; s < S; s++) {
		m.layer[s].fwd = (double)F[s] * 1e-9;
		m.layer[s].bwd = (double)B[s] * 1e-9;
	}
	sb_test_topo_flat(&t, S, INFINITY, INFINITY);
	sb_test_straight(&p, S, M);
	sb_opts_defaults(&o, sc->params);
	cr_assert_eq(sb_pipeline_simulate(&p, &m, &t, sc, &o, &r, &err), 0, "%s", err.msg);
	it = r.iter_time;
	for (s = 0; s < S; s++)
		peak[s] = r.peak_inflight[s];
	sb_pipeline_result_release(&r);
	sb_pipeline_plan_release(&p);
	sb_topo_release(&t);
	sb_pmodel_release(&m);
	return it;
}

static int64_t actors(int S, int M, const int64_t *F, const int64_t *B, int kind, int *peak)
{
	struct sb_actor_sys s;
	struct sb_actor_result r;
	struct sb_err err;
	int64_t end;
	int st;
	sb_actor_sys_init(&s);
	sb_actor_pipeline(&s, S, M, F, B, kind);
	cr_assert_eq(sb_actor_run(&s, NULL, -1, -1, &r, &err), 0, "%s", err.msg);
	cr_assert(!r.deadlock);
	cr_assert_eq(r.acts[1], M);
	end = r.end;
	for (st = 0; st < S; st++)
		peak[st] = r.peak[2 * st * SB_ACTOR_MAXOUT + 1];
	sb_actor_result_release(&r);
	sb_actor_sys_release(&s);
	return end;
}

Test(actor, pipeline_agrees_with_the_pipeline_family)
{
	int S, M, k;
	for (S = 2; S <= 5; S++)
		for (M = 1; M <= 12; M += 3)
			for (k = 0; k < 3; k++) {
				struct sb_rng g = sb_rng_stream(5, (uint64_t)(S * 100 + M * 10 + k), 0,
								SB_RNG_TEST);
				int64_t F[8], B[8];
				int s, pa[8], pp[8];
				double want;
				for (s = 0; s < S; s++) {
					F[s] = k == 0 ? 1000 : 500 + (int64_t)sb_rng_below(&g, 1500);
					B[s] = k == 0 ? 2000 : 800 + (int64_t)sb_rng_below(&g, 2500);
				}
				/* 1F1B: times and per-stage in-flight peaks */
				want = pipeline_family(S, M, F, B, "1f1b", pp);
				cr_assert_float_eq((double)actors(S, M, F, B, SB_PIPE_1F1B, pa) * 1e-9, want,
						   1e-12, "1f1b S %d M %d k %d", S, M, k);
				for (s = 0; s < S; s++)
					cr_assert_eq(pa[s], pp[s], "1f1b stage %d: %d vs %d", s, pa[s], pp[s]);
				/* GPipe */
				want = pipeline_family(S, M, F, B, "gpipe", pp);
				cr_assert_float_eq((double)actors(S, M, F, B, SB_PIPE_GPIPE, pa) * 1e-9, want,
						   1e-12, "gpipe S %d M %d k %d", S, M, k);
				for (s = 0; s < S - 1; s++)
					cr_assert_eq(pa[s], M);
				if (k == 0)
					cr_assert_float_eq(want, (M + S - 1) * 3000e-9, 1e-15);
			}
}

/* Golden results: every output of sb_actor_run (end, events, deadlock,
 * per-actor acts, first/last ends, busy time, peaks, the trace) hashed on
 * chains with and without jitter, the three pipeline kinds and a
 * reconvergent graph with a shared device, a batch and a control edge.
 * The hashes were recorded from the simulator before its per-event scans
 * (control edges, consumer indices, repeated device offers) were
 * precomputed away, so a faster simulator must give the same runs. */
static uint64_t result_hash(const struct sb_actor_sys *s, struct sb_rng *rng, int ta, int tslot)
{
	struct sb_actor_result r;
	struct sb_err err;
	uint64_t h = 1469598103934665603ULL;
	int i;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ULL)
	cr_assert_eq(sb_actor_run(s, rng, ta, tslot, &r, &err), 0);
	MIX(r.end);
	MIX(r.events);
	MIX(r.deadlock);
	for (i = 0; i < s->n; i++) {
		MIX(r.acts[i]);
		MIX(r.first_end[i]);
		MIX(r.last_end[i]);
		MIX(r.busy[i]);
		MIX(r.peak[2 * i]);
		MIX(r.peak[2 * i + 1]);
	}
	for (i = 0; i < r.ntrace; i++) {
		MIX(r.trace_t[i]);
		MIX(r.trace_n[i]);
	}
#undef MIX
	sb_actor_result_release(&r);
	return h;
}

Test(actor, golden_results)
{
	static const uint64_t want[] = {
		0x974cdcfce30b801eULL, 0x260c25125e1fda23ULL, 0x5c1de0ce889b7103ULL,
		0x75a6de10bf253ab1ULL, 0x798b8bcd1bf4fcd3ULL, 0xda31989f9e6faa07ULL,
		0x571f87830084c330ULL, 0xd27d6444c9fa73a8ULL, 0x5b255b6e388f7736ULL,
		0x4b147258bca319b5ULL, 0xe2003cc81ffb881dULL, 0x8584645a1b315c87ULL,
		0x0a8d419e7633c86fULL, 0x06d82d0d7e6ae881ULL, 0x78d8b67f369d43dfULL,
		0x9582bfa2d4115c03ULL, 0xded640b0e1cbb2bdULL, 0x123b64938a7a83bfULL,
	};
	struct sb_actor_sys s;
	int64_t d[6], F[8], B[8];
	int r[6], k, q, S, kind, n = 0;
	_Static_assert(SB_ACTOR_MAXOUT == 2, "the hash reads two slots per actor");
	for (q = 1; q <= 3; q++) {
		struct sb_rng rng = sb_rng_stream(1, (uint64_t)q, 0, 7);
		for (k = 0; k < 6; k++)
			d[k] = 1000 + 370 * (k % 3), r[k] = q;
		chain(&s, d, r, 6, 5000);
		cr_expect_eq(result_hash(&s, NULL, 2, 0), want[n], "chain q = %d", q);
		n++;
		s.jitter = 0.1;
		cr_expect_eq(result_hash(&s, &rng, 1, 0), want[n], "jittered chain q = %d", q);
		n++;
		sb_actor_sys_release(&s);
	}
	for (S = 2; S <= 8; S += 3)
		for (kind = 0; kind < 3; kind++) {
			for (k = 0; k < 8; k++)
				F[k] = 1000 + 100 * k, B[k] = 2000 + 50 * (k % 3);
			sb_actor_sys_init(&s);
			sb_actor_pipeline(&s, S, 37, F, B, kind);
			cr_expect_eq(result_hash(&s, NULL, 0, 1), want[n], "pipeline S = %d kind %d",
				     S, kind);
			n++;
			sb_actor_sys_release(&s);
		}
	for (q = 1; q <= 3; q++) {
		int a, b, c, e, f;
		sb_actor_sys_init(&s);
		a = sb_actor_add(&s, "src", 100);
		b = sb_actor_add(&s, "b", 300);
		c = sb_actor_add(&s, "c", 500);
		e = sb_actor_add(&s, "d", 200);
		f = sb_actor_add(&s, "e", 50);
		sb_actor_slot(&s, a, q, 1);
		sb_actor_slot(&s, b, 1, 1);
		sb_actor_slot(&s, c, 2, 1);
		sb_actor_slot(&s, e, 2, 1);
		sb_actor_connect(&s, a, 0, b, 1);
		sb_actor_connect(&s, a, 0, c, 1);
		sb_actor_connect(&s, b, 0, e, 1);
		sb_actor_connect(&s, c, 0, e, 1);
		sb_actor_connect(&s, e, 0, f, 2);
		s.a[b].device = s.a[c].device = 0;
		s.a[c].prio = 1;
		s.a[f].after = b;
		s.a[f].after_n = 3;
		s.a[a].limit = 100;
		cr_expect_eq(result_hash(&s, NULL, a, 0), want[n], "reconvergent q = %d", q);
		n++;
		sb_actor_sys_release(&s);
	}
	cr_assert_eq(n, (int)(sizeof want / sizeof want[0]));
}
