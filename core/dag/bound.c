/*
 * bound.c - lower bounds and exact optima of the dag family.
 *
 * Spec: tfpart.md §2 (model) and §10 (bounds), all [O] (our design; the
 * paper has no bounds). What is ours beyond the spec text, and why:
 *   - §10.3 generalised to ETC matrices and to memory: an op's allowed
 *     devices are those its whole colocation component may use (type,
 *     finite time) and fits on alone (memory). LB_work is Σ ops / Σ s for
 *     related machines and Σ min_d t / |D| for an ETC matrix; the class
 *     refinement is done for every device type.
 *   - §10.1 is built with one assignment binary per colocation component
 *     (x_{v,d} := X_{comp(v),d}), which is the spec's model with its
 *     colocation equalities substituted. The comm rows are the spec's
 *     pairwise rows plus, per source device d, the aggregated row
 *     k >= c_min(d) (X_{u,d} - X_{v,d}) (valid, tighter in the LP).
 *     Valid cuts added (none changes the optimum): C >= closed-form LB
 *     (asked for), C >= load of each device, heads and tails of each op
 *     (S_v >= longest fastest-time path into v, C >= S_v + P_v + tail(v)),
 *     C <= an upper bound UB, and y <= q (the order of two tasks on
 *     different devices is fixed to 0; several times faster).
 *   - Big-M: UB is the smallest of the caller's simulator makespan, the
 *     warm start's makespan and a serial schedule's makespan; each row
 *     gets its own M = (upper bound on S_a + P_a) - (lower bound on S_b)
 *     from UB, heads and tails, instead of the spec's single H (same
 *     integer solutions with C <= UB, tighter LP).
 *   - GLPK: integrality tolerance 1e-9 and objective tolerance 1e-10
 *     (big-M rows; the experiments compare makespans with the bound at
 *     1e-9) and hybrid pseudocost branching (measured several times faster
 *     than GLPK's default on n = 12..20).
 *   - §10.2: the consumer row uses Σ_d t_xfer(d,d') x_{u,d} directly (it
 *     is exact whenever the row is active), so the spec's w variables are
 *     not needed; Send σ_{u,d'} is active iff z_{u,d'} = 1, and its
 *     same-device indicator with another task includes z. Big-M as above.
 *   - Warm start: device labels of the incumbent are permuted within each
 *     class of identical devices so that it satisfies the symmetry rows.
 *     For §10.2 only op start times are given, so the Sends are put into
 *     each device's op order (right after the producer, or as late as the
 *     consumers allow, whichever is better) and the schedule is re-timed.
 *   - §10.4 as written, with each op's start restricted to
 *     [head, horizon - p - tail] (integer longest paths; other starts are
 *     infeasible anyway), C >= completion of every sink and
 *     C >= max(critical path, ceil(Σ p / m)).
 *   - Brute force: enumerate placements (per component, respecting type,
 *     time and memory), then per placement a depth-first search over the
 *     execution graph (sb_dag_exec_build: ops and Sends) that appends one
 *     ready task at a time at its earliest start on its device. Only
 *     orders with non-decreasing start times are followed (every
 *     semi-active schedule is reached by sorting it by start time), and a
 *     branch stops when a device's remaining work cannot beat the best.
 *
 * Verified: by tests/test_dagbound.c against the brute force on random
 * instances (MILP optimum = enumeration), chain = Σ ops / s, §10.4 against
 * the brute force with free communication.
 */
#include "bound.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MILP_MAX_N 200    /* beyond this the disjunctive model is hopeless */
#define EXACT_MAX_N 12
/* Tight tolerances (big-M rows; the experiments compare makespans with
 * the bound at 1e-9) and pseudocost branching (several times faster than
 * GLPK's default on these models, measured on n = 12..20). */
static const struct sb_lp_params dag_lp_params = {
	.tol_int = 1e-9, .tol_obj = 1e-10, .pseudocost = 1,
};

/* ------------------------------------------------------------------ */
/* Shared helpers                                                      */
/* ------------------------------------------------------------------ */

