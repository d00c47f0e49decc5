/*
 * milp.c - exact optima of the pipeline family: the MILP of spec
 * pipeplan.md §6 with the replication extension, the same MILP with the
 * plan fixed, and exhaustive enumeration of the MILP's plan space (the
 * combinatorial bounds are in lb.c). Used to check SPP-R (ours), our
 * reconstruction of Luo et al., "Efficient pipeline planning for
 * expedited distributed DNN training", INFOCOM 2022, whose full text we
 * do not have: everything here is our design [O].
 *
 * What is ours beyond the spec text, and why:
 *   - The plan bound adds to §3's max_s [h_s + M(F_s+B_s) + t_s] the wait
 *     of a stage for its first gradient (a backward cannot start before
 *     one microbatch has been to the last stage and back) and the FIFO
 *     links (M transfers in a row on each direction), because pipesim and
 *     the checker serialise both; without them the bound is loose exactly
 *     where SPP-R's plans differ (deep or communication-heavy pipelines).
 *   - The MILP models those links too (link start times, FIFO), and
 *     forwards and backwards in microbatch order per stage. That order
 *     loses nothing: microbatches are identical, so relabelling the k-th
 *     forward (backward) a stage runs as microbatch k keeps every
 *     precedence (the k-th run on a stage starts after k inputs arrived,
 *     and a FIFO link delivers them in the order they were produced) and
 *     every in-flight count. Hence every pipesim timeline, relabelled, is
 *     feasible, and the optimum is <= every simulated time.
 *   - Durations, transfers, all-reduce and memory of every column come
 *     from sb_pipeline_costs_build on a one- or two-stage plan, never from a
 *     second formula, so MILP, enumeration and pipesim cannot drift apart.
 *   - Memory per stage uses the spec's o/p rows (p_{s,i,k} >= A_s -
 *     Hm o_{s,i,k}); the order binaries are monotone in i and k (FIFO), a
 *     valid cut.
 *   - Big-M H is an upper bound on the optimum (a warm start, a simulated
 *     schedule or a serial one), T <= H is a row, the bound of the plan or
 *     problem T >= LB another. Times are scaled so that H = 1000 units.
 */
#include "bound.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIME_SCALE 1000.0       /* H in model units */
#define DEFAULT_TIME_LIMIT 60.0

/* Tight tolerances: big-M rows relax by H x tol_int. */
static const struct sb_lp_params milp_params = {
	.tol_int = 1e-9, .tol_obj = 1e-9, .pseudocost = 1,
};

/* ------------------------------------------------------------------ */
/* The MILP: shared scheduling part                                    */
/* ------------------------------------------------------------------ */

/*
 * Pipelines P (copies), stage slots S, microbatches M. The durations and
 * memory of slot s of pipeline c are columns (fixed by bounds for a fixed
 * plan, defined by rows over the plan binaries otherwise), so that one
 * set of scheduling rows serves both models.
 */
struct mdl {
	struct sb_lp *lp;
	int P, S, M;
	double unit;           /* seconds per model time unit */
	double H;              /* big-M and horizon, model units */
	double Hm;             /* largest stash per microbatch, memory units */
	int *F, *B, *C, *W, *A; /* per (c, s): duration / memory columns */
	int *AR;               /* per s */
	int *tF, *tB, *xf, *xb; /* per (c, s, i) */
	int *o, *p;            /* per (c, s, i, k), k < i */
	int T;
	int rn, rcap;
	int *ri;
	double *rv;
};

#define CS(m, c, s) ((c) * (m)->S + (s))
#define CSI(m, c, s, i) (((c) * (m)->S + (s)) * (m)->M + (i))
#define CSIK(m, c, s, i, k) ((((c) * (m)->S + (s)) * (m)->M + (i)) * (m)->M + (k))

static void mdl_init(struct mdl *m, const char *name, int P, int S, int M)
{
	memset(m, 0, sizeof *m);
	m->lp = sb_lp_new(name, 1);
	sb_lp_set_params(m->lp, &milp_params);
	m->P = P;
	m->S = S;
	m->M = M;
	m->F = SB_NEW(int, P * S);
	m->B = SB_NEW(int, P * S);
	m->C = SB_NEW(int, P * S);
	m->W = SB_NEW(int, P * S);
	m->A = SB_NEW(int, P * S);
	m->AR = SB_NEW(int, S);
	m->tF = SB_NEW(int, P * S * M);
	m->tB = SB_NEW(int, P * S * M);
	m->xf = SB_NEW(int, P * S * M);
	m->xb = SB_NEW(int, P * S * M);
	m->o = SB_NEW(int, P * S * M * M);
	m->p = SB_NEW(int, P * S * M * M);
}

static void mdl_release(struct mdl *m)
{
	sb_lp_free(m->lp);
	sb_free(m->F);
	sb_free(m->B);
	sb_free(m->C);
	sb_free(m->W);
	sb_free(m->A);
	sb_free(m->AR);
	sb_free(m->tF);
	sb_free(m->tB);
	sb_free(m->xf);
	sb_free(m->xb);
	sb_free(m->o);
	sb_free(m->p);
	sb_free(m->ri);
	sb_free(m->rv);
	memset(m, 0, sizeof *m);
}

static void term(struct mdl *m, int col, double v)
{
	if (m->rn == m->rcap) {
		m->rcap = m->rcap ? 2 * m->rcap : 64;
		m->ri = sb_xrealloc(m->ri, sizeof *m->ri * (size_t)m->rcap);
		m->rv = sb_xrealloc(m->rv, sizeof *m->rv * (size_t)m->rcap);
	}
	m->ri[m->rn] = col;
	m->rv[m->rn++] = v;
}

