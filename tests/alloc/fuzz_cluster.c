/*
 * fuzz_cluster.c - libFuzzer harness of the alloc cluster-file loader
 * (sb_alloc_load_cluster: "count,gpus,cpus" rows or a Tiresias nXgY
 * file). Accepted servers have non-negative capacities, not both zero.
 * Corpus tests/alloc/fuzz/cluster/, dictionary tests/alloc/fuzz/cluster.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/alloc/alloc_wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	double (*cap)[SB_ALLOC_NRES];
	int n, k;

	if (!sb_fuzz_loaded1(sb_alloc_load_cluster(path, &cap, &n, &err), &err, path)) {
		SB_FUZZ_CHECK(cap == NULL && n == 0, "rejected but not zeroed");
		return 0;
	}
	for (k = 0; k < n; k++)
		SB_FUZZ_CHECK(cap[k][0] >= 0 && cap[k][1] >= 0 && cap[k][0] + cap[k][1] > 0,
			      "server %d: capacities %g, %g", k, cap[k][0], cap[k][1]);
	sb_free(cap);
	return 0;
}
