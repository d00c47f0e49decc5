/*
 * test_graph.c - the cache family's graphs: CSR normalisation (symmetric,
 * deduplicated, no self-loops, counts), the edge-list loader on good and
 * bad files (file, line and field named, exit code 2), Cora when present,
 * and the R-MAT and SBM generators (deterministic, valid, labelled).
 */
#include "tests/testutil.h"

#include "cache/graph.h"
#include "workloads/cache/graphs.h"

static void assert_valid(const struct sb_cache_graph *g)
{
	char why[256];
	cr_assert_eq(sb_cache_graph_check(g, why, sizeof why), 0, "%s", why);
}

Test(cache_graph, normalisation_counts)
{
	/* 0-1 twice (once reversed), a self-loop on 2, 1-2, 3-3 only */
	int32_t u[] = { 0, 1, 2, 1, 3 }, v[] = { 1, 0, 2, 2, 3 };
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_graph_from_arrays(&g, 4, 5, u, v, &err), 0, "%s", err.msg);
	assert_valid(&g);
	cr_assert_eq(g.m, 2);
	cr_assert_eq(g.in_edges, 5);
	cr_assert_eq(g.self_loops, 2);
	cr_assert_eq(g.duplicates, 1);
	cr_assert_eq(sb_cache_degree(&g, 0), 1);
	cr_assert_eq(sb_cache_degree(&g, 1), 2);
	cr_assert_eq(sb_cache_degree(&g, 3), 0);
	cr_assert_eq(g.adj[g.off[1]], 0);
	cr_assert_eq(g.adj[g.off[1] + 1], 2);
	sb_cache_graph_release(&g);
}

Test(cache_graph, only_self_loops_is_empty)
{
	int32_t u[] = { 0, 1 }, v[] = { 0, 1 };
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_graph_from_arrays(&g, 2, 2, u, v, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "empty graph"), "%s", err.msg);
}

Test(cache_graph, checker_rejects_broken_csr)
{
	int32_t u[] = { 0, 1 }, v[] = { 1, 2 };
	struct sb_cache_graph g;
	struct sb_err err;
	char why[256];
	cr_assert_eq(sb_cache_graph_from_arrays(&g, 3, 2, u, v, &err), 0);
	g.adj[g.off[0]] = 2;      /* 0-2 without 2-0 */
	cr_assert_eq(sb_cache_graph_check(&g, why, sizeof why), 1);
	cr_assert(strstr(why, "one direction"), "%s", why);
	g.adj[g.off[0]] = 0;      /* self-loop */
	cr_assert_eq(sb_cache_graph_check(&g, why, sizeof why), 1);
	sb_cache_graph_release(&g);
}

Test(cache_graph, edgelist_remaps_sparse_ids)
{
	const char *p = sb_test_write("# SNAP header\n# Nodes: 4\n\n35\t1033\n"
				      "1033 103482\n  35 103482\n35 35\n103482\t35\n");
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_load_edgelist(&g, "graph", p, &err), 0, "%s", err.msg);
	assert_valid(&g);
	cr_assert_eq(g.n, 3);
	cr_assert_eq(g.m, 3);
	cr_assert_eq(g.self_loops, 1);
	cr_assert_eq(g.duplicates, 1);
	cr_assert_eq(g.ext_id[0], 35);
	cr_assert_eq(g.ext_id[1], 1033);
	cr_assert_eq(g.ext_id[2], 103482);
	sb_cache_graph_release(&g);
	unlink(p);
}

static void bad(const char *text, const char *want1, const char *want2)
{
	const char *p = sb_test_write(text);
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_load_edgelist(&g, "graph", p, &err), SB_EXIT_INPUT, "accepted: %s",
		     text);
	cr_assert(strstr(err.msg, p), "no file name: %s", err.msg);
	cr_assert(strstr(err.msg, want1), "'%s' not in: %s", want1, err.msg);
	if (want2)
		cr_assert(strstr(err.msg, want2), "'%s' not in: %s", want2, err.msg);
	unlink(p);
}

Test(cache_graph, edgelist_bad_input)
{
	bad("1 2\n2 x3\n", "line 2", "field 'to'");
	bad("a 2\n", "line 1", "field 'from'");
	bad("1 2\n3 2147483648\n", "line 2", "field 'to'");
	bad("1 2\n-4 2\n", "line 2", "field 'from'");
	bad("1 2\n3\n", "line 2", "two node ids");
	bad("1 2 3\n", "line 1", "more than two");
	bad("# nothing\n\n", "empty graph", NULL);
	bad("", "empty graph", NULL);
	bad("5 5\n7 7\n", "empty graph", "self-loops");
	bad("1 2\n1.5 2\n", "line 2", "not an integer");
}

