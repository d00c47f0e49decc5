/*
 * util.c - components, feasibility and longest paths for dag policies.
 */
#include "util.h"

#include <math.h>
#include <string.h>

void sb_dag_comps_build(struct sb_dag_comps *c, const struct sb_dag_inst *in)
{
	const struct sb_dag *g = &in->g;
	int v, k, *fill;

	memset(c, 0, sizeof *c);
	c->n = g->ncomp;
	c->off = SB_NEW(int, c->n + 1);
	c->member = SB_NEW(int, g->n);
	c->ops = SB_NEW(double, c->n);
	c->mem = SB_NEW(double, c->n);
	c->dc = SB_NEW(int, c->n);
	for (k = 0; k < c->n; k++)
		c->dc[k] = SB_DC_ANY;
	for (v = 0; v < g->n; v++)
		c->off[g->comp[v] + 1]++;
	for (k = 0; k < c->n; k++)
		c->off[k + 1] += c->off[k];
	fill = SB_NEW(int, c->n);
	for (v = 0; v < g->n; v++) {
		k = g->comp[v];
		c->member[c->off[k] + fill[k]++] = v;
		c->ops[k] += g->ops[v];
		c->mem[k] += sb_dag_mem(in, v);
		if (g->dc[v] != SB_DC_ANY) {
			if (c->dc[k] == SB_DC_ANY)
				c->dc[k] = g->dc[v];
			else if (c->dc[k] != g->dc[v])
				c->dc[k] = SB_DC_CONFLICT;
		}
	}
	sb_free(fill);
}

void sb_dag_comps_release(struct sb_dag_comps *c)
{
	sb_free(c->off); sb_free(c->member); sb_free(c->ops);
	sb_free(c->mem); sb_free(c->dc);
	memset(c, 0, sizeof *c);
}

int sb_dag_comp_allowed(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
			int k, int d)
{
	int i;
	if (c->dc[k] == SB_DC_CONFLICT)
		return 0;
	if (c->dc[k] != SB_DC_ANY && c->dc[k] != in->dev.type[d])
		return 0;
	if (!in->etc)
		return 1;
	for (i = c->off[k]; i < c->off[k + 1]; i++)
		if (!isfinite(sb_dag_time(in, c->member[i], d)))
			return 0;
	return 1;
}

int sb_dag_comp_fits(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		     int k, int d, const double *free_mem)
{
	return sb_dag_comp_allowed(in, c, k, d) && c->mem[k] <= free_mem[d];
}

void sb_dag_comp_place(const struct sb_dag_comps *c, int k, int d, int *place,
		       double *free_mem)
{
	int i;
	for (i = c->off[k]; i < c->off[k + 1]; i++)
		place[c->member[i]] = d;
	if (free_mem)
		free_mem[d] -= c->mem[k];
}

void sb_dag_free_mem_init(const struct sb_dag_inst *in, double *free_mem)
{
	memcpy(free_mem, in->dev.mem, sizeof(double) * (size_t)in->dev.n);
}

int sb_dag_fastest_fit(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		       int k, const double *free_mem)
{
	int d, best = -1;
	for (d = 0; d < in->dev.n; d++)
		if (sb_dag_comp_fits(in, c, k, d, free_mem) &&
		    (best < 0 || in->dev.speed[d] > in->dev.speed[best]))
			best = d;
	return best;
}

double sb_dag_through(const struct sb_dag_inst *in, double *pre, double *post)
{
	const struct sb_dag *g = &in->g;
	double *a = pre ? pre : SB_NEW(double, g->n);
	double *b = post ? post : SB_NEW(double, g->n);
	double best = 0;
	int i, k;

	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		double m = 0;
		for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
			int u = g->pred[k];
			if (a[u] + g->ops[u] > m)
				m = a[u] + g->ops[u];
		}
		a[v] = m;
	}
	for (i = g->n - 1; i >= 0; i--) {
		int v = g->topo[i];
		double m = 0;
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
			if (b[g->succ[k]] > m)
				m = b[g->succ[k]];
		b[v] = g->ops[v] + m;
		if (a[v] + b[v] > best)
			best = a[v] + b[v];
	}
	if (!pre)
		sb_free(a);
	if (!post)
		sb_free(b);
	return best;
}

double sb_dag_mean_speed(const struct sb_dag_inst *in)
{
	double s = 0;
	int d;
	for (d = 0; d < in->dev.n; d++)
		s += in->dev.speed[d];
	return s / in->dev.n;
}

double sb_dag_mean_rate(const struct sb_dag_inst *in)
{
	double s = 0;
	long cnt = 0;
	int d, e, nd = in->dev.n;
	for (d = 0; d < nd; d++)
		for (e = 0; e < nd; e++) {
			double r = in->dev.rate[(size_t)d * nd + e];
			if (d == e || isinf(r))
				continue;
			s += r;
			cnt++;
		}
	return cnt ? s / (double)cnt : INFINITY;
}

double sb_dag_mean_time(const struct sb_dag_inst *in, int v)
{
	double s = 0;
	int d, cnt = 0;
	for (d = 0; d < in->dev.n; d++)
		if (sb_dag_allowed(in, v, d)) {
			s += sb_dag_time(in, v, d);
			cnt++;
		}
	return cnt ? s / cnt : INFINITY;
}
