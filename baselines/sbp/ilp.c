/*
 * ilp.c - the optimal SBP assignment by the GLPK ILP of core/sbp/ilp.c
 * (spec oneflow.md §9, ours [O]), started from the elimination planner's
 * plan. Stops on a node limit (deterministic); a solve that stops early
 * returns its incumbent, never claimed optimal (the experiments record the
 * status and the gap).
 */
#include "lp.h"
#include "sbp/sbp.h"

static const struct sb_param params[] = {
	{ "nodes", 20000, 1, 1e9, 1, "branch-and-bound node limit" },
	{ "mem", 0, 0, 1e18, 0, "per-device memory row in bytes (0: none)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	const struct sb_sbp_planner *elim = sb_sbp_planner_find("elim");
	struct sb_sbp_ilp_opts io = { 0 };
	struct sb_sbp_ilp_result res;
	struct sb_opts eo;
	int *start = SB_NEW(int, g->nop + 1), rc;

	io.node_limit = (long)sb_opts_get(o, "nodes");
	io.mem = sb_opts_get(o, "mem");
	if (elim) {
		sb_opts_defaults(&eo, elim->params);
		if (!elim->plan(g, &eo, start, err) && io.mem <= 0)
			io.start = start;
	}
	rc = sb_sbp_ilp(g, &io, sig, &res, err);
	if (!rc && res.status != 0 && res.status != 1)
		rc = sb_err_set(err, SB_EXIT_RUN, "no solution (%s)", sb_lp_status_name(res.status));
	sb_free(start);
	return rc;
}

const struct sb_sbp_planner sb_sbp_planner_ilp = {
	.name = "ilp",
	.cite = "flow-linearised SBP assignment ILP, solved by GLPK (ours)",
	.desc = "GLPK ILP over signatures, node-limited; optimal when proven",
	.provenance = "ours",
	.params = params,
	.plan = plan,
};
