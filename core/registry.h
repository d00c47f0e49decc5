/*
 * registry.h - lookup of registered policies and experiments. The tables
 * are generated from the sources (scripts/gen-registry); see registry.c.
 */
#ifndef SB_REGISTRY_H
#define SB_REGISTRY_H

#include "dag.h"

struct sb_experiment;

/* The file a registered policy or experiment was defined in. */
const char *sb_dag_policy_file(const struct sb_dag_policy *p);
const struct sb_experiment *const *sb_experiments(int *n);
const struct sb_experiment *sb_experiment_find(const char *name);
const char *sb_experiment_file(const struct sb_experiment *e);

#endif
