/*
 * fuzzkit.h - what the libFuzzer harnesses share (tests/fuzzkit.c). One
 * harness per input format: tests/fuzz_json.c for the engine's JSON reader,
 * tests/<family>/fuzz_<format>.c for a family's loaders; seed corpora in
 * tests/<family>/fuzz/<format>/, dictionaries in tests/<family>/fuzz/
 * <format>.dict, minimised findings in tests/<family>/fuzz/regress/.
 *
 * The loaders take paths, libFuzzer gives bytes: a harness writes them to
 * temporary files made once per process and calls the real loader. A
 * loader must accept the input (then the harness checks the instance with
 * the family's own validator, simulator and checker) or reject it as bad
 * input (SB_EXIT_INPUT, a message naming the file). Anything else - another
 * exit code, a message without the file, an accepted instance that the
 * simulator or checker then rejects, a sanitizer report, a leak - aborts:
 * that is a finding. Built by `make fuzz-build` with clang
 * -fsanitize=fuzzer,address,undefined; run by scripts/fuzz.
 */
#ifndef SB_FUZZKIT_H
#define SB_FUZZKIT_H

#include <stddef.h>
#include <stdint.h>

#include "sb.h"

/* libFuzzer's entry point, defined once by every harness. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Print "fuzz finding: <message>" and abort (libFuzzer saves the input). */
void sb_fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#define SB_FUZZ_CHECK(cond, ...)                                               \
	do {                                                                   \
		if (!(cond))                                                   \
			sb_fuzz_fail(__VA_ARGS__);                             \
	} while (0)

/* Write n bytes at p to this process's temporary file number slot (0..7),
 * whose name ends in suffix ("" for none; the same suffix on every call for
 * a slot), replacing its contents; returns its path (valid for the whole
 * process). The files are removed at exit. */
const char *sb_fuzz_file(int slot, const char *suffix, const void *p, size_t n);

/* One piece of a multi-file input. */
struct sb_fuzz_part {
	const uint8_t *p;
	size_t n;
};

/* Split data at every line that is exactly "%%" (the separator between the
 * files of a multi-file format) into at most max parts (the last one keeps
 * the rest); returns the number of parts. */
int sb_fuzz_split(const uint8_t *data, size_t size, struct sb_fuzz_part *part, int max);

/*
 * The verdict of a loader on the files paths[0..npaths): 1 if it accepted
 * them (rc 0); 0 if it rejected them as bad input (SB_EXIT_INPUT with a
 * message naming one of the files); any other outcome is a finding.
 */
int sb_fuzz_loaded(int rc, const struct sb_err *err, const char *const *paths, int npaths);

/* The same for one file. */
int sb_fuzz_loaded1(int rc, const struct sb_err *err, const char *path);

/* A small number from the input, for choices such as a device count: the
 * last byte modulo mod (0 for an empty input). */
int sb_fuzz_pick(const uint8_t *data, size_t size, int mod);

#endif
