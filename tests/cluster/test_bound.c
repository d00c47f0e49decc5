/*
 * test_bound.c - the cluster family's bounds and optima
 * (cluster/bound.h; spec asrpt.md §7, our design [O]):
 *   - LB1 and LB2 below the total completion time of every registered
 *     scheduler with every registered placer, restart overhead 0 and the
 *     default, also with a horizon far too short (LB2's overflow slot);
 *   - LB2 against the textbook optimum on one GPU;
 *   - the tiny-instance bracket: L <= OPT_np <= U against an independent
 *     brute force, L below every run without preemptions, max(LB1, LB2)
 *     <= U, and the schedule behind U replayed through the simulator and
 *     its independent checker;
 *   - pattern iteration times against enumeration of every assignment;
 *   - the placement ILP equal to exhaustive enumeration (g <= 6) and never
 *     above any registered placer's cut (empty and partly occupied
 *     clusters; the placer's choice is read from a simulation in which
 *     blocker jobs hold the occupied GPUs).
 * Suite `slow` holds the W1 / sim128 check (skipped by make smoke).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "cluster/bound.h"
#include "workloads/cluster/jobs.h"
#include "registry.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

/* The testbed's PCIe / 10 GbE links (placement matters) on S x G GPUs. */
static struct sb_cluster tiny_cluster(int S, int G)
{
	struct sb_cluster c;
	struct sb_err err;
	cr_assert_eq(sb_cluster_named("testbed", &c, &err), 0);
	c.nserver = S;
	c.gpus = G;
	snprintf(c.name, sizeof c.name, "tiny%dx%d", S, G);
	return c;
}

/* W1 on c: jobs of at most maxg GPUs, short, at a load that makes them
 * queue. */
static void tiny_w1(struct sb_jobset *js, const struct sb_cluster *c, int n, int maxg,
		    uint64_t seed)
{
	struct sb_w1_params p;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);
	sb_w1_defaults(&p);
	p.njobs = n;
	p.load = 0.9;
	p.min_base = 1e2;
	p.max_base = 2e3;
	p.max_gpus = maxg;
	sb_w1_generate(js, &p, c, &r);
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
	if (j.batch < d * j.micro)
		j.batch = d * j.micro;
	j.iters = 100;
	j.family = -1;
	j.trace_runtime = -1;
	return j;
}

/* A job set of n jobs (filled by the caller) with the catalogue models. */
static void empty_set(struct sb_jobset *js, int n)
{
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = n;
	js->job = sb_xcalloc((size_t)n, sizeof *js->job);
}

static int simulate(const struct sb_cluster *c, const struct sb_jobset *js,
		    const struct sb_cluster_combo *cb, struct sb_cluster_result *r,
		    struct sb_err *err)
{
	struct sb_opts so, po;
	sb_opts_defaults(&so, cb->sched->params);
	sb_opts_defaults(&po, cb->place->params);
	return sb_cluster_simulate(c, js, cb, &so, &po, 7, r, err);
}

static double total(const struct sb_cluster_result *r)
{
	double s = 0;
	int j;
	for (j = 0; j < r->n; j++)
		s += r->finish[j];
	return s;
}

static int preemptions(const struct sb_cluster_result *r)
{
	int j, k = 0;
	for (j = 0; j < r->n; j++)
		k += r->npreempt[j];
	return k;
}

/* Schedulers whose runs never preempt (spec asrpt.md §3 D1/D1b, §5). */
static int nonpreemptive_by_name(const char *name)
{
	static const char *const np[] = {
		"fifo", "fifo-bf", "asrpt", "asrpt-strict", "asrpt-bf", "asrpt-median", "asrpt-oracle",
		"qssf",
	};
	size_t i;
	for (i = 0; i < sizeof np / sizeof np[0]; i++)
		if (strcmp(np[i], name) == 0)
			return 1;
	return 0;
}

/*
 * Every registered scheduler with every registered placer, restart
 * overhead 0 and the cluster's default: each run passes the checker, and
 * fn(ctx, label, result) asserts what it wants. Returns the number of runs.
 */
typedef void (*run_fn)(void *ctx, const char *label, const struct sb_cluster_result *r);

static int every_run(const struct sb_cluster *c0, const struct sb_jobset *js, run_fn fn,
		     void *ctx)
{
	int ns, a, b, rs, runs = 0;
	const struct sb_cluster_policy *const *all = sb_cluster_policies(&ns);
	for (rs = 0; rs < 2; rs++) {
		struct sb_cluster c = *c0;
		c.restart = rs ? c0->restart : 0;
		for (a = 0; a < ns; a++) {
			if (!all[a]->schedule)
				continue;
			for (b = 0; b < ns; b++) {
				struct sb_cluster_combo cb;
				struct sb_cluster_result r;
				struct sb_err err;
				char why[256];
				if (!all[b]->place)
					continue;
				memset(&cb, 0, sizeof cb);
				cb.sched = all[a];
				cb.place = all[b];
				snprintf(cb.label, sizeof cb.label, "%s+%s (restart %g)", all[a]->name,
					 all[b]->name, c.restart);
				cr_assert_eq(simulate(&c, js, &cb, &r, &err), 0, "%s: %s", cb.label,
					     err.msg);
				cr_assert_eq(sb_cluster_check(&c, js, &r, why, sizeof why), 0, "%s: %s",
					     cb.label, why);
				if (nonpreemptive_by_name(all[a]->name))
					cr_assert_eq(preemptions(&r), 0, "%s preempted", cb.label);
				fn(ctx, cb.label, &r);
				runs++;
				sb_cluster_result_release(&r);
			}
		}
	}
	return runs;
}

static double fifo_horizon(const struct sb_cluster *c, const struct sb_jobset *js)
{
	struct sb_cluster_combo cb;
	struct sb_cluster_result r;
	struct sb_err err;
	double h = 0;
	int j;
	cr_assert_eq(sb_cluster_combo_parse(&cb, "fifo", &err), 0);
	cr_assert_eq(simulate(c, js, &cb, &r, &err), 0, "%s", err.msg);
	for (j = 0; j < js->n; j++)
		h = sb_max(h, r.finish[j]);
	sb_cluster_result_release(&r);
	return h;
}

