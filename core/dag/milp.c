/*
 * milp.c - the relaxed-send and the exact MILP of the dag family (spec
 * tfpart.md §10.1 and §10.2, our design [O]; see the design notes in
 * bound.h), with warm starts, deterministic budgets and honest status.
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* §10.1 / §10.2 MILP                                                  */
/* ------------------------------------------------------------------ */

struct mdl {
	const struct sb_dag_inst *in;
	const struct sb_dag *g;
	struct sb_dag_comps c;
	int n, nd, exact;
	unsigned char *ok;        /* ncomp x nd */
	double *tmin, *head, *tail;
	uint64_t *reach;          /* n x words: u reaches v (u != v) */
	int words;
	int *cls;                 /* smallest identical device of each device */
	double lb, ub;
	long node_limit, iter_limit;  /* of the MIP search; 0: none */
	double H;                 /* slack added to every big-M */
	double max_t, max_send, max_xfer;
	struct sb_lp *lp;
	int *xc;                  /* ncomp x nd: column of X_{k,d} or -1 */
	int *sc;                  /* n: S_v */
	int cc;                   /* C */
	int *kc;                  /* per edge: k_uv, -1 inside a component */
	/* Sends (exact model): task n + s */
	int ns;
	int *s_u, *s_d, *s_sc, *s_zc;
	int *send_of;             /* n x nd: Send index or -1 */
	/* disjunctive pairs of tasks */
	int np, pcap;
	int *pa, *pb, *py, *pq;   /* pq = -1: always on the same device */
	/* row being built */
	int rn, rcap;
	int *ri;
	double *rv;
};

static int reaches(const struct mdl *m, int u, int v)
{
	return (int)((m->reach[(size_t)u * m->words + v / 64] >> (v % 64)) & 1);
}

static void build_reach(struct mdl *m)
{
	const struct sb_dag *g = m->g;
	int i, k, w;

	m->words = (m->n + 63) / 64;
	m->reach = SB_NEW(uint64_t, (size_t)m->n * m->words);
	for (i = m->n - 1; i >= 0; i--) {
		int u = g->topo[i];
		uint64_t *ru = m->reach + (size_t)u * m->words;
		for (k = g->succ_off[u]; k < g->succ_off[u + 1]; k++) {
			int v = g->succ[k];
			const uint64_t *rv = m->reach + (size_t)v * m->words;
			ru[v / 64] |= (uint64_t)1 << (v % 64);
			for (w = 0; w < m->words; w++)
				ru[w] |= rv[w];
		}
	}
}

/* Devices d < e are interchangeable when speed, memory, type, times and
 * rates to every third device agree (then swapping them maps schedules to
 * schedules of the same makespan). cls[d] = smallest device of d's class;
 * membership requires interchangeability with every member. */
static int devices_identical(const struct sb_dag_inst *in, int d, int e)
{
	const struct sb_devices *dv = &in->dev;
	int nd = dv->n, f, v;

	if (dv->speed[d] != dv->speed[e] || dv->mem[d] != dv->mem[e] ||
	    dv->type[d] != dv->type[e])
		return 0;
	for (f = 0; f < nd; f++) {
		double a, b;
		if (f == d || f == e)
			continue;
		a = dv->rate[(size_t)d * nd + f];
		b = dv->rate[(size_t)e * nd + f];
		if (a != b && !(isinf(a) && isinf(b)))
			return 0;
	}
	if (in->etc)
		for (v = 0; v < in->g.n; v++) {
			double a = in->etc[(size_t)v * nd + d], b = in->etc[(size_t)v * nd + e];
			if (a != b && !(isinf(a) && isinf(b)))
				return 0;
		}
	return 1;
}

static void build_classes(struct mdl *m)
{
	int d, e;

	m->cls = SB_NEW(int, m->nd);
	for (d = 0; d < m->nd; d++) {
		m->cls[d] = d;
		for (e = 0; e < d; e++) {
			int f, all = 1;
			if (m->cls[e] != e)
				continue;   /* only class representatives */
			for (f = e; f < d && all; f++)
				if (m->cls[f] == e && !devices_identical(m->in, f, d))
					all = 0;
			if (all) {
				m->cls[d] = e;
				break;
			}
		}
	}
}

/* Relaxed-model delay of edge (u -> v, size) from d to e. */
static double edge_delay(const struct mdl *m, double size, int d, int e)
{
	if (d == e)
		return 0.0;
	return sb_dag_xfer(m->in, size, d, e) + sb_dag_bnd_send_dur(m->in, d);
}

static void row_begin(struct mdl *m)
{
	m->rn = 0;
}

static void row_add(struct mdl *m, int col, double val)
{
	if (col < 0 || val == 0.0)
		return;
	if (m->rn == m->rcap) {
		m->rcap = m->rcap ? 2 * m->rcap : 64;
		m->ri = sb_xrealloc(m->ri, sizeof(int) * (size_t)m->rcap);
		m->rv = sb_xrealloc(m->rv, sizeof(double) * (size_t)m->rcap);
	}
	m->ri[m->rn] = col;
	m->rv[m->rn++] = val;
}

static void row_end(struct mdl *m, const char *name, double lo, double hi)
{
	sb_lp_add_row(m->lp, name, lo, hi, m->rn, m->ri, m->rv);
}

