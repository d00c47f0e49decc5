/*
 * eval.c - `sb eval dag`: run one policy on an instance a user brings
 * and print its metrics, the lower bounds and the gap as key: value lines.
 *
 *   sb eval dag --graph G.csv --devices D.csv --policy cp+pct [--bound]
 *   sb eval dag --stg F.stg --devices 4 --policy heft [--milp NODES [--milp-time S]]
 *   sb eval dag --etc PREFIX --policy cpop
 *   options: --seed N, --set [part.|sched.]key=value, --schedule-out FILE
 *
 * --milp NODES solves the relaxed-send MILP (bound.h) with a budget of
 * NODES branch-and-bound nodes over all its solves: a deterministic amount
 * of work, so the bound it prints is the same on every machine. The clock
 * is only a safety net (--milp-time, default 600 s, for model building and
 * every solve together); when it ends the search first, milp_stop says
 * "time" and a warning says that the bound depends on the machine.
 */
#include "dag.h"
#include "bound.h"
#include "family.h"
#include "lp.h"
#include "workloads/dag/load.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --set key=value goes to the partitioner or scheduler that declares the
 * key; a "part." or "sched." prefix picks one explicitly. */
static int apply_set(const struct sb_dag_combo *c, struct sb_opts *po, struct sb_opts *so,
		     const char *kv, struct sb_err *err)
{
	if (!strncmp(kv, "part.", 5))
		return sb_opts_set(po, c->part->params, kv + 5, "--set", err);
	if (!strncmp(kv, "sched.", 6))
		return sb_opts_set(so, c->sched->params, kv + 6, "--set", err);
	if (sb_opts_set(po, c->part->params, kv, "--set", err) == 0)
		return 0;
	if (c->sched != c->part && sb_opts_set(so, c->sched->params, kv, "--set", err) == 0)
		return 0;
	return SB_EXIT_INPUT;
}

static int write_schedule(const char *path, const struct sb_dag_inst *in,
			  const struct sb_dag_combo *c, const struct sb_opts *po,
			  const struct sb_opts *so, struct sb_rng rng, struct sb_err *err)
{
	struct sb_dag_plan plan;
	struct sb_dag_exec x;
	struct sb_dag_result res;
	FILE *f;
	int t, rc;

	sb_dag_plan_init(&plan, in->g.n);
	rc = c->part->partition(in, po, &rng, &plan, err);
	if (rc) {
		sb_dag_plan_release(&plan);
		return rc;
	}
	sb_dag_exec_build(&x, in, plan.place);
	rc = sb_dag_simulate(&x, &plan, c->sched, so, &res, err);
	if (!rc) {
		f = fopen(path, "w");
		if (!f) {
			rc = sb_err_set(err, SB_EXIT_RUN, "cannot write '%s': %s", path,
					strerror(errno));
		} else {
			fprintf(f, "task,kind,op,device,start,finish\n");
			for (t = 0; t < x.ntask; t++) {
				int op = t < x.n ? t : x.send_op[t - x.n];
				fprintf(f, "%d,%s,%ld,%ld,%.17g,%.17g\n", t,
					t < x.n ? "op" : "send", in->g.ext_id[op],
					in->dev.ext_id[x.dev[t]], res.start[t], res.finish[t]);
			}
			if ((ferror(f) | fclose(f)) != 0)
				rc = sb_err_set(err, SB_EXIT_RUN, "cannot write '%s': %s", path,
						strerror(errno));
		}
		sb_dag_result_release(&res);
	}
	sb_dag_exec_release(&x);
	sb_dag_plan_release(&plan);
	return rc;
}

static const char *const value_opts[] = { "--graph", "--devices", "--stg", "--etc", "--milp",
					   "--milp-time", NULL };

#define MILP_TIME_DEFAULT 600.0

