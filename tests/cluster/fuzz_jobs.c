/*
 * fuzz_jobs.c - libFuzzer harness of the job-set CSV loader
 * (sb_load_jobs_csv, `sb eval cluster --jobs`): the input is the CSV; an
 * accepted job set is checked against jobs.h's promises and run through
 * tests/cluster/fuzzcheck.c. Corpus tests/cluster/fuzz/jobs/, dictionary
 * tests/cluster/fuzz/jobs.dict.
 */
#include <math.h>
#include <string.h>

#include "tests/cluster/fuzzcheck.h"
#include "tests/fuzzkit.h"
#include "workloads/cluster/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_jobset js;
	struct sb_cluster cl;
	struct sb_err err = { 0, "" };
	int i, nc;

	if (!sb_fuzz_loaded1(sb_load_jobs_csv(path, &js, &err), &err, path)) {
		SB_FUZZ_CHECK(js.n == 0 && !js.job && js.nmodel == 0 && !js.model,
			      "rejected but not zeroed");
		return 0;
	}
	sb_catalog(&nc);
	SB_FUZZ_CHECK(js.n > 0 && js.nmodel == nc, "%d jobs, %d models", js.n, js.nmodel);
	SB_FUZZ_CHECK(strstr(js.source, path) != NULL, "source without the file: %s", js.source);
	for (i = 0; i < js.n; i++) {
		const struct sb_job *j = &js.job[i];
		SB_FUZZ_CHECK(j->id == i && j->model >= 0 && j->model < js.nmodel, "job %d", i);
		SB_FUZZ_CHECK((long)j->gpus == (long)j->d * j->t * j->p, "job %d: gpus", i);
		SB_FUZZ_CHECK(js.model[j->model].cls != SB_MODEL_CNN || j->t == 1,
			      "job %d: tensor-parallel CNN", i);
		SB_FUZZ_CHECK((long)j->batch >= (long)j->d * j->micro, "job %d: batch", i);
		SB_FUZZ_CHECK(j->lr_mult == 1 && j->data_frac == 1 && j->trace_runtime == -1,
			      "job %d: defaults", i);
	}
	sb_fuzz_cluster(&cl);
	sb_fuzz_cluster_jobset(&js, &cl, sb_fuzz_pick(data, size, 3));
	sb_jobset_release(&js);
	return 0;
}
