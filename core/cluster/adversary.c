/*
 * adversary.c - the cluster family's hook for `sb adversary cluster` (see
 * core/adversary.h) [O, issue #14 item 7; our benchmark design, not the
 * paper's]: a few jobs on a tiny cluster (servers x GPUs of the testbed's
 * links), three genes per job: its kind (model and parallel degrees from a
 * menu of ResNet-50, VGG-16 and BERT-base configurations that fit the
 * cluster), its arrival (a multiple of `gap` seconds) and its length (20,
 * 60, 120 or 240 s on its reference placement, rounded to whole
 * iterations). Objective: total completion time sum_j C_j; ratio = the
 * policy's sum / the reference's.
 *
 * The reference is OPT_np, the exact optimum over non-preemptive
 * fixed-placement schedules (sb_cluster_opt_exact: enumeration of active
 * schedules, a deterministic node limit; an instance whose optimum the
 * search does not prove is rejected: ratio 0, never the worst, and
 * counted). OPT_np bounds only runs that preempt nothing: the lengths stay
 * below the 300 s after which the preemptive schedulers (SRPT, Optimus,
 * A-SRPT D2) may preempt a running job and below Tiresias' first queue
 * threshold, and an instance on which the run still preempts (Tiresias
 * with the Gittins index reorders running jobs after any service) is
 * rejected the same way: a policy's worst ratio is over the instances on
 * which its run preempts nothing. Against --versus every run counts.
 * Every run goes through the simulator and sb_cluster_check; a run below
 * OPT_np is an error (a bug in one of them).
 */
#include "cluster.h"
#include "bound.h"
#include "adversary.h"
#include "workloads/cluster/jobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXJOBS 5
#define NODE_LIMIT 5000000L   /* per instance; 5 jobs need about 10^5 */

