/*
 * registry.h - every registered object of the build: policies of every
 * family, experiments and the families themselves. The list is generated
 * from the sources (scripts/gen-registry): a file that ends with
 *     const struct sb_<type> sb_<type>_<name> = { .name = "<name>", ... };
 * is an entry of <type>. The registry knows no type: it only requires that
 * every registered struct begin with `const char *name` (each family header
 * asserts it with SB_REGISTERED). A family's types are named <family>_<role>
 * ("dag_policy", "pipeline_planner"); "experiment" and "family" are the
 * engine's own.
 */
#ifndef SB_REGISTRY_H
#define SB_REGISTRY_H

#include <stddef.h>

/* Every registered object of `type`, sorted by name; *n is their count.
 * Static storage: no allocation, so lookups work whatever a test does to
 * the allocator. */
const void *const *sb_registry_list(const char *type, int *n);
/* The object of `type` called `name`, or NULL. */
const void *sb_registry_find(const char *type, const char *name);
/* The source file a registered object was defined in, or NULL. */
const char *sb_registry_file(const void *obj);
/* The registered types, each once, sorted; *n is their count. */
const char *const *sb_registry_types(int *n);
/* The name of a registered object (its first member). */
static inline const char *sb_registry_name(const void *obj)
{
	return *(const char *const *)obj;
}

/* In a family header: the registered struct begins with its name. */
#define SB_REGISTERED(type) \
	_Static_assert(offsetof(struct type, name) == 0, #type ": name must be the first member")

/* In a family source: the typed accessors of one registered type T,
 *   const struct sb_T *const *LIST(int *n);
 *   const struct sb_T *sb_T_find(const char *name);
 *   const char *sb_T_file(const struct sb_T *p);
 * (declare them in the family header). */
#define SB_REGISTRY_ACCESSORS(T, LIST)                                               \
	const struct sb_##T *const *LIST(int *n)                                     \
	{                                                                            \
		return (const struct sb_##T *const *)sb_registry_list(#T, n);        \
	}                                                                            \
	const struct sb_##T *sb_##T##_find(const char *name)                         \
	{                                                                            \
		return (const struct sb_##T *)sb_registry_find(#T, name);            \
	}                                                                            \
	const char *sb_##T##_file(const struct sb_##T *p)                            \
	{                                                                            \
		return sb_registry_file(p);                                          \
	}

struct sb_experiment;
struct sb_family;

const struct sb_experiment *const *sb_experiments(int *n);
const struct sb_experiment *sb_experiment_find(const char *name);
const char *sb_experiment_file(const struct sb_experiment *e);
/* 1 when another experiment reads this one's results (names it in its
 * `after`), else 0. */
int sb_experiment_is_first(const struct sb_experiment *e);
const struct sb_family *const *sb_families(int *n);
const struct sb_family *sb_family_find(const char *name);
const char *sb_family_file(const struct sb_family *f);

#endif
