/*
 * wlfile.c - the line-numbered reader every loader of every family uses:
 * a text file read whole and handed out line by line, errors that name the
 * file, the line and the field, strict number parsing, growth of arrays,
 * and cycle reports for graph loaders.
 */
#include "wlfile.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
/* ------------------------------------------------------------------ */

int sb_wl_open(struct sb_wl_file *f, const char *what, const char *path,
	       struct sb_err *err)
{
	FILE *fp;
	struct stat st;
	size_t cap = 0, got, want, chunk = 65536;
	char *nul, *t;
	int rc = 0, line;

	memset(f, 0, sizeof *f);
	f->what = what;
	f->path = path;
	fp = fopen(path, "rb");
	if (!fp)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot read %s '%s': %s",
				  what, path, strerror(errno));
	/* A regular file is read into a buffer of its size in one go: a fixed
	 * 64 KiB first chunk cost every small input a 128 KiB allocation,
	 * which under AddressSanitizer is an mmap and munmap per file and made
	 * the loader fuzzers spend most of their time in the kernel. Pipes
	 * and files that grow while read go on in 64 KiB chunks. */
	/* no stdio buffer: fread copies straight into f->buf */
	setvbuf(fp, NULL, _IONBF, 0);
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (unsigned long long)st.st_size < SIZE_MAX / 4)
		chunk = (size_t)st.st_size + 1;
	for (;;) {
		if (!(t = sb_wl_grow(f->buf, &cap, f->len + chunk + 1, 1))) {
			rc = sb_wl_fail(f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		f->buf = t;
		want = cap - f->len - 1;
		got = fread(f->buf + f->len, 1, want, fp);
		f->len += got;
		/* fread reads short only at the end of the file or on an error */
		if (got < want)
			break;
		chunk = 65536;
	}
	if (ferror(fp)) {
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, 0, NULL, "%s", strerror(errno));
		goto out;
	}
	f->buf[f->len] = '\0';
	nul = memchr(f->buf, '\0', f->len);
	if (nul) {
		const char *c;
		for (line = 1, c = f->buf; c < nul; c++)
			line += *c == '\n';
		rc = sb_wl_fail(f, err, SB_EXIT_INPUT, line, NULL,
				"NUL byte in a text file");
	}
out:
	fclose(fp);
	if (rc)
		sb_wl_close(f);
	return rc;
}

char *sb_wl_next(struct sb_wl_file *f)
{
	char *s, *nl;
	size_t k;

	if (!f->buf || f->pos >= f->len)
		return NULL;
	s = f->buf + f->pos;
	nl = memchr(s, '\n', f->len - f->pos);
	if (nl) {
		*nl = '\0';
		f->pos = (size_t)(nl - f->buf) + 1;
	} else {
		f->pos = f->len;
	}
	k = strlen(s);
	if (k > 0 && s[k - 1] == '\r')
		s[k - 1] = '\0';
	f->lineno++;
	return s;
}

void sb_wl_close(struct sb_wl_file *f)
{
	sb_free(f->buf);
	f->buf = NULL;
	f->len = f->pos = 0;
}

int sb_wl_fail(const struct sb_wl_file *f, struct sb_err *err, int code,
	       int line, const char *field, const char *fmt, ...)
{
	char where[160] = "", what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	if (line > 0 && field)
		snprintf(where, sizeof where, "line %d: field '%.100s': ", line, field);
	else if (line > 0)
		snprintf(where, sizeof where, "line %d: ", line);
	else if (field)
		snprintf(where, sizeof where, "field '%.100s': ", field);
	return sb_err_set(err, code, "cannot read %s '%s': %s%s", f->what,
			  f->path, where, what);
}

char *sb_wl_trim(char *s)
{
	size_t k;

	while (*s == ' ' || *s == '\t')
		s++;
	k = strlen(s);
	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		s[--k] = '\0';
	return s;
}

int sb_wl_split(char *s, char sep, char **fields, int max)
{
	int nf = 0;

	for (;;) {
		char *e = strchr(s, sep);
		if (nf < max)
			fields[nf] = s;
		if (nf < INT_MAX)
			nf++;
		if (!e)
			break;
		*e = '\0';
		s = e + 1;
	}
	return nf;
}

/* Skip blanks; return the start of the token and set *len to its length
 * without trailing blanks. */
const char *sb_wl_token(const char *s, size_t *len)
{
	size_t k;

	while (*s == ' ' || *s == '\t')
		s++;
	k = strlen(s);
	while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
		k--;
	*len = k;
	return s;
}

int sb_wl_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0';
}

int sb_wl_double(const struct sb_wl_file *f, struct sb_err *err,
		 const char *field, const char *s, double lo, double hi,
		 double *out)
{
	size_t len;
	const char *t = sb_wl_token(s, &len);
	char *end;
	double v;

	if (len == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "missing value");
	errno = 0;
	v = strtod(t, &end);
	if (end == t || !sb_wl_blank(end))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "not a number: '%.*s'", (int)(len > 40 ? 40 : len), t);
	if (isnan(v) || isinf(v))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "not a finite number: '%.*s'",
				  (int)(len > 40 ? 40 : len), t);
	if (v < lo && lo == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "negative value %g", v);
	if (v < lo)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "value %g below %g", v, lo);
	if (v > hi)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "value %g out of range (at most %g)", v, hi);
	*out = v;
	return 0;
}

