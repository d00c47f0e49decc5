/*
 * check.c - independent validation of a cluster simulation and the
 * metrics of a validated run.
 *
 * The checker reads only the job set, the cluster and the recorded
 * segments; it rebuilds each job's communication graph and recomputes the
 * iteration time of every segment from its GPUs (the model functions of
 * jobgraph.c, not the simulator's bookkeeping), then checks: every job
 * runs after its arrival, exactly n_j iterations in all, each segment on
 * g_j distinct GPUs of the cluster; no GPU holds two segments at once;
 * resumed segments pay the restart overhead and first segments do not; a
 * completed segment lasts overhead + iterations x tau, a preempted one
 * holds exactly the whole iterations that fit; segments of one job do not
 * overlap; preemption counts, first starts and finish times agree.
 */
#include "cluster.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REL 1e-9

static int close_to(double a, double b)
{
	return fabs(a - b) <= REL * sb_max(1.0, sb_max(fabs(a), fabs(b)));
}

/* Slack of a segment's length end - start: the relative tolerance of the
 * length, plus the rounding of the absolute times it is the difference of.
 * Arrivals scaled to a load can lie 1e13 s out (a Philly job submitted in
 * 2216, found by fuzzing), where one ulp of a time is 2e-3 s, more than
 * REL of a week-long segment. */
static double span_slack(double len, double start, double end)
{
	return REL * sb_max(1.0, fabs(len)) + 64 * DBL_EPSILON * sb_max(fabs(start), fabs(end));
}

struct gint {
	int gpu;
	double start, end;
	int seg;
};

static int cmp_gint(const void *a, const void *b)
{
	const struct gint *x = a, *y = b;
	if (x->gpu != y->gpu)
		return x->gpu < y->gpu ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->seg > y->seg) - (x->seg < y->seg);
}

#define FAIL(...) do { snprintf(why, whysz, __VA_ARGS__); rc = -1; goto out; } while (0)

