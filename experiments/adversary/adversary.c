/*
 * adversary.c - the cross-family table of worst ratios (issue #14 item
 * 7): for every family with an `sb adversary` hook and every policy the
 * hook can judge against its exact optimum, simulated annealing over the
 * family's small instances (default sizes of the hook) for `iters`
 * proposals; one row per policy with the worst ratio found. The search
 * walks the family table, so this experiment names no family and a new
 * family's hook adds its rows with no edit here. [O]
 */
#include "adversary.h"
#include "exp.h"
#include "family.h"
#include "registry.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "iters", 2000, 1, 1e7, 1, "annealing proposals per policy" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "family", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "space", SB_COL_STR, "the hook's sizes" },
	{ "space_size", SB_COL_DBL, "instances" },
	{ "iters", SB_COL_INT, "" },
	{ "evals", SB_COL_INT, "" },
	{ "rejected", SB_COL_INT, "evaluations the hook declined to score" },
	{ "found_at", SB_COL_INT, "proposal" },
	{ "worst", SB_COL_DBL, "worst policy/optimum ratio found" },
	{ NULL, 0, NULL },
};

/* the (family, policy i) of point k, walking the family table */
static int point_of(int k, const struct sb_family **fam, int *pi)
{
	const struct sb_family *const *f;
	int n, i, j;

	f = sb_families(&n);
	for (i = 0; i < n; i++) {
		if (!f[i]->adversary)
			continue;
		for (j = 0; sb_adversary_policy(f[i]->adversary, j); j++)
			if (k-- == 0) {
				*fam = f[i];
				*pi = j;
				return 1;
			}
	}
	return 0;
}

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	const struct sb_family *f;
	int j;

	c->npoints = 0;
	while (point_of(c->npoints, &f, &j))
		c->npoints++;
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: each family's small instances, searched by simulated annealing");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct sb_family *f;
	const struct sb_adversary *h;
	struct sb_adversary_space sp;
	struct sb_adversary_found found;
	struct sb_opts o;
	char set[256] = "";
	const char *name;
	void *ctx;
	long iters = (long)sb_opts_get(&c->opts, "iters");
	int j, k, rc;
	size_t row;

	if (!point_of(point, &f, &j))
		SB_BUG("adversary: point %d has no policy", point);
	h = f->adversary;
	name = sb_adversary_policy(h, j);
	sb_opts_defaults(&o, h->params);
	sb_opts_format(&o, set, sizeof set);
	/* one word per cell: "n=5,devices=2" */
	for (k = 0; set[k]; k++)
		if (set[k] == ' ')
			set[k] = ',';
	if ((rc = h->open(name, NULL, &o, &ctx, &sp, err)))
		return rc;
	rc = sb_adversary_anneal(h, ctx, &sp, iters, c->seed, (uint64_t)point, &found, err);
	sb_adversary_close(h, ctx);
	if (rc)
		return rc;
	row = sb_table_add(out);
	sb_table_set_str(out, row, "family", f->name);
	sb_table_set_str(out, row, "policy", name);
	sb_table_set_str(out, row, "space", set[0] == ',' ? set + 1 : set);
	sb_table_set_dbl(out, row, "space_size", sb_adversary_size(&sp));
	sb_table_set_int(out, row, "iters", iters);
	sb_table_set_int(out, row, "evals", found.evals);
	sb_table_set_int(out, row, "rejected", found.rejected);
	sb_table_set_int(out, row, "found_at", found.found_at);
	sb_table_set_dbl(out, row, "worst", found.worst);
	return 0;
}

const struct sb_experiment sb_experiment_adversary = {
	.name = "adversary",
	.desc = "worst policy/optimum ratio found by annealing, every family with a hook",
	.figure = "adversary-T1",
	.family = "all",
	.params = params,
	.quick_set = "iters=30",    /* no claim reads this table; the full run has 2000 */
	.cols = cols,
	.summary_by = "family policy",
	.summary_of = "worst",
	.setup = setup,
	.run_point = run_point,
};
