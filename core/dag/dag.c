/*
 * dag.c - the dag-family instance: construction from edge lists, the
 * time/memory/transfer model, and the execution graph with Sends.
 */
#include "dag.h"
#include "heap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Allocation                                                          */
/* ------------------------------------------------------------------ */

void sb_dag_alloc(struct sb_dag *g, int n)
{
	int v;

	memset(g, 0, sizeof *g);
	g->n = n;
	g->ops = SB_NEW(double, n);
	g->out = SB_NEW(double, n);
	g->ram = SB_NEW(double, n);
	g->dc = SB_NEW(int, n);
	g->comp = SB_NEW(int, n);
	g->ext_id = SB_NEW(long, n);
	for (v = 0; v < n; v++) {
		g->dc[v] = SB_DC_ANY;
		g->ext_id[v] = v;
	}
}

void sb_dag_release(struct sb_dag *g)
{
	sb_free(g->ops); sb_free(g->out); sb_free(g->ram); sb_free(g->dc);
	sb_free(g->comp); sb_free(g->succ_off); sb_free(g->succ);
	sb_free(g->succ_size); sb_free(g->pred_off); sb_free(g->pred);
	sb_free(g->pred_edge); sb_free(g->topo); sb_free(g->ext_id);
	memset(g, 0, sizeof *g);
}

void sb_devices_alloc(struct sb_devices *d, int n)
{
	int i;

	memset(d, 0, sizeof *d);
	d->n = n;
	d->speed = SB_NEW(double, n);
	d->mem = SB_NEW(double, n);
	d->type = SB_NEW(int, n);
	d->rate = SB_NEW(double, (size_t)n * n);
	d->ext_id = SB_NEW(long, n);
	for (i = 0; i < n; i++)
		d->ext_id[i] = i;
}

void sb_devices_release(struct sb_devices *d)
{
	sb_free(d->speed); sb_free(d->mem); sb_free(d->type);
	sb_free(d->rate); sb_free(d->ext_id);
	memset(d, 0, sizeof *d);
}

void sb_dag_inst_release(struct sb_dag_inst *in)
{
	sb_dag_release(&in->g);
	sb_devices_release(&in->dev);
	sb_free(in->etc);
	sb_free(in->name);
	sb_free(in->source);
	memset(in, 0, sizeof *in);
}

/* ------------------------------------------------------------------ */
/* Construction                                                        */
/* ------------------------------------------------------------------ */

struct edge_ref {
	int u, v, idx;
};

