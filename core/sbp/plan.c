/*
 * plan.c - plans of the sbp family: the boxing ops a signature choice
 * implies and its metrics, the independent legality checker, the run
 * wrapper every planner goes through, and the greedy completion shared by
 * OneFlow-style inference and the fixed strategies (ours, [O], following
 * the inference rule "min cost" of SbpInferRuleTag [V, code]).
 */
#include "sbp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_sbp_plan_release(struct sb_sbp_plan *p)
{
	sb_free(p->sig);
	sb_free(p->box);
	memset(p, 0, sizeof *p);
}

/* How the plan treats one weight: as stored (the variable's SBP) and as
 * its first forward matmul reads it. */
static const char *weight_class(const struct sb_sbp_graph *g, const int *sig, int var)
{
	int e, nd = g->pl.ndim, d, split = 0, partial = 0;
	const struct sb_sbp_nd *stored = &g->op[var].sig[sig[var]].out, *read = NULL;
	int first = g->nop;

	for (e = 0; e < g->nedge; e++)
		if (g->edge[e].u == var && g->op[g->edge[e].v].kind == SB_OP_MATMUL &&
		    g->edge[e].v < first) {
			first = g->edge[e].v;
			read = &g->op[first].sig[sig[first]].in[g->edge[e].slot];
		}
	if (!read)
		return NULL;
	for (d = 0; d < nd; d++) {
		split |= read->d[d].kind == SB_SBP_S;
		partial |= read->d[d].kind == SB_SBP_P;
	}
	if (partial)
		return "mixed";
	if (split)
		return "tensor-parallel";
	for (d = 0; d < nd; d++)
		if (stored->d[d].kind != SB_SBP_B)
			return "zero";
	/* B weights: data parallel if the activations are split, else the
	 * whole computation is replicated */
	{
		const struct sb_sbp_nd *x = &g->op[first].sig[sig[first]].out;
		for (d = 0; d < nd; d++)
			if (x->d[d].kind == SB_SBP_S)
				return "data-parallel";
	}
	return "replicated";
}

void sb_sbp_plan_finish(const struct sb_sbp_graph *g, struct sb_sbp_plan *p,
			const struct sb_sbp_net *net)
{
	int e, o, nb = 0;
	const char *cls = NULL;

	sb_free(p->box);
	p->box = SB_NEW(struct sb_sbp_boxing, g->nedge ? g->nedge : 1);
	p->nop = g->nop;
	p->bytes = p->comm_s = p->flops = p->mem = p->cost = 0;
	for (e = 0; e < g->nedge; e++) {
		const struct sb_sbp_edge *ed = &g->edge[e];
		const struct sb_sbp_nd *from = &g->op[ed->u].sig[p->sig[ed->u]].out;
		const struct sb_sbp_nd *to = &g->op[ed->v].sig[p->sig[ed->v]].in[ed->slot];
		if (sb_sbp_nd_eq(from, to, g->pl.ndim))
			continue;
		p->box[nb].edge = e;
		p->box[nb].from = *from;
		p->box[nb].to = *to;
		p->box[nb].bytes = sb_sbp_box(from, to, ed->bytes, &g->pl, g->penalty);
		p->box[nb].seconds = sb_sbp_box_time(from, to, ed->bytes, &g->pl, net);
		p->bytes += p->box[nb].bytes;
		p->comm_s += p->box[nb].seconds;
		nb++;
	}
	p->nbox = nb;
	for (o = 0; o < g->nop; o++) {
		p->flops += g->op[o].sig[p->sig[o]].flops;
		p->mem += g->op[o].sig[p->sig[o]].mem;
	}
	p->cost = sb_sbp_assign_cost(g, p->sig);
	snprintf(p->strategy, sizeof p->strategy, "none");
	{
		double tp = 0, all = 0;
		for (o = 0; o < g->nop; o++) {
			const char *c;
			if (g->op[o].kind != SB_OP_VARIABLE || !(c = weight_class(g, p->sig, o)))
				continue;
			all += sb_sbp_out_bytes(g, o);
			if (!strcmp(c, "tensor-parallel"))
				tp += sb_sbp_out_bytes(g, o);
		}
		p->tp_frac = all > 0 ? tp / all : 0;
	}
	for (o = 0; o < g->nop; o++) {
		const char *c;
		if (g->op[o].kind != SB_OP_VARIABLE || !(c = weight_class(g, p->sig, o)))
			continue;
		if (cls && strcmp(cls, c))
			cls = "mixed";
		else if (!cls)
			cls = c;
	}
	if (cls)
		snprintf(p->strategy, sizeof p->strategy, "%s", cls);
}

