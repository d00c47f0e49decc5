/*
 * adversary.c - the alloc family's hook for `sb adversary alloc` (see
 * core/adversary.h) [O, issue #14 item 7; our benchmark design, not
 * GADGET's]: a few ring-all-reduce jobs on a tiny cluster (identical
 * servers of a few GPUs, 4 CPUs per GPU) over a few slots, four genes per
 * job: its DL2 type, its arrival slot, its length (the slots it needs on
 * min(K, 4) workers spread over servers: 1/2, 1, 2 or 4) and its weight
 * (1 or 2). The jobs otherwise are those of sb_alloc_build (the user's
 * job table path): DL2's types [V], ring bandwidths of the generator.
 * Objective: the total utility under EXC (weight x capped progress
 * fraction), for which GADGET's configuration ILP is the exact optimum of
 * the model (core/alloc/bound.h); ratio = OPT / the policy's utility
 * (INFINITY when the policy gets nothing and OPT does).
 *
 * The reference is that ILP (sb_alloc_gadget_bound, the slot-pattern form
 * when its enumeration fits, else the compact one) under a deterministic
 * node limit; an instance whose optimum GLPK does not prove is declined
 * (ratio 0, never the worst, counted). Every run goes through the
 * simulator and the alloc checker (sb_alloc_run); a run above the optimum
 * is an error (a bug in one of them). Policies for parameter-server jobs
 * only (SMD, PS-locality, OASIS, Myopic-OPT) have no exact optimum here:
 * the PS-locality ILP is a relaxation (full PS provisioning), not the
 * simulator's optimum, so the hook refuses them.
 */
#include "alloc.h"
#include "bound.h"
#include "adversary.h"
#include "workloads/alloc/alloc_wl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXJOBS 5
#define NODE_LIMIT 5000L   /* per instance */
#define GENES 4            /* type, arrival, length, weight */

static const struct sb_param params[] = {
	{ "jobs", 3, 1, MAXJOBS, 1, "jobs" },
	{ "servers", 2, 1, 3, 1, "servers" },
	{ "gpus", 2, 1, 4, 1, "GPUs per server" },
	{ "slots", 4, 1, 8, 1, "slots in the horizon" },
	{ "arr", 2, 1, 8, 1, "arrival slots (0, 1, ...), at most the horizon" },
	{ "kmax", 4, 1, 16, 1, "worker cap of every job" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double lengths[] = { 0.5, 1, 2, 4 };
#define NLEN ((int)(sizeof lengths / sizeof lengths[0]))

struct ctx {
	const struct sb_alloc_policy *p, *q;   /* q: versus, NULL for the ILP */
	struct sb_opts po, qo;
	struct sb_alloc_types ty;
	struct sb_alloc_genp gp;
	int n, narr;
};

static int find(const char *name, const struct sb_alloc_policy **p, struct sb_err *err)
{
	if (!(*p = sb_alloc_policy_find(name)))
		return sb_err_set(err, SB_EXIT_INPUT, "alloc: unknown policy '%s' (sb list alloc)",
				  name);
	if ((*p)->modes && !((*p)->modes & (1u << SB_ALLOC_RAR)))
		return sb_err_set(err, SB_EXIT_INPUT, "alloc: '%s' schedules parameter-server jobs "
				  "only, and the adversary's exact optimum is for ring-all-reduce "
				  "jobs", name);
	return 0;
}

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	int rc, i;

	memset(c, 0, sizeof *c);
	if ((rc = find(policy, &c->p, err)) || (versus && (rc = find(versus, &c->q, err))))
		goto fail;
	sb_opts_defaults(&c->po, c->p->params);
	if (c->q)
		sb_opts_defaults(&c->qo, c->q->params);
	sb_alloc_types_builtin(&c->ty);
	sb_alloc_genp_defaults(&c->gp, SB_ALLOC_RAR);
	c->n = (int)sb_opts_get(o, "jobs");
	c->narr = (int)sb_opts_get(o, "arr");
	c->gp.nserver = (int)sb_opts_get(o, "servers");
	c->gp.gpus = (int)sb_opts_get(o, "gpus");
	c->gp.cpus = 4 * c->gp.gpus;
	c->gp.nslot = (int)sb_opts_get(o, "slots");
	c->gp.kmax = (int)sb_opts_get(o, "kmax");
	c->gp.util = SB_ALLOC_EXC;
	if (c->narr > c->gp.nslot) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "alloc: arr=%d: at most slots=%d", c->narr,
				c->gp.nslot);
		goto fail;
	}
	sp->ngenes = GENES * c->n;
	for (i = 0; i < c->n; i++) {
		sp->hi[GENES * i] = c->ty.n;
		sp->hi[GENES * i + 1] = c->narr;
		sp->hi[GENES * i + 2] = NLEN;
		sp->hi[GENES * i + 3] = 2;
	}
	*out = c;
	return 0;
fail:
	sb_free(c);
	return rc;
}

/* The instance coded by gene: jobs sorted by arrival (ties in gene order,
 * the order sb_alloc_build keeps), each job's target set from its length
 * gene on its own step time. */
