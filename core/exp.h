/*
 * exp.h - experiments: one definition per figure or table.
 *
 * An experiment file in experiments/ ends with exactly one
 *     const struct sb_experiment sb_experiment_<name> = { ... };
 * The harness (sb run) resolves its parameters (defaults, then the quick
 * set under --quick, then every --set), calls setup once, run_point for
 * every sweep point (possibly in several worker processes or MPI ranks,
 * in any order), concatenates the rows in point order and writes them as
 * the `points` dataset (and any detail datasets) of one HDF5 file with
 * provenance.
 *
 * run_point must depend only on (parameters, seed, point): every random
 * draw comes from sb_rng_stream(seed, point, replicate, purpose).
 */
#ifndef SB_EXP_H
#define SB_EXP_H

#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "table.h"

#define SB_MAX_INPUTS 32
#define SB_MAX_DETAILS 4

/* A detail dataset of an experiment, written beside `points`: rows that
 * depend only on (seed, point) like points, but of another shape (e.g.
 * trained weights, one row per parameter). */
struct sb_exp_dataset {
	const char *name;            /* dataset name in the results file */
	const struct sb_col *cols;   /* its schema */
};

struct sb_exp_ctx {
	const struct sb_experiment *exp;
	struct sb_opts opts;     /* resolved parameters */
	int quick;
	uint64_t seed;
	const char *data_dir;    /* where real data is read from */
	int npoints;             /* set by setup */
	void *state;             /* experiment-owned, from setup */
	/* input files read (provenance): setup registers them */
	int ninputs;
	char *input_path[SB_MAX_INPUTS];
	char input_sha[SB_MAX_INPUTS][65];
	char inputs_note[512];   /* e.g. "real: TF graphs (3 files)" or
	                            "synthetic fallback: layered generator" */
	/* during run_point only: one table per entry of exp->details (in
	 * that order), initialised with its schema and empty, for the
	 * point's detail rows; NULL when the experiment declares none */
	struct sb_table *detail;
};

struct sb_experiment {
	const char *name;        /* = file name = CLI name */
	const char *desc;        /* one line */
	const char *figure;      /* figure/table id in the report ("tf-F1") */
	const char *family;      /* its family's name (struct sb_family) */
	const struct sb_param *params;
	/* "key=value ..." applied under --quick (before user --set) */
	const char *quick_set;
	const struct sb_col *cols;   /* schema of the points dataset: only
	                                values that depend on (seed, point) */
	/* schema of the `timing` dataset: wall-clock measurements, the only
	 * non-deterministic outputs, kept apart so `points` stays
	 * bit-identical across runs; NULL if the experiment measures none */
	const struct sb_col *timing_cols;

	/* Summary dataset written next to `points`: rows grouped by the
	 * space-separated key columns of summary_by, with n, mean and 95%
	 * confidence half-width (Student t) of each column of summary_of.
	 * NULL for none. */
	const char *summary_by;
	const char *summary_of;

	/* Detail datasets (at most SB_MAX_DETAILS, ended by a NULL name;
	 * NULL for none): run_point appends to c->detail[i]; the rows are
	 * merged in point order exactly like points (bit-identical whatever
	 * the workers or MPI ranks) and written with them in one file. */
	const struct sb_exp_dataset *details;

	/* The experiment whose results this one reads (e.g. "marl_train",
	 * whose trained weights the marl experiments load), or NULL (the
	 * default). That experiment is `first` (sb_experiment_is_first):
	 * `sb list experiments` puts it before every other, and make
	 * reproduce starts it before every other and this one only after it
	 * has finished (`sb list after`). It must not have an `after`. */
	const char *after;

	/* Read inputs, enumerate points (c->npoints), keep state in c->state.
	 * Must be deterministic. Returns 0 or an exit code with err. */
	int (*setup)(struct sb_exp_ctx *c, struct sb_err *err);
	/* Compute the rows of one point into out (initialised with cols) and
	 * its wall-clock rows into timing (initialised with timing_cols, or
	 * NULL). Returns 0 or an exit code with err. */
	int (*run_point)(struct sb_exp_ctx *c, int point, struct sb_table *out,
			 struct sb_table *timing, struct sb_err *err);
	/* Free c->state (optional). */
	void (*teardown)(struct sb_exp_ctx *c);
};
SB_REGISTERED(sb_experiment);

/* Register an input file read by setup: records its sha256 for the
 * provenance attributes. Returns 0 or SB_EXIT_INPUT. */
int sb_exp_add_input(struct sb_exp_ctx *c, const char *path, struct sb_err *err);
/* Path of a real data file under c->data_dir (in buf) if it is readable;
 * NULL otherwise (the caller then uses its synthetic fallback). */
const char *sb_exp_data(const struct sb_exp_ctx *c, const char *rel, char *buf, size_t len);
/* Number of detail datasets e declares. */
int sb_exp_ndetails(const struct sb_experiment *e);
/* Free a NULL-terminated array of strings and the array (NULL is fine). */
void sb_exp_free_list(char **list);

#endif
