/*
 * test_base.c - the dag-family baselines of baselines/dag/: published
 * values of HEFT and CPOP on the Topcuoglu example and on the random
 * instance of the mackncheesiest/heft tests, and properties of every
 * baseline on seeded random instances (complete and valid placements,
 * valid plans, determinism, FastestNode and m-TOPO rules), also through
 * the project's checker and simulator.
 */
#include <criterion/criterion.h>

#include "dag/dag.h"
#include "dag/util.h"
#include "rng.h"
#include "workloads/dag/load.h"
#include "tests/testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const all_baselines[] = {
	"hash", "random", "fastest", "heft", "cpop", "etf", "m-topo", "m-etf",
	"m-sct",
};
#define NBASE ((int)(sizeof all_baselines / sizeof all_baselines[0]))

static int is_planner(const char *name)
{
	return !strcmp(name, "heft") || !strcmp(name, "cpop") ||
	       !strcmp(name, "etf") || !strcmp(name, "m-etf") ||
	       !strcmp(name, "m-sct");
}

/* ------------------------------------------------------------------ */
/* Instances                                                           */
/* ------------------------------------------------------------------ */

/* Allocate an instance of n ops on nd CPU devices of speed 1, infinite
 * memory, rate r between distinct devices; the caller fills the rest and
 * calls inst_finish. */
static void inst_alloc(struct sb_dag_inst *in, int n, int nd, double r)
{
	int d, e;

	memset(in, 0, sizeof *in);
	sb_dag_alloc(&in->g, n);
	sb_devices_alloc(&in->dev, nd);
	for (d = 0; d < nd; d++) {
		in->dev.speed[d] = 1;
		in->dev.mem[d] = INFINITY;
		in->dev.type[d] = SB_DEV_CPU;
		for (e = 0; e < nd; e++)
			in->dev.rate[d * nd + e] = d == e ? 0 : r;
	}
}

static void inst_finish(struct sb_dag_inst *in, int ne, const int *eu,
			const int *ev, const double *es, int np, const int *cu,
			const int *cv)
{
	struct sb_err err = { 0 };
	int rc = sb_dag_finish(&in->g, ne, eu, ev, es, np, cu, cv, &err);
	cr_assert_eq(rc, 0, "sb_dag_finish: %s", err.msg);
}

/* An ETC instance: n tasks x nd processors, edges with data sizes, the
 * same bandwidth between every pair of processors. */
static void etc_inst(struct sb_dag_inst *in, int n, int nd, const double *etc,
		     int ne, const int *eu, const int *ev, const double *es,
		     double bw)
{
	int v;

	inst_alloc(in, n, nd, bw);
	in->etc = SB_NEW(double, n * nd);
	memcpy(in->etc, etc, sizeof(double) * (size_t)(n * nd));
	for (v = 0; v < n; v++)
		in->g.ops[v] = 1;
	inst_finish(in, ne, eu, ev, es, 0, NULL, NULL);
}

/* Topcuoglu et al. 2002, Fig. 2 (heft/canonicalgraph_*.csv, 0-based). */
static const double canon_etc[10 * 3] = {
	14, 16, 9,   13, 19, 18,  11, 13, 19,  13, 8, 17,  12, 13, 10,
	13, 16, 9,   7, 15, 11,   5, 11, 14,   18, 12, 20, 21, 7, 16,
};
static const int canon_u[15] = { 0, 0, 0, 0, 0, 1, 1, 2, 3, 3, 4, 5, 6, 7, 8 };
static const int canon_v[15] = { 1, 2, 3, 4, 5, 7, 8, 6, 7, 8, 8, 7, 9, 9, 9 };
static const double canon_c[15] = { 18, 12, 9, 11, 14, 19, 16, 23, 27, 23,
				     13, 15, 17, 11, 13 };

static void canonical(struct sb_dag_inst *in)
{
	etc_inst(in, 10, 3, canon_etc, 15, canon_u, canon_v, canon_c, 1.0);
}

/* The random 10-task instance of mackncheesiest/heft (bandwidth 10). */
static const double rand_etc[10 * 3] = {
	61.548682758145361, 64.389928361294437, 56.956643234509066,
	29.92438358041187, 32.999529875092506, 29.052012667086856,
	34.795066036177637, 41.791086020956406, 70.890745398732406,
	11.572427129437834, 10.256052121397312, 14.490725798969592,
	65.468709708096071, 44.920709995621507, 48.067604992476021,
	60.17616771105574, 59.462219351891562, 63.246392587479008,
	6.2808635728926205, 12.132941850344814, 12.274356537167634,
	20.815139929322754, 14.294726681242143, 28.058854927656977,
	49.128402103772977, 17.220031692337542, 30.205307529777308,
	21.677390961929117, 20.178478534373063, 15.858803852837923,
};
static const int rand_u[17] = { 0, 0, 0, 0, 1, 1, 1, 2, 3, 3, 4, 4, 4, 5, 6, 7, 8 };
static const int rand_v[17] = { 1, 2, 3, 4, 5, 8, 9, 8, 6, 9, 5, 7, 8, 9, 9, 9, 9 };
static const double rand_c[17] = { 90, 43, 56, 83, 50, 62, 18, 99, 23, 3, 88,
				   48, 20, 89, 17, 47, 68 };

