/*
 * etf.c - Earliest Task First.
 *
 * J.-J. Hwang, Y.-C. Chow, F. D. Anger, C.-Y. Lee, "Scheduling precedence
 * graphs in systems with interprocessor communication times", SIAM J.
 * Comput. 18(2), 1989.
 *
 * Algorithm (published): among all pairs (ready op, device) schedule the
 * one that can start earliest, start = max(time the device is free, time
 * the op's inputs are on it); no insertion into idle gaps. Ties go to the
 * op with the larger static level (the heaviest path to an exit).
 *
 * Our choices: the static level uses the mean time of each op over its
 * allowed devices and no communication (Hwang's level is computation
 * only); remaining ties to the lower device id, then the lower op id.
 * Extended to the heterogeneous model with colocation and memory as in
 * listsched.h (a component's memory is charged on its first op; a device
 * without room is not a candidate). Sends are pure delays in the plan.
 */
#include "listsched.h"

static int etf_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			 struct sb_rng *rng, struct sb_dag_plan *plan,
			 struct sb_err *err)
{
	const struct sb_ls_etf_cfg cfg = { .tie = SB_LS_TIE_LEVEL, .fav = NULL };

	return sb_ls_etf(in, &cfg, plan, err);
}

const struct sb_dag_policy sb_dag_policy_etf = {
	.name = "etf",
	.cite = "Hwang, Chow, Anger, Lee, Scheduling precedence graphs in systems "
		"with interprocessor communication times, SIAM J. Comput. 1989",
	.desc = "earliest (op, device) start first, ties to the larger static level",
	.provenance = "published algorithm",
	.params = NULL,
	.partition = etf_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "heft-order",
};
