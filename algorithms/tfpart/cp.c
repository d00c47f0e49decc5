/*
 * cp.c - CP, the critical-path partitioner (AssignLongestPath).
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow Partitioning and Scheduling
 * Problem: It's the Critical Path!", DIDL 2017; spec tfpart.md section 3.1.
 *
 * Every op gets an upward rank in averaged time units,
 *   rank(v) = ops(v)/s_mean + max_w rank(w) + out(v)/r_mean  (sinks: ops/s_mean),
 * and remembers its arg-max successor next(v). The critical path starts at
 * the source of largest rank and follows next() to a sink; each of its ops
 * goes, with its colocation component, to the fastest feasible device, so
 * the path runs without communication. Every other op, in a seeded random
 * order, goes with its component to the feasible device of least load
 * (assigned ops / speed) before adding it. Communication is ignored there.
 *
 * Provenance: reconstructed from the authors' Java simulator; the default
 * is the intended behaviour. compat_java=1 reproduces its three quirks:
 *   - r_mean is the first device's rate row summed (zero self-entry
 *     included) and divided by |D|, instead of the mean over pairs d != e;
 *   - the rank comparison's running value already includes out(v)/r_mean,
 *     so a successor within that margin of the best never replaces it
 *     (successors are visited in increasing id order);
 *   - walking the devices from fastest to slowest, an infeasible device
 *     makes it skip two instead of one. When that walk misses every
 *     feasible device the op is left to the load-balancing step (our
 *     reading of the Java loop; the default never needs this).
 * Ties: largest rank / fastest device / least load go to the lower id.
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

#include <math.h>
#include <stdlib.h>

static const struct sb_param params[] = {
	{ "compat_java", 0, 0, 1, 1,
	  "reproduce the authors' code's quirks: first-row mean rate, rank "
	  "comparison including the comm term, skip two devices after an "
	  "infeasible one" },
	{ NULL, 0, 0, 0, 0, NULL },
};

/* ------------------------------------------------------------------ */
/* Device choice                                                       */
/* ------------------------------------------------------------------ */

struct by_speed {
	const double *speed;
	int d;
};

static int speed_desc(const void *a, const void *b)
{
	const struct by_speed *x = a, *y = b;
	if (x->speed[x->d] != y->speed[y->d])
		return x->speed[x->d] > y->speed[y->d] ? -1 : 1;
	return (x->d > y->d) - (x->d < y->d);
}

/* The Java walk from the fastest device down: skips two after a miss. */
static int java_fastest(const struct sb_tfpart *p, int k, const int *order)
{
	int i;
	for (i = 0; i < p->in->dev.n; i += 2) {
		if (sb_dag_comp_fits(p->in, &p->c, k, order[i], p->free_mem))
			return order[i];
	}
	return -1;
}

static int least_loaded(const struct sb_tfpart *p, int k)
{
	const struct sb_devices *dv = &p->in->dev;
	int d, best = -1;
	double bl = 0;
	for (d = 0; d < dv->n; d++) {
		double l;
		if (!sb_dag_comp_fits(p->in, &p->c, k, d, p->free_mem))
			continue;
		l = p->load_ops[d] / dv->speed[d];
		if (best < 0 || l < bl) {
			best = d;
			bl = l;
		}
	}
	return best;
}

/* ------------------------------------------------------------------ */
/* Hook                                                                */
/* ------------------------------------------------------------------ */

static int cp_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			struct sb_rng *rng, struct sb_dag_plan *plan,
			struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	int compat = sb_opts_get(o, "compat_java") != 0;
	int n = g->n, nd = in->dev.n, v, d, i, rc = 0;
	double *rank = SB_NEW(double, n);
	int *next = SB_NEW(int, n), *order = SB_NEW(int, nd), *perm = SB_NEW(int, n);
	struct by_speed *bs = SB_NEW(struct by_speed, nd);
	struct sb_tfpart p;

	sb_tfpart_init(&p, in, plan->place, "cp");
	sb_tfpart_rank_up(in, compat, rank, next);
	for (d = 0; d < nd; d++)
		bs[d] = (struct by_speed){ in->dev.speed, d };
	qsort(bs, (size_t)nd, sizeof *bs, speed_desc);
	for (d = 0; d < nd; d++)
		order[d] = bs[d].d;

	/* The critical path, from the source of largest rank. */
	v = -1;
	for (i = 0; i < n; i++)
		if (g->pred_off[i] == g->pred_off[i + 1] && (v < 0 || rank[i] > rank[v]))
			v = i;
	for (; v >= 0; v = next[v]) {
		int k = g->comp[v];
		if (sb_tfpart_done(&p, k))
			continue;
		d = compat ? java_fastest(&p, k, order)
			   : sb_dag_fastest_fit(in, &p.c, k, p.free_mem);
		if (d >= 0)
			sb_tfpart_assign(&p, k, d);
		else if (!compat) {
			rc = sb_tfpart_nofit(&p, v, err);
			goto out;
		}
	}

	/* Everything else, load-balanced in arbitrary order. */
	for (i = 0; i < n; i++)
		perm[i] = i;
	sb_rng_shuffle_int(rng, perm, (size_t)n);
	for (i = 0; i < n; i++) {
		int k = g->comp[perm[i]];
		if (sb_tfpart_done(&p, k))
			continue;
		d = least_loaded(&p, k);
		if (d < 0) {
			rc = sb_tfpart_nofit(&p, perm[i], err);
			goto out;
		}
		sb_tfpart_assign(&p, k, d);
	}
out:
	sb_tfpart_release(&p);
	sb_free(rank);
	sb_free(next);
	sb_free(order);
	sb_free(perm);
	sb_free(bs);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_cp = {
	.name = "cp",
	.cite = "R. Mayer, C. Mayer, L. Laich, The TensorFlow Partitioning and Scheduling Problem: It's the Critical Path!, DIDL 2017",
	.desc = "critical path on the fastest feasible device, other ops to the least-loaded device",
	.provenance = "reconstructed (intended behaviour of AssignLongestPath)",
	.params = params,
	.partition = cp_partition,
};