static void heft_random(struct sb_dag_inst *in)
{
	etc_inst(in, 10, 3, rand_etc, 17, rand_u, rand_v, rand_c, 10.0);
}

/* ------------------------------------------------------------------ */
/* Running a baseline and checking its output                          */
/* ------------------------------------------------------------------ */

static const struct sb_dag_policy *policy(const char *name)
{
	const struct sb_dag_policy *p = sb_dag_policy_find(name);
	cr_assert(p, "policy '%s' is not registered", name);
	cr_assert(p->partition, "policy '%s' has no partition hook", name);
	return p;
}

static int run(const char *name, const struct sb_dag_inst *in, uint64_t seed,
	       struct sb_dag_plan *plan, struct sb_err *err)
{
	const struct sb_dag_policy *p = policy(name);
	struct sb_opts o;
	struct sb_rng rng = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(name));

	sb_opts_defaults(&o, p->params);
	sb_dag_plan_init(plan, in->g.n);
	memset(err, 0, sizeof *err);
	return p->partition(in, &o, &rng, plan, err);
}

static double tol_of(double x)
{
	return 1e-9 * (fabs(x) > 1 ? fabs(x) : 1);
}

/* Placement complete, allowed, colocated and within memory; "" if valid,
 * else the first violation in msg. */
static const char *check_place(const struct sb_dag_inst *in, const int *place,
			       char *msg, size_t len)
{
	const struct sb_dag *g = &in->g;
	int *cdev = SB_NEW(int, g->ncomp);
	double *used = SB_NEW(double, in->dev.n);
	int v, k, d;

	msg[0] = 0;
	for (k = 0; k < g->ncomp; k++)
		cdev[k] = -1;
	for (v = 0; v < g->n && !msg[0]; v++) {
		d = place[v];
		if (d < 0 || d >= in->dev.n)
			snprintf(msg, len, "op %d unplaced (%d)", v, d);
		else if (!sb_dag_allowed(in, v, d))
			snprintf(msg, len, "op %d on forbidden device %d", v, d);
		else if (cdev[g->comp[v]] >= 0 && cdev[g->comp[v]] != d)
			snprintf(msg, len, "op %d off its component's device", v);
		else {
			cdev[g->comp[v]] = d;
			used[d] += sb_dag_mem(in, v);
		}
	}
	for (d = 0; d < in->dev.n && !msg[0]; d++)
		if (used[d] > in->dev.mem[d] * (1 + 1e-9))
			snprintf(msg, len, "device %d over memory: %g > %g", d, used[d],
				 in->dev.mem[d]);
	sb_free(cdev);
	sb_free(used);
	return msg;
}

struct ival {
	double s, f;
	int v;
};

static int ival_cmp(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return x->v - y->v;
}

/* The planned schedule of a list scheduler: durations, precedence with
 * transfer delays, one op at a time per device, makespan = max finish. */
static const char *check_plan(const struct sb_dag_inst *in,
			      const struct sb_dag_plan *p, char *msg, size_t len)
{
	const struct sb_dag *g = &in->g;
	struct ival *iv = SB_NEW(struct ival, g->n);
	double mk = 0, tol;
	int v, k, i, ni;

	msg[0] = 0;
	for (v = 0; v < g->n; v++)
		mk = fmax(mk, p->plan_finish[v]);
	tol = tol_of(mk);
	if (!p->has_plan)
		snprintf(msg, len, "no plan");
	else if (fabs(p->plan_makespan - mk) > tol)
		snprintf(msg, len, "makespan %.17g but largest finish %.17g",
			 p->plan_makespan, mk);
	for (v = 0; v < g->n && !msg[0]; v++) {
		double w = sb_dag_time(in, v, p->place[v]);
		if (!(p->plan_start[v] >= -tol) ||
		    fabs(p->plan_finish[v] - p->plan_start[v] - w) > tol)
			snprintf(msg, len, "op %d: [%g, %g] for time %g", v,
				 p->plan_start[v], p->plan_finish[v], w);
		for (k = g->pred_off[v]; k < g->pred_off[v + 1] && !msg[0]; k++) {
			int u = g->pred[k];
			double arr = p->plan_finish[u] +
				sb_dag_xfer(in, g->succ_size[g->pred_edge[k]],
					    p->place[u], p->place[v]);
			if (p->plan_start[v] < arr - tol)
				snprintf(msg, len, "edge %d->%d: start %.17g before arrival %.17g",
					 u, v, p->plan_start[v], arr);
		}
	}
	for (i = 0; i < in->dev.n && !msg[0]; i++) {
		ni = 0;
		for (v = 0; v < g->n; v++)
			if (p->place[v] == i && p->plan_finish[v] > p->plan_start[v])
				iv[ni++] = (struct ival){ p->plan_start[v], p->plan_finish[v], v };
		qsort(iv, (size_t)ni, sizeof *iv, ival_cmp);
		for (k = 1; k < ni && !msg[0]; k++)
			if (iv[k].s < iv[k - 1].f - tol)
				snprintf(msg, len, "device %d: ops %d and %d overlap", i,
					 iv[k - 1].v, iv[k].v);
	}
	sb_free(iv);
	return msg;
}

