/*
 * placer.c - the marl placer in the cluster simulator (see placer.h).
 * Reconstructed [O], marl.md §3.1-3.7.
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/placer.h"
#include "algorithms/marl/variant.h"
#include "algorithms/marl/features.h"
#include "cluster/interf.h"
#include "cluster/topoplace.h"
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- graphs */

/* Local numbering of server s's subtree: GPUs first in the tree's GPU
 * order, then the inner nodes as met walking up from them. map must be -1
 * on the subtree; fills parent[] (local) and returns the node count. */
static int server_subtree(const struct sb_cluster_tree *t, int s, int *map, int *parent)
{
	int G = t->gpus, n = G, k, v;

	for (k = 0; k < G; k++)
		map[t->gpu_node[s * G + k]] = k;
	for (k = 0; k < G; k++)
		for (v = t->gpu_node[s * G + k]; v != t->server_node[s]; v = t->parent[v])
			if (map[t->parent[v]] < 0)
				map[t->parent[v]] = n++;
	for (k = 0; k < G; k++)
		for (v = t->gpu_node[s * G + k]; v != t->server_node[s]; v = t->parent[v])
			parent[map[v]] = map[t->parent[v]];
	parent[map[t->server_node[s]]] = -1;
	return n;
}

int sb_marl_graph_from_tree(struct sb_marl_graph *g, const struct sb_cluster_tree *t,
			    struct sb_err *err)
{
	int *map = SB_NEW(int, t->nnode), *sp = SB_NEW(int, t->nnode), *sp2 = SB_NEW(int, t->nnode);
	int *dmap = SB_NEW(int, t->nnode), *dp = NULL;
	int nsn, s, v, nd, rc = 0;

	memset(g, 0, sizeof *g);
	for (v = 0; v < t->nnode; v++)
		map[v] = -1;
	nsn = server_subtree(t, 0, map, sp);
	/* the encoder copies server 0's graph to every server */
	for (s = 1; s < t->nserver; s++) {
		for (v = 0; v < t->nnode; v++)
			map[v] = -1;
		if (server_subtree(t, s, map, sp2) != nsn || memcmp(sp, sp2, (size_t)nsn * sizeof *sp)) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "topology '%s': server %d: its inner tree "
					"differs from server 0's (the marl encoder shares one server "
					"graph)", t->name, s);
			goto out;
		}
	}
	/* data-centre level: servers, then every node above them in tree order */
	for (v = 0; v < t->nnode; v++)
		dmap[v] = -1;
	for (s = 0; s < t->nserver; s++)
		dmap[t->server_node[s]] = s;
	nd = t->nserver;
	for (v = 0; v < t->nnode; v++)
		if (t->level[v] < SB_TREE_SERVER)
			dmap[v] = nd++;
	dp = SB_NEW(int, nd);
	for (v = 0; v < t->nnode; v++)
		if (dmap[v] >= 0)
			dp[dmap[v]] = t->parent[v] < 0 ? -1 : dmap[t->parent[v]];
	rc = sb_marl_graph_build(g, nsn, t->gpus, sp, t->nserver, nd - t->nserver, dp, err);
	if (rc)
		sb_err_prefix(err, "topology '%s': ", t->name);
out:
	sb_free(map);
	sb_free(sp);
	sb_free(sp2);
	sb_free(dmap);
	sb_free(dp);
	return rc;
}

/* --------------------------------------------------------- observing */

int sb_marl_view_init(struct sb_marl_view *v, const struct sb_cluster_tree *t,
		      struct sb_err *err)
{
	int rc;

	memset(v, 0, sizeof *v);
	rc = sb_marl_graph_from_tree(&v->gr, t, err);
	if (rc)
		return rc;
	v->t = t;
	v->gpu = SB_NEW(double, (size_t)t->ngpu * SB_MARL_GF);
	v->free = SB_NEW(double, t->nserver);
	v->mask = SB_NEW(unsigned char, t->nserver + 1);
	v->gpu_job = SB_NEW(int, t->ngpu);
	return 0;
}

void sb_marl_view_release(struct sb_marl_view *v)
{
	sb_marl_graph_release(&v->gr);
	sb_free(v->gpu);
	sb_free(v->free);
	sb_free(v->mask);
	sb_free(v->gpu_job);
	memset(v, 0, sizeof *v);
}

