/*
 * smd_policy.h - the allocate hook shared by smd and smd-oblivious.
 *
 * Family: alloc (core/alloc/).
 */
#ifndef SB_SMD_POLICY_H
#define SB_SMD_POLICY_H

#include "smd.h"

/* One slot of SMD: the round over the active jobs (layered as in
 * sb_smd_round_build), then each admitted job placed with its (w, p) on
 * one server if one holds it, else spread; a job that does not fit is
 * shrunk a worker at a time. */
void sb_smd_allocate(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, int layered);

#endif
