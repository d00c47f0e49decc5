/*
 * part.h - the cache family's partitioner role: which machine stores each
 * node of the graph (its topology row and its feature row), the
 * independent partition checker, the partition metrics of spec bgl.md §11
 * and the GLPK partition ILP of §10.3 on tiny graphs.
 *
 * Why a role of its own: BGL's claim about partitions (§6) is about the
 * traffic the *sampler* causes (multi-hop expansions on another machine,
 * remote feature rows), not about edge cut alone, so every partitioner is
 * measured on both, with one checker in front of every metric.
 *
 * The sampling-traffic metrics here are exact expectations [O]: a seed s
 * on machine q expands, at hop h, each node u an expected
 *     f_h(s,u) = F_h * W^h(s,u),   F_0 = 1, F_h = fanout_1 * ... * fanout_h
 * times, W the uniform random-walk transition (node-wise sampling with
 * replacement, as the sampler of cache.h), counted without the per-batch
 * deduplication (the "tree" model: an upper bound of the deduplicated
 * count, linear in the partition, hence the ILP's objective B). An
 * expansion of u at hop h < L on a machine that holds no copy of u is one
 * remote sampling request; a node reached at hop h <= L that the seed's
 * machine holds no copy of is one remote feature row.
 */
#ifndef SB_CACHE_PART_H
#define SB_CACHE_PART_H

#include "cache/cache.h"
#include "cache/graph.h"
#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

#include <stdint.h>

/* copies[] is a bitmask per node, so a partition has at most 64 parts. */
#define SB_CACHE_PART_MAX 64

/* What a partitioner produces (arrays owned by the caller of the hook). */
struct sb_cache_part {
	int P;
	int32_t *part;      /* home machine of each node, 0..P-1 */
	uint64_t *copies;   /* bit p: machine p stores node v (home included);
	                       NULL unless the partitioner replicates */
	double eps;         /* node balance the partitioner promises for this
	                       run: max_p |V_p| <= ceil((1+eps)|V|/P); < 0:
	                       none promised (balance reported, not checked) */
};
void sb_cache_part_release(struct sb_cache_part *pt);

/* A partitioner: every baselines/cache/ and algorithms/<paper>/ file with
 * this role ends with one `const struct sb_cache_partitioner
 * sb_cache_partitioner_<name>`. */
struct sb_cache_partitioner {
	const char *name;              /* = file name = CLI name */
	const char *cite;
	const char *desc;
	const char *provenance;        /* "verified: ...", "reconstructed" or "ours" */
	const struct sb_param *params; /* NULL-terminated, or NULL */
	int replicates;                /* 1: fills pt->copies (allocated zeroed) */
	/* Once per run: fill pt->part[0..g->n) (and pt->copies when
	 * replicates), may set pt->eps (starts at -1). train[v] = 1 marks a
	 * training node. May draw from rng only. 0 or an exit code with err. */
	int (*partition)(const struct sb_cache_graph *g, const uint8_t *train,
			 const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_part *pt,
			 struct sb_err *err);
};
SB_REGISTERED(sb_cache_partitioner);
const struct sb_cache_partitioner *const *sb_cache_partitioners(int *n);
const struct sb_cache_partitioner *sb_cache_partitioner_find(const char *name);
const char *sb_cache_partitioner_file(const struct sb_cache_partitioner *p);

struct sb_cache_part_metrics {
	int P;
	int64_t cut_edges;             /* undirected edges with ends on two machines */
	double cut_frac;               /* cut_edges / m */
	int64_t max_nodes, max_edges, max_train;   /* largest machine (edges: CSR rows) */
	double bal_nodes, bal_edges, bal_train;    /* max / average, >= 1 */
	double repl;                   /* stored node copies / |V| (1 without copies) */
	/* expected per epoch (every training node a seed once), tree model */
	double expand, remote_expand;  /* expansions at hops < L; of those remote */
	double rows, remote_rows;      /* input rows at hops <= L; of those remote */
};

