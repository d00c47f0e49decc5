/*
 * listsched.c - shared machinery of the dag list-scheduling baselines:
 * mean-cost ranks, the ready list, the schedule under construction with
 * colocation and memory bookkeeping, insertion-based priority scheduling
 * (HEFT, CPOP) and the earliest-task-first loop (ETF, m-ETF, m-SCT).
 * See listsched.h for the model. Registers no policy.
 */
#include "listsched.h"

#include <math.h>
#include <string.h>

int sb_ls_near(double a, double b)
{
	double m = fmax(fabs(a), fabs(b));
	return a == b || fabs(a - b) <= 1e-9 * m;
}

int sb_ls_err_nodev(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		    int k, const double *free_mem, struct sb_err *err)
{
	long id = in->g.ext_id[c->member[c->off[k]]];
	int d, allowed = 0;
	double most = 0;

	for (d = 0; d < in->dev.n; d++)
		if (sb_dag_comp_allowed(in, c, k, d)) {
			allowed++;
			if (free_mem && free_mem[d] > most)
				most = free_mem[d];
		}
	if (!allowed)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "op %ld: no device is allowed for its colocation "
				  "component (%d ops)", id, c->off[k + 1] - c->off[k]);
	return sb_err_set(err, SB_EXIT_INPUT,
			  "op %ld: no allowed device has memory left for its "
			  "colocation component (needs %g, at most %g free)",
			  id, c->mem[k], most);
}

/* ------------------------------------------------------------------ */
/* Mean-cost quantities                                                */
/* ------------------------------------------------------------------ */

void sb_ls_mean_costs(const struct sb_dag_inst *in, double *wbar, double *cbar)
{
	const struct sb_dag *g = &in->g;
	double rbar = sb_dag_mean_rate(in);
	int v, e;

	for (v = 0; v < g->n; v++)
		wbar[v] = sb_dag_mean_time(in, v);
	if (!cbar)
		return;
	for (e = 0; e < g->m; e++)
		cbar[e] = isinf(rbar) ? 0.0 : g->succ_size[e] / rbar;
}

void sb_ls_rank_up(const struct sb_dag *g, const double *wbar,
		   const double *cbar, double *rank)
{
	int i, e;

	for (i = g->n - 1; i >= 0; i--) {
		int v = g->topo[i];
		double best = 0;
		for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
			double x = (cbar ? cbar[e] : 0.0) + rank[g->succ[e]];
			if (x > best)
				best = x;
		}
		rank[v] = wbar[v] + best;
	}
}

void sb_ls_rank_down(const struct sb_dag *g, const double *wbar,
		     const double *cbar, double *rank)
{
	int i, k;

	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		double best = 0;
		for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
			int u = g->pred[k];
			double x = rank[u] + wbar[u] + (cbar ? cbar[g->pred_edge[k]] : 0.0);
			if (x > best)
				best = x;
		}
		rank[v] = best;
	}
}

/* ------------------------------------------------------------------ */
/* Ready list                                                          */
/* ------------------------------------------------------------------ */

static void ready_push(struct sb_ls_ready *r, int v)
{
	r->pos[v] = r->n;
	r->op[r->n++] = v;
}

void sb_ls_ready_init(struct sb_ls_ready *r, const struct sb_dag *g)
{
	int v;

	r->n = 0;
	r->op = SB_NEW(int, g->n);
	r->pos = SB_NEW(int, g->n);
	r->missing = SB_NEW(int, g->n);
	for (v = 0; v < g->n; v++) {
		r->pos[v] = -1;
		r->missing[v] = g->pred_off[v + 1] - g->pred_off[v];
		if (!r->missing[v])
			ready_push(r, v);
	}
}

void sb_ls_ready_release(struct sb_ls_ready *r)
{
	sb_free(r->op);
	sb_free(r->pos);
	sb_free(r->missing);
	memset(r, 0, sizeof *r);
}

int sb_ls_ready_remove(struct sb_ls_ready *r, int v)
{
	int slot = r->pos[v];

	SB_ASSERT(slot >= 0);
	r->n--;
	if (slot < r->n) {
		r->op[slot] = r->op[r->n];
		r->pos[r->op[slot]] = slot;
	}
	r->pos[v] = -1;
	return slot;
}

