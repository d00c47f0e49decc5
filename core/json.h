/*
 * json.h - a small JSON reader for the trace loaders (json.c).
 *
 * The whole document becomes a flat array of values that knows the line of
 * each one, so that a loader can report "line 4012: field 'num_gpus': not
 * an integer". What it accepts is RFC 8259 JSON with these choices:
 *   - one top-level value of any type, surrounded by blanks only;
 *   - strings: the escapes \" \\ \/ \b \f \n \r \t and \uXXXX, decoded to
 *     UTF-8 (surrogate pairs combined); a lone surrogate, \u0000 (which a
 *     C string cannot hold) and raw control characters are rejected; other
 *     bytes >= 0x80 are passed through without UTF-8 validation;
 *   - numbers: the JSON grammar exactly (no leading '+', leading zeros, '.5',
 *     hex, NaN or Infinity); a literal too large for a double is kept as
 *     +-HUGE_VAL, for the loader to reject with its field name;
 *   - nesting at most SB_JSON_MAX_DEPTH arrays and objects deep; the parser
 *     keeps its own stack, so hostile nesting cannot exhaust the C stack;
 *   - duplicate member names are kept (the loader decides what they mean).
 * Time and memory are linear in the size of the text.
 */
#ifndef SB_JSON_H
#define SB_JSON_H

#include "sb.h"
#include "wlfile.h"

#define SB_JSON_MAX_DEPTH 64

enum sb_json_type {
	SB_JSON_NULL,
	SB_JSON_BOOL,
	SB_JSON_NUMBER,
	SB_JSON_STRING,
	SB_JSON_ARRAY,
	SB_JSON_OBJECT,
};

/* One value. Children of an array or object are linked through `next` in
 * file order; indices refer to sb_json.v. */
struct sb_json_val {
	enum sb_json_type type;
	int line;         /* line of the value's first character (1-based) */
	int is_int;       /* number written without fraction or exponent */
	int child;        /* first element or member, -1 when empty */
	int next;         /* next element or member of the parent, -1 at the end */
	int count;        /* number of elements or members */
	double num;       /* number value; 1 or 0 for true and false */
	const char *str;  /* decoded string value (NUL-terminated), else NULL */
	const char *lit;  /* a number's literal in the text (litlen bytes, not
			   * NUL-terminated), for messages; else NULL */
	int litlen;
	const char *key;  /* member name when the parent is an object, else NULL */
};

struct sb_json {
	struct sb_wl_file f;     /* the text; str and key point into f.buf */
	struct sb_json_val *v;   /* v[0] is the top-level value */
	int n;
};

/*
 * Read and parse the file at path. `what` names it in messages, as for
 * sb_wl_open: "cannot read <what> '<path>': line 7: field 'id':
 * unterminated string". Returns 0, SB_EXIT_INPUT for unreadable or invalid
 * text (an empty file included), SB_EXIT_RUN when out of memory. On success
 * the caller releases j with sb_json_release; on failure j is zeroed.
 */
int sb_json_read(struct sb_json *j, const char *what, const char *path,
		 struct sb_err *err);
void sb_json_release(struct sb_json *j);

/* The value at index k, or NULL when k < 0 (the end of a child list). */
static inline const struct sb_json_val *sb_json_at(const struct sb_json *j, int k)
{
	return k >= 0 ? &j->v[k] : NULL;
}

/* "null", "boolean", "number", "string", "array" or "object". */
const char *sb_json_type_name(enum sb_json_type t);

#endif
