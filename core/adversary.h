/*
 * adversary.h - `sb adversary FAMILY --policy NAME [--versus NAME]`: a
 * search for the small instance on which a policy is furthest from the
 * family's exact optimum (or from a second policy) [O, issue #14 item 7].
 *
 * A family opts in with a struct sb_adversary in its struct sb_family. The
 * family codes its small instances as a vector of integer genes (its
 * generator's parameters and the instance's entries: op weights, edges,
 * buyers' values...), gene k in 0..hi[k]-1, and scores a gene vector by
 * running the policy through its simulator and checker and dividing by its
 * exact optimum. The engine searches the gene space without knowing what a
 * gene means: simulated annealing on the log of the ratio with a fixed
 * iteration budget (never wall time) and seeded streams, so a seed gives
 * the same worst instance on any machine; and, for spaces small enough,
 * exhaustive enumeration, the yardstick of the search.
 */
#ifndef SB_ADVERSARY_H
#define SB_ADVERSARY_H

#include "opts.h"
#include "sb.h"

#include <stdio.h>

#define SB_ADV_MAXGENES 256
/* ratio hook: the instance is not scored (see .ratio) */
#define SB_ADV_DECLINED (-1)

struct sb_adversary_space {
	int ngenes;
	int hi[SB_ADV_MAXGENES];   /* gene k takes the values 0..hi[k]-1, hi[k] >= 1 */
};

struct sb_adversary {
	/* One line: the instances searched and the reference (for help and
	 * the results). */
	const char *desc;
	/* The space's sizes, set with --set key=value; NULL-terminated. */
	const struct sb_param *params;
	/* Resolve the policy and versus (NULL: the exact optimum) and fill the
	 * gene space from o. Allocates *ctx (freed by close). An unknown
	 * policy, or one the reference cannot judge, is SB_EXIT_INPUT. */
	int (*open)(const char *policy, const char *versus, const struct sb_opts *o, void **ctx,
		    struct sb_adversary_space *sp, struct sb_err *err);
	/* The ratio on the instance coded by gene, oriented so that >= 1 means
	 * the policy is worse than the reference (cost / optimum for a cost,
	 * optimum / value for a value; INFINITY when the policy gets nothing).
	 * Every schedule goes through the family's checker; a rejection is
	 * SB_EXIT_RUN. SB_ADV_DECLINED: the hook declines to score the
	 * instance, because the reference is not an exact optimum of the run
	 * (an optimum its search did not prove, or a run outside the class of
	 * schedules the optimum is taken over); the search counts it and gives
	 * it ratio 0, so it is never the worst. */
	int (*ratio)(void *ctx, const int *gene, double *ratio, struct sb_err *err);
	/* The instance coded by gene as "instance: ..." lines. */
	void (*print)(void *ctx, const int *gene, FILE *out);
	/* Optional (NULL: ctx is one block from sb_malloc, freed with sb_free). */
	void (*close)(void *ctx);
	/* The policies this family can judge against its optimum, for the
	 * cross-family table: the name of policy i (i = 0, 1, ...), NULL past
	 * the last. Optional: NULL means every registered object of registry
	 * type policy_type. Callers use sb_adversary_policy. */
	const char *(*policy)(int i);
	const char *policy_type;
	/* "key=value ..." of a space that exhaustive search covers in seconds
	 * per policy: `make bench` compares the annealing search with it. */
	const char *bench_set;
};

/* What a search found: the worst ratio, its genes (the first reached among
 * ties), the iteration that reached it, the ratio evaluations made and how
 * many of them the hook declined to score. */
struct sb_adversary_found {
	double worst;
	int gene[SB_ADV_MAXGENES];
	long found_at, evals;
	long rejected;   /* evaluations the hook declined to score (see .ratio) */
};

/* The name of the i-th policy h judges (its .policy hook, or the i-th
 * registered object of .policy_type), NULL past the last. */
const char *sb_adversary_policy(const struct sb_adversary *h, int i);
/* Free ctx from h's open: its close hook, or sb_free when it has none. */
void sb_adversary_close(const struct sb_adversary *h, void *ctx);

/* Simulated annealing for `iters` proposals from the stream (seed, point). */
int sb_adversary_anneal(const struct sb_adversary *h, void *ctx,
			const struct sb_adversary_space *sp, long iters, uint64_t seed,
			uint64_t point, struct sb_adversary_found *f, struct sb_err *err);
/* Every gene vector, in lexicographic order (gene 0 fastest): refused with
 * SB_EXIT_INPUT when the space has more than `max` points. */
int sb_adversary_exhaust(const struct sb_adversary *h, void *ctx,
			 const struct sb_adversary_space *sp, double max,
			 struct sb_adversary_found *f, struct sb_err *err);
/* The number of points of the space (a double: it may be huge). */
double sb_adversary_size(const struct sb_adversary_space *sp);

/* `sb adversary ...` (argv[0] = "adversary"). */
int sb_adversary_main(int argc, char **argv);

#endif
