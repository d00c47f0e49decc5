/*
 * clusterbound.c - bounds and optima of the cluster family (spec asrpt.md
 * §7; all of it is our benchmark design [O], not the paper's).
 *
 * Notation: job j arrives at a_j, needs g_j GPUs, runs n_j iterations;
 * p_j = n_j tau_lb_j (sb_job_iter_time_lb: every transfer at intra-server
 * speed) is never more than the time it runs on any placement; N = S x G.
 * A schedule of the simulator is described by each job's progress
 * f_j(t) in [0, 1]: it grows by 1/n_j per completed iteration, linearly
 * over that iteration's time on the job's GPUs, and not at all during
 * restart overheads or iterations a preemption cut short. So df_j/dt <=
 * 1/(n_j tau_j(placement)) <= 1/p_j, the job holds g_j GPUs whenever f_j
 * grows, and f_j reaches 1 at C_j.
 *
 * LB2 - the time-indexed LP of §7, and why each row is valid:
 *   x_{j,t} = f_j((t+1)D) - f_j(tD), the share of j done in slot t =
 *   [tD, (t+1)D).
 *   - x_{j,t} = 0 when (t+1)D <= a_j: nothing runs before its arrival.
 *   - x_{j,t} <= min(D, (t+1)D - a_j) / p_j: j runs at most that long in
 *     the slot, at rate <= 1/p_j.
 *   - sum_j g_j p_j x_{j,t} <= N D: j holds g_j GPUs for at least
 *     p_j x_{j,t} seconds of the slot.
 *   - mean busy time M_j = int t df_j(t) >= sum_t x_{j,t} e_{j,t} with
 *     e_{j,t} the earliest moment j can work in slot t. The spec uses the
 *     lower slot edge tD; we use e_{j,t} = max(tD, a_j), also valid (a job
 *     arriving mid-slot works only after a_j) and tighter in the arrival
 *     slot. And C_j >= M_j + p_j / 2: with rate <= 1/p_j the latest
 *     possible mean is that of working uniformly on [C_j - p_j, C_j].
 *   - C_j >= a_j + p_j.
 *   One row of the spec is NOT valid as written: sum_{t<T} x_{j,t} = 1
 *   asks every job to finish by the horizon T D, which a schedule that
 *   ends later (a policy worse than the FIFO run that gave the horizon,
 *   or simply a different order; the sum-C optimum need not have the
 *   smallest makespan) violates. We add an overflow slot T = [T D, inf)
 *   with x_{j,T} in [0, 1], no rate or capacity row (it is unbounded) and
 *   e_{j,T} = max(T D, a_j), and require sum_{t<=T} x_{j,t} = 1. Then
 *   every schedule of the simulator, preemptive or not, with any restart
 *   overhead, maps to a feasible point of cost <= its sum of C_j, and the
 *   LP optimum is a lower bound. The horizon only sets the resolution.
 *   The spec's optional cover cut sum_{g_j > N/2} x_{j,t} <= 1 is not
 *   valid either (two short big jobs can both finish inside one slot); we
 *   add the valid form sum_{g_j > N/2} p_j x_{j,t} <= D (big jobs never
 *   overlap, so their running times in a slot add up to at most D).
 *   Rows that cannot bind (their largest possible left side fits) are
 *   left out; time is measured in slots inside the LP. The LP optimum is
 *   GLPK's, within its feasibility tolerance (1e-7 relative); tests
 *   compare with 1e-6 relative slack.
 *
 * OPT bracket on tiny instances - see sb_cluster_opt_tiny in the header
 * for what L and U bound. Patterns k in {0..G}^S with sum k = g_j; P_jk =
 * n_j tau_j(k), tau_j(k) the exact minimum over worker assignments with
 * those per-server counts (sb_cluster_pattern_tau). Binary y_{j,s,k}: j
 * starts in slot s with pattern k; capacity rows per (server, slot).
 *   U model: s >= ceil(a_j / D), j reserves D_up = ceil(P_jk / D) slots
 *     (with a margin of 1e-9 slot, so that a simulator replay never sees a
 *     job end after the next one starts), cost s D + P_jk (the true finish
 *     time: rounding only reserves capacity). Every solution is a
 *     schedule; U is its sum of finish times, recomputed from the decoded
 *     solution after checking it.
 *   L model: s >= floor(a_j / D), j reserves D_dn = floor(P_jk / D) slots,
 *     cost max(s D, a_j) + P_jk. Map a schedule (start S_j, assignment of
 *     pattern k) to s_j = floor(S_j / D): its cost is <= S_j + P_jk <= C_j,
 *     and if s_j <= t < s_j + D_dn then (t+1) D > S_j and
 *     (t+1) D <= s_j D + P_jk <= C_j, so j runs just before (t+1) D in the
 *     schedule: every job the image puts in slot t runs at one common
 *     moment, and the capacity rows hold. So the ILP optimum, and the
 *     search's proven bound when it stops early, is <= OPT_np. (The spec's
 *     cost (s + D) D is weaker than ours in both models.)
 *   Horizons: in an optimal solution of either model every job j has
 *   cost <= R_j = UB - sum_{i != j} cmin_i (UB: a known upper bound on
 *   that model's optimum, cmin_i: the least cost i can have), so only
 *   columns with cost <= R_j are generated (U model: UB from a list
 *   schedule; L model: UB = U >= OPT_np). Symmetry: servers are
 *   identical, so the earliest job only gets patterns with
 *   non-increasing counts (relabel the servers of any schedule).
 *
 * Placement ILP (§7.4) as written, with weights divided by the largest
 * (conditioning; the cut is recomputed from the placement), classes of
 * servers with equal free counts (a worker v may use only the first v + 1
 * servers of a class: relabel each class by smallest worker), a fill in
 * worker order as the first incumbent, and the trivial case (one server
 * holds every worker: cut 0) answered without GLPK.
 *
 * GLPK only through lp.h, with deterministic limits (simplex iterations
 * for LB2, subproblems for the ILPs) and a wall-time limit of
 * SB_CLB_TIME_LIMIT as a safety net only; statuses are reported as GLPK
 * gave them.
 */
#include "bound.h"
#include "heap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Integer models: tight tolerances (costs are compared at 1e-9 in the
 * tests) and pseudocost branching, as in dagbound.c. */
static const struct sb_lp_params ilp_params = {
	.tol_int = 1e-9, .tol_obj = 1e-10, .pseudocost = 1,
};

/* A growable list of (column, value) pairs for building one row. */
struct rowbuf {
	int n, cap;
	int *col;
	double *val;
};

static void rb_add(struct rowbuf *b, int col, double val)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->col = sb_xrealloc(b->col, sizeof(int) * (size_t)b->cap);
		b->val = sb_xrealloc(b->val, sizeof(double) * (size_t)b->cap);
	}
	b->col[b->n] = col;
	b->val[b->n++] = val;
}

static void rb_release(struct rowbuf *b)
{
	sb_free(b->col);
	sb_free(b->val);
	memset(b, 0, sizeof *b);
}

void sb_cluster_tau_lb(const struct sb_cluster *c, const struct sb_jobset *js,
		       double *tau_lb)
{
	int j;
	for (j = 0; j < js->n; j++) {
		struct sb_jobgraph h;
		sb_jobgraph_build(&h, &js->job[j], &js->model[js->job[j].model], c);
		tau_lb[j] = sb_job_iter_time_lb(c, &h);
		sb_jobgraph_release(&h);
	}
}

/* ------------------------------------------------------------------ */
/* LB1                                                                 */
/* ------------------------------------------------------------------ */

void sb_cluster_srpt_completions(const struct sb_cluster *c, const struct sb_jobset *js,
				 const double *tau_lb, double *cv)
{
	struct sb_heap h;
	struct sb_heap_item it;
	double N = (double)c->nserver * c->gpus, t = 0, *rem = SB_NEW(double, js->n);
	int next = 0, cur = -1, n = js->n;
	double rcur = 0;

	sb_heap_init(&h);
	while (next < n || cur >= 0 || sb_heap_size(&h) > 0) {
		double ta = next < n ? js->job[next].arrival : INFINITY;
		if (cur < 0) {
			if (sb_heap_pop(&h, &it)) {
				cur = (int)it.val;
				rcur = rem[cur];
			} else {
				t = ta;
			}
		}
		if (cur >= 0 && t + rcur / N <= ta) {
			t += rcur / N;
			cv[cur] = t;
			cur = -1;
			continue;
		}
		/* an arrival before the current job ends */
		if (cur >= 0) {
			rcur -= (ta - t) * N;
			t = ta;
		}
		while (next < n && js->job[next].arrival == ta) {
			const struct sb_job *j = &js->job[next];
			rem[next] = j->gpus * (double)j->iters * tau_lb[next];
			if (cur >= 0 && rem[next] < rcur) {
				/* preemptive SRPT: the shorter job takes over */
				rem[cur] = rcur;
				sb_heap_push(&h, rcur, cur);
				cur = next;
				rcur = rem[next];
			} else {
				sb_heap_push(&h, rem[next], next);
			}
			next++;
		}
	}
	sb_heap_release(&h);
	sb_free(rem);
}

double sb_cluster_lb1(const struct sb_cluster *c, const struct sb_jobset *js,
		      const double *tau_lb)
{
	double *cv = SB_NEW(double, js->n > 0 ? js->n : 1), a = 0, b = 0;
	int j;
	sb_cluster_srpt_completions(c, js, tau_lb, cv);
	for (j = 0; j < js->n; j++) {
		a += cv[j];
		b += js->job[j].arrival + (double)js->job[j].iters * tau_lb[j];
	}
	sb_free(cv);
	return sb_max(a, b);
}

