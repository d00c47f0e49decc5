/*
 * pipeline_uneven.c - figure dapple-F4 (spec dapple.md §7, "uneven vs even"):
 * DAPPLE's planner insight is that uneven partitions (later stages
 * lighter) overlap better than even ones. For every plan of DAPPLE's two
 * planners with at least two stages on the figures' grid (models x Config
 * A/B/C x three batches), the same plan with its layer cuts moved to
 * balance the per-replica compute of the stages (min-max, same stages,
 * GPUs, copies and microbatches), both simulated under the early-backward
 * schedule. Simulated with the project's cost model.
 */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "models", 5, 1, 5, 1, "how many of vgg19, bert-48, gnmt-16, xlnet-36, amoeba-36" },
	{ "configs", 3, 1, 3, 1, "how many of config-a, config-b, config-c" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const planners[] = { "dapple", "dapple-hpgo", NULL };

static const struct sb_col cols[] = {
	SB_PIPELINE_EXP_COLS,
	{ "partition", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	/* pipeline_dapple's smallest batch, x4 and x16 */
	return sb_pipeline_exp_dapple_grid(c, (int)sb_opts_get(&c->opts, "models"),
				     (int)sb_opts_get(&c->opts, "configs"), 3, 4, planners, err);
}

struct even_ctx {
	const struct sb_pipeline_prefix *x;
	const struct sb_pipeline_plan *p;
};

/* per-replica compute of layers first..last on stage s */
static double stage_work(void *ctx, int first, int last, int s)
{
	const struct even_ctx *e = ctx;
	return (e->x->fwd[last + 1] - e->x->fwd[first] + e->x->bwd[last + 1] - e->x->bwd[first]) /
	       e->p->st[s].r;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = c->state;
	const struct sb_pipeline_exp_point *p = &s->pt[point];
	const struct sb_pmodel *m = &s->model[p->model];
	const struct sb_pipeline_schedule *eb = sb_pipeline_schedule_find("early-backward");
	struct sb_pipeline_prefix x;
	struct sb_topo t;
	int k, rc;

	(void)timing;
	if (!eb)
		SB_BUG("pipeline_uneven: the early-backward schedule is not registered");
	rc = sb_pipeline_exp_topo(c, p, &t, err);
	if (rc)
		return rc;
	sb_pipeline_prefix_init(&x, m);
	for (k = 0; s->labels[k] && !rc; k++) {
		const struct sb_pipeline_schedule *sc;
		struct sb_pipeline_plan plan;
		struct even_ctx ec = { &x, NULL };
		int *last, i, st;
		double secs;
		size_t row = out->nrow;
		if (sb_pipeline_exp_plan(m, &t, s->labels[k], NULL, p->batch, p->M, &plan, &sc, &secs,
				   err))
			continue;   /* no plan fits: pipeline_dapple reports it */
		if (plan.S < 2) {
			sb_pipeline_plan_release(&plan);
			continue;
		}
		rc = sb_pipeline_exp_eval(m, &t, &plan, eb, plan.planner, out, NULL, err);
		if (rc == 0)
			sb_table_set_str(out, row, "partition", "planner");
		/* the same stages, GPUs and microbatches, cuts balanced */
		ec.p = &plan;
		last = SB_NEW(int, plan.S);
		sb_pipeline_minmax(m->n, plan.S, stage_work, &ec, last);
		for (i = 0; i < plan.copies; i++)
			for (st = 0; st < plan.S; st++) {
				plan.st[i * plan.S + st].first = st ? last[st - 1] + 1 : 0;
				plan.st[i * plan.S + st].last = last[st];
			}
		sb_free(last);
		row = out->nrow;
		if (rc == 0)
			rc = sb_pipeline_exp_eval(m, &t, &plan, eb, plan.planner, out, NULL, err);
		if (rc == 0)
			sb_table_set_str(out, row, "partition", "even");
		sb_pipeline_plan_release(&plan);
	}
	sb_pipeline_prefix_release(&x);
	sb_topo_release(&t);
	return rc;
}

const struct sb_experiment sb_experiment_pipeline_uneven = {
	.name = "pipeline_uneven",
	.desc = "DAPPLE's (uneven) partitions vs the same plans with per-replica compute balanced",
	.figure = "dapple-F4",
	.family = "pipeline",
	.params = params,
	.quick_set = "models=2 configs=1",
	.cols = cols,
	.timing_cols = NULL,
	.summary_by = "model partition",
	.summary_of = "iter_time",
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_pipeline_exp_teardown,
};
