/*
 * sweep.c - the sweep runner: local worker processes or MPI ranks, a
 * resumable checkpoint, progress with ETA on stderr.
 */
#include "sweep.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef SB_MPI
#include <mpi.h>
#endif

#define PART_MAGIC "SBPART02"

/*
 * The tables of one point: 0 points, 1 timing (absent when the experiment
 * has no timing_cols), 2.. the experiment's detail datasets. A record of
 * a point holds the row count of each, then their rows in that order.
 */
#define NTAB (2 + SB_MAX_DETAILS)

struct part_hdr {
	char magic[8];
	uint64_t config_hash;
	uint64_t rowsize[NTAB];   /* 0 for an absent table */
};

struct rec_hdr {
	int32_t point;
	int32_t pad;
	uint64_t nrow[NTAB];
};

/* schema of table k of c's points (NULL: absent) */
static const struct sb_col *tab_cols(const struct sb_exp_ctx *c, int k)
{
	if (k == 0)
		return c->exp->cols;
	if (k == 1)
		return c->exp->timing_cols;
	return k - 2 < sb_exp_ndetails(c->exp) ? c->exp->details[k - 2].cols : NULL;
}

/* one point's tables, initialised (absent ones zeroed) */
static void tabs_init(struct sb_table *t, const struct sb_exp_ctx *c)
{
	int k;
	memset(t, 0, NTAB * sizeof *t);
	for (k = 0; k < NTAB; k++)
		if (tab_cols(c, k))
			sb_table_init(&t[k], tab_cols(c, k));
}

static void tabs_release(struct sb_table *t, const struct sb_exp_ctx *c)
{
	int k;
	for (k = 0; k < NTAB; k++)
		if (tab_cols(c, k))
			sb_table_release(&t[k]);
}

/* Per-point rows as they are collected: tabs[p * NTAB + k]. */
struct collected {
	int npoints;
	char *done;
	struct sb_table *tabs;
};

static void collected_init(struct collected *cl, const struct sb_exp_ctx *c)
{
	int p;
	cl->npoints = c->npoints;
	cl->done = SB_NEW(char, c->npoints);
	cl->tabs = SB_NEW(struct sb_table, (size_t)c->npoints * NTAB);
	for (p = 0; p < c->npoints; p++)
		tabs_init(&cl->tabs[(size_t)p * NTAB], c);
}

static void collected_release(struct collected *cl, const struct sb_exp_ctx *c)
{
	int p;
	for (p = 0; p < cl->npoints; p++)
		tabs_release(&cl->tabs[(size_t)p * NTAB], c);
	sb_free(cl->tabs);
	sb_free(cl->done);
}

/* the row sizes of c's tables (0 for absent ones), as a checkpoint holds them */
static void tab_rowsizes(const struct sb_exp_ctx *c, uint64_t *rs)
{
	struct sb_table t[NTAB];
	int k;
	tabs_init(t, c);
	for (k = 0; k < NTAB; k++)
		rs[k] = tab_cols(c, k) ? t[k].rowsize : 0;
	tabs_release(t, c);
}

/* Parse records from a buffer (a partial file's body or an MPI message);
 * a truncated trailing record is ignored. */
static void parse_records(struct collected *cl, const struct sb_exp_ctx *c,
			  const unsigned char *buf, size_t len)
{
	size_t at = 0;
	while (at + sizeof(struct rec_hdr) <= len) {
		struct rec_hdr h;
		size_t need = 0;
		struct sb_table *t;
		int k;
		memcpy(&h, buf + at, sizeof h);
		if (h.point < 0 || h.point >= cl->npoints)
			return;
		t = &cl->tabs[(size_t)h.point * NTAB];
		for (k = 0; k < NTAB; k++) {
			if (!tab_cols(c, k) && h.nrow[k])
				return;
			if (tab_cols(c, k))
				need += h.nrow[k] * t[k].rowsize;
		}
		if (at + sizeof h + need > len)
			return;
		at += sizeof h;
		if (cl->done[h.point]) {
			at += need;
			continue;
		}
		for (k = 0; k < NTAB; k++) {
			uint64_t i;
			if (!tab_cols(c, k))
				continue;
			for (i = 0; i < h.nrow[k]; i++) {
				size_t r = sb_table_add(&t[k]);
				memcpy(sb_table_row(&t[k], r), buf + at + i * t[k].rowsize,
				       t[k].rowsize);
			}
			at += h.nrow[k] * t[k].rowsize;
		}
		cl->done[h.point] = 1;
	}
}

