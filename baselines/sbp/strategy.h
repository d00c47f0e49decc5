/*
 * strategy.h - the fixed parallel strategies of the sbp family as pins on
 * inputs, weights and their updates, completed by the greedy inference of
 * core/sbp (every other op takes its cheapest signature). One letter per
 * hierarchy axis: 'd' data parallel (input S(0), weights B, update B),
 * 'z' ZeRO-style (input S(0), weights and updates S(0): gathered before
 * use, gradients reduce-scattered), 't' Megatron tensor parallel (input
 * B, column weights S(1), row weights S(0), updates as their weights).
 * Ours [O], following the spec's definitions (oneflow.md §8.3).
 */
#ifndef SB_BASELINES_SBP_STRATEGY_H
#define SB_BASELINES_SBP_STRATEGY_H

#include "sbp/sbp.h"

/* axes: a string of ndim letters, or one letter for every axis */
int sb_sbp_fixed_plan(const struct sb_sbp_graph *g, const char *axes, int *sig,
		      struct sb_err *err);

#endif