/* ------------------------------------------------------------------ */
/* The checker                                                         */
/* ------------------------------------------------------------------ */

static int sig_listed(const struct sb_sbp_graph *g, int o, const struct sb_sbp_sig *s,
		      const struct sb_sbp_sig *list, int n)
{
	int i, k, nd = g->pl.ndim;
	for (i = 0; i < n; i++) {
		int same = sb_sbp_nd_eq(&list[i].out, &s->out, nd);
		for (k = 0; k < g->op[o].nin && same; k++)
			same = sb_sbp_nd_eq(&list[i].in[k], &s->in[k], nd);
		if (same)
			return 1;
	}
	return 0;
}

int sb_sbp_check(const struct sb_sbp_graph *g, const struct sb_sbp_plan *p, char *why,
		 size_t len)
{
	struct sb_sbp_sig *list = SB_NEW(struct sb_sbp_sig, SB_SBP_MAXSIG);
	int *boxes = SB_NEW(int, g->nedge ? g->nedge : 1);
	int o, e, b, bad = -1, nd = g->pl.ndim;
	double bytes = 0, cost = 0;
	char a[48], c[48];

	if (p->nop != g->nop) {
		snprintf(why, len, "plan has %d ops, graph %d", p->nop, g->nop);
		goto out;
	}
	for (o = 0; o < g->nop; o++) {
		int n = sb_sbp_sigs_nd(g, o, list, SB_SBP_MAXSIG, NULL);
		if (p->sig[o] < 0 || p->sig[o] >= g->op[o].nsig) {
			snprintf(why, len, "op %s: signature %d out of range", g->op[o].name, p->sig[o]);
			goto out;
		}
		if (!sig_listed(g, o, &g->op[o].sig[p->sig[o]], list, n)) {
			snprintf(why, len, "op %s: its SBPs (output %s) are not a signature of %s on "
				 "this placement", g->op[o].name,
				 sb_sbp_nd_str(&g->op[o].sig[p->sig[o]].out, nd, a, sizeof a),
				 sb_sbp_opkind_name(g->op[o].kind));
			goto out;
		}
		cost += g->cost_ratio * g->op[o].sig[p->sig[o]].flops;
	}
	for (b = 0; b < p->nbox; b++) {
		e = p->box[b].edge;
		if (e < 0 || e >= g->nedge || boxes[e]++) {
			snprintf(why, len, "boxing op %d: edge %d out of range or boxed twice", b, e);
			goto out;
		}
	}
	for (e = 0; e < g->nedge; e++) {
		const struct sb_sbp_edge *ed = &g->edge[e];
		const struct sb_sbp_nd *from = &g->op[ed->u].sig[p->sig[ed->u]].out;
		const struct sb_sbp_nd *to = &g->op[ed->v].sig[p->sig[ed->v]].in[ed->slot];
		int mismatch = !sb_sbp_nd_eq(from, to, nd);
		if (mismatch != boxes[e]) {
			snprintf(why, len, "edge %s -> %s: %s %s -> %s", g->op[ed->u].name,
				 g->op[ed->v].name, mismatch ? "no boxing op for" : "a boxing op without a "
				 "mismatch,", sb_sbp_nd_str(from, nd, a, sizeof a),
				 sb_sbp_nd_str(to, nd, c, sizeof c));
			goto out;
		}
	}
	for (b = 0; b < p->nbox; b++) {
		const struct sb_sbp_boxing *bx = &p->box[b];
		const struct sb_sbp_edge *ed = &g->edge[bx->edge];
		const struct sb_sbp_nd *from = &g->op[ed->u].sig[p->sig[ed->u]].out;
		const struct sb_sbp_nd *to = &g->op[ed->v].sig[p->sig[ed->v]].in[ed->slot];
		double want = sb_sbp_box(from, to, ed->bytes, &g->pl, g->penalty);
		if (!sb_sbp_nd_eq(&bx->from, from, nd) || !sb_sbp_nd_eq(&bx->to, to, nd)) {
			snprintf(why, len, "boxing on %s -> %s converts the wrong pair",
				 g->op[ed->u].name, g->op[ed->v].name);
			goto out;
		}
		if (want >= SB_SBP_INF) {
			snprintf(why, len, "boxing on %s -> %s: %s -> %s is not supported",
				 g->op[ed->u].name, g->op[ed->v].name, sb_sbp_nd_str(from, nd, a, sizeof a),
				 sb_sbp_nd_str(to, nd, c, sizeof c));
			goto out;
		}
		if (fabs(bx->bytes - want) > 1e-9 * (1 + want)) {
			snprintf(why, len, "boxing on %s -> %s costs %.17g, not %.17g",
				 g->op[ed->u].name, g->op[ed->v].name, bx->bytes, want);
			goto out;
		}
		bytes += want;
	}
	cost += bytes;
	if (fabs(bytes - p->bytes) > 1e-9 * (1 + bytes) || fabs(cost - p->cost) > 1e-9 * (1 + cost)) {
		snprintf(why, len, "plan reports %.17g bytes and cost %.17g; recomputed %.17g and %.17g",
			 p->bytes, p->cost, bytes, cost);
		goto out;
	}
	bad = 0;
out:
	sb_free(list);
	sb_free(boxes);
	return bad;
}

