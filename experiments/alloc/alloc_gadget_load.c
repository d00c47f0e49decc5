/*
 * alloc_gadget_load.c - figure gadget-F1 (gadget.md §7, ours [O]): total
 * utility at the horizon against the arrival rate, under EXC, ENE and FAIR,
 * for GADGET-R, GADGET-PD (both reconstructed) and the comparison set. Jobs arrive for
 * `arrive` slots and the horizon ends `tail` slots later, so at high rates
 * some jobs are unfinished and the utilities differ. shortfall = the best
 * utility of the point minus this policy's (0 for the best), so that the
 * claims can compare a policy with the best of the others.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 10, 1, 1000, 1, "instances per rate and objective" },
	{ "rates", 4, 1, 8, 1, "rates 1, 2, 4, ... jobs per slot (this many)" },
	{ "arrive", 48, 1, 10000, 1, "slots with arrivals" },
	{ "tail", 12, 0, 10000, 1, "slots after the arrivals before the horizon" },
	{ "servers", 8, 1, 4096, 1, "servers of 8 GPUs" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "util", SB_COL_STR, "" },
	{ "rate", SB_COL_DBL, "jobs per slot" },
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
	(void)err;
	c->npoints = 3 * (int)sb_opts_get(&c->opts, "rates") * (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: DL2 job types (built in), Poisson arrivals");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), nr = (int)sb_opts_get(&c->opts, "rates");
	int rep = point % reps, ri = point / reps % nr, util = point / reps / nr, rc;
	struct sb_alloc_exp_rar x = { util, ldexp(1, ri), (int)sb_opts_get(&c->opts, "arrive"), 0,
				      (int)sb_opts_get(&c->opts, "servers") };
	struct sb_alloc_inst in;

	(void)timing;
	x.slots = x.arrive + (int)sb_opts_get(&c->opts, "tail");
	/* common random numbers: the instance depends on (rate, rep) only, so
	 * the three objectives see the same jobs */
	sb_alloc_exp_rar_inst(&in, &x, c->seed, ri * reps + rep);
	rc = sb_alloc_exp_gadget_rows(c, point, &in, out, util, rep, "rate", x.rate, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_gadget_load = {
	.name = "alloc_gadget_load",
	.desc = "total utility against the arrival rate under EXC, ENE and FAIR (GADGET-R and GADGET-PD reconstructed)",
	.figure = "gadget-F1",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=2 rates=3 arrive=24 tail=6",
	.cols = cols,
	.summary_by = "util rate policy",
	.summary_of = "utility shortfall",
	.setup = setup,
	.run_point = run_point,
};
