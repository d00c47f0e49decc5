/*
 * boundutil.h - internal to the cluster bounds (lb2.c, opt_tiny.c,
 * place_ilp.c; not for other files): what more than one of their models
 * needs, kept here once as static inline.
 *   - ilp_params: GLPK settings of the integer models (opt_tiny.c,
 *     place_ilp.c);
 *   - struct rowbuf, rb_add, rb_release: a growable (column, value) list
 *     for building one LP row (all three).
 */
#ifndef SB_CLUSTER_BOUNDUTIL_H
#define SB_CLUSTER_BOUNDUTIL_H

#include "bound.h"

#include <string.h>

/* Integer models: tight tolerances (costs are compared at 1e-9 in the
 * tests) and pseudocost branching, as in dag/bound.c. */
static const struct sb_lp_params ilp_params = {
	.tol_int = 1e-9, .tol_obj = 1e-10, .pseudocost = 1,
};

/* A growable list of (column, value) pairs for building one row. */
struct rowbuf {
	int n, cap;
	int *col;
	double *val;
};

static inline void rb_add(struct rowbuf *b, int col, double val)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->col = sb_xrealloc(b->col, sizeof(int) * (size_t)b->cap);
		b->val = sb_xrealloc(b->val, sizeof(double) * (size_t)b->cap);
	}
	b->col[b->n] = col;
	b->val[b->n++] = val;
}

static inline void rb_release(struct rowbuf *b)
{
	sb_free(b->col);
	sb_free(b->val);
	memset(b, 0, sizeof *b);
}

#endif
