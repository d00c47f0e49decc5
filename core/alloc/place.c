/*
 * place.c - the placement rules shared by the alloc policies: adding one
 * worker (with its bundled PS) by a named rule, and GADGET-R's ring
 * embedding (gadget.md §3 step 2, reconstructed [R]).
 */
#include "alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sb_alloc_ps_for(const struct sb_alloc_inst *in, int j, int k)
{
	const struct sb_alloc_job *jb = &in->job[j];
	if (jb->mode == SB_ALLOC_RAR)
		return 0;
	return k < jb->max_ps ? k : jb->max_ps;
}

/* PS that goes with the next worker of j (0 or 1). */
static int next_ps(const struct sb_alloc_plan *pl, int j)
{
	return sb_alloc_ps_for(pl->in, j, pl->w[j] + 1) - pl->p[j] > 0;
}

static double used_frac(const struct sb_alloc_plan *pl, int s)
{
	double u = 0;
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (pl->in->cap[s][r] > 0)
			u += 1 - pl->free[s][r] / pl->in->cap[s][r];
	return u;
}

int sb_alloc_least_server(const struct sb_alloc_plan *pl, const double *dem)
{
	int S = pl->in->nserver, s, r, best = -1;
	for (s = 0; s < S; s++) {
		for (r = 0; r < SB_ALLOC_NRES; r++)
			if (dem[r] > pl->free[s][r] + 1e-9)
				break;
		if (r < SB_ALLOC_NRES)
			continue;
		if (best < 0 || used_frac(pl, s) < used_frac(pl, best) - 1e-12)
			best = s;
	}
	return best;
}

int sb_alloc_add_unit(struct sb_alloc_plan *pl, int j, int how, struct sb_rng *rng)
{
	int S = pl->in->nserver, dp = next_ps(pl, j), s, best = -1, nfit = 0, k;

	if (how == SB_ALLOC_LEAST) {
		const struct sb_alloc_job *jb = &pl->in->job[j];
		double dem[SB_ALLOC_NRES];
		if (pl->w[j] + 1 > jb->max_workers || pl->p[j] + dp > jb->max_ps)
			return -1;
		for (k = 0; k < SB_ALLOC_NRES; k++)
			dem[k] = 1 * jb->wdem[k] + dp * jb->pdem[k];
		if ((best = sb_alloc_least_server(pl, dem)) >= 0)
			sb_alloc_plan_add(pl, j, best, 1, dp);
		return best;
	}

	if (how == SB_ALLOC_PACK) {
		for (k = pl->head[j]; k >= 0; k = pl->next[k])
			if (sb_alloc_plan_fits(pl, j, pl->g[k].server, 1, dp)) {
				s = pl->g[k].server;
				sb_alloc_plan_add(pl, j, s, 1, dp);
				return s;
			}
	}
	for (s = 0; s < S; s++) {
		if (!sb_alloc_plan_fits(pl, j, s, 1, dp))
			continue;
		if (how == SB_ALLOC_PACK) {
			best = s;
			break;
		}
		if (sb_rng_below(rng, (uint32_t)++nfit) == 0) {
			best = s;   /* reservoir sampling: uniform among the fitting */
		}
	}
	if (best >= 0)
		sb_alloc_plan_add(pl, j, best, 1, dp);
	return best;
}

/* Units (one worker, maybe one PS) of j that fit on server s. */
static int units_on(const struct sb_alloc_plan *pl, int j, int s, int dp)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	double n = INFINITY;
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++) {
		double d = jb->wdem[r] + dp * jb->pdem[r];
		if (d > 0)
			n = sb_min(n, floor((pl->free[s][r] + 1e-9) / d));
	}
	return n > SB_ALLOC_MAXK ? SB_ALLOC_MAXK : (int)n;
}

struct srv_free {
	int s, n;
};

static int by_free_desc(const void *a, const void *b)
{
	const struct srv_free *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->s - y->s;
}

int sb_alloc_embed(struct sb_alloc_plan *pl, int j, int k)
{
	return sb_alloc_embed_wp(pl, j, k, sb_alloc_ps_for(pl->in, j, k));
}

