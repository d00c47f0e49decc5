/*
 * price.c - GADGET's configuration ILP (gadget.md §8) solved by our own
 * branch-and-price over the slot patterns of pattern.c (ours [O]; the
 * model is the reconstruction [R] of gadget.md §2 and §8).
 *
 * Why: the pattern form's LP bound does not move under GLPK's branching
 * once capacity binds (pattern.c's header): the LP finishes jobs exactly
 * at their targets with fractions of interchangeable slots, and every
 * integer schedule must overshoot some target. The gap is in each job's
 * own integrality, which no per-slot variable sees.
 *
 * Model (a Dantzig-Wolfe form of the pattern model). Epoch x has n_x
 * interchangeable slots; lambda_{x,p} >= 0 counts the slots run with
 * kept pattern p (sum_p lambda_{x,p} <= n_x), as in pattern.c. Beside them
 * each job j chooses one *schedule* c: integer counts cnt_c(x, o) of the
 * slots of epoch x in which it runs option o (at most n_x in all), with
 * its exact progress P_c = sum cnt rate and utility theta_j(P_c) (z_{j,c}
 * >= 0, sum_c z_{j,c} = 1). Linking rows y_{j,x,o}: the slots the patterns
 * give j with option o equal those its schedule uses. Every integer
 * solution of the pattern model is one of this model (its per-job counts
 * are a schedule), with the same value, so its LP is an upper bound; it is
 * the pattern LP intersected with the convex hull of each job's integer
 * schedules, which is where the overshoot shows (a job's schedule cannot
 * stop at its target with fractions of slots).
 *
 * Column generation. Patterns are priced by walking the enumerated kept
 * patterns; a job's schedule by an exact dynamic programme over its
 * options (per epoch, option by option, how many slots; states (slots
 * used, progress capped at the target, dual gain), dropping a state when
 * another with no more slots used has no less progress and gain: theta is
 * non-decreasing in progress and flat beyond the target). The restricted
 * master has a penalised slack pair per linking row, so it is always
 * feasible.
 *
 * The bound of a node is Lagrangian: for any multipliers pi of the linking
 * rows, L(pi) = sum_j max_c (theta_c + pi . cnt_c) + sum_x n_x max(0,
 * max_p (obj_p - pi . a_p)) bounds the node's optimum, and both maxima are
 * computed exactly by the pricing. So a node's bound is valid at every
 * column-generation round, whatever the LP solver's accuracy, and equals
 * the master LP's at convergence.
 *
 * Branching on y_{j,x,o} (the most fractional; y <= floor | y >= ceil,
 * imposed in the pricing and on the schedules kept in the master), best
 * bound first, ties to the older node. A node whose y are all integer has
 * its value fixed by y; whether the patterns can realise those counts is
 * a small feasibility ILP over the kept patterns that agree with y (GLPK,
 * node limit). Realised: a new incumbent, node closed. Not realised:
 * branch three ways (y < v, y = v, y > v) on the first unfixed y; a node
 * with every y fixed and not realised is infeasible. The first incumbent
 * is the start (a checked policy run) mapped onto dominating patterns.
 *
 * Every limit is a count (nodes, pricing rounds, GLPK's node and iteration
 * limits): the same instance gives the same answer on any machine.
 * "optimal" means the best open node's bound is within PRICE_TOL of the
 * incumbent, relative to 1 + |incumbent| (the reported bound is the
 * largest bound left, so it may exceed the incumbent by that much).
 *
 * Measured (2026-11-27, loaded 2-core VM): the bench's capacity-bound
 * J = 6, S = 4 x 4 GPUs, T = 10 instance, which GLPK on the pattern form
 * leaves at its LP bound 5.4056 (pattern.c's header): root bound 5.384472,
 * dive 5.3844708, optimal at the root node, 1.75 CPU s with the policy
 * runs of its start. Other seeded instances of that size take from one
 * node to past 300 nodes, with relative gaps of 6e-6 to 1.2e-4 left there
 * (README, "GADGET's configuration ILP"). Tests: tests/alloc/test_price.c.
 */
#include "bound.h"
#include "heap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PRICE_TOL 1e-6        /* relative: a node within it of the incumbent is closed */
#define RC_TOL 1e-9           /* a column enters with reduced cost above this */
#define MAX_ROUNDS 400        /* pricing rounds per node */
#define PAT_PER_ROUND 40      /* patterns added per epoch and round, best first */
#define DECOMP_NODES 2000L    /* node limit of a realisation ILP */
#define TIME_SAFETY_S 600.0   /* a safety net only: every stored result ends on counts */

/* ------------------------------------------------------------------ */
/* The problem                                                         */
/* ------------------------------------------------------------------ */

struct sched {            /* one schedule of one job */
	int j;
	double P, theta;
	int *cnt;         /* per linking row (all jobs' rows; 0 outside j's) */
};

struct node {
	double bound;
	long id;
	int *lo, *hi;     /* per linking row */
};

struct bp {
	const struct sb_alloc_inst *in;
	struct sb_alloc_epochs ep;
	int J, nl;
	int **lk;         /* lk[j][x * maxno + o]: linking row, -1 if none */
	int maxno;
	int *lj, *lx, *lo_opt;   /* per linking row: job, epoch, option */
	double M;         /* penalty of a linking slack */
	char *allfix;     /* J ones */
	/* column pools */
	long npool, pcap;
	int *px;          /* pattern pool: epoch */
	long *pp;         /*               index in ep.pat[x] */
	char **inpool;    /* per epoch, per pattern */
	struct sched *sc;
	long nsc, sccap;
	/* search */
	struct node *nd;  /* every node made, by id; lo == NULL once processed */
	long nnd, ndcap;
	struct sb_heap open;   /* open nodes: key -bound, ties to the older */
	double inc;       /* incumbent value */
	int has_inc;
	long nodes;
	int unresolved;   /* a node closed without proof (realisation ILP undecided) */
	double unresolved_bound;
	double root_bound;   /* the root's Lagrangian bound (INFINITY: not yet) */
	double pruned_max;   /* the largest bound of a node closed by PRICE_TOL */
	struct sb_err *err;
};

