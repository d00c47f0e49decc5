/*
 * models.c - layer graphs of the sbp family (see models.h). Ours [O]:
 * the spec fixes the layers (oneflow.md §8.2); the backward ops follow the
 * usual chain rule for each forward op.
 */
#include "models.h"
#include "wlfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Builders                                                            */
/* ------------------------------------------------------------------ */

static int op2(struct sb_sbp_graph *g, const char *name, int kind, int a, int b, int64_t d0,
	       int64_t d1)
{
	int in[2] = { a, b };
	int64_t dim[2] = { d0, d1 };
	return sb_sbp_add(g, name, kind, b < 0 ? (a < 0 ? 0 : 1) : 2, in, 2, dim);
}

static int mm(struct sb_sbp_graph *g, const char *name, int a, int b, int ta, int tb,
	      int64_t m, int64_t n)
{
	int o = op2(g, name, SB_OP_MATMUL, a, b, m, n);
	g->op[o].ta = ta;
	g->op[o].tb = tb;
	return o;
}

/* batched matmul over [b, heads, ., .] */
static int bmm(struct sb_sbp_graph *g, const char *name, int a, int bb, int ta, int tb,
	       const int64_t *d)
{
	int in[2] = { a, bb };
	int o = sb_sbp_add(g, name, SB_OP_MATMUL, 2, in, 4, d);
	g->op[o].nb = 2;
	g->op[o].ta = ta;
	g->op[o].tb = tb;
	return o;
}

static int weight(struct sb_sbp_graph *g, const char *name, int role, int64_t r, int64_t c)
{
	int o = op2(g, name, SB_OP_VARIABLE, -1, -1, r, c);
	g->op[o].role = role;
	return o;
}

/* the optimizer update of weight w from gradient dw, tied back to w */
static void update(struct sb_sbp_graph *g, int w, int dw)
{
	char name[40];
	int u;
	snprintf(name, sizeof name, "%.28s.update", g->op[w].name);
	u = op2(g, name, SB_OP_UPDATE, w, dw, g->op[w].dim[0], g->op[w].dim[1]);
	g->op[u].layer = g->op[w].layer;
	g->op[w].nin = 1;
	g->op[w].in[0] = u;
	g->op[w].loop = 1;
}

static void name_of(char *buf, size_t len, int l, const char *what)
{
	if (l < 0)
		snprintf(buf, len, "%s", what);
	else
		snprintf(buf, len, "l%d.%s", l, what);
}

#define NM(what) (name_of(nm, sizeof nm, l, what), nm)

void sb_sbp_build_mlp(struct sb_sbp_graph *g, int L, int64_t T, int64_t h, int backward)
{
	int *y = SB_NEW(int, L + 1), *a = SB_NEW(int, L + 1), *w = SB_NEW(int, L + 1);
	int l, gr;
	char nm[40];

	snprintf(g->name, sizeof g->name, "mlp-L%d-T%lld-h%lld%s", L, (long long)T, (long long)h,
		 backward ? "" : "-fwd");
	a[0] = op2(g, "x", SB_OP_INPUT, -1, -1, T, h);
	g->op[a[0]].role = SB_ROLE_DATA;
	for (l = 1; l <= L; l++) {
		int first = g->nop;
		w[l] = weight(g, NM("w"), l % 2 ? SB_ROLE_COL : SB_ROLE_ROW, h, h);
		y[l] = mm(g, NM("linear"), a[l - 1], w[l], 0, 0, T, h);
		a[l] = op2(g, NM("gelu"), SB_OP_GELU, y[l], -1, T, h);
		for (; first < g->nop; first++)
			g->op[first].layer = l - 1;
	}
	if (backward) {
		l = -1;
		gr = op2(g, NM("loss"), SB_OP_LOSS, a[L], -1, T, h);
		for (l = L; l >= 1; l--) {
			int first = g->nop, gy, dw;
			gy = op2(g, NM("gelu_grad"), SB_OP_GELU_GRAD, gr, y[l], T, h);
			dw = mm(g, NM("wgrad"), a[l - 1], gy, 1, 0, h, h);
			if (l > 1)
				gr = mm(g, NM("dgrad"), gy, w[l], 0, 1, T, h);
			for (; first < g->nop; first++)
				g->op[first].layer = l - 1;
			update(g, w[l], dw);
		}
	}
	sb_free(y);
	sb_free(a);
	sb_free(w);
}