/* ------------------------------------------------------------------ */
/* Registry                                                            */
/* ------------------------------------------------------------------ */

Test(dagbase, registered)
{
	int i;

	for (i = 0; i < NBASE; i++) {
		const struct sb_dag_policy *p = policy(all_baselines[i]);
		cr_expect_str_eq(p->name, all_baselines[i]);
		cr_expect(p->cite && p->cite[0] && p->desc && p->desc[0]);
		cr_expect(p->provenance && p->provenance[0]);
		cr_expect(p->default_sched != NULL);
		cr_expect_str_eq(p->default_sched,
				 is_planner(p->name) ? "heft-order" : "fifo",
				 "%s: default scheduler %s", p->name, p->default_sched);
		cr_expect(!p->priority && !p->pick, "%s is not a scheduler", p->name);
	}
}

/* ------------------------------------------------------------------ */
/* Published values                                                    */
/* ------------------------------------------------------------------ */

Test(dagbase, heft_canonical_80)
{
	/* Expected schedule (SOURCES.md section 3, 0-based tasks). */
	static const int dev[10] = { 2, 0, 2, 1, 2, 1, 2, 0, 1, 1 };
	static const double st[10] = { 0, 27, 9, 18, 28, 26, 38, 57, 56, 73 };
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	char msg[256];
	int v;

	canonical(&in);
	cr_assert_eq(run("heft", &in, 1, &p, &err), 0, "%s", err.msg);
	cr_expect_float_eq(p.plan_makespan, 80.0, 1e-9);
	cr_expect_str_empty(check_plan(&in, &p, msg, sizeof msg), "%s", msg);
	for (v = 0; v < 10; v++) {
		cr_expect_eq(p.place[v], dev[v], "T%d on P_%d", v, p.place[v]);
		cr_expect_float_eq(p.plan_start[v], st[v], 1e-9, "T%d starts %g", v,
				   p.plan_start[v]);
	}
	sb_dag_plan_release(&p);
	sb_dag_inst_release(&in);
}

Test(dagbase, cpop_canonical_86)
{
	static const int cp[4] = { 0, 1, 8, 9 };  /* paper: 1, 2, 9, 10 */
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	char msg[256];
	int i;

	canonical(&in);
	cr_assert_eq(run("cpop", &in, 1, &p, &err), 0, "%s", err.msg);
	cr_expect_float_eq(p.plan_makespan, 86.0, 1e-9);
	cr_expect_str_empty(check_plan(&in, &p, msg, sizeof msg), "%s", msg);
	for (i = 0; i < 4; i++)
		cr_expect_eq(p.place[cp[i]], 1, "CP task %d on P_%d, not the paper's P2",
			     cp[i] + 1, p.place[cp[i]]);
	sb_dag_plan_release(&p);
	sb_dag_inst_release(&in);
}

Test(dagbase, heft_random_instance)
{
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	char msg[256];
	int loaded = 0;

	const char *exe = sb_test_data("heft/randomgraph_task_exe_time.csv");
	if (exe) {
		char prefix[1024];
		size_t len = strlen(exe) - strlen("_task_exe_time.csv");
		memcpy(prefix, exe, len);
		prefix[len] = 0;
		memset(&err, 0, sizeof err);
		cr_assert_eq(sb_load_etc_prefix(prefix, &in, &err), 0, "%s", err.msg);
		loaded = 1;
	} else {
		heft_random(&in);
	}
	cr_assert_eq(run("heft", &in, 1, &p, &err), 0, "%s", err.msg);
	/* We get 184.1294 = 168.2706 + w(T9, P_2) = 15.8588; the published
	 * 184.1923 (asserted upstream with a relative 1e-3) is not start plus
	 * that time, so only the tolerance test is meaningful. */
	cr_expect(fabs(p.plan_makespan - 184.1923) <= 1e-3 * 184.1923,
		  "heft makespan %.6f (loaded from file: %d)", p.plan_makespan, loaded);
	cr_expect_eq(p.place[9], 2);
	cr_expect(fabs(p.plan_start[9] - 168.2705) < 1e-3, "T9 starts %.6f",
		  p.plan_start[9]);
	cr_expect_str_empty(check_plan(&in, &p, msg, sizeof msg), "%s", msg);
	sb_dag_plan_release(&p);
	sb_dag_inst_release(&in);

	/* The inline transcription and the file agree. */
	if (loaded) {
		heft_random(&in);
		cr_assert_eq(run("heft", &in, 1, &p, &err), 0, "%s", err.msg);
		cr_expect(fabs(p.plan_makespan - 184.1923) <= 1e-3 * 184.1923);
		sb_dag_plan_release(&p);
		sb_dag_inst_release(&in);
	}
}

