/*
 * fuzz_arrivals.c - libFuzzer harness of the DL2 arrival-pattern loader
 * (sb_alloc_load_arrivals), with the pattern cap K = 1 or 2 from the
 * last byte. Accepted counts lie in [0, K].
 * Corpus tests/alloc/fuzz/arrivals/, dictionary tests/alloc/fuzz/arrivals.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/alloc/alloc_wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	int *c, n, k, K = 1 + sb_fuzz_pick(data, size, 2);

	if (!sb_fuzz_loaded1(sb_alloc_load_arrivals(path, K, &c, &n, &err), &err, path)) {
		SB_FUZZ_CHECK(c == NULL && n == 0, "rejected but not zeroed");
		return 0;
	}
	for (k = 0; k < n; k++)
		SB_FUZZ_CHECK(c[k] >= 0 && c[k] <= K, "slot %d: %d arrivals, cap %d", k, c[k], K);
	sb_free(c);
	return 0;
}
