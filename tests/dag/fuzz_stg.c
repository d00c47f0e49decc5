/*
 * fuzz_stg.c - libFuzzer harness of the Standard Task Graph loader
 * (sb_load_stg): the input is the .stg file, its last byte also picks 1..4
 * devices; an accepted instance goes through tests/dag/fuzzcheck.c.
 * Corpus tests/dag/fuzz/stg/, dictionary tests/dag/fuzz/stg.dict.
 */
#include "tests/dag/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/dag/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".stg", data, size);
	int ndev = 1 + sb_fuzz_pick(data, size, 4);
	struct sb_dag_inst in;
	struct sb_err err = { 0, "" };
	long cp = -2;

	if (sb_fuzz_loaded1(sb_load_stg(path, ndev, &in, &cp, &err), &err, path)) {
		SB_FUZZ_CHECK(in.dev.n == ndev, "%d devices, asked for %d", in.dev.n, ndev);
		SB_FUZZ_CHECK(cp >= -1, "trailer critical path %ld", cp);
		sb_fuzz_dag_inst(&in, sb_fuzz_pick(data, size, 3));
	} else {
		SB_FUZZ_CHECK(!in.name && in.g.n == 0 && in.dev.n == 0, "rejected but not zeroed");
	}
	sb_dag_inst_release(&in);
	return 0;
}
