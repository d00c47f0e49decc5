/*
 * pbase_util.h - helpers shared by the pipeline baseline planners
 * (gpipe-balanced, dp, dp-overlap, pipedream, pipedream-2bw, piper). Not
 * a planner: it registers nothing.
 *
 * What they share: resolving the schedule a plan is made for (the
 * problem's, else the planner's default) and its in-flight caps, the
 * memory check every planner must pass before it returns a plan, the
 * choice of whole microbatch counts, and the min-max contiguous partition
 * of a chain (GPipe's balancing, also used by PipeDream-2BW).
 */
#ifndef SB_PBASE_UTIL_H
#define SB_PBASE_UTIL_H

#include "pipeline/pipeline.h"

/* Relative slack of the planners' memory checks: the simulator sums the
 * layers of a stage, the planners difference prefix sums, and a plan
 * accepted by one must not be rejected by the other over rounding. */
#define SB_PBASE_MEM_SLACK 1e-9

/* The schedule a plan for pb is made for: pb->sched, else the registered
 * schedule named def. Fills so with its default parameters (the caps of
 * registered schedules may read them). NULL with SB_EXIT_INPUT in err when
 * def is not registered. */
const struct sb_pipeline_schedule *sb_pbase_sched(const struct sb_pipeline_problem *pb,
					      const char *def, struct sb_opts *so,
					      struct sb_err *err);

/* In-flight cap of stage `stage` of an S-stage pipeline with M
 * microbatches under sc (sb_pipeline_sched_cap on a plan of that shape). */
int sb_pbase_cap(const struct sb_pipeline_schedule *sc, const struct sb_opts *so, int S, int M,
		 int stage);

/* Bytes per GPU a stage may use: the topology's memory less the slack. */
double sb_pbase_mem_limit(const struct sb_topo *t);

/*
 * Check that every stage of p fits the GPUs' memory under sc (in-flight
 * count from the schedule's cap, the model of sb_pipeline_stage_mem). 0 if it
 * does; else SB_EXIT_RUN with a message naming the planner, the first
 * stage that does not fit and the bytes it needs.
 */
int sb_pbase_check_mem(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		       const struct sb_pipeline_prefix *x, const struct sb_topo *t,
		       const struct sb_pipeline_schedule *sc, const struct sb_opts *so,
		       struct sb_err *err);

/* Fill the fields every planner sets the same way: batch and kappa from
 * pb, the planner's name, the schedule's name. */
void sb_pbase_finish(struct sb_pipeline_plan *p, const struct sb_pipeline_problem *pb,
		     const char *planner, const struct sb_pipeline_schedule *sc);

/* 1 if x is a whole number (within 1e-9). */
int sb_pbase_whole(double x);

/* Smallest whole divisor d >= want of x (x whole, >= 1); 0 when x is not
 * whole or has none. */
int sb_pbase_divisor_ge(double x, int want);

/* The GPUs of server k in id order into out (room for t->n); returns how
 * many. */
int sb_pbase_server_gpus(const struct sb_topo *t, int k, int *out);

#endif