/* Duration of a Send on device d, exactly as sb_dag_exec_build has it. */
static double send_dur(const struct sb_dag_inst *in, int d)
{
	double s = in->dev.speed[d];

	if (in->send_ops <= 0)
		return 0.0;
	if (in->etc && !(s > 0))
		s = 1;
	return in->send_ops / s;
}

/* Component k may be placed on d: type, finite times, and its memory
 * alone fits. */
static int comp_ok(const struct sb_dag_inst *in, const struct sb_dag_comps *c,
		   int k, int d)
{
	return sb_dag_comp_allowed(in, c, k, d) && c->mem[k] <= in->dev.mem[d];
}

/* ok[k*nd+d] for every component and device. Owned by the caller. */
static unsigned char *comp_ok_table(const struct sb_dag_inst *in,
				    const struct sb_dag_comps *c)
{
	int nd = in->dev.n, k, d;
	unsigned char *ok = SB_NEW(unsigned char, (size_t)c->n * nd);

	for (k = 0; k < c->n; k++)
		for (d = 0; d < nd; d++)
			ok[(size_t)k * nd + d] = (unsigned char)comp_ok(in, c, k, d);
	return ok;
}

/* Fastest allowed time of each op (INFINITY if it has no device). */
static void fastest_times(const struct sb_dag_inst *in, const unsigned char *ok,
			  double *tmin)
{
	const struct sb_dag *g = &in->g;
	int nd = in->dev.n, v, d;

	for (v = 0; v < g->n; v++) {
		double t = INFINITY;
		for (d = 0; d < nd; d++)
			if (ok[(size_t)g->comp[v] * nd + d])
				t = sb_min(t, sb_dag_time(in, v, d));
		tmin[v] = t;
	}
}

/* head[v]: heaviest path into v (excluding v), tail[v]: heaviest path out
 * of v (excluding v), with weights w. Returns the heaviest path. */
static double heads_tails(const struct sb_dag *g, const double *w, double *head,
			  double *tail)
{
	double best = 0;
	int i, k;

	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		double h = 0;
		for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
			h = sb_max(h, head[g->pred[k]] + w[g->pred[k]]);
		head[v] = h;
	}
	for (i = g->n - 1; i >= 0; i--) {
		int v = g->topo[i];
		double t = 0;
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
			t = sb_max(t, tail[g->succ[k]] + w[g->succ[k]]);
		tail[v] = t;
		best = sb_max(best, head[v] + w[v] + t);
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* §10.3 closed-form bounds                                            */
/* ------------------------------------------------------------------ */

void sb_dag_lower_bounds(const struct sb_dag_inst *in, struct sb_dag_bounds *b)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, nd = in->dev.n, v, d, k, i, type;
	struct sb_dag_comps c;
	unsigned char *ok;
	double *tmin, *head, *tail, sum_tmin = 0, sum_ops = 0, sum_speed = 0;

	memset(b, 0, sizeof *b);
	if (n == 0 || nd == 0) {
		if (n > 0)
			b->cp = b->work = b->work_class = b->coloc = b->lb = INFINITY;
		return;
	}
	sb_dag_comps_build(&c, in);
	ok = comp_ok_table(in, &c);
	tmin = SB_NEW(double, n);
	head = SB_NEW(double, n);
	tail = SB_NEW(double, n);
	fastest_times(in, ok, tmin);
	for (v = 0; v < n; v++)
		if (!isfinite(tmin[v])) {
			b->cp = b->work = b->work_class = b->coloc = b->lb = INFINITY;
			goto out;
		}

	/* LB_cp: precedence serialises a path; each op takes at least its
	 * fastest time, and communication only adds. */
	b->cp = heads_tails(g, tmin, head, tail);

	/* LB_work: by time C the devices do at most C * Σ s work (related
	 * machines); with an ETC matrix each op costs at least tmin on the
	 * device it runs on, and the devices offer |D| * C time. */
	for (v = 0; v < n; v++) {
		sum_tmin += tmin[v];
		sum_ops += g->ops[v];
	}
	for (d = 0; d < nd; d++)
		sum_speed += in->dev.speed[d];
	b->work = in->etc ? sum_tmin / nd : sum_ops / sum_speed;

	/* Per device type T: ops that may only run on devices of type T must
	 * be done by those devices. */
	for (type = SB_DEV_CPU; type <= SB_DEV_TPU; type++) {
		double tops = 0, ttime = 0, tspeed = 0;
		int tcount = 0, any = 0;
		for (d = 0; d < nd; d++)
			if (in->dev.type[d] == type) {
				tcount++;
				tspeed += in->dev.speed[d];
			}
		if (tcount == 0)
			continue;
		for (v = 0; v < n; v++) {
			int only = 1;
			for (d = 0; d < nd && only; d++)
				if (ok[(size_t)g->comp[v] * nd + d] && in->dev.type[d] != type)
					only = 0;
			if (only) {
				tops += g->ops[v];
				ttime += tmin[v];
				any = 1;
			}
		}
		if (any)
			b->work_class = sb_max(b->work_class,
					       in->etc ? ttime / tcount : tops / tspeed);
	}

	/* LB_coloc: a component runs serially on one device. */
	for (k = 0; k < c.n; k++) {
		double best = INFINITY;
		for (d = 0; d < nd; d++) {
			double s = 0;
			if (!ok[(size_t)k * nd + d])
				continue;
			for (i = c.off[k]; i < c.off[k + 1]; i++)
				s += sb_dag_time(in, c.member[i], d);
			best = sb_min(best, s);
		}
		b->coloc = sb_max(b->coloc, best);
	}
	b->lb = sb_max(sb_max(b->cp, b->work), sb_max(b->work_class, b->coloc));
out:
	sb_free(tmin);
	sb_free(head);
	sb_free(tail);
	sb_free(ok);
	sb_dag_comps_release(&c);
}

