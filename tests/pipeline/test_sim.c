/*
 * test_sim.c - pipesim on instances with known answers: the closed
 * forms of GPipe and 1F1B on balanced stages, transfer delays, all-reduce
 * tails, in-flight caps and memory.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "pipetest.h"

/* L layers of fwd f, bwd b (per sample), act a, params w; n GPUs joined
 * by bandwidth bw (INFINITY: free transfers). */
static void mk(struct sb_pmodel *m, struct sb_topo *t, int L, double f, double b, double a,
	       double w, int n, double bw)
{
	sb_test_model_uniform(m, L, f, b, a, w);
	sb_test_topo_flat(t, n, bw, 1e12);
}

static void release(struct sb_pmodel *m, struct sb_topo *t)
{
	sb_pmodel_release(m);
	sb_topo_release(t);
}


static double sim(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		  const struct sb_topo *t, const char *sched, struct sb_pipeline_result *r)
{
	const struct sb_pipeline_schedule *sc = sb_pipeline_schedule_find(sched);
	struct sb_opts o;
	struct sb_err err;
	cr_assert(sc, "schedule %s registered", sched);
	sb_opts_defaults(&o, sc->params);
	cr_assert_eq(sb_pipeline_simulate(p, m, t, sc, &o, r, &err), 0, "%s", err.msg);
	return r->iter_time;
}

Test(pipesim, balanced_closed_form)
{
	const char *scheds[] = { "gpipe", "1f1b" };
	int S, M, k;
	for (S = 1; S <= 6; S++)
		for (M = 1; M <= 12; M += 3)
			for (k = 0; k < 2; k++) {
				struct sb_pmodel m;
				struct sb_topo t;
				struct sb_pipeline_plan p;
				struct sb_pipeline_result r;
				double T;
				mk(&m, &t, S, 1.0, 2.0, 0, 0, S, INFINITY);
				sb_test_straight(&p, S, M);
				T = sim(&p, &m, &t, scheds[k], &r);
				cr_expect(fabs(T - (M + S - 1) * 3.0) < 1e-9, "%s S=%d M=%d: %g vs %g",
					  scheds[k], S, M, T, (M + S - 1) * 3.0);
				if (k == 1)
					for (int s = 0; s < S; s++)
						cr_expect(r.peak_inflight[s] <= (S - s < M ? S - s : M),
							  "1f1b stage %d in flight %d", s, r.peak_inflight[s]);
				else
					cr_expect_eq(r.peak_inflight[0], M);
				sb_pipeline_result_release(&r);
				sb_pipeline_plan_release(&p);
				release(&m, &t);
			}
}

static void check_ok(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const char *sched, const struct sb_pipeline_result *r)
{
	const struct sb_pipeline_schedule *sc = sb_pipeline_schedule_find(sched);
	struct sb_opts o;
	char why[256];
	sb_opts_defaults(&o, sc->params);
	cr_assert_eq(sb_pipeline_check(p, m, t, sc, &o, r, why, sizeof why), 0, "%s: %s", sched, why);
}

/* One microbatch through two stages with transfers and an all-reduce:
 * T = F0 + C + F1 + B1 + C + B0 + AR0, by hand. */
Test(pipesim, transfers_and_allreduce_by_hand)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_pipeline_result r;
	double T, C = 8.0 / 2.0, AR;
	int s;

	mk(&m, &t, 2, 1.0, 2.0, 8.0, 100.0, 4, 2.0);
	sb_pipeline_plan_init(&p, 2, 1);
	p.M = 1;
	p.batch = 2;            /* both replicas of stage 0 get one sample */
	snprintf(p.planner, sizeof p.planner, "hand");
	p.st[0].first = p.st[0].last = 0;
	p.st[0].r = 2;
	p.st[0].gpu[0] = 0;
	p.st[0].gpu[1] = 1;
	p.st[1].first = p.st[1].last = 1;
	p.st[1].r = 1;
	p.st[1].gpu[0] = 2;
	/* stage 0: F = 2 x 1 / 2 = 1, B = 2; stage 1: F = 2, B = 4;
	 * C = 2 samples x 8 bytes / 2 B/s = 8; AR0 = 2 (1/2) 100 / 2 = 50 */
	C = 8;
	AR = 50;
	T = sim(&p, &m, &t, "1f1b", &r);
	cr_expect(fabs(T - (1 + C + 2 + 4 + C + 2 + AR)) < 1e-9, "T = %g", T);
	check_ok(&p, &m, &t, "1f1b", &r);
	for (s = 0; s < r.nev; s++)
		cr_expect(r.ev[s].end <= T);
	sb_pipeline_result_release(&r);
	sb_pipeline_plan_release(&p);
	release(&m, &t);
}

/* The checker is not a rubber stamp. */
Test(pipesim, checker_catches_tampering)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_pipeline_result r;
	const struct sb_pipeline_schedule *sc = sb_pipeline_schedule_find("1f1b");
	struct sb_opts o;
	char why[256];
	int e;

	sb_opts_defaults(&o, sc->params);
	mk(&m, &t, 4, 1.0, 2.0, 1.0, 10.0, 4, 1.0);
	sb_test_straight(&p, 4, 8);
	sim(&p, &m, &t, "1f1b", &r);
	cr_assert_eq(sb_pipeline_check(&p, &m, &t, sc, &o, &r, why, sizeof why), 0, "%s", why);
	/* a forward started early */
	for (e = 0; e < r.nev && !(r.ev[e].stage == 2 && r.ev[e].kind == SB_PIPELINE_F); e++)
		;
	r.ev[e].start -= 0.5;
	r.ev[e].end -= 0.5;
	cr_expect_neq(sb_pipeline_check(&p, &m, &t, sc, &o, &r, why, sizeof why), 0);
	r.ev[e].start += 0.5;
	r.ev[e].end += 0.5;
	/* a wrong iteration time */
	r.iter_time *= 0.99;
	cr_expect_neq(sb_pipeline_check(&p, &m, &t, sc, &o, &r, why, sizeof why), 0);
	r.iter_time /= 0.99;
	/* too little memory for 1F1B's four microbatches on stage 0 */
	t.mem = 2 * 10 + 3.5 * 1;
	cr_expect_neq(sb_pipeline_check(&p, &m, &t, sc, &o, &r, why, sizeof why), 0);
	cr_expect(strstr(why, "bytes per GPU") != NULL, "%s", why);
	t.mem = 1e12;
	cr_expect_eq(sb_pipeline_check(&p, &m, &t, sc, &o, &r, why, sizeof why), 0, "%s", why);
	/* GPipe's timeline breaks 1F1B's in-flight cap */
	sb_pipeline_result_release(&r);
	sim(&p, &m, &t, "gpipe", &r);
	check_ok(&p, &m, &t, "gpipe", &r);
	cr_expect_neq(sb_pipeline_check(&p, &m, &t, sc, &o, &r, why, sizeof why), 0);
	sb_pipeline_result_release(&r);
	sb_pipeline_plan_release(&p);
	release(&m, &t);
}
