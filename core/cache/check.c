/*
 * check.c - the cache family's independent checker (cache.h): its own
 * bitmap of what every cache instance holds, built only from the events
 * the policies report, and its own request counts. It owns nothing of the
 * simulator but the model's definition of who owns a node (v mod kg inside
 * an NVLink group of at most 4 GPUs, or the requesting GPU for replicated
 * copies) and of where a node's features live (part[v], or v mod P).
 * Rejects: a hit on a node the owner does not hold, a miss on one it
 * holds, an admission of a node that did not just miss or is already
 * held, a victim that is not held, more nodes than the capacity, static
 * content above capacity or repeated, counts that differ from the run's,
 * a request count that differs from the trace's, hits above requests.
 */
#include "cache.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sb_cache_checker {
	const struct sb_cache_setup *s;
	int replicated;
	int32_t nsh;
	size_t *word0;           /* nsh + 1: first word of each shard's bitmap */
	uint64_t *held;          /* per shard a bit per node it may hold (local id) */
	int64_t *count;          /* nodes held per shard */
	/* the misses of the current batch: a bit per node and their list, the
	 * bits cleared when another batch starts (a bitmap of |V| bits stays
	 * in the CPU cache where a batch stamp per node would not) */
	uint64_t *missed;
	int32_t *mlist;
	int64_t nmiss, mcap;
	int32_t mbatch;
	int64_t req, hit_local, hit_peer, miss_host, miss_remote, ins, evi, byp;
	int bad;
	char why[512];
};

static void fail(struct sb_cache_checker *c, const char *fmt, ...)
{
	va_list ap;
	if (c->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof c->why, fmt, ap);
	va_end(ap);
}

/* the first GPU and the size of GPU w's NVLink group */
static void group(const struct sb_cache_checker *c, int32_t w, int32_t *first, int32_t *size)
{
	*first = w - w % SB_CACHE_NVLINK_GROUP;
	*size = c->s->k - *first < SB_CACHE_NVLINK_GROUP ? c->s->k - *first : SB_CACHE_NVLINK_GROUP;
}

struct sb_cache_checker *sb_cache_checker_new(const struct sb_cache_setup *s, int replicated)
{
	struct sb_cache_checker *c = SB_NEW(struct sb_cache_checker, 1);
	int32_t sh, n = s->g->n;
	c->s = s;
	c->replicated = replicated;
	c->nsh = s->P * s->k;
	c->word0 = SB_NEW(size_t, c->nsh + 1);
	/* a sharded GPU may hold only the nodes it owns: local ids 0..nloc-1 */
	for (sh = 0; sh < c->nsh; sh++) {
		int32_t w = sh % s->k, first, size, nloc;
		group(c, w, &first, &size);
		nloc = replicated ? n : (n - (w - first) + size - 1) / size;
		c->word0[sh + 1] = c->word0[sh] + ((size_t)nloc + 63) / 64;
	}
	c->held = SB_NEW(uint64_t, c->word0[c->nsh]);
	c->count = SB_NEW(int64_t, c->nsh);
	c->missed = SB_NEW(uint64_t, ((size_t)n + 63) / 64);
	c->mcap = 1024;
	c->mlist = SB_NEW(int32_t, c->mcap);
	c->mbatch = -1;
	return c;
}

void sb_cache_checker_free(struct sb_cache_checker *c)
{
	if (!c)
		return;
	sb_free(c->word0);
	sb_free(c->held);
	sb_free(c->count);
	sb_free(c->missed);
	sb_free(c->mlist);
	sb_free(c);
}

/* the GPU (shard) that may hold v for a request of GPU w of machine m, and
 * v's local id there */
static int32_t owner(const struct sb_cache_checker *c, int32_t m, int32_t w, int32_t v,
		     int32_t *loc)
{
	int32_t first, size;
	if (c->replicated) {
		*loc = v;
		return m * c->s->k + w;
	}
	group(c, w, &first, &size);
	*loc = v / size;
	return m * c->s->k + first + v % size;
}

static int32_t global_of(const struct sb_cache_checker *c, int32_t sh, int32_t loc)
{
	int32_t w = sh % c->s->k, first, size;
	group(c, w, &first, &size);
	return c->replicated ? loc : loc * size + (w - first);
}

static int held(const struct sb_cache_checker *c, int32_t sh, int32_t loc)
{
	return (int)(c->held[c->word0[sh] + ((uint32_t)loc >> 6)] >> (loc & 63) & 1);
}

static void flip(struct sb_cache_checker *c, int32_t sh, int32_t loc)
{
	c->held[c->word0[sh] + ((uint32_t)loc >> 6)] ^= (uint64_t)1 << (loc & 63);
}

/* batch b starts (or goes on): forget the misses of any other batch */
static void to_batch(struct sb_cache_checker *c, int32_t b)
{
	int64_t i;
	if (b == c->mbatch)
		return;
	for (i = 0; i < c->nmiss; i++)
		c->missed[(uint32_t)c->mlist[i] >> 6] = 0;
	c->nmiss = 0;
	c->mbatch = b;
}

