/*
 * metis.c - METIS k-way partitioning through Debian's libmetis-dev
 * (G. Karypis, V. Kumar, "A Fast and High Quality Multilevel Scheme for
 * Partitioning Irregular Graphs", SIAM J. Sci. Comput. 1998), as DistDGL
 * uses it: METIS_PartGraphKway with two vertex weights (1, is_train), so
 * both node and training-node counts are balanced (spec bgl.md §8, §9.7
 * [O]). The library does the multilevel work; this file only builds its
 * arguments. METIS's own seed option is set from the run's stream, so the
 * result is deterministic for a seed. METIS balances to within its
 * tolerance but does not promise it, so no eps is promised to the checker:
 * balance is reported.
 */
#include "cache/part.h"

#include <metis.h>

static const struct sb_param params[] = {
	{ "ub", 1.03, 1.001, 2, 0, "METIS load imbalance tolerance per constraint (ubvec)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int partition(const struct sb_cache_graph *g, const uint8_t *train,
		     const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_part *pt,
		     struct sb_err *err)
{
	idx_t n = g->n, ncon = 2, nparts = pt->P, objval = 0, options[METIS_NOPTIONS];
	idx_t *xadj = NULL, *vwgt = NULL;
	real_t ubvec[2];
	int32_t v, ntrain = 0;
	int rc = 0, mr;

	if (pt->P == 1) {
		for (v = 0; v < g->n; v++)
			pt->part[v] = 0;
		return 0;
	}
	if (g->m * 2 > (int64_t)0x7fffffff)
		return sb_err_set(err, SB_EXIT_INPUT, "graph too large for 32-bit METIS indices");
	xadj = sb_malloc(sizeof *xadj * ((size_t)n + 1));
	vwgt = sb_malloc(sizeof *vwgt * 2 * (size_t)n);
	if (!xadj || !vwgt) {
		rc = sb_err_set(err, SB_EXIT_RUN, "out of memory");
		goto out;
	}
	for (v = 0; v <= g->n; v++)
		xadj[v] = (idx_t)g->off[v];
	for (v = 0; v < g->n; v++) {
		vwgt[2 * v] = 1;
		vwgt[2 * v + 1] = train[v] != 0;
		ntrain += train[v] != 0;
	}
	/* a constraint with zero total weight makes METIS fail: drop it */
	if (!ntrain) {
		ncon = 1;
		for (v = 0; v < g->n; v++)
			vwgt[v] = 1;
	}
	ubvec[0] = ubvec[1] = (real_t)sb_opts_get(o, "ub");
	METIS_SetDefaultOptions(options);
	options[METIS_OPTION_SEED] = (idx_t)(sb_rng_u32(rng) & 0x7fffffff);
	options[METIS_OPTION_NUMBERING] = 0;
	/* adjncy is int32 already (idx_t is 32-bit in Debian's build) */
	mr = METIS_PartGraphKway(&n, &ncon, xadj, (idx_t *)g->adj, vwgt, NULL, NULL, &nparts,
				 NULL, ubvec, options, &objval, (idx_t *)pt->part);
	if (mr != METIS_OK)
		rc = sb_err_set(err, SB_EXIT_RUN, "METIS_PartGraphKway failed (code %d)", (int)mr);
out:
	sb_free(xadj);
	sb_free(vwgt);
	return rc;
}

_Static_assert(sizeof(idx_t) == sizeof(int32_t), "METIS built with 64-bit idx_t");

const struct sb_cache_partitioner sb_cache_partitioner_metis = {
	.name = "metis",
	.cite = "Karypis, Kumar, A Fast and High Quality Multilevel Scheme for Partitioning Irregular Graphs, SIAM J. Sci. Comput. 1998",
	.desc = "METIS_PartGraphKway, weights (1, is_train), seeded",
	.provenance = "verified: library",
	.params = params,
	.partition = partition,
};
