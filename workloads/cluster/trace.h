/*
 * trace.h - loaders of the GPU-cluster job traces, cluster shapes, model
 * tensor tables and value distributions used by the cluster family (spec:
 * ../shared/papers/asrpt.md, sections 8 and 9; data: ../shared/data/
 * SOURCES.md, sections 4 and 5).
 *
 * Conventions shared by every loader of this header (the ones of
 * workloads/dag/load.h, plus what is particular to traces):
 *   - return 0, SB_EXIT_INPUT for bad input or SB_EXIT_RUN when memory runs
 *     out; err (may be NULL) then holds one line naming the file, the line
 *     and the field: "cannot read trace '60_job.csv': line 12: field
 *     'num_gpu': not an integer: '2.5'";
 *   - on success the caller owns the result and frees it with the matching
 *     release function (sb_trace_release, sb_tensor_table_release, sb_free
 *     for sb_load_values); on failure nothing is left to free and the
 *     output is zeroed (releasing it anyway is harmless);
 *   - CSV files: the first non-blank line is the header and must name
 *     exactly the expected columns in the expected order (blanks around a
 *     name are ignored, case matters); every row has exactly as many fields;
 *     blank lines are skipped anywhere; CRLF and a missing final newline are
 *     accepted; fields are split at every ',' (no quoting);
 *   - numbers must be finite; times, sizes and counts must not be
 *     negative; a field documented as an integer must be written as one;
 *   - ids and names are kept as text: an id has 1..63 characters, a model
 *     name 1..31 (after trimming blanks); longer ones are rejected, never
 *     truncated;
 *   - a loaded trace has at least one job; its jobs are unique by id,
 *     sorted by (submit, file order), and the earliest submit is 0; every
 *     job has gpus >= 1 and a runtime that is either > 0 or unknown (< 0);
 *   - a job is only ever dropped (not loaded, and counted in ndropped with
 *     the reason in drop_note) for a reason listed at its loader; every
 *     other defect rejects the whole file.
 */
#ifndef SB_TRACE_H
#define SB_TRACE_H

#include "sb.h"
#include "wlfile.h"

/* ------------------------------------------------------------------ */
/* Job traces                                                          */
/* ------------------------------------------------------------------ */

struct sb_trace_job {
	char id[64];
	double submit;    /* seconds from the earliest submission in the file */
	int gpus;         /* GPUs held for the whole run, >= 1 */
	double runtime;   /* seconds; < 0 if unknown */
	long iters;       /* training iterations; -1 if unknown */
	char model[32];   /* model name as in the file; "" if unknown */
	int attempts;     /* runs until success; 1 if unknown */
};

struct sb_trace {
	int n;
	struct sb_trace_job *job; /* n jobs sorted by (submit, file order); owned */
	int ndropped;             /* jobs of the file not loaded */
	char drop_note[256];      /* "" or e.g. "2 jobs dropped: runtime 0 (2)" */
	char source[256];         /* "<loader>=<path>" (path cut at 256 bytes) */
};

/* Free the jobs and zero t. */
void sb_trace_release(struct sb_trace *t);

/*
 * The Tiresias job trace (60_job.csv of SymbioticLab/Tiresias), tiresias.c.
 * Header job_id,num_gpu,submit_time,iterations,model_name,duration,interval:
 *   job_id      -> id (text, unique in the file);
 *   num_gpu     -> gpus (integer >= 1);
 *   submit_time -> submit (seconds >= 0, shifted so the earliest is 0);
 *   iterations  -> iters (integer >= 1);
 *   model_name  -> model (kept as written, e.g. "googlenet", which is not
 *                  in the tensor table: the caller picks the fallback);
 *   duration    -> runtime (seconds > 0);
 *   interval    -> checked (seconds >= 0) and ignored: it is the gap to the
 *                  next submission, which submit_time already gives.
 * attempts = 1. Nothing is dropped: a zero duration is an error.
 */
int sb_load_tiresias_jobs(const char *path, struct sb_trace *t,
			  struct sb_err *err);

