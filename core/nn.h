/*
 * nn.h - a small neural-network kernel in plain C: fully connected
 * (dense) layers with ReLU, tanh or identity activations, a row-wise
 * softmax with an optional mask, mean-squared-error and softmax
 * cross-entropy losses, manual backpropagation, gradient clipping, Adam
 * and SGD with momentum.
 *
 * Design [O, the plain-C kernel specified for the learned schedulers]:
 *   - double precision throughout: finite-difference gradient checks to a
 *     relative error of 1e-6 need it, and the nets are small (< 10^5
 *     parameters), so memory and speed do not argue for float;
 *   - all parameters of a net live in one array (per layer: weights, then
 *     biases), so optimisers, clipping and serialisation see one vector;
 *   - a weight matrix is stored input-major, W[i * out + o], so that the
 *     forward pass and the weight gradient are axpy loops over contiguous
 *     memory that the compiler vectorises without reassociating sums: every
 *     sum is taken in one fixed order, hence bit-identical results for a
 *     seed on any machine with IEEE doubles and the same compiler flags;
 *   - initialisation draws from a caller's PCG stream (core/rng.h): He
 *     uniform for ReLU layers, Glorot uniform otherwise, biases zero;
 *   - single-threaded and no BLAS: a BLAS dgemm blocks its sums (and uses
 *     FMA), which would change the bits; the kernel's own blocked loops
 *     (nn.c) keep each sum's order and its partial sums in registers.
 *
 * Use: sb_nn_new, sb_nn_init, then per step sb_nn_zero_grad,
 * sb_nn_forward (a batch of rows), a loss or a caller's dL/d(output),
 * sb_nn_backward (accumulates into g), sb_nn_opt_step.
 *
 * Graph pieces for message-passing networks (mean and max aggregation over
 * CSR lists, the [mean || max] readout, one GNN round) follow the same
 * rules: double precision, one summation order, manual backward.
 */
#ifndef SB_NN_H
#define SB_NN_H

#include <stddef.h>

#include "rng.h"
#include "sb.h"

enum sb_nn_act {
	SB_NN_LINEAR = 0, /* identity (output layers: logits, regression) */
	SB_NN_RELU = 1,
	SB_NN_TANH = 2,
};

struct sb_nn {
	int nlayers;          /* number of dense layers */
	int *size;            /* size[0] inputs, size[l + 1] outputs of layer l */
	enum sb_nn_act *act;  /* activation of layer l */
	size_t *off;          /* offset of layer l's weights in w (biases follow) */
	size_t nparams;
	double *w;            /* parameters, owned */
	double *g;            /* gradient of the same layout, accumulated by backward */
	/* workspace of the last forward pass (batch rows), owned */
	int cap;              /* rows the workspace holds */
	int rows;             /* rows of the last forward pass */
	double **a;           /* a[0] input copy, a[l + 1] output of layer l */
	double *d0, *d1;      /* deltas, cap * max width each */
	double *wt;           /* one layer's weights transposed (largest layer) */
	int *live;            /* backward: the rows with a nonzero delta (cap) */
	int maxw;
};

/* A net of `nlayers` dense layers: size[0] inputs, size[l + 1] units of
 * layer l with activation act[l]. Returns NULL with err filled if a size is
 * < 1, nlayers < 1 or an allocation fails. Parameters are zero until
 * sb_nn_init. Owner: the caller, released with sb_nn_free. */
struct sb_nn *sb_nn_new(int nlayers, const int *size, const enum sb_nn_act *act,
			struct sb_err *err);
void sb_nn_free(struct sb_nn *nn);
/* Seeded initialisation from stream r (the only randomness of the kernel). */
void sb_nn_init(struct sb_nn *nn, struct sb_rng *r);
int sb_nn_inputs(const struct sb_nn *nn);
int sb_nn_outputs(const struct sb_nn *nn);