int sb_sbp_plan_from(const struct sb_sbp_graph *g, const int *sig, const char *who,
		     const struct sb_sbp_net *net, struct sb_sbp_plan *plan, struct sb_err *err)
{
	char why[512];
	int k;

	memset(plan, 0, sizeof *plan);
	for (k = 0; k < g->nop; k++)
		if (sig[k] < 0 || sig[k] >= g->op[k].nsig)
			return sb_err_set(err, SB_EXIT_RUN, "%s left op %s without a signature", who,
					  g->op[k].name);
	plan->nop = g->nop;
	plan->sig = SB_NEW(int, g->nop ? g->nop : 1);
	memcpy(plan->sig, sig, sizeof *sig * (size_t)g->nop);
	sb_sbp_plan_finish(g, plan, net);
	if (sb_sbp_check(g, plan, why, sizeof why)) {
		sb_sbp_plan_release(plan);
		return sb_err_set(err, SB_EXIT_RUN, "%s: the checker rejects the plan: %s", who, why);
	}
	return 0;
}

int sb_sbp_run(const struct sb_sbp_graph *g, const struct sb_sbp_planner *pl,
	       const struct sb_opts *o, const struct sb_sbp_net *net, struct sb_sbp_plan *plan,
	       struct sb_err *err)
{
	int rc, k, *sig;
	char who[64];