/* ------------------------------------------------------------------ */
/* LB2                                                                 */
/* ------------------------------------------------------------------ */

#define LB2_MAX_SLOTS 100000
#define LB2_MAX_COLS 4000000L

int sb_cluster_lb2(const struct sb_cluster *c, const struct sb_jobset *js,
		   const double *tau_lb, double horizon, int slots, long iter_limit,
		   double *lb, struct sb_lp_result *res, struct sb_err *err)
{
	struct sb_lp_result local;
	struct sb_lp_result *r = res ? res : &local;
	struct sb_lp *lp = NULL;
	struct sb_lp_params par;
	struct rowbuf rb;
	double *tl = NULL, *ap = NULL, *pp = NULL, delta, N;
	int *t0 = NULL, *first = NULL, *ccol = NULL;
	int n = js->n, j, t, T, rc = 0, nbig = 0;
	long ncols = 0;
	char name[64];

	memset(&rb, 0, sizeof rb);
	memset(r, 0, sizeof *r);
	r->obj = r->bound = NAN;
	*lb = NAN;
	if ((rc = sb_cluster_validate(c, err)) != 0 ||
	    (rc = sb_jobset_validate(js, c, err)) != 0)
		goto out;
	if (!(horizon > 0) || !isfinite(horizon)) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: horizon %g is not a positive number",
				horizon);
		goto out;
	}
	T = slots > 0 ? slots : SB_CLB_LB2_SLOTS;
	if (T > LB2_MAX_SLOTS) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: %d slots (at most %d)", T,
				LB2_MAX_SLOTS);
		goto out;
	}
	if (n == 0) {
		r->status = SB_LP_OPTIMAL;
		r->obj = r->bound = 0;
		*lb = 0;
		goto out;
	}
	delta = horizon / T;
	N = (double)c->nserver * c->gpus;
	tl = SB_NEW(double, n);
	if (tau_lb)
		memcpy(tl, tau_lb, sizeof(double) * (size_t)n);
	else
		sb_cluster_tau_lb(c, js, tl);
	ap = SB_NEW(double, n);
	pp = SB_NEW(double, n);
	t0 = SB_NEW(int, n);
	first = SB_NEW(int, n);
	ccol = SB_NEW(int, n);
	for (j = 0; j < n; j++) {
		const struct sb_job *jb = &js->job[j];
		double a = jb->arrival / delta;
		if (!(tl[j] > 0) || !isfinite(tl[j])) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: job %d: tau_lb %g", j, tl[j]);
			goto out;
		}
		/* in slots; the arrival a hair early (rounding of a_j / D must
		 * never cut off a slot in which j can work) */
		ap[j] = a - 1e-12 * (1 + a);
		pp[j] = (double)jb->iters * tl[j] / delta;
		t0[j] = ap[j] >= T ? T : (int)floor(sb_max(ap[j], 0));
		ncols += T - t0[j] + 2;
		nbig += 2 * jb->gpus > N;
	}
	if (ncols > LB2_MAX_COLS) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "lb2: model too large (%ld columns; "
				"fewer slots or jobs)", ncols);
		goto out;
	}

	lp = sb_lp_new("cluster-lb2", 1);
	memset(&par, 0, sizeof par);
	par.iter_limit = iter_limit > 0 ? iter_limit : SB_CLB_LB2_ITERS;
	par.dual = 1;
	sb_lp_set_params(lp, &par);
	/* columns: C_j, then x_{j,t} for t = t0_j .. T (T: the overflow) */
	for (j = 0; j < n; j++) {
		const struct sb_job *jb = &js->job[j];
		snprintf(name, sizeof name, "C_%d", j);
		ccol[j] = sb_lp_add_col(lp, name, SB_LP_CONT,
					(jb->arrival + (double)jb->iters * tl[j]) / delta,
					SB_LP_INF, 1);
		first[j] = sb_lp_ncols(lp);
		for (t = t0[j]; t < T; t++) {
			double len = sb_min(1, t + 1 - ap[j]);
			snprintf(name, sizeof name, "x_%d_%d", j, t);
			sb_lp_add_col(lp, name, SB_LP_CONT, 0, sb_min(1, len / pp[j]), 0);
		}
		snprintf(name, sizeof name, "x_%d_over", j);
		sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, 0);
	}
	/* sum_t x = 1;  C_j - sum_t e_{j,t} x_{j,t} >= p_j / 2 */
	for (j = 0; j < n; j++) {
		rb.n = 0;
		for (t = t0[j]; t <= T; t++)
			rb_add(&rb, first[j] + t - t0[j], 1);
		snprintf(name, sizeof name, "once_%d", j);
		sb_lp_add_row(lp, name, 1, 1, rb.n, rb.col, rb.val);
		rb.n = 0;
		rb_add(&rb, ccol[j], 1);
		for (t = t0[j]; t <= T; t++)
			rb_add(&rb, first[j] + t - t0[j], -sb_max(t, ap[j]));
		snprintf(name, sizeof name, "mbt_%d", j);
		sb_lp_add_row(lp, name, pp[j] / 2, SB_LP_INF, rb.n, rb.col, rb.val);
	}
	/* GPU-seconds per slot, and the big jobs' running time per slot */
	for (t = 0; t < T; t++) {
		double most = 0, most_big = 0;
		int big;
		for (big = 0; big < 2; big++) {
			rb.n = 0;
			most = 0;
			for (j = 0; j < n && t0[j] <= t; j++) {
				const struct sb_job *jb = &js->job[j];
				double ub = sb_min(1, sb_min(1, t + 1 - ap[j]) / pp[j]);
				if (big && !(2 * jb->gpus > N))
					continue;
				rb_add(&rb, first[j] + t - t0[j], big ? pp[j] : jb->gpus * pp[j]);
				most += rb.val[rb.n - 1] * ub;
			}
			if (!big && most > N * (1 + 1e-12)) {
				snprintf(name, sizeof name, "gpus_%d", t);
				sb_lp_add_row(lp, name, -SB_LP_INF, N, rb.n, rb.col, rb.val);
			}
			most_big = most;
			if (big && nbig >= 2 && rb.n >= 2 && most_big > 1 + 1e-12) {
				snprintf(name, sizeof name, "big_%d", t);
				sb_lp_add_row(lp, name, -SB_LP_INF, 1, rb.n, rb.col, rb.val);
			}
		}
	}
	rc = sb_lp_solve(lp, 1, SB_CLB_TIME_LIMIT, 0, r, err);
	if (rc) {
		sb_err_prefix(err, "lb2: ");
		goto out;
	}
	if (r->status == SB_LP_OPTIMAL)
		*lb = r->obj * delta;
out:
	if (!res)
		sb_lp_result_release(&local);
	sb_lp_free(lp);
	rb_release(&rb);
	sb_free(tl); sb_free(ap); sb_free(pp);
	sb_free(t0); sb_free(first); sb_free(ccol);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Iteration time of a pattern                                         */
/* ------------------------------------------------------------------ */

struct penum {
	const struct sb_cluster *c;
	const struct sb_jobgraph *h;
	const int *count;
	int ns;
	int *rem, *asg, *best;
	double best_tau;
};

static void penum_rec(struct penum *e, int v)
{
	int m, k;

	if (v == e->h->nv) {
		double tau = sb_job_iter_time(e->c, e->h, e->asg);
		if (tau < e->best_tau) {
			e->best_tau = tau;
			memcpy(e->best, e->asg, sizeof(int) * (size_t)e->h->nv);
		}
		return;
	}
	for (m = 0; m < e->ns; m++) {
		if (e->rem[m] == 0)
			continue;
		if (e->rem[m] == e->count[m]) {
			/* m is still empty: an earlier empty server of the same
			 * size gives the same iteration times (relabel them) */
			for (k = 0; k < m; k++)
				if (e->rem[k] == e->count[k] && e->count[k] == e->count[m])
					break;
			if (k < m)
				continue;
		}
		e->asg[v] = m;
		e->rem[m]--;
		penum_rec(e, v + 1);
		e->rem[m]++;
	}
}

double sb_cluster_pattern_tau(const struct sb_cluster *c, const struct sb_jobgraph *h,
			      const int *count, int nserver, int *server)
{
	struct penum e;
	int m, sum = 0;

	for (m = 0; m < nserver; m++) {
		SB_ASSERT(count[m] >= 0);
		sum += count[m];
	}
	SB_ASSERT(sum == h->nv && h->nv <= SB_CLB_ENUM_MAX);
	memset(&e, 0, sizeof e);
	e.c = c;
	e.h = h;
	e.count = count;
	e.ns = nserver;
	e.rem = SB_NEW(int, nserver);
	e.asg = SB_NEW(int, h->nv + 1);
	e.best = SB_NEW(int, h->nv + 1);
	memcpy(e.rem, count, sizeof(int) * (size_t)nserver);
	e.best_tau = INFINITY;
	penum_rec(&e, 0);
	if (server)
		memcpy(server, e.best, sizeof(int) * (size_t)h->nv);
	sb_free(e.rem);
	sb_free(e.asg);
	sb_free(e.best);
	return e.best_tau;
}

/* ------------------------------------------------------------------ */
/* OPT bracket on tiny instances                                       */
/* ------------------------------------------------------------------ */

#define TINY_MAX_COLS 200000
#define TINY_MAX_NNZ 8000000L
#define TINY_SLOTS 60            /* default: delta = list makespan / this */

