/*
 * rf.c - random-forest regression (CART trees on bootstrap samples), an
 * OLS comparator and accuracy metrics for A-SRPT's job-length predictor.
 *
 * Luo, Liu, Lee, Shroff, "Prediction-Assisted Online Distributed Deep
 * Learning Workload Scheduling in GPU Clusters", arXiv 2501.05563, 2025.
 * [O] our design; the paper only states that a random forest is used.
 *
 * Training: every feature is sorted once, by (value, row index), for all
 * trees. A tree draws its bootstrap sample (n draws with replacement, kept
 * as a count per row), keeps the in-bag rows of each sorted order, and
 * grows depth first. A node tries mtry features drawn without replacement
 * (partial Fisher-Yates); on each it scans the rows in sorted order with
 * running sums of the centred targets and picks the split maximising
 * S_L^2/W_L + S_R^2/W_R, which is the same as minimising n_L Var_L +
 * n_R Var_R. Thresholds are midpoints of consecutive distinct values. The
 * chosen split partitions the sorted rows of every feature stably, so the
 * children are sorted without sorting again. A node is a leaf at
 * max_depth, with fewer than 2 min_leaf distinct rows, when its targets are
 * all equal, or when no split leaves min_leaf rows on each side; a leaf
 * holds the mean target. Sizes count distinct rows and sums count a row
 * once per draw, as scikit-learn does with bootstrap counts as weights.
 * Out-of-bag predictions (each tree predicts the rows its sample missed)
 * are optional: A-SRPT's retraining skips them; the trees are the same.
 *
 * Verified only against scikit-learn's accuracy (tests/rf_sklearn.py), not
 * tree by tree: the random streams differ.
 *
 * Speed variant, bins > 0 [O] (our design, issue #11 item 7; the exact
 * path above is untouched and stays the reference):
 *   - [O] bins: each feature's edges are cut once per fit from a stride
 *     sample of at most HIST_SAMPLE training values: every distinct value
 *     its own bin when there are at most `bins`, else bins of about equal
 *     counts (quantiles); an edge is the midpoint of the values either
 *     side. Every row's bin (one byte per feature) is looked up once per
 *     fit and shared by all the trees. 64 bins cost +5.6 % MAPE on one
 *     smooth regression set of test_rf.c, 128 bins +2.3 % there and +1.0 %
 *     on average over three (A-SRPT's variant uses 128).
 *   - [O] split search: a node computes its rows' weights and centred
 *     targets once, then for each feature it tries accumulates per-bin
 *     counts and sums in one pass over its rows (for the mtry features
 *     it draws first, all at once) and scans the bins its rows touch; the score is the exact forest's (S_L^2/W_L + S_R^2/W_R),
 *     min_leaf counts distinct rows as there. Candidate splits are the
 *     bin edges only; the threshold of a split is the midpoint between
 *     the node's largest value on the left and smallest on the right, as
 *     in the exact forest (a bin edge would sit next to the largest value
 *     of the whole window: measured +1-3 % MAPE at 50-400 rows).
 *   - [O] one row list per tree, partitioned stably at each split, instead
 *     of p sorted orders.
 *   - [O] sb_rf_refit regrows some of the trees on new data (A-SRPT's
 *     speed variant renews a tenth of its forest at each retraining).
 *     Fewer bootstrap draws per tree (scikit-learn's max_samples) were
 *     tried and dropped: 1,000 draws cost +6 % MAPE at 3,200 rows.
 * Same random streams per tree and the same mtry draw as the exact path.
 * Measured effect (README, "Speed of the cluster schedulers"; cl_pred
 * rows "random-forest-hist").
 *
 * Family: cluster (core/cluster/).
 */
#include "rf.h"
#include "rng.h"

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Input checks                                                        */
/* ------------------------------------------------------------------ */