static int pat_gpus(const struct bp *b, int x, long p)
{
	const int *pk = b->ep.pat[x] + p * b->ep.na[x];
	int i, g = 0;
	for (i = 0; i < b->ep.na[x]; i++)
		g += b->ep.o[b->ep.act[x][i]][pk[i]].k;
	return g;
}

static double pat_obj(const struct bp *b, int x, long p)
{
	return b->in->util == SB_ALLOC_ENE ? -b->in->eta * pat_gpus(b, x, p) : 0;
}

static void pool_pattern(struct bp *b, int x, long p)
{
	if (b->inpool[x][p])
		return;
	b->inpool[x][p] = 1;
	if (b->npool == b->pcap) {
		b->pcap = b->pcap ? 2 * b->pcap : 256;
		b->px = sb_xrealloc(b->px, (size_t)b->pcap * sizeof *b->px);
		b->pp = sb_xrealloc(b->pp, (size_t)b->pcap * sizeof *b->pp);
	}
	b->px[b->npool] = x;
	b->pp[b->npool++] = p;
}

/* Add a schedule of job j with counts cnt (copied) unless it is pooled. */
static void pool_sched(struct bp *b, int j, const int *cnt)
{
	const struct sb_alloc_inst *in = b->in;
	struct sched *s;
	long c;
	int l;
	double P = 0;

	for (c = 0; c < b->nsc; c++)
		if (b->sc[c].j == j && !memcmp(b->sc[c].cnt, cnt, (size_t)b->nl * sizeof *cnt))
			return;
	if (b->nsc == b->sccap) {
		b->sccap = b->sccap ? 2 * b->sccap : 64;
		b->sc = sb_xrealloc(b->sc, (size_t)b->sccap * sizeof *b->sc);
	}
	s = &b->sc[b->nsc++];
	s->j = j;
	s->cnt = SB_NEW(int, b->nl + 1);
	memcpy(s->cnt, cnt, (size_t)b->nl * sizeof *cnt);
	for (l = 0; l < b->nl; l++)
		if (cnt[l])
			P += cnt[l] * b->ep.o[j][b->lo_opt[l]].rate;
	s->P = P;
	s->theta = sb_alloc_bound_theta(in, j, P);
}

static int sched_fits(const struct bp *b, const struct sched *s, const int *lo, const int *hi)
{
	int l;
	for (l = 0; l < b->nl; l++)
		if (b->lj[l] == s->j && (s->cnt[l] < lo[l] || s->cnt[l] > hi[l]))
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Pricing a job's schedule: exact DP                                  */
/* ------------------------------------------------------------------ */

struct st {
	double P, G;      /* progress (capped at the target), dual gain */
	int used;         /* slots of the current epoch */
	long parent;      /* arena index, -1: none */
	int l, c;         /* this step: c slots on linking row l (l = -1: none) */
};

struct arena {
	struct st *s;
	long n, cap;
};

static long arena_push(struct arena *a, struct st v)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 1024;
		a->s = sb_xrealloc(a->s, (size_t)a->cap * sizeof *a->s);
	}
	a->s[a->n] = v;
	return a->n++;
}

struct key {
	double P, G;
	int used;
	long idx;
};

/* progress descending, then slots used ascending, then gain descending,
 * then age: every state that dominates another comes before it */
static int by_P_used_G(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	if (a->P != b->P)
		return a->P > b->P ? -1 : 1;
	if (a->used != b->used)
		return a->used - b->used;
	if (a->G != b->G)
		return a->G > b->G ? -1 : 1;
	return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Drop the states idx[0..n) that another beats. State t beats s when it
 * has used no more of the epoch's nslot slots (so it can finish as s
 * does), at least its progress, and no less value after the most progress
 * s can still make, rest(used) = rmax x (slots left to s): for concave
 * non-decreasing theta, theta(P_t + d) - theta(P_s + d) only falls as d
 * grows, so the check at the largest d covers every completion. Returns
 * the new n, in the sorted order. */
static long prune(const struct bp *b, int j, struct arena *a, long *idx, long n, int nslot,
		  double rmax, int later)
{
	double *best = SB_NEW(double, nslot + 2);   /* per used u: max over kept t of
	                                               theta(P_t + rest(u)) + G_t */
	struct key *k = SB_NEW(struct key, n + 1);
	long i, m = 0;
	int u;

	for (u = 0; u <= nslot; u++)
		best[u] = -INFINITY;
	for (i = 0; i < n; i++) {
		const struct st *s = &a->s[idx[i]];
		k[i] = (struct key){ s->P, s->G, s->used, idx[i] };
	}
	qsort(k, (size_t)n, sizeof *k, by_P_used_G);
	for (i = 0; i < n; i++) {
		double rest = rmax * (nslot - k[i].used + later);
		if (best[k[i].used] >= sb_alloc_bound_theta(b->in, j, k[i].P + rest) + k[i].G)
			continue;
		for (u = k[i].used; u <= nslot; u++) {
			double v = sb_alloc_bound_theta(b->in, j, k[i].P + rmax * (nslot - u + later)) +
				   k[i].G;
			if (v > best[u])
				best[u] = v;
		}
		idx[m++] = k[i].idx;
	}
	sb_free(best);
	sb_free(k);
	return m;
}

/* The best schedule of job j under duals pi of the linking rows and the
 * node's count bounds: its value max (theta + pi . cnt) in *val and its
 * counts in cnt (nl). Returns 0, or 1 when the bounds admit no schedule. */