/* the forward tensors of one block that its backward reads */
struct block {
	int a, ln1, wqkv, q, k, v, pr, mg, wo, r1, ln2, wup, u, ge, wdn;
};

static int split(struct sb_sbp_graph *g, const char *name, int src, int slice, int slices,
		 const int64_t *d)
{
	int o = sb_sbp_add(g, name, SB_OP_SPLIT_HEADS, 1, &src, 4, d);
	g->op[o].axis = slice;
	g->op[o].heads = slices;
	return o;
}

void sb_sbp_build_gpt(struct sb_sbp_graph *g, int L, int64_t b, int64_t s, int64_t h,
		      int64_t heads, int backward)
{
	int64_t T = b * s, dh = h / heads;
	int64_t hd[4] = { b, heads, s, dh }, sd[4] = { b, heads, s, s };
	struct block *bl = SB_NEW(struct block, L);
	int l, x, gr;
	char nm[40];

	snprintf(g->name, sizeof g->name, "gpt-L%d-T%lld-h%lld%s", L, (long long)T, (long long)h,
		 backward ? "" : "-fwd");
	x = op2(g, "x", SB_OP_INPUT, -1, -1, T, h);
	g->op[x].role = SB_ROLE_DATA;
	for (l = 0; l < L; l++) {
		struct block *B = &bl[l];
		int first = g->nop, qkv, sc, at, o, d, in3[3];
		B->a = x;
		B->ln1 = op2(g, NM("ln1"), SB_OP_LAYER_NORM, x, -1, T, h);
		B->wqkv = weight(g, NM("w_qkv"), SB_ROLE_COL, h, 3 * h);
		qkv = mm(g, NM("qkv"), B->ln1, B->wqkv, 0, 0, T, 3 * h);
		B->q = split(g, NM("q"), qkv, 0, 3, hd);
		B->k = split(g, NM("k"), qkv, 1, 3, hd);
		B->v = split(g, NM("v"), qkv, 2, 3, hd);
		sc = bmm(g, NM("scores"), B->q, B->k, 0, 1, sd);
		B->pr = op2(g, NM("softmax"), SB_OP_SOFTMAX, sc, -1, 0, 0);
		g->op[B->pr].rank = 4;
		memcpy(g->op[B->pr].dim, sd, sizeof sd);
		at = bmm(g, NM("attn_v"), B->pr, B->v, 0, 0, hd);
		in3[0] = at;
		B->mg = sb_sbp_add(g, NM("merge"), SB_OP_MERGE_HEADS, 1, in3, 2, (int64_t[]){ T, h });
		B->wo = weight(g, NM("w_proj"), SB_ROLE_ROW, h, h);
		o = mm(g, NM("proj"), B->mg, B->wo, 0, 0, T, h);
		B->r1 = op2(g, NM("res1"), SB_OP_ADD, x, o, T, h);
		B->ln2 = op2(g, NM("ln2"), SB_OP_LAYER_NORM, B->r1, -1, T, h);
		B->wup = weight(g, NM("w_up"), SB_ROLE_COL, h, 4 * h);
		B->u = mm(g, NM("up"), B->ln2, B->wup, 0, 0, T, 4 * h);
		B->ge = op2(g, NM("gelu"), SB_OP_GELU, B->u, -1, T, 4 * h);
		B->wdn = weight(g, NM("w_down"), SB_ROLE_ROW, 4 * h, h);
		d = mm(g, NM("down"), B->ge, B->wdn, 0, 0, T, h);
		x = op2(g, NM("res2"), SB_OP_ADD, B->r1, d, T, h);
		for (; first < g->nop; first++)
			g->op[first].layer = l;
	}
	if (backward) {
		l = -1;
		gr = op2(g, NM("loss"), SB_OP_LOSS, x, -1, T, h);
		for (l = L - 1; l >= 0; l--) {
			struct block *B = &bl[l];
			int first = g->nop, gge, gu, gl2, g1, gmg, gat, gpr, gv, gsc, gq, gk, gqkv, in3[3];
			/* MLP: down, gelu, up */
			update(g, B->wdn, mm(g, NM("down.wgrad"), B->ge, gr, 1, 0, 4 * h, h));
			gge = mm(g, NM("down.dgrad"), gr, B->wdn, 0, 1, T, 4 * h);
			gu = op2(g, NM("gelu_grad"), SB_OP_GELU_GRAD, gge, B->u, T, 4 * h);
			update(g, B->wup, mm(g, NM("up.wgrad"), B->ln2, gu, 1, 0, h, 4 * h));
			gl2 = mm(g, NM("up.dgrad"), gu, B->wup, 0, 1, T, h);
			g1 = op2(g, NM("ln2_grad"), SB_OP_LN_GRAD, gl2, B->r1, T, h);
			g1 = op2(g, NM("res1_grad"), SB_OP_ADD, gr, g1, T, h);
			/* attention */
			update(g, B->wo, mm(g, NM("proj.wgrad"), B->mg, g1, 1, 0, h, h));
			gmg = mm(g, NM("proj.dgrad"), g1, B->wo, 0, 1, T, h);
			gat = split(g, NM("merge_grad"), gmg, 0, 1, hd);
			gpr = bmm(g, NM("attn_v.dgrad_p"), gat, B->v, 0, 1, sd);
			gv = bmm(g, NM("attn_v.dgrad_v"), B->pr, gat, 1, 0, hd);
			gsc = op2(g, NM("softmax_grad"), SB_OP_SOFTMAX_GRAD, B->pr, gpr, 0, 0);
			g->op[gsc].rank = 4;
			memcpy(g->op[gsc].dim, sd, sizeof sd);
			gq = bmm(g, NM("scores.dgrad_q"), gsc, B->k, 0, 0, hd);
			gk = bmm(g, NM("scores.dgrad_k"), gsc, B->q, 1, 0, hd);
			in3[0] = gq, in3[1] = gk, in3[2] = gv;
			gqkv = sb_sbp_add(g, NM("qkv_grad"), SB_OP_MERGE_HEADS, 3, in3, 2,
					  (int64_t[]){ T, 3 * h });
			update(g, B->wqkv, mm(g, NM("qkv.wgrad"), B->ln1, gqkv, 1, 0, h, 3 * h));
			if (l > 0) {
				int gl1 = mm(g, NM("qkv.dgrad"), gqkv, B->wqkv, 0, 1, T, h);
				gl1 = op2(g, NM("ln1_grad"), SB_OP_LN_GRAD, gl1, B->a, T, h);
				gr = op2(g, NM("res2_grad"), SB_OP_ADD, g1, gl1, T, h);
			}
			for (; first < g->nop; first++)
				g->op[first].layer = l;
		}
	}
	sb_free(bl);
}

