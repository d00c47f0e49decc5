/*
 * test_fuzzlib.c - the mutation fuzzer's driver (fuzz.h): the edits, the
 * temporary files and the loop. No tests of its own; the loaders' fuzz
 * tests are tests/<family>/test_fuzz.c. (Named test_*.c so that the
 * Makefile links it into sbtest.)
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz.h"

#if defined(__SANITIZE_ADDRESS__)
#define SB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SB_TEST_ASAN 1
#endif
#endif
#ifdef SB_TEST_ASAN
#include <sanitizer/lsan_interface.h>
#endif

/* ------------------------------------------------------------------ */
/* Mutations                                                           */
/* ------------------------------------------------------------------ */

static void buf_reserve(struct fuzz_buf *b, size_t need)
{
	if (need <= b->cap)
		return;
	while (b->cap < need)
		b->cap = b->cap ? 2 * b->cap : 256;
	b->p = realloc(b->p, b->cap);
	cr_assert_not_null(b->p);
}

void sb_test_buf_set(struct fuzz_buf *b, const char *s)
{
	b->n = 0;
	buf_reserve(b, strlen(s) + 1);
	memcpy(b->p, s, strlen(s));
	b->n = strlen(s);
}

static void buf_insert(struct fuzz_buf *b, size_t at, const char *s, size_t k)
{
	buf_reserve(b, b->n + k + 1);
	memmove(b->p + at + k, b->p + at, b->n - at);
	memcpy(b->p + at, s, k);
	b->n += k;
}

static void buf_erase(struct fuzz_buf *b, size_t at, size_t k)
{
	memmove(b->p + at, b->p + at + k, b->n - at - k);
	b->n -= k;
}

/* Start and end (after the newline) of the line containing byte at. */
static void line_span(const struct fuzz_buf *b, size_t at, size_t *s, size_t *e)
{
	*s = at;
	while (*s > 0 && b->p[*s - 1] != '\n')
		(*s)--;
	*e = at;
	while (*e < b->n && b->p[*e] != '\n')
		(*e)++;
	if (*e < b->n)
		(*e)++;
}

static size_t pos(struct sb_rng *r, const struct fuzz_buf *b, int end_ok)
{
	size_t k = b->n + (end_ok ? 1 : 0);
	return k ? sb_rng_below(r, (uint32_t)k) : 0;
}

void sb_test_mutate(struct fuzz_buf *b, struct sb_rng *r)
{
	static const char *const tokens[] = {
		"99999999999999999999", "1e309", "-1e309", "NaN", "nan", "-1", "inf",
		"-0", "2147483647", "2147483648", "-2147483649", ";", ",", "\n", "#",
		"0x10", "  ", "\t", "1.5", "0", "4294967296", "1e-320", "Startup",
		"CPU", "GPU", "NO", ";;", ",,", "\r\n", "-", "+", "e", "P_9", "T_9",
		"# Critical Path 99999999999999999999999\n", "Meta,",
	};
	static const char fill[] = ",;0123456789-.\n #eE+TPN";
	int op = (int)sb_rng_below(r, 16); /* 10..15: benign digit edits */
	size_t at = pos(r, b, 0), s, e, s2, e2;
	char c;

	if (b->n == 0)
		op = 6;
	switch (op) {
	case 0: /* flip bits of a byte */
		b->p[at] ^= (char)(1 + sb_rng_below(r, 255));
		break;
	case 1: /* replace a byte by a structural character */
		b->p[at] = fill[sb_rng_below(r, sizeof fill - 1)];
		break;
	case 2: /* truncate */
		b->n = at;
		break;
	case 3: /* duplicate a line */
		line_span(b, at, &s, &e);
		{
			char *copy = malloc(e - s + 1);
			cr_assert_not_null(copy);
			memcpy(copy, b->p + s, e - s);
			buf_insert(b, e, copy, e - s);
			free(copy);
		}
		break;
	case 4: /* delete a line */
		line_span(b, at, &s, &e);
		buf_erase(b, s, e - s);
		break;
	case 5: /* swap a line with the next one */
		line_span(b, at, &s, &e);
		if (e < b->n) {
			char *tmp;
			line_span(b, e, &s2, &e2);
			tmp = malloc(e2 - s + 1);
			cr_assert_not_null(tmp);
			memcpy(tmp, b->p + e, e2 - e);
			memcpy(tmp + (e2 - e), b->p + s, e - s);
			memcpy(b->p + s, tmp, e2 - s);
			free(tmp);
		}
		break;
	case 6: /* insert a token */
	case 7: {
		const char *t = tokens[sb_rng_below(r, sizeof tokens / sizeof tokens[0])];
		buf_insert(b, pos(r, b, 1), t, strlen(t));
		break;
	}
	case 8: /* a very long run of digits or list entries */
	{
		size_t k = 1000 + sb_rng_below(r, 20000), i, at2 = pos(r, b, 1);
		char *run = malloc(k);
		int kind = (int)sb_rng_below(r, 3);
		cr_assert_not_null(run);
		for (i = 0; i < k; i++)
			run[i] = kind == 0 ? (char)('0' + i % 10)
				: kind == 1 ? (i % 2 ? ';' : '1') : (i % 2 ? ',' : ' ');
		buf_insert(b, at2, run, k);
		free(run);
		break;
	}
	case 9: /* NUL byte */
		c = '\0';
		buf_insert(b, pos(r, b, 1), &c, 1);
		break;
	default: /* replace a digit by another digit (mostly still valid) */
		for (s = 0; s < 8; s++, at = pos(r, b, 0))
			if (b->p[at] >= '0' && b->p[at] <= '9') {
				b->p[at] = (char)('0' + sb_rng_below(r, 10));
				break;
			}
		break;
	}
}