static int price_job(struct bp *b, int j, const double *pi, const int *lo, const int *hi,
		     double *val, int *cnt)
{
	const struct sb_alloc_inst *in = b->in;
	double D = in->job[j].target;
	struct arena a = { 0 };
	long *cur = SB_NEW(long, 1), ncur = 1, i, best = -1;
	int x, o, c, rc = 0;
	double bv = -INFINITY, rmax = 0;

	cur[0] = arena_push(&a, (struct st){ 0, 0, 0, -1, -1, 0 });
	for (o = 1; o < b->ep.no[j]; o++)
		rmax = sb_max(rmax, b->ep.o[j][o].rate);
	for (x = 0; x < b->ep.ne; x++) {
		int n = b->ep.n[x], later = 0, x2;
		if (in->job[j].arrival > b->ep.t0[x])
			continue;
		for (x2 = x + 1; x2 < b->ep.ne; x2++)
			later += b->ep.n[x2];
		/* a new epoch: its slots are all free */
		for (i = 0; i < ncur; i++)
			a.s[cur[i]].used = 0;
		ncur = prune(b, j, &a, cur, ncur, n, rmax, later);
		for (o = 1; o < b->ep.no[j]; o++) {
			int l = b->lk[j][x * b->maxno + o];
			long nn = 0, ncap = ncur * (n + 1) + 1, *nx = SB_NEW(long, ncap);
			double r = b->ep.o[j][o].rate;
			for (i = 0; i < ncur; i++) {
				struct st s = a.s[cur[i]];
				for (c = lo[l]; c <= hi[l] && s.used + c <= n; c++) {
					struct st t = { s.P + c * r, s.G + c * pi[l], s.used + c, cur[i], l, c };
					if (t.P > D)
						t.P = D;
					nx[nn++] = arena_push(&a, t);
				}
			}
			sb_free(cur);
			cur = nx;
			ncur = prune(b, j, &a, cur, nn, n, rmax, later);
		}
		if (!ncur)
			break;
	}
	if (!ncur) {
		rc = 1;
		goto out;
	}
	for (i = 0; i < ncur; i++) {
		const struct st *s = &a.s[cur[i]];
		double v = sb_alloc_bound_theta(in, j, s->P) + s->G;
		if (v > bv) {
			bv = v;
			best = cur[i];
		}
	}
	memset(cnt, 0, (size_t)b->nl * sizeof *cnt);
	for (i = best; i >= 0; i = a.s[i].parent)
		if (a.s[i].l >= 0)
			cnt[a.s[i].l] = a.s[i].c;
	/* the exact value of the counts (theta of the uncapped progress is
	 * that of the capped one) */
	{
		double P = 0, G = 0;
		int l;
		for (l = 0; l < b->nl; l++)
			if (cnt[l]) {
				P += cnt[l] * b->ep.o[j][b->lo_opt[l]].rate;
				G += cnt[l] * pi[l];
			}
		*val = sb_alloc_bound_theta(in, j, P) + G;
	}
out:
	sb_free(cur);
	sb_free(a.s);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The restricted master                                               */
/* ------------------------------------------------------------------ */

struct rows {             /* row-wise entries gathered column by column */
	int n;
	int **col, *len, *cap;
	double **val;
};

static void rows_init(struct rows *r, int n)
{
	r->n = n;
	r->col = SB_NEW(int *, n + 1);
	r->val = SB_NEW(double *, n + 1);
	r->len = SB_NEW(int, n + 1);
	r->cap = SB_NEW(int, n + 1);
}

static void rows_put(struct rows *r, int row, int col, double v)
{
	if (r->len[row] == r->cap[row]) {
		r->cap[row] = r->cap[row] ? 2 * r->cap[row] : 16;
		r->col[row] = sb_xrealloc(r->col[row], (size_t)r->cap[row] * sizeof(int));
		r->val[row] = sb_xrealloc(r->val[row], (size_t)r->cap[row] * sizeof(double));
	}
	r->col[row][r->len[row]] = col;
	r->val[row][r->len[row]++] = v;
}

static void rows_release(struct rows *r)
{
	int i;
	for (i = 0; i < r->n; i++) {
		sb_free(r->col[i]);
		sb_free(r->val[i]);
	}
	sb_free(r->col);
	sb_free(r->val);
	sb_free(r->len);
	sb_free(r->cap);
}

/* Solve the restricted master of node nd: *obj, the linking duals pi (nl)
 * and y (nl, the schedules' side), z (the pooled schedules' weights, 0 for
 * those the node excludes), *slack = the largest penalised slack in use.
 * Returns 0 or SB_EXIT_RUN. */
static int master(struct bp *b, const struct node *nd, double *obj, double *pi, double *y,
		  double *z, double *slack)
{
	struct sb_lp *lp = sb_lp_new("gadget-price-master", 0);
	struct sb_lp_result res;
	struct rows r;
	int ne = b->ep.ne, J = b->J, nl = b->nl, nrow = ne + J + nl, x, i, l, rc = 0;
	long c, *scol = SB_NEW(long, b->nsc + 1);
	int *lcol = SB_NEW(int, 2 * nl + 1), *acol = SB_NEW(int, J + 1);

	rows_init(&r, nrow);
	for (c = 0; c < b->npool; c++) {
		int col, xx = b->px[c];
		const int *pk = b->ep.pat[xx] + b->pp[c] * b->ep.na[xx];
		col = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, pat_obj(b, xx, b->pp[c]));
		rows_put(&r, xx, col, 1);
		for (i = 0; i < b->ep.na[xx]; i++)
			if (pk[i])
				rows_put(&r, ne + J + b->lk[b->ep.act[xx][i]][xx * b->maxno + pk[i]],
					 col, 1);
	}
	for (c = 0; c < b->nsc; c++) {
		const struct sched *s = &b->sc[c];
		int col;
		scol[c] = -1;
		if (!sched_fits(b, s, nd->lo, nd->hi))
			continue;
		col = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, s->theta);
		scol[c] = col;
		rows_put(&r, ne + s->j, col, 1);
		for (l = 0; l < nl; l++)
			if (s->cnt[l])
				rows_put(&r, ne + J + l, col, -s->cnt[l]);
	}
	/* a penalised empty schedule per job: the master stays feasible when
	 * no pooled schedule fits the node's bounds yet */
	for (i = 0; i < J; i++) {
		int col = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, -b->M);
		rows_put(&r, ne + i, col, 1);
		acol[i] = col;
	}
	for (l = 0; l < nl; l++) {
		lcol[2 * l] = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, -b->M);
		lcol[2 * l + 1] = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, -b->M);
		rows_put(&r, ne + J + l, lcol[2 * l], 1);
		rows_put(&r, ne + J + l, lcol[2 * l + 1], -1);
	}
	for (x = 0; x < ne; x++)
		sb_lp_add_row(lp, NULL, -SB_LP_INF, b->ep.n[x], r.len[x], r.col[x], r.val[x]);
	for (i = 0; i < J; i++)
		sb_lp_add_row(lp, NULL, 1, 1, r.len[ne + i], r.col[ne + i], r.val[ne + i]);
	for (l = 0; l < nl; l++)
		sb_lp_add_row(lp, NULL, 0, 0, r.len[ne + J + l], r.col[ne + J + l],
			      r.val[ne + J + l]);
	sb_alloc_bound_limits(lp, 0);
	if ((rc = sb_lp_solve(lp, 1, TIME_SAFETY_S, 0, &res, b->err)))
		goto out;
	if (res.status != SB_LP_OPTIMAL || !res.dual) {
		rc = sb_err_set(b->err, SB_EXIT_RUN, "gadget-price: restricted master not solved "
				"(%s%s)", sb_lp_status_name(res.status),
				res.stopped ? ", stopped by a limit" : "");
		sb_lp_result_release(&res);
		goto out;
	}
	*obj = res.obj;
	*slack = 0;
	for (l = 0; l < nl; l++) {
		pi[l] = res.dual[ne + J + l];
		y[l] = 0;
		*slack = sb_max(*slack, res.x[lcol[2 * l]] + res.x[lcol[2 * l + 1]]);
	}
	for (i = 0; i < J; i++)
		*slack = sb_max(*slack, res.x[acol[i]]);
	for (c = 0; c < b->nsc; c++) {
		z[c] = scol[c] >= 0 ? res.x[scol[c]] : 0;
		if (z[c] > 0)
			for (l = 0; l < nl; l++)
				y[l] += z[c] * b->sc[c].cnt[l];
	}
	sb_lp_result_release(&res);
