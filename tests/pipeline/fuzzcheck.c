/*
 * fuzzcheck.c - the pipeline family's checks of accepted inputs for the
 * libFuzzer harnesses (fuzzcheck.h).
 */
#include "tests/pipeline/fuzzcheck.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipeline/bound.h"
#include "tests/fuzzkit.h"

void sb_fuzz_pipeline_model(const struct sb_pmodel *m, const char *path, int pbs)
{
	int i;

	SB_FUZZ_CHECK(m->n > 0 && m->layer != NULL, "%d layers", m->n);
	SB_FUZZ_CHECK(m->pbs == pbs, "pbs %d, expected %d", m->pbs, pbs);
	SB_FUZZ_CHECK(m->name[0] && memchr(m->name, '\0', sizeof m->name), "model name");
	SB_FUZZ_CHECK(!strncmp(m->source, "real: ", 6) && strstr(m->source, path),
		      "source %s", m->source);
	for (i = 0; i < m->n; i++) {
		const struct sb_layer *l = &m->layer[i];
		SB_FUZZ_CHECK(memchr(l->name, '\0', sizeof l->name) != NULL, "layer %d: name", i);
		SB_FUZZ_CHECK(isfinite(l->fwd) && l->fwd >= 0 && isfinite(l->bwd) && l->bwd >= 0 &&
			      isfinite(l->act) && l->act >= 0 && isfinite(l->stash) &&
			      l->stash >= 0 && isfinite(l->params) && l->params >= 0,
			      "layer %d: costs %g %g %g %g %g", i, l->fwd, l->bwd, l->act, l->stash,
			      l->params);
	}
}

void sb_fuzz_pipeline_topo(const struct sb_topo *t)
{
	int g, h;

	SB_FUZZ_CHECK(t->n >= 1 && t->nserver >= 1, "%d GPUs, %d servers", t->n, t->nserver);
	SB_FUZZ_CHECK(t->mem > 0 && t->speed > 0 && t->latency >= 0, "memory, speed, latency");
	for (g = 0; g < t->n; g++) {
		SB_FUZZ_CHECK(t->server[g] >= 0 && t->server[g] < t->nserver, "GPU %d: server", g);
		SB_FUZZ_CHECK(t->bw[g * t->n + g] == INFINITY, "GPU %d: diagonal", g);
		for (h = 0; h < t->n; h++)
			SB_FUZZ_CHECK(g == h || (t->bw[g * t->n + h] > 0 &&
						 isfinite(t->bw[g * t->n + h]) &&
						 t->bw[g * t->n + h] == t->bw[h * t->n + g]),
				      "bandwidth %d-%d: %g", g, h, t->bw[g * t->n + h]);
	}
}

/* Evaluate p under sc: accepted by the checker, not below the bounds. */
static void evaluate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipeline_schedule *sc)
{
	struct sb_pipeline_result r;
	struct sb_opts so;
	struct sb_err err = { 0, "" };
	double lbp, lb;
	char buf[512];

	sb_pipeline_plan_format(p, buf, sizeof buf);
	SB_FUZZ_CHECK(sb_pipeline_plan_validate(p, m, t, &err) == 0, "plan %s: %s", buf, err.msg);
	sb_opts_defaults(&so, sc->params);
	memset(&r, 0, sizeof r);
	SB_FUZZ_CHECK(sb_pipeline_evaluate(p, m, t, sc, &so, &r, &err) == 0,
		      "plan %s under %s: %s", buf, sc->name, err.msg);
	lbp = sb_pipeline_lb_plan(p, m, t, NULL);
	lb = sb_pipeline_lb_problem(m, t, p->batch, p->M);
	SB_FUZZ_CHECK(isfinite(r.iter_time) && r.iter_time >= 0, "plan %s: iteration time %g",
		      buf, r.iter_time);
	SB_FUZZ_CHECK(r.iter_time >= lbp * (1 - 1e-9) && r.iter_time >= lb * (1 - 1e-9),
		      "plan %s under %s: iteration %.17g below a bound (plan %.17g, problem %.17g)",
		      buf, sc->name, r.iter_time, lbp, lb);
	sb_pipeline_result_release(&r);
}

void sb_fuzz_pipeline_run(const struct sb_pmodel *m, const struct sb_topo *t,
			  const char *planner, int choice)
{
	struct sb_pipeline_plan p;
	struct sb_pipeline_problem pb;
	const struct sb_pipeline_planner *pl;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts po;
	struct sb_err err = { 0, "" };
	int S = m->n < t->n ? m->n : t->n, s, rc;

	S = 1 + choice % (S < 4 ? S : 4);
	sb_pipeline_plan_init(&p, S, 1);
	p.M = 4;
	p.batch = 8;
	p.kappa = 2;
	snprintf(p.planner, sizeof p.planner, "fuzz");
	for (s = 0; s < S; s++) {
		p.st[s].first = s * m->n / S;
		p.st[s].last = (s + 1) * m->n / S - 1;
		p.st[s].r = 1;
		p.st[s].gpu[0] = s;
	}
	sc = sb_pipeline_schedule_find(choice & 4 ? "gpipe" : "1f1b");
	SB_FUZZ_CHECK(sc != NULL, "schedule not registered");
	evaluate(&p, m, t, sc);
	sb_pipeline_plan_release(&p);
	if (!planner)
		return;
	pl = sb_pipeline_planner_find(planner);
	SB_FUZZ_CHECK(pl != NULL, "planner %s not registered", planner);
	memset(&pb, 0, sizeof pb);
	pb.model = m;
	pb.topo = t;
	pb.batch = 64;
	pb.kappa = 2;
	sb_opts_defaults(&po, pl->params);
	rc = pl->plan(&pb, &po, &p, &err);
	/* no plan of the planner's family may fit: not a finding */
	if (rc)
		return;
	sc = sb_pipeline_schedule_find(p.schedule[0] ? p.schedule : pl->schedule);
	SB_FUZZ_CHECK(sc != NULL, "planner %s: schedule not registered", planner);
	evaluate(&p, m, t, sc);
	sb_pipeline_plan_release(&p);
}
