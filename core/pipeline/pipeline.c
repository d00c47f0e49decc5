/*
 * pipeline.c - owners of the pipeline family's structs (pipeline.h) and
 * the helpers every planner shares: prefix sums over layers, the memory of
 * a stage, a plan as text, the min-max partition. Evaluation (simulate,
 * then check) is in run.c, above the simulator and the checker.
 */
#include "pipeline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sb_pmodel_release(struct sb_pmodel *m)
{
	if (!m)
		return;
	sb_free(m->layer);
	if (m->graph) {
		sb_pgraph_release(m->graph);
		sb_free(m->graph);
	}
	memset(m, 0, sizeof *m);
}

void sb_topo_release(struct sb_topo *t)
{
	if (!t)
		return;
	sb_free(t->bw);
	sb_free(t->server);
	memset(t, 0, sizeof *t);
}

int sb_pipeline_stage_gpus(const struct sb_pipeline_plan *p, int s, int *out)
{
	int c, k, n = 0;
	for (c = 0; c < p->copies; c++)
		for (k = 0; k < p->st[c * p->S + s].r; k++)
			out[n++] = p->st[c * p->S + s].gpu[k];
	return n;
}

void sb_pipeline_prefix_init(struct sb_pipeline_prefix *x, const struct sb_pmodel *m)
{
	int l;
	x->n = m->n;
	x->fwd = SB_NEW(double, m->n + 1);
	x->bwd = SB_NEW(double, m->n + 1);
	x->params = SB_NEW(double, m->n + 1);
	x->stash = SB_NEW(double, m->n + 1);
	for (l = 0; l < m->n; l++) {
		x->fwd[l + 1] = x->fwd[l] + m->layer[l].fwd;
		x->bwd[l + 1] = x->bwd[l] + m->layer[l].bwd;
		x->params[l + 1] = x->params[l] + m->layer[l].params;
		x->stash[l + 1] = x->stash[l] + m->layer[l].stash;
	}
}

void sb_pipeline_prefix_release(struct sb_pipeline_prefix *x)
{
	if (!x)
		return;
	sb_free(x->fwd);
	sb_free(x->bwd);
	sb_free(x->params);
	sb_free(x->stash);
	memset(x, 0, sizeof *x);
}

double sb_pipeline_stage_mem(const struct sb_pmodel *m, const struct sb_pipeline_prefix *x,
			 int first, int last, int r, double beta, int inflight, double kappa,
			 int recompute)
{
	double w = x->params[last + 1] - x->params[first];
	double a = x->stash[last + 1] - x->stash[first];
	double fixed = (kappa > 0 ? kappa : 2) * w;
	if (recompute) {
		fixed += beta * a / r;
		a = first > 0 ? m->layer[first - 1].act : 0;
	}
	return fixed + inflight * beta * a / r;
}

int sb_pipeline_sched_cap(const struct sb_pipeline_schedule *sc, const struct sb_pipeline_plan *p,
		      int stage, const struct sb_opts *o)
{
	struct sb_pipeline_view v;
	int cap;
	if (!sc || !sc->cap)
		return p->M;
	memset(&v, 0, sizeof v);
	v.plan = p;
	v.stage = stage;
	cap = sc->cap(&v, o);
	return cap <= 0 || cap > p->M ? p->M : cap;
}

void sb_pipeline_plan_format(const struct sb_pipeline_plan *p, char *buf, size_t len)
{
	size_t used;
	int s, k;
	used = (size_t)snprintf(buf, len, "S=%d copies=%d M=%d%s%s", p->S, p->copies, p->M,
				p->recompute ? " recompute" : "", p->overlap ? " overlap" : "");
	for (s = 0; s < p->S && used < len; s++) {
		const struct sb_pipeline_stage *st = &p->st[s];
		used += (size_t)snprintf(buf + used, len - used, " | %d-%d x%d [", st->first,
					 st->last, st->r);
		for (k = 0; k < st->r && used < len; k++)
			used += (size_t)snprintf(buf + used, len - used, k ? ",%d" : "%d",
						 st->gpu[k]);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "]");
	}
}

double sb_pipeline_minmax(int L, int S,
		       double (*cost)(void *ctx, int first, int last, int stage),
		       void *ctx, int *last)
{
	/* best[k][j]: layers 0..j-1 in k stages; cut[k][j]: first layer of
	 * the k-th stage in that optimum */
	double *best = SB_NEW(double, (size_t)(S + 1) * (L + 1)), opt;
	int *cut = SB_NEW(int, (size_t)(S + 1) * (L + 1));
	int k, j, i;

	SB_ASSERT(S >= 1 && S <= L);
	for (k = 0; k <= S; k++)
		for (j = 0; j <= L; j++)
			best[k * (L + 1) + j] = INFINITY;
	best[0] = 0;
	for (k = 1; k <= S; k++)
		/* k stages need k layers, and S - k layers must remain */
		for (j = k; j <= L - (S - k); j++) {
			double b = INFINITY;
			int arg = -1;
			for (i = k - 1; i < j; i++) {
				double prev = best[(k - 1) * (L + 1) + i], c, v;
				if (prev == INFINITY)
					continue;
				c = cost(ctx, i, j - 1, k - 1);
				if (c == INFINITY)
					continue;
				v = sb_max(prev, c);
				if (v < b) {
					b = v;
					arg = i;
				}
			}
			best[k * (L + 1) + j] = b;
			cut[k * (L + 1) + j] = arg;
		}
	opt = best[S * (L + 1) + L];
	if (opt < INFINITY)
		for (k = S, j = L; k >= 1; k--) {
			last[k - 1] = j - 1;
			j = cut[k * (L + 1) + j];
		}
	sb_free(best);
	sb_free(cut);
	return opt;
}
