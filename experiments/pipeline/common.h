/*
 * common.h - what the pipeline-family experiments share: the models and
 * topologies of the figures (real DAPPLE/PipeDream profiles when DATA_DIR
 * has them, the project's analytic profiles otherwise), and planning,
 * simulating and checking one (model, topology, batch, planner) into a
 * results row.
 */
#ifndef SB_EXPERIMENTS_PIPELINE_COMMON_H
#define SB_EXPERIMENTS_PIPELINE_COMMON_H

#include "exp.h"
#include "pipeline/pipeline.h"

/* The columns every pipeline experiment row starts with. */
#define SB_PIPELINE_EXP_COLS \
	{ "model", SB_COL_STR, "" }, \
	{ "profile", SB_COL_STR, "" }, \
	{ "topo", SB_COL_STR, "" }, \
	{ "gpus", SB_COL_INT, "" }, \
	{ "planner", SB_COL_STR, "" }, \
	{ "schedule", SB_COL_STR, "" }, \
	{ "batch", SB_COL_DBL, "samples" }, \
	{ "M", SB_COL_INT, "" }, \
	{ "S", SB_COL_INT, "" }, \
	{ "copies", SB_COL_INT, "" }, \
	{ "stage_gpus", SB_COL_STR, "" }, \
	{ "stage_layers", SB_COL_STR, "" }, \
	{ "feasible", SB_COL_INT, "" }, \
	{ "fits", SB_COL_INT, "" }, \
	{ "iter_time", SB_COL_DBL, "s" }, \
	{ "throughput", SB_COL_DBL, "samples/s" }, \
	{ "speedup", SB_COL_DBL, "" }, \
	{ "bubble", SB_COL_DBL, "" }, \
	{ "peak_mem_gb", SB_COL_DBL, "GB" }, \
	{ "lb", SB_COL_DBL, "s" }, \
	{ "ratio_lb", SB_COL_DBL, "" }

#define SB_PIPELINE_EXP_TIMING_COLS \
	{ "model", SB_COL_STR, "" }, \
	{ "topo", SB_COL_STR, "" }, \
	{ "gpus", SB_COL_INT, "" }, \
	{ "layers", SB_COL_INT, "" }, \
	{ "planner", SB_COL_STR, "" }, \
	{ "batch", SB_COL_DBL, "samples" }, \
	{ "plan_seconds", SB_COL_DBL, "s (wall clock)" }, \
	{ "sim_seconds", SB_COL_DBL, "s (wall clock)" }

/*
 * A model of the figures by name: "vgg19", "bert-48", "gnmt-16",
 * "xlnet-36", "amoeba-36", "resnet50" read from DATA_DIR's DAPPLE or
 * PipeDream profile when present (registered as an input, *real = 1),
 * else the analytic profile of the same name (*real = 0); "bert-large",
 * "gpt2-xl" are analytic only. SB_EXIT_INPUT for a model with neither (a
 * real-only model whose file is absent), with err saying so.
 */
int sb_pipeline_exp_model(struct sb_exp_ctx *c, const char *name, struct sb_pmodel *m, int *real,
		    struct sb_err *err);
/* 1 if sb_pipeline_exp_model can load `name` here (analytic, or its file is in
 * DATA_DIR). */
int sb_pipeline_exp_model_available(const struct sb_exp_ctx *c, const char *name);

/*
 * Plan `model` on `topo` with the planner of `label` ("PLANNER" or
 * "PLANNER+SCHEDULE": the schedule then overrides the planner's choice
 * and the planner plans for it), global batch `batch`, M microbatches (0:
 * the planner chooses), options `set` ("k=v,k=v" for the planner; NULL:
 * none); simulate one iteration and check it (sb_pipeline_evaluate); append a
 * row to out (and to timing). A planner that finds no plan that fits is a
 * row with feasible = 0 (metrics NaN); a timeline the checker rejects is
 * an error. If plan_out is not NULL the plan is moved there when feasible
 * (caller releases; otherwise it is zeroed). 0 or an exit code with err.
 */
int sb_pipeline_exp_run(const struct sb_pmodel *m, const struct sb_topo *t, const char *label,
		  const char *set, double batch, int M, struct sb_table *out,
		  struct sb_table *timing, struct sb_pipeline_plan *plan_out, struct sb_err *err);

/* Plan only: the planner of label (see above) with its options `set`;
 * *sc gets the schedule the plan runs under; *plan_seconds the planner's
 * wall time. 0; SB_EXIT_RUN when nothing of the planner's family fits;
 * another exit code with err. Owner of plan: the caller (zeroed on
 * failure). */
