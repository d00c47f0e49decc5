/*
 * marl.c - environment and job sets of the topology-and-interference mode
 * (spec marl.md §5, §6). The job types are DL2's [V, github.com/pengyanghua/
 * DL2 trace.py, via dl2_job_types.csv]; the generators are [O], our design
 * (the paper is abstract-only): a synthetic Philly-like trace, and a
 * trace-derived variant with Philly's arrivals and GPU counts and run times
 * from the Philly run-time distribution.
 */
#include "workloads/cluster/marl.h"
#include "workloads/alloc/alloc_wl.h"
#include "workloads/cluster/trace.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *const sb_marl_type_name[SB_MARL_NTYPE] = {
	"resnet-50", "vgg-16", "resnext-110", "inception-bn", "seq2seq",
	"cnn-text-classification", "dssm", "wlm",
};
const double sb_marl_type_tcomp[SB_MARL_NTYPE] = { 0.449, 0.535, 0.226, 0.815,
						   0.075, 0.585, 0.567, 0.154 };
const double sb_marl_type_size[SB_MARL_NTYPE] = { 102.2, 553.4, 6.92, 42.1,
						  36.5, 24.0, 6.0, 19.2 };

int sb_marl_env_init(struct sb_marl_env *e, const char *topo, const char *types_path,
		     int interference, uint64_t noise_seed, struct sb_err *err)
{
	const char *names[SB_INTERF_MAXTYPE];
	double tc[SB_INTERF_MAXTYPE], sz[SB_INTERF_MAXTYPE];
	int n = SB_MARL_NTYPE, k, rc;

	memset(e, 0, sizeof *e);
	if ((rc = sb_cluster_tree_named(topo, &e->topo, err)) != 0)
		return rc;
	if (types_path && access(types_path, R_OK) == 0) {
		/* the alloc family's loader of the same file: one parser */
		struct sb_alloc_types ty;
		if ((rc = sb_alloc_load_types(types_path, &ty, err)) != 0) {
			sb_cluster_tree_release(&e->topo);
			return rc;
		}
		if (ty.n > SB_INTERF_MAXTYPE) {
			sb_cluster_tree_release(&e->topo);
			return sb_err_set(err, SB_EXIT_INPUT, "job types '%s': %d types, at most %d",
					  types_path, ty.n, SB_INTERF_MAXTYPE);
		}
		n = ty.n;
		for (k = 0; k < n; k++) {
			names[k] = ty.t[k].model;
			tc[k] = ty.t[k].compute;
			sz[k] = ty.t[k].model_mb;
		}
		snprintf(e->types_path, sizeof e->types_path, "%s", types_path);
		sb_interf_init(&e->interf, &e->topo, n, names, tc, sz, noise_seed);
		snprintf(e->interf.source, sizeof e->interf.source, "DL2 job types from %s",
			 types_path);
	} else {
		for (k = 0; k < n; k++) {
			names[k] = sb_marl_type_name[k];
			tc[k] = sb_marl_type_tcomp[k];
			sz[k] = sb_marl_type_size[k];
		}
		sb_interf_init(&e->interf, &e->topo, n, names, tc, sz, noise_seed);
		snprintf(e->interf.source, sizeof e->interf.source,
			 "DL2 job types: built-in table of marl.md §2");
	}
	e->interf.on = interference != 0;
	snprintf(e->cl.name, sizeof e->cl.name, "%s", e->topo.name);
	e->cl.nserver = e->topo.nserver;
	e->cl.gpus = e->topo.gpus;
	/* unused by the mode, valid for sb_cluster_validate */
	e->cl.b_in = e->topo.bw[1] * 1e9;
	e->cl.b_out = e->topo.bw[SB_TREE_GPU - SB_TREE_RACK] * 1e9;
	e->cl.gpu_flops = 1e14;
	e->cl.mfe = 0.35;
	e->cl.restart = 30;
	e->cl.interf = &e->interf;
	return 0;
}

void sb_marl_env_release(struct sb_marl_env *e)
{
	if (!e)
		return;
	sb_cluster_tree_release(&e->topo);
	memset(e, 0, sizeof *e);
}

void sb_marl_models(const struct sb_marl_env *e, struct sb_jobset *js)
{
	int k;
	js->nmodel = e->interf.ntype;
	js->model = SB_NEW(struct sb_model, js->nmodel);
	for (k = 0; k < js->nmodel; k++) {
		struct sb_model *m = &js->model[k];
		const struct sb_interf_type *ty = &e->interf.type[k];
		snprintf(m->name, sizeof m->name, "%s", ty->name);
		m->cls = SB_MODEL_CNN;
		m->grad_bytes = ty->size_mb * 1e6;
		m->params = m->grad_bytes / 4;
		m->fwd_flops = 1e9;
		m->batch = 32;
	}
}

void sb_marl_gen_defaults(struct sb_marl_gen *p)
{
	memset(p, 0, sizeof *p);
	p->njobs = 200;
	p->load = 0.7;
	p->dur_min = 600;
	p->dur_max = 8 * 3600;
	p->wmix[0] = 0.45;
	p->wmix[1] = 0.25;
	p->wmix[2] = 0.20;
	p->wmix[3] = 0.10;
}

/* Largest worker count the fill rule can host: the GPUs of one rack. */
static int max_workers(const struct sb_marl_env *e)
{
	int r, best = 0;
	for (r = 0; r < e->topo.nrack; r++) {
		int g = (e->topo.rack_off[r + 1] - e->topo.rack_off[r]) * e->topo.gpus;
		if (g > best)
			best = g;
	}
	return best;
}