/* ------------------------------------------------------------------ */
/* LB1 and LB2 below every policy                                      */
/* ------------------------------------------------------------------ */

struct lbctx {
	double lb1, lb2, lb2_short, L;
	int nonpre;
};

static void check_lbs(void *ctx, const char *label, const struct sb_cluster_result *r)
{
	struct lbctx *x = ctx;
	double s = total(r);
	cr_assert(x->lb1 <= s * (1 + 1e-9), "%s: LB1 %.9g > sum C %.9g", label, x->lb1, s);
	cr_assert(x->lb2 <= s * (1 + 1e-6), "%s: LB2 %.9g > sum C %.9g", label, x->lb2, s);
	cr_assert(x->lb2_short <= s * (1 + 1e-6), "%s: LB2 (short horizon) %.9g > sum C %.9g",
		  label, x->lb2_short, s);
	if (!isnan(x->L) && preemptions(r) == 0) {
		cr_assert(x->L <= s * (1 + 1e-9), "%s: L %.9g > sum C %.9g of a run without "
			  "preemptions", label, x->L, s);
		x->nonpre++;
	}
}

/* LB1 and LB2 of an instance (LB2 with the FIFO horizon and with a
 * quarter of it, so that the overflow slot is needed). */
static void lower_bounds(const struct sb_cluster *c, const struct sb_jobset *js,
			 struct lbctx *x)
{
	struct sb_lp_result res;
	struct sb_err err;
	double *tl = sb_xcalloc((size_t)js->n, sizeof *tl), h = fifo_horizon(c, js);

	sb_cluster_tau_lb(c, js, tl);
	x->lb1 = sb_cluster_lb1(c, js, tl);
	cr_assert_eq(sb_cluster_lb2(c, js, tl, h, 200, 0, &x->lb2, &res, &err), 0, "%s", err.msg);
	cr_assert_eq(res.status, SB_LP_OPTIMAL, "LB2 status %s", sb_lp_status_name(res.status));
	cr_assert(isfinite(x->lb2) && x->lb2 > 0);
	sb_lp_result_release(&res);
	cr_assert_eq(sb_cluster_lb2(c, js, NULL, h / 4, 50, 0, &x->lb2_short, NULL, &err), 0,
		     "%s", err.msg);
	cr_assert(isfinite(x->lb2_short) && x->lb2_short > 0);
	sb_free(tl);
}

Test(clbound, lb_below_every_policy)
{
	static const int cfg[][4] = {   /* S, G, jobs, max GPUs per job */
		{ 2, 2, 8, 4 }, { 2, 4, 10, 8 }, { 3, 4, 12, 8 }, { 3, 2, 10, 6 }, { 4, 4, 30, 16 },
	};
	int k, seed, runs = 0;
	for (k = 0; k < (int)(sizeof cfg / sizeof cfg[0]); k++)
		for (seed = 1; seed <= 3; seed++) {
			struct sb_cluster c = tiny_cluster(cfg[k][0], cfg[k][1]);
			struct sb_jobset js;
			struct lbctx x;
			memset(&x, 0, sizeof x);
			x.L = NAN;
			tiny_w1(&js, &c, cfg[k][2], cfg[k][3], 10 * k + seed);
			lower_bounds(&c, &js, &x);
			runs += every_run(&c, &js, check_lbs, &x);
			sb_jobset_release(&js);
		}
	cr_assert_gt(runs, 100);
}

/* One GPU, unit-width jobs all at time 0: the optimum is SPT, and LB2 is
 * at most one slot per job below it (lower slot edges); LB1 is exact. With
 * arrivals spread out LB2 stays below the preemptive optimum (SRPT). */
Test(clbound, lb2_single_gpu_textbook)
{
	struct sb_cluster c = tiny_cluster(1, 1);
	struct sb_jobset js;
	struct sb_err err;
	static const long it[8] = { 700, 100, 300, 800, 200, 500, 400, 600 };
	double *tl = sb_xcalloc(8, sizeof *tl), *cv = sb_xcalloc(8, sizeof *cv);
	double p[8], opt = 0, t = 0, sum = 0, lb2, srpt = 0;
	int i, j, n = 8;

	empty_set(&js, n);
	for (i = 0; i < n; i++) {
		js.job[i] = job_of("resnet50", 1, 1, 1);
		js.job[i].id = i;
		js.job[i].iters = it[i];
	}
	sb_cluster_tau_lb(&c, &js, tl);
	for (i = 0; i < n; i++) {
		p[i] = (double)js.job[i].iters * tl[i];
		sum += p[i];
	}
	/* SPT: sort the processing times */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && p[j] < p[j - 1]; j--) {
			double x = p[j];
			p[j] = p[j - 1];
			p[j - 1] = x;
		}
	for (i = 0; i < n; i++) {
		t += p[i];
		opt += t;
	}
	cr_expect(fabs(sb_cluster_lb1(&c, &js, tl) - opt) <= 1e-9 * opt, "LB1 = SPT optimum");
	cr_assert_eq(sb_cluster_lb2(&c, &js, tl, sum, 400, 0, &lb2, NULL, &err), 0, "%s", err.msg);
	cr_expect(lb2 <= opt * (1 + 1e-9), "LB2 %.9g above the optimum %.9g", lb2, opt);
	cr_expect(lb2 >= opt - n * sum / 400 - 1e-9 * opt,
		  "LB2 %.9g more than one slot per job below the optimum %.9g", lb2, opt);

	/* spread arrivals: below preemptive SRPT */
	for (i = 0; i < n; i++)
		js.job[i].arrival = i * 0.3 * sum / n;
	sb_cluster_srpt_completions(&c, &js, tl, cv);
	for (i = 0; i < n; i++)
		srpt += cv[i];
	cr_assert_eq(sb_cluster_lb2(&c, &js, tl, 2 * sum, 400, 0, &lb2, NULL, &err), 0, "%s",
		     err.msg);
	cr_expect(lb2 <= srpt * (1 + 1e-9), "LB2 %.9g above SRPT %.9g", lb2, srpt);
	cr_expect(lb2 >= 0.9 * srpt, "LB2 %.9g far below SRPT %.9g", lb2, srpt);
	sb_free(tl);
	sb_free(cv);
	sb_jobset_release(&js);
}

