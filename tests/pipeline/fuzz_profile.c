/*
 * fuzz_profile.c - libFuzzer harness of the layer-profile loaders: the
 * input is one profile file (PipeDream's graph.txt layout, which DAPPLE's
 * profiles share), read by both sb_load_pipedream_profile (at pbs 4) and
 * sb_load_dapple_profile (from a file named ...-pbs-4.txt), which must
 * agree on accepting it. An accepted model is planned and simulated on a
 * 4-GPU topology through tests/pipeline/fuzzcheck.c. Corpus
 * tests/pipeline/fuzz/profile/, dictionary tests/pipeline/fuzz/profile.dict.
 */
#include "tests/fuzzkit.h"
#include "tests/pipeline/fuzzcheck.h"
#include "workloads/pipeline/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const planners[] = { "gpipe-balanced", "dapple", "pipedream" };
	static struct sb_topo topo;
	const char *pd = sb_fuzz_file(0, ".txt", data, size);
	const char *dp = sb_fuzz_file(1, "-pbs-4.txt", data, size);
	struct sb_pmodel a, b;
	struct sb_err err = { 0, "" };
	int ok_a, ok_b, choice = sb_fuzz_pick(data, size, 24);

	if (!topo.n)
		SB_FUZZ_CHECK(sb_topo_named("pcie4", &topo, &err) == 0, "%s", err.msg);
	ok_a = sb_fuzz_loaded1(sb_load_pipedream_profile(pd, 4, &a, &err), &err, pd);
	ok_b = sb_fuzz_loaded1(sb_load_dapple_profile(dp, &b, &err), &err, dp);
	SB_FUZZ_CHECK(ok_a == ok_b, "PipeDream's loader %s it, DAPPLE's %s it",
		      ok_a ? "accepts" : "rejects", ok_b ? "accepts" : "rejects");
	if (ok_a) {
		sb_fuzz_pipeline_model(&a, pd, 4);
		sb_fuzz_pipeline_model(&b, dp, 4);
		SB_FUZZ_CHECK(a.n == b.n, "%d layers for PipeDream, %d for DAPPLE", a.n, b.n);
		sb_fuzz_pipeline_run(&a, &topo, planners[choice % 3], choice / 3);
	} else {
		SB_FUZZ_CHECK(a.n == 0 && !a.layer && !a.source[0] && b.n == 0 && !b.layer,
			      "rejected but not zeroed");
	}
	sb_pmodel_release(&a);
	sb_pmodel_release(&b);
	return 0;
}