static void row(struct mdl *m, double lo, double hi)
{
	sb_lp_add_row(m->lp, NULL, lo, hi, m->rn, m->ri, m->rv);
	m->rn = 0;
}

/* row: a - b - d1 - d2 >= 0 (a starts after b plus durations d1, d2;
 * any of b, d1, d2 may be -1 for none) */
static void after(struct mdl *m, int a, int b, int d1, int d2)
{
	term(m, a, 1);
	if (b >= 0)
		term(m, b, -1);
	if (d1 >= 0)
		term(m, d1, -1);
	if (d2 >= 0)
		term(m, d2, -1);
	row(m, 0, SB_LP_INF);
}

/*
 * Start-time columns, order binaries and every scheduling row, for
 * duration columns already in m (memory in units of the GPU memory, so
 * the capacity is 1). lb: a bound on T in model units.
 */
static void build_schedule(struct mdl *m, double lb)
{
	int P = m->P, S = m->S, M = m->M, c, s, i, k;
	double H = m->H;

	for (c = 0; c < P; c++)
		for (s = 0; s < S; s++)
			for (i = 0; i < M; i++) {
				m->tF[CSI(m, c, s, i)] = sb_lp_add_col(m->lp, NULL, SB_LP_CONT, 0, H, 0);
				m->tB[CSI(m, c, s, i)] = sb_lp_add_col(m->lp, NULL, SB_LP_CONT, 0, H, 0);
				if (s + 1 < S) {
					m->xf[CSI(m, c, s, i)] =
						sb_lp_add_col(m->lp, NULL, SB_LP_CONT, 0, H, 0);
					m->xb[CSI(m, c, s, i)] =
						sb_lp_add_col(m->lp, NULL, SB_LP_CONT, 0, H, 0);
				}
				for (k = 0; k < i; k++) {
					m->o[CSIK(m, c, s, i, k)] =
						sb_lp_add_col(m->lp, NULL, SB_LP_BIN, 0, 1, 0);
					m->p[CSIK(m, c, s, i, k)] =
						sb_lp_add_col(m->lp, NULL, SB_LP_CONT, 0, m->Hm, 0);
				}
			}
	m->T = sb_lp_add_col(m->lp, "T", SB_LP_CONT, sb_min(lb, H), H, 1);

	for (c = 0; c < P; c++)
		for (s = 0; s < S; s++) {
			int F = m->F[CS(m, c, s)], B = m->B[CS(m, c, s)];
			int C = m->C[CS(m, c, s)];
			for (i = 0; i < M; i++) {
				int tf = m->tF[CSI(m, c, s, i)], tb = m->tB[CSI(m, c, s, i)];
				/* microbatch order per kind (see the header) */
				if (i + 1 < M) {
					after(m, m->tF[CSI(m, c, s, i + 1)], tf, F, -1);
					after(m, m->tB[CSI(m, c, s, i + 1)], tb, B, -1);
				}
				if (s + 1 < S) {
					int xf = m->xf[CSI(m, c, s, i)], xb = m->xb[CSI(m, c, s, i)];
					after(m, xf, tf, F, -1);
					if (i > 0)
						after(m, xf, m->xf[CSI(m, c, s, i - 1)], C, -1);
					after(m, m->tF[CSI(m, c, s + 1, i)], xf, C, -1);
					after(m, xb, m->tB[CSI(m, c, s + 1, i)],
					      m->B[CS(m, c, s + 1)], -1);
					if (i > 0)
						after(m, xb, m->xb[CSI(m, c, s, i - 1)], C, -1);
					after(m, tb, xb, C, -1);
				} else {
					after(m, tb, tf, F, -1);
				}
				for (k = 0; k < i; k++) {
					int o = m->o[CSIK(m, c, s, i, k)], pp = m->p[CSIK(m, c, s, i, k)];
					int tbk = m->tB[CSI(m, c, s, k)];
					/* o = 1: B(s,k) before F(s,i); o = 0: after it */
					term(m, tf, 1);
					term(m, tbk, -1);
					term(m, B, -1);
					term(m, o, -H);
					row(m, -H, SB_LP_INF);
					term(m, tbk, 1);
					term(m, tf, -1);
					term(m, F, -1);
					term(m, o, H);
					row(m, 0, SB_LP_INF);
					/* p = stash of microbatch k while F(s,i) runs */
					term(m, pp, 1);
					term(m, m->A[CS(m, c, s)], -1);
					term(m, o, m->Hm);
					row(m, 0, SB_LP_INF);
					/* backwards run in order, so do forwards */
					if (k + 1 < i) {
						term(m, o, 1);
						term(m, m->o[CSIK(m, c, s, i, k + 1)], -1);
						row(m, 0, SB_LP_INF);
					}
					if (i + 1 < M) {
						term(m, m->o[CSIK(m, c, s, i + 1, k)], 1);
						term(m, o, -1);
						row(m, 0, SB_LP_INF);
					}
				}
				/* memory while F(s,i) runs: i+1 forwards started,
				 * those with o = 1 backwarded */
				term(m, m->W[CS(m, c, s)], 1);
				term(m, m->A[CS(m, c, s)], 1);
				for (k = 0; k < i; k++)
					term(m, m->p[CSIK(m, c, s, i, k)], 1);
				row(m, -SB_LP_INF, 1);
			}
			/* the iteration ends after the last backward's AR */
			term(m, m->T, 1);
			term(m, m->tB[CSI(m, c, s, M - 1)], -1);
			term(m, B, -1);
			term(m, m->AR[s], -1);
			row(m, 0, SB_LP_INF);
		}
}

