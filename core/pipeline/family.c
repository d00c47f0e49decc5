/*
 * family.c - the pipeline family's entry in the family table: planning
 * and scheduling one synchronous iteration of pipeline + data parallelism.
 */
#include "pipeline.h"
#include "family.h"

#include <stdio.h>

SB_REGISTRY_ACCESSORS(pipeline_planner, sb_pipeline_planners)
SB_REGISTRY_ACCESSORS(pipeline_schedule, sb_pipeline_schedules)

static void list(FILE *out)
{
	int n, i;
	const struct sb_pipeline_planner *const *pl = sb_pipeline_planners(&n);
	const struct sb_pipeline_schedule *const *sc;

	fprintf(out, "%-8s %-16s %-9s %-22s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-16s %-9s %-22s %s (runs under %s)\n", "pipeline", pl[i]->name,
			"planner", pl[i]->provenance ? pl[i]->provenance : "", pl[i]->desc,
			pl[i]->schedule);
		fprintf(out, "%-8s %-16s %-9s %-22s   %s\n", "", "", "", "", pl[i]->cite);
	}
	sc = sb_pipeline_schedules(&n);
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-16s %-9s %-22s %s\n", "pipeline", sc[i]->name, "schedule",
			sc[i]->provenance ? sc[i]->provenance : "", sc[i]->desc);
		fprintf(out, "%-8s %-16s %-9s %-22s   %s\n", "", "", "", "", sc[i]->cite);
	}
}

static const char *const roles[] = { "pipeline_planner", "pipeline_schedule", NULL };

const struct sb_family sb_family_pipeline = {
	.name = "pipeline",
	.desc = "pipeline + data-parallel planning and microbatch scheduling of one iteration",
	.roles = roles,
	.eval_usage = "(--model NAME | --dapple FILE | --pipedream FILE --pbs N) "
		      "(--topo NAME | --topo SERVERSxGPUS:INTRA[:INTER] | --random-topo NGPUS) "
		      "--batch B [--microbatches M] "
		      "[--mem GB] [--kappa K] [--opt]",
	.eval = sb_pipeline_eval,
	.list = list,
	.adversary = &sb_pipeline_adversary,
};
