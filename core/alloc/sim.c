/*
 * sim.c - the alloc family's time-slotted simulator: it owns the slot loop,
 * shows each policy the active jobs, takes the plan the policy builds,
 * advances progress (capped at the target, fractional completion inside
 * the slot) and hands the whole run to the independent checker.
 * Empty slots between arrivals are skipped, so the cost grows with the
 * slots that have work, not with the horizon.
 */
#include "alloc.h"

#include <math.h>
#include <string.h>

void sb_alloc_result_release(struct sb_alloc_result *r)
{
	sb_free(r->grant);
	sb_free(r->slot_off);
	sb_free(r->progress);
	sb_free(r->finish);
	sb_free(r->gpu_slots);
	sb_free(r->busy);
	memset(r, 0, sizeof *r);
}

static void plan_reset(struct sb_alloc_plan *pl)
{
	const struct sb_alloc_inst *in = pl->in;
	int k;
	for (k = 0; k < pl->n; k++)
		if (pl->g[k].job >= 0) {
			pl->head[pl->g[k].job] = -1;
			pl->w[pl->g[k].job] = pl->p[pl->g[k].job] = 0;
		}
	pl->n = 0;
	memcpy(pl->free, in->cap, (size_t)in->nserver * sizeof *pl->free);
}

static void push_grant(struct sb_alloc_result *r, int *cap, const struct sb_alloc_grant *g)
{
	if (r->ngrant == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		r->grant = sb_xrealloc(r->grant, (size_t)*cap * sizeof *r->grant);
	}
	r->grant[r->ngrant++] = *g;
}

/* Sums over the finished run: the metrics the checker recomputes. */
static void finish_metrics(const struct sb_alloc_inst *in, struct sb_alloc_result *r,
			   const int *done_slot)
{
	int j, nfin = 0;
	double jct = 0;

	r->utility = r->flow_slots = 0;
	r->unfinished = 0;
	for (j = 0; j < in->njob; j++) {
		const struct sb_alloc_job *jb = &in->job[j];
		r->utility += sb_alloc_job_utility(in, j, r->progress[j], r->gpu_slots[j]);
		if (r->finish[j] >= 0) {
			jct += r->finish[j] - jb->arrival * in->slot_s;
			nfin++;
			r->flow_slots += done_slot[j] - jb->arrival + 1;
		} else {
			r->unfinished++;
			r->flow_slots += in->nslot - jb->arrival + 1;
		}
	}
	r->jct_mean = nfin ? jct / nfin : 0;
}

int sb_alloc_policy_fits(const struct sb_alloc_policy *p, const struct sb_alloc_inst *in)
{
	int j;
	for (j = 0; j < in->njob; j++)
		if (p->modes && !(p->modes & (1u << in->job[j].mode)))
			return 0;
	return 1;
}

int sb_alloc_run(const struct sb_alloc_inst *in, const struct sb_alloc_policy *p,
		 const struct sb_opts *o, struct sb_rng *rng, struct sb_alloc_result *r,
		 struct sb_err *err)
{
	int J = in->njob, S = in->nserver, T = in->nslot;
	int *active = SB_NEW(int, J), nact = 0, next = 0, t = 0, k, rc = 0, gcap = 0;
	int *prev_w = SB_NEW(int, J), *prev_p = SB_NEW(int, J), *done_slot = SB_NEW(int, J);
	double *attained = SB_NEW(double, J);
	struct sb_alloc_plan pl = { 0 };
	void *ctx = NULL;
	char why[512];

	memset(r, 0, sizeof *r);
	if (!sb_alloc_policy_fits(p, in)) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "policy %s schedules %s jobs only; the "
				"instance has others", p->name,
				p->modes == 1u << SB_ALLOC_PS ? "parameter-server" : "ring-all-reduce");
		sb_free(active);
		sb_free(prev_w);
		sb_free(prev_p);
		sb_free(done_slot);
		sb_free(attained);
		return rc;
	}
	r->progress = SB_NEW(double, J);
	r->finish = SB_NEW(double, J);
	r->gpu_slots = SB_NEW(double, J);
	r->busy = SB_NEW(double, T > 0 ? T : 1);
	r->slot_off = SB_NEW(int, T + 1);
	for (k = 0; k < J; k++) {
		r->finish[k] = -1;
		done_slot[k] = -1;
	}
	pl.in = in;
	pl.free = sb_xmalloc((size_t)(S > 0 ? S : 1) * sizeof *pl.free);
	pl.w = SB_NEW(int, J);
	pl.p = SB_NEW(int, J);
	pl.head = SB_NEW(int, J);
	for (k = 0; k < J; k++)
		pl.head[k] = -1;
	if (p->init)
		ctx = p->init(in, o, rng);

	while (t < T) {
		struct sb_alloc_view v;
		int i, m;

		while (next < J && in->job[next].arrival <= t)
			active[nact++] = next++;
		if (!nact) {
			if (next >= J)
				break;
			/* nothing to run until the next arrival */
			while (t < in->job[next].arrival && t < T)
				r->slot_off[++t] = r->ngrant;
			continue;
		}
		plan_reset(&pl);
		v = (struct sb_alloc_view){ in, t, nact, active, r->progress, attained, prev_w,
					    prev_p };
		if ((rc = p->allocate(ctx, &v, o, rng, &pl, err)))
			break;
		for (k = 0; k < pl.n; k++)
			if (pl.g[k].job >= 0 && (pl.g[k].workers > 0 || pl.g[k].ps > 0)) {
				const struct sb_alloc_grant *g = &pl.g[k];
				push_grant(r, &gcap, g);
				r->busy[t] += g->workers * in->job[g->job].wdem[0];
				r->gpu_slots[g->job] += g->workers * in->job[g->job].wdem[0];
				attained[g->job] += g->workers * in->job[g->job].wdem[0] * in->slot_s;
			}
		for (i = m = 0; i < nact; i++) {
			int j = active[i], w = pl.w[j], loc = sb_alloc_plan_local(&pl, j);
			double rate = sb_alloc_rate(in, j, w, pl.p[j], loc);
			double rem = in->job[j].target - r->progress[j];
			prev_w[j] = w;
			prev_p[j] = pl.p[j];
			if (w > 0) {
				r->job_slots++;
				r->local_slots += loc;
			}
			if (rate > 0 && rate >= rem) {
				r->finish[j] = (t + rem / rate) * in->slot_s;
				r->progress[j] = in->job[j].target;
				done_slot[j] = t;
			} else {
				r->progress[j] += rate;
				active[m++] = j;
			}
		}
		nact = m;
		r->slot_off[++t] = r->ngrant;
	}
	r->nslot = t;
	if (p->release)
		p->release(ctx);
	if (!rc) {
		finish_metrics(in, r, done_slot);
		if (sb_alloc_check(in, r, why, sizeof why))
			rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: checker rejects the run: %s",
					p->name, why);
	}
	if (rc)
		sb_alloc_result_release(r);
	sb_free(pl.g);
	sb_free(pl.next);
	sb_free(pl.free);
	sb_free(pl.w);
	sb_free(pl.p);
	sb_free(pl.head);
	sb_free(active);
	sb_free(prev_w);
	sb_free(prev_p);
	sb_free(done_slot);
	sb_free(attained);
	return rc;
}