static const struct sb_param params[] = {
	{ "jobs", 4, 1, MAXJOBS, 1, "jobs" },
	{ "servers", 2, 1, 3, 1, "servers" },
	{ "gpus", 2, 1, 4, 1, "GPUs per server" },
	{ "arrivals", 3, 1, 8, 1, "arrival levels (0, gap, 2 gap, ...)" },
	{ "gap", 30, 0, 3600, 0, "seconds between arrival levels" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* The menu of job kinds (model, d, t, p). */
static const struct kind {
	const char *model;
	int d, t, p;
} kinds[] = {
	{ "resnet50", 1, 1, 1 }, { "resnet50", 2, 1, 1 }, { "vgg16", 2, 1, 1 },
	{ "vgg16", 1, 1, 2 },    { "bert-base", 1, 2, 1 }, { "resnet50", 4, 1, 1 },
	{ "vgg16", 4, 1, 1 },    { "bert-base", 2, 2, 1 },
};
#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

static const double lengths[] = { 20, 60, 120, 240 };
#define NLEN ((int)(sizeof lengths / sizeof lengths[0]))

struct ctx {
	struct sb_cluster cl;
	struct sb_cluster_combo p, q;
	int versus, n, nkind, narr;
	double gap;
	int kind[NKINDS];              /* the kinds that fit the cluster */
	double tau_ref[NKINDS];        /* their reference iteration times */
	struct sb_opts ps, pp, qs, qp;
};

static struct sb_job job_of_kind(int k)
{
	struct sb_job j;
	int nc, m = sb_catalog_find(kinds[k].model);
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	SB_ASSERT(m >= 0);
	memset(&j, 0, sizeof j);
	j.model = m;
	j.d = kinds[k].d;
	j.t = kinds[k].t;
	j.p = kinds[k].p;
	j.gpus = j.d * j.t * j.p;
	j.micro = 4 * j.p;
	j.batch = cat[m].model.batch > j.d * j.micro ? cat[m].model.batch : j.d * j.micro;
	j.iters = 1;
	j.family = -1;
	j.user = 0;
	j.batch_mult = j.lr_mult = j.data_frac = 1;
	j.trace_runtime = -1;
	return j;
}

static int parse_combo(struct sb_cluster_combo *cb, const char *name, struct sb_opts *so,
		       struct sb_opts *po, struct sb_err *err)
{
	int rc = sb_cluster_combo_parse(cb, name, err);

	if (rc)
		return rc;
	if (cb->sched->topo)
		return sb_err_set(err, SB_EXIT_INPUT, "cluster: '%s' is made for the topology "
				  "mode, and the adversary's instances are flat", name);
	sb_opts_defaults(so, cb->sched->params);
	sb_opts_defaults(po, cb->place->params);
	return 0;
}

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	struct sb_jobset js;
	int rc, k, i;

	memset(c, 0, sizeof *c);
	if ((rc = parse_combo(&c->p, policy, &c->ps, &c->pp, err)) ||
	    (versus && (rc = parse_combo(&c->q, versus, &c->qs, &c->qp, err))))
		goto fail;
	c->versus = versus != NULL;
	if ((rc = sb_cluster_named("testbed", &c->cl, err)))
		goto fail;
	c->cl.nserver = (int)sb_opts_get(o, "servers");
	c->cl.gpus = (int)sb_opts_get(o, "gpus");
	snprintf(c->cl.name, sizeof c->cl.name, "adv%dx%d", c->cl.nserver, c->cl.gpus);
	c->n = (int)sb_opts_get(o, "jobs");
	c->narr = (int)sb_opts_get(o, "arrivals");
	c->gap = sb_opts_get(o, "gap");
	memset(&js, 0, sizeof js);
	sb_catalog_models(&js);
	for (k = 0; k < NKINDS; k++) {
		struct sb_job j = job_of_kind(k);
		struct sb_jobgraph h;
		int server[SB_CLB_ENUM_MAX];
		if (j.gpus > c->cl.nserver * c->cl.gpus)
			continue;
		sb_jobgraph_build(&h, &j, &js.model[j.model], &c->cl);
		c->tau_ref[c->nkind] = sb_job_ref_placement(&c->cl, &h, server);
		sb_jobgraph_release(&h);
		c->kind[c->nkind++] = k;
	}
	sb_jobset_release(&js);
	if (3 * c->n > SB_ADV_MAXGENES)
		SB_BUG("cluster adversary: %d jobs need too many genes", c->n);
	sp->ngenes = 3 * c->n;
	for (i = 0; i < c->n; i++) {
		sp->hi[3 * i] = c->nkind;
		sp->hi[3 * i + 1] = c->narr;
		sp->hi[3 * i + 2] = NLEN;
	}
	*out = c;
	return 0;
fail:
	sb_free(c);
	return rc;
}

/* The job set coded by gene: jobs sorted by arrival (ties in gene order). */
static void decode(const struct ctx *c, const int *gene, struct sb_jobset *js)
{
	int i, j, order[MAXJOBS];

	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	snprintf(js->source, sizeof js->source, "synthetic: sb adversary cluster");
	js->n = c->n;
	js->job = SB_NEW(struct sb_job, c->n);
	for (i = 0; i < c->n; i++) {
		for (j = i; j > 0 && gene[3 * order[j - 1] + 1] > gene[3 * i + 1]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < c->n; i++) {
		const int *g = gene + 3 * order[i];
		struct sb_job *jb = &js->job[i];
		long it;
		*jb = job_of_kind(c->kind[g[0]]);
		jb->id = i;
		jb->arrival = c->gap * g[1];
		it = lround(lengths[g[2]] / c->tau_ref[g[0]]);
		jb->iters = it > 0 ? it : 1;
	}
}

/* Sum of completion times of one combination (simulated and checked), and
 * whether it preempted. */
static int run(const struct ctx *c, const struct sb_jobset *js, const struct sb_cluster_combo *cb,
	       const struct sb_opts *so, const struct sb_opts *po, double *sum, int *preempted,
	       struct sb_err *err)
{
	struct sb_cluster_result r;
	char why[256];
	int rc, j;

	if ((rc = sb_cluster_simulate(&c->cl, js, cb, so, po, 1, &r, err)))
		return rc;
	if (sb_cluster_check(&c->cl, js, &r, why, sizeof why)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "cluster adversary: the checker rejects %s: %s",
				cb->label, why);
		goto out;
	}
	*sum = 0;
	*preempted = 0;
	for (j = 0; j < js->n; j++) {
		*preempted |= r.npreempt[j] > 0;
		*sum += r.finish[j];
	}
out:
	sb_cluster_result_release(&r);
	return rc;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	struct sb_jobset js;
	double sum, ref;
	int rc, st, pre, qpre;

	decode(c, gene, &js);
	if ((rc = run(c, &js, &c->p, &c->ps, &c->pp, &sum, &pre, err)))
		goto out;
	if (c->versus) {
		rc = run(c, &js, &c->q, &c->qs, &c->qp, &ref, &qpre, err);
	} else if (pre || (!(rc = sb_cluster_opt_exact(&c->cl, &js, NODE_LIMIT, &ref, &st, NULL,
							  NULL, err)) && st != SB_LP_OPTIMAL)) {
		rc = SB_ADV_DECLINED;
		goto out;
	}
	if (!rc && !c->versus && sum < ref * (1 - 1e-9))
		rc = sb_err_set(err, SB_EXIT_RUN, "cluster adversary: %s's total completion time "
				"%.10g is below the exact optimum %.10g", c->p.label, sum, ref);
	if (!rc)
		*q = sum / ref;
out:
	sb_jobset_release(&js);
	return rc;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	struct sb_jobset js;
	struct sb_err err;
	double opt;
	int j, st;

	decode(c, gene, &js);
	fprintf(out, "instance: cluster %d x %d GPUs (testbed links)\ninstance: "
		"arrival,model,d,t,p,iters\n", c->cl.nserver, c->cl.gpus);
	for (j = 0; j < js.n; j++) {
		const struct sb_job *jb = &js.job[j];
		fprintf(out, "instance: %g,%s,%d,%d,%d,%ld\n", jb->arrival,
			js.model[jb->model].name, jb->d, jb->t, jb->p, jb->iters);
	}
	if (sb_cluster_opt_exact(&c->cl, &js, NODE_LIMIT, &opt, &st, NULL, NULL, &err))
		fprintf(out, "opt: error: %s\n", err.msg);
	else
		fprintf(out, "opt: %.10g (%s)\n", opt, st == SB_LP_OPTIMAL ? "proven" :
			"not proven");
	sb_jobset_release(&js);
}

/* Every scheduler of the flat model, with its default placer (speed
 * variants aside: they repeat their reference). */
static const char *policy(int i)
{
	int n, k, j = 0;
	const struct sb_cluster_policy *const *p = sb_cluster_policies(&n);

	for (k = 0; k < n; k++)
		if (p[k]->schedule && !p[k]->topo && !p[k]->speed_variant_of && j++ == i)
			return p[k]->name;
	return NULL;
}

const struct sb_adversary sb_cluster_adversary = {
	.desc = "a few jobs (kind, arrival, length) on a tiny cluster; reference: the exact "
		"non-preemptive optimum OPT_np by enumeration, sum C / OPT_np",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	.policy = policy,
	.bench_set = "jobs=2",
};
