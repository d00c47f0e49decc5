/*
 * alloc_gadget_philly.c - figure gadget-F1p (gadget.md §5-7, ours [O]):
 * gadget-F1 on real arrivals. Total utility at the horizon under EXC, ENE
 * and FAIR for GADGET-R, GADGET-PD (both reconstructed) and the comparison
 * set, on windows of the Philly trace (philly/jobs.json: submission times
 * and GPU counts, the counts being what the fixed-count baselines Tiresias
 * and First-Fit ask for, capped at the 16-worker maximum). Window `rep` is
 * the trace's jobs rep x jobs .. (rep + 1) x jobs - 1, arrivals shifted so
 * that its first job arrives in slot 0 and compressed by `speedup` (the
 * trace's 3,034 jobs span about four months, about 0.3 jobs per 20-minute
 * slot; compression is the load axis). Job types, epochs and model sizes
 * are drawn from DL2's table as in F1. Without the file: the synthetic
 * fallback, Poisson arrivals at 0.3 x speedup per slot and the generator's
 * GPU requests, said in the inputs note. Horizon: `tail` slots after the
 * last arrival. shortfall = the point's best utility minus this policy's.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

#define PHILLY_RATE 0.3   /* jobs per 20-minute slot over the whole trace */

static const struct sb_param params[] = {
	{ "reps", 5, 1, 1000, 1, "trace windows per speed-up and objective" },
	{ "speedups", 4, 1, 8, 1, "arrival compression 4, 8, 16, ... (this many)" },
	{ "jobs", 100, 2, 3000, 1, "jobs per window" },
	{ "tail", 12, 0, 10000, 1, "slots after the last arrival before the horizon" },
	{ "servers", 8, 1, 4096, 1, "servers of 8 GPUs" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "util", SB_COL_STR, "" },
	{ "speedup", SB_COL_DBL, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "utility", SB_COL_DBL, "utility units" },
	{ "shortfall", SB_COL_DBL, "utility units" },
	{ "unfinished", SB_COL_INT, "" },
	{ "jct_mean", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct sb_trace *tr = SB_NEW(struct sb_trace, 1);
	int reps = (int)sb_opts_get(&c->opts, "reps"), jobs = (int)sb_opts_get(&c->opts, "jobs");
	char buf[1024];
	const char *p;
	int rc;

	c->state = tr;
	c->npoints = 3 * (int)sb_opts_get(&c->opts, "speedups") * reps;
	if ((p = sb_exp_data(c, "philly/jobs.json", buf, sizeof buf))) {
		if ((rc = sb_load_philly_jobs(p, tr, err)) || (rc = sb_exp_add_input(c, p, err)))
			return rc;
		if (tr->n < reps * jobs)
			return sb_err_set(err, SB_EXIT_INPUT, "%s: %d jobs, fewer than reps x jobs "
					  "= %d", p, tr->n, reps * jobs);
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s; synthetic: DL2 job types (built in)",
		 tr->n ? "real: Philly arrivals and GPU counts (philly/jobs.json)" :
			 "synthetic fallback: Poisson arrivals at 0.3 x speedup per slot");
	return 0;
}

static void teardown(struct sb_exp_ctx *c)
{
	if (c->state)
		sb_trace_release(c->state);
	sb_free(c->state);
	c->state = NULL;
}

/* The instance of window rep at this speed-up (keyed by (speed-up, rep):
 * the three objectives see the same jobs). */
static void instance(const struct sb_exp_ctx *c, int util, double speedup, int key, int rep,
		     struct sb_alloc_inst *in)
{
	const struct sb_trace *tr = c->state;
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)key, 0, SB_RNG_INSTANCE);
	int jobs = (int)sb_opts_get(&c->opts, "jobs"), j, last = 0;

	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_RAR);
	g.njob = jobs;
	g.nserver = (int)sb_opts_get(&c->opts, "servers");
	g.util = util;
	if (tr->n) {
		struct sb_trace w = { 0 };
		double t0 = tr->job[rep * jobs].submit;
		w.n = jobs;
		w.job = SB_NEW(struct sb_trace_job, jobs);
		for (j = 0; j < jobs; j++) {
			w.job[j] = tr->job[rep * jobs + j];
			w.job[j].submit = (w.job[j].submit - t0) / speedup;
		}
		snprintf(w.source, sizeof w.source, "philly jobs %d-%d, x%g", rep * jobs,
			 rep * jobs + jobs - 1, speedup);
		sb_alloc_gen_trace(in, &g, &ty, &w, NULL, &gen);
		sb_trace_release(&w);
	} else {
		g.poisson = PHILLY_RATE * speedup;
		sb_alloc_gen(in, &g, &ty, NULL, 0, NULL, &gen);
	}
	for (j = 0; j < in->njob; j++)
		last = in->job[j].arrival > last ? in->job[j].arrival : last;
	in->nslot = last + 1 + (int)sb_opts_get(&c->opts, "tail");
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), ns = (int)sb_opts_get(&c->opts, "speedups");
	int rep = point % reps, si = point / reps % ns, util = point / reps / ns, rc;
	double speedup = ldexp(4, si);
	struct sb_alloc_inst in;

	(void)timing;
	instance(c, util, speedup, si * reps + rep, rep, &in);
	rc = sb_alloc_exp_gadget_rows(c, point, &in, out, util, rep, "speedup", speedup, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_gadget_philly = {
	.name = "alloc_gadget_philly",
	.desc = "total utility on Philly arrivals and GPU counts against arrival compression under EXC, ENE and FAIR (GADGET-R and GADGET-PD reconstructed)",
	.figure = "gadget-F1p",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=2 speedups=3 jobs=50",
	.cols = cols,
	.summary_by = "util speedup policy",
	.summary_of = "utility shortfall",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
