/*
 * alloc.c - `make bench` for the alloc family (issue #13 speed figures):
 * every greedy policy replaying a 10,000-job trace on 1,024 GPUs (128
 * servers x 8) with 20-minute slots (Philly arrivals when `make data` has
 * run, Poisson otherwise); the GADGET configuration ILP at J = 6, S = 4,
 * T = 10; the PS-locality LP relaxation at 200 jobs x 32 servers x 50
 * slots and 1,000 roundings of it. Wall clock on this machine: measured
 * and printed, never asserted; solver statuses are printed as they are.
 */
#include "alloc/alloc.h"
#include "alloc/bound.h"
#include "algorithms/pslocality/rr.h"
#include "bench.h"
#include "lp.h"
#include "table.h"
#include "workloads/alloc/alloc_wl.h"

#include <stdio.h>
#include <string.h>

static const struct sb_col cols[] = {
	{ "what", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "servers", SB_COL_INT, "" },
	{ "slots", SB_COL_INT, "" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "status", SB_COL_STR, "" },
	{ "value", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static void row(struct sb_table *t, const char *what, const char *policy, int jobs,
		int servers, int slots, double sec, const char *status, double value)
{
	size_t r = sb_table_add(t);
	sb_table_set_str(t, r, "what", what);
	sb_table_set_str(t, r, "policy", policy);
	sb_table_set_int(t, r, "jobs", jobs);
	sb_table_set_int(t, r, "servers", servers);
	sb_table_set_int(t, r, "slots", slots);
	sb_table_set_dbl(t, r, "seconds", sec);
	sb_table_set_str(t, r, "status", status);
	sb_table_set_dbl(t, r, "value", value);
	printf("%-22s %-18s %6d jobs %4d servers %6d slots %9.3f s  %-12s %.6g\n", what, policy,
	       jobs, servers, slots, sec, status, value);
}

static void replay(struct sb_table *t, const char *data)
{
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_alloc_inst in;
	struct sb_trace tr = { 0 };
	struct sb_err err;
	struct sb_rng gen = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	char path[1024];
	int np, i;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&np);

	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_RAR);
	g.njob = 10000;
	g.nserver = 128;
	g.gpus = 8;
	snprintf(path, sizeof path, "%s/philly/jobs.json", data);
	if (sb_load_philly_jobs(path, &tr, &err) == 0 && tr.n >= 1000) {
		/* Philly has 3,034 jobs: the trace is cycled, each lap shifted
		 * by the span of the trace */
		struct sb_trace big = { 0 };
		double span = tr.job[tr.n - 1].submit + 1;
		big.n = g.njob;
		big.job = SB_NEW(struct sb_trace_job, g.njob);
		for (i = 0; i < g.njob; i++) {
			big.job[i] = tr.job[i % tr.n];
			big.job[i].submit += span * (i / tr.n);
		}
		snprintf(big.source, sizeof big.source, "philly x%d laps", (g.njob + tr.n - 1) / tr.n);
		sb_alloc_gen_trace(&in, &g, &ty, &big, NULL, &gen);
		sb_trace_release(&big);
	} else {
		g.poisson = 4;
		sb_alloc_gen(&in, &g, &ty, NULL, 0, NULL, &gen);
	}
	sb_trace_release(&tr);
	in.nslot = in.job[in.njob - 1].arrival + 20000;
	printf("alloc: %s\n", in.source);
	for (i = 0; i < np; i++) {
		struct sb_alloc_result r;
		struct sb_opts o;
		struct sb_rng rng = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
		double t0;
		int rc;
		if (!sb_alloc_policy_fits(p[i], &in))
			continue;   /* PS-only policies: the trace is ring-all-reduce */
		sb_opts_defaults(&o, p[i]->params);
		t0 = sb_now();
		rc = sb_alloc_run(&in, p[i], &o, &rng, &r, &err);
		row(t, "replay-10k-1024gpu", p[i]->name, in.njob, in.nserver, rc ? 0 : r.nslot,
		    sb_now() - t0, rc ? "error" : "checked", rc ? 0 : r.jct_mean);
		if (!rc)
			sb_alloc_result_release(&r);
	}
	sb_alloc_inst_release(&in);
}

static void solvers(struct sb_table *t)
{
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_alloc_inst in;
	struct sb_alloc_bound b;
	struct sb_alloc_psmodel m;
	struct sb_lp_result res;
	struct sb_err err;
	struct sb_rng gen = sb_rng_stream(2, 0, 0, SB_RNG_INSTANCE);
	double t0;
	int rc, k;

	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_RAR);
	g.njob = 6;
	g.nserver = 4;
	g.gpus = 4;
	g.nslot = 10;
	g.kmax = 8;
	sb_alloc_gen_small(&in, &g, &ty, &gen);
	rc = sb_alloc_bound(&in, 0, &b, &err);
	row(t, "gadget-ilp-J6-S4-T10", "glpk", 6, 4, 10, rc ? 0 : b.seconds,
	    rc ? "error" : b.status, rc ? 0 : b.bound);
	sb_alloc_inst_release(&in);

	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = 200;
	g.nserver = 32;
	g.nslot = 50;
	g.small_slots = 10;
	sb_alloc_gen_small(&in, &g, &ty, &gen);
	sb_alloc_psmodel_build(&in, NULL, 0, 50, 0, &m);
	t0 = sb_now();
	rc = sb_alloc_psmodel_solve(&m, 1, &res, &err);
	row(t, "pslocality-lp-200x32x50", "glpk", 200, 32, 50, sb_now() - t0,
	    rc ? "error" : sb_lp_status_name(res.status), rc ? 0 : res.obj + m.constant);
	if (!rc && res.x) {
		struct sb_rr_plan r;
		struct sb_rr_stats st;
		struct sb_rng rr = sb_rng_stream(2, 0, 0, SB_RNG_POLICY);
		double mean = 0;
		sb_rr_plan_init(&r, m.J, m.H, m.T);
		t0 = sb_now();
		for (k = 0; k < 1000; k++) {
			sb_rr_round(&in, &m, res.x, 1.5, &rr, &r);
			sb_rr_stats(&in, &m, &r, &st);
			mean += st.flow / 1000;
		}
		row(t, "pslocality-1000-roundings", "rr-1.5", 200, 32, 50, sb_now() - t0, "done", mean);
		sb_rr_plan_release(&r);
	}
	sb_lp_result_release(&res);
	sb_alloc_psmodel_release(&m);
	sb_alloc_inst_release(&in);
}

static void run(struct sb_table *t, const char *data)
{
	replay(t, data);
	solvers(t);
}

const struct sb_bench sb_bench_alloc = {
	.name = "alloc",
	.desc = "10k-job replay on 1,024 GPUs per policy; GADGET ILP; PS-locality LP and roundings",
	.cols = cols,
	.run = run,
};