static int check_data(const char *who, const double *X, const double *y,
		      int n, int p, struct sb_err *err)
{
	long i;
	int j;

	if (n < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s: field 'n': need at least one row (got %d)", who, n);
	if (p < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s: field 'p': need at least one feature (got %d)", who, p);
	SB_ASSERT(X && y);
	for (i = 0; i < n; i++) {
		for (j = 0; j < p; j++)
			if (!isfinite(X[i * p + j]))
				return sb_err_set(err, SB_EXIT_INPUT,
						  "%s: field 'X': row %ld, feature %d: "
						  "not a finite number (%g)", who, i, j,
						  X[i * p + j]);
		if (!isfinite(y[i]))
			return sb_err_set(err, SB_EXIT_INPUT,
					  "%s: field 'y': row %ld: not a finite number (%g)",
					  who, i, y[i]);
	}
	return 0;
}

/* Histogram splits [O]: most bins per feature, values that place the
 * edges. */
#define HIST_MAX 256
#define HIST_SAMPLE 1024

static int check_params(const struct sb_rf_params *par, int p, struct sb_err *err)
{
	if (par->ntrees < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'ntrees': need at least one tree (got %d)",
				  par->ntrees);
	if (par->mtry < 0 || par->mtry > p)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'mtry': %d is not in 0..%d (0 = p/3, at most "
				  "the number of features)", par->mtry, p);
	if (par->min_leaf < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'min_leaf': need at least 1 (got %d)",
				  par->min_leaf);
	if (par->max_depth < 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'max_depth': need at least 1 (got %d)",
				  par->max_depth);
	if (par->bootstrap != 0 && par->bootstrap != 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'bootstrap': must be 0 or 1 (got %d)",
				  par->bootstrap);
	if (par->oob != 0 && par->oob != 1)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'oob': must be 0 or 1 (got %d)", par->oob);
	if (par->bins != 0 && (par->bins < 2 || par->bins > HIST_MAX))
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'bins': %d is not 0 (exact) or in 2..%d",
				  par->bins, HIST_MAX);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Random forest                                                       */
/* ------------------------------------------------------------------ */

void sb_rf_params_default(struct sb_rf_params *p)
{
	p->ntrees = 100;
	p->mtry = 0;
	p->min_leaf = 5;
	p->max_depth = 16;
	p->bootstrap = 1;
	p->oob = 1;
	p->bins = 0;
}

struct keyed {
	double v;
	int row;
};

static int keyed_cmp(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->row > y->row) - (x->row < y->row);
}

/* A node waiting to be grown: its rows are positions lo..hi-1 of feature
 * key's in-bag order, and of every feature's if it may be split. */
struct pending {
	int node, lo, hi, depth, key;
};

/* Scratch of one fit, reused by every tree. */
struct grow {
	int n, p, mtry, min_leaf, max_depth;
	const double *y;
	double *xcol;          /* p x n: feature j of row i at xcol[j*n + i] */
	int *sorted;           /* p x n: all rows by (x_j, row), per feature */
	int *ord;              /* p x n: in-bag rows of the tree, same order,
				* partitioned node by node */
	double *w;             /* per row: draws in the tree's sample */
	int *tmp;              /* n: right-hand rows while partitioning */
	unsigned char *left;   /* per row: goes left at the current split */
	int *feats;            /* a permutation of 0..p-1 for drawing */
	struct pending *stack;
	size_t nstack, capstack;
	struct sb_rf_tree *t;
	size_t capnode;
	/* histogram splits only (bins > 0) */
	unsigned char *bin;    /* p x n: bin of feature j of row i */
	int *nb;               /* per feature: its bins */
	double *edge;          /* p x HIST_MAX: x <= edge[b] is bin <= b */
	int *rows;             /* in-bag rows, partitioned node by node */
	int64_t *nc;           /* per position of the current node: draws << 32
				* | 1 (weight and row count in one add) */
	double *ny;            /* and weight x centred target */
	int64_t *hc;           /* p x HIST_MAX: per slot and bin at one node,
				* the sum of nc (draws << 32 | rows), */
	double *hs;            /* and of ny (zero between uses) */
	const unsigned char **bk;  /* p: bins of the feature in each slot */
	int *fs, *bmin, *bmax; /* p: feature and bin range of each slot */
};

static int new_node(struct grow *g)
{
	struct sb_rf_tree *t = g->t;
	struct sb_rf_node *nd;

	if ((size_t)t->nnode == g->capnode) {
		g->capnode = g->capnode ? 2 * g->capnode : 64;
		t->node = sb_xrealloc(t->node, g->capnode * sizeof *t->node);
	}
	nd = &t->node[t->nnode];
	memset(nd, 0, sizeof *nd);
	nd->feat = nd->left = nd->right = -1;
	return t->nnode++;
}

static void push(struct grow *g, int node, int lo, int hi, int depth, int key)
{
	if (g->nstack == g->capstack) {
		g->capstack = g->capstack ? 2 * g->capstack : 64;
		g->stack = sb_xrealloc(g->stack, g->capstack * sizeof *g->stack);
	}
	g->stack[g->nstack++] = (struct pending){ node, lo, hi, depth, key };
}

struct split {
	int feat, pos;   /* rows lo..pos of feat's order go left */
	double score;
};

/* The split at pos of feature f (left: weight wl, centred target sum sl,
 * of the node's wsum, ssum) into *best if it scores higher. Weights are
 * whole counts, so wsum - wl is exact and >= 1. */
static void try_split(struct split *best, int f, int pos, double wl, double sl,
		      double wsum, double ssum)
{
	double wr = wsum - wl, sr = ssum - sl, score = sl * sl / wl + sr * sr / wr;

	if (score > best->score) {
		best->score = score;
		best->feat = f;
		best->pos = pos;
	}
}

/* Best split of positions lo..hi-1 on feature f, if better than *best.
 * Targets are centred on the node mean mu: the score is then a sum of
 * squares of small numbers rather than a difference of large ones. */
static void scan_feature(const struct grow *g, int f, int lo, int hi, double mu,
			 double wsum, double ssum, struct split *best)
{
	const int *o = g->ord + (size_t)f * g->n;
	const double *x = g->xcol + (size_t)f * g->n;
	double wl = 0, sl = 0;
	int i, m = hi - lo;

	for (i = lo; i < hi - 1; i++) {
		int r = o[i], cnt = i - lo + 1;

		wl += g->w[r];
		sl += g->w[r] * (g->y[r] - mu);
		if (cnt < g->min_leaf)
			continue;
		if (m - cnt < g->min_leaf)
			break;
		if (x[r] == x[o[i + 1]])
			continue;
		try_split(best, f, i, wl, sl, wsum, ssum);
	}
}

/* 1 if a node of m distinct rows at this depth is a leaf whatever its
 * targets. */
static int leaf_by_size(const struct grow *g, int m, int depth)
{
	return depth >= g->max_depth || m < 2 * g->min_leaf;
}

/* The j-th feature of the node's draw (partial Fisher-Yates, as the exact
 * path draws). */
static int draw_feat(struct grow *g, struct sb_rng *rng, int j)
{
	int k = j + (int)sb_rng_below(rng, (uint32_t)(g->p - j)), f = g->feats[k];

	g->feats[k] = g->feats[j];
	g->feats[j] = f;
	return f;
}

/* Node id over rows o[lo..hi): its weight (*wsum) and mean target (*mu,
 * its value), its size; 1 if it is a leaf whatever the split search
 * would find (by size, depth or constant targets). */
static int open_node(struct grow *g, const int *o, int lo, int hi, int depth, int id,
		     double *wsum, double *mu)
{
	double ws = 0, ss = 0;
	int i, constant_y = 1;

	for (i = lo; i < hi; i++) {
		int row = o[i];
		ws += g->w[row];
		ss += g->w[row] * g->y[row];
		constant_y &= g->y[row] == g->y[o[lo]];
	}
	*wsum = ws;
	*mu = ss / ws;
	g->t->node[id].value = *mu;
	g->t->node[id].n = hi - lo;
	return leaf_by_size(g, hi - lo, depth) || constant_y;
}

/* Node id splits on x[f] <= thr: children over positions lo..mid-1 and
 * mid..hi-1, queued (right first so that the left subtree is grown
 * first). */
static void split_node(struct grow *g, int id, int f, double thr, int lo, int mid, int hi,
		       int depth, int key)
{
	int l = new_node(g), r = new_node(g);

	g->t->node[id].feat = f;
	g->t->node[id].thr = thr;
	g->t->node[id].left = l;
	g->t->node[id].right = r;
	push(g, r, mid, hi, depth + 1, key);
	push(g, l, lo, mid, depth + 1, key);
}

/* A threshold between a < b that sends a left and b right: the midpoint
 * (a/2 + b/2 cannot overflow), or a where rounding lands on b. */
static double midpoint(double a, double b)
{
	double t = a / 2 + b / 2;

	return t >= a && t < b ? t : a;
}

/* Grow node q.node; queues its children. */
static void grow_node(struct grow *g, struct sb_rng *rng, struct pending q)
{
	const int *o0 = g->ord + (size_t)q.key * g->n;
	int lo = q.lo, hi = q.hi, depth = q.depth;
	int id = q.node;
	struct split best = { -1, -1, -INFINITY };
	double wsum, ssum, mu, a, b, thr;
	int i, j, nonconst = 0, f, key;

	if (open_node(g, o0, lo, hi, depth, id, &wsum, &mu))
		return;

	ssum = 0;
	for (i = lo; i < hi; i++)
		ssum += g->w[o0[i]] * (g->y[o0[i]] - mu);
	/* As scikit-learn does, features constant on the node count towards
	 * mtry but the draw goes on until one non-constant feature is seen. */
	for (j = 0; j < g->p && (j < g->mtry || !nonconst); j++) {
		const int *o;
		const double *x;

		f = draw_feat(g, rng, j);
		o = g->ord + (size_t)f * g->n;
		x = g->xcol + (size_t)f * g->n;
		if (x[o[lo]] == x[o[hi - 1]])
			continue;
		nonconst = 1;
		scan_feature(g, f, lo, hi, mu, wsum, ssum, &best);
	}
	if (best.feat < 0)
		return;

	f = best.feat;
	{
		const int *o = g->ord + (size_t)f * g->n;
		const double *x = g->xcol + (size_t)f * g->n;
		a = x[o[best.pos]];
		b = x[o[best.pos + 1]];
		for (i = lo; i < hi; i++)
			g->left[o[i]] = i <= best.pos;
	}
	/* x <= thr must send exactly the rows up to best.pos left */
	thr = midpoint(a, b);
	/* Children that are leaves by size only need their rows in some
	 * order, which f's order already gives: the partition, the bulk of
	 * the work, is skipped when both are. It is branch-free because the
	 * side of a row is a coin toss to the branch predictor. */
	key = f;
	if (!leaf_by_size(g, best.pos + 1 - lo, depth + 1) ||
	    !leaf_by_size(g, hi - best.pos - 1, depth + 1)) {
		key = q.key;
		for (j = 0; j < g->p; j++) {
			int *o = g->ord + (size_t)j * g->n, nl = lo, nr = 0;
			if (j == f)
				continue;
			for (i = lo; i < hi; i++) {
				int row = o[i], goes_left = g->left[row];
				o[nl] = row; /* nl <= i: never ahead of the read */
				g->tmp[nr] = row;
				nl += goes_left;
				nr += !goes_left;
			}
			SB_ASSERT(nl == best.pos + 1);
			memcpy(o + nl, g->tmp, (size_t)nr * sizeof *o);
		}
	}

	split_node(g, id, f, thr, lo, best.pos + 1, hi, depth, key);
}

/* Tree k's bootstrap counts into g->w: n draws with replacement, or
 * every row once without bootstrap. */
static void draw_sample(struct grow *g, struct sb_rng *rng, int bootstrap)
{
	int n = g->n, i;

	for (i = 0; i < n; i++)
		g->w[i] = bootstrap ? 0 : 1;
	if (bootstrap)
		for (i = 0; i < n; i++)
			g->w[sb_rng_below(rng, (uint32_t)n)] += 1;
}

static void grow_tree(struct grow *g, struct sb_rf_tree *t, uint64_t seed, int k,
		      int bootstrap)
{
	struct sb_rng rng = sb_rng_stream(seed, (uint64_t)k, 0, SB_RNG_POLICY);
	int n = g->n, i, j, m = 0;

	draw_sample(g, &rng, bootstrap);
	for (i = 0; i < n; i++)
		g->left[i] = g->w[i] > 0;   /* in the bag (left is free here) */
	/* branch-free: a row is in the bag with odds of 63%, a coin toss to
	 * the branch predictor */
	for (j = 0; j < g->p; j++) {
		const int *s = g->sorted + (size_t)j * n;
		int *o = g->ord + (size_t)j * n;
		m = 0;
		for (i = 0; i < n; i++) {
			o[m] = s[i];
			m += g->left[s[i]];
		}
	}
	/* the draw order must not depend on earlier trees */
	for (j = 0; j < g->p; j++)
		g->feats[j] = j;

	memset(t, 0, sizeof *t);
	g->t = t;
	g->capnode = 0;
	g->nstack = 0;
	push(g, new_node(g), 0, m, 0, 0);
	while (g->nstack > 0)
		grow_node(g, &rng, g->stack[--g->nstack]);
	t->node = sb_xrealloc(t->node, (size_t)t->nnode * sizeof *t->node);
}

/* ------------------------------------------------------------------ */
/* Histogram splits (the speed variant, bins > 0) [O]                  */
/* ------------------------------------------------------------------ */

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Edges of one feature, x[0..n): edge[b] is the largest value of bin b
 * (and less than every value of bin b + 1); the last is +inf. Returns the
 * number of bins, 1..nbins. s: scratch of HIST_SAMPLE doubles. */
static int cut_feature(const double *x, int n, int nbins, double *s, double *edge)
{
	int S = n < HIST_SAMPLE ? n : HIST_SAMPLE, D = 0, nb = 0, i, k;

	/* a stride sample: deterministic, spread over the window */
	for (i = 0; i < S; i++)
		s[i] = x[(long)i * n / S];
	qsort(s, (size_t)S, sizeof *s, dbl_cmp);
	for (i = 0; i < S; i++)
		D += i == 0 || s[i] != s[i - 1];
	for (i = 0; i < S; i = k) {
		for (k = i + 1; k < S && s[k] == s[i]; k++)
			;
		if (k == S)
			break;
		/* few distinct values: one bin each; else close a bin once it
		 * holds its share of the sample */
		if (D > nbins && (long)k * nbins < (long)(nb + 1) * S)
			continue;
		edge[nb++] = midpoint(s[k - 1], s[k]);
	}
	edge[nb++] = INFINITY;
	SB_ASSERT(nb <= nbins);
	return nb;
}

/* The bin of value v: the first b with v <= edge[b]. */
static int bin_of(const double *edge, int nb, double v)
{
	int lo = 0, hi = nb - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (v <= edge[mid])
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Per-bin sums over the current node's rows (positions lo..hi-1 of
 * g->rows, g->nc and g->ny filled) of the K features fs[0..K), feature
 * fs[k] in slot k (g->hc, g->hs + k HIST_MAX), in one pass over the rows;
 * the bins the rows touch are bmin[k]..bmax[k]. */
static void accumulate(struct grow *g, const int *fs, int K, int lo, int hi, int *bmin,
		       int *bmax)
{
	const int *rows = g->rows;
	int i, k;

	for (k = 0; k < K; k++) {
		g->bk[k] = g->bin + (size_t)fs[k] * g->n;
		bmin[k] = HIST_MAX;
		bmax[k] = -1;
	}
	/* draws are whole counts: the weights add up exactly as integers */
	for (i = lo; i < hi; i++) {
		int r = rows[i];
		int64_t c = g->nc[i];
		double v = g->ny[i];
		for (k = 0; k < K; k++) {
			int b = g->bk[k][r];
			g->hc[k * HIST_MAX + b] += c;
			g->hs[k * HIST_MAX + b] += v;
			bmin[k] = b < bmin[k] ? b : bmin[k];
			bmax[k] = b > bmax[k] ? b : bmax[k];
		}
	}
}

/* Best split between two bins of slot k (feature f, its rows in bins
 * bmin..bmax), if better than *best (best->pos: the last bin that goes
 * left); sets *nonconst when the rows span two bins or more. Clears the
 * slot. */
static void scan_bins(struct grow *g, int k, int f, int bmin, int bmax, int m, double wsum,
		      double ssum, struct split *best, int *nonconst)
{
	int64_t *hc = g->hc + (size_t)k * HIST_MAX, wli = 0;
	double *hs = g->hs + (size_t)k * HIST_MAX, wl, sl = 0;
	int b, cl = 0;

	if (bmin < bmax)
		*nonconst = 1;
	for (b = bmin; b < bmax; b++) {
		if (hc[b] == 0)
			continue;   /* the same partition as the last non-empty bin */
		cl += (int)(hc[b] & 0xffffffff);
		wli += hc[b] >> 32;
		sl += hs[b];
		wl = (double)wli;
		if (cl < g->min_leaf)
			continue;
		if (m - cl < g->min_leaf)
			break;
		try_split(best, f, b, wl, sl, wsum, ssum);
	}
	memset(hc + bmin, 0, (size_t)(bmax - bmin + 1) * sizeof *hc);
	memset(hs + bmin, 0, (size_t)(bmax - bmin + 1) * sizeof *hs);
}

/* grow_node on bins: the same leaf rules and feature draw. */
static void grow_node_hist(struct grow *g, struct sb_rng *rng, struct pending q)
{
	int *rows = g->rows;
	int lo = q.lo, hi = q.hi, depth = q.depth, id = q.node;
	struct split best = { -1, -1, -INFINITY };
	double wsum, ssum, mu, a, b, thr;
	int i, j, k, K, m = hi - lo, nonconst = 0, f, nl, nr;
	const unsigned char *bf;
	const double *x;

	if (open_node(g, rows, lo, hi, depth, id, &wsum, &mu))
		return;

	ssum = 0;
	for (i = lo; i < hi; i++) {
		int row = rows[i];
		g->nc[i] = ((int64_t)g->w[row] << 32) | 1;
		g->ny[i] = g->w[row] * (g->y[row] - mu);
		ssum += g->ny[i];
	}
	/* The exact path's draw: mtry features, then more one at a time
	 * until one is not constant on the node. The first mtry are drawn
	 * first and accumulated in one pass; the scan keeps the draw order,
	 * so ties go to the same feature. Features constant everywhere are
	 * skipped. */
	for (j = 0, K = 0; j < g->mtry; j++) {
		f = draw_feat(g, rng, j);
		if (g->nb[f] >= 2)
			g->fs[K++] = f;
	}
	accumulate(g, g->fs, K, lo, hi, g->bmin, g->bmax);
	for (k = 0; k < K; k++)
		scan_bins(g, k, g->fs[k], g->bmin[k], g->bmax[k], m, wsum, ssum, &best,
			  &nonconst);
	for (j = g->mtry; j < g->p && !nonconst; j++) {
		f = draw_feat(g, rng, j);
		if (g->nb[f] < 2)
			continue;
		accumulate(g, &f, 1, lo, hi, g->bmin, g->bmax);
		scan_bins(g, 0, f, g->bmin[0], g->bmax[0], m, wsum, ssum, &best, &nonconst);
	}
	if (best.feat < 0)
		return;

	/* stable partition: bins <= best.pos left; the threshold is the
	 * midpoint of the node's rows either side, as in the exact forest,
	 * not the bin edge (the edge sits next to the left bin's largest
	 * value of the whole window) */
	f = best.feat;
	bf = g->bin + (size_t)f * g->n;
	x = g->xcol + (size_t)f * g->n;
	nl = lo;
	nr = 0;
	a = -INFINITY;
	b = INFINITY;
	for (i = lo; i < hi; i++) {
		int row = rows[i], goes_left = bf[row] <= best.pos;
		double v = x[row];
		rows[nl] = row;   /* nl <= i: never ahead of the read */
		g->tmp[nr] = row;
		nl += goes_left;
		nr += !goes_left;
		a = goes_left && v > a ? v : a;
		b = !goes_left && v < b ? v : b;
	}
	memcpy(rows + nl, g->tmp, (size_t)nr * sizeof *rows);
	thr = midpoint(a, b);

	split_node(g, id, f, thr, lo, nl, hi, depth, 0);
}

/* The bins of every feature (once per fit). */
static void cut_all(struct grow *g, int nbins)
{
	double *s = SB_NEW(double, HIST_SAMPLE);
	int i, j;

	for (j = 0; j < g->p; j++) {
		const double *x = g->xcol + (size_t)j * g->n;
		double *e = g->edge + (size_t)j * HIST_MAX;
		unsigned char *b = g->bin + (size_t)j * g->n;
		g->nb[j] = cut_feature(x, g->n, nbins, s, e);
		for (i = 0; i < g->n; i++)
			b[i] = (unsigned char)bin_of(e, g->nb[j], x[i]);
	}
	sb_free(s);
}

static void grow_tree_hist(struct grow *g, struct sb_rf_tree *t, uint64_t seed, int k,
			   int bootstrap)
{
	struct sb_rng rng = sb_rng_stream(seed, (uint64_t)k, 0, SB_RNG_POLICY);
	int n = g->n, i, m = 0;

	draw_sample(g, &rng, bootstrap);
	for (i = 0; i < n; i++) {
		g->rows[m] = i;
		m += g->w[i] > 0;
	}
	for (i = 0; i < g->p; i++)
		g->feats[i] = i;

	memset(t, 0, sizeof *t);
	g->t = t;
	/* a tree has at most 2 m / min_leaf nodes: one allocation */
	g->capnode = (size_t)(2 * (m / g->min_leaf) + 1);
	t->node = SB_NEW(struct sb_rf_node, g->capnode);
	g->nstack = 0;
	push(g, new_node(g), 0, m, 0, 0);
	while (g->nstack > 0)
		grow_node_hist(g, &rng, g->stack[--g->nstack]);
	t->node = sb_xrealloc(t->node, (size_t)t->nnode * sizeof *t->node);
}

static double tree_predict(const struct sb_rf_tree *t, const double *x)
{
	const struct sb_rf_node *nd = t->node;

	while (nd->feat >= 0)
		nd = &t->node[x[nd->feat] <= nd->thr ? nd->left : nd->right];
	return nd->value;
}

/* The scratch of a fit of n rows (g->y = y), for every tree. */
static void grow_init(struct grow *g, const double *X, const double *y, int n, int p,
		      const struct sb_rf_params *use)
{
	struct keyed *kv;
	int i, j;

	memset(g, 0, sizeof *g);
	g->n = n;
	g->p = p;
	g->mtry = use->mtry;
	g->min_leaf = use->min_leaf;
	g->max_depth = use->max_depth;
	g->y = y;
	g->xcol = SB_NEW(double, (size_t)n * p);
	g->w = SB_NEW(double, n);
	g->tmp = SB_NEW(int, n);
	g->left = SB_NEW(unsigned char, n);
	g->feats = SB_NEW(int, p);
	for (j = 0; j < p; j++)
		for (i = 0; i < n; i++)
			g->xcol[(size_t)j * n + i] = X[(size_t)i * p + j];
	if (use->bins) {
		g->bin = SB_NEW(unsigned char, (size_t)n * p);
		g->nb = SB_NEW(int, p);
		g->edge = SB_NEW(double, (size_t)p * HIST_MAX);
		g->rows = SB_NEW(int, n);
		g->nc = SB_NEW(int64_t, n);
		g->ny = SB_NEW(double, n);
		g->hc = SB_NEW(int64_t, (size_t)p * HIST_MAX);
		g->hs = SB_NEW(double, (size_t)p * HIST_MAX);
		g->bk = SB_NEW(const unsigned char *, p);
		g->fs = SB_NEW(int, p);
		g->bmin = SB_NEW(int, p);
		g->bmax = SB_NEW(int, p);
		cut_all(g, use->bins);
		return;
	}
	g->sorted = SB_NEW(int, (size_t)n * p);
	g->ord = SB_NEW(int, (size_t)n * p);
	kv = SB_NEW(struct keyed, n);
	for (j = 0; j < p; j++) {
		const double *x = g->xcol + (size_t)j * n;
		int *srt = g->sorted + (size_t)j * n;
		for (i = 0; i < n; i++)
			kv[i] = (struct keyed){ x[i], i };
		qsort(kv, (size_t)n, sizeof *kv, keyed_cmp);
		for (i = 0; i < n; i++)
			srt[i] = kv[i].row;
	}
	sb_free(kv);
}

static void grow_release(struct grow *g)
{
	sb_free(g->xcol);
	sb_free(g->sorted);
	sb_free(g->ord);
	sb_free(g->w);
	sb_free(g->tmp);
	sb_free(g->left);
	sb_free(g->feats);
	sb_free(g->stack);
	sb_free(g->bin);
	sb_free(g->nb);
	sb_free(g->edge);
	sb_free(g->rows);
	sb_free(g->nc);
	sb_free(g->ny);
	sb_free(g->hc);
	sb_free(g->hs);
	sb_free((void *)g->bk);
	sb_free(g->fs);
	sb_free(g->bmin);
	sb_free(g->bmax);
}

/* Tree k of the forest with parameters par, grown into t. */
static void grow_one(struct grow *g, const struct sb_rf_params *par, struct sb_rf_tree *t,
		     uint64_t seed, int k)
{
	if (par->bins)
		grow_tree_hist(g, t, seed, k, par->bootstrap);
	else
		grow_tree(g, t, seed, k, par->bootstrap);
}

int sb_rf_fit(struct sb_rf *rf, const double *X, const double *y, int n, int p,
	      const struct sb_rf_params *par, uint64_t seed, struct sb_err *err)
{
	struct sb_rf_params use;
	struct grow g;
	double *oob_sum, sse = 0;
	int *oob_cnt, i, k, rc;

	memset(rf, 0, sizeof *rf);
	rf->oob_mse = NAN;
	if (par)
		use = *par;
	else
		sb_rf_params_default(&use);
	if ((rc = check_data("rf", X, y, n, p, err)) || (rc = check_params(&use, p, err)))
		return rc;
	if (use.mtry == 0)
		use.mtry = p / 3 > 1 ? p / 3 : 1;

	grow_init(&g, X, y, n, p, &use);
	rf->n = n;
	rf->p = p;
	rf->par = use;
	rf->tree = SB_NEW(struct sb_rf_tree, use.ntrees);
	oob_sum = SB_NEW(double, n);
	oob_cnt = SB_NEW(int, n);
	for (k = 0; k < use.ntrees; k++) {
		grow_one(&g, &use, &rf->tree[k], seed, k);
		for (i = 0; i < n && use.oob; i++)
			if (g.w[i] == 0) {
				oob_sum[i] += tree_predict(&rf->tree[k], X + (size_t)i * p);
				oob_cnt[i]++;
			}
	}

	/* without oob, oob_pred stays NULL and oob_mse NAN */
	rf->oob_pred = use.oob ? SB_NEW(double, n) : NULL;
	for (i = 0; i < n && use.oob; i++) {
		if (oob_cnt[i] == 0) {
			rf->oob_pred[i] = NAN;
			continue;
		}
		rf->oob_pred[i] = oob_sum[i] / oob_cnt[i];
		sse += (y[i] - rf->oob_pred[i]) * (y[i] - rf->oob_pred[i]);
		rf->oob_rows++;
	}
	rf->oob_mse = rf->oob_rows ? sse / rf->oob_rows : NAN;

	sb_free(oob_sum);
	sb_free(oob_cnt);
	grow_release(&g);
	return 0;
}

int sb_rf_refit(struct sb_rf *rf, const double *X, const double *y, int n, int p,
		int first, int count, uint64_t seed, struct sb_err *err)
{
	struct grow g;
	int i, rc;

	SB_ASSERT(rf->tree);
	if ((rc = check_data("rf", X, y, n, p, err)))
		return rc;
	if (p != rf->p)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'p': %d features, the forest has %d", p, rf->p);
	if (first < 0 || first >= rf->par.ntrees)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'first': %d is not in 0..%d", first,
				  rf->par.ntrees - 1);
	if (count < 1 || count > rf->par.ntrees)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "rf: field 'count': %d is not in 1..%d", count, rf->par.ntrees);
	grow_init(&g, X, y, n, p, &rf->par);
	for (i = 0; i < count; i++) {
		int k = (first + i) % rf->par.ntrees;
		sb_free(rf->tree[k].node);
		grow_one(&g, &rf->par, &rf->tree[k], seed, k);
	}
	grow_release(&g);
	rf->n = n;
	sb_free(rf->oob_pred);
	rf->oob_pred = NULL;
	rf->oob_rows = 0;
	rf->oob_mse = NAN;
	return 0;
}

