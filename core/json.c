/*
 * json.c - a small JSON reader (RFC 8259) that records the line of every
 * value, for loaders whose errors must name file, line and field.
 *
 * Our design, not a port: one pass over the text read whole by
 * sb_wl_open; values go into one growing array linked by indices (first
 * child, next sibling), strings are decoded in place in the text buffer
 * (a decoded string is never longer than its escaped form), open
 * containers live on a fixed stack of SB_JSON_MAX_DEPTH entries instead of
 * the C stack. The accepted language is described in json.h. Verified on
 * the 1.2 MB philly/jobs.json (42,233 lines) and by the libFuzzer harness
 * tests/fuzz_json.c.
 */
#include "json.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	struct sb_json *j;
	struct sb_err *err;
	char *p, *end;
	int line;
	size_t cap;                         /* capacity of j->v */
	int depth;
	int open[SB_JSON_MAX_DEPTH];        /* open containers, outermost first */
	int last[SB_JSON_MAX_DEPTH];        /* their last child so far, or -1 */
	const char *key;                    /* name of the member being read */
	int rc;                             /* code of a failure in new_val */
};

const char *sb_json_type_name(enum sb_json_type t)
{
	switch (t) {
	case SB_JSON_NULL: return "null";
	case SB_JSON_BOOL: return "boolean";
	case SB_JSON_NUMBER: return "number";
	case SB_JSON_STRING: return "string";
	case SB_JSON_ARRAY: return "array";
	case SB_JSON_OBJECT: return "object";
	}
	return "value";
}

/* The member name to blame: the one being read, else the member just
 * finished, else that of the innermost enclosing member. */
static const char *blame(const struct parser *ps)
{
	int d;

	if (ps->key)
		return ps->key;
	if (ps->depth > 0 && ps->last[ps->depth - 1] >= 0 &&
	    ps->j->v[ps->last[ps->depth - 1]].key)
		return ps->j->v[ps->last[ps->depth - 1]].key;
	for (d = ps->depth - 1; d >= 0; d--)
		if (ps->j->v[ps->open[d]].key)
			return ps->j->v[ps->open[d]].key;
	return NULL;
}

