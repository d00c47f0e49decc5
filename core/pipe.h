/*
 * pipe.h - the pipeline family: a DNN as a chain of layers with per-sample
 * costs, and GPUs joined by a bandwidth matrix (spec pipeplan.md §2, §5;
 * dapple.md §2). Plans, schedules and the simulator pipesim build on these.
 *
 * Units: seconds, bytes, bytes/s. Per-layer costs are per SAMPLE (profiles
 * measured at a batch size are divided by it): a microbatch of b samples
 * costs b times as much (the linear scaling both PipeDream and DAPPLE use).
 */
#ifndef SB_PIPE_H
#define SB_PIPE_H

#include "sb.h"

/* One layer of the (linearised) model. */
struct sb_layer {
	char name[48];
	double fwd;           /* forward seconds per sample */
	double bwd;           /* backward seconds per sample */
	double act;           /* bytes of its output activation per sample (sent to
	                         the next layer, and to the next stage at a cut) */
	double stash;         /* bytes kept per sample from forward to backward */
	double params;        /* bytes of parameters (fp32 unless stated) */
};

/* A model: layers in execution order. Owned; sb_pmodel_release. */
struct sb_pmodel {
	char name[64];
	int n;
	struct sb_layer *layer;
	int pbs;              /* batch size the profile was measured at (1 for
	                         analytic profiles) */
	char source[256];     /* "real: <file>" or "analytic: <description>" */
};

void sb_pmodel_release(struct sb_pmodel *m);

/* GPUs and the links between them. Owned; sb_topo_release. */
struct sb_topo {
	char name[64];
	int n;                /* GPUs */
	double *bw;           /* n x n bytes/s between two GPUs: the bottleneck of
	                         the widest path in the link graph; bw[g*n+g] is
	                         INFINITY (no transfer) */
	int *server;          /* server (machine) of each GPU */
	int nserver;
	double mem;           /* bytes of memory per GPU */
	double speed;         /* relative GPU speed (1: the profile's GPU) */
	double latency;       /* seconds per message */
};

void sb_topo_release(struct sb_topo *t);

#endif
