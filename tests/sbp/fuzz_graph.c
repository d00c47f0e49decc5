/*
 * fuzz_graph.c - libFuzzer harness of the sbp family's graph file loader
 * (sb_sbp_load_graph, `sb eval sbp --graph FILE`): the input is the file,
 * loaded on 2 devices or on a 2x2 hierarchy (the input's last byte). A
 * graph it accepts is planned by one of the cheap planners (greedy, elim,
 * data-parallel) through sb_sbp_run, which runs the independent checker:
 * a planner may find the graph outside its domain (bad input), but a plan
 * the checker rejects, or a cost that is not finite and >= 0, is a
 * finding. Corpus tests/sbp/fuzz/graph/, dictionary tests/sbp/fuzz/graph.dict.
 */
#include <math.h>

#include "sbp/sbp.h"
#include "tests/fuzzkit.h"
#include "workloads/sbp/models.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const planners[] = { "greedy", "elim", "data-parallel" };
	const char *path = sb_fuzz_file(0, ".txt", data, size);
	struct sb_err err = { 0, "" };
	struct sb_sbp_graph g;
	struct sb_sbp_place pl;
	struct sb_sbp_plan plan;
	struct sb_sbp_net net = { 5e-6, 25e9 };
	const struct sb_sbp_planner *p;
	struct sb_opts o;
	int pick = sb_fuzz_pick(data, size, 6), rc;

	if (pick & 1)
		SB_FUZZ_CHECK(sb_sbp_place_parse(&pl, "2x2", 4, "hierarchy", &err) == 0, "%s",
			      err.msg);
	else
		sb_sbp_place_1d(&pl, 2);
	if (!sb_fuzz_loaded1(sb_sbp_load_graph(&g, path, &pl, &err), &err, path))
		return 0;
	SB_FUZZ_CHECK(g.nop > 0, "accepted a graph of %d ops", g.nop);
	p = sb_sbp_planner_find(planners[pick / 2]);
	SB_FUZZ_CHECK(p != NULL, "planner %s not registered", planners[pick / 2]);
	sb_opts_defaults(&o, p->params);
	rc = sb_sbp_run(&g, p, &o, &net, &plan, &err);
	SB_FUZZ_CHECK(rc == 0 || rc == SB_EXIT_INPUT, "%s on an accepted graph: %s", p->name,
		      err.msg);
	if (rc == 0) {
		SB_FUZZ_CHECK(isfinite(plan.cost) && plan.cost >= 0 && plan.bytes >= 0,
			      "%s: cost %g, boxing bytes %g", p->name, plan.cost, plan.bytes);
		sb_sbp_plan_release(&plan);
	}
	sb_sbp_graph_release(&g);
	return 0;
}
