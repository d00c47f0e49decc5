/*
 * family.c - the cluster family's entry in the family table: online
 * scheduling and placement of training jobs on a GPU cluster.
 */
#include "cluster.h"
#include "family.h"

#include <stdio.h>

SB_REGISTRY_ACCESSORS(cluster_policy, sb_cluster_policies)

static void list(FILE *out)
{
	int n, i;
	const struct sb_cluster_policy *const *c = sb_cluster_policies(&n);

	fprintf(out, "%-7s %-13s %-9s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-7s %-13s %-9s %-16s %s\n", "cluster", c[i]->name,
			c[i]->place ? "place" : "schedule",
			c[i]->provenance ? c[i]->provenance : "", c[i]->desc);
		fprintf(out, "%-7s %-13s %-9s %-16s   %s\n", "", "", "", "", c[i]->cite);
	}
}

static const char *const roles[] = { "cluster_policy", NULL };

const struct sb_family sb_family_cluster = {
	.name = "cluster",
	.desc = "online scheduling and placement of training jobs on a GPU cluster",
	.roles = roles,
	.eval_usage = "(--jobs FILE.csv | --w1 N [--load L] | --tiresias 60_job.csv | "
		      "--philly jobs.json [--load L]) [--cluster NAME] [--b-out GBPS] "
		      "[--restart S] [--additive] [--replay] [--history GPUTIME.csv] [--warmup F] | "
		      "--topo T0|T1|T2|T3|FILE [--marl N [--load L] | --philly jobs.json --runtimes "
		      "philly_runtime.csv] [--agents N] [--interference on|off] [--types "
		      "dl2_job_types.csv] [--pred-epochs N]",
	.eval = sb_cluster_eval,
	.list = list,
	.adversary = &sb_cluster_adversary,
};
