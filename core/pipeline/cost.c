/*
 * cost.c - plans and their costs (spec pipeplan.md §2, our model [O]):
 *
 *   beta  = batch / (copies M) samples per microbatch
 *   F_s   = beta sum_{l in s} fwd_l / (r_s speed)        (split-concat)
 *   B_s   = beta sum_{l in s} bwd_l / (r_s speed)  (+ F_s with re-computation)
 *   C_s   = alpha + beta act_{last of s} / BW(D_s, D_{s+1}), BW = the
 *           smallest bandwidth between a GPU of one set and one of the other
 *   AR_s  = 2 (n-1)/n W_s / (smallest bandwidth among the n GPUs of stage s
 *           in every copy), 0 for n = 1 (ring all-reduce of the gradients);
 *           with overlap, what is left of it after the last backward
 *           when each layer's gradients are reduced as soon as they exist
 *   memory per GPU of stage s: kappa W_s + inflight x beta sum stash_l / r_s
 *           (re-computation stashes only the stage's input activation,
 *           plus one microbatch's activations while its backward runs)
 */
#include "pipeline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sb_pipeline_plan_init(struct sb_pipeline_plan *p, int S, int copies)
{
	memset(p, 0, sizeof *p);
	SB_ASSERT(S >= 1 && copies >= 1);
	p->S = S;
	p->copies = copies;
	p->M = 1;
	p->st = SB_NEW(struct sb_pipeline_stage, S * copies);
}

void sb_pipeline_plan_release(struct sb_pipeline_plan *p)
{
	if (!p)
		return;
	sb_free(p->st);
	if (p->model) {
		sb_pmodel_release(p->model);
		sb_free(p->model);
	}
	memset(p, 0, sizeof *p);
}

const struct sb_pmodel *sb_pipeline_plan_model(const struct sb_pipeline_plan *p,
					   const struct sb_pmodel *m)
{
	return p->model ? p->model : m;
}

int sb_pipeline_plan_validate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
			  const struct sb_topo *t, struct sb_err *err)
{
	int c, s, k, nused = 0;
	unsigned char *used;
	const char *f = NULL;

	if (p->S < 1 || p->copies < 1 || p->M < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): S, copies and M must be >= 1",
				  p->planner);
	if (!(p->batch >= (double)p->copies * p->M))
		return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): batch %g < copies x M = %d",
				  p->planner, p->batch, p->copies * p->M);
	m = sb_pipeline_plan_model(p, m);
	used = SB_NEW(unsigned char, t->n);
	for (c = 0; c < p->copies && !f; c++) {
		int next = 0;
		for (s = 0; s < p->S && !f; s++) {
			const struct sb_pipeline_stage *st = &p->st[c * p->S + s];
			if (st->first != next || st->last < st->first || st->last >= m->n)
				f = "layers";
			else if (st->r < 1 || st->r > 64)
				f = "r";
			else if (p->batch / ((double)p->copies * p->M) < st->r)
				f = "r (fewer samples per microbatch than replicas)";
			for (k = 0; k < st->r && !f; k++) {
				int g = st->gpu[k];
				if (g < 0 || g >= t->n || used[g])
					f = "gpu (out of range or used twice)";
				else
					used[g] = 1, nused++;
			}
			next = st->last + 1;
			if (f) {
				sb_free(used);
				return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): copy %d, stage %d: "
						  "field '%s' invalid", p->planner, c, s, f);
			}
		}
		if (next != m->n)
			f = "layers (not all covered)";
	}
	sb_free(used);
	if (f)
		return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): field '%s' invalid", p->planner, f);
	return 0;
}

double sb_pipeline_min_bw(const struct sb_topo *t, const int *a, int na, const int *b, int nb)
{
	double bw = INFINITY;
	int i, j;
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			if (a[i] != b[j])
				bw = sb_min(bw, t->bw[a[i] * t->n + b[j]]);
	return bw;
}

