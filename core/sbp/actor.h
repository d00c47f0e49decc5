/*
 * actor.h - OneFlow's actor runtime as a discrete-event simulation (spec
 * oneflow.md §6, §8.5).
 *
 * Verified [V, code: oneflow/core/lazy/actor/actor.cpp; docs]: every
 * actor produces registers, a fixed number (its quota) per produced slot,
 * allocated up front; it acts while it is read-ready (every consumed slot
 * has a readable register) and write-ready (every produced slot has a free
 * register); after an act it sends each produced register to all its
 * consumers with a reading count equal to their number and returns each
 * consumed register to its producer, which frees it when the count drops
 * to 0. No central scheduler. Ours [O]: integer-nanosecond time, the
 * binary-heap event queue, durations with optional log-normal jitter, a
 * register held from the start of the act that writes it, actors that
 * share a device (a CUDA stream) acting one at a time in priority order,
 * a consumer that takes `batch` registers per act (accumulation), and
 * control edges ("after"), used for GPipe's flush.
 */
#ifndef SB_SBP_ACTOR_H
#define SB_SBP_ACTOR_H

#include "rng.h"
#include "sb.h"

#include <stdint.h>

#define SB_ACTOR_MAXOUT 2
#define SB_ACTOR_MAXIN 4
#define SB_ACTOR_MAXCONS 4
#define SB_ACTOR_UNBOUNDED (1 << 30)   /* a quota without limit */

struct sb_actor_out {
	int quota;           /* registers of this slot (>= 1) */
	double bytes;        /* size of one register */
	int ncons;
	int cons[SB_ACTOR_MAXCONS];   /* consumer actors (filled by
	                                 sb_actor_connect) */
	int cslot[SB_ACTOR_MAXCONS];  /* their input slot */
};

struct sb_actor_in {
	int actor, slot;     /* producer and its produced slot */
	int batch;           /* registers taken per act (>= 1) */
};

struct sb_actor {
	char name[32];
	int64_t dur;         /* nanoseconds per act (>= 0) */
	int device;          /* -1: its own; actors of one device act one at a time */
	int prio;            /* on a shared device the ready actor of highest
	                        prio acts first (ties: lowest id) */
	int limit;           /* acts to perform (a source: how many pieces);
	                        0: as long as inputs come */
	int after, after_n;  /* control edge: no act before actor `after`
	                        has done after_n acts (after = -1: none) */
	int nout, nin;
	struct sb_actor_out out[SB_ACTOR_MAXOUT];
	struct sb_actor_in in[SB_ACTOR_MAXIN];
};

struct sb_actor_sys {
	int n, cap;
	struct sb_actor *a;
	double jitter;       /* sigma of log-normal duration noise; 0: none */
};

void sb_actor_sys_init(struct sb_actor_sys *s);
void sb_actor_sys_release(struct sb_actor_sys *s);
/* A new actor with `dur` ns per act; returns its id. */
int sb_actor_add(struct sb_actor_sys *s, const char *name, int64_t dur);
/* A produced slot of actor a with `quota` registers of `bytes`; returns
 * the slot index. */
int sb_actor_slot(struct sb_actor_sys *s, int a, int quota, double bytes);
/* Consumer c reads slot `slot` of producer p, `batch` registers per act. */
void sb_actor_connect(struct sb_actor_sys *s, int p, int slot, int c, int batch);
/* 0, or SB_EXIT_INPUT naming the actor and field (a quota <= 0, a batch
 * <= 0, a negative duration, too many slots or consumers). */
int sb_actor_validate(const struct sb_actor_sys *s, struct sb_err *err);

struct sb_actor_result {
	int64_t end;         /* time of the last act's end (ns) */
	long events;         /* acts simulated */
	int deadlock;        /* the queue emptied with a source short of its limit */
	int *acts;           /* per actor */
	int64_t *first_end, *last_end;   /* per actor: end of its first and last act */
	int *peak;           /* per actor and slot (a * SB_ACTOR_MAXOUT + k): most
	                        registers alive at once */
	int64_t *busy;       /* per actor: time spent acting */
	/* trace of one slot's live registers (when asked): change times and
	 * counts after each change */
	int ntrace;
	int64_t *trace_t;
	int *trace_n;
};

void sb_actor_result_release(struct sb_actor_result *r);

/* Run to the end (or deadlock). trace_actor/trace_slot (-1: none) pick a
 * slot whose live registers are traced. rng: the jitter's stream (NULL
 * when jitter is 0). Returns 0 or SB_EXIT_INPUT (validation) with err.
 * Owner: r. */
int sb_actor_run(const struct sb_actor_sys *s, struct sb_rng *rng, int trace_actor,
		 int trace_slot, struct sb_actor_result *r, struct sb_err *err);

/* The period of a chain with act durations d[0..n) and quotas r[0..n-1)
 * (r[i]: registers of actor i's output, read by actor i+1), from the
 * cycles of its timed event graph: max(max d_i, max (d_i + d_{i+1})/r_i). */
double sb_actor_chain_period(const int64_t *d, const int *r, int n);

/* Scenario C: S pipeline stages, M microbatches, forward F[s] and
 * backward B[s] ns, one device per stage. kind selects the buffers and
 * the order on a device:
 *   ONEFLOW: stash quota 2S (none beyond one register on the last stage),
 *            activation and gradient slots 3 (producer register plus the
 *            source and destination buffers of pipeline_buffer_pass.cpp
 *            [V, code]), backward first;
 *   GPIPE:   unbounded buffers, forwards first, backwards only after all
 *            M forwards of the stage (a control edge);
 *   ONEF1B:  stash quota S - s, unbounded activations, backward first.
 * Actor 2s is stage s's forward, 2s+1 its backward; the stash is slot 1
 * of the forward. */
enum sb_actor_pipe { SB_PIPE_ONEFLOW = 0, SB_PIPE_GPIPE = 1, SB_PIPE_1F1B = 2 };
void sb_actor_pipeline(struct sb_actor_sys *s, int S, int M, const int64_t *F,
		       const int64_t *B, int kind);

#endif
