/*
 * adversary.c - the pipeline family's hook for `sb adversary pipeline`
 * (see core/adversary.h) [O, issue #14 item 7; our benchmark design, not
 * the papers']: a few layers on a few GPUs of one server, coded as genes:
 * per layer its forward time (1, 2, 4 or 8 ms per sample; the backward
 * twice that), its activation (0.1, 1 or 10 MB per sample, also its
 * stash) and its parameters (1, 10 or 100 MB); the bandwidth between any
 * two GPUs (1, 10 or 100 GB/s), the microbatches M (2, 3 or 4) and the
 * samples per microbatch (N or 2N on N GPUs, so that pure data
 * parallelism can split every microbatch). Memory is not binding (1 TB per GPU),
 * so every planner's plan fits, and a planner with a `recompute` option
 * runs with recompute=0. Each planner plans the instance, its plan
 * runs under its own schedule in pipesim and the timeline goes through the
 * independent checker (sb_pipeline_evaluate).
 *
 * The reference is the MILP of spec pipeplan.md §6 (sb_pipeline_milp, our
 * design): the best iteration time over every plan of one pipeline copy
 * without re-computation (any partition, any GPU groups, any schedule),
 * with the plan's overlap setting; exact when GLPK proves it under a
 * deterministic node limit. An instance whose optimum is not proven, and
 * a plan outside the MILP's space (several copies, re-computation, its
 * own linearisation or another M), is declined (ratio 0, never the
 * worst, counted); a solve stopped by the time-limit safety net fails the
 * run; a simulated time below the optimum is an error (a bug in the
 * planner, simulator, checker or MILP). Ratio = iteration time / optimum.
 */
#include "pipeline.h"
#include "bound.h"
#include "adversary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXL 5
#define NODE_LIMIT 20000L
#define TIME_LIMIT 600.0   /* seconds: the safety net only */
#define G_LAYER 3          /* forward, activation, parameters */
#define G_TAIL 3           /* bandwidth, M, samples per microbatch */

