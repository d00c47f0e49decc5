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
 * shrunk a worker at a time. exact = 1 replaces SMD's heuristic choice by
 * the round's MMKP ILP optimum (Myopic-OPT, smd.md §4), started from it.
 * Returns 0 or an exit code with err. */
int sb_smd_allocate(const struct sb_alloc_view *v, struct sb_alloc_plan *pl, int layered,
		    int exact, struct sb_err *err);

#endif
