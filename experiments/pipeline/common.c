/*
 * common.c - shared machinery of the pipeline-family experiments.
 */
#include "common.h"
#include "pipeline/bound.h"
#include "workloads/pipeline/load.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Real profiles (paths under DATA_DIR, batch size for PipeDream files)
 * and the analytic stand-in of the same model (NULL: none). */
static const struct {
	const char *name, *file;
	int pipedream_pbs;       /* 0: a DAPPLE file (batch size in its name) */
	const char *analytic;
} models[] = {
	{ "vgg19", "dapple/vgg-19-pbs-32.txt", 0, "vgg19" },
	{ "bert-48", "dapple/bert-48-pbs-2.txt", 0, "bert-48" },
	{ "gnmt-16", "dapple/gnmt-16-pbs-64.txt", 0, "gnmt-16" },
	{ "xlnet-36", "dapple/xlnet-36-pbs-1.txt", 0, NULL },
	{ "amoeba-36", "dapple/amoeba-36-pbs-1.txt", 0, NULL },
	{ "resnet50", "pipedream/resnet50/graph.txt", 128, "resnet50" },
	{ "bert-large", NULL, 0, "bert-large" },
	{ "gpt2-xl", NULL, 0, "gpt2-xl" },
};

static int find_model(const char *name)
{
	int k;
	for (k = 0; k < (int)(sizeof models / sizeof models[0]); k++)
		if (!strcmp(models[k].name, name))
			return k;
	return -1;
}

static int real_path(const struct sb_exp_ctx *c, int k, char *path, size_t len)
{
	if (!models[k].file)
		return 0;
	snprintf(path, len, "%s/%s", c->data_dir, models[k].file);
	return access(path, R_OK) == 0;
}

int sb_pipeline_exp_model_available(const struct sb_exp_ctx *c, const char *name)
{
	char path[1024];
	int k = find_model(name);
	return k >= 0 && (models[k].analytic || real_path(c, k, path, sizeof path));
}

int sb_pipeline_exp_model(struct sb_exp_ctx *c, const char *name, struct sb_pmodel *m, int *real,
		    struct sb_err *err)
{
	char path[1024];
	int k = find_model(name), rc;
	if (k < 0)
		return sb_err_set(err, SB_EXIT_INPUT, "pipeline experiments: unknown model '%s'",
				  name);
	*real = 0;
	if (real_path(c, k, path, sizeof path)) {
		rc = models[k].pipedream_pbs
			? sb_load_pipedream_profile(path, models[k].pipedream_pbs, m, err)
			: sb_load_dapple_profile(path, m, err);
		if (rc == 0)
			rc = sb_exp_add_input(c, path, err);
		if (rc)
			return rc;
		snprintf(m->name, sizeof m->name, "%s", name);
		*real = 1;
		return 0;
	}
	if (!models[k].analytic)
		return sb_err_set(err, SB_EXIT_INPUT, "model '%s' has only a measured profile "
				  "(%s/%s, not found: run `make data`)", name, c->data_dir,
				  models[k].file);
	rc = sb_analytic_model(models[k].analytic, m, err);
	if (rc == 0)
		snprintf(m->name, sizeof m->name, "%s", name);
	return rc;
}

double sb_pipeline_exp_single_gpu(const struct sb_pmodel *m, const struct sb_topo *t, double batch)
{
	double w = 0;
	int l;
	for (l = 0; l < m->n; l++)
		w += m->layer[l].fwd + m->layer[l].bwd;
	return batch * w / (t->speed > 0 ? t->speed : 1);
}

void sb_pipeline_exp_random_model(struct sb_pmodel *m, int L, struct sb_rng *r)
{
	int l;
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "synthetic-%d", L);
	snprintf(m->source, sizeof m->source, "synthetic: %d jittered transformer-like layers", L);
	m->n = L;
	m->pbs = 1;
	m->layer = SB_NEW(struct sb_layer, L);
	for (l = 0; l < L; l++) {
		struct sb_layer *y = &m->layer[l];
		snprintf(y->name, sizeof y->name, "layer%d", l);
		y->fwd = 1.35e-3 * (0.5 + sb_rng_uniform(r));
		y->bwd = y->fwd * (1.5 + 0.5 * sb_rng_uniform(r));
		y->params = 50e6 * (0.5 + sb_rng_uniform(r));
		y->act = 4e6 * (0.5 + sb_rng_uniform(r));
		y->stash = 10 * y->act;
	}
}

/* "8:8" (GPUs per stage, x copies) and "13|13" (layers per stage), cut
 * to fit a string column. */