static const struct sb_param params[] = {
	{ "layers", 3, 1, MAXL, 1, "layers of the model" },
	{ "gpus", 2, 1, 3, 1, "GPUs (one server)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double fwd_s[] = { 1e-3, 2e-3, 4e-3, 8e-3 };
static const double act_b[] = { 1e5, 1e6, 1e7 };
static const double par_b[] = { 1e6, 1e7, 1e8 };
static const double bw_bs[] = { 1e9, 1e10, 1e11 };
#define N_OF(a) ((int)(sizeof a / sizeof a[0]))

struct ctx {
	const struct sb_pipeline_planner *p, *q;   /* q: versus, NULL for the MILP */
	struct sb_opts po, qo;
	int L, N;
};

/* The planner and its options: defaults, but re-computation off where it
 * is an option (the MILP's plans recompute nothing, and memory never
 * binds here, so re-computation could only cost time). */
static int find(const char *name, const struct sb_pipeline_planner **p, struct sb_opts *o,
		struct sb_err *err)
{
	const struct sb_param *q;

	if (!(*p = sb_pipeline_planner_find(name)))
		return sb_err_set(err, SB_EXIT_INPUT, "pipeline: unknown planner '%s' "
				  "(sb list pipeline)", name);
	sb_opts_defaults(o, (*p)->params);
	for (q = (*p)->params; q && q->name; q++)
		if (!strcmp(q->name, "recompute"))
			return sb_opts_set(o, (*p)->params, "recompute=0", "pipeline adversary", err);
	return 0;
}

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	int rc, l;

	memset(c, 0, sizeof *c);
	if ((rc = find(policy, &c->p, &c->po, err)) ||
	    (versus && (rc = find(versus, &c->q, &c->qo, err)))) {
		sb_free(c);
		return rc;
	}
	c->L = (int)sb_opts_get(o, "layers");
	c->N = (int)sb_opts_get(o, "gpus");
	sp->ngenes = G_LAYER * c->L + G_TAIL;
	for (l = 0; l < c->L; l++) {
		sp->hi[G_LAYER * l] = N_OF(fwd_s);
		sp->hi[G_LAYER * l + 1] = N_OF(act_b);
		sp->hi[G_LAYER * l + 2] = N_OF(par_b);
	}
	sp->hi[G_LAYER * c->L] = N_OF(bw_bs);
	sp->hi[G_LAYER * c->L + 1] = 3;
	sp->hi[G_LAYER * c->L + 2] = 2;
	*out = c;
	return 0;
}

void sb_pipeline_adversary_decode(void *ctx, const int *gene, struct sb_pmodel *m,
				  struct sb_topo *t, struct sb_pipeline_problem *pb)
{
	const struct ctx *c = ctx;
	const int *tail = gene + G_LAYER * c->L;
	int l, i, j;

	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "adversary-L%d", c->L);
	snprintf(m->source, sizeof m->source, "synthetic: sb adversary pipeline");
	m->n = c->L;
	m->pbs = 1;
	m->layer = SB_NEW(struct sb_layer, c->L);
	for (l = 0; l < c->L; l++) {
		struct sb_layer *ly = &m->layer[l];
		snprintf(ly->name, sizeof ly->name, "l%d", l);
		ly->fwd = fwd_s[gene[G_LAYER * l]];
		ly->bwd = 2 * ly->fwd;
		ly->act = ly->stash = act_b[gene[G_LAYER * l + 1]];
		ly->params = par_b[gene[G_LAYER * l + 2]];
	}
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "adversary-%d", c->N);
	t->n = c->N;
	t->nserver = 1;
	t->bw = SB_NEW(double, c->N * c->N);
	t->server = SB_NEW(int, c->N);
	for (i = 0; i < c->N; i++)
		for (j = 0; j < c->N; j++)
			t->bw[i * c->N + j] = i == j ? INFINITY : bw_bs[tail[0]];
	t->mem = 1e12;
	t->speed = 1;
	memset(pb, 0, sizeof *pb);
	pb->model = m;
	pb->topo = t;
	pb->M = 2 + tail[1];
	pb->batch = pb->M * (double)((1 + tail[2]) * c->N);
}

/* Iteration time of planner p's checked plan under its own schedule;
 * *in_space = 0 when the plan lies outside the MILP's space (then *overlap
 * is meaningless). */
static int planned(const struct sb_pipeline_problem *pb, const struct sb_pipeline_planner *p,
		   const struct sb_opts *o, double *T, int *in_space, int *overlap,
		   struct sb_err *err)
{
	const struct sb_pipeline_schedule *sc;
	struct sb_pipeline_plan plan;
	struct sb_pipeline_result r;
	struct sb_opts so;
	int rc;

	memset(&plan, 0, sizeof plan);   /* a planner may fail before it initialises it */
	if ((rc = p->plan(pb, o, &plan, err)))
		goto out;
	sc = sb_pipeline_schedule_find(plan.schedule[0] ? plan.schedule : p->schedule);
	if (!sc) {
		rc = sb_err_set(err, SB_EXIT_RUN, "planner %s names a schedule that is not "
				"registered", p->name);
		goto out;
	}
	sb_opts_defaults(&so, sc->params);
	if ((rc = sb_pipeline_evaluate(&plan, pb->model, pb->topo, sc, &so, &r, err)))
		goto out;
	if (!r.fits)
		rc = sb_err_set(err, SB_EXIT_RUN, "pipeline adversary: %s's plan does not fit a "
				"1 TB GPU", p->name);
	*T = r.iter_time;
	*in_space = plan.copies == 1 && !plan.recompute && !plan.model && plan.M == pb->M;
	*overlap = plan.overlap;
	sb_pipeline_result_release(&r);
out:
	sb_pipeline_plan_release(&plan);
	return rc;
}

