/*
 * cache.h - the cache family: GNN mini-batch sampling over a graph and the
 * GPU feature caches that serve the sampled input nodes (BGL, Liu et al.,
 * "BGL: GPU-Efficient GNN Training by Optimizing Graph Data I/O and
 * Preprocessing", NSDI 2023; spec ../shared/papers/bgl.md).
 *
 * The model, with the provenance of each part:
 *  - P machines x k GPUs; GPUs are grouped by NVLink switch, at most
 *    SB_CACHE_NVLINK_GROUP = 4 per group [V, code: NUM_WORKER_PER_NVLINK in
 *    BGL's src/rpc/multi_gpu_tensor_cache_engine.cc].
 *  - Sharded caches [V, code, same file]: in a group of kg GPUs node v may
 *    only be cached on GPU owner(v) = v mod kg of that group; a request from
 *    another GPU of the group is served over NVLink. Replicated policies
 *    (PaGraph-like [V, code: zhiqi-0/PaGraph]) give every GPU its own copy.
 *  - Per mini-batch [V, code]: the input nodes are unique; every lookup of
 *    the batch happens first, then the misses are admitted in request
 *    order. A lookup is a hit on the requesting GPU (local), a hit on a
 *    peer GPU of the group (NVLink), or a miss served from host memory of
 *    the own machine (host) or of another machine (remote).
 *  - Trainers take consecutive batches of their machine round-robin over
 *    its k GPUs (spec §9.4 [O]); the machine of a node is part[v], v mod P
 *    without a partition (the partitioners of spec §6 plug in there).
 *  - The sampler is node-wise uniform with replacement with per-layer
 *    fan-outs [V, code: BGL's GraphSAGE scripts, DGL 0.5 NeighborSampler];
 *    the frontier of hop l+1 is every distinct node reached so far (DGL's
 *    to_block puts the destination nodes first among the sources).
 *  - The time cost model (spec §9.5 [O]) is a stated model with public
 *    hardware constants, every constant a parameter stored in the results.
 *
 * Offline optima (§10 [O]): Belady's MIN per owner GPU for the batched
 * model (with and without bypass), checked against a GLPK ILP on tiny
 * traces, and the optimal static content (top-C by access count).
 */
#ifndef SB_CACHE_H
#define SB_CACHE_H

#include "cache/graph.h"
#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

#define SB_CACHE_MAX_LAYERS 8
#define SB_CACHE_MAX_MACHINES 64
#define SB_CACHE_MAX_GPUS 64
#define SB_CACHE_NVLINK_GROUP 4

/* ------------------------------------------------------------------ */
/* Training nodes and their order                                      */
/* ------------------------------------------------------------------ */

/* A uniform random training set: each node independently with
 * probability frac (spec §9.1: about 8%, ogbn-products' ratio), at least
 * one node; sorted ids into a new array (owned by the caller), count in
 * *ntrain. */
int32_t *sb_cache_train_uniform(const struct sb_cache_graph *g, double frac, uint64_t seed,
				int32_t *ntrain);

/* An order of the training nodes: every baselines/cache/ and
 * algorithms/<paper>/ file with this role ends with one
 * `const struct sb_cache_order sb_cache_order_<name>`. Called once per
 * epoch; the simulator checks that the result is a permutation. */
struct sb_cache_order {
	const char *name;
	const char *cite;
	const char *desc;
	const char *provenance;
	const struct sb_param *params;
	/* Write a permutation of train[0..ntrain) into out. May draw from
	 * rng only (a fresh stream per epoch). 0 or an exit code with err. */
	int (*order)(const struct sb_cache_graph *g, const int32_t *train, int32_t ntrain,
		     const struct sb_opts *o, struct sb_rng *rng, int32_t *out,
		     struct sb_err *err);
};
SB_REGISTERED(sb_cache_order);
const struct sb_cache_order *const *sb_cache_orders(int *n);
const struct sb_cache_order *sb_cache_order_find(const char *name);
const char *sb_cache_order_file(const struct sb_cache_order *p);

