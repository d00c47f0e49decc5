/*
 * registry.c - the tables of registered policies and experiments, built
 * from the generated list $(BUILD)/registry.def (scripts/gen-registry).
 * Nothing here names a policy: adding a file adds an entry.
 */
#include "dag.h"
#include "registry.h"
#include "exp.h"

#include <stdlib.h>
#include <string.h>

#define SB_REG(type, var, file) extern const struct sb_##type var;
#include "registry.def"
#undef SB_REG

/* One table per type; SB_REG_<type> keeps only its own entries. */
#define SB_REG(type, var, file) SB_REG_##type(var, file)

#define SB_REG_dag_policy(var, file) { &var, file },
#define SB_REG_experiment(var, file)
static const struct { const struct sb_dag_policy *p; const char *file; } dag_table[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_dag_policy
#undef SB_REG_experiment

#define SB_REG_dag_policy(var, file)
#define SB_REG_experiment(var, file) { &var, file },
static const struct { const struct sb_experiment *p; const char *file; } exp_table[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_dag_policy
#undef SB_REG_experiment

#define NDAG ((int)(sizeof dag_table / sizeof dag_table[0]) - 1)
#define NEXP ((int)(sizeof exp_table / sizeof exp_table[0]) - 1)

static const struct sb_dag_policy *dag_sorted[NDAG + 1];
static const struct sb_experiment *exp_sorted[NEXP + 1];
static int sorted_done;

static int cmp_dag(const void *a, const void *b)
{
	return strcmp((*(const struct sb_dag_policy *const *)a)->name,
		      (*(const struct sb_dag_policy *const *)b)->name);
}

static int cmp_exp(const void *a, const void *b)
{
	return strcmp((*(const struct sb_experiment *const *)a)->name,
		      (*(const struct sb_experiment *const *)b)->name);
}

static void sort_tables(void)
{
	int i;
	if (sorted_done)
		return;
	for (i = 0; i < NDAG; i++)
		dag_sorted[i] = dag_table[i].p;
	for (i = 0; i < NEXP; i++)
		exp_sorted[i] = exp_table[i].p;
	qsort(dag_sorted, (size_t)NDAG, sizeof dag_sorted[0], cmp_dag);
	qsort(exp_sorted, (size_t)NEXP, sizeof exp_sorted[0], cmp_exp);
	sorted_done = 1;
}

const struct sb_dag_policy *const *sb_dag_policies(int *n)
{
	sort_tables();
	*n = NDAG;
	return dag_sorted;
}

const struct sb_dag_policy *sb_dag_policy_find(const char *name)
{
	int i;
	for (i = 0; i < NDAG; i++)
		if (strcmp(dag_table[i].p->name, name) == 0)
			return dag_table[i].p;
	return NULL;
}

const char *sb_dag_policy_file(const struct sb_dag_policy *p)
{
	int i;
	for (i = 0; i < NDAG; i++)
		if (dag_table[i].p == p)
			return dag_table[i].file;
	return NULL;
}

const struct sb_experiment *const *sb_experiments(int *n)
{
	sort_tables();
	*n = NEXP;
	return exp_sorted;
}

const struct sb_experiment *sb_experiment_find(const char *name)
{
	int i;
	for (i = 0; i < NEXP; i++)
		if (strcmp(exp_table[i].p->name, name) == 0)
			return exp_table[i].p;
	return NULL;
}

const char *sb_experiment_file(const struct sb_experiment *e)
{
	int i;
	for (i = 0; i < NEXP; i++)
		if (exp_table[i].p == e)
			return exp_table[i].file;
	return NULL;
}
