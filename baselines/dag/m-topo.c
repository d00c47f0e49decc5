/*
 * m-topo.c - Baechi's memory-constrained topological placement (m-TOPO).
 *
 * B. Jeon, L. Cai, P. Srivastava, J. Jiang, X. Ke, Y. Meng, C. Xie,
 * I. Gupta, "Baechi: fast device placement of machine learning graphs",
 * ACM SoCC 2020 (code: beomyeol/baechi, placer/m_topo.py).
 *
 * Algorithm (published): walk the ops in topological order and fill the
 * devices in id order: an op goes to the current device unless that would
 * take the device's used memory above cap = (sum of demands)/|D| + (largest
 * demand), in which case the next device becomes current. A colocation
 * group is placed whole when its first op is reached.
 *
 * Our choices: demands are per component (sb_dag_mem summed), so the
 * largest demand in cap is the largest component's, which makes the fill
 * always succeed without type constraints; the real memory M(d) is
 * respected as well (a device without room counts as full). Baechi has no
 * device types: a component not allowed on the current device goes to the
 * first device at or after it (then before it) that allows it and is
 * within cap, without moving the pointer; if cap cannot be met anywhere it
 * goes to the lowest-id allowed device with real memory left, and fits
 * nowhere is an error. Topological order is g->topo (Kahn, smaller id
 * first).
 */
#include "listsched.h"

struct topo_fill {
	const struct sb_dag_inst *in;
	const struct sb_dag_comps *c;
	double cap;
	double *used;
	double *free_mem;
};

static int within_cap(const struct topo_fill *t, int k, int d)
{
	return sb_dag_comp_fits(t->in, t->c, k, d, t->free_mem) &&
	       t->used[d] + t->c->mem[k] <= t->cap;
}

/* Device for component k with the pointer at *cur; -1 if none. */
static int topo_pick(const struct topo_fill *t, int k, int *cur)
{
	int nd = t->in->dev.n, d;

	while (*cur < nd && sb_dag_comp_allowed(t->in, t->c, k, *cur) &&
	       !within_cap(t, k, *cur))
		(*cur)++;
	for (d = *cur; d < nd; d++)
		if (within_cap(t, k, d))
			return d;
	for (d = 0; d < *cur && d < nd; d++)
		if (within_cap(t, k, d))
			return d;
	for (d = 0; d < nd; d++)
		if (sb_dag_comp_fits(t->in, t->c, k, d, t->free_mem))
			return d;
	return -1;
}

static int mtopo_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			   struct sb_rng *rng, struct sb_dag_plan *plan,
			   struct sb_err *err)
{
	const struct sb_dag *g = &in->g;
	struct sb_dag_comps c;
	struct topo_fill t;
	double total = 0, biggest = 0;
	int i, k, cur = 0, rc = 0;

	sb_dag_comps_build(&c, in);
	for (k = 0; k < c.n; k++) {
		total += c.mem[k];
		if (c.mem[k] > biggest)
			biggest = c.mem[k];
	}
	t.in = in;
	t.c = &c;
	t.cap = total / in->dev.n + biggest;
	t.used = SB_NEW(double, in->dev.n);
	t.free_mem = SB_NEW(double, in->dev.n);
	sb_dag_free_mem_init(in, t.free_mem);
	for (i = 0; i < g->n; i++) {
		int d;
		k = g->comp[g->topo[i]];
		if (plan->place[g->topo[i]] >= 0)
			continue;
		d = topo_pick(&t, k, &cur);
		if (d < 0) {
			rc = sb_ls_err_nodev(in, &c, k, t.free_mem, err);
			break;
		}
		sb_dag_comp_place(&c, k, d, plan->place, t.free_mem);
		t.used[d] += c.mem[k];
	}
	sb_free(t.used);
	sb_free(t.free_mem);
	sb_dag_comps_release(&c);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_m_topo = {
	.name = "m-topo",
	.cite = "Jeon, Cai, Srivastava, Jiang, Ke, Meng, Xie, Gupta, Baechi: fast "
		"device placement of machine learning graphs, ACM SoCC 2020",
	.desc = "topological order filling devices in id order up to a memory cap (Baechi)",
	.provenance = "published algorithm",
	.params = NULL,
	.partition = mtopo_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "fifo",
};
