/*
 * features.c - feature vectors and the shared reward of the marl placer
 * (see features.h). Reconstructed [O].
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/features.h"

#include <math.h>
#include <string.h>

const char *sb_marl_reward_src_name(enum sb_marl_reward_src s)
{
	switch (s) {
	case SB_MARL_REWARD_PREDICTED: return "predicted";
	case SB_MARL_REWARD_TRUE: return "true";
	case SB_MARL_REWARD_NONE: return "none";
	}
	return "?";
}

void sb_marl_gpu_features(const struct sb_marl_jobview *job, double *out)
{
	memset(out, 0, SB_MARL_GF * sizeof *out);
	if (!job)
		return;
	SB_ASSERT(job->type >= 0 && job->type < SB_MARL_NTYPE);
	out[0] = 1;
	out[1 + job->type] = 1;
	out[9] = job->progress;
	memcpy(out + 10, job->intensity, 3 * sizeof *out);
	out[13] = job->workers / 8.0;
}

void sb_marl_job_features(const struct sb_marl_jobview *job, double *out)
{
	SB_ASSERT(job->type >= 0 && job->type < SB_MARL_NTYPE);
	memset(out, 0, SB_MARL_JF * sizeof *out);
	out[job->type] = 1;
	out[8] = job->workers / 8.0;
	out[9] = log1p(job->remaining_s / SB_MARL_TNORM);
	out[10] = log1p(job->waiting_s / SB_MARL_TNORM);
	memcpy(out + 11, job->intensity, 3 * sizeof *out);
}

void sb_marl_critic_features(const struct sb_marl_jobview *queued, int n, const int *qlen,
			     int nagents, double *out)
{
	double f[SB_MARL_JF];
	int i, c;

	SB_ASSERT(nagents >= 0 && nagents <= SB_MARL_MAXAG);
	memset(out, 0, SB_MARL_CF * sizeof *out);
	for (i = 0; i < n; i++) {
		sb_marl_job_features(&queued[i], f);
		for (c = 0; c < SB_MARL_JF; c++)
			out[c] += f[c];
	}
	if (n > 0)
		for (c = 0; c < SB_MARL_JF; c++)
			out[c] /= n;
	for (i = 0; i < nagents; i++)
		out[SB_MARL_JF + i] = qlen[i] / 16.0;
}