/* Heaviest path with every op at its fastest time and free transfers. */
static double path_bound(const struct sb_dag_inst *in)
{
	const struct sb_dag *g = &in->g;
	double *b = SB_NEW(double, g->n), best = 0;
	int i, k, d;

	for (i = g->n - 1; i >= 0; i--) {
		int v = g->topo[i];
		double t = INFINITY, m = 0;
		for (d = 0; d < in->dev.n; d++)
			if (sb_dag_allowed(in, v, d))
				t = fmin(t, sb_dag_time(in, v, d));
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
			m = fmax(m, b[g->succ[k]]);
		b[v] = t + m;
		best = fmax(best, b[v]);
	}
	sb_free(b);
	return best;
}

/* Every baseline on the canonical example. */
Test(dagbase, canonical_all_baselines)
{
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	char msg[256];
	int i;

	canonical(&in);
	for (i = 0; i < NBASE; i++) {
		cr_assert_eq(run(all_baselines[i], &in, 7, &p, &err), 0, "%s: %s",
			     all_baselines[i], err.msg);
		cr_expect_str_empty(check_place(&in, p.place, msg, sizeof msg), "%s: %s",
				    all_baselines[i], msg);
		if (is_planner(all_baselines[i])) {
			cr_expect_str_empty(check_plan(&in, &p, msg, sizeof msg), "%s: %s",
					    all_baselines[i], msg);
			cr_expect(p.plan_makespan >= path_bound(&in) - 1e-9);
		}
		sb_dag_plan_release(&p);
	}
	sb_dag_inst_release(&in);
}

/* ------------------------------------------------------------------ */
/* Seeded random instances                                             */
/* ------------------------------------------------------------------ */

struct gen_info {
	int constrained;  /* some components need a device type */
	int etc_holes;    /* the ETC matrix has INFINITY entries */
	int mem_binding;  /* finite memory that binds */
	int colocated;    /* colocation pairs were drawn */
};

static double uni(struct sb_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * sb_rng_uniform(r);
}

/*
 * A random DAG of 1..40 ops (edges between a random permutation of ids),
 * colocation groups, CPU/GPU constraints, 1..6 heterogeneous devices,
 * sometimes an ETC matrix with forbidden pairs, sometimes binding memory.
 * Memory is generous enough that any greedy placement fits: a device
 * offers maxcomp + total * share, shares summing to >= 1.
 */
static void gen(struct sb_dag_inst *in, uint64_t seed, struct gen_info *gi)
{
	struct sb_rng r = sb_rng_stream(seed, 1, 0, SB_RNG_TEST);
	int n = (int)sb_rng_int(&r, 1, 40), nd = (int)sb_rng_int(&r, 1, 6);
	int *perm = SB_NEW(int, n), *eu = SB_NEW(int, n * n), *ev = SB_NEW(int, n * n);
	int *cu = SB_NEW(int, n), *cv = SB_NEW(int, n);
	double *es = SB_NEW(double, n * n), p = uni(&r, 0.02, 0.4);
	int ne = 0, np = 0, i, j, d, e, v, k;
	struct sb_dag_comps c;

	memset(gi, 0, sizeof *gi);
	inst_alloc(in, n, nd, 1);
	for (i = 0; i < n; i++)
		perm[i] = i;
	sb_rng_shuffle_int(&r, perm, (size_t)n);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (sb_rng_bernoulli(&r, p)) {
				eu[ne] = perm[i];
				ev[ne] = perm[j];
				es[ne++] = (double)sb_rng_int(&r, 1, 100);
			}
	if (sb_rng_bernoulli(&r, 0.6)) {
		gi->colocated = 1;
		np = (int)sb_rng_int(&r, 0, n / 3);
		for (i = 0; i < np; i++) {
			cu[i] = (int)sb_rng_below(&r, (uint32_t)n);
			cv[i] = (int)sb_rng_below(&r, (uint32_t)n);
		}
	}
	for (v = 0; v < n; v++) {
		in->g.ops[v] = (double)sb_rng_int(&r, 0, 100);
		in->g.out[v] = (double)sb_rng_int(&r, 1, 100);
		in->g.ram[v] = (double)sb_rng_int(&r, 1, 100);
	}
	/* speeds with occasional ties */
	for (d = 0; d < nd; d++) {
		in->dev.speed[d] = sb_rng_bernoulli(&r, 0.3) ? 50 : (double)sb_rng_int(&r, 10, 100);
		in->dev.type[d] = sb_rng_bernoulli(&r, 0.6) ? SB_DEV_CPU : SB_DEV_GPU;
	}
	for (d = 0; d < nd; d++)
		for (e = d + 1; e < nd; e++) {
			double rate = sb_rng_bernoulli(&r, 0.1) ? INFINITY
				: (double)sb_rng_int(&r, 10, 60);
			in->dev.rate[d * nd + e] = in->dev.rate[e * nd + d] = rate;
		}
	in->send_ops = sb_rng_bernoulli(&r, 0.5) ? 10 : 0;
	inst_finish(in, ne, eu, ev, es, np, cu, cv);

	sb_dag_comps_build(&c, in);
	if (nd >= 2 && sb_rng_bernoulli(&r, 0.3)) {
		/* both types present; some components need one of them */
		gi->constrained = 1;
		in->dev.type[0] = SB_DEV_CPU;
		in->dev.type[1] = SB_DEV_GPU;
		for (k = 0; k < c.n; k++)
			if (sb_rng_bernoulli(&r, 0.2)) {
				int m = c.off[k] + (int)sb_rng_below(&r, (uint32_t)(c.off[k + 1] - c.off[k]));
				in->g.dc[c.member[m]] = sb_rng_bernoulli(&r, 0.5) ? SB_DEV_CPU : SB_DEV_GPU;
			}
	}
	if (sb_rng_bernoulli(&r, 0.25)) {
		/* unrelated machines; device 0 always allowed unless typed */
		in->etc = SB_NEW(double, n * nd);
		gi->etc_holes = !gi->constrained && sb_rng_bernoulli(&r, 0.5);
		for (v = 0; v < n; v++)
			for (d = 0; d < nd; d++)
				in->etc[v * nd + d] = gi->etc_holes && d > 0 &&
					sb_rng_bernoulli(&r, 0.15) ? INFINITY
					: in->g.ops[v] * uni(&r, 0.5, 2.0) / in->dev.speed[d];
	}
	if (!gi->constrained && !gi->etc_holes && sb_rng_bernoulli(&r, 0.4)) {
		double total = 0, big = 0, wsum = 0, *w = SB_NEW(double, nd);
		double f = uni(&r, 1.0, 1.5);
		gi->mem_binding = 1;
		for (k = 0; k < c.n; k++) {
			total += c.mem[k];
			big = fmax(big, c.mem[k]);
		}
		for (d = 0; d < nd; d++)
			wsum += (w[d] = uni(&r, 0.5, 1.5));
		for (d = 0; d < nd; d++)
			in->dev.mem[d] = big + total * f * w[d] / wsum;
		sb_free(w);
	}
	sb_dag_comps_release(&c);
	sb_free(perm);
	sb_free(eu);
	sb_free(ev);
	sb_free(es);
	sb_free(cu);
	sb_free(cv);
}

