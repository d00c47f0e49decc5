/*
 * test_part.c - the cache family's partitioners: every registered
 * partitioner through the checker on seeded SBM and R-MAT graphs
 * (determinism, promised balance), the checker rejecting broken
 * partitions, the metrics on a hand-computed graph, the BGL blocks
 * covering every node, and the GLPK partition ILP below every
 * non-replicating heuristic whose partition it admits (objectives A and
 * B), with objective B equal to the metric it linearises.
 */
#include "tests/testutil.h"

#include "cache/part.h"
#include "algorithms/bgl/bpart.h"
#include "workloads/cache/graphs.h"

static uint8_t *mask_every(int32_t n, int k)
{
	uint8_t *m = calloc((size_t)n, 1);
	int32_t v;
	for (v = 0; v < n; v += k)
		m[v] = 1;
	return m;
}

static void run(const struct sb_cache_graph *g, const uint8_t *train, int P,
		const struct sb_cache_partitioner *p, uint64_t seed, struct sb_cache_part *pt,
		struct sb_cache_part_metrics *m)
{
	struct sb_cache_sampler fan = { 2, { 5, 10 }, 0 };
	struct sb_opts o;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY);
	struct sb_err err = { 0, "" };
	sb_opts_defaults(&o, p->params);
	cr_assert_eq(sb_cache_part_run(g, train, P, p, &o, &r, &fan, pt, m, &err), 0, "%s: %s",
		     p->name, err.msg);
}

Test(cache_part, every_partitioner_checked_and_deterministic)
{
	int n, i, P, s;
	const struct sb_cache_partitioner *const *ps = sb_cache_partitioners(&n);
	cr_assert_geq(n, 7);
	for (s = 0; s < 2; s++) {
		struct sb_cache_graph g;
		struct sb_err err;
		uint8_t *train;
		if (s == 0)
			cr_assert_eq(sb_cache_gen_sbm(&g, 600, 12, 8, 0.1, 7, &err), 0, "%s", err.msg);
		else
			cr_assert_eq(sb_cache_gen_rmat(&g, 10, 8, 0.57, 0.19, 0.19, 3, &err), 0, "%s",
				     err.msg);
		train = mask_every(g.n, 5);
		for (P = 2; P <= 8; P *= 2)
			for (i = 0; i < n; i++) {
				struct sb_cache_part a, b;
				struct sb_cache_part_metrics ma, mb;
				run(&g, train, P, ps[i], 11, &a, &ma);
				run(&g, train, P, ps[i], 11, &b, &mb);
				cr_assert_eq(memcmp(a.part, b.part, sizeof *a.part * (size_t)g.n), 0,
					     "%s not deterministic", ps[i]->name);
				cr_assert_eq(ma.remote_expand, mb.remote_expand);
				cr_assert_geq(ma.bal_nodes, 1.0 - 1e-12);
				cr_assert_leq(ma.remote_expand, ma.expand);
				if (!ps[i]->replicates)
					cr_assert_float_eq(ma.repl, 1.0, 1e-12);
				sb_cache_part_release(&a);
				sb_cache_part_release(&b);
			}
		free(train);
		sb_cache_graph_release(&g);
	}
}

/* A path 0-1-2-3 split {0,1} | {2,3}, seeds 0 and 3, fan-outs (2): the
 * numbers below follow from the tree model by hand. */
Test(cache_part, metrics_by_hand)
{
	int32_t u[] = { 0, 1, 2 }, v[] = { 1, 2, 3 }, part[] = { 0, 0, 1, 1 };
	uint8_t train[] = { 1, 0, 0, 1 };
	struct sb_cache_graph g;
	struct sb_err err;
	struct sb_cache_part pt = { 2, part, NULL, 0 };
	struct sb_cache_sampler fan = { 2, { 2, 2 }, 0 };
	struct sb_cache_part_metrics m;
	char why[200];
	cr_assert_eq(sb_cache_graph_from_arrays(&g, 4, 3, u, v, &err), 0);
	sb_cache_part_metrics(&g, train, &pt, &fan, &m);
	cr_assert_eq(m.cut_edges, 1);
	cr_assert_float_eq(m.cut_frac, 1.0 / 3, 1e-12);
	/* seed 0: hop 0 {0}, hop 1: 2 draws of 1, hop 2: from 1 (deg 2) 4
	 * draws, 2 to 0 and 2 to 2; seed 3 mirrors it. Expansions (hops 0,1):
	 * 2 * (1 + 2) = 6, none remote; rows (hops 0..2): 2 * 7 = 14, remote:
	 * the 2 draws of node 2 from seed 0 and of 1 from seed 3. */
	cr_assert_float_eq(m.expand, 6, 1e-12);
	cr_assert_float_eq(m.remote_expand, 0, 1e-12);
	cr_assert_float_eq(m.rows, 14, 1e-12);
	cr_assert_float_eq(m.remote_rows, 4, 1e-12);
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, &m, why, sizeof why), 0, "%s", why);
	m.cut_edges = 2;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, &m, why, sizeof why), 1);
	cr_assert(strstr(why, "cut edges"), "%s", why);
	sb_cache_graph_release(&g);
}

