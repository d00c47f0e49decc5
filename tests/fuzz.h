/*
 * fuzz.h - the mutation fuzzer shared by the loader fuzz tests
 * (tests/<family>/test_fuzz.c); implemented in tests/test_fuzzlib.c.
 *
 * Small valid inputs are mutated with seeded edits (byte flips, truncation,
 * duplicated, deleted or swapped lines, huge numbers, NaN, "-1", very long
 * lines, NUL bytes, and tokens a test chooses, such as JSON brackets,
 * escapes and literals), written to a temporary file and loaded. A loader
 * must return 0 or SB_EXIT_INPUT (with a message naming the file), and on
 * success the instance must be consistent. Run under AddressSanitizer and
 * UBSan by `make asan`, where each test also asks LeakSanitizer at its end
 * that every path freed what it allocated. Iterations per loader:
 * $SB_FUZZ_ITERS (default 300; `make fuzz` runs 3000).
 */
#ifndef SB_FUZZ_H
#define SB_FUZZ_H

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdint.h>

#include "rng.h"
#include "sb.h"

/* An input being mutated: n bytes at p (not NUL-terminated), cap allocated.
 * { 0 } is empty; free(p) when done. */
struct fuzz_buf {
	char *p;
	size_t n, cap;
};

/* Make b a copy of the string s. */
void sb_test_buf_set(struct fuzz_buf *b, const char *s);

/* One random edit of b: any of the kinds above but a test's own tokens. */
void sb_test_mutate(struct fuzz_buf *b, struct sb_rng *r);

/* Half the time sb_test_mutate, else insert one of the ntokens tokens at a
 * random place: a mutator for inputs with their own vocabulary. */
void sb_test_mutate_tokens(struct fuzz_buf *b, struct sb_rng *r, const char *const *tokens,
			   int ntokens);

/* Iterations per loader: $SB_FUZZ_ITERS, default 300. */
long sb_test_fuzz_iters(void);

/* Write b's bytes to path (replacing the file). */
void sb_test_write_file(const char *path, const struct fuzz_buf *b);

/* A fresh temporary file's path into out (size bytes; 64 are enough); the
 * caller unlinks it. */
void sb_test_temp_path(char *out, size_t size);

/* 1 if a load of path was accepted (rc 0); else 0, after checking that it
 * was rejected as bad input (SB_EXIT_INPUT) with a message naming path. */
int sb_test_accepted(int rc, const struct sb_err *err, const char *path);

/* Under `make asan`: nothing the test allocated is unreachable
 * (LeakSanitizer's report when a Criterion worker exits does not fail the
 * test, so each test asks for the check itself). Elsewhere nothing. */
void sb_test_assert_no_leaks(void);

/* The seed of a test's random stream, from its name. */
uint64_t sb_test_seed(const char *name);

/* One loader under fuzzing: its seed files, how they are mutated, and
 * what to do with a mutated file. */
struct fuzz_target {
	const char *name;
	const char *const *seeds;
	int nseeds;
	int maxmut;                  /* 1..maxmut mutations per input */
	void (*mutate)(struct fuzz_buf *b, struct sb_rng *r);
	const char *suffix;          /* of the temporary file's name ("": none) */
	/* Load path and check the result (accepted) or the error and the
	 * zeroed output (rejected); 1 if accepted. r: extra random choices. */
	int (*check)(const char *path, struct sb_rng *r);
};

/* sb_test_fuzz_iters() mutated inputs of f, each loaded by f->check; the
 * temporary file is removed and leaks are checked at the end. */
void sb_test_fuzz_run(const struct fuzz_target *f);

/* FUZZ(name_, seeds_, maxmut_, mutate_, suffix_) { body }: Test(fuzz, name_)
 * fuzzes the seeds_ array (1..maxmut_ edits by mutate_ per input, files
 * named with suffix_), and body, that of
 *     static int check_<name_>(const char *path, struct sb_rng *r),
 * loads path and checks the result as fuzz_target.check does. */
#define FUZZ(name_, seeds_, maxmut_, mutate_, suffix_)                              \
	static int check_##name_(const char *path, struct sb_rng *r);               \
	Test(fuzz, name_)                                                            \
	{                                                                            \
		const struct fuzz_target f = { #name_, seeds_,                       \
					       (int)(sizeof seeds_ / sizeof seeds_[0]), \
					       maxmut_, mutate_, suffix_, check_##name_ }; \
		sb_test_fuzz_run(&f);                                                \
	}                                                                            \
	static int check_##name_(const char *path, struct sb_rng *r)

#endif
