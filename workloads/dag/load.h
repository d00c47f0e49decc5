/*
 * load.h - loaders and generators of dag-family instances.
 *
 * Loaders read the public data sets described in ../shared/data/SOURCES.md
 * (TensorFlow graph and device CSVs of Mayer et al., STG files of Tobita and
 * Kasahara, the HEFT example CSVs of Topcuoglu et al.); generators build the
 * seeded synthetic instances of the spec (tfpart.md, section 7).
 *
 * Conventions shared by every loader:
 *   - return 0, SB_EXIT_INPUT for bad input or SB_EXIT_RUN when memory runs
 *     out; err (may be NULL) then holds one line naming the file, the line
 *     and the field: "cannot read graph 'g.csv': line 3: field '#operations':
 *     not a number";
 *   - on success the caller owns the result and frees it with the matching
 *     release function (sb_dag_release, sb_devices_release,
 *     sb_dag_inst_release); on failure nothing is left to free and the
 *     output struct is zeroed (releasing it anyway is harmless);
 *   - ops are numbered 0..n-1 in increasing file-id order and the file id is
 *     kept in g->ext_id.
 *
 * Generators take every random draw from the struct sb_rng they are given:
 * the same stream state gives bit-identical output. They cannot fail on
 * valid parameters (out of memory is fatal); invalid parameters are a bug
 * of the caller (the harness validates user options first).
 */
#ifndef SB_WORKLOADS_DAG_LOAD_H
#define SB_WORKLOADS_DAG_LOAD_H

#include "dag/dag.h"
#include "wlfile.h"
#include "rng.h"
#include "sb.h"

/* ------------------------------------------------------------------ */
/* TensorFlow graphs and device sets (Mayer et al.), tfcsv.c           */
/* ------------------------------------------------------------------ */

/*
 * Read a graph CSV: header line skipped (and line 2 too when the first
 * field of line 1 is "Meta"); one op per line in any order; columns Id,
 * outgoing ids, incoming ids, colocation ids (';'-separated), #tensorSize,
 * #operations, RAM storage, device constraint (NO/CPU/GPU/TPU), name.
 * Every layout has the same number of columns on every line:
 *   9 columns - as above (name ignored);
 *   8 columns - without the name;
 *   6 columns - the legacy layout of sample_graph.csv without RAM and
 *               constraint: ram = 0 and no constraint.
 * An edge may be listed in either or both endpoint lists (duplicates are
 * merged); colocation lists merge transitively into components. Fills g
 * (owned by the caller). Rejects unknown or duplicate ids, self-loops and
 * cycles with SB_EXIT_INPUT.
 */
int sb_load_tf_graph(const char *path, struct sb_dag *g, struct sb_err *err);

/*
 * Read a device CSV: header skipped; rows Id (0, 1, ... in order), RAM,
 * #operations (speed, > 0), upper-triangular rates to the devices with a
 * larger id (';'-separated, > 0; empty for the last device), type
 * (CPU/GPU/TPU). The rate matrix is made symmetric with a zero diagonal.
 * Fills d (owned by the caller).
 */
int sb_load_tf_devices(const char *path, struct sb_devices *d,
		       struct sb_err *err);

/*
 * Both of the above into an instance: send_ops = 10, etc = NULL,
 * name = graph file name without directory and extension,
 * source = "graph=<graph_csv> devices=<device_csv>". Owned by the caller
 * (sb_dag_inst_release).
 */