/* Forward pass over `rows` inputs x (rows x inputs, row-major). Returns the
 * outputs (rows x outputs), valid until the next forward pass; keeps the
 * activations for sb_nn_backward. Dies (exit 1) only if out of memory. */
const double *sb_nn_forward(struct sb_nn *nn, const double *x, int rows);
/* Backpropagate dL/d(output) (rows x outputs, for the rows of the last
 * forward pass): adds dL/dw to nn->g and, if dx is not NULL, writes
 * dL/d(input) (rows x inputs) to dx. */
void sb_nn_backward(struct sb_nn *nn, const double *dout, double *dx);
void sb_nn_zero_grad(struct sb_nn *nn);
/* Scale g so that its Euclidean norm is at most maxnorm; returns the norm
 * before scaling. */
double sb_nn_clip_grad(struct sb_nn *nn, double maxnorm);

/* Row-wise softmax of z (rows x k) into p. If mask is not NULL, entries
 * with mask[r * k + j] == 0 get probability 0 (every row needs one allowed
 * entry). p may alias z. */
void sb_nn_softmax(const double *z, double *p, int rows, int k,
		   const unsigned char *mask);
/* Given p = softmax(z) and dL/dp, write dL/dz = p * (dL/dp - <p, dL/dp>)
 * (masked entries have p = 0 and get 0). dz may alias dp. */
void sb_nn_softmax_backward(const double *p, const double *dp, double *dz,
			    int rows, int k);
/* Mean over rows of 0.5 * |y - t|^2; writes dL/dy to dy (may be NULL). */
double sb_nn_mse(const double *y, const double *t, double *dy, int rows, int k);
/* Mean over rows of -log softmax(z)[label]; writes dL/dz to dz (may be
 * NULL). Labels are in [0, k). */
double sb_nn_xent(const double *z, const int *label, double *dz, int rows, int k);

/* Optimisers over a parameter vector (a net's w and g, or any other). */
enum sb_nn_opt_kind { SB_NN_ADAM = 0, SB_NN_SGD = 1 };
struct sb_nn_opt {
	enum sb_nn_opt_kind kind;
	double lr;
	double beta1, beta2, eps; /* Adam (defaults 0.9, 0.999, 1e-8) */
	double momentum;          /* SGD (0 = plain SGD) */
	long t;                   /* steps taken */
	size_t n;
	double *m, *v;            /* moments (Adam), velocity (SGD: m), owned */
};
/* Adam with the usual defaults, or SGD with the given momentum. Returns 0,
 * or SB_EXIT_RUN if out of memory. Released with sb_nn_opt_release. */
int sb_nn_adam_init(struct sb_nn_opt *o, size_t n, double lr);
int sb_nn_sgd_init(struct sb_nn_opt *o, size_t n, double lr, double momentum);
/* One descent step: w -= update(g). */
void sb_nn_opt_step(struct sb_nn_opt *o, double *w, const double *g);
void sb_nn_opt_release(struct sb_nn_opt *o);

/* Global-norm clipping over several nets' gradients at once (one norm for
 * the whole parameter set, as one optimiser sees it); returns the norm
 * before scaling. */
double sb_nn_clip_grads(struct sb_nn *const *nets, int n, double maxnorm);

/* ------------------------------------------------------ graph pieces
 *
 * Message passing on a fixed graph given in CSR form: list v (0 <= v <
 * nout) holds the input rows idx[ptr[v] .. ptr[v + 1]). The same form
 * serves neighbour lists (nout = number of nodes) and pooling groups
 * (nout = number of groups, e.g. the GPUs of each server). Sums run over
 * a list in its stored order, so results are bit-identical for a graph.
 */

/* Undirected CSR adjacency of a forest given by parent[v] (-1 for roots)
 * over n nodes: neighbours of v are its parent first, then its children
 * in increasing order. *ptr (n + 1) and *idx (2 (n - roots)) are
 * allocated, owned by the caller (sb_free). Returns 0, or SB_EXIT_INPUT if
 * a parent is out of range or the parents form a cycle (err names the
 * node). */
