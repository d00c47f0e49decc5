/*
 * pattern.c - GADGET's configuration ILP (gadget.md §8) in its slot-pattern
 * form (ours [O]): the same optimum as the compact model of bound.c, without
 * its symmetry.
 *
 * Why: the compact model (u, v, x per job, server and slot) could not be
 * proven optimal once capacity binds, even at 3 jobs x 2 servers x 4 slots
 * and 20,000 nodes (gap 0.1-0.7 % left). Its LP bound is good; what defeats
 * branch-and-bound is symmetry. Slots with the same arrived jobs are
 * interchangeable (the objective sees only each job's total progress), and
 * so are servers of equal capacity: every solution has up to n! x S!^n
 * copies, and branching on one slot's variable moves the fraction to a twin
 * slot. Cuts do not help against that.
 *
 * The pattern form. Cut the horizon into epochs: maximal runs of slots with
 * the same arrived jobs (a new epoch at each arrival slot). A pattern is one
 * slot's whole configuration: per arrived job off, k GPUs on one server, or
 * k GPUs spread; it is feasible when the single-server parts bin-pack into
 * the servers and all GPUs fit in total (the spread parts take any split of
 * what is left). lambda_{e,p} in Z>=0 counts the slots of epoch e run with
 * pattern p, sum_p lambda_{e,p} <= n_e (the rest idle); P_j sums the
 * patterns' rates and the utility rows are the compact model's (bound.c).
 * Both forms have the same integer optimum (tests/alloc/test_bound.c checks
 * it). The pattern LP is the convex hull of each slot's packings, but in our
 * runs it equals the compact LP: the gain is the symmetry, not the bound.
 *
 * What is still hard: a job's utility stops at its target, and a slot's
 * progress comes in lumps, so the optimum is the combination of slots that
 * overshoots the finishing jobs' targets least, a subset-sum structure on
 * which the LP bound hardly moves while branching. At 3 jobs x 2 x 4 GPUs x
 * 4 slots the pattern form is proven optimal on about 95 % of seeded
 * instances within 1,000 nodes (the compact form on about 8 % at 200 nodes,
 * 17 % at 20,000); at 4 jobs x 5 slots on about a quarter within 5,000;
 * J = 6, S = 4, T = 10 has about 15,000 patterns, and without a start GLPK
 * finds no integer solution in 50 nodes. With the best checked policy run
 * as the first incumbent (sb_alloc_gadget_bound's start), an instance whose
 * LP bound a policy reaches (the J = 6 bench instance: every job
 * finishes) is proven optimal at the root; capacity-bound instances of that
 * size are not. Measured on the bench's capacity-bound J = 6, S = 4 x 4
 * GPUs, T = 10 instance (EXC; two epochs: slot 0 with 3 jobs, slots 1-9
 * with 6; 10,266 kept patterns): root LP 5.4056 (0.5 CPU s); the best
 * checked policy run (GADGET-R) 5.2516; after 200 nodes the bound is
 * still 5.4056 (2-6 CPU s on the loaded VM; also with GLPK's MIR, Gomory,
 * cover and clique cuts, 10 CPU s). With slot 0's counts integer and slots 1-9 continuous
 * the optimum is 5.4056 too: the whole gap is in the nine interchangeable
 * slots. Integer aggregate counts y_{j,o} (slots of the epoch in which job
 * j runs option o) to branch on, beside the integer pattern counts: 5.4054
 * after 200 nodes; with the y integer and the pattern counts continuous (a
 * relaxation of this model, so its bound is valid here) 5.3948 after
 * 3,000 nodes (49 CPU s), not solved either. GLPK's proximity search
 * (limited by wall clock only, so unusable for stored results) finds an
 * integer solution of 5.3737. The optimum thus lies in [5.3737, 5.3948],
 * within 0.6 % of the LP: what separates them is how little the finishing
 * jobs can overshoot their targets with nine whole-slot configurations, and
 * proving it means ruling out every combination that wastes less, which no
 * formulation we tried turns into a bound that branch-and-bound closes
 * within 60 s. Tried since (2026-11-27, GLPK on this model written out,
 * scratch programs, nothing kept): the LP finishes jobs 0, 1, 2, 4 and 5
 * exactly at their targets and gives job 3 (target 296,566) 0.406 of its
 * own, so the optimum's <= 5.3948 means every integer schedule wastes at
 * least 3,200 of job 3's worker-steps on the others' overshoot. Splitting
 * by the set F of jobs that finish (P_j >= D_j for j in F, P_j <= D_j for
 * the rest: 64 disjoint subproblems whose best is the optimum) gives the
 * same 5.4056 for the best F at the root, since a job outside F may still
 * reach its target exactly in the LP; with F = {0, 1, 2, 4, 5} fixed the
 * bound stays at 5.4056 after 300 nodes with pseudocost branching (12.7 CPU
 * s), with GLPK's MIR, Gomory, cover and clique cuts (275 nodes, 17.3 s)
 * and with best-projection backtracking (10.6 s). We then wrote here that
 * per-job valid inequalities could not help, since one job's option counts
 * form a polytope with integer vertices; that holds for its progress, not
 * for its utility, which stops at the target: a convex combination of
 * integer schedules that lands exactly on the target is worth more in the
 * LP than any of them. The convex hull of each job's integer schedules,
 * utility included, is what closes the gap.
 *
 * Solved since (price.c, SB_ALLOC_FORM_PRICE): the same patterns in a
 * Dantzig-Wolfe form with one integer schedule per job, columns generated
 * by an exact dynamic programme, a Lagrangian node bound, branching on a
 * job's slot counts per option. On the instance above its root bound is
 * 5.384472 (the pattern LP's 5.4056 intersected with each job's schedule
 * hull), and a dive that fixes whole job schedules and hands the rest to
 * a small pattern ILP finds 5.3844708: optimal (within 1e-6 relative) at
 * the root node, in 1.75-2.6 CPU s (make bench): the optimum, 5.38447,
 * lies inside the interval [5.3737, 5.3948] recorded above, 0.39 % below
 * the pattern LP. GLPK on this pattern form stays the default (AUTO).
 *
 * Only patterns that no single job can improve are kept: a job's option is
 * improved by one of higher rate (EXC, FAIR: more progress is never worse)
 * or, under ENE, by one of at least the rate on at most the GPUs, with one
 * strict, that still fits with the others. This is a strict order, so every
 * dropped pattern is dominated by a kept one and the optimum is unchanged.
 *
 * Enumeration is bounded by deterministic counts (leaves visited, patterns
 * kept); an instance beyond them returns SB_ALLOC_PATTERN_TOO_BIG and the
 * caller uses the compact model, so large instances still get a bound.
 */