/* A job's placement patterns. */
struct tjob {
	int g, np, cap;
	int *pat;                /* np x S GPUs per server */
	double *P;               /* n_j tau_j(k), seconds */
	int *asg;                /* np x g: worker -> server attaining it */
	int *dup, *ddn;          /* slots reserved in the U and L models */
	double pmin;
	int smin_up, smin_lo;    /* first start slot in the U and L models */
};

struct tiny {
	const struct sb_cluster *c;
	const struct sb_jobset *js;
	int n, S, G;
	double delta;
	struct tjob *tj;
};

/* A block of columns: job j with pattern k, starts s0..s1; column
 * col0 + s - s0 is Y_{j,k,s} (see tiny_build). */
struct tblock {
	int j, k, s0, s1, col0;
};

struct tmodel {
	struct sb_lp *lp;
	struct tblock *b;
	int nb;
};

static void pat_rec(struct tjob *tj, int S, int G, int m, int rem, int sorted, int *cur)
{
	int x, hi;

	if (m == S) {
		if (rem != 0)
			return;
		if (tj->np == tj->cap) {
			tj->cap = tj->cap ? 2 * tj->cap : 16;
			tj->pat = sb_xrealloc(tj->pat, sizeof(int) * (size_t)tj->cap * S);
		}
		memcpy(tj->pat + (size_t)tj->np * S, cur, sizeof(int) * (size_t)S);
		tj->np++;
		return;
	}
	hi = rem < G ? rem : G;
	if (sorted && m > 0 && cur[m - 1] < hi)
		hi = cur[m - 1];
	/* most concentrated first; stop when the rest cannot fit */
	for (x = hi; x >= 0 && rem - x <= (S - m - 1) * G; x--) {
		cur[m] = x;
		pat_rec(tj, S, G, m + 1, rem - x, sorted, cur);
	}
}

static void tiny_release(struct tiny *ty)
{
	int j;
	if (!ty->tj)
		return;
	for (j = 0; j < ty->n; j++) {
		struct tjob *t = &ty->tj[j];
		sb_free(t->pat); sb_free(t->P); sb_free(t->asg);
		sb_free(t->dup); sb_free(t->ddn);
	}
	sb_free(ty->tj);
	ty->tj = NULL;
}

/* Patterns and their exact durations. */
static void tiny_patterns(struct tiny *ty)
{
	int j, k, S = ty->S;
	int cur[SB_CLB_TINY_SERVERS];

	ty->tj = SB_NEW(struct tjob, ty->n);
	for (j = 0; j < ty->n; j++) {
		const struct sb_job *jb = &ty->js->job[j];
		struct tjob *t = &ty->tj[j];
		struct sb_jobgraph h;
		t->g = jb->gpus;
		/* servers are identical: the first job's patterns need only be
		 * the non-increasing ones (relabel the servers of a schedule) */
		pat_rec(t, S, ty->G, 0, t->g, j == 0, cur);
		SB_ASSERT(t->np > 0);
		t->P = SB_NEW(double, t->np);
		t->asg = SB_NEW(int, (size_t)t->np * t->g);
		t->dup = SB_NEW(int, t->np);
		t->ddn = SB_NEW(int, t->np);
		sb_jobgraph_build(&h, jb, &ty->js->model[jb->model], ty->c);
		t->pmin = INFINITY;
		for (k = 0; k < t->np; k++) {
			double tau = sb_cluster_pattern_tau(ty->c, &h, t->pat + (size_t)k * S, S,
							    t->asg + (size_t)k * t->g);
			t->P[k] = (double)jb->iters * tau;
			t->pmin = sb_min(t->pmin, t->P[k]);
		}
		sb_jobgraph_release(&h);
	}
}

/* Slot quantities for slot length delta (see the file comment for the
 * directions of rounding: up for U, down for L, with margins of 1e-9
 * slot against rounding errors). */
static void tiny_slots(struct tiny *ty, double delta)
{
	int j, k;
	ty->delta = delta;
	for (j = 0; j < ty->n; j++) {
		struct tjob *t = &ty->tj[j];
		double a = ty->js->job[j].arrival / delta;
		t->smin_up = (int)ceil(a);
		if (t->smin_up * delta < ty->js->job[j].arrival)
			t->smin_up++;
		t->smin_lo = (int)sb_max(0, floor(a - 1e-9));
		for (k = 0; k < t->np; k++) {
			double d = t->P[k] / delta;
			t->dup[k] = (int)ceil(d + 1e-9);
			t->ddn[k] = (int)sb_max(0, floor(d - 1e-9));
		}
	}
}

/* Does j with pattern k fit from slot s for D slots on usage (S x T)? */
static int fits(const struct tiny *ty, const int *usage, int T, int j, int k, int s, int D)
{
	const int *pat = ty->tj[j].pat + (size_t)k * ty->S;
	int m, t;
	if (s + D > T)
		return 0;
	for (m = 0; m < ty->S; m++) {
		if (!pat[m])
			continue;
		for (t = s; t < s + D; t++)
			if (usage[m * T + t] + pat[m] > ty->G)
				return 0;
	}
	return 1;
}

static void occupy(const struct tiny *ty, int *usage, int T, int j, int k, int s, int D)
{
	const int *pat = ty->tj[j].pat + (size_t)k * ty->S;
	int m, t;
	for (m = 0; m < ty->S; m++)
		for (t = s; t < s + D; t++)
			usage[m * T + t] += pat[m];
}

/* Slots enough for any list schedule of the U model. */
static int list_slots(const struct tiny *ty)
{
	long T = 1, smax = 0;
	int j, k;
	/* any job can start once every other one is done */
	for (j = 0; j < ty->n; j++) {
		int most = 0;
		smax = smax > ty->tj[j].smin_up ? smax : ty->tj[j].smin_up;
		for (k = 0; k < ty->tj[j].np; k++)
			most = most > ty->tj[j].dup[k] ? most : ty->tj[j].dup[k];
		T += most;
	}
	T += smax;
	return T > 50000000L ? -1 : (int)T;
}

/* List schedule of the U model: jobs in `order`, each at the (start,
 * pattern) with the earliest finish. Fills s[], k[]; returns its sum of
 * finish times. */
static double list_schedule(const struct tiny *ty, const int *order, int *s, int *k)
{
	int T = list_slots(ty), i, j, kk, st;
	int *usage = SB_NEW(int, (size_t)ty->S * T);
	double sum = 0;

	for (i = 0; i < ty->n; i++) {
		const struct tjob *t;
		double best = INFINITY;
		j = order[i];
		t = &ty->tj[j];
		for (kk = 0; kk < t->np; kk++) {
			for (st = t->smin_up; !fits(ty, usage, T, j, kk, st, t->dup[kk]); st++)
				SB_ASSERT(st < T);
			if (st * ty->delta + t->P[kk] < best) {
				best = st * ty->delta + t->P[kk];
				s[j] = st;
				k[j] = kk;
			}
		}
		occupy(ty, usage, T, j, k[j], s[j], t->dup[k[j]]);
		sum += best;
	}
	sb_free(usage);
	return sum;
}

/* 1 if starts s[] and patterns k[] are a schedule of the U model. */
static int plan_ok(const struct tiny *ty, const int *s, const int *k)
{
	int T = 1, j, ok = 1;
	int *usage;
	for (j = 0; j < ty->n; j++) {
		if (k[j] < 0 || k[j] >= ty->tj[j].np || s[j] < ty->tj[j].smin_up)
			return 0;
		T = T > s[j] + ty->tj[j].dup[k[j]] ? T : s[j] + ty->tj[j].dup[k[j]];
	}
	usage = SB_NEW(int, (size_t)ty->S * T);
	for (j = 0; j < ty->n && ok; j++) {
		ok = fits(ty, usage, T, j, k[j], s[j], ty->tj[j].dup[k[j]]);
		occupy(ty, usage, T, j, k[j], s[j], ty->tj[j].dup[k[j]]);
	}
	sb_free(usage);
	return ok;
}

/* Relabel the servers of plan k[] (patterns) into the lexicographic order
 * the models require (see tiny_build): same schedule, other names. */
static void plan_canon(const struct tiny *ty, int *k)
{
	int S = ty->S, n = ty->n, perm[SB_CLB_TINY_SERVERS], a, b, j, q, m;
	int cur[SB_CLB_TINY_SERVERS];

	for (m = 0; m < S; m++)
		perm[m] = m;
	/* insertion sort of the servers, lexicographically descending */
	for (a = 1; a < S; a++)
		for (b = a; b > 0; b--) {
			int x = perm[b - 1], y = perm[b], cmp = 0, t;
			for (j = 0; j < n && !cmp; j++) {
				const int *pat = ty->tj[j].pat + (size_t)k[j] * S;
				cmp = (pat[y] > pat[x]) - (pat[y] < pat[x]);
			}
			if (cmp <= 0)
				break;
			t = perm[b - 1];
			perm[b - 1] = perm[b];
			perm[b] = t;
		}
	for (j = 0; j < n; j++) {
		const struct tjob *t = &ty->tj[j];
		for (m = 0; m < S; m++)
			cur[m] = t->pat[(size_t)k[j] * S + perm[m]];
		for (q = 0; q < t->np; q++)
			if (memcmp(t->pat + (size_t)q * S, cur, sizeof(int) * (size_t)S) == 0)
				break;
		SB_ASSERT(q < t->np);
		k[j] = q;
	}
}

/* Cost (seconds) of column (j, s, k) in the U (upper = 1) or L model. */
static double col_cost(const struct tiny *ty, int upper, int j, int s, int k)
{
	double st = s * ty->delta;
	if (!upper)
		st = sb_max(st, ty->js->job[j].arrival);
	return st + ty->tj[j].P[k];
}

