/*
 * sim.c - one synchronous training iteration of a pipeline plan,
 * simulated event by event (spec pipeplan.md §2, §7 [O]).
 *
 * Each (copy, stage) is one device (its r replicas work in lock step on
 * their shares of every microbatch) running one task at a time; the
 * schedule policy picks among its ready tasks whenever it is free, never
 * exceeding the policy's in-flight cap. Activations go stage s -> s+1 and
 * gradients s+1 -> s as transfers that queue first-come first-served on
 * that direction of the link. After the last backward of a stage in every
 * copy its gradients are all-reduced; the iteration ends when every
 * all-reduce is done, plus the optimizer step.
 */
#include "heap.h"
#include "opts.h"
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* event payload: what | copy | stage or link | microbatch */
enum { E_COMPUTE_F = 0, E_COMPUTE_B = 1, E_XFER_F = 2, E_XFER_B = 3 };

static int64_t ev_pack(int what, int copy, int s, int mb)
{
	return ((int64_t)what << 56) | ((int64_t)copy << 40) | ((int64_t)s << 24) | mb;
}

struct dev {
	int busy;
	int fstart, bstart;       /* tasks started */
	int peak;                 /* largest in-flight count */
	int nrf, nrb;             /* ready, not started: forwards, backwards */
	int dirty;                /* freed or given a ready task at this instant */
	double busy_time;
	double last_b_end;
};

struct sim {
	const struct sb_pipeline_plan *p;
	const struct sb_pipeline_costs *c;
	const struct sb_pipeline_schedule *sc;
	const struct sb_opts *o;
	int S, nc, M;
	struct dev *dev;              /* nc x S */
	int *rf, *rb;                 /* nc x S x M: each device's ready lists
	                                 (microbatches, in order of readiness) */
	int *dirty, ndirty;           /* devices to offer work at this instant */
	double *link_free;            /* nc x S x 2 */
	double rank[2 * 256];         /* per stage and kind (see below) */
	int have_rank;
	struct sb_heap ev;
	double now;
	struct sb_pipeline_result *r;
	int evcap;
	struct sb_pipeline_task *ready;
};


static void record(struct sim *sim, int copy, int stage, int kind, int mb, int link,
		   double start, double end)
{
	struct sb_pipeline_result *r = sim->r;
	struct sb_pipeline_event *e;
	if (r->nev == sim->evcap) {
		sim->evcap = sim->evcap ? 2 * sim->evcap : 256;
		r->ev = sb_xrealloc(r->ev, sizeof *r->ev * (size_t)sim->evcap);
	}
	e = &r->ev[r->nev++];
	e->copy = copy;
	e->stage = stage;
	e->kind = kind;
	e->mb = mb;
	e->link = link;
	e->start = start;
	e->end = end;
}

/* Upward ranks (critical path to the end of the iteration), per stage and
 * kind; identical microbatches have identical ranks (copy 0's costs). */
static void ranks(struct sim *sim)
{
	const struct sb_pipeline_costs *c = sim->c;
	int S = sim->S, s;
	double *rf = sim->rank, *rb = sim->rank + S;
	for (s = 0; s < S; s++) {
		rb[s] = c->B[s] + sb_max(c->AR[s], s > 0 ? c->C[s - 1] : 0);
		if (s > 0)
			rb[s] = c->B[s] + sb_max(c->AR[s], c->C[s - 1] + rb[s - 1]);
	}
	for (s = S - 1; s >= 0; s--)
		rf[s] = c->F[s] + (s + 1 < S ? c->C[s] + rf[s + 1] : rb[S - 1]);
	sim->have_rank = 1;
}

/* Remove entry k of a ready list of n, keeping the order of the rest. */
static void take(int *list, int n, int k)
{
	memmove(list + k, list + k + 1, sizeof *list * (size_t)(n - k - 1));
}

/* Try to start a task on (copy, stage). Only ready tasks are offered, so
 * the cost is the length of the device's ready lists, not M. */
