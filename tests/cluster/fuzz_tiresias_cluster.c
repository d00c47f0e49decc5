/*
 * fuzz_tiresias_cluster.c - libFuzzer harness of the Tiresias cluster file
 * loader (sb_load_tiresias_cluster: cluster_spec.csv, nXgY.csv): the input
 * is the CSV; an accepted shape has positive counts, at most INT_MAX GPUs
 * and a positive finite memory. Corpus tests/cluster/fuzz/tiresias_cluster/,
 * dictionary tests/cluster/fuzz/tiresias_cluster.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/cluster/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_cluster_shape c;
	struct sb_err err = { 0, "" };

	if (!sb_fuzz_loaded1(sb_load_tiresias_cluster(path, &c, &err), &err, path)) {
		SB_FUZZ_CHECK(c.switches == 0, "rejected but not zeroed");
		return 0;
	}
	SB_FUZZ_CHECK(c.switches >= 1 && c.nodes_per_switch >= 1 && c.gpus_per_node >= 1 &&
		      c.cpus_per_node >= 1, "counts %d %d %d %d", c.switches,
		      c.nodes_per_switch, c.gpus_per_node, c.cpus_per_node);
	SB_FUZZ_CHECK((double)c.switches * c.nodes_per_switch * c.gpus_per_node <= 2147483647.0,
		      "more than INT_MAX GPUs");
	SB_FUZZ_CHECK(isfinite(c.mem_gb) && c.mem_gb > 0, "memory %g", c.mem_gb);
	return 0;
}
