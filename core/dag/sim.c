/*
 * sim.c - the dag-family simulator: one iteration of a placed dataflow
 * graph on heterogeneous devices.
 *
 * Semantics (spec tfpart.md §2, from the authors' simulator): all sources
 * are ready at t = 0; a device runs one task at a time, non-preemptively,
 * and is work-conserving: whenever it is free and has ready tasks, its
 * local scheduler chooses one. Sends are tasks of their producer's device
 * (send_ops work) and deliver the tensor to every consumer on the
 * destination device after size/rate; with send_ops = 0 they are pure
 * delays. No link contention.
 *
 * Event handling: all events at the same instant are processed before any
 * device chooses (so a choice sees every task that became ready at that
 * instant); ties in the event queue go by insertion order, and devices
 * choose in the order they became free or received work. The cost is
 * O((tasks + exec edges) log) - it grows with events, not with time.
 */
#include "dag.h"
#include "heap.h"

#include <math.h>
#include <string.h>

/* Event payload: task * 2 + kind. */
enum { EV_FINISH = 0, EV_ARRIVE = 1 };

struct readyq {          /* per device: ready tasks */
	struct sb_heap heap; /* static keys */
	int *list;           /* dynamic pick: tasks in ready order */
	int len, cap;
};

struct sim {
	const struct sb_dag_exec *x;
	const struct sb_dag_policy *sched;
	const struct sb_opts *so;
	struct sb_dag_simstate st;
	double *key;
	int *missing, *nready, *busy;
	struct readyq *rq;
	struct sb_heap events;
	int *dirty, ndirty;   /* devices to dispatch */
	char *is_dirty;
	int *stack, nstack;   /* pending zero-time completions */
	struct sb_dag_result *res;
	double now;
};

static void mark_dirty(struct sim *s, int d)
{
	if (!s->is_dirty[d]) {
		s->is_dirty[d] = 1;
		s->dirty[s->ndirty++] = d;
	}
}

static void make_ready(struct sim *s, int t)
{
	const struct sb_dag_exec *x = s->x;
	int d = x->dev[t];

	if (t >= x->n && x->delay_sends) {
		/* a pure-delay Send completes at once */
		s->res->start[t] = s->res->finish[t] = s->now;
		s->stack[s->nstack++] = t;
		return;
	}
	if (s->sched->pick) {
		struct readyq *q = &s->rq[d];
		if (q->len == q->cap) {
			q->cap = q->cap ? 2 * q->cap : 8;
			q->list = sb_xrealloc(q->list, (size_t)q->cap * sizeof *q->list);
		}
		q->list[q->len++] = t;
	} else {
		sb_heap_push(&s->rq[d].heap, s->key[t], t);
	}
	s->nready[d]++;
	mark_dirty(s, d);
}

static void deliver(struct sim *s, int t)
{
	if (--s->missing[t] == 0)
		make_ready(s, t);
	else if (s->missing[t] < 0)
		SB_BUG("task %d received more inputs than it has", t);
}

/* Task t has finished at s->now: free its device, pass its outputs on. */
static void complete(struct sim *s, int t)
{
	const struct sb_dag_exec *x = s->x;
	int k;

	if (!(t >= x->n && x->delay_sends)) {
		s->busy[x->dev[t]] = 0;
		mark_dirty(s, x->dev[t]);
	}
	for (k = x->x_off[t]; k < x->x_off[t + 1]; k++) {
		int w = x->x_to[k];
		if (x->x_delay[k] > 0)
			sb_heap_push(&s->events, s->now + x->x_delay[k],
				     (int64_t)w * 2 + EV_ARRIVE);
		else
			deliver(s, w);
	}
}

static void drain(struct sim *s)
{
	while (s->nstack > 0)
		complete(s, s->stack[--s->nstack]);
}

