/*
 * fuzz_tiresias.c - libFuzzer harness of the Tiresias job trace loader
 * (sb_load_tiresias_jobs, `sb eval cluster --tiresias`): the input is the
 * CSV; an accepted trace is checked (trace.h), turned into W3 as `sb eval`
 * does (which may refuse a model outside the catalogue) and run through
 * tests/cluster/fuzzcheck.c. Corpus tests/cluster/fuzz/tiresias/,
 * dictionary tests/cluster/fuzz/tiresias.dict.
 */
#include "tests/cluster/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/cluster/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_trace t;
	struct sb_jobset js;
	struct sb_cluster cl;
	struct sb_err err = { 0, "" };
	int k, rc;

	if (!sb_fuzz_loaded1(sb_load_tiresias_jobs(path, &t, &err), &err, path)) {
		SB_FUZZ_CHECK(t.job == NULL && t.n == 0, "rejected but not zeroed");
		return 0;
	}
	sb_fuzz_cluster_trace(&t);
	SB_FUZZ_CHECK(t.ndropped == 0, "Tiresias jobs dropped: %s", t.drop_note);
	for (k = 0; k < t.n; k++)
		SB_FUZZ_CHECK(t.job[k].runtime > 0 && t.job[k].iters >= 1 && t.job[k].model[0],
			      "job %d: runtime, iterations or model missing", k);
	sb_fuzz_cluster(&cl);
	rc = sb_w3_from_trace(&t, &cl, sb_fuzz_pick(data, size, 2), &js, &err);
	SB_FUZZ_CHECK(rc == 0 || rc == SB_EXIT_INPUT, "W3 from an accepted trace: %s", err.msg);
	if (rc == 0) {
		sb_fuzz_cluster_jobset(&js, &cl, sb_fuzz_pick(data, size, 3));
		sb_jobset_release(&js);
	}
	sb_trace_release(&t);
	return 0;
}
