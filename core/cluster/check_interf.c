/*
 * check_interf.c - the checker's part for the topology-and-interference
 * mode (spec marl.md §2, §9; [O], our design): the iteration times of a run
 * are recomputed from nothing but the job set, the topology, the
 * interference model and the segments' GPUs and times, never from the
 * simulator's bookkeeping. Also the mode's checks of clusters and jobs.
 */
#include "cluster.h"
#include "cluster/interf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-9

static int close_to(double a, double b)
{
	return fabs(a - b) <= REL * sb_max(1.0, sb_max(fabs(a), fabs(b)));
}

int sb_cluster_interf_validate(const struct sb_cluster *c, struct sb_err *err)
{
	const struct sb_interf *m = c->interf;
	if (!m->topo)
		return sb_err_set(err, SB_EXIT_INPUT, "cluster '%s': interference model without "
				  "a topology", c->name);
	if (m->topo->nserver != c->nserver || m->topo->gpus != c->gpus)
		return sb_err_set(err, SB_EXIT_INPUT, "cluster '%s': field 'servers x gpus' "
				  "(%d x %d) does not match topology '%s' (%d x %d)", c->name,
				  c->nserver, c->gpus, m->topo->name, m->topo->nserver,
				  m->topo->gpus);
	if (m->ntype < 1 || m->ntype > SB_INTERF_MAXTYPE)
		return sb_err_set(err, SB_EXIT_INPUT, "cluster '%s': %d job types", c->name,
				  m->ntype);
	return 0;
}

const char *sb_cluster_interf_job_bad(const struct sb_cluster *c, const struct sb_jobset *js,
				      const struct sb_job *j)
{
	(void)js;
	if (j->model >= c->interf->ntype)
		return "model (not a type of the interference table)";
	if (j->t != 1 || j->p != 1)
		return "t/p (the topology mode runs ring-all-reduce data parallelism)";
	return NULL;
}

/* ------------------------------------------------------------------ */
/* The run                                                             */
/* ------------------------------------------------------------------ */

static const struct sb_cluster_piece *piece_base;

