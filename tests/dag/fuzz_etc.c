/*
 * fuzz_etc.c - libFuzzer harness of the ETC matrix loader of the HEFT
 * literature (sb_load_etc): the input holds the three files (execution
 * times, connectivity, bandwidths) separated by lines "%%"; an accepted
 * instance goes through tests/dag/fuzzcheck.c. Corpus tests/dag/fuzz/etc/,
 * dictionary tests/dag/fuzz/etc.dict.
 */
#include "tests/dag/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/dag/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_fuzz_part part[3] = { { 0 } };
	const char *paths[3];
	struct sb_dag_inst in;
	struct sb_err err = { 0, "" };
	int k;

	sb_fuzz_split(data, size, part, 3);
	for (k = 0; k < 3; k++)
		paths[k] = sb_fuzz_file(k, ".csv", part[k].p, part[k].n);
	/* a size mismatch between two files may be reported on either */
	if (sb_fuzz_loaded(sb_load_etc(paths[0], paths[1], paths[2], &in, &err), &err, paths, 3))
		sb_fuzz_dag_inst(&in, sb_fuzz_pick(data, size, 3));
	else
		SB_FUZZ_CHECK(!in.name && !in.etc && in.g.n == 0, "rejected but not zeroed");
	sb_dag_inst_release(&in);
	return 0;
}
