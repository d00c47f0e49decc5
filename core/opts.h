/*
 * opts.h - named numeric parameters of policies and experiments.
 *
 * A policy or experiment declares the parameters it accepts as a table of
 * struct sb_param (name, default, range, help); the harness checks every
 * user-given key=value against that table once, in the dispatcher, so the
 * policies themselves never parse text. Values are doubles; integer and
 * flag parameters say so with .integer = 1 (range-checked and required to
 * be whole).
 */
#ifndef SB_OPTS_H
#define SB_OPTS_H

#include "sb.h"

struct sb_param {
	const char *name;
	double def, lo, hi;
	int integer;        /* 1: the value must be a whole number */
	const char *help;
};

#define SB_OPTS_MAX 32

/* A set of resolved values: every declared parameter, defaulted or set. */
struct sb_opts {
	int n;
	const char *name[SB_OPTS_MAX];
	double val[SB_OPTS_MAX];
};

/* Start from the defaults of spec (a table ending with a {NULL} entry;
 * spec may be NULL for "no parameters"). */
void sb_opts_defaults(struct sb_opts *o, const struct sb_param *spec);
/* Apply "key=value" (the part after an optional "owner." prefix has been
 * stripped by the caller). Unknown key, bad number or out-of-range value:
 * returns SB_EXIT_INPUT with err naming `where` (e.g. "--set") and the key. */
int sb_opts_set(struct sb_opts *o, const struct sb_param *spec, const char *kv,
		const char *where, struct sb_err *err);
/* One of two owners of parameters (e.g. a scheduler and a placer). */
struct sb_opts_owner {
	const char *role;             /* "scheduler", also the prefix "scheduler." */
	const char *prefix;           /* short explicit prefix, e.g. "sched." */
	const char *name;             /* the owner's registered name */
	const struct sb_param *spec;
	struct sb_opts *o;
};
/* Route a user's "key=value" to the owner that declares key; "<prefix>key=
 * value" picks an owner explicitly. Undeclared key: SB_EXIT_INPUT naming
 * both owners and their parameters. */
int sb_opts_route(const char *kv, const char *where, struct sb_opts_owner *a,
		  struct sb_opts_owner *b, struct sb_err *err);
/* Value of a declared parameter; SB_BUG if name is not declared. */
double sb_opts_get(const struct sb_opts *o, const char *name);
/* Value, or def when o is NULL or the name is not present. */
double sb_opts_get_or(const struct sb_opts *o, const char *name, double def);
/* Append "k=v k=v" to buf (for provenance). */
void sb_opts_format(const struct sb_opts *o, char *buf, size_t len);

#endif