/* ------------------------------------------------------------------ */
/* Schedules from device sequences                                     */
/* ------------------------------------------------------------------ */

/* Topological rank of every task of the execution graph (Kahn, smallest
 * id first among ready tasks is not needed: any order will do). */
static void exec_rank(const struct sb_dag_exec *x, int *rank)
{
	int *indeg = SB_NEW(int, x->ntask), *queue = SB_NEW(int, x->ntask);
	int head = 0, tail = 0, t, k;

	for (t = 0; t < x->ntask; t++) {
		indeg[t] = x->indeg[t];
		if (!indeg[t])
			queue[tail++] = t;
	}
	while (head < tail) {
		t = queue[head];
		rank[t] = head++;
		for (k = x->x_off[t]; k < x->x_off[t + 1]; k++)
			if (--indeg[x->x_to[k]] == 0)
				queue[tail++] = x->x_to[k];
	}
	SB_ASSERT(tail == x->ntask);
	sb_free(indeg);
	sb_free(queue);
}

struct seqkey {
	double key;
	int rank, task;
};

static int seqkey_cmp(const void *a, const void *b)
{
	const struct seqkey *p = a, *q = b;
	if (p->key != q->key)
		return p->key < q->key ? -1 : 1;
	return (p->rank > q->rank) - (p->rank < q->rank);
}

/*
 * Earliest start of every task of x when each device runs the tasks it
 * hosts in the order of key[] (ties: topological rank). Sends occupy their
 * device only when sends_occupy is set (and Sends have a duration);
 * otherwise they are pure delays. Fills start[] (ntask) and returns the
 * makespan, or -1 if the orders contradict the precedences.
 */