static void jobview(const struct sb_csim *s, int j, struct sb_marl_jobview *jv)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_job *jb = sb_cluster_sim_job(s, j);
	double done = sb_cluster_sim_progress(s, j);

	jv->type = jb->model < SB_MARL_NTYPE ? jb->model : SB_MARL_NTYPE - 1;
	jv->workers = jb->gpus;
	jv->progress = jb->iters > 0 ? done / jb->iters : 0;
	jv->remaining_s = (jb->iters - done) * sb_interf_tau_iso(cl->interf, jb->model, jb->gpus);
	jv->waiting_s = sb_cluster_sim_now(s) - jb->arrival;
	memcpy(jv->intensity, cl->interf->type[jb->model].r, sizeof jv->intensity);
}

int sb_marl_observe(struct sb_marl_view *v, const struct sb_csim *s, int j,
		    struct sb_marl_obs *o)
{
	const struct sb_cluster_tree *t = v->t;
	const int *run, *fr = sb_cluster_sim_free_per_server(s);
	struct sb_marl_jobview jv, *wait;
	int nrun, k, x, nwait = 0, q[SB_MARL_MAXAG] = { 0 }, n = sb_cluster_sim_njobs(s), feas;

	for (x = 0; x < t->ngpu; x++)
		v->gpu_job[x] = -1;
	run = sb_cluster_sim_running(s, &nrun);
	for (k = 0; k < nrun; k++) {
		const int *g = sb_cluster_sim_gpus(s, run[k]);
		int w = sb_cluster_sim_job(s, run[k])->gpus, i;
		for (i = 0; i < w; i++)
			v->gpu_job[g[i]] = run[k];
	}
	for (x = 0; x < t->ngpu; x++) {
		if (v->gpu_job[x] < 0) {
			sb_marl_gpu_features(NULL, v->gpu + (size_t)x * SB_MARL_GF);
			continue;
		}
		jobview(s, v->gpu_job[x], &jv);
		sb_marl_gpu_features(&jv, v->gpu + (size_t)x * SB_MARL_GF);
	}
	for (k = 0; k < t->nserver; k++)
		v->free[k] = fr[k] / 8.0;
	jobview(s, j, &jv);
	sb_marl_job_features(&jv, v->job);
	feas = sb_cluster_tree_anchor_mask(t, fr, jv.workers, v->mask);
	v->mask[t->nserver] = nrun > 0;
	/* the critic's view: every waiting job, waiting and running counts */
	wait = SB_NEW(struct sb_marl_jobview, n > 0 ? n : 1);
	for (k = 0; k < n; k++)
		if (sb_cluster_sim_state(s, k) == SB_JOB_PENDING)
			jobview(s, k, &wait[nwait++]);
	q[0] = nwait;
	q[1] = nrun;
	sb_marl_critic_features(wait, nwait, q, 2, v->crit);
	sb_free(wait);
	o->gpu = v->gpu;
	o->free = v->free;
	o->job = v->job;
	o->crit = v->crit;
	o->mask = v->mask;
	o->agent = sb_cluster_sim_agent(s) % SB_MARL_MAXAG;
	return feas;
}

/* ------------------------------------------------------ trained nets */

#define NETS_MAX 16

static struct { char variant[SB_STR_LEN]; struct sb_marl_net *net; } nets[NETS_MAX];
static int nnets;

int sb_marl_nets_put(const char *variant, struct sb_marl_net *net, struct sb_err *err)
{
	int k;

	for (k = 0; k < nnets; k++)
		if (!strcmp(nets[k].variant, variant)) {
			sb_marl_net_free(nets[k].net);
			nets[k].net = net;
			return 0;
		}
	if (nnets == NETS_MAX)
		return sb_err_set(err, SB_EXIT_INPUT, "marl: more than %d trained variants loaded",
				  NETS_MAX);
	snprintf(nets[nnets].variant, sizeof nets[nnets].variant, "%s", variant);
	nets[nnets++].net = net;
	return 0;
}

struct sb_marl_net *sb_marl_nets_find(const char *variant)
{
	int k;

	for (k = 0; k < nnets; k++)
		if (!strcmp(nets[k].variant, variant))
			return nets[k].net;
	return NULL;
}

struct sb_marl_net *sb_marl_nets_take(const char *variant)
{
	struct sb_marl_net *n;
	int k;

	for (k = 0; k < nnets; k++)
		if (!strcmp(nets[k].variant, variant)) {
			n = nets[k].net;
			nets[k] = nets[--nnets];
			return n;
		}
	return NULL;
}

void sb_marl_nets_clear(void)
{
	int k;

	for (k = 0; k < nnets; k++)
		sb_marl_net_free(nets[k].net);
	nnets = 0;
}

