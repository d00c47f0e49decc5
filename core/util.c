/*
 * util.c - error reports, the allocation wrapper with failure injection,
 * clocks, and sha256 of input files (for provenance).
 */
#include "sb.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

/* ------------------------------------------------------------------ */
/* Errors                                                              */
/* ------------------------------------------------------------------ */

int sb_err_set(struct sb_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

void sb_err_prefix(struct sb_err *err, const char *fmt, ...)
{
	char head[256], old[sizeof err->msg];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof old);
	snprintf(err->msg, sizeof err->msg, "%s%s", head, old);
}

void sb_err_print(const struct sb_err *err)
{
	fprintf(stderr, "error: %s\n", err->msg[0] ? err->msg : "unknown error");
}

_Noreturn void sb_die(int code, const char *fmt, ...)
{
	va_list ap;
	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

void sb_warn(const char *fmt, ...)
{
	va_list ap;
	fputs("warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

_Noreturn void sb_bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */
/* ------------------------------------------------------------------ */

/* Allocation counter and the number of the first allocation to fail
 * (0: none). Process-local; worker processes inherit it at fork. */
static long alloc_count;
static long alloc_fail_from;

void sb_mem_fail_at(long k)
{
	alloc_fail_from = k > 0 ? alloc_count + k : 0;
}

long sb_mem_count(void)
{
	return alloc_count;
}

static int alloc_should_fail(void)
{
	alloc_count++;
	return alloc_fail_from > 0 && alloc_count >= alloc_fail_from;
}

void *sb_malloc(size_t size)
{
	if (alloc_should_fail())
		return NULL;
	return malloc(size ? size : 1);
}

void *sb_calloc(size_t n, size_t size)
{
	if (alloc_should_fail())
		return NULL;
	return calloc(n ? n : 1, size ? size : 1);
}

void *sb_realloc(void *p, size_t size)
{
	if (alloc_should_fail())
		return NULL;
	return realloc(p, size ? size : 1);
}

char *sb_strdup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = sb_malloc(len);
	if (d)
		memcpy(d, s, len);
	return d;
}

void sb_free(void *p)
{
	free(p);
}

static void *oom(void *p)
{
	if (!p) {
		fputs("error: out of memory\n", stderr);
		exit(SB_EXIT_RUN);
	}
	return p;
}

void *sb_xmalloc(size_t size) { return oom(sb_malloc(size)); }
void *sb_xcalloc(size_t n, size_t size) { return oom(sb_calloc(n, size)); }
void *sb_xrealloc(void *p, size_t size) { return oom(sb_realloc(p, size)); }
char *sb_xstrdup(const char *s) { return oom(sb_strdup(s)); }

/* Large arrays read at random (CSR adjacency, per-node tables) cost a TLB
 * miss per access with 4 KiB pages; with the kernel's transparent huge
 * pages in "madvise" mode only advised ranges get 2 MiB pages. The advice
 * covers the whole pages inside [p, p + size) and changes no byte of the
 * data, so a kernel that ignores it only makes the program slower. */
void sb_mem_huge(void *p, size_t size)
{
	uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)4095;
#ifdef MADV_HUGEPAGE
	if (p && size >= ((size_t)4 << 20) && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)lo;
	(void)hi;
#endif
}

void sb_mem_tune(void)
{
#ifdef __GLIBC__
	(void)mallopt(M_MMAP_THRESHOLD, 32 << 20);
	(void)mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
}

/* ------------------------------------------------------------------ */
/* Clocks and resources                                                */
/* ------------------------------------------------------------------ */

double sb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double sb_cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

long sb_peak_rss_kib(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return ru.ru_maxrss;
}

uint64_t sb_hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= c[i];
		h *= 1099511628211ULL;
	}
	return h;
}

uint64_t sb_hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return h;
}

/* ------------------------------------------------------------------ */
/* SHA-256 (FIPS 180-4), for the provenance of input files             */
/* ------------------------------------------------------------------ */

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
	0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
	0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
	0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
	0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR32(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(uint32_t h[8], const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, hh;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
	for (i = 16; i < 64; i++) {
		uint32_t s0 = ROR32(w[i - 15], 7) ^ ROR32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ROR32(w[i - 2], 17) ^ ROR32(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = h[0]; b = h[1]; c = h[2]; d = h[3];
	e = h[4]; f = h[5]; g = h[6]; hh = h[7];
	for (i = 0; i < 64; i++) {
		uint32_t S1 = ROR32(e, 6) ^ ROR32(e, 11) ^ ROR32(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + S1 + ch + sha_k[i] + w[i];
		uint32_t S0 = ROR32(a, 2) ^ ROR32(a, 13) ^ ROR32(a, 22);
		uint32_t mj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = S0 + mj;
		hh = g; g = f; f = e; e = d + t1;
		d = c; c = b; b = a; a = t1 + t2;
	}
	h[0] += a; h[1] += b; h[2] += c; h[3] += d;
	h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

int sb_sha256_file(const char *path, char out[65], struct sb_err *err)
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	unsigned char buf[64 * 1024], tail[128];
	uint64_t total = 0;
	size_t got, i, rest = 0;
	FILE *f = fopen(path, "rb");

	if (!f)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot open '%s': %s", path,
				  strerror(errno));
	while ((got = fread(buf + rest, 1, sizeof buf - rest, f)) > 0) {
		size_t have = rest + got, full = have / 64 * 64;
		total += got;
		for (i = 0; i < full; i += 64)
			sha_block(h, buf + i);
		rest = have - full;
		memmove(buf, buf + full, rest);
	}
	if (ferror(f)) {
		fclose(f);
		return sb_err_set(err, SB_EXIT_INPUT, "cannot read '%s'", path);
	}
	fclose(f);
	memcpy(tail, buf, rest);
	tail[rest++] = 0x80;
	size_t padlen = rest <= 56 ? 64 : 128;
	memset(tail + rest, 0, padlen - rest);
	uint64_t bits = total * 8;
	for (i = 0; i < 8; i++)
		tail[padlen - 1 - i] = (unsigned char)(bits >> (8 * i));
	for (i = 0; i < padlen; i += 64)
		sha_block(h, tail + i);
	for (i = 0; i < 8; i++)
		snprintf(out + 8 * i, 9, "%08x", h[i]);
	return 0;
}
