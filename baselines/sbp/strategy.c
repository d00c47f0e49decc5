/*
 * strategy.c - the pins of the fixed strategies (see strategy.h).
 */
#include "strategy.h"

#include <string.h>

/* the SBP a strategy letter pins for op o on one axis; kind -1: free */
static struct sb_sbp pin(const struct sb_sbp_graph *g, int o, char c)
{
	struct sb_sbp x = { -1, 0 }, s0 = { SB_SBP_S, 0 }, s1 = { SB_SBP_S, 1 }, b = { SB_SBP_B, 0 };
	const struct sb_sbp_op *op = &g->op[o];
	if (op->kind == SB_OP_UPDATE)
		return pin(g, op->in[0], c);
	if (op->kind == SB_OP_INPUT)
		return c == 't' ? b : s0;
	/* Megatron keeps the residual stream and its norms replicated */
	if (c == 't' && (op->kind == SB_OP_LAYER_NORM || op->kind == SB_OP_ADD ||
			 op->kind == SB_OP_LN_GRAD || op->kind == SB_OP_LOSS))
		return b;
	if (op->kind != SB_OP_VARIABLE)
		return x;
	if (c == 'd')
		return b;
	if (c == 'z')
		return s0;
	return op->role == SB_ROLE_COL ? s1 : op->role == SB_ROLE_ROW ? s0 : b;
}

static int allow(const struct sb_sbp_graph *g, int o, int s, const void *ctx)
{
	const char *axes = ctx;
	const struct sb_sbp_op *op = &g->op[o];
	int d, j, reads_weight = op->kind == SB_OP_MATMUL && g->op[op->in[1]].kind == SB_OP_VARIABLE;
	int grad_of = -1;   /* a wgrad matmul: the weight whose update it feeds */
	for (j = g->adj_off[o]; op->kind == SB_OP_MATMUL && j < g->adj_off[o + 1]; j++) {
		const struct sb_sbp_edge *e = &g->edge[g->adj[j]];
		if (e->u == o && g->op[e->v].kind == SB_OP_UPDATE)
			grad_of = g->op[e->v].in[0];
	}
	for (d = 0; d < g->pl.ndim; d++) {
		char c = axes[strlen(axes) > 1 ? d : 0];
		struct sb_sbp want = pin(g, o, c);
		const struct sb_sbp *have = &op->sig[s].out.d[d];
		if (reads_weight) {
			/* a matmul reads its weight as the strategy holds it, but
			 * ZeRO gathers it first (B) */
			want = c == 'z' ? pin(g, op->in[1], 'd') : pin(g, op->in[1], c);
			have = &op->sig[s].in[1].d[d];
		} else if (grad_of >= 0 && c == 't') {
			/* Megatron: each device computes its own slice of the
			 * weight gradient, no reduction */
			want = pin(g, grad_of, c);
		}
		if (want.kind >= 0 && (have->kind != want.kind ||
				       (want.kind == SB_SBP_S && have->axis != want.axis)))
			return 0;
	}
	return 1;
}

int sb_sbp_fixed_plan(const struct sb_sbp_graph *g, const char *axes, int *sig,
		      struct sb_err *err)
{
	return sb_sbp_greedy(g, allow, axes, sig, err);
}
