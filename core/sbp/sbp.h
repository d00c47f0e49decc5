/*
 * sbp.h - the sbp family: OneFlow's SBP tensor layouts (split, broadcast,
 * partial value) over 1-D and 2-D device hierarchies, the per-op signature
 * tables, the boxing cost between two layouts, layer graphs with explicit
 * backward ops, plans (one signature per op plus the boxing ops they
 * imply), the independent legality checker, the GLPK assignment ILP and
 * the planner interface (spec ../shared/papers/oneflow.md).
 *
 * Provenance. Verified from OneFlow's public code (Oneflow-Inc/oneflow):
 * the S/B/P definitions and the nd signature list as a Cartesian product
 * (Operator::GetNdSbpSignatureList), the auto-added all-B signature, the
 * signature tables of matmul, add, mul, div, unary nonlinear ops, softmax,
 * layer_norm, bias_add and variables (oneflow/user/ops, one file per op), and the
 * boxing cost in bytes (sbp_infer_util.cpp, ComputCopyCostBetweenTwoSbpParallel,
 * ComputCopyCostBetweenTwoNdSbp). Reconstructed (ours, [O]): the
 * signatures of the head reshapes, of the backward ops other than the
 * matmuls (gelu/softmax/layer_norm gradients, the loss, the optimizer
 * update) and of the loop edge that ties a weight to its update; the
 * compute cost of ops other than matmul; the alpha-beta time model; the
 * memory model. Units: bytes and FLOPs (per device).
 */
#ifndef SB_SBP_H
#define SB_SBP_H

#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

#include <stdint.h>

/* ------------------------------------------------------------------ */
/* SBP, nd-SBP, placements                                             */
/* ------------------------------------------------------------------ */

enum sb_sbp_kind { SB_SBP_S = 0, SB_SBP_B = 1, SB_SBP_P = 2 };

/* One hierarchy axis: S(axis), B or P (axis 0 unless S). */
struct sb_sbp {
	signed char kind, axis;
};

#define SB_SBP_MAXDIM 2    /* hierarchy axes */
#define SB_SBP_MAXRANK 4   /* tensor axes */
#define SB_SBP_MAXIN 3     /* op inputs */

/* One SBP per hierarchy axis (only the first ndim used). */
struct sb_sbp_nd {
	struct sb_sbp d[SB_SBP_MAXDIM];
};

/* A placement: p devices as a hierarchy h[0] x ... x h[ndim-1]. */
struct sb_sbp_place {
	int ndim;
	int h[SB_SBP_MAXDIM];
	int p;
};

/* "2", "8", "2x4": p devices (1-D) or a 2-D hierarchy; checks that the
 * product is p when p > 0. 0 or SB_EXIT_INPUT naming `what`. */
int sb_sbp_place_parse(struct sb_sbp_place *pl, const char *s, int p, const char *what,
		       struct sb_err *err);
void sb_sbp_place_1d(struct sb_sbp_place *pl, int p);

/* "S(0)", "B", "P"; nd: "(S(0), B)" */
const char *sb_sbp_str(struct sb_sbp s, char *buf, size_t len);
const char *sb_sbp_nd_str(const struct sb_sbp_nd *s, int ndim, char *buf, size_t len);
int sb_sbp_nd_eq(const struct sb_sbp_nd *a, const struct sb_sbp_nd *b, int ndim);

/* ------------------------------------------------------------------ */
/* Boxing cost (§4) and its alpha-beta time                            */
/* ------------------------------------------------------------------ */

/* What to charge for a consumer that wants P from a producer that is not
 * P (env ONEFLOW_PENALTY_FOR_PARTIAL_IN_CONSUMER_POLICY): 1 -> 1 byte,
 * 2 (OneFlow's default) -> 4 |T| (p_prod + p_cons), 3 -> unsupported. */
#define SB_SBP_PENALTY_DEFAULT 2
/* The cost of an unsupported transfer: larger than any real plan, and a
 * plan that needs one is never legal. */
#define SB_SBP_INF 1e30

/* 1-D boxing cost in bytes moved over all devices, tensor of `bytes`,
 * producer on p1 devices, consumer on p2, same placement when same = 1
 * (then p1 = p2). ComputCopyCostBetweenTwoSbpParallel [V, code]. */
double sb_sbp_box_1d(struct sb_sbp from, struct sb_sbp to, double bytes, int p1, int p2,
		     int same, int penalty);