double sb_rf_predict_tree(const struct sb_rf *rf, int k, const double *x)
{
	SB_ASSERT(k >= 0 && k < rf->par.ntrees);
	return tree_predict(&rf->tree[k], x);
}

double sb_rf_predict(const struct sb_rf *rf, const double *x)
{
	double s = 0;
	int k;

	SB_ASSERT(rf->tree);
	for (k = 0; k < rf->par.ntrees; k++)
		s += tree_predict(&rf->tree[k], x);
	return s / rf->par.ntrees;
}

double sb_rf_oob_mse(const struct sb_rf *rf)
{
	return rf->oob_mse;
}

void sb_rf_release(struct sb_rf *rf)
{
	int k;

	if (rf->tree)
		for (k = 0; k < rf->par.ntrees; k++)
			sb_free(rf->tree[k].node);
	sb_free(rf->tree);
	sb_free(rf->oob_pred);
	memset(rf, 0, sizeof *rf);
	rf->oob_mse = NAN;
}

/* ------------------------------------------------------------------ */
/* Ordinary least squares                                              */
/* ------------------------------------------------------------------ */

/* Singular values of the Gram matrix below this share of the largest are
 * taken as zero. The Gram matrix squares the condition number, so this
 * treats standardised features with condition number above ~1e6 as
 * collinear; exact collinearity shows up near 1e-16. */
