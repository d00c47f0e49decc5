/*
 * sbp.c - SBP values, the boxing cost of §4 and its alpha-beta time, the
 * per-op signature tables of §3 and the graph model (see sbp.h for what
 * is verified and what is ours).
 */
#include "sbp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* SBP values and placements                                           */
/* ------------------------------------------------------------------ */

void sb_sbp_place_1d(struct sb_sbp_place *pl, int p)
{
	memset(pl, 0, sizeof *pl);
	pl->ndim = 1;
	pl->h[0] = p;
	pl->h[1] = 1;
	pl->p = p;
}

int sb_sbp_place_parse(struct sb_sbp_place *pl, const char *s, int p, const char *what,
		       struct sb_err *err)
{
	char *end;
	long a, b = 1;
	int nd = 1;

	memset(pl, 0, sizeof *pl);
	a = strtol(s, &end, 10);
	if (end != s && (*end == 'x' || *end == 'X')) {
		const char *t = end + 1;
		b = strtol(t, &end, 10);
		nd = 2;
		if (end == t)
			b = 0;
	}
	if (end == s || *end || a < 1 || a > 4096 || b < 1 || b > 4096)
		return sb_err_set(err, SB_EXIT_INPUT, "%s '%s': expected P or AxB with sizes "
				  "1..4096", what, s);
	if (nd == 2 && (a < 2 || b < 2))
		return sb_err_set(err, SB_EXIT_INPUT, "%s '%s': each axis of a 2-D hierarchy "
				  "needs at least 2 devices", what, s);
	if (p > 0 && a * b != p)
		return sb_err_set(err, SB_EXIT_INPUT, "%s '%s': %ld devices, but p = %d", what, s,
				  a * b, p);
	pl->ndim = nd;
	pl->h[0] = (int)a;
	pl->h[1] = (int)b;
	pl->p = (int)(a * b);
	return 0;
}

const char *sb_sbp_str(struct sb_sbp s, char *buf, size_t len)
{
	if (s.kind == SB_SBP_S)
		snprintf(buf, len, "S(%d)", s.axis);
	else
		snprintf(buf, len, "%s", s.kind == SB_SBP_B ? "B" : "P");
	return buf;
}

const char *sb_sbp_nd_str(const struct sb_sbp_nd *s, int ndim, char *buf, size_t len)
{
	char a[16], b[16];
	if (ndim == 1)
		return sb_sbp_str(s->d[0], buf, len);
	snprintf(buf, len, "(%s,%s)", sb_sbp_str(s->d[0], a, sizeof a),
		 sb_sbp_str(s->d[1], b, sizeof b));
	return buf;
}

static int sbp_eq(struct sb_sbp a, struct sb_sbp b)
{
	return a.kind == b.kind && (a.kind != SB_SBP_S || a.axis == b.axis);
}

