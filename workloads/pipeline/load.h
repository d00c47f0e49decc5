/*
 * load.h - inputs of the pipeline family (spec pipeplan.md §2, §5, §8,
 * §9; dapple.md §2, §5): measured per-layer profiles (PipeDream graph.txt
 * and DAPPLE profiling_results/<model>.txt), analytic per-layer profiles with a
 * roofline time model, and GPU topologies as widest-path bandwidth
 * matrices.
 *
 * Loaders follow the conventions of workloads/dag/load.h: 0, SB_EXIT_INPUT with a
 * message naming file, line and field, or SB_EXIT_RUN when memory runs
 * out; on failure the output struct is zeroed (releasing it is harmless);
 * on success the caller owns it (sb_pmodel_release, sb_topo_release).
 */
#ifndef SB_WORKLOADS_PIPELINE_LOAD_H
#define SB_WORKLOADS_PIPELINE_LOAD_H

#include "pipeline/pipeline.h"
#include "rng.h"
#include "sb.h"

/* ------------------------------------------------------------------ */
/* Measured profiles, profiles.c                                       */
/* ------------------------------------------------------------------ */

/*
 * Read a PipeDream graph.txt measured at batch size pbs (>= 1) and
 * linearise it into a chain of layers as PipeDream's optimizer does
 * (profiles.c explains the exact rule):
 *   - node lines "nodeK -- <desc> -- forward_compute_time=<ms>,
 *     backward_compute_time=<ms>, activation_size=<bytes | [b1; b2; ..]>,
 *     parameter_size=<bytes>[ -- stage_id=<S>]" (a list is summed);
 *   - edge lines "nodeA -- nodeB" starting with blanks (tab, two spaces,
 *     space+tab); blank lines skipped; ids need not be contiguous; node and
 *     edge lines in any order; the last line may lack its newline;
 *   - source nodes whose description starts with "Input" are dropped
 *     (their cost zeroed), then sink nodes whose description starts with
 *     "__getitem__";
 *   - every layer: fwd/bwd = the sum over its nodes of the times in ms
 *     / 1000 / pbs (seconds per sample), params = sum of parameter sizes
 *     (bytes), act = bytes per sample of the activations crossing the cut
 *     after it (for the last layer: the outputs of its sink nodes), stash =
 *     bytes per sample of the activations of its own nodes (PipeDream has
 *     no separate stash: its memory model counts each node's output).
 * Rejects unknown or duplicate ids, self-loops, cycles and bad numbers
 * (negative, NaN, infinite). m->pbs = pbs; m->name = the directory of a
 * file named graph.txt (else the file name without extension);
 * m->source = "real: <path> (...)".
 */
int sb_load_pipedream_profile(const char *path, int pbs, struct sb_pmodel *m,
			      struct sb_err *err);

/*
 * Read a DAPPLE profiling_results/<model>.txt file: the layout above (DAPPLE's
 * parser is the same), the profile batch size from the file name
 * ("...-pbs-<N>..."; SB_EXIT_INPUT when the name has none, e.g. vgg16.txt,
 * which is PipeDream's vgg16 profile: read it with the loader above).
 * Sizes are read as bytes, except in the hand-edited vgg-19-pbs-32.txt
 * (recognised by its sha256), whose sizes are in units of 1e-6 MiB
 * (1.048576 bytes): they are rescaled and the source says so.
 */
