/*
 * net.h - the networks of the multi-agent graph RL placer: a two-level GNN
 * encoder (server level over GPU / PCIe switch / socket / server-root
 * nodes with weights shared by every server; data-centre level over
 * servers, racks, pods), the shared actor that scores every candidate
 * anchor server plus a defer logit under a feasibility mask, and the
 * critic (one centralised critic, or one per agent for the ablation).
 *
 * Zhao, Wu, "Large-scale Machine Learning Cluster Scheduling via
 * Multi-agent Graph Reinforcement Learning", IEEE TNSM 2022.
 * Reconstructed [O] (marl.md §3.2-3.5): the abstract verifies the
 * hierarchical GNN and cooperating agents; widths, features and heads are
 * our design.
 *
 * Family: cluster (the placer role; the topology and the simulator are in
 * core/cluster/). This file names no simulator: a topology enters as the
 * shape of one server's tree and the data-centre tree above the servers,
 * so the same weights run on T1, T2 and T3.
 */
#ifndef SB_MARL_NET_H
#define SB_MARL_NET_H

#include "nn.h"

#define SB_MARL_GF 16                  /* GPU features (marl.md §3.2) */
#define SB_MARL_H1 16                  /* server-level width */
#define SB_MARL_EMB (2 * SB_MARL_H1)   /* server embedding: [mean || max] over GPUs */
#define SB_MARL_H2 32                  /* data-centre width: z_s and g */
#define SB_MARL_JF 14                  /* job features */
#define SB_MARL_MAXAG 4                /* agent one-hot width (1, 2 or 4 agents) */
#define SB_MARL_CF (SB_MARL_JF + SB_MARL_MAXAG) /* critic's extra inputs */
#define SB_MARL_AIN (2 * SB_MARL_H2 + SB_MARL_JF + SB_MARL_MAXAG) /* actor input */
#define SB_MARL_DIN (SB_MARL_H2 + SB_MARL_JF + SB_MARL_MAXAG)     /* defer input */
#define SB_MARL_VIN (SB_MARL_H2 + SB_MARL_CF)                     /* critic input */

/* The graphs the encoder runs on. Built once per topology; owner: the
 * caller (sb_marl_graph_release). */
struct sb_marl_graph {
	int nserv;           /* servers */
	int nsn;             /* nodes of one server's tree (GPUs first) */
	int ngpu;            /* GPUs per server */
	int *sptr, *sidx;    /* server level: nserv copies of the tree, nserv * nsn nodes */
	int *gptr, *gidx;    /* readout lists: the GPUs of each server */
	int ndc;             /* data-centre nodes: servers first, then racks, pods, ... */
	int *dptr, *didx;
	int pptr[2];         /* one pooling list over the servers (g) */
	int *pidx;
};
/* sparent (nsn entries): each server-internal node's parent (-1 for the
 * server root), GPUs are nodes 0 .. ngpu - 1. dparent (nserv + nup
 * entries): each data-centre node's parent, servers first. Returns 0, or
 * SB_EXIT_INPUT with err naming the tree and node (a cycle, a parent out of
 * range, a GPU count that is not the leading nodes). */
int sb_marl_graph_build(struct sb_marl_graph *g, int nsn, int ngpu, const int *sparent,
			int nserv, int nup, const int *dparent, struct sb_err *err);
void sb_marl_graph_release(struct sb_marl_graph *g);
/* The graphs of a regular tree (marl.md §5): pods x racks per pod x
 * servers per rack, each server sockets x PCIe switches per socket x GPUs
 * per switch, under one data-centre root. T1 is (2, 2, 4, 2, 1, 2), T2
 * (1, 4, 2, 2, 2, 2), T3 (2, 4, 4, 2, 1, 2). SB_EXIT_INPUT if a count is
 * below 1. */
int sb_marl_graph_regular(struct sb_marl_graph *g, int pods, int racks, int servers,
			  int sockets, int pcie, int gpus, struct sb_err *err);

