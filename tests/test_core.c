/*
 * test_core.c - unit tests of the core modules: PCG32 against the
 * reference implementation, samplers, heap order and walk, allocation failure
 * injection, options, tables, HDF5 round trip, summaries and claims.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "claims.h"
#include "h5.h"
#include "heap.h"
#include "opts.h"
#include "rng.h"
#include "sb.h"
#include "summary.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */

Test(core, pcg32_matches_reference)
{
	const char *ref = getenv("SB_PCG_REF");
	const unsigned long long pairs[][2] = {
		{ 42, 54 }, { 0, 0 }, { 1, 1 }, { 0xdeadbeefULL, 7 },
		{ 18446744073709551615ULL, 12345 }, { 987654321ULL, 1ULL << 62 },
	};
	const uint32_t bounds[] = { 6, 1000, 3, 0x80000001u, 1, 77 };
	size_t k;

	if (!ref || access(ref, X_OK) != 0)
		cr_skip_test("reference program not built (make test builds it)");
	for (k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
		char cmd[512];
		FILE *p;
		struct sb_rng a, b;
		unsigned v;
		int i;
		snprintf(cmd, sizeof cmd, "%s %llu %llu 64 %u", ref, pairs[k][0], pairs[k][1],
			 bounds[k]);
		p = popen(cmd, "r");
		cr_assert(p);
		sb_rng_seed(&a, pairs[k][0], pairs[k][1]);
		sb_rng_seed(&b, pairs[k][0], pairs[k][1]);
		for (i = 0; i < 64; i++) {
			cr_assert_eq(fscanf(p, "%u", &v), 1);
			cr_assert_eq(sb_rng_u32(&a), v, "pair %zu output %d", k, i);
		}
		for (i = 0; i < 64; i++) {
			cr_assert_eq(fscanf(p, "%u", &v), 1);
			cr_assert_eq(sb_rng_below(&b, bounds[k]), v, "pair %zu bounded %d", k, i);
		}
		pclose(p);
	}
}

Test(core, pcg32_published_vector)
{
	/* the first outputs of pcg32-global-demo: seed 42, stream 54 */
	const uint32_t want[6] = { 0xa15c02b7, 0x7b47f409, 0xba1d3330,
				   0x83d2f293, 0xbfa4784b, 0xcbed606e };
	struct sb_rng r;
	int i;
	sb_rng_seed(&r, 42, 54);
	for (i = 0; i < 6; i++)
		cr_assert_eq(sb_rng_u32(&r), want[i]);
}

Test(core, streams_independent_and_reproducible)
{
	struct sb_rng a = sb_rng_stream(1, 2, 3, SB_RNG_INSTANCE);
	struct sb_rng b = sb_rng_stream(1, 2, 3, SB_RNG_INSTANCE);
	struct sb_rng c = sb_rng_stream(1, 2, 3, SB_RNG_POLICY);
	struct sb_rng d = sb_rng_stream(1, 3, 2, SB_RNG_INSTANCE);
	int i, same_c = 0, same_d = 0;
	for (i = 0; i < 100; i++) {
		uint32_t x = sb_rng_u32(&a);
		cr_assert_eq(x, sb_rng_u32(&b));
		same_c += x == sb_rng_u32(&c);
		same_d += x == sb_rng_u32(&d);
	}
	cr_assert_lt(same_c, 3);
	cr_assert_lt(same_d, 3);
}