/* ------------------------------------------------------------ placing */

int sb_marl_greedy(const double *p, int nserv)
{
	/* the argmax over all nserv + 1 actions would defer whenever the
	 * defer probability beats each single server's, even when the
	 * policy places most of the time (its mass spread over servers) */
	if (p[nserv] >= 0.5)
		return nserv;
	return sb_marl_argmax(p, nserv);
}

/* The training episode in progress (single-threaded: one per process). */
static struct {
	struct sb_marl_agent *ag;
	double *when;          /* decision times */
	int n, cap;
} training;

static struct sb_marl_view view;   /* the placer's buffers, per topology */
static uint64_t view_key;          /* the shape view was built for */

/* The shape of a topology tree: a tree released and another built at
 * the same address must not find the first one's view. */
static uint64_t tree_key(const struct sb_cluster_tree *t)
{
	uint64_t h = sb_hash_bytes(SB_HASH_INIT, t->parent, (size_t)t->nnode * sizeof *t->parent);

	h = sb_hash_bytes(h, t->level, (size_t)t->nnode * sizeof *t->level);
	return sb_hash_bytes(h, &t->nserver, sizeof t->nserver);
}

static double flat_score(const struct sb_csim *s, int j, int anchor, const int *gpus, void *ctx)
{
	return 0;
}

/*
 * Greedy is the default [O], as registered before the runs; sampling is a
 * labelled setting (tables T1 and F5 carry both). The policy is trained
 * stochastic, and its deferral is a probability re-drawn at every later
 * decision epoch, so a job it defers with probability p waits about
 * 1/(1 - p) epochs when sampled; the greedy rule turns every p >= 1/2
 * into deferral at every epoch until the state changes enough. Sampling
 * avoids that trap and also gives up the learned preference among
 * servers (at full size every sampled variant is close to the untrained
 * net), so neither rule dominates: both are reported.
 */
const struct sb_param sb_marl_placer_params[] = {
	{ "greedy", 1, 0, 1, 1, "1: act greedily (defer when p(defer) >= 0.5, else the likeliest "
	  "server); 0: sample from the policy, as in training" },
	{ NULL, 0, 0, 0, 0, NULL },
};

int sb_marl_place(const char *variant, const struct sb_csim *s, int j, const struct sb_opts *o,
		  struct sb_rng *rng, int *gpus)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	const struct sb_cluster_tree *t;
	const struct sb_marl_variant *vr;
	struct sb_marl_obs ob;
	struct sb_err err;
	int a;

	/* a flat cluster has no topology to read: place like every topology
	 * placer does there, as packed */
	if (!cl->interf)
		return sb_cluster_topo_place(s, j, flat_score, NULL, gpus) >= 0 ? 0 : -1;
	t = cl->interf->topo;
	if (view.t != t || view_key != tree_key(t)) {
		sb_marl_view_release(&view);
		if (sb_marl_view_init(&view, t, &err)) {
			sb_err_print(&err);
			sb_die(err.code, "placer '%s': cannot encode the topology", variant);
		}
		view_key = tree_key(t);
	}
	if (sb_marl_observe(&view, s, j, &ob) == 0)
		return -1;
	vr = sb_marl_variant_find(variant);
	if (vr && vr->nodefer)
		view.mask[view.gr.nserv] = 0; /* ob.mask is view.mask */
	if (training.ag) {
		a = sb_marl_decide(training.ag, &ob);
		if (training.n == training.cap) {
			training.cap = training.cap ? 2 * training.cap : 256;
			training.when = sb_xrealloc(training.when, (size_t)training.cap * sizeof(double));
		}
		training.when[training.n++] = sb_cluster_sim_now(s);
	} else {
		struct sb_marl_net *net = sb_marl_nets_find(variant);
		if (!net)
			sb_die(SB_EXIT_INPUT, "placer '%s': no trained weights loaded (the experiments "
			       "load them from results/marl_train.h5 or train them; sb eval needs "
			       "--weights FILE)", variant);
		if (net->arch == SB_MARL_ARCH_FLAT && net->flat_nserv != view.gr.nserv)
			sb_die(SB_EXIT_INPUT, "placer '%s': the flat network was trained for %d servers, "
			       "topology '%s' has %d", variant, net->flat_nserv, t->name,
			       view.gr.nserv);
		const double *p = sb_marl_forward(net, &view.gr, &ob, NULL);
		a = sb_opts_get(o, "greedy") ? sb_marl_greedy(p, view.gr.nserv) :
					       sb_marl_sample(p, view.gr.nserv + 1, rng);
	}
	if (a == view.gr.nserv)
		return -1;
	a = sb_cluster_tree_fill(t, sb_cluster_sim_gpu_free(s), a, sb_cluster_sim_job(s, j)->gpus,
				 gpus);
	SB_ASSERT(a == 0); /* the mask admits only anchors the fill rule can serve */
	return 0;
}