#include "bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#define MAX_LEAVES 4000000L   /* DFS leaves of one epoch */
#define MAX_PATTERNS 60000L   /* columns of the whole model */
#define MAX_ARRIVED 10        /* jobs of one epoch: beyond, the walk alone is too long */

#define opt sb_alloc_popt   /* bound.h: one option of one job in one slot */

struct enumr {
	const struct sb_alloc_inst *in;
	int S, util;
	int *cap;               /* GPUs per server */
	int total;              /* GPUs of the cluster */
	int na;                 /* arrived jobs of the epoch */
	int *items;             /* scratch for the local parts, njob */
	struct opt **o;         /* per job (index into act): options */
	int *no;
	int *pick;              /* current option per arrived job */
	long leaves;
	int overflow;
	/* kept patterns, all epochs: na_e options each */
	long np, npcap;
	int *pat;               /* np x na_e option indices (per epoch) */
};

/* Do the local parts items[0..n) (sorted, largest first) bin-pack into
 * servers with free room left[]? Servers of equal room are tried once. */
static int pack(const int *items, int n, int *left, int S)
{
	int s, t;
	if (!n)
		return 1;
	for (s = 0; s < S; s++) {
		if (left[s] < items[0])
			continue;
		for (t = 0; t < s; t++)
			if (left[t] == left[s])
				break;
		if (t < s)
			continue;
		left[s] -= items[0];
		if (pack(items + 1, n - 1, left, S)) {
			left[s] += items[0];
			return 1;
		}
		left[s] += items[0];
	}
	return 0;
}

