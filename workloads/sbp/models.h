/*
 * models.h - the sbp family's layer graphs, generated in C (spec
 * oneflow.md §8.2 [O]): an MLP of Linear + GeLU layers, GPT-style blocks,
 * random chains of layers for the tests, each with explicit backward ops
 * (dgrad and wgrad matmuls, activation gradients, one optimizer update per
 * weight tied to it by a loop edge) so that gradient synchronisation is
 * boxing; and a loader for graphs written as text.
 */
#ifndef SB_WORKLOADS_SBP_MODELS_H
#define SB_WORKLOADS_SBP_MODELS_H

#include "sbp/sbp.h"

/* L layers of Linear [h,h] + GeLU over T tokens; weights alternate
 * column (odd layers: role COL) and row (ROW) parallel roles, as Megatron
 * pairs them. backward = 0: forward only (a tree: chain plus weight
 * leaves). Appends to g (sb_sbp_graph_init first); the graph is not
 * finished (sb_sbp_graph_finish). */
void sb_sbp_build_mlp(struct sb_sbp_graph *g, int L, int64_t T, int64_t h, int backward);

/* L GPT blocks (LN, QKV [h,3h], heads, QK^T, softmax, AV, out-proj [h,h],
 * residual, LN, up [h,4h], GeLU, down [4h,h], residual) over b sequences
 * of s tokens with `heads` heads (h divisible by heads). */
void sb_sbp_build_gpt(struct sb_sbp_graph *g, int L, int64_t b, int64_t s, int64_t h,
		      int64_t heads, int backward);

/* A random chain of L layers (matmul with a weight leaf, gelu, relu,
 * softmax, layer_norm) on a [T, h] input, sizes from r; forward only, so
 * its skeleton is a tree (for DP = ILP = elimination). */
void sb_sbp_build_chain(struct sb_sbp_graph *g, int L, struct sb_rng *r);

/* The same layers with their sizes given (the `sb adversary sbp` hook
 * codes its instances so): a [T, h] input, layer l of kind[l] (0 linear
 * to width h2[l] with a weight leaf, 1 GeLU, 2 softmax, 3 layer norm;
 * h2[l] read for linear layers only). backward = 1 adds the loss and the
 * chain rule (wgrad and dgrad matmuls, activation gradients, one update
 * per weight tied to it by a loop edge), so the skeleton is no tree. */
void sb_sbp_build_net(struct sb_sbp_graph *g, int L, int64_t T, int64_t h, const int *kind,
		      const int64_t *h2, int backward);

/*
 * A graph file: one op per line, '#' starts a comment:
 *     NAME KIND INPUTS SHAPE [key=value]...
 * KIND one of sb_sbp_opkind_name(); INPUTS comma-separated names of
 * earlier ops or '-'; SHAPE like 1024x4096; keys: nb, ta, tb (matmul),
 * axis (bias_add; split_heads: the slice), slices (split_heads), role
 * (col, row, data), loop=NAME (a variable's update, defined later).
 * Finished on placement pl. 0 or SB_EXIT_INPUT naming file, line and
 * field. Owner: g.
 */
int sb_sbp_load_graph(struct sb_sbp_graph *g, const char *path, const struct sb_sbp_place *pl,
		      struct sb_err *err);

#endif
