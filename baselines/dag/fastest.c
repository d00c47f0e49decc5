/*
 * fastest.c - FastestNode: everything on the fastest device.
 *
 * Baseline required by the tfpart study: R. Mayer, C. Mayer, L. Laich,
 * "The TensorFlow partitioning and scheduling problem: it's the critical
 * path!", DIDL 2017 (spec section 6); when communication dominates, no
 * distributed placement beats it.
 *
 * Algorithm: components in id order, each on the fastest device (largest
 * speed, ties to the lower id) that allows it and still has memory for it;
 * with enough memory and no type constraints the whole graph lands on one
 * device and runs without any communication.
 *
 * Our choices: memory is charged as components are placed, so a component
 * that does not fit falls back to the next fastest device; one that fits
 * nowhere is an error. "Fastest" is by device speed even when an ETC matrix
 * gives the times.
 */
#include "listsched.h"

static int fastest_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			     struct sb_rng *rng, struct sb_dag_plan *plan,
			     struct sb_err *err)
{
	struct sb_dag_comps c;
	double *free_mem = SB_NEW(double, in->dev.n);
	int k, rc = 0;

	sb_dag_comps_build(&c, in);
	sb_dag_free_mem_init(in, free_mem);
	for (k = 0; k < c.n; k++) {
		int d = sb_dag_fastest_fit(in, &c, k, free_mem);
		if (d < 0) {
			rc = sb_ls_err_nodev(in, &c, k, free_mem, err);
			break;
		}
		sb_dag_comp_place(&c, k, d, plan->place, free_mem);
	}
	sb_free(free_mem);
	sb_dag_comps_release(&c);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_fastest = {
	.name = "fastest",
	.cite = "Mayer, Mayer, Laich, The TensorFlow partitioning and scheduling "
		"problem: it's the critical path!, DIDL 2017",
	.desc = "every component on the fastest device where it fits",
	.provenance = "ours",
	.params = NULL,
	.partition = fastest_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "fifo",
};
