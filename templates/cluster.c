/*@next (printed by make new-baseline, not copied)
 * edit its schedule hook, then 'make && bin/sb list cluster' shows it;
 * 'bin/sb eval cluster --w1 1000 --load 0.8 --policy @NAME@ --bound' tries it,
 * and 'make test' runs it with every placer through the checker on random job sets.
 */
/*
 * @NAME@.c - <one line: what this cluster scheduler does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/cluster/cluster.h, struct sb_cluster_policy): the simulator owns
 * the event loop and calls schedule() after every batch of simultaneous
 * events; start jobs with sb_cluster_sim_start (the run's placer picks the GPUs)
 * and preempt them with sb_cluster_sim_preempt. A non-clairvoyant policy sees
 * job->iters == -1; progress is sb_cluster_sim_done, service sb_cluster_sim_attained.
 * cluster/util.h has queues and dispatchers (list, priority). Take
 * every random draw from the rng given to init. The harness validates
 * every run with the independent checker and the lower bound LB1.
 * (A placer instead fills only .place: see baselines/cluster/packed.c.)
 */
#include "cluster/util.h"

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ "qmin", 300, 0, 1e9, 0, "a running job is preempted only after this many seconds" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct state {
	double qmin;
	double *key;   /* priority of each job: smaller runs first */
};

static void *init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct state *st = SB_NEW(struct state, 1);
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, sb_cluster_sim_njobs(s));
	return st;
}

static void release(void *ctx)
{
	struct state *st = ctx;
	sb_free(st->key);
	sb_free(st);
}

static void schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	int n, i;
	const int *act = sb_cluster_sim_active(s, &n);
	/* Example: fewest GPUs first, preemptive. Replace with your policy. */
	for (i = 0; i < n; i++)
		st->key[act[i]] = sb_cluster_sim_job(s, act[i])->gpus;
	sb_cluster_dispatch_priority(s, st->key, st->qmin);
}

const struct sb_cluster_policy sb_cluster_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.params = params,
	.init = init,
	.release = release,
	.schedule = schedule,
	.default_place = "packed",
};
