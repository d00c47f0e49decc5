/*
 * cluster_pred.c - figure asrpt-F7 (spec asrpt.md §6, §10): accuracy of
 * iteration-count predictors against the size of the history they learn
 * from, on W1 (whose generator is known: the noise floor is the error of
 * knowing everything but the log-normal noise, sigma = 0.2).
 *
 * Protocol [O]: jobs in arrival order; the first h form the history (as if
 * completed, features computed with the family statistics of the jobs
 * before each one, as A-SRPT sees them at arrival); the next `test` jobs
 * are predicted with the history's family statistics. Predictors: A-SRPT's
 * random forest (on ln n, the same features as the policy), ordinary least
 * squares on the same features, the family's mean (geometric: exp of mean
 * ln n), the family's last value, and the median of the history (what
 * A-SRPT falls back to). Families unseen in the history fall back to the
 * median for the family-based predictors. "random-forest-hist" is the
 * histogram speed variant of the forest [O] (rf.h; the settings of the
 * asrpt-hist policies, sb_asrpt_forest_params) on the same data and seed,
 * so that its accuracy is read against the exact forest's (issue #11
 * item 7: MAPE within 2 % relative).
 */
#include "common.h"
#include "algorithms/asrpt/asrpt.h"
#include "algorithms/asrpt/rf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "reps", 5, 1, 100, 1, "workloads (seeds)" },
	{ "sizes", 7, 1, 7, 1, "how many of the history sizes 50 ... 3200" },
	{ "test", 500, 10, 1e6, 1, "jobs predicted after the history" },
	{ "trees", 100, 1, 1000, 1, "trees of the forest" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int hist[7] = { 50, 100, 200, 400, 800, 1600, 3200 };

static const struct sb_col cols[] = {
	{ "predictor", SB_COL_STR, "" },
	{ "history", SB_COL_INT, "jobs" },
	{ "rep", SB_COL_INT, "" },
	{ "test_jobs", SB_COL_INT, "" },
	{ "mape", SB_COL_DBL, "" },
	{ "mdape", SB_COL_DBL, "" },
	{ "r2_log", SB_COL_DBL, "" },
	{ "within25", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

struct state {
	int reps, nsize, test, trees;
	struct sb_cluster cl;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->nsize = (int)sb_opts_get(&c->opts, "sizes");
	s->test = (int)sb_opts_get(&c->opts, "test");
	s->trees = (int)sb_opts_get(&c->opts, "trees");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: W1 recurring job families of our own (spec asrpt.md section 8)");
	c->npoints = s->nsize * s->reps;
	return sb_cluster_named("sim128", &s->cl, err);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void add_row(struct sb_table *out, const char *name, int h, int rep, const double *y,
		    const double *yhat, int n)
{
	double *ly = SB_NEW(double, n), *lh = SB_NEW(double, n);
	size_t row = sb_table_add(out);
	int i;
	for (i = 0; i < n; i++) {
		ly[i] = log(y[i]);
		lh[i] = log(yhat[i]);
	}
	sb_table_set_str(out, row, "predictor", name);
	sb_table_set_int(out, row, "history", h);
	sb_table_set_int(out, row, "rep", rep);
	sb_table_set_int(out, row, "test_jobs", n);
	sb_table_set_dbl(out, row, "mape", sb_pred_mape(y, yhat, n));
	sb_table_set_dbl(out, row, "mdape", sb_pred_mdape(y, yhat, n));
	sb_table_set_dbl(out, row, "r2_log", sb_pred_r2(ly, lh, n));
	sb_table_set_dbl(out, row, "within25", sb_pred_within(y, yhat, n, 0.25));
	sb_free(ly);
	sb_free(lh);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int h = hist[point / s->reps], rep = point % s->reps, n = h + s->test, i, nf = 0, rc;
	struct sb_jobset js;
	struct sb_asrpt_fam *fam;
	double *X = SB_NEW(double, (size_t)n * SB_ASRPT_NFEAT), *y = SB_NEW(double, n);
	double *hist_n = SB_NEW(double, h), median, *pred = SB_NEW(double, s->test);
	struct sb_rf rf;
	struct sb_rf_params par;
	struct sb_ols ols;
	struct sb_rng nr;
	uint64_t rf_seed;

	(void)timing;
	/* the same workload for every history size of one replicate */
	sb_cluster_exp_w1(c, &s->cl, n > 3700 ? n : 3700, 0.8, (uint64_t)rep, &js);
	for (i = 0; i < js.n; i++)
		if (js.job[i].family + 1 > nf)
			nf = js.job[i].family + 1;
	fam = SB_NEW(struct sb_asrpt_fam, nf + 1);
	for (i = 0; i < n; i++) {
		const struct sb_job *j = &js.job[i];
		struct sb_asrpt_fam *f = j->family >= 0 ? &fam[j->family] : NULL;
		double now = j->arrival;
		sb_asrpt_features(j, &js.model[j->model], f, now, X + (size_t)i * SB_ASRPT_NFEAT);
		y[i] = (double)j->iters;
		/* the history grows only over the first h jobs */
		if (i < h) {
			hist_n[i] = y[i];
			if (f) {
				f->count++;
				f->sum_log += log(y[i]);
				f->last_log = log(y[i]);
				f->last_time = now;
			}
		}
	}
	qsort(hist_n, (size_t)h, sizeof *hist_n, cmp_dbl);
	median = h % 2 ? hist_n[h / 2] : 0.5 * (hist_n[h / 2 - 1] + hist_n[h / 2]);

	/* random forest and OLS on ln n over the history */
	{
		double *ly = SB_NEW(double, h);
		for (i = 0; i < h; i++)
			ly[i] = log(y[i]);
		sb_rf_params_default(&par);
		par.ntrees = s->trees;
		nr = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_POLICY);
		rf_seed = sb_rng_u64(&nr);
		rc = sb_rf_fit(&rf, X, ly, h, SB_ASRPT_NFEAT, &par, rf_seed, err);
		if (!rc)
			rc = sb_ols_fit(&ols, X, ly, h, SB_ASRPT_NFEAT, err);
		if (rc) {
			sb_free(ly);
			goto out;
		}
		for (i = 0; i < s->test; i++)
			pred[i] = exp(sb_rf_predict(&rf, X + (size_t)(h + i) * SB_ASRPT_NFEAT));
		add_row(out, "random-forest", h, rep, y + h, pred, s->test);
		sb_rf_release(&rf);
		/* the speed variant on the same rows, same seed */
		sb_asrpt_forest_params(&par, SB_ASRPT_HIST, s->trees);
		rc = sb_rf_fit(&rf, X, ly, h, SB_ASRPT_NFEAT, &par, rf_seed, err);
		sb_free(ly);
		if (rc) {
			sb_ols_release(&ols);
			goto out;
		}
		for (i = 0; i < s->test; i++)
			pred[i] = exp(sb_rf_predict(&rf, X + (size_t)(h + i) * SB_ASRPT_NFEAT));
		add_row(out, "random-forest-hist", h, rep, y + h, pred, s->test);
	}
	for (i = 0; i < s->test; i++)
		pred[i] = exp(sb_ols_predict(&ols, X + (size_t)(h + i) * SB_ASRPT_NFEAT));
	add_row(out, "least-squares", h, rep, y + h, pred, s->test);
	for (i = 0; i < s->test; i++) {
		const struct sb_job *j = &js.job[h + i];
		const struct sb_asrpt_fam *f = j->family >= 0 ? &fam[j->family] : NULL;
		pred[i] = f && f->count ? exp(f->sum_log / f->count) : median;
	}
	add_row(out, "family-mean", h, rep, y + h, pred, s->test);
	for (i = 0; i < s->test; i++) {
		const struct sb_job *j = &js.job[h + i];
		const struct sb_asrpt_fam *f = j->family >= 0 ? &fam[j->family] : NULL;
		pred[i] = f && f->count ? exp(f->last_log) : median;
	}
	add_row(out, "last-value", h, rep, y + h, pred, s->test);
	for (i = 0; i < s->test; i++)
		pred[i] = median;
	add_row(out, "median", h, rep, y + h, pred, s->test);
	/* the noise floor: the truth divided by the generator's own noise */
	nr = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_NOISE);
	for (i = 0; i < s->test; i++)
		pred[i] = y[h + i] * exp(sb_rng_normal(&nr, 0, 0.2));
	add_row(out, "noise-floor", h, rep, y + h, pred, s->test);
	sb_rf_release(&rf);
	sb_ols_release(&ols);
out:
	sb_free(X);
	sb_free(y);
	sb_free(hist_n);
	sb_free(pred);
	sb_free(fam);
	sb_jobset_release(&js);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	sb_free(c->state);
}

const struct sb_experiment sb_experiment_cluster_pred = {
	.name = "cluster_pred",
	.desc = "iteration-count predictors (RF, OLS, family mean, last value) vs history size, W1",
	.figure = "asrpt-F7",
	.family = "cluster",
	.params = params,
	.quick_set = "reps=2 sizes=3 test=200 trees=30",
	.cols = cols,
	.summary_by = "history predictor",
	.summary_of = "mape mdape r2_log within25",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
