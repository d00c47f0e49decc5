/*
 * testutil.h - helpers shared by the Criterion tests.
 */
#ifndef SB_TESTUTIL_H
#define SB_TESTUTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

#endif
