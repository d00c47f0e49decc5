/*
 * hash.c - Hash partitioning, the headline baseline of the tfpart paper.
 *
 * R. Mayer, C. Mayer, L. Laich, "The TensorFlow partitioning and scheduling
 * problem: it's the critical path!", DIDL (Middleware workshops) 2017;
 * authors' simulator, Partitioning/Hashing.java.
 *
 * Algorithm (verified in the authors' code): colocation components of two
 * or more ops first, then the remaining ops, each in arbitrary order; a
 * round-robin pointer k, starting at 0, gives each item the first device
 * among k, k+1, ... (mod |D|) that allows it and has memory for it, then
 * advances by one whatever device was taken. Speeds, communication and the
 * critical path are ignored.
 *
 * Our choices: Java's arbitrary (HashSet) order becomes a seeded shuffle
 * of each of the two lists, drawn from the policy's own stream. An item
 * that fits nowhere is an error.
 */
#include "listsched.h"

/* Place components items[0..n) round robin, the pointer in *k. */
static int place_round_robin(const struct sb_dag_inst *in,
			     const struct sb_dag_comps *c, const int *items, int n,
			     int *k, double *free_mem, int *place, struct sb_err *err)
{
	int nd = in->dev.n, i, j;

	for (i = 0; i < n; i++) {
		int d = -1;
		for (j = 0; j < nd && d < 0; j++)
			if (sb_dag_comp_fits(in, c, items[i], (*k + j) % nd, free_mem))
				d = (*k + j) % nd;
		if (d < 0)
			return sb_ls_err_nodev(in, c, items[i], free_mem, err);
		sb_dag_comp_place(c, items[i], d, place, free_mem);
		*k = (*k + 1) % nd;
	}
	return 0;
}

static int hash_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			  struct sb_rng *rng, struct sb_dag_plan *plan,
			  struct sb_err *err)
{
	struct sb_dag_comps c;
	double *free_mem = SB_NEW(double, in->dev.n);
	int *groups, *singles, ng = 0, ns = 0, k, ptr = 0, rc;

	sb_dag_comps_build(&c, in);
	groups = SB_NEW(int, c.n);
	singles = SB_NEW(int, c.n);
	for (k = 0; k < c.n; k++) {
		if (c.off[k + 1] - c.off[k] > 1)
			groups[ng++] = k;
		else
			singles[ns++] = k;
	}
	sb_rng_shuffle_int(rng, groups, (size_t)ng);
	sb_rng_shuffle_int(rng, singles, (size_t)ns);
	sb_dag_free_mem_init(in, free_mem);
	rc = place_round_robin(in, &c, groups, ng, &ptr, free_mem, plan->place, err);
	if (!rc)
		rc = place_round_robin(in, &c, singles, ns, &ptr, free_mem, plan->place, err);
	sb_free(groups);
	sb_free(singles);
	sb_free(free_mem);
	sb_dag_comps_release(&c);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_hash = {
	.name = "hash",
	.cite = "Mayer, Mayer, Laich, The TensorFlow partitioning and scheduling "
		"problem: it's the critical path!, DIDL 2017",
	.desc = "shuffled components round robin over devices with a feasibility probe",
	.provenance = "verified (authors' code)",
	.params = NULL,
	.partition = hash_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "fifo",
};
