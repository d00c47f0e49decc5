/*
 * icp.c - ICP, the iterative critical-path partitioner
 * (DividePathPartitioning).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 3.3.
 *
 * The residual graph starts as the whole graph. While it has an op left --
 * one still unassigned or with a remaining edge -- take its heaviest path
 * (by ops) along remaining edges and remove those edges. Cut the path
 * wherever an assigned op appears (placing one component assigns all its
 * members) or the device constraint of the op's component changes; place
 * each piece whole, with every component it touches, on the feasible device
 * with the least load ops_assigned/s. If no device has the memory for a
 * piece, halve it by memory demand and place the halves in turn; a piece of
 * one component that fits nowhere is an error.
 *
 * Ties: a heavier predecessor of equal weight goes to the lower id; among
 * equally heavy path ends the later one in topological order wins (it
 * always extends a path over a remaining edge, so every round progresses);
 * the least-loaded device goes to the lower id. Each round costs
 * O(V + remaining E), so the whole is O(#paths (V + E)): slow on large
 * graphs, as the spec says. Rounds after the last op is placed would only
 * remove edges, so the loop stops there (same placement, far fewer
 * rounds on dense graphs); once no edge is left, the open ops are
 * one-op paths, placed heaviest first in one sweep.
 *
 * Provenance: reconstructed from the authors' Java simulator; the default
 * compares loads by real division. compat_java=1 reproduces the Java
 * integer load floor(ops_assigned/s).
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

#include <math.h>
#include <stdlib.h>

static const struct sb_param params[] = {
	{ "compat_java", 0, 0, 1, 1,
	  "reproduce the authors' code's quirk: device load compared as the "
	  "integer floor(ops_assigned/speed)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct icp {
	struct sb_tfpart p;
	int compat;
	/* residual graph: remaining in-edges of each op as (pred, edge index)
	 * in a per-op slice of the CSR pred arrays, rem_in[v] long */
	int *rpred, *redge, *rem_in, *rem_out;
	long nrem;
	int *alive, nalive;   /* ops with edges or unassigned, topological order */
	double *best;         /* heaviest path ending at v */
	int *from, *from_edge;
	int *path;
	int *stamp, stampv, *comps; /* distinct components of a piece */
	int nopen;            /* ops still unassigned */
};

/* ------------------------------------------------------------------ */
/* Placing a piece of a path                                           */
/* ------------------------------------------------------------------ */

static double load_key(const struct icp *ic, int d)
{
	double l = ic->p.load_ops[d] / ic->p.in->dev.speed[d];
	return ic->compat ? floor(l) : l;
}

/* Place the unassigned ops of ops[0..len) together (ops[] is scratch). */
static int place_piece(struct icp *ic, int *ops, int len, struct sb_err *err)
{
	struct sb_tfpart *p = &ic->p;
	const struct sb_dag_inst *in = p->in;
	int i, j, d, m = 0, nc = 0, best = -1, cut = 0, rc;
	double demand = 0, acc = 0, bk = 0;

	for (i = 0; i < len; i++)
		if (p->place[ops[i]] < 0)
			ops[m++] = ops[i];
	if (!m)
		return 0;
	ic->stampv++;
	for (i = 0; i < m; i++) {
		int k = in->g.comp[ops[i]];
		if (ic->stamp[k] != ic->stampv) {
			ic->stamp[k] = ic->stampv;
			ic->comps[nc++] = k;
			demand += p->c.mem[k];
		}
	}
	for (d = 0; d < in->dev.n; d++) {
		if (demand > p->free_mem[d])
			continue;
		for (j = 0; j < nc && sb_dag_comp_allowed(in, &p->c, ic->comps[j], d); j++)
			;
		if (j < nc)
			continue;
		if (best < 0 || load_key(ic, d) < bk) {
			best = d;
			bk = load_key(ic, d);
		}
	}
	if (best >= 0) {
		for (j = 0; j < nc; j++) {
			int k = ic->comps[j];
			sb_tfpart_assign(p, k, best);
			ic->nopen -= p->c.off[k + 1] - p->c.off[k];
		}
		return 0;
	}
	if (nc == 1)
		return sb_tfpart_nofit(p, ops[0], err);

	/* Halve by memory: the first half ends where half the demand is met. */
	ic->stampv++;
	for (i = 0; i < m && !cut; i++) {
		int k = in->g.comp[ops[i]];
		if (ic->stamp[k] != ic->stampv) {
			ic->stamp[k] = ic->stampv;
			acc += p->c.mem[k];
		}
		if (acc >= demand / 2)
			cut = i + 1;
	}
	if (!cut || cut >= m)
		cut = m - 1;
	if ((rc = place_piece(ic, ops, cut, err)))
		return rc;
	return place_piece(ic, ops + cut, m - cut, err);
}