/*
 * Build the U (upper = 1) or L model with the starts of cost <= R_j = ub -
 * sum_{i != j} cmin_i (see the file comment), in cumulative form: for each
 * job j and pattern k a block of binaries Y_{j,k,s}, "j has started with
 * pattern k by slot s", s0 <= s <= s1, monotone in s; start indicators
 * are y_{j,k,s} = Y_{j,k,s} - Y_{j,k,s-1}. The same model as with the
 * y's (a linear change of variables, so the same LP bound), but a job
 * running in slot t is Y_{min(t,s1)} - Y_{t-D}: two entries per capacity
 * row instead of D per start, and branching on a Y splits "started by s"
 * from "later", which GLPK's search handles much better (measured: tens
 * of times faster on 3 x 4 GPUs, 8 jobs). Fills md; returns 0, or
 * SB_EXIT_INPUT with err filled when the model is too large.
 */
static int tiny_build(const struct tiny *ty, int upper, double ub, long node_limit,
		      struct tmodel *md, struct sb_err *err)
{
	struct sb_lp_params par;
	double *cmin = SB_NEW(double, ty->n), csum = 0, pad = 1e-9 * (1 + fabs(ub));
	int n = ty->n, S = ty->S, j, k, s, i, cap = 0, Tm = 0, m, t, rc = 0;
	long ncol = 0;
	char name[64];
	struct rowbuf rb;

	memset(&rb, 0, sizeof rb);
	memset(md, 0, sizeof *md);
	for (j = 0; j < n; j++) {
		const struct tjob *tj = &ty->tj[j];
		int s0 = upper ? tj->smin_up : tj->smin_lo;
		cmin[j] = INFINITY;
		for (k = 0; k < tj->np; k++)
			cmin[j] = sb_min(cmin[j], col_cost(ty, upper, j, s0, k));
		csum += cmin[j];
	}
	for (j = 0; j < n; j++) {
		const struct tjob *tj = &ty->tj[j];
		double R = ub - (csum - cmin[j]) + pad;
		int s0 = upper ? tj->smin_up : tj->smin_lo, have = 0;
		for (k = 0; k < tj->np; k++) {
			int D = upper ? tj->dup[k] : tj->ddn[k];
			if (col_cost(ty, upper, j, s0, k) > R)
				continue;
			for (s = s0; col_cost(ty, upper, j, s + 1, k) <= R; s++)
				;
			ncol += s - s0 + 1;
			if (ncol > TINY_MAX_COLS) {
				rc = sb_err_set(err, SB_EXIT_INPUT, "opt-tiny: model too large (more "
						"than %d columns: a larger delta)", TINY_MAX_COLS);
				goto out;
			}
			if (md->nb == cap) {
				cap = cap ? 2 * cap : 64;
				md->b = sb_xrealloc(md->b, sizeof *md->b * (size_t)cap);
			}
			md->b[md->nb++] = (struct tblock){ j, k, s0, s, 0 };
			Tm = Tm > s + D ? Tm : s + D;
			have = 1;
		}
		SB_ASSERT(have);   /* ub is at least the model's optimum */
	}

	md->lp = sb_lp_new(upper ? "cluster-opt-upper" : "cluster-opt-lower", 1);
	par = ilp_params;
	par.node_limit = node_limit > 0 ? node_limit : 0;
	if (getenv("CLB_PC")) par.pseudocost = atoi(getenv("CLB_PC"));
	if (getenv("CLB_CUTS")) par.cuts = atoi(getenv("CLB_CUTS"));
	sb_lp_set_params(md->lp, &par);
	/* Y columns; the cost of starting at s is c_s = sum_{s' >= s} of the
	 * objective coefficients c_s' - c_{s'+1} (and c_{s1} for s1) */
	for (i = 0; i < md->nb; i++) {
		struct tblock *b = &md->b[i];
		b->col0 = sb_lp_ncols(md->lp);
		for (s = b->s0; s <= b->s1; s++) {
			double c = col_cost(ty, upper, b->j, s, b->k) / ty->delta;
			if (s < b->s1)
				c -= col_cost(ty, upper, b->j, s + 1, b->k) / ty->delta;
			snprintf(name, sizeof name, "Y_%d_%d_%d", b->j, b->k, s);
			sb_lp_add_col(md->lp, name, SB_LP_BIN, 0, 1, c);
		}
	}
	/* every job starts once; Y is monotone */
	for (j = 0; j < n; j++) {
		rb.n = 0;
		for (i = 0; i < md->nb; i++)
			if (md->b[i].j == j)
				rb_add(&rb, md->b[i].col0 + md->b[i].s1 - md->b[i].s0, 1);
		snprintf(name, sizeof name, "once_%d", j);
		sb_lp_add_row(md->lp, name, 1, 1, rb.n, rb.col, rb.val);
	}
	for (i = 0; i < md->nb; i++)
		for (s = md->b[i].s0 + 1; s <= md->b[i].s1; s++) {
			int cc[2] = { md->b[i].col0 + s - md->b[i].s0,
				      md->b[i].col0 + s - md->b[i].s0 - 1 };
			double vv[2] = { 1, -1 };
			snprintf(name, sizeof name, "mono_%d_%d_%d", md->b[i].j, md->b[i].k, s);
			sb_lp_add_row(md->lp, name, 0, SB_LP_INF, 2, cc, vv);
		}
	/* capacity of server m in slot t: j runs in t iff it started in
	 * (t - D, t], i.e. Y_{min(t, s1)} - Y_{t - D} */
	for (m = 0; m < S; m++)
		for (t = 0; t < Tm; t++) {
			int most = 0, jcur = -1, jmost = 0;
			rb.n = 0;
			for (i = 0; i < md->nb; i++) {
				const struct tblock *b = &md->b[i];
				const struct tjob *tj = &ty->tj[b->j];
				int v = tj->pat[(size_t)b->k * S + m];
				int D = upper ? tj->dup[b->k] : tj->ddn[b->k];
				if (!v || D == 0 || t < b->s0 || t - D >= b->s1)
					continue;
				rb_add(&rb, b->col0 + (t < b->s1 ? t : b->s1) - b->s0, v);
				if (t - D >= b->s0)
					rb_add(&rb, b->col0 + t - D - b->s0, -v);
				/* blocks are job by job: the left side is at most
				 * the sum of each job's largest count */
				if (b->j != jcur) {
					most += jmost;
					jmost = 0;
					jcur = b->j;
				}
				jmost = jmost > v ? jmost : v;
			}
			most += jmost;
			if (most <= ty->G)
				continue;
			snprintf(name, sizeof name, "cap_%d_%d", m, t);
			sb_lp_add_row(md->lp, name, -SB_LP_INF, ty->G, rb.n, rb.col, rb.val);
		}
	/* symmetry: servers in lexicographically non-increasing order of
	 * (count of job 0, count of job 1, ...) - job i may put fewer
	 * workers on m than on m + 1 only if an earlier job tells m and
	 * m + 1 apart */
	for (j = 1; j < n; j++)
		for (m = 0; m + 1 < S; m++) {
			int bad = 0;
			rb.n = 0;
			for (i = 0; i < md->nb; i++) {
				const struct tblock *b = &md->b[i];
				const int *pat = ty->tj[b->j].pat + (size_t)b->k * S;
				int col = b->col0 + b->s1 - b->s0;
				if (b->j == j && pat[m] < pat[m + 1]) {
					rb_add(&rb, col, 1);
					bad = 1;
				} else if (b->j < j && pat[m] != pat[m + 1]) {
					rb_add(&rb, col, -1);
				}
			}
			if (!bad)
				continue;
			snprintf(name, sizeof name, "lex_%d_%d", j, m);
			sb_lp_add_row(md->lp, name, -SB_LP_INF, 0, rb.n, rb.col, rb.val);
		}
out:
	sb_free(cmin);
	rb_release(&rb);
	return rc;
}

static void tmodel_release(struct tmodel *md)
{
	sb_lp_free(md->lp);
	sb_free(md->b);
	memset(md, 0, sizeof *md);
}

/* The start of each job in x (exactly one y above 1/2), or -1. */
static int tiny_decode(const struct tiny *ty, const struct tmodel *md, const double *x,
		       int *s, int *k)
{
	int i, j, q;
	for (j = 0; j < ty->n; j++)
		s[j] = k[j] = -1;
	for (i = 0; i < md->nb; i++) {
		const struct tblock *b = &md->b[i];
		for (q = b->s0; q <= b->s1; q++) {
			double y = x[b->col0 + q - b->s0] -
				   (q > b->s0 ? x[b->col0 + q - b->s0 - 1] : 0);
			if (!(y > 0.5))
				continue;
			if (k[b->j] >= 0)
				return -1;
			s[b->j] = q;
			k[b->j] = b->k;
		}
	}
	for (j = 0; j < ty->n; j++)
		if (k[j] < 0)
			return -1;
	return 0;
}

void sb_cluster_tiny_sched_release(struct sb_cluster_tiny_sched *s)
{
	if (!s)
		return;
	sb_free(s->start);
	sb_free(s->finish);
	sb_free(s->voff);
	sb_free(s->server);
	memset(s, 0, sizeof *s);
}

