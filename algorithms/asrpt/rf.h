/*
 * rf.h - random-forest regression, an ordinary-least-squares comparator
 * and accuracy metrics: the job-length predictor of A-SRPT.
 *
 * Luo, Liu, Lee, Shroff, "Prediction-Assisted Online Distributed Deep
 * Learning Workload Scheduling in GPU Clusters", arXiv 2501.05563, 2025:
 * a random-forest regression predicts the number of iterations of a job.
 *
 * [O] our design; the paper only states that a random forest is used.
 * CART trees with variance-reduction splits, mtry features per node,
 * bootstrap samples and out-of-bag error, in the manner of Breiman (2001),
 * with the semantics of scikit-learn's RandomForestRegressor for min_leaf,
 * max_depth and mtry so that tests/rf_sklearn.py can compare the two.
 *
 * Speed variant [O] (bins > 0, issue #11 item 7): each feature is cut
 * once per fit into at most `bins` bins at quantiles of the training
 * values (every distinct value its own bin when there are few); a node
 * accumulates per-bin sums over its rows for the features it tries and
 * splits between bins, and keeps one row list partitioned down the tree
 * instead of one sorted order per feature. Thresholds are still real
 * values, so prediction is the same code. sb_rf_refit regrows some trees
 * of a forest on new data (A-SRPT's variant renews its forest so).
 *
 * Determinism: tree k draws only from sb_rng_stream(seed, k, 0,
 * SB_RNG_POLICY), and every sort breaks ties by row index, so a forest
 * depends on (X, y, params, seed) alone, and the first k trees of a larger
 * forest are the trees of the smaller one.
 *
 * Registers no policy (helpers of the A-SRPT policy files).
 *
 * Family: cluster (core/cluster/).
 */
#ifndef SB_ASRPT_RF_H
#define SB_ASRPT_RF_H

#include "sb.h"

#include <stdint.h>

struct sb_rf_params {
	int ntrees;     /* trees in the forest, >= 1 (default 100) */
	int mtry;       /* features tried per node, 1..p; 0 = max(1, p/3) */
	int min_leaf;   /* least distinct training rows per leaf, >= 1 (5) */
	int max_depth;  /* most splits from the root to a leaf, >= 1 (16) */
	int bootstrap;  /* 1: each tree sees n draws with replacement (1);
			 * 0: each tree sees every row once */
	int oob;        /* 1: out-of-bag predictions and error (1); 0: not
			 * computed (oob_pred NULL, oob_mse NAN), the trees
			 * are the same */
	int bins;       /* 0: exact splits, every midpoint of distinct values
			 * (0, the reference); 2..256: histogram splits [O],
			 * on at most this many quantile bins per feature
			 * computed once per fit (the speed variant) */
};

/* The defaults above. */
void sb_rf_params_default(struct sb_rf_params *p);

/* One node of a tree. A leaf has feat = left = right = -1. */
struct sb_rf_node {
	double thr;     /* rows with x[feat] <= thr go left */
	double value;   /* mean of the node's training targets (bootstrap
			 * draws counted with multiplicity); a leaf predicts it */
	int feat;
	int left, right;
	int n;          /* distinct training rows that reached the node */
};

struct sb_rf_tree {
	struct sb_rf_node *node;  /* node[0] is the root (owned) */
	int nnode;
};

struct sb_rf {
	int n, p;                 /* training rows and features */
	struct sb_rf_params par;  /* as used: mtry resolved */
	struct sb_rf_tree *tree;  /* par.ntrees trees (owned) */
	/* Out of bag: for training row i, the mean prediction of the trees
	 * whose bootstrap sample missed it, NAN when every tree saw it. */
	double *oob_pred;         /* n entries (owned) */
	int oob_rows;             /* rows with a finite oob_pred */
	double oob_mse;           /* over those rows; NAN if there are none */
};