Test(cache_part, checker_rejects)
{
	int32_t u[] = { 0, 1, 2, 3 }, v[] = { 1, 2, 3, 4 }, part[5];
	uint64_t copies[5];
	uint8_t train[5] = { 0 };
	struct sb_cache_graph g;
	struct sb_err err;
	struct sb_cache_part pt = { 2, part, NULL, -1 };
	char why[200];
	int32_t i;
	cr_assert_eq(sb_cache_graph_from_arrays(&g, 5, 4, u, v, &err), 0);
	for (i = 0; i < 5; i++)
		part[i] = i % 2;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 0, "%s", why);
	part[3] = 2;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 1);
	cr_assert(strstr(why, "node 3"), "%s", why);
	part[3] = -1;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 1);
	/* all on machine 0 breaks a promise of eps = 0.2 (cap 3) */
	for (i = 0; i < 5; i++)
		part[i] = 0;
	pt.eps = 0.2;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 1);
	cr_assert(strstr(why, "cap 3"), "%s", why);
	pt.eps = -1;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 0, "%s", why);
	/* copies must hold the home and stay below P */
	pt.copies = copies;
	for (i = 0; i < 5; i++)
		copies[i] = 1;
	copies[2] = 2;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 1);
	copies[2] = 1 | 4;
	cr_assert_eq(sb_cache_part_check(&g, train, &pt, NULL, why, sizeof why), 1);
	sb_cache_graph_release(&g);
}

Test(cache_part, bad_partition_count)
{
	int32_t u[] = { 0 }, v[] = { 1 };
	uint8_t train[2] = { 1, 0 };
	struct sb_cache_graph g;
	struct sb_err err;
	struct sb_cache_part pt;
	struct sb_opts o;
	struct sb_rng r = sb_rng_stream(1, 0, 0, 0);
	const struct sb_cache_partitioner *p = sb_cache_partitioner_find("hash");
	cr_assert_eq(sb_cache_graph_from_arrays(&g, 2, 1, u, v, &err), 0);
	sb_opts_defaults(&o, p->params);
	cr_assert_eq(sb_cache_part_run(&g, train, 3, p, &o, &r, NULL, &pt, NULL, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "3 machines"), "%s", err.msg);
	cr_assert_eq(sb_cache_part_run(&g, train, 0, p, &o, &r, NULL, &pt, NULL, &err),
		     SB_EXIT_INPUT);
	sb_cache_graph_release(&g);
}

Test(cache_part, bgl_blocks_cover_every_node)
{
	struct sb_cache_graph g;
	struct sb_err err;
	struct sb_opts o;
	struct sb_rng r = sb_rng_stream(5, 0, 0, 0);
	int32_t *blk, nb, v, *seen;
	cr_assert_eq(sb_cache_gen_sbm(&g, 2000, 16, 10, 0.05, 9, &err), 0, "%s", err.msg);
	blk = malloc(sizeof *blk * (size_t)g.n);
	seen = calloc((size_t)g.n, sizeof *seen);
	sb_opts_defaults(&o, sb_bgl_bpart_params);
	nb = sb_bgl_blocks(&g, &o, &r, blk);
	cr_assert_gt(nb, 1);
	for (v = 0; v < g.n; v++) {
		cr_assert(blk[v] >= 0 && blk[v] < nb);
		seen[blk[v]]++;
	}
	for (v = 0; v < nb; v++)
		cr_assert_gt(seen[v], 0, "block %d empty", v);
	free(blk);
	free(seen);
	sb_cache_graph_release(&g);
}

