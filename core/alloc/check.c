/*
 * check.c - the alloc family's independent checker. It shares nothing with
 * the simulator but the model's step time (alloc.h): it replays every
 * grant slot by slot, with its own locality, capacity and progress
 * bookkeeping, and recomputes every metric. Ours.
 */
#include "alloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grant_cmp(const void *a, const void *b)
{
	const struct sb_alloc_grant *x = a, *y = b;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->server < y->server ? -1 : x->server > y->server;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (1 + fabs(a) + fabs(b));
}

int sb_alloc_check(const struct sb_alloc_inst *in, const struct sb_alloc_result *r,
		   char *why, size_t len)
{
	int J = in->njob, S = in->nserver, t, k, j, bad = 0, nfin = 0, unfinished = 0;
	double *prog = SB_NEW(double, J), *fin = SB_NEW(double, J), *gs = SB_NEW(double, J);
	int *done = SB_NEW(int, J), *w = SB_NEW(int, J), *p = SB_NEW(int, J);
	int *srv = SB_NEW(int, J);
	double (*load)[SB_ALLOC_NRES] = sb_xcalloc((size_t)(S > 0 ? S : 1), sizeof(double[SB_ALLOC_NRES]));
	struct sb_alloc_grant *sl = NULL;
	double util = 0, jct = 0, flow = 0;
	long job_slots = 0, local_slots = 0;

#define FAIL(...) do { snprintf(why, len, __VA_ARGS__); bad = 1; goto out; } while (0)
	for (j = 0; j < J; j++) {
		done[j] = -1;
		fin[j] = -1;
	}
	if (r->nslot < 0 || r->nslot > in->nslot)
		FAIL("%d slots simulated, horizon is %d", r->nslot, in->nslot);
	if (r->slot_off[0] != 0 || r->slot_off[r->nslot] != r->ngrant)
		FAIL("slot offsets do not cover the %d grants", r->ngrant);
	sl = SB_NEW(struct sb_alloc_grant, r->ngrant > 0 ? r->ngrant : 1);
	for (t = 0; t < r->nslot; t++) {
		int a = r->slot_off[t], b = r->slot_off[t + 1], n = b - a;
		if (n < 0)
			FAIL("slot %d: offsets decrease", t);
		memcpy(sl, r->grant + a, (size_t)n * sizeof *sl);
		qsort(sl, (size_t)n, sizeof *sl, grant_cmp);
		memset(load, 0, (size_t)S * sizeof *load);
		for (k = 0; k < n; k++) {
			const struct sb_alloc_grant *g = &sl[k];
			if (g->job < 0 || g->job >= J || g->server < 0 || g->server >= S)
				FAIL("slot %d: grant to job %d on server %d: no such job or server",
				     t, g->job, g->server);
			if (g->workers < 0 || g->ps < 0 || g->workers + g->ps == 0)
				FAIL("slot %d: job %d, server %d: %d workers and %d PSs", t, g->job,
				     g->server, g->workers, g->ps);
			if (in->job[g->job].arrival > t)
				FAIL("slot %d: job %d runs before its arrival (slot %d)", t, g->job,
				     in->job[g->job].arrival);
			if (done[g->job] >= 0)
				FAIL("slot %d: job %d holds resources after it completed (slot %d)",
				     t, g->job, done[g->job]);
			if (k > 0 && sl[k - 1].job == g->job && sl[k - 1].server == g->server)
				FAIL("slot %d: job %d has two layouts on server %d", t, g->job,
				     g->server);
		}
		for (k = 0; k < n; k++) {
			const struct sb_alloc_grant *g = &sl[k];
			const struct sb_alloc_job *jb = &in->job[g->job];
			int r2;
			if (k == 0 || sl[k - 1].job != g->job) {
				w[g->job] = p[g->job] = 0;
				srv[g->job] = g->server;
			} else {
				srv[g->job] = -1;
			}
			w[g->job] += g->workers;
			p[g->job] += g->ps;
			for (r2 = 0; r2 < SB_ALLOC_NRES; r2++)
				load[g->server][r2] += g->workers * jb->wdem[r2] + g->ps * jb->pdem[r2];
		}
		for (k = 0; k < S; k++) {
			int r2;
			for (r2 = 0; r2 < SB_ALLOC_NRES; r2++)
				if (load[k][r2] > in->cap[k][r2] * (1 + 1e-12) + 1e-9)
					FAIL("slot %d: server %d over capacity in resource %d (%g > %g)",
					     t, k, r2, load[k][r2], in->cap[k][r2]);
		}
		for (k = 0; k < n; k++) {
			const struct sb_alloc_job *jb;
			double rate, rem;
			j = sl[k].job;
			if (k > 0 && sl[k - 1].job == j)
				continue;
			jb = &in->job[j];
			if (jb->mode == SB_ALLOC_RAR && p[j] > 0)
				FAIL("slot %d: ring-all-reduce job %d has %d PSs", t, j, p[j]);
			if (jb->mode == SB_ALLOC_PS && (w[j] == 0) != (p[j] == 0))
				FAIL("slot %d: PS job %d has %d workers and %d PSs (a PS layout needs "
				     "both)", t, j, w[j], p[j]);
			if (w[j] > jb->max_workers)
				FAIL("slot %d: job %d has %d workers, above its cap %d", t, j, w[j],
				     jb->max_workers);
			if (p[j] > jb->max_ps)
				FAIL("slot %d: job %d has %d PSs, above its cap %d", t, j, p[j],
				     jb->max_ps);
			if (w[j] == 0)
				continue;
			job_slots++;
			local_slots += srv[j] >= 0;
			gs[j] += w[j] * jb->wdem[0];
			rate = in->slot_s * w[j] / sb_alloc_tau(jb, w[j], p[j], srv[j] >= 0, -1);
			rem = jb->target - prog[j];
			if (rate >= rem) {
				fin[j] = (t + rem / rate) * in->slot_s;
				prog[j] = jb->target;
				done[j] = t;
			} else {
				prog[j] += rate;
			}
		}
	}
	for (j = 0; j < J; j++) {
		const struct sb_alloc_job *jb = &in->job[j];
		if (r->progress[j] > jb->target * (1 + 1e-12))
			FAIL("job %d: progress %.17g above its target %.17g", j, r->progress[j],
			     jb->target);
		if (!near(r->progress[j], prog[j]))
			FAIL("job %d: progress %.17g, the grants give %.17g", j, r->progress[j],
			     prog[j]);
		if ((r->finish[j] < 0) != (fin[j] < 0) || (fin[j] >= 0 && !near(r->finish[j], fin[j])))
			FAIL("job %d: completion %g, the grants give %g", j, r->finish[j], fin[j]);
		if (!near(r->gpu_slots[j], gs[j]))
			FAIL("job %d: %g GPU-slots recorded, the grants give %g", j, r->gpu_slots[j],
			     gs[j]);
		util += sb_alloc_job_utility(in, j, prog[j], gs[j]);
		if (fin[j] >= 0) {
			nfin++;
			jct += fin[j] - jb->arrival * in->slot_s;
			flow += done[j] - jb->arrival + 1;
		} else {
			unfinished++;
			flow += in->nslot - jb->arrival + 1;
		}
	}
	if (!near(r->utility, util))
		FAIL("utility %.17g, recomputed %.17g", r->utility, util);
	if (!near(r->jct_mean, nfin ? jct / nfin : 0))
		FAIL("mean JCT %.17g, recomputed %.17g", r->jct_mean, nfin ? jct / nfin : 0);
	if (!near(r->flow_slots, flow) || r->unfinished != unfinished)
		FAIL("flow %g slots with %d unfinished, recomputed %g with %d", r->flow_slots,
		     r->unfinished, flow, unfinished);
	if (r->job_slots != job_slots || r->local_slots != local_slots)
		FAIL("%ld job-slots (%ld local), recomputed %ld (%ld)", r->job_slots,
		     r->local_slots, job_slots, local_slots);
#undef FAIL
out:
	sb_free(prog);
	sb_free(fin);
	sb_free(gs);
	sb_free(done);
	sb_free(w);
	sb_free(p);
	sb_free(srv);
	sb_free(load);
	sb_free(sl);
	return bad;
}
