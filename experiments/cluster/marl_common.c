/*
 * marl_common.c - shared pieces of the topology-and-interference
 * experiments (marl_common.h; spec marl.md, all [O], our design).
 */
#include "marl_common.h"
#include "algorithms/marl/placer.h"
#include "algorithms/marl/store.h"
#include "algorithms/marl/variant.h"

#include <stdio.h>
#include <string.h>

const char *const sb_marl_exp_schemes[] = {
	"agents+marl-random", "agents+consolidate", "agents+spread", "agents+tetris",
	"agents+greedy-interf", "fifo+consolidate", "tiresias+consolidate", "agents+marl",
	"agents+marl-a2c", NULL,
};

const char *const sb_marl_exp_learned[] = { "marl", "marl-a2c", NULL };

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

/* ------------------------------------------------------ learned placers */

static void train_cfg(const struct sb_exp_ctx *c, const struct sb_marl_variant *v,
		      struct sb_marl_cfg *cfg)
{
	sb_marl_variant_cfg(v, (int)sb_opts_get(&c->opts, "train_episodes"), c->seed, cfg);
}

void sb_marl_exp_net_hash(const struct sb_exp_ctx *c, const struct sb_marl_env *env,
			  const char *name, char hash[17])
{
	const struct sb_marl_variant *v = sb_marl_variant_find(name);
	struct sb_marl_cfg cfg;
	char *text = SB_NEW(char, 16384);

	SB_ASSERT(v);
	train_cfg(c, v, &cfg);
	sb_marl_variant_text(v, &cfg, (int)sb_opts_get(&c->opts, "train_jobs"), env, "", text,
			     16384);
	sb_marl_inputs_hash(text, hash);
	sb_free(text);
}

static void note(struct sb_exp_ctx *c, const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(c->inputs_note);
	if (n + 2 < sizeof c->inputs_note)
		snprintf(c->inputs_note + n, sizeof c->inputs_note - n, fmt, a, b);
}

int sb_marl_exp_net(struct sb_exp_ctx *c, struct sb_marl_env *env, const char *name,
		    const char *key, struct sb_marl_net **out, struct sb_err *err)
{
	const struct sb_marl_variant *v = sb_marl_variant_find(name);
	struct sb_marl_cfg cfg;
	char want[SB_MARL_HASH_LEN], have[SB_MARL_HASH_LEN];
	int rc;

	*out = NULL;
	if (!v)
		return sb_err_set(err, SB_EXIT_INPUT, "'%s' is no trained marl placer", name);
	sb_marl_exp_net_hash(c, env, name, want);
	rc = sb_marl_store_probe(SB_MARL_TRAIN_RESULTS, key, have, err);
	if (rc > 1)
		return rc;
	if (rc == 0 && !strcmp(have, want)) {
		if ((rc = sb_marl_store_load(SB_MARL_TRAIN_RESULTS, key, want, out, err)))
			return rc;
		note(c, "; %s weights %s stored", key, want);
		/* the file is an input of this run: its sha256 goes with it,
		 * once */
		for (rc = 0; rc < c->ninputs; rc++)
			if (!strcmp(c->input_path[rc], SB_MARL_TRAIN_RESULTS))
				return 0;
		return sb_exp_add_input(c, SB_MARL_TRAIN_RESULTS, err);
	}
	fprintf(stderr, "note: %s: %s %s placer '%s' with inputs %s, training it in this run\n",
		c->exp->name, SB_MARL_TRAIN_RESULTS,
		rc == 0 ? "holds other inputs' weights for" : "does not exist or holds no weights for",
		key, want);
	train_cfg(c, v, &cfg);
	if ((rc = sb_marl_variant_train(v, env, &cfg, (int)sb_opts_get(&c->opts, "train_jobs"), out,
					NULL, err)))
		return rc;
	note(c, "; %s weights %s trained here", key, want);
	return 0;
}

int sb_marl_exp_train_env(struct sb_exp_ctx *c, const struct sb_marl_exp *like,
			  const char *topo, struct sb_marl_exp *out, struct sb_err *err)
{
	const char *types = like->env.types_path[0] ? like->env.types_path : NULL;
	int rc, pe = (int)sb_opts_get_or(&c->opts, "pred_epochs", 0);

	memset(out, 0, sizeof *out);
	out->mape = out->train_mape = -1;
	if ((rc = sb_marl_env_init(&out->env, topo, types, 1, c->seed, err)) != 0)
		return rc;
	if (pe > 0) {
		struct sb_interf_pred_params pp;
		sb_interf_pred_defaults(&pp);
		pp.epochs = pe;
		pp.seed = c->seed;
		out->pred = sb_interf_pred_train(&out->env.interf, &pp, &out->mape, &out->train_mape);
		out->env.interf.pred = out->pred;
	}
	return 0;
}

int sb_marl_exp_learn(struct sb_exp_ctx *c, struct sb_marl_exp *m, const char *const *names,
		      struct sb_err *err)
{
	struct sb_marl_exp t1;
	struct sb_marl_env *env = &m->env;
	int k, rc = 0, own = 0;

	if (strcmp(m->env.topo.name, "T1")) {
		if ((rc = sb_marl_exp_train_env(c, m, "T1", &t1, err)))
			goto out;
		own = 1;
		env = &t1.env;
	}
	for (k = 0; names[k] && !rc; k++) {
		struct sb_marl_net *net;
		if ((rc = sb_marl_exp_net(c, env, names[k], names[k], &net, err)))
			break;
		if ((rc = sb_marl_nets_put(names[k], net, err)))
			sb_marl_net_free(net);
	}
out:
	if (own)
		sb_marl_exp_release(&t1);
	return rc;
}

void sb_marl_exp_teardown(struct sb_exp_ctx *c)
{
	sb_marl_nets_clear();
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
	return sb_marl_exp_run_set(c, m, js, workload, label, NULL, NULL, key, rep, load, out,
				   timing, r_out, err);
}

int sb_marl_exp_run_set(const struct sb_exp_ctx *c, struct sb_marl_exp *m,
			const struct sb_jobset *js, const char *workload, const char *label,
			const char *set, const char *as, uint64_t key, int rep, double load,
			struct sb_table *out, struct sb_table *timing,
			struct sb_cluster_result *r_out, struct sb_err *err)
{
	struct sb_cluster_combo cb;
	struct sb_cluster_result r;
	size_t row;
	int rc;

	if ((rc = sb_cluster_combo_parse(&cb, label, err)) != 0)
		return rc;
	m->env.interf.migrate = !cb.sched->topo;
	rc = sb_cluster_exp_run(c, &m->env.cl, js, workload, label, set, key, rep, 0, out, timing,
				&r, err);
	if (rc)
		return rc;
	row = out->nrow - 1;
	if (as) {
		sb_table_set_str(out, row, "policy", as);
		if (timing && timing->nrow)
			sb_table_set_str(timing, timing->nrow - 1, "policy", as);
	}
	sb_table_set_str(out, row, "topo", m->env.topo.name);
	sb_table_set_dbl(out, row, "load", load);
	sb_table_set_dbl(out, row, "interf_slowdown", sb_cluster_interf_slowdown(js, &r));
	sb_table_set_str(out, row, "provenance",
			 cb.place->load_weights ? "reconstructed:learned" :
			 !strcmp(cb.place->name, "greedy-interf") && !m->pred ?
			 "ours:oracle-slowdowns" : "ours:marl.md-baseline");
	if (r_out)
		*r_out = r;
	else
		sb_cluster_result_release(&r);
	return 0;
}