/* nd boxing on one placement: 0 when equal; when the two agree on one
 * hierarchy axis, the 1-D cost on the other, |T| times the shared axis's
 * size when that axis is not S [V, code]; otherwise the cheapest two-step
 * path through one intermediate that agrees with both on one axis (the
 * boxing collector) [V, code]. */
double sb_sbp_box(const struct sb_sbp_nd *from, const struct sb_sbp_nd *to, double bytes,
		  const struct sb_sbp_place *pl, int penalty);

/* The alpha-beta ring time of the same boxing [O] (no overlap): seconds. */
struct sb_sbp_net {
	double alpha;    /* seconds per message step */
	double beta;     /* bytes per second per link */
};
double sb_sbp_box_time(const struct sb_sbp_nd *from, const struct sb_sbp_nd *to, double bytes,
		       const struct sb_sbp_place *pl, const struct sb_sbp_net *net);
/* The collective a 1-D boxing is ("all-reduce", "all-gather", ...). */
const char *sb_sbp_collective(struct sb_sbp from, struct sb_sbp to);

/* ------------------------------------------------------------------ */
/* Ops, signatures, graphs                                             */
/* ------------------------------------------------------------------ */

enum sb_sbp_opkind {
	SB_OP_INPUT = 0,     /* data loader: S(i) or B, never P */
	SB_OP_VARIABLE,      /* a weight; with an update, its loop input */
	SB_OP_MATMUL,        /* [batch..] A[m,k] B[k,n] (ta/tb transpose) */
	SB_OP_ADD,           /* n-ary add (add_n) */
	SB_OP_MUL,
	SB_OP_DIV,
	SB_OP_RELU,
	SB_OP_GELU,
	SB_OP_SOFTMAX,       /* over the last axis */
	SB_OP_LAYER_NORM,    /* over the last axis, no affine parameters */
	SB_OP_BIAS_ADD,      /* a + b broadcast along `axis` */
	SB_OP_SPLIT_HEADS,   /* [b*s, c*h] -> [b, heads, s, dh] (slice c of c) */
	SB_OP_MERGE_HEADS,   /* [b, heads, s, dh] x n -> [b*s, n*h] */
	SB_OP_GELU_GRAD,     /* (dy, x) -> dx */
	SB_OP_SOFTMAX_GRAD,  /* (y, dy) -> dx */
	SB_OP_LN_GRAD,       /* (dy, x) -> dx */
	SB_OP_LOSS,          /* y -> dy (elementwise loss gradient) */
	SB_OP_UPDATE,        /* (w, dw) -> w' (optimizer, elementwise) */
	SB_OP_NKIND
};

/* The name used in graph files ("matmul", "gelu_grad"); NULL if k is out
 * of range. sb_sbp_opkind_find returns -1 for an unknown name. */
const char *sb_sbp_opkind_name(int k);
int sb_sbp_opkind_find(const char *name);

/* Role of a variable, for the fixed strategies (Megatron's column and
 * row parallel weights). */
enum sb_sbp_role { SB_ROLE_NONE = 0, SB_ROLE_COL = 1, SB_ROLE_ROW = 2, SB_ROLE_DATA = 3 };

/* One signature of an op on a placement: the nd-SBP of every input and of
 * the output, and what it costs. */
struct sb_sbp_sig {
	struct sb_sbp_nd in[SB_SBP_MAXIN];
	struct sb_sbp_nd out;
	double flops;        /* per device */
	double mem;          /* bytes per device the op keeps (output, and
	                        the optimizer state of a variable) */
};

struct sb_sbp_op {
	char name[40];
	int kind;            /* enum sb_sbp_opkind */
	int nin;
	int in[SB_SBP_MAXIN];   /* producer ops */
	int loop;            /* variable: 1 when in[0] is its update (a loop
	                        edge: the next iteration's weights) */
	int rank;
	int64_t dim[SB_SBP_MAXRANK];  /* output shape (elements) */
	int nb, ta, tb;      /* matmul: batch axes, transposed A, B */
	int axis;            /* bias_add: broadcast axis; split_heads: slice */
	int heads;           /* split/merge heads: number of heads; split:
	                        number of slices c */
	int role;            /* enum sb_sbp_role */
	int layer;           /* block index (-1: none), for reports */
	int line;            /* line of a graph file (0: generated), for errors */
	/* filled by sb_sbp_graph_finish: */
	int nsig;
	struct sb_sbp_sig *sig;
	int nall;            /* signatures before shape filtering */
};