/* Is the current pick feasible, with job `swap` on option `with` instead
 * (swap = -1: as picked), among the first n arrived jobs? */
static int feasible(const struct enumr *e, int n, int swap, int with)
{
	int left[64], m = 0, used = 0, i, a, b, *it = e->items;

	for (i = 0; i < n; i++) {
		const struct opt *o = &e->o[i][i == swap ? with : e->pick[i]];
		used += o->k;
		if (o->k && o->local) {
			/* insertion keeps the items sorted, largest first */
			for (a = m++; a > 0 && it[a - 1] < o->k; a--)
				it[a] = it[a - 1];
			it[a] = o->k;
		}
	}
	if (used > e->total)
		return 0;
	for (b = 0; b < e->S; b++)
		left[b] = e->cap[b];
	return pack(it, m, left, e->S);
}

/* Does option b of job i improve on option a (see the header)? */
static int improves(const struct enumr *e, const struct opt *a, const struct opt *b)
{
	if (e->util != SB_ALLOC_ENE)
		return b->rate > a->rate * (1 + 1e-12);
	return b->rate >= a->rate && b->k <= a->k && (b->rate > a->rate || b->k < a->k);
}

static int maximal(const struct enumr *e)
{
	int i, c;
	for (i = 0; i < e->na; i++)
		for (c = 0; c < e->no[i]; c++)
			if (c != e->pick[i] && improves(e, &e->o[i][e->pick[i]], &e->o[i][c]) &&
			    feasible(e, e->na, i, c))
				return 0;
	return 1;
}

/* Drop the patterns of one epoch (e->pat, e->np) that another dominates in
 * every job's rate (and, under ENE, in GPUs): single-job maximality
 * leaves many that a change of two jobs beats. Kept in enumeration order. */