int sb_pipeline_exp_plan(const struct sb_pmodel *m, const struct sb_topo *t, const char *label,
		   const char *set, double batch, int M, struct sb_pipeline_plan *plan,
		   const struct sb_pipeline_schedule **sc, double *plan_seconds, struct sb_err *err);

/* Simulate and check plan under sc (sb_pipeline_evaluate) and append its row
 * (planner column = `planner`). A checker failure is an error, never a
 * row. *sim_seconds (may be NULL): the wall time. */
int sb_pipeline_exp_eval(const struct sb_pmodel *m, const struct sb_topo *t,
		   const struct sb_pipeline_plan *plan, const struct sb_pipeline_schedule *sc,
		   const char *planner, struct sb_table *out, double *sim_seconds,
		   struct sb_err *err);

/* A synthetic chain of L transformer-like layers with jittered costs
 * (per sample: forward ~1.35 ms, backward 1.5-2x, 50 MB of parameters,
 * 4 MB of output), every draw from r; for planner-scaling figures. */
void sb_pipeline_exp_random_model(struct sb_pmodel *m, int L, struct sb_rng *r);

/* Seconds for one GPU of topo t to train `batch` samples of m (gradient
 * accumulation, no communication, no memory limit): the speed-up base. */
double sb_pipeline_exp_single_gpu(const struct sb_pmodel *m, const struct sb_topo *t, double batch);

/* ------------------------------------------------------------------ */
/* A grid experiment: points of (model, topology, batch, M), every     */
/* planner label of the list run at each point.                        */
/* ------------------------------------------------------------------ */

struct sb_pipeline_exp_point {
	int model;               /* index into the state's models */
	char topo[32];           /* a named topology, or "random-N" */
	uint64_t topo_key;       /* random topologies: the instance stream key */
	double batch;
	int M;
	int rep;
};

struct sb_pipeline_exp_state {
	int nmodel;
	struct sb_pmodel *model;
	int npt, cap;
	struct sb_pipeline_exp_point *pt;
	char **labels;           /* planner labels, NULL-ended (owned) */
	const char *set;         /* options for every planner, or NULL */
	void *extra;             /* the experiment's own, freed with sb_free */
};

/* Load the named models (sb_pipeline_exp_model) into a new state (c->state),
 * skipping the measured-only ones whose file is absent; inputs_note says
 * which were measured, analytic or skipped; s->model[k].name is the name
 * asked for. 0 or an exit code with err. */
int sb_pipeline_exp_setup(struct sb_exp_ctx *c, const char *const *names, int nmodel,
		    struct sb_err *err);
void sb_pipeline_exp_add(struct sb_pipeline_exp_state *s, int model, const char *topo, uint64_t key,
		   double batch, int M, int rep);
/* A state with no models, an experiment-owned zeroed `extra` of the given
 * size (returned), every registered planner as labels and `note` as the
 * inputs note: the set-up of the synthetic-instance experiments. */
void *sb_pipeline_exp_setup_synthetic(struct sb_exp_ctx *c, size_t extra, const char *note);

/* The grid of DAPPLE's figures (dapple.md §5, §7): vgg19, bert-48,
 * gnmt-16, xlnet-36, amoeba-36 (the first nmodel; measured-only ones
 * skipped without data) x Config A/B/C (the first nconf) x nbatch global
 * batches from the low end of DAPPLE's sweep of each model, multiplied by
 * `factor` at each step; M = 0 (the planner chooses); planner labels
 * `labels` (NULL-ended). */
int sb_pipeline_exp_dapple_grid(struct sb_exp_ctx *c, int nmodel, int nconf, int nbatch,
			  double factor, const char *const *labels, struct sb_err *err);

/* Every registered planner (sorted by name), or the given NULL-ended list. */
char **sb_pipeline_exp_planners(const char *const *only);
/* The topology of a point: named, or "random-N" drawn from the instance
 * stream of (seed, key). */
int sb_pipeline_exp_topo(const struct sb_exp_ctx *c, const struct sb_pipeline_exp_point *p,
		   struct sb_topo *t, struct sb_err *err);
/* run_point and teardown of a grid experiment. */
int sb_pipeline_exp_run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
			struct sb_table *timing, struct sb_err *err);
void sb_pipeline_exp_teardown(struct sb_exp_ctx *c);

#endif