/* Solve and fill the shared parts of res (times in seconds). */
static int mdl_solve(struct mdl *m, const struct sb_pipeline_milp_opts *mo, double t_opt,
		     double lb_s, struct sb_lp_result *lr, struct sb_pipeline_milp_result *res,
		     struct sb_err *err)
{
	struct sb_lp_params par = milp_params;
	double tl = mo && mo->time_limit > 0 ? mo->time_limit : DEFAULT_TIME_LIMIT;
	int rc;

	par.node_limit = mo ? mo->node_limit : 0;
	sb_lp_set_params(m->lp, &par);
	res->ncols = sb_lp_ncols(m->lp);
	res->nbin += m->P * m->S * m->M * (m->M - 1) / 2;
	res->nrows = sb_lp_nrows(m->lp);
	rc = sb_lp_solve(m->lp, 0, tl, 0, lr, err);
	if (rc)
		return rc;
	res->status = lr->status;
	res->stopped = lr->stopped;
	res->seconds = lr->seconds;
	res->nodes = lr->nodes;
	res->lb = lb_s;
	if (lr->status == SB_LP_OPTIMAL || lr->status == SB_LP_FEASIBLE) {
		res->obj = lr->obj * m->unit + t_opt;
		res->bound = (lr->status == SB_LP_OPTIMAL ? lr->obj : lr->bound) * m->unit + t_opt;
	} else if (lr->status == SB_LP_NOSOLUTION) {
		res->obj = INFINITY;
		res->bound = lr->bound * m->unit + t_opt;
	} else {
		res->obj = INFINITY;
		res->bound = INFINITY;
	}
	if (res->status != SB_LP_INFEASIBLE && !(res->bound >= lb_s))
		res->bound = lb_s;
	/* GLPK's optimum is optimal within its tolerances: never report a
	 * bound above the incumbent */
	if (res->bound > res->obj)
		res->bound = res->obj;
	/* a warm start GLPK did not need (root LP integral) still counts;
	 * one the row check refused does not */
	if (res->warm_used && sb_lp_warning(m->lp) && strstr(sb_lp_warning(m->lp), "ignored"))
		res->warm_used = 0;
	return 0;
}

void sb_pipeline_milp_result_release(struct sb_pipeline_milp_result *r)
{
	if (!r)
		return;
	if (r->plan.st)
		sb_pipeline_plan_release(&r->plan);
	memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ */
/* Upper bounds for big-M                                              */
/* ------------------------------------------------------------------ */

/* One microbatch at a time through the whole pipeline, in every copy at
 * once: feasible whenever one microbatch fits each stage. */
static double serial_time(const struct sb_pipeline_costs *c, int M)
{
	int S = c->S, k, s;
	double worst = 0, ar = 0;
	for (k = 0; k < c->copies; k++) {
		double path = 0;
		for (s = 0; s < S; s++)
			path += c->F[k * S + s] + c->B[k * S + s] +
				(s + 1 < S ? 2 * c->C[k * S + s] : 0);
		worst = sb_max(worst, M * path);
	}
	for (s = 0; s < S; s++)
		ar = sb_max(ar, c->AR[s]);
	return worst + ar + c->t_opt;
}

/* Best simulated time of plan p over the registered schedules whose
 * timeline fits; INFINITY if none. */
static double simulated_ub(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			   const struct sb_topo *t)
{
	int n, i;
	const struct sb_pipeline_schedule *const *sc = sb_pipeline_schedules(&n);
	double best = INFINITY;
	for (i = 0; i < n; i++) {
		struct sb_opts o;
		struct sb_pipeline_result r;
		struct sb_err err;
		sb_opts_defaults(&o, sc[i]->params);
		if (sb_pipeline_simulate(p, m, t, sc[i], &o, &r, &err) == 0) {
			if (r.peak_mem <= t->mem)
				best = sb_min(best, r.iter_time);
			sb_pipeline_result_release(&r);
		}
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* Scheduling-only MILP                                                */
/* ------------------------------------------------------------------ */

int sb_pipeline_milp_sched(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_topo *t, const struct sb_pipeline_milp_opts *mo,
		       struct sb_pipeline_milp_result *res, struct sb_err *err)
{
	struct sb_pipeline_costs c;
	struct mdl md;
	struct sb_lp_result lr;
	int P = p->copies, S = p->S, M = p->M, k, s, rc;
	double ub, lb, memu, amax = 0;

	memset(res, 0, sizeof *res);
	res->obj = res->bound = INFINITY;
	res->status = SB_LP_INFEASIBLE;
	rc = sb_pipeline_plan_validate(p, m, t, err);
	if (rc)
		return rc;
	if ((long)P * S * M > SB_PIPELINE_SCHED_MAX_TASKS)
		return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): copies x S x M = %ld is more "
				  "than the scheduling MILP takes (%d)", p->planner,
				  (long)P * S * M, SB_PIPELINE_SCHED_MAX_TASKS);
	sb_pipeline_costs_build(&c, p, m, t);
	/* memory in units of the GPU's (unbounded memory: all zero) */
	memu = t->mem > 0 ? t->mem : 1;
	for (s = 0; s < S; s++) {
		amax = sb_max(amax, c.mem_a[s]);
		if (c.mem_w[s] + c.mem_a[s] > t->mem) {
			/* not even one microbatch fits: no schedule at all */
			sb_pipeline_costs_release(&c);
			return 0;
		}
	}
	lb = sb_pipeline_lb_costs(&c, M, NULL);
	ub = sb_min(serial_time(&c, M), simulated_ub(p, m, t));
	if (mo && mo->cutoff > 0)
		ub = sb_min(ub, mo->cutoff);
	if (lb > ub * (1 + 1e-9)) {
		/* the cutoff is below the bound: nothing to find */
		res->lb = lb;
		sb_pipeline_costs_release(&c);
		return 0;
	}
	ub = ub * (1 + 1e-7) + 1e-12;

	mdl_init(&md, "pipe-sched", P, S, M);
	md.unit = ub / TIME_SCALE;
	md.H = TIME_SCALE * (1 + 1e-7);
	md.Hm = amax / memu;
	for (k = 0; k < P; k++)
		for (s = 0; s < S; s++) {
			int j = k * S + s;
			double F = c.F[j] / md.unit, B = c.B[j] / md.unit;
			double C = s + 1 < S ? c.C[j] / md.unit : 0;
			md.F[j] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, F, F, 0);
			md.B[j] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, B, B, 0);
			md.C[j] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, C, C, 0);
			md.W[j] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, c.mem_w[s] / memu,
						c.mem_w[s] / memu, 0);
			md.A[j] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, c.mem_a[s] / memu,
						c.mem_a[s] / memu, 0);
		}
	for (s = 0; s < S; s++)
		md.AR[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, c.AR[s] / md.unit,
					 c.AR[s] / md.unit, 0);
	build_schedule(&md, mo && mo->no_lb_cut ? 0 : (lb - c.t_opt) / md.unit);
	rc = mdl_solve(&md, mo, c.t_opt, lb, &lr, res, err);
	sb_lp_result_release(&lr);
	mdl_release(&md);
	sb_pipeline_costs_release(&c);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Full MILP: columns over (slot, segment, device group)               */
