/*
 * topo.h - the data-centre topology tree of the cluster family's
 * topology-and-interference mode (spec marl.md §2; Zhao & Wu, "Large-scale
 * Machine Learning Cluster Scheduling via Multi-agent Graph Reinforcement
 * Learning", IEEE TNSM 2022). Everything here is [O], our design: the paper
 * is available to us as an abstract only, which verifies that placement is
 * aware of the data-centre topology and the servers' internal architecture,
 * not how either is modelled.
 *
 * The tree: data centre -> pods -> racks -> servers -> CPU sockets -> PCIe
 * switches -> GPUs. Every server has the same number G of GPUs, so the
 * cluster family's numbering holds: GPU x is GPU x % G of server x / G,
 * servers and GPUs numbered in the tree's depth-first order.
 *
 * A set of GPUs "spans" the level of their lowest common ancestor; its
 * spread level is 0 for one GPU, 1 under one PCIe switch, 2 one socket,
 * 3 one server, 4 one rack, 5 one pod, 6 the whole data centre, and a
 * ring-all-reduce over it runs at bw[spread] (GB/s). Bandwidths must not
 * grow with the level (a wider span is never faster: the JCT lower bound
 * of lpbound.c relies on it).
 *
 * For the learned policy (branch h-marl2): the tree is exported as plain
 * arrays (parent, level, children in CSR form, the GPU nodes of each
 * server), ready for mean aggregation over the fixed graph.
 */
#ifndef SB_CLUSTER_TOPO_H
#define SB_CLUSTER_TOPO_H

#include "sb.h"

enum sb_cluster_tree_level {
	SB_TREE_DC = 0,
	SB_TREE_POD = 1,
	SB_TREE_RACK = 2,
	SB_TREE_SERVER = 3,
	SB_TREE_SOCKET = 4,
	SB_TREE_SWITCH = 5,
	SB_TREE_GPU = 6,
	SB_TREE_NLEVEL = 7,
};

/* Spread levels: 0 one GPU, then SB_TREE_GPU - (level of the common
 * ancestor), so 1 = one PCIe switch ... 6 = across pods. */
#define SB_TREE_NSPREAD 7

struct sb_cluster_tree {
	char name[64];
	/* the tree, node 0 the root (level SB_TREE_DC) */
	int nnode;
	int *parent;            /* parent[v], -1 for the root */
	unsigned char *level;   /* enum sb_cluster_tree_level */
	int *child_off;         /* children of v: child[child_off[v] .. child_off[v + 1]) */
	int *child;
	/* servers and GPUs */
	int nserver, gpus;      /* S servers of G GPUs each */
	int ngpu;               /* S x G */
	int *server_node;       /* tree node of server s */
	int *gpu_node;          /* tree node of GPU x (x = s * G + k) */
	/* anc[x * SB_TREE_NLEVEL + l]: the ancestor of GPU x at level l
	 * (l = SB_TREE_GPU is the GPU's own node) */
	int *anc;
	/* racks: rack index of each server, servers of each rack (CSR) */
	int nrack, npod;
	int *server_rack, *server_pod;
	int *rack_off, *rack_server;
	int *rack_pod;
	/* bw[l]: ring-all-reduce bandwidth (GB/s) at spread level l = 1..6
	 * (bw[0] unused, 0) */
	double bw[SB_TREE_NSPREAD];
};

/* The bandwidths of spec §2: 10, 8, 5, 3, 1.25, 0.6 GB/s. */
extern const double sb_cluster_tree_default_bw[SB_TREE_NSPREAD];
/* "dc", "pod", "rack", "server", "socket", "switch", "gpu" */
const char *sb_cluster_tree_level_name(int level);

/*
 * A regular tree: pods x racks per pod x servers per rack x sockets per
 * server x PCIe switches per socket x GPUs per switch, with the given
 * bandwidths (NULL: the defaults). Owned by t (sb_cluster_tree_release). Dies only
 * when out of memory; the caller passes positive counts.
 */
void sb_cluster_tree_build(struct sb_cluster_tree *t, const char *name, int pods, int racks, int servers,
		   int sockets, int switches, int gpus, const double *bw);
