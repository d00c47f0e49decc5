/*
 * actor.c - the actor DES (see actor.h for the rules and their sources).
 *
 * Register accounting per produced slot, with consumers reading in order:
 * `started` registers were taken by acts that began, `done` of them are
 * readable; consumer c has taken `taken[c]` and returned `ret[c]`. The
 * register j is free again once every consumer has returned j + 1, so a
 * slot holds started - min_c ret[c] registers: write-ready while that is
 * below its quota. All events of one instant are applied before any actor
 * is offered work, so that priorities on a shared device are honoured
 * whatever order the queue gives to simultaneous events.
 */
#include "actor.h"
#include "heap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sb_actor_sys_init(struct sb_actor_sys *s)
{
	memset(s, 0, sizeof *s);
}

void sb_actor_sys_release(struct sb_actor_sys *s)
{
	sb_free(s->a);
	memset(s, 0, sizeof *s);
}

int sb_actor_add(struct sb_actor_sys *s, const char *name, int64_t dur)
{
	struct sb_actor *a;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->a = sb_xrealloc(s->a, sizeof *s->a * (size_t)s->cap);
	}
	a = &s->a[s->n];
	memset(a, 0, sizeof *a);
	snprintf(a->name, sizeof a->name, "%s", name);
	a->dur = dur;
	a->device = -1;
	a->after = -1;
	return s->n++;
}

int sb_actor_slot(struct sb_actor_sys *s, int a, int quota, double bytes)
{
	struct sb_actor *x = &s->a[a];
	int k = x->nout < SB_ACTOR_MAXOUT ? x->nout : SB_ACTOR_MAXOUT - 1;
	if (x->nout < SB_ACTOR_MAXOUT + 1)
		x->nout++;   /* one too many is reported by validate */
	if (x->nout <= SB_ACTOR_MAXOUT) {
		x->out[k].quota = quota;
		x->out[k].bytes = bytes;
		x->out[k].ncons = 0;
	}
	return k;
}

void sb_actor_connect(struct sb_actor_sys *s, int p, int slot, int c, int batch)
{
	struct sb_actor *x = &s->a[c];
	struct sb_actor_out *o = &s->a[p].out[slot];
	if (x->nin < SB_ACTOR_MAXIN) {
		x->in[x->nin].actor = p;
		x->in[x->nin].slot = slot;
		x->in[x->nin].batch = batch;
	}
	if (o->ncons < SB_ACTOR_MAXCONS) {
		o->cons[o->ncons] = c;
		o->cslot[o->ncons] = x->nin;
	}
	x->nin++;
	o->ncons++;
}

int sb_actor_validate(const struct sb_actor_sys *s, struct sb_err *err)
{
	int i, k;
	for (i = 0; i < s->n; i++) {
		const struct sb_actor *a = &s->a[i];
		if (a->dur < 0)
			return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'duration': negative",
					  a->name);
		if (a->nout > SB_ACTOR_MAXOUT || a->nin > SB_ACTOR_MAXIN)
			return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'slots': at most %d "
					  "produced and %d consumed", a->name, SB_ACTOR_MAXOUT,
					  SB_ACTOR_MAXIN);
		if (a->limit < 0 || (a->after >= s->n) || a->after_n < 0)
			return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'limit': negative or "
					  "bad control edge", a->name);
		for (k = 0; k < a->nout; k++) {
			if (a->out[k].quota <= 0)
				return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'quota': %d, "
						  "must be >= 1", a->name, a->out[k].quota);
			if (a->out[k].ncons > SB_ACTOR_MAXCONS)
				return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'consumers': "
						  "at most %d", a->name, SB_ACTOR_MAXCONS);
		}
		for (k = 0; k < a->nin; k++)
			if (a->in[k].batch <= 0)
				return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'batch': %d, "
						  "must be >= 1", a->name, a->in[k].batch);
		if (!a->nin && !a->limit)
			return sb_err_set(err, SB_EXIT_INPUT, "actor %s: field 'limit': a source "
					  "needs a number of pieces", a->name);
	}
	return 0;
}

