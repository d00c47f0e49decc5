/*
 * graphs.c - edge-list loader (SNAP layout, Cora's cora.cites) and the
 * R-MAT and SBM generators of the cache family (see graphs.h). The
 * generators hand their edges to the CSR builder twice from a re-seeded
 * stream, so no edge list is held in memory. Ours (spec bgl.md §9.1 [O]).
 */
#include "graphs.h"

#include "wlfile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Edge lists                                                          */
/* ------------------------------------------------------------------ */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

static int32_t find_id(const int64_t *ids, int32_t n, int64_t x)
{
	int32_t lo = 0, hi = n;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Split line into at most 3 blank-separated tokens (NUL-terminated in
 * place); returns how many there are (3 means "more than two"). */
static int tokens(char *s, char **tok)
{
	int k = 0;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			break;
		if (k == 3)
			return 3;
		tok[k++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
	return k;
}

int sb_cache_load_edgelist(struct sb_cache_graph *g, const char *what, const char *path,
			   struct sb_err *err)
{
	struct sb_wl_file f;
	int64_t *end = NULL, *ids = NULL;
	int32_t *eu = NULL, *ev = NULL;
	size_t cap = 0, m = 0, k, nid = 0;
	char *line, *base;
	int rc;

	memset(g, 0, sizeof *g);
	if ((rc = sb_wl_open(&f, what, path, err)))
		return rc;
	while ((line = sb_wl_next(&f))) {
		char *tok[3];
		long a, b;
		int nt;
		const char *t = line;
		while (*t == ' ' || *t == '\t')
			t++;
		if (!*t || *t == '#')
			continue;
		nt = tokens(line, tok);
		if (nt != 2) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, nt < 2 ? "to" : NULL,
					nt < 2 ? "missing: a line holds two node ids"
					       : "more than two fields: a line holds two node ids");
			goto out;
		}
		if ((rc = sb_wl_long(&f, err, "from", tok[0], 0, SB_CACHE_MAX_ID, &a)) ||
		    (rc = sb_wl_long(&f, err, "to", tok[1], 0, SB_CACHE_MAX_ID, &b)))
			goto out;
		if (2 * m + 2 > cap) {
			int64_t *p = sb_wl_grow(end, &cap, 2 * m + 2, sizeof *end);
			if (!p) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			end = p;
		}
		end[2 * m] = a;
		end[2 * m + 1] = b;
		m++;
	}
	if (m == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "empty graph: no edge");
		goto out;
	}
	ids = sb_malloc(2 * m * sizeof *ids);
	eu = sb_malloc(m * sizeof *eu);
	ev = sb_malloc(m * sizeof *ev);
	if (!ids || !eu || !ev) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	memcpy(ids, end, 2 * m * sizeof *ids);
	qsort(ids, 2 * m, sizeof *ids, cmp_i64);
	for (k = 0; k < 2 * m; k++)
		if (k == 0 || ids[k] != ids[nid - 1])
			ids[nid++] = ids[k];
	for (k = 0; k < m; k++) {
		eu[k] = find_id(ids, (int32_t)nid, end[2 * k]);
		ev[k] = find_id(ids, (int32_t)nid, end[2 * k + 1]);
	}
	if ((rc = sb_cache_graph_from_arrays(g, (int32_t)nid, (int64_t)m, eu, ev, err))) {
		sb_err_prefix(err, "cannot read %s '%s': ", what, path);
		goto out;
	}
	g->ext_id = sb_realloc(ids, nid * sizeof *ids);
	if (!g->ext_id)
		g->ext_id = ids;
	ids = NULL;
	if ((base = sb_wl_basename(path))) {
		snprintf(g->name, sizeof g->name, "%s", base);
		sb_free(base);
	}
out:
	sb_wl_close(&f);
	sb_free(end);
	sb_free(ids);
	sb_free(eu);
	sb_free(ev);
	if (rc)
		sb_cache_graph_release(g);
	return rc;
}