static void plan_text(const struct sb_pipeline_plan *p, char *gpus, char *layers, size_t len)
{
	size_t a = 0, b = 0;
	int s;
	gpus[0] = layers[0] = '\0';
	if (p->copies > 1)
		a = (size_t)snprintf(gpus, len, "%dx(", p->copies);
	for (s = 0; s < p->S; s++) {
		if (a < len)
			a += (size_t)snprintf(gpus + a, len - a, s ? ":%d" : "%d", p->st[s].r);
		if (b < len)
			b += (size_t)snprintf(layers + b, len - b, s ? "|%d" : "%d",
					      p->st[s].last - p->st[s].first + 1);
	}
	if (p->copies > 1 && a < len)
		snprintf(gpus + a, len - a, ")");
	if (a >= len)
		memcpy(gpus + len - 4, "...", 4);
	if (b >= len)
		memcpy(layers + len - 4, "...", 4);
}

/* The identity columns of a row. */
static size_t new_row(struct sb_table *out, const struct sb_pmodel *m, const struct sb_topo *t,
		      const char *planner, double batch)
{
	size_t row = sb_table_add(out);
	sb_table_set_str(out, row, "model", m->name);
	sb_table_set_str(out, row, "profile", strncmp(m->source, "real", 4) ? "analytic" : "real");
	sb_table_set_str(out, row, "topo", t->name);
	sb_table_set_int(out, row, "gpus", t->n);
	sb_table_set_str(out, row, "planner", planner);
	sb_table_set_dbl(out, row, "batch", batch);
	sb_table_set_int(out, row, "feasible", 0);
	sb_table_set_int(out, row, "fits", 0);
	return row;
}

int sb_pipeline_exp_eval(const struct sb_pmodel *m, const struct sb_topo *t,
		   const struct sb_pipeline_plan *plan, const struct sb_pipeline_schedule *sc,
		   const char *planner, struct sb_table *out, double *sim_seconds,
		   struct sb_err *err)
{
	struct sb_pipeline_result r;
	struct sb_opts so;
	char gpus[SB_STR_LEN], layers[SB_STR_LEN];
	double t0 = sb_now();
	size_t row;
	int rc;

	sb_opts_defaults(&so, sc->params);
	rc = sb_pipeline_evaluate(plan, m, t, sc, &so, &r, err);
	if (sim_seconds)
		*sim_seconds = sb_now() - t0;
	if (rc)
		return rc;
	row = new_row(out, m, t, planner, plan->batch);
	plan_text(plan, gpus, layers, sizeof gpus);
	sb_table_set_int(out, row, "feasible", 1);
	sb_table_set_str(out, row, "schedule", sc->name);
	sb_table_set_int(out, row, "M", plan->M);
	sb_table_set_int(out, row, "S", plan->S);
	sb_table_set_int(out, row, "copies", plan->copies);
	sb_table_set_str(out, row, "stage_gpus", gpus);
	sb_table_set_str(out, row, "stage_layers", layers);
	sb_table_set_int(out, row, "fits", r.fits);
	sb_table_set_dbl(out, row, "iter_time", r.iter_time);
	sb_table_set_dbl(out, row, "throughput", r.throughput);
	sb_table_set_dbl(out, row, "speedup", sb_pipeline_exp_single_gpu(m, t, plan->batch) / r.iter_time);
	sb_table_set_dbl(out, row, "bubble", r.bubble);
	sb_table_set_dbl(out, row, "peak_mem_gb", r.peak_mem / 1e9);
	{
		/* every plan with this batch and M is at least this slow */
		/* a plan on its own linearisation of the graph (plan->model)
		 * is bounded on that chain */
		double lb = sb_pipeline_lb_problem(sb_pipeline_plan_model(plan, m), t, plan->batch,
						   plan->M);
		sb_table_set_dbl(out, row, "lb", lb);
		sb_table_set_dbl(out, row, "ratio_lb", r.iter_time / lb);
		if (r.iter_time < lb * (1 - 1e-9))
			SB_BUG("plan %s beats the problem bound (%.9g < %.9g)", planner, r.iter_time,
			       lb);
	}
	sb_pipeline_result_release(&r);
	return 0;
}

