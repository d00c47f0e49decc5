/*
 * test_marl_variant.c - the trained marl placers (algorithms/marl/
 * variant.c): every variant is a registered placer with a weights hook;
 * the inputs text changes with every input a training run reads (seed,
 * episodes, topology, reward source, the predictor) and not otherwise;
 * training a variant is deterministic and leaves the environment's
 * evaluation settings as they were; the greedy action defers only when the
 * policy defers at least half the time; the store probe tells a missing
 * file or variant (train) from a stored hash; the placer's cached view
 * follows a new topology built where an old one was.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/marl/placer.h"
#include "algorithms/marl/store.h"
#include "algorithms/marl/variant.h"
#include "cluster/cluster.h"
#include "h5.h"

static void hash_of(const struct sb_marl_variant *v, int episodes, uint64_t seed,
		    const struct sb_marl_env *e, char *h)
{
	struct sb_marl_cfg cfg;
	static char text[16384];

	sb_marl_variant_cfg(v, episodes, seed, &cfg);
	sb_marl_variant_text(v, &cfg, 50, e, "", text, sizeof text);
	sb_marl_inputs_hash(text, h);
}

Test(marl_variant, registered_with_weights_hooks)
{
	const struct sb_marl_variant *v;
	int n, k;

	v = sb_marl_variants(&n);
	cr_assert_geq(n, 7);
	for (k = 0; k < n; k++) {
		const struct sb_cluster_policy *p = sb_cluster_policy_find(v[k].name);
		cr_assert_not_null(p, "%s is not registered", v[k].name);
		cr_assert_not_null(p->place);
		cr_assert_not_null(p->load_weights, "%s", v[k].name);
		cr_assert_eq(sb_marl_variant_find(v[k].name), &v[k]);
	}
	cr_assert_null(sb_cluster_policy_find("consolidate")->load_weights);
	cr_assert_null(sb_marl_variant_find("consolidate"));
}

Test(marl_variant, inputs_text_tracks_the_inputs)
{
	struct sb_marl_env e1, e2, e3;
	struct sb_err err;
	char a[SB_MARL_HASH_LEN], b[SB_MARL_HASH_LEN];
	const struct sb_marl_variant *m = sb_marl_variant_find("marl");

	cr_assert_eq(sb_marl_env_init(&e1, "T1", NULL, 1, 3, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_marl_env_init(&e2, "T1", NULL, 1, 4, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_marl_env_init(&e3, "T2", NULL, 1, 3, &err), 0, "%s", err.msg);
	hash_of(m, 40, 3, &e1, a);
	hash_of(m, 40, 3, &e1, b);
	cr_assert_str_eq(a, b);
	hash_of(m, 41, 3, &e1, b);
	cr_assert_str_neq(a, b, "episodes");
	hash_of(m, 40, 4, &e1, b);
	cr_assert_str_neq(a, b, "seed");
	hash_of(m, 40, 3, &e2, b);
	cr_assert_str_neq(a, b, "pair-noise seed");
	hash_of(m, 40, 3, &e3, b);
	cr_assert_str_neq(a, b, "topology");
	hash_of(sb_marl_variant_find("marl-true"), 40, 3, &e1, b);
	cr_assert_str_neq(a, b, "reward source");
	hash_of(sb_marl_variant_find("marl-gae95"), 40, 3, &e1, b);
	cr_assert_str_neq(a, b, "GAE lambda");
	hash_of(sb_marl_variant_find("marl-nodefer"), 40, 3, &e1, b);
	cr_assert_str_neq(a, b, "defer action");
	hash_of(sb_marl_variant_find("marl-untrained"), 40, 3, &e1, b);
	cr_assert_str_neq(a, b, "untrained");
	e1.interf.gamma = 0.7;
	hash_of(m, 40, 3, &e1, b);
	cr_assert_str_neq(a, b, "interference model");
	sb_marl_env_release(&e1);
	sb_marl_env_release(&e2);
	sb_marl_env_release(&e3);
}

Test(marl_variant, training_is_deterministic_and_restores_the_env, .timeout = 300)
{
	struct sb_marl_env e;
	struct sb_err err;
	struct sb_marl_cfg cfg;
	struct sb_marl_net *a, *b;
	struct sb_marl_curve c1[2], c2[2];
	const struct sb_marl_variant *v = sb_marl_variant_find("marl-blind");
	double *wa, *wb;
	size_t np;

	cr_assert_eq(sb_marl_env_init(&e, "T0", NULL, 1, 2, &err), 0, "%s", err.msg);
	e.interf.migrate = 1;
	sb_marl_variant_cfg(v, 2, 7, &cfg);
	cfg.batch = 2;
	cr_assert_eq(sb_marl_variant_train(v, &e, &cfg, 20, &a, c1, &err), 0, "%s", err.msg);
	cr_assert_eq(e.interf.on, 1);
	cr_assert_eq(e.interf.migrate, 1);
	cr_assert_eq(e.interf.use_pred, 0);
	cr_assert_eq(sb_marl_variant_train(v, &e, &cfg, 20, &b, c2, &err), 0, "%s", err.msg);
	np = sb_marl_net_nparams(a);
	wa = SB_NEW(double, np);
	wb = SB_NEW(double, np);
	sb_marl_net_get(a, wa);
	sb_marl_net_get(b, wb);
	cr_assert_eq(memcmp(wa, wb, np * sizeof *wa), 0);
	cr_assert(c1[1].score == c2[1].score && c1[1].decisions == c2[1].decisions);
	/* predicted rewards need a predictor */
	cr_assert_eq(sb_marl_variant_train(sb_marl_variant_find("marl"), &e, &cfg, 20, &b, NULL,
					   &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "pred_epochs"), "%s", err.msg);
	cr_assert_null(b);
	sb_marl_net_free(a);
	sb_free(wa);
	sb_free(wb);
	sb_marl_env_release(&e);
}

