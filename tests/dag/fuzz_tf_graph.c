/*
 * fuzz_tf_graph.c - libFuzzer harness of the TensorFlow graph CSV loader
 * (sb_load_tf_graph, through sb_load_tf_inst with a fixed device file):
 * the input is the graph file; an accepted instance goes through
 * tests/dag/fuzzcheck.c. Corpus tests/dag/fuzz/tf_graph/, dictionary
 * tests/dag/fuzz/tf_graph.dict.
 */
#include <string.h>

#include "tests/dag/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/dag/load.h"

/* Three device types, so that every constraint of the graph can be met. */
static const char devices[] =
	"Id,RAM,#operations,commnication speed,type\n"
	"0,300000,118,184;25,CPU\n1,200000,79,4,GPU\n2,100000,45,,TPU\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *paths[2];
	struct sb_dag_inst in;
	struct sb_err err = { 0, "" };

	paths[0] = sb_fuzz_file(0, ".csv", data, size);
	paths[1] = sb_fuzz_file(1, ".csv", devices, strlen(devices));
	if (sb_fuzz_loaded(sb_load_tf_inst(paths[0], paths[1], &in, &err), &err, paths, 1)) {
		SB_FUZZ_CHECK(in.name && in.source, "instance without a name or source");
		sb_fuzz_dag_inst(&in, sb_fuzz_pick(data, size, 3));
	} else {
		SB_FUZZ_CHECK(!in.name && !in.g.ops && in.g.n == 0, "rejected but not zeroed");
	}
	sb_dag_inst_release(&in);
	return 0;
}