/* An edge: the output of op u read by op v as input `slot`. */
struct sb_sbp_edge {
	int u, v, slot;
	int loop;            /* the weight's loop edge (update -> variable) */
	double bytes;        /* |T| */
};

/* A layer graph on one placement. Owned; sb_sbp_graph_release. */
struct sb_sbp_graph {
	char name[64];
	int nop, cap;
	struct sb_sbp_op *op;
	struct sb_sbp_place pl;
	int penalty;         /* any -> P policy */
	double cost_ratio;   /* objective weight of one FLOP against one byte */
	double state_factor; /* bytes of optimizer state per weight byte */
	double elem_bytes;   /* bytes per element (4: fp32) */
	/* filled by sb_sbp_graph_finish: */
	int nedge;
	struct sb_sbp_edge *edge;
	int *topo;           /* ops in topological order (loop edges ignored) */
	int *adj_off, *adj;  /* incident edges of op o (either end):
	                        adj[adj_off[o] .. adj_off[o+1]) */
	int finished;
	int bad_op;          /* the op finish rejected, or -1 */
};

void sb_sbp_graph_init(struct sb_sbp_graph *g, const char *name);
void sb_sbp_graph_release(struct sb_sbp_graph *g);
/* Append an op (inputs: producer ids, fewer than the op's own id unless
 * it is a variable's loop input set later); returns its id. Shapes are
 * checked by sb_sbp_graph_finish, not here. */
int sb_sbp_add(struct sb_sbp_graph *g, const char *name, int kind, int nin, const int *in,
	       int rank, const int64_t *dim);
/* Check every op (kinds, input counts, shapes of inputs against the op's
 * rule, the output shape it implies) and generate the signature lists of
 * placement pl. 0 or SB_EXIT_INPUT naming the op and the field. */
int sb_sbp_graph_finish(struct sb_sbp_graph *g, const struct sb_sbp_place *pl,
			struct sb_err *err);
/* Bytes of op o's output tensor. */
double sb_sbp_out_bytes(const struct sb_sbp_graph *g, int o);
/* The nd signature list of op o on g->pl: the op's 1-D table (§3) with
 * the all-B signature added, as a Cartesian product over the hierarchy
 * axes, duplicates removed, and the shape filter applied (a split tensor
 * axis holds at least one element per device of the axes splitting it).
 * Writes at most max entries; returns the count; *nall (may be NULL) gets
 * the count before the shape filter. Used by finish and, to regenerate
 * the lists it compares against, by the checker. */
#define SB_SBP_MAXSIG 576
int sb_sbp_sigs_nd(const struct sb_sbp_graph *g, int o, struct sb_sbp_sig *out, int max,
		   int *nall);

/* Boxing cost of edge e when u uses signature su and v uses sv. */
double sb_sbp_edge_cost(const struct sb_sbp_graph *g, int e, int su, int sv);
/* Node cost (cost_ratio x FLOPs) of op o under signature s. */
double sb_sbp_node_cost(const struct sb_sbp_graph *g, int o, int s);

/* ------------------------------------------------------------------ */
/* Plans and the legality checker                                      */
/* ------------------------------------------------------------------ */

struct sb_sbp_boxing {
	int edge;
	struct sb_sbp_nd from, to;
	double bytes;        /* cost in bytes */
	double seconds;      /* alpha-beta time */
};

/* A plan: one signature per op and the boxing ops it needs. Owned;
 * sb_sbp_plan_release. */
struct sb_sbp_plan {
	int nop;
	int *sig;            /* index into op->sig[] */
	int nbox;
	struct sb_sbp_boxing *box;
	double cost;         /* objective: sum of node and edge costs */
	double bytes;        /* boxing bytes */
	double comm_s;       /* alpha-beta time of the boxing, no overlap */
	double flops;        /* per device, all ops */
	double mem;          /* bytes per device */
	double tp_frac;      /* share of the weight bytes whose forward matmul
	                        reads them split (tensor parallel) */
	char strategy[24];   /* what the weights do: data-parallel, tensor-
	                        parallel, zero, replicated, mixed */
};

void sb_sbp_plan_release(struct sb_sbp_plan *p);
/* Fill the boxing ops and the metrics of a plan whose sig[] is set. */
void sb_sbp_plan_finish(const struct sb_sbp_graph *g, struct sb_sbp_plan *p,
			const struct sb_sbp_net *net);
