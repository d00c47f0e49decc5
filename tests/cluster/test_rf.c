/*
 * test_rf.c - the random-forest predictor of A-SRPT (algorithms/asrpt/rf.c):
 * exact recovery of a piecewise-constant function by one full tree, a
 * forest against the global mean and its out-of-bag error against held-out
 * data, determinism, OLS on exact linear data, bad input, and the accuracy
 * metrics on hand-computed examples. Data come from SB_RNG_TEST streams.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "algorithms/asrpt/rf.h"
#include "rng.h"
#include "sb.h"

/* y = ln(x1) + 0.5 x2 + N(0, sigma), x1 ~ U[1, 100], x2 ~ U[1, 10], and
 * `extra` features of pure noise U[0, 1] after them. */
static void log_linear(uint64_t seed, int n, int extra, double sigma, double *X,
		       double *y)
{
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);
	int p = 2 + extra, i, j;

	for (i = 0; i < n; i++) {
		double *x = X + (size_t)i * p;
		x[0] = 1 + 99 * sb_rng_uniform(&r);
		x[1] = 1 + 9 * sb_rng_uniform(&r);
		for (j = 2; j < p; j++)
			x[j] = sb_rng_uniform(&r);
		y[i] = log(x[0]) + 0.5 * x[1] + sb_rng_normal(&r, 0, sigma);
	}
}

static double mse_of(const struct sb_rf *rf, const double *X, const double *y,
		     int n, int p)
{
	double s = 0;
	int i;

	for (i = 0; i < n; i++) {
		double d = sb_rf_predict(rf, X + (size_t)i * p) - y[i];
		s += d * d;
	}
	return s / n;
}

/* ------------------------------------------------------------------ */

/* Axis-aligned steps at integers; the training grid sits at half-integers,
 * so every split lies on a step and its threshold is the integer itself. */
static double steps(double x1, double x2)
{
	if (x1 < 3)
		return 1;
	if (x2 < 6)
		return x1 < 8 ? 2 : -1.5;
	return x1 < 7 ? 4 : 5;
}

Test(rf, one_full_tree_recovers_piecewise_constant)
{
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
	double X[200 * 3], y[200];
	int i, n = 0, leaves = 0;

	for (i = 0; i < 100; i++, n++) {
		X[3 * n] = i % 10 + 0.5;
		X[3 * n + 1] = i / 10 + 0.5;
		X[3 * n + 2] = sb_rng_uniform(&r); /* irrelevant */
		y[n] = steps(X[3 * n], X[3 * n + 1]);
	}
	sb_rf_params_default(&par);
	par.ntrees = 1;
	par.bootstrap = 0;
	par.mtry = 3;
	par.min_leaf = 1;
	cr_assert_eq(sb_rf_fit(&rf, X, y, n, 3, &par, 7, &err), 0, "%s", err.msg);
	for (i = 0; i < n; i++)
		cr_assert_eq(sb_rf_predict(&rf, X + 3 * i), y[i], "row %d", i);
	for (i = 0; i < 2000; i++) {
		double x[3] = { 10 * sb_rng_uniform(&r), 10 * sb_rng_uniform(&r),
				sb_rng_uniform(&r) };
		if (x[0] == floor(x[0]) || x[1] == floor(x[1]))
			continue;
		cr_assert_eq(sb_rf_predict(&rf, x), steps(x[0], x[1]),
			     "x = (%g, %g)", x[0], x[1]);
	}
	for (i = 0; i < rf.tree[0].nnode; i++) {
		const struct sb_rf_node *nd = &rf.tree[0].node[i];
		if (nd->feat < 0) {
			leaves++;
			continue;
		}
		cr_assert_neq(nd->feat, 2, "split on the irrelevant feature");
		cr_assert_eq(nd->thr, floor(nd->thr), "threshold %g", nd->thr);
	}
	/* leaves are pure unions of the 4 x 2 cells cut by the steps */
	cr_assert_leq(leaves, 8);
	cr_assert(isnan(sb_rf_oob_mse(&rf)), "no bootstrap, no out-of-bag rows");
	sb_rf_release(&rf);
}

