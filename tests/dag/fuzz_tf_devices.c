/*
 * fuzz_tf_devices.c - libFuzzer harness of the TensorFlow device CSV loader
 * (sb_load_tf_devices, through sb_load_tf_inst with a fixed graph): the
 * input is the device file; an accepted instance goes through
 * tests/dag/fuzzcheck.c. Corpus tests/dag/fuzz/tf_devices/, dictionary
 * tests/dag/fuzz/tf_devices.dict.
 */
#include <string.h>

#include "tests/dag/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/dag/load.h"

/* A small graph with an edge, a colocation pair and no type constraint,
 * so that every accepted device set can run it. */
static const char graph[] =
	"Id,out,in,coloc,t,o,r,c\n"
	"0,5;1;6,,,681,250,10,NO\n1,6,0,,448,786,10,NO\n5,,0,6,391,244,10,NO\n"
	"6,,0;1,,540,851,10,NO\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *paths[2];
	struct sb_dag_inst in;
	struct sb_err err = { 0, "" };

	paths[0] = sb_fuzz_file(0, ".csv", graph, strlen(graph));
	paths[1] = sb_fuzz_file(1, ".csv", data, size);
	if (sb_fuzz_loaded(sb_load_tf_inst(paths[0], paths[1], &in, &err), &err, paths + 1, 1)) {
		SB_FUZZ_CHECK(in.name && in.source, "instance without a name or source");
		sb_fuzz_dag_inst(&in, sb_fuzz_pick(data, size, 3));
	} else {
		SB_FUZZ_CHECK(!in.name && !in.dev.speed && in.dev.n == 0, "rejected but not zeroed");
	}
	sb_dag_inst_release(&in);
	return 0;
}
