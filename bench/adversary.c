/*
 * adversary.c - `make bench` for `sb adversary` (issue #14 item 7): for
 * every family with a hook, on the space its bench_set names (small enough
 * to enumerate), every policy's exhaustive worst ratio next to what the
 * annealing search reaches, the proposal at which it first got there and
 * the CPU time that took. Target: within a 2-minute search, the exhaustive
 * worst. CPU time (clock()), since the machine is shared; measured, never
 * asserted.
 */
#include "bench.h"
#include "adversary.h"
#include "family.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define BUDGET 20000L   /* annealing proposals */

static const struct sb_col cols[] = {
	{ "family", SB_COL_STR, "" },
	{ "policy", SB_COL_STR, "" },
	{ "space_size", SB_COL_DBL, "instances" },
	{ "exhaustive", SB_COL_DBL, "worst ratio" },
	{ "exhaustive_cpu_s", SB_COL_DBL, "s" },
	{ "anneal", SB_COL_DBL, "worst ratio" },
	{ "found_at", SB_COL_INT, "proposal" },
	{ "reach_cpu_s", SB_COL_DBL, "s (CPU to found_at)" },
	{ "reached", SB_COL_INT, "1: anneal = exhaustive" },
	{ NULL, 0, NULL },
};

static double cpu(void)
{
	return (double)clock() / CLOCKS_PER_SEC;
}

static void bench_policy(struct sb_table *t, const struct sb_family *f, const char *name)
{
	const struct sb_adversary *h = f->adversary;
	struct sb_adversary_space sp;
	struct sb_adversary_found ex, sa;
	struct sb_opts o;
	struct sb_err err;
	char set[256], *kv, *save;
	double t0, tex, tsa;
	void *ctx;
	size_t r;
	int reached;

	sb_opts_defaults(&o, h->params);
	snprintf(set, sizeof set, "%s", h->bench_set);
	for (kv = strtok_r(set, " ", &save); kv; kv = strtok_r(NULL, " ", &save))
		if (sb_opts_set(&o, h->params, kv, "bench_set", &err)) {
			sb_err_print(&err);
			return;
		}
	if (h->open(name, NULL, &o, &ctx, &sp, &err)) {
		sb_err_print(&err);
		return;
	}
	t0 = cpu();
	if (sb_adversary_exhaust(h, ctx, &sp, 1e8, &ex, &err))
		goto fail;
	tex = cpu() - t0;
	t0 = cpu();
	if (sb_adversary_anneal(h, ctx, &sp, BUDGET, 1, 0, &sa, &err))
		goto fail;
	tsa = cpu() - t0;
	sb_adversary_close(h, ctx);
	reached = sa.worst >= ex.worst * (1 - 1e-12);
	r = sb_table_add(t);
	sb_table_set_str(t, r, "family", f->name);
	sb_table_set_str(t, r, "policy", name);
	sb_table_set_dbl(t, r, "space_size", sb_adversary_size(&sp));
	sb_table_set_dbl(t, r, "exhaustive", ex.worst);
	sb_table_set_dbl(t, r, "exhaustive_cpu_s", tex);
	sb_table_set_dbl(t, r, "anneal", sa.worst);
	sb_table_set_int(t, r, "found_at", sa.found_at);
	/* the search's proposals cost about the same: scale to found_at */
	sb_table_set_dbl(t, r, "reach_cpu_s", tsa * (double)sa.found_at / BUDGET);
	sb_table_set_int(t, r, "reached", reached);
	printf("%-8s %-18s %10.3g %12.6g %9.2f s %12.6g %8ld %9.2f s %s\n", f->name, name,
	       sb_adversary_size(&sp), ex.worst, tex, sa.worst, sa.found_at,
	       tsa * (double)sa.found_at / BUDGET, reached ? "reached" : "! not reached");
	return;
fail:
	sb_err_print(&err);
	sb_adversary_close(h, ctx);
}

static void run(struct sb_table *t, const char *data)
{
	const struct sb_family *const *f;
	int n, i, j;
	const char *name;
	(void)data;

	printf("%-8s %-18s %10s %12s %11s %12s %8s %11s  (annealing: %ld proposals; target: "
	       "the exhaustive worst within 2 min)\n", "family", "policy", "instances",
	       "exhaustive", "cpu", "anneal", "found_at", "cpu", BUDGET);
	f = sb_families(&n);
	for (i = 0; i < n; i++)
		if (f[i]->adversary && f[i]->adversary->bench_set)
			for (j = 0; (name = sb_adversary_policy(f[i]->adversary, j)); j++)
				bench_policy(t, f[i], name);
}

const struct sb_bench sb_bench_adversary = {
	.name = "adversary",
	.desc = "sb adversary: annealing against exhaustive search on enumerable spaces",
	.cols = cols,
	.run = run,
};
