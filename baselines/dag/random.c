/*
 * random.c - Random placement.
 *
 * Baseline listed with the tfpart study: R. Mayer, C. Mayer, L. Laich,
 * "The TensorFlow partitioning and scheduling problem: it's the critical
 * path!", DIDL 2017 (spec section 6).
 *
 * Algorithm: each colocation component, in id order, goes to a device
 * drawn uniformly among those that allow it and still have memory for it
 * (memory is charged as components are placed).
 *
 * Our choices: the draw comes from the policy's own seeded stream; a
 * component that fits nowhere is an error.
 */
#include "listsched.h"

static int random_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			    struct sb_rng *rng, struct sb_dag_plan *plan,
			    struct sb_err *err)
{
	struct sb_dag_comps c;
	int nd = in->dev.n, k, d, rc = 0;
	double *free_mem = SB_NEW(double, nd);
	int *cand = SB_NEW(int, nd);

	sb_dag_comps_build(&c, in);
	sb_dag_free_mem_init(in, free_mem);
	for (k = 0; k < c.n; k++) {
		int nc = 0;
		for (d = 0; d < nd; d++)
			if (sb_dag_comp_fits(in, &c, k, d, free_mem))
				cand[nc++] = d;
		if (!nc) {
			rc = sb_ls_err_nodev(in, &c, k, free_mem, err);
			break;
		}
		d = cand[sb_rng_below(rng, (uint32_t)nc)];
		sb_dag_comp_place(&c, k, d, plan->place, free_mem);
	}
	sb_free(free_mem);
	sb_free(cand);
	sb_dag_comps_release(&c);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_random = {
	.name = "random",
	.cite = "Mayer, Mayer, Laich, The TensorFlow partitioning and scheduling "
		"problem: it's the critical path!, DIDL 2017",
	.desc = "each component on a uniformly drawn feasible device",
	.provenance = "ours",
	.params = NULL,
	.partition = random_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "fifo",
};
