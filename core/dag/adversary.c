/*
 * adversary.c - the dag family's hook for `sb adversary dag` (see
 * core/adversary.h) [O]: tiny instances in the shape of sb_gen_small (n
 * ops, CPU devices, one transfer rate, Sends of 1 op occupying their
 * device), coded as genes: each op's work (5, 10, 15, 20) and output size
 * (1, 4, 7, 10), an edge or not for every pair i < j, each device's speed
 * (1, 2, 3) and the rate (1..5). The reference is the exact optimum by
 * enumeration (sb_dag_bruteforce_exact, the model the simulator runs), or
 * a second combination; the ratio is makespan / reference. Every run goes
 * through sb_dag_run_combo, whose checker validates the schedule.
 */
#include "dag.h"
#include "bound.h"
#include "adversary.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXN 7   /* the limit of sb_dag_bruteforce_exact */

static const struct sb_param params[] = {
	{ "n", 5, 2, MAXN, 1, "ops" },
	{ "devices", 2, 1, 3, 1, "devices" },
	{ "levels", 4, 1, 4, 1, "levels of op work and output size" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx {
	int n, nd;
	struct sb_dag_combo p, q;
	int versus;
	struct sb_opts po, ps, qo, qs;
};

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	int rc, k = 0, i;

	memset(c, 0, sizeof *c);
	if ((rc = sb_dag_combo_parse(&c->p, policy, err)) ||
	    (versus && (rc = sb_dag_combo_parse(&c->q, versus, err)))) {
		sb_free(c);
		return rc;
	}
	c->versus = versus != NULL;
	sb_opts_defaults(&c->po, c->p.part->params);
	sb_opts_defaults(&c->ps, c->p.sched->params);
	if (c->versus) {
		sb_opts_defaults(&c->qo, c->q.part->params);
		sb_opts_defaults(&c->qs, c->q.sched->params);
	}
	c->n = (int)sb_opts_get(o, "n");
	c->nd = (int)sb_opts_get(o, "devices");
	for (i = 0; i < c->n; i++) {
		sp->hi[k++] = (int)sb_opts_get(o, "levels");   /* work */
		sp->hi[k++] = (int)sb_opts_get(o, "levels");   /* output size */
	}
	for (i = 0; i < c->n * (c->n - 1) / 2; i++)
		sp->hi[k++] = 2;   /* edge i -> j */
	for (i = 0; i < c->nd; i++)
		sp->hi[k++] = 3;   /* speed */
	sp->hi[k++] = 5;           /* rate */
	sp->ngenes = k;
	*out = c;
	return 0;
}

static void decode(const struct ctx *c, const int *gene, struct sb_dag_inst *in)
{
	int eu[MAXN * MAXN], ev[MAXN * MAXN], ne = 0, i, j, k = 0;
	double total = 0;
	struct sb_err err;

	memset(in, 0, sizeof *in);
	sb_dag_alloc(&in->g, c->n);
	for (i = 0; i < c->n; i++) {
		in->g.ops[i] = 5.0 * (gene[k++] + 1);
		in->g.out[i] = 1.0 + 3.0 * gene[k++];
	}
	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n; j++)
			if (gene[k++]) {
				eu[ne] = i;
				ev[ne++] = j;
			}
	if (sb_dag_finish(&in->g, ne, eu, ev, NULL, 0, NULL, NULL, &err))
		SB_BUG("adversary built a bad graph: %s", err.msg);
	for (i = 0; i < c->n; i++)
		total += sb_dag_mem(in, i);
	sb_devices_alloc(&in->dev, c->nd);
	for (i = 0; i < c->nd; i++) {
		in->dev.speed[i] = 1 + gene[k + i];
		in->dev.mem[i] = total;   /* memory never binds */
		in->dev.type[i] = SB_DEV_CPU;
	}
	for (i = 0; i < c->nd; i++)
		for (j = 0; j < c->nd; j++)
			in->dev.rate[(size_t)i * c->nd + j] = i == j ? 0 : 1 + gene[k + c->nd];
	in->send_ops = 1;
	in->name = sb_xstrdup("adversary");
	in->source = sb_xstrdup("sb adversary dag");
}

static int makespan(const struct sb_dag_inst *in, const struct sb_dag_combo *cb,
		    const struct sb_opts *po, const struct sb_opts *so, double *ms,
		    struct sb_err *err)
{
	struct sb_rng rng = sb_rng_stream(0, 0, 0, SB_RNG_POLICY ^ sb_hash_str(cb->label));
	struct sb_dag_metrics m;
	int rc = sb_dag_run_combo(in, cb, po, so, &rng, &m, NULL, err);

	if (!rc)
		*ms = m.makespan;
	return rc;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	struct sb_dag_inst in;
	double ms, ref;
	int rc;

	decode(c, gene, &in);
	if (!(rc = makespan(&in, &c->p, &c->po, &c->ps, &ms, err))) {
		if (c->versus)
			rc = makespan(&in, &c->q, &c->qo, &c->qs, &ref, err);
		else
			ref = sb_dag_bruteforce_exact(&in);
	}
	if (!rc && !c->versus && ms < ref * (1 - 1e-9))
		rc = sb_err_set(err, SB_EXIT_RUN, "dag adversary: %s's makespan %.10g is below "
				"the exact optimum %.10g", c->p.label, ms, ref);
	if (!rc)
		*q = ms / ref;
	sb_dag_inst_release(&in);
	return rc;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	struct sb_dag_inst in;
	int v, k;

	decode(c, gene, &in);
	fprintf(out, "instance: ops");
	for (v = 0; v < in.g.n; v++)
		fprintf(out, " %g/%g", in.g.ops[v], in.g.out[v]);
	fprintf(out, " (work/output)\ninstance: edges");
	for (v = 0; v < in.g.n; v++)
		for (k = in.g.succ_off[v]; k < in.g.succ_off[v + 1]; k++)
			fprintf(out, " %d->%d", v, in.g.succ[k]);
	fprintf(out, "\ninstance: speeds");
	for (v = 0; v < in.dev.n; v++)
		fprintf(out, " %g", in.dev.speed[v]);
	fprintf(out, "\ninstance: rate %g\n", in.dev.n > 1 ? in.dev.rate[1] : 0);
	fprintf(out, "opt: %.10g\n", sb_dag_bruteforce_exact(&in));
	sb_dag_inst_release(&in);
}

/* Every partitioner with its own scheduler, or with PCT (the paper's);
 * then every other scheduler under CP, except heft-order, which reads a planned
 * schedule and so runs under HEFT. */
static const char *policy(int i)
{
	static char buf[2][96];
	int n, k, j = 0;
	const struct sb_dag_policy *const *p = sb_dag_policies(&n);

	for (k = 0; k < n; k++)
		if (p[k]->partition && j++ == i) {
			snprintf(buf[0], sizeof buf[0], "%s%s", p[k]->name,
				 p[k]->default_sched ? "" : "+pct");
			return buf[0];
		}
	for (k = 0; k < n; k++)
		if ((p[k]->priority || p[k]->pick) && strcmp(p[k]->name, "pct") && j++ == i) {
			snprintf(buf[1], sizeof buf[1], "%s+%s",
				 strcmp(p[k]->name, "heft-order") ? "cp" : "heft", p[k]->name);
			return buf[1];
		}
	return NULL;
}

const struct sb_adversary sb_dag_adversary = {
	.desc = "tiny graphs (op work and output, edges, device speeds, rate); reference: the "
		"exact optimum by enumeration, makespan/OPT",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	.policy = policy,
	.bench_set = "n=4 devices=2 levels=2",
};