/* Task helpers: task t < n is op t, task n + s is Send s. */
static int task_comp(const struct mdl *m, int t)
{
	return m->g->comp[t < m->n ? t : m->s_u[t - m->n]];
}

static int task_scol(const struct mdl *m, int t)
{
	return t < m->n ? m->sc[t] : m->s_sc[t - m->n];
}

static double task_dur(const struct mdl *m, int t, int d)
{
	return t < m->n ? sb_dag_time(m->in, t, d) : sb_dag_bnd_send_dur(m->in, d);
}

/* Add -P_t (the duration expression) times `sign` to the current row. */
static void row_add_dur(struct mdl *m, int t, double sign)
{
	int k = task_comp(m, t), d;
	for (d = 0; d < m->nd; d++)
		if (m->xc[(size_t)k * m->nd + d] >= 0)
			row_add(m, m->xc[(size_t)k * m->nd + d], sign * task_dur(m, t, d));
}

/* 1 if tasks a and b are ordered by precedence whatever the placement. */
static int comparable(const struct mdl *m, int a, int b)
{
	int n = m->n;
	if (a < n && b < n)
		return reaches(m, a, b) || reaches(m, b, a);
	if (a >= n && b >= n)
		return 0;
	if (a >= n) {
		int t = a;
		a = b;
		b = t;
	}
	/* a is an op, b a Send of producer u: a before b if a = u or a
	 * reaches u; nothing forces b before a */
	{
		int u = m->s_u[b - n];
		return a == u || reaches(m, a, u);
	}
}

static int may_share(const struct mdl *m, int a, int b)
{
	int ka = task_comp(m, a), kb = task_comp(m, b), d;
	for (d = 0; d < m->nd; d++)
		if (m->ok[(size_t)ka * m->nd + d] && m->ok[(size_t)kb * m->nd + d])
			return 1;
	return 0;
}

static void add_pair(struct mdl *m, int a, int b)
{
	if (m->np == m->pcap) {
		m->pcap = m->pcap ? 2 * m->pcap : 256;
		m->pa = sb_xrealloc(m->pa, sizeof(int) * (size_t)m->pcap);
		m->pb = sb_xrealloc(m->pb, sizeof(int) * (size_t)m->pcap);
		m->py = sb_xrealloc(m->py, sizeof(int) * (size_t)m->pcap);
		m->pq = sb_xrealloc(m->pq, sizeof(int) * (size_t)m->pcap);
	}
	m->pa[m->np] = a;
	m->pb[m->np] = b;
	m->py[m->np] = -1;
	m->pq[m->np] = -1;
	m->np++;
}

static void mdl_release(struct mdl *m)
{
	sb_dag_comps_release(&m->c);
	sb_free(m->ok); sb_free(m->tmin); sb_free(m->head); sb_free(m->tail);
	sb_free(m->reach); sb_free(m->cls); sb_free(m->xc); sb_free(m->sc);
	sb_free(m->kc); sb_free(m->s_u); sb_free(m->s_d); sb_free(m->s_sc);
	sb_free(m->s_zc); sb_free(m->send_of); sb_free(m->pa); sb_free(m->pb);
	sb_free(m->py); sb_free(m->pq); sb_free(m->ri); sb_free(m->rv);
	sb_lp_free(m->lp);
	memset(m, 0, sizeof *m);
}

/* Instance data shared by the model and its incumbent: components,
 * allowed devices, fastest times, heads/tails, reachability, classes,
 * the closed-form bound, the largest durations and a serial upper bound. */
static void mdl_prepare(struct mdl *m, const struct sb_dag_inst *in, int exact)
{
	const struct sb_dag *g = &in->g;
	struct sb_dag_bounds b;
	int v, d, e, k;
	double serial = 0;

	memset(m, 0, sizeof *m);
	m->in = in;
	m->g = g;
	m->n = g->n;
	m->nd = in->dev.n;
	m->exact = exact;
	sb_dag_comps_build(&m->c, in);
	m->ok = sb_dag_bnd_comp_ok_table(in, &m->c);
	m->tmin = SB_NEW(double, m->n);
	m->head = SB_NEW(double, m->n);
	m->tail = SB_NEW(double, m->n);
	sb_dag_bnd_fastest_times(in, m->ok, m->tmin);
	sb_dag_bnd_heads_tails(g, m->tmin, m->head, m->tail);
	build_reach(m);
	build_classes(m);
	sb_dag_lower_bounds(in, &b);
	m->lb = b.lb;
	for (d = 0; d < m->nd; d++)
		m->max_send = sb_max(m->max_send, sb_dag_bnd_send_dur(in, d));
	for (v = 0; v < m->n; v++) {
		double tmax = 0;
		for (d = 0; d < m->nd; d++)
			if (m->ok[(size_t)g->comp[v] * m->nd + d])
				tmax = sb_max(tmax, sb_dag_time(in, v, d));
		m->max_t = sb_max(m->max_t, tmax);
		serial += tmax;
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
			double xf = 0;
			for (d = 0; d < m->nd; d++)
				for (e = 0; e < m->nd; e++)
					if (d != e)
						xf = sb_max(xf, sb_dag_xfer(in, g->succ_size[k], d, e));
			m->max_xfer = sb_max(m->max_xfer, xf);
			/* a serial schedule pays each edge's delay at most once */
			serial += xf + m->max_send;
		}
	}
	m->ub = serial;
}