out:
	rows_release(&r);
	sb_free(scol);
	sb_free(lcol);
	sb_free(acol);
	sb_lp_free(lp);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Realising integer counts with patterns                              */
/* ------------------------------------------------------------------ */

/* The best integer solution whose jobs with fix[j] keep the counts y of
 * their linking rows, the others free: the pattern ILP over the kept
 * patterns that agree with the fixed counts (GLPK, DECOMP_NODES nodes).
 * Returns 1 with *val = its value, recomputed from the patterns, 0 when
 * proven infeasible, -1 when undecided; *rc = SB_EXIT_RUN on a failure. */
static int realise(struct bp *b, const int *y, const char *fix, double *val, int *rc)
{
	const struct sb_alloc_inst *in = b->in;
	struct sb_lp *lp = sb_lp_new("gadget-price-realise", 0);
	struct sb_lp_result res = { 0 };
	struct rows r;
	int J = b->J, nr = b->ep.ne + b->nl + J, x, i, l, j, ok = 1, *Pc = SB_NEW(int, J + 1);
	long p, **pcol = SB_NEW(long *, b->ep.ne + 1);
	double *P = SB_NEW(double, J + 1), gpu = 0;

	*rc = 0;
	rows_init(&r, nr);
	for (x = 0; x < b->ep.ne; x++) {
		int na = b->ep.na[x];
		pcol[x] = SB_NEW(long, b->ep.np[x] + 1);
		for (p = 0; p < b->ep.np[x]; p++) {
			const int *pk = b->ep.pat[x] + p * na;
			int col;
			pcol[x][p] = -1;
			for (i = 0; i < na; i++) {
				j = b->ep.act[x][i];
				if (fix[j] && pk[i] && !y[b->lk[j][x * b->maxno + pk[i]]])
					break;
			}
			if (i < na)
				continue;
			col = sb_lp_add_col(lp, NULL, SB_LP_INT, 0, b->ep.n[x], pat_obj(b, x, p));
			pcol[x][p] = col;
			rows_put(&r, x, col, 1);
			for (i = 0; i < na; i++) {
				j = b->ep.act[x][i];
				if (!pk[i])
					continue;
				if (fix[j])
					rows_put(&r, b->ep.ne + b->lk[j][x * b->maxno + pk[i]], col, 1);
				else
					rows_put(&r, b->ep.ne + b->nl + j, col,
						 -b->ep.o[j][pk[i]].rate);
			}
		}
	}
	for (x = 0; x < b->ep.ne; x++)
		sb_lp_add_row(lp, NULL, -SB_LP_INF, b->ep.n[x], r.len[x], r.col[x], r.val[x]);
	for (l = 0; l < b->nl && ok; l++) {
		int row = b->ep.ne + l;
		if (!fix[b->lj[l]])
			continue;
		if (!r.len[row] && y[l])
			ok = 0;   /* no agreeing pattern gives this option */
		else if (r.len[row])
			sb_lp_add_row(lp, NULL, y[l], y[l], r.len[row], r.col[row], r.val[row]);
	}
	for (j = 0; j < J && ok; j++) {
		int row = b->ep.ne + b->nl + j;
		if (fix[j])
			continue;
		Pc[j] = sb_lp_add_col(lp, NULL, SB_LP_CONT, 0, SB_LP_INF, 0);
		rows_put(&r, row, Pc[j], 1);
		sb_lp_add_row(lp, NULL, 0, 0, r.len[row], r.col[row], r.val[row]);
		sb_alloc_bound_utility_rows(lp, in, j, Pc[j]);
	}
	if (!ok)
		goto out;
	sb_alloc_bound_limits(lp, DECOMP_NODES);
	if ((*rc = sb_lp_solve(lp, 0, TIME_SAFETY_S, 0, &res, b->err))) {
		ok = -1;
		goto out;
	}
	if (res.stopped == SB_LP_STOP_TIME) {
		*rc = sb_err_set(b->err, SB_EXIT_RUN, "gadget-price: a realisation ILP stopped by "
				 "the %g s safety time limit", TIME_SAFETY_S);
		ok = -1;
	} else if (res.status == SB_LP_INFEASIBLE) {
		ok = 0;
	} else if (!res.x || (res.status != SB_LP_OPTIMAL && res.status != SB_LP_FEASIBLE)) {
		ok = -1;
	} else {
		/* the value, recomputed from the patterns' slot counts */
		for (x = 0; x < b->ep.ne; x++)
			for (p = 0; p < b->ep.np[x]; p++) {
				const int *pk = b->ep.pat[x] + p * b->ep.na[x];
				double v = pcol[x][p] >= 0 ? floor(res.x[pcol[x][p]] + 0.5) : 0;
				for (i = 0; v && i < b->ep.na[x]; i++) {
					j = b->ep.act[x][i];
					P[j] += v * b->ep.o[j][pk[i]].rate;
					gpu += v * b->ep.o[j][pk[i]].k;
				}
			}
		*val = in->util == SB_ALLOC_ENE ? -in->eta * gpu : 0;
		for (j = 0; j < J; j++)
			*val += sb_alloc_bound_theta(in, j, P[j]);
	}
out:
	sb_lp_result_release(&res);
	rows_release(&r);
	for (x = 0; x < b->ep.ne; x++)
		sb_free(pcol[x]);
	sb_free(pcol);
	sb_free(Pc);
	sb_free(P);
	sb_lp_free(lp);
	return *rc ? -1 : ok;
}