static int tiny_check_input(const struct sb_cluster *c, const struct sb_jobset *js,
			    double delta, struct sb_err *err)
{
	int rc, j;
	if ((rc = sb_cluster_validate(c, err)) != 0 ||
	    (rc = sb_jobset_validate(js, c, err)) != 0)
		return rc;
	if (c->nserver > SB_CLB_TINY_SERVERS || c->gpus > SB_CLB_TINY_GPUS)
		return sb_err_set(err, SB_EXIT_INPUT, "opt-tiny: cluster %d x %d GPUs is not "
				  "tiny (at most %d x %d)", c->nserver, c->gpus,
				  SB_CLB_TINY_SERVERS, SB_CLB_TINY_GPUS);
	if (js->n > SB_CLB_TINY_JOBS)
		return sb_err_set(err, SB_EXIT_INPUT, "opt-tiny: %d jobs (at most %d)", js->n,
				  SB_CLB_TINY_JOBS);
	for (j = 0; j < js->n; j++)
		if (js->job[j].gpus > SB_CLB_TINY_JOB_GPUS)
			return sb_err_set(err, SB_EXIT_INPUT, "opt-tiny: job %d: %d GPUs (at "
					  "most %d)", j, js->job[j].gpus, SB_CLB_TINY_JOB_GPUS);
	if (isnan(delta) || isinf(delta))
		return sb_err_set(err, SB_EXIT_INPUT, "opt-tiny: slot length %g", delta);
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	const double *x = a, *y = b;
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

int sb_cluster_opt_tiny(const struct sb_cluster *c, const struct sb_jobset *js,
			double delta, long node_limit, double *lower, double *upper,
			int *lower_status, int *upper_status,
			struct sb_cluster_tiny_sched *sched, struct sb_err *err)
{
	struct tiny ty;
	struct tmodel md;
	struct sb_lp_result r;
	int n = js->n, rc, j, i, q, pass;
	int *s = NULL, *k = NULL, *bs = NULL, *bk = NULL, *order = NULL;
	double best = INFINITY, lo_triv = 0, *x0 = NULL, *key = NULL;

	memset(&ty, 0, sizeof ty);
	memset(&md, 0, sizeof md);
	memset(&r, 0, sizeof r);
	*lower = NAN;
	*upper = NAN;
	*lower_status = *upper_status = SB_LP_ERROR;
	if (sched)
		memset(sched, 0, sizeof *sched);
	if ((rc = tiny_check_input(c, js, delta, err)) != 0)
		return rc;
	if (n == 0) {
		*lower = *upper = 0;
		*lower_status = *upper_status = SB_LP_OPTIMAL;
		return 0;
	}
	ty.c = c;
	ty.js = js;
	ty.n = n;
	ty.S = c->nserver;
	ty.G = c->gpus;
	tiny_patterns(&ty);
	s = SB_NEW(int, n);
	k = SB_NEW(int, n);
	bs = SB_NEW(int, n);
	bk = SB_NEW(int, n);
	order = SB_NEW(int, n);
	key = SB_NEW(double, 2 * n);
	for (j = 0; j < n; j++)
		lo_triv += js->job[j].arrival + ty.tj[j].pmin;
	if (!(delta > 0)) {
		/* default: the makespan of a list schedule at a fine resolution
		 * over TINY_SLOTS */
		double ms = 0, fine = 0;
		for (j = 0; j < n; j++) {
			order[j] = j;
			fine = sb_max(fine, js->job[j].arrival + ty.tj[j].pmin);
		}
		tiny_slots(&ty, fine / 1000);
		list_schedule(&ty, order, s, k);
		for (j = 0; j < n; j++)
			ms = sb_max(ms, s[j] * ty.delta + ty.tj[j].P[k[j]]);
		delta = ms / TINY_SLOTS;
	}
	tiny_slots(&ty, delta);
	if (list_slots(&ty) < 0) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "opt-tiny: slot length %g too small", delta);
		goto out;
	}

	/* U: list schedules from two orders (arrival; a_j + pmin), each
	 * improved by swapping two jobs of the list while that helps, then
	 * the ILP started from the best (a good start also narrows the
	 * columns of both models) */
	for (pass = 0; pass < 2; pass++) {
		double v, cur;
		int a, b, better = 1, rounds = 0;
		for (j = 0; j < n; j++) {
			key[2 * j] = pass ? js->job[j].arrival + ty.tj[j].pmin : j;
			key[2 * j + 1] = j;
		}
		qsort(key, (size_t)n, 2 * sizeof(double), cmp_key);
		for (j = 0; j < n; j++)
			order[j] = (int)key[2 * j + 1];
		cur = list_schedule(&ty, order, s, k);
		while (better && rounds++ < 2 * n) {
			better = 0;
			for (a = 0; a < n; a++)
				for (b = a + 1; b < n; b++) {
					int t = order[a];
					order[a] = order[b];
					order[b] = t;
					v = list_schedule(&ty, order, s, k);
					if (v < cur * (1 - 1e-12)) {
						cur = v;
						better = 1;
					} else {
						order[b] = order[a];
						order[a] = t;
					}
				}
		}
		v = list_schedule(&ty, order, s, k);
		if (v < best) {
			best = v;
			memcpy(bs, s, sizeof(int) * (size_t)n);
			memcpy(bk, k, sizeof(int) * (size_t)n);
		}
	}
	plan_canon(&ty, bk);
	SB_ASSERT(plan_ok(&ty, bs, bk));
	if ((rc = tiny_build(&ty, 1, best, node_limit, &md, err)) != 0)
		goto out;
	x0 = SB_NEW(double, sb_lp_ncols(md.lp));
	for (i = 0; i < md.nb; i++)
		for (q = md.b[i].s0; q <= md.b[i].s1; q++)
			x0[md.b[i].col0 + q - md.b[i].s0] =
				md.b[i].k == bk[md.b[i].j] && q >= bs[md.b[i].j];
	sb_lp_set_incumbent(md.lp, x0);
	rc = sb_lp_solve(md.lp, 0, SB_CLB_TIME_LIMIT, 0, &r, err);
	if (rc) {
		sb_err_prefix(err, "opt-tiny (upper): ");
		goto out;
	}
	*upper_status = r.status;
	if (getenv("CLB_DEBUG")) fprintf(stderr, "upper: cols %d rows %d status %s nodes %ld t %.2f obj %g bound %g greedy %g\n", sb_lp_ncols(md.lp), sb_lp_nrows(md.lp), sb_lp_status_name(r.status), r.nodes, r.seconds, r.obj*ty.delta, r.bound*ty.delta, best);
	if (r.x && tiny_decode(&ty, &md, r.x, s, k) == 0 && plan_ok(&ty, s, k)) {
		double v = 0;
		for (j = 0; j < n; j++)
			v += col_cost(&ty, 1, j, s[j], k[j]);
		if (v < best) {
			best = v;
			memcpy(bs, s, sizeof(int) * (size_t)n);
			memcpy(bk, k, sizeof(int) * (size_t)n);
		}
	}
	*upper = best;
	sb_lp_result_release(&r);
	tmodel_release(&md);

	/* L: the rounded-down model, its starts pruned with U >= OPT_np */
	if ((rc = tiny_build(&ty, 0, best, node_limit, &md, err)) != 0)
		goto out;
	rc = sb_lp_solve(md.lp, 0, SB_CLB_TIME_LIMIT, 0, &r, err);
	if (rc) {
		sb_err_prefix(err, "opt-tiny (lower): ");
		goto out;
	}
	*lower_status = r.status;
	if (getenv("CLB_DEBUG")) fprintf(stderr, "lower: cols %d rows %d status %s nodes %ld t %.2f obj %g bound %g\n", sb_lp_ncols(md.lp), sb_lp_nrows(md.lp), sb_lp_status_name(r.status), r.nodes, r.seconds, r.obj*ty.delta, r.bound*ty.delta);
	if (r.status == SB_LP_INFEASIBLE || r.status == SB_LP_UNBOUNDED) {
		/* the image of an optimal schedule is a solution: a bug */
		rc = sb_err_set(err, SB_EXIT_RUN, "opt-tiny: lower model %s",
				sb_lp_status_name(r.status));
		goto out;
	}
	*lower = lo_triv;
	if (isfinite(r.bound) && fabs(r.bound) < 1e299) {
		/* less the search's pruning tolerance (tol_obj) */
		double b = r.bound * ty.delta;
		*lower = sb_max(lo_triv, b - 1e-9 * (1 + fabs(b)));
	}
	if (sched) {
		int off = 0;
		sched->n = n;
		sched->start = SB_NEW(double, n);
		sched->finish = SB_NEW(double, n);
		sched->voff = SB_NEW(int, n + 1);
		for (j = 0; j < n; j++) {
			sched->voff[j] = off;
			off += ty.tj[j].g;
		}
		sched->voff[n] = off;
		sched->server = SB_NEW(int, off > 0 ? off : 1);
		for (j = 0; j < n; j++) {
			const struct tjob *t = &ty.tj[j];
			sched->start[j] = bs[j] * ty.delta;
			sched->finish[j] = sched->start[j] + t->P[bk[j]];
			memcpy(sched->server + sched->voff[j], t->asg + (size_t)bk[j] * t->g,
			       sizeof(int) * (size_t)t->g);
		}
	}
out:
	sb_lp_result_release(&r);
	tmodel_release(&md);
	sb_free(x0);
	sb_free(s); sb_free(k); sb_free(bs); sb_free(bk);
	sb_free(order); sb_free(key);
	tiny_release(&ty);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Placement ILP                                                       */
/* ------------------------------------------------------------------ */