int sb_dag_eval(int argc, char **argv)
{
	const char *graph = NULL, *devices = NULL, *stg = NULL, *etc = NULL, *policy,
		   *sched_out;
	int i, rc, bound;
	long milp = 0;
	double milp_time = 0;
	unsigned long long seed;
	struct sb_eval_args ea;
	struct sb_dag_inst in;
	struct sb_err err = { 0, "" };
	struct sb_dag_combo combo;
	struct sb_opts po, so;
	struct sb_dag_metrics m;
	struct sb_dag_bounds b;
	struct sb_rng rng;
	long trailer = -1;
	int *place = NULL;
	double *start = NULL;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		if ((rc = sb_eval_next(&sb_family_dag, &ea, argc, argv, &i, NULL, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!strcmp(a, "--graph")) graph = v;
		else if (!strcmp(a, "--devices")) devices = v;
		else if (!strcmp(a, "--stg")) stg = v;
		else if (!strcmp(a, "--etc")) etc = v;
		else if (!strcmp(a, "--milp")) {
			char *end;
			errno = 0;
			milp = strtol(v, &end, 10);
			if (*end || end == v || errno || milp < 1 || milp > 1000000000L)
				return sb_eval_fail(&sb_family_dag, "--milp '%s': expected a node budget, an "
						 "integer in 1..1e9", v);
		} else {
			char *end;
			milp_time = strtod(v, &end);
			if (*end || end == v || !(milp_time > 0) || !(milp_time <= 1e6))
				return sb_eval_fail(&sb_family_dag, "--milp-time '%s': expected seconds in (0, 1e6]",
						 v);
		}
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_dag, &err);
	policy = ea.policy;
	sched_out = ea.schedule_out;
	seed = ea.seed;
	bound = ea.bound || milp > 0;
	if (milp_time > 0 && !milp)
		return sb_eval_fail(&sb_family_dag, "%s", "--milp-time is the safety net of --milp NODES: give "
				 "--milp too");
	if (!(milp_time > 0))
		milp_time = MILP_TIME_DEFAULT;
	if (sb_dag_combo_parse(&combo, policy, &err)) {
		sb_err_print(&err);
		return SB_EXIT_INPUT;
	}
	sb_opts_defaults(&po, combo.part->params);
	sb_opts_defaults(&so, combo.sched->params);
	for (i = 0; i < ea.nset; i++)
		if (apply_set(&combo, &po, &so, ea.sets[i], &err)) {
			sb_err_print(&err);
			return SB_EXIT_INPUT;
		}
	memset(&in, 0, sizeof in);
	if (graph && devices && !stg && !etc) {
		rc = sb_load_tf_inst(graph, devices, &in, &err);
	} else if (stg && !graph && !etc) {
		char *end;
		long nd = devices ? strtol(devices, &end, 10) : 0;
		if (!devices || *end || nd < 1 || nd > 4096)
			return sb_eval_fail(&sb_family_dag, "--stg needs --devices N (1..4096), got '%s'",
					 devices ? devices : "");
		rc = sb_load_stg(stg, (int)nd, &in, &trailer, &err);
	} else if (etc && !graph && !stg) {
		rc = sb_load_etc_prefix(etc, &in, &err);
	} else {
		return sb_eval_fail(&sb_family_dag, "%s", "give one input: --graph + --devices, --stg + --devices, "
				 "or --etc");
	}
	if (rc) {
		sb_err_print(&err);
		return rc;
	}
	rng = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(combo.label));
	place = SB_NEW(int, in.g.n);
	start = SB_NEW(double, in.g.n);
	{
		struct sb_rng r2 = rng;
		rc = sb_dag_run_combo_start(&in, &combo, &po, &so, &r2, &m, place, start, &err);
	}
	if (rc) {
		sb_err_print(&err);
		goto out;
	}
	printf("instance: %s\nops: %d\nedges: %d\ndevices: %d\npolicy: %s\n", in.name,
	       in.g.n, in.g.m, in.dev.n, combo.label);
	printf("makespan: %.10g\n", m.makespan);
	if (!isnan(m.plan_makespan))
		printf("plan_makespan: %.10g\n", m.plan_makespan);
	printf("comm_volume: %.10g\nsends: %d\ndevices_used: %d\nbusy_fraction: %.4f\n",
	       m.comm_volume, m.nsend, m.devices_used, m.busy_fraction);
	printf("partition_seconds: %.6f\nschedule_seconds: %.6f\nvalid: yes\n",
	       m.part_seconds, m.sched_seconds);
	if (trailer >= 0)
		printf("stg_trailer_cp: %ld\n", trailer);
	if (bound) {
		sb_dag_lower_bounds(&in, &b);
		printf("lb_cp: %.10g\nlb_work: %.10g\nlb_work_class: %.10g\nlb_coloc: %.10g\n"
		       "lb: %.10g\ngap_lb: %.6f\n", b.cp, b.work, b.work_class, b.coloc, b.lb,
		       b.lb > 0 ? m.makespan / b.lb : NAN);
	}
	if (milp > 0) {
		struct sb_dag_milp_opts mo;
		struct sb_lp_result lr;
		memset(&mo, 0, sizeof mo);
		mo.node_limit = milp;
		mo.time_limit = milp_time;
		mo.inc_place = place;
		mo.inc_start = start;
		mo.inc_makespan = m.makespan;
		rc = sb_dag_milp_relaxed(&in, &mo, &lr, &err);
		if (rc) {
			sb_err_print(&err);
			goto out;
		}
		if (lr.stopped == SB_LP_STOP_TIME)
			fprintf(stderr, "warning: eval dag: the MILP reached its wall-clock "
				"safety net (--milp-time %g s) after %ld of its %ld nodes: "
				"milp_bound is a valid bound, but another machine or load "
				"would give another one (lower --milp for a bound that is "
				"the same everywhere)\n", milp_time, lr.nodes, milp);
		printf("milp_status: %s\nmilp_stop: %s\nmilp_nodes: %ld\nmilp_node_budget: %ld\n"
		       "milp_bound: %.10g\nmilp_best: %.10g\nmilp_seconds: %.3f\n"
		       "gap_milp: %.6f\n", sb_lp_status_name(lr.status),
		       sb_lp_stop_name(lr.stopped), lr.nodes, milp, lr.bound, lr.obj,
		       lr.seconds, m.makespan / lr.bound);
		sb_lp_result_release(&lr);
	}
	if (sched_out) {
		rc = write_schedule(sched_out, &in, &combo, &po, &so, rng, &err);
		if (rc)
			sb_err_print(&err);
	}
out:
	sb_free(place);
	sb_free(start);
	sb_dag_inst_release(&in);
	return rc;
}
