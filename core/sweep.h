/*
 * sweep.h - running the points of an experiment on local worker processes
 * (or MPI ranks), with progress on stderr and a resumable checkpoint.
 *
 * Every finished point is appended as a record to a file in the partial
 * directory (<out>.partial/); a later run with the same configuration
 * hash skips the points already there. Rows are assembled in point order,
 * so the result does not depend on how many workers ran or in which order
 * points finished.
 */
#ifndef SB_SWEEP_H
#define SB_SWEEP_H

#include "exp.h"

struct sb_sweep_opts {
	int jobs;                 /* local worker processes (>= 1) */
	const char *partial_dir;  /* checkpoint directory */
	uint64_t config_hash;     /* identifies the configuration */
	int quiet;                /* no progress output */
};

/* Run every point of c (after setup) and fill points, timing and details
 * (one table per detail dataset of the experiment, in its order; all
 * initialised with the experiment's schemas; timing and details may be
 * NULL). Returns 0 or an exit code with err. Under MPI with more than one rank, rank 0 returns the
 * whole result and the others return 0 with empty tables. */
int sb_sweep_run(struct sb_exp_ctx *c, const struct sb_sweep_opts *so,
		 struct sb_table *points, struct sb_table *timing,
		 struct sb_table *details, struct sb_err *err);

/* MPI helpers (single-process stubs without SB_MPI). */
void sb_mpi_init(int *argc, char ***argv);
void sb_mpi_finalize(void);
int sb_mpi_rank(void);
int sb_mpi_size(void);

#endif
