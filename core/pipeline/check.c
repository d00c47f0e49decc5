/*
 * check.c - independent validation of a pipesim timeline: the costs
 * are rebuilt from plan, model and topology, and the recorded events are
 * checked against them (see sb_pipeline_check in pipeline/pipeline.h). Nothing here trusts
 * the simulator's bookkeeping.
 */
#include "pipeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-9

static int close_to(double a, double b)
{
	return fabs(a - b) <= REL * sb_max(1.0, sb_max(fabs(a), fabs(b)));
}

static int cmp_start(const void *a, const void *b)
{
	const struct sb_pipeline_event *x = *(const struct sb_pipeline_event *const *)a;
	const struct sb_pipeline_event *y = *(const struct sb_pipeline_event *const *)b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	/* a task that ends where the next starts: the shorter first */
	return (x->end > y->end) - (x->end < y->end);
}

#define FAIL(...) do { snprintf(why, whysz, __VA_ARGS__); rc = -1; goto out; } while (0)

int sb_pipeline_check(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		  const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		  const struct sb_opts *o, const struct sb_pipeline_result *r, char *why,
		  size_t whysz)
{
	struct sb_pipeline_costs c;
	int S = p->S, nc = p->copies, M = p->M, rc = 0, k, s, i, e;
	size_t n = (size_t)nc * S * M;
	/* index of each task's event and each transfer's event, -1 if none */
	int *tf = sb_malloc(sizeof(int) * n), *tb = sb_malloc(sizeof(int) * n);
	int *xf = sb_malloc(sizeof(int) * n), *xb = sb_malloc(sizeof(int) * n);
	const struct sb_pipeline_event **order = sb_malloc(sizeof *order * (size_t)(r->nev + 1));
	double end = 0, peak_mem = 0;

	sb_pipeline_costs_build(&c, p, m, t);
	if (!tf || !tb || !xf || !xb || !order)
		SB_BUG("pipecheck: out of memory");
	for (i = 0; i < (int)n; i++)
		tf[i] = tb[i] = xf[i] = xb[i] = -1;
#define AT(k, s, i) (((size_t)(k) * S + (size_t)(s)) * M + (size_t)(i))
	for (e = 0; e < r->nev; e++) {
		const struct sb_pipeline_event *ev = &r->ev[e];
		int *slot;
		if (ev->copy < 0 || ev->copy >= nc || ev->mb < 0 || ev->mb >= M || !(ev->end >= ev->start))
			FAIL("event %d out of range", e);
		if (ev->stage >= 0) {
			if (ev->stage >= S)
				FAIL("event %d: stage %d", e, ev->stage);
			slot = ev->kind == SB_PIPELINE_F ? &tf[AT(ev->copy, ev->stage, ev->mb)]
						     : &tb[AT(ev->copy, ev->stage, ev->mb)];
			if (!close_to(ev->end - ev->start, ev->kind == SB_PIPELINE_F
				      ? c.F[ev->copy * S + ev->stage] : c.B[ev->copy * S + ev->stage]))
				FAIL("copy %d stage %d %c%d lasts %g, its cost is %g", ev->copy, ev->stage,
				     ev->kind == SB_PIPELINE_F ? 'F' : 'B', ev->mb, ev->end - ev->start,
				     ev->kind == SB_PIPELINE_F ? c.F[ev->copy * S + ev->stage]
							   : c.B[ev->copy * S + ev->stage]);
		} else {
			if (ev->link < 0 || ev->link >= S - 1)
				FAIL("event %d: link %d", e, ev->link);
			slot = ev->kind == SB_PIPELINE_F ? &xf[AT(ev->copy, ev->link, ev->mb)]
						     : &xb[AT(ev->copy, ev->link, ev->mb)];
			if (!close_to(ev->end - ev->start, c.C[ev->copy * S + ev->link]))
				FAIL("transfer on link %d lasts %g, its cost is %g", ev->link,
				     ev->end - ev->start, c.C[ev->copy * S + ev->link]);
		}
		if (*slot >= 0)
			FAIL("event %d repeats event %d", e, *slot);
		*slot = e;
	}
	/* every task once, every needed transfer once, precedence */
	for (k = 0; k < nc; k++)
		for (s = 0; s < S; s++)
			for (i = 0; i < M; i++) {
				int f = tf[AT(k, s, i)], b = tb[AT(k, s, i)];
				const struct sb_pipeline_event *F, *B;
				if (f < 0 || b < 0)
					FAIL("copy %d stage %d microbatch %d: a task never ran", k, s, i);
				F = &r->ev[f];
				B = &r->ev[b];
				if (s > 0) {
					int x = xf[AT(k, s - 1, i)];
					if (x < 0)
						FAIL("activation %d into stage %d never sent", i, s);
					if (r->ev[x].start < r->ev[tf[AT(k, s - 1, i)]].end * (1 - REL) - REL ||
					    F->start < r->ev[x].end * (1 - REL) - REL)
						FAIL("stage %d forward %d before its activation arrived", s, i);
				}
				if (s == S - 1) {
					if (B->start < F->end * (1 - REL) - REL)
						FAIL("last stage backward %d before its forward", i);
				} else {
					int x = xb[AT(k, s, i)];
					if (x < 0)
						FAIL("gradient %d into stage %d never sent", i, s);
					if (r->ev[x].start < r->ev[tb[AT(k, s + 1, i)]].end * (1 - REL) - REL ||
					    B->start < r->ev[x].end * (1 - REL) - REL)
						FAIL("stage %d backward %d before its gradient arrived", s, i);
				}
			}
	/* one task at a time per stage; in-flight cap; memory; the end */
	for (k = 0; k < nc; k++)
		for (s = 0; s < S; s++) {
			int cnt = 0, inflight = 0, peak = 0, capv;
			double last_b = 0;
			struct sb_pipeline_view v;
			for (e = 0; e < r->nev; e++)
				if (r->ev[e].copy == k && r->ev[e].stage == s)
					order[cnt++] = &r->ev[e];
			qsort(order, (size_t)cnt, sizeof *order, cmp_start);
			memset(&v, 0, sizeof v);
			v.plan = p;
			v.costs = &c;
			v.copy = k;
			v.stage = s;
			capv = sc && sc->cap ? sc->cap(&v, o) : M;
			if (capv <= 0 || capv > M)
				capv = M;
			for (i = 0; i < cnt; i++) {
				if (i > 0 && order[i]->start < order[i - 1]->end * (1 - REL) - REL)
					FAIL("copy %d stage %d runs two tasks at once (%g < %g)", k, s,
					     order[i]->start, order[i - 1]->end);
				inflight += order[i]->kind == SB_PIPELINE_F ? 1 : -1;
				if (inflight > peak)
					peak = inflight;
				if (order[i]->kind == SB_PIPELINE_B)
					last_b = sb_max(last_b, order[i]->end);
			}
			if (peak > capv)
				FAIL("copy %d stage %d: %d microbatches in flight, cap %d", k, s, peak, capv);
			peak_mem = sb_max(peak_mem, c.mem_w[s] + peak * c.mem_a[s]);
			if (c.mem_w[s] + peak * c.mem_a[s] > t->mem * (1 + REL))
				FAIL("copy %d stage %d needs %.4g bytes per GPU, has %.4g", k, s,
				     c.mem_w[s] + peak * c.mem_a[s], t->mem);
			end = sb_max(end, last_b + c.AR[s]);
		}
	/* one transfer at a time per link direction */
	for (k = 0; k < nc; k++)
		for (s = 0; s + 1 < S; s++) {
			int dir;
			for (dir = 0; dir < 2; dir++) {
				int cnt = 0;
				for (e = 0; e < r->nev; e++)
					if (r->ev[e].copy == k && r->ev[e].stage < 0 && r->ev[e].link == s &&
					    r->ev[e].kind == (dir ? SB_PIPELINE_B : SB_PIPELINE_F))
						order[cnt++] = &r->ev[e];
				qsort(order, (size_t)cnt, sizeof *order, cmp_start);
				for (i = 1; i < cnt; i++)
					if (order[i]->start < order[i - 1]->end * (1 - REL) - REL)
						FAIL("link %d carries two transfers at once", s);
			}
		}
	if (!close_to(peak_mem, r->peak_mem))
		FAIL("peak memory %.17g, the timeline needs %.17g", r->peak_mem, peak_mem);
	if (!close_to(end + c.t_opt, r->iter_time))
		FAIL("iteration time %.17g, the timeline ends at %.17g", r->iter_time, end + c.t_opt);
#undef AT
out:
	sb_free(tf);
	sb_free(tb);
	sb_free(xf);
	sb_free(xb);
	sb_free(order);
	sb_pipeline_costs_release(&c);
	return rc;
}
