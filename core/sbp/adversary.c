/*
 * adversary.c - the sbp family's hook for `sb adversary sbp` (see
 * core/adversary.h) [O, issue #14 item 7; our benchmark design, not
 * OneFlow's]: small layer graphs in the shape of sb_sbp_build_net, coded
 * as genes: the placement (2 or 4 devices, or a 2 x 2 hierarchy), the
 * tokens T and the input width h (64, 256, 1024 or 4096), whether the
 * graph carries its backward ops (loss, wgrad and dgrad matmuls,
 * activation gradients, one optimizer update per weight tied to it by a
 * loop edge), and per layer its kind (linear, GeLU, softmax, layer norm)
 * and a linear layer's output width. Forward-only chains are trees, on
 * which the elimination and tree DP planners are exact (and greedy and
 * data-parallel reached ratio 1 in 300 proposals; only the fixed Megatron
 * and ZeRO strategies lost there); the backward ops close cycles (a weight
 * feeds its forward matmul, its dgrad and, through the loop edge, its
 * update), which is where the searching planners lose too. Parameter `backward` picks forward-only
 * graphs, graphs with backward ops, or both (a gene; for a planner of
 * trees only, the forward-only half).
 *
 * The reference is the assignment ILP (core/sbp/ilp.c), exact when GLPK
 * proves it: a deterministic node limit; an instance whose optimum is not
 * proven within it is declined (ratio 0, never the worst, counted), and a
 * solve stopped by its time-limit safety net fails the run. The ratio is
 * the plan's objective (node and boxing costs) over the optimum's; every
 * plan, the optimum's included, goes through sb_sbp_check, and a plan
 * below the optimum is an error (a bug in the planner, ILP or checker).
 */
#include "sbp.h"
#include "lp.h"
#include "adversary.h"
#include "workloads/sbp/models.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXL 6
#define NODE_LIMIT 20000L
#define TIME_LIMIT 600.0   /* seconds: the safety net only */

static const struct sb_param params[] = {
	{ "layers", 3, 1, MAXL, 1, "layers of the graph" },
	{ "backward", 2, 0, 2, 1, "0: forward-only graphs, 1: with backward ops, 2: both" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const char *const places[] = { "2", "4", "2x2" };
#define NPLACE ((int)(sizeof places / sizeof places[0]))
static const int64_t sizes[] = { 64, 256, 1024, 4096 };
#define NSIZE ((int)(sizeof sizes / sizeof sizes[0]))
/* genes: placement, T, h, backward, then (kind, width) per layer */
#define G_LAYER 4

struct ctx {
	const struct sb_sbp_planner *p, *q;   /* q: versus, NULL for the ILP */
	struct sb_opts po, qo;
	int L, bw;   /* bw: the "backward" parameter */
};

static int find(const char *name, const struct sb_sbp_planner **p, struct sb_err *err)
{
	if (!(*p = sb_sbp_planner_find(name)))
		return sb_err_set(err, SB_EXIT_INPUT, "sbp: unknown planner '%s' (sb list sbp)",
				  name);
	return 0;
}

static int open_(const char *policy, const char *versus, const struct sb_opts *o, void **out,
		 struct sb_adversary_space *sp, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	int rc, l;

	memset(c, 0, sizeof *c);
	if ((rc = find(policy, &c->p, err)) || (versus && (rc = find(versus, &c->q, err)))) {
		sb_free(c);
		return rc;
	}
	sb_opts_defaults(&c->po, c->p->params);
	if (c->q)
		sb_opts_defaults(&c->qo, c->q->params);
	c->L = (int)sb_opts_get(o, "layers");
	sp->ngenes = G_LAYER + 2 * c->L;
	sp->hi[0] = NPLACE;
	sp->hi[1] = sp->hi[2] = NSIZE;
	/* backward ops close cycles: not for a planner of trees */
	c->bw = (int)sb_opts_get(o, "backward");
	if (c->p->trees_only || (c->q && c->q->trees_only)) {
		if (c->bw == 1) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "sbp: '%s' plans trees only, and "
					"backward=1 asks for graphs with cycles",
					c->p->trees_only ? policy : versus);
			sb_free(c);
			return rc;
		}
		c->bw = 0;   /* both: the forward-only half */
	}
	sp->hi[3] = c->bw == 2 ? 2 : 1;
	for (l = 0; l < c->L; l++) {
		sp->hi[G_LAYER + 2 * l] = 4;       /* linear, gelu, softmax, layer_norm */
		sp->hi[G_LAYER + 2 * l + 1] = NSIZE;   /* a linear layer's output width */
	}
	*out = c;
	return 0;
}

/* The finished graph coded by gene (released by the caller in any case). */
static int decode(const struct ctx *c, const int *gene, struct sb_sbp_graph *g,
		  struct sb_err *err)
{
	struct sb_sbp_place pl;
	int kind[MAXL], l, rc;
	int64_t h2[MAXL];

