/*
 * run.c - evaluating a plan end to end: the simulator (sim.c) gives the
 * timeline, the independent checker (check.c) validates it, and only then
 * are its metrics reported. A plan that needs more memory than the GPUs
 * have is still checked (without the memory limit) and reported with
 * fits = 0.
 */
#include "pipeline.h"

#include <math.h>

int sb_pipeline_evaluate(const struct sb_pipeline_plan *p, const struct sb_pmodel *m,
		     const struct sb_topo *t, const struct sb_pipeline_schedule *sc,
		     const struct sb_opts *o, struct sb_pipeline_result *r, struct sb_err *err)
{
	char why[256];
	struct sb_topo unbounded;
	int rc = sb_pipeline_simulate(p, m, t, sc, o, r, err);
	if (rc)
		return rc;
	r->fits = r->peak_mem <= t->mem;
	unbounded = *t;
	if (!r->fits)
		unbounded.mem = INFINITY;
	if (sb_pipeline_check(p, m, &unbounded, sc, o, r, why, sizeof why)) {
		sb_pipeline_result_release(r);
		return sb_err_set(err, SB_EXIT_RUN, "checker rejects the timeline of plan %s "
				  "under schedule %s: %s", p->planner, sc->name, why);
	}
	return 0;
}