void sb_sbp_build_net(struct sb_sbp_graph *g, int L, int64_t T, int64_t h, const int *kind,
		      const int64_t *h2, int backward)
{
	static const int fwd[] = { SB_OP_MATMUL, SB_OP_GELU, SB_OP_SOFTMAX, SB_OP_LAYER_NORM };
	int *xin = SB_NEW(int, L + 1), *y = SB_NEW(int, L + 1), *w = SB_NEW(int, L + 1);
	int l, x, gr;
	char nm[40];

	snprintf(g->name, sizeof g->name, "%s-L%d-T%lld-h%lld", backward ? "net" : "chain", L,
		 (long long)T, (long long)h);
	x = op2(g, "x", SB_OP_INPUT, -1, -1, T, h);
	for (l = 0; l < L; l++) {
		SB_ASSERT(kind[l] >= 0 && kind[l] < 4);
		xin[l] = x;
		if (kind[l] == 0) {
			w[l] = weight(g, NM("w"), l % 2 ? SB_ROLE_ROW : SB_ROLE_COL, h, h2[l]);
			x = mm(g, NM("linear"), x, w[l], 0, 0, T, h2[l]);
			h = h2[l];
		} else {
			x = op2(g, NM(sb_sbp_opkind_name(fwd[kind[l]])), fwd[kind[l]], x, -1, T, h);
		}
		y[l] = x;
	}
	if (backward) {
		l = -1;
		gr = op2(g, NM("loss"), SB_OP_LOSS, x, -1, T, h);
		/* the chain rule layer by layer; the data input needs no gradient,
		 * so layer 0 stops at its weight gradient */
		for (l = L - 1; l >= 0; l--) {
			int64_t hi = g->op[xin[l]].dim[1];
			if (kind[l] == 0) {
				update(g, w[l], mm(g, NM("wgrad"), xin[l], gr, 1, 0, hi, h));
				if (l > 0)
					gr = mm(g, NM("dgrad"), gr, w[l], 0, 1, T, hi);
			} else if (l > 0 && kind[l] == 1) {
				gr = op2(g, NM("gelu_grad"), SB_OP_GELU_GRAD, gr, xin[l], T, hi);
			} else if (l > 0 && kind[l] == 2) {
				gr = op2(g, NM("softmax_grad"), SB_OP_SOFTMAX_GRAD, y[l], gr, T,
				     hi);
			} else if (l > 0) {
				gr = op2(g, NM("ln_grad"), SB_OP_LN_GRAD, gr, xin[l], T, hi);
			}
			h = hi;
		}
	}
	sb_free(xin);
	sb_free(y);
	sb_free(w);
}