Test(cache_graph, edgelist_largest_id_accepted)
{
	const char *p = sb_test_write("0 2147483647\n");
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_load_edgelist(&g, "graph", p, &err), 0, "%s", err.msg);
	cr_assert_eq(g.ext_id[1], 2147483647L);
	sb_cache_graph_release(&g);
	unlink(p);
}

Test(cache_graph, missing_file)
{
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_load_edgelist(&g, "graph", "/nonexistent/x.txt", &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "/nonexistent/x.txt"), "%s", err.msg);
}

Test(cache_graph, cora_when_present)
{
	DATA_OR_SKIP(path, "cora/cora.cites");
	struct sb_cache_graph g;
	struct sb_err err;
	cr_assert_eq(sb_cache_load_edgelist(&g, "cora", path, &err), 0, "%s", err.msg);
	assert_valid(&g);
	/* SOURCES.md: 5429 links among 2708 papers */
	cr_assert_eq(g.n, 2708);
	cr_assert_eq(g.in_edges, 5429);
	cr_assert_eq(g.in_edges, g.m + g.self_loops + g.duplicates);
	sb_cache_graph_release(&g);
}

Test(cache_graph, rmat_deterministic_and_valid)
{
	struct sb_cache_graph a, b;
	struct sb_err err;
	int32_t v, maxdeg = 0;
	cr_assert_eq(sb_cache_gen_rmat(&a, 12, 16, 0.57, 0.19, 0.19, 5, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cache_gen_rmat(&b, 12, 16, 0.57, 0.19, 0.19, 5, &err), 0, "%s", err.msg);
	assert_valid(&a);
	cr_assert_eq(a.n, 4096);
	cr_assert_eq(a.in_edges, 16 * 4096);
	cr_assert_eq(a.m, b.m);
	cr_assert_eq(memcmp(a.adj, b.adj, (size_t)(2 * a.m) * sizeof *a.adj), 0);
	/* skewed: the largest degree far above the mean of about 2 * 16 */
	for (v = 0; v < a.n; v++)
		if (sb_cache_degree(&a, v) > maxdeg)
			maxdeg = (int32_t)sb_cache_degree(&a, v);
	cr_assert_gt(maxdeg, 10 * 2 * a.m / a.n, "max degree %d", maxdeg);
	sb_cache_graph_release(&b);
	cr_assert_eq(sb_cache_gen_rmat(&b, 12, 16, 0.57, 0.19, 0.19, 6, &err), 0);
	cr_assert(a.m != b.m || memcmp(a.adj, b.adj, (size_t)(2 * a.m) * sizeof *a.adj),
		  "another seed gives the same graph");
	sb_cache_graph_release(&a);
	sb_cache_graph_release(&b);
	cr_assert_eq(sb_cache_gen_rmat(&a, 0, 16, 0.57, 0.19, 0.19, 5, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_cache_gen_rmat(&a, 10, 16, 0.6, 0.3, 0.2, 5, &err), SB_EXIT_INPUT);
}

Test(cache_graph, sbm_labels_and_mixing)
{
	struct sb_cache_graph g;
	struct sb_err err;
	int64_t cross = 0, i;
	int32_t v, *size;
	cr_assert_eq(sb_cache_gen_sbm(&g, 4000, 16, 20, 0.1, 3, &err), 0, "%s", err.msg);
	assert_valid(&g);
	cr_assert_eq(g.nlabel, 16);
	size = SB_NEW(int32_t, 16);
	for (v = 0; v < g.n; v++) {
		cr_assert(g.label[v] >= 0 && g.label[v] < 16);
		size[g.label[v]]++;
		for (i = g.off[v]; i < g.off[v + 1]; i++)
			cross += g.label[g.adj[i]] != g.label[v];
	}
	for (v = 0; v < 16; v++)
		cr_assert_eq(size[v], 250);
	/* mixing 0.1: about 10% of the edges between communities */
	cr_assert(cross > 0.07 * 2 * g.m && cross < 0.13 * 2 * g.m, "cross %lld of %lld",
		  (long long)cross, (long long)(2 * g.m));
	cr_assert(g.m > 0.9 * 4000 * 10 && g.m <= 4000 * 10, "m %lld", (long long)g.m);
	sb_free(size);
	sb_cache_graph_release(&g);
	cr_assert_eq(sb_cache_gen_sbm(&g, 10, 8, 2, 0.1, 3, &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_cache_gen_sbm(&g, 100, 2, 2, 1.5, 3, &err), SB_EXIT_INPUT);
}
