/*
 * registry.c - the tables of registered policies and experiments, built
 * from the generated list $(BUILD)/registry.def (scripts/gen-registry).
 * Nothing here names a policy: adding a file adds an entry.
 */
#include "cluster.h"
#include "dag.h"
#include "pipe.h"
#include "registry.h"
#include "exp.h"

#include <stdlib.h>
#include <string.h>

#define SB_REG(type, var, file) extern const struct sb_##type var;
#include "registry.def"
#undef SB_REG

struct entry {
	const void *p;
	const char *file;
};

/* One table per type: every SB_REG_<type> skips its entries, except the
 * one a table switches to KEEP while it includes the list. */
#define SB_REG(type, var, file) SB_REG_##type(var, file)
#define KEEP(var, file) { &var, file },
#define SKIP(var, file)
#define SB_REG_dag_policy SKIP
#define SB_REG_cluster_policy SKIP
#define SB_REG_pipe_schedule SKIP
#define SB_REG_pipe_planner SKIP
#define SB_REG_experiment SKIP

#undef SB_REG_dag_policy
#define SB_REG_dag_policy KEEP
static const struct entry dag_entries[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_dag_policy
#define SB_REG_dag_policy SKIP

#undef SB_REG_cluster_policy
#define SB_REG_cluster_policy KEEP
static const struct entry cluster_entries[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_cluster_policy
#define SB_REG_cluster_policy SKIP

#undef SB_REG_pipe_schedule
#define SB_REG_pipe_schedule KEEP
static const struct entry pipe_sched_entries[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_pipe_schedule
#define SB_REG_pipe_schedule SKIP

#undef SB_REG_experiment
#define SB_REG_experiment KEEP
static const struct entry exp_entries[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_experiment
#define SB_REG_experiment SKIP

#undef SB_REG_pipe_planner
#define SB_REG_pipe_planner KEEP
static const struct entry pipe_planner_entries[] = {
#include "registry.def"
	{ NULL, NULL }
};
#undef SB_REG_pipe_planner
#define SB_REG_pipe_planner SKIP

static const char *dag_name(const void *p) { return ((const struct sb_dag_policy *)p)->name; }
static const char *cluster_name(const void *p)
{
	return ((const struct sb_cluster_policy *)p)->name;
}
static const char *exp_name(const void *p) { return ((const struct sb_experiment *)p)->name; }
static const char *pipe_sched_name(const void *p)
{
	return ((const struct sb_pipe_schedule *)p)->name;
}
static const char *pipe_planner_name(const void *p)
{
	return ((const struct sb_pipe_planner *)p)->name;
}

struct table {
	const struct entry *e;
	const char *(*name)(const void *);
	int n;
	const void **sorted;   /* by name */
};

#define NSLOT(a) (sizeof a / sizeof a[0])
static const void *dag_sorted[NSLOT(dag_entries)];
static const void *cluster_sorted[NSLOT(cluster_entries)];
static const void *exp_sorted[NSLOT(exp_entries)];
static const void *pipe_sched_sorted[NSLOT(pipe_sched_entries)];
static const void *pipe_planner_sorted[NSLOT(pipe_planner_entries)];

/* (static storage: no allocation, so lookups work whatever a test does to
 * the allocator) */
static struct table tables[5] = {
	{ dag_entries, dag_name, -1, dag_sorted },
	{ cluster_entries, cluster_name, -1, cluster_sorted },
	{ exp_entries, exp_name, -1, exp_sorted },
	{ pipe_sched_entries, pipe_sched_name, -1, pipe_sched_sorted },
	{ pipe_planner_entries, pipe_planner_name, -1, pipe_planner_sorted },
};

static const char *(*cmp_name)(const void *);

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(cmp_name(*(const void *const *)a), cmp_name(*(const void *const *)b));
}

/* The table sorted by name (built on first use; the registry is static). */
static struct table *get(int k)
{
	struct table *t = &tables[k];
	int i;
	if (t->n >= 0)
		return t;
	for (i = 0; t->e[i].p; i++)
		t->sorted[i] = t->e[i].p;
	t->n = i;
	cmp_name = t->name;
	qsort(t->sorted, (size_t)t->n, sizeof *t->sorted, cmp_entry);
	return t;
}

static const void *find(int k, const char *name)
{
	struct table *t = get(k);
	int i;
	for (i = 0; i < t->n; i++)
		if (strcmp(t->name(t->e[i].p), name) == 0)
			return t->e[i].p;
	return NULL;
}

static const char *file_of(int k, const void *p)
{
	struct table *t = get(k);
	int i;
	for (i = 0; i < t->n; i++)
		if (t->e[i].p == p)
			return t->e[i].file;
	return NULL;
}

const struct sb_dag_policy *const *sb_dag_policies(int *n)
{
	struct table *t = get(0);
	*n = t->n;
	return (const struct sb_dag_policy *const *)t->sorted;
}

const struct sb_dag_policy *sb_dag_policy_find(const char *name)
{
	return find(0, name);
}

const char *sb_dag_policy_file(const struct sb_dag_policy *p)
{
	return file_of(0, p);
}

const struct sb_cluster_policy *const *sb_cluster_policies(int *n)
{
	struct table *t = get(1);
	*n = t->n;
	return (const struct sb_cluster_policy *const *)t->sorted;
}

const struct sb_cluster_policy *sb_cluster_policy_find(const char *name)
{
	return find(1, name);
}

const char *sb_cluster_policy_file(const struct sb_cluster_policy *p)
{
	return file_of(1, p);
}

const struct sb_experiment *const *sb_experiments(int *n)
{
	struct table *t = get(2);
	*n = t->n;
	return (const struct sb_experiment *const *)t->sorted;
}

const struct sb_experiment *sb_experiment_find(const char *name)
{
	return find(2, name);
}

const char *sb_experiment_file(const struct sb_experiment *e)
{
	return file_of(2, e);
}

const struct sb_pipe_schedule *const *sb_pipe_schedules(int *n)
{
	struct table *t = get(3);
	*n = t->n;
	return (const struct sb_pipe_schedule *const *)t->sorted;
}

const struct sb_pipe_schedule *sb_pipe_schedule_find(const char *name)
{
	return find(3, name);
}

const struct sb_pipe_planner *const *sb_pipe_planners(int *n)
{
	struct table *t = get(4);
	*n = t->n;
	return (const struct sb_pipe_planner *const *)t->sorted;
}

const struct sb_pipe_planner *sb_pipe_planner_find(const char *name)
{
	return find(4, name);
}

const char *sb_pipe_planner_file(const struct sb_pipe_planner *p)
{
	return file_of(4, p);
}
