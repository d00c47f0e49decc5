/*
 * cluster_place.c - figure asrpt-F9 (spec asrpt.md §7.4, §10): the inter-server
 * cut of every registered placer against the exact placement ILP (GLPK),
 * for jobs of 2-16 GPUs of the catalogue on 4 servers of 8 GPUs (the
 * sim128 server type) with random occupancy: the exact ILP stays small
 * there. ratio = cut / cut_ILP (1 when both are 0, undefined - NaN, left
 * out of means - when only the ILP's is 0); excess = (cut - cut_ILP) / all
 * bytes of the job, the share of its traffic that crosses servers without
 * need. A-SRPT's KL placement is our reconstruction.
 */
#include "common.h"
#include "cluster/bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "reps", 20, 1, 1000, 1, "instances per job size" },
	{ "node_limit", 20000, 1, 1e9, 1, "branch-and-bound nodes of the placement ILP" },
	{ "servers", 4, 2, 16, 1, "servers (of 8 GPUs) of the cluster" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const int sizes[4] = { 2, 4, 8, 16 };

static const struct sb_col cols[] = {
	{ "gpus", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "model", SB_COL_STR, "" },
	{ "placer", SB_COL_STR, "" },
	{ "free_gpus", SB_COL_INT, "" },
	{ "cut", SB_COL_DBL, "bytes/iteration" },
	{ "cut_ilp", SB_COL_DBL, "bytes/iteration" },
	{ "ilp_status", SB_COL_STR, "" },
	{ "ratio", SB_COL_DBL, "" },
	{ "excess", SB_COL_DBL, "" },
	{ "tau", SB_COL_DBL, "s" },
	{ NULL, 0, NULL },
};

struct state {
	int reps;
	long nlim;
	struct sb_cluster cl;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	c->state = s;
	s->reps = (int)sb_opts_get(&c->opts, "reps");
	s->nlim = (long)sb_opts_get(&c->opts, "node_limit");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: catalogue jobs on 8-GPU servers with random occupancy (ours)");
	c->npoints = 4 * s->reps;
	if (sb_cluster_named("sim128", &s->cl, err))
		return SB_EXIT_INPUT;
	s->cl.nserver = (int)sb_opts_get(&c->opts, "servers");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	const struct sb_cluster *cl = &s->cl;
	int g = sizes[point / s->reps], rep = point % s->reps, N = cl->nserver * cl->gpus;
	struct sb_rng r = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	int nc, k, cf, cand[64][2], ncand = 0, pick, x, nfree, np, i, rc = 0, status;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	const struct sb_cluster_policy *const *all = sb_cluster_policies(&np);
	struct sb_jobset js;
	struct sb_jobgraph h;
	unsigned char *fr = SB_NEW(unsigned char, N);
	int *fps = SB_NEW(int, cl->nserver), *gpus = SB_NEW(int, g);
	double busy, cut_ilp;
	char status_name[32];

	(void)timing;
	for (k = 0; k < nc; k++)
		for (cf = 0; cf < cat[k].nconf; cf++) {
			const struct sb_config *f = &cat[k].conf[cf];
			if (f->d * f->t * f->p == g && ncand < 64) {
				cand[ncand][0] = k;
				cand[ncand][1] = cf;
				ncand++;
			}
		}
	SB_ASSERT(ncand > 0);
	pick = (int)sb_rng_below(&r, (uint32_t)ncand);
	memset(&js, 0, sizeof js);
	sb_catalog_models(&js);
	js.n = 1;
	js.job = SB_NEW(struct sb_job, 1);
	{
		const struct sb_config *f = &cat[cand[pick][0]].conf[cand[pick][1]];
		struct sb_job *j = &js.job[0];
		j->model = cand[pick][0];
		j->d = f->d;
		j->t = f->t;
		j->p = f->p;
		j->gpus = g;
		j->micro = 4 * f->p;
		j->batch = js.model[j->model].batch;
		j->iters = 1;
		j->family = -1;
	}
	/* random occupancy, at least g GPUs free */
	busy = 0.3 + 0.5 * sb_rng_uniform(&r);
	do {
		nfree = 0;
		memset(fps, 0, sizeof(int) * (size_t)cl->nserver);
		for (x = 0; x < N; x++) {
			fr[x] = !sb_rng_bernoulli(&r, busy);
			nfree += fr[x];
			fps[x / cl->gpus] += fr[x];
		}
	} while (nfree < g);
	sb_jobgraph_build(&h, &js.job[0], &js.model[js.job[0].model], cl);
	rc = sb_cluster_place_ilp(&h, fps, cl->nserver, s->nlim, &cut_ilp, NULL, &status, err);
	if (rc)
		goto out;
	snprintf(status_name, sizeof status_name, "%s", sb_lp_status_name(status));
	for (i = 0; i < np && !rc; i++) {
		struct sb_opts o;
		double cut, tau, ratio, total = 0;
		int e;
		size_t row;
		if (!all[i]->place || all[i]->topo)   /* flat here: they would place like packed */
			continue;
		sb_opts_defaults(&o, all[i]->params);
		if (sb_cluster_probe_place(cl, &js, 0, fr, all[i], &o, c->seed ^ (uint64_t)point,
					   gpus, &cut, &tau) != 0)
			continue;
		if (cut < cut_ilp * (1 - 1e-9) && status == SB_LP_OPTIMAL) {
			rc = sb_err_set(err, SB_EXIT_RUN, "placer %s beat the placement ILP optimum "
					"(%g < %g): a bug", all[i]->name, cut, cut_ilp);
			break;
		}
		ratio = cut_ilp > 0 ? cut / cut_ilp : (cut > 0 ? NAN : 1);
		for (e = 0; e < h.ne; e++)
			total += h.w[e];
		row = sb_table_add(out);
		sb_table_set_int(out, row, "gpus", g);
		sb_table_set_int(out, row, "rep", rep);
		sb_table_set_str(out, row, "model", js.model[js.job[0].model].name);
		sb_table_set_str(out, row, "placer", all[i]->name);
		sb_table_set_int(out, row, "free_gpus", nfree);
		sb_table_set_dbl(out, row, "cut", cut);
		sb_table_set_dbl(out, row, "cut_ilp", cut_ilp);
		sb_table_set_str(out, row, "ilp_status", status_name);
		sb_table_set_dbl(out, row, "ratio", ratio);
		sb_table_set_dbl(out, row, "excess", total > 0 ? (cut - cut_ilp) / total : 0);
		sb_table_set_dbl(out, row, "tau", tau);
	}
out:
	sb_jobgraph_release(&h);
	sb_jobset_release(&js);
	sb_free(fr);
	sb_free(fps);
	sb_free(gpus);
	return rc;
}

static void teardown(struct sb_exp_ctx *c)
{
	sb_free(c->state);
}

const struct sb_experiment sb_experiment_cluster_place = {
	.name = "cluster_place",
	.desc = "every placer's inter-server cut vs the exact placement ILP, jobs of 2-16 GPUs",
	.figure = "asrpt-F9",
	.family = "cluster",
	.params = params,
	.quick_set = "reps=3",
	.cols = cols,
	.summary_by = "gpus placer",
	.summary_of = "ratio excess cut tau",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