/* ------------------------------------------------------------------ */
/* R-MAT                                                               */
/* ------------------------------------------------------------------ */

/* ids through the permutation, with the loads started ahead */
static void relabel(const int32_t *perm, uint32_t *u, uint32_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (i + 16 < n) {
			__builtin_prefetch(&perm[u[i + 16]]);
			__builtin_prefetch(&perm[v[i + 16]]);
		}
		u[i] = (uint32_t)perm[u[i]];
		v[i] = (uint32_t)perm[v[i]];
	}
}

struct rmat {
	int scale;
	int64_t edges;
	uint32_t ta, tab, tabc;   /* cumulative quadrant thresholds out of 65536 */
	uint64_t seed;
	const int32_t *perm;
};

static void rmat_each(void *src, sb_cache_edge_sink sink, void *acc)
{
	const struct rmat *r = src;
	struct sb_rng rng = sb_rng_stream(r->seed, (uint64_t)r->scale, (uint64_t)r->edges,
					  SB_RNG_INSTANCE);
	uint32_t cu[SB_CACHE_EDGE_CHUNK], cv[SB_CACHE_EDGE_CHUNK];
	size_t c = 0;
	int64_t e;
	for (e = 0; e < r->edges; e++) {
		uint32_t u = 0, v = 0;
		uint64_t bits = 0;
		int lev, left = 0;
		for (lev = 0; lev < r->scale; lev++) {
			uint32_t x;
			if (!left) {
				bits = sb_rng_u64(&rng);
				left = 4;
			}
			x = (uint32_t)(bits & 0xffff);
			bits >>= 16;
			left--;
			/* branch-free quadrant: the choices are random, so branches on
			 * them would mispredict half of the time */
			u = u << 1 | (uint32_t)(x >= r->tab);
			v = v << 1 | ((uint32_t)(x >= r->ta) ^ (uint32_t)(x >= r->tab) ^
				      (uint32_t)(x >= r->tabc));
		}
		cu[c] = u;
		cv[c++] = v;
		if (c == SB_CACHE_EDGE_CHUNK || e + 1 == r->edges) {
			relabel(r->perm, cu, cv, c);
			sink(acc, cu, cv, c);
			c = 0;
		}
	}
}

static int32_t *random_perm(int32_t n, uint64_t seed, uint64_t what)
{
	int32_t *p = sb_malloc((size_t)n * sizeof *p), i;
	struct sb_rng rng = sb_rng_stream(seed, what, (uint64_t)n, SB_RNG_INSTANCE);
	if (!p)
		return NULL;
	for (i = 0; i < n; i++)
		p[i] = i;
	for (i = n - 1; i > 0; i--) {
		int32_t j = (int32_t)sb_rng_below(&rng, (uint32_t)i + 1), t = p[i];
		p[i] = p[j];
		p[j] = t;
	}
	return p;
}