/* Cut path[0..len) at assigned ops and constraint changes; place pieces. */
static int place_path(struct icp *ic, int len, struct sb_err *err)
{
	const struct sb_tfpart *p = &ic->p;
	int i, start = 0, rc;

	for (i = 0; i <= len; i++) {
		int v = i < len ? ic->path[i] : -1;
		/* A piece ends before v if v is assigned (by now: earlier pieces
		 * may have placed its component) or v's constraint differs. */
		int brk = v < 0 || p->place[v] >= 0 ||
			(i > start && p->c.dc[p->in->g.comp[v]] !=
			 p->c.dc[p->in->g.comp[ic->path[start]]]);
		if (!brk)
			continue;
		if (i > start && (rc = place_piece(ic, ic->path + start, i - start, err)))
			return rc;
		start = (v >= 0 && p->place[v] >= 0) ? i + 1 : i;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Residual graph                                                      */
/* ------------------------------------------------------------------ */

static void remove_edge(struct icp *ic, int u, int v, int e)
{
	const struct sb_dag *g = &ic->p.in->g;
	int base = g->pred_off[v], i;

	for (i = 0; i < ic->rem_in[v]; i++)
		if (ic->redge[base + i] == e)
			break;
	SB_ASSERT(i < ic->rem_in[v]);
	ic->rem_in[v]--;
	ic->rpred[base + i] = ic->rpred[base + ic->rem_in[v]];
	ic->redge[base + i] = ic->redge[base + ic->rem_in[v]];
	ic->rem_out[u]--;
	ic->nrem--;
}

/* Heaviest path of the residual graph into ic->path; returns its length. */
static int heaviest_path(struct icp *ic)
{
	const struct sb_dag *g = &ic->p.in->g;
	int i, j, m = 0, end = -1, len = 0;

	for (i = 0; i < ic->nalive; i++) {
		int v = ic->alive[i], base = g->pred_off[v], f = -1, fe = -1;
		double b = 0;
		if (ic->p.place[v] >= 0 && !ic->rem_in[v] && !ic->rem_out[v])
			continue;
		ic->alive[m++] = v;
		for (j = 0; j < ic->rem_in[v]; j++) {
			int u = ic->rpred[base + j];
			if (f < 0 || ic->best[u] > b || (ic->best[u] == b && u < f)) {
				f = u;
				fe = ic->redge[base + j];
				b = ic->best[u];
			}
		}
		ic->best[v] = g->ops[v] + b;
		ic->from[v] = f;
		ic->from_edge[v] = fe;
		if (end < 0 || ic->best[v] >= ic->best[end])
			end = v;
	}
	ic->nalive = m;
	for (; end >= 0; end = ic->from[end])
		ic->path[len++] = end;
	for (i = 0; i < len / 2; i++) {
		int t = ic->path[i];
		ic->path[i] = ic->path[len - 1 - i];
		ic->path[len - 1 - i] = t;
	}
	return len;
}

struct isolated {
	double ops;
	int pos, v;
};

static int isolated_cmp(const void *a, const void *b)
{
	const struct isolated *x = a, *y = b;
	if (x->ops != y->ops)
		return x->ops > y->ops ? -1 : 1;
	return (x->pos < y->pos) - (x->pos > y->pos);
}

static int place_isolated(struct icp *ic, struct sb_err *err)
{
	const struct sb_dag *g = &ic->p.in->g;
	struct isolated *it = SB_NEW(struct isolated, ic->nalive);
	int i, m = 0, rc = 0;

	for (i = 0; i < ic->nalive; i++)
		if (ic->p.place[ic->alive[i]] < 0) {
			int v = ic->alive[i];
			it[m++] = (struct isolated){ g->ops[v], i, v };
		}
	qsort(it, (size_t)m, sizeof *it, isolated_cmp);
	for (i = 0; i < m && !rc; i++) {
		ic->path[0] = it[i].v;
		rc = place_path(ic, 1, err);
	}
	sb_free(it);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Hook                                                                */
/* ------------------------------------------------------------------ */

static int icp_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			 struct sb_rng *rng, struct sb_dag_plan *plan,
			 struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, v, i, rc = 0;
	struct icp ic = { 0 };

	sb_tfpart_init(&ic.p, in, plan->place, "icp");
	ic.compat = sb_opts_get(o, "compat_java") != 0;
	ic.rpred = SB_NEW(int, g->m);
	ic.redge = SB_NEW(int, g->m);
	ic.rem_in = SB_NEW(int, n);
	ic.rem_out = SB_NEW(int, n);
	ic.alive = SB_NEW(int, n);
	ic.best = SB_NEW(double, n);
	ic.from = SB_NEW(int, n);
	ic.from_edge = SB_NEW(int, n);
	ic.path = SB_NEW(int, n);
	ic.stamp = SB_NEW(int, ic.p.c.n);
	ic.comps = SB_NEW(int, ic.p.c.n);
	for (v = 0; v < n; v++) {
		ic.rem_in[v] = g->pred_off[v + 1] - g->pred_off[v];
		ic.rem_out[v] = g->succ_off[v + 1] - g->succ_off[v];
		for (i = g->pred_off[v]; i < g->pred_off[v + 1]; i++) {
			ic.rpred[i] = g->pred[i];
			ic.redge[i] = g->pred_edge[i];
		}
		ic.alive[v] = g->topo[v];
	}
	ic.nalive = n;
	ic.nrem = g->m;
	ic.nopen = n;

	/* Rounds after the last op is placed would only remove edges: the
	 * placement is final once nopen reaches 0. */
	while (ic.nopen > 0 && ic.nrem > 0) {
		int len = heaviest_path(&ic);
		if (!len)
			break;
		for (i = 0; i + 1 < len; i++)
			remove_edge(&ic, ic.path[i], ic.path[i + 1],
				    ic.from_edge[ic.path[i + 1]]);
		if ((rc = place_path(&ic, len, err)))
			goto out;
	}
	/* Without edges the heaviest path is the heaviest open op (ties to the
	 * later one in topological order): place them in that order at once
	 * instead of one round each. */
	rc = place_isolated(&ic, err);
out:
	sb_tfpart_release(&ic.p);
	sb_free(ic.rpred); sb_free(ic.redge); sb_free(ic.rem_in);
	sb_free(ic.rem_out); sb_free(ic.alive); sb_free(ic.best);
	sb_free(ic.from); sb_free(ic.from_edge); sb_free(ic.path);
	sb_free(ic.stamp); sb_free(ic.comps);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_icp = {
	.name = "icp",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "iterative critical path: heaviest residual path, cut at constraints, to the least-loaded device",
	.provenance = "reconstructed (intended behaviour of DividePathPartitioning)",
	.params = params,
	.partition = icp_partition,
};
