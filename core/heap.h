/*
 * heap.h - binary min-heap of (key, payload) with ties broken by insertion
 * order: of two items with equal keys, the one pushed first pops first.
 * Used for event queues and for ready queues with static priorities.
 */
#ifndef SB_HEAP_H
#define SB_HEAP_H

#include <stdint.h>
#include <stddef.h>

struct sb_heap_item {
	double key;
	uint64_t seq;  /* insertion counter: the tie-break */
	int64_t val;   /* payload */
};

struct sb_heap {
	struct sb_heap_item *a;
	size_t n, cap;
	uint64_t next_seq;
};

void sb_heap_init(struct sb_heap *h);
void sb_heap_release(struct sb_heap *h);
void sb_heap_clear(struct sb_heap *h);
void sb_heap_push(struct sb_heap *h, double key, int64_t val);
/* Pop the smallest item into *out; returns 0 if the heap was empty. */
int sb_heap_pop(struct sb_heap *h, struct sb_heap_item *out);
/* Smallest item, or NULL. */
const struct sb_heap_item *sb_heap_peek(const struct sb_heap *h);
static inline size_t sb_heap_size(const struct sb_heap *h) { return h->n; }

/* Called by sb_heap_walk_le on an item whose key is <= lim; returns the
 * limit for the rest of the walk (lim itself, or lower to prune more). */
typedef double (*sb_heap_visit_fn)(void *ctx, const struct sb_heap_item *it, double lim);

/* Visit every item whose key is <= lim without taking any out, lim being
 * replaced by what each visit returns; returns the final limit. Depth
 * first from the root, a node's right child before its left; below an item
 * whose key exceeds the limit nothing is visited (heap order: no key there
 * is smaller). The heap must not change during the walk. */
double sb_heap_walk_le(const struct sb_heap *h, double lim, sb_heap_visit_fn visit, void *ctx);

#endif