/* Argument checks shared by both models. */
static int place_check(const struct sb_jobgraph *h, const int *f, int nserver,
		       struct sb_err *err)
{
	int g = h->nv, m, e, total = 0;
	if (g > SB_CLB_PLACE_MAX)
		return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: %d workers (at most %d)",
				  g, SB_CLB_PLACE_MAX);
	if (nserver < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: %d servers", nserver);
	for (m = 0; m < nserver; m++) {
		if (f[m] < 0)
			return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: server %d: %d free "
					  "GPUs", m, f[m]);
		total += f[m] < g ? f[m] : g;
	}
	for (e = 0; e < h->ne; e++)
		if (!(h->w[e] >= 0) || !isfinite(h->w[e]) || h->eu[e] < 0 || h->eu[e] >= g ||
		    h->ev[e] < 0 || h->ev[e] >= g)
			return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: edge %d: (%d, %d) "
					  "weight %g", e, h->eu[e], h->ev[e], h->w[e]);
	if (total < g)
		return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: %d workers, %d free GPUs",
				  g, total);
	return 0;
}

/* The cases without a model: one server holds every worker (best fit),
 * or nothing is exchanged. Fills asg and returns 1, else 0. */
static int place_trivial(const struct sb_jobgraph *h, const int *f, int nserver, int *asg)
{
	int g = h->nv, m, v, one = -1, e;
	double wmax = 0;
	for (m = 0; m < nserver; m++)
		if (f[m] >= g && (one < 0 || f[m] < f[one]))
			one = m;
	for (e = 0; e < h->ne; e++)
		if (h->eu[e] != h->ev[e])
			wmax = sb_max(wmax, h->w[e]);
	if (one >= 0) {
		for (v = 0; v < g; v++)
			asg[v] = one;
		return 1;
	}
	if (!(wmax > 0)) {
		for (v = 0, m = 0; v < g; m++)
			for (e = 0; e < f[m] && v < g; e++)
				asg[v++] = m;
		return 1;
	}
	return 0;
}

/* Servers with free GPUs by free count, most first (ties to the lower
 * id), at most g of them (a placement uses at most g servers, and its
 * groups fit the g largest: match the i-th largest group with the i-th
 * largest server). Fills srv[] and returns how many. */
static int place_servers(const int *f, int nserver, int g, int *srv)
{
	int m, nu = 0;
	for (m = 0; m < nserver; m++)
		if (f[m] > 0) {
			int q = nu++;
			while (q > 0 && f[srv[q - 1]] < f[m]) {
				srv[q] = srv[q - 1];
				q--;
			}
			srv[q] = m;
		}
	return nu < g ? nu : g;
}

static double place_wmax(const struct sb_jobgraph *h)
{
	double wmax = 0;
	int e;
	for (e = 0; e < h->ne; e++)
		wmax = sb_max(wmax, h->w[e]);
	return wmax;
}

/*
 * The model of spec §7.4 as written: z_{v,i} (worker v on usable server
 * i), e_uv >= |z_ui - z_vi|, with the rank rule for servers of equal free
 * count. Its LP bound is 0 (spread every worker evenly), so the search
 * enumerates; kept for cross-checks.
 */
static int place_z(const struct sb_jobgraph *h, const int *f, int nserver, long node_limit,
		   int *asg, int *status, struct sb_err *err)
{
	struct sb_lp *lp = NULL;
	struct sb_lp_params par;
	struct sb_lp_result r;
	struct rowbuf rb;
	int g = h->nv, v, e, i, rc = 0, nu, dir;
	int *srv = SB_NEW(int, nserver), *cap = SB_NEW(int, nserver), *rank = SB_NEW(int, nserver);
	int *zc = NULL, *ec = SB_NEW(int, h->ne + 1), *used = NULL;
	double wmax = place_wmax(h), *x0 = NULL;
	char name[64];

	memset(&rb, 0, sizeof rb);
	memset(&r, 0, sizeof r);
	nu = place_servers(f, nserver, g, srv);
	for (i = 0; i < nu; i++) {
		cap[i] = f[srv[i]] < g ? f[srv[i]] : g;
		rank[i] = i > 0 && cap[i] == cap[i - 1] ? rank[i - 1] + 1 : 0;
	}
	lp = sb_lp_new("cluster-placement-z", 1);
	par = ilp_params;
	par.node_limit = node_limit > 0 ? node_limit : 0;
	sb_lp_set_params(lp, &par);
	/* z_{v,i} only if rank(i) <= v: relabel each class of equal servers
	 * by their smallest worker */
	zc = SB_NEW(int, (size_t)g * nu);
	for (v = 0; v < g; v++)
		for (i = 0; i < nu; i++) {
			zc[v * nu + i] = -1;
			if (rank[i] > v)
				continue;
			snprintf(name, sizeof name, "z_%d_%d", v, srv[i]);
			zc[v * nu + i] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	for (e = 0; e < h->ne; e++) {
		ec[e] = -1;
		if (!(h->w[e] > 0) || h->eu[e] == h->ev[e])
			continue;
		snprintf(name, sizeof name, "e_%d", e);
		ec[e] = sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, h->w[e] / wmax);
	}
	for (v = 0; v < g; v++) {
		rb.n = 0;
		for (i = 0; i < nu; i++)
			if (zc[v * nu + i] >= 0)
				rb_add(&rb, zc[v * nu + i], 1);
		snprintf(name, sizeof name, "one_%d", v);
		sb_lp_add_row(lp, name, 1, 1, rb.n, rb.col, rb.val);
	}
	for (i = 0; i < nu; i++) {
		rb.n = 0;
		for (v = 0; v < g; v++)
			if (zc[v * nu + i] >= 0)
				rb_add(&rb, zc[v * nu + i], 1);
		if (rb.n <= cap[i])
			continue;
		snprintf(name, sizeof name, "cap_%d", srv[i]);
		sb_lp_add_row(lp, name, -SB_LP_INF, cap[i], rb.n, rb.col, rb.val);
	}
	/* e_uv >= z_ui - z_vi and >= z_vi - z_ui (a missing z is 0) */
	for (e = 0; e < h->ne; e++) {
		int u = h->eu[e], w = h->ev[e];
		if (ec[e] < 0)
			continue;
		for (i = 0; i < nu; i++)
			for (dir = 0; dir < 2; dir++) {
				int a = zc[(dir ? w : u) * nu + i], b = zc[(dir ? u : w) * nu + i];
				if (a < 0)
					continue;
				rb.n = 0;
				rb_add(&rb, ec[e], 1);
				rb_add(&rb, a, -1);
				if (b >= 0)
					rb_add(&rb, b, 1);
				snprintf(name, sizeof name, "cut_%d_%d_%d", e, srv[i], dir);
				sb_lp_add_row(lp, name, 0, SB_LP_INF, rb.n, rb.col, rb.val);
			}
	}
	/* first incumbent: workers in order fill the servers in order (it
	 * meets the rank rule: server i of a class starts at worker >= i) */
	x0 = SB_NEW(double, sb_lp_ncols(lp));
	used = SB_NEW(int, nu);
	for (v = 0, i = 0; v < g; v++) {
		while (used[i] == cap[i])
			i++;
		used[i]++;
		asg[v] = srv[i];
		SB_ASSERT(zc[v * nu + i] >= 0);
		x0[zc[v * nu + i]] = 1;
	}
	for (e = 0; e < h->ne; e++)
		if (ec[e] >= 0)
			x0[ec[e]] = asg[h->eu[e]] != asg[h->ev[e]];
	sb_lp_set_incumbent(lp, x0);
	rc = sb_lp_solve(lp, 0, SB_CLB_TIME_LIMIT, 0, &r, err);
	if (rc) {
		sb_err_prefix(err, "placement ilp: ");
		goto out;
	}
	*status = r.status;
	if (r.status != SB_LP_OPTIMAL && r.status != SB_LP_FEASIBLE) {
		rc = sb_err_set(err, SB_EXIT_RUN, "placement ilp: solver status %s",
				sb_lp_status_name(r.status));
		goto out;
	}
	/* decode and check the capacities (else keep the fill) */
	{
		int *a2 = SB_NEW(int, g), ok = 1;
		memset(used, 0, sizeof(int) * (size_t)nu);
		for (v = 0; v < g && ok; v++) {
			a2[v] = -1;
			for (i = 0; i < nu; i++)
				if (zc[v * nu + i] >= 0 && r.x[zc[v * nu + i]] > 0.5) {
					ok &= a2[v] < 0;
					a2[v] = i;
				}
			ok &= a2[v] >= 0 && ++used[a2[v]] <= cap[a2[v]];
		}
		if (ok)
			for (v = 0; v < g; v++)
				asg[v] = srv[a2[v]];
		else
			*status = SB_LP_FEASIBLE;
		sb_free(a2);
	}
out:
	sb_lp_result_release(&r);
	sb_lp_free(lp);
	rb_release(&rb);
	sb_free(srv); sb_free(cap); sb_free(rank); sb_free(zc); sb_free(ec);
	sb_free(used); sb_free(x0);
	return rc;
}

/* Union-find root with path halving. */
static int uf_root(int *par, int x)
{
	while (par[x] != x) {
		par[x] = par[par[x]];
		x = par[x];
	}
	return x;
}