/* Upper bound on S_t + P_t and lower bound on S_t of task t in every
 * solution with C <= ub (the cmax rows and the column bounds): the big-M
 * of a row that compares two tasks is their difference. */
static double task_end_hi(const struct mdl *m, int t)
{
	return t < m->n ? m->ub - m->tail[t] : m->ub + m->max_send;
}

static double task_start_lo(const struct mdl *m, int t)
{
	if (t < m->n)
		return m->head[t];
	return m->head[m->s_u[t - m->n]] + m->tmin[m->s_u[t - m->n]];
}

static double big_m(const struct mdl *m, int a, int b)
{
	return sb_max(0.0, task_end_hi(m, a) - task_start_lo(m, b)) + m->H;
}

/* Build the model (m prepared, m->ub final). */
static void mdl_build(struct mdl *m, int symmetry)
{
	const struct sb_dag *g = m->g;
	const struct sb_dag_inst *in = m->in;
	int n = m->n, nd = m->nd, nk = m->c.n, v, d, e, k, i, p;
	double eps = 1e-9 * (1 + m->ub);
	char name[64];

	/* slack added to every big-M: covers the eps of the column bounds */
	m->H = 4 * eps + 1e-9;
	m->lp = sb_lp_new(m->exact ? "dag-exact" : "dag-relaxed", 1);
	{
		struct sb_lp_params par = sb_dag_bnd_lp_params;
		par.node_limit = m->node_limit;
		par.iter_limit = m->iter_limit;
		sb_lp_set_params(m->lp, &par);
	}

	/* assignment: one binary per (component, allowed device) */
	m->xc = SB_NEW(int, (size_t)nk * nd);
	for (k = 0; k < nk; k++)
		for (d = 0; d < nd; d++) {
			m->xc[(size_t)k * nd + d] = -1;
			if (m->ok[(size_t)k * nd + d]) {
				snprintf(name, sizeof name, "x_%d_%d", k, d);
				m->xc[(size_t)k * nd + d] =
					sb_lp_add_col(m->lp, name, SB_LP_BIN, 0, 1, 0);
			}
		}
	m->cc = sb_lp_add_col(m->lp, "C", SB_LP_CONT, m->lb,
			      sb_max(m->ub, m->lb) + eps, 1);
	m->sc = SB_NEW(int, n);
	for (v = 0; v < n; v++) {
		snprintf(name, sizeof name, "S_%d", v);
		m->sc[v] = sb_lp_add_col(m->lp, name, SB_LP_CONT, m->head[v],
					 sb_max(m->head[v], m->ub - m->tmin[v] - m->tail[v]) + eps, 0);
	}
	for (k = 0; k < nk; k++) {
		row_begin(m);
		for (d = 0; d < nd; d++)
			row_add(m, m->xc[(size_t)k * nd + d], 1);
		snprintf(name, sizeof name, "assign_%d", k);
		row_end(m, name, 1, 1);
	}
	/* memory */
	for (d = 0; d < nd; d++) {
		double tot = 0;
		row_begin(m);
		for (k = 0; k < nk; k++)
			if (m->xc[(size_t)k * nd + d] >= 0) {
				row_add(m, m->xc[(size_t)k * nd + d], m->c.mem[k]);
				tot += m->c.mem[k];
			}
		if (tot > in->dev.mem[d]) {
			snprintf(name, sizeof name, "mem_%d", d);
			row_end(m, name, -SB_LP_INF, in->dev.mem[d]);
		}
	}
	/* [O] cut: C >= work on each device */
	for (d = 0; d < nd; d++) {
		row_begin(m);
		row_add(m, m->cc, 1);
		for (k = 0; k < nk; k++)
			if (m->xc[(size_t)k * nd + d] >= 0) {
				double w = 0;
				for (i = m->c.off[k]; i < m->c.off[k + 1]; i++)
					w += sb_dag_time(in, m->c.member[i], d);
				row_add(m, m->xc[(size_t)k * nd + d], -w);
			}
		snprintf(name, sizeof name, "load_%d", d);
		row_end(m, name, 0, SB_LP_INF);
	}
	/* makespan: C >= S_v + P_v + tail(v) (tail = 0 for sinks: the spec's
	 * row; the others are [O] cuts) */
	for (v = 0; v < n; v++) {
		row_begin(m);
		row_add(m, m->cc, 1);
		row_add(m, m->sc[v], -1);
		row_add_dur(m, v, -1);
		snprintf(name, sizeof name, "cmax_%d", v);
		row_end(m, name, m->tail[v], SB_LP_INF);
	}
	/* symmetry between identical devices: more ops on the lower one */
	if (symmetry)
		for (d = 0; d < nd; d++) {
			int prev = -1;
			for (e = 0; e < d; e++)
				if (m->cls[e] == m->cls[d])
					prev = e;
			if (prev < 0)
				continue;
			row_begin(m);
			for (k = 0; k < nk; k++) {
				int sz = m->c.off[k + 1] - m->c.off[k];
				row_add(m, m->xc[(size_t)k * nd + prev], sz);
				row_add(m, m->xc[(size_t)k * nd + d], -sz);
			}
			snprintf(name, sizeof name, "sym_%d_%d", prev, d);
			row_end(m, name, 0, SB_LP_INF);
		}

	/* precedence and communication */
	m->kc = SB_NEW(int, g->m ? g->m : 1);
	for (v = 0; v < n; v++) {
		int u = v;
		for (i = g->succ_off[u]; i < g->succ_off[u + 1]; i++) {
			int w = g->succ[i], ku = g->comp[u], kw = g->comp[w];
			double size = g->succ_size[i];
			m->kc[i] = -1;
			if (!m->exact && ku != kw) {
				double cmax = 0;
				for (d = 0; d < nd; d++)
					for (e = 0; e < nd; e++)
						if (m->ok[(size_t)ku * nd + d] && m->ok[(size_t)kw * nd + e])
							cmax = sb_max(cmax, edge_delay(m, size, d, e));
				if (cmax > 0) {
					snprintf(name, sizeof name, "k_%d_%d", u, w);
					m->kc[i] = sb_lp_add_col(m->lp, name, SB_LP_CONT, 0, cmax, 0);
				}
			}
			if (m->kc[i] >= 0) {
				for (d = 0; d < nd; d++) {
					double cmin = INFINITY;
					if (!m->ok[(size_t)ku * nd + d])
						continue;
					for (e = 0; e < nd; e++)
						if (e != d && m->ok[(size_t)kw * nd + e])
							cmin = sb_min(cmin, edge_delay(m, size, d, e));
					if (!isfinite(cmin))
						continue;  /* w can only be with u on d */
					if (cmin > 0) {
						/* k >= cmin (X_{u,d} - X_{w,d}) */
						row_begin(m);
						row_add(m, m->kc[i], 1);
						row_add(m, m->xc[(size_t)ku * nd + d], -cmin);
						row_add(m, m->xc[(size_t)kw * nd + d], cmin);
						snprintf(name, sizeof name, "comm_%d_%d_%d", u, w, d);
						row_end(m, name, 0, SB_LP_INF);
					}
					for (e = 0; e < nd; e++) {
						double c;
						if (e == d || !m->ok[(size_t)kw * nd + e])
							continue;
						c = edge_delay(m, size, d, e);
						if (c <= cmin)
							continue;
						/* k >= c (X_{u,d} + X_{w,e} - 1) */
						row_begin(m);
						row_add(m, m->kc[i], 1);
						row_add(m, m->xc[(size_t)ku * nd + d], -c);
						row_add(m, m->xc[(size_t)kw * nd + e], -c);
						snprintf(name, sizeof name, "comm_%d_%d_%d_%d", u, w, d, e);
						row_end(m, name, -c, SB_LP_INF);
					}
				}
			}
			/* S_w >= S_u + P_u + k_uw */
			row_begin(m);
			row_add(m, m->sc[w], 1);
			row_add(m, m->sc[u], -1);
			row_add_dur(m, u, -1);
			row_add(m, m->kc[i], -1);
			snprintf(name, sizeof name, "prec_%d_%d", u, w);
			row_end(m, name, 0, SB_LP_INF);
		}
	}

	/* §10.2 Sends */
	if (m->exact) {
		m->send_of = SB_NEW(int, (size_t)n * nd);
		m->s_u = SB_NEW(int, (size_t)n * nd);
		m->s_d = SB_NEW(int, (size_t)n * nd);
		m->s_sc = SB_NEW(int, (size_t)n * nd);
		m->s_zc = SB_NEW(int, (size_t)n * nd);
		for (v = 0; v < n * nd; v++)
			m->send_of[v] = -1;
		for (v = 0; v < n; v++) {
			int ku = g->comp[v];
			for (e = 0; e < nd; e++) {
				int need = 0, elsewhere = 0, s;
				for (i = g->succ_off[v]; i < g->succ_off[v + 1]; i++) {
					int kw = g->comp[g->succ[i]];
					if (kw != ku && m->ok[(size_t)kw * nd + e])
						need = 1;
				}
				for (d = 0; d < nd; d++)
					if (d != e && m->ok[(size_t)ku * nd + d])
						elsewhere = 1;
				if (!need || !elsewhere)
					continue;
				s = m->ns++;
				m->send_of[(size_t)v * nd + e] = s;
				m->s_u[s] = v;
				m->s_d[s] = e;
				snprintf(name, sizeof name, "Ssend_%d_%d", v, e);
				m->s_sc[s] = sb_lp_add_col(m->lp, name, SB_LP_CONT,
							   m->head[v] + m->tmin[v], m->ub + eps, 0);
				snprintf(name, sizeof name, "z_%d_%d", v, e);
				m->s_zc[s] = sb_lp_add_col(m->lp, name, SB_LP_BIN, 0, 1, 0);
				/* S_send >= S_u + P_u */
				row_begin(m);
				row_add(m, m->s_sc[s], 1);
				row_add(m, m->sc[v], -1);
				row_add_dur(m, v, -1);
				snprintf(name, sizeof name, "sendafter_%d_%d", v, e);
				row_end(m, name, 0, SB_LP_INF);
				/* no Send to u's own device */
				if (m->xc[(size_t)ku * nd + e] >= 0) {
					row_begin(m);
					row_add(m, m->s_zc[s], 1);
					row_add(m, m->xc[(size_t)ku * nd + e], 1);
					snprintf(name, sizeof name, "sendself_%d_%d", v, e);
					row_end(m, name, -SB_LP_INF, 1);
				}
				for (i = g->succ_off[v]; i < g->succ_off[v + 1]; i++) {
					int w = g->succ[i], kw = g->comp[w];
					if (kw == ku || !m->ok[(size_t)kw * nd + e])
						continue;
					/* z >= X_{w,e} - X_{u,e} */
					row_begin(m);
					row_add(m, m->s_zc[s], 1);
					row_add(m, m->xc[(size_t)kw * nd + e], -1);
					row_add(m, m->xc[(size_t)ku * nd + e], 1);
					snprintf(name, sizeof name, "z_%d_%d_%d", v, w, e);
					row_end(m, name, 0, SB_LP_INF);
					/* S_w >= S_send + dur + xfer - M (1 - X_{w,e}) - M X_{u,e} */
					double M = m->ub + m->max_send + m->max_xfer - m->head[w] + m->H;
					row_begin(m);
					row_add(m, m->sc[w], 1);
					row_add(m, m->s_sc[s], -1);
					for (d = 0; d < nd; d++) {
						int col = m->xc[(size_t)ku * nd + d];
						if (col < 0)
							continue;
						row_add(m, col, -(sb_dag_bnd_send_dur(in, d) +
								  sb_dag_xfer(in, g->succ_size[i], d, e)));
					}
					row_add(m, m->xc[(size_t)kw * nd + e], -M);
					row_add(m, m->xc[(size_t)ku * nd + e], M);
					snprintf(name, sizeof name, "recv_%d_%d_%d", v, w, e);
					row_end(m, name, -M, SB_LP_INF);
				}
			}
		}
	}

	/* disjunctive pairs */
	{
		int nt = n + m->ns, a, b;
		for (a = 0; a < nt; a++)
			for (b = a + 1; b < nt; b++)
				if (!comparable(m, a, b) && may_share(m, a, b))
					add_pair(m, a, b);
	}
	for (p = 0; p < m->np; p++) {
		int a = m->pa[p], b = m->pb[p], ka = task_comp(m, a), kb = task_comp(m, b);
		int za = a >= n ? m->s_zc[a - n] : -1, zb = b >= n ? m->s_zc[b - n] : -1;
		double mab, mba;
		snprintf(name, sizeof name, "y_%d_%d", a, b);
		m->py[p] = sb_lp_add_col(m->lp, name, SB_LP_BIN, 0, 1, 0);
		if (ka != kb || za >= 0 || zb >= 0) {
			int nz = (za >= 0) + (zb >= 0);
			snprintf(name, sizeof name, "q_%d_%d", a, b);
			m->pq[p] = sb_lp_add_col(m->lp, name, SB_LP_CONT, 0, 1, 0);
			for (d = 0; d < nd; d++) {
				if (!m->ok[(size_t)ka * nd + d] || !m->ok[(size_t)kb * nd + d])
					continue;
				/* q >= X_{a,d} + X_{b,d} (+ z_a + z_b) - 1 (- #z) */
				row_begin(m);
				row_add(m, m->pq[p], 1);
				row_add(m, m->xc[(size_t)ka * nd + d], -1);
				row_add(m, m->xc[(size_t)kb * nd + d], -1);
				row_add(m, za, -1);
				row_add(m, zb, -1);
				snprintf(name, sizeof name, "same_%d_%d_%d", a, b, d);
				row_end(m, name, -1.0 - nz, SB_LP_INF);
			}
		}
		/* y = 1: a before b.  S_b >= S_a + P_a - M (1 - y) - M (1 - q) */
		mab = big_m(m, a, b);
		mba = big_m(m, b, a);
		row_begin(m);
		row_add(m, task_scol(m, b), 1);
		row_add(m, task_scol(m, a), -1);
		row_add_dur(m, a, -1);
		row_add(m, m->py[p], -mab);
		row_add(m, m->pq[p], -mab);
		snprintf(name, sizeof name, "ab_%d_%d", a, b);
		row_end(m, name, m->pq[p] >= 0 ? -2 * mab : -mab, SB_LP_INF);
		/* S_a >= S_b + P_b - M y - M (1 - q) */
		row_begin(m);
		row_add(m, task_scol(m, a), 1);
		row_add(m, task_scol(m, b), -1);
		row_add_dur(m, b, -1);
		row_add(m, m->py[p], mba);
		row_add(m, m->pq[p], -mba);
		snprintf(name, sizeof name, "ba_%d_%d", a, b);
		row_end(m, name, m->pq[p] >= 0 ? -mba : 0, SB_LP_INF);
		/* [O] cut y <= q: the order of tasks on different devices is
		 * irrelevant, so fix it to 0 there (removes a symmetry that
		 * otherwise doubles the search; several times faster) */
		if (m->pq[p] >= 0) {
			row_begin(m);
			row_add(m, m->pq[p], 1);
			row_add(m, m->py[p], -1);
			snprintf(name, sizeof name, "yq_%d_%d", a, b);
			row_end(m, name, 0, SB_LP_INF);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Incumbent                                                           */
/* ------------------------------------------------------------------ */

/* Permute devices within classes of identical devices so that op counts
 * do not increase along each class (the symmetry rows). */
static void relabel_place(const struct mdl *m, const int *place, int *out)
{
	int nd = m->nd, n = m->n, d, e, v;
	int *cnt = SB_NEW(int, nd), *perm = SB_NEW(int, nd), *mem = SB_NEW(int, nd);

	for (v = 0; v < n; v++)
		cnt[place[v]]++;
	for (d = 0; d < nd; d++)
		perm[d] = d;
	for (d = 0; d < nd; d++) {
		int nm = 0, i, j;
		if (m->cls[d] != d)
			continue;
		for (e = d; e < nd; e++)
			if (m->cls[e] == d)
				mem[nm++] = e;
		/* members sorted by count, descending (stable insertion sort) */
		{
			int *srt = SB_NEW(int, nm);
			for (i = 0; i < nm; i++) {
				int x = mem[i];
				for (j = i; j > 0 && cnt[srt[j - 1]] < cnt[x]; j--)
					srt[j] = srt[j - 1];
				srt[j] = x;
			}
			for (i = 0; i < nm; i++)
				perm[srt[i]] = mem[i];
			sb_free(srt);
		}
	}
	for (v = 0; v < n; v++)
		out[v] = perm[place[v]];
	sb_free(cnt);
	sb_free(perm);
	sb_free(mem);
}

/* 1 if place is complete, colocated, allowed and within memory. */
static int place_valid(const struct mdl *m, const int *place)
{
	int nd = m->nd, v, d, ok = 1;
	double *used = SB_NEW(double, nd);

	for (v = 0; v < m->n && ok; v++) {
		int k = m->g->comp[v];
		d = place[v];
		if (d < 0 || d >= nd || !m->ok[(size_t)k * nd + d] ||
		    place[m->c.member[m->c.off[k]]] != d)
			ok = 0;
		else
			used[d] += sb_dag_mem(m->in, v);
	}
	for (d = 0; d < nd && ok; d++)
		if (used[d] > m->in->dev.mem[d])
			ok = 0;
	sb_free(used);
	return ok;
}

/*
 * Full column vector of a schedule: place (already relabelled), start
 * time of every task (ops, then for the exact model the Sends of the
 * execution graph x). Returns a vector owned by the caller.
 */
static double *incumbent_vector(const struct mdl *m, const int *place,
				const double *start, const struct sb_dag_exec *x)
{
	const struct sb_dag *g = m->g;
	int n = m->n, nd = m->nd, ncols = sb_lp_ncols(m->lp), v, i, p, s;
	double *col = SB_NEW(double, ncols), cmax = m->lb;
	double *tst = SB_NEW(double, n + m->ns), *tdur = SB_NEW(double, n + m->ns);
	int *tdev = SB_NEW(int, n + m->ns), *act = SB_NEW(int, n + m->ns);

	for (v = 0; v < n; v++) {
		int k = g->comp[v];
		col[m->xc[(size_t)k * nd + place[v]]] = 1;
		col[m->sc[v]] = start[v];
		tst[v] = start[v];
		tdur[v] = sb_dag_time(m->in, v, place[v]);
		tdev[v] = place[v];
		act[v] = 1;
		cmax = sb_max(cmax, start[v] + tdur[v] + m->tail[v]);
		for (i = g->succ_off[v]; i < g->succ_off[v + 1]; i++)
			if (m->kc && m->kc[i] >= 0)
				col[m->kc[i]] = edge_delay(m, g->succ_size[i], place[v],
							   place[g->succ[i]]);
	}
	col[m->cc] = cmax;
	for (s = 0; s < m->ns; s++) {
		int u = m->s_u[s];
		tst[n + s] = start[u] + tdur[u];   /* inactive: right after u */
		tdur[n + s] = sb_dag_bnd_send_dur(m->in, place[u]);
		tdev[n + s] = place[u];
		act[n + s] = 0;
	}
	if (x)
		for (s = 0; s < x->nsend; s++) {
			int ms = m->send_of[(size_t)x->send_op[s] * nd + x->send_dst[s]];
			SB_ASSERT(ms >= 0);
			tst[n + ms] = start[n + s];
			act[n + ms] = 1;
		}
	for (s = 0; s < m->ns; s++) {
		col[m->s_sc[s]] = tst[n + s];
		col[m->s_zc[s]] = act[n + s];
	}
	for (p = 0; p < m->np; p++) {
		int a = m->pa[p], b = m->pb[p];
		int same = act[a] && act[b] && tdev[a] == tdev[b];
		if (m->pq[p] >= 0)
			col[m->pq[p]] = same;
		/* y = 1 iff a runs before b (any value will do apart) */
		if (!same || tst[a] > tst[b])
			col[m->py[p]] = 0;
		else if (tst[a] < tst[b])
			col[m->py[p]] = 1;
		else
			col[m->py[p]] = tdur[a] == 0;
	}
	sb_free(tst);
	sb_free(tdur);
	sb_free(tdev);
	sb_free(act);
	return col;
}

/*
 * A schedule of the exact model from a simulator schedule of which only
 * the op start times are known: keep each device's op order and try two
 * positions for the Sends in it, right after their producer and as late
 * as their consumers allow; re-time semi-actively. Fills start (ntask)
 * with the better one and returns its makespan (-1 if neither works).
 */
static double exact_incumbent(const struct sb_dag_exec *x, const double *op_start,
			      double *start)
{
	int n = x->n, nt = x->ntask, t, k, c;
	double *key = SB_NEW(double, nt), *tmp = SB_NEW(double, nt), best = -1;
	int *src = SB_NEW(int, nt);

	/* producer of each Send: its only exec predecessor */
	for (t = 0; t < n; t++)
		for (k = x->x_off[t]; k < x->x_off[t + 1]; k++)
			if (x->x_to[k] >= n)
				src[x->x_to[k]] = t;
	for (c = 0; c < 2; c++) {
		double ms;
		for (t = 0; t < n; t++)
			key[t] = op_start[t];
		for (t = n; t < nt; t++) {
			int u = src[t];
			key[t] = op_start[u] + x->dur[u];
			if (c == 1) {
				double late = INFINITY;
				for (k = x->x_off[t]; k < x->x_off[t + 1]; k++)
					late = sb_min(late, op_start[x->x_to[k]] - x->x_delay[k] -
						      x->dur[t]);
				key[t] = sb_max(key[t], late);
			}
		}
		ms = sb_dag_bnd_eval_sequences(x, key, 1, tmp);
		if (ms >= 0 && (best < 0 || ms < best)) {
			best = ms;
			memcpy(start, tmp, sizeof(double) * (size_t)nt);
		}
	}
	sb_free(key);
	sb_free(tmp);
	sb_free(src);
	return best;
}

/* ------------------------------------------------------------------ */
/* Solve                                                               */
/* ------------------------------------------------------------------ */

struct warm {
	int have;
	int *place;
	double *start;
	double ms;
	struct sb_dag_exec x;
};

static void warm_prepare(struct warm *w, const struct mdl *m,
			 const struct sb_dag_milp_opts *o)
{
	const struct sb_dag_inst *in = m->in;
	int n = m->n, v;

	memset(w, 0, sizeof *w);
	if (!o->inc_place || !o->inc_start)
		return;
	for (v = 0; v < n; v++)
		if (o->inc_place[v] < 0 || o->inc_place[v] >= m->nd || !isfinite(o->inc_start[v]))
			return;
	w->place = SB_NEW(int, n);
	relabel_place(m, o->inc_place, w->place);
	if (!place_valid(m, w->place))
		return;
	if (m->exact) {
		sb_dag_exec_build(&w->x, in, w->place);
		w->start = SB_NEW(double, w->x.ntask);
		w->ms = exact_incumbent(&w->x, o->inc_start, w->start);
		w->have = w->ms >= 0;
	} else {
		w->start = SB_NEW(double, n);
		for (v = 0; v < n; v++) {
			w->start[v] = o->inc_start[v];
			w->ms = sb_max(w->ms, w->start[v] + sb_dag_time(in, v, w->place[v]));
		}
		w->have = 1;
	}
}

static void warm_release(struct warm *w)
{
	sb_free(w->place);
	sb_free(w->start);
	sb_dag_exec_release(&w->x);
	memset(w, 0, sizeof *w);
}

/* What build_solve found out besides the result. */
struct bs_info {
	int inc_rejected;   /* the warm start failed the model's own check */
	int ub_claimed;     /* UB came from the caller's makespan alone */
};

/* Prepare and build the model with UB = min(serial, cap, warm start) and
 * solve it within tl seconds. m is released by the caller. */
static int build_solve(struct mdl *m, const struct sb_dag_inst *in,
		       const struct sb_dag_milp_opts *o, int exact, double cap,
		       const struct warm *w, double tl, struct sb_lp_result *res,
		       struct bs_info *info, struct sb_err *err)
{
	double serial, *vec = NULL;
	int use, rc;
	char why[256];

	memset(info, 0, sizeof *info);
	mdl_prepare(m, in, exact);
	serial = m->ub;
	m->ub = sb_min(m->ub, cap);
	/* a warm start no better than UB is of no use to the search */
	use = w->have && w->ms <= m->ub * (1 + 1e-9) + 1e-9;
	if (use)
		m->ub = sb_min(m->ub, w->ms);
	m->ub = sb_max(m->ub, m->lb);
	info->ub_claimed = !use && m->ub < serial;
	m->node_limit = o->node_limit;
	m->iter_limit = o->iter_limit;
	mdl_build(m, !o->no_symmetry);
	if (use) {
		vec = incumbent_vector(m, w->place, w->start, exact ? &w->x : NULL);
		if (sb_lp_check(m->lp, vec, why, sizeof why) != 0) {
			/* not a schedule of the model after all, so its makespan
			 * may be below the optimum: the caller retries without */
			info->inc_rejected = 1;
			sb_free(vec);
			return 0;
		}
		sb_lp_set_incumbent(m->lp, vec);
		sb_free(vec);
	}
	rc = sb_lp_solve(m->lp, o->relax, tl, o->mip_gap, res, err);
	if (rc)
		sb_err_prefix(err, "%s MILP of '%s': ", exact ? "exact-send" : "relaxed-send",
			      in->name ? in->name : "");
	else
		sb_dag_bnd_floor(res, m->lb);
	return rc;
}

/* What is left in *b of the budgets of o after nodes and iters (at least
 * one node or iteration, so that a limit of 0 never turns into "none"),
 * and of the time in tl seconds since t0 (at least 1 ms: the solve then
 * stops at its time limit at once and says so). */
static void budget_left(struct sb_dag_milp_opts *b, const struct sb_dag_milp_opts *o,
			long nodes, long iters, double t0, double tl)
{
	if (o->node_limit > 0)
		b->node_limit = sb_max(1.0, (double)(o->node_limit - nodes));
	if (o->iter_limit > 0)
		b->iter_limit = sb_max(1.0, (double)(o->iter_limit - iters));
	b->time_limit = sb_max(tl - (sb_lp_now() - t0), 1e-3);
}

/* The node and iteration limits of o are budgets for the whole call, and
 * its time limit covers model building and every solve: a retry gets only
 * what the solves before it left over. res->nodes, res->iters and
 * res->seconds are totals. */
static int milp_solve(const struct sb_dag_inst *in, const struct sb_dag_milp_opts *o,
		      int exact, struct sb_lp_result *res, struct sb_err *err)
{
	struct mdl m;
	struct sb_dag_milp_opts def, b;
	struct warm w;
	struct bs_info info;
	int n = in->g.n, rc = 0;
	long nodes = 0, iters = 0;
	double tl, t0 = sb_lp_now(), w0 = sb_now(), cap = INFINITY;
	const char *model = exact ? "exact-send" : "relaxed-send";

	memset(&w, 0, sizeof w);
	memset(&m, 0, sizeof m);
	memset(res, 0, sizeof *res);
	if (!o) {
		memset(&def, 0, sizeof def);
		o = &def;
	}
	tl = o->time_limit > 0 ? o->time_limit : 60;
	b = *o;
	if (n > (exact ? EXACT_MAX_N : MILP_MAX_N))
		return sb_err_set(err, SB_EXIT_INPUT,
				  "instance '%s' too large for the %s model (n = %d > %d)",
				  in->name ? in->name : "", model, n,
				  exact ? EXACT_MAX_N : MILP_MAX_N);
	mdl_prepare(&m, in, exact);
	if (!isfinite(m.lb)) {
		sb_dag_bnd_infeasible(res);
		goto out;
	}
	if (n == 0) {
		res->status = SB_LP_OPTIMAL;
		goto out;
	}
	warm_prepare(&w, &m, o);
	mdl_release(&m);
	if (o->inc_makespan > 0 && isfinite(o->inc_makespan))
		cap = o->inc_makespan;

	budget_left(&b, o, nodes, iters, t0, tl);
	rc = build_solve(&m, in, &b, exact, cap, &w, b.time_limit, res, &info, err);
	nodes += res->nodes;
	iters += res->iters;
	if (!rc && info.inc_rejected) {
		/* neither the warm start nor the makespan that came with it
		 * can be trusted */
		mdl_release(&m);
		w.have = 0;
		cap = INFINITY;
		budget_left(&b, o, nodes, iters, t0, tl);
		rc = build_solve(&m, in, &b, exact, cap, &w, b.time_limit, res, &info, err);
		nodes += res->nodes;
		iters += res->iters;
	}
	if (!rc && res->status == SB_LP_INFEASIBLE && info.ub_claimed) {
		/* infeasible below the caller's makespan: either the instance
		 * has no schedule at all, or that makespan was not one of a
		 * schedule of this model */
		sb_lp_result_release(res);
		mdl_release(&m);
		budget_left(&b, o, nodes, iters, t0, tl);
		rc = build_solve(&m, in, &b, exact, INFINITY, &w, b.time_limit, res, &info, err);
		nodes += res->nodes;
		iters += res->iters;
		if (!rc && res->status != SB_LP_INFEASIBLE) {
			sb_lp_result_release(res);
			res->status = SB_LP_ERROR;
			rc = sb_err_set(err, SB_EXIT_INPUT,
					"%s MILP of '%s': inc_makespan %g is below the optimum "
					"of the model (not the makespan of one of its schedules)",
					model, in->name ? in->name : "", o->inc_makespan);
		}
	}
	res->nodes = nodes;
	res->iters = iters;
out:
	res->seconds = sb_now() - w0;
	warm_release(&w);
	mdl_release(&m);
	return rc;
}

int sb_dag_milp_relaxed(const struct sb_dag_inst *in, const struct sb_dag_milp_opts *o,
			struct sb_lp_result *res, struct sb_err *err)
{
	return milp_solve(in, o, 0, res, err);
}

int sb_dag_milp_exact(const struct sb_dag_inst *in, const struct sb_dag_milp_opts *o,
		      struct sb_lp_result *res, struct sb_err *err)
{
	/* Sends without work are pure delays: the relaxed model is exact */
	return milp_solve(in, o, in->send_ops > 0, res, err);
}

