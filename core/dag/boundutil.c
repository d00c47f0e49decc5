/*
 * boundutil.c - the helpers the dag family's bounds share (boundutil.h).
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct sb_lp_params sb_dag_bnd_lp_params = {
	.tol_int = 1e-9, .tol_obj = 1e-10, .pseudocost = 1,
};

/* Duration of a Send on device d, exactly as sb_dag_exec_build has it. */
double sb_dag_bnd_send_dur(const struct sb_dag_inst *in, int d)
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
unsigned char *sb_dag_bnd_comp_ok_table(const struct sb_dag_inst *in,
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
void sb_dag_bnd_fastest_times(const struct sb_dag_inst *in, const unsigned char *ok,
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
double sb_dag_bnd_heads_tails(const struct sb_dag *g, const double *w, double *head,
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
double sb_dag_bnd_eval_sequences(const struct sb_dag_exec *x, const double *key,
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


void sb_dag_bnd_infeasible(struct sb_lp_result *res)
{
	memset(res, 0, sizeof *res);
	res->status = SB_LP_INFEASIBLE;
	res->obj = NAN;
	res->bound = INFINITY;
	res->gap = INFINITY;
}

/* C >= lb is a row of every model, so a search stopped before it proved
 * anything still certifies lb. */
void sb_dag_bnd_floor(struct sb_lp_result *res, double lb)
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