#define NSEEDS 150

Test(dagbase, random_instances_valid_plans)
{
	uint64_t seed;
	char msg[256];
	int i;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct sb_dag_inst in;
		struct gen_info gi;

		gen(&in, seed, &gi);
		for (i = 0; i < NBASE; i++) {
			const char *name = all_baselines[i];
			struct sb_dag_plan p;
			struct sb_err err;
			int rc = run(name, &in, seed, &p, &err);

			cr_assert_eq(rc, 0, "seed %llu, %s: %s", (unsigned long long)seed,
				     name, err.msg);
			cr_assert_str_empty(check_place(&in, p.place, msg, sizeof msg),
					    "seed %llu, %s: %s", (unsigned long long)seed,
					    name, msg);
			if (is_planner(name))
				cr_assert_str_empty(check_plan(&in, &p, msg, sizeof msg),
						    "seed %llu, %s: %s",
						    (unsigned long long)seed, name, msg);
			else
				cr_assert_eq(p.has_plan, 0, "%s plans", name);
			sb_dag_plan_release(&p);
		}
		sb_dag_inst_release(&in);
	}
}

Test(dagbase, deterministic)
{
	uint64_t seed;
	int i;

	for (seed = 1; seed <= NSEEDS; seed += 3) {
		struct sb_dag_inst in;
		struct gen_info gi;

		gen(&in, seed, &gi);
		for (i = 0; i < NBASE; i++) {
			struct sb_dag_plan a, b;
			struct sb_err err;
			int n = in.g.n;

			cr_assert_eq(run(all_baselines[i], &in, seed, &a, &err), 0, "%s", err.msg);
			cr_assert_eq(run(all_baselines[i], &in, seed, &b, &err), 0, "%s", err.msg);
			cr_expect(!memcmp(a.place, b.place, sizeof(int) * (size_t)n),
				  "seed %llu: %s placement differs", (unsigned long long)seed,
				  all_baselines[i]);
			cr_expect_eq(a.has_plan, b.has_plan);
			if (a.has_plan)
				cr_expect(!memcmp(a.plan_start, b.plan_start, sizeof(double) * (size_t)n) &&
					  !memcmp(a.plan_finish, b.plan_finish, sizeof(double) * (size_t)n),
					  "seed %llu: %s plan differs", (unsigned long long)seed,
					  all_baselines[i]);
			sb_dag_plan_release(&a);
			sb_dag_plan_release(&b);
		}
		sb_dag_inst_release(&in);
	}
}

/* Hash and Random draw from their stream: another seed moves something on
 * at least one of a few instances with several devices. */
Test(dagbase, seeded_policies_use_their_stream)
{
	static const char *const seeded[2] = { "hash", "random" };
	int i, differs[2] = { 0, 0 };
	uint64_t seed;

	for (seed = 1; seed <= 40; seed++) {
		struct sb_dag_inst in;
		struct gen_info gi;

		gen(&in, seed, &gi);
		for (i = 0; i < 2; i++) {
			struct sb_dag_plan a, b;
			struct sb_err err;
			cr_assert_eq(run(seeded[i], &in, 1, &a, &err), 0, "%s", err.msg);
			cr_assert_eq(run(seeded[i], &in, 2, &b, &err), 0, "%s", err.msg);
			differs[i] |= memcmp(a.place, b.place, sizeof(int) * (size_t)in.g.n) != 0;
			sb_dag_plan_release(&a);
			sb_dag_plan_release(&b);
		}
		sb_dag_inst_release(&in);
	}
	cr_expect(differs[0], "hash ignores its seed");
	cr_expect(differs[1], "random ignores its seed");
}

