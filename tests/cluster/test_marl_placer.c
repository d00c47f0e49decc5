/*
 * test_marl_placer.c - the marl placer in the cluster simulator
 * (algorithms/marl/placer.c): the encoder's graphs from the topology trees
 * T1, T2, T3; a short PPO training on T1 whose episodes all pass the
 * family's checker, are deterministic for a seed and return at most -sum
 * JCT / T_norm; the trained placer then runs under the agents scheduler
 * and passes the checker; without weights it is an error, on a flat
 * cluster it places like packed.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <math.h>
#include <string.h>

#include "algorithms/marl/placer.h"
#include "algorithms/marl/features.h"
#include "opts.h"
#include "workloads/cluster/marl.h"

Test(marl_placer, graphs_of_the_named_topologies)
{
	static const char *name[3] = { "T1", "T2", "T3" };
	static const int serv[3] = { 16, 8, 32 }, nsn[3] = { 9, 15, 9 }, ndc[3] = { 23, 14, 43 };
	int k;

	for (k = 0; k < 3; k++) {
		struct sb_cluster_tree t;
		struct sb_marl_graph g;
		struct sb_err err;

		cr_assert_eq(sb_cluster_tree_named(name[k], &t, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_marl_graph_from_tree(&g, &t, &err), 0, "%s", err.msg);
		cr_assert_eq(g.nserv, serv[k], "%s", name[k]);
		cr_assert_eq(g.nsn, nsn[k], "%s: %d", name[k], g.nsn);
		cr_assert_eq(g.ndc, ndc[k], "%s: %d", name[k], g.ndc);
		sb_marl_graph_release(&g);
		sb_cluster_tree_release(&t);
	}
}

static void jobs(const struct sb_marl_env *e, int njobs, uint64_t seed, struct sb_jobset *js)
{
	struct sb_marl_gen p;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);

	sb_marl_gen_defaults(&p);
	p.njobs = njobs;
	sb_marl_generate(e, &p, &r, js);
}

static struct sb_marl_net *train_t1(const struct sb_marl_env *e, struct sb_marl_curve *cv,
				    int eps)
{
	struct sb_marl_cluster_task tk;
	struct sb_marl_cfg cfg;
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(4, 0, 0, SB_RNG_POLICY);
	struct sb_marl_net *n = sb_marl_net_new(SB_MARL_ARCH_GNN, 1, 0, &err);

	cr_assert_eq(sb_marl_cluster_task_init(&tk, e, "agents+marl", 2, 30, &err), 0, "%s",
		     err.msg);
	sb_marl_cfg_defaults(&cfg);
	cfg.episodes = eps;
	cfg.batch = 2;
	cfg.seed = 4;
	sb_marl_net_init(n, &r);
	cr_assert_eq(sb_marl_train(n, &tk.task, &cfg, cv, &err), 0, "%s", err.msg);
	sb_marl_cluster_task_release(&tk);
	return n;
}

Test(marl_placer, training_episodes_on_t1, .timeout = 300)
{
	struct sb_marl_env e;
	struct sb_err err;
	struct sb_marl_curve c1[4], c2[4];
	struct sb_marl_net *a, *b;
	size_t np;
	double *wa, *wb;
	int k;

	cr_assert_eq(sb_marl_env_init(&e, "T1", NULL, 1, 9, &err), 0, "%s", err.msg);
	a = train_t1(&e, c1, 4);
	b = train_t1(&e, c2, 4);
	np = sb_marl_net_nparams(a);
	wa = SB_NEW(double, np);
	wb = SB_NEW(double, np);
	sb_marl_net_get(a, wa);
	sb_marl_net_get(b, wb);
	cr_assert_eq(memcmp(wa, wb, np * sizeof *wa), 0, "same seed, different weights");
	for (k = 0; k < 4; k++) {
		cr_assert(c1[k].score == c2[k].score && c1[k].ret == c2[k].ret);
		cr_assert_gt(c1[k].decisions, 0);
		cr_assert_gt(c1[k].score, 0);
		/* the return covers the episode from the first decision on */
		cr_assert_leq(c1[k].ret, 0);
		cr_assert_leq(-c1[k].ret * SB_MARL_TNORM, 30 * c1[k].score * (1 + 1e-9));
	}
	/* the trained placer in evaluation: greedy actions, checked run */
	{
		struct sb_cluster_combo cb;
		struct sb_opts so, po;
		struct sb_jobset js;
		struct sb_cluster_result r;
		char why[256];

		cr_assert_eq(sb_marl_nets_put("marl", a, &err), 0);
		cr_assert_eq(sb_cluster_combo_parse(&cb, "agents+marl", &err), 0);
		sb_opts_defaults(&so, cb.sched->params);
		sb_opts_defaults(&po, cb.place->params);
		jobs(&e, 40, 11, &js);
		cr_assert_eq(sb_cluster_simulate(&e.cl, &js, &cb, &so, &po, 11, &r, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(sb_cluster_check(&e.cl, &js, &r, why, sizeof why), 0, "%s", why);
		sb_cluster_result_release(&r);
		sb_jobset_release(&js);
		sb_marl_nets_clear();
	}
	sb_free(wa);
	sb_free(wb);
	sb_marl_net_free(b);
	sb_marl_env_release(&e);
}

Test(marl_placer, no_weights_is_an_error, .exit_code = 2, .init = cr_redirect_stderr)
{
	struct sb_marl_env e;
	struct sb_err err;
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_jobset js;
	struct sb_cluster_result r;

	cr_assert_eq(sb_marl_env_init(&e, "T0", NULL, 1, 9, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cluster_combo_parse(&cb, "agents+marl", &err), 0);
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	jobs(&e, 5, 1, &js);
	sb_cluster_simulate(&e.cl, &js, &cb, &so, &po, 1, &r, &err);
}