/* The MILP optimum with the given overlap; *proven = 0 when GLPK stopped
 * at its node limit. */
static int optimum(const struct sb_pipeline_problem *pb, int overlap, double *opt, int *proven,
		   struct sb_err *err)
{
	struct sb_pipeline_milp_opts mo;
	struct sb_pipeline_milp_result res;
	int rc;

	memset(&mo, 0, sizeof mo);
	mo.time_limit = TIME_LIMIT;
	mo.node_limit = NODE_LIMIT;
	mo.overlap = overlap;
	if ((rc = sb_pipeline_milp(pb, &mo, &res, err)))
		return rc;
	if (res.stopped == SB_LP_STOP_TIME)
		rc = sb_err_set(err, SB_EXIT_RUN, "pipeline adversary: the MILP stopped at its "
				"time-limit safety net of %g s", TIME_LIMIT);
	*proven = res.status == SB_LP_OPTIMAL;
	*opt = res.obj;
	sb_pipeline_milp_result_release(&res);
	return rc;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_problem pb;
	double T, ref;
	int rc, in_space, overlap, proven = 1, qs, qo;

	sb_pipeline_adversary_decode(c, gene, &m, &t, &pb);
	if ((rc = planned(&pb, c->p, &c->po, &T, &in_space, &overlap, err)))
		goto out;
	if (c->q) {
		rc = planned(&pb, c->q, &c->qo, &ref, &qs, &qo, err);
		in_space = 1;
	} else if (in_space) {
		rc = optimum(&pb, overlap, &ref, &proven, err);
	}
	if (rc)
		goto out;
	if (!in_space || !proven) {
		rc = SB_ADV_DECLINED;
		goto out;
	}
	if (!c->q && T < ref * (1 - 1e-6))
		rc = sb_err_set(err, SB_EXIT_RUN, "pipeline adversary: %s's iteration time %.10g "
				"is below the MILP optimum %.10g", c->p->name, T, ref);
	else
		*q = T / ref;
out:
	sb_pmodel_release(&m);
	sb_topo_release(&t);
	return rc;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_problem pb;
	struct sb_err err;
	double T, opt;
	int l, in_space, overlap, proven;

	sb_pipeline_adversary_decode(c, gene, &m, &t, &pb);
	fprintf(out, "instance: %d GPUs, %.3g B/s between any two, M = %d, batch %g\n"
		"instance: layer,fwd_s,bwd_s,act_bytes,params_bytes (per sample)\n", t.n,
		t.bw[t.n > 1 ? 1 : 0], pb.M, pb.batch);
	for (l = 0; l < m.n; l++)
		fprintf(out, "instance: %s,%g,%g,%g,%g\n", m.layer[l].name, m.layer[l].fwd,
			m.layer[l].bwd, m.layer[l].act, m.layer[l].params);
	if (planned(&pb, c->p, &c->po, &T, &in_space, &overlap, &err))
		fprintf(out, "opt: error: %s\n", err.msg);
	else if (!in_space)
		fprintf(out, "opt: the plan is outside the MILP's space\n");
	else if (optimum(&pb, overlap, &opt, &proven, &err))
		fprintf(out, "opt: error: %s\n", err.msg);
	else
		fprintf(out, "opt: %.10g s (%s)\n", opt, proven ? "proven" : "not proven");
	sb_pmodel_release(&m);
	sb_topo_release(&t);
}

const struct sb_adversary sb_pipeline_adversary = {
	.desc = "a few layers (times, activations, parameters) on a few GPUs, bandwidth, M, "
		"batch; reference: the pipeline MILP proven optimal, T / OPT",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	.policy_type = "pipeline_planner",   /* every registered one */
	/* no bench space: 20,000 proposals per policy (each a checked run
	 * and an exact optimum) would dominate `make bench`; the Criterion
	 * test compares the search with exhaustive enumeration instead */
	.bench_set = NULL,
};