/* ------------------------------------------------------------------ */
/* Sampler and traces                                                  */
/* ------------------------------------------------------------------ */

struct sb_cache_sampler {
	int nlayers;
	int fanout[SB_CACHE_MAX_LAYERS];   /* hop 1 (from the seeds) first */
	int batch;                         /* seeds per mini-batch */
};

/* "5,10,15" into s (fan-outs >= 1, at most SB_CACHE_MAX_LAYERS, each at
 * most 1000): 0 or SB_EXIT_INPUT with err naming the fan-out at fault. */
int sb_cache_fanouts_parse(const char *text, struct sb_cache_sampler *s, struct sb_err *err);
/* "5,10,15" */
void sb_cache_fanouts_format(const struct sb_cache_sampler *s, char *buf, size_t len);

/* One mini-batch of a trace. */
struct sb_cache_batch {
	int32_t epoch, machine, gpu;   /* trained by GPU gpu (0..k-1) of machine */
	int32_t nseeds;
	int64_t first, count;          /* its input nodes: trace req[first .. first+count) */
	int64_t sampled_edges;         /* neighbour draws of all hops */
	int64_t remote_sample_nodes;   /* frontier nodes expanded on another machine */
	int32_t remote_sample_msgs;    /* (hop, remote machine) pairs with such nodes */
	int32_t hop_dst[SB_CACHE_MAX_LAYERS];    /* frontier size of each hop */
	int64_t hop_edges[SB_CACHE_MAX_LAYERS];  /* draws of each hop */
};

/* The feature requests of a run: every batch's distinct input nodes
 * (seeds first, then in order of discovery), batches in processing order. */
struct sb_cache_trace {
	int64_t nreq;
	int32_t *req;                  /* owned */
	int32_t nbatch;
	struct sb_cache_batch *b;      /* owned */
	int64_t sampled_edges;
};
void sb_cache_trace_release(struct sb_cache_trace *t);

/* Everything a run is defined by (the caller owns the arrays). */
struct sb_cache_setup {
	const struct sb_cache_graph *g;
	int P, k;                      /* machines, GPUs per machine */
	const int32_t *part;           /* machine of each node, or NULL: v mod P */
	int64_t capacity;              /* cache slots (nodes) per GPU, <= |V| */
	struct sb_cache_sampler smp;
	const int32_t *train;          /* training nodes, distinct */
	int32_t ntrain;
	int epochs;
	uint64_t seed;
	const struct sb_cache_order *order;
	const struct sb_opts *order_opts;
};
/* Validate a setup: sizes in range, a cache no larger than the graph,
 * training ids valid. 0 or SB_EXIT_INPUT with err. */
int sb_cache_setup_check(const struct sb_cache_setup *s, struct sb_err *err);

/* Sample the trace of s: per epoch one order (checked: a permutation of
 * the training set), each machine's training nodes in that order cut into
 * batches, batch j of a machine on its GPU j mod k, rounds interleaved
 * over machines. Batch streams are keyed by (seed, epoch, machine, batch),
 * so traces do not depend on anything else. first_epoch numbers the
 * epochs (the pre-sampling epoch of static policies is -1). */
int sb_cache_trace_build(const struct sb_cache_setup *s, int first_epoch, int epochs,
			 struct sb_cache_trace *t, struct sb_err *err);

/* One batch, for tests and the bench: the distinct input nodes of seeds
 * into out (room for g->n), their count returned; per-hop counts in b.
 * seen is a zeroed bitmap of (n + 63) / 64 words, zeroed again on return. */
int64_t sb_cache_sample_batch(const struct sb_cache_graph *g, const struct sb_cache_sampler *s,
			      const int32_t *seeds, int32_t nseeds, struct sb_rng *rng,
			      uint64_t *seen, int32_t *out, struct sb_cache_batch *b);