void sb_cache_check_contents(struct sb_cache_checker *c, int32_t sh, const int32_t *loc,
			     int64_t n)
{
	int64_t i;
	if (n > c->s->capacity)
		fail(c, "GPU %d: static content of %lld nodes above the capacity %lld", sh,
		     (long long)n, (long long)c->s->capacity);
	for (i = 0; i < n && !c->bad; i++) {
		int32_t v = global_of(c, sh, loc[i]);
		if (loc[i] < 0 || v < 0 || v >= c->s->g->n)
			fail(c, "GPU %d: static content holds local id %d, not a node", sh, loc[i]);
		else if (held(c, sh, loc[i]))
			fail(c, "GPU %d: static content holds node %d twice", sh, v);
		else {
			flip(c, sh, loc[i]);
			c->count[sh]++;
		}
	}
}

void sb_cache_check_request(struct sb_cache_checker *c, int32_t b, int32_t m, int32_t w,
			    int32_t v, int hit)
{
	int32_t loc, sh = owner(c, m, w, v, &loc);
	int h = held(c, sh, loc);
	c->req++;
	to_batch(c, b);
	if (hit && !h)
		fail(c, "batch %d: GPU %d of machine %d: hit reported on node %d, which its "
		     "owner GPU %d does not hold", b, w, m, v, sh);
	else if (!hit && h)
		fail(c, "batch %d: GPU %d of machine %d: miss reported on node %d, which its "
		     "owner GPU %d holds", b, w, m, v, sh);
	if (hit) {
		if (sh == m * c->s->k + w)
			c->hit_local++;
		else
			c->hit_peer++;
	} else {
		int32_t home = c->s->part ? c->s->part[v] : v % c->s->P;
		if (home == m)
			c->miss_host++;
		else
			c->miss_remote++;
		if (c->nmiss == c->mcap) {
			c->mcap *= 2;
			c->mlist = sb_xrealloc(c->mlist, (size_t)c->mcap * sizeof *c->mlist);
		}
		c->mlist[c->nmiss++] = v;
		c->missed[(uint32_t)v >> 6] |= (uint64_t)1 << (v & 63);
	}
}

void sb_cache_check_insert(struct sb_cache_checker *c, int32_t b, int32_t m, int32_t w,
			   int32_t v, int32_t victim_local)
{
	int32_t loc, sh = owner(c, m, w, v, &loc);
	if (victim_local == SB_CACHE_BYPASS) {
		c->byp++;
		return;
	}
	if (b != c->mbatch || !(c->missed[(uint32_t)v >> 6] >> (v & 63) & 1)) {
		fail(c, "batch %d: node %d admitted on GPU %d without a miss in this batch", b, v, sh);
		return;
	}
	if (held(c, sh, loc)) {
		fail(c, "batch %d: node %d admitted on GPU %d, which holds it already", b, v, sh);
		return;
	}
	if (victim_local != SB_CACHE_NO_VICTIM) {
		int32_t x = victim_local < 0 ? -1 : global_of(c, sh, victim_local);
		if (x < 0 || x >= c->s->g->n || !held(c, sh, victim_local)) {
			fail(c, "batch %d: GPU %d evicts local id %d (node %d), which it does not "
			     "hold", b, sh, victim_local, x);
			return;
		}
		flip(c, sh, victim_local);
		c->count[sh]--;
		c->evi++;
	}
	flip(c, sh, loc);
	c->ins++;
	if (++c->count[sh] > c->s->capacity)
		fail(c, "batch %d: GPU %d holds %lld nodes after admitting node %d, above its "
		     "capacity %lld", b, sh, (long long)c->count[sh], v, (long long)c->s->capacity);
}

int sb_cache_check_finish(struct sb_cache_checker *c, const struct sb_cache_trace *t,
			  const struct sb_cache_stats *st, char *why, size_t len)
{
	if (!c->bad && c->req != t->nreq)
		fail(c, "%lld requests replayed, the trace has %lld", (long long)c->req,
		     (long long)t->nreq);
	if (!c->bad && (st->hit_local + st->hit_peer > st->requests ||
			st->hit_local < 0 || st->hit_peer < 0))
		fail(c, "hits %lld + %lld above the %lld requests", (long long)st->hit_local,
		     (long long)st->hit_peer, (long long)st->requests);
	if (!c->bad && (st->requests != c->req || st->hit_local != c->hit_local ||
			st->hit_peer != c->hit_peer || st->miss_host != c->miss_host ||
			st->miss_remote != c->miss_remote))
		fail(c, "run counts (requests %lld, local %lld, peer %lld, host %lld, remote "
		     "%lld) differ from the replay's (%lld, %lld, %lld, %lld, %lld)",
		     (long long)st->requests, (long long)st->hit_local, (long long)st->hit_peer,
		     (long long)st->miss_host, (long long)st->miss_remote, (long long)c->req,
		     (long long)c->hit_local, (long long)c->hit_peer, (long long)c->miss_host,
		     (long long)c->miss_remote);
	if (!c->bad && (st->inserts != c->ins || st->evictions != c->evi || st->bypasses != c->byp))
		fail(c, "run counts (admitted %lld, evicted %lld, bypassed %lld) differ from the "
		     "replay's (%lld, %lld, %lld)", (long long)st->inserts, (long long)st->evictions,
		     (long long)st->bypasses, (long long)c->ins, (long long)c->evi,
		     (long long)c->byp);
	if (c->bad)
		snprintf(why, len, "%s", c->why);
	return c->bad != 0;
}