void sb_test_mutate_tokens(struct fuzz_buf *b, struct sb_rng *r, const char *const *tokens,
			   int ntokens)
{
	const char *t;

	if (sb_rng_below(r, 2)) {
		sb_test_mutate(b, r);
		return;
	}
	t = tokens[sb_rng_below(r, (uint32_t)ntokens)];
	buf_insert(b, pos(r, b, 1), t, strlen(t));
}

/* ------------------------------------------------------------------ */
/* Harness                                                             */
/* ------------------------------------------------------------------ */

long sb_test_fuzz_iters(void)
{
	const char *s = getenv("SB_FUZZ_ITERS");
	long k = s ? strtol(s, NULL, 10) : 0;
	return k > 0 ? k : 300;
}

void sb_test_write_file(const char *path, const struct fuzz_buf *b)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	if (b->n)
		cr_assert_eq(fwrite(b->p, 1, b->n, f), b->n);
	cr_assert_eq(fclose(f), 0);
}

void sb_test_temp_path(char *out, size_t size)
{
	int fd;
	snprintf(out, size, "/tmp/sbfuzz-XXXXXX");
	fd = mkstemp(out);
	cr_assert_geq(fd, 0);
	close(fd);
}

int sb_test_accepted(int rc, const struct sb_err *err, const char *path)
{
	if (rc == 0)
		return 1;
	cr_assert(rc == SB_EXIT_INPUT, "rc %d: %s", rc, err->msg);
	cr_assert(strstr(err->msg, path), "message without the file: %s", err->msg);
	return 0;
}

void sb_test_assert_no_leaks(void)
{
#ifdef SB_TEST_ASAN
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (report above)");
#endif
}

uint64_t sb_test_seed(const char *name)
{
	return sb_hash_str(name);
}

/* ------------------------------------------------------------------ */
/* The driver                                                          */
/* ------------------------------------------------------------------ */

void sb_test_fuzz_run(const struct fuzz_target *f)
{
	struct sb_rng r = sb_rng_stream(sb_test_seed(f->name), 0, 0, SB_RNG_TEST);
	struct fuzz_buf b = { 0 };
	char path[64];
	long it, n = sb_test_fuzz_iters(), ok = 0;
	int fd;

	snprintf(path, sizeof path, "/tmp/sbfuzz-XXXXXX%s", f->suffix);
	fd = mkstemps(path, (int)strlen(f->suffix));
	cr_assert_geq(fd, 0);
	close(fd);
	for (it = 0; it < n; it++) {
		int k, muts = 1 + (int)sb_rng_below(&r, (uint32_t)f->maxmut);
		sb_test_buf_set(&b, f->seeds[sb_rng_below(&r, (uint32_t)f->nseeds)]);
		for (k = 0; k < muts; k++)
			f->mutate(&b, &r);
		sb_test_write_file(path, &b);
		ok += f->check(path, &r);
	}
	cr_log_info("fuzz %s: %ld of %ld mutated inputs accepted", f->name, ok, n);
	free(b.p);
	unlink(path);
	sb_test_assert_no_leaks();
}