/*
 * The all-reduce of a stage with overlap: the last backward frees the
 * gradients of layer l once it has gone back through layers last..l; the
 * ring all-reduces them layer by layer in that order, each chunk starting
 * when both its gradients and the previous chunk are done. Relative to the
 * start of that backward the chain is fixed, so what remains after the
 * backward ends is a constant of the stage.
 */
static double overlap_tail(const struct sb_pipeline_stage *st, const struct sb_pmodel *m,
			   double beta, double speed, double bw, int n, double lead, double B)
{
	double t = lead, e = 0;
	int l;
	for (l = st->last; l >= st->first; l--) {
		t += beta * m->layer[l].bwd / (st->r * speed);
		e = sb_max(e, t) + 2.0 * (n - 1) / n * m->layer[l].params / bw;
	}
	return sb_max(0, e - B);
}

void sb_pipeline_costs_build(struct sb_pipeline_costs *c, const struct sb_pipeline_plan *p,
			 const struct sb_pmodel *m, const struct sb_topo *t)
{
	int S = p->S, nc = p->copies, k, s, l;
	double speed = t->speed > 0 ? t->speed : 1;
	double kappa = p->kappa > 0 ? p->kappa : 2;

	m = sb_pipeline_plan_model(p, m);
	memset(c, 0, sizeof *c);
	c->S = S;
	c->copies = nc;
	c->beta = p->batch / ((double)nc * p->M);
	c->gpu_mem = t->mem;
	c->F = SB_NEW(double, S * nc);
	c->B = SB_NEW(double, S * nc);
	c->C = SB_NEW(double, S * nc);
	c->AR = SB_NEW(double, S);
	c->mem_w = SB_NEW(double, S);
	c->mem_a = SB_NEW(double, S);
	for (k = 0; k < nc; k++)
		for (s = 0; s < S; s++) {
			const struct sb_pipeline_stage *st = &p->st[k * S + s];
			double f = 0, b = 0;
			for (l = st->first; l <= st->last; l++) {
				f += m->layer[l].fwd;
				b += m->layer[l].bwd;
			}
			c->F[k * S + s] = c->beta * f / (st->r * speed);
			c->B[k * S + s] = c->beta * b / (st->r * speed) +
					  (p->recompute ? c->F[k * S + s] : 0);
			if (s + 1 < S) {
				const struct sb_pipeline_stage *nx = &p->st[k * S + s + 1];
				c->C[k * S + s] = t->latency + c->beta * m->layer[st->last].act /
					sb_pipeline_min_bw(t, st->gpu, st->r, nx->gpu, nx->r);
			}
		}
	for (s = 0; s < S; s++) {
		const struct sb_pipeline_stage *st = &p->st[s];
		int n = 0, k2, *all;
		double w = 0, a = 0, bw;
		for (k2 = 0; k2 < nc; k2++)
			n += p->st[k2 * S + s].r;
		all = SB_NEW(int, n);
		for (l = st->first; l <= st->last; l++) {
			w += m->layer[l].params;
			a += m->layer[l].stash;
		}
		sb_pipeline_stage_gpus(p, s, all);
		bw = sb_pipeline_min_bw(t, all, n, all, n);
		c->AR[s] = n > 1 ? 2.0 * (n - 1) / n * w / bw : 0;
		if (n > 1 && p->overlap)
			c->AR[s] = overlap_tail(st, m, c->beta, speed, bw, n,
						p->recompute ? c->F[s] : 0, c->B[s]);
		c->mem_w[s] = kappa * w;
		if (p->recompute) {
			/* stash only the stage's input; the backward re-creates
			 * one microbatch's activations at a time */
			c->mem_w[s] += c->beta * a / st->r;
			a = st->first > 0 ? m->layer[st->first - 1].act : 0;
		}
		c->mem_a[s] = c->beta * a / st->r;
		sb_free(all);
	}
}

void sb_pipeline_costs_release(struct sb_pipeline_costs *c)
{
	if (!c)
		return;
	sb_free(c->F);
	sb_free(c->B);
	sb_free(c->C);
	sb_free(c->AR);
	sb_free(c->mem_w);
	sb_free(c->mem_a);
	memset(c, 0, sizeof *c);
}