int sb_alloc_embed_wp(struct sb_alloc_plan *pl, int j, int k, int kp)
{
	const struct sb_alloc_inst *in = pl->in;
	const struct sb_alloc_job *jb = &in->job[j];
	int S = in->nserver, s, best = -1, bestleft = 0, got = 0, i;
	int ow = pl->w[j], op = pl->p[j], nold = 0;
	struct sb_alloc_grant old[SB_ALLOC_MAXK * 2];
	struct srv_free *order;

	if (k < 1 || k > jb->max_workers || kp < 0 || kp > jb->max_ps)
		return 0;
	for (i = pl->head[j]; i >= 0 && nold < SB_ALLOC_MAXK * 2; i = pl->next[i])
		old[nold++] = pl->g[i];
	sb_alloc_plan_clear(pl, j);
	/* one server: best fit, the fewest units left over */
	for (s = 0; s < S; s++)
		if (sb_alloc_plan_fits(pl, j, s, k, kp)) {
			int left = units_on(pl, j, s, 1);
			if (best < 0 || left < bestleft) {
				best = s;
				bestleft = left;
			}
		}
	if (best >= 0) {
		sb_alloc_plan_add(pl, j, best, k, kp);
		return 1;
	}
	/* spread: most free first, so the ring crosses few servers */
	order = SB_NEW(struct srv_free, S > 0 ? S : 1);
	for (s = 0; s < S; s++)
		order[s] = (struct srv_free){ s, units_on(pl, j, s, kp > 0) };
	qsort(order, (size_t)S, sizeof *order, by_free_desc);
	for (i = 0; i < S && got < k; i++) {
		s = order[i].s;
		while (got < k) {
			int dp = pl->p[j] < kp;
			if (!sb_alloc_plan_fits(pl, j, s, 1, dp))
				break;
			sb_alloc_plan_add(pl, j, s, 1, dp);
			got++;
		}
	}
	/* PSs left over (a job with fewer PS slots than workers fits them
	 * wherever there is room) */
	for (s = 0; s < S && got == k && pl->p[j] < kp; s++)
		while (pl->p[j] < kp && sb_alloc_plan_fits(pl, j, s, 0, 1))
			sb_alloc_plan_add(pl, j, s, 0, 1);
	sb_free(order);
	if (got == k && pl->p[j] == kp)
		return 1;
	sb_alloc_plan_clear(pl, j);
	for (i = 0; i < nold; i++)
		sb_alloc_plan_add(pl, j, old[i].server, old[i].workers, old[i].ps);
	SB_ASSERT(pl->w[j] == ow && pl->p[j] == op);
	return 0;
}

double sb_alloc_plan_rate(const struct sb_alloc_plan *pl, int j)
{
	return sb_alloc_rate(pl->in, j, pl->w[j], pl->p[j], sb_alloc_plan_local(pl, j));
}

int sb_alloc_place_k(struct sb_alloc_plan *pl, int j, int k, int how, struct sb_rng *rng)
{
	int i;
	for (i = 0; i < k; i++)
		if (sb_alloc_add_unit(pl, j, how, rng) < 0) {
			sb_alloc_plan_clear(pl, j);
			return 0;
		}
	return 1;
}

static const double *order_key;

static int by_key(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (order_key[x] != order_key[y])
		return order_key[x] < order_key[y] ? -1 : 1;
	return x - y;   /* jobs are numbered in arrival order */
}

void sb_alloc_order(const struct sb_alloc_view *v, const double *key, int *out)
{
	memcpy(out, v->active, (size_t)v->nactive * sizeof *out);
	order_key = key;
	qsort(out, (size_t)v->nactive, sizeof *out, by_key);
	order_key = NULL;
}

void sb_alloc_room(struct sb_alloc_plan *pl, int j, int *one, int *all)
{
	struct sb_alloc_grant old[SB_ALLOC_MAXK * 2];
	int nold = 0, i, s, dp = pl->in->job[j].mode == SB_ALLOC_PS;

	for (i = pl->head[j]; i >= 0 && nold < SB_ALLOC_MAXK * 2; i = pl->next[i])
		old[nold++] = pl->g[i];
	sb_alloc_plan_clear(pl, j);
	*one = *all = 0;
	for (s = 0; s < pl->in->nserver; s++) {
		int u = units_on(pl, j, s, dp);
		if (u > *one)
			*one = u;
		*all += u;
		if (*all > SB_ALLOC_MAXK)
			*all = SB_ALLOC_MAXK;
	}
	for (i = 0; i < nold; i++)
		if (old[i].workers || old[i].ps)
			sb_alloc_plan_add(pl, j, old[i].server, old[i].workers, old[i].ps);
}