/* ------------------------------------------------------------------ */

/* Costs of one stage (layers a..b on the GPUs of mask g) or of the
 * transfer after layer j from group g1 to group g2, by pipecost itself. */
struct seg_cost {
	double F, B, AR, W, A;
};

static int mask_gpus(int g, int *gpu)
{
	int n = 0, i;
	for (i = 0; i < 31; i++)
		if (g >> i & 1)
			gpu[n++] = i;
	return n;
}

static void stage_cost(const struct sb_pipeline_problem *pb, int overlap, int a, int b, int g,
		       struct seg_cost *out)
{
	struct sb_pipeline_plan p;
	struct sb_pipeline_costs c;
	sb_pipeline_plan_init(&p, 1, 1);
	p.M = pb->M;
	p.batch = pb->batch;
	p.kappa = pb->kappa;
	p.overlap = overlap;
	p.st[0].first = a;
	p.st[0].last = b;
	p.st[0].r = mask_gpus(g, p.st[0].gpu);
	sb_pipeline_costs_build(&c, &p, pb->model, pb->topo);
	out->F = c.F[0];
	out->B = c.B[0];
	out->AR = c.AR[0];
	out->W = c.mem_w[0];
	out->A = c.mem_a[0];
	sb_pipeline_costs_release(&c);
	sb_pipeline_plan_release(&p);
}

static double xfer_cost(const struct sb_pipeline_problem *pb, int j, int g1, int g2)
{
	struct sb_pipeline_plan p;
	struct sb_pipeline_costs c;
	double v;
	sb_pipeline_plan_init(&p, 2, 1);
	p.M = pb->M;
	p.batch = pb->batch;
	p.kappa = pb->kappa;
	p.st[0].first = p.st[0].last = j;
	p.st[0].r = mask_gpus(g1, p.st[0].gpu);
	p.st[1].first = p.st[1].last = j + 1;
	p.st[1].r = mask_gpus(g2, p.st[1].gpu);
	sb_pipeline_costs_build(&c, &p, pb->model, pb->topo);
	v = c.C[0];
	sb_pipeline_costs_release(&c);
	sb_pipeline_plan_release(&p);
	return v;
}

static int popcount(int g)
{
	int n = 0;
	for (; g; g &= g - 1)
		n++;
	return n;
}

/* Is GPU mask g allowed as one stage's group (replicas get >= 1 sample)? */
static int group_ok(const struct sb_pipeline_problem *pb, int g)
{
	int r = popcount(g);
	return r >= 1 && r <= 64 && pb->batch / (double)pb->M >= r;
}

static int problem_check(const struct sb_pipeline_problem *pb, struct sb_err *err)
{
	if (!pb->model || !pb->topo || pb->model->n < 1 || pb->topo->n < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "pipeline milp: empty model or topology");
	if (pb->M < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "pipeline milp: M must be given (>= 1)");
	if (pb->model->n > SB_PIPELINE_MILP_MAX_L || pb->topo->n > SB_PIPELINE_MILP_MAX_N ||
	    pb->M > SB_PIPELINE_MILP_MAX_M)
		return sb_err_set(err, SB_EXIT_INPUT, "pipeline milp: L = %d, N = %d, M = %d is "
				  "too large (at most %d, %d, %d)", pb->model->n, pb->topo->n,
				  pb->M, SB_PIPELINE_MILP_MAX_L, SB_PIPELINE_MILP_MAX_N,
				  SB_PIPELINE_MILP_MAX_M);
	if (!(pb->batch >= pb->M))
		return sb_err_set(err, SB_EXIT_INPUT, "pipeline milp: batch %g < M = %d",
				  pb->batch, pb->M);
	return 0;
}