/* Tiny graphs: the ILP optimum (proven) is below every non-replicating
 * heuristic whose partition satisfies its balance rows, for both
 * objectives, and objective B is the remote_expand metric. */
Test(cache_part, ilp_bounds_heuristics, .timeout = 120)
{
	int n, i, t, obj, tested = 0;
	const struct sb_cache_partitioner *const *ps = sb_cache_partitioners(&n);
	struct sb_cache_sampler fan = { 2, { 5, 10 }, 0 };
	for (t = 0; t < 4; t++) {
		struct sb_cache_graph g;
		struct sb_err err;
		uint8_t *train;
		int P = t % 2 ? 3 : 2;
		cr_assert_eq(sb_cache_gen_sbm(&g, 16 + 4 * t, 3, 3, 0.15, 100 + t, &err), 0, "%s",
			     err.msg);
		train = mask_every(g.n, 3);
		for (obj = 0; obj < 2; obj++) {
			struct sb_cache_part_ilp ilp;
			struct sb_cache_part_metrics mi;
			struct sb_cache_part opt;
			cr_assert_eq(sb_cache_part_ilp(&g, train, P, 0.1, obj, &fan, 200000, NULL, &ilp,
						       &err), 0, "%s", err.msg);
			if (ilp.status != 0)
				continue;
			cr_assert_not_null(ilp.part);
			cr_assert(sb_cache_part_ilp_feasible(&g, train, ilp.part, P, 0.1));
			opt = (struct sb_cache_part){ P, ilp.part, NULL, -1 };
			sb_cache_part_metrics(&g, train, &opt, &fan, &mi);
			cr_assert_float_eq(obj ? mi.remote_expand : (double)mi.cut_edges, ilp.obj,
					   1e-6 * (1 + ilp.obj));
			for (i = 0; i < n; i++) {
				struct sb_cache_part pt;
				struct sb_cache_part_metrics m;
				if (ps[i]->replicates)
					continue;
				run(&g, train, P, ps[i], 3, &pt, &m);
				if (sb_cache_part_ilp_feasible(&g, train, pt.part, P, 0.1)) {
					double h = obj ? m.remote_expand : (double)m.cut_edges;
					cr_assert_geq(h, ilp.obj - 1e-6 * (1 + ilp.obj),
						      "%s below the ILP optimum", ps[i]->name);
					tested++;
				}
				sb_cache_part_release(&pt);
			}
			sb_cache_part_ilp_release(&ilp);
		}
		free(train);
		sb_cache_graph_release(&g);
	}
	cr_assert_gt(tested, 10);
}

/* The released integer load factor (intdiv = 1) and the paper variant
 * still give partitions the checker accepts, at every P. */
Test(cache_part, bgl_flag_variants_checked)
{
	const char *names[] = { "bgl-released", "bgl-paper" };
	struct sb_cache_graph g;
	struct sb_err err;
	uint8_t *train;
	int i, P;
	cr_assert_eq(sb_cache_gen_sbm(&g, 3000, 32, 8, 0.1, 12, &err), 0, "%s", err.msg);
	train = mask_every(g.n, 7);
	for (i = 0; i < 2; i++)
		for (P = 2; P <= 8; P *= 2) {
			const struct sb_cache_partitioner *p = sb_cache_partitioner_find(names[i]);
			struct sb_cache_part pt;
			struct sb_cache_part_metrics m;
			struct sb_opts o;
			struct sb_rng r = sb_rng_stream(2, (uint64_t)P, 0, 0);
			sb_opts_defaults(&o, p->params);
			cr_assert_eq(sb_opts_set(&o, p->params, "intdiv=1", "test", &err), 0);
			cr_assert_eq(sb_opts_set(&o, p->params, "p0=0.01", "test", &err), 0);
			cr_assert_eq(sb_cache_part_run(&g, train, P, p, &o, &r, NULL, &pt, &m, &err), 0,
				     "%s P=%d: %s", names[i], P, err.msg);
			cr_assert_lt(m.bal_nodes, 1.5, "%s P=%d: balance %g", names[i], P, m.bal_nodes);
			sb_cache_part_release(&pt);
		}
	free(train);
	sb_cache_graph_release(&g);
}