static void dispatch(struct sim *sim, int copy, int s)
{
	size_t di = (size_t)copy * sim->S + s;
	struct dev *d = &sim->dev[di];
	int *rf = sim->rf + di * sim->M, *rb = sim->rb + di * sim->M;
	struct sb_pipeline_view v;
	int n = 0, i, k, cap, pick;
	double dur;

	if (d->busy || d->nrf + d->nrb == 0)
		return;
	memset(&v, 0, sizeof v);
	v.plan = sim->p;
	v.costs = sim->c;
	v.copy = copy;
	v.stage = s;
	v.inflight = d->fstart - d->bstart;
	v.fdone = d->fstart;
	v.bdone = d->bstart;
	v.rank = sim->have_rank ? sim->rank : NULL;
	cap = sim->sc->cap ? sim->sc->cap(&v, sim->o) : sim->M;
	if (cap <= 0 || cap > sim->M)
		cap = sim->M;
	for (k = 0; k < d->nrb; k++) {
		sim->ready[n].kind = SB_PIPELINE_B;
		sim->ready[n++].mb = rb[k];
	}
	if (v.inflight < cap)
		for (k = 0; k < d->nrf; k++) {
			sim->ready[n].kind = SB_PIPELINE_F;
			sim->ready[n++].mb = rf[k];
		}
	if (n == 0)
		return;
	pick = sim->sc->pick(&v, sim->ready, n, sim->o);
	if (pick < 0)
		return;
	if (pick >= n)
		SB_BUG("pipesim: schedule %s picked %d of %d ready tasks", sim->sc->name, pick, n);
	i = sim->ready[pick].mb;
	if (sim->ready[pick].kind == SB_PIPELINE_F) {
		take(rf, d->nrf--, pick - d->nrb);
		d->fstart++;
		dur = sim->c->F[copy * sim->S + s];
		if (d->fstart - d->bstart > d->peak)
			d->peak = d->fstart - d->bstart;
		sb_heap_push(&sim->ev, sim->now + dur, ev_pack(E_COMPUTE_F, copy, s, i));
	} else {
		take(rb, d->nrb--, pick);
		d->bstart++;
		dur = sim->c->B[copy * sim->S + s];
		sb_heap_push(&sim->ev, sim->now + dur, ev_pack(E_COMPUTE_B, copy, s, i));
	}
	d->busy = 1;
	d->busy_time += dur;
	record(sim, copy, s, sim->ready[pick].kind, i, -1, sim->now, sim->now + dur);
}

/* (copy, s) may start something at this instant. */
static void mark(struct sim *sim, int copy, int s)
{
	int di = copy * sim->S + s;
	if (!sim->dev[di].dirty) {
		sim->dev[di].dirty = 1;
		sim->dirty[sim->ndirty++] = di;
	}
}

static void ready_f(struct sim *sim, int copy, int s, int mb)
{
	size_t di = (size_t)copy * sim->S + s;
	sim->rf[di * sim->M + (size_t)sim->dev[di].nrf++] = mb;
	mark(sim, copy, s);
}

