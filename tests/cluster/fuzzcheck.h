/*
 * fuzzcheck.h - what the cluster family's libFuzzer harnesses (tests/
 * cluster/fuzz_*.c) do with what a loader accepted (tests/cluster/
 * fuzzcheck.c): check the promises of workloads/cluster/trace.h and jobs.h,
 * then simulate the job set and validate the run with the independent
 * checker. Any violation aborts (tests/fuzzkit.h).
 */
#ifndef SB_TESTS_CLUSTER_FUZZCHECK_H
#define SB_TESTS_CLUSTER_FUZZCHECK_H

#include "cluster/cluster.h"
#include "workloads/cluster/trace.h"

/* The cluster the harnesses simulate on: "testbed", 4 x 4 GPUs (small, so
 * that large jobs are refused by sb_jobset_validate as they are by
 * `sb eval cluster`). */
void sb_fuzz_cluster(struct sb_cluster *cl);

/* A loaded trace as trace.h promises it: jobs sorted, the first at 0,
 * unique ids, positive GPU counts, runtimes > 0 or unknown. */
void sb_fuzz_cluster_trace(const struct sb_trace *t);

/*
 * A job set built from an input: sb_jobset_validate must accept it
 * without a cluster; on cl it may refuse a job too large for it (bad
 * input, as in `sb eval cluster`). Then one scheduler (FIFO, Tiresias or
 * SRPT with oracle sizes, by choice) runs it in the simulator, which must
 * succeed; sb_cluster_check must accept the run, and the sum of
 * completion times must not beat the lower bound LB1.
 */
void sb_fuzz_cluster_jobset(const struct sb_jobset *js, const struct sb_cluster *cl,
			    int choice);

#endif
