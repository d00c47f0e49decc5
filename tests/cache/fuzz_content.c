/*
 * fuzz_content.c - libFuzzer harness of Cora's cora.content loader
 * (sb_cache_load_cora_content) against a fixed small cora.cites graph of
 * papers 1, 2, 3, 5, 8 and 13 (written once per input: the content file
 * is the fuzzed input). An accepted file must give every node a label
 * below the class count and finite features; then two GraphSAGE steps on
 * a sampled block must give a finite loss and an accuracy in [0, 1].
 * Corpus tests/cache/fuzz/content/, dictionary tests/cache/fuzz/content.dict.
 */
#include "cache/sage.h"
#include "tests/fuzzkit.h"
#include "workloads/cache/features.h"
#include "workloads/cache/graphs.h"

#include <math.h>
#include <string.h>

static const char cites[] = "1\t2\n2\t3\n3\t5\n5\t8\n8\t13\n13\t1\n2\t8\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *gpath = sb_fuzz_file(0, ".cites", cites, sizeof cites - 1);
	const char *path;
	struct sb_cache_graph g;
	struct sb_cache_feats f;
	struct sb_err err = { 0, "" };
	int32_t v;
	size_t i;

	SB_FUZZ_CHECK(sb_cache_load_edgelist(&g, "cora", gpath, &err) == 0, "cites: %s", err.msg);
	path = sb_fuzz_file(1, ".content", data, size);
	if (!sb_fuzz_loaded1(sb_cache_load_cora_content(&f, &g, path, &err), &err, path)) {
		SB_FUZZ_CHECK(!f.x && !f.label && f.dim == 0, "rejected but not zeroed");
		sb_cache_graph_release(&g);
		return 0;
	}
	SB_FUZZ_CHECK(f.n == g.n && f.dim >= 1 && f.nclass >= 1 && f.nclass <= SB_CACHE_MAX_CLASSES,
		      "shape: %d rows, %d words, %d classes", f.n, f.dim, f.nclass);
	for (v = 0; v < g.n; v++)
		SB_FUZZ_CHECK(f.label[v] >= 0 && f.label[v] < f.nclass, "label %d of node %d",
			      f.label[v], v);
	for (i = 0; i < (size_t)g.n * f.dim; i++)
		SB_FUZZ_CHECK(isfinite(f.x[i]), "feature %zu not finite", i);
	if (f.dim <= 256) {
		struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
		struct sb_cache_sage m;
		struct sb_cache_block b;
		int32_t seeds[2] = { 0, 1 };
		int fan[2] = { 2, 2 };
		double loss, acc;
		SB_FUZZ_CHECK(sb_cache_sage_init(&m, f.dim, 4, f.nclass, 0.01, &r, &err) == 0, "%s",
			      err.msg);
		sb_cache_block_init(&b, &g);
		sb_cache_block_sample(&b, &g, fan, seeds, 2, &r);
		sb_cache_sage_step(&m, &b, &f);
		loss = sb_cache_sage_step(&m, &b, &f);
		acc = sb_cache_sage_accuracy(&m, &g, &f, seeds, 2);
		SB_FUZZ_CHECK(isfinite(loss) && acc >= 0 && acc <= 1, "loss %g, accuracy %g", loss, acc);
		sb_cache_block_release(&b);
		sb_cache_sage_release(&m);
	}
	sb_cache_feats_release(&f);
	sb_cache_graph_release(&g);
	return 0;
}
