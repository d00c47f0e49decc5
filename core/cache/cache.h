/*
 * cache.h - the cache family: <one line: the problem>.
 *
 * Started from templates/family (make new-family NAME=cache), which gives a
 * small working problem to replace: n jobs with processing times p_j and
 * weights w_j on one machine, without preemption; a policy chooses the
 * order, the simulator computes completion times C_j, the independent
 * checker validates the schedule, and the objective is sum_j w_j C_j.
 * Smith's rule (order by p_j / w_j) is optimal for this problem (Smith
 * 1956), so the bound here is the exact optimum. Replace the model, the
 * simulator, the checker and the bound with the family's own; keep the
 * shape: one model, one simulator, one checker, one policy interface.
 */
#ifndef SB_CACHE_H
#define SB_CACHE_H

#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

/* An instance: n jobs (owned arrays; free with sb_cache_inst_release). */
struct sb_cache_inst {
	int n;
	double *p;        /* processing time of each job, > 0 */
	double *w;        /* weight of each job, > 0 */
};

void sb_cache_inst_release(struct sb_cache_inst *in);
/* n jobs with p, w uniform in [1, 10] from r. */
void sb_cache_gen(struct sb_cache_inst *in, int n, struct sb_rng *r);

/* A policy: every baselines/cache/ and algorithms/<paper>/ file of this
 * family ends with one `const struct sb_cache_policy sb_cache_policy_<name>`. */
struct sb_cache_policy {
	const char *name;        /* = file name = CLI name */
	const char *cite;        /* "Authors, Title, Venue Year" */
	const char *desc;        /* one line */
	const char *provenance;  /* "verified: ..." or "reconstructed" or "ours" */
	const struct sb_param *params;   /* NULL-terminated, or NULL */
	/* Called once per run by the simulator: write a permutation of
	 * 0..n-1 into order[]. May draw from rng only. Returns 0 or an exit
	 * code with err. */
	int (*order)(const struct sb_cache_inst *in, const struct sb_opts *o,
		     struct sb_rng *rng, int *order, struct sb_err *err);
};
SB_REGISTERED(sb_cache_policy);

const struct sb_cache_policy *const *sb_cache_policies(int *n);
const struct sb_cache_policy *sb_cache_policy_find(const char *name);
const char *sb_cache_policy_file(const struct sb_cache_policy *p);

/* The result of a run: start and completion of every job (owned). */
struct sb_cache_result {
	double *start, *finish;
	double objective;        /* sum_j w_j C_j */
};
void sb_cache_result_release(struct sb_cache_result *r);

/* Run policy p on in (the simulator owns the loop and calls the hook),
 * then validate the schedule with the checker; a schedule the checker
 * rejects is an SB_EXIT_RUN error, never a result. */
int sb_cache_run(const struct sb_cache_inst *in, const struct sb_cache_policy *p,
		 const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_result *r,
		 struct sb_err *err);
/* The independent checker: 0 if r is a valid schedule of in (every job
 * once, no overlap, durations p_j, objective recomputed), else 1 with
 * why[] filled. */
int sb_cache_check(const struct sb_cache_inst *in, const struct sb_cache_result *r,
		   char *why, size_t len);
/* The optimum of sum_j w_j C_j (Smith's rule). */
double sb_cache_opt(const struct sb_cache_inst *in);

/* `sb eval cache ...` (family.c) and the family's entry in the table. */
int sb_cache_eval(int argc, char **argv);
extern const struct sb_family sb_family_cache;

#endif