static double eval_sequences(const struct sb_dag_exec *x, const double *key,
			     int sends_occupy, double *start)
{
	int nt = x->ntask, t, k, i, done = 0;
	int *rank = SB_NEW(int, nt), *next = SB_NEW(int, nt), *indeg = SB_NEW(int, nt);
	int *queue = SB_NEW(int, nt), head = 0, tail = 0;
	struct seqkey *sk = SB_NEW(struct seqkey, nt);
	int nsk = 0;
	double ms = 0;

	exec_rank(x, rank);
	for (t = 0; t < nt; t++) {
		next[t] = -1;
		start[t] = 0;
		indeg[t] = x->indeg[t];
		if (t < x->n || (sends_occupy && !x->delay_sends))
			sk[nsk++] = (struct seqkey){ key[t], rank[t], t };
	}
	/* device sequences: sort all occupying tasks, then chain per device */
	qsort(sk, (size_t)nsk, sizeof *sk, seqkey_cmp);
	{
		int *last = SB_NEW(int, x->in->dev.n);
		for (i = 0; i < x->in->dev.n; i++)
			last[i] = -1;
		for (i = 0; i < nsk; i++) {
			int tk = sk[i].task, d = x->dev[tk];
			if (last[d] >= 0) {
				next[last[d]] = tk;
				indeg[tk]++;
			}
			last[d] = tk;
		}
		sb_free(last);
	}
	for (t = 0; t < nt; t++)
		if (!indeg[t])
			queue[tail++] = t;
	while (head < tail) {
		double f;
		t = queue[head++];
		done++;
		f = start[t] + x->dur[t];
		ms = sb_max(ms, f);
		for (k = x->x_off[t]; k < x->x_off[t + 1]; k++) {
			int v = x->x_to[k];
			start[v] = sb_max(start[v], f + x->x_delay[k]);
			if (--indeg[v] == 0)
				queue[tail++] = v;
		}
		if (next[t] >= 0) {
			int v = next[t];
			start[v] = sb_max(start[v], f);
			if (--indeg[v] == 0)
				queue[tail++] = v;
		}
	}
	sb_free(rank);
	sb_free(next);
	sb_free(indeg);
	sb_free(queue);
	sb_free(sk);
	return done == nt ? ms : -1;
}

/* ------------------------------------------------------------------ */
/* Brute force                                                         */
/* ------------------------------------------------------------------ */

struct bf {
	const struct sb_dag_exec *x;
	int occupy_sends;
	int nt, nd;
	int *missing;
	double *ready;     /* earliest start from finished predecessors */
	double *avail;     /* per device */
	double *rem;       /* unscheduled occupying work per device */
	unsigned char *done;
	double best;
};

static int bf_occupies(const struct bf *s, int t)
{
	return t < s->x->n || s->occupy_sends;
}

static void bf_dfs(struct bf *s, int left, double last_start, double ms)
{
	const struct sb_dag_exec *x = s->x;
	int t, k, d;

	if (left == 0) {
		if (ms < s->best)
			s->best = ms;
		return;
	}
	/* bound: every device still has its remaining work to do, none of
	 * which starts before last_start */
	for (d = 0; d < s->nd; d++)
		if (s->rem[d] > 0 &&
		    sb_max(s->avail[d], last_start) + s->rem[d] >= s->best * (1 - 1e-12))
			return;
	for (t = 0; t < s->nt; t++) {
		double st, f, old_avail = 0, *saved;
		int occ, nsucc;
		if (s->done[t] || s->missing[t])
			continue;
		occ = bf_occupies(s, t);
		d = x->dev[t];
		st = s->ready[t];
		if (occ)
			st = sb_max(st, s->avail[d]);
		if (st < last_start - 1e-12 * (1 + fabs(last_start)))
			continue;   /* reached again in sorted order */
		f = st + x->dur[t];
		if (sb_max(ms, f) >= s->best * (1 - 1e-12))
			continue;
		nsucc = x->x_off[t + 1] - x->x_off[t];
		saved = SB_NEW(double, nsucc);
		s->done[t] = 1;
		if (occ) {
			old_avail = s->avail[d];
			s->avail[d] = f;
			s->rem[d] -= x->dur[t];
		}
		for (k = x->x_off[t]; k < x->x_off[t + 1]; k++) {
			int v = x->x_to[k];
			saved[k - x->x_off[t]] = s->ready[v];
			s->ready[v] = sb_max(s->ready[v], f + x->x_delay[k]);
			s->missing[v]--;
		}
		bf_dfs(s, left - 1, st, sb_max(ms, f));
		for (k = x->x_off[t]; k < x->x_off[t + 1]; k++) {
			int v = x->x_to[k];
			s->ready[v] = saved[k - x->x_off[t]];
			s->missing[v]++;
		}
		if (occ) {
			s->avail[d] = old_avail;
			s->rem[d] += x->dur[t];
		}
		s->done[t] = 0;
		sb_free(saved);
	}
}