/* An LP stopped by its iteration limit gives no bound (not its primal). */
Test(clbound, lb2_stopped_early_is_no_bound)
{
	struct sb_cluster c = tiny_cluster(3, 4);
	struct sb_jobset js;
	struct sb_lp_result res;
	struct sb_err err;
	double lb;

	tiny_w1(&js, &c, 12, 8, 5);
	cr_assert_eq(sb_cluster_lb2(&c, &js, NULL, fifo_horizon(&c, &js), 100, 1, &lb, &res,
				    &err), 0, "%s", err.msg);
	cr_expect(isnan(lb), "no bound from an unfinished LP (got %g)", lb);
	cr_expect_neq(res.status, SB_LP_OPTIMAL);
	cr_expect_eq(res.stopped, SB_LP_STOP_ITERS, "stopped: %s", sb_lp_stop_name(res.stopped));
	sb_lp_result_release(&res);
	sb_jobset_release(&js);
}

/* ------------------------------------------------------------------ */
/* Pattern iteration times                                             */
/* ------------------------------------------------------------------ */

/* Every assignment of g workers to S servers, the minimum per count
 * vector (base G + 1 code). */
static void brute_pattern_tau(const struct sb_cluster *c, const struct sb_jobgraph *h, int S,
			      double *best, int ncode)
{
	int g = h->nv, asg[16], v, m, code;
	long a, total_asg = 1;
	for (v = 0; v < g; v++)
		total_asg *= S;
	for (code = 0; code < ncode; code++)
		best[code] = INFINITY;
	for (a = 0; a < total_asg; a++) {
		long x = a;
		int cnt[8] = { 0 };
		for (v = 0; v < g; v++) {
			asg[v] = (int)(x % S);
			x /= S;
			cnt[asg[v]]++;
		}
		for (code = 0, m = S - 1; m >= 0; m--)
			code = code * (g + 1) + cnt[m];
		best[code] = sb_min(best[code], sb_job_iter_time(c, h, asg));
	}
}

Test(clbound, pattern_tau_is_the_exact_minimum)
{
	static const struct {
		const char *model;
		int d, t, p;
	} jobs[] = {
		{ "gpt2-medium", 2, 2, 2 }, { "bert-large", 2, 1, 4 }, { "bert-base", 2, 2, 1 },
		{ "vgg16", 2, 1, 2 }, { "resnet50", 6, 1, 1 }, { "gpt2-large", 1, 4, 2 },
		{ "bert-large", 2, 2, 2 },
	};
	int nc, k, add, S = 3;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	for (add = 0; add < 2; add++)
		for (k = 0; k < (int)(sizeof jobs / sizeof jobs[0]); k++) {
			struct sb_cluster c = tiny_cluster(S, 8);
			struct sb_job j = job_of(jobs[k].model, jobs[k].d, jobs[k].t, jobs[k].p);
			struct sb_jobgraph h;
			int g = j.gpus, ncode = (g + 1) * (g + 1) * (g + 1), code, checked = 0;
			double *best = sb_xcalloc((size_t)ncode, sizeof *best);
			c.additive = add;
			sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
			brute_pattern_tau(&c, &h, S, best, ncode);
			for (code = 0; code < ncode; code++) {
				int cnt[3] = { code % (g + 1), code / (g + 1) % (g + 1),
					       code / ((g + 1) * (g + 1)) };
				int srv[16], got[3] = { 0, 0, 0 }, v;
				double tau;
				if (cnt[0] + cnt[1] + cnt[2] != g)
					continue;
				tau = sb_cluster_pattern_tau(&c, &h, cnt, S, srv);
				cr_assert(tau == best[code], "%s (%d,%d,%d) counts %d/%d/%d: %.12g vs "
					  "brute force %.12g", jobs[k].model, j.d, j.t, j.p, cnt[0],
					  cnt[1], cnt[2], tau, best[code]);
				for (v = 0; v < g; v++)
					got[srv[v]]++;
				cr_assert(got[0] == cnt[0] && got[1] == cnt[1] && got[2] == cnt[2],
					  "assignment has the pattern's counts");
				cr_assert(sb_job_iter_time(&c, &h, srv) == tau,
					  "assignment attains the minimum");
				checked++;
			}
			cr_assert_gt(checked, 2);
			sb_free(best);
			sb_jobgraph_release(&h);
		}
}

/* ------------------------------------------------------------------ */
/* OPT bracket                                                         */
/* ------------------------------------------------------------------ */

/*
 * Independent brute force of OPT_np: a multi-mode resource-constrained
 * problem (modes = patterns, resources = the servers' GPUs, release
 * dates), whose active schedules contain an optimum for a regular
 * objective and are exactly what the serial schedule-generation scheme
 * produces over every job order and mode choice. Continuous time; each
 * job at the earliest start >= a_j where its pattern fits next to the
 * jobs placed before it (candidates: a_j and their finish times).
 */
#define BF_MAXJ 6
#define BF_MAXP 64

struct bf {
	int n, S, G;
	double a[BF_MAXJ], pmin[BF_MAXJ];
	int np[BF_MAXJ];
	int pat[BF_MAXJ][BF_MAXP][4];
	double P[BF_MAXJ][BF_MAXP];
	/* search state */
	int used[BF_MAXJ], k[BF_MAXJ];
	double st[BF_MAXJ], en[BF_MAXJ];
	int order[BF_MAXJ];
	double best;
};

/* Most GPUs of server m in use by placed jobs during [t0, t1). */
static int bf_peak(const struct bf *b, int nplaced, int m, double t0, double t1)
{
	int i, q, most = 0;
	for (q = -1; q < nplaced; q++) {
		/* usage is constant between consecutive starts: test at t0
		 * and at every start inside (t0, t1) */
		double x = q < 0 ? t0 : b->st[b->order[q]];
		int u = 0;
		if (q >= 0 && !(x > t0 && x < t1))
			continue;
		for (i = 0; i < nplaced; i++) {
			int j = b->order[i];
			if (b->st[j] <= x && x < b->en[j])
				u += b->pat[j][b->k[j]][m];
		}
		most = most > u ? most : u;
	}
	return most;
}

