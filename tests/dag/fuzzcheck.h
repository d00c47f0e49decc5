/*
 * fuzzcheck.h - what the dag family's libFuzzer harnesses (tests/dag/
 * fuzz_*.c) do with what a loader accepted (tests/dag/fuzzcheck.c): check
 * the promises of workloads/dag/load.h, then run the instance through a
 * policy, the simulator and the independent checker. Any violation aborts
 * (tests/fuzzkit.h).
 */
#ifndef SB_TESTS_DAG_FUZZCHECK_H
#define SB_TESTS_DAG_FUZZCHECK_H

#include "dag/dag.h"

/* Structure of a loaded graph: CSR arrays, topological order, components,
 * finite non-negative costs. */
void sb_fuzz_dag_graph(const struct sb_dag *g);
/* Devices: positive finite speeds, memory >= 0, symmetric positive rates. */
void sb_fuzz_dag_devices(const struct sb_devices *d);
/*
 * A whole instance: the two checks above, then one policy (HEFT, Hash+FIFO
 * or CP+PCT, by choice) through sb_dag_run_combo, which validates the
 * planned and the simulated schedule with sb_dag_check. It may refuse an
 * instance it cannot place (SB_EXIT_INPUT, e.g. memory), but a schedule
 * the checker rejects (SB_EXIT_RUN) or a makespan below the closed-form
 * lower bound is a finding.
 */
void sb_fuzz_dag_inst(const struct sb_dag_inst *in, int choice);

#endif
