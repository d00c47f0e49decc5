/*
 * common.c - shared machinery of the cluster-family experiments.
 */
#include "common.h"
#include "cluster/bound.h"
#include "workloads/cluster/trace.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every registered scheduler is compared in the headline figures; these
 * are the ones plotted by name (policies added later show up in the
 * results files and in figures that list every policy). */
const char *const sb_cluster_exp_schedulers[] = {
	"fifo", "fifo-bf", "srpt-oracle", "srpt-mean", "tiresias", "asrpt", "asrpt-strict",
	"asrpt-bf", "asrpt-pre", "asrpt-oracle", "asrpt-median", NULL,
};

/* "k=v k=v" onto the scheduler's or the placer's options */
static int apply(const struct sb_cluster_combo *cb, struct sb_opts *so, struct sb_opts *po,
		 const char *set, struct sb_err *err)
{
	char buf[512], *tok, *save = NULL;
	if (!set || !*set)
		return 0;
	snprintf(buf, sizeof buf, "%s", set);
	for (tok = strtok_r(buf, " ,", &save); tok; tok = strtok_r(NULL, " ,", &save)) {
		if (sb_opts_set(so, cb->sched->params, tok, cb->label, err) == 0)
			continue;
		if (sb_opts_set(po, cb->place->params, tok, cb->label, err) != 0)
			return SB_EXIT_INPUT;
	}
	return 0;
}

double sb_cluster_exp_lb1_flow(const struct sb_cluster *cl, const struct sb_jobset *js)
{
	double *lb = SB_NEW(double, js->n > 0 ? js->n : 1), a = 0, v;
	int j;
	for (j = 0; j < js->n; j++) {
		struct sb_jobgraph h;
		const struct sb_job *job = &js->job[j];
		sb_jobgraph_build(&h, job, &js->model[job->model], cl);
		lb[j] = sb_job_iter_time_lb(cl, &h);
		sb_jobgraph_release(&h);
		a += job->arrival;
	}
	v = sb_cluster_lb1(cl, js, lb) - a;
	sb_free(lb);
	return v;
}

