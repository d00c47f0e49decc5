/*
 * family.h - a problem family: one model, one simulator or evaluator, one
 * checker and one policy interface, with its home in <kind>/<family>/ of
 * every top-level folder. Each family defines exactly one
 *     const struct sb_family sb_family_<name> = { ... };
 * (core/<name>/family.c), which the generated registry collects like the
 * policies. `sb list`, `sb eval`, the registry and `make new-baseline` work
 * from these tables, so the engine names no family and adding a family
 * edits no engine file.
 *
 * The flags that every `sb eval` shares are parsed here, once.
 */
#ifndef SB_FAMILY_H
#define SB_FAMILY_H

#include "registry.h"
#include "sb.h"

#include <stdio.h>

struct sb_adversary;

struct sb_family {
	const char *name;          /* one spelling: folder, file and symbol prefix, CLI */
	const char *desc;          /* one line, for `sb list` */
	/* The registry types of its policies, NULL-terminated; each is
	 * "<name>_<role>" (e.g. "pipeline_planner", "pipeline_schedule"). */
	const char *const *roles;
	/* One line: the inputs `sb eval <name>` takes (after the shared flags). */
	const char *eval_usage;
	/* `sb eval <name> ...`: argv[0] is "eval", argv[1] the family name.
	 * Prints key: value lines; returns an exit code (0, 1 or 2). */
	int (*eval)(int argc, char **argv);
	/* `sb list [<name>]`: prints a header line and two lines per registered
	 * policy (name, role, provenance, description; then its citation). */
	void (*list)(FILE *out);
	/* `sb adversary <name>`: the family's instance space and exact
	 * reference (core/adversary.h), or NULL when it has none. */
	const struct sb_adversary *adversary;
};
SB_REGISTERED(sb_family);

/* ------------------------------------------------------------------ */
/* The flags every `sb eval FAMILY` shares                             */
/* ------------------------------------------------------------------ */

#define SB_EVAL_MAX_SET 32

struct sb_eval_args {
	const char *family;        /* argv[1] */
	const char *policy;        /* --policy NAME (required) */
	const char *sets[SB_EVAL_MAX_SET];   /* --set key=value, in order */
	int nset;
	unsigned long long seed;   /* --seed N (default 1) */
	int bound;                 /* --bound */
	const char *schedule_out;  /* --schedule-out FILE */
};

/* Start parsing `sb eval FAMILY ...`: a->family = argv[1], defaults set. */
void sb_eval_args_init(struct sb_eval_args *a, int argc, char **argv);
/*
 * If argv[*i] is a shared flag, take it (and its value, advancing *i) and
 * return 1; if it is not one, return 0 and leave *i. A shared flag without
 * its value, a bad value, or --policy given twice returns SB_EXIT_INPUT with
 * err filled ("eval: --seed 'x': not a non-negative integer").
 */
int sb_eval_args_take(struct sb_eval_args *a, int argc, char **argv, int *i,
		      struct sb_err *err);
/* After the loop: --policy is required. 0 or SB_EXIT_INPUT with err. */
int sb_eval_args_finish(const struct sb_eval_args *a, struct sb_err *err);
/* The value of the option argv[*i] (advancing *i), or NULL with err set
 * ("eval: --graph needs a value") when it is the last word. */
const char *sb_eval_value(int argc, char **argv, int *i, struct sb_err *err);

/*
 * One word of `sb eval FAMILY` at argv[*i], for the family's option loop:
 * a shared flag is taken into a (returns 0: go on); one of the family's
 * `flags` (no value) returns 1 with *v = NULL; one of its `value_opts`
 * returns 1 with *v its value (advancing *i); anything else, or a missing
 * value, prints the error and the usage and returns SB_EXIT_INPUT.
 * flags and value_opts are NULL-terminated lists (flags may be NULL).
 */
int sb_eval_next(const struct sb_family *f, struct sb_eval_args *a, int argc, char **argv,
		 int *i, const char *const *flags, const char *const *value_opts,
		 const char **v);

/* Is option a one of the NULL-terminated list? (a family's own options) */
int sb_eval_known(const char *a, const char *const *list);

/* "error: eval FAMILY: <message>" and the family's usage line on stderr;
 * returns SB_EXIT_INPUT. */
int sb_eval_fail(const struct sb_family *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A shared flag's error (its message names "eval FAMILY" already) and the
 * usage line; returns SB_EXIT_INPUT. */
int sb_eval_fail_err(const struct sb_family *f, const struct sb_err *err);
/* The whole of v as a number in [lo, hi] into *out: 0, or SB_EXIT_INPUT
 * after sb_eval_fail naming the option ("--load 'x': expected a number in
 * [0.01, 10]"). */
int sb_eval_num(const struct sb_family *f, const char *opt, const char *v, double lo,
		double hi, double *out);

/* The usage text of `sb eval FAMILY`: "usage: sb eval FAMILY <eval_usage>
 * --policy NAME [--bound] [--seed N] [--set key=value]... [--schedule-out F]". */
void sb_eval_usage(FILE *out, const struct sb_family *f);

#endif