static void bf_rec(struct bf *b, int depth, double sum)
{
	int j, kk, i, m;
	double lbrest = 0;

	if (depth == b->n) {
		b->best = sb_min(b->best, sum);
		return;
	}
	for (j = 0; j < b->n; j++)
		if (!b->used[j])
			lbrest += b->a[j] + b->pmin[j];
	if (sum + lbrest >= b->best * (1 - 1e-12))
		return;
	for (j = 0; j < b->n; j++) {
		if (b->used[j])
			continue;
		for (kk = 0; kk < b->np[j]; kk++) {
			double t = INFINITY;
			b->k[j] = kk;
			for (i = -1; i < depth; i++) {
				double cand = i < 0 ? b->a[j] : b->en[b->order[i]];
				int ok = 1;
				if (cand < b->a[j] || cand >= t)
					continue;
				for (m = 0; m < b->S && ok; m++)
					if (b->pat[j][kk][m] &&
					    bf_peak(b, depth, m, cand, cand + b->P[j][kk]) +
					    b->pat[j][kk][m] > b->G)
						ok = 0;
				if (ok)
					t = cand;
			}
			cr_assert(isfinite(t));
			b->used[j] = 1;
			b->order[depth] = j;
			b->st[j] = t;
			b->en[j] = t + b->P[j][kk];
			bf_rec(b, depth + 1, sum + b->en[j]);
			b->used[j] = 0;
		}
	}
}

/* Patterns of each job with durations from enumerating every assignment
 * (not sb_cluster_pattern_tau), then the search. */
static double brute_opt(const struct sb_cluster *c, const struct sb_jobset *js)
{
	struct bf *b = sb_xcalloc(1, sizeof *b);
	int S = c->nserver, j, code;
	double best;

	cr_assert(js->n <= BF_MAXJ && S <= 4);
	b->n = js->n;
	b->S = S;
	b->G = c->gpus;
	for (j = 0; j < js->n; j++) {
		const struct sb_job *jb = &js->job[j];
		struct sb_jobgraph h;
		int g = jb->gpus, ncode = 1, m;
		double *tau;
		for (m = 0; m < S; m++)
			ncode *= g + 1;
		tau = sb_xcalloc((size_t)ncode, sizeof *tau);
		sb_jobgraph_build(&h, jb, &js->model[jb->model], c);
		{
			int asg[16], v;
			long a, na = 1;
			for (code = 0; code < ncode; code++)
				tau[code] = INFINITY;
			for (v = 0; v < g; v++)
				na *= S;
			for (a = 0; a < na; a++) {
				long x = a;
				int cnt[4] = { 0, 0, 0, 0 };
				for (v = 0; v < g; v++) {
					asg[v] = (int)(x % S);
					x /= S;
					cnt[asg[v]]++;
				}
				for (code = 0, m = S - 1; m >= 0; m--)
					code = code * (g + 1) + cnt[m];
				tau[code] = sb_min(tau[code], sb_job_iter_time(c, &h, asg));
			}
		}
		b->a[j] = jb->arrival;
		b->pmin[j] = INFINITY;
		for (code = 0; code < ncode; code++) {
			int x = code, cnt[4], ok = 1;
			if (!isfinite(tau[code]))
				continue;
			for (m = 0; m < S; m++) {
				cnt[m] = x % (g + 1);
				x /= g + 1;
				ok &= cnt[m] <= c->gpus;
			}
			if (!ok)
				continue;
			cr_assert(b->np[j] < BF_MAXP);
			memcpy(b->pat[j][b->np[j]], cnt, sizeof cnt);
			b->P[j][b->np[j]] = (double)jb->iters * tau[code];
			b->pmin[j] = sb_min(b->pmin[j], b->P[j][b->np[j]]);
			b->np[j]++;
		}
		sb_free(tau);
		sb_jobgraph_release(&h);
	}
	b->best = INFINITY;
	bf_rec(b, 0, 0);
	best = b->best;
	sb_free(b);
	return best;
}

Test(clbound, opt_bracket_contains_brute_force)
{
	static const int cfg[][4] = {   /* S, G, jobs, max GPUs per job */
		{ 2, 2, 4, 4 }, { 2, 4, 4, 8 }, { 3, 2, 4, 4 }, { 2, 3, 5, 4 }, { 2, 2, 5, 2 },
	};
	int k, seed;
	for (k = 0; k < (int)(sizeof cfg / sizeof cfg[0]); k++)
		for (seed = 1; seed <= 3; seed++) {
			struct sb_cluster c = tiny_cluster(cfg[k][0], cfg[k][1]);
			struct sb_jobset js;
			struct sb_err err;
			double L, U, opt;
			int ls, us;
			tiny_w1(&js, &c, cfg[k][2], cfg[k][3], 100 + 10 * k + seed);
			opt = brute_opt(&c, &js);
			cr_assert_eq(sb_cluster_opt_tiny(&c, &js, 0, 0, &L, &U, &ls, &us, NULL, &err), 0,
				     "%s", err.msg);
			cr_expect_eq(ls, SB_LP_OPTIMAL);
			cr_expect_eq(us, SB_LP_OPTIMAL);
			cr_assert(L <= opt * (1 + 1e-9), "%dx%d seed %d: L %.9g > OPT_np %.9g",
				  cfg[k][0], cfg[k][1], seed, L, opt);
			cr_assert(opt <= U * (1 + 1e-9), "%dx%d seed %d: OPT_np %.9g > U %.9g",
				  cfg[k][0], cfg[k][1], seed, opt, U);
			sb_jobset_release(&js);
		}
}

/* Replays a tiny schedule: starts each job on the planned servers at its
 * planned start (waking itself up for it). */
static const struct sb_cluster_tiny_sched *replay_plan;

