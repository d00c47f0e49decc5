/*
 * registry.c - the table of every registered object, built from the
 * generated list $(BUILD)/registry.def (scripts/gen-registry). Nothing here
 * names a policy, a type or a family: adding a file adds an entry, adding a
 * family adds a type.
 */
#include "registry.h"
#include "exp.h"
#include "family.h"

#include <stdlib.h>
#include <string.h>

/* Each entry is declared with its own (incomplete) struct type: only its
 * address is taken here, and its name read through the first member. */
#define SB_REG(type, var, file) extern const struct sb_##type var;
#include "registry.def"
#undef SB_REG

struct entry {
	const char *type;
	const void *obj;
	const char *file;
};

#define SB_REG(type, var, file) { #type, &var, file },
static const struct entry entries[] = {
#include "registry.def"
	{ NULL, NULL, NULL }
};
#undef SB_REG

#define NENTRY (sizeof entries / sizeof entries[0] - 1)

/* entries sorted by (type, name), built on first use; static storage */
static const struct entry *sorted[NENTRY + 1];
static const void *objs[NENTRY + 1];
static const char *types[NENTRY + 1];
static int ntypes = -1;

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;
	int c = strcmp(x->type, y->type);
	return c ? c : strcmp(sb_registry_name(x->obj), sb_registry_name(y->obj));
}

static void build(void)
{
	size_t i;
	if (ntypes >= 0)
		return;
	for (i = 0; i < NENTRY; i++)
		sorted[i] = &entries[i];
	qsort(sorted, NENTRY, sizeof *sorted, cmp_entry);
	ntypes = 0;
	for (i = 0; i < NENTRY; i++) {
		objs[i] = sorted[i]->obj;
		if (i == 0 || strcmp(sorted[i]->type, sorted[i - 1]->type))
			types[ntypes++] = sorted[i]->type;
	}
}

const void *const *sb_registry_list(const char *type, int *n)
{
	size_t lo = 0, hi;
	build();
	while (lo < NENTRY && strcmp(sorted[lo]->type, type))
		lo++;
	for (hi = lo; hi < NENTRY && !strcmp(sorted[hi]->type, type); hi++)
		;
	*n = (int)(hi - lo);
	return &objs[lo];
}

const void *sb_registry_find(const char *type, const char *name)
{
	int n, i;
	const void *const *l = sb_registry_list(type, &n);
	for (i = 0; i < n; i++)
		if (!strcmp(sb_registry_name(l[i]), name))
			return l[i];
	return NULL;
}

const char *sb_registry_file(const void *obj)
{
	size_t i;
	for (i = 0; i < NENTRY; i++)
		if (entries[i].obj == obj)
			return entries[i].file;
	return NULL;
}

const char *const *sb_registry_types(int *n)
{
	build();
	*n = ntypes;
	return types;
}

SB_REGISTRY_ACCESSORS(experiment, sb_experiments)
SB_REGISTRY_ACCESSORS(family, sb_families)

int sb_experiment_is_first(const struct sb_experiment *e)
{
	int n, i;
	const struct sb_experiment *const *all = sb_experiments(&n);
	for (i = 0; i < n; i++)
		if (all[i]->after && !strcmp(all[i]->after, e->name))
			return 1;
	return 0;
}
