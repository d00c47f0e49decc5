/*
 * tiresias.c - discretised two-dimensional least-attained-service (2D-LAS)
 * of Tiresias: J. Gu, M. Chowdhury, K. G. Shin, Y. Zhu, M. Jeon, J. Qian,
 * H. Liu, C. Guo, "Tiresias: a GPU cluster manager for distributed deep
 * learning", USENIX NSDI 2019 (spec asrpt.md §5 baseline 5).
 *
 * Non-clairvoyant: a job's attained service is GPUs x executed seconds.
 * Queue k holds the jobs whose service lies between the thresholds k-1 and
 * k (GPU-seconds; 3250, 7200, 18000 in the public simulator's jobs.py, of
 * which a 3-queue configuration uses the first two); lower queues first,
 * arrival order inside a queue; preemptive at every event (a job crossing
 * a threshold triggers one). Starvation knob S (the paper's PromoteKnob):
 * a job in a queue above 0 that has waited S times its last run is put
 * back in queue 0 and its service counted afresh; S = 0 turns it off.
 * Our choices [O]: admission and preemption by the shared priority
 * dispatcher with q_min = 0; placement by the consolidating placer without
 * refinement (Tiresias places consolidated where it can).
 */
#include "cluster/util.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "queues", 3, 1, 4, 1, "number of queues (thresholds 3250, 7200, 18000 GPU-s)" },
	{ "starve", 0, 0, 100, 0, "promote after waiting this many times the last run (0: off)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const double limits[3] = { 3250, 7200, 18000 };

struct state {
	int nq;
	double starve;
	double *key, *base, *exec_start, *last_run;
	unsigned char *was_running;
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	int n = sb_cluster_sim_njobs(s);
	(void)rng;
	st->nq = (int)sb_opts_get(o, "queues");
	st->starve = sb_opts_get(o, "starve");
	st->key = SB_NEW(double, n);
	st->base = SB_NEW(double, n);
	st->exec_start = SB_NEW(double, n);
	st->last_run = SB_NEW(double, n);
	st->was_running = SB_NEW(unsigned char, n);
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->key);
	sb_free(st->base);
	sb_free(st->exec_start);
	sb_free(st->last_run);
	sb_free(st->was_running);
	sb_free(st);
}

static int queue_of(const struct state *st, double service)
{
	int q = 0;
	while (q < st->nq - 1 && service >= limits[q])
		q++;
	return q;
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act = sb_cluster_sim_active(s, &n);
	double now = sb_cluster_sim_now(s), wake = INFINITY;

	for (i = 0; i < n; i++) {
		int j = act[i];
		double svc = sb_cluster_sim_attained(s, j) - st->base[j];
		int q = queue_of(st, svc);
		if (st->starve > 0 && q > 0 && sb_cluster_sim_state(s, j) == SB_JOB_PENDING &&
		    st->last_run[j] > 0 && sb_cluster_sim_since(s, j) >= st->starve * st->last_run[j]) {
			st->base[j] = sb_cluster_sim_attained(s, j);
			q = 0;
		}
		st->key[j] = (double)q * sb_cluster_sim_njobs(s) + j;
	}
	sb_cluster_dispatch_priority(s, st->key, 0);

	/* bookkeeping of runs, and the next instant a queue changes */
	act = sb_cluster_sim_active(s, &n);
	for (i = 0; i < n; i++) {
		int j = act[i], g = sb_cluster_sim_job(s, j)->gpus;
		double svc = sb_cluster_sim_attained(s, j) - st->base[j];
		int q = queue_of(st, svc);
		if (sb_cluster_sim_state(s, j) == SB_JOB_RUNNING) {
			if (!st->was_running[j]) {
				st->was_running[j] = 1;
				st->exec_start[j] = sb_cluster_sim_executed(s, j);
			}
			if (q < st->nq - 1)
				wake = sb_min(wake, now + (limits[q] - svc) / g);
		} else {
			if (st->was_running[j]) {
				st->was_running[j] = 0;
				st->last_run[j] = sb_cluster_sim_executed(s, j) - st->exec_start[j];
			}
			if (st->starve > 0 && q > 0 && st->last_run[j] > 0)
				wake = sb_min(wake, now - sb_cluster_sim_since(s, j) +
					      st->starve * st->last_run[j]);
		}
	}
	if (wake > now && isfinite(wake))
		sb_cluster_sim_wake(s, wake);
}

const struct sb_cluster_policy sb_cluster_policy_tiresias = {
	.name = "tiresias",
	.cite = "Gu et al., Tiresias: a GPU cluster manager for distributed deep learning, "
		"NSDI 2019",
	.desc = "discretised 2D-LAS: queues by attained GPU-seconds, preemptive",
	.provenance = "published algorithm",
	.params = params,
	.init = init,
	.release = release,
	.schedule = schedule,
	.default_place = "packed",
};