/* Best semi-active schedule of one placement; improves *best. */
static void bf_placement(const struct sb_dag_inst *in, const int *place,
			 int occupy_sends, double *best)
{
	struct sb_dag_exec x;
	struct bf s;
	int t;

	sb_dag_exec_build(&x, in, place);
	memset(&s, 0, sizeof s);
	s.x = &x;
	s.occupy_sends = occupy_sends && !x.delay_sends;
	s.nt = x.ntask;
	s.nd = in->dev.n;
	s.missing = SB_NEW(int, s.nt);
	s.ready = SB_NEW(double, s.nt);
	s.done = SB_NEW(unsigned char, s.nt);
	s.avail = SB_NEW(double, s.nd);
	s.rem = SB_NEW(double, s.nd);
	s.best = *best;
	for (t = 0; t < s.nt; t++) {
		s.missing[t] = x.indeg[t];
		if (bf_occupies(&s, t))
			s.rem[x.dev[t]] += x.dur[t];
	}
	bf_dfs(&s, s.nt, 0, 0);
	*best = s.best;
	sb_free(s.missing);
	sb_free(s.ready);
	sb_free(s.done);
	sb_free(s.avail);
	sb_free(s.rem);
	sb_dag_exec_release(&x);
}

struct bfplace {
	const struct sb_dag_inst *in;
	const struct sb_dag_comps *c;
	const unsigned char *ok;
	int *place;
	double *free_mem;
	int occupy_sends;
	double best;
};

static void bf_place_rec(struct bfplace *p, int k)
{
	int nd = p->in->dev.n, d;

	if (k == p->c->n) {
		bf_placement(p->in, p->place, p->occupy_sends, &p->best);
		return;
	}
	for (d = 0; d < nd; d++) {
		if (!p->ok[(size_t)k * nd + d] || p->c->mem[k] > p->free_mem[d])
			continue;
		sb_dag_comp_place(p->c, k, d, p->place, p->free_mem);
		bf_place_rec(p, k + 1);
		p->free_mem[d] += p->c->mem[k];
	}
}

static double bruteforce(const struct sb_dag_inst *in, int occupy_sends)
{
	struct sb_dag_comps c;
	struct bfplace p;

	sb_dag_comps_build(&c, in);
	memset(&p, 0, sizeof p);
	p.in = in;
	p.c = &c;
	p.ok = comp_ok_table(in, &c);
	p.place = SB_NEW(int, in->g.n);
	p.free_mem = SB_NEW(double, in->dev.n);
	p.occupy_sends = occupy_sends;
	p.best = INFINITY;
	sb_dag_free_mem_init(in, p.free_mem);
	if (in->g.n == 0)
		p.best = 0;
	else
		bf_place_rec(&p, 0);
	sb_free((void *)p.ok);
	sb_free(p.place);
	sb_free(p.free_mem);
	sb_dag_comps_release(&c);
	return p.best;
}

double sb_dag_bruteforce_relaxed(const struct sb_dag_inst *in)
{
	if (in->g.n > 9)
		SB_BUG("bruteforce: n = %d is too large (at most 9)", in->g.n);
	return bruteforce(in, 0);
}

