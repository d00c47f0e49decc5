/*
 * bench.h - the parts of `make bench` (bench/dag.c has main).
 */
#ifndef SB_BENCH_H
#define SB_BENCH_H

#include "table.h"

/* Columns of the `cluster` dataset of results/bench.h5. */
extern const struct sb_col sb_bench_cluster_cols[];
/* clustersim jobs/s and events/s per policy on the Philly-scale job set
 * and on the 20,000-job / 6,500-GPU setting; rows into t, table on
 * stdout. data: DATA_DIR. */
void sb_bench_cluster(struct sb_table *t, const char *data);

/* Columns of the `pipeline` dataset of results/bench.h5. */
extern const struct sb_col sb_bench_pipeline_cols[];
/* pipesim tasks/s per schedule and every planner's wall time (the figures'
 * models; a 100-layer chain on 64 GPUs); rows into t, table on stdout. */
void sb_bench_pipeline(struct sb_table *t);

#endif
