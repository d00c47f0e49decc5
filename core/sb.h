/*
 * sb.h - common definitions of schedbench: exit codes, error reports that
 * name file, line and field, the allocation wrapper tests can make fail,
 * and SB_BUG for broken internal invariants.
 *
 * Conventions (see STYLE.md of the project):
 *   - functions that read user input return 0 or SB_EXIT_INPUT and fill a
 *     struct sb_err; the caller prints it and exits with that code;
 *   - SB_BUG() is only for invariants of our own code, never for input.
 */
#ifndef SB_H
#define SB_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#define SB_VERSION "0.1.0"

enum sb_exit {
	SB_EXIT_OK = 0,     /* success */
	SB_EXIT_RUN = 1,    /* run-time failure (solver, I/O, out of memory) */
	SB_EXIT_INPUT = 2,  /* usage error or bad input */
};

/* An error report: a code from enum sb_exit and a one-line message in the
 * form "cannot read graph 'g.csv': line 12: field 'ops': not a number". */
struct sb_err {
	int code;
	char msg[512];
};

/* Set err (may be NULL) and return code, so that loaders can write
 * `return sb_err_set(err, SB_EXIT_INPUT, "...", ...);`. */
int sb_err_set(struct sb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Prefix the message already in err with more context ("cannot read x: "). */
void sb_err_prefix(struct sb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Print "error: <msg>" to stderr. */
void sb_err_print(const struct sb_err *err);
/* Print "error: ..." to stderr and exit with code. */
_Noreturn void sb_die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Internal invariant broken: print where and abort. */
_Noreturn void sb_bug_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define SB_BUG(...) sb_bug_at(__FILE__, __LINE__, __VA_ARGS__)
#define SB_ASSERT(c) do { if (!(c)) SB_BUG("assertion failed: %s", #c); } while (0)

/*
 * Allocation. Every allocation of the project goes through these so that a
 * test can make the k-th one fail (sb_mem_fail_at). sb_malloc & co return
 * NULL on failure and are meant for code that reports errors (loaders);
 * sb_x* die with exit code 1 ("out of memory") and are meant for the rest.
 * sb_free(NULL) is a no-op.
 */
void *sb_malloc(size_t size);
void *sb_calloc(size_t n, size_t size);
void *sb_realloc(void *p, size_t size);
char *sb_strdup(const char *s);
void sb_free(void *p);
void *sb_xmalloc(size_t size);
void *sb_xcalloc(size_t n, size_t size);
void *sb_xrealloc(void *p, size_t size);
char *sb_xstrdup(const char *s);
/* Make the allocation numbered `k` from now (1 = the next one) and every
 * later one fail; k <= 0 switches failure injection off. */
void sb_mem_fail_at(long k);
/* Number of allocations made since start (for tests). */
long sb_mem_count(void);

#define SB_NEW(type, n) ((type *)sb_xcalloc((size_t)(n), sizeof(type)))
/* Advise the kernel to back a large array of random accesses with huge
 * pages (fewer TLB misses); best called before its first write. A hint:
 * no effect on contents or results, ignored below 4 MiB. */
void sb_mem_huge(void *p, size_t size);
/* Keep freed heap memory in the process instead of returning it to the
 * kernel at every free (glibc: trim threshold 64 MiB, mmap threshold
 * 32 MiB, glibc's own ceiling for its adaptive threshold). A program that
 * builds and frees many medium blocks, like GLPK's branch and bound and a
 * rolling LP rebuilt every slot, otherwise pays a brk shrink, TLB flush and
 * fresh zeroed pages per node: alloc_ps_time's 11-job ILP took 39 CPU s
 * (14 s in the kernel), 4 s with this. Changes no result; called once at
 * the start of each program (sb, sbbench). No effect outside glibc. */
void sb_mem_tune(void);

/* Small helpers. */
static inline double sb_max(double a, double b) { return a > b ? a : b; }
static inline double sb_min(double a, double b) { return a < b ? a : b; }

/* Seconds of a monotonic clock (wall-clock measurements only). */
double sb_now(void);
/* CPU seconds of this process (rates that other load on the machine does
 * not dilute; still a measurement, never stored in `points`). */
double sb_cpu_now(void);
/* Peak resident set size of this process in KiB (0 if unknown). */
long sb_peak_rss_kib(void);

/* FNV-1a 64-bit hash of a string (used to derive per-name RNG purposes). */
uint64_t sb_hash_str(const char *s);
/* FNV-1a over n bytes, continuing from h (start: SB_HASH_INIT, FNV's
 * offset basis; sb_hash_str starts from another value, which every
 * string-derived stream depends on, so it stays). */
#define SB_HASH_INIT 0xcbf29ce484222325ULL
uint64_t sb_hash_bytes(uint64_t h, const void *p, size_t n);

/* sha256 of a file as 64 lowercase hex chars + NUL into out[65];
 * returns 0 or SB_EXIT_INPUT with err filled. */
int sb_sha256_file(const char *path, char out[65], struct sb_err *err);

#endif
