/*
 * fuzz_values.c - libFuzzer harness of the one-column value CSV loader
 * (sb_load_values: philly_runtime.csv, yarn-gput*.csv): the input is the
 * CSV, read with column "runtime". Accepted values are finite and >= 0.
 * Corpus tests/cluster/fuzz/values/, dictionary tests/cluster/fuzz/values.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/cluster/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	double *v;
	int k, n;

	if (!sb_fuzz_loaded1(sb_load_values(path, "runtime", &v, &n, &err), &err, path)) {
		SB_FUZZ_CHECK(v == NULL && n == 0, "rejected but not zeroed");
		return 0;
	}
	SB_FUZZ_CHECK(n > 0, "no values");
	for (k = 0; k < n; k++)
		SB_FUZZ_CHECK(isfinite(v[k]) && v[k] >= 0, "value %d: %g", k, v[k]);
	sb_free(v);
	return 0;
}
