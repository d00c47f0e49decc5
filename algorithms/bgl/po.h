/*
 * po.h - BGL's proximity-aware ordering PO-K with dedup.
 * See po.c.
 *
 * Family: cache (core/cache/).
 */
#ifndef SB_BGL_PO_H
#define SB_BGL_PO_H

#include "cache/graph.h"
#include "rng.h"
#include "sb.h"

#include <stdint.h>

/* The K BFS sequences of spec bgl.md §4 into seq (K rows of N: row i is
 * pass i's permutation of the training set). train[0..N) are distinct
 * node ids; roots are drawn from rng. 0 or an exit code with err. */
int sb_bgl_po_sequences(const struct sb_cache_graph *g, const int32_t *train, int32_t N, int K,
			struct sb_rng *rng, int32_t *seq, struct sb_err *err);

/* PO-K (dedup): the interleaving out[j*K + i] = seq_i[(j + i*floor(N/K))
 * mod N] walked in order, a node kept the first time it appears, into
 * out (N entries, a permutation of train). Same rng use as
 * sb_bgl_po_sequences, so both see the same roots. */
int sb_bgl_po(const struct sb_cache_graph *g, const int32_t *train, int32_t N, int K,
	      struct sb_rng *rng, int32_t *out, struct sb_err *err);

#endif