static void offer(struct bp *b, double v)
{
	if (!b->has_inc || v > b->inc) {
		b->inc = v;
		b->has_inc = 1;
	}
}

/* ------------------------------------------------------------------ */
/* Search                                                              */
/* ------------------------------------------------------------------ */

static void push_node(struct bp *b, struct node nd)
{
	if (b->nnd == b->ndcap) {
		b->ndcap = b->ndcap ? 2 * b->ndcap : 64;
		b->nd = sb_xrealloc(b->nd, (size_t)b->ndcap * sizeof *b->nd);
	}
	nd.id = b->nnd;
	b->nd[b->nnd] = nd;
	sb_heap_push(&b->open, -nd.bound, b->nnd++);
}

static void child(struct bp *b, const struct node *nd, int l, int lo, int hi)
{
	struct node c;
	if (lo > hi)
		return;
	c.bound = nd->bound;
	c.lo = SB_NEW(int, b->nl + 1);
	c.hi = SB_NEW(int, b->nl + 1);
	memcpy(c.lo, nd->lo, (size_t)b->nl * sizeof *c.lo);
	memcpy(c.hi, nd->hi, (size_t)b->nl * sizeof *c.hi);
	c.lo[l] = lo;
	c.hi[l] = hi;
	push_node(b, c);
}

static int closed(const struct bp *b, double bound)
{
	return b->has_inc && bound <= b->inc + PRICE_TOL * (1 + fabs(b->inc));
}

/* closed(), and if so the node's bound counts in the reported bound */
static int pruned(struct bp *b, double bound)
{
	if (!closed(b, bound))
		return 0;
	if (bound > b->pruned_max)
		b->pruned_max = bound;
	return 1;
}

/* The master LP of node nd priced to convergence (or the round limit);
 * lowers nd->bound to the best Lagrangian bound seen (-INFINITY: the node's
 * bounds admit no schedule of some job). y, z as from master(); z has room
 * for b->nsc entries when it is called, and the pool may grow: *z is
 * reallocated. */
struct lpsol {
	double obj, slack, *pi, *y, *z;
	long nz;
	int rounds;
};