/* ------------------------------------------------------------ episodes */

#define TRAIN_REP 0x747261696eULL   /* "train" */

/* integral over [0, x] of the number of jobs in the system */
static double in_system(const struct sb_jobset *js, const struct sb_cluster_result *r, double x)
{
	double s = 0;
	int i;

	for (i = 0; i < js->n; i++) {
		double a = js->job[i].arrival, f = r->finish[i];
		if (x > a)
			s += (x < f ? x : f) - a;
	}
	return s;
}

/* An episode: simulate (the place hook asks the trainer), check the run
 * with the family's checker, then hand each decision the integral of
 * -(jobs in system) / T_norm up to the next decision (the last one up to
 * the end), so the return is -sum JCT / T_norm except the time before the
 * first decision, which no action changes. *score = average JCT (s). */
static int episode(void *ctx, uint64_t seed, int ep, double load, struct sb_marl_agent *ag,
		   double *score, struct sb_err *err)
{
	struct sb_marl_cluster_task *tk = ctx;
	struct sb_marl_gen gp;
	/* replicate TRAIN_REP keeps training traces apart from the
	 * experiments' test traces, which are (seed, key, rep < 2^20) */
	struct sb_rng gr = sb_rng_stream(seed, (uint64_t)ep, TRAIN_REP, SB_RNG_INSTANCE);
	struct sb_jobset js;
	struct sb_cluster_result r;
	char why[256];
	double end = 0, jct = 0;
	int rc, k, i;

	memset(&js, 0, sizeof js);
	memset(&r, 0, sizeof r);
	sb_marl_gen_defaults(&gp);
	gp.njobs = tk->njobs;
	gp.load = load;
	sb_marl_generate(tk->env, &gp, &gr, &js);
	training.ag = ag;
	training.n = 0;
	rc = sb_cluster_simulate(&tk->env->cl, &js, &tk->combo, &tk->sopts, &tk->popts,
				 seed ^ (0x9e3779b97f4a7c15ULL * (uint64_t)(ep + 1)), &r, err);
	training.ag = NULL;
	if (rc)
		goto out;
	if (sb_cluster_check(&tk->env->cl, &js, &r, why, sizeof why)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "marl training episode %d: the checker rejects the "
				"run: %s", ep, why);
		goto out;
	}
	for (i = 0; i < js.n; i++) {
		end = sb_max(end, r.finish[i]);
		jct += r.finish[i] - js.job[i].arrival;
	}
	*score = js.n ? jct / js.n : 0;
	for (k = 0; k < training.n; k++) {
		double t1 = k + 1 < training.n ? training.when[k + 1] : end;
		sb_marl_reward(ag, k, -(in_system(&js, &r, t1) - in_system(&js, &r, training.when[k])) /
				       SB_MARL_TNORM);
	}
out:
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
	return rc;
}

int sb_marl_cluster_task_init(struct sb_marl_cluster_task *tk, const struct sb_marl_env *env,
			      const char *combo, int agents, int njobs, struct sb_err *err)
{
	int rc;

	memset(tk, 0, sizeof *tk);
	tk->env = env;
	tk->njobs = njobs;
	if ((rc = sb_cluster_combo_parse(&tk->combo, combo, err)))
		return rc;
	sb_opts_defaults(&tk->sopts, tk->combo.sched->params);
	if (sb_opts_get_or(&tk->sopts, "agents", -1) >= 0) {
		char kv[32];
		snprintf(kv, sizeof kv, "agents=%d", agents);
		if ((rc = sb_opts_set(&tk->sopts, tk->combo.sched->params, kv, "marl training", err)))
			return rc;
	}
	sb_opts_defaults(&tk->popts, tk->combo.place->params);
	if ((rc = sb_marl_graph_from_tree(&tk->gr, &env->topo, err)))
		return rc;
	tk->task.gr = &tk->gr;
	tk->task.ctx = tk;
	tk->task.episode = episode;
	return 0;
}

void sb_marl_cluster_task_release(struct sb_marl_cluster_task *tk)
{
	sb_marl_graph_release(&tk->gr);
}