void sb_sbp_build_chain(struct sb_sbp_graph *g, int L, struct sb_rng *r)
{
	static const int64_t sizes[] = { 64, 256, 1024, 4096 };
	int64_t T = sizes[sb_rng_below(r, 4)], h = sizes[sb_rng_below(r, 4)];
	int64_t *h2 = SB_NEW(int64_t, L > 0 ? L : 1);
	int *kind = SB_NEW(int, L > 0 ? L : 1), l;

	/* the draws in the order of the first version of this generator: a
	 * layer's kind (4: also a linear layer), then a linear layer's width */
	for (l = 0; l < L; l++) {
		kind[l] = (int)sb_rng_below(r, 5) % 4;
		if (kind[l] == 0)
			h2[l] = sizes[sb_rng_below(r, 4)];
	}
	sb_sbp_build_net(g, L, T, h, kind, h2, 0);
	sb_free(h2);
	sb_free(kind);
}

/* ------------------------------------------------------------------ */
/* The graph file loader                                               */
/* ------------------------------------------------------------------ */

static int find_op(const struct sb_sbp_graph *g, const char *name, int n)
{
	int o;
	for (o = 0; o < n; o++)
		if (!strcmp(g->op[o].name, name))
			return o;
	return -1;
}

int sb_sbp_load_graph(struct sb_sbp_graph *g, const char *path, const struct sb_sbp_place *pl,
		      struct sb_err *err)
{
	struct sb_wl_file f;
	char *line, **loop = NULL;
	int *lineno = NULL, rc = 0, o;
	size_t cap = 0, lcap = 0;

