/*
 * check.c - the independent validity checker of dag-family schedules.
 *
 * It shares no code with the simulator: from the instance and the
 * placement alone it derives which Sends must exist and which delays every
 * edge imposes, then checks the times it is given. A schedule that fails
 * here is never measured (Graph500's rule: no result without validation).
 */
#include "dag.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ival {
	double s, f;
	int task; /* op id, or n + send index */
};

static int ival_cmp(const void *a, const void *b)
{
	const struct ival *x = a, *y = b;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	return x->task - y->task;
}

/* Key of a (producer, device) pair for lookups. */
static int64_t pair_key(int u, int d, int nd)
{
	return (int64_t)u * nd + d;
}

struct pair {
	int64_t key;
	int idx;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return (x->key > y->key) - (x->key < y->key);
}

static int find_send(const struct pair *p, int np, int64_t key)
{
	int lo = 0, hi = np - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (p[mid].key == key)
			return p[mid].idx;
		if (p[mid].key < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

#define FAIL(...) do { rc = sb_err_set(err, SB_EXIT_RUN, __VA_ARGS__); goto out; } while (0)

int sb_dag_check(const struct sb_dag_inst *in, const struct sb_dag_schedule *s,
		 struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, nd = in->dev.n, v, k, i, rc = 0, nreq = 0, ni = 0;
	double *used = SB_NEW(double, nd), maxf = 0, tol;
	struct pair *sp = SB_NEW(struct pair, s->nsend);
	int *comp_dev = SB_NEW(int, g->ncomp);
	struct ival *iv = SB_NEW(struct ival, n + s->nsend);
	char *seen = NULL;

	if (s->n != n)
		FAIL("schedule has %d ops, instance %d", s->n, n);
	for (v = 0; v < n; v++) {
		if (isfinite(s->finish[v]) && s->finish[v] > maxf)
			maxf = s->finish[v];
	}
	tol = 1e-9 * (maxf > 1 ? maxf : 1);
	for (k = 0; k < g->ncomp; k++)
		comp_dev[k] = -1;

	/* placement: complete, allowed, colocated, memory */
	for (v = 0; v < n; v++) {
		int d = s->place[v];
		if (d < 0 || d >= nd)
			FAIL("op %ld is not placed on a device", g->ext_id[v]);
		if (!sb_dag_allowed(in, v, d))
			FAIL("op %ld is placed on device %ld, which it may not use",
			     g->ext_id[v], in->dev.ext_id[d]);
		if (comp_dev[g->comp[v]] < 0)
			comp_dev[g->comp[v]] = d;
		else if (comp_dev[g->comp[v]] != d)
			FAIL("op %ld is not on the device of its colocation group",
			     g->ext_id[v]);
		used[d] += sb_dag_mem(in, v);
	}
	for (k = 0; k < nd; k++)
		if (used[k] > in->dev.mem[k] * (1 + 1e-9))
			FAIL("device %ld holds memory %g over its capacity %g",
			     in->dev.ext_id[k], used[k], in->dev.mem[k]);

	/* op times */
	for (v = 0; v < n; v++) {
		double want = sb_dag_time(in, v, s->place[v]);
		if (!isfinite(s->start[v]) || !isfinite(s->finish[v]) || s->start[v] < -tol)
			FAIL("op %ld has no valid start/finish time", g->ext_id[v]);
		if (fabs(s->finish[v] - s->start[v] - want) > tol + 1e-12 * want)
			FAIL("op %ld runs %.17g time units instead of %.17g", g->ext_id[v],
			     s->finish[v] - s->start[v], want);
		if (want > 0)
			iv[ni++] = (struct ival){ s->start[v], s->finish[v], v };
	}

	/* Sends: each (producer, remote consumer device) exactly once */
	for (i = 0; i < s->nsend; i++) {
		int u = s->send_op[i], d;
		if (u < 0 || u >= n || s->send_dst[i] < 0 || s->send_dst[i] >= nd)
			FAIL("send %d has an invalid producer or destination", i);
		d = s->place[u];
		if (s->send_dst[i] == d)
			FAIL("send of op %ld goes to its own device", g->ext_id[u]);
		sp[i] = (struct pair){ pair_key(u, s->send_dst[i], nd), i };
		if (s->send_start[i] < s->finish[u] - tol)
			FAIL("send of op %ld starts before the op finishes", g->ext_id[u]);
		{
			double want = s->delay_sends ? 0.0 : in->send_ops / in->dev.speed[d];
			if (fabs(s->send_finish[i] - s->send_start[i] - want) > tol)
				FAIL("send of op %ld runs %.17g instead of %.17g", g->ext_id[u],
				     s->send_finish[i] - s->send_start[i], want);
			if (want > 0)
				iv[ni++] = (struct ival){ s->send_start[i], s->send_finish[i],
							  n + i };
		}
		if (s->send_finish[i] > maxf)
			maxf = s->send_finish[i];
	}
	qsort(sp, (size_t)s->nsend, sizeof *sp, pair_cmp);
	for (i = 1; i < s->nsend; i++)
		if (sp[i].key == sp[i - 1].key)
			FAIL("op %ld has two sends to device %ld",
			     g->ext_id[s->send_op[sp[i].idx]],
			     in->dev.ext_id[s->send_dst[sp[i].idx]]);

	/* precedence and required Sends */
	seen = SB_NEW(char, s->nsend);
	for (v = 0; v < n; v++) {
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
			int w = g->succ[k], pv = s->place[v], pw = s->place[w];
			if (pv == pw) {
				if (s->start[w] < s->finish[v] - tol)
					FAIL("op %ld starts at %.17g before its input op %ld "
					     "finishes at %.17g", g->ext_id[w], s->start[w],
					     g->ext_id[v], s->finish[v]);
				continue;
			}
			i = find_send(sp, s->nsend, pair_key(v, pw, nd));
			if (i < 0)
				FAIL("op %ld feeds op %ld on device %ld but has no send there",
				     g->ext_id[v], g->ext_id[w], in->dev.ext_id[pw]);
			if (!seen[i]) {
				seen[i] = 1;
				nreq++;
			}
			{
				double ready = s->send_finish[i] + sb_dag_xfer(in, g->succ_size[k], pv, pw);
				if (s->start[w] < ready - tol)
					FAIL("op %ld starts at %.17g before the tensor of op %ld "
					     "arrives at %.17g", g->ext_id[w], s->start[w],
					     g->ext_id[v], ready);
			}
		}
	}
	if (nreq != s->nsend)
		FAIL("%d sends were executed that no consumer needs", s->nsend - nreq);

	/* one task at a time per device */
	qsort(iv, (size_t)ni, sizeof *iv, ival_cmp);
	{
		/* group by device: stable pass per device using the sorted list */
		double *last_f = SB_NEW(double, nd);
		int *last_t = SB_NEW(int, nd);
		for (k = 0; k < nd; k++) {
			last_f[k] = -INFINITY;
			last_t[k] = -1;
		}
		for (i = 0; i < ni; i++) {
			int t = iv[i].task;
			int d = t < n ? s->place[t] : s->place[s->send_op[t - n]];
			if (iv[i].s < last_f[d] - tol) {
				int a = last_t[d];
				sb_free(last_f);
				sb_free(last_t);
				FAIL("device %ld runs two tasks at once (%s %ld and %s %ld at %.17g)",
				     in->dev.ext_id[d], a < n ? "op" : "send of op",
				     g->ext_id[a < n ? a : s->send_op[a - n]],
				     t < n ? "op" : "send of op",
				     g->ext_id[t < n ? t : s->send_op[t - n]], iv[i].s);
			}
			if (iv[i].f > last_f[d]) {
				last_f[d] = iv[i].f;
				last_t[d] = t;
			}
		}
		sb_free(last_f);
		sb_free(last_t);
	}
	if (fabs(s->makespan - maxf) > tol)
		FAIL("claimed makespan %.17g differs from the last finish %.17g",
		     s->makespan, maxf);
out:
	sb_free(used);
	sb_free(sp);
	sb_free(comp_dev);
	sb_free(iv);
	sb_free(seen);
	return rc;
}

void sb_dag_schedule_of_result(struct sb_dag_schedule *s,
			       const struct sb_dag_exec *x,
			       const struct sb_dag_result *r)
{
	s->n = x->n;
	s->place = x->place;
	s->start = r->start;
	s->finish = r->finish;
	s->nsend = x->nsend;
	s->send_op = x->send_op;
	s->send_dst = x->send_dst;
	s->send_start = r->start + x->n;
	s->send_finish = r->finish + x->n;
	s->delay_sends = x->delay_sends;
	s->makespan = r->makespan;
}

void sb_dag_schedule_of_plan(struct sb_dag_schedule *s,
			     const struct sb_dag_exec *x,
			     const struct sb_dag_plan *p, double *scratch)
{
	int i;
	for (i = 0; i < x->nsend; i++)
		scratch[i] = p->plan_finish[x->send_op[i]];
	s->n = x->n;
	s->place = p->place;
	s->start = p->plan_start;
	s->finish = p->plan_finish;
	s->nsend = x->nsend;
	s->send_op = x->send_op;
	s->send_dst = x->send_dst;
	s->send_start = scratch;
	s->send_finish = scratch;
	s->delay_sends = 1;
	s->makespan = p->plan_makespan;
}