/* Objective of an assignment sig[] (nodes and edges). */
double sb_sbp_assign_cost(const struct sb_sbp_graph *g, const int *sig);
/*
 * The independent checker: each op's SBPs are one of the signatures its
 * table lists for the placement (regenerated, compared by value), every
 * edge whose producer's output differs from what the consumer reads has
 * exactly one boxing op converting exactly that pair at a supported cost
 * recomputed here, no edge without a mismatch has one, and the plan's
 * bytes and cost match. 0, or -1 with the first violation in why.
 */
int sb_sbp_check(const struct sb_sbp_graph *g, const struct sb_sbp_plan *p, char *why,
		 size_t len);

/* ------------------------------------------------------------------ */
/* Planners                                                            */
/* ------------------------------------------------------------------ */

struct sb_sbp_planner {
	const char *name;        /* = file name = CLI name */
	const char *cite;
	const char *desc;
	const char *provenance;  /* "verified: ...", "OneFlow repository
	                            algorithm", "ours" */
	const struct sb_param *params;
	/* 1: only exact and defined on graphs whose undirected skeleton is a
	 * tree (chains included); the harness does not run it elsewhere. */
	int trees_only;
	/* Choose sig[o] for every op (indices into g->op[o].sig). Returns 0,
	 * SB_EXIT_INPUT (graph outside its domain) or SB_EXIT_RUN with err. */
	int (*plan)(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		    struct sb_err *err);
};
SB_REGISTERED(sb_sbp_planner);

const struct sb_sbp_planner *const *sb_sbp_planners(int *n);
const struct sb_sbp_planner *sb_sbp_planner_find(const char *name);
const char *sb_sbp_planner_file(const struct sb_sbp_planner *p);

/* Run planner pl on g, then the checker; a rejected plan is SB_EXIT_RUN,
 * never a result. Owner: plan. */
int sb_sbp_run(const struct sb_sbp_graph *g, const struct sb_sbp_planner *pl,
	       const struct sb_opts *o, const struct sb_sbp_net *net, struct sb_sbp_plan *plan,
	       struct sb_err *err);
/* A plan from an assignment sig[] (copied): its boxing ops and metrics,
 * then the checker. 0 or SB_EXIT_RUN with err. Owner: plan. */
int sb_sbp_plan_from(const struct sb_sbp_graph *g, const int *sig, const char *who,
		     const struct sb_sbp_net *net, struct sb_sbp_plan *plan, struct sb_err *err);
/* Is the undirected skeleton of g (loop edges included) a forest? */
int sb_sbp_is_tree(const struct sb_sbp_graph *g);

/*
 * Greedy completion shared by the OneFlow-style inference and the fixed
 * strategies: ops in topological order, each takes the allowed signature
 * of least node cost plus boxing from its decided producers (and to its
 * decided loop consumers); an undecided source (input or variable) is
 * decided by its first consumer, taking its cheapest SBP for that
 * consumer. allow[o] (NULL: all) is a bitmask-free predicate: allow(g, o,
 * s, ctx) != 0 when op o may use signature s. Writes sig[].
 */
typedef int (*sb_sbp_allow_fn)(const struct sb_sbp_graph *g, int o, int s, const void *ctx);
int sb_sbp_greedy(const struct sb_sbp_graph *g, sb_sbp_allow_fn allow, const void *ctx,
		  int *sig, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* The assignment ILP (§9, ilp.c)                                      */
/* ------------------------------------------------------------------ */

struct sb_sbp_ilp_opts {
	long node_limit;     /* deterministic limit (> 0) */
	double time_limit;   /* safety net only, seconds */
	double mem;          /* per-device memory row; <= 0: none */
	const int *start;    /* a feasible assignment offered first, or NULL */
};

struct sb_sbp_ilp_result {
	int status;          /* enum sb_lp_status */
	int stopped;         /* enum sb_lp_stop */
	double obj, bound, gap, seconds;
	long nodes;
	int ncols, nrows;
};

/* Solve; writes the incumbent into sig (when there is one). 0 or
 * SB_EXIT_RUN with err. */
int sb_sbp_ilp(const struct sb_sbp_graph *g, const struct sb_sbp_ilp_opts *io, int *sig,
	       struct sb_sbp_ilp_result *res, struct sb_err *err);

/* `sb eval sbp ...` (eval.c) and the family's entry in the table. */
int sb_sbp_eval(int argc, char **argv);
extern const struct sb_family sb_family_sbp;
/* The family's `sb adversary` hook (adversary.c). */
struct sb_adversary;
extern const struct sb_adversary sb_sbp_adversary;

#endif