static int fail(const struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(const struct parser *ps, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return sb_wl_fail(&ps->j->f, ps->err, SB_EXIT_INPUT, ps->line, blame(ps),
			  "%s", what);
}

/* The character at p for a message: "'x'", "byte 0xNN" or "end of file". */
static const char *show(const struct parser *ps, char *buf, size_t size)
{
	unsigned char c = (unsigned char)*ps->p;

	if (ps->p >= ps->end)
		snprintf(buf, size, "end of file (truncated?)");
	else if (c > 0x20 && c < 0x7f)
		snprintf(buf, size, "'%c'", c);
	else
		snprintf(buf, size, "byte 0x%02x", c);
	return buf;
}

static void skip_blanks(struct parser *ps)
{
	while (ps->p < ps->end) {
		char c = *ps->p;
		if (c == '\n') {
			if (ps->line < INT_MAX)
				ps->line++;
		} else if (c != ' ' && c != '\t' && c != '\r') {
			break;
		}
		ps->p++;
	}
}

/* Append a value of type t as the next child of the innermost open
 * container (named ps->key in an object). Returns its index or -1. */
static int new_val(struct parser *ps, enum sb_json_type t)
{
	struct sb_json *j = ps->j;
	struct sb_json_val *x;
	void *grown;
	int k;

	if (j->n == INT_MAX) {
		ps->rc = fail(ps, "more than %d values", INT_MAX);
		return -1;
	}
	if (!(grown = sb_wl_grow(j->v, &ps->cap, (size_t)j->n + 1, sizeof *j->v))) {
		ps->rc = sb_wl_fail(&j->f, ps->err, SB_EXIT_RUN, 0, NULL, "out of memory");
		return -1;
	}
	j->v = grown;
	k = j->n++;
	x = &j->v[k];
	memset(x, 0, sizeof *x);
	x->type = t;
	x->line = ps->line;
	x->child = x->next = -1;
	x->key = ps->key;
	ps->key = NULL;
	if (ps->depth > 0) {
		int d = ps->depth - 1, parent = ps->open[d];
		if (ps->last[d] < 0)
			j->v[parent].child = k;
		else
			j->v[ps->last[d]].next = k;
		ps->last[d] = k;
		j->v[parent].count++;
	}
	return k;
}

static int hex4(const char *s, unsigned *out)
{
	unsigned v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

/* Decode the \uXXXX escape at ps->p (just after the 'u'), possibly a
 * surrogate pair, to UTF-8 at *out. */
static int unicode_escape(struct parser *ps, char **out)
{
	unsigned cp, lo;
	unsigned char *o = (unsigned char *)*out;

	if (ps->end - ps->p < 4 || hex4(ps->p, &cp))
		return fail(ps, "\\u not followed by 4 hex digits");
	ps->p += 4;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(ps, "lone low surrogate \\u%04x", cp);
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    hex4(ps->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail(ps, "high surrogate \\u%04x without its low half", cp);
		ps->p += 6;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(ps, "\\u0000 in a string");
	if (cp < 0x80) {
		*o++ = (unsigned char)cp;
	} else if (cp < 0x800) {
		*o++ = (unsigned char)(0xc0 | cp >> 6);
		*o++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (unsigned char)(0xe0 | cp >> 12);
		*o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (unsigned char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (unsigned char)(0xf0 | cp >> 18);
		*o++ = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (unsigned char)(0x80 | (cp & 0x3f));
	}
	*out = (char *)o;
	return 0;
}

/* Read the string whose opening quote was just passed, decoding it in
 * place; *s is its start. The writer never overtakes the reader. */
static int read_string(struct parser *ps, const char **s)
{
	char *out = ps->p;

	*s = out;
	for (;;) {
		unsigned char c;
		if (ps->p >= ps->end)
			return fail(ps, "unterminated string (end of file)");
		c = (unsigned char)*ps->p;
		if (c == '"') {
			ps->p++;
			break;
		}
		if (c < 0x20)
			return fail(ps, c == '\n' ? "unterminated string (line break)"
				    : "control character 0x%02x in a string", c);
		ps->p++;
		if (c != '\\') {
			*out++ = (char)c;
			continue;
		}
		if (ps->p >= ps->end)
			return fail(ps, "unterminated string (end of file)");
		c = (unsigned char)*ps->p++;
		switch (c) {
		case '"': case '\\': case '/': *out++ = (char)c; break;
		case 'b': *out++ = '\b'; break;
		case 'f': *out++ = '\f'; break;
		case 'n': *out++ = '\n'; break;
		case 'r': *out++ = '\r'; break;
		case 't': *out++ = '\t'; break;
		case 'u':
			if (unicode_escape(ps, &out))
				return SB_EXIT_INPUT;
			break;
		default:
			return fail(ps, c > 0x20 && c < 0x7f ? "invalid escape '\\%c'"
				    : "invalid escape (byte 0x%02x after '\\')", c);
		}
	}
	*out = '\0';
	return 0;
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Read a number literal into value k. strtod runs on the literal alone
 * (NUL put after it for the call), so "0x10" cannot become hex. */
static int read_number(struct parser *ps, int k)
{
	struct sb_json_val *x = &ps->j->v[k];
	char *s = ps->p, *q = s, save;

	x->is_int = 1;
	if (*q == '-')
		q++;
	if (!is_digit(*q))
		return fail(ps, "'-' without digits");
	if (*q == '0' && is_digit(q[1]))
		return fail(ps, "number with a leading zero");
	while (is_digit(*q))
		q++;
	if (*q == '.') {
		q++;
		x->is_int = 0;
		if (!is_digit(*q))
			return fail(ps, "no digit after the decimal point");
		while (is_digit(*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		x->is_int = 0;
		if (*q == '+' || *q == '-')
			q++;
		if (!is_digit(*q))
			return fail(ps, "no digit in the exponent");
		while (is_digit(*q))
			q++;
	}
	save = *q;
	*q = '\0';
	x->num = strtod(s, NULL); /* +-HUGE_VAL on overflow, kept */
	*q = save;
	x->lit = s;
	x->litlen = q - s > INT_MAX ? INT_MAX : (int)(q - s);
	ps->p = q;
	return 0;
}

/* After '{' or ',' in an object: the member name and the ':'. */
static int read_key(struct parser *ps)
{
	char buf[40];
	const char *s;

	skip_blanks(ps);
	if (ps->p >= ps->end || *ps->p != '"')
		return fail(ps, "expected a member name in quotes, found %s",
			    show(ps, buf, sizeof buf));
	ps->p++;
	if (read_string(ps, &s))
		return SB_EXIT_INPUT;
	skip_blanks(ps);
	if (ps->p >= ps->end || *ps->p != ':') {
		ps->key = s;
		return fail(ps, "expected ':' after the member name, found %s",
			    show(ps, buf, sizeof buf));
	}
	ps->p++;
	ps->key = s;
	return 0;
}

/* true, false or null; a misspelling is shown up to its first blank or
 * non-printable byte (at most 8 bytes). */
static int literal(struct parser *ps, const char *word, enum sb_json_type t,
		   double num)
{
	size_t k = strlen(word), show_len = 0;
	int v;

	if ((size_t)(ps->end - ps->p) < k || memcmp(ps->p, word, k)) {
		while (show_len < 8 && ps->p + show_len < ps->end &&
		       ps->p[show_len] > 0x20 && ps->p[show_len] < 0x7f)
			show_len++;
		return fail(ps, "expected a value, found '%.*s'", (int)show_len, ps->p);
	}
	if ((v = new_val(ps, t)) < 0)
		return ps->rc;
	ps->j->v[v].num = num;
	ps->p += k;
	return 0;
}

static int parse(struct parser *ps)
{
	struct sb_json *j = ps->j;
	char buf[40];
	int k, rc;

	skip_blanks(ps);
	if (ps->p >= ps->end)
		return fail(ps, "no JSON value (empty file)");
	for (;;) {
		/* A value is expected here. */
		skip_blanks(ps);
		if (ps->p >= ps->end)
			return fail(ps, "unexpected end of file (truncated?)");
		switch (*ps->p) {
		case '{':
		case '[': {
			int obj = *ps->p == '{';
			if (ps->depth == SB_JSON_MAX_DEPTH)
				return fail(ps, "nested deeper than %d arrays and objects",
					    SB_JSON_MAX_DEPTH);
			if ((k = new_val(ps, obj ? SB_JSON_OBJECT : SB_JSON_ARRAY)) < 0)
				return ps->rc;
			ps->p++;
			ps->open[ps->depth] = k;
			ps->last[ps->depth++] = -1;
			skip_blanks(ps);
			if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
				ps->p++;
				ps->depth--;
				break;
			}
			if (obj && (rc = read_key(ps)))
				return rc;
			continue;
		}
		case '"':
			if ((k = new_val(ps, SB_JSON_STRING)) < 0)
				return ps->rc;
			ps->p++;
			if ((rc = read_string(ps, &j->v[k].str)))
				return rc;
			break;
		case 't':
			if ((rc = literal(ps, "true", SB_JSON_BOOL, 1)))
				return rc;
			break;
		case 'f':
			if ((rc = literal(ps, "false", SB_JSON_BOOL, 0)))
				return rc;
			break;
		case 'n':
			if ((rc = literal(ps, "null", SB_JSON_NULL, 0)))
				return rc;
			break;
		default:
			if (*ps->p != '-' && !is_digit(*ps->p))
				return fail(ps, "expected a value, found %s",
					    show(ps, buf, sizeof buf));
			if ((k = new_val(ps, SB_JSON_NUMBER)) < 0)
				return ps->rc;
			if ((rc = read_number(ps, k)))
				return rc;
			break;
		}
		/* After a value: close containers, or go on to the next one. */
		for (;;) {
			int obj;
			if (ps->depth == 0) {
				skip_blanks(ps);
				if (ps->p < ps->end)
					return fail(ps, "%s after the end of the JSON text",
						    show(ps, buf, sizeof buf));
				return 0;
			}
			obj = j->v[ps->open[ps->depth - 1]].type == SB_JSON_OBJECT;
			skip_blanks(ps);
			if (ps->p < ps->end && *ps->p == ',') {
				ps->p++;
				if (obj && (rc = read_key(ps)))
					return rc;
				break;
			}
			if (ps->p < ps->end && *ps->p == (obj ? '}' : ']')) {
				ps->p++;
				ps->depth--;
				continue;
			}
			return fail(ps, "expected ',' or '%c' in the %s opened on line %d, "
				    "found %s", obj ? '}' : ']', obj ? "object" : "array",
				    j->v[ps->open[ps->depth - 1]].line,
				    show(ps, buf, sizeof buf));
		}
	}
}

int sb_json_read(struct sb_json *j, const char *what, const char *path,
		 struct sb_err *err)
{
	struct parser ps;
	int rc;

	memset(j, 0, sizeof *j);
	rc = sb_wl_open(&j->f, what, path, err);
	if (rc)
		return rc;
	memset(&ps, 0, sizeof ps);
	ps.j = j;
	ps.err = err;
	ps.p = j->f.buf;
	ps.end = j->f.buf + j->f.len;
	ps.line = 1;
	rc = parse(&ps);
	if (rc)
		sb_json_release(j);
	return rc;
}

void sb_json_release(struct sb_json *j)
{
	sb_wl_close(&j->f);
	sb_free(j->v);
	memset(j, 0, sizeof *j);
}
