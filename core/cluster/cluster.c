/*
 * cluster.c - job sets and cluster descriptions: validation and release,
 * and parsing "SCHEDULER+PLACER" combinations of registered policies.
 */
#include "cluster.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sb_jobset_release(struct sb_jobset *js)
{
	if (!js)
		return;
	sb_free(js->job);
	sb_free(js->model);
	sb_free(js->hist);
	memset(js, 0, sizeof *js);
}

double sb_cluster_restart(const struct sb_cluster *c)
{
	return c->replay ? 0 : c->restart;
}

static int pos_finite(double x)
{
	return isfinite(x) && x > 0;
}

int sb_cluster_validate(const struct sb_cluster *c, struct sb_err *err)
{
	const char *f = NULL;
	if (c->nserver < 1)
		f = "servers";
	else if (c->gpus < 1)
		f = "gpus per server";
	else if ((double)c->nserver * c->gpus > 1e7)
		f = "servers x gpus";
	else if (!pos_finite(c->b_in))
		f = "intra-server bandwidth";
	else if (!pos_finite(c->b_out) || c->b_out > c->b_in)
		f = "inter-server bandwidth (must be positive and at most the intra-server one)";
	else if (!pos_finite(c->gpu_flops))
		f = "gpu flops";
	else if (!pos_finite(c->mfe) || c->mfe > 1)
		f = "model-flop efficiency";
	else if (!isfinite(c->restart) || c->restart < 0)
		f = "restart overhead";
	if (!f && c->interf && sb_cluster_interf_validate(c, err))
		return SB_EXIT_INPUT;
	if (f)
		return sb_err_set(err, SB_EXIT_INPUT, "cluster '%s': field '%s' out of range",
				  c->name, f);
	return 0;
}

static int model_ok(const struct sb_model *m, const char **f)
{
	*f = NULL;
	if (m->cls != SB_MODEL_CNN && m->cls != SB_MODEL_TRANSFORMER)
		*f = "class";
	else if (!pos_finite(m->params))
		*f = "params";
	else if (m->cls == SB_MODEL_TRANSFORMER &&
		 (m->layers < 1 || m->hidden < 1 || m->seq < 1))
		*f = "layers/hidden/seq";
	else if (m->cls == SB_MODEL_CNN && !pos_finite(m->fwd_flops))
		*f = "fwd_flops";
	else if (!pos_finite(m->grad_bytes))
		*f = "grad_bytes";
	else if (!isfinite(m->act_bytes) || m->act_bytes < 0)
		*f = "act_bytes";
	else if (m->batch < 1)
		*f = "batch";
	return *f == NULL;
}

int sb_jobset_validate(const struct sb_jobset *js, const struct sb_cluster *c,
		       struct sb_err *err)
{
	int i;
	const char *f;

	for (i = 0; i < js->nmodel; i++)
		if (!model_ok(&js->model[i], &f))
			return sb_err_set(err, SB_EXIT_INPUT, "model %d ('%s'): field '%s' out of range",
					  i, js->model[i].name, f);
	for (i = 0; i < js->n; i++) {
		const struct sb_job *j = &js->job[i];
		f = NULL;
		if (j->id != i)
			f = "id";
		else if (!isfinite(j->arrival) || j->arrival < 0)
			f = "arrival";
		else if (i > 0 && j->arrival < js->job[i - 1].arrival)
			f = "arrival (not sorted)";
		else if (j->model < 0 || j->model >= js->nmodel)
			f = "model";
		else if (j->d < 1 || j->t < 1 || j->p < 1 ||
			 (long)j->d * j->t * j->p != (long)j->gpus)
			f = "d/t/p";
		else if (j->micro < 1)
			f = "micro";
		else if (j->batch < 1 || j->batch < (long)j->d * j->micro)
			f = "batch (at least one sample per micro-batch and replica)";
		else if (j->iters < 1)
			f = "iters";
		else if (js->model[j->model].cls == SB_MODEL_CNN && j->t > 1)
			f = "t (CNNs are not tensor-parallel here)";
		else if (c && j->gpus > c->nserver * c->gpus)
			f = "gpus (more than the cluster has)";
		else if (c && c->replay && !pos_finite(j->trace_runtime))
			f = "trace_runtime (trace replay needs every job's measured duration)";
		if (!f && c && c->interf)
			f = sb_cluster_interf_job_bad(c, js, j);
		if (f)
			return sb_err_set(err, SB_EXIT_INPUT, "job %d: field '%s' out of range", i, f);
	}
	for (i = 0; i < js->nhist; i++)
		if (!pos_finite(js->hist[i]))
			return sb_err_set(err, SB_EXIT_INPUT, "history value %d: field 'gpu_seconds' "
					  "out of range (must be positive)", i);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Combinations                                                        */
/* ------------------------------------------------------------------ */

static void list_role(char *buf, size_t len, int placers)
{
	int n, i;
	const struct sb_cluster_policy *const *all = sb_cluster_policies(&n);
	size_t k = 0;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		int is_placer = all[i]->place != NULL;
		if (is_placer != placers)
			continue;
		k += (size_t)snprintf(buf + k, k < len ? len - k : 0, "%s%s", k ? ", " : "",
				      all[i]->name);
		if (k >= len)
			break;
	}
}

int sb_cluster_combo_parse(struct sb_cluster_combo *c, const char *spec,
			   struct sb_err *err)
{
	char name[96], list[512];
	const char *plus = strchr(spec, '+');
	size_t len = plus ? (size_t)(plus - spec) : strlen(spec);

	memset(c, 0, sizeof *c);
	if (len == 0 || len >= sizeof name)
		return sb_err_set(err, SB_EXIT_INPUT, "policy '%s': expected SCHEDULER[+PLACER]",
				  spec);
	memcpy(name, spec, len);
	name[len] = '\0';
	c->sched = sb_cluster_policy_find(name);
	if (!c->sched || !c->sched->schedule) {
		list_role(list, sizeof list, 0);
		return sb_err_set(err, SB_EXIT_INPUT,
				  "policy '%s': '%s' is not a registered cluster scheduler "
				  "(schedulers: %s)", spec, name, list);
	}
	snprintf(name, sizeof name, "%s", plus ? plus + 1 : c->sched->default_place);
	c->place = sb_cluster_policy_find(name);
	if (!c->place || !c->place->place) {
		list_role(list, sizeof list, 1);
		return sb_err_set(err, SB_EXIT_INPUT,
				  "policy '%s': '%s' is not a registered cluster placer "
				  "(placers: %s)", spec, name, list);
	}
	if (plus)
		snprintf(c->label, sizeof c->label, "%s", spec);
	else
		snprintf(c->label, sizeof c->label, "%s+%s", c->sched->name, c->place->name);
	return 0;
}
