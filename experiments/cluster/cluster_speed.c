/*
 * cluster_speed.c - table asrpt-T3 (issue #11 item 7; our design [O]): the
 * speed account of the cluster schedulers on the two settings `make bench`
 * times (workloads/cluster/speed.c): the Philly-scale set (117,325 jobs,
 * 512 GPUs; target 2 CPU seconds on one core) and the PAI setting (20,000
 * jobs, 6,500 GPUs; target 5 s). One point per (setting, scheduler),
 * checked like every run. `points` holds the work each run does, which
 * depends only on the seed: simulator events, decisions, preemptions, the
 * policy's own work (sb_cluster_sim_work: curve fits, tree-rows, rank
 * changes) and the mean JCT; `timing` holds the CPU seconds of the
 * simulation (process CPU time of the worker that ran it, which a loaded
 * machine inflates far less than wall time) and the target. The report
 * sets the one against the other. Without `make data` the Philly-scale
 * set is skipped and the inputs say so. A-SRPT is our reconstruction (see
 * algorithms/asrpt/asrpt.h).
 */
#include "common.h"
#include "workloads/cluster/trace.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "scale", 1, 0.001, 1, 0, "share of each setting's jobs (1: the targets' sizes)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	SB_CLUSTER_EXP_COLS,
	{ "events", SB_COL_INT, "" },
	{ "decisions", SB_COL_INT, "" },
	{ "work", SB_COL_INT, "" },
	{ "work_what", SB_COL_STR, "" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	SB_CLUSTER_EXP_TIMING_COLS,
	{ "cpu_seconds", SB_COL_DBL, "s (process CPU time)" },
	{ "target", SB_COL_DBL, "s (CPU, at scale 1)" },
	{ NULL, 0, NULL },
};

struct state {
	double scale;
	int npol, philly;      /* philly: the Philly-scale set is run */
	double *rt;            /* Philly's runtime list */
	int nrt, have_w2;
	struct sb_trace w2;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	char buf[4096], buf2[4096];
	const char *rt = sb_exp_data(c, "philly/philly_runtime.csv", buf, sizeof buf);
	const char *jj = sb_exp_data(c, "philly/jobs.json", buf2, sizeof buf2);
	int rc = 0;

	c->state = s;
	s->scale = sb_opts_get(&c->opts, "scale");
	while (sb_speed_policies[s->npol])
		s->npol++;
	if (rt) {
		rc = sb_load_values(rt, "runtime", &s->rt, &s->nrt, err);
		if (!rc)
			rc = sb_exp_add_input(c, rt, err);
		s->philly = rc == 0;
	}
	if (!rc && s->philly && jj) {
		rc = sb_load_philly_jobs(jj, &s->w2, err);
		if (!rc)
			rc = sb_exp_add_input(c, jj, err);
		s->have_w2 = rc == 0;
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s",
		 s->philly ? "real: Philly runtime list and jobs.json (Philly-scale set); the PAI "
			     "setting is W1, synthetic"
			   : "no Philly data (run make data): Philly-scale set skipped; the PAI "
			     "setting is W1, synthetic");
	c->npoints = (s->philly ? 2 : 1) * s->npol;
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int pai = !s->philly || point >= s->npol, rc;
	const char *label = sb_speed_policies[point % s->npol];
	struct sb_cluster cl;
	struct sb_jobset js;
	struct sb_cluster_result r;

	if (pai)
		sb_speed_pai(s->scale, c->seed, &cl, &js);
	else
		sb_speed_philly(s->rt, s->nrt, s->have_w2 ? &s->w2 : NULL, s->scale, c->seed, &cl,
				&js);
	rc = sb_cluster_exp_run(c, &cl, &js, pai ? "pai" : "philly-scale", label, NULL,
				(uint64_t)point, 0, 0, out, timing, &r, err);
	if (!rc) {
		size_t row = out->nrow - 1;
		sb_table_set_int(out, row, "events", r.events);
		sb_table_set_int(out, row, "decisions", r.decisions);
		sb_table_set_int(out, row, "work", r.work);
		sb_table_set_str(out, row, "work_what", r.work_what ? r.work_what : "-");
		if (timing) {
			row = timing->nrow - 1;
			sb_table_set_dbl(timing, row, "cpu_seconds", r.sim_cpu_seconds);
			sb_table_set_dbl(timing, row, "target",
					 pai ? SB_SPEED_TARGET_PAI : SB_SPEED_TARGET_PHILLY);
		}
		sb_cluster_result_release(&r);
	}
	sb_jobset_release(&js);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct state *s = c->state;
	if (!s)
		return;
	sb_free(s->rt);
	if (s->have_w2)
		sb_trace_release(&s->w2);
	sb_free(s);
}

const struct sb_experiment sb_experiment_cluster_speed = {
	.name = "cluster_speed",
	.desc = "speed account of every timed cluster scheduler: work (decisions, fits, forest rows) "
		"and CPU seconds on the Philly-scale set and the PAI setting",
	.figure = "asrpt-T3",
	.family = "cluster",
	.params = params,
	.quick_set = "scale=0.005",
	.cols = cols,
	.timing_cols = timing_cols,
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
