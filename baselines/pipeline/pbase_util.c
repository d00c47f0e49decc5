/*
 * pbase_util.c - helpers shared by the pipeline baseline planners
 * (pbase_util.h). Not a planner: it registers nothing.
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct sb_pipe_schedule *sb_pbase_sched(const struct sb_pipe_problem *pb,
					      const char *def, struct sb_opts *so,
					      struct sb_err *err)
{
	const struct sb_pipe_schedule *sc = pb->sched ? pb->sched : sb_pipe_schedule_find(def);
	if (!sc) {
		sb_err_set(err, SB_EXIT_INPUT, "schedule '%s' is not registered", def);
		return NULL;
	}
	sb_opts_defaults(so, sc->params);
	return sc;
}

int sb_pbase_cap(const struct sb_pipe_schedule *sc, const struct sb_opts *so, int S, int M,
		 int stage)
{
	/* the cap hooks look at the plan's shape only (S, M, the stage) */
	struct sb_pipe_plan shape;
	memset(&shape, 0, sizeof shape);
	shape.S = S;
	shape.copies = 1;
	shape.M = M;
	return sb_pipe_sched_cap(sc, &shape, stage, so);
}

double sb_pbase_mem_limit(const struct sb_topo *t)
{
	return t->mem * (1 - SB_PBASE_MEM_SLACK);
}

int sb_pbase_check_mem(const struct sb_pipe_plan *p, const struct sb_pmodel *m,
		       const struct sb_pipe_prefix *x, const struct sb_topo *t,
		       const struct sb_pipe_schedule *sc, const struct sb_opts *so,
		       struct sb_err *err)
{
	double beta = p->batch / ((double)p->copies * p->M);
	int s;
	for (s = 0; s < p->S; s++) {
		const struct sb_pipe_stage *st = &p->st[s];
		int cap = sb_pbase_cap(sc, so, p->S, p->M, s);
		double need = sb_pipe_stage_mem(m, x, st->first, st->last, st->r, beta, cap,
						p->kappa, p->recompute);
		if (need > sb_pbase_mem_limit(t))
			return sb_err_set(err, SB_EXIT_RUN, "%s: stage %d (layers %d-%d on %d GPUs) "
					  "needs %.4g GB per GPU under schedule %s with %d "
					  "microbatches in flight, GPUs have %.4g GB", p->planner, s,
					  st->first, st->last, st->r, need / 1e9, sc->name, cap,
					  t->mem / 1e9);
	}
	return 0;
}

void sb_pbase_finish(struct sb_pipe_plan *p, const struct sb_pipe_problem *pb,
		     const char *planner, const struct sb_pipe_schedule *sc)
{
	p->batch = pb->batch;
	p->kappa = pb->kappa;
	snprintf(p->planner, sizeof p->planner, "%s", planner);
	snprintf(p->schedule, sizeof p->schedule, "%s", sc->name);
}

int sb_pbase_whole(double x)
{
	return fabs(x - floor(x + 0.5)) <= 1e-9 * sb_max(1, fabs(x));
}

int sb_pbase_divisor_ge(double x, int want)
{
	long n, d;
	if (!(x >= 1) || x > 1e12 || !sb_pbase_whole(x))
		return 0;
	n = (long)floor(x + 0.5);
	for (d = want < 1 ? 1 : want; d <= n; d++)
		if (n % d == 0)
			return (int)d;
	return 0;
}

double sb_pbase_minmax(int L, int S,
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

int sb_pbase_server_gpus(const struct sb_topo *t, int k, int *out)
{
	int g, n = 0;
	for (g = 0; g < t->n; g++)
		if ((t->server ? t->server[g] : 0) == k)
			out[n++] = g;
	return n;
}

double sb_pbase_min_bw(const struct sb_topo *t, const int *g, int n)
{
	double bw = INFINITY;
	int i, j;
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (g[i] != g[j])
				bw = sb_min(bw, t->bw[g[i] * t->n + g[j]]);
	return bw;
}