/* ------------------------------------------------------------------ */
/* Cache policies                                                      */
/* ------------------------------------------------------------------ */

/* What one cache instance (one GPU's shard or copy) manages: the nodes it
 * may hold, renumbered to local ids 0..nloc-1 (global id = local * stride
 * + base). */
struct sb_cache_shard {
	int64_t nloc;
	int32_t stride, base;
	int64_t capacity;
	const struct sb_cache_graph *g;
	/* access count of each local id in a separate pre-sampling epoch
	 * (policies with .presample = 1), else NULL */
	const uint32_t *presample;
};

#define SB_CACHE_NO_VICTIM (-1)
#define SB_CACHE_BYPASS (-2)

/* A cache policy: every baselines/cache/ and algorithms/<paper>/ file with
 * this role ends with one `const struct sb_cache_policy
 * sb_cache_policy_<name>`. The simulator owns the loop and calls the hooks
 * per shard; the checker replays what they report. */
struct sb_cache_policy {
	const char *name;
	const char *cite;
	const char *desc;
	const char *provenance;        /* "verified: ...", "reconstructed" or "ours" */
	const struct sb_param *params;
	int replicated;                /* 1: each GPU its own copy; 0: sharded v mod kg */
	int presample;                 /* 1: needs shard->presample */
	double meta_ns;                /* cost model: metadata ns per request (§9.5) */
	/* Once per shard: allocate the state into *ctx. 0 or an exit code. */
	int (*init)(const struct sb_cache_shard *sh, const struct sb_opts *o, void **ctx,
		    struct sb_err *err);
	/* Static content before the first request: write at most capacity
	 * local ids into out, return their count. NULL: starts empty. */
	int64_t (*contents)(void *ctx, int32_t *out);
	/* Lookup of local id v: 1 hit, 0 miss. May update metadata. */
	int (*lookup)(void *ctx, int32_t v);
	/* After all lookups of a batch, once per miss in request order:
	 * admit v and return the local id evicted for it, SB_CACHE_NO_VICTIM,
	 * or SB_CACHE_BYPASS when v is not admitted. NULL: never admits. */
	int32_t (*insert)(void *ctx, int32_t v);
	/* Metadata operations so far (list moves, heap steps, hand steps). */
	int64_t (*meta_ops)(void *ctx);
	void (*release)(void *ctx);
};
SB_REGISTERED(sb_cache_policy);
const struct sb_cache_policy *const *sb_cache_policies(int *n);
const struct sb_cache_policy *sb_cache_policy_find(const char *name);
const char *sb_cache_policy_file(const struct sb_cache_policy *p);

/* ------------------------------------------------------------------ */
/* Cost model (spec bgl.md §9.5 [O]; every constant stored in results)  */
/* ------------------------------------------------------------------ */

struct sb_cache_cost {
	double pcie_gbs;      /* host -> GPU, GB/s (PCIe 3.0 x16 effective: 12) */
	double nvlink_gbs;    /* peer GPU -> GPU, GB/s (V100 NVLink aggregate: 150) */
	double net_gbs;       /* per machine, shared by its k GPUs (100 Gb/s: 12.5) */
	double rtt_us;        /* per remote RPC (20) */
	double edge_ns;       /* per sampled edge (50) */
	double meta_ns;       /* per request; < 0: the policy's own default */
	double gpu_tflops;    /* 14 */
	int feat_dim;         /* feature row = 4 * feat_dim bytes (100: ogbn-products) */
	int hidden;           /* GraphSAGE hidden width (256) */
	int classes;          /* output width (47) */
};
void sb_cache_cost_defaults(struct sb_cache_cost *c);
/* The parameter table of the cost model (names as in struct sb_cache_cost)
 * and reading one back from resolved options. */
extern const struct sb_param sb_cache_cost_params[];
void sb_cache_cost_from_opts(struct sb_cache_cost *c, const struct sb_opts *o);