#define OLS_RTOL 1e-12

int sb_ols_fit(struct sb_ols *m, const double *X, const double *y, int n, int p,
	       struct sb_err *err)
{
	double *mx, *sx, *G, *V, *S, *work, *b, *gam, *z, my = 0;
	int *col, q = 0, i, j, k, rc;
	gsl_matrix_view Gv, Vv;
	gsl_vector_view Sv, Wv;

	memset(m, 0, sizeof *m);
	if ((rc = check_data("ols", X, y, n, p, err)))
		return rc;
	m->p = p;
	m->beta = SB_NEW(double, p + 1);

	/* Centring and scaling keep the normal equations well conditioned;
	 * constant features get coefficient 0 and are left out. */
	mx = SB_NEW(double, p);
	sx = SB_NEW(double, p);
	col = SB_NEW(int, p);
	for (i = 0; i < n; i++)
		my += y[i];
	my /= n;
	for (j = 0; j < p; j++) {
		double s = 0, ss = 0;
		for (i = 0; i < n; i++)
			s += X[(size_t)i * p + j];
		mx[j] = s / n;
		for (i = 0; i < n; i++) {
			double d = X[(size_t)i * p + j] - mx[j];
			ss += d * d;
		}
		sx[j] = sqrt(ss);
		if (sx[j] > 0)
			col[q++] = j;
	}