int sb_pipeline_exp_plan(const struct sb_pmodel *m, const struct sb_topo *t, const char *label,
		   const char *set, double batch, int M, struct sb_pipeline_plan *plan,
		   const struct sb_pipeline_schedule **sc, double *plan_seconds, struct sb_err *err)
{
	const struct sb_pipeline_planner *pl;
	struct sb_pipeline_problem pb;
	struct sb_opts po;
	char name[64];
	const char *plus = strchr(label, '+');
	double t0;
	int rc;

	memset(plan, 0, sizeof *plan);
	*sc = NULL;
	snprintf(name, sizeof name, "%.*s", plus ? (int)(plus - label) : (int)strlen(label), label);
	pl = sb_pipeline_planner_find(name);
	if (!pl)
		return sb_err_set(err, SB_EXIT_INPUT, "'%s' is not a registered pipeline planner",
				  name);
	if (plus && !(*sc = sb_pipeline_schedule_find(plus + 1)))
		return sb_err_set(err, SB_EXIT_INPUT, "'%s' is not a registered pipeline schedule",
				  plus + 1);
	sb_opts_defaults(&po, pl->params);
	if (set && *set) {
		char buf[512], *tok, *save = NULL;
		snprintf(buf, sizeof buf, "%s", set);
		for (tok = strtok_r(buf, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save))
			if ((rc = sb_opts_set(&po, pl->params, tok, label, err)))
				return rc;
	}
	memset(&pb, 0, sizeof pb);
	pb.model = m;
	pb.topo = t;
	pb.batch = batch;
	pb.M = M;
	pb.kappa = 2;
	pb.sched = *sc;
	t0 = sb_now();
	rc = pl->plan(&pb, &po, plan, err);
	*plan_seconds = sb_now() - t0;
	if (rc) {
		sb_pipeline_plan_release(plan);
		return rc;
	}
	if (!*sc) {
		const char *want = plan->schedule[0] ? plan->schedule : pl->schedule;
		*sc = sb_pipeline_schedule_find(want);
		if (!*sc) {
			sb_pipeline_plan_release(plan);
			return sb_err_set(err, SB_EXIT_INPUT, "planner %s: schedule '%s' is not "
					  "registered", pl->name, want);
		}
	}
	snprintf(plan->planner, sizeof plan->planner, "%s", pl->name);
	return 0;
}

int sb_pipeline_exp_run(const struct sb_pmodel *m, const struct sb_topo *t, const char *label,
		  const char *set, double batch, int M, struct sb_table *out,
		  struct sb_table *timing, struct sb_pipeline_plan *plan_out, struct sb_err *err)
{
	const struct sb_pipeline_schedule *sc;
	struct sb_pipeline_plan plan;
	double t_plan = NAN, t_sim = NAN;
	int rc;

	if (plan_out)
		memset(plan_out, 0, sizeof *plan_out);
	rc = sb_pipeline_exp_plan(m, t, label, set, batch, M, &plan, &sc, &t_plan, err);
	if (rc == SB_EXIT_RUN) {
		/* the planner found nothing that fits: a row that says so */
		size_t row = new_row(out, m, t, label, batch);
		sb_table_set_int(out, row, "M", M);
		rc = 0;
	} else if (rc) {
		return rc;
	} else {
		rc = sb_pipeline_exp_eval(m, t, &plan, sc, plan.planner, out, &t_sim, err);
		if (rc) {
			sb_pipeline_plan_release(&plan);
			return rc;
		}
	}
	if (timing) {
		size_t tr = sb_table_add(timing);
		sb_table_set_str(timing, tr, "model", m->name);
		sb_table_set_str(timing, tr, "topo", t->name);
		sb_table_set_int(timing, tr, "gpus", t->n);
		sb_table_set_int(timing, tr, "layers", m->n);
		sb_table_set_str(timing, tr, "planner", label);
		sb_table_set_dbl(timing, tr, "batch", batch);
		sb_table_set_dbl(timing, tr, "plan_seconds", t_plan);
		sb_table_set_dbl(timing, tr, "sim_seconds", t_sim);
	}
	if (plan_out)
		*plan_out = plan;
	else
		sb_pipeline_plan_release(&plan);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Grid experiments                                                    */
/* ------------------------------------------------------------------ */

int sb_pipeline_exp_setup(struct sb_exp_ctx *c, const char *const *names, int nmodel,
		    struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = SB_NEW(struct sb_pipeline_exp_state, 1);
	size_t used;
	int k, rc, real;
	c->state = s;
	s->model = SB_NEW(struct sb_pmodel, nmodel);
	used = (size_t)snprintf(c->inputs_note, sizeof c->inputs_note, "profiles:");
	for (k = 0; k < nmodel; k++) {
		const char *what;
		if (!sb_pipeline_exp_model_available(c, names[k])) {
			what = "skipped: no measured profile in DATA_DIR";
		} else {
			rc = sb_pipeline_exp_model(c, names[k], &s->model[s->nmodel], &real, err);
			if (rc)
				return rc;
			s->nmodel++;
			what = real ? "measured" : "analytic";
		}
		if (used < sizeof c->inputs_note)
			used += (size_t)snprintf(c->inputs_note + used, sizeof c->inputs_note - used,
						 " %s (%s)", names[k], what);
	}
	return 0;
}

void sb_pipeline_exp_add(struct sb_pipeline_exp_state *s, int model, const char *topo, uint64_t key,
		   double batch, int M, int rep)
{
	struct sb_pipeline_exp_point *p;
	if (s->npt == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->pt = sb_xrealloc(s->pt, sizeof *s->pt * (size_t)s->cap);
	}
	p = &s->pt[s->npt++];
	memset(p, 0, sizeof *p);
	p->model = model;
	snprintf(p->topo, sizeof p->topo, "%s", topo);
	p->topo_key = key;
	p->batch = batch;
	p->M = M;
	p->rep = rep;
}

char **sb_pipeline_exp_planners(const char *const *only)
{
	int n, i;
	const struct sb_pipeline_planner *const *pl = sb_pipeline_planners(&n);
	char **out;
	if (only) {
		for (n = 0; only[n]; n++)
			;
		out = SB_NEW(char *, n + 1);
		for (i = 0; i < n; i++)
			out[i] = sb_xstrdup(only[i]);
		return out;
	}
	out = SB_NEW(char *, n + 1);
	for (i = 0; i < n; i++)
		out[i] = sb_xstrdup(pl[i]->name);
	return out;
}

int sb_pipeline_exp_topo(const struct sb_exp_ctx *c, const struct sb_pipeline_exp_point *p,
		   struct sb_topo *t, struct sb_err *err)
{
	if (!strncmp(p->topo, "random-", 7)) {
		struct sb_rng r = sb_rng_stream(c->seed, p->topo_key, (uint64_t)p->rep,
						SB_RNG_INSTANCE);
		sb_topo_random(t, atoi(p->topo + 7), &r);
		snprintf(t->name, sizeof t->name, "%s", p->topo);
		return 0;
	}
	return sb_topo_named(p->topo, t, err);
}

int sb_pipeline_exp_run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
			struct sb_table *timing, struct sb_err *err)
{
	struct sb_pipeline_exp_state *s = c->state;
	const struct sb_pipeline_exp_point *p = &s->pt[point];
	struct sb_topo t;
	int k, rc;
	rc = sb_pipeline_exp_topo(c, p, &t, err);
	if (rc)
		return rc;
	for (k = 0; s->labels[k] && !rc; k++) {
		size_t row = out->nrow;
		rc = sb_pipeline_exp_run(&s->model[p->model], &t, s->labels[k], s->set, p->batch, p->M,
				   out, timing, NULL, err);
		if (!rc && sb_table_col(out, "rep") >= 0)
			sb_table_set_int(out, row, "rep", p->rep);
	}
	sb_topo_release(&t);
	return rc;
}

