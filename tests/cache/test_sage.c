/*
 * test_sage.c - the cache family's accuracy check (core/cache/sage.c,
 * workloads/cache/features.c): the 2-layer GraphSAGE-mean's gradient on a
 * sampled block against Richardson central differences (every parameter
 * of both layers, relative error <= 1e-6), the block sampler's structure
 * (seeds first, destination prefixes, fan-out draws that are real
 * neighbours), bit-identical training for a seed, that training on an
 * easy labelled SBM beats chance by far, and the cora.content loader on
 * small written files with each of its bad inputs (exit 2, line and
 * field named).
 */
#include "tests/testutil.h"

#include <math.h>

#include "cache/sage.h"
#include "workloads/cache/features.h"
#include "workloads/cache/graphs.h"

static double relerr(double a, double b)
{
	double d = fabs(a - b), s = fmax(fabs(a), fabs(b));
	return s < 1e-7 ? d / 1e-7 : d / s;
}

static void small_sbm(struct sb_cache_graph *g, struct sb_cache_feats *f, int32_t n, int blocks,
		      double deg, double mix, int dim, double signal, uint64_t seed)
{
	struct sb_err err;
	cr_assert_eq(sb_cache_gen_sbm(g, n, blocks, deg, mix, seed, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cache_feats_synthetic(f, g, dim, signal, seed, &err), 0, "%s", err.msg);
}

static double loss_at(struct sb_cache_sage *m, const struct sb_cache_block *b,
		      const struct sb_cache_feats *f)
{
	sb_cache_sage_forward(m, b, f);
	return sb_cache_sage_loss(m, b, f, 0);
}

Test(cache_sage, gradient_matches_finite_differences)
{
	struct sb_cache_graph g;
	struct sb_cache_feats f;
	struct sb_cache_sage m;
	struct sb_cache_block b;
	struct sb_rng r = sb_rng_stream(7, 0, 0, SB_RNG_TEST);
	int32_t seeds[6] = { 0, 3, 7, 11, 20, 33 };
	int fan[2] = { 3, 4 }, L, checked = 0;
	struct sb_err err;

	small_sbm(&g, &f, 40, 3, 4, 0.3, 5, 1.0, 3);
	cr_assert_eq(sb_cache_sage_init(&m, f.dim, 4, f.nclass, 0.01, &r, &err), 0, "%s", err.msg);
	/* biases away from zero, so that no ReLU input sits on its kink */
	for (L = 0; L < 2; L++) {
		struct sb_nn *lin = L ? m.l2->lin : m.l1->lin;
		size_t i;
		for (i = 0; i < lin->nparams; i++)
			lin->w[i] += 0.05 * (2 * sb_rng_uniform(&r) - 1);
	}
	sb_cache_block_init(&b, &g);
	sb_cache_block_sample(&b, &g, fan, seeds, 6, &r);
	sb_cache_sage_forward(&m, &b, &f);
	sb_cache_sage_loss(&m, &b, &f, 1);
	for (L = 0; L < 2; L++) {
		struct sb_nn *lin = L ? m.l2->lin : m.l1->lin;
		double *grad = sb_xcalloc(lin->nparams, sizeof *grad);
		size_t i;
		memcpy(grad, lin->g, lin->nparams * sizeof *grad);
		for (i = 0; i < lin->nparams; i++) {
			double w0 = lin->w[i], h = 1e-4, d[2];
			int s;
			for (s = 0; s < 2; s++) {
				double hh = s ? h / 2 : h, lp, lm;
				lin->w[i] = w0 + hh;
				lp = loss_at(&m, &b, &f);
				lin->w[i] = w0 - hh;
				lm = loss_at(&m, &b, &f);
				d[s] = (lp - lm) / (2 * hh);
			}
			lin->w[i] = w0;
			cr_assert_leq(relerr(grad[i], (4 * d[1] - d[0]) / 3), 1e-6,
				      "layer %d parameter %zu: backprop %.12g, finite differences %.12g",
				      L + 1, i, grad[i], (4 * d[1] - d[0]) / 3);
			checked++;
		}
		sb_free(grad);
	}
	cr_assert_gt(checked, 50);
	sb_cache_block_release(&b);
	sb_cache_sage_release(&m);
	sb_cache_feats_release(&f);
	sb_cache_graph_release(&g);
}

Test(cache_sage, block_structure)
{
	struct sb_cache_graph g;
	struct sb_cache_feats f;
	struct sb_cache_block b;
	struct sb_rng r = sb_rng_stream(9, 0, 0, SB_RNG_TEST);
	int32_t seeds[5] = { 5, 1, 9, 60, 2 };
	int fan[2] = { 4, 6 }, i, j;
	char *in;

	small_sbm(&g, &f, 100, 4, 5, 0.2, 3, 1.0, 5);
	sb_cache_block_init(&b, &g);
	sb_cache_block_sample(&b, &g, fan, seeds, 5, &r);
	cr_assert_eq(b.nseed, 5);
	cr_assert(b.nseed <= b.n1 && b.n1 <= b.n2 && b.n2 <= g.n);
	for (i = 0; i < 5; i++)
		cr_assert_eq(b.nodes[i], seeds[i], "seeds come first, in order");
	in = calloc((size_t)g.n, 1);
	for (i = 0; i < b.n2; i++) {
		cr_assert(!in[b.nodes[i]], "node %d twice in the block", b.nodes[i]);
		in[b.nodes[i]] = 1;
	}
	for (j = 0; j < 2; j++) {
		const int *ptr = j ? b.ptr1 : b.ptr2, *idx = j ? b.idx1 : b.idx2;
		int nd = j ? b.n1 : b.nseed, ns = j ? b.n2 : b.n1, fo = j ? fan[1] : fan[0];
		for (i = 0; i < nd; i++) {
			int32_t x = b.nodes[i];
			int e, len = ptr[i + 1] - ptr[i];
			cr_assert_eq(len, sb_cache_degree(&g, x) ? fo : 0, "list of %d has %d draws", x, len);
			for (e = ptr[i]; e < ptr[i + 1]; e++) {
				int64_t a;
				int found = 0;
				cr_assert(idx[e] >= 0 && idx[e] < ns);
				for (a = g.off[x]; a < g.off[x + 1]; a++)
					found |= g.adj[a] == b.nodes[idx[e]];
				cr_assert(found, "draw %d of node %d is not a neighbour", e, x);
			}
		}
	}
	for (i = 0; i < g.n; i++)
		cr_assert_eq(b.pos[i], -1, "the position map is reset after a block");
	free(in);
	sb_cache_block_release(&b);
	sb_cache_feats_release(&f);
	sb_cache_graph_release(&g);
}

/* train epochs on the first ntrain nodes in id order; the weights of both
 * layers into w (room for both), test accuracy on the rest returned */
static double train(const struct sb_cache_graph *g, const struct sb_cache_feats *f, int epochs,
		    uint64_t seed, double *w, size_t *nw)
{
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);
	struct sb_cache_sage m;
	struct sb_cache_block b;
	int32_t ntrain = g->n / 2, *nodes = malloc(sizeof *nodes * (size_t)g->n), i, lo;
	int fan[2] = { 5, 5 }, e;
	struct sb_err err;
	double acc;

	for (i = 0; i < g->n; i++)
		nodes[i] = i;
	cr_assert_eq(sb_cache_sage_init(&m, f->dim, 16, f->nclass, 0.01, &r, &err), 0);
	sb_cache_block_init(&b, g);
	for (e = 0; e < epochs; e++)
		for (lo = 0; lo < ntrain; lo += 32) {
			sb_cache_block_sample(&b, g, fan, nodes + lo, ntrain - lo < 32 ? ntrain - lo : 32, &r);
			sb_cache_sage_step(&m, &b, f);
		}
	acc = sb_cache_sage_accuracy(&m, g, f, nodes + ntrain, g->n - ntrain);
	if (w) {
		memcpy(w, m.l1->lin->w, m.l1->lin->nparams * sizeof *w);
		memcpy(w + m.l1->lin->nparams, m.l2->lin->w, m.l2->lin->nparams * sizeof *w);
		*nw = m.l1->lin->nparams + m.l2->lin->nparams;
	}
	sb_cache_block_release(&b);
	sb_cache_sage_release(&m);
	free(nodes);
	return acc;
}

