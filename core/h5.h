/*
 * h5.h - results files: HDF5 with provenance attributes.
 *
 * A results file holds root attributes (provenance: version, git sha,
 * command line, resolved configuration, seed, library versions, input
 * sha256s, ...) and one or more compound datasets, each a struct
 * sb_table (`points` always). Writing goes to "<path>.tmp.<pid>" and is
 * renamed into place only when complete, so an interrupted run never
 * leaves a half-written file under the final name.
 */
#ifndef SB_H5_H
#define SB_H5_H

#include "table.h"

enum sb_attr_type { SB_ATTR_STR = 0, SB_ATTR_INT = 1, SB_ATTR_DBL = 2 };

struct sb_attr {
	char *key;
	int type;
	char *s;
	int64_t i;
	double d;
};

struct sb_attrs {
	int n, cap;
	struct sb_attr *a;
};

void sb_attrs_init(struct sb_attrs *a);
void sb_attrs_release(struct sb_attrs *a);
/* Set (or replace) an attribute. */
void sb_attrs_str(struct sb_attrs *a, const char *key, const char *val);
void sb_attrs_int(struct sb_attrs *a, const char *key, int64_t val);
void sb_attrs_dbl(struct sb_attrs *a, const char *key, double val);
const struct sb_attr *sb_attrs_get(const struct sb_attrs *a, const char *key);

struct sb_h5_dataset {
	const char *name;
	const struct sb_table *t;
};

/* Write atomically. Returns 0 or SB_EXIT_RUN with err. */
int sb_h5_write(const char *path, const struct sb_attrs *root, int ndset,
		const struct sb_h5_dataset *dsets, struct sb_err *err);
/* Read the root attributes. */
int sb_h5_read_attrs(const char *path, struct sb_attrs *out, struct sb_err *err);
/* Read a dataset into t; the schema is allocated into *cols (free with
 * sb_h5_cols_free after sb_table_release). */
int sb_h5_read_table(const char *path, const char *dataset, struct sb_table *t,
		     struct sb_col **cols, struct sb_err *err);
/* The same, keeping only the rows where every where[i] ("col=value")
 * holds (sb_table_cell_is). Only the named columns of every row are read
 * and converted first, then the whole of the matching rows: a large table
 * filtered to a few rows costs little. A name that is no column of the
 * dataset is bad input (SB_EXIT_INPUT); where[i] must contain '='. */
int sb_h5_read_table_where(const char *path, const char *dataset, int nwhere,
			   const char *const *where, struct sb_table *t, struct sb_col **cols,
			   struct sb_err *err);
void sb_h5_cols_free(struct sb_col *cols);
/* Whether the results file has a root dataset `name`: 1 or 0, or
 * SB_EXIT_INPUT with err when the file cannot be read. */
int sb_h5_has_dataset(const char *path, const char *name, struct sb_err *err);
/* Names of the datasets at the root (up to max, each < 64 chars). */
int sb_h5_list(const char *path, char (*names)[64], int max, int *n,
	       struct sb_err *err);
/* "HDF5 1.10.8" */
const char *sb_h5_version(void);

#endif
