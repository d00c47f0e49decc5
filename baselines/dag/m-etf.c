/*
 * m-etf.c - Baechi's memory-constrained Earliest Task First (m-ETF).
 *
 * B. Jeon, L. Cai, P. Srivastava, J. Jiang, X. Ke, Y. Meng, C. Xie,
 * I. Gupta, "Baechi: fast device placement of machine learning graphs",
 * ACM SoCC 2020 (code: beomyeol/baechi, placer/m_etf.py).
 *
 * Algorithm (published): ETF - repeatedly start the (ready op, device)
 * pair that can start earliest, without insertion - restricted to devices
 * with enough free memory for the op or, for an op of a colocation group
 * not yet placed, for the whole group, which is then placed at once.
 *
 * Our choices: memory is this project's static demand (sb_dag_mem summed
 * over the component, charged when the component is placed); Baechi
 * additionally frees output tensors once consumed and models channel
 * contention, neither of which exists in this model, so the plan differs
 * from the ETF baseline only in its ties, which follow Baechi: the earlier
 * op in topological order (g->topo), then the lower device id. Sends are
 * pure delays in the plan.
 */
#include "listsched.h"

static int metf_partition(const struct sb_dag_inst *in, const struct sb_opts *o,
			  struct sb_rng *rng, struct sb_dag_plan *plan,
			  struct sb_err *err)
{
	const struct sb_ls_etf_cfg cfg = { .tie = SB_LS_TIE_TOPO, .fav = NULL };

	return sb_ls_etf(in, &cfg, plan, err);
}

const struct sb_dag_policy sb_dag_policy_m_etf = {
	.name = "m-etf",
	.cite = "Jeon, Cai, Srivastava, Jiang, Ke, Meng, Xie, Gupta, Baechi: fast "
		"device placement of machine learning graphs, ACM SoCC 2020",
	.desc = "memory-constrained earliest task first (Baechi)",
	.provenance = "published algorithm",
	.params = NULL,
	.partition = metf_partition,
	.priority = NULL,
	.pick = NULL,
	.default_sched = "heft-order",
};
