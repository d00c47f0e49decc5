/*
 * run.c - running a partitioner + local scheduler combination end to
 * end, with both the planned and the simulated schedule validated by the
 * independent checker before any metric is reported.
 */
#include "dag.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void list_role(char *buf, size_t len, int want_part)
{
	int n, i;
	const struct sb_dag_policy *const *all = sb_dag_policies(&n);
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		int is_part = all[i]->partition != NULL;
		int is_sched = all[i]->priority || all[i]->pick;
		if ((want_part && is_part) || (!want_part && is_sched)) {
			strncat(buf, buf[0] ? ", " : "", len - strlen(buf) - 1);
			strncat(buf, all[i]->name, len - strlen(buf) - 1);
		}
	}
}

int sb_dag_combo_parse(struct sb_dag_combo *c, const char *spec, struct sb_err *err)
{
	char part[64], known[1024];
	const char *plus = strchr(spec, '+');
	size_t plen = plus ? (size_t)(plus - spec) : strlen(spec);

	memset(c, 0, sizeof *c);
	if (plen == 0 || plen >= sizeof part)
		return sb_err_set(err, SB_EXIT_INPUT, "policy '%s': expected PARTITIONER+SCHEDULER "
				  "or a baseline name", spec);
	memcpy(part, spec, plen);
	part[plen] = 0;
	c->part = sb_dag_policy_find(part);
	if (!c->part || !c->part->partition) {
		list_role(known, sizeof known, 1);
		return sb_err_set(err, SB_EXIT_INPUT, "policy '%s': '%s' is not a registered "
				  "dag partitioner (known: %s)", spec, part, known);
	}
	if (plus) {
		c->sched = sb_dag_policy_find(plus + 1);
		if (!c->sched || !(c->sched->priority || c->sched->pick)) {
			list_role(known, sizeof known, 0);
			return sb_err_set(err, SB_EXIT_INPUT, "policy '%s': '%s' is not a "
					  "registered dag scheduler (known: %s)", spec, plus + 1,
					  known);
		}
		snprintf(c->label, sizeof c->label, "%s+%s", c->part->name, c->sched->name);
	} else {
		const char *ds = c->part->default_sched;
		if (!ds)
			return sb_err_set(err, SB_EXIT_INPUT, "policy '%s': a partitioner needs "
					  "a scheduler, e.g. '%s+pct'", spec, spec);
		c->sched = sb_dag_policy_find(ds);
		if (!c->sched)
			SB_BUG("default scheduler '%s' of '%s' is not registered", ds, spec);
		snprintf(c->label, sizeof c->label, "%s", c->part->name);
	}
	return 0;
}

int sb_dag_run_combo(const struct sb_dag_inst *in, const struct sb_dag_combo *c,
		     const struct sb_opts *popts, const struct sb_opts *sopts,
		     struct sb_rng *rng, struct sb_dag_metrics *m, int *place_out,
		     struct sb_err *err)
{
	return sb_dag_run_combo_start(in, c, popts, sopts, rng, m, place_out, NULL, err);
}

int sb_dag_run_combo_start(const struct sb_dag_inst *in, const struct sb_dag_combo *c,
			   const struct sb_opts *popts, const struct sb_opts *sopts,
			   struct sb_rng *rng, struct sb_dag_metrics *m, int *place_out,
			   double *start_out, struct sb_err *err)
{
	struct sb_dag_plan plan;
	struct sb_dag_exec x;
	struct sb_dag_result res;
	struct sb_dag_schedule sch;
	int rc, d, n = in->g.n;
	double t0;
	char *used;

	memset(m, 0, sizeof *m);
	memset(&x, 0, sizeof x);
	memset(&res, 0, sizeof res);
	sb_dag_plan_init(&plan, n);
	t0 = sb_now();
	rc = c->part->partition(in, popts, rng, &plan, err);
	m->part_seconds = sb_now() - t0;
	if (rc) {
		sb_err_prefix(err, "%s: ", c->label);
		goto out;
	}
	for (d = 0; d < n; d++)
		if (plan.place[d] < 0 || plan.place[d] >= in->dev.n)
			SB_BUG("partitioner %s left op %d unplaced", c->part->name, d);
	sb_dag_exec_build(&x, in, plan.place);
	m->plan_makespan = NAN;
	if (plan.has_plan == SB_DAG_PLAN_SCHEDULE) {
		double *scratch = SB_NEW(double, x.nsend);
		sb_dag_schedule_of_plan(&sch, &x, &plan, scratch);
		rc = sb_dag_check(in, &sch, err);
		sb_free(scratch);
		if (rc) {
			sb_err_prefix(err, "%s: planned schedule rejected by the checker: ",
				      c->label);
			goto out;
		}
		m->plan_makespan = plan.plan_makespan;
	}
	t0 = sb_now();
	rc = sb_dag_simulate(&x, &plan, c->sched, sopts, &res, err);
	m->sched_seconds = sb_now() - t0;
	if (rc) {
		sb_err_prefix(err, "%s: ", c->label);
		goto out;
	}
	sb_dag_schedule_of_result(&sch, &x, &res);
	rc = sb_dag_check(in, &sch, err);
	if (rc) {
		sb_err_prefix(err, "%s: simulated schedule rejected by the checker: ",
			      c->label);
		goto out;
	}
	m->makespan = res.makespan;
	m->comm_volume = res.comm_volume;
	m->nsend = x.nsend;
	m->events = res.events;
	m->busy_fraction = res.makespan > 0
		? res.busy_time / (res.makespan * in->dev.n) : 0;
	used = SB_NEW(char, in->dev.n);
	for (d = 0; d < n; d++)
		used[plan.place[d]] = 1;
	for (d = 0; d < in->dev.n; d++)
		m->devices_used += used[d];
	sb_free(used);
	if (place_out)
		memcpy(place_out, plan.place, sizeof(int) * (size_t)n);
	if (start_out)
		memcpy(start_out, res.start, sizeof(double) * (size_t)n);
out:
	sb_dag_result_release(&res);
	sb_dag_exec_release(&x);
	sb_dag_plan_release(&plan);
	return rc;
}