int sb_ls_ready_done(struct sb_ls_ready *r, const struct sb_dag *g, int v)
{
	int e, cnt = 0;

	for (e = g->succ_off[v]; e < g->succ_off[v + 1]; e++) {
		int w = g->succ[e];
		if (--r->missing[w] == 0) {
			ready_push(r, w);
			cnt++;
		}
	}
	return cnt;
}

int sb_ls_ready_pop_max(struct sb_ls_ready *r, const double *prio)
{
	int i, best = -1;

	for (i = 0; i < r->n; i++) {
		int v = r->op[i];
		if (best < 0 || (sb_ls_near(prio[v], prio[best]) ? v < best
				 : prio[v] > prio[best]))
			best = v;
	}
	if (best >= 0)
		sb_ls_ready_remove(r, best);
	return best;
}

/* ------------------------------------------------------------------ */
/* Schedule under construction                                         */
/* ------------------------------------------------------------------ */

int sb_ls_init(struct sb_ls *s, const struct sb_dag_inst *in,
	       struct sb_dag_plan *plan, struct sb_err *err)
{
	int nd = in->dev.n, k, d, any;

	memset(s, 0, sizeof *s);
	s->in = in;
	s->g = &in->g;
	s->n = in->g.n;
	s->nd = nd;
	sb_dag_comps_build(&s->comps, in);
	s->comp_ok = SB_NEW(unsigned char, (size_t)s->comps.n * nd);
	s->comp_dev = SB_NEW(int, s->comps.n);
	s->free_mem = SB_NEW(double, nd);
	s->avail = SB_NEW(double, nd);
	s->last = SB_NEW(int, nd);
	s->busy = SB_NEW(struct sb_ls_busy, nd);
	s->place = plan->place;
	s->start = plan->plan_start;
	s->finish = plan->plan_finish;
	SB_ASSERT(s->place && s->start && s->finish);
	sb_dag_free_mem_init(in, s->free_mem);
	for (d = 0; d < nd; d++)
		s->last[d] = -1;
	for (k = 0; k < s->comps.n; k++) {
		s->comp_dev[k] = -1;
		for (d = any = 0; d < nd; d++) {
			s->comp_ok[(size_t)k * nd + d] =
				(unsigned char)sb_dag_comp_allowed(in, &s->comps, k, d);
			any |= s->comp_ok[(size_t)k * nd + d];
		}
		if (!any)
			return sb_ls_err_nodev(in, &s->comps, k, NULL, err);
	}
	for (k = 0; k < s->n; k++)
		s->place[k] = -1;
	return 0;
}

void sb_ls_release(struct sb_ls *s)
{
	int d;

	if (s->busy)
		for (d = 0; d < s->nd; d++) {
			sb_free(s->busy[d].s);
			sb_free(s->busy[d].f);
		}
	sb_free(s->busy);
	sb_dag_comps_release(&s->comps);
	sb_free(s->comp_ok);
	sb_free(s->comp_dev);
	sb_free(s->free_mem);
	sb_free(s->avail);
	sb_free(s->last);
	memset(s, 0, sizeof *s);
}

int sb_ls_can(const struct sb_ls *s, int v, int d)
{
	int k = s->g->comp[v];

	if (s->comp_dev[k] >= 0)
		return s->comp_dev[k] == d;
	return s->comp_ok[(size_t)k * s->nd + d] && s->comps.mem[k] <= s->free_mem[d];
}

double sb_ls_data_ready(const struct sb_ls *s, int v, int d)
{
	const struct sb_dag *g = s->g;
	double t = 0;
	int k;

	for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++) {
		int u = g->pred[k];
		double a = s->finish[u] +
			sb_dag_xfer(s->in, g->succ_size[g->pred_edge[k]], s->place[u], d);
		if (a > t)
			t = a;
	}
	return t;
}

/* First interval of b finishing after t (intervals never overlap, so they
 * are sorted by finish as well as by start). */