Test(marl_variant, greedy_defers_only_on_half_the_mass)
{
	/* 4 anchors and defer */
	double p1[5] = { 0.15, 0.2, 0.15, 0.1, 0.4 }, p2[5] = { 0.1, 0.2, 0.1, 0.1, 0.5 };
	double p3[5] = { 0.3, 0.3, 0.1, 0.1, 0.2 };

	cr_assert_eq(sb_marl_argmax(p1, 5), 4, "the plain argmax defers here");
	cr_assert_eq(sb_marl_greedy(p1, 4), 1);
	cr_assert_eq(sb_marl_greedy(p2, 4), 4);
	cr_assert_eq(sb_marl_greedy(p3, 4), 0, "ties to the lowest index");
}

Test(marl_variant, store_probe)
{
	struct sb_table t;
	struct sb_attrs at;
	struct sb_h5_dataset d = { SB_MARL_STORE_DATASET, &t };
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
	struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
	char path[64], h[SB_MARL_HASH_LEN];
	FILE *f;

	snprintf(path, sizeof path, "/tmp/sb_marl_probe_%d.h5", (int)getpid());
	unlink(path);
	cr_assert_eq(sb_marl_store_probe(path, "marl", h, &err), 1, "no file: train");
	sb_marl_net_init(n, &r);
	sb_table_init(&t, sb_marl_store_schema);
	sb_marl_store_put(&t, "marl", "0123456789abcdef", n);
	sb_attrs_init(&at);
	cr_assert_eq(sb_h5_write(path, &at, 1, &d, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_marl_store_probe(path, "marl", h, &err), 0, "%s", err.msg);
	cr_assert_str_eq(h, "0123456789abcdef");
	cr_assert_eq(sb_marl_store_probe(path, "marl-a2c", h, &err), 1, "no such variant: train");
	f = fopen(path, "w");
	fputs("not hdf5\n", f);
	fclose(f);
	cr_assert_eq(sb_marl_store_probe(path, "marl", h, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, path), "%s", err.msg);
	unlink(path);
	sb_attrs_release(&at);
	sb_table_release(&t);
	sb_marl_net_free(n);
}

/* Regression: the placer caches its view per topology; a topology
 * released and another built at the same address (marl_train trains on
 * T2, then T3, in one worker) must not find the first one's view (the fill
 * rule then met anchors of the wrong tree and stopped on an assertion). */
Test(marl_variant, view_follows_a_new_tree_at_the_same_address, .timeout = 120)
{
	static const char *const topo[2] = { "T2", "T3" };
	struct sb_marl_env e;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
	int k;

	for (k = 0; k < 2; k++) {
		struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
		struct sb_cluster_combo cb;
		struct sb_opts so, po;
		struct sb_jobset js;
		struct sb_cluster_result res;
		struct sb_marl_gen g;
		struct sb_rng gr = sb_rng_stream(3, (uint64_t)k, 0, SB_RNG_TEST);
		char why[256];

		cr_assert_eq(sb_marl_env_init(&e, topo[k], NULL, 1, 3, &err), 0, "%s", err.msg);
		sb_marl_net_init(n, &r);
		cr_assert_eq(sb_marl_nets_put("marl", n, &err), 0);
		cr_assert_eq(sb_cluster_combo_parse(&cb, "agents+marl", &err), 0);
		sb_opts_defaults(&so, cb.sched->params);
		sb_opts_defaults(&po, cb.place->params);
		sb_marl_gen_defaults(&g);
		g.njobs = 60;
		g.load = 0.9;
		sb_marl_generate(&e, &g, &gr, &js);
		cr_assert_eq(sb_cluster_simulate(&e.cl, &js, &cb, &so, &po, 3, &res, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(sb_cluster_check(&e.cl, &js, &res, why, sizeof why), 0, "%s: %s",
			     topo[k], why);
		sb_cluster_result_release(&res);
		sb_jobset_release(&js);
		sb_marl_nets_clear();
		sb_marl_env_release(&e);
	}
}

/* The most concurrent jobs of a run. */
static int max_concurrent(const struct sb_jobset *js, const struct sb_cluster_result *r)
{
	int i, k, best = 0;

	for (i = 0; i < js->n; i++) {
		int c = 0;
		for (k = 0; k < js->n; k++)
			c += r->first_start[k] <= r->first_start[i] && r->finish[k] > r->first_start[i];
		best = c > best ? c : best;
	}
	return best;
}

/* A net that wants to defer (defer logit +100) runs one job at a time
 * as marl (defer is masked only while nothing runs), and many at once as
 * marl-nodefer, whose defer action is masked out. */
Test(marl_variant, nodefer_masks_the_defer_action, .timeout = 120)
{
	static const char *const name[2] = { "marl", "marl-nodefer" };
	struct sb_marl_env e;
	struct sb_err err;
	struct sb_marl_gen g;
	struct sb_jobset js;
	struct sb_rng r = sb_rng_stream(5, 0, 0, SB_RNG_TEST);
	int k, conc[2];

	cr_assert_eq(sb_marl_env_init(&e, "T1", NULL, 1, 3, &err), 0, "%s", err.msg);
	sb_marl_gen_defaults(&g);
	g.njobs = 60;
	g.load = 0.9;
	sb_marl_generate(&e, &g, &r, &js);
	for (k = 0; k < 2; k++) {
		struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);
		struct sb_nn *d;
		struct sb_cluster_combo cb;
		struct sb_opts so, po;
		struct sb_cluster_result res;
		char combo[64], why[256];
		int L;

		sb_marl_net_init(n, &r);
		d = n->defer;
		L = d->nlayers - 1;
		d->w[d->off[L] + (size_t)d->size[L] * d->size[L + 1]] = 100; /* the output's bias */
		cr_assert_eq(sb_marl_nets_put(name[k], n, &err), 0);
		snprintf(combo, sizeof combo, "agents+%s", name[k]);
		cr_assert_eq(sb_cluster_combo_parse(&cb, combo, &err), 0);
		sb_opts_defaults(&so, cb.sched->params);
		sb_opts_defaults(&po, cb.place->params);
		cr_assert_eq(sb_cluster_simulate(&e.cl, &js, &cb, &so, &po, 3, &res, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(sb_cluster_check(&e.cl, &js, &res, why, sizeof why), 0, "%s", why);
		conc[k] = max_concurrent(&js, &res);
		sb_cluster_result_release(&res);
	}
	cr_assert_eq(conc[0], 1, "marl with a deferring net runs one job at a time");
	cr_assert_gt(conc[1], 3, "marl-nodefer never defers: %d jobs at once", conc[1]);
	sb_marl_nets_clear();
	sb_jobset_release(&js);
	sb_marl_env_release(&e);
}

/* The untrained variant is the scheduler's initial nets: its weights equal
 * those of marl's recipe run for zero episodes, whatever episodes it is
 * given. */
Test(marl_variant, untrained_is_the_schedulers_initial_net, .timeout = 120)
{
	struct sb_marl_env e;
	struct sb_err err;
	struct sb_interf_pred_params p;
	struct sb_marl_cfg cu, cm;
	struct sb_marl_net *u, *m;
	struct sb_interf_pred *pr;
	double *wu, *wm;
	size_t np;

	cr_assert_eq(sb_marl_env_init(&e, "T0", NULL, 1, 2, &err), 0, "%s", err.msg);
	sb_interf_pred_defaults(&p);
	p.nsamples = 200;
	p.nheld = 50;
	p.epochs = 1;
	pr = sb_interf_pred_train(&e.interf, &p, NULL, NULL);
	e.interf.pred = pr;
	sb_marl_variant_cfg(sb_marl_variant_find("marl-untrained"), 5, 7, &cu);
	cr_assert_eq(cu.episodes, 0);
	sb_marl_variant_cfg(sb_marl_variant_find("marl"), 0, 7, &cm);
	cr_assert_eq(sb_marl_variant_train(sb_marl_variant_find("marl-untrained"), &e, &cu, 20, &u,
					   NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_marl_variant_train(sb_marl_variant_find("marl"), &e, &cm, 20, &m, NULL,
					   &err), 0, "%s", err.msg);
	np = sb_marl_net_nparams(u);
	cr_assert_eq(np, sb_marl_net_nparams(m));
	wu = SB_NEW(double, np);
	wm = SB_NEW(double, np);
	sb_marl_net_get(u, wu);
	sb_marl_net_get(m, wm);
	cr_assert_eq(memcmp(wu, wm, np * sizeof *wu), 0);
	sb_free(wu);
	sb_free(wm);
	sb_marl_net_free(u);
	sb_marl_net_free(m);
	e.interf.pred = NULL;
	sb_interf_pred_free(pr);
	sb_marl_env_release(&e);
}