static int cmp_piece(const void *a, const void *b)
{
	const struct sb_cluster_piece *x = &piece_base[*(const int *)a];
	const struct sb_cluster_piece *y = &piece_base[*(const int *)b];
	int ia = *(const int *)a, ib = *(const int *)b;
	if (x->seg != y->seg)
		return x->seg < y->seg ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (ia > ib) - (ia < ib);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define FAIL(...) do { snprintf(why, whysz, __VA_ARGS__); rc = -1; goto out; } while (0)

int sb_cluster_check_interf(const struct sb_cluster *cl, const struct sb_jobset *js,
			    const struct sb_cluster_result *r, char *why, size_t whysz)
{
	const struct sb_interf *m = cl->interf;
	int n = js->n, ns = r->nseg, np = r->npiece, rc = 0, i, k, nt = 0, na;
	int *order = SB_NEW(int, np > 0 ? np : 1);
	int *first = SB_NEW(int, ns + 1), *cursor = SB_NEW(int, ns > 0 ? ns : 1);
	int *nseg = SB_NEW(int, n > 0 ? n : 1), *act = SB_NEW(int, ns > 0 ? ns : 1);
	double *times = SB_NEW(double, 2 * (size_t)ns + 1);
	double *prog = SB_NEW(double, n > 0 ? n : 1);
	double *S = SB_NEW(double, ns > 0 ? ns : 1), *tau = SB_NEW(double, ns > 0 ? ns : 1);
	struct sb_interf_job *ij = SB_NEW(struct sb_interf_job, ns > 0 ? ns : 1);

	for (k = 0; k < ns; k++)
		nseg[r->seg[k].job]++;
	if (!m->migrate)
		for (i = 0; i < n; i++)
			if (nseg[i] > 1)
				FAIL("job %d runs in %d segments: the topology mode is "
				     "non-preemptive (no migration)", i, nseg[i]);
	/* the pieces of each segment, in time order, tile it */
	for (k = 0; k < np; k++) {
		const struct sb_cluster_piece *p = &r->piece[k];
		if (p->seg < 0 || p->seg >= ns)
			FAIL("piece %d: segment %d out of range", k, p->seg);
		if (!(isfinite(p->start) && isfinite(p->end) && p->end >= p->start))
			FAIL("piece %d of segment %d: start %g, end %g", k, p->seg, p->start, p->end);
		if (!(p->tau > 0) || !(p->slow >= 1))
			FAIL("piece %d of segment %d: tau %g, slowdown %g", k, p->seg, p->tau,
			     p->slow);
		order[k] = k;
	}
	piece_base = r->piece;
	qsort(order, (size_t)np, sizeof *order, cmp_piece);
	for (k = 0, i = 0; k < ns; k++) {
		const struct sb_cluster_seg *sg = &r->seg[k];
		double t = sg->start;
		first[k] = i;
		if (i >= np || r->piece[order[i]].seg != k)
			FAIL("job %d: segment %d has no speed piece", sg->job, k);
		for (; i < np && r->piece[order[i]].seg == k; i++) {
			const struct sb_cluster_piece *p = &r->piece[order[i]];
			if (!close_to(p->start, t))
				FAIL("job %d: segment %d has a gap or overlap in its speed pieces "
				     "at %.17g (piece starts %.17g)", sg->job, k, t, p->start);
			t = p->end;
		}
		if (!close_to(t, sg->end))
			FAIL("job %d: the speed pieces of segment %d end at %.17g, the segment "
			     "at %.17g", sg->job, k, t, sg->end);
		cursor[k] = first[k];
	}
	first[ns] = np;

	/* every interval between segment boundaries: recompute the speeds */
	for (k = 0; k < ns; k++) {
		times[nt++] = r->seg[k].start;
		times[nt++] = r->seg[k].end;
	}
	qsort(times, (size_t)nt, sizeof *times, cmp_dbl);
	for (i = 0; i + 1 < nt; i++) {
		double ta = times[i], tb = times[i + 1];
		int a;
		if (!(tb > ta))
			continue;
		na = 0;
		for (k = 0; k < ns; k++) {
			const struct sb_cluster_seg *sg = &r->seg[k];
			if (sg->start <= ta && sg->end >= tb) {
				act[na] = k;
				ij[na].id = sg->job;
				ij[na].type = js->job[sg->job].model;
				ij[na].w = js->job[sg->job].gpus;
				ij[na].gpus = r->gpu + sg->gpu_off;
				na++;
			}
		}
		sb_interf_eval(m, ij, na, S, tau);
		for (a = 0; a < na; a++) {
			const struct sb_cluster_seg *sg = &r->seg[act[a]];
			const struct sb_cluster_piece *p;
			double from;
			int c = cursor[act[a]];
			/* skip pieces that end by ta (zero-length ones included) */
			while (c < first[act[a] + 1] && r->piece[order[c]].end <= ta &&
			       r->piece[order[c]].end < tb)
				c++;
			cursor[act[a]] = c;
			if (c >= first[act[a] + 1])
				FAIL("job %d: no speed piece of segment %d covers [%.17g, %.17g]",
				     sg->job, act[a], ta, tb);
			p = &r->piece[order[c]];
			if (p->start > ta + REL * sb_max(1.0, fabs(ta)) ||
			    p->end < tb - REL * sb_max(1.0, fabs(tb)))
				FAIL("job %d: its speed changes inside [%.17g, %.17g] (piece "
				     "[%.17g, %.17g]) while no job starts or stops", sg->job, ta,
				     tb, p->start, p->end);
			if (!close_to(p->tau, tau[a]))
				FAIL("job %d: piece [%.17g, %.17g] records tau %.17g, the "
				     "co-location state gives %.17g", sg->job, p->start, p->end,
				     p->tau, tau[a]);
			if (!close_to(p->slow, S[a]))
				FAIL("job %d: piece [%.17g, %.17g] records slowdown %.17g, the "
				     "co-location state gives %.17g", sg->job, p->start, p->end,
				     p->slow, S[a]);
			/* no progress during a restart overhead */
			from = sb_max(ta, sg->start + sg->overhead);
			if (tb > from)
				prog[sg->job] += (tb - from) / tau[a];
		}
	}
	for (i = 0; i < n; i++) {
		const struct sb_job *j = &js->job[i];
		double iso = (double)j->iters * sb_interf_tau_iso(m, j->model, j->gpus);
		if (fabs(prog[i] - (double)j->iters) > 1e-7 * sb_max(1.0, (double)j->iters))
			FAIL("job %d: its speed pieces integrate to %.12g iterations, it needs %ld",
			     i, prog[i], j->iters);
		if (r->finish[i] - j->arrival < iso * (1 - 1e-9))
			FAIL("job %d: JCT %.17g below its isolated duration %.17g", i,
			     r->finish[i] - j->arrival, iso);
	}
out:
	sb_free(order);
	sb_free(first);
	sb_free(cursor);
	sb_free(nseg);
	sb_free(act);
	sb_free(times);
	sb_free(prog);
	sb_free(S);
	sb_free(tau);
	sb_free(ij);
	return rc;
}

double sb_cluster_interf_slowdown(const struct sb_jobset *js, const struct sb_cluster_result *r)
{
	double num = 0, den = 0;
	int k;
	for (k = 0; k < r->npiece; k++) {
		const struct sb_cluster_piece *p = &r->piece[k];
		double gs = js->job[r->seg[p->seg].job].gpus * (p->end - p->start);
		num += gs * p->slow;
		den += gs;
	}
	return den > 0 ? num / den : 1;
}
