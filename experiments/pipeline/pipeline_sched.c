/*
 * pipeline_sched.c - figure dapple-F3 (spec dapple.md §7, "1.6x throughput with
 * 12% less memory than GPipe"): one balanced straight pipeline per model
 * (S stages, one GPU each, on Config A's NVLink server), microbatches of
 * a fixed size, M growing; the same plan run under DAPPLE's early-backward
 * schedule, GPipe, GPipe with re-computation and 1F1B. Reports throughput
 * and peak memory per GPU; plans whose memory exceeds the 16 GB GPUs are
 * kept (fits = 0) to show where each schedule stops fitting. Simulated.
 */
#include "common.h"
#include "workloads/pipeline/load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "stages", 8, 2, 16, 1, "pipeline stages (GPUs)" },
	{ "models", 3, 1, 3, 1, "how many of bert-48, gnmt-16, vgg19" },
	{ "ms", 7, 1, 7, 1, "how many of M = 2, 4, 8, ..., 128" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const model_names[] = { "bert-48", "gnmt-16", "vgg19" };
/* samples per microbatch: the profiles' batch sizes (dapple.md §5) */
static const double mbs[] = { 2, 64, 32 };

static const struct sb_col cols[] = { SB_PIPELINE_EXP_COLS, { NULL, 0, NULL } };

struct extra {
	int stages;
	double mbs[3];
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	int nm = (int)sb_opts_get(&c->opts, "models"), nms = (int)sb_opts_get(&c->opts, "ms");
	int k, j, i;
	struct sb_pipeline_exp_state *s;
	struct extra *x;
	int rc = sb_pipeline_exp_setup(c, model_names, nm, err);
	if (rc)
		return rc;
	s = c->state;
	x = SB_NEW(struct extra, 1);
	s->extra = x;
	x->stages = (int)sb_opts_get(&c->opts, "stages");
	for (k = 0; k < s->nmodel; k++) {
		for (i = 0; strcmp(model_names[i], s->model[k].name); i++)
			;
		x->mbs[k] = mbs[i];
		for (j = 0; j < nms; j++)
			sb_pipeline_exp_add(s, k, "config-a", 0, mbs[i] * (2 << j), 2 << j, 0);
	}
	c->npoints = s->npt;
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	static const char *const scheds[] = { "early-backward", "gpipe", "gpipe", "1f1b" };
	struct sb_pipeline_exp_state *s = c->state;
	const struct sb_pipeline_exp_point *p = &s->pt[point];
	const struct extra *x = s->extra;
	const struct sb_pipeline_schedule *sc;
	struct sb_pipeline_plan plan;
	struct sb_topo t;
	char set[64], name[64];
	double mem, secs;
	int rc, k;

	(void)timing;
	rc = sb_pipeline_exp_topo(c, p, &t, err);
	if (rc)
		return rc;
	/* the partition does not depend on memory: plan it unbounded, then
	 * judge every schedule against the real GPUs */
	mem = t.mem;
	t.mem = INFINITY;
	snprintf(set, sizeof set, "stages=%d", x->stages);
	rc = sb_pipeline_exp_plan(&s->model[p->model], &t, "gpipe-balanced", set, p->batch, p->M,
			    &plan, &sc, &secs, err);
	t.mem = mem;
	if (rc) {
		sb_topo_release(&t);
		return rc;
	}
	for (k = 0; k < 4 && !rc; k++) {
		size_t row = out->nrow;
		sc = sb_pipeline_schedule_find(scheds[k]);
		if (!sc)
			SB_BUG("pipeline_sched: schedule %s is not registered", scheds[k]);
		plan.recompute = k == 2;
		snprintf(name, sizeof name, "balanced-%d", x->stages);
		rc = sb_pipeline_exp_eval(&s->model[p->model], &t, &plan, sc, name, out, NULL, err);
		if (!rc && k == 2)
			sb_table_set_str(out, row, "schedule", "gpipe-recompute");
	}
	sb_pipeline_plan_release(&plan);
	sb_topo_release(&t);
	return rc;
}

const struct sb_experiment sb_experiment_pipeline_sched = {
	.name = "pipeline_sched",
	.desc = "early-backward vs GPipe (with/without re-computation) vs 1F1B on one plan: "
		"throughput and peak memory vs microbatches",
	.figure = "dapple-F3",
	.family = "pipeline",
	.params = params,
	.quick_set = "models=1 ms=4",
	.cols = cols,
	.timing_cols = NULL,
	.setup = setup,
	.run_point = run_point,
	.teardown = sb_pipeline_exp_teardown,
};
