/*
 * fuzz_types.c - libFuzzer harness of the DL2 job-type table loader
 * (sb_alloc_load_types). Accepted types have positive compute, an epoch
 * fraction in (0, 1], a model name and a finite size.
 * Corpus tests/alloc/fuzz/types/, dictionary tests/alloc/fuzz/types.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/alloc/alloc_wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	struct sb_alloc_types ty;
	int k;

	if (!sb_fuzz_loaded1(sb_alloc_load_types(path, &ty, &err), &err, path)) {
		SB_FUZZ_CHECK(ty.n == 0, "rejected but not zeroed");
		return 0;
	}
	for (k = 0; k < ty.n; k++)
		SB_FUZZ_CHECK(ty.t[k].compute > 0 && ty.t[k].epoch_frac > 0 &&
			      ty.t[k].epoch_frac <= 1 && ty.t[k].model[0] &&
			      isfinite(ty.t[k].model_mb), "type %d accepted out of range", k);
	return 0;
}
