/*
 * brute.c - exact optima of tiny dag instances by enumeration (our design
 * [O]; see the design notes in bound.h): placements per colocation
 * component, then a depth-first search over semi-active schedules.
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	p.ok = sb_dag_bnd_comp_ok_table(in, &c);
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