/* Edges e of h by weight, heaviest first (ties to the lower index). */
static const struct sb_jobgraph *sort_h;
static int cmp_edge_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (sort_h->w[x] != sort_h->w[y])
		return sort_h->w[x] > sort_h->w[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Valid rows on the cut variables alone, given that no group holds more
 * than fmax workers (the largest free count):
 *   - star: a worker shares its group with at most fmax - 1 of its k
 *     neighbours, so at least k - fmax + 1 of its edges are cut (one edge
 *     per neighbour);
 *   - a connected set U of workers with |U| > fmax spans at least
 *     q = ceil(|U| / fmax) groups: the uncut edges of a spanning tree of
 *     U leave >= q components, so >= q - 1 tree edges are cut; if U is a
 *     simple cycle, its uncut edges form paths (a forest) and >= q cycle
 *     edges are cut. U: the connected pieces of the edges of each type
 *     and of type pairs (tensor rings, pipeline chains, data rings,
 *     replica blocks, ...) and of the whole graph, with the heaviest
 *     spanning tree (the LP then has to cut heavy edges).
 * They change no integer solution, but lift the LP bound from near 0
 * where free GPUs are scattered (measured: 16 workers on 2-3 free GPUs
 * per server, from minutes to well under a second).
 */
static void place_cuts(struct sb_lp *lp, const struct sb_jobgraph *h, const int *ec,
		       const int *capd, int ncap, struct rowbuf *rb)
{
	int fmax = capd[0];
	static const int sets[] = { 1, 2, 4, 3, 5, 6, 7 };   /* bits: 1 << edge type */
	int g = h->nv, v, e, k, q, si;
	int *seen = SB_NEW(int, g), *par = SB_NEW(int, g), *par2 = SB_NEW(int, g);
	int *deg = SB_NEW(int, g), *cnt = SB_NEW(int, g), *order = SB_NEW(int, h->ne + 1);
	char name[64];

	for (v = 0; v < g; v++)
		seen[v] = -1;
	for (v = 0; v < g; v++) {
		rb->n = 0;
		for (e = 0; e < h->ne; e++) {
			int u;
			if (ec[e] < 0 || (h->eu[e] != v && h->ev[e] != v))
				continue;
			u = h->eu[e] == v ? h->ev[e] : h->eu[e];
			if (seen[u] == v)
				continue;
			seen[u] = v;
			rb_add(rb, ec[e], 1);
		}
		if (rb->n - fmax + 1 <= 0)
			continue;
		snprintf(name, sizeof name, "star_%d", v);
		sb_lp_add_row(lp, name, rb->n - fmax + 1, SB_LP_INF, rb->n, rb->col, rb->val);
	}
	for (e = 0; e < h->ne; e++)
		order[e] = e;
	sort_h = h;
	qsort(order, (size_t)h->ne, sizeof *order, cmp_edge_desc);
	for (si = 0; si < (int)(sizeof sets / sizeof sets[0]); si++) {
		for (v = 0; v < g; v++) {
			par[v] = v;
			deg[v] = cnt[v] = 0;
		}
		for (e = 0; e < h->ne; e++) {
			if (ec[e] < 0 || !(sets[si] & (1 << h->type[e])))
				continue;
			par[uf_root(par, h->eu[e])] = uf_root(par, h->ev[e]);
			deg[h->eu[e]]++;
			deg[h->ev[e]]++;
		}
		for (v = 0; v < g; v++)
			cnt[uf_root(par, v)]++;
		for (v = 0; v < g; v++) {
			int n = cnt[v], m = 0, cycle = 1, need;
			if (uf_root(par, v) != v || n <= fmax)
				continue;
			rb->n = 0;
			for (e = 0; e < h->ne; e++)
				if (ec[e] >= 0 && (sets[si] & (1 << h->type[e])) &&
				    uf_root(par, h->eu[e]) == v)
					m++;
			for (q = 0; q < g; q++)
				if (uf_root(par, q) == v && deg[q] != 2)
					cycle = 0;
			cycle &= m == n;
			/* groups needed: the fewest servers (largest first)
			 * with room for n */
			for (q = 0, need = 0; q < ncap && need < n; q++)
				need += capd[q];
			need = q - (cycle ? 0 : 1);
			if (need <= 0)
				continue;
			if (cycle) {
				for (e = 0; e < h->ne; e++)
					if (ec[e] >= 0 && (sets[si] & (1 << h->type[e])) &&
					    uf_root(par, h->eu[e]) == v)
						rb_add(rb, ec[e], 1);
			} else {
				/* heaviest spanning tree (Kruskal) */
				for (q = 0; q < g; q++)
					par2[q] = q;
				for (k = 0; k < h->ne; k++) {
					int x = order[k], a, b;
					if (ec[x] < 0 || !(sets[si] & (1 << h->type[x])) ||
					    uf_root(par, h->eu[x]) != v)
						continue;
					a = uf_root(par2, h->eu[x]);
					b = uf_root(par2, h->ev[x]);
					if (a == b)
						continue;
					par2[a] = b;
					rb_add(rb, ec[x], 1);
				}
			}
			snprintf(name, sizeof name, "split_%d_%d", sets[si], v);
			sb_lp_add_row(lp, name, need, SB_LP_INF, rb->n, rb->col, rb->val);
		}
	}
	sb_free(seen);
	sb_free(par);
	sb_free(par2);
	sb_free(deg);
	sb_free(cnt);
	sb_free(order);
}

/* Moves of a worker to a usable server with room and swaps of two
 * workers, while the cut drops (a start for the search). srv[0..nu) are
 * the usable servers, asg[] server ids. */
static void place_improve(const struct sb_jobgraph *h, const int *f, const int *srv, int nu,
			  int *asg)
{
	int g = h->nv, v, u, i, pass, better = 1, *load = SB_NEW(int, nu), *idx;
	double cur = sb_jobgraph_cut(h, asg), tol = 0;
	int e;

	for (e = 0; e < h->ne; e++)
		tol += h->w[e];
	tol *= 1e-12;
	idx = SB_NEW(int, g);
	for (v = 0; v < g; v++) {
		for (i = 0; i < nu && srv[i] != asg[v]; i++)
			;
		SB_ASSERT(i < nu);
		idx[v] = i;
		load[i]++;
	}
	for (pass = 0; pass < 50 && better; pass++) {
		better = 0;
		for (v = 0; v < g; v++) {
			for (i = 0; i < nu; i++) {
				int from = idx[v];
				double c;
				if (i == from || load[i] >= f[srv[i]])
					continue;
				asg[v] = srv[i];
				c = sb_jobgraph_cut(h, asg);
				if (c < cur - tol) {
					cur = c;
					idx[v] = i;
					load[from]--;
					load[i]++;
					better = 1;
				} else {
					asg[v] = srv[from];
				}
			}
			for (u = v + 1; u < g; u++) {
				double c;
				int t;
				if (idx[u] == idx[v])
					continue;
				t = asg[u];
				asg[u] = asg[v];
				asg[v] = t;
				c = sb_jobgraph_cut(h, asg);
				if (c < cur - tol) {
					cur = c;
					t = idx[u];
					idx[u] = idx[v];
					idx[v] = t;
					better = 1;
				} else {
					asg[v] = asg[u];
					asg[u] = t;
				}
			}
		}
	}
	sb_free(load);
	sb_free(idx);
}

/*
 * The same problem without server labels (what we solve by default). A
 * placement is a partition of the workers into groups, each on its own
 * server with enough free GPUs. Binaries x_{u,v}, u <= v: worker v is in
 * the group whose smallest worker is u (x_{u,u}: u leads a group);
 * y_{u,c}: group u goes to a server of class c (the servers with free
 * count f_c, n_c of them):
 *   sum_{u <= v} x_{u,v} = 1            every worker in one group
 *   x_{u,v} <= x_{u,u}                  only leaders have groups
 *   sum_c y_{u,c} = x_{u,u}             a group gets a class
 *   sum_{v >= u} x_{u,v} <= sum_c f_c y_{u,c}   and fits it
 *   sum_u y_{u,c} <= n_c                servers of the class
 *   e_ab >= x_{u,a} - x_{u,b}, e_ab >= x_{u,b} - x_{u,a}  (a missing x is 0)
 * Every placement maps to one solution (and back, by giving the groups of
 * a class distinct servers of it), with the same cut. Unlike the spec's
 * model there is no symmetry between servers, and its LP bound is not 0:
 * worker 0 leads its group, so splitting its neighbours off costs. On 16
 * workers and 16 servers of mixed free counts it solves in a fraction of
 * a second where the spec's model needs minutes.
 */
static int place_rep(const struct sb_jobgraph *h, const int *f, int nserver, long node_limit,
		     int *asg, int *status, struct sb_err *err)
{
	struct sb_lp *lp = NULL;
	struct sb_lp_params par;
	struct sb_lp_result r;
	struct rowbuf rb;
	int g = h->nv, u, v, e, i, c, rc = 0, nu, ncls = 0;
	int *srv = SB_NEW(int, nserver), *cf = SB_NEW(int, nserver), *cn = SB_NEW(int, nserver);
	int *cls = SB_NEW(int, nserver), *xc = SB_NEW(int, (size_t)g * g), *yc, *ec;
	int *grp = SB_NEW(int, g), *gcls = SB_NEW(int, g), *next = SB_NEW(int, nserver);
	double wmax = place_wmax(h), *x0 = NULL;
	char name[64];

	memset(&rb, 0, sizeof rb);
	memset(&r, 0, sizeof r);
	nu = place_servers(f, nserver, g, srv);
	for (i = 0; i < nu; i++) {
		int cap = f[srv[i]] < g ? f[srv[i]] : g;
		if (ncls == 0 || cf[ncls - 1] != cap) {
			cf[ncls] = cap;
			cn[ncls++] = 0;
		}
		cls[i] = ncls - 1;
		cn[ncls - 1]++;
	}
	yc = SB_NEW(int, (size_t)g * ncls);
	ec = SB_NEW(int, h->ne + 1);
	lp = sb_lp_new("cluster-placement", 1);
	par = ilp_params;
	par.node_limit = node_limit > 0 ? node_limit : 0;
	if (getenv("CLB_PC")) par.pseudocost = atoi(getenv("CLB_PC"));
	if (getenv("CLB_CUTS")) par.cuts = atoi(getenv("CLB_CUTS"));
	sb_lp_set_params(lp, &par);
	for (u = 0; u < g; u++)
		for (v = 0; v < g; v++) {
			xc[u * g + v] = -1;
			if (u > v)
				continue;
			snprintf(name, sizeof name, "x_%d_%d", u, v);
			xc[u * g + v] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	for (u = 0; u < g; u++)
		for (c = 0; c < ncls; c++) {
			snprintf(name, sizeof name, "y_%d_%d", u, cf[c]);
			yc[u * ncls + c] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	for (e = 0; e < h->ne; e++) {
		ec[e] = -1;
		if (!(h->w[e] > 0) || h->eu[e] == h->ev[e])
			continue;
		snprintf(name, sizeof name, "e_%d", e);
		ec[e] = sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, h->w[e] / wmax);
	}
	for (v = 0; v < g; v++) {
		rb.n = 0;
		for (u = 0; u <= v; u++)
			rb_add(&rb, xc[u * g + v], 1);
		snprintf(name, sizeof name, "one_%d", v);
		sb_lp_add_row(lp, name, 1, 1, rb.n, rb.col, rb.val);
	}
	for (u = 0; u < g; u++) {
		for (v = u + 1; v < g; v++) {
			int cc[2] = { xc[u * g + v], xc[u * g + u] };
			double vv[2] = { 1, -1 };
			snprintf(name, sizeof name, "lead_%d_%d", u, v);
			sb_lp_add_row(lp, name, -SB_LP_INF, 0, 2, cc, vv);
		}
		rb.n = 0;
		rb_add(&rb, xc[u * g + u], -1);
		for (c = 0; c < ncls; c++)
			rb_add(&rb, yc[u * ncls + c], 1);
		snprintf(name, sizeof name, "class_%d", u);
		sb_lp_add_row(lp, name, 0, 0, rb.n, rb.col, rb.val);
		rb.n = 0;
		for (v = u; v < g; v++)
			rb_add(&rb, xc[u * g + v], 1);
		for (c = 0; c < ncls; c++)
			rb_add(&rb, yc[u * ncls + c], -cf[c]);
		snprintf(name, sizeof name, "fit_%d", u);
		sb_lp_add_row(lp, name, -SB_LP_INF, 0, rb.n, rb.col, rb.val);
	}
	for (c = 0; c < ncls; c++) {
		rb.n = 0;
		for (u = 0; u < g; u++)
			rb_add(&rb, yc[u * ncls + c], 1);
		if (rb.n <= cn[c])
			continue;
		snprintf(name, sizeof name, "servers_%d", cf[c]);
		sb_lp_add_row(lp, name, -SB_LP_INF, cn[c], rb.n, rb.col, rb.val);
	}
	for (e = 0; e < h->ne; e++) {
		int a = h->eu[e] < h->ev[e] ? h->eu[e] : h->ev[e];
		int b = h->eu[e] < h->ev[e] ? h->ev[e] : h->eu[e], dir;
		if (ec[e] < 0)
			continue;
		for (u = 0; u <= b; u++)
			for (dir = 0; dir < 2; dir++) {
				/* e >= x_{u,p} - x_{u,q} with (p, q) = (a, b), (b, a) */
				int p = dir ? b : a, q = dir ? a : b;
				if (u > p)
					continue;
				rb.n = 0;
				rb_add(&rb, ec[e], 1);
				rb_add(&rb, xc[u * g + p], -1);
				if (u <= q)
					rb_add(&rb, xc[u * g + q], 1);
				snprintf(name, sizeof name, "cut_%d_%d_%d", e, u, dir);
				sb_lp_add_row(lp, name, 0, SB_LP_INF, rb.n, rb.col, rb.val);
			}
	}
	{
		int *capd = SB_NEW(int, nu);
		for (i = 0; i < nu; i++)
			capd[i] = f[srv[i]] < g ? f[srv[i]] : g;
		place_cuts(lp, h, ec, capd, nu, &rb);
		sb_free(capd);
	}
	/* first incumbent: workers in order fill the servers in order, then
	 * improving moves and swaps; groups are the servers' workers, led by
	 * their smallest */
	x0 = SB_NEW(double, sb_lp_ncols(lp));
	{
		int *used = SB_NEW(int, nu), *lead = SB_NEW(int, nu);
		for (v = 0, i = 0; v < g; v++) {
			while (used[i] == (f[srv[i]] < g ? f[srv[i]] : g))
				i++;
			used[i]++;
			asg[v] = srv[i];
		}
		place_improve(h, f, srv, nu, asg);
		for (i = 0; i < nu; i++)
			lead[i] = -1;
		for (v = 0; v < g; v++) {
			for (i = 0; srv[i] != asg[v]; i++)
				;
			if (lead[i] < 0) {
				lead[i] = v;
				x0[yc[v * ncls + cls[i]]] = 1;
			}
			x0[xc[lead[i] * g + v]] = 1;
		}
		sb_free(used);
		sb_free(lead);
	}
	for (e = 0; e < h->ne; e++)
		if (ec[e] >= 0)
			x0[ec[e]] = asg[h->eu[e]] != asg[h->ev[e]];
	sb_lp_set_incumbent(lp, x0);
	rc = sb_lp_solve(lp, 0, SB_CLB_TIME_LIMIT, 0, &r, err);
	if (rc) {
		sb_err_prefix(err, "placement ilp: ");
		goto out;
	}
	*status = r.status;
	if (getenv("CLB_DEBUG")) fprintf(stderr, "place: cols %d rows %d nodes %ld t %.2f obj %g bound %g\n", sb_lp_ncols(lp), sb_lp_nrows(lp), r.nodes, r.seconds, r.obj, r.bound);
	if (r.status != SB_LP_OPTIMAL && r.status != SB_LP_FEASIBLE) {
		rc = sb_err_set(err, SB_EXIT_RUN, "placement ilp: solver status %s",
				sb_lp_status_name(r.status));
		goto out;
	}
	/* decode: groups, their classes, then servers of each class in order;
	 * any inconsistency keeps the fill (and says so) */
	{
		int ok = 1, *size = SB_NEW(int, g);
		for (v = 0; v < g && ok; v++) {
			grp[v] = -1;
			for (u = 0; u <= v; u++)
				if (r.x[xc[u * g + v]] > 0.5) {
					ok &= grp[v] < 0;
					grp[v] = u;
				}
			ok &= grp[v] >= 0 && r.x[xc[grp[v] * g + grp[v]]] > 0.5;
			if (ok)
				size[grp[v]]++;
		}
		for (u = 0; u < g && ok; u++) {
			gcls[u] = -1;
			if (!size[u])
				continue;
			for (c = 0; c < ncls; c++)
				if (r.x[yc[u * ncls + c]] > 0.5)
					gcls[u] = c;
			ok &= gcls[u] >= 0 && size[u] <= cf[gcls[u]];
		}
		/* next[c]: next unused server of class c (usable servers are
		 * sorted, so a class is a run) */
		for (c = 0; c < ncls; c++)
			next[c] = -1;
		for (i = nu - 1; i >= 0; i--)
			next[cls[i]] = i;
		for (u = 0; u < g && ok; u++) {
			if (!size[u])
				continue;
			c = gcls[u];
			ok &= next[c] >= 0 && next[c] < nu && cls[next[c]] == c;
			if (ok)
				gcls[u] = srv[next[c]++];
		}
		if (ok)
			for (v = 0; v < g; v++)
				asg[v] = gcls[grp[v]];
		else
			*status = SB_LP_FEASIBLE;
		sb_free(size);
	}
out:
	sb_lp_result_release(&r);
	sb_lp_free(lp);
	rb_release(&rb);
	sb_free(srv); sb_free(cf); sb_free(cn); sb_free(cls); sb_free(xc); sb_free(yc);
	sb_free(ec); sb_free(grp); sb_free(gcls); sb_free(next); sb_free(x0);
	return rc;
}

static int place_ilp(const struct sb_jobgraph *h, const int *free_per_server, int nserver,
		     long node_limit, int spec_model, double *cut, int *server_of_vertex,
		     int *status, struct sb_err *err)
{
	int *asg, rc;

	*cut = NAN;
	*status = SB_LP_ERROR;
	if ((rc = place_check(h, free_per_server, nserver, err)) != 0)
		return rc;
	asg = SB_NEW(int, h->nv + 1);
	if (place_trivial(h, free_per_server, nserver, asg))
		*status = SB_LP_OPTIMAL;
	else if (spec_model)
		rc = place_z(h, free_per_server, nserver, node_limit, asg, status, err);
	else
		rc = place_rep(h, free_per_server, nserver, node_limit, asg, status, err);
	if (!rc) {
		*cut = sb_jobgraph_cut(h, asg);
		if (server_of_vertex)
			memcpy(server_of_vertex, asg, sizeof(int) * (size_t)h->nv);
	}
	sb_free(asg);
	return rc;
}

int sb_cluster_place_ilp(const struct sb_jobgraph *h, const int *free_per_server,
			 int nserver, long node_limit, double *cut, int *server_of_vertex,
			 int *status, struct sb_err *err)
{
	return place_ilp(h, free_per_server, nserver, node_limit, 0, cut, server_of_vertex,
			 status, err);
}

int sb_cluster_place_ilp_spec(const struct sb_jobgraph *h, const int *free_per_server,
			      int nserver, long node_limit, double *cut, int *server_of_vertex,
			      int *status, struct sb_err *err)
{
	return place_ilp(h, free_per_server, nserver, node_limit, 1, cut, server_of_vertex,
			 status, err);
}
