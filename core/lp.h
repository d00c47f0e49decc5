/*
 * lp.h - a small, checked wrapper around GLPK's C API.
 *
 * Why a wrapper: GLPK aborts the whole process on a bad index or argument,
 * prints to the terminal, and reports "optimal" only through status codes
 * that are easy to misread. This wrapper checks every index before calling
 * GLPK, installs glp_error_hook (so a GLPK fault becomes SB_EXIT_RUN, not an
 * abort), turns terminal output off, always applies a time limit, and
 * returns an honest status: a MIP that hit its time limit reports its
 * incumbent and best bound as SB_LP_FEASIBLE, never SB_LP_OPTIMAL.
 *
 * Columns and rows are numbered from 0 here (GLPK's are from 1).
 */
#ifndef SB_LP_H
#define SB_LP_H

#include "sb.h"

#define SB_LP_INF 1e300  /* use +-SB_LP_INF for a missing bound */

enum sb_lp_kind { SB_LP_CONT = 0, SB_LP_INT = 1, SB_LP_BIN = 2 };

enum sb_lp_status {
	SB_LP_OPTIMAL = 0,    /* proven optimal (within the MIP gap tolerance) */
	SB_LP_FEASIBLE = 1,   /* stopped (node or time limit) with an incumbent; bound valid */
	SB_LP_NOSOLUTION = 2, /* stopped (node or time limit) without any incumbent; bound valid */
	SB_LP_INFEASIBLE = 3,
	SB_LP_UNBOUNDED = 4,
	SB_LP_ERROR = 5,      /* GLPK failed; see err */
};

/* Why a solve ended before it proved its answer. A node limit is a
 * deterministic amount of work: the same model gives the same result on
 * any machine. A time limit is not: results that hit it depend on the
 * machine and its load, and callers must say so. */
enum sb_lp_stop {
	SB_LP_STOP_NONE = 0,
	SB_LP_STOP_NODES = 1,
	SB_LP_STOP_TIME = 2,
	SB_LP_STOP_ITERS = 3,
};

struct sb_lp;

struct sb_lp_result {
	int status;      /* enum sb_lp_status */
	double obj;      /* objective of the returned solution (incumbent) */
	double bound;    /* best proven bound on the optimum (= obj if optimal LP) */
	double gap;      /* |obj - bound| / max(|obj|, 1e-9); 0 when optimal */
	double seconds;  /* wall time of the solve */
	int stopped;     /* enum sb_lp_stop: what ended the search early */
	long nodes;      /* branch-and-bound subproblems selected (MIP only) */
	long iters;      /* simplex iterations, root LP and subproblems */
	int ncols;
	double *x;       /* column values of the returned solution (owned; NULL
	                    if no solution); free with sb_lp_result_release */
	double *dual;    /* row duals (GLPK's sign convention: reduced cost =
	                    obj - column . dual) of an optimal LP solve (relax =
	                    1, or a model without integers), else NULL; owned
	                    like x */
};

/* New model; minimize = 1 for min, 0 for max. */
struct sb_lp *sb_lp_new(const char *name, int minimize);
void sb_lp_free(struct sb_lp *lp);
/* Add a column; returns its index (from 0). */
int sb_lp_add_col(struct sb_lp *lp, const char *name, int kind, double lo,
		  double hi, double obj);
/* Add a row lo <= sum vals[k]*x[cols[k]] <= hi; returns its index. Indices
 * are checked (SB_BUG on an index out of range: a bug of the model code);
 * duplicate columns in one row are merged. */
int sb_lp_add_row(struct sb_lp *lp, const char *name, double lo, double hi,
		  int nnz, const int *cols, const double *vals);
int sb_lp_ncols(const struct sb_lp *lp);
int sb_lp_nrows(const struct sb_lp *lp);
/* A known feasible solution (one value per column) offered to the MIP
 * search as its first incumbent; it is checked against the rows first and
 * ignored when infeasible (the reason is then in sb_lp_warning(lp)). */
void sb_lp_set_incumbent(struct sb_lp *lp, const double *x);
/* The clock that time limits count, for every later solve of this process
 * (forked workers inherit it): SB_LP_WALL, the default, for a user's
 * budget (sb eval); SB_LP_CPU, this process's CPU seconds, which sb run
 * sets: there every time limit is a safety net, and a paused or loaded
 * machine must not trip it. GLPK's own clock is wall time, so with
 * SB_LP_CPU a simplex runs without a time limit (its iteration limit, if
 * any, holds) and a MIP search stops at the first callback past the limit
 * (stopped = SB_LP_STOP_TIME, as before). */
enum sb_lp_clock { SB_LP_WALL, SB_LP_CPU };
void sb_lp_set_clock(enum sb_lp_clock clock);
/* Seconds on that clock: for a caller whose time limit covers more than
 * one solve (model building, retries). */
double sb_lp_now(void);

/* Solve. relax = 1 solves the LP relaxation (integrality dropped).
 * time_limit_s > 0 is required. mip_gap: relative gap tolerance (0 for
 * exact). Returns 0 (status in res) or SB_EXIT_RUN with err filled. */
int sb_lp_solve(struct sb_lp *lp, int relax, double time_limit_s,
		double mip_gap, struct sb_lp_result *res, struct sb_err *err);
void sb_lp_result_release(struct sb_lp_result *res);

/* Additions (lp.c): */
/* Search parameters (every field 0 = GLPK's default):
 *   tol_int    integrality tolerance, in (0, 1); GLPK: 1e-5
 *   tol_obj    a node is pruned when its bound is within
 *              tol_obj * (1 + |incumbent|) of the incumbent, so "optimal"
 *              means optimal within that; in (0, 1); GLPK: 1e-7
 *   cuts       1: MIR, Gomory, cover and clique cuts
 *   pseudocost 1: hybrid pseudocost branching (GLP_BR_PCH) instead of
 *              Driebeck-Tomlin
 *   node_limit stop the search after this many subproblems (> 0), before
 *              the time limit where possible: see enum sb_lp_stop
 *   dual       1: LPs by the dual simplex (GLPK: primal), faster on
 *              longest-path-like LPs
 *   iter_limit stop after this many simplex iterations in all (root LP and
 *              subproblems; checked between subproblems), for models whose
 *              LPs are large: a deterministic limit like node_limit
 * Big-M models want small tolerances: a binary at 1 - 1e-5 relaxes a
 * big-M row by M * 1e-5. */
struct sb_lp_params {
	double tol_int;
	double tol_obj;
	int cuts;
	int pseudocost;
	long node_limit;
	long iter_limit;
	int dual;
};
void sb_lp_set_params(struct sb_lp *lp, const struct sb_lp_params *p);
/* What the last solve had to say about the incumbent (ignored because
 * infeasible, or not taken by the search), or NULL. Owned by lp. */
const char *sb_lp_warning(const struct sb_lp *lp);
/* 0 if x (ncols values) satisfies bounds, integrality and every row within
 * a relative tolerance of 1e-6; else -1 and the first violation in why. */
int sb_lp_check(const struct sb_lp *lp, const double *x, char *why, size_t whysz);
/* Tests only: make the next solve pass GLPK an out-of-range index inside
 * the protected region, to show that the error hook turns GLPK's abort
 * into SB_LP_ERROR / SB_EXIT_RUN and that later solves still work. */
void sb_lp_test_fault(struct sb_lp *lp);
/* Short names without white space ("optimal", "no-solution", ...). */
const char *sb_lp_status_name(int status);
/* "none", "nodes", "time", "iterations" */
const char *sb_lp_stop_name(int stopped);
/* "GLPK 5.0" */
const char *sb_lp_version(void);

#endif