/* A job of type `type`, w workers, isolated duration dur, at `arrival`. */
static void make_job(const struct sb_marl_env *e, struct sb_job *j, int id, double arrival,
		     int type, int w, double dur)
{
	double it = floor(dur / sb_interf_tau_iso(&e->interf, type, w) + 0.5);
	memset(j, 0, sizeof *j);
	j->id = id;
	j->arrival = arrival;
	j->model = type;
	j->d = j->gpus = w;
	j->t = j->p = 1;
	j->micro = 1;
	j->batch = 32 * w;
	j->iters = it < 1 ? 1 : (long)it;
	j->family = -1;
	j->batch_mult = j->lr_mult = j->data_frac = 1;
	j->trace_runtime = -1;
}

static double loguniform(struct sb_rng *r, double lo, double hi)
{
	return lo * exp(sb_rng_uniform(r) * log(hi / lo));
}

/* Mean of w x duration under the mix (w capped) and the log-uniform law. */
static double mean_work(const struct sb_marl_gen *p, int wmax)
{
	static const int ws[4] = { 1, 2, 4, 8 };
	double ew = 0, tot = 0, ed;
	int k;
	for (k = 0; k < 4; k++) {
		ew += p->wmix[k] * (ws[k] < wmax ? ws[k] : wmax);
		tot += p->wmix[k];
	}
	ed = p->dur_max > p->dur_min ? (p->dur_max - p->dur_min) / log(p->dur_max / p->dur_min)
				     : p->dur_min;
	return (p->w1_only ? 1 : ew / tot) * ed;
}

void sb_marl_generate(const struct sb_marl_env *e, const struct sb_marl_gen *p,
		      struct sb_rng *r, struct sb_jobset *js)
{
	static const int ws[4] = { 1, 2, 4, 8 };
	int wmax = max_workers(e), i, k;
	double rate = p->load * e->topo.ngpu / mean_work(p, wmax), t = 0, tot = 0;

	memset(js, 0, sizeof *js);
	sb_marl_models(e, js);
	js->n = p->njobs;
	js->job = SB_NEW(struct sb_job, p->njobs > 0 ? p->njobs : 1);
	for (k = 0; k < 4; k++)
		tot += p->wmix[k];
	for (i = 0; i < p->njobs; i++) {
		int type = (int)sb_rng_below(r, (uint32_t)e->interf.ntype), w = ws[3];
		double u = sb_rng_uniform(r) * tot, acc = 0, dur;
		for (k = 0; k < 4; k++) {
			acc += p->wmix[k];
			if (u < acc) {
				w = ws[k];
				break;
			}
		}
		if (p->w1_only)
			w = 1;
		if (w > wmax)
			w = wmax;
		dur = loguniform(r, p->dur_min, p->dur_max);
		if (i > 0)
			t += sb_rng_exp(r, rate);
		make_job(e, &js->job[i], i, t, type, w, dur);
	}
	snprintf(js->source, sizeof js->source,
		 "synthetic: Philly-like (marl.md §5), %d jobs, load %g, durations "
		 "LogUniform[%g, %g] s, %s", p->njobs, p->load, p->dur_min, p->dur_max,
		 e->interf.source);
}

int sb_marl_from_philly(const struct sb_marl_env *e, const struct sb_marl_gen *p,
			const char *jobs_json, const char *runtime_csv, struct sb_rng *r,
			struct sb_jobset *js, struct sb_err *err)
{
	struct sb_trace t;
	double *rt = NULL, *pos = NULL, span, work = 0, scale;
	int nrt = 0, npos = 0, i, rc, start, wmax = max_workers(e);

	memset(js, 0, sizeof *js);
	if ((rc = sb_load_philly_jobs(jobs_json, &t, err)) != 0)
		return rc;
	if ((rc = sb_load_values(runtime_csv, "runtime", &rt, &nrt, err)) != 0) {
		sb_trace_release(&t);
		return rc;
	}
	pos = SB_NEW(double, nrt > 0 ? nrt : 1);
	for (i = 0; i < nrt; i++)
		if (rt[i] > 0)
			pos[npos++] = rt[i];
	if (t.n < p->njobs || npos == 0 || p->njobs < 2) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "trace '%s' has %d jobs and '%s' %d positive "
				"run times: need %d jobs and one run time", jobs_json, t.n,
				runtime_csv, npos, p->njobs);
		goto out;
	}
	sb_marl_models(e, js);
	js->n = p->njobs;
	js->job = SB_NEW(struct sb_job, p->njobs);
	start = (int)sb_rng_below(r, (uint32_t)(t.n - p->njobs + 1));
	for (i = 0; i < p->njobs; i++) {
		const struct sb_trace_job *tj = &t.job[start + i];
		int type = (int)sb_rng_below(r, (uint32_t)e->interf.ntype);
		int w = tj->gpus <= 5 ? 4 : 8;
		double dur = pos[sb_rng_below(r, (uint32_t)npos)];
		if (w > wmax)
			w = wmax;
		dur = sb_max(p->dur_min, sb_min(p->dur_max, dur));
		make_job(e, &js->job[i], i, tj->submit - t.job[start].submit, type, w, dur);
		work += w * dur;
	}
	/* rescale the window's arrivals to the requested load */
	span = js->job[p->njobs - 1].arrival;
	scale = span > 0 ? work / (p->load * e->topo.ngpu * span) : 1;
	for (i = 0; i < p->njobs; i++)
		js->job[i].arrival *= scale;
	snprintf(js->source, sizeof js->source,
		 "trace-derived: arrivals (rescaled to load %g) and GPU counts (rounded to 4 "
		 "or 8) of %d consecutive jobs of %s, durations from %s, model types "
		 "synthetic", p->load, p->njobs, jobs_json, runtime_csv);
	rc = 0;
out:
	if (rc)
		sb_jobset_release(js);
	sb_free(rt);
	sb_free(pos);
	sb_trace_release(&t);
	return rc;
}