int sb_sbp_nd_eq(const struct sb_sbp_nd *a, const struct sb_sbp_nd *b, int ndim)
{
	int d;
	for (d = 0; d < ndim; d++)
		if (!sbp_eq(a->d[d], b->d[d]))
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Boxing cost                                                         */
/* ------------------------------------------------------------------ */

static double penalty_cost(double bytes, int p1, int p2, int policy)
{
	if (policy == 1)
		return 1;
	if (policy == 3)
		return SB_SBP_INF;
	return 4 * bytes * (p1 + p2);
}

double sb_sbp_box_1d(struct sb_sbp from, struct sb_sbp to, double bytes, int p1, int p2,
		     int same, int penalty)
{
	if (!same) {
		double c = bytes;
		if (to.kind == SB_SBP_B)
			c += (p2 - 1) * bytes;
		if (from.kind == SB_SBP_P)
			c += (p1 - 1) * bytes;
		if (to.kind == SB_SBP_P)
			c += penalty_cost(bytes, p1, p2, penalty);
		return c;
	}
	if (sbp_eq(from, to))
		return 0;
	if (to.kind == SB_SBP_P)
		return penalty_cost(bytes, p1, p2, penalty);
	if (from.kind == SB_SBP_B)
		return 1;       /* a local slice; 1 byte only breaks ties */
	if (from.kind == SB_SBP_S)
		return to.kind == SB_SBP_S ? (p1 - 1) * bytes / p1 : (p1 - 1) * bytes;
	/* from P */
	return to.kind == SB_SBP_S ? (p1 - 1) * bytes : 2.0 * (p1 - 1) * bytes;
}

/* One step that changes hierarchy axis `ax` only (the other agrees). */
static double box_step(const struct sb_sbp_nd *from, const struct sb_sbp_nd *to, int ax,
		       double bytes, const struct sb_sbp_place *pl, int penalty)
{
	int other = 1 - ax;
	double t = from->d[other].kind == SB_SBP_S ? bytes : bytes * pl->h[other];
	double c = sb_sbp_box_1d(from->d[ax], to->d[ax], t, pl->h[ax], pl->h[ax], 1, penalty);
	return c >= SB_SBP_INF ? SB_SBP_INF : c;
}

double sb_sbp_box(const struct sb_sbp_nd *from, const struct sb_sbp_nd *to, double bytes,
		  const struct sb_sbp_place *pl, int penalty)
{
	struct sb_sbp_nd k1, k2;
	double c1, c2;

	if (pl->ndim == 1)
		return sb_sbp_box_1d(from->d[0], to->d[0], bytes, pl->p, pl->p, 1, penalty);
	if (sb_sbp_nd_eq(from, to, 2))
		return 0;
	if (sbp_eq(from->d[0], to->d[0]))
		return box_step(from, to, 1, bytes, pl, penalty);
	if (sbp_eq(from->d[1], to->d[1]))
		return box_step(from, to, 0, bytes, pl, penalty);
	/* both axes differ: the cheaper of the two one-intermediate paths */
	k1.d[0] = to->d[0], k1.d[1] = from->d[1];
	k2.d[0] = from->d[0], k2.d[1] = to->d[1];
	c1 = box_step(from, &k1, 0, bytes, pl, penalty) + box_step(&k1, to, 1, bytes, pl, penalty);
	c2 = box_step(from, &k2, 1, bytes, pl, penalty) + box_step(&k2, to, 0, bytes, pl, penalty);
	return sb_min(sb_min(c1, c2), SB_SBP_INF);
}

const char *sb_sbp_collective(struct sb_sbp from, struct sb_sbp to)
{
	if (sbp_eq(from, to))
		return "none";
	if (to.kind == SB_SBP_P)
		return "zero-fill";
	if (from.kind == SB_SBP_B)
		return "slice";
	if (from.kind == SB_SBP_S)
		return to.kind == SB_SBP_S ? "all-to-all" : "all-gather";
	return to.kind == SB_SBP_S ? "reduce-scatter" : "all-reduce";
}

static double time_1d(struct sb_sbp from, struct sb_sbp to, double bytes, int p,
		      const struct sb_sbp_net *net)
{
	double steps = p - 1, chunk = bytes / p;
	if (sbp_eq(from, to) || to.kind == SB_SBP_P || from.kind == SB_SBP_B)
		return 0;
	if (from.kind == SB_SBP_S && to.kind == SB_SBP_S)
		return steps * (net->alpha + chunk / p / net->beta);
	if (from.kind == SB_SBP_P && to.kind == SB_SBP_B)
		steps *= 2;
	return steps * (net->alpha + chunk / net->beta);
}

static double time_step(const struct sb_sbp_nd *from, const struct sb_sbp_nd *to, int ax,
			double bytes, const struct sb_sbp_place *pl, const struct sb_sbp_net *net)
{
	int other = 1 - ax;
	/* the groups along the other axis run side by side */
	double t = from->d[other].kind == SB_SBP_S ? bytes / pl->h[other] : bytes;
	return time_1d(from->d[ax], to->d[ax], t, pl->h[ax], net);
}

double sb_sbp_box_time(const struct sb_sbp_nd *from, const struct sb_sbp_nd *to, double bytes,
		       const struct sb_sbp_place *pl, const struct sb_sbp_net *net)
{
	struct sb_sbp_nd k1, k2;
	double c1, c2;

	if (pl->ndim == 1)
		return time_1d(from->d[0], to->d[0], bytes, pl->p, net);
	if (sbp_eq(from->d[0], to->d[0]))
		return time_step(from, to, 1, bytes, pl, net);
	if (sbp_eq(from->d[1], to->d[1]))
		return time_step(from, to, 0, bytes, pl, net);
	/* the path the byte cost takes (the cheaper in bytes) */
	k1.d[0] = to->d[0], k1.d[1] = from->d[1];
	k2.d[0] = from->d[0], k2.d[1] = to->d[1];
	c1 = box_step(from, &k1, 0, bytes, pl, 2) + box_step(&k1, to, 1, bytes, pl, 2);
	c2 = box_step(from, &k2, 1, bytes, pl, 2) + box_step(&k2, to, 0, bytes, pl, 2);
	if (c1 <= c2)
		return time_step(from, &k1, 0, bytes, pl, net) + time_step(&k1, to, 1, bytes, pl, net);
	return time_step(from, &k2, 1, bytes, pl, net) + time_step(&k2, to, 0, bytes, pl, net);
}

/* ------------------------------------------------------------------ */
/* Op kinds                                                            */
/* ------------------------------------------------------------------ */

static const struct {
	const char *name;
	int nin_lo, nin_hi;
	double flops_per_elem;   /* [O] for every kind but matmul */
} kinds[SB_OP_NKIND] = {
	[SB_OP_INPUT] = { "input", 0, 0, 0 },
	[SB_OP_VARIABLE] = { "variable", 0, 1, 0 },
	[SB_OP_MATMUL] = { "matmul", 2, 2, 0 },
	[SB_OP_ADD] = { "add", 2, 3, 1 },
	[SB_OP_MUL] = { "mul", 2, 2, 1 },
	[SB_OP_DIV] = { "div", 2, 2, 1 },
	[SB_OP_RELU] = { "relu", 1, 1, 1 },
	[SB_OP_GELU] = { "gelu", 1, 1, 8 },
	[SB_OP_SOFTMAX] = { "softmax", 1, 1, 5 },
	[SB_OP_LAYER_NORM] = { "layer_norm", 1, 1, 8 },
	[SB_OP_BIAS_ADD] = { "bias_add", 2, 2, 1 },
	[SB_OP_SPLIT_HEADS] = { "split_heads", 1, 1, 0 },
	[SB_OP_MERGE_HEADS] = { "merge_heads", 1, 3, 0 },
	[SB_OP_GELU_GRAD] = { "gelu_grad", 2, 2, 10 },
	[SB_OP_SOFTMAX_GRAD] = { "softmax_grad", 2, 2, 4 },
	[SB_OP_LN_GRAD] = { "layer_norm_grad", 2, 2, 12 },
	[SB_OP_LOSS] = { "loss", 1, 1, 2 },
	[SB_OP_UPDATE] = { "update", 2, 2, 4 },
};

const char *sb_sbp_opkind_name(int k)
{
	return k >= 0 && k < SB_OP_NKIND ? kinds[k].name : NULL;
}

int sb_sbp_opkind_find(const char *name)
{
	int k;
	for (k = 0; k < SB_OP_NKIND; k++)
		if (!strcmp(kinds[k].name, name))
			return k;
	return -1;
}

/* ------------------------------------------------------------------ */
/* Graphs                                                              */
/* ------------------------------------------------------------------ */

void sb_sbp_graph_init(struct sb_sbp_graph *g, const char *name)
{
	memset(g, 0, sizeof *g);
	snprintf(g->name, sizeof g->name, "%s", name);
	g->penalty = SB_SBP_PENALTY_DEFAULT;
	g->cost_ratio = 0.05;      /* OneFlow's job_conf default [V, code] */
	g->state_factor = 2;       /* two Adam moments per weight [O] */
	g->elem_bytes = 4;
}

void sb_sbp_graph_release(struct sb_sbp_graph *g)
{
	int o;
	for (o = 0; o < g->nop; o++)
		sb_free(g->op[o].sig);
	sb_free(g->op);
	sb_free(g->edge);
	sb_free(g->topo);
	sb_free(g->adj_off);
	sb_free(g->adj);
	memset(g, 0, sizeof *g);
}

int sb_sbp_add(struct sb_sbp_graph *g, const char *name, int kind, int nin, const int *in,
	       int rank, const int64_t *dim)
{
	struct sb_sbp_op *op;
	int k;
	if (g->nop == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 64;
		g->op = sb_xrealloc(g->op, sizeof *g->op * (size_t)g->cap);
	}
	op = &g->op[g->nop];
	memset(op, 0, sizeof *op);
	snprintf(op->name, sizeof op->name, "%s", name);
	op->kind = kind;
	op->nin = nin < 0 ? 0 : nin > SB_SBP_MAXIN ? SB_SBP_MAXIN : nin;
	for (k = 0; k < op->nin; k++)
		op->in[k] = in[k];
	op->rank = rank < 0 ? 0 : rank > SB_SBP_MAXRANK ? SB_SBP_MAXRANK : rank;
	for (k = 0; k < op->rank; k++)
		op->dim[k] = dim[k];
	op->layer = -1;
	return g->nop++;
}

double sb_sbp_out_bytes(const struct sb_sbp_graph *g, int o)
{
	double n = 1;
	int k;
	for (k = 0; k < g->op[o].rank; k++)
		n *= (double)g->op[o].dim[k];
	return n * g->elem_bytes;
}

static const struct sb_sbp_op *in_op(const struct sb_sbp_graph *g, const struct sb_sbp_op *op,
				     int k)
{
	return &g->op[op->in[k]];
}

static int same_shape(const struct sb_sbp_op *a, const struct sb_sbp_op *b)
{
	int k;
	if (a->rank != b->rank)
		return 0;
	for (k = 0; k < a->rank; k++)
		if (a->dim[k] != b->dim[k])
			return 0;
	return 1;
}

/* The shape rule of op o; NULL if it holds, else the field at fault. */
static const char *shape_fault(const struct sb_sbp_graph *g, int o)
{
	const struct sb_sbp_op *op = &g->op[o];
	int k;

	for (k = 0; k < op->rank; k++)
		if (op->dim[k] < 1 || op->dim[k] > (int64_t)1 << 40)
			return "shape (a dimension outside 1..2^40)";
	if (op->rank < 1)
		return "shape (rank 0)";
	switch (op->kind) {
	case SB_OP_INPUT:
		return NULL;
	case SB_OP_VARIABLE:
		if (op->loop && (in_op(g, op, 0)->kind != SB_OP_UPDATE ||
				 !same_shape(in_op(g, op, 0), op)))
			return "loop input (must be an update of the same shape)";
		return NULL;
	case SB_OP_MATMUL: {
		const struct sb_sbp_op *a = in_op(g, op, 0), *b = in_op(g, op, 1);
		int nb = op->nb, ra = nb + 2;
		int64_t m, ka, kb, n;
		if (nb < 0 || nb > 2 || op->rank != ra || a->rank != ra ||
		    (b->rank != ra && !(nb == 0 && b->rank == 2)))
			return "shape (ranks of A, B and the output)";
		for (k = 0; k < nb; k++)
			if (a->dim[k] != op->dim[k] || b->dim[k] != op->dim[k])
				return "shape (batch axes differ)";
		m = a->dim[nb + (op->ta ? 1 : 0)];
		ka = a->dim[nb + (op->ta ? 0 : 1)];
		kb = b->dim[nb + (op->tb ? 1 : 0)];
		n = b->dim[nb + (op->tb ? 0 : 1)];
		if (ka != kb)
			return "shape (inner dimensions of A and B differ)";
		if (op->dim[nb] != m || op->dim[nb + 1] != n)
			return "shape (output is not [m, n])";
		return NULL;
	}
	case SB_OP_BIAS_ADD: {
		const struct sb_sbp_op *a = in_op(g, op, 0), *b = in_op(g, op, 1);
		if (op->axis < 0 || op->axis >= op->rank)
			return "axis";
		if (!same_shape(a, op) || b->rank != 1 || b->dim[0] != op->dim[op->axis])
			return "shape (bias must be a vector along axis)";
		return NULL;
	}
	case SB_OP_SPLIT_HEADS: {
		const struct sb_sbp_op *a = in_op(g, op, 0);
		if (op->heads < 1 || op->axis < 0 || op->axis >= op->heads)
			return "slice (needs 0 <= slice < slices)";
		if (a->rank != 2 || op->rank != 4 || op->dim[0] * op->dim[2] != a->dim[0] ||
		    op->heads * op->dim[1] * op->dim[3] != a->dim[1])
			return "shape (input [b*s, slices*heads*dh], output [b, heads, s, dh])";
		return NULL;
	}
	case SB_OP_MERGE_HEADS: {
		const struct sb_sbp_op *a = in_op(g, op, 0);
		for (k = 1; k < op->nin; k++)
			if (!same_shape(in_op(g, op, k), a))
				return "shape (inputs differ)";
		if (a->rank != 4 || op->rank != 2 || op->dim[0] != a->dim[0] * a->dim[2] ||
		    op->dim[1] != op->nin * a->dim[1] * a->dim[3])
			return "shape (inputs [b, heads, s, dh], output [b*s, n*heads*dh])";
		return NULL;
	}
	case SB_OP_UPDATE:
		if (in_op(g, op, 0)->kind != SB_OP_VARIABLE)
			return "input 1 (an update reads a variable)";
		/* fall through */
	default:
		for (k = 0; k < op->nin; k++)
			if (!same_shape(in_op(g, op, k), op))
				return "shape (inputs and output must have the same shape)";
		if ((op->kind == SB_OP_SOFTMAX || op->kind == SB_OP_LAYER_NORM ||
		     op->kind == SB_OP_SOFTMAX_GRAD || op->kind == SB_OP_LN_GRAD) && op->rank < 2)
			return "shape (needs rank >= 2: normalised over the last axis)";
		return NULL;
	}
}

/* ------------------------------------------------------------------ */
/* Signature tables (§3)                                               */
/* ------------------------------------------------------------------ */

/* one 1-D signature: inputs and output */
struct sig1 {
	struct sb_sbp in[SB_SBP_MAXIN], out;
};

#define MAXSIG1 24

static struct sb_sbp S_(int a) { struct sb_sbp s = { SB_SBP_S, (signed char)a }; return s; }
static const struct sb_sbp B_ = { SB_SBP_B, 0 }, P_ = { SB_SBP_P, 0 };

static void put(struct sig1 *l, int *n, int nin, struct sb_sbp a, struct sb_sbp b,
		struct sb_sbp c, struct sb_sbp out)
{
	struct sig1 *s;
	int k;
	SB_ASSERT(*n < MAXSIG1);
	s = &l[(*n)++];
	s->in[0] = a, s->in[1] = b, s->in[2] = c;
	for (k = nin; k < SB_SBP_MAXIN; k++)
		s->in[k] = B_;
	s->out = out;
}

/* every input the same SBP x, output y */
static void put_all(struct sig1 *l, int *n, int nin, struct sb_sbp x, struct sb_sbp y)
{
	put(l, n, nin, x, x, x, y);
}

/* The op's 1-D table, all-B included (duplicates removed later). */
static int table_1d(const struct sb_sbp_graph *g, const struct sb_sbp_op *op, struct sig1 *l)
{
	int n = 0, i, r = op->rank, nin = op->nin;

	switch (op->kind) {
	case SB_OP_INPUT:
	case SB_OP_VARIABLE:
	case SB_OP_RELU:
	case SB_OP_GELU:
	case SB_OP_LOSS:
	case SB_OP_UPDATE:
	case SB_OP_GELU_GRAD:
		for (i = 0; i < r; i++)
			put_all(l, &n, nin, S_(i), S_(i));
		break;
	case SB_OP_SOFTMAX:
	case SB_OP_LAYER_NORM:
	case SB_OP_SOFTMAX_GRAD:
	case SB_OP_LN_GRAD:
		for (i = 0; i < r - 1; i++)
			put_all(l, &n, nin, S_(i), S_(i));
		break;
	case SB_OP_ADD:
		for (i = 0; i < r; i++)
			put_all(l, &n, nin, S_(i), S_(i));
		put_all(l, &n, nin, P_, P_);
		break;
	case SB_OP_MUL:
		for (i = 0; i < r; i++)
			put_all(l, &n, nin, S_(i), S_(i));
		put(l, &n, 2, B_, P_, B_, P_);
		put(l, &n, 2, P_, B_, B_, P_);
		break;
	case SB_OP_DIV:
		for (i = 0; i < r; i++)
			put_all(l, &n, nin, S_(i), S_(i));
		put(l, &n, 2, P_, B_, B_, P_);
		break;
	case SB_OP_BIAS_ADD:
		for (i = 0; i < r; i++)
			if (i != op->axis)
				put(l, &n, 2, S_(i), B_, B_, S_(i));
		put(l, &n, 2, S_(op->axis), S_(0), B_, S_(op->axis));
		break;
	case SB_OP_MATMUL: {
		int nb = op->nb;
		int mA = op->ta ? nb + 1 : nb, kA = op->ta ? nb : nb + 1;
		int rb = in_op(g, op, 1)->rank, bb = rb - 2;   /* B's batch axes */
		int kB = bb + (op->tb ? 1 : 0), nB = bb + (op->tb ? 0 : 1);
		for (i = 0; i < nb; i++)
			put(l, &n, 2, S_(i), S_(i), B_, S_(i));
		put(l, &n, 2, S_(mA), B_, B_, S_(nb));
		put(l, &n, 2, B_, S_(nB), B_, S_(nb + 1));
		put(l, &n, 2, S_(kA), S_(kB), B_, P_);
		put(l, &n, 2, P_, B_, B_, P_);
		put(l, &n, 2, B_, P_, B_, P_);
		break;
	}
	case SB_OP_SPLIT_HEADS:
		put(l, &n, 1, S_(0), B_, B_, S_(0));
		put(l, &n, 1, S_(1), B_, B_, S_(1));
		put(l, &n, 1, P_, B_, B_, P_);
		break;
	case SB_OP_MERGE_HEADS:
		put_all(l, &n, nin, S_(0), S_(0));
		put_all(l, &n, nin, S_(1), S_(1));
		put_all(l, &n, nin, P_, P_);
		break;
	default:
		SB_BUG("op kind %d", op->kind);
	}
	put_all(l, &n, nin, B_, B_);   /* every op gets all-B [V, code] */
	return n;
}

/* rank and dims of the tensor in slot k of op (k = -1: the output) */
static const struct sb_sbp_op *slot_tensor(const struct sb_sbp_graph *g,
					   const struct sb_sbp_op *op, int k)
{
	return k < 0 ? op : in_op(g, op, k);
}

/* Does nd-SBP s fit tensor t: every split axis exists and holds at least
 * one element per device of the axes that split it? */
static int fits(const struct sb_sbp_op *t, const struct sb_sbp_nd *s, const struct sb_sbp_place *pl)
{
	int64_t f[SB_SBP_MAXRANK] = { 1, 1, 1, 1 };
	int d, a;
	for (d = 0; d < pl->ndim; d++)
		if (s->d[d].kind == SB_SBP_S) {
			a = s->d[d].axis;
			if (a < 0 || a >= t->rank)
				return 0;
			f[a] *= pl->h[d];
		}
	for (a = 0; a < t->rank; a++)
		if (t->dim[a] < f[a])
			return 0;
	return 1;
}

static double split_factor(const struct sb_sbp_nd *s, const struct sb_sbp_place *pl)
{
	double f = 1;
	int d;
	for (d = 0; d < pl->ndim; d++)
		if (s->d[d].kind == SB_SBP_S)
			f *= pl->h[d];
	return f;
}

static double elems(const struct sb_sbp_op *t)
{
	double n = 1;
	int k;
	for (k = 0; k < t->rank; k++)
		n *= (double)t->dim[k];
	return n;
}

/* FLOPs per device and memory per device of nd signature s of op */
static void sig_costs(const struct sb_sbp_graph *g, const struct sb_sbp_op *op,
		      struct sb_sbp_sig *s)
{
	const struct sb_sbp_place *pl = &g->pl;
	double outb = elems(op) * g->elem_bytes / split_factor(&s->out, pl);
	if (op->kind == SB_OP_MATMUL) {
		/* 2 |A| n, divided by every hierarchy axis on which A or B is
		 * split (GetComputationCostFn) [V, code] */
		double f = 2 * elems(in_op(g, op, 0)) * (double)op->dim[op->rank - 1];
		int d;
		for (d = 0; d < pl->ndim; d++)
			if (s->in[0].d[d].kind == SB_SBP_S || s->in[1].d[d].kind == SB_SBP_S)
				f /= pl->h[d];
		s->flops = f;
	} else {
		s->flops = kinds[op->kind].flops_per_elem * elems(op) / split_factor(&s->out, pl);
	}
	s->mem = outb * (op->kind == SB_OP_VARIABLE ? 1 + g->state_factor : 1);
}

int sb_sbp_sigs_nd(const struct sb_sbp_graph *g, int o, struct sb_sbp_sig *out, int max,
		   int *nall)
{
	const struct sb_sbp_op *op = &g->op[o];
	const struct sb_sbp_place *pl = &g->pl;
	struct sig1 l[MAXSIG1];
	int n1 = table_1d(g, op, l), n = 0, total = 0, i, j, k, q, nin = op->nin;
	int jmax = pl->ndim == 2 ? n1 : 1;

	for (i = 0; i < n1; i++)
		for (j = 0; j < jmax; j++) {
			struct sb_sbp_sig s;
			int ok = 1, dup = 0;
			memset(&s, 0, sizeof s);
			for (k = 0; k < SB_SBP_MAXIN; k++) {
				s.in[k].d[0] = l[i].in[k];
				s.in[k].d[1] = pl->ndim == 2 ? l[j].in[k] : B_;
			}
			s.out.d[0] = l[i].out;
			s.out.d[1] = pl->ndim == 2 ? l[j].out : B_;
			for (q = 0; q < n && !dup; q++) {
				dup = sb_sbp_nd_eq(&out[q].out, &s.out, pl->ndim);
				for (k = 0; k < nin && dup; k++)
					dup = sb_sbp_nd_eq(&out[q].in[k], &s.in[k], pl->ndim);
			}
			if (dup)
				continue;
			total++;
			for (k = -1; k < nin && ok; k++)
				ok = fits(slot_tensor(g, op, k), k < 0 ? &s.out : &s.in[k], pl);
			if (!ok)
				continue;
			sig_costs(g, op, &s);
			SB_ASSERT(n < max);
			out[n++] = s;
		}
	if (nall)
		*nall = total;
	return n;
}

_Static_assert(SB_SBP_MAXSIG >= MAXSIG1 * MAXSIG1, "room for a 2-D product");
#define MAXSIG SB_SBP_MAXSIG

int sb_sbp_graph_finish(struct sb_sbp_graph *g, const struct sb_sbp_place *pl,
			struct sb_err *err)
{
	int o, k, e, *indeg, *q, qh = 0, qt = 0;
	struct sb_sbp_sig *tmp;

	if (pl->ndim < 1 || pl->ndim > 2 || pl->h[0] < 1 || (pl->ndim == 2 && pl->h[1] < 1) ||
	    pl->p != pl->h[0] * (pl->ndim == 2 ? pl->h[1] : 1))
		return sb_err_set(err, SB_EXIT_INPUT, "graph %s: placement: p = %d does not match "
				  "the hierarchy", g->name, pl->p);
	g->bad_op = -1;
	g->pl = *pl;
	if (pl->ndim == 1)
		g->pl.h[1] = 1;
	for (o = 0; o < g->nop; o++) {
		struct sb_sbp_op *op = &g->op[o];
		const char *f;
		g->bad_op = o;
		if (op->kind < 0 || op->kind >= SB_OP_NKIND)
			return sb_err_set(err, SB_EXIT_INPUT, "graph %s: op %s: field 'kind': unknown "
					  "op kind %d", g->name, op->name, op->kind);
		if (op->nin < kinds[op->kind].nin_lo || op->nin > kinds[op->kind].nin_hi ||
		    (op->kind == SB_OP_VARIABLE && op->nin != op->loop))
			return sb_err_set(err, SB_EXIT_INPUT, "graph %s: op %s: field 'inputs': %s "
					  "takes %d..%d inputs, got %d", g->name, op->name,
					  kinds[op->kind].name, kinds[op->kind].nin_lo,
					  kinds[op->kind].nin_hi, op->nin);
		for (k = 0; k < op->nin; k++)
			if (op->in[k] < 0 || op->in[k] >= g->nop || op->in[k] == o ||
			    (op->in[k] > o && !(op->kind == SB_OP_VARIABLE && op->loop)))
				return sb_err_set(err, SB_EXIT_INPUT, "graph %s: op %s: field 'inputs': "
						  "input %d is not an earlier op", g->name, op->name, k + 1);
		if ((f = shape_fault(g, o)))
			return sb_err_set(err, SB_EXIT_INPUT, "graph %s: op %s (%s): field '%s'",
					  g->name, op->name, kinds[op->kind].name, f);
	}
	g->bad_op = -1;
	/* signatures */
	tmp = SB_NEW(struct sb_sbp_sig, MAXSIG);
	for (o = 0; o < g->nop; o++) {
		struct sb_sbp_op *op = &g->op[o];
		sb_free(op->sig);
		op->nsig = sb_sbp_sigs_nd(g, o, tmp, MAXSIG, &op->nall);
		op->sig = SB_NEW(struct sb_sbp_sig, op->nsig ? op->nsig : 1);
		memcpy(op->sig, tmp, sizeof *tmp * (size_t)op->nsig);
		SB_ASSERT(op->nsig >= 1);   /* all-B always fits */
	}
	sb_free(tmp);
	/* edges */
	sb_free(g->edge);
	g->nedge = 0;
	for (o = 0; o < g->nop; o++)
		g->nedge += g->op[o].nin;
	g->edge = SB_NEW(struct sb_sbp_edge, g->nedge ? g->nedge : 1);
	for (o = 0, e = 0; o < g->nop; o++)
		for (k = 0; k < g->op[o].nin; k++, e++) {
			g->edge[e].u = g->op[o].in[k];
			g->edge[e].v = o;
			g->edge[e].slot = k;
			g->edge[e].loop = g->op[o].kind == SB_OP_VARIABLE && g->op[o].loop;
			g->edge[e].bytes = sb_sbp_out_bytes(g, g->op[o].in[k]);
		}
	/* incident edges (CSR) */
	sb_free(g->adj_off);
	sb_free(g->adj);
	g->adj_off = SB_NEW(int, g->nop + 1);
	g->adj = SB_NEW(int, 2 * g->nedge + 1);
	for (e = 0; e < g->nedge; e++)
		g->adj_off[g->edge[e].u + 1]++, g->adj_off[g->edge[e].v + 1]++;
	for (o = 0; o < g->nop; o++)
		g->adj_off[o + 1] += g->adj_off[o];
	{
		int *fill = SB_NEW(int, g->nop ? g->nop : 1);
		for (e = 0; e < g->nedge; e++) {
			int a = g->edge[e].u, b = g->edge[e].v;
			g->adj[g->adj_off[a] + fill[a]++] = e;
			g->adj[g->adj_off[b] + fill[b]++] = e;
		}
		sb_free(fill);
	}
	/* topological order without loop edges (Kahn; ops appended in order
	 * of their ids among the ready ones, so it is deterministic) */
	sb_free(g->topo);
	g->topo = SB_NEW(int, g->nop ? g->nop : 1);
	indeg = SB_NEW(int, g->nop ? g->nop : 1);
	q = g->topo;
	for (e = 0; e < g->nedge; e++)
		if (!g->edge[e].loop)
			indeg[g->edge[e].v]++;
	for (o = 0; o < g->nop; o++)
		if (!indeg[o])
			q[qt++] = o;
	while (qh < qt) {
		int u = q[qh++], j;
		for (j = g->adj_off[u]; j < g->adj_off[u + 1]; j++) {
			e = g->adj[j];
			if (g->edge[e].u == u && !g->edge[e].loop && !--indeg[g->edge[e].v])
				q[qt++] = g->edge[e].v;
		}
	}
	sb_free(indeg);
	if (qt != g->nop)
		return sb_err_set(err, SB_EXIT_INPUT, "graph %s: the ops form a cycle", g->name);
	g->finished = 1;
	return 0;
}

double sb_sbp_edge_cost(const struct sb_sbp_graph *g, int e, int su, int sv)
{
	const struct sb_sbp_edge *ed = &g->edge[e];
	return sb_sbp_box(&g->op[ed->u].sig[su].out, &g->op[ed->v].sig[sv].in[ed->slot], ed->bytes,
			  &g->pl, g->penalty);
}

double sb_sbp_node_cost(const struct sb_sbp_graph *g, int o, int s)
{
	return g->cost_ratio * g->op[o].sig[s].flops;
}

double sb_sbp_assign_cost(const struct sb_sbp_graph *g, const int *sig)
{
	double c = 0;
	int o, e;
	for (o = 0; o < g->nop; o++)
		c += sb_sbp_node_cost(g, o, sig[o]);
	for (e = 0; e < g->nedge; e++)
		c += sb_sbp_edge_cost(g, e, sig[g->edge[e].u], sig[g->edge[e].v]);
	return c;
}

int sb_sbp_is_tree(const struct sb_sbp_graph *g)
{
	/* union-find over the undirected skeleton: an edge inside one
	 * component closes a cycle (parallel edges included) */
	int *par = SB_NEW(int, g->nop ? g->nop : 1), e, o, tree = 1;
	for (o = 0; o < g->nop; o++)
		par[o] = o;
	for (e = 0; e < g->nedge && tree; e++) {
		int a = g->edge[e].u, b = g->edge[e].v;
		while (par[a] != a)
			a = par[a] = par[par[a]];
		while (par[b] != b)
			b = par[b] = par[par[b]];
		if (a == b)
			tree = 0;
		else
			par[a] = b;
	}
	sb_free(par);
	return tree;
}