/*
 * The named topologies of spec §5: "T1" 2 pods x 2 racks x 4 servers of
 * 4 GPUs (2 sockets x 1 switch x 2 GPUs) = 64 GPUs; "T2" 1 x 4 x 2 servers
 * of 8 GPUs (2 x 2 x 2) = 64; "T3" 2 x 4 x 4 of 4 GPUs = 128; "T0" 1 x 1 x 4
 * of 4 GPUs = 16 (the small cluster of the GLPK placer, spec §7). Any other
 * name is read as a topology file (sb_cluster_tree_load). 0 or SB_EXIT_INPUT/RUN.
 */
int sb_cluster_tree_named(const char *name, struct sb_cluster_tree *t, struct sb_err *err);
/*
 * A topology file (line-based, '#' starts a comment, blank lines skipped):
 *     name T4
 *     bw switch 10        (one line per level switch, socket, server, rack,
 *     bw socket 8          pod, dc; missing lines keep the defaults)
 *     node dc0 dc -
 *     node p0 pod dc0 gpus=16
 *     node r0 rack p0
 *     node s0 server r0 gpus=8
 *     node k0 socket s0
 *     node w0 switch k0
 *     node g0 gpu w0
 * Each node names its id, its level and its parent's id (parents may come
 * later in the file); the optional gpus=N says how many GPUs lie under it
 * and must add up. Rejected, naming file, line and field (SB_EXIT_INPUT):
 * unknown keywords and levels, duplicate ids, unknown parents, a child not
 * exactly one level below its parent, parent cycles, not exactly one dc
 * root, zero, negative or growing bandwidths, declared GPU counts that do
 * not add up, servers with different GPU counts, a server without GPUs.
 */
int sb_cluster_tree_load(const char *path, struct sb_cluster_tree *t, struct sb_err *err);
void sb_cluster_tree_release(struct sb_cluster_tree *t);

/* Spread level (0..6) of GPUs gpus[0..n). */
int sb_cluster_tree_spread(const struct sb_cluster_tree *t, const int *gpus, int n);
/* Level of the lowest common ancestor of GPUs x and y (SB_TREE_GPU if
 * x == y). */
int sb_cluster_tree_lca(const struct sb_cluster_tree *t, int x, int y);
/* The lowest spread level at which an empty cluster can host w GPUs (the
 * best locality of a job of w workers). */
int sb_cluster_tree_best_spread(const struct sb_cluster_tree *t, int w);

/*
 * The deterministic "anchor -> worker fill" rule of spec §3.4, the one
 * function every topology placer uses (and the learned policy's action
 * decoder): worker 0 and as many as fit go to one PCIe switch of server
 * `anchor` (the best-fitting switch that holds all w workers, else the one
 * with most free GPUs), then the other switches of its socket, then the
 * other sockets of the anchor (most free first), then the other servers of
 * the anchor's rack with the most free GPUs (ties to the lower id), each
 * filled the same way. Ties everywhere to the lower index. Fills gpus[0..w)
 * and returns 0, or -1 when the anchor has no free GPU or anchor + rack
 * cannot host w (gpus untouched then). gpu_free[x] = 1 for free GPUs.
 */
int sb_cluster_tree_fill(const struct sb_cluster_tree *t, const unsigned char *gpu_free, int anchor, int w,
		 int *gpus);
/* Fill `count` workers into server s alone, the same way the fill rule
 * fills each server (best-fitting switch first), appending to gpus[*k..)
 * and advancing *k; taken[] (ngpu flags, caller-owned, zeroed) marks GPUs
 * already chosen. Returns the number placed (fewer when s has fewer free). */
int sb_cluster_tree_fill_server(const struct sb_cluster_tree *t, const unsigned char *gpu_free,
				unsigned char *taken, int s, int count, int *gpus, int *k);
/*
 * The feasible-anchor mask: mask[s] = 1 iff sb_cluster_tree_fill(s, w) succeeds
 * (s has a free GPU and s with its rack has >= w free). free_srv[s] free
 * GPUs per server. Returns the number of feasible anchors.
 */
int sb_cluster_tree_anchor_mask(const struct sb_cluster_tree *t, const int *free_srv, int w,
			unsigned char *mask);

#endif