	for (l = 0; l < c->L; l++) {
		kind[l] = gene[G_LAYER + 2 * l];
		h2[l] = sizes[gene[G_LAYER + 2 * l + 1]];
	}
	sb_sbp_graph_init(g, "adversary");
	sb_sbp_build_net(g, c->L, sizes[gene[1]], sizes[gene[2]], kind, h2,
			 c->bw == 2 ? gene[3] : c->bw);
	if ((rc = sb_sbp_place_parse(&pl, places[gene[0]], 0, "placement", err)) ||
	    (rc = sb_sbp_graph_finish(g, &pl, err))) {
		sb_err_prefix(err, "sbp adversary: ");
		return SB_EXIT_RUN;
	}
	return 0;
}

/* The objective of a checked plan of planner p, or of the ILP (p NULL).
 * *proven = 0 when the ILP stopped at its node limit (no plan then). */
static int cost(const struct sb_sbp_graph *g, const struct sb_sbp_planner *p,
		const struct sb_opts *o, double *v, int *proven, struct sb_err *err)
{
	struct sb_sbp_net net = { 5e-6, 25e9 };
	struct sb_sbp_plan plan;
	int rc;

	*proven = 1;
	if (p) {
		rc = sb_sbp_run(g, p, o, &net, &plan, err);
	} else {
		struct sb_sbp_ilp_opts io = { NODE_LIMIT, TIME_LIMIT, 0, NULL };
		struct sb_sbp_ilp_result res;
		int *sig = SB_NEW(int, g->nop + 1);
		rc = sb_sbp_ilp(g, &io, sig, &res, err);
		if (!rc && res.stopped == SB_LP_STOP_TIME)
			rc = sb_err_set(err, SB_EXIT_RUN, "sbp adversary: the ILP stopped at its "
					"time-limit safety net of %g s", TIME_LIMIT);
		if (!rc && res.status != SB_LP_OPTIMAL)
			*proven = 0;
		if (!rc && *proven)
			rc = sb_sbp_plan_from(g, sig, "ilp", &net, &plan, err);
		sb_free(sig);
		if (!rc && !*proven)
			return 0;
	}
	if (rc)
		return rc;
	*v = plan.cost;
	sb_sbp_plan_release(&plan);
	return 0;
}

static int ratio(void *ctx, const int *gene, double *q, struct sb_err *err)
{
	struct ctx *c = ctx;
	struct sb_sbp_graph g;
	double v = 0, ref = 0;
	int rc, proven;

	if ((rc = decode(c, gene, &g, err)))
		goto out;
	if ((rc = cost(&g, c->p, &c->po, &v, &proven, err)) ||
	    (rc = cost(&g, c->q, &c->qo, &ref, &proven, err)))
		goto out;
	if (!proven) {
		rc = SB_ADV_DECLINED;
		goto out;
	}
	if (!c->q && v < ref * (1 - 1e-9))
		rc = sb_err_set(err, SB_EXIT_RUN, "sbp adversary: %s's cost %.10g is below the ILP "
				"optimum %.10g", c->p->name, v, ref);
	else
		*q = ref > 0 ? v / ref : (v > 0 ? INFINITY : 1);
out:
	sb_sbp_graph_release(&g);
	return rc;
}

static void print(void *ctx, const int *gene, FILE *out)
{
	struct ctx *c = ctx;
	struct sb_sbp_graph g;
	struct sb_err err;
	double opt;
	int o, k, proven;

	if (decode(c, gene, &g, &err)) {
		fprintf(out, "instance: error: %s\n", err.msg);
		sb_sbp_graph_release(&g);
		return;
	}
	fprintf(out, "instance: placement %s, %s\ninstance: op,kind,inputs,shape\n",
		places[gene[0]], (c->bw == 2 ? gene[3] : c->bw) ? "with backward ops" :
		"forward only");
	for (o = 0; o < g.nop; o++) {
		fprintf(out, "instance: %s,%s,", g.op[o].name, sb_sbp_opkind_name(g.op[o].kind));
		for (k = 0; k < g.op[o].nin; k++)
			fprintf(out, "%s%s", k ? " " : "", g.op[g.op[o].in[k]].name);
		fprintf(out, "%s,%lldx%lld\n", g.op[o].nin ? "" : "-", (long long)g.op[o].dim[0],
			(long long)g.op[o].dim[1]);
	}
	if (cost(&g, NULL, NULL, &opt, &proven, &err))
		fprintf(out, "opt: error: %s\n", err.msg);
	else if (proven)
		fprintf(out, "opt: %.10g (proven)\n", opt);
	else
		fprintf(out, "opt: not proven\n");
	sb_sbp_graph_release(&g);
}

const struct sb_adversary sb_sbp_adversary = {
	.desc = "small layer graphs (placement, sizes, layer kinds, backward ops or not); "
		"reference: the assignment ILP proven optimal, cost / OPT",
	.params = params,
	.open = open_,
	.ratio = ratio,
	.print = print,
	/* every registered planner, the ILP planner included (its own node
	 * limit and start, against the proven optimum) */
	.policy_type = "sbp_planner",
	/* no bench space: 20,000 proposals per policy (each a checked run
	 * and an exact optimum) would dominate `make bench`; the Criterion
	 * test compares the search with exhaustive enumeration instead */
	.bench_set = NULL,
};