int sb_wl_long(const struct sb_wl_file *f, struct sb_err *err,
	       const char *field, const char *s, long lo, long hi, long *out)
{
	size_t len;
	const char *t = sb_wl_token(s, &len);
	char *end;
	long v;

	if (len == 0)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "missing value");
	errno = 0;
	v = strtol(t, &end, 10);
	if (end == t || !sb_wl_blank(end))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "not an integer: '%.*s'", (int)(len > 40 ? 40 : len), t);
	if (errno == ERANGE || v > hi || (v < lo && lo != 0))
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "value '%.*s' out of range [%ld, %ld]",
				  (int)(len > 40 ? 40 : len), t, lo, hi);
	if (v < lo)
		return sb_wl_fail(f, err, SB_EXIT_INPUT, f->lineno, field,
				  "negative value %ld", v);
	*out = v;
	return 0;
}

void *sb_wl_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap;
	void *q;

	if (need <= c)
		return p;
	if (c < 16)
		c = 16;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (c > SIZE_MAX / size)
		return NULL;
	q = sb_realloc(p, c * size);
	if (q)
		*cap = c;
	return q;
}

int sb_wl_find_cycle(int n, int m, const int *eu, const int *ev, int *cyc)
{
	int *soff = sb_calloc((size_t)n + 1, sizeof *soff);
	int *poff = sb_calloc((size_t)n + 1, sizeof *poff);
	int *se = sb_malloc(((size_t)m + 1) * sizeof *se);
	int *pe = sb_malloc(((size_t)m + 1) * sizeof *pe);
	int *indeg = sb_calloc((size_t)n + 1, sizeof *indeg);
	int *fill = sb_calloc((size_t)n + 1, sizeof *fill);
	int *queue = sb_malloc(((size_t)n + 1) * sizeof *queue);
	int *at = fill; /* reused once the CSR is built */
	int i, k, head = 0, tail = 0, len = 0, x;

	if (!soff || !poff || !se || !pe || !indeg || !fill || !queue) {
		len = -1;
		goto out;
	}
	for (k = 0; k < m; k++) {
		soff[eu[k] + 1]++;
		poff[ev[k] + 1]++;
		indeg[ev[k]]++;
	}
	for (i = 0; i < n; i++) {
		soff[i + 1] += soff[i];
		poff[i + 1] += poff[i];
	}
	for (k = 0; k < m; k++)
		se[soff[eu[k]] + fill[eu[k]]++] = k;
	memset(fill, 0, (size_t)n * sizeof *fill);
	for (k = 0; k < m; k++)
		pe[poff[ev[k]] + fill[ev[k]]++] = k;

	/* Kahn's algorithm; what it cannot remove contains a cycle. */
	for (i = 0; i < n; i++)
		if (!indeg[i])
			queue[tail++] = i;
	while (head < tail) {
		int u = queue[head++];
		for (k = soff[u]; k < soff[u + 1]; k++)
			if (--indeg[ev[se[k]]] == 0)
				queue[tail++] = ev[se[k]];
	}
	if (tail == n)
		goto out;

	/* Every node left has a predecessor that is also left: walk backwards
	 * until a node repeats. at[x] = step at which x was visited. */
	for (i = 0; i < n; i++)
		at[i] = -1;
	for (x = 0; !indeg[x]; x++)
		;
	for (;;) {
		int e = -1;
		at[x] = len;
		for (k = poff[x]; k < poff[x + 1]; k++)
			if (indeg[eu[pe[k]]]) {
				e = pe[k];
				break;
			}
		SB_ASSERT(e >= 0);
		cyc[len++] = e;
		x = eu[e];
		if (at[x] >= 0)
			break;
	}
	/* cyc[at[x] .. len) runs backwards along the cycle: reverse it and
	 * move it to the front. */
	{
		int from = at[x], cnt = len - from;
		for (i = 0; i < cnt / 2; i++) {
			int t = cyc[from + i];
			cyc[from + i] = cyc[len - 1 - i];
			cyc[len - 1 - i] = t;
		}
		memmove(cyc, cyc + from, (size_t)cnt * sizeof *cyc);
		len = cnt;
	}
out:
	sb_free(soff);
	sb_free(poff);
	sb_free(se);
	sb_free(pe);
	sb_free(indeg);
	sb_free(fill);
	sb_free(queue);
	return len;
}

void sb_wl_cycle_str(char *buf, size_t size, const long *ext_id,
		     const int *eu, const int *cyc, int len)
{
	size_t used = 0;
	int i, shown = len > 8 ? 6 : len;

	buf[0] = '\0';
	for (i = 0; i < shown && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%ld -> ",
					 ext_id[eu[cyc[i]]]);
	if (shown < len && used < size)
		used += (size_t)snprintf(buf + used, size - used, "... -> ");
	if (used < size)
		snprintf(buf + used, size - used, "%ld", ext_id[eu[cyc[0]]]);
}

char *sb_wl_basename(const char *path)
{
	const char *b = strrchr(path, '/');
	const char *dot;
	size_t k;
	char *s;

	b = b ? b + 1 : path;
	dot = strrchr(b, '.');
	k = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	s = sb_malloc(k + 1);
	if (s) {
		memcpy(s, b, k);
		s[k] = '\0';
	}
	return s;
}