/* FastestNode: with memory to spare, every component sits on the fastest
 * device that allows it (ties to the lower id). */
Test(dagbase, fastest_node_rule)
{
	uint64_t seed;
	int checked = 0;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct sb_dag_inst in;
		struct gen_info gi;
		struct sb_dag_plan p;
		struct sb_dag_comps c;
		struct sb_err err;
		int v;

		gen(&in, seed, &gi);
		cr_assert_eq(run("fastest", &in, seed, &p, &err), 0, "%s", err.msg);
		if (!gi.mem_binding) {
			sb_dag_comps_build(&c, &in);
			for (v = 0; v < in.g.n; v++) {
				int d, want = -1;
				for (d = 0; d < in.dev.n; d++)
					if (sb_dag_comp_allowed(&in, &c, in.g.comp[v], d) &&
					    (want < 0 || in.dev.speed[d] > in.dev.speed[want]))
						want = d;
				cr_expect_eq(p.place[v], want, "seed %llu: op %d on %d, not %d",
					     (unsigned long long)seed, v, p.place[v], want);
			}
			sb_dag_comps_release(&c);
			checked++;
		}
		sb_dag_plan_release(&p);
		sb_dag_inst_release(&in);
	}
	cr_expect(checked >= NSEEDS / 2);
}

/* Unconstrained with infinite memory: one fastest device holds all. */
Test(dagbase, fastest_node_single_device)
{
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	static const int eu[3] = { 0, 1, 0 }, ev[3] = { 1, 2, 2 };
	int v;

	inst_alloc(&in, 3, 4, 10);
	in.dev.speed[0] = 20;
	in.dev.speed[1] = 70;
	in.dev.speed[2] = 70;
	in.dev.speed[3] = 30;
	for (v = 0; v < 3; v++)
		in.g.ops[v] = 10;
	inst_finish(&in, 3, eu, ev, NULL, 0, NULL, NULL);
	cr_assert_eq(run("fastest", &in, 1, &p, &err), 0, "%s", err.msg);
	for (v = 0; v < 3; v++)
		cr_expect_eq(p.place[v], 1);
	sb_dag_plan_release(&p);
	sb_dag_inst_release(&in);
}

/* m-TOPO without type constraints and with unbounded memory: devices fill
 * in id order along the topological order, never above
 * cap = total/|D| + largest component. */
Test(dagbase, m_topo_capacity_rule)
{
	uint64_t seed;
	int checked = 0;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct sb_dag_inst in;
		struct gen_info gi;
		struct sb_dag_plan p;
		struct sb_dag_comps c;
		struct sb_err err;
		double total = 0, big = 0, cap, *used;
		int k, d, i, prev = 0;
		char *seen;

		gen(&in, seed, &gi);
		if (gi.constrained || gi.etc_holes || gi.mem_binding) {
			sb_dag_inst_release(&in);
			continue;
		}
		cr_assert_eq(run("m-topo", &in, seed, &p, &err), 0, "%s", err.msg);
		sb_dag_comps_build(&c, &in);
		for (k = 0; k < c.n; k++) {
			total += c.mem[k];
			big = fmax(big, c.mem[k]);
		}
		cap = total / in.dev.n + big;
		used = SB_NEW(double, in.dev.n);
		seen = SB_NEW(char, c.n);
		for (k = 0; k < c.n; k++)
			used[p.place[c.member[c.off[k]]]] += c.mem[k];
		for (d = 0; d < in.dev.n; d++)
			cr_expect(used[d] <= cap * (1 + 1e-12), "seed %llu: device %d holds %g > cap %g",
				  (unsigned long long)seed, d, used[d], cap);
		for (i = 0; i < in.g.n; i++) {
			int v = in.g.topo[i];
			if (seen[in.g.comp[v]])
				continue;
			seen[in.g.comp[v]] = 1;
			cr_expect(p.place[v] >= prev, "seed %llu: op %d goes back to device %d",
				  (unsigned long long)seed, v, p.place[v]);
			prev = p.place[v];
		}
		sb_free(used);
		sb_free(seen);
		sb_dag_comps_release(&c);
		sb_dag_plan_release(&p);
		sb_dag_inst_release(&in);
		checked++;
	}
	cr_expect(checked >= 20, "only %d instances checked", checked);
}

/* List schedulers without waiting (all but m-SCT) start every op as soon
 * as its inputs are there or when another op on its device finishes. */
