/*
 * fuzzkit.c - temporary files, input splitting and loader verdicts for the
 * libFuzzer harnesses (fuzzkit.h).
 */
#include "tests/fuzzkit.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NSLOT 8

static char slot_path[NSLOT][256];
static int registered;

static void remove_files(void)
{
	int k;

	for (k = 0; k < NSLOT; k++)
		if (slot_path[k][0])
			unlink(slot_path[k]);
}

/* Rewriting a file of /tmp on ext4 flushes it to the disk at every close
 * (the truncate-and-rewrite heuristic), which made the harnesses wait for
 * the disk: memory-backed /dev/shm when there is one. */
static const char *temp_dir(void)
{
	const char *d = getenv("SB_FUZZ_TMPDIR");

	if (d && *d)
		return d;
	return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

void sb_fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz finding: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

const char *sb_fuzz_file(int slot, const char *suffix, const void *p, size_t n)
{
	const char *q = p;
	ssize_t w;
	int fd;

	SB_FUZZ_CHECK(slot >= 0 && slot < NSLOT, "file slot %d", slot);
	if (!slot_path[slot][0]) {
		/* one file per slot and process: creating a file per input
		 * would cost more than most loaders */
		snprintf(slot_path[slot], sizeof slot_path[slot], "%s/sbfuzz-XXXXXX%s", temp_dir(),
			 suffix);
		fd = mkstemps(slot_path[slot], (int)strlen(suffix));
		SB_FUZZ_CHECK(fd >= 0, "cannot create a temporary file");
		close(fd);
		if (!registered) {
			atexit(remove_files);
			registered = 1;
		}
	}
	/* open and write, not stdio: a FILE's buffer is a fresh allocation
	 * per input, which AddressSanitizer fills and faults in every time */
	fd = open(slot_path[slot], O_WRONLY | O_TRUNC);
	SB_FUZZ_CHECK(fd >= 0, "cannot write %s", slot_path[slot]);
	while (n > 0) {
		w = write(fd, q, n);
		SB_FUZZ_CHECK(w > 0, "cannot write %s", slot_path[slot]);
		q += w;
		n -= (size_t)w;
	}
	SB_FUZZ_CHECK(close(fd) == 0, "cannot write %s", slot_path[slot]);
	return slot_path[slot];
}

int sb_fuzz_split(const uint8_t *data, size_t size, struct sb_fuzz_part *part, int max)
{
	size_t start = 0, i = 0;
	int k = 0;

	while (k < max - 1 && i < size) {
		size_t e = i;
		while (e < size && data[e] != '\n')
			e++;
		if (e - i == 2 && data[i] == '%' && data[i + 1] == '%') {
			part[k].p = data + start;
			part[k].n = i - start;
			k++;
			start = e < size ? e + 1 : e;
		}
		i = e + 1;
	}
	part[k].p = data + start;
	part[k].n = size - start;
	return k + 1;
}

int sb_fuzz_loaded(int rc, const struct sb_err *err, const char *const *paths, int npaths)
{
	int k;

	if (rc == 0)
		return 1;
	SB_FUZZ_CHECK(rc == SB_EXIT_INPUT, "loader returned %d, not 0 or %d: %s", rc,
		      SB_EXIT_INPUT, err->msg);
	for (k = 0; k < npaths; k++)
		if (strstr(err->msg, paths[k]))
			return 0;
	sb_fuzz_fail("error message names no input file: %s", err->msg);
}

int sb_fuzz_loaded1(int rc, const struct sb_err *err, const char *path)
{
	return sb_fuzz_loaded(rc, err, &path, 1);
}

int sb_fuzz_pick(const uint8_t *data, size_t size, int mod)
{
	return size ? data[size - 1] % mod : 0;
}