	if (q > 0) {
		G = SB_NEW(double, (size_t)q * q);
		V = SB_NEW(double, (size_t)q * q);
		S = SB_NEW(double, q);
		work = SB_NEW(double, q);
		b = SB_NEW(double, q);
		gam = SB_NEW(double, q);
		z = SB_NEW(double, q);
		for (i = 0; i < n; i++) {
			const double *x = X + (size_t)i * p;
			for (j = 0; j < q; j++)
				z[j] = (x[col[j]] - mx[col[j]]) / sx[col[j]];
			for (j = 0; j < q; j++) {
				b[j] += z[j] * (y[i] - my);
				for (k = 0; k <= j; k++)
					G[(size_t)j * q + k] += z[j] * z[k];
			}
		}
		for (j = 0; j < q; j++)
			for (k = 0; k < j; k++)
				G[(size_t)k * q + j] = G[(size_t)j * q + k];
		/* our buffers under GSL views: no allocation outside sb_x* */
		Gv = gsl_matrix_view_array(G, (size_t)q, (size_t)q);
		Vv = gsl_matrix_view_array(V, (size_t)q, (size_t)q);
		Sv = gsl_vector_view_array(S, (size_t)q);
		Wv = gsl_vector_view_array(work, (size_t)q);
		gsl_linalg_SV_decomp(&Gv.matrix, &Vv.matrix, &Sv.vector, &Wv.vector);
		/* G now holds U; gam = V diag(1/S) U^T b over the kept values */
		for (k = 0; k < q; k++) {
			double c = 0;
			if (!(S[k] > OLS_RTOL * S[0]))
				continue;
			m->rank++;
			for (i = 0; i < q; i++)
				c += G[(size_t)i * q + k] * b[i];
			c /= S[k];
			for (j = 0; j < q; j++)
				gam[j] += V[(size_t)j * q + k] * c;
		}
		for (j = 0; j < q; j++)
			m->beta[1 + col[j]] = gam[j] / sx[col[j]];
		sb_free(G);
		sb_free(V);
		sb_free(S);
		sb_free(work);
		sb_free(b);
		sb_free(gam);
		sb_free(z);
	}
	m->beta[0] = my;
	for (j = 0; j < p; j++)
		m->beta[0] -= m->beta[1 + j] * mx[j];
	sb_free(mx);
	sb_free(sx);
	sb_free(col);
	return 0;
}

