/*
 * heap.c - binary min-heap ordered by (key, insertion counter), and a
 * walk over the items under a key limit that leaves the heap as it is.
 */
#include "heap.h"
#include "sb.h"

#include <string.h>

void sb_heap_init(struct sb_heap *h)
{
	memset(h, 0, sizeof *h);
}

void sb_heap_release(struct sb_heap *h)
{
	sb_free(h->a);
	memset(h, 0, sizeof *h);
}

void sb_heap_clear(struct sb_heap *h)
{
	h->n = 0;
	h->next_seq = 0;
}

static inline int before(const struct sb_heap_item *x, const struct sb_heap_item *y)
{
	return x->key < y->key || (x->key == y->key && x->seq < y->seq);
}

void sb_heap_push(struct sb_heap *h, double key, int64_t val)
{
	size_t i;
	struct sb_heap_item it = { key, h->next_seq++, val };

	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->a = sb_xrealloc(h->a, h->cap * sizeof *h->a);
	}
	i = h->n++;
	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (!before(&it, &h->a[p]))
			break;
		h->a[i] = h->a[p];
		i = p;
	}
	h->a[i] = it;
}

int sb_heap_pop(struct sb_heap *h, struct sb_heap_item *out)
{
	struct sb_heap_item last;
	size_t i = 0;

	if (h->n == 0)
		return 0;
	*out = h->a[0];
	last = h->a[--h->n];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && before(&h->a[c + 1], &h->a[c]))
			c++;
		if (!before(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = last;
	return 1;
}

const struct sb_heap_item *sb_heap_peek(const struct sb_heap *h)
{
	return h->n ? &h->a[0] : NULL;
}

double sb_heap_walk_le(const struct sb_heap *h, double lim, sb_heap_visit_fn visit, void *ctx)
{
	/* The stack holds at most one pending left child per level of the
	 * path, plus the two children just pushed: a heap of n < 2^64 items
	 * has fewer than 64 levels. */
	size_t stk[2 * 64 + 2];
	size_t ns = 0, n = h->n;

	if (n == 0)
		return lim;
	stk[ns++] = 0;
	while (ns > 0) {
		size_t i = stk[--ns];
		if (h->a[i].key > lim)
			continue;
		lim = visit(ctx, &h->a[i], lim);
		SB_ASSERT(ns + 2 <= sizeof stk / sizeof *stk);
		if (2 * i + 1 < n)
			stk[ns++] = 2 * i + 1;
		if (2 * i + 2 < n)
			stk[ns++] = 2 * i + 2;
	}
	return lim;
}