static int cg(struct bp *b, struct node *nd, struct lpsol *so)
{
	int nl = b->nl, J = b->J, l, j, x, round, rc = 0;
	int *cnt = SB_NEW(int, nl + 1);
	double *pi = so->pi;

	for (round = 0; round < MAX_ROUNDS; round++) {
		double L = 0;
		int added = 0;
		so->z = sb_xrealloc(so->z, (size_t)(b->nsc + 1) * sizeof *so->z);
		so->nz = b->nsc;
		if ((rc = master(b, nd, &so->obj, pi, so->y, so->z, &so->slack)))
			goto out;
		/* schedules */
		for (j = 0; j < J; j++) {
			double v;
			if (price_job(b, j, pi, nd->lo, nd->hi, &v, cnt)) {
				/* the node's bounds admit no schedule of j */
				nd->bound = -INFINITY;
				goto out;
			}
			L += v;
			{
				/* its reduced cost against the master's value of j's
				 * best pooled schedule */
				long c;
				double have = -INFINITY;
				for (c = 0; c < b->nsc; c++) {
					const struct sched *s = &b->sc[c];
					double w = s->theta;
					if (s->j != j || !sched_fits(b, s, nd->lo, nd->hi))
						continue;
					for (l = 0; l < nl; l++)
						if (s->cnt[l])
							w += s->cnt[l] * pi[l];
					if (w > have)
						have = w;
				}
				if (v > have + RC_TOL * (1 + fabs(v))) {
					pool_sched(b, j, cnt);
					added++;
				}
			}
		}
		/* patterns: value obj_p - pi . a_p, the best few per epoch */
		for (x = 0; x < b->ep.ne; x++) {
			int na = b->ep.na[x], k;
			long p, np = b->ep.np[x];
			double bestv = 0, have = 0;
			long top[PAT_PER_ROUND];
			double topv[PAT_PER_ROUND];
			int ntop = 0;
			for (p = 0; p < np; p++) {
				const int *pk = b->ep.pat[x] + p * na;
				double v = pat_obj(b, x, p);
				int i;
				for (i = 0; i < na; i++)
					if (pk[i])
						v -= pi[b->lk[b->ep.act[x][i]][x * b->maxno + pk[i]]];
				if (v > bestv)
					bestv = v;
				if (b->inpool[x][p]) {
					if (v > have)
						have = v;
					continue;
				}
				/* keep the PAT_PER_ROUND best unpooled, ties to the first */
				if (ntop < PAT_PER_ROUND || v > topv[ntop - 1]) {
					if (ntop < PAT_PER_ROUND)
						ntop++;
					for (k = ntop - 1; k > 0 && topv[k - 1] < v; k--) {
						topv[k] = topv[k - 1];
						top[k] = top[k - 1];
					}
					topv[k] = v;
					top[k] = p;
				}
			}
			L += b->ep.n[x] * bestv;
			for (k = 0; k < ntop; k++)
				if (topv[k] > have + RC_TOL * (1 + fabs(topv[k]))) {
					pool_pattern(b, x, top[k]);
					added++;
				}
		}
		if (L < nd->bound)
			nd->bound = L;
		if (closed(b, nd->bound) || !added)
			break;
	}
	so->rounds = round;
out:
	sb_free(cnt);
	return rc;
}

/* Dive from node nd for an incumbent: fix the whole schedule of one job
 * at a time, the pooled schedule of largest master weight first, price
 * again, and when that leaves no feasible master (a slack in use, or no
 * schedule) try the next weight, at most DIVE_TRIES per step; with every
 * job fixed, realise the counts. Changes nothing but the incumbent and the
 * pool. */
#define DIVE_TRIES 4

static int dive(struct bp *b, const struct node *nd, const struct lpsol *at)
{
	struct node d;
	struct lpsol so = { 0 }, prev = { 0 };
	int nl = b->nl, J = b->J, l, j, k, rc = 0, *fixed = SB_NEW(int, J + 1);
	int *yi = SB_NEW(int, nl + 1), *lo0 = SB_NEW(int, nl + 1), *hi0 = SB_NEW(int, nl + 1);
	char *tried = NULL;
	(void)k;

	d.id = nd->id;
	d.lo = SB_NEW(int, nl + 1);
	d.hi = SB_NEW(int, nl + 1);
	memcpy(d.lo, nd->lo, (size_t)nl * sizeof *d.lo);
	memcpy(d.hi, nd->hi, (size_t)nl * sizeof *d.hi);
	so.pi = SB_NEW(double, nl + 1);
	so.y = SB_NEW(double, nl + 1);
	/* prev: the solution the next step fixes from */
	prev.nz = at->nz;
	prev.z = SB_NEW(double, at->nz + 1);
	memcpy(prev.z, at->z, (size_t)at->nz * sizeof *prev.z);
	for (k = 0; k < J; k++) {
		int t, ok = 0;
		sb_free(tried);
		tried = SB_NEW(char, prev.nz + 1);
		memcpy(lo0, d.lo, (size_t)nl * sizeof *lo0);
		memcpy(hi0, d.hi, (size_t)nl * sizeof *hi0);
		for (t = 0; t < DIVE_TRIES && !ok; t++) {
			long c, bc = -1;
			double bz = 1e-9;
			for (c = 0; c < prev.nz; c++)
				if (!tried[c] && !fixed[b->sc[c].j] && prev.z[c] > bz) {
					bz = prev.z[c];
					bc = c;
				}
			if (bc < 0)
				break;
			tried[bc] = 1;
			j = b->sc[bc].j;
			memcpy(d.lo, lo0, (size_t)nl * sizeof *d.lo);
			memcpy(d.hi, hi0, (size_t)nl * sizeof *d.hi);
			for (l = 0; l < nl; l++)
				if (b->lj[l] == j)
					d.lo[l] = d.hi[l] = b->sc[bc].cnt[l];
			d.bound = nd->bound;
			if ((rc = cg(b, &d, &so)))
				goto out;
			if (d.bound == -INFINITY || so.slack > 1e-6)
				continue;
			if (closed(b, d.bound))
				goto out;
			fixed[j] = ok = 1;
		}
		if (!ok)
			break;
		prev.nz = so.nz;
		prev.z = sb_xrealloc(prev.z, (size_t)(so.nz + 1) * sizeof *prev.z);
		memcpy(prev.z, so.z, (size_t)so.nz * sizeof *prev.z);
	}
	{
		/* the jobs fixed so far keep their counts, the others are free */
		double v;
		int ok;
		char *fx = SB_NEW(char, J + 1);
		for (j = 0; j < J; j++)
			fx[j] = (char)fixed[j];
		for (l = 0; l < nl; l++)
			yi[l] = d.lo[l];
		ok = realise(b, yi, fx, &v, &rc);
		sb_free(fx);
		if (!rc && ok == 1)
			offer(b, v);
	}
out:
	sb_free(d.lo);
	sb_free(d.hi);
	sb_free(so.pi);
	sb_free(so.y);
	sb_free(so.z);
	sb_free(prev.z);
	sb_free(tried);
	sb_free(fixed);
	sb_free(yi);
	sb_free(lo0);
	sb_free(hi0);
	return rc;
}

