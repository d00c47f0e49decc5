/*
 * optimum.c - offline optima of the cache family (spec bgl.md §10 [O]):
 * Belady's MIN per cache instance for the batched model, the optimal
 * static content (top-C by access count), and the per-shard access counts
 * both need.
 *
 * MIN for batches: every lookup of a batch sees the content left by the
 * previous batch, and only at the batch's end may nodes of this batch
 * enter. Keeping, at each batch end, the C nodes (of those held and those
 * just missed) whose next request comes first is optimal by Belady's
 * exchange argument applied at batch boundaries; the GLPK ILP of ilp.c
 * checks this on tiny traces (tests/cache). Without bypass, every miss
 * must enter: the old nodes with the furthest next use leave first. A
 * static cache is filled before the first request, so the bound for it is
 * MIN with a free initial content (warm): the C nodes used first.
 */
#include "cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER 0x7fffffffu

/* ------------------------------------------------------------------ */
/* An indexed max-heap of (next use << 32 | node)                      */
/* ------------------------------------------------------------------ */

/* Four children per node and a moving hole instead of swaps: half the
 * levels of a binary heap and one position write per level, where each
 * write into pos (|V| entries) is a cache miss. Keys are distinct (they
 * hold the node), so the maximum, and with it every eviction of MIN, is
 * the same whatever the heap's shape. */
#define ARY 4

struct mheap {
	uint64_t *key;     /* by heap position */
	int32_t *pos;      /* heap position of each local id, -1 if absent */
	int64_t n;
};

static inline void hput(struct mheap *h, int64_t i, uint64_t k)
{
	h->key[i] = k;
	h->pos[(int32_t)(k & 0xffffffffu)] = (int32_t)i;
}

static void hup(struct mheap *h, int64_t i)
{
	uint64_t k = h->key[i];
	while (i > 0 && h->key[(i - 1) / ARY] < k) {
		hput(h, i, h->key[(i - 1) / ARY]);
		i = (i - 1) / ARY;
	}
	hput(h, i, k);
}

static void hdown(struct mheap *h, int64_t i)
{
	uint64_t k = h->key[i];
	for (;;) {
		int64_t c = ARY * i + 1, end = c + ARY < h->n ? c + ARY : h->n, m = -1;
		uint64_t top = k;
		for (; c < end; c++)
			if (h->key[c] > top) {
				top = h->key[c];
				m = c;
			}
		if (m < 0)
			break;
		hput(h, i, top);
		i = m;
	}
	hput(h, i, k);
}

static void hpush(struct mheap *h, uint32_t next, int32_t v)
{
	h->key[h->n] = (uint64_t)next << 32 | (uint32_t)v;
	hup(h, h->n++);
}

static void hpop(struct mheap *h)
{
	int32_t v = (int32_t)(h->key[0] & 0xffffffffu);
	h->n--;
	if (h->n > 0) {
		h->key[0] = h->key[h->n];
		hdown(h, 0);
	}
	h->pos[v] = -1;
}

int64_t sb_cache_belady_stream(const int32_t *req, const int32_t *bat, int64_t n, int64_t nloc,
			       int64_t C, int mode)
{
	int bypass = mode & SB_CACHE_MIN_BYPASS;
	uint32_t *next = sb_malloc((size_t)(n > 0 ? n : 1) * sizeof *next);
	uint32_t *last = sb_malloc((size_t)nloc * sizeof *last);
	int64_t *miss = NULL, maxb = 1, i, j, hits = -1;
	struct mheap h = { 0 };

	/* the misses of one batch at a time */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && bat[j] == bat[i]; j++)
			;
		if (j - i > maxb)
			maxb = j - i;
	}
	miss = sb_malloc((size_t)maxb * sizeof *miss);

	h.key = sb_malloc((size_t)(nloc + 1) * sizeof *h.key);
	h.pos = sb_malloc((size_t)nloc * sizeof *h.pos);
	if (!next || !last || !miss || !h.key || !h.pos || n >= (int64_t)NEVER)
		goto out;
	for (i = 0; i < nloc; i++) {
		last[i] = NEVER;
		h.pos[i] = -1;
	}
	for (i = n - 1; i >= 0; i--) {
		next[i] = last[req[i]];
		last[req[i]] = (uint32_t)i;
	}
	hits = 0;
	/* warm start: the first C distinct nodes of the stream are those
	 * whose first use comes first, the content MIN would choose */
	for (i = 0; (mode & SB_CACHE_MIN_WARM) && i < n && h.n < C; i++)
		if (h.pos[req[i]] < 0)
			hpush(&h, (uint32_t)i, req[i]);
	for (i = 0; i < n;) {
		int64_t nm = 0, excess;
		for (j = i; j < n && bat[j] == bat[i]; j++) {
			int32_t v = req[j];
			if (h.pos[v] >= 0) {
				int64_t p = h.pos[v];
				hits++;
				h.key[p] = (uint64_t)next[j] << 32 | (uint32_t)v;
				hup(&h, p);
				hdown(&h, h.pos[v]);
			} else {
				miss[nm++] = j;
			}
		}
		if (!bypass)
			for (excess = h.n + nm - C; excess > 0 && h.n > 0; excess--)
				hpop(&h);
		for (excess = 0; excess < nm; excess++)
			hpush(&h, next[miss[excess]], req[miss[excess]]);
		while (h.n > C)
			hpop(&h);
		i = j;
	}
out:
	sb_free(next);
	sb_free(last);
	sb_free(miss);
	sb_free(h.key);
	sb_free(h.pos);
	return hits;
}

/* ------------------------------------------------------------------ */
/* Per-shard streams and counts                                        */
/* ------------------------------------------------------------------ */