static void ready_b(struct sim *sim, int copy, int s, int mb)
{
	size_t di = (size_t)copy * sim->S + s;
	sim->rb[di * sim->M + (size_t)sim->dev[di].nrb++] = mb;
	mark(sim, copy, s);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* A transfer on link (copy, s <-> s+1), direction dir (0: s -> s+1),
 * produced now: FIFO behind earlier ones. */
static void transfer(struct sim *sim, int copy, int s, int dir, int mb)
{
	double *lf = &sim->link_free[((size_t)copy * sim->S + s) * 2 + dir];
	double start = sb_max(sim->now, *lf), end = start + sim->c->C[copy * sim->S + s];
	*lf = end;
	sb_heap_push(&sim->ev, end, ev_pack(dir ? E_XFER_B : E_XFER_F, copy, s, mb));
	record(sim, copy, -1, dir ? SB_PIPELINE_B : SB_PIPELINE_F, mb, s, start, end);
}

void sb_pipeline_result_release(struct sb_pipeline_result *r)
{
	if (!r)
		return;
	sb_free(r->peak_inflight);
	sb_free(r->ev);
	memset(r, 0, sizeof *r);
}

int sb_pipeline_simulate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		     const struct sb_opts *o, struct sb_pipeline_result *r, struct sb_err *err)
{
	struct sim sim_s, *sim = &sim_s;
	struct sb_pipeline_costs c;
	struct sb_heap_item it;
	int rc, k, s, i, left;
	size_t ntask;
	double end = 0, busy = 0, span = 0, peak_mem = 0;

	memset(r, 0, sizeof *r);
	rc = sb_pipeline_plan_validate(p, m, t, err);
	if (rc)
		return rc;
	if (p->S > 256)
		return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): more than 256 stages", p->planner);
	sb_pipeline_costs_build(&c, p, m, t);
	memset(sim, 0, sizeof *sim);
	sim->p = p;
	sim->c = &c;
	sim->sc = sc;
	sim->o = o;
	sim->S = p->S;
	sim->nc = p->copies;
	sim->M = p->M;
	sim->r = r;
	ntask = (size_t)p->copies * p->S * p->M;
	sim->dev = SB_NEW(struct dev, p->copies * p->S);
	sim->rf = SB_NEW(int, ntask);
	sim->rb = SB_NEW(int, ntask);
	sim->dirty = SB_NEW(int, p->copies * p->S);
	sim->link_free = SB_NEW(double, (size_t)p->copies * p->S * 2);
	sim->ready = SB_NEW(struct sb_pipeline_task, 2 * p->M);
	sb_heap_init(&sim->ev);
	if (sc->wants_rank)
		ranks(sim);
	for (k = 0; k < p->copies; k++)
		for (i = 0; i < p->M; i++)
			ready_f(sim, k, 0, i);
	left = (int)(2 * ntask);
	for (;;) {
		/* offer work to the devices whose state changed at this instant,
		 * once every event of the instant is in */
		if (!sb_heap_peek(&sim->ev) || sb_heap_peek(&sim->ev)->key > sim->now) {
			qsort(sim->dirty, (size_t)sim->ndirty, sizeof *sim->dirty, cmp_int);
			for (i = 0; i < sim->ndirty; i++) {
				sim->dev[sim->dirty[i]].dirty = 0;
				dispatch(sim, sim->dirty[i] / p->S, sim->dirty[i] % p->S);
			}
			sim->ndirty = 0;
		}
		if (!sb_heap_pop(&sim->ev, &it))
			break;
		{
		int what = (int)(it.val >> 56), copy = (int)((it.val >> 40) & 0xffff);
		int st = (int)((it.val >> 24) & 0xffff), mb = (int)(it.val & 0xffffff);
		sim->now = it.key;
		switch (what) {
		case E_COMPUTE_F:
			sim->dev[copy * p->S + st].busy = 0;
			mark(sim, copy, st);
			left--;
			if (st + 1 < p->S)
				transfer(sim, copy, st, 0, mb);
			else
				ready_b(sim, copy, st, mb);
			break;
		case E_COMPUTE_B:
			sim->dev[copy * p->S + st].busy = 0;
			sim->dev[copy * p->S + st].last_b_end = sim->now;
			mark(sim, copy, st);
			left--;
			if (st > 0)
				transfer(sim, copy, st - 1, 1, mb);
			break;
		case E_XFER_F:
			ready_f(sim, copy, st + 1, mb);
			break;
		case E_XFER_B:
			ready_b(sim, copy, st, mb);
			break;
		}
		}
	}
	if (left > 0) {
		rc = sb_err_set(err, SB_EXIT_RUN, "schedule %s deadlocked on plan %s: %d tasks never "
				"ran", sc->name, p->planner, left);
		sb_pipeline_result_release(r);
		goto out;
	}
	r->peak_inflight = SB_NEW(int, p->S);
	for (s = 0; s < p->S; s++) {
		double last = 0, mem;
		int pk = 0;
		for (k = 0; k < p->copies; k++) {
			last = sb_max(last, sim->dev[k * p->S + s].last_b_end);
			pk = sim->dev[k * p->S + s].peak > pk ? sim->dev[k * p->S + s].peak : pk;
			busy += sim->dev[k * p->S + s].busy_time;
			span = sb_max(span, sim->dev[k * p->S + s].last_b_end);
		}
		r->peak_inflight[s] = pk;
		end = sb_max(end, last + c.AR[s]);
		mem = c.mem_w[s] + pk * c.mem_a[s];
		peak_mem = sb_max(peak_mem, mem);
	}
	r->iter_time = end + c.t_opt;
	r->throughput = p->batch / r->iter_time;
	r->bubble = span > 0 ? 1 - busy / (span * p->S * p->copies) : 0;
	r->peak_mem = peak_mem;
out:
	sb_heap_release(&sim->ev);
	sb_free(sim->dev);
	sb_free(sim->rf);
	sb_free(sim->rb);
	sb_free(sim->dirty);
	sb_free(sim->link_free);
	sb_free(sim->ready);
	sb_pipeline_costs_release(&c);
	return rc;
}