struct xcol {
	int s, a, b, g, col;
	struct seg_cost k;
};

/*
 * The warm-start plan (already found to be of the space and to fit by
 * warm_time) with its simulated timeline as a column vector: the timeline
 * relabelled by position (the k-th forward a stage runs is microbatch k,
 * see the header), unused slots passing through where the last stage's
 * forward ends. 0 and *xout (owned by the caller), or -1.
 */
static int warm_vector(const struct sb_pipeline_problem *pb, const struct sb_pipeline_milp_opts *mo,
		       const struct mdl *md, const struct xcol *xc, int nx, const int *E,
		       const int *G, double **xout)
{
	const struct sb_pipeline_plan *w = mo->warm;
	const struct sb_pipeline_schedule *sc;
	const struct sb_topo *t = pb->topo;
	struct sb_opts so;
	struct sb_pipeline_result r;
	struct sb_err err;
	int Sb = md->S, M = md->M, L = pb->model->n, G2 = 1 << t->n, S = w->S;
	int s, i, e, k, slotcol[SB_PIPELINE_MILP_MAX_N], rc = -1;
	double *x = NULL, u = md->unit, *tf, *tb, *xf, *xb;
	int *cnt;

	sc = sb_pipeline_schedule_find(w->schedule[0] ? w->schedule : "1f1b");
	if (!sc || S > Sb)
		return -1;
	sb_opts_defaults(&so, sc->params);
	if (sb_pipeline_simulate(w, pb->model, t, sc, &so, &r, &err))
		return -1;
	tf = SB_NEW(double, 4 * Sb * M);
	tb = tf + Sb * M;
	xf = tb + Sb * M;
	xb = xf + Sb * M;
	cnt = SB_NEW(int, 4 * Sb);
	for (s = 0; s < S; s++) {
		int g = 0;
		slotcol[s] = -1;
		for (k = 0; k < w->st[s].r; k++)
			g |= 1 << w->st[s].gpu[k];
		for (i = 0; i < nx; i++)
			if (xc[i].s == s && xc[i].a == w->st[s].first && xc[i].b == w->st[s].last &&
			    xc[i].g == g)
				slotcol[s] = i;
		if (slotcol[s] < 0)
			goto out;
	}
	/* starts of each stage's forwards, backwards and each link
	 * direction's transfers, in time order */
	for (e = 0; e < r.nev; e++) {
		const struct sb_pipeline_event *ev = &r.ev[e];
		int which = (ev->stage >= 0 ? 0 : 2) + (ev->kind == SB_PIPELINE_F ? 0 : 1);
		int at = ev->stage >= 0 ? ev->stage : ev->link;
		double *arr = which == 0 ? tf : which == 1 ? tb : which == 2 ? xf : xb;
		int *n = &cnt[which * Sb + at];
		if (*n >= M)
			goto out;
		i = (*n)++;
		while (i > 0 && arr[at * M + i - 1] > ev->start) {
			arr[at * M + i] = arr[at * M + i - 1];
			i--;
		}
		arr[at * M + i] = ev->start;
	}
	x = SB_NEW(double, sb_lp_ncols(md->lp));
	for (s = 0; s < S; s++) {
		const struct xcol *q = &xc[slotcol[s]];
		x[q->col] = 1;
		if (s + 1 < Sb && q->b < L - 1)
			x[E[(s * L + q->b) * G2 + q->g]] = 1;
		if (s >= 1)
			x[G[s * G2 + q->g]] = 1;
		x[md->F[s]] = q->k.F / u;
		x[md->B[s]] = q->k.B / u;
		x[md->AR[s]] = q->k.AR / u;
		x[md->W[s]] = q->k.W / t->mem;
		x[md->A[s]] = q->k.A / t->mem;
		if (s + 1 < S)
			x[md->C[s]] = xfer_cost(pb, q->b, q->g, xc[slotcol[s + 1]].g) / u;
	}
	for (s = 0; s < Sb; s++)
		for (i = 0; i < M; i++) {
			if (s < S) {
				x[md->tF[s * M + i]] = tf[s * M + i] / u;
				x[md->tB[s * M + i]] = tb[s * M + i] / u;
				if (s + 1 < S) {
					x[md->xf[s * M + i]] = xf[s * M + i] / u;
					x[md->xb[s * M + i]] = xb[s * M + i] / u;
				}
			} else {
				double v = (tf[(S - 1) * M + i] + xc[slotcol[S - 1]].k.F) / u;
				x[md->tF[s * M + i]] = x[md->tB[s * M + i]] = v;
				if (s == S)
					x[md->xf[(S - 1) * M + i]] = x[md->xb[(S - 1) * M + i]] = v;
				if (s + 1 < Sb)
					x[md->xf[s * M + i]] = x[md->xb[s * M + i]] = v;
			}
			for (k = 0; k < i; k++) {
				/* unused slots have zero durations: "backward first"
				 * is the order their pass-through times satisfy */
				int o = s >= S || tb[s * M + k] < tf[s * M + i];
				x[md->o[(s * M + i) * M + k]] = o;
				x[md->p[(s * M + i) * M + k]] = o ? 0 : xc[slotcol[s]].k.A / t->mem;
			}
		}
	x[md->T] = r.iter_time / u;
	*xout = x;
	x = NULL;
	rc = 0;
out:
	sb_pipeline_result_release(&r);
	sb_free(x);
	sb_free(tf);
	sb_free(cnt);
	return rc;
}

