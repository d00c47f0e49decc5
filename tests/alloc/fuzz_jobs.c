/*
 * fuzz_jobs.c - libFuzzer harness of the alloc job-table loader
 * (sb_alloc_load_jobs, against the built-in DL2 types). Accepted rows have
 * a known type, positive epochs and weight, at least one worker, and PSs
 * exactly when the job is a PS job.
 * Corpus tests/alloc/fuzz/jobs/, dictionary tests/alloc/fuzz/jobs.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/alloc/alloc_wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	struct sb_alloc_types ty;
	struct sb_alloc_jobrow *rows;
	int n, k;

	sb_alloc_types_builtin(&ty);
	if (!sb_fuzz_loaded1(sb_alloc_load_jobs(path, &ty, &rows, &n, &err), &err, path)) {
		SB_FUZZ_CHECK(rows == NULL && n == 0, "rejected but not zeroed");
		return 0;
	}
	for (k = 0; k < n; k++)
		SB_FUZZ_CHECK(rows[k].arrival >= 0 && rows[k].epochs > 0 && rows[k].weight > 0 &&
			      rows[k].max_workers >= 1 && rows[k].type >= 0 && rows[k].type < ty.n &&
			      (rows[k].mode == SB_ALLOC_PS) == (rows[k].max_ps >= 1),
			      "row %d accepted out of range", k);
	sb_free(rows);
	return 0;
}
