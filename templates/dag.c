/*@next (printed by make new-baseline, not copied)
 * edit its partition hook, then 'make && bin/sb list dag' shows it;
 * 'bin/sb eval dag --stg data/stg/rand0000.stg --devices 4 --policy @NAME@+pct --bound' tries it,
 * and 'make test' runs it through the checker and the lower bounds on random instances.
 */
/*
 * @NAME@.c - <one line: what this placement policy does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/dag/dag.h, struct sb_dag_policy): the partition hook fills
 * plan->place[v] with a device for every op v. It must respect device
 * constraints (sb_dag_allowed), keep colocation components together and
 * stay within device memory; dag/util.h has the helpers. The harness
 * checks the result with the independent checker and the lower bounds.
 * Take every random draw from `rng`. To also plan a full schedule (list
 * schedulers), set plan->has_plan and plan_start/plan_finish/plan_makespan
 * and use .default_sched = "heft-order".
 */
#include "dag/dag.h"
#include "dag/util.h"

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ NULL, 0, 0, 0, 0, NULL },
};

static int partition(const struct sb_dag_inst *in, const struct sb_opts *o,
		     struct sb_rng *rng, struct sb_dag_plan *plan, struct sb_err *err)
{
	struct sb_dag_comps c;
	double *free_mem = SB_NEW(double, in->dev.n);
	int k, rc = 0;

	(void)o;
	(void)rng;
	sb_dag_comps_build(&c, in);
	sb_dag_free_mem_init(in, free_mem);
	/* Example: every component on the fastest device where it fits.
	 * Replace with your policy. */
	for (k = 0; k < c.n; k++) {
		int d = sb_dag_fastest_fit(in, &c, k, free_mem);
		if (d < 0) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "@NAME@: no device can hold "
					"the group of op %ld", in->g.ext_id[c.member[c.off[k]]]);
			break;
		}
		sb_dag_comp_place(&c, k, d, plan->place, free_mem);
	}
	sb_dag_comps_release(&c);
	sb_free(free_mem);
	return rc;
}

const struct sb_dag_policy sb_dag_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.params = params,
	.partition = partition,
	.default_sched = "fifo",
};