/* Process one node: price, then prune, close or branch. */
static int process(struct bp *b, struct node *nd)
{
	int nl = b->nl, l, rc = 0;
	struct lpsol so = { 0 };
	double *y, slack;
	int *yi = SB_NEW(int, nl + 1);

	so.pi = SB_NEW(double, nl + 1);
	so.y = y = SB_NEW(double, nl + 1);
	if ((rc = cg(b, nd, &so)))
		goto out;
	slack = so.slack;
	if (b->nodes == 1)
		b->root_bound = nd->bound;
	if (pruned(b, nd->bound) || nd->bound == -INFINITY)
		goto out;
	if (b->nodes == 1 && (rc = dive(b, nd, &so)))
		goto out;
	if (pruned(b, nd->bound))
		goto out;
	/* branch on the most fractional y */
	{
		int bl = -1;
		double bf = 1e-6;
		for (l = 0; l < nl; l++) {
			double f = y[l] - floor(y[l]), d = f < 1 - f ? f : 1 - f;
			if (d > bf) {
				bf = d;
				bl = l;
			}
		}
		if (bl >= 0 && slack <= 1e-6) {
			child(b, nd, bl, nd->lo[bl], (int)floor(y[bl]));
			child(b, nd, bl, (int)ceil(y[bl]), nd->hi[bl]);
			goto out;
		}
		if (bl < 0 && slack <= 1e-6) {
			double v;
			int ok;
			for (l = 0; l < nl; l++)
				yi[l] = (int)floor(y[l] + 0.5);
			ok = realise(b, yi, b->allfix, &v, &rc);
			if (rc)
				goto out;
			if (ok == 1) {
				offer(b, v);
				/* the node's optimum is y's value: closed unless its
				 * bound is not yet down to it (round limit) */
				if (pruned(b, nd->bound))
					goto out;
			}
		}
		/* y integer but not realised (or a slack left, or the round
		 * limit): three ways on the first y not yet fixed */
		for (l = 0; l < nl && nd->lo[l] == nd->hi[l]; l++)
			;
		if (l == nl) {
			/* every count fixed: the node holds one integer point,
			 * realised (a new incumbent), infeasible, or undecided */
			double v;
			int ok;
			for (l = 0; l < nl; l++)
				yi[l] = nd->lo[l];
			ok = realise(b, yi, b->allfix, &v, &rc);
			if (rc)
				goto out;
			if (ok == 1)
				offer(b, v);
			if (ok < 0) {
				b->unresolved = 1;
				b->unresolved_bound = sb_max(b->unresolved_bound, nd->bound);
			}
			goto out;
		}
		{
			int v = (int)floor(y[l] + 0.5);
			if (v < nd->lo[l])
				v = nd->lo[l];
			if (v > nd->hi[l])
				v = nd->hi[l];
			child(b, nd, l, nd->lo[l], v - 1);
			child(b, nd, l, v, v);
			child(b, nd, l, v + 1, nd->hi[l]);
		}
	}
out:
	sb_free(so.pi);
	sb_free(so.y);
	sb_free(so.z);
	sb_free(yi);
	return rc;
}

/* The start's value in the model: each slot's layout replaced by a kept
 * pattern that dominates it. 0, or 1 when a slot has none. */
static int start_value(const struct bp *b, const struct sb_alloc_start *st, double *val)
{
	const struct sb_alloc_inst *in = b->in;
	double *P = SB_NEW(double, b->J + 1), gpu = 0;
	int x, t, i, j, rc = 0;

	for (x = 0; x < b->ep.ne && !rc; x++)
		for (t = b->ep.t0[x]; t < b->ep.t0[x] + b->ep.n[x]; t++) {
			long p = sb_alloc_epochs_dominating(&b->ep, in, x, st, t);
			const int *pk;
			if (p < 0) {
				rc = 1;
				break;
			}
			pk = b->ep.pat[x] + p * b->ep.na[x];
			for (i = 0; i < b->ep.na[x]; i++) {
				j = b->ep.act[x][i];
				P[j] += b->ep.o[j][pk[i]].rate;
				gpu += b->ep.o[j][pk[i]].k;
			}
		}
	*val = in->util == SB_ALLOC_ENE ? -in->eta * gpu : 0;
	for (j = 0; j < b->J; j++)
		*val += sb_alloc_bound_theta(in, j, P[j]);
	sb_free(P);
	return rc;
}

int sb_alloc_gadget_price(const struct sb_alloc_inst *in, long nodes,
			  const struct sb_alloc_start *st, struct sb_alloc_bound *out,
			  struct sb_err *err)
{
	struct bp b;
	struct node root;
	int x, j, o, l, rc = 0;
	double t0 = sb_now(), wsum = 0;
	long c;