static void replay_schedule(void *ctx, struct sb_csim *s)
{
	const struct sb_cluster *c = sb_cluster_sim_cluster(s);
	double now = sb_cluster_sim_now(s), next = INFINITY;
	int j, v, n = sb_cluster_sim_njobs(s);

	(void)ctx;
	for (j = 0; j < n; j++) {
		int st = sb_cluster_sim_state(s, j), gpus[16], taken[64] = { 0 };
		const unsigned char *fg = sb_cluster_sim_gpu_free(s);
		if (st == SB_JOB_RUNNING || st == SB_JOB_DONE)
			continue;
		if (st == SB_JOB_FUTURE || replay_plan->start[j] > now) {
			next = sb_min(next, replay_plan->start[j]);
			continue;
		}
		for (v = 0; v < replay_plan->voff[j + 1] - replay_plan->voff[j]; v++) {
			int m = replay_plan->server[replay_plan->voff[j] + v], x;
			for (x = m * c->gpus; x < (m + 1) * c->gpus; x++)
				if (fg[x] && !taken[x])
					break;
			cr_assert(x < (m + 1) * c->gpus, "job %d: no free GPU on server %d at %g", j,
				  m, now);
			taken[x] = 1;
			gpus[v] = x;
		}
		sb_cluster_sim_start_on(s, j, gpus);
	}
	if (next < INFINITY && next > now)
		sb_cluster_sim_wake(s, next);
}

static const struct sb_cluster_policy replay = {
	.name = "replay", .schedule = replay_schedule, .default_place = "packed",
};

static void check_replay(const struct sb_cluster *c, const struct sb_jobset *js,
			 const struct sb_cluster_tiny_sched *sc, double U)
{
	struct sb_cluster_combo cb;
	struct sb_cluster_result r;
	struct sb_err err;
	char why[256];
	int j;

	memset(&cb, 0, sizeof cb);
	cb.sched = &replay;
	cb.place = sb_cluster_policy_find("packed");
	snprintf(cb.label, sizeof cb.label, "replay+packed");
	replay_plan = sc;
	cr_assert_eq(simulate(c, js, &cb, &r, &err), 0, "replay: %s", err.msg);
	cr_assert_eq(sb_cluster_check(c, js, &r, why, sizeof why), 0, "replay: %s", why);
	cr_assert_eq(preemptions(&r), 0);
	for (j = 0; j < js->n; j++) {
		cr_assert(fabs(r.first_start[j] - sc->start[j]) <= 1e-9 * (1 + sc->start[j]),
			  "job %d starts at %.9g, planned %.9g", j, r.first_start[j], sc->start[j]);
		cr_assert(fabs(r.finish[j] - sc->finish[j]) <= 1e-9 * sc->finish[j],
			  "job %d ends at %.9g, planned %.9g", j, r.finish[j], sc->finish[j]);
	}
	cr_assert(fabs(total(&r) - U) <= 1e-9 * U, "replayed sum C %.9g vs U %.9g", total(&r), U);
	sb_cluster_result_release(&r);
}

/* On W1 instances of 2-3 servers x 2-4 GPUs: the schedule behind U is
 * real (simulator + checker) and sums to U; L <= U; max(LB1, LB2) <= U;
 * L below every run of every scheduler and placer that preempted nothing.
 * Searches stopped by a node limit keep L and U valid. */
Test(clbound, opt_bracket_vs_every_policy)
{
	static const int cfg[][4] = {   /* S, G, jobs, max GPUs per job */
		{ 2, 2, 6, 4 }, { 2, 4, 6, 8 }, { 3, 2, 6, 6 }, { 3, 4, 6, 8 }, { 2, 3, 7, 4 },
	};
	int k, seed, nonpre = 0;
	for (k = 0; k < (int)(sizeof cfg / sizeof cfg[0]); k++)
		for (seed = 1; seed <= 2; seed++) {
			struct sb_cluster c = tiny_cluster(cfg[k][0], cfg[k][1]);
			struct sb_jobset js;
			struct sb_cluster_tiny_sched sc;
			struct sb_err err;
			struct lbctx x;
			double U;
			int ls, us;
			tiny_w1(&js, &c, cfg[k][2], cfg[k][3], 200 + 10 * k + seed);
			memset(&x, 0, sizeof x);
			lower_bounds(&c, &js, &x);
			cr_assert_eq(sb_cluster_opt_tiny(&c, &js, 0, 300, &x.L, &U, &ls, &us, &sc,
							 &err), 0, "%s", err.msg);
			cr_assert(ls == SB_LP_OPTIMAL || ls == SB_LP_FEASIBLE ||
				  ls == SB_LP_NOSOLUTION, "lower status %s", sb_lp_status_name(ls));
			cr_assert(us == SB_LP_OPTIMAL || us == SB_LP_FEASIBLE, "upper status %s",
				  sb_lp_status_name(us));
			cr_assert(isfinite(x.L) && isfinite(U));
			cr_assert(x.L <= U * (1 + 1e-9), "L %.9g > U %.9g", x.L, U);
			cr_assert(sb_max(x.lb1, x.lb2) <= U * (1 + 1e-6), "max(LB1 %.9g, LB2 %.9g) > U "
				  "%.9g", x.lb1, x.lb2, U);
			check_replay(&c, &js, &sc, U);
			every_run(&c, &js, check_lbs, &x);
			nonpre += x.nonpre;
			sb_cluster_tiny_sched_release(&sc);
			sb_jobset_release(&js);
		}
	cr_assert_gt(nonpre, 100, "runs without preemptions checked against L");
}

/* ------------------------------------------------------------------ */
/* Exact OPT_np by enumeration                                         */
/* ------------------------------------------------------------------ */

struct exactctx {
	double opt;
	int nonpre, below;
};

static void check_exact(void *ctx, const char *label, const struct sb_cluster_result *r)
{
	struct exactctx *x = ctx;
	double s = total(r);
	if (preemptions(r) > 0)
		return;
	cr_assert(x->opt <= s * (1 + 1e-9), "%s: sum C %.12g of a run without preemptions is "
		  "below the exact OPT_np %.12g", label, s, x->opt);
	x->nonpre++;
}

/* The exact optimum equals the test's own brute force (durations from
 * enumerating every worker assignment, not sb_cluster_pattern_tau), lies
 * in the ILP bracket, its schedule replays in the simulator through the
 * checker to the same sum, and no run of any scheduler x placer without
 * preemptions beats it. */
