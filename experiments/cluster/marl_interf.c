/*
 * marl_interf.c - figure marl-F7 (spec marl.md §8, §3.8): the learned
 * interference predictor S^ against the ground truth on held-out sampled
 * co-location states (scatter), its MAPE, and its weights. One point. Rows
 * by kind: "heldout" (truth, pred), "summary" (mape, train_mape), "weight"
 * (index, value: the trained weights, layer by layer as core/nn.h lays
 * them out, so evaluation can reuse them without retraining). All [O],
 * our design; the paper's abstract verifies only that such a model exists.
 */
#include "marl_common.h"

static const struct sb_param params[] = {
	{ "samples", 5000, 100, 1e6, 1, "sampled co-location states" },
	{ "held", 1000, 10, 1e6, 1, "of which held out" },
	{ "epochs", 60, 1, 10000, 1, "training epochs (Adam, lr 1e-3, batch 64)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "kind", SB_COL_STR, "" },
	{ "topo", SB_COL_STR, "" },
	{ "index", SB_COL_INT, "" },
	{ "truth", SB_COL_DBL, "S" },
	{ "pred", SB_COL_DBL, "S^" },
	{ "mape", SB_COL_DBL, "percent" },
	{ "train_mape", SB_COL_DBL, "percent" },
	{ "value", SB_COL_DBL, "" },
	{ "provenance", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col tcols[] = {
	{ "train_seconds", SB_COL_DBL, "s (wall clock)" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	return sb_marl_exp_setup_state(c, "T1", 1, err);
}

static size_t add(struct sb_table *out, const char *kind, const char *topo, int idx)
{
	size_t row = sb_table_add(out);
	sb_table_set_str(out, row, "kind", kind);
	sb_table_set_str(out, row, "topo", topo);
	sb_table_set_int(out, row, "index", idx);
	sb_table_set_str(out, row, "provenance", "ours:marl.md-3.8");
	return row;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_marl_exp *m = c->state;
	struct sb_interf_pred_params pp;
	struct sb_interf_pred *pr;
	const double *tr, *pd, *w;
	double mape, tmape, t0 = sb_now();
	size_t nw, k, row;
	int n, i;

	(void)point;
	(void)err;
	sb_interf_pred_defaults(&pp);
	pp.nsamples = (int)sb_opts_get(&c->opts, "samples");
	pp.nheld = (int)sb_opts_get(&c->opts, "held");
	pp.epochs = (int)sb_opts_get(&c->opts, "epochs");
	pp.seed = c->seed;
	if (pp.nheld >= pp.nsamples)
		return sb_err_set(err, SB_EXIT_INPUT, "marl_interf: 'held' (%d) must be below "
				  "'samples' (%d)", pp.nheld, pp.nsamples);
	pr = sb_interf_pred_train(&m->env.interf, &pp, &mape, &tmape);
	if (timing) {
		row = sb_table_add(timing);
		sb_table_set_dbl(timing, row, "train_seconds", sb_now() - t0);
	}
	sb_interf_pred_heldout(pr, &tr, &pd, &n);
	for (i = 0; i < n; i++) {
		row = add(out, "heldout", m->env.topo.name, i);
		sb_table_set_dbl(out, row, "truth", tr[i]);
		sb_table_set_dbl(out, row, "pred", pd[i]);
	}
	row = add(out, "summary", m->env.topo.name, 0);
	sb_table_set_dbl(out, row, "mape", mape);
	sb_table_set_dbl(out, row, "train_mape", tmape);
	w = sb_interf_pred_weights(pr, &nw);
	for (k = 0; k < nw; k++) {
		row = add(out, "weight", m->env.topo.name, (int)k);
		sb_table_set_dbl(out, row, "value", w[k]);
	}
	sb_interf_pred_free(pr);
	return 0;
}


const struct sb_experiment sb_experiment_marl_interf = {
	.name = "marl_interf",
	.desc = "learned interference predictor: predicted vs true slowdown, MAPE, weights",
	.figure = "marl-F7",
	.family = "cluster",
	.params = params,
	.quick_set = "samples=1500 held=300 epochs=20",
	.cols = cols,
	.timing_cols = tcols,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_marl_exp_teardown,
};
