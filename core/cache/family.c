/*
 * family.c - the cache family's entry in the family table: `sb list cache`
 * and `sb eval cache`. The engine finds it through the generated registry;
 * no engine file names the family.
 */
#include "cache.h"
#include "cache/part.h"
#include "family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(cache_policy, sb_cache_policies)

static void list_partitioners(FILE *out)
{
	int n, i;
	const struct sb_cache_partitioner *const *p = sb_cache_partitioners(&n);

	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-14s %-8s %-16.16s %s\n", "cache", p[i]->name, "partition",
			p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-14s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static void list(FILE *out)
{
	int n, i;
	const struct sb_cache_policy *const *p = sb_cache_policies(&n);

	fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "cache", p[i]->name, "order",
			p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-14s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
	list_partitioners(out);
}

static const char *const value_opts[] = { "--n", NULL };

int sb_cache_eval(int argc, char **argv)
{
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_cache_inst in;
	struct sb_cache_result r;
	const struct sb_cache_policy *p;
	struct sb_opts o;
	struct sb_rng gen, rng;
	long n = 10;
	int i, rc;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *v;
		char *end;
		if ((rc = sb_eval_next(&sb_family_cache, &ea, argc, argv, &i, NULL, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		n = strtol(v, &end, 10);
		if (*end || n < 1 || n > 1000000)
			return sb_eval_fail(&sb_family_cache, "--n '%s': expected 1..1000000 jobs", v);
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_cache, &err);
	if (!(p = sb_cache_policy_find(ea.policy)))
		return sb_eval_fail(&sb_family_cache, "'%s' is not a registered cache policy", ea.policy);
	sb_opts_defaults(&o, p->params);
	for (i = 0; i < ea.nset; i++)
		if (sb_opts_set(&o, p->params, ea.sets[i], "--set", &err))
			return sb_eval_fail_err(&sb_family_cache, &err);
	gen = sb_rng_stream(ea.seed, 0, 0, SB_RNG_INSTANCE);
	rng = sb_rng_stream(ea.seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(p->name));
	sb_cache_gen(&in, (int)n, &gen);
	rc = sb_cache_run(&in, p, &o, &rng, &r, &err);
	if (rc) {
		sb_err_print(&err);
	} else {
		printf("jobs: %d\npolicy: %s\nobjective: %.10g\nvalid: yes\n", in.n, p->name,
		       r.objective);
		if (ea.bound) {
			double opt = sb_cache_opt(&in);
			printf("opt: %.10g\ngap_opt: %.6f\n", opt, r.objective / opt);
		}
		sb_cache_result_release(&r);
	}
	sb_cache_inst_release(&in);
	return rc;
}

static const char *const roles[] = { "cache_policy", "cache_partitioner", NULL };

const struct sb_family sb_family_cache = {
	.name = "cache",
	.desc = "<one line: the problem>",
	.roles = roles,
	.eval_usage = "[--n JOBS]",
	.eval = sb_cache_eval,
	.list = list,
};
