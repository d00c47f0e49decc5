/*
 * interf.c - ground-truth co-location interference and iteration times of
 * the topology-and-interference mode (spec marl.md §2; [O], our design:
 * the paper is abstract-only and its testbed measurements are not public).
 * The model is stated in interf.h.
 */
#include "cluster/interf.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sb_interf_init(struct sb_interf *m, const struct sb_cluster_tree *t, int n,
		    const char *const *names, const double *t_comp, const double *size_mb,
		    uint64_t noise_seed)
{
	struct sb_rng r = sb_rng_stream(SB_INTERF_INTENSITY_SEED, 0, 0, SB_RNG_INSTANCE);
	int k, d;

	SB_ASSERT(n >= 1 && n <= SB_INTERF_MAXTYPE);
	memset(m, 0, sizeof *m);
	m->topo = t;
	m->ntype = n;
	m->lambda[0] = 1.5;
	m->lambda[1] = 1.0;
	m->lambda[2] = 0.6;
	m->gamma = 0.6;
	m->eps = 0.03;
	m->noise_seed = noise_seed;
	m->on = 1;
	m->tor_share = 1;
	for (k = 0; k < n; k++) {
		snprintf(m->type[k].name, sizeof m->type[k].name, "%s", names[k]);
		m->type[k].t_comp = t_comp[k];
		m->type[k].size_mb = size_mb[k];
		for (d = 0; d < SB_INTERF_NRES; d++)
			m->type[k].r[d] = sb_rng_uniform(&r);
	}
}

double sb_interf_noise(const struct sb_interf *m, int j, int k)
{
	int a = j < k ? j : k, b = j < k ? k : j;
	struct sb_rng r = sb_rng_stream(m->noise_seed, (uint64_t)a, (uint64_t)b, SB_RNG_NOISE);
	return m->eps * (2 * sb_rng_uniform(&r) - 1);
}

int sb_interf_level(const struct sb_cluster_tree *t, int x, int y)
{
	int l = sb_cluster_tree_lca(t, x, y);
	return l >= SB_TREE_SWITCH ? 0 : l == SB_TREE_SOCKET ? 1 : l == SB_TREE_SERVER ? 2 : -1;
}

/* lambda index of the closest GPUs of j and k (-1: no common server) */
static int pair_level(const struct sb_cluster_tree *t, const struct sb_interf_job *j,
		      const struct sb_interf_job *k)
{
	int a, b, best = -1;
	for (a = 0; a < j->w; a++)
		for (b = 0; b < k->w; b++) {
			int idx = sb_interf_level(t, j->gpus[a], k->gpus[b]);
			if (idx >= 0 && (best < 0 || idx < best))
				best = idx;
		}
	return best;
}

static double pair_term(const struct sb_interf *m, const struct sb_interf_job *j,
			const struct sb_interf_job *k, int lvl)
{
	const double *rj = m->type[j->type].r, *rk = m->type[k->type].r;
	double dot = 0, v;
	int d;
	for (d = 0; d < SB_INTERF_NRES; d++)
		dot += rj[d] * rk[d];
	v = m->gamma * m->lambda[lvl] * dot / SB_INTERF_NRES + sb_interf_noise(m, j->id, k->id);
	return v > 0 ? v : 0;
}

double sb_interf_pair(const struct sb_interf *m, const struct sb_interf_job *j,
		      const struct sb_interf_job *k)
{
	int lvl;
	if (!m->on)
		return 0;
	lvl = pair_level(m->topo, j, k);
	return lvl < 0 ? 0 : pair_term(m, j, k, lvl);
}

double sb_interf_tau_alone(const struct sb_interf *m, int type, int w, int spread)
{
	const struct sb_interf_type *ty = &m->type[type];
	if (w <= 1)
		return ty->t_comp;
	return ty->t_comp + 2.0 * (w - 1) / w * (ty->size_mb / 1000.0) / m->topo->bw[spread];
}

double sb_interf_tau_iso(const struct sb_interf *m, int type, int w)
{
	return sb_interf_tau_alone(m, type, w, sb_cluster_tree_best_spread(m->topo, w));
}

void sb_interf_eval(const struct sb_interf *m, const struct sb_interf_job *jobs, int n,
		    double *S, double *tau)
{
	const struct sb_cluster_tree *t = m->topo;
	int *occ = SB_NEW(int, t->ngpu), *lvl = SB_NEW(int, n > 0 ? n : 1);
	int *rack_cross = SB_NEW(int, t->nrack > 0 ? t->nrack : 1);
	unsigned char *rack_seen = SB_NEW(unsigned char, t->nrack > 0 ? t->nrack : 1);
	int *spread = SB_NEW(int, n > 0 ? n : 1);
	int i, a, x;

	for (x = 0; x < t->ngpu; x++)
		occ[x] = -1;
	for (i = 0; i < n; i++)
		for (a = 0; a < jobs[i].w; a++)
			occ[jobs[i].gpus[a]] = i;
	/* ToR uplinks: how many cross-rack jobs touch each rack */
	for (i = 0; i < n; i++) {
		spread[i] = sb_cluster_tree_spread(t, jobs[i].gpus, jobs[i].w);
		if (spread[i] < SB_TREE_GPU - SB_TREE_POD)
			continue;
		for (a = 0; a < jobs[i].w; a++) {
			int r = t->server_rack[jobs[i].gpus[a] / t->gpus];
			if (!rack_seen[r]) {
				rack_seen[r] = 1;
				rack_cross[r]++;
			}
		}
		for (a = 0; a < jobs[i].w; a++)
			rack_seen[t->server_rack[jobs[i].gpus[a] / t->gpus]] = 0;
	}
	for (i = 0; i < n; i++) {
		const struct sb_interf_job *j = &jobs[i];
		double s = 1, bw, comm = 0;
		int share = 1;
		if (m->on) {
			/* co-runners through the servers j uses: the closest level
			 * over all GPU pairs, each co-runner counted once */
			int k;
			for (k = 0; k < n; k++)
				lvl[k] = -1;
			for (a = 0; a < j->w; a++) {
				int g = j->gpus[a], srv = g / t->gpus;
				for (x = srv * t->gpus; x < (srv + 1) * t->gpus; x++) {
					int o = occ[x], idx;
					if (o < 0 || o == i)
						continue;
					idx = sb_interf_level(t, g, x);
					if (lvl[o] < 0 || idx < lvl[o])
						lvl[o] = idx;
				}
			}
			for (k = 0; k < n; k++)
				if (lvl[k] >= 0)
					s += pair_term(m, j, &jobs[k], lvl[k]);
			if (m->use_pred && m->pred)
				s = sb_interf_pred_S(m->pred, m, jobs, n, i);
		}
		if (j->w > 1) {
			if (m->tor_share && spread[i] >= SB_TREE_GPU - SB_TREE_POD)
				for (a = 0; a < j->w; a++) {
					int r = t->server_rack[j->gpus[a] / t->gpus];
					if (rack_cross[r] > share)
						share = rack_cross[r];
				}
			bw = t->bw[spread[i]] / share;
			comm = 2.0 * (j->w - 1) / j->w * (m->type[j->type].size_mb / 1000.0) / bw;
		}
		if (S)
			S[i] = s;
		if (tau)
			tau[i] = m->type[j->type].t_comp * s + comm;
	}
	sb_free(occ);
	sb_free(lvl);
	sb_free(rack_cross);
	sb_free(rack_seen);
	sb_free(spread);
}
