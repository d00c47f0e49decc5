/*
 * fuzz_edgelist.c - libFuzzer harness of the cache family's edge-list
 * loader (sb_cache_load_edgelist, the format of SNAP graphs and Cora's
 * cora.cites). An accepted graph must satisfy the CSR invariants and the
 * normalisation counts; then a short trace over it goes through BGL's FIFO
 * cache with the independent checker, and the hits may not exceed
 * Belady's MIN. Corpus tests/cache/fuzz/edgelist/, dictionary
 * tests/cache/fuzz/edgelist.dict.
 */
#include "cache/cache.h"
#include "tests/fuzzkit.h"
#include "workloads/cache/graphs.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".txt", data, size);
	struct sb_cache_graph g;
	struct sb_err err = { 0, "" };
	char why[256];

	if (!sb_fuzz_loaded1(sb_cache_load_edgelist(&g, "graph", path, &err), &err, path)) {
		SB_FUZZ_CHECK(g.n == 0 && !g.adj && !g.off, "rejected but not zeroed");
		return 0;
	}
	SB_FUZZ_CHECK(sb_cache_graph_check(&g, why, sizeof why) == 0, "CSR: %s", why);
	SB_FUZZ_CHECK(g.in_edges == g.m + g.self_loops + g.duplicates && g.m > 0,
		      "counts: %lld read, %lld kept, %lld loops, %lld duplicates",
		      (long long)g.in_edges, (long long)g.m, (long long)g.self_loops,
		      (long long)g.duplicates);
	if (g.n <= 20000) {
		struct sb_cache_setup s;
		struct sb_cache_trace t;
		struct sb_cache_cost cost;
		struct sb_cache_stats st;
		struct sb_opts o;
		int32_t ntrain, *train = sb_cache_train_uniform(&g, 0.3, 1, &ntrain);
		int64_t bel = 0;
		memset(&s, 0, sizeof s);
		s.g = &g;
		s.P = 1 + sb_fuzz_pick(data, size, 2);
		s.k = 1 + sb_fuzz_pick(data, size, 3);
		s.capacity = 1 + g.n / 4;
		s.smp.nlayers = 2;
		s.smp.fanout[0] = 3;
		s.smp.fanout[1] = 2;
		s.smp.batch = 8;
		s.train = train;
		s.ntrain = ntrain;
		s.epochs = 2;
		s.seed = 1;
		s.order = sb_cache_order_find("shuffle");
		sb_cache_cost_defaults(&cost);
		sb_opts_defaults(&o, NULL);
		SB_FUZZ_CHECK(sb_cache_setup_check(&s, &err) == 0, "setup: %s", err.msg);
		SB_FUZZ_CHECK(sb_cache_trace_build(&s, 0, 2, &t, &err) == 0, "trace: %s", err.msg);
		SB_FUZZ_CHECK(sb_cache_run(&s, &t, sb_cache_policy_find("fifo"), &o, &cost, 1, &st,
					   &err) == 0, "fifo: %s", err.msg);
		SB_FUZZ_CHECK(sb_cache_belady(&s, &t, 0, SB_CACHE_MIN_BYPASS, &bel, &err) == 0, "belady: %s", err.msg);
		SB_FUZZ_CHECK(sb_cache_hits(&st) <= bel, "fifo %lld hits above Belady %lld",
			      (long long)sb_cache_hits(&st), (long long)bel);
		sb_cache_trace_release(&t);
		sb_free(train);
	}
	sb_cache_graph_release(&g);
	return 0;
}