struct keyed {
	double key;     /* sum of the pattern's rates: a dominator's is not smaller */
	long idx;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void pareto(struct enumr *e)
{
	long m = e->np, c, q, nk = 0, i;
	int na = e->na, a;
	double *r = SB_NEW(double, (size_t)m * na + 1);
	int *gpus = SB_NEW(int, m + 1);
	struct keyed *ord = SB_NEW(struct keyed, m + 1);
	long *kept = SB_NEW(long, m + 1);
	char *keep = SB_NEW(char, m + 1);

	for (c = 0; c < m; c++)
		for (a = 0; a < na; a++) {
			const struct opt *o = &e->o[a][e->pat[c * na + a]];
			r[c * na + a] = o->rate;
			ord[c].key += o->rate;
			gpus[c] += o->k;
		}
	for (c = 0; c < m; c++)
		ord[c].idx = c;
	qsort(ord, (size_t)m, sizeof *ord, by_key);
	for (i = 0; i < m; i++) {
		long p = ord[i].idx;
		for (q = 0; q < nk; q++) {
			const double *rq = r + kept[q] * na, *rp = r + p * na;
			if (e->util == SB_ALLOC_ENE && gpus[kept[q]] > gpus[p])
				continue;
			for (a = 0; a < na && rq[a] >= rp[a]; a++)
				;
			if (a == na)
				break;
		}
		if (q == nk) {
			kept[nk++] = p;
			keep[p] = 1;
		}
	}
	for (c = nk = 0; c < m; c++)
		if (keep[c])
			memmove(e->pat + nk++ * na, e->pat + c * na, (size_t)na * sizeof *e->pat);
	e->np = nk;
	sb_free(r);
	sb_free(gpus);
	sb_free(ord);
	sb_free(kept);
	sb_free(keep);
}

static void dfs(struct enumr *e, int i, int used)
{
	int c;
	if (e->overflow)
		return;
	if (i == e->na) {
		if (++e->leaves > MAX_LEAVES) {
			e->overflow = 1;
			return;
		}
		if (!maximal(e))
			return;
		if (e->np >= MAX_PATTERNS) {
			e->overflow = 1;
			return;
		}
		if ((e->np + 1) * e->na > e->npcap) {
			e->npcap = 2 * (e->np + 1) * e->na + 64;
			e->pat = sb_xrealloc(e->pat, (size_t)e->npcap * sizeof *e->pat);
		}
		memcpy(e->pat + e->np * e->na, e->pick, (size_t)e->na * sizeof *e->pick);
		e->np++;
		return;
	}
	for (c = 0; c < e->no[i]; c++) {
		const struct opt *o = &e->o[i][c];
		if (used + o->k > e->total)
			continue;
		e->pick[i] = c;
		if (o->k && o->local && !feasible(e, i + 1, -1, 0))
			continue;
		dfs(e, i + 1, used + o->k);
	}
}

/* The first kept pattern of epoch x that dominates the start's layout in
 * slot t: every job's rate at least the start's, and under ENE no more GPUs
 * in all (the order the enumeration drops patterns by, so one always
 * exists); -1 if none. */
long sb_alloc_epochs_dominating(const struct sb_alloc_epochs *ep, const struct sb_alloc_inst *in,
				int x, const struct sb_alloc_start *st, int t)
{
	double rate[MAX_ARRIVED];
	int gpus = 0, i, na = ep->na[x];
	const int *act = ep->act[x];
	long c;

	for (i = 0; i < na; i++) {
		int j = act[i], k = st->k[t * in->njob + j];
		rate[i] = k ? sb_alloc_rate(in, j, k, 0, st->on[t * in->njob + j] >= 0) : 0;
		gpus += k;
	}
	for (c = 0; c < ep->np[x]; c++) {
		const int *pk = ep->pat[x] + c * na;
		int g = 0;
		for (i = 0; i < na && ep->o[act[i]][pk[i]].rate >= rate[i]; i++)
			g += ep->o[act[i]][pk[i]].k;
		if (i == na && (in->util != SB_ALLOC_ENE || g <= gpus))
			return c;
	}
	return -1;
}

void sb_alloc_epochs_release(struct sb_alloc_epochs *ep)
{
	int j, x;
	for (j = 0; j < ep->J; j++)
		sb_free(ep->o ? ep->o[j] : NULL);
	for (x = 0; x < ep->ne; x++) {
		sb_free(ep->act[x]);
		sb_free(ep->pat[x]);
	}
	sb_free(ep->o);
	sb_free(ep->no);
	sb_free(ep->t0);
	sb_free(ep->n);
	sb_free(ep->na);
	sb_free(ep->act);
	sb_free(ep->np);
	sb_free(ep->pat);
	memset(ep, 0, sizeof *ep);
}

int sb_alloc_epochs_build(const struct sb_alloc_inst *in, struct sb_alloc_epochs *ep)
{
	int J = in->njob, S = in->nserver, T = in->nslot, j, s, t, i, rc = 0, maxcap = 0;
	int *cap = SB_NEW(int, S + 1), *act = SB_NEW(int, J + 1), *pick = SB_NEW(int, J + 1);
	int total = 0;
	struct enumr e = { 0 };
	long ncol = 0;

	memset(ep, 0, sizeof *ep);
	ep->J = J;
	ep->o = SB_NEW(struct opt *, J + 1);
	ep->no = SB_NEW(int, J + 1);
	/* at most one epoch per slot */
	ep->t0 = SB_NEW(int, T + 1);
	ep->n = SB_NEW(int, T + 1);
	ep->na = SB_NEW(int, T + 1);
	ep->act = SB_NEW(int *, T + 1);
	ep->np = SB_NEW(long, T + 1);
	ep->pat = SB_NEW(int *, T + 1);
	if (S > 64) {
		rc = SB_ALLOC_PATTERN_TOO_BIG;
		goto out;
	}
	for (s = 0; s < S; s++) {
		cap[s] = (int)floor(in->cap[s][0] + 1e-9);
		total += cap[s];
		if (cap[s] > maxcap)
			maxcap = cap[s];
	}
	/* each job's options: off, k on one server, k >= 2 spread */
	for (j = 0; j < J; j++) {
		int K = in->job[j].max_workers < total ? in->job[j].max_workers : total, k, n = 0;
		struct opt *o = ep->o[j] = SB_NEW(struct opt, 2 * K + 2);
		o[n++] = (struct opt){ 0, 1, 0 };
		for (k = 1; k <= K && k <= maxcap; k++)
			o[n++] = (struct opt){ k, 1, sb_alloc_rate(in, j, k, 0, 1) };
		for (k = 2; k <= K && S > 1; k++)
			o[n++] = (struct opt){ k, 0, sb_alloc_rate(in, j, k, 0, 0) };
		ep->no[j] = n;
	}
	e.in = in;
	e.S = S;
	e.util = in->util;
	e.cap = cap;
	e.total = total;
	e.items = SB_NEW(int, J + 1);
	for (t = 0; t < T;) {
		int na = 0, t1, x = ep->ne;
		for (j = 0; j < J; j++)
			if (in->job[j].arrival <= t)
				act[na++] = j;
		for (t1 = t + 1; t1 < T; t1++) {
			for (j = 0; j < J; j++)
				if (in->job[j].arrival == t1)
					break;
			if (j < J)
				break;
		}
		if (!na) {
			t = t1;
			continue;
		}
		if (na > MAX_ARRIVED) {
			rc = SB_ALLOC_PATTERN_TOO_BIG;
			goto out;
		}
		/* enumerate this epoch's patterns */
		{
			struct opt **eo = SB_NEW(struct opt *, na);
			int *eno = SB_NEW(int, na);
			for (i = 0; i < na; i++) {
				eo[i] = ep->o[act[i]];
				eno[i] = ep->no[act[i]];
			}
			e.o = eo;
			e.no = eno;
			e.na = na;
			e.pick = pick;
			e.leaves = 0;
			e.np = 0;
			e.npcap = 0;
			e.pat = NULL;
			dfs(&e, 0, 0);
			if (!e.overflow)
				pareto(&e);
			sb_free(eo);
			sb_free(eno);
		}
		ep->t0[x] = t;
		ep->n[x] = t1 - t;
		ep->na[x] = na;
		ep->act[x] = SB_NEW(int, na);
		memcpy(ep->act[x], act, (size_t)na * sizeof *act);
		ep->pat[x] = e.pat;
		ep->np[x] = e.np;
		ep->ne++;
		e.pat = NULL;
		if (e.overflow || ncol + ep->np[x] > MAX_PATTERNS) {
			rc = SB_ALLOC_PATTERN_TOO_BIG;
			goto out;
		}
		ncol += ep->np[x];
		t = t1;
	}
out:
	if (rc)
		sb_alloc_epochs_release(ep);
	sb_free(cap);
	sb_free(act);
	sb_free(pick);
	sb_free(e.items);
	sb_free(e.pat);
	return rc;
}

int sb_alloc_gadget_pattern(const struct sb_alloc_inst *in, int relax, long nodes,
			    const struct sb_alloc_start *st, struct sb_alloc_bound *b,
			    struct sb_err *err)
{
	struct sb_alloc_colvals cv = { 0 };
	struct sb_alloc_epochs ep;
	int lost = 0;   /* a start's slot without a dominating pattern */
	int J = in->njob, j, t, i, c, x, rc = 0;
	int *P = SB_NEW(int, J + 1);
	/* per job: every lambda column with its rate, for the P_j rows */
	int **pc = SB_NEW(int *, J + 1), *pn = SB_NEW(int, J + 1), *pcap = SB_NEW(int, J + 1);
	double **pv = SB_NEW(double *, J + 1);
	struct sb_lp *lp = sb_lp_new("gadget-pattern", 0);
	char nm[64];