void sb_pipeline_exp_teardown(struct sb_exp_ctx *c)
{
	struct sb_pipeline_exp_state *s = c->state;
	int k;
	if (!s)
		return;
	for (k = 0; k < s->nmodel; k++)
		sb_pmodel_release(&s->model[k]);
	sb_free(s->model);
	sb_free(s->pt);
	for (k = 0; s->labels && s->labels[k]; k++)
		sb_free(s->labels[k]);
	sb_free(s->labels);
	sb_free(s->extra);
	sb_free(s);
	c->state = NULL;
}

void *sb_pipeline_exp_setup_synthetic(struct sb_exp_ctx *c, size_t extra, const char *note)
{
	struct sb_pipeline_exp_state *s;
	struct sb_err err;
	if (sb_pipeline_exp_setup(c, NULL, 0, &err))
		SB_BUG("pipexp: a set-up without models failed: %s", err.msg);
	s = c->state;
	s->extra = sb_xcalloc(1, extra ? extra : 1);
	s->labels = sb_pipeline_exp_planners(NULL);
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s", note);
	return s->extra;
}

int sb_pipeline_exp_dapple_grid(struct sb_exp_ctx *c, int nmodel, int nconf, int nbatch,
			  double factor, const char *const *labels, struct sb_err *err)
{
	static const char *const names[] = { "vgg19", "bert-48", "gnmt-16", "xlnet-36",
					     "amoeba-36" };
	/* the low end of DAPPLE's sweeps (dapple.md §5; VGG-19's is ours) */
	static const double first[] = { 128, 32, 512, 16, 128 };
	static const char *const configs[] = { "config-a", "config-b", "config-c" };
	struct sb_pipeline_exp_state *s;
	int k, j, b, i, rc;
	if (nmodel > 5 || nconf > 3)
		SB_BUG("pipexp: DAPPLE's grid has 5 models and 3 configurations");
	rc = sb_pipeline_exp_setup(c, names, nmodel, err);
	if (rc)
		return rc;
	s = c->state;
	s->labels = sb_pipeline_exp_planners(labels);
	for (k = 0; k < s->nmodel; k++) {
		double batch;
		for (i = 0; strcmp(names[i], s->model[k].name); i++)
			;
		for (j = 0; j < nconf; j++)
			for (b = 0, batch = first[i]; b < nbatch; b++, batch *= factor)
				sb_pipeline_exp_add(s, k, configs[j], 0, batch, 0, 0);
	}
	c->npoints = s->npt;
	return 0;
}