Test(clbound, opt_exact_vs_brute_force_bracket_and_every_policy)
{
	static const int cfg[][4] = {   /* S, G, jobs, max GPUs per job */
		{ 1, 2, 4, 2 }, { 2, 2, 4, 4 }, { 2, 4, 4, 8 }, { 3, 2, 4, 4 }, { 2, 3, 5, 4 },
		{ 2, 2, 5, 2 },
	};
	int k, seed, nonpre = 0;
	for (k = 0; k < (int)(sizeof cfg / sizeof cfg[0]); k++)
		for (seed = 1; seed <= 3; seed++) {
			struct sb_cluster c = tiny_cluster(cfg[k][0], cfg[k][1]);
			struct sb_jobset js;
			struct sb_cluster_tiny_sched sc;
			struct sb_err err;
			struct exactctx x;
			double L, U, bf;
			int ls, us, st;
			long nodes;
			tiny_w1(&js, &c, cfg[k][2], cfg[k][3], 300 + 10 * k + seed);
			memset(&x, 0, sizeof x);
			cr_assert_eq(sb_cluster_opt_exact(&c, &js, 0, &x.opt, &st, &nodes, &sc, &err),
				     0, "%s", err.msg);
			cr_assert_eq(st, SB_LP_OPTIMAL);
			cr_assert_gt(nodes, 0);
			bf = brute_opt(&c, &js);
			cr_assert(fabs(x.opt - bf) <= 1e-9 * bf, "%dx%d seed %d: exact %.12g, brute "
				  "force %.12g", cfg[k][0], cfg[k][1], seed, x.opt, bf);
			cr_assert_eq(sb_cluster_opt_tiny(&c, &js, 0, 0, &L, &U, &ls, &us, NULL, &err), 0,
				     "%s", err.msg);
			cr_assert(L <= x.opt * (1 + 1e-9) && x.opt <= U * (1 + 1e-9),
				  "exact %.12g outside [L %.12g, U %.12g]", x.opt, L, U);
			check_replay(&c, &js, &sc, x.opt);
			every_run(&c, &js, check_exact, &x);
			nonpre += x.nonpre;
			sb_cluster_tiny_sched_release(&sc);
			sb_jobset_release(&js);
		}
	cr_assert_gt(nonpre, 200, "runs without preemptions checked against OPT_np");
}

/* A node limit stops the search honestly: not proven, and the value it
 * returns is a real schedule's (>= OPT_np); bad sizes are input errors. */
Test(clbound, opt_exact_node_limit_and_bad_input)
{
	struct sb_cluster c = tiny_cluster(2, 2), big = tiny_cluster(5, 2);
	struct sb_jobset js;
	struct sb_err err;
	double opt, lim;
	int st;
	long nodes;
	tiny_w1(&js, &c, 5, 2, 77);
	cr_assert_eq(sb_cluster_opt_exact(&c, &js, 0, &opt, &st, &nodes, NULL, &err), 0);
	cr_assert_eq(st, SB_LP_OPTIMAL);
	cr_assert_gt(nodes, 10);
	cr_assert_eq(sb_cluster_opt_exact(&c, &js, 10, &lim, &st, NULL, NULL, &err), 0);
	cr_assert_eq(st, SB_LP_FEASIBLE);
	cr_assert(lim >= opt * (1 - 1e-12), "stopped search %.12g below OPT_np %.12g", lim, opt);
	cr_expect_eq(sb_cluster_opt_exact(&big, &js, 0, &opt, &st, NULL, NULL, &err),
		     SB_EXIT_INPUT);
	sb_jobset_release(&js);
	tiny_w1(&js, &c, SB_CLB_EXACT_JOBS + 1, 2, 78);
	cr_expect_eq(sb_cluster_opt_exact(&c, &js, 0, &opt, &st, NULL, NULL, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "jobs") != NULL, "%s", err.msg);
	sb_jobset_release(&js);
}

/* ------------------------------------------------------------------ */
/* Placement ILP                                                       */
/* ------------------------------------------------------------------ */

/* Minimum cut over every assignment of the workers to servers within
 * their free counts. */
static double brute_cut(const struct sb_jobgraph *h, const int *f, int S)
{
	int g = h->nv, asg[16], v, cnt[8];
	long a, na = 1;
	double best = INFINITY;
	for (v = 0; v < g; v++)
		na *= S;
	for (a = 0; a < na; a++) {
		long x = a;
		int m, ok = 1;
		memset(cnt, 0, sizeof cnt);
		for (v = 0; v < g; v++) {
			asg[v] = (int)(x % S);
			x /= S;
			cnt[asg[v]]++;
		}
		for (m = 0; m < S; m++)
			ok &= cnt[m] <= f[m];
		if (ok)
			best = sb_min(best, sb_jobgraph_cut(h, asg));
	}
	return best;
}

static void check_placement(const struct sb_jobgraph *h, const int *f, int S,
			    const int *srv, double cut)
{
	int cnt[64] = { 0 }, v, m;
	for (v = 0; v < h->nv; v++) {
		cr_assert(srv[v] >= 0 && srv[v] < S);
		cnt[srv[v]]++;
	}
	for (m = 0; m < S; m++)
		cr_assert(cnt[m] <= f[m], "server %d: %d workers, %d free", m, cnt[m], f[m]);
	cr_assert(cut == sb_jobgraph_cut(h, srv), "reported cut is the placement's");
}

