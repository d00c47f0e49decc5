/*
 * lp.c - the checked GLPK wrapper declared in lp.h.
 *
 * Spec: ARCHITECTURE.md "Offline optima and bounds: GLPK" and STYLE.md
 * (check indices, error hook, terminal off, time limit, honest status).
 * Everything here is our design [O]; the GLPK behaviour it relies on was
 * checked against the GLPK 5.0 sources (glpapi09.c: glp_intopt with and
 * without the MIP presolver; glpios01.c: glp_ios_heur_sol does not check
 * rows; env/error.c: an error forces terminal output, calls the hook, and
 * aborts if the hook returns).
 *
 * Design:
 *   - A model is kept in our own arrays; the GLPK problem object exists
 *     only inside sb_lp_solve. So a GLPK fault (the error hook longjmps out
 *     and the thread's GLPK environment is freed with glp_free_env) can
 *     never leave a dangling glp_prob behind in some other sb_lp.
 *   - GLPK's environment is per thread (the Debian build uses TLS), so the
 *     jump buffer and the captured message are thread-local too.
 *   - Status is honest: SB_LP_OPTIMAL only when GLPK proved optimality
 *     (or reached the requested relative MIP gap); after a time limit the
 *     result is the incumbent with the best bound seen in the search tree
 *     (glp_ios_best_node in the callback; local bounds of the active nodes
 *     only improve, so the best value seen is valid).
 *   - The MIP presolver transforms the problem, and the search-tree
 *     callback then sees transformed columns, where an incumbent cannot be
 *     offered; it also solves its root LP without a time limit. With an
 *     incumbent, or a large model, we therefore scale, solve the root LP
 *     with the LP presolver under the time limit, and run the search
 *     without the MIP presolver; otherwise the MIP presolver is on.
 */
#include "lp.h"

#include <glpk.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_GLPK 255   /* GLPK rejects longer row/column names */
#define FEAS_TOL 1e-6       /* relative tolerance of the incumbent check */
#define PRESOLVE_MAX_NNZ 100000

struct sb_lp {
	char *name;
	int minimize;
	/* columns */
	int ncols, col_cap;
	int *ckind;
	double *clo, *chi, *cobj;
	char **cname;
	/* rows, CSR with merged, sorted columns */
	int nrows, row_cap;
	double *rlo, *rhi;
	char **rname;
	int *roff;          /* row_cap + 1 entries */
	int nnz, nz_cap;
	int *rcol;
	double *rval;
	/* incumbent offered to the search (ncols at the time it was set) */
	double *inc;
	int inc_n;
	struct sb_lp_params par;
	int test_fault;
	char warning[256];
};

/* ------------------------------------------------------------------ */
/* Model building                                                      */
/* ------------------------------------------------------------------ */

