/*
 * common.c - the cache family's experiment helpers (common.h).
 */
#include "common.h"
#include "cache/part.h"

#include "workloads/cache/graphs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int sb_cache_exp_graphs(struct sb_exp_ctx *c, struct sb_cache_graphs *gs, struct sb_err *err)
{
	int mask = (int)sb_opts_get(&c->opts, "graphs"), scale = (int)sb_opts_get(&c->opts, "rmat_scale");
	int32_t nsbm = (int32_t)sb_opts_get(&c->opts, "sbm_nodes");
	char path[1024];
	const char *cora = sb_exp_data(c, "cora/cora.cites", path, sizeof path);
	int rc = 0;
	size_t w = 0;

	memset(gs, 0, sizeof *gs);
	c->inputs_note[0] = '\0';
	if (mask & 1) {
		struct sb_cache_graph *g = &gs->g[gs->n];
		if (cora) {
			if ((rc = sb_exp_add_input(c, cora, err)) ||
			    (rc = sb_cache_load_edgelist(g, "cora", cora, err)))
				goto out;
			gs->label[gs->n++] = "cora";
			w += (size_t)snprintf(c->inputs_note + w, sizeof c->inputs_note - w,
					      "real: cora.cites (%d nodes, %lld edges); ", g->n,
					      (long long)g->m);
		} else {
			/* Cora's size and mean degree (2708 nodes, 5278 undirected
			 * edges), 7 communities like its 7 classes */
			if ((rc = sb_cache_gen_sbm(g, 2708, 7, 3.9, 0.2, c->seed, err)))
				goto out;
			gs->label[gs->n++] = "cora-sbm";
			w += (size_t)snprintf(c->inputs_note + w, sizeof c->inputs_note - w,
					      "synthetic fallback for cora: labelled SBM 2708 nodes; ");
		}
	}
	if (mask & 2) {
		if ((rc = sb_cache_gen_rmat(&gs->g[gs->n], scale, 16, 0.57, 0.19, 0.19, c->seed, err)))
			goto out;
		snprintf(gs->buf[gs->n], sizeof gs->buf[0], "rmat-%d", scale);
		gs->label[gs->n] = gs->buf[gs->n];
		gs->n++;
		w += (size_t)snprintf(c->inputs_note + w, sizeof c->inputs_note - w,
				      "generated: R-MAT scale %d (Graph500 a,b,c); ", scale);
	}
	if (mask & 4) {
		if ((rc = sb_cache_gen_sbm(&gs->g[gs->n], nsbm, 256, 25, 0.1, c->seed, err)))
			goto out;
		snprintf(gs->buf[gs->n], sizeof gs->buf[0], "sbm-%d", nsbm);
		gs->label[gs->n] = gs->buf[gs->n];
		gs->n++;
		snprintf(c->inputs_note + w, sizeof c->inputs_note - w,
			 "generated: SBM %d nodes, 256 blocks, degree 25, mixing 0.1", nsbm);
	}
out:
	if (rc)
		sb_cache_exp_graphs_free(gs);
	return rc;
}

void sb_cache_exp_graphs_free(struct sb_cache_graphs *gs)
{
	int i;
	for (i = 0; i < SB_CACHE_G_N; i++)
		sb_cache_graph_release(&gs->g[i]);
	gs->n = 0;
}

int sb_cache_exp_load(struct sb_exp_ctx *c, int per_graph, struct sb_err *err)
{
	struct sb_cache_graphs *gs;
	int rc = sb_cache_exp_check_policy_opts(c, err);
	if (rc)
		return rc;
	gs = SB_NEW(struct sb_cache_graphs, 1);
	if ((rc = sb_cache_exp_graphs(c, gs, err))) {
		sb_free(gs);
		return rc;
	}
	c->state = gs;
	c->npoints = gs->n * per_graph;
	return 0;
}

void sb_cache_exp_teardown(struct sb_exp_ctx *c)
{
	if (c->state)
		sb_cache_exp_graphs_free(c->state);
	sb_free(c->state);
	c->state = NULL;
}

void sb_cache_exp_setup(const struct sb_exp_ctx *c, const struct sb_cache_graph *g, int P,
			int k, double total_frac, struct sb_cache_setup *s, int32_t **train)
{
	int layers = (int)sb_opts_get(&c->opts, "layers");
	int nb = (int)sb_opts_get(&c->opts, "batches");
	memset(s, 0, sizeof *s);
	s->g = g;
	s->P = P;
	s->k = k;
	/* total_frac of |V| spread over the P * k GPUs (spec §9.4) */
	s->capacity = (int64_t)ceil(total_frac * g->n / (P * k));
	if (s->capacity < 1)
		s->capacity = 1;
	if (layers == 3) {
		s->smp.nlayers = 3;
		s->smp.fanout[0] = 5;
		s->smp.fanout[1] = 10;
		s->smp.fanout[2] = 15;
	} else {
		s->smp.nlayers = 2;
		s->smp.fanout[0] = 10;
		s->smp.fanout[1] = 25;
	}
	*train = sb_cache_train_uniform(g, sb_opts_get(&c->opts, "train_frac"), c->seed, &s->ntrain);
	s->train = *train;
	/* products has about 196 batches of 1000 per epoch; small graphs keep
	 * the number of batches instead of the batch size [O] */
	s->smp.batch = (s->ntrain + nb - 1) / nb;
	s->epochs = (int)sb_opts_get(&c->opts, "epochs");
	s->seed = c->seed;
	s->order = sb_cache_order_find("shuffle");
}

/* the experiment's "<prefix>_<param>" values onto a policy's options */
static int policy_opts(const struct sb_exp_ctx *c, const char *name, const struct sb_param *spec,
		       struct sb_opts *o, struct sb_err *err)
{
	const struct sb_param *q;
	int plen = (int)strcspn(name, "-"), rc;

	sb_opts_defaults(o, spec);
	for (q = spec; q && q->name; q++) {
		char key[64], kv[96], where[96];
		double v;
		snprintf(key, sizeof key, "%.*s_%s", plen, name, q->name);
		v = sb_opts_get_or(&c->opts, key, -1);
		if (v == -1)
			continue;
		snprintf(kv, sizeof kv, "%s=%.17g", q->name, v);
		snprintf(where, sizeof where, "--set %s (of %s)", key, name);
		if ((rc = sb_opts_set(o, spec, kv, where, err)))
			return rc;
	}
	return 0;
}

int sb_cache_exp_part_opts(const struct sb_exp_ctx *c, const struct sb_cache_partitioner *p,
			   struct sb_opts *o, struct sb_err *err)
{
	return policy_opts(c, p->name, p->params, o, err);
}

int sb_cache_exp_order_opts(const struct sb_exp_ctx *c, const struct sb_cache_order *p,
			    struct sb_opts *o, struct sb_err *err)
{
	return policy_opts(c, p->name, p->params, o, err);
}

int sb_cache_exp_check_policy_opts(const struct sb_exp_ctx *c, struct sb_err *err)
{
	const struct sb_cache_partitioner *const *ps;
	const struct sb_cache_order *const *os;
	struct sb_opts o;
	int n, i, rc;

	ps = sb_cache_partitioners(&n);
	for (i = 0; i < n; i++)
		if ((rc = sb_cache_exp_part_opts(c, ps[i], &o, err)))
			return rc;
	os = sb_cache_orders(&n);
	for (i = 0; i < n; i++)
		if ((rc = sb_cache_exp_order_opts(c, os[i], &o, err)))
			return rc;
	return 0;
}