Test(rf, forest_beats_global_mean)
{
	enum { N = 1000, P = 4 };
	static double X[N * P], y[N], Xt[N * P], yt[N];
	struct sb_rf rf;
	struct sb_err err;
	double mean = 0, base = 0, mse;
	int i;

	log_linear(2, N, 2, 0.3, X, y);
	log_linear(3, N, 2, 0.3, Xt, yt);
	cr_assert_eq(sb_rf_fit(&rf, X, y, N, P, NULL, 11, &err), 0, "%s", err.msg);
	for (i = 0; i < N; i++)
		mean += y[i] / N;
	for (i = 0; i < N; i++)
		base += (yt[i] - mean) * (yt[i] - mean) / N;
	mse = mse_of(&rf, Xt, yt, N, P);
	/* with mtry = 1 of 4 (two pure-noise features) scikit-learn gets
	 * about 0.11 base on such data */
	cr_assert_lt(mse, 0.15 * base, "forest %g, mean %g", mse, base);
	sb_rf_release(&rf);
}

Test(rf, deterministic_per_seed_and_per_tree)
{
	enum { N = 400, P = 5 };
	static double X[N * P], y[N], Xt[N * P], yt[N];
	struct sb_rf_params par;
	struct sb_rf a, b, c, small;
	struct sb_err err;
	int i, k, differ = 0;

	log_linear(4, N, 3, 0.3, X, y);
	log_linear(5, N, 3, 0.3, Xt, yt);
	/* integer-valued copies of one feature: many ties in its sort */
	for (i = 0; i < N; i++)
		X[i * P + 4] = floor(4 * X[i * P + 4]);
	sb_rf_params_default(&par);
	par.ntrees = 20;
	cr_assert_eq(sb_rf_fit(&a, X, y, N, P, &par, 99, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_rf_fit(&b, X, y, N, P, &par, 99, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_rf_fit(&c, X, y, N, P, &par, 100, &err), 0, "%s", err.msg);
	par.ntrees = 7;
	cr_assert_eq(sb_rf_fit(&small, X, y, N, P, &par, 99, &err), 0, "%s", err.msg);
	for (i = 0; i < N; i++) {
		const double *x = Xt + i * P;
		double pa = sb_rf_predict(&a, x), pb = sb_rf_predict(&b, x);
		cr_assert_eq(memcmp(&pa, &pb, sizeof pa), 0, "row %d: %a vs %a", i, pa, pb);
		differ += pa != sb_rf_predict(&c, x);
		for (k = 0; k < 7; k++)
			cr_assert_eq(sb_rf_predict_tree(&a, k, x),
				     sb_rf_predict_tree(&small, k, x), "tree %d", k);
	}
	cr_assert_gt(differ, N / 2, "another seed changes only %d predictions", differ);
	cr_assert_eq(memcmp(&a.oob_mse, &b.oob_mse, sizeof a.oob_mse), 0);
	for (k = 0; k < 20; k++) {
		cr_assert_eq(a.tree[k].nnode, b.tree[k].nnode);
		cr_assert_eq(memcmp(a.tree[k].node, b.tree[k].node,
				    (size_t)a.tree[k].nnode * sizeof *a.tree[k].node), 0,
			     "tree %d", k);
	}
	/* without out-of-bag predictions: the same trees, none of those */
	par.ntrees = 20;
	par.oob = 0;
	sb_rf_release(&c);
	cr_assert_eq(sb_rf_fit(&c, X, y, N, P, &par, 99, &err), 0, "%s", err.msg);
	cr_assert_null(c.oob_pred);
	cr_assert(isnan(sb_rf_oob_mse(&c)) && c.oob_rows == 0);
	for (k = 0; k < 20; k++) {
		cr_assert_eq(a.tree[k].nnode, c.tree[k].nnode);
		cr_assert_eq(memcmp(a.tree[k].node, c.tree[k].node,
				    (size_t)a.tree[k].nnode * sizeof *a.tree[k].node), 0,
			     "oob = 0: tree %d", k);
	}
	sb_rf_release(&a);
	sb_rf_release(&b);
	sb_rf_release(&c);
	sb_rf_release(&small);
}

Test(rf, leaves_respect_min_leaf_and_depth)
{
	enum { N = 500, P = 3 };
	static double X[N * P], y[N];
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_err err;
	int k, i;

	log_linear(6, N, 1, 0.3, X, y);
	sb_rf_params_default(&par);
	par.ntrees = 10;
	par.min_leaf = 7;
	par.max_depth = 4;
	cr_assert_eq(sb_rf_fit(&rf, X, y, N, P, &par, 1, &err), 0, "%s", err.msg);
	for (k = 0; k < 10; k++) {
		const struct sb_rf_tree *t = &rf.tree[k];
		int depth[64] = { 0 };
		cr_assert_leq(t->nnode, 63, "depth 4 has at most 31 nodes");
		for (i = 0; i < t->nnode; i++) {
			const struct sb_rf_node *nd = &t->node[i];
			cr_assert_geq(nd->n, 7, "tree %d node %d has %d rows", k, i, nd->n);
			if (nd->feat < 0)
				continue;
			cr_assert_eq(t->node[nd->left].n + t->node[nd->right].n, nd->n);
			depth[nd->left] = depth[nd->right] = depth[i] + 1;
			cr_assert_leq(depth[nd->left], 4);
		}
	}
	sb_rf_release(&rf);
}

Test(rf, oob_error_close_to_test_error)
{
	enum { N = 4000, P = 4 };
	static double X[N * P], y[N], Xt[N * P], yt[N];
	struct sb_rf rf;
	struct sb_err err;
	double oob, mse;

	log_linear(7, N, 2, 0.3, X, y);
	log_linear(8, N, 2, 0.3, Xt, yt);
	cr_assert_eq(sb_rf_fit(&rf, X, y, N, P, NULL, 3, &err), 0, "%s", err.msg);
	oob = sb_rf_oob_mse(&rf);
	mse = mse_of(&rf, Xt, yt, N, P);
	cr_assert(isfinite(oob));
	cr_assert_eq(rf.oob_rows, N, "100 trees leave every row out somewhere");
	cr_assert_lt(fabs(oob - mse), 0.15 * mse, "oob %g, test %g", oob, mse);
	sb_rf_release(&rf);
}

/* ------------------------------------------------------------------ */

Test(rf, ols_recovers_linear_coefficients)
{
	enum { N = 50, P = 4 };
	double X[N * P], y[N], x[P];
	struct sb_rng r = sb_rng_stream(9, 0, 0, SB_RNG_TEST);
	struct sb_ols m;
	struct sb_err err;
	const double beta[P + 1] = { 1.5, 2, -3, 0.25, 0 };
	int i, j;

	for (i = 0; i < N; i++) {
		y[i] = beta[0];
		for (j = 0; j < P; j++) {
			X[i * P + j] = j == 3 ? 7 : 100 * sb_rng_uniform(&r) - 20;
			y[i] += beta[1 + j] * X[i * P + j];
		}
	}
	cr_assert_eq(sb_ols_fit(&m, X, y, N, P, &err), 0, "%s", err.msg);
	cr_assert_eq(m.rank, 3, "the constant feature is left out");
	for (j = 0; j <= P; j++)
		cr_assert_float_eq(m.beta[j], beta[j], 1e-9, "beta[%d] = %.17g", j, m.beta[j]);
	for (j = 0; j < P; j++)
		x[j] = j + 0.5;
	cr_assert_float_eq(sb_ols_predict(&m, x), 1.5 + 1 - 4.5 + 0.625, 1e-9);
	sb_ols_release(&m);
}

Test(rf, ols_rank_deficient_still_fits)
{
	enum { N = 30, P = 3 };
	double X[N * P], y[N];
	struct sb_rng r = sb_rng_stream(10, 0, 0, SB_RNG_TEST);
	struct sb_ols m;
	struct sb_err err;
	int i;

	for (i = 0; i < N; i++) {
		X[i * P] = sb_rng_uniform(&r);
		X[i * P + 1] = 2 * X[i * P]; /* collinear */
		X[i * P + 2] = sb_rng_uniform(&r);
		y[i] = 1 + 5 * X[i * P] + 3 * X[i * P + 2];
	}
	cr_assert_eq(sb_ols_fit(&m, X, y, N, P, &err), 0, "%s", err.msg);
	cr_assert_eq(m.rank, 2);
	for (i = 0; i < N; i++)
		cr_assert_float_eq(sb_ols_predict(&m, X + i * P), y[i], 1e-9);
	/* minimum norm in standardised units, where the two columns are one:
	 * equal weights there, so b1 x1 + b2 (2 x1) = 5 x1 with b1 = 2 b2 */
	cr_assert_float_eq(m.beta[1], 2.5, 1e-9);
	cr_assert_float_eq(m.beta[2], 1.25, 1e-9);
	sb_ols_release(&m);

	/* fewer rows than features */
	cr_assert_eq(sb_ols_fit(&m, X, y, 2, P, &err), 0, "%s", err.msg);
	for (i = 0; i < 2; i++)
		cr_assert_float_eq(sb_ols_predict(&m, X + i * P), y[i], 1e-9);
	sb_ols_release(&m);
}

/* ------------------------------------------------------------------ */

static void expect_bad(int rc, const struct sb_err *err, const char *field)
{
	cr_assert_eq(rc, SB_EXIT_INPUT, "field %s: rc %d", field, rc);
	cr_assert(strstr(err->msg, field), "'%s' not named in: %s", field, err->msg);
}

Test(rf, bad_input_names_the_field)
{
	double X[6] = { 1, 2, 3, 4, 5, 6 }, y[3] = { 1, 2, 3 };
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_ols m;
	struct sb_err err;

	sb_rf_params_default(&par);
	expect_bad(sb_rf_fit(&rf, X, y, 0, 2, &par, 1, &err), &err, "'n'");
	sb_rf_release(&rf);
	expect_bad(sb_rf_fit(&rf, X, y, 3, 0, &par, 1, &err), &err, "'p'");
	X[3] = NAN;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'X'");
	cr_assert(strstr(err.msg, "row 1, feature 1"), "%s", err.msg);
	expect_bad(sb_ols_fit(&m, X, y, 3, 2, &err), &err, "'X'");
	sb_ols_release(&m);
	X[3] = 4;
	y[2] = INFINITY;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'y'");
	y[2] = 3;
	par.mtry = 3;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'mtry'");
	par.mtry = 0;
	par.ntrees = 0;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'ntrees'");
	par.ntrees = 1;
	par.min_leaf = 0;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'min_leaf'");
	par.min_leaf = 1;
	par.max_depth = 0;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'max_depth'");
	par.max_depth = 3;
	par.bootstrap = 2;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'bootstrap'");
	par.bootstrap = 1;
	par.oob = -1;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'oob'");
	cr_assert_null(rf.tree);
	sb_rf_release(&rf);
	expect_bad(sb_ols_fit(&m, X, y, 0, 2, &err), &err, "'n'");
	sb_ols_release(&m);
}

Test(rf, tiny_inputs)
{
	double X[2] = { 1, 2 }, y[2] = { 3, 5 }, x = 10;
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_err err;

	cr_assert_eq(sb_rf_fit(&rf, X, y, 1, 1, NULL, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(rf.par.mtry, 1);
	cr_assert_eq(sb_rf_predict(&rf, &x), 3);
	cr_assert(isnan(sb_rf_oob_mse(&rf)), "one row is in every sample");
	sb_rf_release(&rf);
	sb_rf_params_default(&par);
	par.bootstrap = 0;
	par.min_leaf = 1;
	par.ntrees = 3;
	cr_assert_eq(sb_rf_fit(&rf, X, y, 2, 1, &par, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_rf_predict(&rf, &X[0]), 3);
	cr_assert_eq(sb_rf_predict(&rf, &X[1]), 5);
	cr_assert_eq(rf.tree[0].node[0].thr, 1.5);
	sb_rf_release(&rf);
}

/* ------------------------------------------------------------------ */

Test(rf, metrics_by_hand)
{
	const double y[4] = { 1, 2, 3, 4 }, yh[4] = { 1.5, 2, 2, 5 };
	const double y0[2] = { 0, 1 }, c[3] = { 2, 2, 2 };

	/* SSE 2.25, SST 5 */
	cr_assert_float_eq(sb_pred_r2(y, yh, 4), 0.55, 1e-15);
	cr_assert_eq(sb_pred_r2(y, y, 4), 1);
	/* APE 0.5, 0, 1/3, 0.25 */
	cr_assert_float_eq(sb_pred_mape(y, yh, 4), (0.5 + 1 / 3.0 + 0.25) / 4, 1e-15);
	cr_assert_float_eq(sb_pred_mdape(y, yh, 4), (0.25 + 1 / 3.0) / 2, 1e-15);
	cr_assert_float_eq(sb_pred_mdape(y, yh, 3), 1 / 3.0, 1e-15);
	/* 0.25 exactly is within +-25 % */
	cr_assert_eq(sb_pred_within(y, yh, 4, 0.25), 0.5);
	cr_assert_eq(sb_pred_within(y, yh, 4, 0.1), 0.25);
	cr_assert(isnan(sb_pred_r2(c, y, 3)), "SST = 0");
	cr_assert(isnan(sb_pred_mape(y0, y, 2)), "y = 0");
	cr_assert(isnan(sb_pred_mdape(y0, y, 2)), "y = 0");
	cr_assert(isnan(sb_pred_r2(y, yh, 0)));
	cr_assert(isnan(sb_pred_within(y, yh, 0, 0.25)));
}

/* ------------------------------------------------------------------ */
/* The histogram speed variant (bins > 0) and renewal (sb_rf_refit)     */
/* ------------------------------------------------------------------ */

static void expect_same_trees(const struct sb_rf *a, int ka, const struct sb_rf *b, int kb)
{
	cr_assert_eq(a->tree[ka].nnode, b->tree[kb].nnode, "trees %d, %d", ka, kb);
	cr_assert_eq(memcmp(a->tree[ka].node, b->tree[kb].node,
			    (size_t)a->tree[ka].nnode * sizeof *a->tree[ka].node), 0,
		     "trees %d, %d differ", ka, kb);
}

/* With at most `bins` distinct values per feature every value has its own
 * bin: the piecewise-constant function is recovered as by the exact tree. */
Test(rf, hist_tree_recovers_piecewise_constant)
{
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_err err;
	double X[100 * 2], y[100];
	int i;

	for (i = 0; i < 100; i++) {
		X[2 * i] = i % 10 + 0.5;
		X[2 * i + 1] = i / 10 + 0.5;
		y[i] = steps(X[2 * i], X[2 * i + 1]);
	}
	sb_rf_params_default(&par);
	par.ntrees = 1;
	par.bootstrap = 0;
	par.mtry = 2;
	par.min_leaf = 1;
	par.bins = 16;
	cr_assert_eq(sb_rf_fit(&rf, X, y, 100, 2, &par, 7, &err), 0, "%s", err.msg);
	for (i = 0; i < 100; i++)
		cr_assert_eq(sb_rf_predict(&rf, X + 2 * i), y[i], "row %d", i);
	for (i = 0; i < rf.tree[0].nnode; i++)
		if (rf.tree[0].node[i].feat >= 0)
			cr_assert_eq(rf.tree[0].node[i].thr, floor(rf.tree[0].node[i].thr),
				     "threshold %g is not a step", rf.tree[0].node[i].thr);
	sb_rf_release(&rf);
}

/* Same seed, same forest bit for bit; another seed, another forest. */
Test(rf, hist_deterministic_per_seed)
{
	enum { N = 1500, P = 6 };
	static double X[N * P], y[N];
	struct sb_rf_params par;
	struct sb_rf a, b, c;
	struct sb_err err;
	int k, differ = 0;

	log_linear(21, N, 4, 0.3, X, y);
	sb_rf_params_default(&par);
	par.ntrees = 15;
	par.bins = 64;
	cr_assert_eq(sb_rf_fit(&a, X, y, N, P, &par, 5, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_rf_fit(&b, X, y, N, P, &par, 5, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_rf_fit(&c, X, y, N, P, &par, 6, &err), 0, "%s", err.msg);
	for (k = 0; k < 15; k++) {
		expect_same_trees(&a, k, &b, k);
		differ += a.tree[k].nnode != c.tree[k].nnode ||
			  memcmp(a.tree[k].node, c.tree[k].node,
				 (size_t)a.tree[k].nnode * sizeof *a.tree[k].node) != 0;
	}
	cr_assert_gt(differ, 10, "another seed changes only %d of 15 trees", differ);
	sb_rf_release(&a);
	sb_rf_release(&b);
	sb_rf_release(&c);
}

/* Quality bound of the speed variant (issue #11 item 7): on held-out rows
 * of seeded regression sets with continuous features (more distinct
 * values than bins), the 128-bin forest's MAPE is within 2 % (relative)
 * of the exact forest's on the same data and seed, on average over three
 * data sets (one set alone varies by about +-2 %: measured +2.3, +0.5,
 * +0.2 %; 64 bins gave +5.6, +1.1, +2.0 %, which this test rejects). */
Test(rf, hist_within_two_percent_of_exact)
{
	enum { N = 3000, P = 6 };
	static double X[N * P], y[N], Xt[N * P], yt[N], pe[N], ph[N];
	struct sb_rf_params par;
	struct sb_rf e, h;
	struct sb_err err;
	double rel = 0;
	int s, i;

	for (s = 0; s < 3; s++) {
		double me, mh;
		log_linear(30 + s, N, 4, 0.3, X, y);
		log_linear(40 + s, N, 4, 0.3, Xt, yt);
		sb_rf_params_default(&par);
		par.ntrees = 50;
		par.oob = 0;
		cr_assert_eq(sb_rf_fit(&e, X, y, N, P, &par, 9, &err), 0, "%s", err.msg);
		par.bins = 128;
		cr_assert_eq(sb_rf_fit(&h, X, y, N, P, &par, 9, &err), 0, "%s", err.msg);
		for (i = 0; i < N; i++) {
			pe[i] = sb_rf_predict(&e, Xt + (size_t)i * P);
			ph[i] = sb_rf_predict(&h, Xt + (size_t)i * P);
		}
		me = sb_pred_mape(yt, pe, N);
		mh = sb_pred_mape(yt, ph, N);
		cr_log_info("data set %d: MAPE exact %.5f, 128 bins %.5f (%+.2f %%)", s, me, mh,
			    100 * (mh / me - 1));
		rel += (mh / me - 1) / 3;
		sb_rf_release(&e);
		sb_rf_release(&h);
	}
	cr_assert_lt(fabs(rel), 0.02, "mean relative MAPE difference %+.2f %%", 100 * rel);
}

/* Regrowing trees on new data grows them as a fresh fit on that data
 * with the same seed would; the others stay. */
Test(rf, refit_regrows_the_named_trees)
{
	enum { N = 600, P = 4 };
	static double X[N * P], y[N], X2[N * P], y2[N];
	struct sb_rf_params par;
	struct sb_rf a, old, fresh;
	struct sb_err err;
	int k, b;

	log_linear(50, N, 2, 0.3, X, y);
	log_linear(51, N - 100, 2, 0.3, X2, y2);
	for (b = 0; b <= 64; b += 64) {
		sb_rf_params_default(&par);
		par.ntrees = 10;
		par.bins = b;
		cr_assert_eq(sb_rf_fit(&a, X, y, N, P, &par, 3, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_rf_fit(&old, X, y, N, P, &par, 3, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_rf_fit(&fresh, X2, y2, N - 100, P, &par, 4, &err), 0, "%s",
			     err.msg);
		/* trees 8, 9, 0 (wrapping) */
		cr_assert_eq(sb_rf_refit(&a, X2, y2, N - 100, P, 8, 3, 4, &err), 0, "%s",
			     err.msg);
		for (k = 0; k < 10; k++) {
			if (k == 8 || k == 9 || k == 0)
				expect_same_trees(&a, k, &fresh, k);
			else
				expect_same_trees(&a, k, &old, k);
		}
		cr_assert_eq(a.n, N - 100);
		cr_assert_null(a.oob_pred);
		cr_assert(isnan(sb_rf_oob_mse(&a)));
		expect_bad(sb_rf_refit(&a, X2, y2, N - 100, P, 10, 1, 4, &err), &err, "'first'");
		expect_bad(sb_rf_refit(&a, X2, y2, N - 100, P, 0, 11, 4, &err), &err, "'count'");
		expect_bad(sb_rf_refit(&a, X2, y2, N - 100, P - 1, 0, 1, 4, &err), &err, "'p'");
		sb_rf_release(&a);
		sb_rf_release(&old);
		sb_rf_release(&fresh);
	}
}

Test(rf, bad_bins_rejected)
{
	double X[6] = { 1, 2, 3, 4, 5, 6 }, y[3] = { 1, 2, 3 };
	struct sb_rf_params par;
	struct sb_rf rf;
	struct sb_err err;

	sb_rf_params_default(&par);
	par.bins = 1;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'bins'");
	par.bins = 257;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'bins'");
	par.bins = -1;
	expect_bad(sb_rf_fit(&rf, X, y, 3, 2, &par, 1, &err), &err, "'bins'");
	sb_rf_release(&rf);
}
