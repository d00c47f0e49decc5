/*
 * summary.h - mean and 95% confidence interval per group of rows.
 */
#ifndef SB_SUMMARY_H
#define SB_SUMMARY_H

#include "table.h"

/* Group the rows of t by the key columns named in `by` (space-separated)
 * and summarise each column named in `of`: output columns are the keys,
 * `n`, and <col>_mean, <col>_ci95 (half-width, Student t, NaN for n = 1),
 * <col>_std (population standard deviation). Groups appear in the order
 * of their first row. NaN values are left out of a column's statistics.
 * The schema is allocated into *cols (free with sb_summary_cols_free
 * after sb_table_release). Returns 0 or SB_EXIT_INPUT (unknown column). */
int sb_summarise(const struct sb_table *t, const char *by, const char *of,
		 struct sb_table *out, struct sb_col **cols, struct sb_err *err);
void sb_summary_cols_free(struct sb_col *cols);

#endif
