/*
 * partcheck.c - the independent partition checker (ours). It trusts
 * nothing the partitioner or the metrics code computed: homes and copies
 * are validated node by node, the balance promise is checked against its
 * own count, and the reported cut and per-machine maxima are recounted
 * from the edge list (each undirected edge once, u < w), so a metrics bug
 * cannot hide a bad partition.
 */
#include "cache/part.h"

#include <stdio.h>
#include <string.h>

static int fail(char *why, size_t len, const char *fmt, long a, long b, long c)
{
	snprintf(why, len, fmt, a, b, c);
	return 1;
}

int sb_cache_part_check(const struct sb_cache_graph *g, const uint8_t *train,
			const struct sb_cache_part *pt, const struct sb_cache_part_metrics *m,
			char *why, size_t len)
{
	int64_t held[SB_CACHE_PART_MAX] = { 0 }, deg[SB_CACHE_PART_MAX] = { 0 };
	int64_t lab[SB_CACHE_PART_MAX] = { 0 }, cut = 0, cap, mx_n = 0, mx_e = 0, mx_t = 0;
	uint64_t outside;
	int32_t u, w;
	int64_t e;
	int q;

	if (pt->P < 1 || pt->P > SB_CACHE_PART_MAX)
		return fail(why, len, "%ld machines, expected 1..%ld", pt->P, SB_CACHE_PART_MAX, 0);
	outside = pt->P == 64 ? 0 : ~(uint64_t)0 << pt->P;
	for (u = 0; u < g->n; u++) {
		int32_t h = pt->part[u];
		if (h < 0 || h >= pt->P)
			return fail(why, len, "node %ld: home machine %ld not in 0..%ld", u, h,
				    pt->P - 1);
		if (pt->copies) {
			if (!((pt->copies[u] >> h) & 1))
				return fail(why, len, "node %ld: home machine %ld holds no copy", u,
					    h, 0);
			if (pt->copies[u] & outside)
				return fail(why, len, "node %ld: a copy on a machine >= %ld", u,
					    pt->P, 0);
		}
		for (q = 0; q < pt->P; q++)
			if (pt->copies ? (pt->copies[u] >> q) & 1 : q == h) {
				held[q]++;
				deg[q] += g->off[u + 1] - g->off[u];
			}
		lab[h] += train[u] != 0;
		for (e = g->off[u]; e < g->off[u + 1]; e++) {
			w = g->adj[e];
			if (u < w && pt->part[w] != h)
				cut++;
		}
	}
	for (q = 0; q < pt->P; q++) {
		mx_n = held[q] > mx_n ? held[q] : mx_n;
		mx_e = deg[q] > mx_e ? deg[q] : mx_e;
		mx_t = lab[q] > mx_t ? lab[q] : mx_t;
	}
	if (pt->eps >= 0 && !pt->copies) {
		cap = sb_cache_part_cap(g->n, pt->P, pt->eps);
		for (q = 0; q < pt->P; q++)
			if (held[q] > cap)
				return fail(why, len,
					    "machine %ld holds %ld nodes, above the promised cap %ld",
					    q, held[q], cap);
	}
	if (!m)
		return 0;
	if (m->cut_edges != cut)
		return fail(why, len, "cut edges reported %ld, recounted %ld", m->cut_edges, cut, 0);
	if (m->max_nodes != mx_n || m->max_edges != mx_e || m->max_train != mx_t) {
		snprintf(why, len,
			 "per-machine maxima reported %ld/%ld/%ld nodes/edges/training, recounted %ld/%ld/%ld",
			 (long)m->max_nodes, (long)m->max_edges, (long)m->max_train, (long)mx_n,
			 (long)mx_e, (long)mx_t);
		return 1;
	}
	if (m->remote_expand > m->expand * (1 + 1e-12) || m->remote_rows > m->rows * (1 + 1e-12))
		return fail(why, len, "remote traffic above the total", 0, 0, 0);
	return 0;
}
