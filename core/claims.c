/*
 * claims.c - a small recursive-descent evaluator for claim checks (the
 * grammar is in claims.h). It reads only results tables: a verdict is
 * computed from the numbers the code produced, never typed in.
 */
#include "claims.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 16

struct cond {
	int col;
	int neg;
	int prefix;
	char val[SB_STR_LEN];
};

struct condset {
	int n;
	struct cond c[MAXC];
};

struct parser {
	const char *s, *p;
	const struct sb_table *t;
	struct sb_err *err;
	int rc;
};

static void skip(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

static double fail(struct parser *ps, const char *what)
{
	if (!ps->rc)
		ps->rc = sb_err_set(ps->err, SB_EXIT_INPUT, "check '%s': at '%.20s': %s",
				    ps->s, ps->p, what);
	return NAN;
}

/* The check is well formed but the results hold no rows for it (e.g. a
 * QUICK run that skips that sweep point): a run-time, not an input,
 * failure. */
static double fail_data(struct parser *ps, const char *what)
{
	if (!ps->rc)
		ps->rc = sb_err_set(ps->err, SB_EXIT_RUN, "check '%s': at '%.20s': %s",
				    ps->s, ps->p, what);
	return NAN;
}

static int word(struct parser *ps, char *out, size_t len)
{
	size_t n = 0;
	skip(ps);
	while (*ps->p && (isalnum((unsigned char)*ps->p) || strchr("_.-+*:/", *ps->p))) {
		if (n + 1 >= len)
			return 0;
		out[n++] = *ps->p++;
	}
	out[n] = 0;
	return n > 0;
}

static int ident(struct parser *ps, char *out, size_t len)
{
	size_t n = 0;
	skip(ps);
	while (*ps->p && (isalnum((unsigned char)*ps->p) || *ps->p == '_')) {
		if (n + 1 >= len)
			return 0;
		out[n++] = *ps->p++;
	}
	out[n] = 0;
	return n > 0;
}

static int cell_matches(const struct sb_table *t, size_t r, const struct cond *c)
{
	char buf[64];
	const char *v = buf;
	int eq;

	/* a prefix (value ending in '*') matches the text of a string or an
	 * integer; everything else is sb_table_cell_is, as in sb export */
	if (!c->prefix || t->cols[c->col].type == SB_COL_DBL) {
		eq = sb_table_cell_is(t, r, c->col, c->val);
	} else {
		if (t->cols[c->col].type == SB_COL_STR)
			v = sb_table_get_str(t, r, c->col);
		else
			snprintf(buf, sizeof buf, "%lld", (long long)sb_table_get_int(t, r, c->col));
		eq = strncmp(v, c->val, strlen(c->val)) == 0;
	}
	return c->neg ? !eq : eq;
}

static int row_matches(const struct sb_table *t, size_t r, const struct condset *cs)
{
	int i;
	for (i = 0; i < cs->n; i++)
		if (!cell_matches(t, r, &cs->c[i]))
			return 0;
	return 1;
}

/* conditions up to ')' or ';' */
static void parse_conds(struct parser *ps, struct condset *cs)
{
	char name[64], val[SB_STR_LEN + 2];
	cs->n = 0;
	for (;;) {
		struct cond *c;
		skip(ps);
		if (*ps->p == ')' || *ps->p == ';' || !*ps->p)
			return;
		if (cs->n == MAXC) {
			fail(ps, "too many conditions");
			return;
		}
		c = &cs->c[cs->n];
		memset(c, 0, sizeof *c);
		if (!ident(ps, name, sizeof name)) {
			fail(ps, "expected a column name");
			return;
		}
		c->col = sb_table_col(ps->t, name);
		if (c->col < 0) {
			fail(ps, "unknown column");
			return;
		}
		skip(ps);
		if (ps->p[0] == '!' && ps->p[1] == '=') {
			c->neg = 1;
			ps->p += 2;
		} else if (ps->p[0] == '=') {
			ps->p++;
		} else {
			fail(ps, "expected = or !=");
			return;
		}
		if (!word(ps, val, sizeof val) || strlen(val) >= SB_STR_LEN) {
			fail(ps, "expected a value");
			return;
		}
		if (val[strlen(val) - 1] == '*') {
			c->prefix = 1;
			val[strlen(val) - 1] = 0;
		}
		snprintf(c->val, sizeof c->val, "%s", val);
		cs->n++;
		skip(ps);
		if (*ps->p == ',')
			ps->p++;
	}
}

static double agg_simple(struct parser *ps, const char *fn, int col,
			 const struct condset *cs)
{
	const struct sb_table *t = ps->t;
	double acc = 0, best = NAN;
	size_t r, cnt = 0;
	for (r = 0; r < t->nrow; r++) {
		double v;
		if (!row_matches(t, r, cs))
			continue;
		v = t->cols[col].type == SB_COL_INT ? (double)sb_table_get_int(t, r, col)
						    : sb_table_get_dbl(t, r, col);
		cnt++;
		acc += v;
		if (isnan(best) || (strcmp(fn, "min") == 0 ? v < best : v > best))
			best = v;
	}
	if (strcmp(fn, "count") == 0)
		return (double)cnt;
	if (cnt == 0)
		return fail_data(ps, "no rows match");
	return strcmp(fn, "mean") == 0 ? acc / (double)cnt : best;
}

/* Group key of row r over the key columns, as text. */
static void group_key(const struct sb_table *t, size_t r, const int *keys, int nk,
		      char *out, size_t len)
{
	int i;
	out[0] = 0;
	for (i = 0; i < nk; i++) {
		char b[64];
		int c = keys[i];
		if (t->cols[c].type == SB_COL_STR)
			snprintf(b, sizeof b, "%s", sb_table_get_str(t, r, c));
		else if (t->cols[c].type == SB_COL_INT)
			snprintf(b, sizeof b, "%lld", (long long)sb_table_get_int(t, r, c));
		else
			snprintf(b, sizeof b, "%.17g", sb_table_get_dbl(t, r, c));
		strncat(out, b, len - strlen(out) - 1);
		strncat(out, "\x1f", len - strlen(out) - 1);
	}
}

struct group {
	char key[256];
	double sa, sb, minb;
	long na, nb;
};

static double agg_paired(struct parser *ps, const char *fn, int col,
			 const struct condset *a, const struct condset *b,
			 const int *keys, int nk)
{
	const struct sb_table *t = ps->t;
	struct group *g = SB_NEW(struct group, t->nrow + 1);
	int ng = 0, i, used = 0, best = strstr(fn, "_best") != NULL;
	size_t r;
	double res = NAN, wins = 0;

	for (r = 0; r < t->nrow; r++) {
		char k[256];
		int ia = row_matches(t, r, a), ib = row_matches(t, r, b);
		double v;
		if (!ia && !ib)
			continue;
		v = t->cols[col].type == SB_COL_INT ? (double)sb_table_get_int(t, r, col)
						    : sb_table_get_dbl(t, r, col);
		group_key(t, r, keys, nk, k, sizeof k);
		for (i = 0; i < ng && strcmp(g[i].key, k); i++)
			;
		if (i == ng) {
			memset(&g[ng], 0, sizeof g[ng]);
			snprintf(g[ng].key, sizeof g[ng].key, "%s", k);
			g[ng].minb = NAN;
			ng++;
		}
		if (ia) { g[i].sa += v; g[i].na++; }
		if (ib) {
			g[i].sb += v;
			g[i].nb++;
			if (isnan(g[i].minb) || v < g[i].minb)
				g[i].minb = v;
		}
	}
	for (i = 0; i < ng; i++) {
		double ma, mb, ratio;
		if (!g[i].na || !g[i].nb)
			continue;
		ma = g[i].sa / (double)g[i].na;
		/* the *_best forms compare A with the best (smallest) row of B */
		mb = best ? g[i].minb : g[i].sb / (double)g[i].nb;
		used++;
		if (!strcmp(fn, "wins") || !strcmp(fn, "wins_best")) {
			wins += best ? ma <= mb : ma < mb;
			continue;
		}
		ratio = mb / ma;
		if (isnan(res) || (strncmp(fn, "maxratio", 8) == 0 ? ratio > res : ratio < res))
			res = ratio;
	}
	sb_free(g);
	if (!used)
		return fail_data(ps, "no group has rows under both conditions");
	return !strcmp(fn, "wins") || !strcmp(fn, "wins_best") ? wins / used : res;
}

static double expr(struct parser *ps);

static double aggregate(struct parser *ps, const char *fn)
{
	char colname[64];
	int col, paired = !strcmp(fn, "wins") || !strcmp(fn, "maxratio") ||
			  !strcmp(fn, "minratio") || !strcmp(fn, "wins_best") ||
			  !strcmp(fn, "maxratio_best") || !strcmp(fn, "minratio_best");
	struct condset a = { 0 }, b = { 0 };
	int keys[MAXC], nk = 0;

	if (!paired && strcmp(fn, "mean") && strcmp(fn, "min") && strcmp(fn, "max") &&
	    strcmp(fn, "count"))
		return fail(ps, "unknown function");
	if (!ident(ps, colname, sizeof colname))
		return fail(ps, "expected a column");
	col = sb_table_col(ps->t, colname);
	if (col < 0 || ps->t->cols[col].type == SB_COL_STR)
		return fail(ps, "unknown or non-numeric column");
	skip(ps);
	if (*ps->p == '|') {
		ps->p++;
		parse_conds(ps, &a);
	}
	if (paired) {
		char kw[8];
		skip(ps);
		if (*ps->p != ';')
			return fail(ps, "expected ';' and a second condition set");
		ps->p++;
		parse_conds(ps, &b);
		skip(ps);
		if (*ps->p != ';')
			return fail(ps, "expected '; by=...'");
		ps->p++;
		if (!ident(ps, kw, sizeof kw) || strcmp(kw, "by") || (skip(ps), *ps->p != '='))
			return fail(ps, "expected by=");
		ps->p++;
		for (;;) {
			char k[64];
			if (!ident(ps, k, sizeof k))
				return fail(ps, "expected a key column");
			if (nk == MAXC || (keys[nk] = sb_table_col(ps->t, k)) < 0)
				return fail(ps, "unknown key column");
			nk++;
			skip(ps);
			if (*ps->p != ',')
				break;
			ps->p++;
		}
	}
	skip(ps);
	if (*ps->p != ')')
		return fail(ps, "expected ')'");
	ps->p++;
	if (ps->rc)
		return NAN;
	return paired ? agg_paired(ps, fn, col, &a, &b, keys, nk)
		      : agg_simple(ps, fn, col, &a);
}

static double term(struct parser *ps)
{
	char name[32];
	skip(ps);
	if (*ps->p == '(') {
		double v;
		ps->p++;
		v = expr(ps);
		skip(ps);
		if (*ps->p != ')')
			return fail(ps, "expected ')'");
		ps->p++;
		return v;
	}
	if (isdigit((unsigned char)*ps->p) || *ps->p == '.' || *ps->p == '-') {
		char *end;
		double v = strtod(ps->p, &end);
		if (end == ps->p)
			return fail(ps, "expected a number");
		ps->p = end;
		return v;
	}
	if (!ident(ps, name, sizeof name))
		return fail(ps, "expected a number or an aggregate");
	skip(ps);
	if (*ps->p != '(')
		return fail(ps, "expected '('");
	ps->p++;
	return aggregate(ps, name);
}

static double factor_chain(struct parser *ps)
{
	double v = term(ps);
	for (;;) {
		skip(ps);
		if (*ps->p == '*') { ps->p++; v *= term(ps); }
		else if (*ps->p == '/') { ps->p++; v /= term(ps); }
		else return v;
	}
}

static double expr(struct parser *ps)
{
	double v = factor_chain(ps);
	for (;;) {
		skip(ps);
		if (*ps->p == '+') { ps->p++; v += factor_chain(ps); }
		else if (*ps->p == '-' ) { ps->p++; v -= factor_chain(ps); }
		else return v;
	}
}

int sb_claim_expr(const char *e, const struct sb_table *t, double *val,
		  struct sb_err *err)
{
	struct parser ps = { e, e, t, err, 0 };
	*val = expr(&ps);
	skip(&ps);
	if (!ps.rc && *ps.p)
		fail(&ps, "unexpected text");
	return ps.rc;
}

int sb_claim_eval(const char *check, const struct sb_table *t, double *lhs,
		  double *rhs, int *pass, struct sb_err *err)
{
	struct parser ps = { check, check, t, err, 0 };
	char op[3] = "";

	*lhs = expr(&ps);
	skip(&ps);
	if (ps.rc)
		return ps.rc;
	if ((ps.p[0] == '>' || ps.p[0] == '<') && ps.p[1] == '=') {
		op[0] = ps.p[0]; op[1] = '=';
		ps.p += 2;
	} else if (ps.p[0] == '>' || ps.p[0] == '<') {
		op[0] = ps.p[0];
		ps.p++;
	} else {
		fail(&ps, "expected a comparison (>=, <=, >, <)");
		return ps.rc;
	}
	*rhs = expr(&ps);
	skip(&ps);
	if (!ps.rc && *ps.p)
		fail(&ps, "unexpected text");
	if (ps.rc)
		return ps.rc;
	if (!strcmp(op, ">="))
		*pass = *lhs >= *rhs;
	else if (!strcmp(op, "<="))
		*pass = *lhs <= *rhs;
	else if (!strcmp(op, ">"))
		*pass = *lhs > *rhs;
	else
		*pass = *lhs < *rhs;
	return 0;
}