static int busy_first_after(const struct sb_ls_busy *b, double t)
{
	int lo = 0, hi = b->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (b->f[mid] > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

double sb_ls_insert_est(const struct sb_ls *s, int d, double ready, double dur)
{
	const struct sb_ls_busy *b = &s->busy[d];
	double t = ready;
	int i;

	for (i = busy_first_after(b, ready); i < b->n; i++) {
		if (t + dur <= b->s[i])
			return t;
		if (b->f[i] > t)
			t = b->f[i];
	}
	return t;
}

static void busy_insert(struct sb_ls_busy *b, double st, double fi)
{
	int i;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->s = sb_xrealloc(b->s, sizeof(double) * (size_t)b->cap);
		b->f = sb_xrealloc(b->f, sizeof(double) * (size_t)b->cap);
	}
	/* Mostly an append; insertion into a gap moves the tail. */
	for (i = b->n; i > 0 && b->s[i - 1] > st; i--) {
		b->s[i] = b->s[i - 1];
		b->f[i] = b->f[i - 1];
	}
	b->s[i] = st;
	b->f[i] = fi;
	b->n++;
}

void sb_ls_assign(struct sb_ls *s, int v, int d, double start)
{
	int k = s->g->comp[v];
	double fi = start + sb_dag_time(s->in, v, d);

	if (s->comp_dev[k] < 0) {
		s->comp_dev[k] = d;
		s->free_mem[d] -= s->comps.mem[k];
	}
	SB_ASSERT(s->comp_dev[k] == d);
	s->place[v] = d;
	s->start[v] = start;
	s->finish[v] = fi;
	/* A zero-length op occupies nothing; kept out of the list, which
	 * must stay sorted by finish as well as by start. */
	if (fi > start)
		busy_insert(&s->busy[d], start, fi);
	if (fi >= s->avail[d]) {
		s->avail[d] = fi;
		s->last[d] = v;
	}
	s->nsched++;
}

void sb_ls_finish(struct sb_ls *s, struct sb_dag_plan *plan)
{
	double mk = 0;
	int v;

	SB_ASSERT(s->nsched == s->n);
	for (v = 0; v < s->n; v++)
		if (s->finish[v] > mk)
			mk = s->finish[v];
	plan->has_plan = SB_DAG_PLAN_SCHEDULE;
	plan->plan_makespan = mk;
}

/* ------------------------------------------------------------------ */
/* Priority list scheduling with insertion (HEFT, CPOP)                */
/* ------------------------------------------------------------------ */

static double published_ready(const struct sb_ls *s, int v, int d, const void *arg)
{
	(void)arg;
	return sb_ls_data_ready(s, v, d);
}

int sb_ls_insertion(const struct sb_dag_inst *in, const double *prio,
		    const int *want, sb_ls_ready_fn *ready, const void *arg,
		    struct sb_dag_plan *plan, struct sb_err *err)
{
	struct sb_ls s;
	struct sb_ls_ready r;
	int rc, v, d;

	memset(&r, 0, sizeof r);
	if (!ready)
		ready = published_ready;
	rc = sb_ls_init(&s, in, plan, err);
	if (rc)
		goto out;
	sb_ls_ready_init(&r, &in->g);
	while ((v = sb_ls_ready_pop_max(&r, prio)) >= 0) {
		int best = -1;
		double best_st = 0, best_ft = INFINITY;

		if (want && want[v] >= 0 && sb_ls_can(&s, v, want[v])) {
			best = want[v];
			best_st = sb_ls_insert_est(&s, best, ready(&s, v, best, arg),
						   sb_dag_time(in, v, best));
		} else {
			for (d = 0; d < s.nd; d++) {
				double w, st;
				if (!sb_ls_can(&s, v, d))
					continue;
				w = sb_dag_time(in, v, d);
				st = sb_ls_insert_est(&s, d, ready(&s, v, d, arg), w);
				if (best < 0 || st + w < best_ft) {
					best = d;
					best_st = st;
					best_ft = st + w;
				}
			}
		}
		if (best < 0) {
			rc = sb_ls_err_nodev(in, &s.comps, in->g.comp[v], s.free_mem, err);
			goto out;
		}
		sb_ls_assign(&s, v, best, best_st);
		sb_ls_ready_done(&r, &in->g, v);
	}
	sb_ls_finish(&s, plan);
out:
	sb_ls_ready_release(&r);
	sb_ls_release(&s);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Earliest task first (ETF, m-ETF, m-SCT)                             */
/* ------------------------------------------------------------------ */

/*
 * State of one ETF run. row[slot*nd + d] is the data-ready time on d of the
 * ready op in that slot (fixed once the op is ready, since all its
 * predecessors are scheduled). For each device the best candidate op is
 * cached and rescanned only when it may have changed: the device received
 * an op (its free time and memory changed), its candidate was scheduled, or
 * its candidate's component was just placed elsewhere; ops becoming ready
 * are offered to the caches directly. m-SCT rescans every device each step
 * because reservations and urgent times change globally.
 */
struct etf {
	struct sb_ls s;
	struct sb_ls_ready r;
	const struct sb_ls_etf_cfg *cfg;
	double *row;       /* ready slots x devices, grows with the list */
	int row_cap;       /* slots allocated in row */
	double *key;       /* tie key per op (larger wins) */
	int *bv;           /* cached best op per device, -1: none */
	double *be;        /* its start on that device */
	unsigned char *dirty;
	/* m-SCT only */
	double *urgent;    /* per op: latest start over its devices */
	double *earliest;  /* per op: earliest start over its devices */
	int *reserved;     /* per device: favourite child it waits for, -1 */
};

static void etf_grow_rows(struct etf *e, int need)
{
	if (need <= e->row_cap)
		return;
	while (e->row_cap < need)
		e->row_cap = e->row_cap ? 2 * e->row_cap : 64;
	e->row = sb_xrealloc(e->row, sizeof(double) * (size_t)e->row_cap * e->s.nd);
}

static void etf_fill_row(struct etf *e, int slot)
{
	int v = e->r.op[slot], d;
	double *row = e->row + (size_t)slot * e->s.nd;

	for (d = 0; d < e->s.nd; d++)
		row[d] = sb_ls_data_ready(&e->s, v, d);
}

/* Start of ready op v (in slot) on d, counting an m-SCT reservation. */
static double etf_start(const struct etf *e, int slot, int v, int d)
{
	double t = e->row[(size_t)slot * e->s.nd + d];

	if (e->s.avail[d] > t)
		t = e->s.avail[d];
	if (e->reserved && e->reserved[d] >= 0 && e->reserved[d] != v &&
	    e->urgent[v] > t)
		t = e->urgent[v];
	return t;
}

/* Pair order: smaller start, then larger key, then lower device, then
 * lower op. */
static int etf_before(const struct etf *e, double t1, int v1, int d1,
		      double t2, int v2, int d2)
{
	if (!sb_ls_near(t1, t2))
		return t1 < t2;
	if (!sb_ls_near(e->key[v1], e->key[v2]))
		return e->key[v1] > e->key[v2];
	if (d1 != d2)
		return d1 < d2;
	return v1 < v2;
}

static void etf_offer(struct etf *e, int slot, int d)
{
	int v = e->r.op[slot];
	double t;

	if (!sb_ls_can(&e->s, v, d))
		return;
	t = etf_start(e, slot, v, d);
	if (e->bv[d] < 0 || etf_before(e, t, v, d, e->be[d], e->bv[d], d)) {
		e->bv[d] = v;
		e->be[d] = t;
	}
}

static void etf_rescan(struct etf *e, int d)
{
	int i;

	e->bv[d] = -1;
	for (i = 0; i < e->r.n; i++)
		etf_offer(e, i, d);
	e->dirty[d] = 0;
}

/* m-SCT: urgent and earliest starts of every ready op, then which devices
 * wait for a favourite child. */
static void sct_refresh(struct etf *e)
{
	int nd = e->s.nd, i, d;

	for (d = 0; d < nd; d++)
		e->reserved[d] = -1;
	for (i = 0; i < e->r.n; i++) {
		int v = e->r.op[i];
		double lo = INFINITY, hi = -INFINITY;
		for (d = 0; d < nd; d++) {
			double t;
			if (!sb_ls_can(&e->s, v, d))
				continue;
			t = etf_start(e, i, v, d);  /* no reservation set yet */
			lo = fmin(lo, t);
			hi = fmax(hi, t);
		}
		e->earliest[v] = lo;
		e->urgent[v] = hi;
	}
	for (d = 0; d < nd; d++) {
		int last = e->s.last[d], fc, slot;
		if (last < 0 || (fc = e->cfg->fav[last]) < 0)
			continue;
		slot = e->r.pos[fc];
		if (slot < 0 || e->s.comp_dev[e->s.g->comp[fc]] >= 0 ||
		    !sb_ls_can(&e->s, fc, d))
			continue;
		if (sb_ls_near(etf_start(e, slot, fc, d), e->earliest[fc]))
			e->reserved[d] = fc;
	}
	for (d = 0; d < nd; d++)
		e->dirty[d] = 1;
}

static void etf_release(struct etf *e)
{
	sb_ls_ready_release(&e->r);
	sb_ls_release(&e->s);
	sb_free(e->row);
	sb_free(e->key);
	sb_free(e->bv);
	sb_free(e->be);
	sb_free(e->dirty);
	sb_free(e->urgent);
	sb_free(e->earliest);
	sb_free(e->reserved);
}

int sb_ls_etf(const struct sb_dag_inst *in, const struct sb_ls_etf_cfg *cfg,
	      struct sb_dag_plan *plan, struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	struct etf e;
	int rc, nd = in->dev.n, i, d, v;

	memset(&e, 0, sizeof e);
	e.cfg = cfg;
	rc = sb_ls_init(&e.s, in, plan, err);
	if (rc)
		goto out;
	e.key = SB_NEW(double, g->n);
	if (cfg->tie == SB_LS_TIE_TOPO) {
		for (i = 0; i < g->n; i++)
			e.key[g->topo[i]] = -(double)i;
	} else {
		double *wbar = SB_NEW(double, g->n);
		sb_ls_mean_costs(in, wbar, NULL);
		sb_ls_rank_up(g, wbar, NULL, e.key);
		sb_free(wbar);
	}
	e.bv = SB_NEW(int, nd);
	e.be = SB_NEW(double, nd);
	e.dirty = SB_NEW(unsigned char, nd);
	if (cfg->fav) {
		e.urgent = SB_NEW(double, g->n);
		e.earliest = SB_NEW(double, g->n);
		e.reserved = SB_NEW(int, nd);
	}
	sb_ls_ready_init(&e.r, g);
	etf_grow_rows(&e, e.r.n);
	for (i = 0; i < e.r.n; i++)
		etf_fill_row(&e, i);
	for (d = 0; d < nd; d++)
		e.dirty[d] = 1;

	while (e.s.nsched < g->n) {
		int bd = -1, k, slot, old_n, fresh, newly_placed;

		if (e.r.n == 0)
			SB_BUG("etf: no ready op with %d of %d scheduled", e.s.nsched, g->n);
		if (cfg->fav)
			sct_refresh(&e);
		for (d = 0; d < nd; d++) {
			if (e.dirty[d])
				etf_rescan(&e, d);
			if (e.bv[d] >= 0 && (bd < 0 || etf_before(&e, e.be[d], e.bv[d], d,
								 e.be[bd], e.bv[bd], bd)))
				bd = d;
		}
		if (bd < 0) {
			/* Every ready op is blocked: report the one with the lowest id. */
			int worst = e.r.op[0];
			for (i = 1; i < e.r.n; i++)
				if (e.r.op[i] < worst)
					worst = e.r.op[i];
			rc = sb_ls_err_nodev(in, &e.s.comps, g->comp[worst], e.s.free_mem, err);
			goto out;
		}
		v = e.bv[bd];
		k = g->comp[v];
		newly_placed = e.s.comp_dev[k] < 0;
		sb_ls_assign(&e.s, v, bd, e.be[bd]);

		slot = sb_ls_ready_remove(&e.r, v);
		if (slot < e.r.n)
			memcpy(e.row + (size_t)slot * nd, e.row + (size_t)e.r.n * nd,
			       sizeof(double) * (size_t)nd);
		for (d = 0; d < nd; d++)
			if (d == bd || e.bv[d] == v ||
			    (newly_placed && e.bv[d] >= 0 && g->comp[e.bv[d]] == k))
				e.dirty[d] = 1;

		old_n = e.r.n;
		fresh = sb_ls_ready_done(&e.r, g, v);
		etf_grow_rows(&e, e.r.n);
		for (i = old_n; i < old_n + fresh; i++) {
			etf_fill_row(&e, i);
			if (cfg->fav)
				continue; /* every device is rescanned next step */
			for (d = 0; d < nd; d++)
				if (!e.dirty[d])
					etf_offer(&e, i, d);
		}
	}
	sb_ls_finish(&e.s, plan);
out:
	etf_release(&e);
	return rc;
}