Test(core, samplers_in_range_and_moments)
{
	struct sb_rng r = sb_rng_stream(7, 0, 0, SB_RNG_TEST);
	double s = 0, se = 0, sn = 0, sn2 = 0;
	int i, hist[6] = { 0 }, n = 60000;
	for (i = 0; i < n; i++) {
		double u = sb_rng_uniform(&r);
		int64_t k = sb_rng_int(&r, 10, 15);
		double z = sb_rng_normal(&r, 2, 3);
		cr_assert(u >= 0 && u < 1);
		cr_assert(k >= 10 && k <= 15);
		hist[k - 10]++;
		s += u;
		se += sb_rng_exp(&r, 4);
		sn += z;
		sn2 += (z - 2) * (z - 2);
	}
	cr_assert_float_eq(s / n, 0.5, 0.01);
	cr_assert_float_eq(se / n, 0.25, 0.01);
	cr_assert_float_eq(sn / n, 2, 0.05);
	cr_assert_float_eq(sqrt(sn2 / n), 3, 0.05);
	for (i = 0; i < 6; i++)
		cr_assert_float_eq(hist[i] / (double)n, 1 / 6.0, 0.01);
	cr_assert_gt(sb_rng_lognormal(&r, 0, 1), 0);
}

Test(core, shuffle_is_permutation)
{
	struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
	int a[50], seen[50] = { 0 }, i, moved = 0;
	for (i = 0; i < 50; i++)
		a[i] = i;
	sb_rng_shuffle_int(&r, a, 50);
	for (i = 0; i < 50; i++) {
		seen[a[i]]++;
		moved += a[i] != i;
	}
	for (i = 0; i < 50; i++)
		cr_assert_eq(seen[i], 1);
	cr_assert_gt(moved, 10);
}

/* ------------------------------------------------------------------ */

Test(core, heap_orders_by_key_then_insertion)
{
	struct sb_heap h;
	struct sb_heap_item it;
	struct sb_rng r = sb_rng_stream(5, 0, 0, SB_RNG_TEST);
	double last = -1;
	int64_t last_val = -1;
	int i;
	sb_heap_init(&h);
	for (i = 0; i < 5000; i++)
		sb_heap_push(&h, (double)sb_rng_int(&r, 0, 50), i);
	for (i = 0; i < 5000; i++) {
		cr_assert(sb_heap_pop(&h, &it));
		cr_assert_geq(it.key, last);
		if (it.key == last)
			cr_assert_gt(it.val, last_val, "ties must pop in insertion order");
		last = it.key;
		last_val = it.val;
	}
	cr_assert_not(sb_heap_pop(&h, &it));
	sb_heap_release(&h);
}

/* sb_heap_walk_le: a walk under a fixed limit visits exactly the items
 * keyed at most the limit, each once; a walk whose visits lower the limit
 * to key + offset (offset >= 0, so keys are lower bounds, as in the cluster
 * policies' wake-up searches) finds the minimum of key + offset over all
 * items; the heap is left as it was. */
struct walk_log {
	int *seen;
	int nvisit;
};

static double walk_count(void *ctx, const struct sb_heap_item *it, double lim)
{
	struct walk_log *w = ctx;

	w->seen[it->val]++;
	w->nvisit++;
	return lim;
}

static double walk_lower(void *ctx, const struct sb_heap_item *it, double lim)
{
	struct walk_log *w = ctx;
	double v = it->key + (double)(it->val % 7);

	w->nvisit++;
	return v < lim ? v : lim;
}