void sb_actor_result_release(struct sb_actor_result *r)
{
	sb_free(r->acts);
	sb_free(r->first_end);
	sb_free(r->last_end);
	sb_free(r->peak);
	sb_free(r->busy);
	sb_free(r->trace_t);
	sb_free(r->trace_n);
	memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------ */
/* Simulation                                                          */
/* ------------------------------------------------------------------ */

struct slot_state {
	long started, done;
	long taken[SB_ACTOR_MAXCONS], ret[SB_ACTOR_MAXCONS];
};

struct sim {
	const struct sb_actor_sys *s;
	struct slot_state *st;       /* n x MAXOUT */
	int *busy;                   /* per actor: acting */
	int *dev_busy;               /* per device */
	int ndev;
	int *dev_first, *dev_next;   /* actors of each device, a list */
	struct sb_heap ev;
	int64_t now;
	struct sb_rng *rng;
	struct sb_actor_result *r;
	int ta, tslot;
	long tcap;
	int *mark, *touched, ntouched;
	/* precomputed so that no event scans the system: actor i's k-th
	 * input is consumer cidx[i * MAXIN + k] of its producer's slot; the
	 * actors whose control edge waits on i, a list */
	int *cidx;
	int *wait_first, *wait_next;
};

static long live(const struct sim *m, int a, int k)
{
	const struct slot_state *ss = &m->st[a * SB_ACTOR_MAXOUT + k];
	const struct sb_actor_out *o = &m->s->a[a].out[k];
	long lo = ss->done;
	int c;
	for (c = 0; c < o->ncons; c++)
		if (ss->ret[c] < lo)
			lo = ss->ret[c];
	return ss->started - lo;
}

static void trace(struct sim *m)
{
	struct sb_actor_result *r = m->r;
	if (m->ta < 0)
		return;
	if (r->ntrace == m->tcap) {
		m->tcap = m->tcap ? 2 * m->tcap : 1024;
		r->trace_t = sb_xrealloc(r->trace_t, sizeof *r->trace_t * (size_t)m->tcap);
		r->trace_n = sb_xrealloc(r->trace_n, sizeof *r->trace_n * (size_t)m->tcap);
	}
	r->trace_t[r->ntrace] = m->now;
	r->trace_n[r->ntrace++] = (int)live(m, m->ta, m->tslot);
}

static int ready(const struct sim *m, int i)
{
	const struct sb_actor *a = &m->s->a[i];
	int k;
	if (m->busy[i] || (a->limit && m->r->acts[i] >= a->limit))
		return 0;
	if (a->after >= 0 && m->r->acts[a->after] < a->after_n)
		return 0;
	for (k = 0; k < a->nout; k++)
		if (live(m, i, k) >= a->out[k].quota)
			return 0;
	for (k = 0; k < a->nin; k++) {
		const struct sb_actor_in *in = &a->in[k];
		const struct slot_state *ss = &m->st[in->actor * SB_ACTOR_MAXOUT + in->slot];
		if (ss->done - ss->taken[m->cidx[i * SB_ACTOR_MAXIN + k]] < in->batch)
			return 0;
	}
	return 1;
}

static int cons_index(const struct sb_actor_out *o, int i, int k)
{
	int c;
	for (c = 0; c < o->ncons && !(o->cons[c] == i && o->cslot[c] == k); c++)
		;
	return c;
}

static void start(struct sim *m, int i)
{
	const struct sb_actor *a = &m->s->a[i];
	int64_t d = a->dur;
	int k;
	for (k = 0; k < a->nout; k++) {
		int *pk = &m->r->peak[i * SB_ACTOR_MAXOUT + k];
		long l;
		m->st[i * SB_ACTOR_MAXOUT + k].started++;
		l = live(m, i, k);
		if (l > *pk)
			*pk = (int)l;
	}
	for (k = 0; k < a->nin; k++) {
		const struct sb_actor_in *in = &a->in[k];
		m->st[in->actor * SB_ACTOR_MAXOUT + in->slot].taken[m->cidx[i * SB_ACTOR_MAXIN + k]] +=
			in->batch;
	}
	if (m->s->jitter > 0 && d > 0)
		d = llround((double)d * sb_rng_lognormal(m->rng, 0, m->s->jitter));
	m->busy[i] = 1;
	if (a->device >= 0)
		m->dev_busy[a->device] = 1;
	m->r->busy[i] += d;
	sb_heap_push(&m->ev, (double)(m->now + d), i);
	if (i == m->ta)
		trace(m);
}

static void touch(struct sim *m, int i)
{
	if (!m->mark[i]) {
		m->mark[i] = 1;
		m->touched[m->ntouched++] = i;
	}
}

static void finish(struct sim *m, int i)
{
	const struct sb_actor *a = &m->s->a[i];
	int k, c;
	m->busy[i] = 0;
	if (a->device >= 0)
		m->dev_busy[a->device] = 0;
	if (!m->r->acts[i]++)
		m->r->first_end[i] = m->now;
	m->r->last_end[i] = m->now;
	m->r->end = m->now;
	m->r->events++;
	touch(m, i);
	for (k = 0; k < a->nout; k++) {
		m->st[i * SB_ACTOR_MAXOUT + k].done++;
		for (c = 0; c < a->out[k].ncons; c++)
			touch(m, a->out[k].cons[c]);
	}
	for (k = 0; k < a->nin; k++) {
		const struct sb_actor_in *in = &a->in[k];
		m->st[in->actor * SB_ACTOR_MAXOUT + in->slot].ret[m->cidx[i * SB_ACTOR_MAXIN + k]] +=
			in->batch;
		touch(m, in->actor);
		if (in->actor == m->ta)
			trace(m);
	}
	/* a control edge's waiter may be ready now */
	for (k = m->wait_first[i]; k >= 0; k = m->wait_next[k])
		touch(m, k);
	if (i == m->ta)
		trace(m);
}

/* offer work: own-device actors that are ready act; a free shared device
 * takes its ready actor of highest priority */
static void offer(struct sim *m, int i)
{
	const struct sb_actor *a = &m->s->a[i];
	if (a->device < 0) {
		if (ready(m, i))
			start(m, i);
		return;
	}
	if (!m->dev_busy[a->device]) {
		int j, best = -1;
		for (j = m->dev_first[a->device]; j >= 0; j = m->dev_next[j])
			if (ready(m, j) && (best < 0 || m->s->a[j].prio > m->s->a[best].prio))
				best = j;
		if (best >= 0)
			start(m, best);
	}
}

int sb_actor_run(const struct sb_actor_sys *s, struct sb_rng *rng, int trace_actor,
		 int trace_slot, struct sb_actor_result *r, struct sb_err *err)
{
	struct sim m;
	struct sb_heap_item it;
	int i, rc;

	memset(r, 0, sizeof *r);
	if ((rc = sb_actor_validate(s, err)))
		return rc;
	memset(&m, 0, sizeof m);
	m.s = s;
	m.rng = rng;
	m.r = r;
	m.ta = trace_actor;
	m.tslot = trace_slot;
	m.st = SB_NEW(struct slot_state, (size_t)s->n * SB_ACTOR_MAXOUT + 1);
	m.busy = SB_NEW(int, s->n + 1);
	m.mark = SB_NEW(int, s->n + 1);
	m.touched = SB_NEW(int, s->n + 1);
	for (i = 0; i < s->n; i++)
		if (s->a[i].device >= m.ndev)
			m.ndev = s->a[i].device + 1;
	m.dev_busy = SB_NEW(int, m.ndev + 1);
	m.cidx = SB_NEW(int, (size_t)s->n * SB_ACTOR_MAXIN + 1);
	m.wait_first = SB_NEW(int, s->n + 1);
	m.wait_next = SB_NEW(int, s->n + 1);
	for (i = 0; i < s->n; i++) {
		const struct sb_actor *a = &s->a[i];
		int k;
		for (k = 0; k < a->nin; k++)
			m.cidx[i * SB_ACTOR_MAXIN + k] = cons_index(&s->a[a->in[k].actor].out[a->in[k].slot],
								   i, k);
		m.wait_first[i] = -1;
	}
	for (i = s->n - 1; i >= 0; i--)
		if (s->a[i].after >= 0) {
			m.wait_next[i] = m.wait_first[s->a[i].after];
			m.wait_first[s->a[i].after] = i;
		}
	m.dev_first = SB_NEW(int, m.ndev + 1);
	m.dev_next = SB_NEW(int, s->n + 1);
	for (i = 0; i < m.ndev; i++)
		m.dev_first[i] = -1;
	for (i = s->n - 1; i >= 0; i--)   /* lists in id order: ties to the lowest id */
		if (s->a[i].device >= 0) {
			m.dev_next[i] = m.dev_first[s->a[i].device];
			m.dev_first[s->a[i].device] = i;
		}
	r->acts = SB_NEW(int, s->n + 1);
	r->first_end = SB_NEW(int64_t, s->n + 1);
	r->last_end = SB_NEW(int64_t, s->n + 1);
	r->busy = SB_NEW(int64_t, s->n + 1);
	r->peak = SB_NEW(int, (size_t)s->n * SB_ACTOR_MAXOUT + 1);
	sb_heap_init(&m.ev);
	if (m.ta >= 0)
		trace(&m);
	for (i = 0; i < s->n; i++)
		offer(&m, i);
	while (sb_heap_pop(&m.ev, &it)) {
		int j;
		m.now = (int64_t)it.key;
		finish(&m, (int)it.val);
		while (sb_heap_size(&m.ev) && sb_heap_peek(&m.ev)->key == it.key) {
			sb_heap_pop(&m.ev, &it);
			finish(&m, (int)it.val);
		}
		/* offer in id order, so that ties do not depend on event order */
		for (j = 0; j < m.ntouched; j++)
			for (i = j + 1; i < m.ntouched; i++)
				if (m.touched[i] < m.touched[j]) {
					int t = m.touched[i];
					m.touched[i] = m.touched[j];
					m.touched[j] = t;
				}
		/* offering a shared-device actor offers its whole device (a device
		 * that freed may take any of its actors), once: nothing changes
		 * between offers of one device */
		for (j = 0; j < m.ntouched; j++) {
			int x = m.touched[j];
			m.mark[x] = 0;
			offer(&m, x);
		}
		m.ntouched = 0;
	}
	for (i = 0; i < s->n; i++)
		if (!s->a[i].nin && r->acts[i] < s->a[i].limit)
			r->deadlock = 1;
	sb_heap_release(&m.ev);
	sb_free(m.st);
	sb_free(m.busy);
	sb_free(m.mark);
	sb_free(m.touched);
	sb_free(m.dev_busy);
	sb_free(m.dev_first);
	sb_free(m.dev_next);
	sb_free(m.cidx);
	sb_free(m.wait_first);
	sb_free(m.wait_next);
	return 0;
}

double sb_actor_chain_period(const int64_t *d, const int *r, int n)
{
	double p = 0;
	int i;
	for (i = 0; i < n; i++)
		p = sb_max(p, (double)d[i]);
	for (i = 0; i + 1 < n; i++)
		p = sb_max(p, (double)(d[i] + d[i + 1]) / r[i]);
	return p;
}

void sb_actor_pipeline(struct sb_actor_sys *s, int S, int M, const int64_t *F,
		       const int64_t *B, int kind)
{
	int st, unb = SB_ACTOR_UNBOUNDED;
	char nm[32];
	for (st = 0; st < S; st++) {
		int f, b, stash;
		snprintf(nm, sizeof nm, "F%d", st);
		f = sb_actor_add(s, nm, F[st]);
		snprintf(nm, sizeof nm, "B%d", st);
		b = sb_actor_add(s, nm, B[st]);
		s->a[f].device = s->a[b].device = st;
		s->a[f].prio = kind == SB_PIPE_GPIPE ? 1 : 0;
		s->a[b].prio = kind == SB_PIPE_GPIPE ? 0 : 1;
		if (kind == SB_PIPE_GPIPE)
			s->a[b].after = f, s->a[b].after_n = M;
		/* slot 0: activations to the next stage (the last: none) */
		sb_actor_slot(s, f, kind == SB_PIPE_ONEFLOW ? 3 : unb, 0);
		stash = kind == SB_PIPE_GPIPE ? M : kind == SB_PIPE_1F1B ? S - st :
			st == S - 1 ? 1 : 2 * S;
		sb_actor_slot(s, f, stash, 1);
		sb_actor_connect(s, f, 1, b, 1);
		/* backward's slot 0: gradients to the previous stage */
		sb_actor_slot(s, b, kind == SB_PIPE_ONEFLOW ? 3 : unb, 0);
		if (st > 0) {
			sb_actor_connect(s, f - 2, 0, f, 1);
			sb_actor_connect(s, b, 0, b - 2, 1);
		} else {
			s->a[f].limit = M;
		}
	}
}
