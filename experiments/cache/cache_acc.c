/*
 * cache_acc.c - F3 of spec bgl.md §11 (the accuracy check of §9.6): test
 * accuracy per epoch of a 2-layer GraphSAGE-mean (core/cache/sage.h)
 * whose mini-batches are cut from the training nodes in uniform random
 * order (shuffle) or in BGL's proximity-aware order PO-K (dedup) with K =
 * 1, 4, 16. The question is whether ordering for cache locality costs
 * accuracy: the paper argues K BFS sequences keep accuracy close to random
 * order [M], the spec expects PO-K with K >= 4 close to random and K = 1
 * possibly behind.
 *
 * Graphs: a labelled SBM with synthetic features (features.h [O]) always,
 * and Cora with its real features and classes when DATA_DIR holds both
 * cora/cora.cites and cora/cora.content. Splits [O]: a seeded random
 * permutation of the nodes per replicate; its first train_frac are the
 * training nodes, its last test_frac the test nodes. Every order of a
 * replicate starts from the same weights and split; the order's stream is
 * keyed per (replicate, epoch), batch sampling per (replicate, epoch,
 * batch). Everything single-threaded and seeded: the points are
 * bit-identical for a seed whatever --jobs.
 */
#include "common.h"
#include "cache/sage.h"

#include "workloads/cache/features.h"
#include "workloads/cache/graphs.h"

#include <stdio.h>
#include <string.h>

static const int Ks[] = { 0, 1, 4, 16 };   /* 0: shuffle */
#define NK 4

