/*
 * sage.h - the cache family's accuracy check (spec bgl.md §9.6, figure
 * F3): a 2-layer GraphSAGE-mean trained on sampled mini-batches, to test
 * whether the order of the training nodes (uniform shuffle against BGL's
 * proximity-aware ordering PO-K) changes the accuracy reached.
 *
 * The model [O, after Hamilton, Ying, Leskovec, "Inductive Representation
 * Learning on Large Graphs", NeurIPS 2017, the mean aggregator as DGL's
 * SAGEConv('mean') computes it]: layer l maps a node to
 *     h'_v = act(W_l [h_v || mean_{u in N_s(v)} h_u] + b_l),
 * ReLU after layer 1, identity after layer 2 (logits), softmax
 * cross-entropy over the batch's seeds, Adam. N_s(v) is v's sampled
 * neighbour multiset: node-wise uniform draws with replacement, fan-out
 * fan[0] around the seeds (hop 1) and fan[1] around every node of hop 1's
 * block (hop 2), as the cache family's sampler draws them [V, code: BGL's
 * GraphSAGE scripts, DGL 0.5 sample_neighbors(replace=True)]; the
 * destination nodes of a block are the first sources (DGL's to_block).
 * No L2 normalisation of h and no dropout [O: the check compares orders
 * under one model, it does not chase Cora's best accuracy].
 *
 * Each layer is the NN kernel's GNN round (core/nn.h: sb_gnn), so its
 * gradient is the kernel's, checked against finite differences in
 * tests/cache/test_sage.c. Evaluation aggregates over full neighbourhoods
 * (no sampling), so test accuracy is a deterministic function of the
 * weights. Everything runs single-threaded, every draw from a caller's
 * PCG stream: the same seeds give the same weights bit for bit.
 */
#ifndef SB_CACHE_SAGE_H
#define SB_CACHE_SAGE_H

#include "cache/graph.h"
#include "nn.h"
#include "rng.h"

/* Node features and labels for a graph (row-major n x dim, doubles). */
struct sb_cache_feats {
	int32_t n;
	int dim;
	double *x;          /* owned */
	int32_t *label;     /* owned, in 0..nclass-1 */
	int nclass;
};
void sb_cache_feats_release(struct sb_cache_feats *f);

/* One sampled mini-batch: nodes[0..nseed) are the seeds, nodes[0..n1)
 * the sources of layer 2 (seeds first), nodes[0..n2) the sources of layer
 * 1 (the inputs whose features are read). Lists in local indices: ptr2 /
 * idx2 for the nseed destinations of layer 2 over the n1 sources, ptr1 /
 * idx1 for the n1 destinations of layer 1 over the n2 sources. */
struct sb_cache_block {
	int nseed, n1, n2;
	int32_t *nodes;             /* global ids */
	int *ptr1, *idx1, *ptr2, *idx2;
	size_t cap_nodes, cap_idx1, cap_idx2;
	int32_t *pos;               /* global -> local, -1 when absent (n entries) */
};
/* Workspace for graph g (owner: the caller, sb_cache_block_release). */
void sb_cache_block_init(struct sb_cache_block *b, const struct sb_cache_graph *g);
void sb_cache_block_release(struct sb_cache_block *b);
/* Sample the 2-hop block of seeds (distinct ids) with fan-outs fan[0]
 * (hop 1) and fan[1] (hop 2), drawing from rng only. */
void sb_cache_block_sample(struct sb_cache_block *b, const struct sb_cache_graph *g,
			   const int fan[2], const int32_t *seeds, int nseed, struct sb_rng *rng);

/* The model and its optimiser state. */
struct sb_cache_sage {
	struct sb_gnn *l1, *l2;     /* din -> hidden (ReLU), hidden -> classes (linear) */
	struct sb_nn_opt o1, o2;    /* Adam over each layer's parameters */
	int din, hidden, nclass;
	double *xin, *dz, *dh1;     /* workspaces, owned */
	size_t cap_in, cap_z, cap_h1;
	int *fptr, *fidx;           /* full-neighbourhood CSR for evaluation (lazy) */
	const struct sb_cache_graph *fg;
};
/* Widths din, hidden, nclass >= 1; weights from stream r (He uniform for
 * layer 1, Glorot for layer 2, biases zero); Adam with learning rate lr.
 * 0, or an exit code with err. */
int sb_cache_sage_init(struct sb_cache_sage *m, int din, int hidden, int nclass, double lr,
		       struct sb_rng *r, struct sb_err *err);
void sb_cache_sage_release(struct sb_cache_sage *m);

/* Forward pass on block b: the logits of its seeds (nseed x nclass),
 * valid until the next forward pass. */
const double *sb_cache_sage_forward(struct sb_cache_sage *m, const struct sb_cache_block *b,
				    const struct sb_cache_feats *f);
/* Loss of the last forward pass against the seeds' labels; when grad is
 * set, the parameter gradients (zeroed first) into the layers' g. */
double sb_cache_sage_loss(struct sb_cache_sage *m, const struct sb_cache_block *b,
			  const struct sb_cache_feats *f, int grad);
/* One training step on block b: forward, loss, gradients, one Adam step;
 * returns the loss before the step. */
double sb_cache_sage_step(struct sb_cache_sage *m, const struct sb_cache_block *b,
			  const struct sb_cache_feats *f);
/* Accuracy over nodes[0..n) with full neighbourhoods (no sampling). */
double sb_cache_sage_accuracy(struct sb_cache_sage *m, const struct sb_cache_graph *g,
			      const struct sb_cache_feats *f, const int32_t *nodes, int32_t n);

#endif
