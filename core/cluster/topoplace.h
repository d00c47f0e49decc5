/*
 * topoplace.h - what the placers of the topology-and-interference mode
 * share (spec marl.md §3.4, §4; [O], our design): the co-location state of
 * a simulation, and the anchor loop. Every such placer chooses an anchor
 * server among the feasible ones (sb_cluster_tree_anchor_mask) and lets the one
 * fill rule (sb_cluster_tree_fill) choose the GPUs, so placers differ only in how
 * they score anchors. The learned placer of branch h-marl2 uses the same
 * pieces: the mask for its masked softmax, the fill rule to decode "anchor
 * s", and sb_cluster_topo_state for its GNN's GPU features.
 */
#ifndef SB_CLUSTER_TOPOPLACE_H
#define SB_CLUSTER_TOPOPLACE_H

#include "cluster/cluster.h"
#include "cluster/interf.h"

/* The running jobs as a co-location state: out[0..k) (out needs room for
 * the number of running jobs plus one), returns k. */
int sb_cluster_topo_state(const struct sb_csim *s, struct sb_interf_job *out);

/* Score of placing job j with its workers on gpus[0..w) (anchor server
 * `anchor`): smaller is better. */
typedef double (*sb_cluster_anchor_score)(const struct sb_csim *s, int j, int anchor,
					  const int *gpus, void *ctx);

/*
 * The anchor loop: every feasible anchor in index order, its fill, its
 * score; the smallest wins (ties to the lower index). Fills gpus and
 * returns the anchor, or -1 if no anchor is feasible. On a flat cluster
 * (no topology) it places like the packed placer (sb_cluster_pick_servers
 * and sb_cluster_fill), so these placers run everywhere.
 */
int sb_cluster_topo_place(const struct sb_csim *s, int j, sb_cluster_anchor_score score,
			  void *ctx, int *gpus);

/* Free GPUs of server `srv` after placing gpus[0..w) (some of which may
 * lie on other servers). */
int sb_cluster_topo_left(const struct sb_csim *s, int srv, const int *gpus, int w);

#endif