Test(cache_sage, training_is_bit_identical_and_learns)
{
	struct sb_cache_graph g;
	struct sb_cache_feats f;
	double *w1 = calloc(20000, sizeof *w1), *w2 = calloc(20000, sizeof *w2), a1, a2;
	size_t n1, n2;

	/* communities that features alone barely separate (signal 0.2) but
	 * neighbourhoods do (mixing 0.1, degree 12) */
	small_sbm(&g, &f, 1000, 4, 12, 0.1, 8, 0.2, 11);
	a1 = train(&g, &f, 6, 1, w1, &n1);
	a2 = train(&g, &f, 6, 1, w2, &n2);
	cr_assert_eq(n1, n2);
	cr_assert_eq(memcmp(w1, w2, n1 * sizeof *w1), 0, "same seed, same weights bit for bit");
	cr_assert_eq(a1, a2);
	cr_assert_gt(a1, 0.6, "4 classes (chance 0.25): test accuracy %.3f", a1);
	free(w1);
	free(w2);
	sb_cache_feats_release(&f);
	sb_cache_graph_release(&g);
}

/* ------------------------------------------------------------------ */
/* cora.content                                                        */
/* ------------------------------------------------------------------ */

static const char *cites = "35\t1033\n35\t103482\n1033\t103482\n";

