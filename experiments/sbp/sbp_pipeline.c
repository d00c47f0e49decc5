/*
 * sbp_pipeline.c - F12 (scenario C of spec oneflow.md §8.5): S balanced
 * pipeline stages (F = 1 ms, B = 2 ms) as forward and backward actors
 * per device, M microbatches; OneFlow's buffer sizes
 * (pipeline_buffer_pass.cpp), GPipe and 1F1B; the per-stage peak of
 * stashed activations and the bubble fraction, next to the pipeline
 * family's own simulator on the same stage times (GPipe and 1F1B) and
 * the formula (S-1)/(M+S-1).
 */
#include "exp.h"
#include "sbp/actor.h"
#include "pipeline/pipeline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int Ms[] = { 1, 2, 4, 8, 16, 32, 64 };
#define NMB 7
static const char *const kinds[] = { "oneflow", "gpipe", "1f1b" };

static const struct sb_param params[] = {
	{ "stages", 2, 1, 2, 1, "how many of S = 4, 8" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "S", SB_COL_INT, "" },
	{ "M", SB_COL_INT, "" },
	{ "buffers", SB_COL_STR, "" },
	{ "iter_ms", SB_COL_DBL, "ms" },
	{ "pipeline_family_ms", SB_COL_DBL, "ms (NaN: no such schedule)" },
	{ "bubble", SB_COL_DBL, "" },
	{ "bubble_formula", SB_COL_DBL, "" },
	{ "stash_s0", SB_COL_INT, "activations" },
	{ "stash_max", SB_COL_INT, "activations" },
	{ NULL, 0, NULL },
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	c->npoints = (int)sb_opts_get(&c->opts, "stages") * NMB;
	snprintf(c->inputs_note, sizeof c->inputs_note, "generated: balanced stages F 1 ms, B 2 ms");
	return 0;
}

/* the pipeline family's iteration time (seconds) for the same stages */
static double family_time(int S, int M, double F, double B, const char *sched, struct sb_err *err)
{
	const struct sb_pipeline_schedule *sc = sb_pipeline_schedule_find(sched);
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan p;
	struct sb_pipeline_result r;
	struct sb_opts o;
	double it = NAN;
	int s;
	if (!sc)
		return NAN;
	memset(&m, 0, sizeof m);
	memset(&t, 0, sizeof t);
	m.n = S;
	m.pbs = 1;
	m.layer = SB_NEW(struct sb_layer, S);
	t.n = S;
	t.nserver = 1;
	t.bw = SB_NEW(double, S * S);
	t.server = SB_NEW(int, S);
	t.mem = INFINITY;
	t.speed = 1;
	for (s = 0; s < S * S; s++)
		t.bw[s] = INFINITY;
	sb_pipeline_plan_init(&p, S, 1);
	p.M = M;
	p.batch = M;
	for (s = 0; s < S; s++) {
		m.layer[s].fwd = F;
		m.layer[s].bwd = B;
		p.st[s].first = p.st[s].last = s;
		p.st[s].r = 1;
		p.st[s].gpu[0] = s;
	}
	sb_opts_defaults(&o, sc->params);
	if (!sb_pipeline_simulate(&p, &m, &t, sc, &o, &r, err)) {
		it = r.iter_time;
		sb_pipeline_result_release(&r);
	}
	sb_pipeline_plan_release(&p);
	sb_topo_release(&t);
	sb_pmodel_release(&m);
	return it;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int S = point / NMB == 0 ? 4 : 8, M = Ms[point % NMB], k, s, rc = 0;
	int64_t F[8], B[8];
	(void)timing;
	for (s = 0; s < S; s++)
		F[s] = 1000000, B[s] = 2000000;
	for (k = 0; k < 3 && !rc; k++) {
		struct sb_actor_sys sys;
		struct sb_actor_result r;
		sb_actor_sys_init(&sys);
		sb_actor_pipeline(&sys, S, M, F, B, k);
		if (!(rc = sb_actor_run(&sys, NULL, -1, -1, &r, err)) && r.deadlock)
			rc = sb_err_set(err, SB_EXIT_RUN, "sbp_pipeline: %s deadlocked", kinds[k]);
		if (!rc) {
			double busy = 0;
			int smax = 0;
			size_t row = sb_table_add(out);
			for (s = 0; s < S; s++) {
				busy += (double)(r.busy[2 * s] + r.busy[2 * s + 1]);
				if (r.peak[2 * s * SB_ACTOR_MAXOUT + 1] > smax)
					smax = r.peak[2 * s * SB_ACTOR_MAXOUT + 1];
			}
			sb_table_set_int(out, row, "S", S);
			sb_table_set_int(out, row, "M", M);
			sb_table_set_str(out, row, "buffers", kinds[k]);
			sb_table_set_dbl(out, row, "iter_ms", (double)r.end * 1e-6);
			sb_table_set_dbl(out, row, "pipeline_family_ms",
					 k ? 1e3 * family_time(S, M, 1e-3, 2e-3, kinds[k], err) : NAN);
			sb_table_set_dbl(out, row, "bubble", 1 - busy / (S * (double)r.end));
			sb_table_set_dbl(out, row, "bubble_formula", (S - 1.0) / (M + S - 1.0));
			sb_table_set_int(out, row, "stash_s0", r.peak[1]);
			sb_table_set_int(out, row, "stash_max", smax);
			sb_actor_result_release(&r);
		}
		sb_actor_sys_release(&sys);
	}
	return rc;
}

const struct sb_experiment sb_experiment_sbp_pipeline = {
	.name = "sbp_pipeline",
	.desc = "F12: per-stage stash and bubble: OneFlow buffers vs GPipe vs 1F1B (actor DES)",
	.figure = "oneflow-F12",
	.family = "sbp",
	.params = params,
	.quick_set = "stages=1",
	.cols = cols,
	.setup = setup,
	.run_point = run_point,
};
