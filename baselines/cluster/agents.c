/*
 * agents.c - multi-agent decision epochs (spec marl.md §3.1; Zhao & Wu,
 * "Large-scale Machine Learning Cluster Scheduling via Multi-agent Graph
 * Reinforcement Learning", IEEE TNSM 2022). Verified [V, abstract]: several
 * schedulers place jobs in parallel and must cooperate. The mechanics are
 * [O], our design:
 *   - N_a agents (parameter `agents`, 2 by default) each keep a FIFO
 *     queue; arrivals go to the agents round-robin (assign=0) or by the
 *     job's tenant, user mod N_a (assign=1);
 *   - a decision epoch is every schedule() call of the simulator, i.e.
 *     every batch of arrivals and completions;
 *   - in each epoch the agents act in an order drawn from the scheduler's
 *     stream; each places its head-of-queue job with the run's placer (the
 *     placer sees the agent through sb_cluster_sim_agent) or defers when
 *     the placer returns -1. An agent sees what earlier agents committed
 *     in the same epoch, since every start changes the simulator at once;
 *   - the epoch goes on in rounds, in the same order, while some agent
 *     placed a job; an agent that deferred stays out until the next epoch
 *     (so a queue never empties more than one job at a time ahead of the
 *     others, and the epoch ends when every agent deferred or is empty).
 * Non-preemptive. Clairvoyant: in this mode (as in DL2 and the spec's job
 * features) a job's total iterations are known when it arrives, so the
 * placers may weigh remaining work. With agents=1 it is FIFO with the
 * epoch-by-epoch head-only rule.
 */
#include "cluster/util.h"

struct agents {
	int n, assign, next;
	struct sb_clq *q;
	int *order;
	unsigned char *out;
	struct sb_rng rng;
};

static const struct sb_param params[] = {
	{ "agents", 2, 1, 64, 1, "number of agents (schedulers acting in parallel)" },
	{ "assign", 0, 0, 1, 1, "arrivals to agents: 0 round-robin, 1 by tenant (user mod agents)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct agents *a = SB_NEW(struct agents, 1);
	int k;
	(void)s;
	a->n = (int)sb_opts_get(o, "agents");
	a->assign = (int)sb_opts_get(o, "assign");
	a->q = SB_NEW(struct sb_clq, a->n);
	a->order = SB_NEW(int, a->n);
	a->out = SB_NEW(unsigned char, a->n);
	for (k = 0; k < a->n; k++)
		sb_clq_init(&a->q[k]);
	a->rng = *rng;
	return a;
}

static void release(void *ctx)
{
	struct agents *a = ctx;
	int k;
	for (k = 0; k < a->n; k++)
		sb_clq_release(&a->q[k]);
	sb_free(a->q);
	sb_free(a->order);
	sb_free(a->out);
	sb_free(a);
}

static void on_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct agents *a = ctx;
	int k = a->assign ? sb_cluster_sim_job(s, j)->user % a->n : a->next++ % a->n;
	if (k < 0)
		k += a->n;
	sb_clq_push(&a->q[k], j);
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct agents *a = ctx;
	int k, placed;

	for (k = 0; k < a->n; k++) {
		a->order[k] = k;
		a->out[k] = 0;
	}
	sb_rng_shuffle_int(&a->rng, a->order, (size_t)a->n);
	do {
		placed = 0;
		for (k = 0; k < a->n; k++) {
			int ag = a->order[k];
			struct sb_clq *q = &a->q[ag];
			if (a->out[ag] || q->n == 0)
				continue;
			sb_cluster_sim_set_agent(s, ag);
			if (sb_cluster_sim_start(s, q->job[0]) == 0) {
				sb_clq_remove_at(q, 0);
				placed = 1;
			} else {
				a->out[ag] = 1;
			}
		}
	} while (placed);
	sb_cluster_sim_set_agent(s, 0);
}

const struct sb_cluster_policy sb_cluster_policy_agents = {
	.name = "agents",
	.cite = "multi-agent decision epochs of Zhao & Wu, IEEE TNSM 2022 (mechanics ours)",
	.desc = "N_a agents with FIFO queues place their heads in a random order per epoch",
	.provenance = "reconstructed",
	.params = params,
	.clairvoyant = 1,
	.topo = 1,
	.init = init,
	.release = release,
	.on_arrival = on_arrival,
	.schedule = schedule,
	.default_place = "consolidate",
};