	memset(&b, 0, sizeof b);
	memset(out, 0, sizeof *out);
	snprintf(out->model, sizeof out->model, "gadget-price-bp");
	if (nodes <= 0)
		nodes = SB_ALLOC_NODE_LIMIT;
	if ((rc = sb_alloc_epochs_build(in, &b.ep)))
		return rc;
	b.in = in;
	b.err = err;
	b.J = in->njob;
	for (j = 0; j < b.J; j++)
		if (b.ep.no[j] > b.maxno)
			b.maxno = b.ep.no[j];
	b.lk = SB_NEW(int *, b.J + 1);
	for (j = 0; j < b.J; j++) {
		b.lk[j] = SB_NEW(int, (size_t)b.ep.ne * b.maxno + 1);
		for (x = 0; x < b.ep.ne * b.maxno; x++)
			b.lk[j][x] = -1;
	}
	for (x = 0; x < b.ep.ne; x++)
		for (j = 0; j < b.J; j++)
			if (in->job[j].arrival <= b.ep.t0[x])
				b.nl += b.ep.no[j] - 1;
	b.allfix = SB_NEW(char, b.J + 1);
	memset(b.allfix, 1, (size_t)b.J);
	b.lj = SB_NEW(int, b.nl + 1);
	b.lx = SB_NEW(int, b.nl + 1);
	b.lo_opt = SB_NEW(int, b.nl + 1);
	l = 0;
	for (x = 0; x < b.ep.ne; x++)
		for (j = 0; j < b.J; j++)
			if (in->job[j].arrival <= b.ep.t0[x])
				for (o = 1; o < b.ep.no[j]; o++) {
					b.lk[j][x * b.maxno + o] = l;
					b.lj[l] = j;
					b.lx[l] = x;
					b.lo_opt[l++] = o;
				}
	b.inpool = SB_NEW(char *, b.ep.ne + 1);
	for (x = 0; x < b.ep.ne; x++)
		b.inpool[x] = SB_NEW(char, b.ep.np[x] + 1);
	/* the slack penalty: well above the whole objective's range, which
	 * bounds every dual the master can need (a smaller one would only slow
	 * the search: the bound is Lagrangian, valid whatever the duals) */
	for (j = 0; j < b.J; j++)
		wsum += sb_alloc_bound_theta(in, j, in->job[j].target) -
			sb_alloc_bound_theta(in, j, 0);
	if (in->util == SB_ALLOC_ENE)
		for (x = 0; x < in->nserver; x++)
			wsum += in->eta * in->cap[x][0] * in->nslot;
	b.M = 1e3 * (1 + wsum);
	/* every job idle: a schedule of each, so the master starts feasible */
	{
		int *zero = SB_NEW(int, b.nl + 1);
		for (j = 0; j < b.J; j++)
			pool_sched(&b, j, zero);
		sb_free(zero);
	}
	if (st) {
		double v;
		if (!start_value(&b, st, &v)) {
			b.inc = v;
			b.has_inc = 1;
			out->start_used = 1;
		}
	}
	root.bound = INFINITY;
	root.lo = SB_NEW(int, b.nl + 1);
	root.hi = SB_NEW(int, b.nl + 1);
	for (l = 0; l < b.nl; l++)
		root.hi[l] = b.ep.n[b.lx[l]];
	sb_heap_init(&b.open);
	push_node(&b, root);
	b.unresolved_bound = -INFINITY;
	b.root_bound = INFINITY;
	b.pruned_max = -INFINITY;
	while (sb_heap_size(&b.open) && b.nodes < nodes) {
		struct sb_heap_item it;
		struct node nd;
		sb_heap_pop(&b.open, &it);
		nd = b.nd[it.val];
		if (!pruned(&b, nd.bound)) {
			b.nodes++;
			rc = process(&b, &nd);
		}
		/* process() may have grown b.nd */
		sb_free(nd.lo);
		sb_free(nd.hi);
		b.nd[it.val].lo = b.nd[it.val].hi = NULL;
		if (rc)
			break;
	}
	/* every incumbent is a realised schedule, so within the root's bound */
	SB_ASSERT(rc || !b.has_inc || b.root_bound == INFINITY ||
		  b.inc <= b.root_bound + PRICE_TOL * (1 + fabs(b.root_bound)));
	if (!rc) {
		double bound = b.unresolved ? b.unresolved_bound : -INFINITY;
		for (c = 0; c < b.nnd; c++)
			if (b.nd[c].lo)
				bound = sb_max(bound, b.nd[c].bound);
		if (b.has_inc)
			bound = sb_max(bound, b.inc);
		/* what the closed nodes still allowed, within PRICE_TOL */
		bound = sb_max(bound, b.pruned_max);
		if (bound == -INFINITY) {
			rc = sb_err_set(err, SB_EXIT_RUN, "gadget-price-bp: the model is infeasible");
		} else {
			out->bound = bound;
			out->has_incumbent = b.has_inc;
			out->incumbent = b.has_inc ? b.inc : 0;
			out->optimal = b.has_inc && !b.unresolved && closed(&b, bound);
			if (out->optimal) {
				snprintf(out->status, sizeof out->status, "optimal");
			} else {
				snprintf(out->status, sizeof out->status, "%s",
					 b.unresolved ? "unresolved" : "node-limit");
			}
			out->nodes = b.nodes;
			out->ncols = (int)(b.npool + b.nsc);
			out->nrows = b.ep.ne + b.J + b.nl;
		}
	}
	out->seconds = sb_now() - t0;
	for (c = 0; c < b.nnd; c++) {
		sb_free(b.nd[c].lo);
		sb_free(b.nd[c].hi);
	}
	sb_free(b.nd);
	sb_heap_release(&b.open);
	for (c = 0; c < b.nsc; c++)
		sb_free(b.sc[c].cnt);
	sb_free(b.sc);
	for (j = 0; j < b.J; j++)
		sb_free(b.lk[j]);
	sb_free(b.lk);
	for (x = 0; x < b.ep.ne; x++)
		sb_free(b.inpool[x]);
	sb_free(b.inpool);
	sb_free(b.px);
	sb_free(b.pp);
	sb_free(b.allfix);
	sb_free(b.lj);
	sb_free(b.lx);
	sb_free(b.lo_opt);
	sb_alloc_epochs_release(&b.ep);
	return rc;
}