int sb_cluster_check(const struct sb_cluster *cl, const struct sb_jobset *js,
		     const struct sb_cluster_result *r, char *why, size_t whysz)
{
	int n = js->n, N = cl->nserver * cl->gpus, rc = 0, i, k, maxg = 1;
	long *iters = SB_NEW(long, n > 0 ? n : 1);
	int *nseg = SB_NEW(int, n > 0 ? n : 1), *last = SB_NEW(int, n > 0 ? n : 1);
	long total_gpu = 0, ng = 0;
	struct gint *gi = NULL;
	int *server = NULL;
	unsigned char *seen = SB_NEW(unsigned char, N);
	struct sb_jobgraph h;

	memset(&h, 0, sizeof h);
	if (r->n != n)
		FAIL("result has %d jobs, the job set %d", r->n, n);
	for (i = 0; i < n; i++) {
		last[i] = -1;
		if (js->job[i].gpus > maxg)
			maxg = js->job[i].gpus;
	}
	server = SB_NEW(int, maxg);
	for (k = 0; k < r->nseg; k++) {
		const struct sb_cluster_seg *sg = &r->seg[k];
		if (sg->job < 0 || sg->job >= n)
			FAIL("segment %d: job %d out of range", k, sg->job);
		total_gpu += js->job[sg->job].gpus;
	}
	gi = SB_NEW(struct gint, total_gpu > 0 ? total_gpu : 1);

	for (k = 0; k < r->nseg; k++) {
		const struct sb_cluster_seg *sg = &r->seg[k];
		const struct sb_job *j = &js->job[sg->job];
		double expect_oh, tau, len, slack;
		int v;

		if (!(isfinite(sg->start) && isfinite(sg->end) && sg->end >= sg->start))
			FAIL("job %d: segment %d has start %g, end %g", sg->job, k, sg->start, sg->end);
		if (sg->start < j->arrival)
			FAIL("job %d starts at %g before its arrival %g", sg->job, sg->start, j->arrival);
		if (last[sg->job] >= 0 && sg->start < r->seg[last[sg->job]].end)
			FAIL("job %d: segments %d and %d overlap", sg->job, last[sg->job], k);
		if (sg->gpu_off < 0)
			FAIL("segment %d: bad GPU list", k);
		for (v = 0; v < j->gpus; v++) {
			int gp = r->gpu[sg->gpu_off + v];
			if (gp < 0 || gp >= N)
				FAIL("job %d: GPU %d out of range", sg->job, gp);
			if (seen[gp])
				FAIL("job %d: GPU %d used twice in one segment (gang of %d)", sg->job,
				     gp, j->gpus);
			seen[gp] = 1;
			server[v] = gp / cl->gpus;
			gi[ng].gpu = gp;
			gi[ng].start = sg->start;
			gi[ng].end = sg->end;
			gi[ng].seg = k;
			ng++;
		}
		for (v = 0; v < j->gpus; v++)
			seen[r->gpu[sg->gpu_off + v]] = 0;

		if (cl->interf) {
			/* speeds vary within a run: sb_cluster_check_interf */
			iters[sg->job] += sg->iters;
			nseg[sg->job]++;
			last[sg->job] = k;
			continue;
		}
		/* iteration time from the GPUs, independently of the simulator */
		sb_jobgraph_build(&h, j, &js->model[j->model], cl);
		tau = sb_job_iter_time(cl, &h, server);
		sb_jobgraph_release(&h);
		if (!close_to(tau, sg->tau))
			FAIL("job %d: segment %d records tau %.17g, its GPUs give %.17g", sg->job, k,
			     sg->tau, tau);
		expect_oh = nseg[sg->job] > 0 ? sb_cluster_restart(cl) : 0;
		if (!close_to(sg->overhead, expect_oh))
			FAIL("job %d: segment %d overhead %g, expected %g", sg->job, k, sg->overhead,
			     expect_oh);
		if (sg->iters < 0)
			FAIL("job %d: segment %d has %ld iterations", sg->job, k, sg->iters);
		len = sg->end - sg->start;
		slack = span_slack(len, sg->start, sg->end);
		if (sg->preempted) {
			double el = len - expect_oh;
			long fit = el > 0 ? (long)floor(el / tau + 1e-9) : 0;
			/* the iterations that fit, or one fewer or more when the
			 * length is within its slack of a whole number of them */
			if (sg->iters != fit &&
			    !(sg->iters == fit - 1 && el - (double)fit * tau <= slack) &&
			    !(sg->iters == fit + 1 && (double)sg->iters * tau - el <= slack))
				FAIL("job %d: preempted segment %d of %g s holds %ld iterations of "
				     "%g s (fits %ld)", sg->job, k, len, sg->iters, tau, fit);
		} else if (fabs(len - (expect_oh + (double)sg->iters * tau)) > slack) {
			FAIL("job %d: segment %d lasts %.17g s, %ld iterations of %g s need %.17g",
			     sg->job, k, len, sg->iters, tau, expect_oh + (double)sg->iters * tau);
		}
		iters[sg->job] += sg->iters;
		nseg[sg->job]++;
		if (!sg->preempted && iters[sg->job] != j->iters)
			FAIL("job %d: ended with %ld of %ld iterations", sg->job, iters[sg->job],
			     j->iters);
		last[sg->job] = k;
	}
	for (i = 0; i < n; i++) {
		const struct sb_job *j = &js->job[i];
		if (iters[i] != j->iters)
			FAIL("job %d ran %ld iterations, needs %ld", i, iters[i], j->iters);
		if (last[i] < 0 || r->seg[last[i]].preempted)
			FAIL("job %d never completed", i);
		if (r->npreempt[i] != nseg[i] - 1)
			FAIL("job %d: %d preemptions recorded, %d segments", i, r->npreempt[i],
			     nseg[i]);
		if (!close_to(r->finish[i], r->seg[last[i]].end))
			FAIL("job %d: finish %g, last segment ends %g", i, r->finish[i],
			     r->seg[last[i]].end);
		if (!(r->first_start[i] >= j->arrival))
			FAIL("job %d: first start %g before arrival %g", i, r->first_start[i],
			     j->arrival);
	}
	/* no GPU holds two jobs at once */
	qsort(gi, (size_t)ng, sizeof *gi, cmp_gint);
	for (k = 1; k < ng; k++)
		if (gi[k].gpu == gi[k - 1].gpu && gi[k].start < gi[k - 1].end)
			FAIL("GPU %d holds jobs %d and %d at once (%g < %g)", gi[k].gpu,
			     r->seg[gi[k - 1].seg].job, r->seg[gi[k].seg].job, gi[k].start,
			     gi[k - 1].end);
	if (cl->interf)
		rc = sb_cluster_check_interf(cl, js, r, why, whysz);
out:
	sb_free(iters);
	sb_free(nseg);
	sb_free(last);
	sb_free(gi);
	sb_free(server);
	sb_free(seen);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Metrics                                                             */
/* ------------------------------------------------------------------ */

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Percentile by the nearest-rank method on sorted v[0..n). */
static double pct(const double *v, int n, double q)
{
	int k;
	if (n == 0)
		return NAN;
	k = (int)ceil(q * n) - 1;
	if (k < 0)
		k = 0;
	if (k >= n)
		k = n - 1;
	return v[k];
}

/* One change of the cluster's state: a job arrives or a segment starts or
 * ends; ties are applied in the order of the kinds (GPUs are released
 * before jobs take them). */
struct change {
	double t;
	int kind;                /* 0 finish, 1 preemption, 2 arrival, 3 start */
	int job;
};

static int cmp_change(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind - y->kind;
	return (x->job > y->job) - (x->job < y->job);
}

/* Servers segment k uses. */
static int seg_servers(const struct sb_cluster *cl, const struct sb_jobset *js,
		       const struct sb_cluster_result *r, int k, unsigned char *seen)
{
	const struct sb_cluster_seg *sg = &r->seg[k];
	int g = js->job[sg->job].gpus, v, ns = 0;
	for (v = 0; v < g; v++) {
		int x = r->gpu[sg->gpu_off + v] / cl->gpus;
		ns += !seen[x];
		seen[x] = 1;
	}
	for (v = 0; v < g; v++)
		seen[r->gpu[sg->gpu_off + v] / cl->gpus] = 0;
	return ns;
}

/*
 * The capacity account of m (load_ref, load_eff, idle_fit, spread): a
 * sweep over arrivals and segment boundaries keeping the busy GPUs and the
 * waiting jobs by size, so that idle GPUs can be charged to moments when
 * some waiting job had room by count (the scheduler's choice, not
 * fragmentation of a full cluster).
 */
static void capacity(const struct sb_cluster *cl, const struct sb_jobset *js,
		     const struct sb_cluster_result *r, struct sb_cluster_metrics *m)
{
	int n = js->n, N = cl->nserver * cl->gpus, k, nc = 0, busy = 0, nwait = 0, g;
	struct change *ch = SB_NEW(struct change, 2 * (size_t)r->nseg + (size_t)n + 1);
	int *waiting = SB_NEW(int, N + 1);   /* waiting jobs by GPU count */
	unsigned char *seen = SB_NEW(unsigned char, cl->nserver);
	double span, t, idle = 0, work = 0, busy_gs = 0, spread_gs = 0;

	if (n == 0)
		goto out;
	span = js->job[n - 1].arrival - js->job[0].arrival;
	for (k = 0; k < n; k++) {
		work += js->job[k].gpus * (double)js->job[k].iters * r->tau_ref[k];
		ch[nc++] = (struct change){ js->job[k].arrival, 2, k };
	}
	for (k = 0; k < r->nseg; k++) {
		const struct sb_cluster_seg *sg = &r->seg[k];
		double gs = js->job[sg->job].gpus * (sg->end - sg->start);
		busy_gs += gs;
		if (seg_servers(cl, js, r, k, seen) > (js->job[sg->job].gpus + cl->gpus - 1) / cl->gpus)
			spread_gs += gs;
		ch[nc++] = (struct change){ sg->start, 3, sg->job };
		ch[nc++] = (struct change){ sg->end, sg->preempted ? 1 : 0, sg->job };
	}
	qsort(ch, (size_t)nc, sizeof *ch, cmp_change);
	t = ch[0].t;
	for (k = 0; k < nc; k++) {
		int j = ch[k].job;
		if (ch[k].t > t && nwait > 0) {
			int fr = N - busy;
			for (g = 1; g <= fr; g++)
				if (waiting[g]) {
					idle += fr * (ch[k].t - t);
					break;
				}
		}
		t = ch[k].t;
		g = js->job[j].gpus;
		if (ch[k].kind == 3) {
			busy += g;
			waiting[g]--;
			nwait--;
		} else {
			if (ch[k].kind < 2)
				busy -= g;
			if (ch[k].kind > 0) {   /* preempted or arrived: it waits */
				waiting[g]++;
				nwait++;
			}
		}
	}
	if (span > 0) {
		m->load_ref = work / (N * span);
		m->load_eff = busy_gs / (N * span);
		m->idle_fit = idle / (N * span);
	} else {
		m->load_ref = m->load_eff = m->idle_fit = NAN;
	}
	m->spread = busy_gs > 0 ? spread_gs / busy_gs : 0;
out:
	sb_free(ch);
	sb_free(waiting);
	sb_free(seen);
}

void sb_cluster_metrics(const struct sb_cluster *cl, const struct sb_jobset *js,
			const struct sb_cluster_result *r, int first,
			struct sb_cluster_metrics *m)
{
	int n = js->n, i, k, cnt = 0;
	double *jct = SB_NEW(double, n > 0 ? n : 1), busy = 0, t0 = INFINITY, t1 = 0;
	double wsum = 0, wslow = 0;

	memset(m, 0, sizeof *m);
	if (first < 0)
		first = 0;
	for (i = 0; i < n; i++) {
		t0 = sb_min(t0, js->job[i].arrival);
		t1 = sb_max(t1, r->finish[i]);
		if (i < first)
			continue;
		jct[cnt++] = r->finish[i] - js->job[i].arrival;
		m->jct_mean += r->finish[i] - js->job[i].arrival;
		m->total_completion += r->finish[i];
		m->queue_mean += r->first_start[i] - js->job[i].arrival;
		m->preemptions += r->npreempt[i];
	}
	for (k = 0; k < r->nseg; k++) {
		const struct sb_cluster_seg *sg = &r->seg[k];
		busy += js->job[sg->job].gpus * (sg->end - sg->start);
		if (sg->job < first)
			continue;
		/* iterations run in the segment: none when it was preempted
		 * during its restart overhead (end - start < overhead), which
		 * added negative bytes before */
		if (sg->end - sg->start > sg->overhead)
			m->inter_bytes += sg->cut * ((sg->end - sg->start - sg->overhead) / sg->tau);
		wsum += (double)sg->iters;
		wslow += (double)sg->iters * sg->tau / r->tau_ref[sg->job];
	}
	m->n = cnt;
	if (cnt > 0) {
		m->jct_mean /= cnt;
		m->queue_mean /= cnt;
		qsort(jct, (size_t)cnt, sizeof *jct, cmp_dbl);
		m->jct_p50 = pct(jct, cnt, 0.50);
		m->jct_p95 = pct(jct, cnt, 0.95);
		m->jct_p99 = pct(jct, cnt, 0.99);
	} else {
		m->jct_mean = m->queue_mean = m->jct_p50 = m->jct_p95 = m->jct_p99 = NAN;
	}
	m->slowdown_mean = wsum > 0 ? wslow / wsum : NAN;
	m->makespan = n > 0 ? t1 - t0 : 0;
	m->util = m->makespan > 0 ? busy / ((double)cl->nserver * cl->gpus * m->makespan) : 0;
	capacity(cl, js, r, m);
	sb_free(jct);
}
