/*
 * pipesim.c - one synchronous training iteration of a pipeline plan,
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
#include "pipe.h"

#include <math.h>
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
	double busy_time;
	double last_b_end;
};

struct sim {
	const struct sb_pipe_plan *p;
	const struct sb_pipe_costs *c;
	const struct sb_pipe_schedule *sc;
	const struct sb_opts *o;
	int S, nc, M;
	struct dev *dev;              /* nc x S */
	double *fready, *bready;      /* nc x S x M: input available (INF: not yet) */
	unsigned char *fdone, *bdone; /* started */
	double *link_free;            /* nc x S x 2 */
	double rank[2 * 256];         /* per stage and kind (see below) */
	int have_rank;
	struct sb_heap ev;
	double now;
	struct sb_pipe_result *r;
	int evcap;
	struct sb_pipe_task *ready;
};

#define IDX(c, s, i) (((size_t)(c) * (size_t)sim->S + (size_t)(s)) * (size_t)sim->M + (size_t)(i))

static void record(struct sim *sim, int copy, int stage, int kind, int mb, int link,
		   double start, double end)
{
	struct sb_pipe_result *r = sim->r;
	struct sb_pipe_event *e;
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
	const struct sb_pipe_costs *c = sim->c;
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

/* Try to start a task on (copy, stage). */
static void dispatch(struct sim *sim, int copy, int s)
{
	struct dev *d = &sim->dev[copy * sim->S + s];
	struct sb_pipe_view v;
	int n = 0, i, cap, pick;
	double dur;

	if (d->busy)
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
	for (i = 0; i < sim->M; i++)
		if (!sim->bdone[IDX(copy, s, i)] && sim->bready[IDX(copy, s, i)] <= sim->now) {
			sim->ready[n].kind = SB_PIPE_B;
			sim->ready[n++].mb = i;
		}
	if (v.inflight < cap)
		for (i = 0; i < sim->M; i++)
			if (!sim->fdone[IDX(copy, s, i)] && sim->fready[IDX(copy, s, i)] <= sim->now) {
				sim->ready[n].kind = SB_PIPE_F;
				sim->ready[n++].mb = i;
			}
	if (n == 0)
		return;
	pick = sim->sc->pick(&v, sim->ready, n, sim->o);
	if (pick < 0)
		return;
	if (pick >= n)
		SB_BUG("pipesim: schedule %s picked %d of %d ready tasks", sim->sc->name, pick, n);
	i = sim->ready[pick].mb;
	if (sim->ready[pick].kind == SB_PIPE_F) {
		sim->fdone[IDX(copy, s, i)] = 1;
		d->fstart++;
		dur = sim->c->F[copy * sim->S + s];
		if (d->fstart - d->bstart > d->peak)
			d->peak = d->fstart - d->bstart;
		sb_heap_push(&sim->ev, sim->now + dur, ev_pack(E_COMPUTE_F, copy, s, i));
	} else {
		sim->bdone[IDX(copy, s, i)] = 1;
		d->bstart++;
		dur = sim->c->B[copy * sim->S + s];
		sb_heap_push(&sim->ev, sim->now + dur, ev_pack(E_COMPUTE_B, copy, s, i));
	}
	d->busy = 1;
	d->busy_time += dur;
	record(sim, copy, s, sim->ready[pick].kind, i, -1, sim->now, sim->now + dur);
}

/* A transfer on link (copy, s <-> s+1), direction dir (0: s -> s+1),
 * produced now: FIFO behind earlier ones. */
static void transfer(struct sim *sim, int copy, int s, int dir, int mb)
{
	double *lf = &sim->link_free[((size_t)copy * sim->S + s) * 2 + dir];
	double start = sb_max(sim->now, *lf), end = start + sim->c->C[copy * sim->S + s];
	*lf = end;
	sb_heap_push(&sim->ev, end, ev_pack(dir ? E_XFER_B : E_XFER_F, copy, s, mb));
	record(sim, copy, -1, dir ? SB_PIPE_B : SB_PIPE_F, mb, s, start, end);
}

void sb_pipe_result_release(struct sb_pipe_result *r)
{
	if (!r)
		return;
	sb_free(r->peak_inflight);
	sb_free(r->ev);
	memset(r, 0, sizeof *r);
}

int sb_pipe_simulate(const struct sb_pipe_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipe_schedule *sc,
		     const struct sb_opts *o, struct sb_pipe_result *r, struct sb_err *err)
{
	struct sim sim_s, *sim = &sim_s;
	struct sb_pipe_costs c;
	struct sb_heap_item it;
	int rc, k, s, i, left;
	size_t ntask;
	double end = 0, busy = 0, span = 0, peak_mem = 0;

	memset(r, 0, sizeof *r);
	rc = sb_pipe_plan_validate(p, m, t, err);
	if (rc)
		return rc;
	if (p->S > 256)
		return sb_err_set(err, SB_EXIT_INPUT, "plan (%s): more than 256 stages", p->planner);
	sb_pipe_costs_build(&c, p, m, t);
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
	sim->fready = SB_NEW(double, ntask);
	sim->bready = SB_NEW(double, ntask);
	sim->fdone = SB_NEW(unsigned char, ntask);
	sim->bdone = SB_NEW(unsigned char, ntask);
	sim->link_free = SB_NEW(double, (size_t)p->copies * p->S * 2);
	sim->ready = SB_NEW(struct sb_pipe_task, 2 * p->M);
	sb_heap_init(&sim->ev);
	if (sc->wants_rank)
		ranks(sim);
	for (k = 0; k < p->copies; k++)
		for (s = 0; s < p->S; s++)
			for (i = 0; i < p->M; i++) {
				sim->fready[IDX(k, s, i)] = s == 0 ? 0 : INFINITY;
				sim->bready[IDX(k, s, i)] = INFINITY;
			}
	left = (int)(2 * ntask);
	for (k = 0; k < p->copies; k++)
		for (s = 0; s < p->S; s++)
			dispatch(sim, k, s);
	while (sb_heap_pop(&sim->ev, &it)) {
		int what = (int)(it.val >> 56), copy = (int)((it.val >> 40) & 0xffff);
		int st = (int)((it.val >> 24) & 0xffff), mb = (int)(it.val & 0xffffff);
		sim->now = it.key;
		switch (what) {
		case E_COMPUTE_F:
			sim->dev[copy * p->S + st].busy = 0;
			left--;
			if (st + 1 < p->S)
				transfer(sim, copy, st, 0, mb);
			else
				sim->bready[IDX(copy, st, mb)] = sim->now;
			break;
		case E_COMPUTE_B:
			sim->dev[copy * p->S + st].busy = 0;
			sim->dev[copy * p->S + st].last_b_end = sim->now;
			left--;
			if (st > 0)
				transfer(sim, copy, st - 1, 1, mb);
			break;
		case E_XFER_F:
			sim->fready[IDX(copy, st + 1, mb)] = sim->now;
			break;
		case E_XFER_B:
			sim->bready[IDX(copy, st, mb)] = sim->now;
			break;
		}
		/* every device may have something new to do (S x copies is small) */
		if (!sb_heap_peek(&sim->ev) || sb_heap_peek(&sim->ev)->key > sim->now)
			for (k = 0; k < p->copies; k++)
				for (s = 0; s < p->S; s++)
					dispatch(sim, k, s);
	}
	if (left > 0) {
		rc = sb_err_set(err, SB_EXIT_RUN, "schedule %s deadlocked on plan %s: %d tasks never "
				"ran", sc->name, p->planner, left);
		sb_pipe_result_release(r);
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
	sb_free(sim->fready);
	sb_free(sim->bready);
	sb_free(sim->fdone);
	sb_free(sim->bdone);
	sb_free(sim->link_free);
	sb_free(sim->ready);
	sb_pipe_costs_release(&c);
	return rc;
}
