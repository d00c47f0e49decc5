/*
 * family.c - the dag family's entry in the family table: device placement
 * and per-device ordering of one training iteration's dataflow graph.
 */
#include "dag.h"
#include "family.h"

#include <stdio.h>

SB_REGISTRY_ACCESSORS(dag_policy, sb_dag_policies)

static void list(FILE *out)
{
	int n, i;
	const struct sb_dag_policy *const *p = sb_dag_policies(&n);

	fprintf(out, "%-6s %-12s %-10s %-28s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		const char *role = p[i]->partition && (p[i]->priority || p[i]->pick)
			? "both" : p[i]->partition ? "partition" : "schedule";
		fprintf(out, "%-6s %-12s %-10s %-28s %s\n", "dag", p[i]->name, role,
			p[i]->provenance ? p[i]->provenance : "", p[i]->desc);
		fprintf(out, "%-6s %-12s %-10s %-28s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static const char *const roles[] = { "dag_policy", NULL };

const struct sb_family sb_family_dag = {
	.name = "dag",
	.desc = "placement and per-device order of a dataflow graph on heterogeneous devices",
	.roles = roles,
	.eval_usage = "(--graph G.csv --devices D.csv | --stg F.stg --devices N | --etc PREFIX) "
		      "[--milp NODES [--milp-time SECONDS]] (NODES: branch-and-bound node "
		      "budget of the MILP bound, deterministic; SECONDS: wall-clock safety "
		      "net, default 600, reported when hit)",
	.eval = sb_dag_eval,
	.list = list,
	.adversary = &sb_dag_adversary,
};