int sb_cluster_exp_run(const struct sb_exp_ctx *c, const struct sb_cluster *cl,
		 const struct sb_jobset *js, const char *workload, const char *label,
		 const char *set, uint64_t key, int rep, int first, struct sb_table *out,
		 struct sb_table *timing, struct sb_cluster_result *r_out, struct sb_err *err)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_cluster_result r;
	struct sb_cluster_metrics m;
	struct sb_rng sr;
	char why[512], name[160];
	double flow = 0, lb1;
	size_t row;
	int rc, j;

	rc = sb_cluster_combo_parse(&cb, label, err);
	if (rc)
		return rc;
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	rc = apply(&cb, &so, &po, set, err);
	if (rc)
		return rc;
	sr = sb_rng_stream(c->seed, key, (uint64_t)rep, SB_RNG_POLICY);
	rc = sb_cluster_simulate(cl, js, &cb, &so, &po, sb_rng_u64(&sr), &r, err);
	if (rc)
		return rc;
	if (sb_cluster_check(cl, js, &r, why, sizeof why) != 0) {
		sb_cluster_result_release(&r);
		return sb_err_set(err, SB_EXIT_RUN, "%s on %s failed validation: %s", cb.label,
				  workload, why);
	}
	sb_cluster_metrics(cl, js, &r, first, &m);
	for (j = 0; j < js->n; j++)
		flow += r.finish[j] - js->job[j].arrival;
	lb1 = sb_cluster_exp_lb1_flow(cl, js);
	if (set && *set) {
		char *q;
		snprintf(name, sizeof name, "%s[%s]", cb.label, set);
		for (q = name; *q; q++)
			if (*q == ' ')
				*q = ',';   /* names are single tokens in exports */
	} else {
		snprintf(name, sizeof name, "%s", cb.label);
	}
	row = sb_table_add(out);
	sb_table_set_str(out, row, "workload", workload);
	sb_table_set_str(out, row, "policy", name);
	sb_table_set_str(out, row, "sched", cb.sched->name);
	sb_table_set_str(out, row, "place", cb.place->name);
	sb_table_set_int(out, row, "rep", rep);
	sb_table_set_int(out, row, "jobs", m.n);
	sb_table_set_int(out, row, "gpus", cl->nserver * cl->gpus);
	sb_table_set_dbl(out, row, "jct_mean", m.jct_mean);
	sb_table_set_dbl(out, row, "jct_p50", m.jct_p50);
	sb_table_set_dbl(out, row, "jct_p95", m.jct_p95);
	sb_table_set_dbl(out, row, "jct_p99", m.jct_p99);
	sb_table_set_dbl(out, row, "queue_mean", m.queue_mean);
	sb_table_set_dbl(out, row, "makespan", m.makespan);
	sb_table_set_dbl(out, row, "util", m.util);
	sb_table_set_dbl(out, row, "inter_bytes", m.inter_bytes);
	sb_table_set_dbl(out, row, "slowdown", m.slowdown_mean);
	sb_table_set_int(out, row, "preemptions", m.preemptions);
	sb_table_set_dbl(out, row, "flow_total", flow);
	sb_table_set_dbl(out, row, "lb1_flow", lb1);
	sb_table_set_dbl(out, row, "ratio_lb1", lb1 > 0 ? flow / lb1 : NAN);
	sb_table_set_dbl(out, row, "load_ref", m.load_ref);
	sb_table_set_dbl(out, row, "load_eff", m.load_eff);
	sb_table_set_dbl(out, row, "idle_fit", m.idle_fit);
	sb_table_set_dbl(out, row, "spread", m.spread);
	if (flow < lb1 * (1 - 1e-9)) {
		sb_cluster_result_release(&r);
		return sb_err_set(err, SB_EXIT_RUN, "%s on %s beat the lower bound LB1 (%g < %g): "
				  "a bug", cb.label, workload, flow, lb1);
	}
	if (timing) {
		row = sb_table_add(timing);
		sb_table_set_str(timing, row, "workload", workload);
		sb_table_set_str(timing, row, "policy", name);
		sb_table_set_int(timing, row, "rep", rep);
		sb_table_set_int(timing, row, "jobs", js->n);
		sb_table_set_int(timing, row, "decisions", r.decisions);
		sb_table_set_dbl(timing, row, "sim_seconds", r.sim_seconds);
		sb_table_set_dbl(timing, row, "policy_seconds", r.sched_seconds);
		sb_table_set_dbl(timing, row, "us_per_decision",
				 r.decisions ? 1e6 * r.sched_seconds / r.decisions : NAN);
	}
	if (r_out)
		*r_out = r;
	else
		sb_cluster_result_release(&r);
	return 0;
}

void sb_cluster_exp_w1(const struct sb_exp_ctx *c, const struct sb_cluster *cl, int njobs,
		 double load, uint64_t key, struct sb_jobset *js)
{
	struct sb_w1_params p;
	struct sb_rng r = sb_rng_stream(c->seed, key, 0, SB_RNG_INSTANCE);
	sb_w1_defaults(&p);
	p.njobs = njobs;
	p.load = load;
	sb_w1_generate(js, &p, cl, &r);
}

int sb_cluster_exp_w3(struct sb_exp_ctx *c, const struct sb_cluster *cl, struct sb_jobset *js,
		int *real, struct sb_err *err)
{
	char buf[4096];
	const char *path = sb_exp_data(c, "tiresias/60_job.csv", buf, sizeof buf);
	static const char *const cnn[] = { "resnet50", "vgg16", "alexnet", "googlenet",
		"inception3", "inception4", "resnet101", "resnet152", "vgg11", "vgg19" };
	struct sb_rng r;
	double t = 0;
	int i, rc;

	*real = 0;
	if (path) {
		struct sb_trace tr;
		rc = sb_load_tiresias_jobs(path, &tr, err);
		if (rc)
			return rc;
		rc = sb_w3_from_trace(&tr, cl, 0, js, err);
		sb_trace_release(&tr);
		if (!rc)
			rc = sb_exp_add_input(c, path, err);
		*real = rc == 0;
		return rc;
	}
	/* synthetic stand-in with the trace's shape */
	r = sb_rng_stream(c->seed, 0, 0, SB_RNG_INSTANCE);
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = 60;
	js->job = SB_NEW(struct sb_job, 60);
	for (i = 0; i < 60; i++) {
		struct sb_job *j = &js->job[i];
		int g = 1 << sb_rng_below(&r, 4), k = sb_catalog_find(cnn[i % 10]);
		j->id = i;
		j->arrival = t;
		t += 20 + 25 * sb_rng_uniform(&r);
		j->model = k;
		j->d = g;
		j->t = j->p = 1;
		j->gpus = g;
		j->micro = 4;
		j->batch = 32 * g;
		j->batch_mult = (double)j->batch / js->model[k].batch;
		j->lr_mult = 1;
		j->data_frac = 1;
		j->family = k;
		j->trace_runtime = -1;
		/* durations like the trace's: 100-2000 s on the reference placement */
		j->iters = 1;
		j->iters = (long)fmax(1, floor((100 + 1900 * sb_rng_uniform(&r)) /
					       sb_job_ref_time(cl, js, i) + 0.5));
	}
	snprintf(js->source, sizeof js->source,
		 "synthetic fallback: 60 data-parallel CNN jobs shaped like the Tiresias trace");
	return 0;
}

