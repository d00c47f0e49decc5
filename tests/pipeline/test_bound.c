/*
 * test_bound.c - SPP-R (ours, our reconstruction of Luo et al.,
 * INFOCOM 2022) and the bounds of pipeline/bound.c: cp-list in its
 * bwd-first form is 1F1B task for task; the plan bound is exact on the
 * closed form and below every registered schedule on random plans; the
 * problem bound is below every registered planner and every random plan;
 * LB <= MILP* <= simulated SPP-R; the scheduling-only MILP is below every
 * simulated schedule of its plan; MILP = enumeration; SPP-R's plans pass
 * the checker and fit.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "pipeline/bound.h"
#include "workloads/pipeline/load.h"
#include "rng.h"

#define REL 1e-6

static int le(double a, double b)
{
	return a <= b + REL * sb_max(1e-12, fabs(b));
}

/* ------------------------------------------------------------------ */
/* Instances                                                           */
/* ------------------------------------------------------------------ */

/* L layers with per-sample costs in realistic ranges (seconds, bytes). */
static void rand_model(struct sb_pmodel *m, int L, struct sb_rng *r)
{
	int i;
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "rand%d", L);
	m->n = L;
	m->pbs = 1;
	m->layer = SB_NEW(struct sb_layer, L);
	for (i = 0; i < L; i++) {
		struct sb_layer *y = &m->layer[i];
		y->fwd = 1e-4 * (1 + 20 * sb_rng_uniform(r));
		y->bwd = y->fwd * (1 + sb_rng_uniform(r));
		y->act = 1e5 * (1 + 50 * sb_rng_uniform(r));
		y->stash = y->act * (2 + 3 * sb_rng_uniform(r));
		y->params = 1e5 * (1 + 500 * sb_rng_uniform(r));
	}
}

/* N GPUs, random symmetric bandwidths between 1 and 25 GB/s, one server. */
static void rand_topo(struct sb_topo *t, int N, double mem, struct sb_rng *r)
{
	int i, j;
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "rand%d", N);
	t->n = N;
	t->bw = SB_NEW(double, N * N);
	t->server = SB_NEW(int, N);
	t->nserver = 1;
	for (i = 0; i < N; i++)
		for (j = i; j < N; j++)
			t->bw[i * N + j] = t->bw[j * N + i] =
				i == j ? INFINITY : 1e9 * (1 + 24 * sb_rng_uniform(r));
	t->mem = mem;
	t->speed = 1;
	t->latency = sb_rng_bernoulli(r, 0.5) ? 1e-5 * sb_rng_uniform(r) : 0;
}

/* Memory for one and a half microbatches of the hungriest stage, so that
 * the in-flight caps bite. */
static void tight_memory(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			 struct sb_topo *t)
{
	struct sb_pipeline_costs c;
	int s;
	sb_pipeline_costs_build(&c, p, m, t);
	t->mem = 0;
	for (s = 0; s < p->S; s++)
		t->mem = sb_max(t->mem, c.mem_w[s] + 1.5 * c.mem_a[s]);
	sb_pipeline_costs_release(&c);
}

static double model_weight(const struct sb_pmodel *m)
{
	double w = 0;
	int i;
	for (i = 0; i < m->n; i++)
		w += m->layer[i].params;
	return w;
}

/*
 * A random valid plan of m on t: copies in {1, 2}, S stages with random
 * cuts, up to 2 replicas each, GPUs from a random permutation, random
 * re-computation and overlap, batch a multiple of copies x M x 2.
 */
static void rand_plan(struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		      const struct sb_topo *t, int M, struct sb_rng *r)
{
	int copies = t->n >= 2 && sb_rng_bernoulli(r, 0.3) ? 2 : 1;
	int per = t->n / copies, S, c, s, i, perm[64], used = 0, cut[64];
	int maxS = per < m->n ? per : m->n;

	S = 1 + (int)sb_rng_below(r, (uint32_t)maxS);
	for (i = 0; i < t->n; i++)
		perm[i] = i;
	for (i = t->n - 1; i > 0; i--) {
		int j = (int)sb_rng_below(r, (uint32_t)(i + 1)), x = perm[i];
		perm[i] = perm[j];
		perm[j] = x;
	}
	/* S - 1 distinct cuts among the L - 1 layer boundaries */
	for (i = 0; i < m->n - 1; i++)
		cut[i] = i < S - 1;
	for (i = m->n - 2; i > 0; i--) {
		int j = (int)sb_rng_below(r, (uint32_t)(i + 1)), x = cut[i];
		cut[i] = cut[j];
		cut[j] = x;
	}
	sb_pipeline_plan_init(p, S, copies);
	p->M = M;
	p->batch = 2.0 * copies * M;
	p->recompute = sb_rng_bernoulli(r, 0.25);
	p->overlap = sb_rng_bernoulli(r, 0.3);
	p->kappa = sb_rng_bernoulli(r, 0.5) ? 2 : 4;
	snprintf(p->planner, sizeof p->planner, "random");
	for (c = 0; c < copies; c++) {
		int first = 0, left = per - S;   /* GPUs beyond one per stage */
		for (s = 0, i = 0; s < S; s++) {
			struct sb_pipeline_stage *st = &p->st[c * S + s];
			int k;
			st->first = first;
			while (i < m->n - 1 && !cut[i])
				i++;
			st->last = s == S - 1 ? m->n - 1 : i;
			first = st->last + 1;
			i++;
			st->r = 1 + (left > 0 && sb_rng_bernoulli(r, 0.4));
			left -= st->r - 1;
			for (k = 0; k < st->r; k++)
				st->gpu[k] = perm[used++];
		}
	}
}

static void free_inst(struct sb_pmodel *m, struct sb_topo *t)
{
	sb_pmodel_release(m);
	sb_topo_release(t);
}

/* Evaluate (simulate + check) under schedule sc with options from kv
 * pairs ("rule=1" ...) or defaults; returns the iteration time. */