Test(core, heap_walk_visits_exactly_the_keys_under_the_limit)
{
	enum { N = 3000 };
	struct sb_heap h;
	struct sb_rng r = sb_rng_stream(6, 0, 0, SB_RNG_TEST);
	struct walk_log w;
	static int seen[N];
	struct sb_heap_item *copy;
	double lim, best;
	int i, k;

	sb_heap_init(&h);
	w.seen = seen;
	w.nvisit = 0;
	cr_assert_eq(sb_heap_walk_le(&h, 5, walk_count, &w), 5);
	cr_assert_eq(w.nvisit, 0, "an empty heap has nothing to visit");
	for (i = 0; i < N; i++)
		sb_heap_push(&h, (double)sb_rng_int(&r, 0, 1000), i);
	copy = SB_NEW(struct sb_heap_item, N);
	memcpy(copy, h.a, N * sizeof *copy);
	for (k = 0; k < 5; k++) {
		int want = 0;
		lim = k == 4 ? -1 : 250.0 * k + 0.5 * (k & 1);
		memset(seen, 0, sizeof seen);
		w.nvisit = 0;
		cr_assert_eq(sb_heap_walk_le(&h, lim, walk_count, &w), lim);
		for (i = 0; i < N; i++) {
			const struct sb_heap_item *it = &h.a[i];
			cr_assert_eq(seen[it->val], it->key <= lim, "item %d (key %g), limit %g: "
				     "visited %d times", (int)it->val, it->key, lim, seen[it->val]);
			want += it->key <= lim;
		}
		cr_assert_eq(w.nvisit, want);
	}
	best = INFINITY;
	for (i = 0; i < N; i++)
		if (h.a[i].key + (double)(h.a[i].val % 7) < best)
			best = h.a[i].key + (double)(h.a[i].val % 7);
	w.nvisit = 0;
	cr_assert_eq(sb_heap_walk_le(&h, INFINITY, walk_lower, &w), best);
	cr_assert_lt(w.nvisit, N, "a lowered limit must prune the walk");
	cr_assert_eq(memcmp(copy, h.a, N * sizeof *copy), 0, "the walk changed the heap");
	sb_free(copy);
	sb_heap_release(&h);
}

Test(core, allocation_failure_injection)
{
	void *p;
	sb_mem_fail_at(2);
	p = sb_malloc(8);
	cr_assert(p);
	cr_assert_null(sb_malloc(8));
	cr_assert_null(sb_calloc(2, 8));
	sb_mem_fail_at(0);
	sb_free(p);
	p = sb_malloc(8);
	cr_assert(p);
	sb_free(p);
}

Test(core, sha256_known_vector)
{
	const char *path = sb_test_write("abc");
	char hex[65];
	cr_assert_eq(sb_sha256_file(path, hex, NULL), 0);
	cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	unlink(path);
	path = sb_test_write("");
	cr_assert_eq(sb_sha256_file(path, hex, NULL), 0);
	cr_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	unlink(path);
}

/* ------------------------------------------------------------------ */

static const struct sb_param test_params[] = {
	{ "reps", 5, 1, 10, 1, "" },
	{ "alpha", 0.5, 0, 1, 0, "" },
	{ NULL, 0, 0, 0, 0, NULL },
};

