/*
 * common.h - what the cache family's experiments share: the graphs they
 * run on (Cora when DATA_DIR has it, else a labelled SBM of Cora's size;
 * R-MAT; SBM), the setup every point starts from, and the rows written for
 * one replay (experiments/cache/common.c).
 */
#ifndef SB_EXPERIMENTS_CACHE_COMMON_H
#define SB_EXPERIMENTS_CACHE_COMMON_H

#include "cache/cache.h"
#include "exp.h"

enum { SB_CACHE_G_CORA, SB_CACHE_G_RMAT, SB_CACHE_G_SBM, SB_CACHE_G_N };

/* The experiments' graphs, loaded or generated once in setup. */
struct sb_cache_graphs {
	int n;
	struct sb_cache_graph g[SB_CACHE_G_N];
	const char *label[SB_CACHE_G_N];   /* "cora", "cora-sbm" (fallback), "rmat-16", ... */
	char buf[SB_CACHE_G_N][48];
};

/* Parameters every cache experiment takes (append to its own table with
 * SB_CACHE_EXP_PARAMS). */
#define SB_CACHE_EXP_PARAMS                                                                       \
	{ "rmat_scale", 16, 6, 22, 1, "R-MAT graph: 2^scale nodes, edge factor 16" },             \
	{ "sbm_nodes", 65536, 512, 4e6, 1, "SBM graph: nodes (256 blocks, mean degree 25)" },     \
	{ "graphs", 7, 1, 7, 1, "bit mask of graphs: 1 Cora, 2 R-MAT, 4 SBM" },                   \
	{ "layers", 3, 2, 3, 1, "3: fan-outs 5,10,15 (BGL's scripts); 2: 10,25 (spec §9.3)" },    \
	{ "batches", 100, 2, 10000, 1, "batches per epoch (batch = training nodes / batches)" },  \
	{ "train_frac", 0.08, 0.001, 1, 0, "training nodes, uniform (ogbn-products: 8%)" },      \
	{ "epochs", 3, 1, 100, 1, "epochs replayed (caches stay warm across epochs)" }

/* Load Cora (registering its sha256) or its fallback, and generate the
 * R-MAT and SBM graphs the parameters name; the note for the results. */
int sb_cache_exp_graphs(struct sb_exp_ctx *c, struct sb_cache_graphs *gs, struct sb_err *err);
void sb_cache_exp_graphs_free(struct sb_cache_graphs *gs);

/* An experiment's setup and teardown: the graphs into c->state and
 * per_graph points for each. */
int sb_cache_exp_load(struct sb_exp_ctx *c, int per_graph, struct sb_err *err);
void sb_cache_exp_teardown(struct sb_exp_ctx *c);

/* A setup for graph g from the shared parameters (train owned by the
 * caller, freed with sb_free). */
void sb_cache_exp_setup(const struct sb_exp_ctx *c, const struct sb_cache_graph *g, int P,
			int k, double total_frac, struct sb_cache_setup *s, int32_t **train);

/* The partitioner experiments' parameter: BGL's initial seed probability
 * (GMiner's p0 = 1e-4 is sized for graphs of 10^8 nodes, 10^4 seeds; on
 * 10^3..10^5 nodes it draws no seed until p is about 1/|V|, and that one
 * seed then colours its whole component: one block no machine can hold).
 * The value keeps cells small [O]; BGL's other parameters keep their
 * released defaults. */
#define SB_CACHE_EXP_BGL_P0(def) \
	{ "bgl_p0", def, 1e-9, 1, 0, "initial seed probability of BGL's block partitioner here" }

/*
 * `--set` for the parameters of partitioners and orders [O]: an experiment
 * declares "<prefix>_<param>", prefix the policy's name up to its first
 * '-' (bgl-released and bgl-paper share "bgl"), default -1 for "the
 * policy's own default"; every declared value other than -1 is applied to
 * the policy's options, whose table checks its range (a bad value fails
 * at setup, exit 2, naming the key). bgl_p0 above is one of them with an
 * experiment default of its own.
 */
#define SB_CACHE_EXP_PART_PARAMS                                                                 \
	{ "bgl_eps", -1, -1, 1e9, 0, "BGL partitioner: capacity slack eps (-1: its default)" },    \
	{ "bgl_factor", -1, -1, 1e9, 0, "BGL partitioner: seed probability growth (-1: default)" }, \
	{ "bgl_stop_ratio", -1, -1, 1e9, 0, "BGL partitioner: stop ratio (-1: default)" },         \
	{ "bgl_max_rate", -1, -1, 1e9, 0, "BGL partitioner: largest seed probability (-1: default)" }, \
	{ "bgl_max_hop", -1, -1, 2e9, 0, "BGL partitioner: supersteps per round (-1: default)" },  \
	{ "bgl_max_vcsize", -1, -1, 2e9, 0, "BGL partitioner: largest cell (-1: default)" },       \
	{ "bgl_intdiv", -1, -1, 1e9, 0, "BGL partitioner: 1 integer load factor (-1: default)" },  \
	{ "ldg_eps", -1, -1, 1e9, 0, "LDG: node balance eps (-1: its default)" },                  \
	{ "ldg_idorder", -1, -1, 1e9, 0, "LDG: 1 streams in id order (-1: its default)" },         \
	{ "metis_ub", -1, -1, 1e9, 0, "METIS: imbalance tolerance ubvec (-1: its default)" },      \
	{ "pagraph_hops", -1, -1, 1e9, 0, "PaGraph: replicated hops L (-1: its default)" }
#define SB_CACHE_EXP_ORDER_PARAMS \
	{ "po_k", -1, -1, 1e9, 0, "PO-K: BFS passes K (-1: the order's default)" }

struct sb_cache_partitioner;
/* Partitioner p's defaults into o, with the experiment's values for its
 * parameters (above). 0 or SB_EXIT_INPUT. */
int sb_cache_exp_part_opts(const struct sb_exp_ctx *c, const struct sb_cache_partitioner *p,
			   struct sb_opts *o, struct sb_err *err);
/* The same for order p. */
int sb_cache_exp_order_opts(const struct sb_exp_ctx *c, const struct sb_cache_order *p,
			    struct sb_opts *o, struct sb_err *err);
/* Apply the experiment's values to every registered partitioner and order
 * once, so that a bad --set fails at setup (called by sb_cache_exp_load). */
int sb_cache_exp_check_policy_opts(const struct sb_exp_ctx *c, struct sb_err *err);

#endif