/*
 * Fit a forest to n rows of p features, X row-major (X[i*p + j]), targets
 * y. par NULL means the defaults. X and y are only read during the call.
 * Returns 0, or SB_EXIT_INPUT with err naming the field ('n', 'p', 'X',
 * 'y', 'ntrees', 'mtry', 'min_leaf', 'max_depth', 'bootstrap', 'oob') for n < 1,
 * p < 1, a value that is not finite or a parameter out of range; *rf is
 * then empty (sb_rf_release is still allowed). Dies only when out of memory.
 *
 * Cost: one sort of each feature, O(p n log n), shared by all trees, then
 * per tree O(p n d) for a tree of depth d (d <= max_depth): every split
 * partitions the presorted rows of all p features, and scans mtry of them.
 */
int sb_rf_fit(struct sb_rf *rf, const double *X, const double *y, int n, int p,
	      const struct sb_rf_params *par, uint64_t seed, struct sb_err *err);
/*
 * Regrow `count` trees of a fitted forest on new data, trees first,
 * first + 1, ... (mod ntrees), tree k exactly as sb_rf_fit(..., seed)
 * grows its tree k on that data; the other trees keep what they learned
 * before [O]. Same parameters as the fit, p must be the forest's; n and
 * the data may change. Out-of-bag results are dropped (oob_pred NULL,
 * oob_mse NAN). Errors as sb_rf_fit ('first', 'count' out of range); the
 * forest is unchanged on error.
 */
int sb_rf_refit(struct sb_rf *rf, const double *X, const double *y, int n, int p,
		int first, int count, uint64_t seed, struct sb_err *err);
/* Mean of the trees' leaf values for the p features x[0..p). A NaN
 * feature goes right at every split on it. */
double sb_rf_predict(const struct sb_rf *rf, const double *x);
/* The leaf value of tree k alone. */
double sb_rf_predict_tree(const struct sb_rf *rf, int k, const double *x);
/* Mean squared out-of-bag error over the rows some tree did not see; NAN
 * if there are none (no bootstrap, or n = 1). */
double sb_rf_oob_mse(const struct sb_rf *rf);
void sb_rf_release(struct sb_rf *rf);

/*
 * Ordinary least squares with an intercept: y ~ b0 + sum_j b[1+j] x_j.
 * The normal equations of the centred and scaled features are solved by
 * GSL's SVD with small singular values cut off: when X is rank deficient
 * (collinear or constant features, n <= p) that is the minimum-norm
 * solution in standardised units, and constant features get 0. Same input
 * rules and errors as sb_rf_fit.
 */
struct sb_ols {
	int p;
	double *beta;   /* p + 1 coefficients, intercept first (owned) */
	int rank;       /* rank found for the centred features, <= p */
};

int sb_ols_fit(struct sb_ols *m, const double *X, const double *y, int n, int p,
	       struct sb_err *err);
double sb_ols_predict(const struct sb_ols *m, const double *x);
void sb_ols_release(struct sb_ols *m);

/*
 * Accuracy of predictions yhat of y over n rows. NAN when undefined.
 *   r2:     1 - SSE/SST; NAN if n < 1 or every y is the same.
 *   mape:   mean of |yhat - y| / |y| as a fraction (0.12 = 12 %), like
 *           scikit-learn's mean_absolute_percentage_error; NAN if n < 1 or
 *           some y is 0.
 *   mdape:  the median of the same ratios (mean of the middle two for
 *           even n); NAN as for mape.
 *   within: share of rows with |yhat - y| <= tol |y| (tol = 0.25 for
 *           "within +-25 %"), a fraction; NAN if n < 1.
 */
double sb_pred_r2(const double *y, const double *yhat, int n);
double sb_pred_mape(const double *y, const double *yhat, int n);
double sb_pred_mdape(const double *y, const double *yhat, int n);
double sb_pred_within(const double *y, const double *yhat, int n, double tol);

#endif
