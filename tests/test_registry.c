/*
 * test_registry.c - the generated registry: every policy and experiment
 * is well formed, named after its file, unique, and complete.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "dag/dag.h"
#include "exp.h"
#include "pipeline/pipeline.h"
#include "registry.h"

/* "baselines/dag/m-topo.c" -> "m-topo" */
static void base_name(const char *file, char *out, size_t len)
{
	const char *slash = strrchr(file, '/'), *b = slash ? slash + 1 : file;
	size_t n = strcspn(b, ".");
	snprintf(out, len, "%.*s", (int)n, b);
}

static void check_params(const struct sb_param *p, const char *owner)
{
	for (; p && p->name; p++) {
		cr_assert(p->lo <= p->def && p->def <= p->hi, "%s: default of %s out of range",
			  owner, p->name);
		cr_assert(p->help && p->help[0], "%s: parameter %s has no help", owner, p->name);
	}
}

Test(registry, dag_policies_well_formed)
{
	int n, i, j;
	const struct sb_dag_policy *const *p = sb_dag_policies(&n);
	cr_assert_gt(n, 10);
	for (i = 0; i < n; i++) {
		char base[64];
		const char *file = sb_dag_policy_file(p[i]);
		cr_assert(file, "%s has no file", p[i]->name);
		base_name(file, base, sizeof base);
		cr_assert_str_eq(p[i]->name, base, "policy name must equal its file name");
		cr_assert(p[i]->cite && p[i]->cite[0], "%s: no citation", p[i]->name);
		cr_assert(p[i]->desc && p[i]->desc[0], "%s: no description", p[i]->name);
		cr_assert(p[i]->provenance && p[i]->provenance[0], "%s: no provenance", p[i]->name);
		cr_assert(p[i]->partition || p[i]->priority || p[i]->pick,
			  "%s: no hook at all", p[i]->name);
		if (p[i]->default_sched) {
			const struct sb_dag_policy *s = sb_dag_policy_find(p[i]->default_sched);
			cr_assert(s && (s->priority || s->pick), "%s: default scheduler '%s' is not a "
				  "registered scheduler", p[i]->name, p[i]->default_sched);
		}
		check_params(p[i]->params, p[i]->name);
		for (j = 0; j < i; j++)
			cr_assert_str_neq(p[i]->name, p[j]->name, "duplicate policy name");
		cr_assert_eq(sb_dag_policy_find(p[i]->name), p[i]);
	}
	cr_assert_null(sb_dag_policy_find("no-such-policy"));
}

Test(registry, combos_parse)
{
	struct sb_dag_combo c;
	struct sb_err err;
	cr_assert_eq(sb_dag_combo_parse(&c, "cp+pct", &err), 0);
	cr_assert_str_eq(c.label, "cp+pct");
	cr_assert_eq(sb_dag_combo_parse(&c, "heft", &err), 0);
	cr_assert_str_eq(c.sched->name, "heft-order");
	cr_assert_eq(sb_dag_combo_parse(&c, "pct+cp", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "not a registered dag partitioner"));
	cr_assert_eq(sb_dag_combo_parse(&c, "cp+cp", &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "not a registered dag scheduler"));
	cr_assert_eq(sb_dag_combo_parse(&c, "cp", &err), SB_EXIT_INPUT);
	cr_assert_eq(sb_dag_combo_parse(&c, "", &err), SB_EXIT_INPUT);
}

Test(registry, experiments_well_formed)
{
	int n, i, j;
	const struct sb_experiment *const *e = sb_experiments(&n);
	cr_assert_gt(n, 0);
	for (i = 0; i < n; i++) {
		char base[64];
		struct sb_opts o;
		struct sb_err err;
		const char *file = sb_experiment_file(e[i]);
		base_name(file, base, sizeof base);
		cr_assert_str_eq(e[i]->name, base, "experiment name must equal its file name");
		cr_assert(e[i]->setup && e[i]->run_point && e[i]->cols, "%s: incomplete", e[i]->name);
		cr_assert(e[i]->desc && e[i]->figure && e[i]->family, "%s: missing text", e[i]->name);
		check_params(e[i]->params, e[i]->name);
		/* the quick set must be valid for the declared parameters */
		sb_opts_defaults(&o, e[i]->params);
		if (e[i]->quick_set) {
			char buf[512], *tok, *save = NULL;
			snprintf(buf, sizeof buf, "%s", e[i]->quick_set);
			for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
				cr_assert_eq(sb_opts_set(&o, e[i]->params, tok, "quick", &err), 0,
					     "%s: %s", e[i]->name, err.msg);
		}
		for (j = 0; j < i; j++)
			cr_assert_str_neq(e[i]->name, e[j]->name);
		/* make reproduce waits for one level of `after` only */
		if (e[i]->after) {
			const struct sb_experiment *first = sb_experiment_find(e[i]->after);
			cr_assert(first, "%s: after '%s' is not an experiment", e[i]->name, e[i]->after);
			cr_assert_null(first->after, "%s: after '%s', which has an after itself",
				       e[i]->name, e[i]->after);
			cr_assert(sb_experiment_is_first(first));
		}
	}
}

Test(registry, pipeline_planners_and_schedules_well_formed)
{
	int n, i, j;
	const struct sb_pipeline_planner *const *p = sb_pipeline_planners(&n);
	const struct sb_pipeline_schedule *const *sc;
	for (i = 0; i < n; i++) {
		char base[64];
		const char *file = sb_pipeline_planner_file(p[i]);
		cr_assert(file, "%s has no file", p[i]->name);
		base_name(file, base, sizeof base);
		cr_assert_str_eq(p[i]->name, base, "planner name must equal its file name");
		cr_assert(p[i]->cite && p[i]->cite[0], "%s: no citation", p[i]->name);
		cr_assert(p[i]->desc && p[i]->desc[0], "%s: no description", p[i]->name);
		cr_assert(p[i]->provenance && p[i]->provenance[0], "%s: no provenance", p[i]->name);
		cr_assert(p[i]->plan, "%s: no plan hook", p[i]->name);
		cr_assert(p[i]->schedule && sb_pipeline_schedule_find(p[i]->schedule),
			  "%s: its schedule '%s' is not registered", p[i]->name,
			  p[i]->schedule ? p[i]->schedule : "(null)");
		check_params(p[i]->params, p[i]->name);
		for (j = 0; j < i; j++)
			cr_assert_str_neq(p[i]->name, p[j]->name, "duplicate planner name");
		cr_assert_eq(sb_pipeline_planner_find(p[i]->name), p[i]);
	}
	cr_assert_null(sb_pipeline_planner_find("no-such-planner"));
	sc = sb_pipeline_schedules(&n);
	cr_assert_geq(n, 2);
	for (i = 0; i < n; i++) {
		cr_assert(sc[i]->cite && sc[i]->cite[0], "%s: no citation", sc[i]->name);
		cr_assert(sc[i]->desc && sc[i]->desc[0], "%s: no description", sc[i]->name);
		cr_assert(sc[i]->provenance && sc[i]->provenance[0], "%s: no provenance",
			  sc[i]->name);
		cr_assert(sc[i]->pick, "%s: no pick hook", sc[i]->name);
		check_params(sc[i]->params, sc[i]->name);
		for (j = 0; j < i; j++)
			cr_assert_str_neq(sc[i]->name, sc[j]->name, "duplicate schedule name");
		cr_assert_eq(sb_pipeline_schedule_find(sc[i]->name), sc[i]);
	}
}
