/*
 * fuzz_tensors.c - libFuzzer harness of the model tensor table loader
 * (sb_load_model_tensors: tiresias_model_tensors.csv): the input is the
 * CSV; an accepted table has every model's indices 0..k-1 once, finite
 * sizes >= 0, and sb_tensor_table_find finds every model. Corpus
 * tests/cluster/fuzz/tensors/, dictionary tests/cluster/fuzz/tensors.dict.
 */
#include <math.h>
#include <string.h>

#include "tests/fuzzkit.h"
#include "workloads/cluster/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_tensor_table t;
	struct sb_err err = { 0, "" };
	int i, k;

	if (!sb_fuzz_loaded1(sb_load_model_tensors(path, &t, &err), &err, path)) {
		SB_FUZZ_CHECK(t.mb == NULL && t.nmodel == 0, "rejected but not zeroed");
		return 0;
	}
	SB_FUZZ_CHECK(t.nmodel > 0 && t.off[0] == 0, "%d models", t.nmodel);
	for (i = 0; i < t.nmodel; i++) {
		int count;
		const double *mb = sb_tensor_table_find(&t, t.name[i], &count);
		SB_FUZZ_CHECK(t.name[i][0] && memchr(t.name[i], '\0', sizeof t.name[i]),
			      "model %d: name", i);
		SB_FUZZ_CHECK(t.off[i + 1] > t.off[i], "model %d: no tensors", i);
		/* a repeated name would make find return the first model */
		SB_FUZZ_CHECK(mb == t.mb + t.off[i] && count == t.off[i + 1] - t.off[i],
			      "model %d: find", i);
		for (k = t.off[i]; k < t.off[i + 1]; k++)
			SB_FUZZ_CHECK(isfinite(t.mb[k]) && t.mb[k] >= 0, "tensor %d: %g", k, t.mb[k]);
	}
	sb_tensor_table_release(&t);
	return 0;
}