static void read_partials(struct collected *cl, const struct sb_exp_ctx *c,
			  const char *dir, uint64_t hash)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t rs[NTAB];

	if (!d)
		return;
	tab_rowsizes(c, rs);
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		FILE *f;
		long len;
		unsigned char *buf;
		struct part_hdr h;
		if (!strstr(e->d_name, ".bin"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		if (fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, PART_MAGIC, 8) ||
		    h.config_hash != hash || memcmp(h.rowsize, rs, sizeof rs)) {
			fclose(f);
			continue;
		}
		fseek(f, 0, SEEK_END);
		len = ftell(f) - (long)sizeof h;
		fseek(f, (long)sizeof h, SEEK_SET);
		buf = SB_NEW(unsigned char, len > 0 ? len : 1);
		if (len > 0 && fread(buf, 1, (size_t)len, f) == (size_t)len)
			parse_records(cl, c, buf, (size_t)len);
		sb_free(buf);
		fclose(f);
	}
	closedir(d);
}

/* Serialise the result of one point (its tables t) as a record. */
static void put_record(FILE *f, const struct sb_exp_ctx *c, int point, const struct sb_table *t)
{
	struct rec_hdr h;
	int k;
	memset(&h, 0, sizeof h);
	h.point = point;
	for (k = 0; k < NTAB; k++)
		h.nrow[k] = tab_cols(c, k) ? t[k].nrow : 0;
	fwrite(&h, sizeof h, 1, f);
	for (k = 0; k < NTAB; k++)
		if (h.nrow[k])
			fwrite(t[k].data, t[k].rowsize, t[k].nrow, f);
}

static FILE *open_partial(const struct sb_exp_ctx *c, const struct sb_sweep_opts *so,
			  struct sb_err *err)
{
	char path[4096];
	struct part_hdr h;
	FILE *f;

	snprintf(path, sizeof path, "%s/w%ld-%d.bin", so->partial_dir, (long)getpid(),
		 sb_mpi_rank());
	f = fopen(path, "wb");
	if (!f) {
		sb_err_set(err, SB_EXIT_RUN, "cannot write checkpoint '%s': %s", path,
			   strerror(errno));
		return NULL;
	}
	memset(&h, 0, sizeof h);
	memcpy(h.magic, PART_MAGIC, 8);
	h.config_hash = so->config_hash;
	tab_rowsizes(c, h.rowsize);
	fwrite(&h, sizeof h, 1, f);
	fflush(f);
	return f;
}