static const struct sb_param params[] = {
	{ "graphs", 3, 1, 3, 1, "bit mask: 1 Cora (when cora.content is supplied), 2 labelled SBM" },
	{ "sbm_nodes", 4096, 64, 1e6, 1, "SBM: nodes" },
	{ "sbm_blocks", 8, 2, 256, 1, "SBM: communities = classes" },
	{ "sbm_degree", 10, 1, 1000, 0, "SBM: mean degree" },
	{ "sbm_mix", 0.5, 0, 1, 0, "SBM: fraction of edges between communities" },
	{ "feat_dim", 32, 1, 4096, 1, "SBM: feature dimension" },
	{ "signal", 0.3, 0, 100, 0, "SBM: class-mean scale against unit noise" },
	{ "train_frac", 0.3, 0.01, 0.9, 0, "training nodes (first part of a seeded permutation)" },
	{ "test_frac", 0.3, 0.01, 0.9, 0, "test nodes (last part of the same permutation)" },
	{ "batch", 64, 1, 100000, 1, "seeds per mini-batch" },
	{ "fan1", 10, 1, 1000, 1, "fan-out of hop 1 (spec §9.6: 10,25)" },
	{ "fan2", 25, 1, 1000, 1, "fan-out of hop 2" },
	{ "hidden", 64, 1, 4096, 1, "hidden width" },
	{ "lr", 0.01, 1e-6, 1, 0, "Adam learning rate" },
	{ "epochs", 20, 1, 1000, 1, "epochs (BGL's scripts: 20)" },
	{ "seeds", 5, 1, 100, 1, "replicates (weights, split and streams)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "graph", SB_COL_STR, "" },
	{ "order", SB_COL_STR, "shuffle or po-K" },
	{ "K", SB_COL_INT, "PO passes (0: shuffle)" },
	{ "replicate", SB_COL_INT, "" },
	{ "epoch", SB_COL_INT, "1-based" },
	{ "final", SB_COL_INT, "1 on the last epoch" },
	{ "train_loss", SB_COL_DBL, "mean cross-entropy of the epoch's batches" },
	{ "test_acc", SB_COL_DBL, "fraction of test nodes (full neighbourhoods)" },
	{ NULL, 0, NULL },
};

struct state {
	int n;
	struct sb_cache_graph g[2];
	struct sb_cache_feats f[2];
	const char *label[2];
};

static void teardown(struct sb_exp_ctx *c)
{
	struct state *st = c->state;
	int i;
	if (!st)
		return;
	for (i = 0; i < 2; i++) {
		sb_cache_graph_release(&st->g[i]);
		sb_cache_feats_release(&st->f[i]);
	}
	sb_free(st);
	c->state = NULL;
}

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *st = SB_NEW(struct state, 1);
	int mask = (int)sb_opts_get(&c->opts, "graphs"), rc = 0;
	char pc[1024], pf[1024];
	const char *cites = sb_exp_data(c, "cora/cora.cites", pc, sizeof pc);
	const char *content = sb_exp_data(c, "cora/cora.content", pf, sizeof pf);
	size_t w = 0;

	c->state = st;
	c->inputs_note[0] = '\0';
	if ((mask & 1) && cites && content) {
		if ((rc = sb_exp_add_input(c, cites, err)) || (rc = sb_exp_add_input(c, content, err)) ||
		    (rc = sb_cache_load_edgelist(&st->g[st->n], "cora", cites, err)) ||
		    (rc = sb_cache_load_cora_content(&st->f[st->n], &st->g[st->n], content, err)))
			goto out;
		st->label[st->n++] = "cora";
		w += (size_t)snprintf(c->inputs_note, sizeof c->inputs_note,
				      "real: cora.cites and cora.content (%d papers, %d words, %d "
				      "classes); ", st->g[0].n, st->f[0].dim, st->f[0].nclass);
	} else if (mask & 1) {
		w += (size_t)snprintf(c->inputs_note, sizeof c->inputs_note,
				      "cora skipped: %s not in DATA_DIR; ",
				      cites ? "cora/cora.content" : "cora/cora.cites");
	}
	if (mask & 2) {
		int32_t n = (int32_t)sb_opts_get(&c->opts, "sbm_nodes");
		int32_t blocks = (int32_t)sb_opts_get(&c->opts, "sbm_blocks");
		if ((rc = sb_cache_gen_sbm(&st->g[st->n], n, blocks, sb_opts_get(&c->opts, "sbm_degree"),
					   sb_opts_get(&c->opts, "sbm_mix"), c->seed, err)) ||
		    (rc = sb_cache_feats_synthetic(&st->f[st->n], &st->g[st->n],
						   (int)sb_opts_get(&c->opts, "feat_dim"),
						   sb_opts_get(&c->opts, "signal"), c->seed, err)))
			goto out;
		st->label[st->n++] = "sbm";
		snprintf(c->inputs_note + w, sizeof c->inputs_note - w,
			 "generated: labelled SBM %d nodes, %d classes, synthetic features", n, blocks);
	}
	if (!st->n)
		rc = sb_err_set(err, SB_EXIT_INPUT, "cache_acc: no graph: graphs=1 needs "
				"cora/cora.cites and cora/cora.content in DATA_DIR");
	c->npoints = st->n * NK * (int)sb_opts_get(&c->opts, "seeds");
out:
	if (rc)
		teardown(c);
	return rc;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	const struct state *st = c->state;
	int nseeds = (int)sb_opts_get(&c->opts, "seeds");
	int gi = point / (NK * nseeds), K = Ks[point / nseeds % NK], rep = point % nseeds;
	const struct sb_cache_graph *g = &st->g[gi];
	const struct sb_cache_feats *f = &st->f[gi];
	int B = (int)sb_opts_get(&c->opts, "batch"), epochs = (int)sb_opts_get(&c->opts, "epochs");
	int fan[2] = { (int)sb_opts_get(&c->opts, "fan1"), (int)sb_opts_get(&c->opts, "fan2") };
	int32_t n = g->n, ntrain = (int32_t)(sb_opts_get(&c->opts, "train_frac") * n);
	int32_t ntest = (int32_t)(sb_opts_get(&c->opts, "test_frac") * n);
	int32_t *perm = SB_NEW(int32_t, n), *ord = NULL, i;
	const struct sb_cache_order *order = sb_cache_order_find(K ? "po" : "shuffle");
	struct sb_rng r = sb_rng_stream(c->seed, 0, (uint64_t)rep,
					SB_RNG_INSTANCE ^ sb_hash_str("cache-acc-split"));
	struct sb_cache_sage m;
	struct sb_cache_block b;
	struct sb_opts oo;
	char name[16];
	int rc = 0, e;

	memset(&m, 0, sizeof m);
	memset(&b, 0, sizeof b);
	if (ntrain < 1 || ntest < 1 || ntrain + ntest > n) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "cache_acc: train_frac and test_frac give %d "
				"training and %d test nodes of %d: expected at least one of each and "
				"no overlap", ntrain, ntest, n);
		goto out;
	}
	sb_opts_defaults(&oo, order->params);
	if (K) {
		char kv[16];
		snprintf(kv, sizeof kv, "k=%d", K);
		if ((rc = sb_opts_set(&oo, order->params, kv, "order", err)))
			goto out;
		snprintf(name, sizeof name, "po-%d", K);
	} else {
		snprintf(name, sizeof name, "shuffle");
	}
	/* one split and one initial model per replicate, whatever the order */
	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		int32_t j = (int32_t)sb_rng_below(&r, (uint32_t)i + 1), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	{
		struct sb_rng wr = sb_rng_stream(c->seed, 0, (uint64_t)rep,
						 SB_RNG_POLICY ^ sb_hash_str("cache-acc-init"));
		if ((rc = sb_cache_sage_init(&m, f->dim, (int)sb_opts_get(&c->opts, "hidden"), f->nclass,
					     sb_opts_get(&c->opts, "lr"), &wr, err)))
			goto out;
	}
	sb_cache_block_init(&b, g);
	ord = SB_NEW(int32_t, ntrain);
	for (e = 1; e <= epochs && !rc; e++) {
		struct sb_rng orng = sb_rng_stream(c->seed, (uint64_t)e, (uint64_t)rep,
						   SB_RNG_POLICY ^ sb_hash_str(order->name));
		double loss = 0;
		int32_t lo, nb = 0;
		size_t row;
		if ((rc = order->order(g, perm, ntrain, &oo, &orng, ord, err)))
			break;
		for (lo = 0; lo < ntrain; lo += B, nb++) {
			struct sb_rng brng = sb_rng_stream(c->seed, (uint64_t)e,
							   (uint64_t)rep << 32 | (uint32_t)nb,
							   SB_RNG_INSTANCE ^ sb_hash_str("cache-acc-sample"));
			int cnt = ntrain - lo < B ? (int)(ntrain - lo) : B;
			sb_cache_block_sample(&b, g, fan, ord + lo, cnt, &brng);
			loss += sb_cache_sage_step(&m, &b, f);
		}
		row = sb_table_add(out);
		sb_table_set_str(out, row, "graph", st->label[gi]);
		sb_table_set_str(out, row, "order", name);
		sb_table_set_int(out, row, "K", K);
		sb_table_set_int(out, row, "replicate", rep);
		sb_table_set_int(out, row, "epoch", e);
		sb_table_set_int(out, row, "final", e == epochs);
		sb_table_set_dbl(out, row, "train_loss", loss / nb);
		sb_table_set_dbl(out, row, "test_acc",
				 sb_cache_sage_accuracy(&m, g, f, perm + (n - ntest), ntest));
	}
out:
	sb_cache_sage_release(&m);
	if (b.pos)
		sb_cache_block_release(&b);
	sb_free(perm);
	sb_free(ord);
	return rc;
}

const struct sb_experiment sb_experiment_cache_acc = {
	.name = "cache_acc",
	.desc = "F3: GraphSAGE test accuracy per epoch, random order vs PO-1/4/16 (labelled SBM; Cora with cora.content)",
	.figure = "bgl-F3",
	.family = "cache",
	.params = params,
	.quick_set = "sbm_nodes=2048 epochs=8 seeds=2",
	.cols = cols,
	.summary_by = "graph order epoch",
	.summary_of = "test_acc train_loss",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
