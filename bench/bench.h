/*
 * bench.h - `make bench`: one part per family. Each bench/<family>.c ends
 * with one
 *     const struct sb_bench sb_bench_<family> = { ... };
 * collected by a registry generated from the bench sources (scripts/gen-registry),
 * so bench/main.c names no family. Every number is wall clock on this
 * machine: measured and printed, never asserted.
 */
#ifndef SB_BENCH_H
#define SB_BENCH_H

#include "registry.h"
#include "table.h"

struct sb_bench {
	const char *name;             /* the family; also the dataset's name */
	const char *desc;             /* one line: what it measures */
	const struct sb_col *cols;    /* columns of its dataset in results/bench.h5 */
	/* Measure, add rows to t and print a table on stdout. data: DATA_DIR
	 * (real inputs when `make data` has run; synthetic ones otherwise). */
	void (*run)(struct sb_table *t, const char *data);
};
SB_REGISTERED(sb_bench);

#endif
