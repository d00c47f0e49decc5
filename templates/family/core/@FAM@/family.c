/*
 * family.c - the @FAM@ family's entry in the family table: `sb list @FAM@`
 * and `sb eval @FAM@`. The engine finds it through the generated registry;
 * no engine file names the family.
 */
#include "@FAM@.h"
#include "family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(@FAM@_policy, sb_@FAM@_policies)

static void list(FILE *out)
{
	int n, i;
	const struct sb_@FAM@_policy *const *p = sb_@FAM@_policies(&n);

	fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "@FAM@", p[i]->name, "order",
			p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-14s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static const char *const value_opts[] = { "--n", NULL };

int sb_@FAM@_eval(int argc, char **argv)
{
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_@FAM@_inst in;
	struct sb_@FAM@_result r;
	const struct sb_@FAM@_policy *p;
	struct sb_opts o;
	struct sb_rng gen, rng;
	long n = 10;
	int i, rc;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *v;
		char *end;
		if ((rc = sb_eval_next(&sb_family_@FAM@, &ea, argc, argv, &i, NULL, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		n = strtol(v, &end, 10);
		if (*end || n < 1 || n > 1000000)
			return sb_eval_fail(&sb_family_@FAM@, "--n '%s': expected 1..1000000 jobs", v);
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_@FAM@, &err);
	if (!(p = sb_@FAM@_policy_find(ea.policy)))
		return sb_eval_fail(&sb_family_@FAM@, "'%s' is not a registered @FAM@ policy", ea.policy);
	sb_opts_defaults(&o, p->params);
	for (i = 0; i < ea.nset; i++)
		if (sb_opts_set(&o, p->params, ea.sets[i], "--set", &err))
			return sb_eval_fail_err(&sb_family_@FAM@, &err);
	gen = sb_rng_stream(ea.seed, 0, 0, SB_RNG_INSTANCE);
	rng = sb_rng_stream(ea.seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(p->name));
	sb_@FAM@_gen(&in, (int)n, &gen);
	rc = sb_@FAM@_run(&in, p, &o, &rng, &r, &err);
	if (rc) {
		sb_err_print(&err);
	} else {
		printf("jobs: %d\npolicy: %s\nobjective: %.10g\nvalid: yes\n", in.n, p->name,
		       r.objective);
		if (ea.bound) {
			double opt = sb_@FAM@_opt(&in);
			printf("opt: %.10g\ngap_opt: %.6f\n", opt, r.objective / opt);
		}
		sb_@FAM@_result_release(&r);
	}
	sb_@FAM@_inst_release(&in);
	return rc;
}

static const char *const roles[] = { "@FAM@_policy", NULL };

const struct sb_family sb_family_@FAM@ = {
	.name = "@FAM@",
	.desc = "<one line: the problem>",
	.roles = roles,
	.eval_usage = "[--n JOBS]",
	.eval = sb_@FAM@_eval,
	.list = list,
};
