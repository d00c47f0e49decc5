/*
 * claims.h - evaluating a claim check over a results table.
 *
 * A check compares two expressions: `EXPR OP EXPR` with OP one of
 * >= <= > <. Expressions combine numbers and aggregates with + - * / and
 * parentheses. Aggregates over the rows that match conditions:
 *   mean(col | c1, c2)  min(...)  max(...)  count(...)
 *   wins(col | A ; B ; by=k1,k2)      fraction of groups (rows grouped by
 *                                     the key columns) where the mean of
 *                                     col under A is below that under B
 *   maxratio(col | A ; B ; by=k1,k2)  largest mean(B)/mean(A) over groups
 *   minratio(col | A ; B ; by=k1,k2)  smallest one
 *   wins_best, maxratio_best, minratio_best: the same against the best
 *                                     (smallest) row of B in each group
 *                                     instead of B's mean, e.g. a method
 *                                     against the best of its baselines
 * Conditions: col=value, col!=value; value may end in * (prefix match).
 * Example: maxratio(makespan | policy=cp+pct ; policy=hash+fifo ; by=graph) >= 2
 */
#ifndef SB_CLAIMS_H
#define SB_CLAIMS_H

#include "table.h"

/* Evaluate; *lhs and *rhs get both sides, *pass the verdict. Returns 0,
 * SB_EXIT_INPUT with err (syntax error, unknown column) or SB_EXIT_RUN
 * with err (well formed, but no rows match: the results lack the points
 * the check reads). */
int sb_claim_eval(const char *check, const struct sb_table *t, double *lhs,
		  double *rhs, int *pass, struct sb_err *err);
/* Evaluate one expression (no comparison). */
int sb_claim_expr(const char *expr, const struct sb_table *t, double *val,
		  struct sb_err *err);

#endif