/* ------------------------------------------------------------------ */
/* Simulator, checker, optima                                          */
/* ------------------------------------------------------------------ */

struct sb_cache_stats {
	int64_t requests, hit_local, hit_peer, miss_host, miss_remote;
	int64_t inserts, evictions, bypasses, meta_ops;
	int64_t sampled_edges, remote_sample_nodes, remote_sample_msgs;
	int64_t remote_feat_msgs;
	/* modelled times, mean per epoch, seconds: the epoch time is the
	 * slowest GPU's sum of per-batch max(stage times); the stage columns
	 * are that GPU's sums of each stage */
	double t_epoch, t_sample, t_feat, t_h2d, t_compute;
};
static inline int64_t sb_cache_hits(const struct sb_cache_stats *s)
{
	return s->hit_local + s->hit_peer;
}

/* Replay trace t of setup s through policy p (options o): shards set up,
 * hooks called per batch, every event passed to the independent checker
 * (check = 1; the bench replays with check = 0 to time the policy alone),
 * stats and modelled times into st. A run the checker rejects is an
 * SB_EXIT_RUN error, never a result. */
int sb_cache_run(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		 const struct sb_cache_policy *p, const struct sb_opts *o,
		 const struct sb_cache_cost *cost, int check, struct sb_cache_stats *st,
		 struct sb_err *err);

/* Per-GPU counts of a replay, summed over all its epochs, for models that
 * price shared resources per machine (stage isolation, iso.c). */
struct sb_cache_gpu_counts {
	int64_t batches, requests, hit_peer, miss_host, miss_remote;
	int64_t remote_feat_msgs, sampled_edges, remote_sample_msgs;
	double flops;                  /* forward FLOPs, sb_cache_batch_flops */
};
/* sb_cache_run, with the counts of GPU w of machine m into gpu[m * k + w]
 * (P * k entries, zeroed first) when gpu is not NULL. */
int sb_cache_run_gpus(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		      const struct sb_cache_policy *p, const struct sb_opts *o,
		      const struct sb_cache_cost *cost, int check, struct sb_cache_stats *st,
		      struct sb_cache_gpu_counts *gpu, struct sb_err *err);
/* Forward FLOPs of batch b in the cost model's L-layer GraphSAGE [O]:
 * layer l aggregates hop_edges rows of its input width and applies a
 * [2 d_in x d_out] weight to its hop_dst destination nodes. */
double sb_cache_batch_flops(const struct sb_cache_cost *c, int L, const struct sb_cache_batch *b);

/* ------------------------------------------------------------------ */
/* Stage isolation (spec bgl.md §7 and §9.8 [O]; iso.c)                */
/* ------------------------------------------------------------------ */

/* Resources of a machine's preprocessing pipeline. The CPU stages are
 * sampling (edge_ns per sampled edge, core-seconds) and feature gather
 * (the policy's metadata ns per request, plus every missed row copied at
 * copy_gbs per core into the transfer buffer); they run on `cores` cores.
 * Shared (isolate = 0): both stages run on all cores, each slowed by
 * alpha per co-running stage (spec §9.8: alpha = 0.2), so the CPU time is
 * (W_sample + W_gather)(1 + alpha) / cores. Isolated (isolate = 1, BGL):
 * integer core sets c_s + c_g = cores, no interference, chosen to minimise
 * max(W_s / c_s, W_g / c_g) by enumeration. A GPU keeps `inflight`
 * batches in flight [V, code: BGL's MAX_PENDING_SAMPLES = 5; applied to
 * every configuration], so its RPC round trips overlap that many deep. */