Test(clbound, placement_ilp_equals_brute_force)
{
	static const struct {
		const char *model;
		int d, t, p;
	} jobs[] = {
		{ "bert-base", 2, 2, 1 }, { "vgg16", 2, 1, 2 }, { "gpt2-medium", 1, 2, 3 },
		{ "bert-base", 3, 2, 1 }, { "resnet50", 6, 1, 1 }, { "gpt2-medium", 2, 3, 1 },
		{ "bert-large", 1, 1, 5 }, { "gpt2-large", 1, 2, 2 },
	};
	struct sb_cluster c = tiny_cluster(4, 4);
	struct sb_rng r = sb_rng_stream(17, 0, 0, SB_RNG_TEST);
	int nc, k, trial, nontrivial = 0;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	for (k = 0; k < (int)(sizeof jobs / sizeof jobs[0]); k++) {
		struct sb_job j = job_of(jobs[k].model, jobs[k].d, jobs[k].t, jobs[k].p);
		struct sb_jobgraph h;
		sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
		for (trial = 0; trial < 8; trial++) {
			int S = 2 + (int)sb_rng_below(&r, 3), f[4], m, sum, srv[16], status;
			double cut, bf;
			struct sb_err err;
			do {
				for (sum = 0, m = 0; m < S; m++) {
					f[m] = (int)sb_rng_below(&r, (uint32_t)j.gpus);
					sum += f[m];
				}
			} while (sum < j.gpus);
			bf = brute_cut(&h, f, S);
			cr_assert_eq(sb_cluster_place_ilp(&h, f, S, 0, &cut, srv, &status, &err), 0,
				     "%s", err.msg);
			cr_assert_eq(status, SB_LP_OPTIMAL);
			check_placement(&h, f, S, srv, cut);
			cr_assert(fabs(cut - bf) <= 1e-9 * (1 + bf), "%s (%d,%d,%d) on %d servers: ILP "
				  "%.12g, brute force %.12g", jobs[k].model, j.d, j.t, j.p, S, cut, bf);
			/* the spec's model as written agrees */
			cr_assert_eq(sb_cluster_place_ilp_spec(&h, f, S, 0, &cut, srv, &status, &err),
				     0, "%s", err.msg);
			cr_assert_eq(status, SB_LP_OPTIMAL);
			check_placement(&h, f, S, srv, cut);
			cr_assert(fabs(cut - bf) <= 1e-9 * (1 + bf), "spec model %.12g, brute force "
				  "%.12g", cut, bf);
			nontrivial += bf > 0;
		}
		sb_jobgraph_release(&h);
	}
	cr_assert_gt(nontrivial, 30);
}

/* Places one job with the run's placer while blocker jobs (one GPU each)
 * hold the GPUs of blocked[]: jobs 0..nb-1 are the blockers, job nb the
 * target. */
static const int *block_gpu;
static int block_n;

static void block_schedule(void *ctx, struct sb_csim *s)
{
	int j, n = sb_cluster_sim_njobs(s);
	(void)ctx;
	for (j = 0; j < block_n; j++)
		if (sb_cluster_sim_state(s, j) == SB_JOB_PENDING)
			sb_cluster_sim_start_on(s, j, &block_gpu[j]);
	for (j = block_n; j < n; j++)
		if (sb_cluster_sim_state(s, j) == SB_JOB_PENDING)
			cr_assert_eq(sb_cluster_sim_start(s, j), 0, "the target fits");
}

static const struct sb_cluster_policy blocker = {
	.name = "blocker", .schedule = block_schedule, .default_place = "packed",
};

/* Cut of the placer's choice for target job t with GPUs busy[] held. */
static double placer_cut(const struct sb_cluster *c, const struct sb_cluster_policy *placer,
			 const struct sb_job *t, const unsigned char *busy,
			 const struct sb_jobgraph *h)
{
	struct sb_jobset js;
	struct sb_cluster_combo cb;
	struct sb_cluster_result r;
	struct sb_err err;
	char why[256];
	int N = c->nserver * c->gpus, x, nb = 0, k, v, srv[64], *gpu = sb_xcalloc((size_t)N, sizeof(int));
	double cut = NAN;

	for (x = 0; x < N; x++)
		if (busy[x])
			gpu[nb++] = x;
	empty_set(&js, nb + 1);
	for (k = 0; k < nb; k++) {
		js.job[k] = job_of("resnet50", 1, 1, 1);
		js.job[k].id = k;
		js.job[k].iters = 1;
	}
	js.job[nb] = *t;
	js.job[nb].id = nb;
	block_gpu = gpu;
	block_n = nb;
	memset(&cb, 0, sizeof cb);
	cb.sched = &blocker;
	cb.place = placer;
	snprintf(cb.label, sizeof cb.label, "blocker+%s", placer->name);
	cr_assert_eq(simulate(c, &js, &cb, &r, &err), 0, "%s: %s", cb.label, err.msg);
	cr_assert_eq(sb_cluster_check(c, &js, &r, why, sizeof why), 0, "%s: %s", cb.label, why);
	for (k = 0; k < r.nseg; k++)
		if (r.seg[k].job == nb) {
			for (v = 0; v < t->gpus; v++) {
				int g = r.gpu[r.seg[k].gpu_off + v];
				cr_assert(!busy[g], "%s used a busy GPU", placer->name);
				srv[v] = g / c->gpus;
			}
			cut = sb_jobgraph_cut(h, srv);
			cr_assert(fabs(cut - r.seg[k].cut) <= 1e-9 * (1 + cut));
		}
	cr_assert(!isnan(cut), "target placed");
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
	sb_free(gpu);
	return cut;
}

/* The ILP's cut is never above the cut of any registered placer's choice,
 * on an empty cluster and on partly occupied ones, nor above the
 * reference placement's on an empty cluster. */
Test(clbound, placement_ilp_below_every_placer)
{
	static const struct {
		const char *cluster, *model;
		int d, t, p;
	} cases[] = {
		{ "testbed", "gpt2-medium", 2, 2, 2 }, { "testbed", "bert-large", 2, 1, 4 },
		{ "testbed", "vgg16", 2, 1, 2 }, { "testbed", "resnet50", 12, 1, 1 },
		{ "sim128", "gpt2-medium", 2, 2, 2 }, { "sim128", "gpt2-large", 2, 4, 2 },
		{ "sim128", "gpt2-medium", 4, 2, 2 }, { "sim128", "bert-large", 4, 2, 1 },
	};
	struct sb_rng r = sb_rng_stream(23, 0, 0, SB_RNG_TEST);
	int nc, ns, k, occ, a, compared = 0;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	const struct sb_cluster_policy *const *all = sb_cluster_policies(&ns);

	for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
		struct sb_cluster c;
		struct sb_err err;
		struct sb_job j = job_of(cases[k].model, cases[k].d, cases[k].t, cases[k].p);
		struct sb_jobgraph h;
		int N, x, m;
		cr_assert_eq(sb_cluster_named(cases[k].cluster, &c, &err), 0);
		N = c.nserver * c.gpus;
		sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
		for (occ = 0; occ < 4; occ++) {
			unsigned char busy[512];
			int f[64], srv[64], status, nfree;
			double cut;
			/* occupancy 0: empty; else each GPU busy with probability
			 * 1/4, 1/2, 3/4 while enough stay free */
			do {
				nfree = 0;
				for (m = 0; m < c.nserver; m++)
					f[m] = 0;
				for (x = 0; x < N; x++) {
					busy[x] = occ > 0 && sb_rng_below(&r, 4) < (uint32_t)occ;
					if (!busy[x]) {
						f[x / c.gpus]++;
						nfree++;
					}
				}
			} while (nfree < j.gpus);
			cr_assert_eq(sb_cluster_place_ilp(&h, f, c.nserver, 200000, &cut, srv, &status,
							  &err), 0, "%s", err.msg);
			cr_assert_eq(status, SB_LP_OPTIMAL, "%s (%d,%d,%d): %s", cases[k].model, j.d,
				     j.t, j.p, sb_lp_status_name(status));
			check_placement(&h, f, c.nserver, srv, cut);
			if (occ == 0) {
				double ref;
				sb_job_ref_placement(&c, &h, srv);
				ref = sb_jobgraph_cut(&h, srv);
				cr_assert(cut <= ref * (1 + 1e-9) + 1e-9, "ILP %.9g > reference %.9g",
					  cut, ref);
			}
			for (a = 0; a < ns; a++) {
				double pc;
				if (!all[a]->place)
					continue;
				pc = placer_cut(&c, all[a], &j, busy, &h);
				cr_assert(cut <= pc * (1 + 1e-9) + 1e-9, "%s (%d,%d,%d) on %s, "
					  "occupancy %d: ILP cut %.9g > %s's %.9g", cases[k].model, j.d,
					  j.t, j.p, c.name, occ, cut, all[a]->name, pc);
				compared++;
			}
		}
		sb_jobgraph_release(&h);
	}
	cr_assert_gt(compared, 60);
}