/* Run partitioner p (options o) on g with P machines, check the result
 * with the independent checker and compute its metrics (m may be NULL).
 * A partition the checker rejects is an SB_EXIT_RUN error, never a
 * result. pt is filled (release with sb_cache_part_release). */
int sb_cache_part_run(const struct sb_cache_graph *g, const uint8_t *train, int P,
		      const struct sb_cache_partitioner *p, const struct sb_opts *o,
		      struct sb_rng *rng, const struct sb_cache_sampler *fan, struct sb_cache_part *pt,
		      struct sb_cache_part_metrics *m, struct sb_err *err);

/* The metrics of pt (fan: the fan-outs of the sampler, or NULL: no traffic metrics). */
void sb_cache_part_metrics(const struct sb_cache_graph *g, const uint8_t *train,
			   const struct sb_cache_part *pt, const struct sb_cache_sampler *fan,
			   struct sb_cache_part_metrics *m);

/* One hop of the expected counts: y[w] = fanout * sum over neighbours u
 * of w of x[u] / deg(u) (n doubles each; a node without neighbours
 * passes nothing on, as the sampler draws nothing from it). */
void sb_cache_walk_step(const struct sb_cache_graph *g, int fanout, const double *x, double *y);

/* The independent checker (partcheck.c): every node on exactly one home
 * machine in range, copies (if any) include the home and no machine >= P,
 * node balance within pt->eps when it promises one, and the reported
 * counts of m (cut, per-machine maxima, copies) recomputed from the edges.
 * 0, or 1 with why[] filled. */
int sb_cache_part_check(const struct sb_cache_graph *g, const uint8_t *train,
			const struct sb_cache_part *pt, const struct sb_cache_part_metrics *m,
			char *why, size_t len);

/* Node capacity of a machine under balance eps: ceil((1+eps) n / P). */
int64_t sb_cache_part_cap(int64_t n, int P, double eps);

/* ------------------------------------------------------------------ */
/* Partition ILP on tiny graphs (partilp.c, spec §10.3 [O])            */
/* ------------------------------------------------------------------ */

enum sb_cache_part_obj {
	SB_CACHE_PART_CUT = 0,       /* objective A: edges cut */
	SB_CACHE_PART_TRAFFIC = 1,   /* objective B: expected remote expansions */
};

struct sb_cache_part_ilp {
	int status;        /* enum sb_lp_status */
	int stopped;       /* enum sb_lp_stop */
	double obj;        /* incumbent (the optimum when status is optimal) */
	double bound;      /* proven lower bound on the optimum */
	long nodes;
	int32_t *part;     /* the incumbent's home machines (owned) or NULL */
};
void sb_cache_part_ilp_release(struct sb_cache_part_ilp *r);

/* Minimise objective obj over partitions of g (n <= 40, P <= 4) with at
 * most sb_cache_part_cap(n, P, eps) nodes and sb_cache_part_cap(ntrain, P,
 * eps) training nodes per machine; GLPK stops after node_limit
 * branch-and-bound nodes (deterministic). warm (or NULL) is offered as the
 * first incumbent. 0, SB_EXIT_INPUT (instance too large), or SB_EXIT_RUN. */
int sb_cache_part_ilp(const struct sb_cache_graph *g, const uint8_t *train, int P, double eps,
		      int obj, const struct sb_cache_sampler *fan, long node_limit,
		      const int32_t *warm, struct sb_cache_part_ilp *r, struct sb_err *err);
/* Whether pt satisfies the ILP's balance rows (so the ILP optimum bounds
 * it): 1 or 0. */
int sb_cache_part_ilp_feasible(const struct sb_cache_graph *g, const uint8_t *train,
			       const int32_t *part, int P, double eps);
/* The expected expansions f[s*n + u] of seed s at node u over hops < L
 * (tree model above), for every training node s (rows of other nodes 0);
 * n*n doubles owned by the caller, or NULL when out of memory. */
double *sb_cache_part_expansions(const struct sb_cache_graph *g, const uint8_t *train,
				 const struct sb_cache_sampler *fan);

#endif
