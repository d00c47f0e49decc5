/*
 * sbp_boxing.c - F13: the boxing cost table of §4 (OneFlow's
 * ComputCopyCostBetweenTwoSbpParallel, same placement, default penalty
 * policy) for p = 2..8 and a tensor of 1 MiB, every pair of S(0), S(1), B
 * and P, in units of |T|; and the alpha-beta time of the same transfer.
 */
#include "exp.h"
#include "sbp/sbp.h"

#include <stdio.h>

static const struct sb_col cols[] = {
	{ "p", SB_COL_INT, "devices" },
	{ "from", SB_COL_STR, "" },
	{ "to", SB_COL_STR, "" },
	{ "fi", SB_COL_INT, "" },
	{ "ti", SB_COL_INT, "" },
	{ "cost_T", SB_COL_DBL, "|T|" },
	{ "seconds", SB_COL_DBL, "s" },
	{ "collective", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = 7;
	snprintf(c->inputs_note, sizeof c->inputs_note, "none: the cost rule itself");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	static const struct sb_sbp v[4] = { { SB_SBP_S, 0 }, { SB_SBP_S, 1 }, { SB_SBP_B, 0 },
					    { SB_SBP_P, 0 } };
	static const char *const nm[4] = { "S(0)", "S(1)", "B", "P" };
	struct sb_sbp_net net = { 5e-6, 25e9 };
	struct sb_sbp_place pl;
	double T = 1024.0 * 1024.0;
	int p = 2 + point, i, j;
	(void)c;
	(void)timing;
	(void)err;
	sb_sbp_place_1d(&pl, p);
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++) {
			struct sb_sbp_nd a = { { v[i], v[2] } }, b = { { v[j], v[2] } };
			size_t row = sb_table_add(out);
			sb_table_set_int(out, row, "p", p);
			sb_table_set_str(out, row, "from", nm[i]);
			sb_table_set_str(out, row, "to", nm[j]);
			sb_table_set_int(out, row, "fi", i);
			sb_table_set_int(out, row, "ti", j);
			sb_table_set_dbl(out, row, "cost_T", sb_sbp_box(&a, &b, T, &pl, 2) / T);
			sb_table_set_dbl(out, row, "seconds", sb_sbp_box_time(&a, &b, T, &pl, &net));
			sb_table_set_str(out, row, "collective", sb_sbp_collective(v[i], v[j]));
		}
	return 0;
}

const struct sb_experiment sb_experiment_sbp_boxing = {
	.name = "sbp_boxing",
	.desc = "F13: boxing cost of every SBP pair for p = 2..8 (1 MiB tensor)",
	.figure = "oneflow-F13",
	.family = "sbp",
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
};
