/*
 * opts.c - named numeric parameters checked against their declarations.
 */
#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_opts_defaults(struct sb_opts *o, const struct sb_param *spec)
{
	o->n = 0;
	for (; spec && spec->name; spec++) {
		if (o->n == SB_OPTS_MAX)
			SB_BUG("too many parameters (max %d)", SB_OPTS_MAX);
		o->name[o->n] = spec->name;
		o->val[o->n++] = spec->def;
	}
}

static const struct sb_param *find_spec(const struct sb_param *spec, const char *key,
					size_t len)
{
	for (; spec && spec->name; spec++)
		if (strlen(spec->name) == len && strncmp(spec->name, key, len) == 0)
			return spec;
	return NULL;
}

int sb_opts_set(struct sb_opts *o, const struct sb_param *spec, const char *kv,
		const char *where, struct sb_err *err)
{
	const char *eq = strchr(kv, '=');
	const struct sb_param *p;
	char *end;
	double v;
	int i;

	if (!eq || eq == kv)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s '%s': expected key=value", where, kv);
	p = find_spec(spec, kv, (size_t)(eq - kv));
	if (!p) {
		char known[256] = "";
		for (; spec && spec->name; spec++) {
			strncat(known, known[0] ? ", " : "", sizeof known - strlen(known) - 1);
			strncat(known, spec->name, sizeof known - strlen(known) - 1);
		}
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s '%s': unknown parameter '%.*s' (known: %s)", where,
				  kv, (int)(eq - kv), kv, known[0] ? known : "none");
	}
	errno = 0;
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || errno || !isfinite(v))
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s '%s': field '%s': not a number", where, kv, p->name);
	if (p->integer && v != floor(v))
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s '%s': field '%s': not a whole number", where, kv,
				  p->name);
	if (v < p->lo || v > p->hi)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s '%s': field '%s': out of range [%g, %g]", where, kv,
				  p->name, p->lo, p->hi);
	for (i = 0; i < o->n; i++)
		if (strcmp(o->name[i], p->name) == 0) {
			o->val[i] = v;
			return 0;
		}
	SB_BUG("parameter '%s' declared but not in opts (call sb_opts_defaults)", p->name);
}

double sb_opts_get(const struct sb_opts *o, const char *name)
{
	int i;
	for (i = 0; o && i < o->n; i++)
		if (strcmp(o->name[i], name) == 0)
			return o->val[i];
	SB_BUG("parameter '%s' is not declared", name);
}

double sb_opts_get_or(const struct sb_opts *o, const char *name, double def)
{
	int i;
	for (i = 0; o && i < o->n; i++)
		if (strcmp(o->name[i], name) == 0)
			return o->val[i];
	return def;
}

void sb_opts_format(const struct sb_opts *o, char *buf, size_t len)
{
	int i;
	size_t used = strlen(buf);
	for (i = 0; o && i < o->n && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%.17g",
					 used ? " " : "", o->name[i], o->val[i]);
}

static int declares(const struct sb_param *p, const char *key, size_t klen)
{
	for (; p && p->name; p++)
		if (strlen(p->name) == klen && !strncmp(p->name, key, klen))
			return 1;
	return 0;
}

static void param_names(char *buf, size_t len, const struct sb_param *p)
{
	size_t k = 0;
	buf[0] = '\0';
	for (; p && p->name && k < len; p++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", p->name);
	if (!buf[0])
		snprintf(buf, len, "none");
}

int sb_opts_route(const char *kv, const char *where, struct sb_opts_owner *a,
		  struct sb_opts_owner *b, struct sb_err *err)
{
	struct sb_opts_owner *own[2] = { a, b };
	size_t klen = strcspn(kv, "=");
	char pa[256], pb[256];
	int i;
	for (i = 0; i < 2; i++) {
		size_t n = strlen(own[i]->prefix);
		if (!strncmp(kv, own[i]->prefix, n))
			return sb_opts_set(own[i]->o, own[i]->spec, kv + n, where, err);
	}
	/* the owner of the key checks the value, with its own message */
	for (i = 0; i < 2; i++)
		if (declares(own[i]->spec, kv, klen))
			return sb_opts_set(own[i]->o, own[i]->spec, kv, where, err);
	param_names(pa, sizeof pa, a->spec);
	param_names(pb, sizeof pb, b->spec);
	return sb_err_set(err, SB_EXIT_INPUT, "%s '%s': '%.*s' is not a parameter of %s %s (%s) "
			  "or %s %s (%s)", where, kv, (int)klen, kv, a->role, a->name, pa, b->role,
			  b->name, pb);
}