struct sb_cache_iso {
	int cores;
	double alpha;
	double copy_gbs;
	int isolate;
	int inflight;     /* batches in flight per GPU: RPC round trips overlap */
};
/* Its parameters, for an experiment's table (read back by iso_from_opts). */
#define SB_CACHE_ISO_PARAMS                                                                     \
	{ "cores", 16, 2, 1024, 1, "CPU cores per machine for the preprocessing stages" },       \
	{ "alpha", 0.2, 0, 10, 0, "shared mode: slowdown per co-running stage (spec 9.8)" },     \
	{ "copy_gbs", 5, 0.01, 1000, 0, "feature gather: GB/s one core copies missed rows at" }, \
	{ "inflight", 5, 1, 1000, 1, "batches in flight per GPU (BGL: MAX_PENDING_SAMPLES = 5)" }
void sb_cache_iso_from_opts(struct sb_cache_iso *iso, const struct sb_opts *o, int isolate);

/* The modelled epoch: every resource's busy time per epoch, the epoch
 * time their maximum (a pipeline with bounded buffers runs at its
 * bottleneck's pace [O]). Per machine: sampling and gather CPU time,
 * network bytes; per GPU: its RPC round trips (inflight deep), host-to-device
 * (PCIe), peer reads (NVLink), compute (3x forward FLOPs); each column the
 * largest over machines or GPUs. Seconds per epoch. */
struct sb_cache_iso_times {
	double t_epoch, t_sample, t_gather, t_net, t_rpc, t_h2d, t_nvlink, t_compute;
	int c_sample, c_gather;        /* cores of the bottleneck machine (isolated) */
};
void sb_cache_iso_price(const struct sb_cache_setup *s, const struct sb_cache_cost *cost,
			double meta_ns, const struct sb_cache_iso *iso,
			const struct sb_cache_gpu_counts *gpu, int epochs,
			struct sb_cache_iso_times *out);

/* The routing of a request: the shard (cache instance) index and local id
 * of node v requested by GPU w of machine m; shards are numbered
 * machine * k + GPU. */
void sb_cache_route(const struct sb_cache_setup *s, int replicated, int32_t m, int32_t w,
		    int32_t v, int32_t *shard, int32_t *local);
/* The node range of shard index sh (nloc, stride, base filled). */
void sb_cache_shard_range(const struct sb_cache_setup *s, int replicated, int32_t sh,
			  struct sb_cache_shard *out);

/* The independent checker: its own copy of every shard's contents, fed the
 * events the policies report. Errors name the shard, the batch and the
 * node; the first one is kept. */
struct sb_cache_checker;
struct sb_cache_checker *sb_cache_checker_new(const struct sb_cache_setup *s, int replicated);
void sb_cache_checker_free(struct sb_cache_checker *c);
/* Static content of shard sh (local ids): at most capacity, no repeats. */
void sb_cache_check_contents(struct sb_cache_checker *c, int32_t sh, const int32_t *loc,
			     int64_t n);
/* Request of global node v by GPU w of machine m in batch b, reported hit
 * or miss: a hit must be present in the owner's copy, a miss absent. */
void sb_cache_check_request(struct sb_cache_checker *c, int32_t b, int32_t m, int32_t w,
			    int32_t v, int hit);
/* Admission of node v (after its miss) with the victim the policy named. */
void sb_cache_check_insert(struct sb_cache_checker *c, int32_t b, int32_t m, int32_t w,
			   int32_t v, int32_t victim_local);
/* End of the run: the checker's own counts against the trace and st (hits
 * <= requests, every request seen, counts equal). 0, or 1 with why. */
int sb_cache_check_finish(struct sb_cache_checker *c, const struct sb_cache_trace *t,
			  const struct sb_cache_stats *st, char *why, size_t len);

/* The requests of shard sh in trace order, as local ids into req[] with
 * their batch indices into bat[] (room for the shard's machine's
 * requests); their number returned. */
int64_t sb_cache_shard_stream(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
			      int replicated, int32_t sh, int32_t *req, int32_t *bat);