static int load(const char *content, struct sb_cache_feats *f, struct sb_err *err)
{
	struct sb_cache_graph g;
	int rc;
	cr_assert_eq(sb_cache_load_edgelist(&g, "cora", sb_test_write(cites), err), 0, "%s", err->msg);
	rc = sb_cache_load_cora_content(f, &g, sb_test_write(content), err);
	sb_cache_graph_release(&g);
	return rc;
}

Test(cache_sage, cora_content_loads)
{
	struct sb_cache_feats f;
	struct sb_err err;
	/* nodes by increasing paper id: 35 -> 0, 1033 -> 1, 103482 -> 2 */
	cr_assert_eq(load("103482\t0\t1\t1\tTheory\n35\t1\t0\t0\tNeural_Networks\n"
			  "\n1033 0 0 1 Case_Based\n", &f, &err), 0, "%s", err.msg);
	cr_assert_eq(f.n, 3);
	cr_assert_eq(f.dim, 3);
	cr_assert_eq(f.nclass, 3);
	cr_assert_eq(f.label[0], 1, "classes numbered by sorted name");
	cr_assert_eq(f.label[1], 0);
	cr_assert_eq(f.label[2], 2);
	cr_assert_eq(f.x[0], 1.0);
	cr_assert_eq(f.x[1 * 3 + 2], 1.0);
	cr_assert_eq(f.x[2 * 3 + 0], 0.0);
	cr_assert_eq(f.x[2 * 3 + 1], 1.0);
	sb_cache_feats_release(&f);
}

static void bad(const char *content, const char *want)
{
	struct sb_cache_feats f;
	struct sb_err err;
	cr_assert_eq(load(content, &f, &err), SB_EXIT_INPUT, "accepted: %s", content);
	cr_assert_not_null(strstr(err.msg, want), "message '%s' lacks '%s'", err.msg, want);
	cr_assert_null(f.x);
	cr_assert_null(f.label);
}

Test(cache_sage, cora_content_bad_inputs)
{
	bad("35 1 0 A\n1033 1 B\n103482 0 0 A\n", "line 2: field 'word 2'");
	bad("35 1 0 A\n1033 1 1 0 B\n103482 0 0 A\n", "line 2: field 'word 3'");
	bad("35 1 0 A\n1033 1 x B\n103482 0 0 A\n", "line 2: field 'word 2'");
	bad("35 1 0 A\n1033 1 0 B\n77 0 0 A\n", "line 3: field 'paper': paper 77 is not a node");
	bad("35 1 0 A\n35 1 0 B\n103482 0 0 A\n", "line 2: field 'paper': paper 35 listed twice");
	bad("p35 1 0 A\n", "line 1: field 'paper'");
	bad("35 1 0 A\n1033 1 0 B\n", "no line for paper 103482");
	bad("35 A\n", "line 1: field 'class'");
	bad("\n\n", "empty");
	bad("35 1 nan A\n", "field 'word 2'");
}

Test(cache_sage, features_need_labels)
{
	struct sb_cache_graph g;
	struct sb_cache_feats f;
	struct sb_err err;
	cr_assert_eq(sb_cache_gen_rmat(&g, 6, 4, 0.57, 0.19, 0.19, 1, &err), 0);
	cr_assert_eq(sb_cache_feats_synthetic(&f, &g, 4, 1, 1, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "no labels"), "%s", err.msg);
	sb_cache_graph_release(&g);
}
