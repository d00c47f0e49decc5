/*
 * wlfile.h - the line-numbered reader shared by the loaders of every
 * family (workloads/<family>/): a text file read whole into memory and
 * handed out line by line, with errors in the form
 *   "cannot read <what> '<path>': line <n>: field '<field>': <message>".
 */
#ifndef SB_WLFILE_H
#define SB_WLFILE_H

#include "sb.h"

#include <stddef.h>

/*
 * A text file read whole into memory and handed out line by line. `what`
 * ("graph", "devices", "stg", ...) and `path` name the file in messages.
 */
struct sb_wl_file {
	const char *what;
	const char *path;
	char *buf;        /* the contents plus a NUL (owned) */
	size_t len, pos;
	int lineno;       /* number of the line last returned (1-based) */
};

/* Read the whole file. SB_EXIT_INPUT if it cannot be opened or holds a NUL
 * byte, SB_EXIT_RUN when out of memory. On failure nothing is left open. */
int sb_wl_open(struct sb_wl_file *f, const char *what, const char *path,
	       struct sb_err *err);
/* The next line with its CR/LF removed (modifiable, valid until
 * sb_wl_close), or NULL at the end of the file. */
char *sb_wl_next(struct sb_wl_file *f);
void sb_wl_close(struct sb_wl_file *f);

/* Report "cannot read <what> '<path>': line <line>: field '<field>': <msg>"
 * (the field part only when field != NULL, the line part only when
 * line > 0); returns code. */
int sb_wl_fail(const struct sb_wl_file *f, struct sb_err *err, int code,
	       int line, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Strip blanks (space, tab) at both ends, in place. */
char *sb_wl_trim(char *s);
/* Skip blanks; return the start of the token and set *len to its length
 * without trailing blanks. */
const char *sb_wl_token(const char *s, size_t *len);
/* Does s hold nothing but blanks (space, tab)? */
int sb_wl_blank(const char *s);
/* Split s in place at every `sep`; stores at most max field pointers and
 * returns the number of fields (which may exceed max). */
int sb_wl_split(char *s, char sep, char **fields, int max);

/* The largest quantity a loader accepts (work, sizes, memory, rates):
 * anything larger is a typo or an attack, and sums of millions of such
 * values would no longer be finite or exact enough for the checkers. */
#define SB_WL_MAX 1e15

/* Parse the whole of s (blanks around it allowed) as a finite number in
 * [lo, hi] / an integer in [lo, hi]; otherwise report it at the current
 * line of f, naming `field`. */
int sb_wl_double(const struct sb_wl_file *f, struct sb_err *err,
		 const char *field, const char *s, double lo, double hi,
		 double *out);
int sb_wl_long(const struct sb_wl_file *f, struct sb_err *err,
	       const char *field, const char *s, long lo, long hi, long *out);

/*
 * Look for a cycle in the graph of m edges eu[k] -> ev[k] over n nodes.
 * Returns the number of edges of one cycle, stored as edge indices in
 * cyc[] (n entries, caller-provided) in path order, 0 if the graph is
 * acyclic, or -1 when out of memory.
 */
int sb_wl_find_cycle(int n, int m, const int *eu, const int *ev, int *cyc);

/* Write "a -> b -> c -> a" (ext ids of the nodes on the cycle cyc[0..len)
 * found above; shortened with "..." when long) into buf. */
void sb_wl_cycle_str(char *buf, size_t size, const long *ext_id,
		     const int *eu, const int *cyc, int len);

/* Room for `need` elements of `size` bytes: returns p itself when *cap
 * suffices, else a larger block (capacity grown geometrically into *cap),
 * or NULL when out of memory, in which case p is untouched. */
void *sb_wl_grow(void *p, size_t *cap, size_t need, size_t size);

/* File name without directory and extension, as a new string from
 * sb_malloc (NULL when out of memory). */
char *sb_wl_basename(const char *path);

#endif
