/*
 * fuzz_philly.c - libFuzzer harness of the Philly job list loader
 * (sb_load_philly_jobs, `sb eval cluster --philly`): the input is the JSON
 * document; an accepted trace is checked (trace.h), turned into W2 as
 * `sb eval` does and run through tests/cluster/fuzzcheck.c. Corpus
 * tests/cluster/fuzz/philly/, dictionary tests/cluster/fuzz/philly.dict.
 */
#include "rng.h"
#include "tests/cluster/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/cluster/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".json", data, size);
	struct sb_trace t;
	struct sb_jobset js;
	struct sb_cluster cl;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	struct sb_err err = { 0, "" };
	int k, rc;

	if (!sb_fuzz_loaded1(sb_load_philly_jobs(path, &t, &err), &err, path)) {
		SB_FUZZ_CHECK(t.job == NULL && t.n == 0, "rejected but not zeroed");
		return 0;
	}
	sb_fuzz_cluster_trace(&t);
	for (k = 0; k < t.n; k++)
		SB_FUZZ_CHECK(t.job[k].runtime > 0 && t.job[k].iters == -1 && !t.job[k].model[0],
			      "job %d: runtime, iterations or model", k);
	sb_fuzz_cluster(&cl);
	/* with and without rescaling the arrivals to a load */
	rc = sb_w2_from_trace(&t, &cl, sb_fuzz_pick(data, size, 2) ? 0.8 : -1, &r, &js, &err);
	SB_FUZZ_CHECK(rc == 0 || rc == SB_EXIT_INPUT, "W2 from an accepted trace: %s", err.msg);
	if (rc == 0) {
		sb_fuzz_cluster_jobset(&js, &cl, sb_fuzz_pick(data, size, 3));
		sb_jobset_release(&js);
	}
	sb_trace_release(&t);
	return 0;
}
