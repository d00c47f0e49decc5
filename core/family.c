/*
 * family.c - the flags that every `sb eval FAMILY` shares, parsed once.
 * A family's eval loop offers each word to sb_eval_args_take first and
 * handles only its own inputs.
 */
#include "family.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void sb_eval_args_init(struct sb_eval_args *a, int argc, char **argv)
{
	memset(a, 0, sizeof *a);
	a->family = argc > 1 ? argv[1] : "";
	a->seed = 1;
}

const char *sb_eval_value(int argc, char **argv, int *i, struct sb_err *err)
{
	if (*i + 1 >= argc) {
		sb_err_set(err, SB_EXIT_INPUT, "eval %s: option '%s' needs a value",
			   argc > 1 ? argv[1] : "", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

int sb_eval_args_take(struct sb_eval_args *a, int argc, char **argv, int *i,
		      struct sb_err *err)
{
	const char *o = argv[*i], *v;

	if (!strcmp(o, "--bound")) {
		a->bound = 1;
		return 1;
	}
	if (strcmp(o, "--policy") && strcmp(o, "--set") && strcmp(o, "--seed") &&
	    strcmp(o, "--schedule-out"))
		return 0;
	if (!(v = sb_eval_value(argc, argv, i, err)))
		return SB_EXIT_INPUT;
	if (!strcmp(o, "--policy")) {
		if (a->policy)
			return sb_err_set(err, SB_EXIT_INPUT, "eval %s: --policy given twice "
					  "('%s' and '%s')", a->family, a->policy, v);
		a->policy = v;
	} else if (!strcmp(o, "--set")) {
		if (a->nset == SB_EVAL_MAX_SET)
			return sb_err_set(err, SB_EXIT_INPUT, "eval %s: at most %d --set options",
					  a->family, SB_EVAL_MAX_SET);
		a->sets[a->nset++] = v;
	} else if (!strcmp(o, "--seed")) {
		char *end;
		errno = 0;
		a->seed = strtoull(v, &end, 10);
		if (!v[0] || *end || errno || v[0] == '-')
			return sb_err_set(err, SB_EXIT_INPUT, "eval %s: --seed '%s': not a "
					  "non-negative integer", a->family, v);
	} else {
		a->schedule_out = v;
	}
	return 1;
}

int sb_eval_args_finish(const struct sb_eval_args *a, struct sb_err *err)
{
	if (!a->policy)
		return sb_err_set(err, SB_EXIT_INPUT, "eval %s: --policy is required", a->family);
	return 0;
}

void sb_eval_usage(FILE *out, const struct sb_family *f)
{
	fprintf(out, "usage: sb eval %s %s --policy NAME [--bound] [--seed N] "
		"[--set key=value]... [--schedule-out FILE]\n", f->name, f->eval_usage);
}

int sb_eval_known(const char *a, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(a, *list))
			return 1;
	return 0;
}

int sb_eval_fail(const struct sb_family *f, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "error: eval %s: ", f->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	sb_eval_usage(stderr, f);
	return SB_EXIT_INPUT;
}

int sb_eval_fail_err(const struct sb_family *f, const struct sb_err *err)
{
	sb_err_print(err);
	sb_eval_usage(stderr, f);
	return SB_EXIT_INPUT;
}

int sb_eval_num(const struct sb_family *f, const char *opt, const char *v, double lo,
		double hi, double *out)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v || *end || !(x >= lo && x <= hi))
		return sb_eval_fail(f, "%s '%s': expected a number in [%g, %g]", opt, v, lo, hi);
	*out = x;
	return 0;
}

int sb_eval_next(const struct sb_family *f, struct sb_eval_args *a, int argc, char **argv,
		 int *i, const char *const *flags, const char *const *value_opts,
		 const char **v)
{
	struct sb_err err = { 0, "" };
	const char *o = argv[*i];
	int rc = sb_eval_args_take(a, argc, argv, i, &err);

	*v = NULL;
	if (rc == 1)
		return 0;
	if (rc)
		return sb_eval_fail_err(f, &err);
	if (flags && sb_eval_known(o, flags))
		return 1;
	if (!sb_eval_known(o, value_opts))
		return sb_eval_fail(f, "unknown option '%s'", o);
	if (!(*v = sb_eval_value(argc, argv, i, &err)))
		return sb_eval_fail_err(f, &err);
	return 1;
}