int sb_load_dapple_profile(const char *path, struct sb_pmodel *m,
			   struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Analytic profiles, profiles.c                                       */
/* ------------------------------------------------------------------ */

/* V100 roofline defaults (pipeplan.md §5). */
#define SB_V100_FP32_FLOPS 15.7e12  /* FLOP/s, CUDA cores */
#define SB_V100_FP16_FLOPS 125e12   /* FLOP/s, tensor cores */
#define SB_V100_HBM_BW 900e9        /* bytes/s */

/*
 * Per-sample analytic profile of a named model (pipeplan.md §5 table and
 * formulas): "vgg19", "resnet50", "bert-large", "bert-48", "gpt2-xl",
 * "gnmt-16". Layer time = sum over its operators of FLOPs/(peak*u) +
 * bytes moved/HBM_BW with u per operator type (profiles.c, calibrated
 * against the measured V100 profiles). m->pbs = 1, m->source =
 * "analytic: ...". SB_EXIT_INPUT listing the known names otherwise;
 * SB_EXIT_RUN when out of memory.
 */
int sb_analytic_model(const char *name, struct sb_pmodel *m, struct sb_err *err);

/* The names sb_analytic_model knows, in a fixed order; *n gets the count. */
const char *const *sb_analytic_names(int *n);

/* ------------------------------------------------------------------ */
/* Topologies, topo.c                                                  */
/* ------------------------------------------------------------------ */

/* Link speeds, bytes/s per direction (pipeplan.md §2 and dapple.md §2). */
#define SB_BW_NVLINK2 25e9     /* one V100 NVLink2 link */
#define SB_BW_PCIE3 10e9       /* PCIe 3.0 x16, effective */
#define SB_BW_25GBE 3e9        /* 25 GbE, effective (= DAPPLE's NCCL figure) */
#define SB_BW_10GBE 1.2e9      /* 10 GbE, effective (pipeplan.md §2) */
#define SB_BW_IB100 12e9       /* 100 Gb InfiniBand, effective */
#define SB_BW_DAPPLE_10GBE 1.25e9 /* analysis_dapple.py's 10 GbE */
#define SB_GPU_MEM_16G 16e9    /* V100 16 GB (DAPPLE's GPU memory) */
#define SB_GPU_MEM_32G 32e9

/*
 * Build t from a link graph: vertices 0..ngpu-1 are GPUs, ngpu..ngpu+nhub-1
 * hubs (PCIe switches, NICs, network switches); link k joins a[k] and b[k]
 * with cap[k] bytes/s in each direction; links listed more than once
 * between the same two vertices add up (bonded NVLinks). bw[g][h] = the
 * widest-path (maximum bottleneck) bandwidth from g to h over all
 * vertices (Floyd-Warshall max-min closure); the diagonal is INFINITY.
 * server[g] (0 <= server[g] < ngpu; NULL: every GPU in server 0) gives the
 * server ids, nserver = largest + 1. mem = 16 GB, speed = 1, latency = 0.
 * SB_EXIT_INPUT for bad counts, endpoints, capacities or a GPU pair with no
 * path (disconnected); SB_EXIT_RUN when out of memory.
 */
int sb_topo_from_links(struct sb_topo *t, const char *name, int ngpu, int nhub,
		       const int *server, int nlinks, const int *a, const int *b,
		       const double *cap, struct sb_err *err);

/*
 * A named topology: "dgx1", "pcie4", "2x8-nvlink-25gbe" (T-a),
 * "4x4-pcie-10gbe" (T-b), "config-a", "config-b", "config-c" (DAPPLE's
 * hardware configurations), or "SxG:INTRA[:INTER]": S servers of G GPUs
 * with INTRA bytes/s between GPUs of one server and INTER between
 * servers (PipeDream's optimizer's -n G S -b INTRA INTER; INTER only and
 * always when S > 1). topo.c lists the link graphs and sources.
 */
int sb_topo_named(const char *name, struct sb_topo *t, struct sb_err *err);
const char *const *sb_topo_names(int *n);

/*
 * A seeded random irregular topology of ngpus GPUs (1..256; the spec's
 * T-c uses 8..64): servers of 1, 2, 4 or 8 GPUs, NVLink islands of random
 * sizes inside them, PCIe inside every server, Ethernet or InfiniBand
 * uplinks of random speed between servers plus a few direct server links,
 * then the widest-path closure (topo.c). Every draw comes from r; out of
 * memory is fatal.
 */
void sb_topo_random(struct sb_topo *t, int ngpus, struct sb_rng *r);

#endif