int sb_cluster_exp_w1_point(const struct sb_exp_ctx *c, const struct sb_cluster *cl, int njobs,
		      double load, double warmup, uint64_t key, int rep, const char *xcol,
		      double x, const char *const *labels, const char *const *sets,
		      struct sb_table *out, struct sb_table *timing, struct sb_err *err)
{
	struct sb_jobset js;
	char wl[64];
	size_t first_row = out->nrow, row;
	int k, rc = 0;

	sb_cluster_exp_w1(c, cl, njobs, load, key, &js);
	snprintf(wl, sizeof wl, "W1-%s-load%.2f", cl->name, load);
	for (k = 0; labels[k] && !rc; k++)
		rc = sb_cluster_exp_run(c, cl, &js, wl, labels[k], sets ? sets[k] : NULL, key, rep,
				  (int)floor(warmup * njobs), out, timing, NULL, err);
	for (row = first_row; row < out->nrow && !rc; row++)
		sb_table_set_dbl(out, row, xcol, x);
	sb_jobset_release(&js);
	return rc;
}

char **sb_cluster_exp_all_schedulers(const char *const *extra)
{
	int n, i, k = 0, ne = 0;
	const struct sb_cluster_policy *const *all = sb_cluster_policies(&n);
	char **out;
	while (extra && extra[ne])
		ne++;
	out = SB_NEW(char *, n + ne + 1);
	for (i = 0; i < n; i++)
		/* marl.md's own experiments run the topo ones; speed variants
		 * would repeat their reference's curve */
		if (all[i]->schedule && !all[i]->topo && !all[i]->speed_variant_of)
			out[k++] = sb_xstrdup(all[i]->name);
	for (i = 0; i < ne; i++)
		out[k++] = sb_xstrdup(extra[i]);
	return out;
}

int sb_cluster_exp_sweep_setup(struct sb_exp_ctx *c, const char *count, const char *cluster,
			 const char *const *labels, struct sb_err *err)
{
	struct sb_cluster_exp_sweep *s = SB_NEW(struct sb_cluster_exp_sweep, 1);
	int n = 0, i;
	c->state = s;
	s->jobs = (int)sb_opts_get_or(&c->opts, "jobs", 0);
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->nval = (int)sb_opts_get(&c->opts, count);
	s->warmup = sb_opts_get(&c->opts, "warmup");
	s->load = sb_opts_get_or(&c->opts, "load", 0);
	if (labels) {
		while (labels[n])
			n++;
		s->labels = SB_NEW(char *, n + 1);
		for (i = 0; i < n; i++)
			s->labels[i] = sb_xstrdup(labels[i]);
	} else {
		s->labels = sb_cluster_exp_all_schedulers(NULL);
	}
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: W1 recurring job families of our own (spec asrpt.md section 8)");
	c->npoints = s->nval * s->reps;
	return sb_cluster_named(cluster, &s->cl, err);
}

void sb_cluster_exp_sweep_teardown(struct sb_exp_ctx *c)
{
	struct sb_cluster_exp_sweep *s = c->state;
	if (!s)
		return;
	sb_exp_free_list(s->labels);
	sb_free(s);
	c->state = NULL;
}

