/*
 * fuzz_topo.c - libFuzzer harness of the topologies a user names on the
 * command line (`sb eval pipeline --topo NAME` or `--random-topo N --seed
 * S`): the input is one line, either a name for sb_topo_named or "N S" for
 * sb_topo_random with N in 1..64 (the CLI allows 256, but the widest-path
 * closure of 256 GPUs takes 50 ms under the sanitizers, which would cut the
 * executions per second tenfold; the spec's random topologies have 8..64
 * GPUs). An accepted topology is
 * checked and an analytic model is planned and simulated on it through
 * tests/pipeline/fuzzcheck.c. Corpus tests/pipeline/fuzz/topo/, dictionary
 * tests/pipeline/fuzz/topo.dict.
 */
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "tests/fuzzkit.h"
#include "tests/pipeline/fuzzcheck.h"
#include "workloads/pipeline/load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sb_pmodel model;
	struct sb_topo t;
	struct sb_err err = { 0, "" };
	char line[128], *end;
	size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
	long ngpu;
	int rc, choice;

	if (!model.n)
		SB_FUZZ_CHECK(sb_analytic_model("gnmt-16", &model, &err) == 0, "%s", err.msg);
	memcpy(line, data, n);
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	memset(&t, 0, sizeof t);
	ngpu = strtol(line, &end, 10);
	if (end != line && *end == ' ') {
		unsigned long long seed = strtoull(end + 1, NULL, 10);
		struct sb_rng r;
		if (ngpu < 1 || ngpu > 64)
			return 0;
		sb_rng_seed(&r, seed, 0);
		sb_topo_random(&t, (int)ngpu, &r);
		SB_FUZZ_CHECK(t.n == ngpu, "%d GPUs, asked for %ld", t.n, ngpu);
	} else {
		rc = sb_topo_named(line, &t, &err);
		SB_FUZZ_CHECK(rc == 0 || rc == SB_EXIT_INPUT, "topology '%s': %s", line, err.msg);
		if (rc) {
			SB_FUZZ_CHECK(t.n == 0 && !t.bw, "rejected but not zeroed");
			return 0;
		}
	}
	sb_fuzz_pipeline_topo(&t);
	/* DAPPLE's planner on one input in 32: it costs ten times the rest
	 * (a profile showed it at 55% of the harness's time when it ran on
	 * one input in four), and the planner is not what this harness is
	 * about (fuzz_profile runs it on one input in three) */
	choice = sb_fuzz_pick(data, size, 32);
	sb_fuzz_pipeline_run(&model, &t, t.n <= 16 && choice == 0 ? "dapple" : NULL, choice);
	sb_topo_release(&t);
	return 0;
}
