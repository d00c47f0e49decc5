/*
 * speed.c - the two settings of the cluster speed account (issue #11 item
 * 7), shared by `make bench` (bench/cluster.c) and experiment
 * cluster_speed, and the schedulers they time:
 *   - Philly-scale: 117,325 jobs on sim512, ResNet-50 data parallel with
 *     runtimes from Philly's runtime list (GPU counts from Philly's
 *     jobs.json for one job in 39 when it is there), Poisson arrivals at
 *     load 0.8 (sb_philly_scale);
 *   - PAI: the 20,000-job / 6,500-GPU setting of Alibaba's published PAI
 *     simulator run, as the W1 job mix at load 0.8 on pai6500 [O].
 * scale < 1 keeps that share of the jobs (QUICK runs).
 */
#include "jobs.h"

#include <math.h>

const char *const sb_speed_policies[] = {
	"fifo", "fifo-bf", "srpt-oracle", "srpt-mean", "tiresias", "tiresias-gittins",
	"optimus", "optimus-vp", "qssf", "asrpt", "asrpt-hist", "asrpt-pre", "asrpt-pre-hist",
	NULL,
};

static int scaled(int n, double scale)
{
	int k = (int)lround(n * scale);
	return k < 1 ? 1 : k;
}

void sb_speed_philly(const double *runtimes, int nrt, const struct sb_trace *w2, double scale,
		     uint64_t seed, struct sb_cluster *c, struct sb_jobset *js)
{
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);
	if (sb_cluster_named("sim512", c, &err))
		SB_BUG("speed: %s", err.msg);
	sb_philly_scale(runtimes, nrt, w2, scaled(SB_SPEED_PHILLY_JOBS, scale), c, 0.8, &r, js);
}

void sb_speed_pai(double scale, uint64_t seed, struct sb_cluster *c, struct sb_jobset *js)
{
	struct sb_err err;
	struct sb_rng r = sb_rng_stream(seed, 1, 0, SB_RNG_INSTANCE);
	struct sb_w1_params p;
	if (sb_cluster_named("pai6500", c, &err))
		SB_BUG("speed: %s", err.msg);
	sb_w1_defaults(&p);
	p.njobs = scaled(SB_SPEED_PAI_JOBS, scale);
	p.load = 0.8;
	sb_w1_generate(js, &p, c, &r);
}