void sb_alloc_adversary_decode(void *ctx, const int *gene, struct sb_alloc_inst *in)
{
	const struct ctx *c = ctx;
	struct sb_alloc_jobrow rows[MAXJOBS];
	double (*cap)[SB_ALLOC_NRES] = sb_xcalloc((size_t)c->gp.nserver, sizeof *cap);
	struct sb_rng r = sb_rng_stream(0, 0, 0, SB_RNG_INSTANCE);   /* unused for RAR jobs */
	int i, j, order[MAXJOBS], w = c->gp.kmax < 4 ? c->gp.kmax : 4;

	for (i = 0; i < c->n; i++) {
		for (j = i; j > 0 && gene[GENES * order[j - 1] + 1] > gene[GENES * i + 1]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	for (i = 0; i < c->n; i++) {
		const int *g = gene + GENES * order[i];
		memset(&rows[i], 0, sizeof rows[i]);
		rows[i].arrival = g[1];
		rows[i].mode = SB_ALLOC_RAR;
		rows[i].type = g[0];
		rows[i].max_workers = c->gp.kmax;
		rows[i].epochs = 1;
		rows[i].weight = g[3] + 1;
	}
	for (i = 0; i < c->gp.nserver; i++) {
		cap[i][0] = c->gp.gpus;
		cap[i][1] = c->gp.cpus;
	}
	sb_alloc_build(in, &c->gp, &c->ty, rows, c->n, cap, c->gp.nserver, NULL, &r);
	in->nslot = c->gp.nslot;
	in->slot_s = c->gp.slot_s;
	in->util = c->gp.util;
	in->eta = c->gp.eta;
	in->eps = c->gp.eps;
	for (i = 0; i < c->n; i++) {
		struct sb_alloc_job *jb = &in->job[i];
		jb->target = in->slot_s * w / sb_alloc_tau(jb, w, 0, 0, -1) *
			     lengths[gene[GENES * order[i] + 2]];
	}
	snprintf(in->source, sizeof in->source, "synthetic: sb adversary alloc");
	sb_free(cap);
}

/* Utility of one checked run of p. */
static int run(const struct sb_alloc_inst *in, const struct sb_alloc_policy *p,
	       const struct sb_opts *o, double *u, struct sb_err *err)
{
	struct sb_alloc_result r;
	struct sb_rng rng = sb_rng_stream(0, 0, 0, SB_RNG_POLICY);
	int rc = sb_alloc_run(in, p, o, &rng, &r, err);

	if (rc)
		return rc;
	*u = r.utility;
	sb_alloc_result_release(&r);
	return 0;
}

/* The proven optimum; *proven = 0 when GLPK stopped at its node limit. */
static int optimum(const struct sb_alloc_inst *in, double *opt, int *proven, struct sb_err *err)
{
	struct sb_alloc_bound b;
	int rc = sb_alloc_gadget_bound(in, 0, NODE_LIMIT, SB_ALLOC_FORM_AUTO, NULL, &b, err);

	if (rc)
		return rc;
	*proven = b.optimal;
	*opt = b.bound;
	return 0;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	struct sb_alloc_inst in;
	double u, ref;
	int rc, proven = 1;

	sb_alloc_adversary_decode(c, gene, &in);
	if ((rc = run(&in, c->p, &c->po, &u, err)))
		goto out;
	if (c->q)
		rc = run(&in, c->q, &c->qo, &ref, err);
	else
		rc = optimum(&in, &ref, &proven, err);
	if (rc)
		goto out;
	if (!proven) {
		rc = SB_ADV_DECLINED;
		goto out;
	}
	if (!c->q && u > ref + 1e-9 * (1 + fabs(ref))) {
		rc = sb_err_set(err, SB_EXIT_RUN, "alloc adversary: %s's utility %.10g is above "
				"the exact optimum %.10g", c->p->name, u, ref);
		goto out;
	}
	if (u >= ref)
		*q = 1;
	else if (u <= 0)
		*q = INFINITY;
	else
		*q = ref / u;
out:
	sb_alloc_inst_release(&in);
	return rc;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	struct sb_alloc_inst in;
	struct sb_err err;
	double opt;
	int j, proven;

	sb_alloc_adversary_decode(c, gene, &in);
	fprintf(out, "instance: %d servers x %d GPUs, %d slots of %g s, objective %s\n"
		"instance: arrival,model,target,max_workers,weight\n", in.nserver, c->gp.gpus,
		in.nslot, in.slot_s, sb_alloc_util_name(in.util));
	for (j = 0; j < in.njob; j++)
		fprintf(out, "instance: %d,%s,%.10g,%d,%g\n", in.job[j].arrival, in.job[j].model,
			in.job[j].target, in.job[j].max_workers, in.job[j].weight);
	if (optimum(&in, &opt, &proven, &err))
		fprintf(out, "opt: error: %s\n", err.msg);
	else
		fprintf(out, "opt: %.10g (%s)\n", opt, proven ? "proven" : "not proven");
	sb_alloc_inst_release(&in);
}

/* Every policy that schedules ring-all-reduce jobs. */
static const char *policy(int i)
{
	int n, k, j = 0;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&n);

	for (k = 0; k < n; k++)
		if ((!p[k]->modes || (p[k]->modes & (1u << SB_ALLOC_RAR))) && j++ == i)
			return p[k]->name;
	return NULL;
}

const struct sb_adversary sb_alloc_adversary = {
	.desc = "a few ring-all-reduce jobs (type, arrival, length, weight) on a tiny cluster "
		"over a few slots; reference: GADGET's configuration ILP proven optimal, OPT / "
		"utility",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	.policy = policy,
	/* no bench space: 20,000 proposals per policy (each a checked run
	 * and an exact optimum) would dominate `make bench`; the Criterion
	 * test compares the search with exhaustive enumeration instead */
	.bench_set = NULL,
};
