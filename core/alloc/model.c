/*
 * model.c - the alloc family's step-time, progress and utility model (see
 * alloc.h; reconstructed [R] from gadget.md §2 and smd.md §2), and the
 * per-slot plan that policies fill.
 */
#include "alloc.h"

#include <math.h>
#include <string.h>

void sb_alloc_inst_release(struct sb_alloc_inst *in)
{
	sb_free(in->cap);
	sb_free(in->job);
	sb_free(in->pool);
	memset(in, 0, sizeof *in);
}

static const char *const util_names[] = { "exc", "ene", "fair", "jct" };

const char *sb_alloc_util_name(int util)
{
	return util >= 0 && util < 4 ? util_names[util] : "?";
}

int sb_alloc_util_parse(const char *s)
{
	int k;
	for (k = 0; k < 4; k++)
		if (!strcmp(s, util_names[k]))
			return k;
	return -1;
}

double sb_alloc_tau(const struct sb_alloc_job *jb, int w, int p, int local, int layered)
{
	double bw = local ? jb->bw_in : jb->bw_out, c = jb->compute, f, g, e, d;
	int l, L = jb->nlayer;

	if (w <= 0)
		return INFINITY;
	if (jb->mode == SB_ALLOC_RAR)
		return c + (w > 1 ? 2.0 * (w - 1) / w * jb->model_mb / bw : 0);
	if (p <= 0)
		return INFINITY;
	if (layered < 0)
		layered = jb->layered;
	/* forward c/3, backward 2c/3 split evenly over the layers (smd.md §5
	 * when no FLOP counts are known) */
	f = c / 3;
	g = 2 * c / 3 / L;
	e = d = f;
	for (l = L - 1; l >= 0; l--) {
		double s = jb->layer_mb[l];
		double q = sb_max(2 * s / bw, 2 * s * w / (p * bw));
		e += g;
		d = layered ? sb_max(d, e) + q : d + g + q;
	}
	return d;
}

double sb_alloc_rate(const struct sb_alloc_inst *in, int j, int w, int p, int local)
{
	if (w <= 0)
		return 0;
	return in->slot_s * w / sb_alloc_tau(&in->job[j], w, p, local, -1);
}

double sb_alloc_job_utility(const struct sb_alloc_inst *in, int j, double progress,
			    double gpu_slots)
{
	const struct sb_alloc_job *jb = &in->job[j];
	double x = sb_min(progress, jb->target) / jb->target;

	switch (in->util) {
	case SB_ALLOC_EXC:
		return jb->weight * x;
	case SB_ALLOC_ENE:
		return jb->weight * x - in->eta * gpu_slots;
	case SB_ALLOC_FAIR:
		return log(in->eps + x);
	default:
		return 0;
	}
}

/* ------------------------------------------------------------------ */
/* Plan                                                                */
/* ------------------------------------------------------------------ */

int sb_alloc_plan_fits(const struct sb_alloc_plan *pl, int j, int s, int dw, int dp)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	int r;

	if (dw < 0 || dp < 0 || s < 0 || s >= pl->in->nserver)
		return 0;
	if (pl->w[j] + dw > jb->max_workers || pl->p[j] + dp > jb->max_ps)
		return 0;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (dw * jb->wdem[r] + dp * jb->pdem[r] > pl->free[s][r] + 1e-9)
			return 0;
	return 1;
}

void sb_alloc_plan_add(struct sb_alloc_plan *pl, int j, int s, int dw, int dp)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	int k, r;

	if (!sb_alloc_plan_fits(pl, j, s, dw, dp))
		SB_BUG("plan: job %d does not fit on server %d (+%d workers, +%d PSs)", j, s, dw,
		       dp);
	for (k = pl->head[j]; k >= 0; k = pl->next[k])
		if (pl->g[k].server == s)
			break;
	if (k < 0) {
		if (pl->n == pl->cap) {
			pl->cap = pl->cap ? 2 * pl->cap : 64;
			pl->g = sb_xrealloc(pl->g, (size_t)pl->cap * sizeof *pl->g);
			pl->next = sb_xrealloc(pl->next, (size_t)pl->cap * sizeof *pl->next);
		}
		k = pl->n++;
		pl->g[k] = (struct sb_alloc_grant){ j, s, 0, 0 };
		pl->next[k] = pl->head[j];
		pl->head[j] = k;
	}
	pl->g[k].workers += dw;
	pl->g[k].ps += dp;
	pl->w[j] += dw;
	pl->p[j] += dp;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		pl->free[s][r] -= dw * jb->wdem[r] + dp * jb->pdem[r];
}

void sb_alloc_plan_take(struct sb_alloc_plan *pl, int j, int s, int dw, int dp)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	int k, r;
	for (k = pl->head[j]; k >= 0; k = pl->next[k])
		if (pl->g[k].server == s)
			break;
	if (k < 0 || pl->g[k].workers < dw || pl->g[k].ps < dp)
		SB_BUG("plan: job %d holds less than %d workers and %d PSs on server %d", j, dw,
		       dp, s);
	pl->g[k].workers -= dw;
	pl->g[k].ps -= dp;
	pl->w[j] -= dw;
	pl->p[j] -= dp;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		pl->free[s][r] += dw * jb->wdem[r] + dp * jb->pdem[r];
}

void sb_alloc_plan_clear(struct sb_alloc_plan *pl, int j)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	int k, r;

	for (k = pl->head[j]; k >= 0; k = pl->next[k]) {
		struct sb_alloc_grant *g = &pl->g[k];
		for (r = 0; r < SB_ALLOC_NRES; r++)
			pl->free[g->server][r] += g->workers * jb->wdem[r] + g->ps * jb->pdem[r];
		g->workers = g->ps = 0;
		g->job = -1;
	}
	pl->head[j] = -1;
	pl->w[j] = pl->p[j] = 0;
}

int sb_alloc_plan_local(const struct sb_alloc_plan *pl, int j)
{
	int k, s = -1;
	for (k = pl->head[j]; k >= 0; k = pl->next[k]) {
		if (!pl->g[k].workers && !pl->g[k].ps)
			continue;   /* emptied by sb_alloc_plan_take */
		if (s >= 0 && pl->g[k].server != s)
			return 0;
		s = pl->g[k].server;
	}
	return 1;
}

double sb_alloc_plan_free(const struct sb_alloc_plan *pl, int s, int r)
{
	double t = 0;
	int k;
	if (s >= 0)
		return pl->free[s][r];
	for (k = 0; k < pl->in->nserver; k++)
		t += pl->free[k][r];
	return t;
}