static char *dup_name(const char *s)
{
	char *p;
	size_t n;

	if (!s || !*s)
		return NULL;
	n = strlen(s);
	if (n > NAME_MAX_GLPK)
		n = NAME_MAX_GLPK;
	p = sb_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static void check_bound_arg(const char *what, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		SB_BUG("lp: %s bound is NaN", what);
}

struct sb_lp *sb_lp_new(const char *name, int minimize)
{
	struct sb_lp *lp = SB_NEW(struct sb_lp, 1);

	lp->name = dup_name(name);
	lp->minimize = minimize ? 1 : 0;
	lp->roff = SB_NEW(int, 1);
	return lp;
}

void sb_lp_free(struct sb_lp *lp)
{
	int i;

	if (!lp)
		return;
	for (i = 0; i < lp->ncols; i++)
		sb_free(lp->cname[i]);
	for (i = 0; i < lp->nrows; i++)
		sb_free(lp->rname[i]);
	sb_free(lp->name);
	sb_free(lp->ckind); sb_free(lp->clo); sb_free(lp->chi);
	sb_free(lp->cobj); sb_free(lp->cname);
	sb_free(lp->rlo); sb_free(lp->rhi); sb_free(lp->rname);
	sb_free(lp->roff); sb_free(lp->rcol); sb_free(lp->rval);
	sb_free(lp->inc);
	sb_free(lp);
}

int sb_lp_add_col(struct sb_lp *lp, const char *name, int kind, double lo,
		  double hi, double obj)
{
	int j = lp->ncols;

	if (kind != SB_LP_CONT && kind != SB_LP_INT && kind != SB_LP_BIN)
		SB_BUG("lp: column kind %d", kind);
	check_bound_arg("column", lo, hi);
	if (!isfinite(obj))
		SB_BUG("lp: objective coefficient of column %d is not finite", j);
	if (j == INT_MAX - 1)
		SB_BUG("lp: too many columns");
	if (j == lp->col_cap) {
		int cap = lp->col_cap ? 2 * lp->col_cap : 64;
		lp->ckind = sb_xrealloc(lp->ckind, sizeof(int) * (size_t)cap);
		lp->clo = sb_xrealloc(lp->clo, sizeof(double) * (size_t)cap);
		lp->chi = sb_xrealloc(lp->chi, sizeof(double) * (size_t)cap);
		lp->cobj = sb_xrealloc(lp->cobj, sizeof(double) * (size_t)cap);
		lp->cname = sb_xrealloc(lp->cname, sizeof(char *) * (size_t)cap);
		lp->col_cap = cap;
	}
	if (kind == SB_LP_BIN) {
		lo = sb_max(lo, 0.0);
		hi = sb_min(hi, 1.0);
	}
	if (kind != SB_LP_CONT) {
		/* glp_intopt rejects fractional bounds of integer columns */
		if (lo > -SB_LP_INF)
			lo = ceil(lo - 1e-9);
		if (hi < SB_LP_INF)
			hi = floor(hi + 1e-9);
	}
	lp->ckind[j] = kind;
	lp->clo[j] = lo;
	lp->chi[j] = hi;
	lp->cobj[j] = obj;
	lp->cname[j] = dup_name(name);
	lp->ncols++;
	return j;
}

struct nzpair {
	int col;
	double val;
};

static int nzpair_cmp(const void *a, const void *b)
{
	const struct nzpair *x = a, *y = b;
	return (x->col > y->col) - (x->col < y->col);
}

int sb_lp_add_row(struct sb_lp *lp, const char *name, double lo, double hi,
		  int nnz, const int *cols, const double *vals)
{
	struct nzpair *tmp;
	int i = lp->nrows, k, m = 0;

	check_bound_arg("row", lo, hi);
	if (nnz < 0)
		SB_BUG("lp: row %d: nnz = %d", i, nnz);
	if (i == INT_MAX - 1)
		SB_BUG("lp: too many rows");
	for (k = 0; k < nnz; k++) {
		if (cols[k] < 0 || cols[k] >= lp->ncols)
			SB_BUG("lp: row %d ('%s'): column index %d out of range "
			       "[0, %d)", i, name ? name : "", cols[k], lp->ncols);
		if (!isfinite(vals[k]))
			SB_BUG("lp: row %d ('%s'): coefficient of column %d is "
			       "not finite", i, name ? name : "", cols[k]);
	}
	tmp = SB_NEW(struct nzpair, nnz);
	for (k = 0; k < nnz; k++)
		tmp[k] = (struct nzpair){ cols[k], vals[k] };
	qsort(tmp, (size_t)nnz, sizeof *tmp, nzpair_cmp);
	for (k = 0; k < nnz; k++) {
		if (m > 0 && tmp[m - 1].col == tmp[k].col)
			tmp[m - 1].val += tmp[k].val;
		else
			tmp[m++] = tmp[k];
	}
	if (i == lp->row_cap) {
		int cap = lp->row_cap ? 2 * lp->row_cap : 64;
		lp->roff = sb_xrealloc(lp->roff, sizeof(int) * (size_t)(cap + 1));
		lp->rlo = sb_xrealloc(lp->rlo, sizeof(double) * (size_t)cap);
		lp->rhi = sb_xrealloc(lp->rhi, sizeof(double) * (size_t)cap);
		lp->rname = sb_xrealloc(lp->rname, sizeof(char *) * (size_t)cap);
		lp->row_cap = cap;
	}
	if (lp->nnz > INT_MAX - m - 1)
		SB_BUG("lp: too many nonzeros");
	if (lp->nnz + m > lp->nz_cap) {
		int cap = lp->nz_cap ? lp->nz_cap : 256;
		while (cap < lp->nnz + m)
			cap = cap > INT_MAX / 2 ? INT_MAX - 1 : 2 * cap;
		lp->rcol = sb_xrealloc(lp->rcol, sizeof(int) * (size_t)cap);
		lp->rval = sb_xrealloc(lp->rval, sizeof(double) * (size_t)cap);
		lp->nz_cap = cap;
	}
	for (k = 0; k < m; k++) {
		if (tmp[k].val == 0.0)
			continue;  /* merged to zero: GLPK would store it anyway */
		lp->rcol[lp->nnz] = tmp[k].col;
		lp->rval[lp->nnz++] = tmp[k].val;
	}
	sb_free(tmp);
	lp->rlo[i] = lo;
	lp->rhi[i] = hi;
	lp->rname[i] = dup_name(name);
	lp->nrows++;
	lp->roff[lp->nrows] = lp->nnz;
	return i;
}

int sb_lp_ncols(const struct sb_lp *lp)
{
	return lp->ncols;
}

int sb_lp_nrows(const struct sb_lp *lp)
{
	return lp->nrows;
}

void sb_lp_set_incumbent(struct sb_lp *lp, const double *x)
{
	sb_free(lp->inc);
	lp->inc = NULL;
	lp->inc_n = 0;
	if (!x)
		return;
	lp->inc = SB_NEW(double, lp->ncols);
	memcpy(lp->inc, x, sizeof(double) * (size_t)lp->ncols);
	lp->inc_n = lp->ncols;
}

void sb_lp_set_params(struct sb_lp *lp, const struct sb_lp_params *p)
{
	if (!(p->tol_int == 0.0 || (p->tol_int > 0.0 && p->tol_int < 1.0)))
		SB_BUG("lp: integrality tolerance %g not in (0, 1)", p->tol_int);
	if (!(p->tol_obj == 0.0 || (p->tol_obj > 0.0 && p->tol_obj < 1.0)))
		SB_BUG("lp: objective tolerance %g not in (0, 1)", p->tol_obj);
	lp->par = *p;
}

void sb_lp_test_fault(struct sb_lp *lp)
{
	lp->test_fault = 1;
}

const char *sb_lp_warning(const struct sb_lp *lp)
{
	return lp->warning[0] ? lp->warning : NULL;
}

/* ------------------------------------------------------------------ */
/* Feasibility of a point                                              */
/* ------------------------------------------------------------------ */

/* Objective of x (our columns). */
static double lp_obj_of(const struct sb_lp *lp, const double *x)
{
	double s = 0;
	int j;
	for (j = 0; j < lp->ncols; j++)
		s += lp->cobj[j] * x[j];
	return s;
}

/*
 * 0 if x satisfies the column bounds, integrality and every row within a
 * relative tolerance; otherwise -1 with the first violation described in
 * why. Integer columns of x are rounded in place when within tolerance
 * (glp_ios_heur_sol demands exact integers).
 */
static int lp_check_point(const struct sb_lp *lp, double *x, char *why,
			  size_t whysz)
{
	int i, j, k;

	for (j = 0; j < lp->ncols; j++) {
		double v = x[j], t = FEAS_TOL * (1 + fabs(v));
		if (!isfinite(v)) {
			snprintf(why, whysz, "column %d is not finite", j);
			return -1;
		}
		if (lp->ckind[j] != SB_LP_CONT) {
			double r = nearbyint(v);
			if (fabs(v - r) > 1e-6) {
				snprintf(why, whysz, "integer column %d ('%s') = %g",
					 j, lp->cname[j] ? lp->cname[j] : "", v);
				return -1;
			}
			x[j] = v = r;
		}
		if (v < lp->clo[j] - t || v > lp->chi[j] + t) {
			snprintf(why, whysz, "column %d ('%s') = %g outside [%g, %g]",
				 j, lp->cname[j] ? lp->cname[j] : "", v, lp->clo[j],
				 lp->chi[j]);
			return -1;
		}
	}
	for (i = 0; i < lp->nrows; i++) {
		double a = 0, mag = 0, t;
		for (k = lp->roff[i]; k < lp->roff[i + 1]; k++) {
			double term = lp->rval[k] * x[lp->rcol[k]];
			a += term;
			mag += fabs(term);
		}
		t = FEAS_TOL * (1 + mag);
		if (a < lp->rlo[i] - t || a > lp->rhi[i] + t) {
			snprintf(why, whysz, "row %d ('%s') = %.9g outside [%g, %g]",
				 i, lp->rname[i] ? lp->rname[i] : "", a, lp->rlo[i],
				 lp->rhi[i]);
			return -1;
		}
	}
	return 0;
}

int sb_lp_check(const struct sb_lp *lp, const double *x, char *why, size_t whysz)
{
	double *y = SB_NEW(double, lp->ncols);
	int rc;
	char dummy[8];

	memcpy(y, x, sizeof(double) * (size_t)lp->ncols);
	rc = lp_check_point(lp, y, why ? why : dummy, why ? whysz : sizeof dummy);
	sb_free(y);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Protected GLPK calls                                                */
/* ------------------------------------------------------------------ */

static _Thread_local jmp_buf *tls_jmp;       /* where the error hook jumps */
static _Thread_local char tls_msg[400];      /* last GLPK terminal output */

/* GLPK prints an error message (forcing terminal output on) before it
 * calls the error hook; keep its tail so the error report can quote it. */
static int term_hook(void *info, const char *s)
{
	size_t have = strlen(tls_msg), add = strlen(s);

	(void)info;
	if (add >= sizeof tls_msg) {
		s += add - (sizeof tls_msg - 1);
		add = sizeof tls_msg - 1;
	}
	if (have + add >= sizeof tls_msg) {
		size_t drop = have + add - (sizeof tls_msg - 1);
		memmove(tls_msg, tls_msg + drop, have - drop + 1);
		have -= drop;
	}
	memcpy(tls_msg + have, s, add + 1);
	return 1;   /* never print */
}

static _Noreturn void error_hook(void *info)
{
	(void)info;
	if (!tls_jmp)
		abort();   /* a GLPK call outside sb_lp_solve: nothing to unwind to */
	longjmp(*tls_jmp, 1);
}

/* Callback state of one MIP search. */
struct cbdata {
	int minimize;
	int have_bound;
	double bound;        /* best bound seen */
	const double *inc1;  /* incumbent, 1-based for GLPK, or NULL */
	int offered;
	int accepted;
	long node_limit;     /* 0: none */
	long iter_limit;     /* 0: none */
	long nodes;          /* subproblems selected so far */
	double cpu_deadline; /* sb_cpu_now() past which the search stops
			      * (SB_LP_CPU); 0: GLPK's own time limit */
	int hit;             /* enum sb_lp_stop of a limit the callback hit */
};

static void mip_callback(glp_tree *T, void *info)
{
	struct cbdata *cb = info;
	int p = glp_ios_best_node(T);

	if (cb->cpu_deadline > 0 && sb_cpu_now() > cb->cpu_deadline) {
		cb->hit = SB_LP_STOP_TIME;
		glp_ios_terminate(T);
		return;
	}
	if (p) {
		double b = glp_ios_node_bound(T, p);
		if (fabs(b) < DBL_MAX) {
			if (!cb->have_bound)
				cb->bound = b;
			else if (cb->minimize)
				cb->bound = sb_max(cb->bound, b);
			else
				cb->bound = sb_min(cb->bound, b);
			cb->have_bound = 1;
		}
	}
	if (glp_ios_reason(T) == GLP_ISELECT) {
		/* the bound above is taken before stopping, so it covers every
		 * open subproblem */
		if (cb->node_limit > 0 && cb->nodes >= cb->node_limit)
			cb->hit = SB_LP_STOP_NODES;
		else if (cb->iter_limit > 0 &&
			 glp_get_it_cnt(glp_ios_get_prob(T)) >= cb->iter_limit)
			cb->hit = SB_LP_STOP_ITERS;
		if (cb->hit) {
			glp_ios_terminate(T);
			return;
		}
		cb->nodes++;
	}
	if (glp_ios_reason(T) == GLP_IHEUR && cb->inc1 && !cb->offered) {
		cb->offered = 1;
		cb->accepted = glp_ios_heur_sol(T, cb->inc1) == 0;
	}
}

/* Everything one solve needs and produces; lives in the caller's frame so
 * that it survives a longjmp out of GLPK. */
struct solve_ctx {
	const struct sb_lp *lp;
	int relax;
	double time_limit;
	double mip_gap;
	double t0;              /* sb_now() at the start */
	double cpu0;            /* sb_cpu_now() at the start */
	const double *inc;      /* checked incumbent (our indexing) or NULL */
	double *inc1;           /* the same, 1-based for glp_ios_heur_sol */
	/* 1-based matrix for glp_load_matrix */
	int *ia, *ja;
	double *ar;
	/* out */
	int status;
	int have_x;
	double obj, bound;
	int bound_known;
	double *x;              /* ncols, filled when have_x */
	double *y;              /* nrows: row duals of an optimal LP */
	int inc_used;           /* the incumbent was accepted by GLPK */
	int stopped;            /* enum sb_lp_stop */
	long nodes;
	long iters;
	int glpk_fail;          /* GLPK returned an error code */
	char fail_msg[200];
};

/* The clock of time limits (sb_lp_set_clock); forked workers inherit it. */
static enum sb_lp_clock lp_clock = SB_LP_WALL;

void sb_lp_set_clock(enum sb_lp_clock clock)
{
	lp_clock = clock;
}

double sb_lp_now(void)
{
	return lp_clock == SB_LP_CPU ? sb_cpu_now() : sb_now();
}

/* GLPK's time limit (tm_lim, wall milliseconds) for the time left; with
 * the CPU clock none (INT_MAX): GLPK cannot read that clock, and the MIP
 * callback stops the search instead. */
static int ms_left(const struct solve_ctx *c)
{
	double left;
	if (lp_clock == SB_LP_CPU)
		return INT_MAX;
	left = c->time_limit - (sb_now() - c->t0);
	double ms = left * 1000.0;
	if (ms < 1.0)
		return 1;
	if (ms > (double)INT_MAX)
		return INT_MAX;
	return (int)ms;
}

/* Simplex iterations still allowed (GLPK's it_lim: INT_MAX for none). */
static int iters_left(const struct solve_ctx *c, glp_prob *P)
{
	long left;
	if (c->lp->par.iter_limit <= 0)
		return INT_MAX;
	left = c->lp->par.iter_limit - glp_get_it_cnt(P);
	if (left < 0)
		return 0;   /* GLPK then stops at once with GLP_EITLIM */
	return left > INT_MAX ? INT_MAX : (int)left;
}

static glp_prob *build_glpk(const struct solve_ctx *c)
{
	const struct sb_lp *lp = c->lp;
	glp_prob *P = glp_create_prob();
	int i, j, k;

	if (lp->name)
		glp_set_prob_name(P, lp->name);
	glp_set_obj_dir(P, lp->minimize ? GLP_MIN : GLP_MAX);
	if (lp->ncols > 0)
		glp_add_cols(P, lp->ncols);
	for (j = 0; j < lp->ncols; j++) {
		double lo = lp->clo[j], hi = lp->chi[j];
		int has_lo = lo > -SB_LP_INF, has_hi = hi < SB_LP_INF, type;
		if (lp->cname[j])
			glp_set_col_name(P, j + 1, lp->cname[j]);
		if (!c->relax && lp->ckind[j] != SB_LP_CONT)
			glp_set_col_kind(P, j + 1, GLP_IV);
		if (has_lo && has_hi)
			type = lo == hi ? GLP_FX : GLP_DB;
		else if (has_lo)
			type = GLP_LO;
		else if (has_hi)
			type = GLP_UP;
		else
			type = GLP_FR;
		glp_set_col_bnds(P, j + 1, type, has_lo ? lo : 0.0, has_hi ? hi : 0.0);
		glp_set_obj_coef(P, j + 1, lp->cobj[j]);
	}
	if (lp->nrows > 0)
		glp_add_rows(P, lp->nrows);
	for (i = 0; i < lp->nrows; i++) {
		double lo = lp->rlo[i], hi = lp->rhi[i];
		int has_lo = lo > -SB_LP_INF, has_hi = hi < SB_LP_INF, type;
		if (lp->rname[i])
			glp_set_row_name(P, i + 1, lp->rname[i]);
		if (has_lo && has_hi)
			type = lo == hi ? GLP_FX : GLP_DB;
		else if (has_lo)
			type = GLP_LO;
		else if (has_hi)
			type = GLP_UP;
		else
			type = GLP_FR;
		glp_set_row_bnds(P, i + 1, type, has_lo ? lo : 0.0, has_hi ? hi : 0.0);
	}
	for (i = 0; i < lp->nrows; i++)
		for (k = lp->roff[i]; k < lp->roff[i + 1]; k++) {
			c->ia[k + 1] = i + 1;
			c->ja[k + 1] = lp->rcol[k] + 1;
			c->ar[k + 1] = lp->rval[k];
		}
	glp_load_matrix(P, lp->nnz, c->ia, c->ja, c->ar);
	if (lp->test_fault)  /* deliberately out of range: exercises the hook */
		glp_set_col_bnds(P, lp->ncols + 1, GLP_FR, 0.0, 0.0);
	return P;
}

static void take_fail(struct solve_ctx *c, const char *what, int ret)
{
	c->glpk_fail = 1;
	c->status = SB_LP_ERROR;
	snprintf(c->fail_msg, sizeof c->fail_msg, "%s returned %d", what, ret);
}

/* LP: glp_simplex with the LP presolver; when the presolver only says
 * "no primal/dual feasible solution", solve again without it to tell an
 * infeasible from an unbounded problem. */
static void solve_lp(struct solve_ctx *c, glp_prob *P)
{
	glp_smcp sm;
	int ret, st, j;

	glp_init_smcp(&sm);
	sm.msg_lev = GLP_MSG_OFF;
	sm.meth = c->lp->par.dual ? GLP_DUALP : GLP_PRIMAL;
	sm.presolve = GLP_ON;
	sm.tm_lim = ms_left(c);
	sm.it_lim = iters_left(c, P);
	ret = glp_simplex(P, &sm);
	if (ret == GLP_ENOPFS) {
		c->status = SB_LP_INFEASIBLE;
		return;
	}
	if (ret == GLP_ENODFS) {
		sm.presolve = GLP_OFF;
		sm.tm_lim = ms_left(c);
		sm.it_lim = iters_left(c, P);
		ret = glp_simplex(P, &sm);
	}
	if (ret == GLP_ETMLIM || ret == GLP_EITLIM) {
		c->status = SB_LP_NOSOLUTION;
		c->stopped = ret == GLP_EITLIM ? SB_LP_STOP_ITERS : SB_LP_STOP_TIME;
		return;
	}
	if (ret != 0) {
		take_fail(c, "glp_simplex", ret);
		return;
	}
	st = glp_get_status(P);
	if (st == GLP_OPT) {
		c->status = SB_LP_OPTIMAL;
		c->obj = c->bound = glp_get_obj_val(P);
		c->bound_known = 1;
		c->have_x = 1;
		for (j = 0; j < c->lp->ncols; j++)
			c->x[j] = glp_get_col_prim(P, j + 1);
		for (j = 0; j < c->lp->nrows; j++)
			c->y[j] = glp_get_row_dual(P, j + 1);
	} else if (st == GLP_NOFEAS) {
		c->status = SB_LP_INFEASIBLE;
	} else if (st == GLP_UNBND) {
		c->status = SB_LP_UNBOUNDED;
	} else {
		take_fail(c, "glp_simplex (status)", st);
	}
}

static void solve_mip(struct solve_ctx *c, glp_prob *P)
{
	const struct sb_lp *lp = c->lp;
	struct cbdata cb;
	glp_iocp io;
	int ret, j, ms;

	memset(&cb, 0, sizeof cb);
	cb.minimize = lp->minimize;
	glp_init_iocp(&io);
	io.msg_lev = GLP_MSG_OFF;
	io.mip_gap = c->mip_gap;
	if (lp->par.tol_int > 0)
		io.tol_int = lp->par.tol_int;
	if (lp->par.tol_obj > 0)
		io.tol_obj = lp->par.tol_obj;
	if (lp->par.cuts)
		io.mir_cuts = io.gmi_cuts = io.cov_cuts = io.clq_cuts = GLP_ON;
	if (lp->par.pseudocost)
		io.br_tech = GLP_BR_PCH;
	cb.node_limit = lp->par.node_limit;
	cb.iter_limit = lp->par.iter_limit;
	if (lp_clock == SB_LP_CPU)
		cb.cpu_deadline = c->cpu0 + c->time_limit;
	io.cb_func = mip_callback;
	io.cb_info = &cb;
	/* GLPK's MIP presolver (about twice as fast on our scheduling models)
	 * solves its root LP without any time limit, and its search-tree
	 * callback sees transformed columns; so it is used only without an
	 * incumbent and on models whose root LP is quick, and not under an
	 * iteration limit (which must cover the root LP too). */
	io.presolve = !c->inc && lp->nnz <= PRESOLVE_MAX_NNZ && lp->par.iter_limit <= 0
		? GLP_ON : GLP_OFF;
	if (io.presolve == GLP_OFF) {
		glp_smcp sm;
		if (c->inc) {
			for (j = 0; j < lp->ncols; j++)
				c->inc1[j + 1] = c->inc[j];
			cb.inc1 = c->inc1;
		}
		/* the MIP presolver would scale the problem; without it big-M
		 * rows make the simplex crawl unless we scale ourselves */
		glp_scale_prob(P, GLP_SF_AUTO);
		glp_init_smcp(&sm);
		sm.msg_lev = GLP_MSG_OFF;
		sm.presolve = GLP_ON;
		sm.tm_lim = ms_left(c);
		sm.it_lim = iters_left(c, P);
		ret = glp_simplex(P, &sm);
		if (ret == 0 && glp_get_status(P) != GLP_OPT) {
			/* the presolver gave no basis back: plain simplex */
			sm.presolve = GLP_OFF;
			sm.tm_lim = ms_left(c);
			sm.it_lim = iters_left(c, P);
			ret = glp_simplex(P, &sm);
		}
		if (ret == GLP_ETMLIM || ret == GLP_EITLIM) {
			c->status = SB_LP_NOSOLUTION;  /* the incumbent is added later */
			c->stopped = ret == GLP_EITLIM ? SB_LP_STOP_ITERS : SB_LP_STOP_TIME;
			return;
		}
		if (ret == GLP_ENOPFS) {
			c->status = SB_LP_INFEASIBLE;
			return;
		}
		if (ret == GLP_ENODFS) {
			c->status = SB_LP_UNBOUNDED;
			return;
		}
		if (ret != 0) {
			take_fail(c, "glp_simplex (root)", ret);
			return;
		}
		if (glp_get_status(P) == GLP_NOFEAS) {
			c->status = SB_LP_INFEASIBLE;
			return;
		}
		if (glp_get_status(P) == GLP_UNBND) {
			c->status = SB_LP_UNBOUNDED;
			return;
		}
		/* the root LP is a bound already, should the search stop early */
		cb.bound = glp_get_obj_val(P);
		cb.have_bound = 1;
	}
	ms = ms_left(c);
	io.tm_lim = ms;
	ret = glp_intopt(P, &io);
	c->inc_used = cb.accepted;
	c->nodes = cb.nodes;
	switch (ret) {
	case 0:
		if (glp_mip_status(P) == GLP_OPT) {
			c->status = SB_LP_OPTIMAL;
		} else if (glp_mip_status(P) == GLP_NOFEAS) {
			c->status = SB_LP_INFEASIBLE;
			return;
		} else {
			take_fail(c, "glp_intopt (status)", glp_mip_status(P));
			return;
		}
		break;
	case GLP_EMIPGAP:
		c->status = SB_LP_OPTIMAL;  /* within the requested gap */
		break;
	case GLP_ETMLIM:
	case GLP_ESTOP:
		c->status = glp_mip_status(P) == GLP_FEAS ? SB_LP_FEASIBLE
							   : SB_LP_NOSOLUTION;
		c->stopped = ret == GLP_ESTOP && cb.hit ? cb.hit : SB_LP_STOP_TIME;
		break;
	case GLP_ENOPFS:
		c->status = SB_LP_INFEASIBLE;
		return;
	case GLP_ENODFS:
		/* the LP relaxation is unbounded: so is the MIP unless it is
		 * integer infeasible, which GLPK cannot tell us */
		c->status = SB_LP_UNBOUNDED;
		return;
	default:
		take_fail(c, "glp_intopt", ret);
		return;
	}
	if (cb.have_bound) {
		c->bound = cb.bound;
		c->bound_known = 1;
	}
	if (glp_mip_status(P) == GLP_OPT || glp_mip_status(P) == GLP_FEAS) {
		c->have_x = 1;
		c->obj = glp_mip_obj_val(P);
		for (j = 0; j < lp->ncols; j++)
			c->x[j] = glp_mip_col_val(P, j + 1);
	}
	if (ret == 0) {
		/* proven optimal: the bound is the optimum */
		c->bound = c->obj;
		c->bound_known = 1;
	}
}

/* The only function that calls GLPK's solver. Returns 0, or -1 after a
 * GLPK fault (then the thread's GLPK environment has been freed). */
static int protected_solve(struct solve_ctx *c)
{
	jmp_buf jb;
	jmp_buf *saved = tls_jmp;
	glp_prob *P;

	if (setjmp(jb)) {
		tls_jmp = saved;
		glp_free_env();   /* frees the half-built problem too */
		return -1;
	}
	tls_jmp = &jb;
	tls_msg[0] = '\0';
	glp_term_hook(term_hook, NULL);
	glp_error_hook(error_hook, NULL);
	glp_term_out(GLP_OFF);
	P = build_glpk(c);
	if (c->relax)
		solve_lp(c, P);
	else
		solve_mip(c, P);
	c->iters = glp_get_it_cnt(P);
	glp_delete_prob(P);
	tls_jmp = saved;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Solve                                                               */
/* ------------------------------------------------------------------ */

static int has_integers(const struct sb_lp *lp)
{
	int j;
	for (j = 0; j < lp->ncols; j++)
		if (lp->ckind[j] != SB_LP_CONT)
			return 1;
	return 0;
}

static void trim_msg(char *s)
{
	size_t n = strlen(s);
	char *p;
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	/* GLPK appends "Error detected in file ... at line ..." */
	p = strstr(s, "Error detected in file");
	if (p) {
		*p = '\0';
		n = strlen(s);
		while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
			s[--n] = '\0';
	}
	for (p = s; *p; p++)
		if (*p == '\n')
			*p = ' ';
}

int sb_lp_solve(struct sb_lp *lp, int relax, double time_limit_s,
		double mip_gap, struct sb_lp_result *res, struct sb_err *err)
{
	struct solve_ctx c;
	double *incx = NULL;
	int rc = 0, i, j, mip;
	double inf_bound;

	if (!(time_limit_s > 0) || !isfinite(time_limit_s))
		SB_BUG("lp: a positive, finite time limit is required (got %g)",
		       time_limit_s);
	if (!(mip_gap >= 0) || !isfinite(mip_gap))
		SB_BUG("lp: mip gap %g", mip_gap);
	if (lp->inc && lp->inc_n != lp->ncols)
		SB_BUG("lp: incumbent set with %d columns, model has %d",
		       lp->inc_n, lp->ncols);

	memset(&c, 0, sizeof c);
	memset(res, 0, sizeof *res);
	lp->warning[0] = '\0';
	mip = !relax && has_integers(lp);
	inf_bound = lp->minimize ? -SB_LP_INF : SB_LP_INF;
	c.lp = lp;
	c.relax = !mip;
	c.time_limit = time_limit_s;
	c.mip_gap = mip_gap;
	c.t0 = sb_now();
	c.cpu0 = sb_cpu_now();
	c.obj = NAN;
	c.bound = inf_bound;
	c.x = SB_NEW(double, lp->ncols);
	c.y = c.relax ? SB_NEW(double, lp->nrows + 1) : NULL;

	/* Empty bound intervals: infeasible without asking GLPK (which would
	 * call them an error). */
	for (j = 0; j < lp->ncols; j++)
		if (lp->clo[j] > lp->chi[j]) {
			c.status = SB_LP_INFEASIBLE;
			goto done;
		}
	for (i = 0; i < lp->nrows; i++)
		if (lp->rlo[i] > lp->rhi[i]) {
			c.status = SB_LP_INFEASIBLE;
			goto done;
		}

	if (lp->inc && mip) {
		char why[200];
		incx = SB_NEW(double, lp->ncols);
		memcpy(incx, lp->inc, sizeof(double) * (size_t)lp->ncols);
		if (lp_check_point(lp, incx, why, sizeof why) == 0) {
			c.inc = incx;
		} else {
			snprintf(lp->warning, sizeof lp->warning,
				 "incumbent ignored: %s", why);
			sb_free(incx);
			incx = NULL;
		}
	} else if (lp->inc) {
		snprintf(lp->warning, sizeof lp->warning,
			 "incumbent ignored: not a MIP solve");
	}

	c.ia = SB_NEW(int, (size_t)lp->nnz + 1);
	c.ja = SB_NEW(int, (size_t)lp->nnz + 1);
	c.ar = SB_NEW(double, (size_t)lp->nnz + 1);
	c.inc1 = SB_NEW(double, (size_t)lp->ncols + 1);

	if (protected_solve(&c) != 0) {
		char msg[sizeof tls_msg];
		memcpy(msg, tls_msg, sizeof msg);
		trim_msg(msg);
		c.status = SB_LP_ERROR;
		rc = sb_err_set(err, SB_EXIT_RUN, "glpk error in model '%s': %s",
				lp->name ? lp->name : "", msg[0] ? msg : "unknown fault");
		goto done;
	}
	if (c.glpk_fail) {
		rc = sb_err_set(err, SB_EXIT_RUN, "glpk failed on model '%s': %s",
				lp->name ? lp->name : "", c.fail_msg);
		goto done;
	}

	/* The checked incumbent is a solution we know: use it when GLPK
	 * returned nothing better (time limit during the root LP, or the
	 * search never reached the heuristic hook). */
	if (c.inc && (c.status == SB_LP_NOSOLUTION || c.status == SB_LP_FEASIBLE ||
		      c.status == SB_LP_OPTIMAL)) {
		double io = lp_obj_of(lp, c.inc);
		int better = !c.have_x ||
			(lp->minimize ? io < c.obj : io > c.obj);
		if (better && c.status != SB_LP_OPTIMAL) {
			c.have_x = 1;
			c.obj = io;
			memcpy(c.x, c.inc, sizeof(double) * (size_t)lp->ncols);
			if (c.status == SB_LP_NOSOLUTION)
				c.status = SB_LP_FEASIBLE;
		}
	}
	if (c.inc && !c.inc_used && !lp->warning[0])
		snprintf(lp->warning, sizeof lp->warning,
			 "incumbent not taken by the search (root solved first "
			 "or time limit)");
done:
	res->status = c.status;
	res->ncols = lp->ncols;
	res->seconds = sb_now() - c.t0;
	res->stopped = c.stopped;
	res->nodes = c.nodes;
	res->iters = c.iters;
	if (c.have_x && (c.status == SB_LP_OPTIMAL || c.status == SB_LP_FEASIBLE)) {
		res->x = c.x;
		c.x = NULL;
		if (c.relax && c.status == SB_LP_OPTIMAL) {
			res->dual = c.y;
			c.y = NULL;
		}
		res->obj = c.obj;
		if (!c.bound_known)
			c.bound = inf_bound;
		/* a bound can only be as good as the solution (GLPK's node
		 * bounds are rounded within its tolerances) */
		if (lp->minimize)
			c.bound = sb_min(c.bound, c.obj);
		else
			c.bound = sb_max(c.bound, c.obj);
		res->bound = c.bound;
		if (c.status == SB_LP_OPTIMAL && c.bound == c.obj)
			res->gap = 0;
		else
			res->gap = fabs(c.obj - c.bound) / sb_max(fabs(c.obj), 1e-9);
	} else {
		res->x = NULL;
		res->obj = NAN;
		if (c.status == SB_LP_NOSOLUTION)
			res->bound = c.bound_known ? c.bound : inf_bound;
		else if (c.status == SB_LP_INFEASIBLE)
			res->bound = -inf_bound;  /* min over nothing */
		else
			res->bound = inf_bound;
		res->gap = INFINITY;
	}
	sb_free(c.x);
	sb_free(c.y);
	sb_free(c.ia);
	sb_free(c.ja);
	sb_free(c.ar);
	sb_free(c.inc1);
	sb_free(incx);
	return rc;
}

void sb_lp_result_release(struct sb_lp_result *res)
{
	if (!res)
		return;
	sb_free(res->x);
	res->x = NULL;
	sb_free(res->dual);
	res->dual = NULL;
}

const char *sb_lp_status_name(int status)
{
	switch (status) {
	case SB_LP_OPTIMAL: return "optimal";
	case SB_LP_FEASIBLE: return "feasible";
	case SB_LP_NOSOLUTION: return "no-solution";
	case SB_LP_INFEASIBLE: return "infeasible";
	case SB_LP_UNBOUNDED: return "unbounded";
	case SB_LP_ERROR: return "error";
	default: return "unknown";
	}
}

const char *sb_lp_stop_name(int stopped)
{
	switch (stopped) {
	case SB_LP_STOP_NONE: return "none";
	case SB_LP_STOP_NODES: return "nodes";
	case SB_LP_STOP_TIME: return "time";
	case SB_LP_STOP_ITERS: return "iterations";
	default: return "unknown";
	}
}

const char *sb_lp_version(void)
{
	static _Thread_local char buf[32];
	if (!buf[0])
		snprintf(buf, sizeof buf, "GLPK %s", glp_version());
	return buf;
}
