/*
 * marl.h - workloads of the cluster family's topology-and-interference
 * mode (spec marl.md §5, §6; Zhao & Wu, IEEE TNSM 2022, abstract-only, so
 * all of this is [O], our design): the environment (topology, DL2 job
 * types, interference model, cluster), the synthetic Philly-like
 * generator (the default) and the trace-derived variant.
 */
#ifndef SB_WL_MARL_H
#define SB_WL_MARL_H

#include "cluster/cluster.h"
#include "cluster/interf.h"
#include "cluster/topo.h"
#include "rng.h"

/*
 * Everything one run of the mode needs. cl.interf points at interf and
 * interf.topo at topo, so an environment must not be moved or copied
 * after sb_marl_env_init (pass pointers).
 */
struct sb_marl_env {
	struct sb_cluster_tree topo;
	struct sb_interf interf;
	struct sb_cluster cl;
	char types_path[512];     /* dl2_job_types.csv read, or "" (builtin) */
};

/*
 * The environment on topology `topo` (T0, T1, T2, T3 or a file, see
 * sb_cluster_tree_named) with the DL2 job types from types_path (NULL or absent:
 * the table of spec §2, transcribed from the same file; the caller
 * records the file's sha256), interference on/off, pair-noise seed. The
 * cluster gets the topology's shape, a 30 s restart overhead (paid only by
 * preemptive schedulers, with interf.migrate = 1) and placeholder link
 * speeds that the mode does not use. 0 or SB_EXIT_INPUT naming the file.
 */
int sb_marl_env_init(struct sb_marl_env *e, const char *topo, const char *types_path,
		     int interference, uint64_t noise_seed, struct sb_err *err);
void sb_marl_env_release(struct sb_marl_env *e);

/* The 8 DL2 types of spec §2 [V, DL2 trace.py]: names, t_comp (s), size
 * (MB), as in dl2_job_types.csv. */
#define SB_MARL_NTYPE 8
extern const char *const sb_marl_type_name[SB_MARL_NTYPE];
extern const double sb_marl_type_tcomp[SB_MARL_NTYPE];
extern const double sb_marl_type_size[SB_MARL_NTYPE];

/* ------------------------------------------------------------------ */
/* Synthetic Philly-like generator (spec §5)                           */
/* ------------------------------------------------------------------ */

struct sb_marl_gen {
	int njobs;                /* 200 */
	double load;              /* rho = E[w dur] lambda / #GPUs, 0.7 */
	double dur_min, dur_max;  /* isolated duration ~ LogUniform, 600 s .. 8 h */
	double wmix[4];           /* P(w = 1, 2, 4, 8): 0.45, 0.25, 0.20, 0.10 */
	int w1_only;              /* 1: every job has one worker (tests) */
};
void sb_marl_gen_defaults(struct sb_marl_gen *p);
/*
 * Job set of p->njobs jobs on e: type uniform over the types, w from the
 * mix (capped at the GPUs of one rack, where the fill rule can put it),
 * isolated duration d, I_j = max(1, round(d / tau_iso)), Poisson
 * arrivals at the rate that gives load rho. All draws from r. Owned by js.
 */
void sb_marl_generate(const struct sb_marl_env *e, const struct sb_marl_gen *p,
		      struct sb_rng *r, struct sb_jobset *js);

/*
 * The trace-derived variant: arrival times and GPU counts of p->njobs
 * consecutive jobs of Philly's jobs.json (a window starting at a job drawn
 * from r; arrivals rescaled to load rho; >= 4 GPUs in the file, rounded to
 * 4 or 8 workers), isolated durations drawn from philly_runtime.csv
 * (values > 0, clipped to [dur_min, dur_max]), model types synthetic
 * (uniform). Labelled "trace-derived" in js->source. 0 or SB_EXIT_INPUT
 * naming the file.
 */
int sb_marl_from_philly(const struct sb_marl_env *e, const struct sb_marl_gen *p,
			const char *jobs_json, const char *runtime_csv, struct sb_rng *r,
			struct sb_jobset *js, struct sb_err *err);

/* Fill js->model with e's types (CNN records whose gradient is the model
 * size; the mode reads only name and type index). */
void sb_marl_models(const struct sb_marl_env *e, struct sb_jobset *js);

#endif