	if ((rc = sb_wl_open(&f, "graph", path, err)))
		return rc;
	{
		char *base = sb_wl_basename(path);
		sb_sbp_graph_init(g, base ? base : "graph");
		sb_free(base);
	}
	while (!rc && (line = sb_wl_next(&f))) {
		char *fl[16], *in[SB_SBP_MAXIN + 1], *dims[SB_SBP_MAXRANK + 1], *hash;
		int nf, k, kind, nin = 0, nd, ids[SB_SBP_MAXIN];
		int64_t dim[SB_SBP_MAXRANK];
		if ((hash = strchr(line, '#')))
			*hash = 0;
		for (k = 0; line[k]; k++)
			if (line[k] == '\t')
				line[k] = ' ';
		if (sb_wl_blank(line))
			continue;
		/* collapse runs of blanks so that split gives the fields */
		{
			char *w = line, *s = sb_wl_trim(line);
			int sp = 0;
			for (; *s; s++) {
				if (*s == ' ' && sp)
					continue;
				sp = *s == ' ';
				*w++ = *s;
			}
			*w = 0;
		}
		nf = sb_wl_split(line, ' ', fl, 16);
		if (nf < 4 || nf > 16) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL, "expected NAME KIND "
					"INPUTS SHAPE [key=value]..., got %d fields", nf);
			break;
		}
		if (strlen(fl[0]) >= sizeof g->op[0].name || find_op(g, fl[0], g->nop) >= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "name", "'%s' is too long or "
					"defined twice", fl[0]);
			break;
		}
		if ((kind = sb_sbp_opkind_find(fl[1])) < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "kind", "unknown op kind "
					"'%s'", fl[1]);
			break;
		}
		if (strcmp(fl[2], "-")) {
			nin = sb_wl_split(fl[2], ',', in, SB_SBP_MAXIN + 1);
			if (nin > SB_SBP_MAXIN) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "inputs", "at most %d "
						"inputs", SB_SBP_MAXIN);
				break;
			}
			for (k = 0; k < nin && !rc; k++)
				if ((ids[k] = find_op(g, in[k], g->nop)) < 0)
					rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "inputs",
							"'%s' is not an earlier op", in[k]);
			if (rc)
				break;
		}
		nd = sb_wl_split(fl[3], 'x', dims, SB_SBP_MAXRANK + 1);
		if (nd > SB_SBP_MAXRANK) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "shape", "at most %d axes",
					SB_SBP_MAXRANK);
			break;
		}
		for (k = 0; k < nd && !rc; k++) {
			long v;
			if (!(rc = sb_wl_long(&f, err, "shape", dims[k], 1, 1L << 40, &v)))
				dim[k] = v;
		}
		if (rc)
			break;
		o = sb_sbp_add(g, fl[0], kind, nin, ids, nd, dim);
		if (lcap <= (size_t)o) {
			lineno = sb_wl_grow(lineno, &lcap, (size_t)o + 1, sizeof *lineno);
			loop = sb_xrealloc(loop, sizeof *loop * lcap);
			SB_ASSERT(lineno);
		}
		lineno[o] = f.lineno;
		g->op[o].line = f.lineno;
		loop[o] = NULL;
		(void)cap;
		for (k = 4; k < nf && !rc; k++) {
			char *eq = strchr(fl[k], '=');
			long v;
			struct sb_sbp_op *op = &g->op[o];
			if (!eq) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, fl[k], "expected "
						"key=value");
				break;
			}
			*eq++ = 0;
			if (!strcmp(fl[k], "role")) {
				if (!strcmp(eq, "col"))
					op->role = SB_ROLE_COL;
				else if (!strcmp(eq, "row"))
					op->role = SB_ROLE_ROW;
				else if (!strcmp(eq, "data"))
					op->role = SB_ROLE_DATA;
				else
					rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "role", "'%s': "
							"expected col, row or data", eq);
			} else if (!strcmp(fl[k], "loop")) {
				if (kind != SB_OP_VARIABLE)
					rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "loop", "only a "
							"variable has a loop input");
				else if (loop[o])
					/* found by tests/sbp/fuzz_graph.c: a second loop=
					 * leaked the first name */
					rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "loop",
							"given twice");
				else
					loop[o] = sb_xstrdup(eq);
			} else if (!strcmp(fl[k], "nb") || !strcmp(fl[k], "ta") ||
				   !strcmp(fl[k], "tb") || !strcmp(fl[k], "axis") ||
				   !strcmp(fl[k], "slices")) {
				if (!(rc = sb_wl_long(&f, err, fl[k], eq, 0, 64, &v))) {
					if (!strcmp(fl[k], "nb"))
						op->nb = (int)v;
					else if (!strcmp(fl[k], "ta"))
						op->ta = v != 0;
					else if (!strcmp(fl[k], "tb"))
						op->tb = v != 0;
					else if (!strcmp(fl[k], "axis"))
						op->axis = (int)v;
					else
						op->heads = (int)v;
				}
			} else {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, fl[k], "unknown key");
			}
		}
	}
	for (o = 0; !rc && o < g->nop; o++)
		if (loop[o]) {
			int u = find_op(g, loop[o], g->nop);
			if (u < 0)
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, lineno[o], "loop", "'%s' is not "
						"an op", loop[o]);
			g->op[o].nin = 1;
			g->op[o].in[0] = u;
			g->op[o].loop = 1;
		}
	if (!rc && !g->nop)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "no ops");
	if (!rc && sb_sbp_graph_finish(g, pl, err)) {
		struct sb_err inner = *err;
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, g->bad_op >= 0 ? lineno[g->bad_op] : 0, NULL,
				"%s", inner.msg);
	}
	for (o = 0; loop && o < g->nop; o++)
		sb_free(loop[o]);
	sb_free(loop);
	sb_free(lineno);
	sb_wl_close(&f);
	if (rc)
		sb_sbp_graph_release(g);
	return rc;
}