Test(dagbase, list_starts_are_tight)
{
	static const char *const names[4] = { "heft", "cpop", "etf", "m-etf" };
	uint64_t seed;
	int i;

	for (seed = 1; seed <= NSEEDS; seed += 2) {
		struct sb_dag_inst in;
		struct gen_info gi;

		gen(&in, seed, &gi);
		for (i = 0; i < 4; i++) {
			struct sb_dag_plan p;
			struct sb_err err;
			int v, w, k;
			cr_assert_eq(run(names[i], &in, seed, &p, &err), 0, "%s", err.msg);
			for (v = 0; v < in.g.n; v++) {
				double ready = 0, t = p.plan_start[v];
				int tight;
				for (k = in.g.pred_off[v]; k < in.g.pred_off[v + 1]; k++) {
					int u = in.g.pred[k];
					ready = fmax(ready, p.plan_finish[u] +
						     sb_dag_xfer(&in, in.g.succ_size[in.g.pred_edge[k]],
								 p.place[u], p.place[v]));
				}
				tight = fabs(t - ready) <= tol_of(t);
				for (w = 0; w < in.g.n && !tight; w++)
					tight = w != v && p.place[w] == p.place[v] &&
						fabs(p.plan_finish[w] - t) <= tol_of(t);
				cr_expect(tight, "seed %llu, %s: op %d waits for nothing",
					  (unsigned long long)seed, names[i], v);
			}
			sb_dag_plan_release(&p);
		}
		sb_dag_inst_release(&in);
	}
}

/* ETF breaks ties by the larger static level, m-ETF (Baechi) by the
 * topological position; both then by the lower device id. Two identical
 * devices, free transfers; op 0 alone, op 1 -> op 2. */
Test(dagbase, etf_ties)
{
	static const int eu[1] = { 1 }, ev[1] = { 2 };
	static const int etf_dev[3] = { 1, 0, 0 }, metf_dev[3] = { 0, 1, 0 };
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	int v;

	inst_alloc(&in, 3, 2, INFINITY);
	in.g.ops[0] = 1;
	in.g.ops[1] = 1;
	in.g.ops[2] = 5;
	inst_finish(&in, 1, eu, ev, NULL, 0, NULL, NULL);
	cr_assert_eq(run("etf", &in, 1, &p, &err), 0, "%s", err.msg);
	for (v = 0; v < 3; v++)
		cr_expect_eq(p.place[v], etf_dev[v], "etf: op %d on %d", v, p.place[v]);
	cr_expect_float_eq(p.plan_makespan, 6.0, 1e-12);
	sb_dag_plan_release(&p);
	cr_assert_eq(run("m-etf", &in, 1, &p, &err), 0, "%s", err.msg);
	for (v = 0; v < 3; v++)
		cr_expect_eq(p.place[v], metf_dev[v], "m-etf: op %d on %d", v, p.place[v]);
	cr_expect_float_eq(p.plan_start[2], 1.0, 1e-12);
	sb_dag_plan_release(&p);
	sb_dag_inst_release(&in);
}

/* m-SCT keeps a device for the favourite child: a (0) -> b (3) carries a
 * costly tensor, z (1) keeps the other device busy until 5, y (2) is
 * independent. m-ETF lets y (earlier in topological order) take the device
 * when a finishes; m-SCT holds it for b, y not being urgent before 5. */
Test(dagbase, m_sct_waits_for_favourite_child)
{
	static const int eu[1] = { 0 }, ev[1] = { 3 };
	static const double es[1] = { 10 };
	struct sb_dag_inst in;
	struct sb_dag_plan p;
	struct sb_err err;
	char msg[256];

	inst_alloc(&in, 4, 2, 1.0);
	in.g.ops[0] = 1;
	in.g.ops[1] = 5;
	in.g.ops[2] = 1;
	in.g.ops[3] = 1;
	inst_finish(&in, 1, eu, ev, es, 0, NULL, NULL);
	cr_assert_eq(run("m-etf", &in, 1, &p, &err), 0, "%s", err.msg);
	cr_expect_float_eq(p.plan_start[2], 1.0, 1e-12);
	cr_expect_float_eq(p.plan_start[3], 2.0, 1e-12);
	sb_dag_plan_release(&p);
	cr_assert_eq(run("m-sct", &in, 1, &p, &err), 0, "%s", err.msg);
	cr_expect_eq(p.place[3], p.place[0]);
	cr_expect_float_eq(p.plan_start[3], 1.0, 1e-12, "b starts %g", p.plan_start[3]);
	cr_expect_float_eq(p.plan_start[2], 2.0, 1e-12, "y starts %g", p.plan_start[2]);
	cr_expect_str_empty(check_plan(&in, &p, msg, sizeof msg), "%s", msg);
	sb_dag_plan_release(&p);
	sb_dag_inst_release(&in);
}

/* The favourite children change m-SCT's plans on some random instances. */
Test(dagbase, m_sct_differs_from_m_etf)
{
	uint64_t seed;
	int differ = 0;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct sb_dag_inst in;
		struct gen_info gi;
		struct sb_dag_plan a, b;
		struct sb_err err;

		gen(&in, seed, &gi);
		cr_assert_eq(run("m-etf", &in, seed, &a, &err), 0, "%s", err.msg);
		cr_assert_eq(run("m-sct", &in, seed, &b, &err), 0, "%s", err.msg);
		differ += memcmp(a.plan_start, b.plan_start, sizeof(double) * (size_t)in.g.n) != 0;
		sb_dag_plan_release(&a);
		sb_dag_plan_release(&b);
		sb_dag_inst_release(&in);
	}
	cr_expect(differ > 0, "m-sct planned like m-etf on all %d instances", NSEEDS);
}

