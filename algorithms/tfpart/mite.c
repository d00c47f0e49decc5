/*
 * mite.c - MITE, the multi-criteria weighted greedy partitioner
 * (WeightFunctionPartitioning; probably Memory, Importance, Traffic,
 * Execution).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 3.2.
 * This is the thesis partitioner that sends time-critical ops to fast
 * devices.
 *
 * Colocation components of two or more ops are placed first, then the
 * single ops, each group in a seeded random order. A component c goes to
 * the feasible device minimising the product
 *   E^(d) * T^(d) * ISF(d) * Mem(d):
 * E^ and T^ are its finish-time and traffic estimates normalised by their
 * maxima (tfpart_common.c); ISF(d) = 1 - I(c) s(d)/s_max, where the
 * importance I(c) is the mean over members of the heaviest path through the
 * op divided by the heaviest path of the graph, so important components
 * prefer fast devices; Mem(d) is the fraction of d's memory in use. Zeros
 * become 1e-6 (Mem: a tenth of the smallest non-zero Mem, 1 if all are 0)
 * so that one factor cannot annihilate the rest. Ties go to the lower id.
 *
 * Provenance: reconstructed from the authors' Java simulator. The default
 * counts one transfer per distinct remote device hosting an assigned
 * successor (one Send each, as in the execution model); compat_java=1
 * reproduces the Java code, which counts only the first remote successor.
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "compat_java", 0, 0, 1, 1,
	  "reproduce the authors' code's quirk: traffic counts only the first "
	  "remote successor of each op" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* ------------------------------------------------------------------ */
/* Device choice                                                       */
/* ------------------------------------------------------------------ */

/* Fraction of d's memory in use (0 for a device without memory, and for
 * unbounded memory, where the fraction is 0 in the limit: without this an
 * infinite capacity gives inf/inf = NaN and every comparison fails). */
static double mem_used(const struct sb_tfpart *p, int d)
{
	double cap = p->in->dev.mem[d];
	return cap > 0 && isfinite(cap) ? (cap - p->free_mem[d]) / cap : 0;
}

/* Best device for component k, or -1; imp = I(k). */
static int mite_device(struct sb_tfpart *p, int k, double imp, int compat)
{
	const struct sb_devices *dv = &p->in->dev;
	int nd = dv->n, d, best = -1;
	double smax = 0, minmem = 0, bestv = 0;

	if (!sb_tfpart_et(p, k, compat))
		return -1;
	for (d = 0; d < nd; d++) {
		double used;
		if (!p->feas[d])
			continue;
		smax = sb_max(smax, dv->speed[d]);
		used = mem_used(p, d);
		if (used > 0 && (minmem == 0 || used < minmem))
			minmem = used;
	}
	for (d = 0; d < nd; d++) {
		double isf, mem, val;
		if (!p->feas[d])
			continue;
		isf = 1.0 - imp * dv->speed[d] / smax;
		if (isf == 0)
			isf = 1e-6;
		mem = mem_used(p, d);
		if (mem == 0)
			mem = minmem > 0 ? minmem / 10 : 1.0;
		val = p->t[d] * p->e[d] * isf * mem;
		if (best < 0 || val < bestv) {
			best = d;
			bestv = val;
		}
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* Hook                                                                */
/* ------------------------------------------------------------------ */

static int mite_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			  struct sb_rng *rng, struct sb_dag_plan *plan,
			  struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int compat = sb_opts_get(o, "compat_java") != 0;
	int n = g->n, i, k, ngroup = 0, nsingle = 0, rc = 0;
	double *pre = SB_NEW(double, n), *post = SB_NEW(double, n), cpops;
	int *order = NULL;
	struct sb_tfpart p;

	sb_tfpart_init(&p, in, plan->place, "mite");
	cpops = sb_dag_through(in, pre, post);
	order = SB_NEW(int, p.c.n);

	/* Groups first, then single ops; each part shuffled on its own. */
	for (k = 0; k < p.c.n; k++)
		if (p.c.off[k + 1] - p.c.off[k] > 1)
			order[ngroup++] = k;
	for (k = 0; k < p.c.n; k++)
		if (p.c.off[k + 1] - p.c.off[k] == 1)
			order[ngroup + nsingle++] = k;
	sb_rng_shuffle_int(rng, order, (size_t)ngroup);
	sb_rng_shuffle_int(rng, order + ngroup, (size_t)nsingle);

	for (i = 0; i < p.c.n; i++) {
		int d, j, size;
		double imp = 0;

		k = order[i];
		size = p.c.off[k + 1] - p.c.off[k];
		for (j = p.c.off[k]; j < p.c.off[k + 1]; j++)
			imp += pre[p.c.member[j]] + post[p.c.member[j]];
		imp = cpops > 0 ? imp / size / cpops : 0;
		d = mite_device(&p, k, imp, compat);
		if (d < 0) {
			rc = sb_tfpart_nofit(&p, p.c.member[p.c.off[k]], err);
			goto out;
		}
		sb_tfpart_assign(&p, k, d);
	}
out:
	sb_tfpart_release(&p);
	sb_free(pre);
	sb_free(post);
	sb_free(order);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_mite = {
	.name = "mite",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "weighted greedy over execution time, traffic, importance and memory (the thesis partitioner)",
	.provenance = "reconstructed (intended behaviour of WeightFunctionPartitioning)",
	.params = params,
	.partition = mite_partition,
};
