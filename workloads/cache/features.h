/*
 * features.h - node features and labels for the cache family's accuracy
 * check (spec bgl.md §9.6, figure F3): Cora's cora.content when the user
 * supplies it, else synthetic features for a labelled SBM [O].
 */
#ifndef SB_WORKLOADS_CACHE_FEATURES_H
#define SB_WORKLOADS_CACHE_FEATURES_H

#include "cache/sage.h"

/*
 * Cora's cora.content (LINQS layout [V, the data set's README]): one line
 * per paper, blank-separated: `paper_id word_1 ... word_d class_label`,
 * the words 0/1 (any finite number is accepted), d the same on every line
 * (1,433 for Cora), the label a name ("Neural_Networks", ...). g must be
 * the graph loaded from the matching cora.cites (its ext_id maps paper ids
 * to nodes). Classes are numbered in sorted order of their names. Errors
 * name file, line and field ('paper', 'word N', 'class'): a paper id that
 * is not an integer or not in the graph, a paper listed twice, a line with
 * another number of words than the first, a word that is not a finite
 * number, more than 256 classes, an empty file, and a node of the graph
 * without a line. 0, SB_EXIT_INPUT or SB_EXIT_RUN with err.
 */
int sb_cache_load_cora_content(struct sb_cache_feats *f, const struct sb_cache_graph *g,
			       const char *path, struct sb_err *err);

/*
 * Features for a graph with community labels (g->label, the SBM
 * generator's) [O]: class c gets a mean vector mu_c with N(0, 1) entries,
 * node v the row signal * mu_label(v) + N(0, 1) noise, so features alone
 * separate the classes only partly and neighbours' features help.
 * dim >= 1, signal >= 0. Deterministic for (seed, graph).
 */
int sb_cache_feats_synthetic(struct sb_cache_feats *f, const struct sb_cache_graph *g, int dim,
			     double signal, uint64_t seed, struct sb_err *err);

#define SB_CACHE_MAX_CLASSES 256

#endif
