/*
 * common.c - shared machinery of the dag-family experiments.
 */
#include "common.h"
#include "workloads/dag/load.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int is_sched(const struct sb_dag_policy *p)
{
	return p->priority || p->pick;
}

static int is_planner(const struct sb_dag_policy *p)
{
	return p->partition && p->default_sched && !strcmp(p->default_sched, "heft-order");
}

char **sb_dag_exp_all_combos(int *nout)
{
	int n, i, j, k = 0;
	const struct sb_dag_policy *const *all = sb_dag_policies(&n);
	char **list = SB_NEW(char *, (size_t)n * n + 1);

	for (i = 0; i < n; i++) {
		if (!all[i]->partition)
			continue;
		if (is_planner(all[i])) {
			list[k++] = sb_xstrdup(all[i]->name);
			if (sb_dag_policy_find("pct")) {
				char b[96];
				snprintf(b, sizeof b, "%s+pct", all[i]->name);
				list[k++] = sb_xstrdup(b);
			}
			continue;
		}
		for (j = 0; j < n; j++) {
			char b[96];
			if (!is_sched(all[j]) || !strcmp(all[j]->name, "heft-order"))
				continue;
			snprintf(b, sizeof b, "%s+%s", all[i]->name, all[j]->name);
			list[k++] = sb_xstrdup(b);
		}
	}
	list[k] = NULL;
	*nout = k;
	return list;
}

int sb_dag_exp_run(const struct sb_exp_ctx *c, const struct sb_dag_inst *in,
		  const char *label, uint64_t inst_key, int rep, double lb,
		  struct sb_table *out, struct sb_table *timing,
		  struct sb_dag_metrics *m, struct sb_err *err)
{
	return sb_dag_exp_run_start(c, in, label, inst_key, rep, lb, out, timing, m,
				   NULL, NULL, err);
}

int sb_dag_exp_run_start(const struct sb_exp_ctx *c, const struct sb_dag_inst *in,
			const char *label, uint64_t inst_key, int rep, double lb,
			struct sb_table *out, struct sb_table *timing,
			struct sb_dag_metrics *m, int *place, double *start,
			struct sb_err *err)
{
	struct sb_dag_combo combo;
	struct sb_opts po, so;
	struct sb_rng rng;
	size_t r;
	int rc;

	rc = sb_dag_combo_parse(&combo, label, err);
	if (rc)
		return rc;
	sb_opts_defaults(&po, combo.part->params);
	sb_opts_defaults(&so, combo.sched->params);
	rng = sb_rng_stream(c->seed, inst_key, (uint64_t)rep,
			    SB_RNG_POLICY ^ sb_hash_str(combo.label));
	rc = sb_dag_run_combo_start(in, &combo, &po, &so, &rng, m, place, start, err);
	if (rc)
		return rc;
	r = sb_table_add(out);
	sb_table_set_str(out, r, "instance", in->name);
	sb_table_set_str(out, r, "policy", combo.label);
	sb_table_set_str(out, r, "part", combo.part->name);
	sb_table_set_str(out, r, "sched", combo.sched->name);
	sb_table_set_int(out, r, "rep", rep);
	sb_table_set_int(out, r, "ops", in->g.n);
	sb_table_set_int(out, r, "edges", in->g.m);
	sb_table_set_int(out, r, "devices", in->dev.n);
	sb_table_set_dbl(out, r, "makespan", m->makespan);
	sb_table_set_dbl(out, r, "plan_makespan", m->plan_makespan);
	sb_table_set_dbl(out, r, "comm_volume", m->comm_volume);
	sb_table_set_int(out, r, "sends", m->nsend);
	sb_table_set_int(out, r, "devices_used", m->devices_used);
	sb_table_set_dbl(out, r, "busy_fraction", m->busy_fraction);
	sb_table_set_dbl(out, r, "lb", lb);
	sb_table_set_dbl(out, r, "ratio_lb", lb > 0 ? m->makespan / lb : NAN);
	if (timing) {
		r = sb_table_add(timing);
		sb_table_set_str(timing, r, "instance", in->name);
		sb_table_set_str(timing, r, "policy", combo.label);
		sb_table_set_int(timing, r, "rep", rep);
		sb_table_set_int(timing, r, "ops", in->g.n);
		sb_table_set_int(timing, r, "edges", in->g.m);
		sb_table_set_dbl(timing, r, "part_seconds", m->part_seconds);
		sb_table_set_dbl(timing, r, "sched_seconds", m->sched_seconds);
	}
	return 0;
}

int sb_dag_exp_layered(const struct sb_exp_ctx *c, struct sb_dag_inst *in,
		      int levels, double p, uint64_t inst_key, struct sb_err *err)
{
	struct sb_layered_params lp;
	struct sb_devgen_params dp;
	struct sb_rng r = sb_rng_stream(c->seed, inst_key, 0, SB_RNG_INSTANCE);
	char name[64];

	(void)err;
	memset(in, 0, sizeof *in);
	sb_layered_defaults(&lp);
	lp.levels = levels;
	lp.p = p;
	sb_gen_layered(&in->g, &lp, &r);
	sb_devgen_defaults(&dp);
	sb_gen_devices(&in->dev, &dp, &r);
	in->send_ops = 10;
	snprintf(name, sizeof name, "layered-L%d-p%g", levels, p);
	in->name = sb_xstrdup(name);
	in->source = sb_xstrdup("generator: layered DAG (spec tfpart.md section 7) "
				"+ 50 generated devices");
	return 0;
}

int sb_dag_exp_no_time_stop(const struct sb_exp_ctx *c, int point, const char *model,
			    const struct sb_lp_result *lr, const char *time_param,
			    const char *limit_param, struct sb_err *err)
{
	if (lr->stopped != SB_LP_STOP_TIME)
		return 0;
	return sb_err_set(err, SB_EXIT_RUN,
			  "%s: point %d: the %s stopped at its time-limit safety net (%s = "
			  "%g CPU s) after %ld nodes and %ld simplex iterations, before its "
			  "deterministic limit: its result would depend on the machine's speed "
			  "and is not stored (raise %s or lower %s)", c->exp->name, point,
			  model, time_param, sb_opts_get(&c->opts, time_param), lr->nodes,
			  lr->iters, time_param, limit_param);
}

void sb_dag_exp_set_devices(struct sb_dag_inst *in, const struct sb_devices *dev)
{
	int n = dev->n;
	sb_devices_release(&in->dev);
	sb_devices_alloc(&in->dev, n);
	memcpy(in->dev.speed, dev->speed, sizeof(double) * (size_t)n);
	memcpy(in->dev.mem, dev->mem, sizeof(double) * (size_t)n);
	memcpy(in->dev.type, dev->type, sizeof(int) * (size_t)n);
	memcpy(in->dev.rate, dev->rate, sizeof(double) * (size_t)n * (size_t)n);
	memcpy(in->dev.ext_id, dev->ext_id, sizeof(long) * (size_t)n);
}

static const char paper_devices[] =
	"tfpartsched/device/2017_02_03_11_22_48-50-10-100-100000000-10-60-0.6.csv";

int sb_dag_exp_paper_devices(struct sb_exp_ctx *c, struct sb_devices *dev, int *real,
			    struct sb_err *err)
{
	char buf[4096];
	const char *path = sb_exp_data(c, paper_devices, buf, sizeof buf);
	int rc;
	*real = 0;
	if (!path)
		return 0;
	rc = sb_load_tf_devices(path, dev, err);
	if (!rc)
		rc = sb_exp_add_input(c, path, err);
	*real = rc == 0;
	return rc;
}