int sb_load_tf_inst(const char *graph_csv, const char *device_csv,
		    struct sb_dag_inst *in, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Standard Task Graph Set (Tobita & Kasahara), stg.c                  */
/* ------------------------------------------------------------------ */

/*
 * Read an STG file, standard layout (line 1 "n", then the n+2 tasks 0..n+1
 * as "id time k pred_1 .. pred_k" in any order) or prototype layout (line 1
 * "n p", tasks 1..n+1, optionally an added entry line "0 0 0"). Lines
 * starting with '#' form the information part; a line of it mentioning the
 * critical path ("CP Length : 1401", "Critical Path ... 1401") gives
 * *trailer_cp, which is -1 when absent (trailer_cp may be NULL).
 * The dummy tasks stay as zero-work ops. Instance: ndev (>= 1) identical
 * CPU devices of speed 1, memory INFINITY, free transfers (rates
 * INFINITY), send_ops = 0, out = ram = 0. Owned by the caller.
 */
int sb_load_stg(const char *path, int ndev, struct sb_dag_inst *in,
		long *trailer_cp, struct sb_err *err);

/* ------------------------------------------------------------------ */
/* ETC matrices of the HEFT literature (Topcuoglu et al.), etc.c       */
/* ------------------------------------------------------------------ */

/*
 * Read the three CSVs of an unrelated-machines instance:
 *   exe_csv  - header "TP,P_0,..", one row "T_i,w(i,P_0),.." per task;
 *   conn_csv - square matrix, header "T,T0,.." or "T,T_0,..", entry (i,j)
 *              = data on edge i -> j, 0 = no edge;
 *   bw_csv   - square symmetric bandwidth matrix "P,P_0,.." (diagonal
 *              ignored), optionally followed by a row "Startup,L_0,.." whose
 *              entries must be 0 (start-up costs are not supported).
 * Instance: etc = the matrix (n*ndev), edge sizes = the connectivity
 * entries, rate = bandwidth (so an edge costs data/bandwidth), devices of
 * speed 1, memory INFINITY, type CPU; ops(v) = mean ETC of v, out(v) =
 * largest outgoing data, send_ops = 0. Owned by the caller.
 */
int sb_load_etc(const char *exe_csv, const char *conn_csv, const char *bw_csv,
		struct sb_dag_inst *in, struct sb_err *err);

/* The same from a prefix: "dir/canonicalgraph" reads
 * dir/canonicalgraph_task_exe_time.csv, _task_connectivity.csv and
 * _resource_BW.csv. */
int sb_load_etc_prefix(const char *prefix, struct sb_dag_inst *in,
		       struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Generators, gen.c                                                   */
/* ------------------------------------------------------------------ */

/* Layered random DAGs of the authors' Connected_DAG_Generator. */
struct sb_layered_params {
	int levels;               /* number of levels (100) */
	int min_width, max_width; /* nodes per level ~ U{min..max} (1..80) */
	double p;                 /* edge probability to each candidate parent */
	int max_dist;             /* candidate parents: levels i-1 .. i-max_dist (4) */
	double long_range_frac;   /* ceil(frac*m) long-range attempts (0.1) */
	int coloc;                /* 1: draw colocation groups */
	double ops_lo, ops_hi;    /* ops ~ U{lo..hi} integers (1..100) */
	double out_lo, out_hi;    /* out ~ U{lo..hi} (1..100) */
	double ram_lo, ram_hi;    /* ram ~ U{lo..hi} (1..100) */
	double p_cpu_only, p_gpu_only; /* constraint probabilities (0.01 each) */
};

/* The spec's defaults (values in the comments above; p = 0.05, an
 * arbitrary middle of the 1e-3..1 range the paper's graphs need). */
void sb_layered_defaults(struct sb_layered_params *p);

/*
 * Generate a layered DAG into g (owned by the caller, sb_dag_release):
 * nodes numbered level by level; each node of level i gets an edge from
 * each node of levels i-max_dist..i-1 with probability p; then
 * ceil(long_range_frac*m) attempts at an edge between two uniformly drawn
 * nodes, kept when their levels differ and the edge is new (lower to higher
 * index); costs and constraints per node; then colocation groups of sizes
 * i = 2, 3, ...: floor((n/5)*U(0,1)*2^-i) groups of distinct nodes not yet
 * grouped whose constraints agree. Time and memory O(n + m).
 */
void sb_gen_layered(struct sb_dag *g, const struct sb_layered_params *p,
		    struct sb_rng *r);

/* Device sets of the authors' DeviceGenerator. */
struct sb_devgen_params {
	int n;             /* devices (50) */
	double s_lo, s_hi; /* speed ~ U{s_lo..s_hi} integers (10..100) */
	double p_cpu;      /* type CPU with this probability, else GPU (0.6) */
	double mem_num;    /* M(d) = floor(mem_num * s_lo / s(d)) (1e8) */
	double r_lo, r_hi; /* rate ~ U{r_lo..r_hi} per unordered pair (10..60) */
};

void sb_devgen_defaults(struct sb_devgen_params *p);
/* Generate devices into d (owned by the caller, sb_devices_release). */
void sb_gen_devices(struct sb_devices *d, const struct sb_devgen_params *p,
		    struct sb_rng *r);

/*
 * A small random instance for exact-optimum tests: n ops with ops ~
 * U{1..20}, out ~ U{1..10}, ram = 0, an edge i -> j (i < j) with
 * probability edge_p; ndev CPU devices, the first ceil(ndev/2) of speed 1
 * and the others of speed 2; one rate ~ U{1..5} for every pair; memory
 * = the total memory demand (never binds); no constraints or colocation;
 * send_ops = 1; name "small-n<n>-d<ndev>", source naming the parameters.
 * Owned by the caller (sb_dag_inst_release).
 */
void sb_gen_small(struct sb_dag_inst *in, int n, int ndev, double edge_p,
		  struct sb_rng *r);

/*
 * The communication-intensity variant: keep the structure of g, redraw
 * out(v) ~ U{100..1000} and ops(v) = U{100..1000} * f for every op (in op
 * order, out first), and set every edge size to the new out of its source.
 */
void sb_gen_relations(struct sb_dag *g, double f, struct sb_rng *r);

#endif