/* Iteration time of the warm-start plan if it is of the MILP's space and
 * its simulated timeline fits; INFINITY otherwise. */
static double warm_time(const struct sb_pipeline_problem *pb, const struct sb_pipeline_milp_opts *mo)
{
	const struct sb_pipeline_plan *w = mo->warm;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;
	struct sb_pipeline_result r;
	struct sb_err err;
	double kap = pb->kappa > 0 ? pb->kappa : 2, wk, T = INFINITY;

	if (!w)
		return INFINITY;
	wk = w->kappa > 0 ? w->kappa : 2;
	if (w->copies != 1 || w->S > SB_PIPELINE_MILP_MAX_N || w->M != pb->M ||
	    w->batch != pb->batch || w->recompute || w->overlap != mo->overlap || wk != kap)
		return INFINITY;
	sc = sb_pipeline_schedule_find(w->schedule[0] ? w->schedule : "1f1b");
	if (!sc)
		return INFINITY;
	sb_opts_defaults(&so, sc->params);
	if (sb_pipeline_simulate(w, pb->model, pb->topo, sc, &so, &r, &err))
		return INFINITY;
	if (r.peak_mem <= pb->topo->mem)
		T = r.iter_time;
	sb_pipeline_result_release(&r);
	return T;
}

int sb_pipeline_milp(const struct sb_pipeline_problem *pb, const struct sb_pipeline_milp_opts *mo,
		 struct sb_pipeline_milp_result *res, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_topo *t = pb->topo;
	struct sb_pipeline_milp_opts dflt;
	struct sb_lp_result lr;
	struct mdl md;
	struct seg_cost *seg = NULL;
	struct xcol *xc = NULL;
	double *cval = NULL, H0, Cmax = 0, ARmax = 0, sumfb = 0, Amax = 0, lb, ub, Tw;
	double sigma = t->speed > 0 ? t->speed : 1, beta;
	int L, N, Sb, M, G2, nx = 0, capx, rc, s, a, b, g, g2, j, i;
	int *E = NULL, *Gc = NULL;

	memset(res, 0, sizeof *res);
	res->obj = res->bound = INFINITY;
	res->status = SB_LP_INFEASIBLE;
	rc = problem_check(pb, err);
	if (rc)
		return rc;
	if (!mo) {
		memset(&dflt, 0, sizeof dflt);
		mo = &dflt;
	}
	L = m->n;
	N = t->n;
	M = pb->M;
	Sb = L < N ? L : N;
	G2 = 1 << N;
	beta = pb->batch / M;

	/* stage costs of every (segment, group), transfers between groups */
	seg = SB_NEW(struct seg_cost, L * L * G2);
	for (a = 0; a < L; a++)
		for (b = a; b < L; b++)
			for (g = 1; g < G2; g++)
				if (group_ok(pb, g))
					stage_cost(pb, mo->overlap, a, b, g, &seg[(a * L + b) * G2 + g]);
	cval = SB_NEW(double, L * G2 * G2);
	for (j = 0; j + 1 < L; j++)
		for (g = 1; g < G2; g++)
			for (g2 = 1; g2 < G2; g2++)
				if (!(g & g2) && group_ok(pb, g) && group_ok(pb, g2)) {
					double v = xfer_cost(pb, j, g, g2);
					cval[(j * G2 + g) * G2 + g2] = v;
					Cmax = sb_max(Cmax, v);
				}
	for (j = 0; j < L; j++)
		sumfb += m->layer[j].fwd + m->layer[j].bwd;

	/* one column per (slot, segment, group) that holds one microbatch:
	 * slot 0 starts at layer 0, slot s at layer >= s, the last slot
	 * ends the model */
	capx = 64;
	xc = SB_NEW(struct xcol, capx);
	for (s = 0; s < Sb; s++)
		for (a = s; a <= (s == 0 ? 0 : L - 1); a++)
			for (b = a; b < L; b++) {
				if (s == Sb - 1 && b < L - 1)
					continue;
				for (g = 1; g < G2; g++) {
					const struct seg_cost *k = &seg[(a * L + b) * G2 + g];
					if (!group_ok(pb, g) || k->W + k->A > t->mem)
						continue;
					if (nx == capx) {
						capx *= 2;
						xc = sb_xrealloc(xc, sizeof *xc * (size_t)capx);
					}
					xc[nx].s = s;
					xc[nx].a = a;
					xc[nx].b = b;
					xc[nx].g = g;
					xc[nx].k = *k;
					ARmax = sb_max(ARmax, k->AR);
					Amax = sb_max(Amax, k->A);
					nx++;
				}
			}
	lb = sb_pipeline_lb_problem(m, t, pb->batch, M);
	res->lb = lb;
	if (nx == 0)
		goto out;   /* nothing fits: infeasible */
	/* horizon: the serial schedule of any plan of the space takes at most
	 * H0 (r >= 1, every transfer <= Cmax, AR <= ARmax), a fitting warm
	 * start at most its simulated time */
	H0 = M * (beta * sumfb / sigma + 2 * (Sb - 1) * Cmax) + ARmax;
	Tw = warm_time(pb, mo);
	ub = sb_min(H0, Tw);
	if (mo->cutoff > 0)
		ub = sb_min(ub, mo->cutoff);
	if (lb > ub * (1 + 1e-9))
		goto out;   /* the cutoff is below the bound */

	mdl_init(&md, "pipe-milp", 1, Sb, M);
	md.unit = ub * (1 + 1e-7) / TIME_SCALE;
	md.H = TIME_SCALE * (1 + 1e-7);
	md.Hm = Amax / t->mem;
	for (i = 0; i < nx; i++)
		xc[i].col = sb_lp_add_col(md.lp, NULL, SB_LP_BIN, 0, 1, 0);
	for (s = 0; s < Sb; s++) {
		md.F[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
		md.B[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
		md.C[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
		md.W[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
		md.A[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
		md.AR[s] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
	}
	/* E[s][j][g]: slot s ends at layer j on group g (the sender of the
	 * transfer to s+1); G[s][g]: slot s runs on group g (its receiver) */
	E = SB_NEW(int, Sb * L * G2);
	Gc = SB_NEW(int, Sb * G2);
	for (i = 0; i < Sb * L * G2; i++)
		E[i] = -1;
	for (i = 0; i < Sb * G2; i++)
		Gc[i] = -1;
	for (i = 0; i < nx; i++) {
		s = xc[i].s;
		if (s + 1 < Sb && xc[i].b < L - 1 && E[(s * L + xc[i].b) * G2 + xc[i].g] < 0)
			E[(s * L + xc[i].b) * G2 + xc[i].g] =
				sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, 1, 0);
		if (s >= 1 && Gc[s * G2 + xc[i].g] < 0)
			Gc[s * G2 + xc[i].g] = sb_lp_add_col(md.lp, NULL, SB_LP_CONT, 0, 1, 0);
	}
	build_schedule(&md, mo->no_lb_cut ? 0 : lb / md.unit);

	/* slot 0 starts the model; a slot ending at j hands over to one
	 * starting at j + 1 */
	for (i = 0; i < nx; i++)
		if (xc[i].s == 0)
			term(&md, xc[i].col, 1);
	row(&md, 1, 1);
	for (s = 0; s + 1 < Sb; s++)
		for (j = 0; j + 1 < L; j++) {
			for (i = 0; i < nx; i++) {
				if (xc[i].s == s && xc[i].b == j)
					term(&md, xc[i].col, 1);
				if (xc[i].s == s + 1 && xc[i].a == j + 1)
					term(&md, xc[i].col, -1);
			}
			row(&md, 0, 0);
		}
	/* a GPU serves at most one stage */
	for (g = 0; g < N; g++) {
		for (i = 0; i < nx; i++)
			if (xc[i].g >> g & 1)
				term(&md, xc[i].col, 1);
		row(&md, -SB_LP_INF, 1);
	}
	/* durations, AR and memory of each slot: sums over its columns */
	for (s = 0; s < Sb; s++) {
		int what;
		for (what = 0; what < 5; what++) {
			int col = what == 0 ? md.F[s] : what == 1 ? md.B[s] : what == 2 ? md.AR[s] :
				  what == 3 ? md.W[s] : md.A[s];
			term(&md, col, 1);
			for (i = 0; i < nx; i++) {
				const struct seg_cost *k = &xc[i].k;
				double v = what == 0 ? k->F / md.unit : what == 1 ? k->B / md.unit :
					   what == 2 ? k->AR / md.unit : what == 3 ? k->W / t->mem :
					   k->A / t->mem;
				if (xc[i].s == s && v != 0)
					term(&md, xc[i].col, -v);
			}
			row(&md, 0, 0);
		}
	}
	/* the indicator sums */
	for (s = 0; s < Sb; s++)
		for (j = 0; j < L; j++)
			for (g = 1; g < G2; g++) {
				int e = E[(s * L + j) * G2 + g];
				if (e < 0)
					continue;
				term(&md, e, 1);
				for (i = 0; i < nx; i++)
					if (xc[i].s == s && xc[i].b == j && xc[i].g == g)
						term(&md, xc[i].col, -1);
				row(&md, 0, 0);
			}
	for (s = 1; s < Sb; s++)
		for (g = 1; g < G2; g++) {
			int e = Gc[s * G2 + g];
			if (e < 0)
				continue;
			term(&md, e, 1);
			for (i = 0; i < nx; i++)
				if (xc[i].s == s && xc[i].g == g)
					term(&md, xc[i].col, -1);
			row(&md, 0, 0);
		}
	/* C_s >= Cval (E + G - 1): the transfer between the groups of slots
	 * s and s+1 when both are chosen; 0 when s+1 is unused */
	for (s = 0; s + 1 < Sb; s++)
		for (j = 0; j + 1 < L; j++)
			for (g = 1; g < G2; g++) {
				int e = E[(s * L + j) * G2 + g];
				if (e < 0)
					continue;
				for (g2 = 1; g2 < G2; g2++) {
					int f = Gc[(s + 1) * G2 + g2];
					double v;
					if (f < 0 || (g & g2))
						continue;
					v = cval[(j * G2 + g) * G2 + g2] / md.unit;
					term(&md, md.C[s], 1);
					term(&md, e, -v);
					term(&md, f, -v);
					row(&md, -v, SB_LP_INF);
				}
			}
	if (isfinite(Tw) && Tw <= ub) {
		double *x0 = NULL;
		if (warm_vector(pb, mo, &md, xc, nx, E, Gc, &x0) == 0) {
			sb_lp_set_incumbent(md.lp, x0);
			res->warm_used = 1;
			sb_free(x0);
		}
	}
	res->nbin = nx;
	rc = mdl_solve(&md, mo, 0, lb, &lr, res, err);
	if (!rc && lr.x && (lr.status == SB_LP_OPTIMAL || lr.status == SB_LP_FEASIBLE)) {
		int ns = 0, used[SB_PIPELINE_MILP_MAX_N];
		for (s = 0; s < Sb; s++)
			used[s] = -1;
		for (i = 0; i < nx; i++)
			if (lr.x[xc[i].col] > 0.5)
				used[xc[i].s] = i;
		while (ns < Sb && used[ns] >= 0)
			ns++;
		sb_pipeline_plan_init(&res->plan, ns, 1);
		res->plan.M = M;
		res->plan.batch = pb->batch;
		res->plan.kappa = pb->kappa;
		res->plan.overlap = mo->overlap;
		snprintf(res->plan.planner, sizeof res->plan.planner, "milp");
		for (s = 0; s < ns; s++) {
			const struct xcol *q = &xc[used[s]];
			res->plan.st[s].first = q->a;
			res->plan.st[s].last = q->b;
			res->plan.st[s].r = mask_gpus(q->g, res->plan.st[s].gpu);
		}
	}
	sb_lp_result_release(&lr);
	mdl_release(&md);
out:
	sb_free(seg);
	sb_free(cval);
	sb_free(xc);
	sb_free(E);
	sb_free(Gc);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Enumeration                                                         */
/* ------------------------------------------------------------------ */

struct enum_ctx {
	const struct sb_pipeline_problem *pb;
	const struct sb_pipeline_milp_opts *mo;
	struct sb_pipeline_enum_result *res;
	int first[SB_PIPELINE_MILP_MAX_N], last[SB_PIPELINE_MILP_MAX_N], grp[SB_PIPELINE_MILP_MAX_N];
	int rc;
	struct sb_err *err;
};

static void enum_plan(struct enum_ctx *x, int S)
{
	const struct sb_pipeline_problem *pb = x->pb;
	struct sb_pipeline_plan p;
	struct sb_pipeline_costs c;
	struct sb_pipeline_milp_opts mo;
	struct sb_pipeline_milp_result r;
	int s, fits = 1;
	double lb;

	x->res->plans++;
	sb_pipeline_plan_init(&p, S, 1);
	p.M = pb->M;
	p.batch = pb->batch;
	p.kappa = pb->kappa;
	p.overlap = x->mo ? x->mo->overlap : 0;
	snprintf(p.planner, sizeof p.planner, "enumerate");
	for (s = 0; s < S; s++) {
		p.st[s].first = x->first[s];
		p.st[s].last = x->last[s];
		p.st[s].r = mask_gpus(x->grp[s], p.st[s].gpu);
	}
	sb_pipeline_costs_build(&c, &p, pb->model, pb->topo);
	for (s = 0; s < S; s++)
		if (c.mem_w[s] + c.mem_a[s] > pb->topo->mem)
			fits = 0;
	lb = sb_pipeline_lb_costs(&c, p.M, NULL);
	sb_pipeline_costs_release(&c);
	if (!fits || lb >= x->res->best) {
		x->res->pruned += fits;
		sb_pipeline_plan_release(&p);
		return;
	}
	if (x->mo)
		mo = *x->mo;
	else
		memset(&mo, 0, sizeof mo);
	mo.warm = NULL;
	mo.cutoff = isfinite(x->res->best) ? x->res->best : 0;
	x->rc = sb_pipeline_milp_sched(&p, pb->model, pb->topo, &mo, &r, x->err);
	x->res->solved++;
	if (!x->rc) {
		if (r.status != SB_LP_OPTIMAL && r.status != SB_LP_INFEASIBLE)
			x->res->exact = 0;
		if (isfinite(r.obj) && r.obj < x->res->best) {
			x->res->best = r.obj;
			sb_pipeline_plan_release(&x->res->plan);
			x->res->plan = p;
			memset(&p, 0, sizeof p);
		}
	}
	sb_pipeline_milp_result_release(&r);
	sb_pipeline_plan_release(&p);
}

/* Stages from layer a on with the GPUs of mask `free` still unused. */
static void enum_rec(struct enum_ctx *x, int s, int a, int free)
{
	int L = x->pb->model->n, b, g;
	if (x->rc || s >= SB_PIPELINE_MILP_MAX_N)
		return;
	for (b = a; b < L; b++)
		for (g = free; g; g = (g - 1) & free) {
			if (!group_ok(x->pb, g))
				continue;
			x->first[s] = a;
			x->last[s] = b;
			x->grp[s] = g;
			if (b == L - 1)
				enum_plan(x, s + 1);
			else
				enum_rec(x, s + 1, b + 1, free & ~g);
			if (x->rc)
				return;
		}
}

void sb_pipeline_enum_result_release(struct sb_pipeline_enum_result *r)
{
	if (!r)
		return;
	if (r->plan.st)
		sb_pipeline_plan_release(&r->plan);
	memset(r, 0, sizeof *r);
}

int sb_pipeline_enumerate(const struct sb_pipeline_problem *pb, const struct sb_pipeline_milp_opts *mo,
		      struct sb_pipeline_enum_result *res, struct sb_err *err)
{
	struct enum_ctx x;
	double t0 = sb_now();
	int rc;

	memset(res, 0, sizeof *res);
	res->best = INFINITY;
	res->exact = 1;
	rc = problem_check(pb, err);
	if (rc)
		return rc;
	memset(&x, 0, sizeof x);
	x.pb = pb;
	x.mo = mo;
	x.res = res;
	x.err = err;
	enum_rec(&x, 0, 0, (1 << pb->topo->n) - 1);
	res->seconds = sb_now() - t0;
	return x.rc;
}