/* Run one point into the fresh tables t and append it to f (if any). */
static int run_one(struct sb_exp_ctx *c, int p, FILE *f, struct sb_table *t,
		   struct sb_err *err)
{
	int rc, k;
	for (k = 0; k < NTAB; k++)
		if (tab_cols(c, k))
			sb_table_clear(&t[k]);
	c->detail = sb_exp_ndetails(c->exp) ? &t[2] : NULL;
	rc = c->exp->run_point(c, p, &t[0], tab_cols(c, 1) ? &t[1] : NULL, err);
	c->detail = NULL;
	if (rc) {
		sb_err_prefix(err, "%s: point %d: ", c->exp->name, p);
		return rc;
	}
	if (f) {
		put_record(f, c, p, t);
		fflush(f);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Progress                                                            */
/* ------------------------------------------------------------------ */

struct progress {
	const char *name;
	int total, done, quiet, tty;
	double t0, last;
};

static void fmt_time(char *b, size_t n, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

static void progress_tick(struct progress *pr, int final)
{
	double now = sb_now(), el = now - pr->t0;
	char e[32], eta[32];
	if (pr->quiet)
		return;
	if (!final && !pr->tty && now - pr->last < 5.0)
		return;
	if (!final && pr->tty && now - pr->last < 0.2)
		return;
	pr->last = now;
	fmt_time(e, sizeof e, el);
	/* points differ in cost (an ILP next to a heuristic), so a rate from
	 * the first few says little: no estimate before a fifth of them (and
	 * at least three) are done */
	if (pr->done >= pr->total || final)
		snprintf(eta, sizeof eta, "-");
	else if (pr->done >= 3 && pr->done * 5 >= pr->total)
		fmt_time(eta, sizeof eta, el / pr->done * (pr->total - pr->done));
	else
		snprintf(eta, sizeof eta, "unknown");
	fprintf(stderr, "%s%s: %d/%d points, %s elapsed, ETA %s%s", pr->tty ? "\r" : "",
		pr->name, pr->done, pr->total, e, eta, pr->tty && !final ? "   " : "\n");
	if (pr->tty && final)
		fputc('\n', stderr);
	fflush(stderr);
}

/* ------------------------------------------------------------------ */
/* Local workers                                                       */
/* ------------------------------------------------------------------ */

static int run_inprocess(struct sb_exp_ctx *c, const struct sb_sweep_opts *so,
			 const int *todo, int ntodo, struct progress *pr,
			 struct sb_err *err)
{
	struct sb_table t[NTAB];
	FILE *f;
	int i, rc = 0;
	/* test hook: simulate an interrupted run after this many points */
	const char *stop = getenv("SB_SWEEP_STOP_AFTER");
	int stop_after = stop ? atoi(stop) : -1;

	tabs_init(t, c);
	f = open_partial(c, so, err);
	if (!f)
		rc = SB_EXIT_RUN;
	for (i = 0; i < ntodo && !rc; i++) {
		if (i == stop_after) {
			rc = sb_err_set(err, SB_EXIT_RUN, "%s: stopped after %d points "
					"(SB_SWEEP_STOP_AFTER); run again to resume",
					c->exp->name, i);
			break;
		}
		rc = run_one(c, todo[i], f, t, err);
		pr->done++;
		progress_tick(pr, 0);
	}
	if (f)
		fclose(f);
	tabs_release(t, c);
	return rc;
}

static int run_forked(struct sb_exp_ctx *c, const struct sb_sweep_opts *so,
		      const int *todo, int ntodo, struct progress *pr,
		      struct sb_err *err)
{
	int work[2], prog[2], w, i, rc = 0, jobs = so->jobs;
	pid_t *pid = SB_NEW(pid_t, jobs);
	FILE *wf;
	int32_t msg;

	if (pipe(work) || pipe(prog))
		return sb_err_set(err, SB_EXIT_RUN, "cannot create pipes: %s", strerror(errno));
	fflush(stdout);
	fflush(stderr);
	for (w = 0; w < jobs; w++) {
		pid[w] = fork();
		if (pid[w] < 0) {
			rc = sb_err_set(err, SB_EXIT_RUN, "cannot fork: %s", strerror(errno));
			jobs = w;
			break;
		}
		if (pid[w] == 0) {
			struct sb_table t[NTAB];
			struct sb_err e = { 0, "" };
			FILE *f;
			int32_t p;
			int crc = 0;
			close(work[1]);
			close(prog[0]);
			tabs_init(t, c);
			f = open_partial(c, so, &e);
			if (!f)
				crc = SB_EXIT_RUN;
			while (!crc && read(work[0], &p, sizeof p) == (ssize_t)sizeof p) {
				crc = run_one(c, p, f, t, &e);
				if (!crc && write(prog[1], &p, sizeof p) != (ssize_t)sizeof p)
					crc = SB_EXIT_RUN;
			}
			if (f)
				fclose(f);
			if (crc)
				sb_err_print(&e);
			fflush(stderr);
			_exit(crc);
		}
	}
	close(work[0]);
	close(prog[1]);
	/* Children may fail before reading everything; ignore SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	wf = fdopen(work[1], "w");
	for (i = 0; i < ntodo && wf; i++) {
		int32_t p = todo[i];
		if (fwrite(&p, sizeof p, 1, wf) != 1)
			break;
	}
	if (wf)
		fclose(wf);
	else
		close(work[1]);
	while (read(prog[0], &msg, sizeof msg) == (ssize_t)sizeof msg) {
		pr->done++;
		progress_tick(pr, 0);
	}
	close(prog[0]);
	for (w = 0; w < jobs; w++) {
		int st;
		waitpid(pid[w], &st, 0);
		if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
			rc = sb_err_set(err, WIFEXITED(st) ? WEXITSTATUS(st) : SB_EXIT_RUN,
					"%s: a worker process failed (see above)", c->exp->name);
	}
	sb_free(pid);
	return rc;
}

/* ------------------------------------------------------------------ */
/* MPI                                                                 */
/* ------------------------------------------------------------------ */

#ifdef SB_MPI
static int mpi_started;
void sb_mpi_init(int *argc, char ***argv)
{
	MPI_Init(argc, argv);
	mpi_started = 1;
}
void sb_mpi_finalize(void)
{
	if (mpi_started)
		MPI_Finalize();
}
int sb_mpi_rank(void)
{
	int r = 0;
	if (mpi_started)
		MPI_Comm_rank(MPI_COMM_WORLD, &r);
	return r;
}
int sb_mpi_size(void)
{
	int s = 1;
	if (mpi_started)
		MPI_Comm_size(MPI_COMM_WORLD, &s);
	return s;
}

/* Rank r runs points p with p % size == r, serialises its records into a
 * memory stream and sends them to rank 0, which merges them. */
static int run_mpi(struct sb_exp_ctx *c, struct collected *cl, struct progress *pr,
		   struct sb_err *err)
{
	int rank = sb_mpi_rank(), size = sb_mpi_size(), p, rc = 0, anyrc = 0;
	struct sb_table t[NTAB];
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	tabs_init(t, c);
	for (p = rank; p < c->npoints && !rc; p += size) {
		rc = run_one(c, p, mem, t, err);
		pr->done++;
		if (rank == 0)
			progress_tick(pr, 0);
	}
	fclose(mem);
	if (rc && rank != 0)
		sb_err_print(err);
	MPI_Allreduce(&rc, &anyrc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (anyrc) {
		if (!rc)
			rc = sb_err_set(err, anyrc, "%s: another MPI rank failed", c->exp->name);
		goto out;
	}
	if (rank == 0) {
		int r;
		parse_records(cl, c, (unsigned char *)buf, len);
		for (r = 1; r < size; r++) {
			unsigned long long n;
			unsigned char *rb;
			MPI_Recv(&n, 1, MPI_UNSIGNED_LONG_LONG, r, 1, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			rb = SB_NEW(unsigned char, n ? n : 1);
			MPI_Recv(rb, (int)n, MPI_BYTE, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			parse_records(cl, c, rb, (size_t)n);
			sb_free(rb);
		}
	} else {
		unsigned long long n = len;
		MPI_Send(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, 1, MPI_COMM_WORLD);
		MPI_Send(buf, (int)n, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
	}
out:
	free(buf);
	tabs_release(t, c);
	return rc;
}
#else
void sb_mpi_init(int *argc, char ***argv) { (void)argc; (void)argv; }
void sb_mpi_finalize(void) {}
int sb_mpi_rank(void) { return 0; }
int sb_mpi_size(void) { return 1; }
#endif

/* ------------------------------------------------------------------ */
/* Entry point                                                         */
/* ------------------------------------------------------------------ */

int sb_sweep_run(struct sb_exp_ctx *c, const struct sb_sweep_opts *so,
		 struct sb_table *points, struct sb_table *timing,
		 struct sb_table *details, struct sb_err *err)
{
	struct collected cl;
	struct progress pr = { c->exp->name, c->npoints, 0, so->quiet, 0, sb_now(), 0 };
	int *todo = SB_NEW(int, c->npoints), ntodo = 0, p, rc = 0;

	pr.tty = isatty(2);
	collected_init(&cl, c);
#ifdef SB_MPI
	if (sb_mpi_size() > 1) {
		rc = run_mpi(c, &cl, &pr, err);
		if (rc || sb_mpi_rank() != 0)
			goto out;
		goto assemble;
	}
#endif
	if (mkdir(so->partial_dir, 0777) != 0 && errno != EEXIST) {
		rc = sb_err_set(err, SB_EXIT_RUN, "cannot create '%s': %s", so->partial_dir,
				strerror(errno));
		goto out;
	}
	read_partials(&cl, c, so->partial_dir, so->config_hash);
	for (p = 0; p < c->npoints; p++)
		if (!cl.done[p])
			todo[ntodo++] = p;
	pr.done = c->npoints - ntodo;
	if (pr.done && !so->quiet)
		fprintf(stderr, "%s: resuming, %d of %d points already done\n",
			c->exp->name, pr.done, c->npoints);
	if (ntodo > 0) {
		if (so->jobs <= 1 || ntodo == 1)
			rc = run_inprocess(c, so, todo, ntodo, &pr, err);
		else
			rc = run_forked(c, so, todo, ntodo, &pr, err);
		if (rc)
			goto out;
		/* the workers' records are the single source of the rows */
		collected_release(&cl, c);
		collected_init(&cl, c);
		read_partials(&cl, c, so->partial_dir, so->config_hash);
	}
#ifdef SB_MPI
assemble:
#endif
	progress_tick(&pr, 1);
	for (p = 0; p < c->npoints; p++) {
		struct sb_table *t = &cl.tabs[(size_t)p * NTAB];
		int k;
		if (!cl.done[p]) {
			rc = sb_err_set(err, SB_EXIT_RUN, "%s: point %d produced no record",
					c->exp->name, p);
			goto out;
		}
		sb_table_append(points, &t[0]);
		if (timing && c->exp->timing_cols)
			sb_table_append(timing, &t[1]);
		for (k = 0; details && k < sb_exp_ndetails(c->exp); k++)
			sb_table_append(&details[k], &t[2 + k]);
	}
out:
	collected_release(&cl, c);
	sb_free(todo);
	return rc;
}
