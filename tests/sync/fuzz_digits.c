/*
 * fuzz_digits.c - libFuzzer harness of the sync family's loader of the
 * scikit-learn digits CSV (sb_sync_digits_load, `sb eval sync --digits`):
 * the input is the file. What it accepts must be what sync.h promises: at
 * least 20 rows of 64 features in [0, 1] (pixels 0..16 scaled by 1/16) and
 * a label in 0..9; then the train/test split the world builds from it
 * (one fifth held out, as workloads/sync/data.c does) must be a partition
 * of the rows. Training is left to the family's tests: it costs seconds.
 * Corpus tests/sync/fuzz/digits/, dictionary tests/sync/fuzz/digits.dict.
 */
#include <math.h>
#include <string.h>

#include "sync/sync.h"
#include "tests/fuzzkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	struct sb_sync_data s, train, test;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	int i, j, count[10] = { 0 }, part[10] = { 0 };

	if (!sb_fuzz_loaded1(sb_sync_digits_load(&s, path, &err), &err, path)) {
		SB_FUZZ_CHECK(s.n == 0 && !s.x && !s.y, "rejected but not zeroed");
		return 0;
	}
	SB_FUZZ_CHECK(s.n >= 20 && s.d == 64 && s.k == 10, "%d rows of %d features, %d classes",
		      s.n, s.d, s.k);
	for (i = 0; i < s.n; i++) {
		SB_FUZZ_CHECK(s.y[i] >= 0 && s.y[i] < 10, "row %d: label %d", i, s.y[i]);
		count[s.y[i]]++;
		for (j = 0; j < 64; j++)
			SB_FUZZ_CHECK(isfinite(s.x[(size_t)i * 64 + j]) && s.x[(size_t)i * 64 + j] >= 0 &&
				      s.x[(size_t)i * 64 + j] <= 1,
				      "row %d: feature %d = %g", i, j, s.x[(size_t)i * 64 + j]);
	}
	sb_sync_split(&s, s.n / 5, &r, &train, &test);
	SB_FUZZ_CHECK(train.n + test.n == s.n && test.n == s.n / 5, "split %d + %d of %d",
		      train.n, test.n, s.n);
	/* a partition: every class keeps its size over the two parts */
	for (i = 0; i < train.n; i++)
		part[train.y[i]]++;
	for (i = 0; i < test.n; i++)
		part[test.y[i]]++;
	SB_FUZZ_CHECK(!memcmp(count, part, sizeof count), "the split is not a partition");
	sb_sync_data_release(&train);
	sb_sync_data_release(&test);
	sb_sync_data_release(&s);
	return 0;
}
