/*
 * sbp_memory.c - F11 (scenario B of spec oneflow.md §8.5): a producer
 * twice as fast as its consumer; the live registers of the producer's
 * slot over time for an unbounded quota (memory grows linearly until the
 * producer stops) and for quotas 1, 2, 4 (flat at the quota: back-
 * pressure). The trace is sampled at `samples` evenly spaced times.
 */
#include "exp.h"
#include "sbp/actor.h"

#include <stdio.h>

static const int quotas[] = { SB_ACTOR_UNBOUNDED, 1, 2, 4 };

static const struct sb_param params[] = {
	{ "pieces", 2000, 10, 1e7, 1, "pieces the producer makes" },
	{ "samples", 200, 10, 100000, 1, "samples of the trace" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "quota", SB_COL_INT, "registers (0: unbounded)" },
	{ "t_us", SB_COL_DBL, "us" },
	{ "live", SB_COL_INT, "registers" },
	{ "mem_mib", SB_COL_DBL, "MiB" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = 4;
	snprintf(c->inputs_note, sizeof c->inputs_note, "generated: producer 1 us, consumer 2 us, "
		 "16 MiB registers");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int N = (int)sb_opts_get(&c->opts, "pieces"), ns = (int)sb_opts_get(&c->opts, "samples");
	struct sb_actor_sys s;
	struct sb_actor_result r;
	double reg = 16.0 * 1024 * 1024;
	int rc, k, j = 0;
	(void)timing;
	sb_actor_sys_init(&s);
	sb_actor_add(&s, "producer", 1000);
	sb_actor_add(&s, "consumer", 2000);
	sb_actor_slot(&s, 0, quotas[point], reg);
	sb_actor_connect(&s, 0, 0, 1, 1);
	s.a[0].limit = N;
	rc = sb_actor_run(&s, NULL, 0, 0, &r, err);
	for (k = 0; !rc && k <= ns; k++) {
		int64_t t = r.end * k / ns;
		size_t row;
		while (j + 1 < r.ntrace && r.trace_t[j + 1] <= t)
			j++;
		row = sb_table_add(out);
		sb_table_set_int(out, row, "quota", quotas[point] == SB_ACTOR_UNBOUNDED ? 0 : quotas[point]);
		sb_table_set_dbl(out, row, "t_us", (double)t * 1e-3);
		sb_table_set_int(out, row, "live", r.trace_n[j]);
		sb_table_set_dbl(out, row, "mem_mib", r.trace_n[j] * reg / (1024.0 * 1024));
	}
	if (!rc)
		sb_actor_result_release(&r);
	sb_actor_sys_release(&s);
	return rc;
}

const struct sb_experiment sb_experiment_sbp_memory = {
	.name = "sbp_memory",
	.desc = "F11: live registers over time under a fast producer, unbounded vs quota k",
	.figure = "oneflow-F11",
	.family = "sbp",
	.params = params,
	.quick_set = "pieces=400 samples=50",
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
};
