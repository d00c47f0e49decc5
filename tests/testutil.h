/*
 * testutil.h - helpers shared by the Criterion tests.
 */
#ifndef SB_TESTUTIL_H
#define SB_TESTUTIL_H

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sb.h"

/* Path of a real data file (relative to the data root, e.g.
 * "stg/sample00.stg") if present, else NULL. The root is $SB_DATA, else
 * data/ (what `make data` fills), else ../shared/data. */
static inline const char *sb_test_data(const char *rel)
{
	static char buf[4][1024];
	static int k;
	const char *roots[3] = { getenv("SB_DATA"), "data", "../shared/data" };
	char *out = buf[k++ & 3];
	int i;
	for (i = 0; i < 3; i++) {
		if (!roots[i] || !roots[i][0])
			continue;
		snprintf(out, sizeof buf[0], "%s/%s", roots[i], rel);
		if (access(out, R_OK) == 0)
			return out;
	}
	return NULL;
}

/* Write `text` to a fresh temporary file; returns its path (static buffer
 * rotation of 8). The file is removed at exit by the OS tmp cleaner only,
 * so tests remove it themselves when they care. */
static inline const char *sb_test_write(const char *text)
{
	static char buf[8][64];
	static int k;
	char *p = buf[k++ & 7];
	int fd;
	FILE *f;
	snprintf(p, sizeof buf[0], "/tmp/sbtest-XXXXXX");
	fd = mkstemp(p);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return p;
}

/* Declare `var` = the path of data file `rel`, or skip the test. */
#define DATA_OR_SKIP(var, rel)                                   \
	const char *var = sb_test_data(rel);                     \
	do {                                                     \
		if (!var)                                        \
			cr_skip_test("data file %s not found", rel); \
	} while (0)

/* A loader call that must fail as bad input, with a message naming the
 * file and containing each of the given pieces (NULL: none). */
static inline void sb_test_expect_bad(int rc, const struct sb_err *err, const char *path,
				      const char *a, const char *b, const char *c)
{
	const char *want[3] = { a, b, c };
	int i;

	cr_assert_eq(rc, SB_EXIT_INPUT, "rc %d for %s (%s)", rc, path, err->msg);
	cr_assert_eq(err->code, SB_EXIT_INPUT);
	cr_assert(strstr(err->msg, path), "message does not name the file: %s", err->msg);
	for (i = 0; i < 3; i++)
		if (want[i])
			cr_assert(strstr(err->msg, want[i]), "'%s' not in: %s", want[i], err->msg);
}

/*
 * Make the k-th allocation fail for k = 1, 2, ... in a child process
 * while load(path) runs: the call must return SB_EXIT_RUN with "out of
 * memory" in a message starting with `prefix`, or (allow_fatal: where a
 * loader uses core's fatal allocators, which exit 1) exit with 1, never
 * crash; the sweep ends when the load succeeds, and some failure must
 * have been reported.
 */
static inline void sb_test_oom_sweep(int (*load)(const char *, struct sb_err *),
				     const char *path, const char *prefix, int allow_fatal)
{
	int k, reported = 0;

	for (k = 1; k < 400; k++) {
		pid_t pid = fork();
		int st, code;
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			struct sb_err err = { 0 };
			int rc;
			/* core's fatal allocators print "error: out of memory" */
			if (!freopen("/dev/null", "w", stderr))
				_exit(13);
			sb_mem_fail_at(k);
			rc = load(path, &err);
			sb_mem_fail_at(0);
			if (rc == SB_EXIT_RUN && strstr(err.msg, "out of memory") &&
			    !strncmp(err.msg, prefix, strlen(prefix)))
				_exit(10);
			_exit(rc == 0 ? 11 : 12);
		}
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_assert(WIFEXITED(st), "k=%d: child died with signal %d", k,
			  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		code = WEXITSTATUS(st);
		cr_assert(code == 10 || code == 11 || (allow_fatal && code == 1), "k=%d: exit %d",
			  k, code);
		reported += code == 10;
		if (code == 11)
			break;
	}
	cr_assert_lt(k, 400, "never succeeded");
	cr_assert_gt(reported, 0);
}

#endif
