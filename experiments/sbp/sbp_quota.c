/*
 * sbp_quota.c - F10 (scenario A of spec oneflow.md §8.5): a data loader ->
 * H2D -> compute -> optimizer chain of actors with the same register quota
 * r on every produced slot; throughput measured by the actor DES (with
 * and without log-normal jitter, sigma 0.1) against the period formula
 * max(max d_i, max (d_i + d_{i+1}) / r). thr_ratio: throughput over the
 * unbounded quota's in the same setting.
 */
#include "exp.h"
#include "sbp/actor.h"

#include <stdio.h>

static const int quotas[] = { 1, 2, 3, 4, 8, SB_ACTOR_UNBOUNDED };
#define NQ 6
static const int64_t dur[4] = { 3000, 5000, 10000, 4000 };   /* ns [O] */

static const struct sb_param params[] = {
	{ "pieces", 20000, 10, 1e7, 1, "pieces through the chain" },
	{ "reps", 5, 1, 1000, 1, "replicates with jitter" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "sigma", SB_COL_DBL, "" },
	{ "rep", SB_COL_INT, "" },
	{ "quota", SB_COL_INT, "registers (0: unbounded)" },
	{ "throughput", SB_COL_DBL, "pieces/s" },
	{ "analytic", SB_COL_DBL, "pieces/s" },
	{ "thr_ratio", SB_COL_DBL, "" },
	{ "peak_live", SB_COL_INT, "registers" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = 1 + (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note, "generated: 4-actor chain, durations "
		 "3, 5, 10, 4 us");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int N = (int)sb_opts_get(&c->opts, "pieces"), q, i, rc = 0;
	double sigma = point ? 0.1 : 0, thr[NQ], per[NQ];
	int peak[NQ];
	(void)timing;
	for (q = 0; q < NQ && !rc; q++) {
		struct sb_actor_sys s;
		struct sb_actor_result r;
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_NOISE);
		int rq[3] = { quotas[q], quotas[q], quotas[q] };
		sb_actor_sys_init(&s);
		for (i = 0; i < 4; i++) {
			static const char *const nm[4] = { "loader", "h2d", "compute", "optimizer" };
			sb_actor_add(&s, nm[i], dur[i]);
			if (i < 3)
				sb_actor_slot(&s, i, quotas[q], 1);
			if (i)
				sb_actor_connect(&s, i - 1, 0, i, 1);
		}
		s.a[0].limit = N;
		s.jitter = sigma;
		rc = sb_actor_run(&s, &rng, -1, -1, &r, err);
		if (!rc) {
			thr[q] = (N - 1) / ((double)(r.last_end[3] - r.first_end[3]) * 1e-9);
			per[q] = sb_actor_chain_period(dur, rq, 4);
			peak[q] = 0;
			for (i = 0; i < 3; i++)
				peak[q] = r.peak[i * SB_ACTOR_MAXOUT] > peak[q] ? r.peak[i * SB_ACTOR_MAXOUT]
										: peak[q];
			sb_actor_result_release(&r);
		}
		sb_actor_sys_release(&s);
	}
	for (q = 0; q < NQ && !rc; q++) {
		size_t row = sb_table_add(out);
		sb_table_set_dbl(out, row, "sigma", sigma);
		sb_table_set_int(out, row, "rep", point);
		sb_table_set_int(out, row, "quota", quotas[q] == SB_ACTOR_UNBOUNDED ? 0 : quotas[q]);
		sb_table_set_dbl(out, row, "throughput", thr[q]);
		sb_table_set_dbl(out, row, "analytic", 1e9 / per[q]);
		sb_table_set_dbl(out, row, "thr_ratio", thr[q] / thr[NQ - 1]);
		sb_table_set_int(out, row, "peak_live", peak[q]);
	}
	return rc;
}

const struct sb_experiment sb_experiment_sbp_quota = {
	.name = "sbp_quota",
	.desc = "F10: actor chain throughput against the register quota, DES and period formula",
	.figure = "oneflow-F10",
	.family = "sbp",
	.params = params,
	.quick_set = "pieces=2000 reps=2",
	.cols = cols,
	.summary_by = "sigma quota",
	.summary_of = "throughput thr_ratio",
	.setup = setup,
	.run_point = run_point,
};
