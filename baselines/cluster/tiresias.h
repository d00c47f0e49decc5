/*
 * tiresias.h - the discretised two-dimensional schedulers of Tiresias
 * (J. Gu, M. Chowdhury, K. G. Shin, Y. Zhu, M. Jeon, J. Qian, H. Liu,
 * C. Guo, "Tiresias: a GPU cluster manager for distributed deep learning",
 * USENIX NSDI 2019), shared by tiresias.c (2D-LAS) and tiresias-gittins.c
 * (2D-Gittins index): one multi-level queue engine, the two differ only in
 * the order inside a queue.
 */
#ifndef SB_TIRESIAS_H
#define SB_TIRESIAS_H

#include "cluster/cluster.h"

/* The rows of sb_param every variant accepts. */
#define SB_TIRESIAS_PARAMS \
	{ "queues", 3, 1, 4, 1, "number of queues (thresholds 3250, 7200, 18000 GPU-s)" }, \
	{ "starve", 0, 0, 100, 0, "promote after waiting this many times the last run (0: off)" }, \
	{ "fitfirst", -1, -1, 1, 1, "1: the queue rule of Tiresias' simulator, 0: arrival " \
	  "order and D2, -1: 1 in trace-replay mode only" }, \
	{ "qmin", -1, -1, 1e9, 0, "a running job is preempted only after this many seconds " \
	  "of its run (-1: the cluster's restart cost, 0 in trace replay)" }

/* gittins = 0: 2D-LAS (arrival order inside a queue); 1: by Gittins index
 * (o then also holds "delta"). */
void *sb_tiresias_init(struct sb_csim *s, const struct sb_opts *o, int gittins);
void sb_tiresias_release(void *ctx);
void sb_tiresias_arrival(void *ctx, struct sb_csim *s, int j);
void sb_tiresias_finish(void *ctx, struct sb_csim *s, int j);
void sb_tiresias_schedule(void *ctx, struct sb_csim *s);

/* The fields both registrations share. */
#define SB_TIRESIAS_COMMON \
	.provenance = "published algorithm", \
	.release = sb_tiresias_release, \
	.on_arrival = sb_tiresias_arrival, \
	.on_finish = sb_tiresias_finish, \
	.schedule = sb_tiresias_schedule, \
	.default_place = "packed"

/*
 * The Gittins-index table of Tiresias' simulator (run_sim.py,
 * cal_r_gittins_index and get_gittins_index, read, not copied) over the
 * sizes v[0..m) (GPU-seconds, truncated to whole seconds there): for the
 * samples above attained service a, P = the share that finish within
 * delta more, E = (sum of those samples + delta x the others) / their
 * count, integer-divided; the index is round(P x 10^6 / E, 4) with
 * P rounded to 5 decimals. The index of a is that of the first sample
 * above a (0 beyond the largest). Owned; sb_gittins_release.
 */
struct sb_gittins {
	int m;
	double *v;     /* sorted whole-second sizes */
	double *gi;    /* m + 1 indices, gi[m] = 0 */
};

void sb_gittins_build(struct sb_gittins *g, const double *v, int m, double delta);
double sb_gittins_index(const struct sb_gittins *g, double a);
void sb_gittins_release(struct sb_gittins *g);

#endif