	if ((rc = sb_alloc_epochs_build(in, &ep)))
		goto out;
	for (x = 0; x < ep.ne; x++) {
		int na = ep.na[x], start, base, t1 = ep.t0[x] + ep.n[x];
		const int *act = ep.act[x];
		t = ep.t0[x];
		/* columns lambda_{e,p}; row sum_p lambda <= n_e */
		start = sb_lp_ncols(lp);
		for (c = 0; c < ep.np[x]; c++) {
			const int *pk = ep.pat[x] + (long)c * na;
			int gpus = 0;
			for (i = 0; i < na; i++)
				gpus += ep.o[act[i]][pk[i]].k;
			snprintf(nm, sizeof nm, "l_%d_%d", t, c);
			base = sb_lp_add_col(lp, nm, SB_LP_INT, 0, t1 - t,
					     in->util == SB_ALLOC_ENE ? -in->eta * gpus : 0);
			for (i = 0; i < na; i++) {
				const struct opt *op = &ep.o[act[i]][pk[i]];
				int jj = act[i];
				if (!op->k)
					continue;
				if (pn[jj] == pcap[jj]) {
					pcap[jj] = pcap[jj] ? 2 * pcap[jj] : 64;
					pc[jj] = sb_xrealloc(pc[jj], (size_t)pcap[jj] * sizeof **pc);
					pv[jj] = sb_xrealloc(pv[jj], (size_t)pcap[jj] * sizeof **pv);
				}
				pc[jj][pn[jj]] = base;
				pv[jj][pn[jj]++] = -op->rate;
			}
		}
		for (i = t; st && !lost && i < t1; i++) {
			long d = sb_alloc_epochs_dominating(&ep, in, x, st, i);
			if (d < 0)
				lost = 1;
			else
				sb_alloc_colval(&cv, start + (int)d,
						(start + d < cv.n ? cv.x[start + d] : 0) + 1);
		}
		{
			int n = (int)ep.np[x], *cols = SB_NEW(int, n + 1);
			double *vals = SB_NEW(double, n + 1);
			for (c = 0; c < n; c++) {
				cols[c] = start + c;
				vals[c] = 1;
			}
			snprintf(nm, sizeof nm, "slots_%d", t);
			sb_lp_add_row(lp, nm, -SB_LP_INF, t1 - t, n, cols, vals);
			sb_free(cols);
			sb_free(vals);
		}
	}
	for (j = 0; j < J; j++) {
		snprintf(nm, sizeof nm, "P_%d", j);
		P[j] = sb_lp_add_col(lp, nm, SB_LP_CONT, 0, SB_LP_INF, 0);
		if (pn[j] == pcap[j]) {
			pcap[j] = pcap[j] + 1;
			pc[j] = sb_xrealloc(pc[j], (size_t)pcap[j] * sizeof **pc);
			pv[j] = sb_xrealloc(pv[j], (size_t)pcap[j] * sizeof **pv);
		}
		if (st && !lost) {
			double prog = 0;
			for (c = 0; c < pn[j]; c++)
				prog -= pv[j][c] * (pc[j][c] < cv.n ? cv.x[pc[j][c]] : 0);
			sb_alloc_colval(&cv, P[j], prog);
			sb_alloc_colval(&cv, sb_lp_ncols(lp), sb_alloc_bound_theta(in, j, prog));
		}
		pc[j][pn[j]] = P[j];
		pv[j][pn[j]++] = 1;
		snprintf(nm, sizeof nm, "prog_%d", j);
		sb_lp_add_row(lp, nm, 0, 0, pn[j], pc[j], pv[j]);
		c = sb_alloc_bound_utility_rows(lp, in, j, P[j]);
		SB_ASSERT(!st || lost || c == cv.n - 1);
	}
	sb_alloc_bound_limits(lp, nodes);
	rc = sb_alloc_bound_solve_from(lp, "gadget-pattern", relax, 1, st && !lost ? &cv : NULL,
				       b, err);
out:
	sb_lp_free(lp);
	sb_alloc_epochs_release(&ep);
	for (j = 0; j < J; j++) {
		sb_free(pc[j]);
		sb_free(pv[j]);
	}
	sb_free(pc);
	sb_free(pv);
	sb_free(pn);
	sb_free(pcap);
	sb_free(P);
	sb_free(cv.x);
	return rc;
}