int sb_nn_csr_from_parents(const int *parent, int n, int **ptr, int **idx,
			   struct sb_err *err);

/* out[v] = mean of h[idx[ptr[v] ..]] (rows of width d); an empty list
 * gives a zero row. */
void sb_nn_csr_mean(const int *ptr, const int *idx, int nout, const double *h, int d,
		    double *out);
/* Adds dL/dh for dL/dout of sb_nn_csr_mean into dh (the caller zeroes it). */
void sb_nn_csr_mean_backward(const int *ptr, const int *idx, int nout, const double *dout,
			     int d, double *dh);
/* out[v][c] = max of h[u][c] over the list (0 for an empty list); arg[v *
 * d + c] gets the winning row u (the first maximal one; -1 if empty). */
void sb_nn_csr_max(const int *ptr, const int *idx, int nout, const double *h, int d,
		   double *out, int *arg);
/* Adds dL/dh for dL/dout of sb_nn_csr_max: each output's gradient goes to
 * its winning row (the subgradient a max is differentiable with almost
 * everywhere). */
void sb_nn_csr_max_backward(const int *arg, int nout, const double *dout, int d, double *dh);
/* Readout [mean || max] per list: out is nout x 2d; arg as in csr_max
 * (nout x d). */
void sb_nn_readout(const int *ptr, const int *idx, int nout, const double *h, int d,
		   double *out, int *arg);
void sb_nn_readout_backward(const int *ptr, const int *idx, const int *arg, int nout,
			    const double *dout, int d, double *dh);

/* One message-passing round h' = ReLU(W_s h + W_n mean(h_nbrs) + b): a
 * dense ReLU layer over [h || mean(h_nbrs)], so W_s is the first din rows
 * of its input-major weight matrix and W_n the next din. The weights do
 * not depend on the number of nodes: the same layer runs on any graph. */
struct sb_gnn {
	struct sb_nn *lin;       /* 2 din -> dout, ReLU; owned (weights and gradient) */
	int din, dout;
	int cap;                 /* rows of the workspace */
	double *x, *dx;          /* [h || mean] and its gradient, cap x 2 din, owned */
	double *dm;              /* mean, then its gradient, cap x din, owned */
	const int *ptr, *idx;    /* the graph of the last forward pass (caller's) */
	int n;                   /* its number of nodes */
};
/* Returns NULL with err filled on a bad width or out of memory. Owner: the
 * caller (sb_gnn_free). */
struct sb_gnn *sb_gnn_new(int din, int dout, struct sb_err *err);
/* The same round with activation act instead of ReLU (SB_NN_LINEAR for an
 * output layer that produces logits, as GraphSAGE's last layer does).
 *
 * Sampled blocks (GraphSAGE mini-batches, DGL's to_block): when the n
 * destination nodes are the first n rows of a larger input h (nsrc rows)
 * and the lists index into all nsrc rows, forward and backward work
 * unchanged; dh then needs nsrc rows. */
struct sb_gnn *sb_gnn_new_act(int din, int dout, enum sb_nn_act act, struct sb_err *err);
void sb_gnn_free(struct sb_gnn *g);
/* He-uniform weights from stream r, as sb_nn_init. */
void sb_gnn_init(struct sb_gnn *g, struct sb_rng *r);
/* h is n x din; returns n x dout, valid until the next forward pass. The
 * graph arrays must stay alive until sb_gnn_backward. */
const double *sb_gnn_forward(struct sb_gnn *g, const int *ptr, const int *idx, int n,
			     const double *h);
/* dL/dh' (n x dout) of the last forward pass: adds dL/dweights to
 * g->lin->g and, if dh is not NULL, adds dL/dh (n x din) into dh. */
void sb_gnn_backward(struct sb_gnn *g, const double *dout, double *dh);

#endif