/* ------------------------------------------------------------------ */
/* Bad input                                                           */
/* ------------------------------------------------------------------ */

/* A component that fits on no device: every baseline fails cleanly,
 * naming an op. */
Test(dagbase, no_room_is_an_input_error)
{
	struct sb_dag_inst in;
	static const int eu[2] = { 0, 1 }, ev[2] = { 1, 2 };
	static const int cu[1] = { 0 }, cv[1] = { 2 };
	int v, i;

	inst_alloc(&in, 3, 2, 10);
	for (v = 0; v < 3; v++) {
		in.g.ops[v] = 5;
		in.g.ram[v] = 10;
		in.g.out[v] = 1;
		in.g.ext_id[v] = 100 + v;
	}
	in.dev.mem[0] = in.dev.mem[1] = 15;  /* the {0,2} component needs 24 */
	inst_finish(&in, 2, eu, ev, NULL, 1, cu, cv);
	for (i = 0; i < NBASE; i++) {
		struct sb_dag_plan p;
		struct sb_err err;
		int rc = run(all_baselines[i], &in, 1, &p, &err);
		cr_expect_eq(rc, SB_EXIT_INPUT, "%s: rc %d", all_baselines[i], rc);
		cr_expect(strstr(err.msg, "op 100") != NULL, "%s: '%s'", all_baselines[i],
			  err.msg);
		sb_dag_plan_release(&p);
	}
	sb_dag_inst_release(&in);
}

/* Members of one component requiring different device types. */
Test(dagbase, conflicting_types_is_an_input_error)
{
	struct sb_dag_inst in;
	static const int cu[1] = { 0 }, cv[1] = { 1 };
	int i;

	inst_alloc(&in, 2, 2, 10);
	in.dev.type[1] = SB_DEV_GPU;
	in.g.ops[0] = in.g.ops[1] = 1;
	inst_finish(&in, 0, NULL, NULL, NULL, 1, cu, cv);
	in.g.dc[0] = SB_DEV_CPU;
	in.g.dc[1] = SB_DEV_GPU;
	for (i = 0; i < NBASE; i++) {
		struct sb_dag_plan p;
		struct sb_err err;
		int rc = run(all_baselines[i], &in, 1, &p, &err);
		cr_expect_eq(rc, SB_EXIT_INPUT, "%s: rc %d", all_baselines[i], rc);
		cr_expect(strstr(err.msg, "op 0") != NULL, "%s: '%s'", all_baselines[i],
			  err.msg);
		sb_dag_plan_release(&p);
	}
	sb_dag_inst_release(&in);
}

/* ------------------------------------------------------------------ */
/* Through the project's checker and simulator                         */
/* ------------------------------------------------------------------ */

static void run_combo_ok(const struct sb_dag_inst *in, const char *name,
			 uint64_t seed, struct sb_dag_metrics *m)
{
	struct sb_dag_combo c;
	struct sb_opts po, so;
	struct sb_err err = { 0 };
	struct sb_rng rng = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(name));
	int rc;

	rc = sb_dag_combo_parse(&c, name, &err);
	cr_assert_eq(rc, 0, "%s: %s", name, err.msg);
	sb_opts_defaults(&po, c.part->params);
	sb_opts_defaults(&so, c.sched->params);
	rc = sb_dag_run_combo(in, &c, &po, &so, &rng, m, NULL, &err);
	cr_assert_eq(rc, 0, "seed %llu, %s: %s", (unsigned long long)seed, name, err.msg);
}

Test(dagbase, through_checker_and_simulator)
{
	uint64_t seed;
	int i;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct sb_dag_inst in;
		struct gen_info gi;

		gen(&in, seed, &gi);
		for (i = 0; i < NBASE; i++) {
			struct sb_dag_metrics m;
			run_combo_ok(&in, all_baselines[i], seed, &m);
			cr_expect(isfinite(m.makespan) &&
				  m.makespan >= path_bound(&in) * (1 - 1e-9),
				  "seed %llu, %s: simulated makespan %g",
				  (unsigned long long)seed, all_baselines[i], m.makespan);
			if (is_planner(all_baselines[i]))
				cr_expect(m.plan_makespan >= path_bound(&in) * (1 - 1e-9));
		}
		sb_dag_inst_release(&in);
	}
}

Test(dagbase, canonical_simulated)
{
	struct sb_dag_inst in;
	struct sb_dag_metrics m;

	canonical(&in);
	run_combo_ok(&in, "heft", 1, &m);
	cr_expect_float_eq(m.plan_makespan, 80.0, 1e-9);
	/* heft-order replays the plan's per-device order; here the replay
	 * reaches the planned makespan exactly. */
	cr_expect_float_eq(m.makespan, 80.0, 1e-9, "heft+heft-order simulated %g",
			   m.makespan);
	run_combo_ok(&in, "cpop", 1, &m);
	cr_expect_float_eq(m.plan_makespan, 86.0, 1e-9);
	sb_dag_inst_release(&in);
}