double sb_ols_predict(const struct sb_ols *m, const double *x)
{
	double s;
	int j;

	SB_ASSERT(m->beta);
	s = m->beta[0];
	for (j = 0; j < m->p; j++)
		s += m->beta[1 + j] * x[j];
	return s;
}

void sb_ols_release(struct sb_ols *m)
{
	sb_free(m->beta);
	memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------------------ */
/* Accuracy metrics                                                    */
/* ------------------------------------------------------------------ */

double sb_pred_r2(const double *y, const double *yhat, int n)
{
	double mean = 0, sse = 0, sst = 0;
	int i;

	if (n < 1)
		return NAN;
	for (i = 0; i < n; i++)
		mean += y[i];
	mean /= n;
	for (i = 0; i < n; i++) {
		sse += (y[i] - yhat[i]) * (y[i] - yhat[i]);
		sst += (y[i] - mean) * (y[i] - mean);
	}
	return sst > 0 ? 1 - sse / sst : NAN;
}

/* |yhat - y| / |y| per row into ape[]; 0, or -1 if some y is 0. */
static int ape_of(const double *y, const double *yhat, int n, double *ape)
{
	int i;

	for (i = 0; i < n; i++) {
		if (y[i] == 0)
			return -1;
		ape[i] = fabs(yhat[i] - y[i]) / fabs(y[i]);
	}
	return 0;
}

double sb_pred_mape(const double *y, const double *yhat, int n)
{
	double s = 0;
	int i;

	if (n < 1)
		return NAN;
	for (i = 0; i < n; i++) {
		if (y[i] == 0)
			return NAN;
		s += fabs(yhat[i] - y[i]) / fabs(y[i]);
	}
	return s / n;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double sb_pred_mdape(const double *y, const double *yhat, int n)
{
	double *ape, med = NAN;

	if (n < 1)
		return NAN;
	ape = SB_NEW(double, n);
	if (ape_of(y, yhat, n, ape) == 0) {
		qsort(ape, (size_t)n, sizeof *ape, double_cmp);
		med = n % 2 ? ape[n / 2] : (ape[n / 2 - 1] + ape[n / 2]) / 2;
	}
	sb_free(ape);
	return med;
}

double sb_pred_within(const double *y, const double *yhat, int n, double tol)
{
	int i, in = 0;

	if (n < 1)
		return NAN;
	for (i = 0; i < n; i++)
		in += fabs(yhat[i] - y[i]) <= tol * fabs(y[i]);
	return (double)in / n;
}