	memset(plan, 0, sizeof *plan);
	if (pl->trees_only && !sb_sbp_is_tree(g))
		return sb_err_set(err, SB_EXIT_INPUT, "planner %s is exact only on trees and chains; "
				  "graph %s has a cycle", pl->name, g->name);
	sig = SB_NEW(int, g->nop ? g->nop : 1);
	for (k = 0; k < g->nop; k++)
		sig[k] = -1;
	snprintf(who, sizeof who, "planner %s", pl->name);
	rc = pl->plan(g, o, sig, err);
	if (rc && err) {
		/* name the planner once, whichever helper failed */
		char msg[sizeof err->msg];
		snprintf(msg, sizeof msg, "%s", err->msg);
		sb_err_set(err, rc, "%s: %s", who, msg);
	}
	if (!rc)
		rc = sb_sbp_plan_from(g, sig, who, net, plan, err);
	sb_free(sig);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Greedy completion                                                   */
/* ------------------------------------------------------------------ */

static int is_source(const struct sb_sbp_graph *g, int o)
{
	return g->op[o].kind == SB_OP_INPUT || g->op[o].kind == SB_OP_VARIABLE;
}

static int allowed(const struct sb_sbp_graph *g, sb_sbp_allow_fn allow, const void *ctx, int o,
		   int s)
{
	return !allow || allow(g, o, s, ctx);
}

/* Cheapest allowed signature of undecided source u given that its edges
 * into v (taken by v with signature sv) are the only ones decided now. */
static int best_source(const struct sb_sbp_graph *g, sb_sbp_allow_fn allow, const void *ctx,
		       int u, int v, int sv, double *cost)
{
	int t, j, best = -1;
	double bc = INFINITY;
	for (t = 0; t < g->op[u].nsig; t++) {
		double c;
		if (!allowed(g, allow, ctx, u, t))
			continue;
		c = sb_sbp_node_cost(g, u, t);
		for (j = g->adj_off[v]; j < g->adj_off[v + 1]; j++) {
			int e = g->adj[j];
			if (g->edge[e].u == u && g->edge[e].v == v)
				c += sb_sbp_edge_cost(g, e, t, sv);
		}
		if (c < bc)
			bc = c, best = t;
	}
	*cost = bc;
	return best;
}

/* Score of signature s for op v: its node cost plus boxing from decided
 * producers and undecided sources, and to decided consumers. */
static double score(const struct sb_sbp_graph *g, sb_sbp_allow_fn allow, const void *ctx,
		    const int *sig, int v, int s)
{
	double c = sb_sbp_node_cost(g, v, s), sc;
	int j, k;
	for (j = g->adj_off[v]; j < g->adj_off[v + 1]; j++) {
		int e = g->adj[j];
		const struct sb_sbp_edge *ed = &g->edge[e];
		if (ed->v == v && sig[ed->u] >= 0)
			c += sb_sbp_edge_cost(g, e, sig[ed->u], s);
		else if (ed->u == v && sig[ed->v] >= 0)
			c += sb_sbp_edge_cost(g, e, s, sig[ed->v]);
	}
	for (k = 0; k < g->op[v].nin; k++) {
		int u = g->op[v].in[k], i, seen = 0;
		for (i = 0; i < k; i++)
			seen |= g->op[v].in[i] == u;
		if (sig[u] < 0 && !seen && is_source(g, u)) {
			if (best_source(g, allow, ctx, u, v, s, &sc) < 0)
				return INFINITY;
			c += sc;
		}
	}
	return c;
}

int sb_sbp_greedy(const struct sb_sbp_graph *g, sb_sbp_allow_fn allow, const void *ctx,
		  int *sig, struct sb_err *err)
{
	int i, o, s, k;
	double sc;

	for (o = 0; o < g->nop; o++) {
		sig[o] = -1;
		/* an op none of whose signatures the pins allow is outside the
		 * planner's domain (a batch of 1 pinned to S(0) on 2 devices,
		 * found by tests/sbp/fuzz_graph.c): bad input, not a failed run */
		for (s = 0; s < g->op[o].nsig && !allowed(g, allow, ctx, o, s); s++)
			;
		if (s == g->op[o].nsig) {
			const struct sb_sbp_op *op = &g->op[o];
			char shape[96] = "", line[32] = "";
			int n = 0, d;
			for (d = 0; d < op->rank && n < (int)sizeof shape - 24; d++)
				n += snprintf(shape + n, sizeof shape - (size_t)n, "%s%lld",
					      d ? "x" : "", (long long)op->dim[d]);
			if (op->line > 0)
				snprintf(line, sizeof line, "line %d: ", op->line);
			return sb_err_set(err, SB_EXIT_INPUT, "graph %s: %sop %s (%s): field 'shape': "
					  "%s: no signature on %d devices fits the planner's pins (a "
					  "split axis must be a multiple of the devices it is split "
					  "over)", g->name, line, op->name, sb_sbp_opkind_name(op->kind),
					  shape[0] ? shape : "scalar", g->pl.p);
		}
	}
	for (i = 0; i < 2 * g->nop; i++) {
		/* second round: sources no consumer decided */
		int v = g->topo[i % g->nop], best = -1;
		double bc = INFINITY;
		if (sig[v] >= 0 || (i < g->nop && is_source(g, v)))
			continue;
		for (s = 0; s < g->op[v].nsig; s++) {
			double c;
			if (!allowed(g, allow, ctx, v, s))
				continue;
			c = score(g, allow, ctx, sig, v, s);
			if (c < bc)
				bc = c, best = s;
		}
		if (best < 0 || bc >= SB_SBP_INF)
			return sb_err_set(err, SB_EXIT_RUN, "op %s has no allowed signature "
					  "with a supported boxing", g->op[v].name);
		for (k = 0; k < g->op[v].nin; k++) {
			int u = g->op[v].in[k];
			if (sig[u] < 0 && is_source(g, u))
				sig[u] = best_source(g, allow, ctx, u, v, best, &sc);
		}
		sig[v] = best;
	}
	return 0;
}
