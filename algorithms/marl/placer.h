/*
 * placer.h - the marl placer in the cluster simulator: what it observes of
 * a simulation (the GNN's graphs built from the topology tree, GPU, job
 * and critic features), its action decoded through the cluster family's
 * one anchor -> worker fill rule, trained networks looked up by variant,
 * and a training episode on the simulator for the trainer.
 *
 * Zhao, Wu, "Large-scale Machine Learning Cluster Scheduling via
 * Multi-agent Graph Reinforcement Learning", IEEE TNSM 2022. Reconstructed
 * [O] (marl.md §3.1-3.7). Deviation, ours: a placer sees the simulator, not
 * the agents' queues, so the critic's view is the mean features of every
 * waiting job and (waiting, running) counts / 16 in the queue-length
 * slots.
 *
 * Family: cluster (core/cluster/; the mode of cluster/topo.h and
 * cluster/interf.h).
 */
#ifndef SB_MARL_PLACER_H
#define SB_MARL_PLACER_H

#include "algorithms/marl/train.h"
#include "cluster/cluster.h"
#include "cluster/topo.h"
#include "opts.h"
#include "workloads/cluster/marl.h"

/* The graphs of a topology tree: one server's subtree (GPUs first, in the
 * tree's GPU order), and servers, racks, pods and the root above them.
 * 0 or SB_EXIT_INPUT (a tree the encoder cannot read). */
int sb_marl_graph_from_tree(struct sb_marl_graph *g, const struct sb_cluster_tree *t,
			    struct sb_err *err);

/* A placement view: buffers for one observation. Owner: the caller. */
struct sb_marl_view {
	struct sb_marl_graph gr;
	const struct sb_cluster_tree *t;
	double *gpu, *free, job[SB_MARL_JF], crit[SB_MARL_CF];
	unsigned char *mask;
	int *gpu_job;   /* job on each GPU, -1 if free */
};
int sb_marl_view_init(struct sb_marl_view *v, const struct sb_cluster_tree *t,
		      struct sb_err *err);
void sb_marl_view_release(struct sb_marl_view *v);
/* The observation of pending job j in simulation s (its agent from
 * sb_cluster_sim_agent). Returns the number of feasible anchors (0: the
 * job cannot be placed now). Defer is masked when nothing runs (waiting
 * would never change the state). */
int sb_marl_observe(struct sb_marl_view *v, const struct sb_csim *s, int j,
		    struct sb_marl_obs *o);

/* Trained nets of the process, by variant (the placer's name). The store
 * owns net after a successful put; 0 or SB_EXIT_INPUT if full. */
int sb_marl_nets_put(const char *variant, struct sb_marl_net *net, struct sb_err *err);
struct sb_marl_net *sb_marl_nets_find(const char *variant);
/* Remove variant's net from the table without freeing it (NULL if none):
 * the caller owns it again (to run one placer name with several nets). */
struct sb_marl_net *sb_marl_nets_take(const char *variant);
void sb_marl_nets_clear(void);

/* The greedy action of probabilities p over nserv anchors and defer (the
 * last): defer when the policy defers at least half the time, else the
 * most likely anchor (ties to the lowest index). Deviation, ours: a plain
 * argmax over all actions defers whenever defer beats every single
 * server, however much mass placing has in total. */
int sb_marl_greedy(const double *p, int nserv);

/* The placer parameters of every marl variant: `greedy` (1, the default:
 * its greedy action, sb_marl_greedy; 0: sample from the policy, as in
 * training, from the run's placer stream). */
extern const struct sb_param sb_marl_placer_params[];

/* The place hook every marl variant shares: the trained net of `variant`
 * acting as o's `greedy` says (a missing net is a usage error and exits
 * 2), or, while a training episode runs, the trainer's sampled action. On
 * a flat cluster (no topology) it places like packed, as the mode's
 * heuristics. rng: the run's placer stream. */
int sb_marl_place(const char *variant, const struct sb_csim *s, int j, const struct sb_opts *o,
		  struct sb_rng *rng, int *gpus);

/* Training on the simulator: episodes of the synthetic Philly-like
 * generator (njobs jobs at the curriculum's load, drawn from (seed,
 * episode)) on environment env, scheduled by `combo` (e.g. "agents+marl";
 * the scheduler's defaults, agents = `agents`). task is what sb_marl_train
 * drives. Owner: the caller (sb_marl_cluster_task_release). 0 or an error
 * (an unknown combo, a topology the encoder cannot read). */
struct sb_marl_cluster_task {
	const struct sb_marl_env *env;   /* workloads/cluster/marl.h, not owned */
	int njobs;
	struct sb_cluster_combo combo;
	struct sb_opts sopts, popts;
	struct sb_marl_graph gr;
	struct sb_marl_task task;
};
int sb_marl_cluster_task_init(struct sb_marl_cluster_task *tk, const struct sb_marl_env *env,
			      const char *combo, int agents, int njobs, struct sb_err *err);
void sb_marl_cluster_task_release(struct sb_marl_cluster_task *tk);

#endif