/* ------------------------------------------------------------------ */
/* Bad input                                                           */
/* ------------------------------------------------------------------ */

Test(clbound, bad_input)
{
	struct sb_cluster c = tiny_cluster(2, 4), big = tiny_cluster(5, 4);
	struct sb_jobset js;
	struct sb_err err;
	struct sb_jobgraph h;
	struct sb_job j = job_of("gpt2-medium", 2, 2, 2);
	int nc, f[2] = { 3, 4 }, srv[8], st, ls, us;
	double lb, L, U, cut;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	tiny_w1(&js, &c, 6, 8, 9);
	cr_expect_eq(sb_cluster_lb2(&c, &js, NULL, 0, 100, 0, &lb, NULL, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "horizon") != NULL, "%s", err.msg);
	cr_expect_eq(sb_cluster_lb2(&c, &js, NULL, NAN, 100, 0, &lb, NULL, &err), SB_EXIT_INPUT);
	cr_expect_eq(sb_cluster_lb2(&c, &js, NULL, 100, 1000000, 0, &lb, NULL, &err),
		     SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "slots") != NULL, "%s", err.msg);
	cr_expect_eq(sb_cluster_opt_tiny(&big, &js, 0, 0, &L, &U, &ls, &us, NULL, &err),
		     SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "tiny") != NULL, "%s", err.msg);
	cr_expect_eq(sb_cluster_opt_tiny(&c, &js, NAN, 0, &L, &U, &ls, &us, NULL, &err),
		     SB_EXIT_INPUT);
	cr_expect_eq(sb_cluster_opt_tiny(&c, &js, 1e-9, 0, &L, &U, &ls, &us, NULL, &err),
		     SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "too") != NULL, "%s", err.msg);
	js.job[2].arrival = -1;
	cr_expect_eq(sb_cluster_lb2(&c, &js, NULL, 100, 100, 0, &lb, NULL, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "arrival") != NULL, "%s", err.msg);
	cr_expect_eq(sb_cluster_opt_tiny(&c, &js, 0, 0, &L, &U, &ls, &us, NULL, &err),
		     SB_EXIT_INPUT);
	sb_jobset_release(&js);

	sb_jobgraph_build(&h, &j, &cat[j.model].model, &c);
	f[0] = 3;
	f[1] = 4;
	cr_expect_eq(sb_cluster_place_ilp(&h, f, 2, 0, &cut, srv, &st, &err), SB_EXIT_INPUT);
	cr_expect(strstr(err.msg, "free") != NULL, "%s", err.msg);
	f[1] = -1;
	cr_expect_eq(sb_cluster_place_ilp(&h, f, 2, 0, &cut, srv, &st, &err), SB_EXIT_INPUT);
	sb_jobgraph_release(&h);
}

/* ------------------------------------------------------------------ */
/* Slow: W1 on sim128                                                  */
/* ------------------------------------------------------------------ */

struct w1ctx {
	double lb;
};

static void check_w1(void *ctx, const char *label, const struct sb_cluster_result *r)
{
	struct w1ctx *x = ctx;
	cr_assert(x->lb <= total(r) * (1 + 1e-6), "%s: max(LB1, LB2) %.9g > sum C %.9g", label,
		  x->lb, total(r));
}

/* W1, 100 jobs at load 0.8 on sim128 (spec §8): LB2 solves within its
 * iteration limit, and max(LB1, LB2) is below every run. */
Test(slow, clbound_w1_sim128, .timeout = 600)
{
	struct sb_cluster c;
	struct sb_jobset js;
	struct sb_w1_params p;
	struct sb_lp_result res;
	struct sb_err err;
	struct w1ctx x;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	double *tl, lb1, lb2;

	cr_assert_eq(sb_cluster_named("sim128", &c, &err), 0);
	sb_w1_defaults(&p);
	p.njobs = 100;
	p.load = 0.8;
	sb_w1_generate(&js, &p, &c, &r);
	tl = sb_xcalloc((size_t)js.n, sizeof *tl);
	sb_cluster_tau_lb(&c, &js, tl);
	lb1 = sb_cluster_lb1(&c, &js, tl);
	cr_assert_eq(sb_cluster_lb2(&c, &js, tl, fifo_horizon(&c, &js), 0, 0, &lb2, &res, &err),
		     0, "%s", err.msg);
	cr_assert_eq(res.status, SB_LP_OPTIMAL, "%s", sb_lp_status_name(res.status));
	sb_lp_result_release(&res);
	x.lb = sb_max(lb1, lb2);
	cr_assert_gt(every_run(&c, &js, check_w1, &x), 20);
	sb_free(tl);
	sb_jobset_release(&js);
}
