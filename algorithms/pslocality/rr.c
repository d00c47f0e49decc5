/*
 * rr.c - randomized rounding and repair of PS-locality (see rr.h),
 * reconstructed [R] from pslocality.md §3: M. Yu, J. Liu, C. Wu, B. Ji,
 * E. S. Bentley, "Toward Efficient Online Scheduling for Distributed
 * Machine Learning Systems", IEEE TNSE 2022 (abstract only: mixed
 * packing/covering reformulation with locality configurations and a
 * randomized-rounding approximation [V]).
 *
 * Family: alloc (core/alloc/).
 */
#include "rr.h"

#include <math.h>
#include <string.h>

#define IX(m, i, h, t) (((size_t)(i) * (m)->H + (h)) * (m)->T + (t))

void sb_rr_plan_init(struct sb_rr_plan *r, int J, int H, int T)
{
	size_t n = (size_t)J * H * T + 1;
	r->J = J;
	r->H = H;
	r->T = T;
	r->w = SB_NEW(int, n);
	r->p = SB_NEW(int, n);
}

void sb_rr_plan_release(struct sb_rr_plan *r)
{
	sb_free(r->w);
	sb_free(r->p);
	memset(r, 0, sizeof *r);
}

static double val(const double *x, int col)
{
	return col >= 0 ? sb_max(0, x[col]) : 0;
}

/* floor(a) plus a Bernoulli of its fraction: E = a */
static int round_count(double a, struct sb_rng *rng)
{
	double f = floor(a);
	return (int)f + sb_rng_bernoulli(rng, a - f);
}

void sb_rr_round(const struct sb_alloc_inst *in, const struct sb_alloc_psmodel *m,
		 const double *x, double kappa, struct sb_rng *rng, struct sb_rr_plan *out)
{
	int i, h, t, H = m->H;
	double *prob = SB_NEW(double, H + 1);

	memset(out->w, 0, sizeof(int) * (size_t)m->J * H * m->T);
	memset(out->p, 0, sizeof(int) * (size_t)m->J * H * m->T);
	for (i = 0; i < m->J; i++) {
		const struct sb_alloc_job *jb = &in->job[i];
		for (t = 0; t < m->T; t++) {
			double sum = 0, u, acc = 0;
			int pick = -1, k, w = 0, extra;
			if (m->z[i * m->T + t] < 0)
				continue;
			for (h = 0; h < H; h++)
				sum += prob[h] = sb_min(1, kappa * val(x, m->y[IX(m, i, h, t)]));
			sum += prob[H] = sb_min(1, kappa * val(x, m->z[i * m->T + t]));
			if (sum > 1)
				for (h = 0; h <= H; h++)
					prob[h] /= sum;
			u = sb_rng_uniform(rng);
			for (h = 0; h <= H && pick < 0; h++)
				if (prob[h] > 0 && u < (acc += prob[h]))
					pick = h;
			if (pick < 0)
				continue;
			if (pick < H) {
				k = round_count(kappa * val(x, m->wl[IX(m, i, pick, t)]) / prob[pick], rng);
				w = out->w[IX(m, i, pick, t)] = k < jb->max_workers ? k : jb->max_workers;
				out->p[IX(m, i, pick, t)] = w < jb->max_ps ? w : jb->max_ps;
				continue;
			}
			for (h = 0; h < H; h++) {
				k = round_count(kappa * val(x, m->wd[IX(m, i, h, t)]) / prob[H], rng);
				out->w[IX(m, i, h, t)] = k;
				w += k;
			}
			/* over the worker cap: take from the busiest servers */
			for (extra = w - jb->max_workers; extra > 0; extra--) {
				int b = 0;
				for (h = 1; h < H; h++)
					if (out->w[IX(m, i, h, t)] > out->w[IX(m, i, b, t)])
						b = h;
				out->w[IX(m, i, b, t)]--;
			}
			/* a PS per worker on its server, up to the PS cap */
			for (k = 0, h = 0; h < H; h++) {
				int pp = out->w[IX(m, i, h, t)];
				if (k + pp > jb->max_ps)
					pp = jb->max_ps - k;
				out->p[IX(m, i, h, t)] = pp;
				k += pp;
			}
		}
	}
	sb_free(prob);
}

void sb_rr_stats(const struct sb_alloc_inst *in, const struct sb_alloc_psmodel *m,
		 const struct sb_rr_plan *r, struct sb_rr_stats *st)
{
	int i, h, t, k;
	memset(st, 0, sizeof *st);
	for (i = 0; i < m->J; i++) {
		const struct sb_alloc_job *jb = &in->job[i];
		double prog = 0;
		int a = jb->arrival > m->t0 ? jb->arrival - m->t0 : 0, done = -1;
		if (m->need[i] <= 0 || a >= m->T)
			continue;
		for (t = a; t < m->T && done < 0; t++) {
			int w = 0, nsrv = 0;
			for (h = 0; h < m->H; h++)
				if (r->w[IX(m, i, h, t)]) {
					w += r->w[IX(m, i, h, t)];
					nsrv++;
				}
			prog += w * (nsrv == 1 ? m->rho_l[i] : m->rho_d[i]);
			if (prog >= m->need[i] * (1 - 1e-12))
				done = t;
		}
		st->flow += (done >= 0 ? done : m->T) - a + 1;
		st->cov_fail += done < 0;
	}
	for (h = 0; h < m->H; h++)
		for (t = 0; t < m->T; t++)
			for (k = 0; k < SB_ALLOC_NRES; k++) {
				double load = 0;
				if (in->cap[h][k] <= 0)
					continue;
				for (i = 0; i < m->J; i++)
					load += r->w[IX(m, i, h, t)] * in->job[i].wdem[k] +
						r->p[IX(m, i, h, t)] * in->job[i].pdem[k];
				st->max_viol = sb_max(st->max_viol, load / in->cap[h][k]);
			}
}

void sb_rr_apply(const struct sb_rr_plan *r, int t0, const struct sb_alloc_view *v,
		 struct sb_alloc_plan *pl)
{
	int t = v->t - t0, a, h;
	if (t < 0 || t >= r->T)
		return;
	for (a = 0; a < v->nactive; a++) {
		int i = v->active[a];
		for (h = 0; h < r->H; h++) {
			size_t ix = ((size_t)i * r->H + h) * r->T + t;
			int w = r->w[ix], p = r->p[ix];
			while (w > 0 && !sb_alloc_plan_fits(pl, i, h, w, p)) {
				w--;
				if (p > w)
					p = w;
			}
			if (w > 0)
				sb_alloc_plan_add(pl, i, h, w, p);
		}
		/* a PS job needs a PS wherever its workers are counted */
		if (pl->w[i] > 0 && pl->p[i] == 0)
			sb_alloc_plan_clear(pl, i);
	}
}

void sb_rr_fill(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, struct sb_rng *rng)
{
	double *key = SB_NEW(double, v->in->njob);
	int *ord = SB_NEW(int, v->nactive + 1), a;
	for (a = 0; a < v->nactive; a++) {
		int j = v->active[a];
		key[j] = v->in->job[j].target - v->progress[j];
	}
	sb_alloc_order(v, key, ord);
	for (a = 0; a < v->nactive; a++) {
		int j = ord[a];
		while (pl->w[j] < v->in->job[j].max_workers &&
		       sb_alloc_add_unit(pl, j, SB_ALLOC_PACK, rng) >= 0)
			;
	}
	sb_free(key);
	sb_free(ord);
}