double sb_dag_bruteforce_exact(const struct sb_dag_inst *in)
{
	if (in->g.n > 7)
		SB_BUG("bruteforce: n = %d is too large (at most 7)", in->g.n);
	return bruteforce(in, 1);
}

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
	return sb_dag_xfer(m->in, size, d, e) + send_dur(m->in, d);
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
	return t < m->n ? sb_dag_time(m->in, t, d) : send_dur(m->in, d);
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
	m->ok = comp_ok_table(in, &m->c);
	m->tmin = SB_NEW(double, m->n);
	m->head = SB_NEW(double, m->n);
	m->tail = SB_NEW(double, m->n);
	fastest_times(in, m->ok, m->tmin);
	heads_tails(g, m->tmin, m->head, m->tail);
	build_reach(m);
	build_classes(m);
	sb_dag_lower_bounds(in, &b);
	m->lb = b.lb;
	for (d = 0; d < m->nd; d++)
		m->max_send = sb_max(m->max_send, send_dur(in, d));
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
		struct sb_lp_params par = dag_lp_params;
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
						row_add(m, col, -(send_dur(in, d) +
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
		tdur[n + s] = send_dur(m->in, place[u]);
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
		ms = eval_sequences(x, key, 1, tmp);
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

static void result_infeasible(struct sb_lp_result *res)
{
	memset(res, 0, sizeof *res);
	res->status = SB_LP_INFEASIBLE;
	res->obj = NAN;
	res->bound = INFINITY;
	res->gap = INFINITY;
}

/* C >= lb is a row of every model, so a search stopped before it proved
 * anything still certifies lb. */
static void floor_bound(struct sb_lp_result *res, double lb)
{
	if (res->status != SB_LP_FEASIBLE && res->status != SB_LP_NOSOLUTION)
		return;
	if (!(res->bound >= lb)) {
		res->bound = lb;
		if (res->status == SB_LP_FEASIBLE)
			res->gap = fabs(res->obj - lb) / sb_max(fabs(res->obj), 1e-9);
	}
}

/* A warm start: relabelled placement, start time of every task (ops, and
 * for the exact model the Sends of x), and its makespan in the model. */
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
		floor_bound(res, m->lb);
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
	b->time_limit = sb_max(tl - (sb_now() - t0), 1e-3);
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
	double tl, t0 = sb_now(), cap = INFINITY;
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
		result_infeasible(res);
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
	res->seconds = sb_now() - t0;
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

/* ------------------------------------------------------------------ */
/* §10.4 time-indexed P|prec|Cmax                                      */
/* ------------------------------------------------------------------ */

int sb_dag_time_indexed(const struct sb_dag_inst *in, int nproc, int horizon,
			const struct sb_dag_milp_opts *o, struct sb_lp_result *res,
			struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, v, t, k, rc = 0, T;
	int *p = SB_NEW(int, n), *first = SB_NEW(int, n + 1), *est = SB_NEW(int, n),
	    *lst = SB_NEW(int, n);
	double *w = SB_NEW(double, n), *head = SB_NEW(double, n), *tail = SB_NEW(double, n);
	double total = 0, cp;
	struct sb_lp *lp = NULL;
	int *ri = NULL, cc, ncap = 0, nn;
	double *rv = NULL, t0 = sb_now();
	char name[64];

	memset(res, 0, sizeof *res);
	if (nproc < 1) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "time-indexed model: %d processors", nproc);
		goto out;
	}
	for (v = 0; v < n; v++) {
		double r = nearbyint(g->ops[v]);
		if (fabs(g->ops[v] - r) > 1e-9 || r < 0 || r > 1e7) {
			rc = sb_err_set(err, SB_EXIT_INPUT,
					"time-indexed model: op %ld: duration %g is not a "
					"small non-negative integer", g->ext_id[v], g->ops[v]);
			goto out;
		}
		p[v] = (int)r;
		w[v] = r;
		total += r;
	}
	if (horizon <= 0)
		horizon = (int)total;
	T = horizon;
	cp = heads_tails(g, w, head, tail);
	if (cp > T) {
		result_infeasible(res);
		goto out;
	}
	if ((double)n * (T + 1) > 2e6) {
		rc = sb_err_set(err, SB_EXIT_INPUT,
				"time-indexed model too large (%d ops x horizon %d)", n, T);
		goto out;
	}
	lp = sb_lp_new("p-prec-cmax", 1);
	{
		struct sb_lp_params par = dag_lp_params;
		par.node_limit = o ? o->node_limit : 0;
		par.iter_limit = o ? o->iter_limit : 0;
		sb_lp_set_params(lp, &par);
	}
	cc = sb_lp_add_col(lp, "C", SB_LP_CONT,
			   sb_max(cp, ceil(total / nproc - 1e-9)), T, 1);
	/* x_{v,t} = 1: v starts at t, t in [head, T - p - tail] */
	for (v = 0; v < n; v++) {
		est[v] = (int)head[v];
		lst[v] = T - p[v] - (int)tail[v];
		first[v] = sb_lp_ncols(lp);
		for (t = est[v]; t <= lst[v]; t++) {
			snprintf(name, sizeof name, "x_%d_%d", v, t);
			sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	}
	first[n] = sb_lp_ncols(lp);
	ncap = n * (T + 2) + 2;
	ri = SB_NEW(int, ncap);
	rv = SB_NEW(double, ncap);
	for (v = 0; v < n; v++) {
		nn = 0;
		for (t = est[v]; t <= lst[v]; t++) {
			ri[nn] = first[v] + t - est[v];
			rv[nn++] = 1;
		}
		snprintf(name, sizeof name, "once_%d", v);
		sb_lp_add_row(lp, name, 1, 1, nn, ri, rv);
		/* C >= Σ (t + p_v) x_{v,t} (sinks; the others follow) */
		if (g->succ_off[v + 1] == g->succ_off[v]) {
			nn = 0;
			ri[nn] = cc;
			rv[nn++] = 1;
			for (t = est[v]; t <= lst[v]; t++) {
				ri[nn] = first[v] + t - est[v];
				rv[nn++] = -(double)(t + p[v]);
			}
			snprintf(name, sizeof name, "cmax_%d", v);
			sb_lp_add_row(lp, name, 0, SB_LP_INF, nn, ri, rv);
		}
	}
	/* at most nproc ops running in [t, t+1) */
	for (t = 0; t < T; t++) {
		nn = 0;
		for (v = 0; v < n; v++) {
			int a = t - p[v] + 1, b = t;
			if (a < est[v])
				a = est[v];
			if (b > lst[v])
				b = lst[v];
			for (k = a; k <= b; k++) {
				ri[nn] = first[v] + k - est[v];
				rv[nn++] = 1;
			}
		}
		if (nn > nproc) {
			snprintf(name, sizeof name, "cap_%d", t);
			sb_lp_add_row(lp, name, -SB_LP_INF, nproc, nn, ri, rv);
		}
	}
	/* Σ t x_{w,t} >= Σ t x_{v,t} + p_v */
	for (v = 0; v < n; v++)
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
			int wv = g->succ[k];
			nn = 0;
			for (t = est[wv]; t <= lst[wv]; t++) {
				ri[nn] = first[wv] + t - est[wv];
				rv[nn++] = t;
			}
			for (t = est[v]; t <= lst[v]; t++) {
				ri[nn] = first[v] + t - est[v];
				rv[nn++] = -t;
			}
			snprintf(name, sizeof name, "prec_%d_%d", v, wv);
			sb_lp_add_row(lp, name, p[v], SB_LP_INF, nn, ri, rv);
		}
	/* the time limit covers building the model too */
	rc = sb_lp_solve(lp, 0, sb_max((o && o->time_limit > 0 ? o->time_limit : 60) -
				       (sb_now() - t0), 1e-3),
			 o ? o->mip_gap : 0, res, err);
	res->seconds = sb_now() - t0;
	if (rc)
		sb_err_prefix(err, "time-indexed model of '%s': ", in->name ? in->name : "");
	else
		floor_bound(res, sb_max(cp, ceil(total / nproc - 1e-9)));
out:
	sb_lp_free(lp);
	sb_free(p); sb_free(first); sb_free(est); sb_free(lst);
	sb_free(w); sb_free(head); sb_free(tail);
	sb_free(ri); sb_free(rv);
	return rc;
}
