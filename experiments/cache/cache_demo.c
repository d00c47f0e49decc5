/*
 * cache_demo.c - every cache policy against the optimum on random
 * instances of 5-80 jobs (replace with the family's figures).
 */
#include "cache/cache.h"
#include "exp.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "sizes", 5, 1, 5, 1, "how many of n = 5, 10, 20, 40, 80" },
	{ "reps", 10, 1, 1000, 1, "random instances per size" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "n", SB_COL_INT, "jobs" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "objective", SB_COL_DBL, "weighted time" },
	{ "opt", SB_COL_DBL, "weighted time" },
	{ "ratio_opt", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note, "synthetic: uniform p, w in [1, 10]");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), n = 5 << (point / reps), rep = point % reps;
	int np, i, rc = 0;
	const struct sb_cache_policy *const *p = sb_cache_policies(&np);
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	struct sb_cache_inst in;
	double opt;

	sb_cache_gen(&in, n, &gen);
	opt = sb_cache_opt(&in);
	for (i = 0; i < np && !rc; i++) {
		struct sb_opts o;
		struct sb_cache_result r;
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, 0,
						  SB_RNG_POLICY ^ sb_hash_str(p[i]->name));
		size_t row;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_cache_run(&in, p[i], &o, &rng, &r, err)))
			break;
		row = sb_table_add(out);
		sb_table_set_int(out, row, "n", n);
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_str(out, row, "policy", p[i]->name);
		sb_table_set_dbl(out, row, "objective", r.objective);
		sb_table_set_dbl(out, row, "opt", opt);
		sb_table_set_dbl(out, row, "ratio_opt", r.objective / opt);
		sb_cache_result_release(&r);
	}
	sb_cache_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_cache_demo = {
	.name = "cache_demo",
	.desc = "every cache policy vs the optimum on random instances of 5-80 jobs",
	.figure = "cache-F1",
	.family = "cache",
	.params = params,
	.quick_set = "sizes=2 reps=3",
	.cols = cols,
	.summary_by = "n policy",
	.summary_of = "ratio_opt",
	.setup = setup,
	.run_point = run_point,
};