int sb_cache_gen_rmat(struct sb_cache_graph *g, int scale, int edgefactor, double a,
		      double b, double c, uint64_t seed, struct sb_err *err)
{
	struct rmat r;
	int32_t n;
	int rc;

	memset(g, 0, sizeof *g);
	if (scale < 1 || scale > 26)
		return sb_err_set(err, SB_EXIT_INPUT, "rmat: scale %d: expected 1..26", scale);
	if (edgefactor < 1 || edgefactor > 64)
		return sb_err_set(err, SB_EXIT_INPUT, "rmat: edge factor %d: expected 1..64",
				  edgefactor);
	if (!(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "rmat: a, b, c = %g, %g, %g: expected "
				  "non-negative with a + b + c <= 1", a, b, c);
	n = (int32_t)1 << scale;
	r.scale = scale;
	r.edges = (int64_t)edgefactor * n;
	r.ta = (uint32_t)lround(a * 65536);
	r.tab = (uint32_t)lround((a + b) * 65536);
	r.tabc = (uint32_t)lround((a + b + c) * 65536);
	r.seed = seed;
	if (!(r.perm = random_perm(n, seed, 0x726d6174)))
		return sb_err_set(err, SB_EXIT_RUN, "rmat: out of memory");
	rc = sb_cache_graph_build(g, n, rmat_each, &r, err);
	sb_free((void *)r.perm);
	if (!rc)
		snprintf(g->name, sizeof g->name, "rmat-%d", scale);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Stochastic block model                                              */
/* ------------------------------------------------------------------ */

struct sbm {
	int32_t n, blocks;
	int64_t edges;
	double mix;
	uint64_t seed;
	const int32_t *perm;
};

/* before relabelling, node x belongs to block x mod blocks */
static uint32_t in_block(const struct sbm *s, struct sb_rng *rng, int32_t blk)
{
	int32_t size = (s->n - blk + s->blocks - 1) / s->blocks;
	return (uint32_t)blk + (uint32_t)s->blocks * sb_rng_below(rng, (uint32_t)size);
}

static void sbm_each(void *src, sb_cache_edge_sink sink, void *acc)
{
	const struct sbm *s = src;
	struct sb_rng rng = sb_rng_stream(s->seed, (uint64_t)s->n, (uint64_t)s->edges,
					  SB_RNG_INSTANCE ^ 0x73626d);
	uint32_t cu[SB_CACHE_EDGE_CHUNK], cv[SB_CACHE_EDGE_CHUNK];
	size_t c = 0;
	int64_t e;
	for (e = 0; e < s->edges; e++) {
		uint32_t u = sb_rng_below(&rng, (uint32_t)s->n), v;
		int32_t bu = (int32_t)(u % (uint32_t)s->blocks);
		if (s->blocks == 1 || sb_rng_uniform(&rng) >= s->mix) {
			v = in_block(s, &rng, bu);
		} else {
			int32_t ob = (int32_t)sb_rng_below(&rng, (uint32_t)s->blocks - 1);
			v = in_block(s, &rng, ob >= bu ? ob + 1 : ob);
		}
		cu[c] = u;
		cv[c++] = v;
		if (c == SB_CACHE_EDGE_CHUNK || e + 1 == s->edges) {
			relabel(s->perm, cu, cv, c);
			sink(acc, cu, cv, c);
			c = 0;
		}
	}
}

int sb_cache_gen_sbm(struct sb_cache_graph *g, int32_t n, int32_t blocks, double mean_degree,
		     double mix, uint64_t seed, struct sb_err *err)
{
	struct sbm s;
	int32_t x;
	int rc;

	memset(g, 0, sizeof *g);
	if (blocks < 1 || n < 2 || (int64_t)n < 2 * (int64_t)blocks)
		return sb_err_set(err, SB_EXIT_INPUT, "sbm: %d nodes in %d blocks: expected "
				  "blocks >= 1 and at least 2 nodes per block", n, blocks);
	if (!(mean_degree > 0 && mean_degree < n))
		return sb_err_set(err, SB_EXIT_INPUT, "sbm: mean degree %g: expected in (0, %d)",
				  mean_degree, n);
	if (!(mix >= 0 && mix <= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "sbm: mixing ratio %g: expected in [0, 1]", mix);
	s.n = n;
	s.blocks = blocks;
	s.edges = llround((double)n * mean_degree / 2);
	s.mix = mix;
	s.seed = seed;
	if (!(s.perm = random_perm(n, seed, 0x73626d)))
		return sb_err_set(err, SB_EXIT_RUN, "sbm: out of memory");
	if (!(rc = sb_cache_graph_build(g, n, sbm_each, &s, err))) {
		if (!(g->label = sb_malloc((size_t)n * sizeof *g->label))) {
			sb_cache_graph_release(g);
			rc = sb_err_set(err, SB_EXIT_RUN, "sbm: out of memory");
		} else {
			for (x = 0; x < n; x++)
				g->label[s.perm[x]] = x % blocks;
			g->nlabel = blocks;
			snprintf(g->name, sizeof g->name, "sbm-%d-%d", n, blocks);
		}
	}
	sb_free((void *)s.perm);
	return rc;
}