int64_t sb_cache_shard_stream(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
			    int replicated, int32_t sh, int32_t *req, int32_t *bat)
{
	int32_t bi, m = sh / s->k;
	int64_t n = 0, i;
	for (bi = 0; bi < t->nbatch; bi++) {
		const struct sb_cache_batch *b = &t->b[bi];
		if (b->machine != m)
			continue;
		for (i = b->first; i < b->first + b->count; i++) {
			int32_t x, loc;
			sb_cache_route(s, replicated, m, b->gpu, t->req[i], &x, &loc);
			if (x == sh) {
				req[n] = loc;
				bat[n++] = bi;
			}
		}
	}
	return n;
}

int sb_cache_belady(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		    int replicated, int mode, int64_t *hits, struct sb_err *err)
{
	int32_t sh, m, nsh = s->P * s->k;
	int64_t maxn = 0, bi;
	int32_t *req, *bat;
	int rc = 0;

	/* no shard sees more requests than its machine's batches hold */
	for (m = 0; m < s->P; m++) {
		int64_t c = 0;
		for (bi = 0; bi < t->nbatch; bi++)
			if (t->b[bi].machine == m)
				c += t->b[bi].count;
		if (c > maxn)
			maxn = c;
	}
	req = sb_malloc((size_t)(maxn + 1) * sizeof *req);
	bat = sb_malloc((size_t)(maxn + 1) * sizeof *bat);
	*hits = 0;
	if (!req || !bat)
		rc = sb_err_set(err, SB_EXIT_RUN, "belady: out of memory for %lld requests",
				(long long)maxn);
	for (sh = 0; sh < nsh && !rc; sh++) {
		struct sb_cache_shard info;
		int64_t n = sb_cache_shard_stream(s, t, replicated, sh, req, bat), h;
		sb_cache_shard_range(s, replicated, sh, &info);
		h = sb_cache_belady_stream(req, bat, n, info.nloc, s->capacity, mode);
		if (h < 0)
			rc = sb_err_set(err, SB_EXIT_RUN, "belady: out of memory for %lld requests",
					(long long)n);
		else
			*hits += h;
	}
	sb_free(req);
	sb_free(bat);
	return rc;
}

int sb_cache_bound(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		   const struct sb_cache_policy *p, int64_t *hits, struct sb_err *err)
{
	return sb_cache_belady(s, t, p->replicated,
			       SB_CACHE_MIN_BYPASS | (p->contents ? SB_CACHE_MIN_WARM : 0), hits, err);
}

uint32_t **sb_cache_counts(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
			   int replicated)
{
	int32_t nsh = s->P * s->k, sh, bi;
	int64_t total = 0, i;
	uint32_t **cnt = SB_NEW(uint32_t *, nsh + 1), *all;
	struct sb_cache_shard info;

	for (sh = 0; sh < nsh; sh++) {
		sb_cache_shard_range(s, replicated, sh, &info);
		total += info.nloc;
	}
	all = SB_NEW(uint32_t, total);
	for (sh = 0, total = 0; sh < nsh; sh++) {
		sb_cache_shard_range(s, replicated, sh, &info);
		cnt[sh] = all + total;
		total += info.nloc;
	}
	cnt[nsh] = NULL;
	for (bi = 0; bi < t->nbatch; bi++) {
		const struct sb_cache_batch *b = &t->b[bi];
		for (i = b->first; i < b->first + b->count; i++) {
			int32_t x, loc;
			sb_cache_route(s, replicated, b->machine, b->gpu, t->req[i], &x, &loc);
			cnt[x][loc]++;
		}
	}
	return cnt;
}

void sb_cache_counts_free(uint32_t **cnt)
{
	if (!cnt)
		return;
	sb_free(cnt[0]);
	sb_free(cnt);
}

/* ------------------------------------------------------------------ */
/* Static content                                                      */
/* ------------------------------------------------------------------ */

static int by_key_desc(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	/* (key, index) pairs: larger key first, then smaller index */
	if (x[0] != y[0])
		return x[0] > y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

int64_t sb_cache_top(const uint64_t *key, int64_t n, int64_t C, int32_t *out)
{
	uint64_t *pair = SB_NEW(uint64_t, 2 * (n > 0 ? n : 1));
	int64_t i, m = 0;
	for (i = 0; i < n; i++) {
		pair[2 * m] = key[i];
		pair[2 * m + 1] = (uint64_t)i;
		m++;
	}
	qsort(pair, (size_t)m, 2 * sizeof *pair, by_key_desc);
	if (C > m)
		C = m;
	for (i = 0; i < C; i++)
		out[i] = (int32_t)pair[2 * i + 1];
	sb_free(pair);
	return C;
}

int sb_cache_static_opt(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
			int replicated, int64_t *hits, struct sb_err *err)
{
	uint32_t **cnt = sb_cache_counts(s, t, replicated);
	int32_t sh, nsh = s->P * s->k;
	*hits = 0;
	for (sh = 0; sh < nsh; sh++) {
		struct sb_cache_shard info;
		uint64_t *key;
		int32_t *top;
		int64_t i, c;
		sb_cache_shard_range(s, replicated, sh, &info);
		key = SB_NEW(uint64_t, info.nloc);
		top = SB_NEW(int32_t, s->capacity);
		for (i = 0; i < info.nloc; i++)
			key[i] = cnt[sh][i];
		c = sb_cache_top(key, info.nloc, s->capacity, top);
		for (i = 0; i < c; i++)
			*hits += cnt[sh][top[i]];
		sb_free(key);
		sb_free(top);
	}
	sb_cache_counts_free(cnt);
	return 0;
}