/* What one agent sees at one decision. */
struct sb_marl_obs {
	const double *gpu;           /* nserv * ngpu * SB_MARL_GF, server-major */
	const double *free;          /* nserv: free GPUs / 8 */
	const double *job;           /* SB_MARL_JF: its head-of-queue job */
	int agent;                   /* 0 .. SB_MARL_MAXAG - 1 */
	const unsigned char *mask;   /* nserv + 1: feasible anchors, then defer */
	const double *crit;          /* SB_MARL_CF: the critic's view */
};

enum sb_marl_arch {
	SB_MARL_ARCH_GNN = 0,   /* the two-level GNN encoder */
	SB_MARL_ARCH_FLAT = 1,  /* ablation: one MLP over the concatenated server
				 * features of a fixed topology size, no GNN */
};

struct sb_marl_net {
	enum sb_marl_arch arch;
	int ncritic;            /* 1: centralised critic; SB_MARL_MAXAG: one per agent */
	struct sb_gnn *s1, *s2; /* server level, two rounds */
	struct sb_gnn *d1, *d2; /* data-centre level, two rounds */
	int flat_nserv;         /* the topology size the flat encoder is built for */
	struct sb_nn *flat;     /* ablation: nserv x [mean GPU features || free] -> nserv z_s */
	struct sb_nn *actor;    /* AIN -> 64 -> 32 -> 1 */
	struct sb_nn *defer;    /* DIN -> 32 -> 1 */
	struct sb_nn *critic[SB_MARL_MAXAG]; /* VIN -> 64 -> 32 -> 1 */
	/* the trainable nets: policy side (encoder, actor, defer), then
	 * critics; for optimisers, clipping and serialisation */
	struct sb_nn *pol[8], *val[SB_MARL_MAXAG];
	int npol, nval;
	/* workspace of the last forward pass, owned */
	const struct sb_marl_graph *gr;
	int cap_serv, cap_dc, cap_nsn;
	double *x1, *emb, *x2, *zs, *a, *logit, *p;
	double *dh2, *dh1, *dx2, *dz1, *dz2, *da, *demb;
	int *arg;
	double gvec[SB_MARL_H2], din[SB_MARL_DIN], vin[SB_MARL_VIN];
	int agent, critic_used;
	double v;
};

/* A net of the given architecture and number of critics (1 or
 * SB_MARL_MAXAG); nserv is the fixed topology size of the flat ablation
 * (ignored by the GNN). NULL with err on out of memory. Owner: the caller
 * (sb_marl_net_free). */
struct sb_marl_net *sb_marl_net_new(enum sb_marl_arch arch, int ncritic, int nserv,
				    struct sb_err *err);
void sb_marl_net_free(struct sb_marl_net *n);
void sb_marl_net_init(struct sb_marl_net *n, struct sb_rng *r);
size_t sb_marl_net_nparams(const struct sb_marl_net *n);
/* Copy every parameter out to / in from one vector (policy nets, then
 * critics, in a fixed order). */
void sb_marl_net_get(const struct sb_marl_net *n, double *w);
void sb_marl_net_set(struct sb_marl_net *n, const double *w);
void sb_marl_net_zero_grad(struct sb_marl_net *n);

/* Forward pass of one decision on graph gr: p (nserv + 1 probabilities,
 * masked entries exactly 0, the last is defer) and the critic's value.
 * The flat ablation needs a graph of the size it was built for (an
 * invariant the caller checks). Returns p, valid until the next forward
 * pass. */
const double *sb_marl_forward(struct sb_marl_net *n, const struct sb_marl_graph *gr,
			      const struct sb_marl_obs *o, double *value);
/* Value only (the critic's head still needs the encoder's g). */
double sb_marl_value(struct sb_marl_net *n, const struct sb_marl_graph *gr,
		     const struct sb_marl_obs *o);
/* Backpropagate dL/dlogits (nserv + 1) and dL/dvalue of the last forward
 * pass; accumulates every net's gradient. */
void sb_marl_backward(struct sb_marl_net *n, const double *dlogit, double dvalue);

#endif
