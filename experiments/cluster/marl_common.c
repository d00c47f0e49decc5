/*
 * marl_common.c - shared pieces of the topology-and-interference
 * experiments (marl_common.h; spec marl.md, all [O], our design).
 */
#include "marl_common.h"

#include <stdio.h>
#include <string.h>

const char *const sb_marl_exp_schemes[] = {
	"agents+marl-random", "agents+consolidate", "agents+spread", "agents+tetris",
	"agents+greedy-interf", "fifo+consolidate", "tiresias+consolidate", NULL,
};

int sb_marl_exp_setup(struct sb_exp_ctx *c, struct sb_marl_exp *m, const char *topo,
		      int pred_epochs, struct sb_err *err)
{
	char buf[1024];
	const char *types = sb_exp_data(c, "dl2/dl2_job_types.csv", buf, sizeof buf);
	int rc;

	memset(m, 0, sizeof *m);
	m->mape = m->train_mape = -1;
	if (types && (rc = sb_exp_add_input(c, types, err)) != 0)
		return rc;
	if ((rc = sb_marl_env_init(&m->env, topo, types, 1, c->seed, err)) != 0)
		return rc;
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: Philly-like jobs of marl.md section 5 (ours) on topology %s; %s%s",
		 m->env.topo.name, types ? "real: " : "built-in fallback: ",
		 m->env.interf.source);
	if (pred_epochs > 0) {
		struct sb_interf_pred_params pp;
		sb_interf_pred_defaults(&pp);
		pp.epochs = pred_epochs;
		pp.seed = c->seed;
		m->pred = sb_interf_pred_train(&m->env.interf, &pp, &m->mape, &m->train_mape);
		m->env.interf.pred = m->pred;
	}
	return 0;
}

void sb_marl_exp_release(struct sb_marl_exp *m)
{
	sb_interf_pred_free(m->pred);
	sb_marl_env_release(&m->env);
}

int sb_marl_exp_setup_state(struct sb_exp_ctx *c, const char *topo, int npoints,
			    struct sb_err *err)
{
	struct sb_marl_exp *m = SB_NEW(struct sb_marl_exp, 1);
	c->state = m;
	c->npoints = npoints;
	return sb_marl_exp_setup(c, m, topo, (int)sb_opts_get_or(&c->opts, "pred_epochs", 0), err);
}

void sb_marl_exp_teardown(struct sb_exp_ctx *c)
{
	if (c->state)
		sb_marl_exp_release(c->state);
	sb_free(c->state);
	c->state = NULL;
}

void sb_marl_exp_jobs(const struct sb_exp_ctx *c, const struct sb_marl_exp *m, int njobs,
		      double load, uint64_t key, int rep, struct sb_jobset *js)
{
	struct sb_marl_gen p;
	struct sb_rng r = sb_rng_stream(c->seed, key, (uint64_t)rep, SB_RNG_INSTANCE);
	sb_marl_gen_defaults(&p);
	p.njobs = njobs;
	p.load = load;
	sb_marl_generate(&m->env, &p, &r, js);
}


int sb_marl_exp_trace_inputs(struct sb_exp_ctx *c, struct sb_err *err)
{
	static const char *const rel[2] = { "philly/jobs.json", "philly/philly_runtime.csv" };
	char buf[1024];
	int k, rc;
	for (k = 0; k < 2; k++) {
		const char *p = sb_exp_data(c, rel[k], buf, sizeof buf);
		if (!p)
			return sb_err_set(err, SB_EXIT_INPUT, "the trace-derived workload needs "
					  "DATA_DIR/%s (make data), which is not there", rel[k]);
		if ((rc = sb_exp_add_input(c, p, err)) != 0)
			return rc;
	}
	{
		struct sb_marl_exp *m = c->state;
		snprintf(c->inputs_note, sizeof c->inputs_note,
			 "trace-derived: Philly arrivals and GPU counts (jobs.json), durations "
			 "(philly_runtime.csv), model types synthetic, on topology %s; %s",
			 m->env.topo.name, m->env.interf.source);
	}
	return 0;
}

int sb_marl_exp_workload(const struct sb_exp_ctx *c, const struct sb_marl_exp *m, int trace,
			 int njobs, double load, uint64_t key, int rep, struct sb_jobset *js,
			 const char **name, struct sb_err *err)
{
	struct sb_marl_gen p;
	struct sb_rng r = sb_rng_stream(c->seed, key, (uint64_t)rep, SB_RNG_INSTANCE);
	char b1[1024], b2[1024];
	if (!trace) {
		*name = "philly-like";
		sb_marl_exp_jobs(c, m, njobs, load, key, rep, js);
		return 0;
	}
	*name = "trace-derived";
	sb_marl_gen_defaults(&p);
	p.njobs = njobs;
	p.load = load;
	return sb_marl_from_philly(&m->env, &p, sb_exp_data(c, "philly/jobs.json", b1, sizeof b1),
				   sb_exp_data(c, "philly/philly_runtime.csv", b2, sizeof b2), &r,
				   js, err);
}

int sb_marl_exp_run(const struct sb_exp_ctx *c, struct sb_marl_exp *m, const struct sb_jobset *js,
		    const char *workload, const char *label, uint64_t key, int rep, double load,
		    struct sb_table *out, struct sb_table *timing, struct sb_cluster_result *r_out,
		    struct sb_err *err)
{
	struct sb_cluster_combo cb;
	struct sb_cluster_result r;
	size_t row;
	int rc;

	if ((rc = sb_cluster_combo_parse(&cb, label, err)) != 0)
		return rc;
	m->env.interf.migrate = !cb.sched->topo;
	rc = sb_cluster_exp_run(c, &m->env.cl, js, workload, label, NULL, key, rep, 0, out, timing,
				&r, err);
	if (rc)
		return rc;
	row = out->nrow - 1;
	sb_table_set_str(out, row, "topo", m->env.topo.name);
	sb_table_set_dbl(out, row, "load", load);
	sb_table_set_dbl(out, row, "interf_slowdown", sb_cluster_interf_slowdown(js, &r));
	sb_table_set_str(out, row, "provenance",
			 !strcmp(cb.place->name, "greedy-interf") && !m->pred ?
			 "ours:oracle-slowdowns" : "ours:marl.md-baseline");
	if (r_out)
		*r_out = r;
	else
		sb_cluster_result_release(&r);
	return 0;
}
