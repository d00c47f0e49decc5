/*
 * opt_tiny.c - the OPT bracket L <= OPT_np <= U of the cluster family on
 * tiny instances (two time-indexed ILPs, solved with GLPK), and the exact
 * iteration time of a placement pattern it is built on
 * (sb_cluster_pattern_tau; its only user outside the tests). Spec
 * asrpt.md §7; all of it is our benchmark design [O], not the paper's
 * (see cluster/bound.h).
 *
 * OPT bracket on tiny instances - see sb_cluster_opt_tiny in
 * cluster/bound.h for what L and U bound. Patterns k in {0..G}^S with
 * sum k = g_j; P_jk = n_j tau_j(k), tau_j(k) the exact minimum over worker
 * assignments with those per-server counts (sb_cluster_pattern_tau).
 * Binary y_{j,s,k}: j starts in slot s with pattern k; capacity rows per
 * (server, slot).
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
 * Exact OPT_np on tiny instances (sb_cluster_opt_exact): no ILP, an
 * enumeration of active schedules with branch and bound over the same
 * patterns; see its section below.
 *
 * GLPK only through lp.h, with deterministic limits (subproblems) and a
 * wall-time limit of SB_CLB_TIME_LIMIT as a safety net only; statuses are
 * reported as GLPK gave them. ILP settings and the row buffer come from
 * boundutil.h.
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* The instance and its patterns into ty (tiny_release frees them). */
static void tiny_open(struct tiny *ty, const struct sb_cluster *c, const struct sb_jobset *js)
{
	ty->c = c;
	ty->js = js;
	ty->n = js->n;
	ty->S = c->nserver;
	ty->G = c->gpus;
	tiny_patterns(ty);
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

/* The schedule of starts st[] (seconds) and patterns k[] into sched. */
static void sched_fill(const struct tiny *ty, const double *st, const int *k,
		       struct sb_cluster_tiny_sched *sched)
{
	int j, off = 0, n = ty->n;

	sched->n = n;
	sched->start = SB_NEW(double, n);
	sched->finish = SB_NEW(double, n);
	sched->voff = SB_NEW(int, n + 1);
	for (j = 0; j < n; j++) {
		sched->voff[j] = off;
		off += ty->tj[j].g;
	}
	sched->voff[n] = off;
	sched->server = SB_NEW(int, off > 0 ? off : 1);
	for (j = 0; j < n; j++) {
		const struct tjob *t = &ty->tj[j];
		sched->start[j] = st[j];
		sched->finish[j] = st[j] + t->P[k[j]];
		memcpy(sched->server + sched->voff[j], t->asg + (size_t)k[j] * t->g,
		       sizeof(int) * (size_t)t->g);
	}
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
	tiny_open(&ty, c, js);
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
		double *st = SB_NEW(double, n);
		for (j = 0; j < n; j++)
			st[j] = bs[j] * ty.delta;
		sched_fill(&ty, st, bk, sched);
		sb_free(st);
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
/* Exact OPT_np by enumeration of active schedules                     */
/* ------------------------------------------------------------------ */

/*
 * Serial schedule generation with branch and bound: the jobs are taken
 * one at a time in every order, each with every pattern, and each starts
 * at the earliest moment >= a_j at which its pattern fits on every server
 * for its whole duration beside the jobs already placed (possibly before
 * some of them). For a fixed choice of patterns this is a resource-
 * constrained scheduling problem with release dates (one renewable
 * resource of G units per server), and some order generates an optimal
 * schedule for any regular objective such as sum C_j (the serial scheme
 * generates active schedules, among which an optimal one exists: Kolisch,
 * EJOR 90, 1996; Sprecher, Kolisch & Drexl, EJOR 80, 1995); so the
 * minimum over orders and patterns is OPT_np. The earliest fit is at a_j
 * or at some placed job's end (usage only falls there), and a pattern
 * fits on [t, t + P) when it fits at t and at every placed start inside.
 * Pruning: the jobs not yet placed finish no earlier than a_j + pmin_j.
 * Symmetry: tiny_patterns gives job 0 only non-increasing patterns (its
 * servers can be relabelled in any schedule).
 */
struct exact {
	const struct tiny *ty;
	int *placed, *order, *k, *bk;
	double *st, *en, *bst, best, rest;
	long nodes, limit;
	int stopped;
};

/* Does j with pattern kk fit on [t, t + P) beside the first `depth` jobs
 * of the order? */
static int exact_fits(const struct exact *e, int depth, int j, int kk, double t, double P)
{
	const struct tiny *ty = e->ty;
	const int *pat = ty->tj[j].pat + (size_t)kk * ty->S;
	int q, i, m;

	for (q = -1; q < depth; q++) {
		double x = q < 0 ? t : e->st[e->order[q]];
		int use[SB_CLB_TINY_SERVERS] = { 0 };
		if (q >= 0 && !(x > t && x < t + P))
			continue;
		for (i = 0; i < depth; i++) {
			int o = e->order[i];
			const int *po = ty->tj[o].pat + (size_t)e->k[o] * ty->S;
			if (e->st[o] <= x && x < e->en[o])
				for (m = 0; m < ty->S; m++)
					use[m] += po[m];
		}
		for (m = 0; m < ty->S; m++)
			if (pat[m] && use[m] + pat[m] > ty->G)
				return 0;
	}
	return 1;
}

static void exact_rec(struct exact *e, int depth, double sum)
{
	const struct tiny *ty = e->ty;
	int j, kk, i;

	if (depth == ty->n) {
		if (sum < e->best) {
			e->best = sum;
			memcpy(e->bst, e->st, sizeof(double) * (size_t)ty->n);
			memcpy(e->bk, e->k, sizeof(int) * (size_t)ty->n);
		}
		return;
	}
	if (sum + e->rest >= e->best)
		return;
	for (j = 0; j < ty->n; j++) {
		const struct tjob *t = &ty->tj[j];
		double a = ty->js->job[j].arrival;
		if (e->placed[j])
			continue;
		for (kk = 0; kk < t->np; kk++) {
			double start = INFINITY;
			if (e->limit > 0 && e->nodes >= e->limit) {
				e->stopped = 1;
				return;
			}
			e->nodes++;
			e->k[j] = kk;
			for (i = -1; i < depth; i++) {
				double x = i < 0 ? a : e->en[e->order[i]];
				if (x >= a && x < start && exact_fits(e, depth, j, kk, x, t->P[kk]))
					start = x;
			}
			/* after every placed job the cluster is empty */
			SB_ASSERT(isfinite(start));
			e->placed[j] = 1;
			e->order[depth] = j;
			e->st[j] = start;
			e->en[j] = start + t->P[kk];
			e->rest -= a + t->pmin;
			exact_rec(e, depth + 1, sum + e->en[j]);
			e->rest += a + t->pmin;
			e->placed[j] = 0;
		}
	}
}

int sb_cluster_opt_exact(const struct sb_cluster *c, const struct sb_jobset *js, long node_limit,
			 double *opt, int *status, long *nodes,
			 struct sb_cluster_tiny_sched *sched, struct sb_err *err)
{
	struct tiny ty;
	struct exact e;
	int n = js->n, rc, j;

	memset(&ty, 0, sizeof ty);
	memset(&e, 0, sizeof e);
	*opt = NAN;
	*status = SB_LP_ERROR;
	if (nodes)
		*nodes = 0;
	if (sched)
		memset(sched, 0, sizeof *sched);
	if ((rc = tiny_check_input(c, js, 1, err)) != 0)
		return rc;
	if (n > SB_CLB_EXACT_JOBS)
		return sb_err_set(err, SB_EXIT_INPUT, "opt-exact: %d jobs (at most %d)", n,
				  SB_CLB_EXACT_JOBS);
	tiny_open(&ty, c, js);
	e.ty = &ty;
	e.placed = SB_NEW(int, n + 1);
	e.order = SB_NEW(int, n + 1);
	e.k = SB_NEW(int, n + 1);
	e.bk = SB_NEW(int, n + 1);
	e.st = SB_NEW(double, n + 1);
	e.en = SB_NEW(double, n + 1);
	e.bst = SB_NEW(double, n + 1);
	e.best = INFINITY;
	e.limit = node_limit;
	for (j = 0; j < n; j++)
		e.rest += js->job[j].arrival + ty.tj[j].pmin;
	exact_rec(&e, 0, 0);
	if (nodes)
		*nodes = e.nodes;
	*status = e.stopped ? (isfinite(e.best) ? SB_LP_FEASIBLE : SB_LP_NOSOLUTION) :
		SB_LP_OPTIMAL;
	if (isfinite(e.best) || n == 0) {
		*opt = n ? e.best : 0;
		if (sched)
			sched_fill(&ty, e.bst, e.bk, sched);
	}
	sb_free(e.placed); sb_free(e.order); sb_free(e.k); sb_free(e.bk);
	sb_free(e.st); sb_free(e.en); sb_free(e.bst);
	tiny_release(&ty);
	return 0;
}
