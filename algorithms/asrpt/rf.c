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
		double wr, sr, score;

		wl += g->w[r];
		sl += g->w[r] * (g->y[r] - mu);
		if (cnt < g->min_leaf)
			continue;
		if (m - cnt < g->min_leaf)
			break;
		if (x[r] == x[o[i + 1]])
			continue;
		/* weights are whole counts, so wr is exact and >= 1 */
		wr = wsum - wl;
		sr = ssum - sl;
		score = sl * sl / wl + sr * sr / wr;
		if (score > best->score) {
			best->score = score;
			best->feat = f;
			best->pos = i;
		}
	}
}

/* 1 if a node of m distinct rows at this depth is a leaf whatever its
 * targets. */
static int leaf_by_size(const struct grow *g, int m, int depth)
{
	return depth >= g->max_depth || m < 2 * g->min_leaf;
}

/* Grow node q.node; queues its children. */
static void grow_node(struct grow *g, struct sb_rng *rng, struct pending q)
{
	const int *o0 = g->ord + (size_t)q.key * g->n;
	int lo = q.lo, hi = q.hi, depth = q.depth;
	int id = q.node;
	struct split best = { -1, -1, -INFINITY };
	double wsum = 0, ssum = 0, mu, a, b, thr;
	int i, j, m = hi - lo, constant_y = 1, nonconst = 0, f, l, r, key;

	for (i = lo; i < hi; i++) {
		int row = o0[i];
		wsum += g->w[row];
		ssum += g->w[row] * g->y[row];
		constant_y &= g->y[row] == g->y[o0[lo]];
	}
	mu = ssum / wsum;
	g->t->node[id].value = mu;
	g->t->node[id].n = m;
	if (leaf_by_size(g, m, depth) || constant_y)
		return;

	ssum = 0;
	for (i = lo; i < hi; i++)
		ssum += g->w[o0[i]] * (g->y[o0[i]] - mu);
	/* As scikit-learn does, features constant on the node count towards
	 * mtry but the draw goes on until one non-constant feature is seen. */
	for (j = 0; j < g->p && (j < g->mtry || !nonconst); j++) {
		int k = j + (int)sb_rng_below(rng, (uint32_t)(g->p - j));
		const int *o;
		const double *x;

		f = g->feats[k];
		g->feats[k] = g->feats[j];
		g->feats[j] = f;
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
	/* a/2 + b/2 cannot overflow; rounding may land on b, and x <= thr must
	 * send exactly the rows up to best.pos left */
	thr = a / 2 + b / 2;
	if (!(thr >= a && thr < b))
		thr = a;
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

	l = new_node(g);
	r = new_node(g);
	g->t->node[id].feat = f;
	g->t->node[id].thr = thr;
	g->t->node[id].left = l;
	g->t->node[id].right = r;
	/* right first so that the left subtree is grown first */
	push(g, r, best.pos + 1, hi, depth + 1, key);
	push(g, l, lo, best.pos + 1, depth + 1, key);
}

static void grow_tree(struct grow *g, struct sb_rf_tree *t, uint64_t seed, int k,
		      int bootstrap)
{
	struct sb_rng rng = sb_rng_stream(seed, (uint64_t)k, 0, SB_RNG_POLICY);
	int n = g->n, i, j, m = 0;

	for (i = 0; i < n; i++)
		g->w[i] = bootstrap ? 0 : 1;
	if (bootstrap)
		for (i = 0; i < n; i++)
			g->w[sb_rng_below(&rng, (uint32_t)n)] += 1;
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

static double tree_predict(const struct sb_rf_tree *t, const double *x)
{
	const struct sb_rf_node *nd = t->node;

	while (nd->feat >= 0)
		nd = &t->node[x[nd->feat] <= nd->thr ? nd->left : nd->right];
	return nd->value;
}

int sb_rf_fit(struct sb_rf *rf, const double *X, const double *y, int n, int p,
	      const struct sb_rf_params *par, uint64_t seed, struct sb_err *err)
{
	struct sb_rf_params use;
	struct grow g;
	struct keyed *kv;
	double *oob_sum, sse = 0;
	int *oob_cnt, i, j, k, rc;

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

	memset(&g, 0, sizeof g);
	g.n = n;
	g.p = p;
	g.mtry = use.mtry;
	g.min_leaf = use.min_leaf;
	g.max_depth = use.max_depth;
	g.y = y;
	g.xcol = SB_NEW(double, (size_t)n * p);
	g.sorted = SB_NEW(int, (size_t)n * p);
	g.ord = SB_NEW(int, (size_t)n * p);
	g.w = SB_NEW(double, n);
	g.tmp = SB_NEW(int, n);
	g.left = SB_NEW(unsigned char, n);
	g.feats = SB_NEW(int, p);
	kv = SB_NEW(struct keyed, n);
	for (j = 0; j < p; j++) {
		double *x = g.xcol + (size_t)j * n;
		int *s = g.sorted + (size_t)j * n;
		for (i = 0; i < n; i++) {
			x[i] = X[(size_t)i * p + j];
			kv[i] = (struct keyed){ x[i], i };
		}
		qsort(kv, (size_t)n, sizeof *kv, keyed_cmp);
		for (i = 0; i < n; i++)
			s[i] = kv[i].row;
	}
	sb_free(kv);

	rf->n = n;
	rf->p = p;
	rf->par = use;
	rf->tree = SB_NEW(struct sb_rf_tree, use.ntrees);
	oob_sum = SB_NEW(double, n);
	oob_cnt = SB_NEW(int, n);
	for (k = 0; k < use.ntrees; k++) {
		grow_tree(&g, &rf->tree[k], seed, k, use.bootstrap);
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
	sb_free(g.xcol);
	sb_free(g.sorted);
	sb_free(g.ord);
	sb_free(g.w);
	sb_free(g.tmp);
	sb_free(g.left);
	sb_free(g.feats);
	sb_free(g.stack);
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