static double eval(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		   const struct sb_topo *t, const struct sb_pipeline_schedule *sc, const char *kv1,
		   const char *kv2, struct sb_pipeline_result *r)
{
	struct sb_opts o;
	struct sb_err err;
	int rc;
	sb_opts_defaults(&o, sc->params);
	if (kv1)
		cr_assert_eq(sb_opts_set(&o, sc->params, kv1, "test", &err), 0, "%s", err.msg);
	if (kv2)
		cr_assert_eq(sb_opts_set(&o, sc->params, kv2, "test", &err), 0, "%s", err.msg);
	rc = sb_pipeline_evaluate(p, m, t, sc, &o, r, &err);
	cr_assert_eq(rc, 0, "schedule %s: %s", sc->name, err.msg);
	return r->iter_time;
}

/* ------------------------------------------------------------------ */
/* cp-list                                                             */
/* ------------------------------------------------------------------ */

/* rule=1 (bwd-first) with cap=1 (S - s) is 1F1B, event by event. */
Test(pipebound, cp_list_bwd_first_is_1f1b)
{
	const struct sb_pipeline_schedule *cp = sb_pipeline_schedule_find("cp-list");
	const struct sb_pipeline_schedule *f1 = sb_pipeline_schedule_find("1f1b");
	int it, e, compared = 0;
	cr_assert(cp && f1);
	for (it = 0; it < 60; it++) {
		struct sb_rng r = sb_rng_stream(11, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_pipeline_result a, b;
		rand_model(&m, 2 + (int)sb_rng_below(&r, 9), &r);
		rand_topo(&t, 1 + (int)sb_rng_below(&r, 8), 1e12, &r);
		rand_plan(&p, &m, &t, 1 + (int)sb_rng_below(&r, 12), &r);
		eval(&p, &m, &t, f1, NULL, NULL, &a);
		eval(&p, &m, &t, cp, "rule=1", "cap=1", &b);
		cr_assert_eq(a.nev, b.nev);
		for (e = 0; e < a.nev; e++) {
			const struct sb_pipeline_event *x = &a.ev[e], *y = &b.ev[e];
			cr_assert(x->copy == y->copy && x->stage == y->stage && x->kind == y->kind &&
				  x->mb == y->mb && x->link == y->link && x->start == y->start &&
				  x->end == y->end, "instance %d: event %d differs", it, e);
		}
		cr_assert_eq(a.iter_time, b.iter_time);
		compared += a.nev;
		sb_pipeline_result_release(&a);
		sb_pipeline_result_release(&b);
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
	cr_assert_gt(compared, 1000);
}

/* The memory cap: exactly as many microbatches in flight as fit. */
Test(pipebound, cp_list_memory_cap)
{
	const struct sb_pipeline_schedule *cp = sb_pipeline_schedule_find("cp-list");
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_pipeline_result r;
	struct sb_rng rng = sb_rng_stream(12, 0, 0, SB_RNG_TEST);
	struct sb_pipeline_costs c;
	int fit, s;

	rand_model(&m, 4, &rng);
	rand_topo(&t, 2, 1e12, &rng);
	sb_pipeline_plan_init(&p, 2, 1);
	p.M = 12;
	p.batch = 12;
	p.st[0].first = 0;
	p.st[0].last = 1;
	p.st[1].first = 2;
	p.st[1].last = 3;
	p.st[0].r = p.st[1].r = 1;
	p.st[1].gpu[0] = 1;
	snprintf(p.planner, sizeof p.planner, "hand");
	/* unbounded memory: the critical path is forward first, all M */
	eval(&p, &m, &t, cp, NULL, NULL, &r);
	cr_expect_eq(r.peak_inflight[0], 12);
	sb_pipeline_result_release(&r);
	for (fit = 1; fit <= 5; fit++) {
		/* memory for exactly `fit` microbatches on the larger stage */
		sb_pipeline_costs_build(&c, &p, &m, &t);
		t.mem = 0;
		for (s = 0; s < 2; s++)
			t.mem = sb_max(t.mem, c.mem_w[s] + (fit + 0.5) * c.mem_a[s]);
		sb_pipeline_costs_release(&c);
		eval(&p, &m, &t, cp, NULL, NULL, &r);
		cr_expect(r.fits, "fit %d", fit);
		sb_pipeline_costs_build(&c, &p, &m, &t);
		for (s = 0; s < 2; s++)
			cr_expect(c.mem_w[s] + r.peak_inflight[s] * c.mem_a[s] <= t.mem);
		cr_expect(r.peak_inflight[0] >= fit || r.peak_inflight[1] >= fit,
			  "fit %d: peaks %d %d", fit, r.peak_inflight[0], r.peak_inflight[1]);
		sb_pipeline_costs_release(&c);
		sb_pipeline_result_release(&r);
	}
	sb_pipeline_plan_release(&p);
	free_inst(&m, &t);
}

/* ------------------------------------------------------------------ */
/* Combinatorial bounds                                                */
/* ------------------------------------------------------------------ */

/* Balanced stages, free transfers: LB = (M + S - 1)(F + B) = every
 * schedule's time. */
Test(pipebound, lb_plan_closed_form)
{
	int S, M, s, i;
	for (S = 1; S <= 5; S++)
		for (M = 1; M <= 9; M += 2) {
			struct sb_pmodel m;
			struct sb_topo t;
			struct sb_pipeline_plan p;
			struct sb_pipeline_lb_parts parts;
			double lb;
			memset(&m, 0, sizeof m);
			memset(&t, 0, sizeof t);
			m.n = S;
			m.layer = SB_NEW(struct sb_layer, S);
			for (i = 0; i < S; i++) {
				m.layer[i].fwd = 1;
				m.layer[i].bwd = 2;
			}
			t.n = S;
			t.bw = SB_NEW(double, S * S);
			t.server = SB_NEW(int, S);
			for (i = 0; i < S * S; i++)
				t.bw[i] = INFINITY;
			t.mem = 1e12;
			t.speed = 1;
			sb_pipeline_plan_init(&p, S, 1);
			p.M = M;
			p.batch = M;
			for (s = 0; s < S; s++) {
				p.st[s].first = p.st[s].last = s;
				p.st[s].r = 1;
				p.st[s].gpu[0] = s;
			}
			lb = sb_pipeline_lb_plan(&p, &m, &t, &parts);
			cr_expect(fabs(lb - (M + S - 1) * 3.0) < 1e-9, "S=%d M=%d: %g", S, M, lb);
			cr_expect(fabs(parts.chain - 3.0 * S) < 1e-9);
			sb_pipeline_plan_release(&p);
			free_inst(&m, &t);
		}
}

/* One microbatch, two stages, transfers and an all-reduce: the bound is
 * the whole path, by hand. */
Test(pipebound, lb_plan_by_hand)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	int i;
	memset(&m, 0, sizeof m);
	memset(&t, 0, sizeof t);
	m.n = 2;
	m.layer = SB_NEW(struct sb_layer, 2);
	for (i = 0; i < 2; i++) {
		m.layer[i].fwd = 1;
		m.layer[i].bwd = 2;
		m.layer[i].act = 8;
		m.layer[i].params = 100;
	}
	t.n = 4;
	t.bw = SB_NEW(double, 16);
	t.server = SB_NEW(int, 4);
	for (i = 0; i < 16; i++)
		t.bw[i] = i % 5 ? 2.0 : INFINITY;
	t.mem = 1e12;
	t.speed = 1;
	sb_pipeline_plan_init(&p, 2, 1);
	p.M = 1;
	p.batch = 2;
	p.st[0].first = p.st[0].last = 0;
	p.st[0].r = 2;
	p.st[0].gpu[0] = 0;
	p.st[0].gpu[1] = 1;
	p.st[1].first = p.st[1].last = 1;
	p.st[1].r = 1;
	p.st[1].gpu[0] = 2;
	/* F0 = 1, B0 = 2, F1 = 2, B1 = 4, C = 8, AR0 = 50 (test_pipesim) */
	cr_expect(fabs(sb_pipeline_lb_plan(&p, &m, &t, NULL) - (1 + 8 + 2 + 4 + 8 + 2 + 50)) < 1e-9);
	sb_pipeline_plan_release(&p);
	free_inst(&m, &t);
}

/* Does every stage hold one microbatch (all cp-list's cap needs)? */
static int one_fits(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		    const struct sb_topo *t)
{
	struct sb_pipeline_costs c;
	int s, ok = 1;
	sb_pipeline_costs_build(&c, p, m, t);
	for (s = 0; s < p->S; s++)
		ok &= c.mem_w[s] + c.mem_a[s] <= t->mem;
	sb_pipeline_costs_release(&c);
	return ok;
}

/* LB(plan) <= the checked timeline of every registered schedule, on
 * random plans with copies, replication, re-computation, overlap,
 * latency; and the problem bound below them too. */
Test(pipebound, lb_below_every_schedule)
{
	int n, it, k, tight = 0, runs = 0;
	const struct sb_pipeline_schedule *const *sc = sb_pipeline_schedules(&n);
	cr_assert_geq(n, 3);
	for (it = 0; it < 150; it++) {
		struct sb_rng r = sb_rng_stream(13, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		double lb, lbp, best = INFINITY;
		rand_model(&m, 1 + (int)sb_rng_below(&r, 10), &r);
		rand_topo(&t, 1 + (int)sb_rng_below(&r, 8), 1e12, &r);
		rand_plan(&p, &m, &t, 1 + (int)sb_rng_below(&r, 10), &r);
		/* sometimes tight memory, so that caps bite */
		if (sb_rng_bernoulli(&r, 0.3))
			tight_memory(&p, &m, &t);
		lb = sb_pipeline_lb_plan(&p, &m, &t, NULL);
		lbp = sb_pipeline_lb_problem(&m, &t, p.batch, p.M);
		cr_assert(lb > 0);
		for (k = 0; k < n; k++) {
			struct sb_pipeline_result res;
			double T = eval(&p, &m, &t, sc[k], NULL, NULL, &res);
			cr_assert(le(lb, T), "instance %d, %s: LB(plan) %.9g > T %.9g", it, sc[k]->name,
				  lb, T);
			cr_assert(le(lbp, T), "instance %d, %s: LB(problem) %.9g > T %.9g", it,
				  sc[k]->name, lbp, T);
			best = sb_min(best, T);
			runs++;
			if (!strcmp(sc[k]->name, "cp-list"))
				cr_assert(res.fits || !one_fits(&p, &m, &t), "instance %d: cp-list "
					  "exceeds memory that holds one microbatch", it);
			sb_pipeline_result_release(&res);
		}
		tight += best <= lb * (1 + 1e-9);
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
	/* the bound is attained on a fair share of instances: it is not
	 * loose by construction */
	cr_expect_gt(tight, 10, "LB attained on %d of 150 instances", tight);
	cr_assert_gt(runs, 400);
}

/* The problem bound is below every registered planner's simulated time
 * (whatever planners are registered; a planner with nothing that fits,
 * or that cannot take the problem, is skipped). */
Test(pipebound, lb_problem_below_every_planner)
{
	int np, it, k, planned = 0;
	const struct sb_pipeline_planner *const *pl = sb_pipeline_planners(&np);
	cr_assert_geq(np, 1);
	for (it = 0; it < 12; it++) {
		struct sb_rng r = sb_rng_stream(14, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		static const int Ns[] = { 2, 4, 8, 16 };
		int M = 4 << sb_rng_below(&r, 3);
		struct sb_pipeline_problem pb;
		rand_model(&m, 4 + (int)sb_rng_below(&r, 12), &r);
		sb_topo_random(&t, Ns[sb_rng_below(&r, 4)], &r);
		memset(&pb, 0, sizeof pb);
		pb.model = &m;
		pb.topo = &t;
		pb.batch = M * (double)(1 << sb_rng_below(&r, 4));
		pb.M = M;
		for (k = 0; k < np; k++) {
			struct sb_opts o;
			struct sb_err err;
			struct sb_pipeline_plan p;
			struct sb_pipeline_result res;
			const struct sb_pipeline_schedule *sc;
			int rc;
			double T, lb;
			memset(&p, 0, sizeof p);
			sb_opts_defaults(&o, pl[k]->params);
			rc = pl[k]->plan(&pb, &o, &p, &err);
			if (rc == SB_EXIT_RUN || rc == SB_EXIT_INPUT) {
				sb_pipeline_plan_release(&p);
				continue;
			}
			cr_assert_eq(rc, 0, "%s: %s", pl[k]->name, err.msg);
			sc = sb_pipeline_schedule_find(p.schedule[0] ? p.schedule : pl[k]->schedule);
			cr_assert(sc, "%s: schedule '%s' not registered", pl[k]->name,
				  p.schedule[0] ? p.schedule : pl[k]->schedule);
			T = eval(&p, &m, &t, sc, NULL, NULL, &res);
			lb = sb_pipeline_lb_problem(&m, &t, p.batch, p.M);
			cr_assert(le(lb, T), "instance %d, planner %s: LB %.9g > T %.9g", it,
				  pl[k]->name, lb, T);
			cr_assert(le(sb_pipeline_lb_plan(&p, &m, &t, NULL), T));
			planned++;
			sb_pipeline_result_release(&res);
			sb_pipeline_plan_release(&p);
		}
		free_inst(&m, &t);
	}
	cr_assert_geq(planned, 12, "only %d plans made", planned);
}

/* ------------------------------------------------------------------ */
/* SPP-R                                                               */
/* ------------------------------------------------------------------ */

static void check_sppr(const struct sb_pipeline_problem *pb, struct sb_pipeline_plan *p, double *T)
{
	const struct sb_pipeline_planner *pl = sb_pipeline_planner_find("sppr");
	struct sb_opts o;
	struct sb_err err;
	struct sb_pipeline_result res;
	const struct sb_pipeline_schedule *sc;
	int rc;
	cr_assert(pl);
	sb_opts_defaults(&o, pl->params);
	rc = pl->plan(pb, &o, p, &err);
	cr_assert_eq(rc, 0, "sppr: %s", err.msg);
	cr_assert_str_eq(p->planner, "sppr");
	cr_assert_eq(sb_pipeline_plan_validate(p, pb->model, pb->topo, &err), 0, "%s", err.msg);
	if (pb->sched)
		cr_assert_str_eq(p->schedule, pb->sched->name);
	else
		cr_assert(!strcmp(p->schedule, "1f1b") || !strcmp(p->schedule, "cp-list"), "%s",
			  p->schedule);
	if (pb->M)
		cr_assert_eq(p->M, pb->M);
	else if (pb->batch >= 4)
		cr_assert(p->M == 4 || p->M == 8 || p->M == 16 || p->M == 32, "M = %d", p->M);
	else
		cr_assert_eq(p->M, (int)pb->batch);
	sc = sb_pipeline_schedule_find(p->schedule);
	*T = eval(p, pb->model, pb->topo, sc, NULL, NULL, &res);
	cr_assert(res.fits, "sppr plan does not fit: %g > %g", res.peak_mem, pb->topo->mem);
	sb_pipeline_result_release(&res);
}

/* SPP-R on named models and topologies, with M given or chosen and with
 * the problem's schedule imposed: valid, checked, fitting plans. */
Test(pipebound, sppr_plans_pass_checker)
{
	static const struct {
		const char *model, *topo, *sched;
		int M;
	} cases[] = {
		{ "bert-48", "2x8-nvlink-25gbe", NULL, 0 },
		{ "bert-48", "4x4-pcie-10gbe", "gpipe", 16 },
		{ "gpt2-xl", "2x8-nvlink-25gbe", "1f1b", 16 },
		{ "gpt2-xl", "dgx1", NULL, 0 },
		{ "vgg19", "config-b", "cp-list", 16 },
		{ "vgg19", "4x4-pcie-10gbe", NULL, 8 },
		{ "gnmt-16", "dgx1", "gpipe", 0 },
		{ "gnmt-16", "config-a", NULL, 16 },
		{ "bert-large", "config-c", "1f1b", 0 },
	};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_err err;
		struct sb_pipeline_problem pb;
		struct sb_pipeline_plan p;
		double T;
		cr_assert_eq(sb_analytic_model(cases[i].model, &m, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_topo_named(cases[i].topo, &t, &err), 0, "%s", err.msg);
		memset(&pb, 0, sizeof pb);
		pb.model = &m;
		pb.topo = &t;
		pb.batch = 64;
		pb.M = cases[i].M;
		pb.sched = cases[i].sched ? sb_pipeline_schedule_find(cases[i].sched) : NULL;
		check_sppr(&pb, &p, &T);
		cr_expect(le(sb_pipeline_lb_problem(&m, &t, pb.batch, p.M), T));
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
}

/* Random problems, including memory so tight that only few plans fit. */
Test(pipebound, sppr_random_problems)
{
	int it, made = 0;
	for (it = 0; it < 40; it++) {
		struct sb_rng r = sb_rng_stream(15, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_problem pb;
		struct sb_pipeline_plan p;
		struct sb_opts o;
		struct sb_err err;
		const struct sb_pipeline_planner *pl = sb_pipeline_planner_find("sppr");
		double T;
		int rc;
		rand_model(&m, 1 + (int)sb_rng_below(&r, 30), &r);
		sb_topo_random(&t, 1 + (int)sb_rng_below(&r, 24), &r);
		if (sb_rng_bernoulli(&r, 0.4))
			t.mem = 2.2 * model_weight(&m) / (1 + sb_rng_below(&r, 4));
		memset(&pb, 0, sizeof pb);
		pb.model = &m;
		pb.topo = &t;
		pb.batch = 1 << sb_rng_below(&r, 8);
		pb.M = sb_rng_bernoulli(&r, 0.5) ? 0 : 1 + (int)sb_rng_below(&r, (uint32_t)pb.batch);
		pb.kappa = sb_rng_bernoulli(&r, 0.5) ? 2 : 4;
		sb_opts_defaults(&o, pl->params);
		rc = pl->plan(&pb, &o, &p, &err);
		if (rc == SB_EXIT_RUN) {
			/* only when not even one microbatch of one layer fits
			 * on a GPU, or the weights alone do not */
			cr_assert(strstr(err.msg, "fits"), "%s", err.msg);
			sb_pipeline_plan_release(&p);
			free_inst(&m, &t);
			continue;
		}
		sb_pipeline_plan_release(&p);
		check_sppr(&pb, &p, &T);
		made++;
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
	cr_assert_gt(made, 25);
}

/*
 * Step 1 matters: GPUs 0, 2, 4, 6 form one NVLink island and 1, 3, 5, 7
 * another, joined by slow links; the identity order would put both
 * islands in every window. Four compute-heavy layers on eight GPUs want
 * replicated stages, and a cross-island all-reduce of their weights is
 * ruinous: SPP-R must replicate, inside the islands only.
 */
Test(pipebound, sppr_order_keeps_islands)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_problem pb;
	struct sb_pipeline_plan p;
	struct sb_rng r = sb_rng_stream(16, 0, 0, SB_RNG_TEST);
	double T;
	int i, j, s, k, replicated = 0;
	rand_model(&m, 4, &r);
	for (i = 0; i < m.n; i++) {
		m.layer[i].fwd = 5e-3;
		m.layer[i].bwd = 1e-2;
		m.layer[i].params = 4e7;
	}
	rand_topo(&t, 8, 32e9, &r);
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			if (i != j)
				t.bw[i * 8 + j] = (i - j) % 2 ? 1e9 : 25e9;
	memset(&pb, 0, sizeof pb);
	pb.model = &m;
	pb.topo = &t;
	pb.batch = 64;
	pb.M = 8;
	check_sppr(&pb, &p, &T);
	for (s = 0; s < p.S; s++) {
		replicated += p.st[s].r > 1;
		for (k = 1; k < p.st[s].r; k++)
			cr_expect_eq(p.st[s].gpu[k] % 2, p.st[s].gpu[0] % 2, "stage %d spans islands",
				     s);
	}
	cr_expect_gt(replicated, 0);
	sb_pipeline_plan_release(&p);
	free_inst(&m, &t);
}

/* bert-48 on 2 x 8 V100 (NVLink + 25 GbE), batch 64, M 16: SPP-R beats
 * the straight GPipe-style plan (16 one-GPU stages of about equal work)
 * under GPipe and 1F1B. */
Test(pipebound, sppr_beats_straight_bert48)
{
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_err err;
	struct sb_pipeline_problem pb;
	struct sb_pipeline_plan p, q;
	struct sb_pipeline_prefix x;
	struct sb_pipeline_result res;
	double T, Tg, T1, tot;
	int s, l = 0;
	cr_assert_eq(sb_analytic_model("bert-48", &m, &err), 0);
	cr_assert_eq(sb_topo_named("2x8-nvlink-25gbe", &t, &err), 0);
	memset(&pb, 0, sizeof pb);
	pb.model = &m;
	pb.topo = &t;
	pb.batch = 64;
	pb.M = 16;
	check_sppr(&pb, &p, &T);
	/* straight: cut where the running work passes s/16 of the total */
	sb_pipeline_prefix_init(&x, &m);
	tot = x.fwd[m.n] + x.bwd[m.n];
	sb_pipeline_plan_init(&q, 16, 1);
	q.M = 16;
	q.batch = 64;
	for (s = 0; s < 16; s++) {
		q.st[s].first = l;
		while (l < m.n - (16 - s) && x.fwd[l + 1] + x.bwd[l + 1] <= tot * (s + 1) / 16)
			l++;
		q.st[s].last = s == 15 ? m.n - 1 : l;
		l = q.st[s].last + 1;
		q.st[s].r = 1;
		q.st[s].gpu[0] = s;
	}
	cr_assert_eq(sb_pipeline_plan_validate(&q, &m, &t, &err), 0, "%s", err.msg);
	Tg = eval(&q, &m, &t, sb_pipeline_schedule_find("gpipe"), NULL, NULL, &res);
	sb_pipeline_result_release(&res);
	T1 = eval(&q, &m, &t, sb_pipeline_schedule_find("1f1b"), NULL, NULL, &res);
	sb_pipeline_result_release(&res);
	cr_expect_lt(T, Tg, "sppr %g, straight gpipe %g", T, Tg);
	cr_expect_lt(T, T1, "sppr %g, straight 1f1b %g", T, T1);
	sb_pipeline_prefix_release(&x);
	sb_pipeline_plan_release(&p);
	sb_pipeline_plan_release(&q);
	free_inst(&m, &t);
}

/* ------------------------------------------------------------------ */
/* MILPs and enumeration                                               */
/* ------------------------------------------------------------------ */

static const struct sb_pipeline_milp_opts milp_opts = { .time_limit = 60 };

/* Scheduling-only MILP: LB(plan) <= MILP* <= every simulated schedule
 * of the plan that fits; the closed form exactly. */
Test(pipebound, sched_milp_brackets)
{
	int n, it, k, optimal = 0;
	const struct sb_pipeline_schedule *const *sc = sb_pipeline_schedules(&n);
	for (it = 0; it < 30; it++) {
		struct sb_rng r = sb_rng_stream(17, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_pipeline_milp_result mr;
		struct sb_err err;
		double lb;
		rand_model(&m, 1 + (int)sb_rng_below(&r, 6), &r);
		rand_topo(&t, 1 + (int)sb_rng_below(&r, 4), 1e12, &r);
		rand_plan(&p, &m, &t, 1 + (int)sb_rng_below(&r, 5), &r);
		if (sb_rng_bernoulli(&r, 0.4))
			tight_memory(&p, &m, &t);
		lb = sb_pipeline_lb_plan(&p, &m, &t, NULL);
		cr_assert_eq(sb_pipeline_milp_sched(&p, &m, &t, &milp_opts, &mr, &err), 0, "%s",
			     err.msg);
		cr_assert(mr.status == SB_LP_OPTIMAL || mr.status == SB_LP_FEASIBLE,
			  "instance %d: %s", it, sb_lp_status_name(mr.status));
		cr_assert(le(lb, mr.bound) && le(mr.bound, mr.obj), "instance %d: %g %g %g", it, lb,
			  mr.bound, mr.obj);
		if (mr.status == SB_LP_OPTIMAL) {
			optimal++;
			for (k = 0; k < n; k++) {
				struct sb_pipeline_result res;
				double T = eval(&p, &m, &t, sc[k], NULL, NULL, &res);
				if (res.fits)
					cr_assert(le(mr.obj, T), "instance %d: MILP %.9g > %s %.9g", it,
						  mr.obj, sc[k]->name, T);
				sb_pipeline_result_release(&res);
			}
		}
		sb_pipeline_milp_result_release(&mr);
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
	cr_assert_gt(optimal, 25);
}

/*
 * An exact scheduler independent of the MILP, for one-copy plans with few
 * stages and microbatches: every stage order of M forwards and M
 * backwards, each kind in microbatch order (which loses nothing, see
 * pipeline/bound.c) and every backward after its forward (a ballot
 * sequence), within the memory cap; each combination timed as early as
 * possible (stage one task at a time, FIFO links). The best is the
 * optimum. INFINITY when no combination fits or all deadlock.
 */
#define BF_MAXM 4
#define BF_MAXS 3

struct bf_seq {
	int n;
	unsigned char seq[16][2 * BF_MAXM];   /* 0: F, 1: B */
	int peak[16];
};

static void bf_gen(struct bf_seq *q, unsigned char *cur, int len, int nf, int nb, int M, int in,
		   int peak)
{
	if (nb == M) {
		memcpy(q->seq[q->n], cur, (size_t)len);
		q->peak[q->n++] = peak;
		return;
	}
	if (nf < M) {
		cur[len] = 0;
		bf_gen(q, cur, len + 1, nf + 1, nb, M, in + 1, in + 1 > peak ? in + 1 : peak);
	}
	if (nb < nf) {
		cur[len] = 1;
		bf_gen(q, cur, len + 1, nf, nb + 1, M, in - 1, peak);
	}
}

static double bf_time(const struct sb_pipeline_costs *c, int S, int M, const struct bf_seq *q,
		      const int *pick)
{
	double fe[BF_MAXS][BF_MAXM], be[BF_MAXS][BF_MAXM], xf[BF_MAXS][BF_MAXM];
	double xb[BF_MAXS][BF_MAXM], freeat[BF_MAXS], lf[BF_MAXS], lb[BF_MAXS], T = 0;
	int pos[BF_MAXS], cnt[BF_MAXS][2], s, left = 2 * M * S, progress = 1;
	for (s = 0; s < S; s++) {
		pos[s] = cnt[s][0] = cnt[s][1] = 0;
		freeat[s] = lf[s] = lb[s] = 0;
	}
	while (left > 0 && progress) {
		progress = 0;
		for (s = 0; s < S; s++)
			while (pos[s] < 2 * M) {
				int kind = q->seq[pick[s]][pos[s]], i = cnt[s][kind];
				double ready, st;
				if (kind == 0) {
					if (s > 0 && cnt[s - 1][0] <= i)
						break;  /* input not produced yet */
					ready = s > 0 ? xf[s - 1][i] : 0;
				} else {
					if (s + 1 < S && cnt[s + 1][1] <= i)
						break;
					ready = s + 1 < S ? xb[s][i] : fe[s][i];
				}
				st = sb_max(freeat[s], ready);
				if (kind == 0) {
					fe[s][i] = freeat[s] = st + c->F[s];
					if (s + 1 < S) {
						xf[s][i] = sb_max(fe[s][i], lf[s]) + c->C[s];
						lf[s] = xf[s][i];
					}
				} else {
					be[s][i] = freeat[s] = st + c->B[s];
					if (s > 0) {
						xb[s - 1][i] = sb_max(be[s][i], lb[s - 1]) + c->C[s - 1];
						lb[s - 1] = xb[s - 1][i];
					}
				}
				cnt[s][kind]++;
				pos[s]++;
				left--;
				progress = 1;
			}
	}
	if (left > 0)
		return INFINITY;
	for (s = 0; s < S; s++)
		T = sb_max(T, freeat[s] + c->AR[s]);
	return T + c->t_opt;
}

static double brute_sched(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			  const struct sb_topo *t)
{
	struct sb_pipeline_costs c;
	struct bf_seq q;
	unsigned char cur[2 * BF_MAXM];
	int S = p->S, M = p->M, pick[BF_MAXS], cap[BF_MAXS], s, done = 0;
	double best = INFINITY;
	memset(&q, 0, sizeof q);
	bf_gen(&q, cur, 0, 0, 0, M, 0, 0);
	sb_pipeline_costs_build(&c, p, m, t);
	for (s = 0; s < S; s++) {
		cap[s] = 0;
		while (cap[s] < M && c.mem_w[s] + (cap[s] + 1) * c.mem_a[s] <= t->mem)
			cap[s]++;
		pick[s] = 0;
	}
	while (!done) {
		int ok = 1;
		for (s = 0; s < S; s++)
			ok &= q.peak[pick[s]] <= cap[s];
		if (ok)
			best = sb_min(best, bf_time(&c, S, M, &q, pick));
		for (s = 0; s < S && ++pick[s] == q.n; s++)
			pick[s] = 0;
		done = s == S;
	}
	sb_pipeline_costs_release(&c);
	return best;
}

/* The scheduling-only MILP equals the exact scheduler on one-copy plans
 * with heavy links and tight memory, where its link and memory rows
 * bind. */
Test(pipebound, sched_milp_equals_brute_force)
{
	int it, done = 0, infeasible = 0;
	for (it = 0; done < 40 && it < 400; it++) {
		struct sb_rng r = sb_rng_stream(21, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_plan p;
		struct sb_pipeline_milp_result mr;
		struct sb_err err;
		double bf;
		int i;
		rand_model(&m, 1 + (int)sb_rng_below(&r, 5), &r);
		if (sb_rng_bernoulli(&r, 0.5))
			for (i = 0; i < m.n; i++)
				m.layer[i].act *= 30;   /* links dominate */
		rand_topo(&t, 1 + (int)sb_rng_below(&r, 4), 1e12, &r);
		rand_plan(&p, &m, &t, 1 + (int)sb_rng_below(&r, BF_MAXM), &r);
		if (p.copies != 1 || p.S > BF_MAXS) {
			sb_pipeline_plan_release(&p);
			free_inst(&m, &t);
			continue;
		}
		if (sb_rng_bernoulli(&r, 0.5)) {
			struct sb_pipeline_costs c;
			int s;
			double f = 1 + 2.5 * sb_rng_uniform(&r);
			sb_pipeline_costs_build(&c, &p, &m, &t);
			t.mem = 0;
			for (s = 0; s < p.S; s++)
				t.mem = sb_max(t.mem, c.mem_w[s] + f * c.mem_a[s]);
			sb_pipeline_costs_release(&c);
		}
		bf = brute_sched(&p, &m, &t);
		/* with and without the bound as a cut (it could hide a wrong row) */
		for (i = 0; i < 2; i++) {
			struct sb_pipeline_milp_opts mo = milp_opts;
			mo.no_lb_cut = i;
			cr_assert_eq(sb_pipeline_milp_sched(&p, &m, &t, &mo, &mr, &err), 0, "%s", err.msg);
			if (isinf(bf)) {
				cr_assert_eq(mr.status, SB_LP_INFEASIBLE, "instance %d", it);
				infeasible++;
			} else {
				cr_assert_eq(mr.status, SB_LP_OPTIMAL, "instance %d: %s", it,
					     sb_lp_status_name(mr.status));
				cr_assert(fabs(mr.obj - bf) <= REL * bf, "instance %d (cut %d): MILP "
					  "%.9g, exact %.9g", it, !i, mr.obj, bf);
			}
			sb_pipeline_milp_result_release(&mr);
		}
		done++;
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
	cr_assert_eq(done, 40);
}

/* Balanced stages, free transfers: the optimum is (M + S - 1)(F + B). */
Test(pipebound, sched_milp_closed_form)
{
	int S, M, i, s;
	for (S = 1; S <= 4; S++)
		for (M = 1; M <= 5; M += 2) {
			struct sb_pmodel m;
			struct sb_topo t;
			struct sb_pipeline_plan p;
			struct sb_pipeline_milp_result mr;
			struct sb_err err;
			memset(&m, 0, sizeof m);
			memset(&t, 0, sizeof t);
			m.n = S;
			m.layer = SB_NEW(struct sb_layer, S);
			for (i = 0; i < S; i++) {
				m.layer[i].fwd = 1;
				m.layer[i].bwd = 2;
			}
			t.n = S;
			t.bw = SB_NEW(double, S * S);
			t.server = SB_NEW(int, S);
			for (i = 0; i < S * S; i++)
				t.bw[i] = INFINITY;
			t.mem = INFINITY;   /* unbounded: no memory rows bind */
			t.speed = 1;
			sb_pipeline_plan_init(&p, S, 1);
			p.M = M;
			p.batch = M;
			for (s = 0; s < S; s++) {
				p.st[s].first = p.st[s].last = s;
				p.st[s].r = 1;
				p.st[s].gpu[0] = s;
			}
			cr_assert_eq(sb_pipeline_milp_sched(&p, &m, &t, &milp_opts, &mr, &err), 0);
			cr_expect_eq(mr.status, SB_LP_OPTIMAL);
			cr_expect(fabs(mr.obj - (M + S - 1) * 3.0) < 1e-6, "S=%d M=%d: %g", S, M, mr.obj);
			sb_pipeline_milp_result_release(&mr);
			sb_pipeline_plan_release(&p);
			free_inst(&m, &t);
		}
}

/*
 * The full MILP on tiny random problems, warm-started from SPP-R:
 * LB(problem) <= MILP* <= simulated SPP-R; the scheduling-only MILP of
 * SPP-R's plan is <= its simulated time and >= MILP*; MILP*'s plan,
 * rescheduled alone, gives MILP* again (columns = pipecost); MILP* =
 * enumeration.
 */
Test(pipebound, milp_lb_sppr_enumeration)
{
	int it, both = 0, opt = 0;
	for (it = 0; it < 16; it++) {
		struct sb_rng r = sb_rng_stream(18, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_problem pb;
		struct sb_pipeline_plan p;
		struct sb_pipeline_milp_opts mo = milp_opts;
		struct sb_pipeline_milp_result mr, ms, mp;
		struct sb_pipeline_enum_result er;
		struct sb_err err;
		double T, lb;
		int L = 2 + (int)sb_rng_below(&r, 3), N = 2 + (int)sb_rng_below(&r, 2);
		rand_model(&m, L, &r);
		rand_topo(&t, N, 1e12, &r);
		memset(&pb, 0, sizeof pb);
		pb.model = &m;
		pb.topo = &t;
		pb.M = 2 + (int)sb_rng_below(&r, 3);
		pb.batch = pb.M * (double)(1 + sb_rng_below(&r, 3));
		/* memory: sometimes only part of the model fits a GPU */
		if (sb_rng_bernoulli(&r, 0.5))
			t.mem = 2 * model_weight(&m) * (0.6 + 0.5 * sb_rng_uniform(&r)) + 2e8;
		mo.overlap = sb_rng_bernoulli(&r, 0.3);
		{
			const struct sb_pipeline_planner *pl = sb_pipeline_planner_find("sppr");
			struct sb_opts o;
			sb_opts_defaults(&o, pl->params);
			if (pl->plan(&pb, &o, &p, &err) == SB_EXIT_RUN) {
				sb_pipeline_plan_release(&p);
				free_inst(&m, &t);
				continue;
			}
			sb_pipeline_plan_release(&p);
		}
		check_sppr(&pb, &p, &T);
		lb = sb_pipeline_lb_problem(&m, &t, pb.batch, pb.M);
		cr_assert(le(lb, T));
		/* scheduling-only MILP with SPP-R's plan fixed */
		cr_assert_eq(sb_pipeline_milp_sched(&p, &m, &t, &mo, &ms, &err), 0, "%s", err.msg);
		cr_assert_eq(ms.status, SB_LP_OPTIMAL, "%s", sb_lp_status_name(ms.status));
		cr_assert(le(ms.obj, T), "instance %d: sched MILP %.9g > SPP-R %.9g", it, ms.obj, T);
		/* the full MILP (SPP-R plans have overlap 0: warm start only then) */
		mo.warm = mo.overlap ? NULL : &p;
		cr_assert_eq(sb_pipeline_milp(&pb, &mo, &mr, &err), 0, "%s", err.msg);
		cr_assert(mr.status == SB_LP_OPTIMAL || mr.status == SB_LP_FEASIBLE,
			  "instance %d: %s", it, sb_lp_status_name(mr.status));
		cr_assert(le(lb, mr.bound) && le(mr.bound, mr.obj));
		if (!mo.overlap)
			cr_assert(mr.warm_used, "instance %d: the SPP-R warm start was refused", it);
		if (mr.status == SB_LP_OPTIMAL) {
			opt++;
			if (!mo.overlap) {
				cr_assert(le(mr.obj, T), "instance %d: MILP %.9g > SPP-R %.9g", it,
					  mr.obj, T);
				cr_assert(le(mr.obj, ms.obj));
			}
			cr_assert(mr.plan.S >= 1);
			cr_assert_eq(sb_pipeline_milp_sched(&mr.plan, &m, &t, &mo, &mp, &err), 0);
			cr_assert_eq(mp.status, SB_LP_OPTIMAL);
			cr_assert(fabs(mp.obj - mr.obj) <= REL * mr.obj, "instance %d: plan of MILP* "
				  "%.9g rescheduled %.9g", it, mr.obj, mp.obj);
			sb_pipeline_milp_result_release(&mp);
			mo.warm = NULL;
			cr_assert_eq(sb_pipeline_enumerate(&pb, &mo, &er, &err), 0, "%s", err.msg);
			if (er.exact) {
				both++;
				cr_assert(fabs(er.best - mr.obj) <= REL * mr.obj,
					  "instance %d: enumeration %.9g, MILP %.9g", it, er.best, mr.obj);
			}
			sb_pipeline_enum_result_release(&er);
		}
		sb_pipeline_milp_result_release(&mr);
		sb_pipeline_milp_result_release(&ms);
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
	cr_assert_geq(opt, 10);
	cr_assert_geq(both, 10);
}

/* Limits, bad input and infeasibility are reported, not guessed. */
Test(pipebound, milp_input_and_infeasible)
{
	struct sb_rng r = sb_rng_stream(19, 0, 0, SB_RNG_TEST);
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_problem pb;
	struct sb_pipeline_milp_result mr;
	struct sb_pipeline_enum_result er;
	struct sb_err err;
	rand_model(&m, 11, &r);
	rand_topo(&t, 3, 1e12, &r);
	memset(&pb, 0, sizeof pb);
	pb.model = &m;
	pb.topo = &t;
	pb.batch = 8;
	pb.M = 4;
	cr_expect_eq(sb_pipeline_milp(&pb, NULL, &mr, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "too large"), "%s", err.msg);
	cr_expect_eq(sb_pipeline_enumerate(&pb, NULL, &er, &err), SB_EXIT_INPUT);
	m.n = 3;
	pb.M = 0;
	cr_expect_eq(sb_pipeline_milp(&pb, NULL, &mr, &err), SB_EXIT_INPUT);
	pb.M = 4;
	/* no layer fits a GPU */
	t.mem = 1;
	cr_assert_eq(sb_pipeline_milp(&pb, NULL, &mr, &err), 0, "%s", err.msg);
	cr_expect_eq(mr.status, SB_LP_INFEASIBLE);
	cr_expect(isinf(mr.obj));
	sb_pipeline_milp_result_release(&mr);
	cr_assert_eq(sb_pipeline_enumerate(&pb, NULL, &er, &err), 0);
	cr_expect(isinf(er.best) && er.exact && er.plans > 0);
	sb_pipeline_enum_result_release(&er);
	m.n = 11;
	free_inst(&m, &t);
}

/* Larger MILPs (L 6..8, N 4, M 4): a few seconds to a minute each. */
Test(pipebound_slow, milp_larger)
{
	int it;
	for (it = 0; it < 3; it++) {
		struct sb_rng r = sb_rng_stream(20, (uint64_t)it, 0, SB_RNG_TEST);
		struct sb_pmodel m;
		struct sb_topo t;
		struct sb_pipeline_problem pb;
		struct sb_pipeline_plan p;
		struct sb_pipeline_milp_opts mo = { .time_limit = 120 };
		struct sb_pipeline_milp_result mr;
		struct sb_err err;
		double T;
		rand_model(&m, 6 + it, &r);
		rand_topo(&t, 4, 1e12, &r);
		t.mem = 2 * model_weight(&m) * 0.7 + 4e8;
		memset(&pb, 0, sizeof pb);
		pb.model = &m;
		pb.topo = &t;
		pb.M = 4;
		pb.batch = 8;
		check_sppr(&pb, &p, &T);
		mo.warm = &p;
		cr_assert_eq(sb_pipeline_milp(&pb, &mo, &mr, &err), 0, "%s", err.msg);
		cr_assert(le(sb_pipeline_lb_problem(&m, &t, pb.batch, pb.M), mr.bound));
		cr_assert(le(mr.bound, mr.obj) && le(mr.obj, T));
		sb_pipeline_milp_result_release(&mr);
		sb_pipeline_plan_release(&p);
		free_inst(&m, &t);
	}
}