static int edge_cmp(const void *a, const void *b)
{
	const struct edge_ref *x = a, *y = b;
	if (x->u != y->u)
		return x->u < y->u ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int uf_find(int *parent, int x)
{
	while (parent[x] != x) {
		parent[x] = parent[parent[x]];
		x = parent[x];
	}
	return x;
}

int sb_dag_finish(struct sb_dag *g, int nedges, const int *eu, const int *ev,
		  const double *esize, int npairs, const int *cu, const int *cv,
		  struct sb_err *err)
{
	int n = g->n, i, k, m = 0, done = 0, rc = 0;
	struct edge_ref *es = SB_NEW(struct edge_ref, nedges);
	int *indeg = NULL, *fill = NULL, *parent = NULL, *label = NULL;
	struct sb_heap h;

	sb_heap_init(&h);
	for (i = 0; i < nedges; i++) {
		if (eu[i] < 0 || eu[i] >= n || ev[i] < 0 || ev[i] >= n) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "edge %d: op id out of range", i);
			goto out;
		}
		if (eu[i] == ev[i]) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "self-loop on op %ld",
					g->ext_id[eu[i]]);
			goto out;
		}
		es[i] = (struct edge_ref){ eu[i], ev[i], i };
	}
	qsort(es, (size_t)nedges, sizeof *es, edge_cmp);
	for (i = 0; i < nedges; i++)
		if (m == 0 || es[i].u != es[m - 1].u || es[i].v != es[m - 1].v)
			es[m++] = es[i];
	g->m = m;
	g->succ_off = SB_NEW(int, n + 1);
	g->succ = SB_NEW(int, m);
	g->succ_size = SB_NEW(double, m);
	g->pred_off = SB_NEW(int, n + 1);
	g->pred = SB_NEW(int, m);
	g->pred_edge = SB_NEW(int, m);
	for (i = 0; i < m; i++) {
		g->succ_off[es[i].u + 1]++;
		g->pred_off[es[i].v + 1]++;
	}
	for (i = 0; i < n; i++) {
		g->succ_off[i + 1] += g->succ_off[i];
		g->pred_off[i + 1] += g->pred_off[i];
	}
	/* es is sorted by (u, v), so successors are in increasing id order and
	 * filling preds in edge order keeps them sorted by u. */
	fill = SB_NEW(int, n);
	for (i = 0; i < m; i++) {
		int u = es[i].u, v = es[i].v;
		g->succ[i] = v;
		g->succ_size[i] = esize ? esize[es[i].idx] : g->out[u];
		k = g->pred_off[v] + fill[v]++;
		g->pred[k] = u;
		g->pred_edge[k] = i;
	}

	/* Kahn's algorithm, smallest ready id first. */
	indeg = SB_NEW(int, n);
	g->topo = SB_NEW(int, n);
	for (i = 0; i < n; i++) {
		indeg[i] = g->pred_off[i + 1] - g->pred_off[i];
		if (!indeg[i])
			sb_heap_push(&h, i, i);
	}
	{
		struct sb_heap_item it;
		while (sb_heap_pop(&h, &it)) {
			int u = (int)it.val;
			g->topo[done++] = u;
			for (k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
				if (--indeg[g->succ[k]] == 0)
					sb_heap_push(&h, g->succ[k], g->succ[k]);
		}
	}
	if (done < n) {
		for (i = 0; i < n && !indeg[i]; i++)
			;
		rc = sb_err_set(err, SB_EXIT_INPUT,
				"the graph has a cycle (through op %ld)", g->ext_id[i]);
		goto out;
	}

	/* Colocation components: union-find, numbered by smallest member. */
	parent = SB_NEW(int, n);
	label = SB_NEW(int, n);
	for (i = 0; i < n; i++) {
		parent[i] = i;
		label[i] = -1;
	}
	for (i = 0; i < npairs; i++) {
		int a, b;
		if (cu[i] < 0 || cu[i] >= n || cv[i] < 0 || cv[i] >= n) {
			rc = sb_err_set(err, SB_EXIT_INPUT,
					"colocation pair %d: op id out of range", i);
			goto out;
		}
		a = uf_find(parent, cu[i]);
		b = uf_find(parent, cv[i]);
		if (a != b)
			parent[a > b ? a : b] = a < b ? a : b;
	}
	g->ncomp = 0;
	for (i = 0; i < n; i++) {
		int r = uf_find(parent, i);
		if (label[r] < 0)
			label[r] = g->ncomp++;
		g->comp[i] = label[r];
	}
out:
	sb_heap_release(&h);
	sb_free(es);
	sb_free(indeg);
	sb_free(fill);
	sb_free(parent);
	sb_free(label);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Model                                                               */
/* ------------------------------------------------------------------ */

double sb_dag_time(const struct sb_dag_inst *in, int v, int d)
{
	if (in->etc)
		return in->etc[(size_t)v * in->dev.n + d];
	return in->g.ops[v] / in->dev.speed[d];
}

int sb_dag_allowed(const struct sb_dag_inst *in, int v, int d)
{
	if (in->g.dc[v] != SB_DC_ANY && in->g.dc[v] != in->dev.type[d])
		return 0;
	return isfinite(sb_dag_time(in, v, d));
}

double sb_dag_mem(const struct sb_dag_inst *in, int v)
{
	const struct sb_dag *g = &in->g;
	double m = g->ram[v] + g->out[v];
	int k;
	for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
		m += g->out[g->pred[k]];
	return m;
}

double sb_dag_xfer(const struct sb_dag_inst *in, double size, int d, int e)
{
	double r;
	if (d == e)
		return 0.0;
	r = in->dev.rate[(size_t)d * in->dev.n + e];
	if (isinf(r))
		return 0.0;
	return size / r;
}

void sb_dag_plan_init(struct sb_dag_plan *p, int n)
{
	int v;
	memset(p, 0, sizeof *p);
	p->place = SB_NEW(int, n);
	p->plan_start = SB_NEW(double, n);
	p->plan_finish = SB_NEW(double, n);
	for (v = 0; v < n; v++)
		p->place[v] = -1;
	p->plan_makespan = NAN;
}

void sb_dag_plan_release(struct sb_dag_plan *p)
{
	sb_free(p->place);
	sb_free(p->plan_start);
	sb_free(p->plan_finish);
	memset(p, 0, sizeof *p);
}

/* ------------------------------------------------------------------ */
/* Execution graph                                                     */
/* ------------------------------------------------------------------ */

/*
 * For each producer u, its consumers are visited in id order; the first
 * consumer on a remote device d' creates Send(u, d'). Sends are numbered
 * in (u, first-consumer) order, which makes the numbering deterministic.
 */
void sb_dag_exec_build(struct sb_dag_exec *x, const struct sb_dag_inst *in,
		       const int *place)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, nd = in->dev.n, u, k, t;
	int *send_of = SB_NEW(int, nd); /* Send of the current u per device, or -1 */
	int nsend = 0, nedge = 0, cap;
	int *eu, *ev;
	double *ed;

	memset(x, 0, sizeof *x);
	x->in = in;
	x->place = place;
	x->n = n;
	x->delay_sends = in->send_ops <= 0;
	/* At most one Send per edge, and at most 2 exec edges per graph edge. */
	cap = g->m;
	x->send_op = SB_NEW(int, cap);
	x->send_dst = SB_NEW(int, cap);
	eu = SB_NEW(int, 2 * (size_t)g->m);
	ev = SB_NEW(int, 2 * (size_t)g->m);
	ed = SB_NEW(double, 2 * (size_t)g->m);
	for (k = 0; k < nd; k++)
		send_of[k] = -1;
	{
		double *send_size = SB_NEW(double, cap);
		for (u = 0; u < n; u++) {
			int pu = place[u];
			for (k = g->succ_off[u]; k < g->succ_off[u + 1]; k++) {
				int v = g->succ[k], pv = place[v];
				if (pv == pu) {
					eu[nedge] = u; ev[nedge] = v; ed[nedge++] = 0.0;
					continue;
				}
				if (send_of[pv] < 0) {
					send_of[pv] = nsend;
					x->send_op[nsend] = u;
					x->send_dst[nsend] = pv;
					send_size[nsend] = 0;
					eu[nedge] = u; ev[nedge] = n + nsend; ed[nedge++] = 0.0;
					nsend++;
				}
				t = send_of[pv];
				if (g->succ_size[k] > send_size[t])
					send_size[t] = g->succ_size[k];
				eu[nedge] = n + t; ev[nedge] = v;
				ed[nedge++] = sb_dag_xfer(in, g->succ_size[k], pu, pv);
			}
			for (k = g->succ_off[u]; k < g->succ_off[u + 1]; k++)
				send_of[place[g->succ[k]]] = -1;
		}
		for (t = 0; t < nsend; t++)
			x->comm_volume += send_size[t];
		sb_free(send_size);
	}
	x->nsend = nsend;
	x->ntask = n + nsend;
	x->dev = SB_NEW(int, x->ntask);
	x->dur = SB_NEW(double, x->ntask);
	x->indeg = SB_NEW(int, x->ntask);
	for (u = 0; u < n; u++) {
		x->dev[u] = place[u];
		x->dur[u] = sb_dag_time(in, u, place[u]);
	}
	for (t = 0; t < nsend; t++) {
		int d = place[x->send_op[t]];
		x->dev[n + t] = d;
		x->dur[n + t] = x->delay_sends ? 0.0
			: (in->etc ? in->send_ops / (in->dev.speed[d] > 0 ? in->dev.speed[d] : 1)
				   : in->send_ops / in->dev.speed[d]);
	}
	/* CSR of exec edges, in insertion order per source. */
	x->x_off = SB_NEW(int, x->ntask + 1);
	x->x_to = SB_NEW(int, nedge);
	x->x_delay = SB_NEW(double, nedge);
	for (k = 0; k < nedge; k++) {
		x->x_off[eu[k] + 1]++;
		x->indeg[ev[k]]++;
	}
	for (t = 0; t < x->ntask; t++)
		x->x_off[t + 1] += x->x_off[t];
	{
		int *pos = SB_NEW(int, x->ntask);
		for (k = 0; k < nedge; k++) {
			int at = x->x_off[eu[k]] + pos[eu[k]]++;
			x->x_to[at] = ev[k];
			x->x_delay[at] = ed[k];
		}
		sb_free(pos);
	}
	sb_free(eu);
	sb_free(ev);
	sb_free(ed);
	sb_free(send_of);
}

void sb_dag_exec_release(struct sb_dag_exec *x)
{
	sb_free(x->dev); sb_free(x->dur); sb_free(x->send_op);
	sb_free(x->send_dst); sb_free(x->x_off); sb_free(x->x_to);
	sb_free(x->x_delay); sb_free(x->indeg);
	memset(x, 0, sizeof *x);
}