Test(core, options_checked_against_declarations)
{
	struct sb_opts o;
	struct sb_err err;
	sb_opts_defaults(&o, test_params);
	cr_assert_eq(sb_opts_get(&o, "reps"), 5);
	cr_assert_eq(sb_opts_set(&o, test_params, "reps=7", "--set", &err), 0);
	cr_assert_eq(sb_opts_get(&o, "reps"), 7);
	cr_assert_eq(sb_opts_set(&o, test_params, "reps=7.5", "--set", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "whole"));
	cr_assert_eq(sb_opts_set(&o, test_params, "reps=11", "--set", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "out of range"));
	cr_assert_eq(sb_opts_set(&o, test_params, "beta=1", "--set", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "unknown parameter 'beta'"));
	cr_assert_eq(sb_opts_set(&o, test_params, "alpha=nan", "--set", &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_opts_set(&o, test_params, "alpha", "--set", &err), SB_EXIT_INPUT);
}

/* ------------------------------------------------------------------ */

static const struct sb_col tcols[] = {
	{ "policy", SB_COL_STR, "" },
	{ "rep", SB_COL_INT, "" },
	{ "makespan", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

static void fill(struct sb_table *t)
{
	const char *pol[3] = { "a+x", "b+x", "a+y" };
	int i, r;
	sb_table_init(t, tcols);
	for (r = 0; r < 4; r++)
		for (i = 0; i < 3; i++) {
			size_t k = sb_table_add(t);
			sb_table_set_str(t, k, "policy", pol[i]);
			sb_table_set_int(t, k, "rep", r);
			sb_table_set_dbl(t, k, "makespan", (i + 1) * 10.0 + r);
		}
}

Test(core, table_cell_is_matches_text_as_sb_export_prints_it)
{
	struct sb_table t;
	size_t k;
	fill(&t);
	k = sb_table_add(&t);
	sb_table_set_str(&t, k, "policy", "p");
	sb_table_set_int(&t, k, "rep", 4);
	sb_table_set_dbl(&t, k, "makespan", 0.1 + 0.2); /* 0.30000000000000004 */
	cr_assert(sb_table_cell_is(&t, k, 0, "p"));
	cr_assert_not(sb_table_cell_is(&t, k, 0, "p "));
	cr_assert(sb_table_cell_is(&t, k, 1, "4"));
	cr_assert_not(sb_table_cell_is(&t, k, 1, "4.0"), "an integer by its text");
	cr_assert(sb_table_cell_is(&t, k, 2, "0.30000000000000004"), "the exact value");
	cr_assert(sb_table_cell_is(&t, k, 2, "0.3"), "the value as sb export prints it");
	cr_assert(sb_table_cell_is(&t, k, 2, "0.30"));
	cr_assert_not(sb_table_cell_is(&t, k, 2, "0.3000000001"));
	cr_assert_not(sb_table_cell_is(&t, 0, 2, "0.3"));
	sb_table_release(&t);
}

Test(core, hdf5_round_trip_and_atomic_write)
{
	struct sb_table t, u;
	struct sb_col *cols;
	struct sb_attrs at, back;
	struct sb_err err;
	struct sb_h5_dataset ds = { "points", &t };
	char path[] = "/tmp/sbh5-XXXXXX";
	int fd = mkstemp(path);
	const struct sb_attr *a;
	close(fd);
	fill(&t);
	sb_attrs_init(&at);
	sb_attrs_str(&at, "experiment", "unit");
	sb_attrs_int(&at, "seed", 42);
	sb_attrs_dbl(&at, "wall_seconds", 1.5);
	cr_assert_eq(sb_h5_write(path, &at, 1, &ds, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_h5_read_attrs(path, &back, &err), 0);
	a = sb_attrs_get(&back, "experiment");
	cr_assert(a && a->type == SB_ATTR_STR && !strcmp(a->s, "unit"));
	a = sb_attrs_get(&back, "seed");
	cr_assert(a && a->type == SB_ATTR_INT && a->i == 42);
	cr_assert_str_eq(back.a[0].key, "experiment", "attributes keep their order");
	cr_assert_eq(sb_h5_read_table(path, "points", &u, &cols, &err), 0);
	cr_assert_eq(u.nrow, t.nrow);
	cr_assert_eq(u.rowsize, t.rowsize);
	cr_assert_eq(memcmp(u.data, t.data, t.nrow * t.rowsize), 0);
	sb_table_release(&u);
	sb_h5_cols_free(cols);
	cr_assert_eq(sb_h5_read_table(path, "nosuch", &u, &cols, &err), SB_EXIT_INPUT);
	/* a write that cannot complete leaves no file under the final name */
	cr_assert_neq(sb_h5_write("/nonexistent-dir/x.h5", &at, 1, &ds, &err), 0);
	cr_assert_neq(access("/nonexistent-dir/x.h5", F_OK), 0);
	sb_attrs_release(&at);
	sb_attrs_release(&back);
	sb_table_release(&t);
	unlink(path);
}

Test(core, summary_means_and_ci)
{
	struct sb_table t, s;
	struct sb_col *cols;
	struct sb_err err;
	fill(&t);
	cr_assert_eq(sb_summarise(&t, "policy", "makespan", &s, &cols, &err), 0);
	cr_assert_eq(s.nrow, 3);
	cr_assert_str_eq(sb_table_get_str(&s, 0, 0), "a+x");
	cr_assert_eq(sb_table_get_int(&s, 0, 1), 4);
	cr_assert_float_eq(sb_table_get_dbl(&s, 0, 2), 11.5, 1e-12);
	/* sd of 10,11,12,13 (n-1) = 1.29099; t(0.975,3) = 3.18245 */
	cr_assert_float_eq(sb_table_get_dbl(&s, 0, 3), 3.18245 * 1.290994 / 2, 1e-4);
	sb_table_release(&s);
	sb_summary_cols_free(cols);
	cr_assert_eq(sb_summarise(&t, "nosuch", "makespan", &s, &cols, &err) != 0, 1);
	sb_table_release(&t);
}

Test(core, claims_evaluator)
{
	struct sb_table t;
	struct sb_err err;
	double l, r, v;
	int pass;
	fill(&t);
	cr_assert_eq(sb_claim_eval("mean(makespan | policy=a+x) < 12", &t, &l, &r, &pass, &err), 0);
	cr_assert(pass);
	cr_assert_float_eq(l, 11.5, 1e-12);
	/* a value ending in '*' is a prefix, of a string or of an integer's text */
	cr_assert_eq(sb_claim_expr("mean(makespan | policy=a+*, rep=1*)", &t, &v, &err), 0);
	cr_assert_float_eq(v, (11.0 + 31.0) / 2, 1e-12);
	cr_assert_eq(sb_claim_expr("mean(makespan | policy!=a+*)", &t, &v, &err), 0);
	cr_assert_float_eq(v, 21.5, 1e-12);
	cr_assert_eq(sb_claim_expr("maxratio(makespan | policy=a+x ; policy=b+x ; by=rep)", &t, &v, &err), 0);
	cr_assert_float_eq(v, 20.0 / 10.0, 1e-12);
	cr_assert_eq(sb_claim_expr("wins(makespan | policy=a+x ; policy=a+y ; by=rep)", &t, &v, &err), 0);
	cr_assert_float_eq(v, 1.0, 1e-12);
	/* against the best row of B per group: a+x is 10+r, b+x 20+r, a+y 30+r */
	cr_assert_eq(sb_claim_expr("maxratio_best(makespan | policy=b+x ; policy!=b+x ; by=rep)",
				   &t, &v, &err), 0);
	cr_assert_float_eq(v, 13.0 / 23.0, 1e-12);
	cr_assert_eq(sb_claim_expr("minratio_best(makespan | policy=a+x ; policy!=a+x ; by=rep)",
				   &t, &v, &err), 0);
	cr_assert_float_eq(v, 23.0 / 13.0, 1e-12);
	cr_assert_eq(sb_claim_expr("wins_best(makespan | policy=a+x ; policy!=a+x ; by=rep)",
				   &t, &v, &err), 0);
	cr_assert_float_eq(v, 1.0, 1e-12);
	cr_assert_eq(sb_claim_expr("wins_best(makespan | policy=b+x ; policy!=b+x ; by=rep)",
				   &t, &v, &err), 0);
	cr_assert_float_eq(v, 0.0, 1e-12);
	cr_assert_eq(sb_claim_expr("count(makespan | policy=a*)", &t, &v, &err), 0);
	cr_assert_float_eq(v, 8, 1e-12);
	cr_assert_eq(sb_claim_expr("count(makespan | policy!=a+x, rep=0)", &t, &v, &err), 0);
	cr_assert_float_eq(v, 2, 1e-12);
	cr_assert_eq(sb_claim_expr("(max(makespan) - 3) / 2", &t, &v, &err), 0);
	cr_assert_float_eq(v, (33.0 - 3) / 2, 1e-12);
	cr_assert_eq(sb_claim_expr("mean(nosuch)", &t, &v, &err), SB_EXIT_INPUT);
	/* well formed, but nothing to read: a run-time failure, not bad input */
	cr_assert_eq(sb_claim_expr("mean(makespan | policy=zzz)", &t, &v, &err), SB_EXIT_RUN);
	cr_assert_eq(sb_claim_eval("mean(makespan) ~ 3", &t, &l, &r, &pass, &err), SB_EXIT_INPUT);
	sb_table_release(&t);
}