static void dispatch(struct sim *s)
{
	int i;
	for (i = 0; i < s->ndirty; i++) {
		int d = s->dirty[i], t;
		s->is_dirty[d] = 0;
		if (s->busy[d] || s->nready[d] == 0)
			continue;
		if (s->sched->pick) {
			struct readyq *q = &s->rq[d];
			int at;
			s->st.now = s->now;
			at = s->sched->pick(&s->st, d, q->list, q->len, s->so);
			if (at < 0 || at >= q->len)
				SB_BUG("scheduler %s picked %d of %d", s->sched->name, at, q->len);
			t = q->list[at];
			memmove(q->list + at, q->list + at + 1,
				(size_t)(q->len - at - 1) * sizeof *q->list);
			q->len--;
		} else {
			struct sb_heap_item it;
			sb_heap_pop(&s->rq[d].heap, &it);
			t = (int)it.val;
		}
		s->nready[d]--;
		s->busy[d] = 1;
		s->res->start[t] = s->now;
		s->res->finish[t] = s->now + s->x->dur[t];
		s->res->busy_time += s->x->dur[t];
		sb_heap_push(&s->events, s->res->finish[t], (int64_t)t * 2 + EV_FINISH);
	}
	s->ndirty = 0;
}

int sb_dag_simulate(const struct sb_dag_exec *x, const struct sb_dag_plan *plan,
		    const struct sb_dag_policy *sched, const struct sb_opts *so,
		    struct sb_dag_result *res, struct sb_err *err)
{
	struct sim s;
	int nd = x->in->dev.n, t, d, rc = 0;
	struct sb_heap_item ev;

	if (!sched->priority && !sched->pick)
		return sb_err_set(err, SB_EXIT_INPUT, "'%s' is not a local scheduler",
				  sched->name);
	memset(&s, 0, sizeof s);
	memset(res, 0, sizeof *res);
	s.x = x;
	s.sched = sched;
	s.so = so;
	s.res = res;
	res->ntask = x->ntask;
	res->start = SB_NEW(double, x->ntask);
	res->finish = SB_NEW(double, x->ntask);
	for (t = 0; t < x->ntask; t++)
		res->start[t] = res->finish[t] = NAN;
	s.key = SB_NEW(double, x->ntask);
	if (sched->priority) {
		rc = sched->priority(x, plan, so, s.key, err);
		if (rc)
			goto out;
	}
	s.missing = SB_NEW(int, x->ntask);
	memcpy(s.missing, x->indeg, sizeof(int) * (size_t)x->ntask);
	s.nready = SB_NEW(int, nd);
	s.busy = SB_NEW(int, nd);
	s.rq = SB_NEW(struct readyq, nd);
	for (d = 0; d < nd; d++)
		sb_heap_init(&s.rq[d].heap);
	sb_heap_init(&s.events);
	s.dirty = SB_NEW(int, nd);
	s.is_dirty = SB_NEW(char, nd);
	s.stack = SB_NEW(int, x->ntask);
	s.st = (struct sb_dag_simstate){ x, plan, 0.0, s.missing, s.nready, s.busy,
					 sched->priority ? s.key : NULL };

	for (t = 0; t < x->ntask; t++)
		if (s.missing[t] == 0)
			make_ready(&s, t);
	drain(&s);
	dispatch(&s);
	while (sb_heap_pop(&s.events, &ev)) {
		s.now = ev.key;
		for (;;) {
			int task = (int)(ev.val / 2);
			res->events++;
			if (ev.val % 2 == EV_FINISH)
				complete(&s, task);
			else
				deliver(&s, task);
			drain(&s);
			const struct sb_heap_item *top = sb_heap_peek(&s.events);
			if (!top || top->key != s.now)
				break;
			sb_heap_pop(&s.events, &ev);
		}
		dispatch(&s);
	}
	for (t = 0; t < x->ntask; t++) {
		if (isnan(res->finish[t]))
			SB_BUG("task %d never ran (deadlock in the execution graph)", t);
		if (res->finish[t] > res->makespan)
			res->makespan = res->finish[t];
	}
	res->comm_volume = x->comm_volume;
out:
	if (s.rq)
		for (d = 0; d < nd; d++) {
			sb_heap_release(&s.rq[d].heap);
			sb_free(s.rq[d].list);
		}
	sb_free(s.rq);
	sb_heap_release(&s.events);
	sb_free(s.key); sb_free(s.missing); sb_free(s.nready); sb_free(s.busy);
	sb_free(s.dirty); sb_free(s.is_dirty); sb_free(s.stack);
	if (rc)
		sb_dag_result_release(res);
	return rc;
}

void sb_dag_result_release(struct sb_dag_result *res)
{
	sb_free(res->start);
	sb_free(res->finish);
	memset(res, 0, sizeof *res);
}