/* CPU time of policy p's hooks alone on trace t, in ns per request, for
 * each of reps repetitions into ns[]: every shard's stream routed first,
 * then replayed from an empty cache (lookups, then admissions, per batch)
 * without the checker or the cost model. For the metadata cost figure
 * (F6) and the bench; a measurement, never stored in `points`. Dynamic
 * policies only (no pre-sampling). */
int sb_cache_policy_ns(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		       const struct sb_cache_policy *p, const struct sb_opts *o, int reps,
		       double *ns, struct sb_err *err);

/* Belady's MIN on one shard's stream: req[i] local ids (< nloc), bat[i]
 * the batch of request i (non-decreasing), capacity C; batched semantics
 * as above. mode: SB_CACHE_MIN_BYPASS: a miss need not be admitted (the
 * ILP's optimum; without it every miss is admitted, the best always-admit
 * eviction); SB_CACHE_MIN_WARM: the cache may start with any C nodes for
 * free (the bound that also holds for pre-filled static caches; without
 * it the cache starts empty, as every dynamic policy does). Returns the
 * hits, or -1 when out of memory. */
#define SB_CACHE_MIN_BYPASS 1
#define SB_CACHE_MIN_WARM 2
int64_t sb_cache_belady_stream(const int32_t *req, const int32_t *bat, int64_t n, int64_t nloc,
			       int64_t C, int mode);
/* MIN of every shard of a run (routing of a replicated or sharded
 * policy): total hits into *hits. 0 or SB_EXIT_RUN (memory). */
int sb_cache_belady(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		    int replicated, int mode, int64_t *hits, struct sb_err *err);
/* The bound for policy p on trace t: MIN with bypass on p's routing,
 * warm when p fills its cache before the first request (static
 * policies), cold otherwise. */
int sb_cache_bound(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
		   const struct sb_cache_policy *p, int64_t *hits, struct sb_err *err);
/* The optimal static content of every shard for trace t: top-C of each
 * shard by access count; its hits into *hits. */
int sb_cache_static_opt(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
			int replicated, int64_t *hits, struct sb_err *err);
/* Access counts of every shard's local ids in trace t (per shard arrays
 * of nloc, one allocation owned by the caller: cnt[sh] pointers into it). */
uint32_t **sb_cache_counts(const struct sb_cache_setup *s, const struct sb_cache_trace *t,
			   int replicated);
void sb_cache_counts_free(uint32_t **cnt);
/* The C largest of key[0..n) (ties: smaller index first) into out; their
 * number (min(C, n)) returned. For static contents. */
int64_t sb_cache_top(const uint64_t *key, int64_t n, int64_t C, int32_t *out);

/* The caching ILP of spec §10.1 on one tiny stream (GLPK, node limit):
 * x[v,t] in {0,1} after batch t, sum_v x[v,t] <= C, x[v,t] <= x[v,t-1] +
 * [v requested in t], hits = sum over requests (v, t) of x[v,t-1]; the
 * content before the first batch is empty, or any C nodes when warm. The
 * optimum into *hits (its status into *status: enum sb_lp_status). */
int sb_cache_ilp(const int32_t *req, const int32_t *bat, int64_t n, int64_t nloc, int64_t C,
		 int warm, long node_limit, int64_t *hits, int *status, struct sb_err *err);

/* `sb eval cache ...` (family.c) and the family's entry in the table. */
int sb_cache_eval(int argc, char **argv);
extern const struct sb_family sb_family_cache;
/* The family's `sb adversary` hook (adversary.c). */
struct sb_adversary;
extern const struct sb_adversary sb_cache_adversary;
/* The graph, training set (room for the hook's n nodes) and setup the
 * hook's context (its open) codes by gene, for the tests. Owner: g
 * (sb_cache_graph_release, also on error). 0 or an exit code with err. */
int sb_cache_adversary_decode(void *ctx, const int *gene, struct sb_cache_graph *g,
			      int32_t *train, struct sb_cache_setup *s, struct sb_err *err);

#endif
