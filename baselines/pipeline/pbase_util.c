/*
 * pbase_util.c - helpers shared by the pipeline baseline planners
 * (pbase_util.h). Not a planner: it registers nothing.
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const struct sb_pipeline_schedule *sb_pbase_sched(const struct sb_pipeline_problem *pb,
					      const char *def, struct sb_opts *so,
					      struct sb_err *err)
{
	const struct sb_pipeline_schedule *sc = pb->sched ? pb->sched : sb_pipeline_schedule_find(def);
	if (!sc) {
		sb_err_set(err, SB_EXIT_INPUT, "schedule '%s' is not registered", def);
		return NULL;
	}
	sb_opts_defaults(so, sc->params);
	return sc;
}

int sb_pbase_cap(const struct sb_pipeline_schedule *sc, const struct sb_opts *so, int S, int M,
		 int stage)
{
	/* the cap hooks look at the plan's shape only (S, M, the stage) */
	struct sb_pipeline_plan shape;
	memset(&shape, 0, sizeof shape);
	shape.S = S;
	shape.copies = 1;
	shape.M = M;
	return sb_pipeline_sched_cap(sc, &shape, stage, so);
}

double sb_pbase_mem_limit(const struct sb_topo *t)
{
	return t->mem * (1 - SB_PBASE_MEM_SLACK);
}

int sb_pbase_check_mem(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_pipeline_prefix *x, const struct sb_topo *t,
		       const struct sb_pipeline_schedule *sc, const struct sb_opts *so,
		       struct sb_err *err)
{
	double beta = p->batch / ((double)p->copies * p->M);
	int s;
	for (s = 0; s < p->S; s++) {
		const struct sb_pipeline_stage *st = &p->st[s];
		int cap = sb_pbase_cap(sc, so, p->S, p->M, s);
		double need = sb_pipeline_stage_mem(m, x, st->first, st->last, st->r, beta, cap,
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

void sb_pbase_finish(struct sb_pipeline_plan *p, const struct sb_pipeline_problem *pb,
		     const char *planner, const struct sb_pipeline_schedule *sc)
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

int sb_pbase_server_gpus(const struct sb_topo *t, int k, int *out)
{
	int g, n = 0;
	for (g = 0; g < t->n; g++)
		if ((t->server ? t->server[g] : 0) == k)
			out[n++] = g;
	return n;
}
