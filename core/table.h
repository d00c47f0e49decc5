/*
 * table.h - a table of rows with a fixed column schema (int, double or
 * fixed-length string columns). Experiments fill one per sweep point; the
 * harness concatenates them in point order and writes the result as an
 * HDF5 compound dataset (h5.c).
 */
#ifndef SB_TABLE_H
#define SB_TABLE_H

#include "sb.h"

enum sb_coltype { SB_COL_INT = 0, SB_COL_DBL = 1, SB_COL_STR = 2 };
#define SB_STR_LEN 48 /* bytes of a string column, NUL included */

struct sb_col {
	const char *name;
	int type;          /* enum sb_coltype */
	const char *unit;  /* "" if none; written as an attribute */
};

struct sb_table {
	int ncol;
	const struct sb_col *cols;
	size_t *off;        /* byte offset of each column in a row */
	size_t rowsize;
	size_t nrow, cap;
	unsigned char *data;
};

/* cols ends with a {NULL} entry. */
void sb_table_init(struct sb_table *t, const struct sb_col *cols);
void sb_table_release(struct sb_table *t);
void sb_table_clear(struct sb_table *t);
/* Append a zeroed row (doubles NAN, strings empty); returns its index. */
size_t sb_table_add(struct sb_table *t);
/* Give an empty table n rows of zero bytes in one allocation, for a reader
 * that fills every byte itself (sb_h5_read_table): no per-row NAN fill. */
void sb_table_alloc_rows(struct sb_table *t, size_t n);
int sb_table_col(const struct sb_table *t, const char *name); /* -1 if none */
void sb_table_set_int(struct sb_table *t, size_t row, const char *col, int64_t v);
void sb_table_set_dbl(struct sb_table *t, size_t row, const char *col, double v);
void sb_table_set_str(struct sb_table *t, size_t row, const char *col, const char *v);
int64_t sb_table_get_int(const struct sb_table *t, size_t row, int col);
double sb_table_get_dbl(const struct sb_table *t, size_t row, int col);
const char *sb_table_get_str(const struct sb_table *t, size_t row, int col);
/* How sb export prints a double (without --exact). */
#define SB_TABLE_DBL_FMT "%.10g"
/* Whether cell (row, col) reads as text: a string equal to it, an integer
 * printed as it (%lld), a double whose value or printed value
 * (SB_TABLE_DBL_FMT, read back) equals strtod(text) (`sb export --where`). */
int sb_table_cell_is(const struct sb_table *t, size_t row, int col, const char *text);
/* Append all rows of src (same schema). */
void sb_table_append(struct sb_table *t, const struct sb_table *src);
/* Raw row bytes (for serialisation between workers). */
static inline unsigned char *sb_table_row(const struct sb_table *t, size_t row)
{
	return t->data + row * t->rowsize;
}

#endif
