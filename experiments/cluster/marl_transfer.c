/*
 * marl_transfer.c - figure marl-F5 (spec marl.md §5, §8): does the
 * learned scheduler adapt to other topologies? On T2 (64 GPUs in 8-GPU
 * servers) and T3 (128 GPUs), at load 0.7 over held-out synthetic
 * Philly-like traces: the scheduler trained on T1 and run unchanged
 * ("transferred"; the GNN reads any tree), the same recipe retrained on the
 * target topology ("retrained"), both acting greedily and again sampling
 * their actions ("-sampled", algorithms/marl/placer.c), and every
 * heuristic (the best of which the figure and the claims compare
 * against). Weights of both from
 * marl_train (marl, marl@T2, marl@T3) or trained here. All [O]: our
 * reconstruction (the paper is abstract-only).
 */
#include "marl_common.h"
#include "algorithms/marl/placer.h"

#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "jobs", 200, 10, 1e5, 1, "jobs per trace" },
	{ "reps", 10, 1, 1000, 1, "test traces per topology" },
	{ "load", 0.7, 0.05, 2, 0, "offered load rho" },
	{ "pred_epochs", 60, 0, 1000, 1, "training epochs of the slowdown model S^" },
	SB_MARL_TRAIN_PARAMS,
	{ NULL, 0, 0, 0, 0, NULL },
};

#define NTOPO 2
static const char *const topos[NTOPO] = { "T2", "T3" };

struct state {
	struct sb_marl_exp e[NTOPO];
	struct sb_marl_net *transfer, *retrained[NTOPO];   /* owned */
};

static const struct sb_col cols[] = { SB_MARL_EXP_COLS, { NULL, 0, NULL } };
static const struct sb_col tcols[] = { SB_CLUSTER_EXP_TIMING_COLS, { NULL, 0, NULL } };

static void teardown(struct sb_exp_ctx *c)
{
	struct state *st = c->state;
	int k;

	sb_marl_nets_clear();
	if (!st)
		return;
	for (k = 0; k < NTOPO; k++) {
		sb_marl_exp_release(&st->e[k]);
		sb_marl_net_free(st->retrained[k]);
	}
	sb_marl_net_free(st->transfer);
	sb_free(st);
	c->state = NULL;
}

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *st = SB_NEW(struct state, 1);
	struct sb_marl_exp t1;
	char key[16];
	int k, rc;

	c->state = st;
	c->npoints = NTOPO * (int)sb_opts_get(&c->opts, "reps");
	if ((rc = sb_marl_exp_setup(c, &st->e[0], topos[0],
				    (int)sb_opts_get(&c->opts, "pred_epochs"), err)))
		return rc;
	for (k = 1; k < NTOPO; k++)
		if ((rc = sb_marl_exp_train_env(c, &st->e[0], topos[k], &st->e[k], err)))
			return rc;
	snprintf(c->inputs_note + strlen(c->inputs_note),
		 sizeof c->inputs_note - strlen(c->inputs_note), " (and T3)");
	/* the scheduler trained on T1, and retrained on each target */
	if ((rc = sb_marl_exp_train_env(c, &st->e[0], "T1", &t1, err)))
		return rc;
	rc = sb_marl_exp_net(c, &t1.env, "marl", "marl", &st->transfer, err);
	sb_marl_exp_release(&t1);
	for (k = 0; k < NTOPO && !rc; k++) {
		snprintf(key, sizeof key, "marl@%s", topos[k]);
		rc = sb_marl_exp_net(c, &st->e[k].env, "marl", key, &st->retrained[k], err);
	}
	return rc;
}

/* Run the placer `marl` with net n and placer options `set` (NULL:
 * none), relabelled `as`. */
static int run_net(struct sb_exp_ctx *c, struct sb_marl_exp *m, const struct sb_jobset *js,
		   struct sb_marl_net *n, const char *set, const char *as, int rep, double load,
		   struct sb_table *out, struct sb_table *timing, struct sb_err *err)
{
	int rc = sb_marl_nets_put("marl", n, err);

	if (rc)
		return rc;
	rc = sb_marl_exp_run_set(c, m, js, "philly-like", "agents+marl", set, as, 1, rep, load,
				 out, timing, NULL, err);
	SB_ASSERT(sb_marl_nets_take("marl") == n);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *st = c->state;
	int t = point % NTOPO, rep = point / NTOPO, k, rc = 0;
	struct sb_marl_exp *m = &st->e[t];
	struct sb_jobset js;
	double load = sb_opts_get(&c->opts, "load");

	/* key 1 as marl_jct's test traces, drawn for this topology's size */
	sb_marl_exp_jobs(c, m, (int)sb_opts_get(&c->opts, "jobs"), load, 1, rep, &js);
	for (k = 0; sb_marl_exp_schemes[k] && !rc; k++)
		if (!strstr(sb_marl_exp_schemes[k], "+marl") ||
		    strstr(sb_marl_exp_schemes[k], "+marl-random"))
			rc = sb_marl_exp_run(c, m, &js, "philly-like", sb_marl_exp_schemes[k], 1, rep,
					     load, out, timing, NULL, err);
	/* both nets as evaluated everywhere (greedily), then sampling */
	if (!rc)
		rc = run_net(c, m, &js, st->transfer, NULL, "agents+marl:transferred", rep, load,
			     out, timing, err);
	if (!rc)
		rc = run_net(c, m, &js, st->retrained[t], NULL, "agents+marl:retrained", rep, load,
			     out, timing, err);
	if (!rc)
		rc = run_net(c, m, &js, st->transfer, "greedy=0", "agents+marl:transferred-sampled",
			     rep, load, out, timing, err);
	if (!rc)
		rc = run_net(c, m, &js, st->retrained[t], "greedy=0", "agents+marl:retrained-sampled",
			     rep, load, out, timing, err);
	sb_jobset_release(&js);
	return rc;
}

const struct sb_experiment sb_experiment_marl_transfer = {
	.name = "marl_transfer",
	.after = "marl_train", /* its trained weights */
	.desc = "the scheduler trained on T1 run on T2 and T3, against retrained and every heuristic, load 0.7",
	.figure = "marl-F5",
	.family = "cluster",
	.params = params,
	.quick_set = "jobs=100 reps=2 pred_epochs=15 " SB_MARL_TRAIN_QUICK,
	.cols = cols,
	.timing_cols = tcols,
	.summary_by = "topo policy",
	.summary_of = "jct_mean queue_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
