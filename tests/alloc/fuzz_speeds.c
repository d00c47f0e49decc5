/*
 * fuzz_speeds.c - libFuzzer harness of DL2's speed-table loader
 * (sb_alloc_load_speeds). Accepted rows have caps in range, a finite
 * speed >= 0 and finite usages, and the Optimus-form fit of every model
 * returns non-negative finite coefficients.
 * Corpus tests/alloc/fuzz/speeds/, dictionary tests/alloc/fuzz/speeds.dict.
 */
#include <math.h>

#include "tests/fuzzkit.h"
#include "workloads/alloc/alloc_wl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".txt", data, size);
	struct sb_err err = { 0, "" };
	struct sb_alloc_speeds sp;
	int i, m, k;

	if (!sb_fuzz_loaded1(sb_alloc_load_speeds(path, &sp, &err), &err, path)) {
		SB_FUZZ_CHECK(sp.n == 0 && !sp.row, "rejected but not zeroed");
		return 0;
	}
	for (i = 0; i < sp.n; i++) {
		const struct sb_alloc_speed_row *r = &sp.row[i];
		SB_FUZZ_CHECK(r->model >= 0 && r->model < sp.nmodel && r->ps >= 1 &&
			      r->ps <= SB_ALLOC_MAXK && r->workers >= 1 &&
			      r->workers <= SB_ALLOC_MAXK && r->speed >= 0 && isfinite(r->speed) &&
			      isfinite(r->ps_cpu) && isfinite(r->worker_cpu) && r->batch >= 1,
			      "row %d accepted out of range", i);
		SB_FUZZ_CHECK(sb_alloc_speeds_find(&sp, r->model, r->ps, r->workers) == r,
			      "row %d is a duplicate", i);
	}
	for (m = 0; m < sp.nmodel; m++) {
		double th[SB_ALLOC_FIT_N], rms;
		if (sb_alloc_speed_fit(&sp, m, th, &rms))
			continue;   /* every support singular (e.g. huge values) */
		for (k = 0; k < SB_ALLOC_FIT_N; k++)
			SB_FUZZ_CHECK(th[k] >= 0 && isfinite(th[k]), "model %d: theta %d = %g", m, k,
				      th[k]);
	}
	sb_alloc_speeds_release(&sp);
	return 0;
}
