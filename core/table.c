/*
 * table.c - rows with a fixed column schema.
 */
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_table_init(struct sb_table *t, const struct sb_col *cols)
{
	size_t off = 0;
	int i;

	memset(t, 0, sizeof *t);
	t->cols = cols;
	while (cols[t->ncol].name)
		t->ncol++;
	t->off = SB_NEW(size_t, t->ncol);
	for (i = 0; i < t->ncol; i++) {
		t->off[i] = off;
		off += cols[i].type == SB_COL_STR ? SB_STR_LEN : 8;
	}
	t->rowsize = off;
}

void sb_table_release(struct sb_table *t)
{
	sb_free(t->off);
	sb_free(t->data);
	memset(t, 0, sizeof *t);
}

void sb_table_clear(struct sb_table *t)
{
	t->nrow = 0;
}

size_t sb_table_add(struct sb_table *t)
{
	unsigned char *row;
	int i;

	if (t->nrow == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->data = sb_xrealloc(t->data, t->cap * t->rowsize);
	}
	row = t->data + t->nrow * t->rowsize;
	memset(row, 0, t->rowsize);
	for (i = 0; i < t->ncol; i++)
		if (t->cols[i].type == SB_COL_DBL) {
			double nan = NAN;
			memcpy(row + t->off[i], &nan, 8);
		}
	return t->nrow++;
}

void sb_table_alloc_rows(struct sb_table *t, size_t n)
{
	SB_ASSERT(t->nrow == 0);
	if (n == 0)
		return;
	/* zeroed by calloc: fresh pages from the kernel cost no memset */
	sb_free(t->data);
	t->data = sb_xcalloc(n, t->rowsize);
	t->cap = t->nrow = n;
}

int sb_table_col(const struct sb_table *t, const char *name)
{
	int i;
	for (i = 0; i < t->ncol; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return i;
	return -1;
}

static unsigned char *cell(const struct sb_table *t, size_t row, const char *col,
			   int type)
{
	int c = sb_table_col(t, col);
	if (c < 0)
		SB_BUG("no column '%s'", col);
	if (t->cols[c].type != type)
		SB_BUG("column '%s' has another type", col);
	if (row >= t->nrow)
		SB_BUG("row %zu out of range", row);
	return t->data + row * t->rowsize + t->off[c];
}

void sb_table_set_int(struct sb_table *t, size_t row, const char *col, int64_t v)
{
	memcpy(cell(t, row, col, SB_COL_INT), &v, 8);
}

void sb_table_set_dbl(struct sb_table *t, size_t row, const char *col, double v)
{
	memcpy(cell(t, row, col, SB_COL_DBL), &v, 8);
}

void sb_table_set_str(struct sb_table *t, size_t row, const char *col, const char *v)
{
	unsigned char *p = cell(t, row, col, SB_COL_STR);
	size_t len = strlen(v);
	if (len >= SB_STR_LEN)
		SB_BUG("string '%s' too long for column '%s'", v, col);
	/* values are exported as whitespace-separated columns */
	if (strpbrk(v, " \t\n"))
		SB_BUG("string '%s' of column '%s' contains white space", v, col);
	memset(p, 0, SB_STR_LEN);
	memcpy(p, v, len);
}

int64_t sb_table_get_int(const struct sb_table *t, size_t row, int col)
{
	int64_t v;
	memcpy(&v, t->data + row * t->rowsize + t->off[col], 8);
	return v;
}

double sb_table_get_dbl(const struct sb_table *t, size_t row, int col)
{
	double v;
	memcpy(&v, t->data + row * t->rowsize + t->off[col], 8);
	return v;
}

const char *sb_table_get_str(const struct sb_table *t, size_t row, int col)
{
	return (const char *)(t->data + row * t->rowsize + t->off[col]);
}

int sb_table_cell_is(const struct sb_table *t, size_t row, int col, const char *text)
{
	char val[32];

	if (t->cols[col].type == SB_COL_STR)
		return !strcmp(sb_table_get_str(t, row, col), text);
	if (t->cols[col].type == SB_COL_INT) {
		snprintf(val, sizeof val, "%lld", (long long)sb_table_get_int(t, row, col));
		return !strcmp(val, text);
	}
	/* the exact value, or the value as sb export prints it: a number
	 * copied from that output selects its row */
	{
		double v = sb_table_get_dbl(t, row, col), x = strtod(text, NULL);
		if (v == x)
			return 1;
		snprintf(val, sizeof val, SB_TABLE_DBL_FMT, v);
		return strtod(val, NULL) == x;
	}
}

void sb_table_append(struct sb_table *t, const struct sb_table *src)
{
	if (src->rowsize != t->rowsize)
		SB_BUG("table schemas differ");
	if (t->nrow + src->nrow > t->cap) {
		t->cap = t->nrow + src->nrow + 16;
		t->data = sb_xrealloc(t->data, t->cap * t->rowsize);
	}
	memcpy(t->data + t->nrow * t->rowsize, src->data, src->nrow * src->rowsize);
	t->nrow += src->nrow;
}