/*
 * The Philly job list (analysis/jobs.json of marwage/philly-traces),
 * philly.c: a JSON array of objects
 *   {"id": "application_..", "num_gpus": 8, "runtime": 3221.05,
 *    "attempts": [{"start_time": T, "end_time": T}, ..],
 *    "submitted_time": T}
 * with every T a "YYYY-MM-DD HH:MM:SS" string, read as UTC civil time
 * (no locale or time zone is consulted; seconds 00..59, no leap seconds).
 *   id             -> id (string, unique among the loaded jobs);
 *   num_gpus       -> gpus (integer literal >= 1);
 *   runtime        -> runtime: minutes in the file, * 60 here (not rounded);
 *   attempts       -> attempts (the length of the list); every attempt
 *                     needs both times, valid, with end >= start;
 *   submitted_time -> submit: seconds since the earliest submitted_time of
 *                     the loaded jobs.
 * Other keys are ignored; a key given twice in one object is an error.
 * The JSON reader is json.h's (\uXXXX decoded to UTF-8).
 * Dropped, not rejected (a well-formed job that cannot be replayed):
 *   "runtime 0"  - runtime == 0: the job never ran for a measurable time;
 *   "no attempt" - an empty attempts list: the job was never started.
 * The shared jobs.json has neither: all 3034 jobs load.
 */
int sb_load_philly_jobs(const char *path, struct sb_trace *t,
			struct sb_err *err);

/*
 * A single-column CSV of values: a header naming `column` (e.g. "runtime"
 * in philly_runtime.csv, "duration" in yarn-gput*.csv), then one finite
 * number >= 0 per row, in file order (at least one). *v (n doubles, from
 * sb_malloc) is owned by the caller and freed with sb_free; on failure
 * *v = NULL and *n = 0.
 */
int sb_load_values(const char *path, const char *column, double **v, int *n,
		   struct sb_err *err);

/* ------------------------------------------------------------------ */
/* Cluster shapes and model tensors (Tiresias), tiresias.c             */
/* ------------------------------------------------------------------ */

struct sb_cluster_shape {
	int switches, nodes_per_switch, gpus_per_node, cpus_per_node;
	double mem_gb;    /* memory per node in GB */
};

/*
 * A Tiresias cluster file (cluster_spec.csv, nXgY.csv): header
 * num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node and
 * exactly one data row (most of the shared files have no final newline);
 * the four counts are integers >= 1 with at most INT_MAX GPUs in all,
 * memory a number > 0.
 */
int sb_load_tiresias_cluster(const char *path, struct sb_cluster_shape *c,
			     struct sb_err *err);

/* Per-model tensor sizes: model k has the tensors off[k] .. off[k+1]-1. */
struct sb_tensor_table {
	int nmodel;
	char (*name)[32]; /* model names, in order of first appearance */
	int *off;         /* nmodel + 1 offsets into mb */
	double *mb;       /* sizes in MB, per model in tensor_index order */
};

/*
 * The derived table tiresias_model_tensors.csv: header
 * model,tensor_index,size_mb; rows in any order; each model's indices are
 * integers covering 0..k-1 exactly once (a gap or a repeat is an error);
 * sizes are numbers >= 0. At least one row.
 */
int sb_load_model_tensors(const char *path, struct sb_tensor_table *t,
			  struct sb_err *err);
/* Free the arrays and zero t. */
void sb_tensor_table_release(struct sb_tensor_table *t);
/* The sizes of `model` (exact name) with *count set to their number
 * (count may be NULL), or NULL and *count = 0 when the table has no such
 * model. Linear in nmodel. */
const double *sb_tensor_table_find(const struct sb_tensor_table *t,
				   const char *model, int *count);

/* ------------------------------------------------------------------ */
/* Helpers shared by the trace loaders (tiresias.c)                    */
/* ------------------------------------------------------------------ */

/* Report the first repeated id among job[0..n) (the one whose second
 * occurrence comes first in the file) as "line <l>: field '<field>':
 * duplicate id 'x' (also on line <k>)", with line[i] the line of job i.
 * SB_EXIT_RUN when out of memory. */
int sb_trace_unique_ids(const struct sb_trace_job *job, int n, const int *line,
			const struct sb_wl_file *f, const char *field,
			struct sb_err *err);

/* Shift the submit times of t (absolute, any origin) so the earliest is 0
 * and sort the jobs by (submit, file order). 0 or SB_EXIT_RUN. */
int sb_trace_order(struct sb_trace *t, const struct sb_wl_file *f,
		   struct sb_err *err);

#endif
