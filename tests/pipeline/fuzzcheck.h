/*
 * fuzzcheck.h - what the pipeline family's libFuzzer harnesses (tests/
 * pipeline/fuzz_*.c) do with what a loader accepted (tests/pipeline/
 * fuzzcheck.c): check the promises of workloads/pipeline/load.h, then plan,
 * simulate and check one iteration. Any violation aborts (tests/fuzzkit.h).
 */
#ifndef SB_TESTS_PIPELINE_FUZZCHECK_H
#define SB_TESTS_PIPELINE_FUZZCHECK_H

#include "pipeline/pipeline.h"

/* A loaded profile: at least one layer, finite non-negative costs,
 * NUL-terminated names, pbs as given, a source naming path. */
void sb_fuzz_pipeline_model(const struct sb_pmodel *m, const char *path, int pbs);

/* A topology: GPUs on valid servers, an infinite diagonal, positive
 * symmetric bandwidths, positive memory and speed. */
void sb_fuzz_pipeline_topo(const struct sb_topo *t);

/*
 * One iteration of m on t: a plan of 1..4 even stages (by choice) on GPUs
 * 0.. and, when planner is not NULL, that planner's plan (which may find
 * no plan that fits). Each plan must pass sb_pipeline_plan_validate and
 * sb_pipeline_evaluate (the simulator and the independent checker), and
 * its iteration time must not beat the plan's and the problem's bounds.
 */
void sb_fuzz_pipeline_run(const struct sb_pmodel *m, const struct sb_topo *t,
			  const char *planner, int choice);

#endif
