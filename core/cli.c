/*
 * cli.c - the sb command: list, run, export, show, eval, verify-claims.
 * Names and options are the contract of ARCHITECTURE.md. Exit codes: 0
 * success, 1 run-time failure, 2 usage or bad input.
 */
#include "adversary.h"
#include "cli.h"
#include "claims.h"
#include "exp.h"
#include "family.h"
#include "h5.h"
#include "lp.h"
#include "registry.h"
#include "summary.h"
#include "sweep.h"
#include "version.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Every command's help, in one table: `sb help`, `sb help CMD`, `sb CMD
 * --help` and the usage printed on errors all come from here. */
struct command {
	const char *name;
	const char *synopsis;    /* the arguments after the name */
	const char *summary;     /* one line */
	const char *help;        /* what `sb help CMD` adds */
};

static const struct command commands[] = {
	{ "list", "[FAMILY|experiments|families|first|after]", "registered policies and experiments",
	  "Prints every registered policy of every family (name, role, provenance,\n"
	  "description, citation), then every experiment (name, family, figure id,\n"
	  "description). FAMILY prints one family's policies; `families` lists the\n"
	  "families, `experiments` the experiments; `first` the names of the\n"
	  "experiments whose results other experiments read, which must run before\n"
	  "them; `after` a line `EXPERIMENT FIRST` for each experiment that reads\n"
	  "one (make reproduce starts it only when FIRST has finished).\n" },
	{ "run", "EXPERIMENT [--quick] [--seed N] [--jobs N] [--set key=value]... [--out FILE] "
	  "[--data-dir DIR]", "run a sweep, write one HDF5 file",
	  "Runs every point of EXPERIMENT on N local worker processes (default: the\n"
	  "number of CPUs) or on the ranks of mpirun, and writes results/EXPERIMENT.h5\n"
	  "(or FILE; an existing FILE must be a regular file): the `points` dataset,\n"
	  "bit-identical for a seed whatever N, plus `summary` and the wall-clock\n"
	  "`timing`, with provenance attributes. --quick uses the experiment's small\n"
	  "sizes; --set overrides one of its parameters (see `sb list experiments`).\n"
	  "Real inputs are read from DIR (default $DATA_DIR or data/); without them\n"
	  "the experiment uses its synthetic fallback and says so. An interrupted run\n"
	  "resumes from FILE.partial/.\n" },
	{ "export", "FILE DATASET [--where col=value]... [--exact]",
	  "print a dataset as columns (for gnuplot)",
	  "Prints DATASET of a results file as whitespace-separated columns with a\n"
	  "header line, only the rows matching every --where; --exact prints doubles\n"
	  "in hexadecimal (%a), for bit-for-bit comparisons.\n" },
	{ "show", "FILE | --attr KEY[,KEY]... FILE...", "provenance and summary of a results file",
	  "Prints the root attributes (version, git revision, command line,\n"
	  "configuration, seed, library versions, input files with sha256) and the\n"
	  "datasets with their row counts. With --attr, prints only the named root\n"
	  "attributes of each FILE, one line per file: the file, then each value\n"
	  "('-' when absent), tab-separated, newlines in a value as spaces; it reads\n"
	  "no dataset, so scripts ask many files in one call.\n" },
	{ "eval", "FAMILY --policy NAME [inputs] [--bound] [--seed N] [--set key=value]... "
	  "[--schedule-out FILE]", "run one policy on your own instance",
	  "Runs one policy on one instance, checks the result with the family's\n"
	  "independent checker and prints its metrics as `key: value` lines; --bound\n"
	  "adds the family's lower bounds and the gap. `sb help eval FAMILY` (or\n"
	  "`sb eval FAMILY --help`) lists a family's inputs.\n" },
	{ "adversary", "FAMILY --policy NAME [--versus NAME] [--iters N] [--seed N] "
	  "[--set key=value]... [--exhaustive]", "search small instances for a policy's worst ratio",
	  "Searches a family's small instances (its generator's parameters and the\n"
	  "instance's entries) for the worst ratio of policy NAME to the family's exact\n"
	  "optimum, or to policy --versus: simulated annealing for N proposals (default\n"
	  "2000; seeded, the same answer on any machine), or every instance with\n"
	  "--exhaustive (small spaces). Every run goes through the family's checker.\n"
	  "Prints the worst ratio, when it was found and the instance. --set sizes the\n"
	  "space (the family's keys are listed on a bad one).\n" },
	{ "verify-claims", "[--claims FILE] [--results DIR] [--strict]",
	  "judge every claim of experiments/claims.tsv",
	  "Evaluates every claim's check on the results and prints one PASS or FAIL\n"
	  "line per claim with the measured value, then `N passed, N failed`. Exit 1\n"
	  "when a claim cannot be judged (or, with --strict, fails); 2 for a\n"
	  "malformed claims file.\n" },
	{ "help", "[COMMAND [FAMILY] | --man]", "this text, or one command's",
	  "`sb help eval FAMILY` shows the inputs of one family's eval; `sb help\n"
	  "--man` prints this manual as a troff page (make install installs it).\n" },
	{ NULL, NULL, NULL, NULL },
};

static const struct command *command_find(const char *name)
{
	const struct command *c;
	for (c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void usage(FILE *out)
{
	const struct command *c;
	fputs("usage: sb <command> [options]   (sb help <command> for more)\n", out);
	for (c = commands; c->name; c++)
		fprintf(out, "  %-14s %s\n  %-14s   %s\n", c->name, c->synopsis, "", c->summary);
	fputs("Exit codes: 0 success, 1 run-time failure, 2 usage or bad input.\n", out);
}

static void command_usage(FILE *out, const struct command *c)
{
	fprintf(out, "usage: sb %s %s\n", c->name, c->synopsis);
}

/* the command being parsed, for bad_usage */
static const struct command *current;

static int bad_usage(const char *fmt, const char *arg)
{
	fputs("error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	if (current)
		command_usage(stderr, current);
	else
		usage(stderr);
	return SB_EXIT_INPUT;
}

/* ------------------------------------------------------------------ */
/* list                                                                */
/* ------------------------------------------------------------------ */

/* the registered family names, comma-separated, into buf */
static const char *family_names(char *buf, size_t len)
{
	int n, i;
	const struct sb_family *const *f = sb_families(&n);
	buf[0] = 0;
	for (i = 0; i < n; i++) {
		size_t u = strlen(buf);
		snprintf(buf + u, len - u, "%s%s", i ? ", " : "", f[i]->name);
	}
	return buf;
}

static int cmd_list(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : NULL;
	int n, i;
	const struct sb_family *const *f = sb_families(&n);
	const struct sb_experiment *const *e;
	char known[512];

	if (argc > 2)
		return bad_usage("list: unexpected '%s'", argv[2]);
	if (what && (!strcmp(what, "first") || !strcmp(what, "after"))) {
		e = sb_experiments(&n);
		for (i = 0; i < n; i++)
			if (what[0] == 'f' && sb_experiment_is_first(e[i]))
				printf("%s\n", e[i]->name);
			else if (what[0] == 'a' && e[i]->after)
				printf("%s %s\n", e[i]->name, e[i]->after);
		return 0;
	}
	if (what && strcmp(what, "experiments") && strcmp(what, "families") &&
	    !sb_family_find(what)) {
		fprintf(stderr, "error: list: unknown family '%s' (known: %s; or experiments, "
			"families, first, after)\n", what, family_names(known, sizeof known));
		return SB_EXIT_INPUT;
	}
	if (what && !strcmp(what, "families")) {
		printf("%-10s %s\n", "family", "description");
		for (i = 0; i < n; i++)
			printf("%-10s %s\n", f[i]->name, f[i]->desc);
	}
	for (i = 0; i < n; i++)
		if (!what || !strcmp(what, f[i]->name)) {
			if (!what && i)
				putchar('\n');
			f[i]->list(stdout);
		}
	if (!what || !strcmp(what, "experiments")) {
		e = sb_experiments(&n);
		printf("\n%-20s %-9s %-11s %s\n", "experiment", "family", "figure", "description");
		for (int pass = 1; pass >= 0; pass--)
			for (i = 0; i < n; i++)
				if (sb_experiment_is_first(e[i]) == pass)
					printf("%-20s %-9s %-11s %s\n", e[i]->name, e[i]->family,
					       e[i]->figure, e[i]->desc);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* eval                                                                */
/* ------------------------------------------------------------------ */

static int cmd_eval(int argc, char **argv)
{
	const struct sb_family *f = argc > 1 ? sb_family_find(argv[1]) : NULL;
	char known[512];
	if (!f) {
		fprintf(stderr, "error: eval: unknown family '%s' (known: %s)\n",
			argc > 1 ? argv[1] : "", family_names(known, sizeof known));
		fputs("usage: sb eval FAMILY --policy NAME [inputs] [--bound] [--seed N] "
		      "[--set key=value]... [--schedule-out FILE]\n", stderr);
		return SB_EXIT_INPUT;
	}
	return f->eval(argc, argv);
}

/* ------------------------------------------------------------------ */
/* run                                                                 */
/* ------------------------------------------------------------------ */

static void utc_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void rm_partial(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[8192];

	if (!d)
		return;
	/* only our own checkpoint files live there */
	while ((e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".bin")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(dir);
}

static int cmd_run(int argc, char **argv)
{
	const struct sb_experiment *e;
	struct sb_exp_ctx c;
	struct sb_err err = { 0, "" };
	struct sb_sweep_opts so = { 0 };
	struct sb_table points, timing, details[SB_MAX_DETAILS];
	struct sb_attrs at;
	const char *out = NULL, *data_dir = getenv("DATA_DIR");
	char outbuf[4096], partial[4200], cmdline[4096] = "", config[4096] = "";
	char started[32];
	int i, rc, quick = 0, jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), nset = 0;
	const char *sets[64];
	uint64_t seed = 1;
	double t0 = sb_now();
	struct stat st;
	int data_given = 0;

	if (argc < 2)
		return bad_usage("%s", "run needs an experiment name");
	/* a stored result never depends on a time limit, which is only a
	 * safety net here: count CPU seconds, which a paused or loaded
	 * machine does not spend (a full run failed at alloc_smd_machines
	 * after it had been stopped for 45 min) */
	sb_lp_set_clock(SB_LP_CPU);
	e = sb_experiment_find(argv[1]);
	if (!e)
		return bad_usage("unknown experiment '%s' (see 'sb list experiments')", argv[1]);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--quick")) {
			quick = 1;
		} else if (!strcmp(a, "--seed") && i + 1 < argc) {
			char *end;
			errno = 0;
			seed = strtoull(argv[++i], &end, 10);
			if (*end || errno || argv[i][0] == '-')
				return bad_usage("--seed '%s': not a non-negative integer", argv[i]);
		} else if (!strcmp(a, "--jobs") && i + 1 < argc) {
			char *end;
			long j = strtol(argv[++i], &end, 10);
			if (*end || j < 1 || j > 256)
				return bad_usage("--jobs '%s': expected 1..256", argv[i]);
			jobs = (int)j;
		} else if (!strcmp(a, "--set") && i + 1 < argc) {
			if (nset == 64)
				return bad_usage("%s", "too many --set");
			sets[nset++] = argv[++i];
		} else if (!strcmp(a, "--out") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(a, "--data-dir") && i + 1 < argc) {
			data_dir = argv[++i];
			data_given = 1;
		} else if (!strcmp(a, "--seed") || !strcmp(a, "--jobs") || !strcmp(a, "--set") ||
			   !strcmp(a, "--out") || !strcmp(a, "--data-dir")) {
			return bad_usage("run: option '%s' needs a value", a);
		} else {
			return bad_usage("run: unknown option '%s'", a);
		}
	}
	if (jobs < 1)
		jobs = 1;
	if (!data_dir || !data_dir[0])
		data_dir = "data";
	/* only the default may be missing (then every experiment says it uses
	 * its synthetic fallback); a directory the user names must exist */
	if (stat(data_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (data_given) {
			fprintf(stderr, "error: run: --data-dir '%s': no such directory\n", data_dir);
			return SB_EXIT_INPUT;
		}
		if (strcmp(data_dir, "data"))
			sb_warn("DATA_DIR '%s' is not a directory: experiments use their synthetic "
				"fallbacks", data_dir);
	}
	/* never replace a device, a directory or a link's target kind: an
	 * existing output must be a regular file */
	if (out && lstat(out, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "error: run: --out '%s' exists and is not a regular file\n", out);
		return SB_EXIT_INPUT;
	}
	for (i = 0; i < argc; i++) {
		size_t u = strlen(cmdline);
		snprintf(cmdline + u, sizeof cmdline - u, "%s%s", i ? " " : "sb ", argv[i]);
	}

	memset(&c, 0, sizeof c);
	c.exp = e;
	c.quick = quick;
	c.seed = seed;
	c.data_dir = data_dir;
	sb_opts_defaults(&c.opts, e->params);
	if (quick && e->quick_set) {
		char *qs = sb_xstrdup(e->quick_set), *tok, *save = NULL;
		for (tok = strtok_r(qs, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
			if (sb_opts_set(&c.opts, e->params, tok, "quick set", &err))
				SB_BUG("experiment %s: bad quick_set: %s", e->name, err.msg);
		sb_free(qs);
	}
	for (i = 0; i < nset; i++)
		if ((rc = sb_opts_set(&c.opts, e->params, sets[i], "--set", &err))) {
			sb_err_print(&err);
			return rc;
		}
	snprintf(config, sizeof config, "experiment=%s seed=%llu quick=%d ", e->name,
		 (unsigned long long)seed, quick);
	sb_opts_format(&c.opts, config, sizeof config);

	if (!out) {
		mkdir("results", 0777);
		snprintf(outbuf, sizeof outbuf, "results/%s.h5", e->name);
		out = outbuf;
	}
	rc = e->setup(&c, &err);
	if (rc) {
		sb_err_print(&err);
		return rc;
	}
	snprintf(partial, sizeof partial, "%s.partial", out);
	so.jobs = jobs;
	so.partial_dir = partial;
	/* a checkpoint is reused only by the same configuration and the very
	 * same binary file (the git revision alone misses uncommitted
	 * changes): its inode, size and modification time, which every link
	 * of sb changes; hashing its 10 MB cost about 40 ms of CPU per run */
	{
		struct stat self;
		char id[128];
		so.config_hash = sb_hash_str(config) ^ sb_hash_str(SB_GIT_SHA);
		if (stat("/proc/self/exe", &self) == 0) {
			snprintf(id, sizeof id, "%ju %ju %jd %jd.%09ld", (uintmax_t)self.st_dev,
				 (uintmax_t)self.st_ino, (intmax_t)self.st_size,
				 (intmax_t)self.st_mtim.tv_sec, (long)self.st_mtim.tv_nsec);
			so.config_hash ^= sb_hash_str(id) * 31;
		}
	}
	sb_table_init(&points, e->cols);
	if (e->timing_cols)
		sb_table_init(&timing, e->timing_cols);
	for (i = 0; i < sb_exp_ndetails(e); i++)
		sb_table_init(&details[i], e->details[i].cols);
	rc = sb_sweep_run(&c, &so, &points, e->timing_cols ? &timing : NULL, details, &err);
	if (rc) {
		sb_err_print(&err);
		goto out;
	}
	if (sb_mpi_rank() == 0) {
		struct sb_h5_dataset ds[3 + SB_MAX_DETAILS];
		struct sb_table summ;
		struct sb_col *scols = NULL;
		int nds = 0;
		char key[64];
		ds[nds++] = (struct sb_h5_dataset){ "points", &points };
		if (e->timing_cols)
			ds[nds++] = (struct sb_h5_dataset){ "timing", &timing };
		for (i = 0; i < sb_exp_ndetails(e); i++)
			ds[nds++] = (struct sb_h5_dataset){ e->details[i].name, &details[i] };
		if (e->summary_by) {
			if (sb_summarise(&points, e->summary_by, e->summary_of, &summ, &scols, &err))
				SB_BUG("experiment %s: bad summary spec: %s", e->name, err.msg);
			ds[nds++] = (struct sb_h5_dataset){ "summary", &summ };
		}
		sb_attrs_init(&at);
		sb_attrs_str(&at, "schedbench_version", SB_VERSION);
		sb_attrs_str(&at, "git_sha", SB_GIT_SHA);
		sb_attrs_int(&at, "git_dirty", SB_GIT_DIRTY);
		sb_attrs_str(&at, "experiment", e->name);
		sb_attrs_str(&at, "figure", e->figure);
		sb_attrs_str(&at, "description", e->desc);
		sb_attrs_str(&at, "command_line", cmdline);
		sb_attrs_str(&at, "config", config);
		sb_attrs_int(&at, "seed", (int64_t)seed);
		sb_attrs_int(&at, "quick", quick);
		sb_attrs_int(&at, "jobs", jobs);
		sb_attrs_int(&at, "mpi_ranks", sb_mpi_size());
		sb_attrs_int(&at, "npoints", c.npoints);
		sb_attrs_str(&at, "glpk_version", sb_lp_version());
		sb_attrs_str(&at, "hdf5_version", sb_h5_version());
		sb_attrs_str(&at, "compiler", "gcc " __VERSION__);
		utc_now(started, sizeof started);
		sb_attrs_str(&at, "finished_utc", started);
		sb_attrs_str(&at, "inputs", c.inputs_note[0] ? c.inputs_note : "none");
		for (i = 0; i < c.ninputs; i++) {
			snprintf(key, sizeof key, "input_%02d", i);
			sb_attrs_str(&at, key, c.input_path[i]);
			snprintf(key, sizeof key, "input_%02d_sha256", i);
			sb_attrs_str(&at, key, c.input_sha[i]);
		}
		sb_attrs_dbl(&at, "wall_seconds", sb_now() - t0);
		sb_attrs_str(&at, "nondeterministic", "the timing dataset and the attributes "
			     "wall_seconds, finished_utc (wall-clock)");
		rc = sb_h5_write(out, &at, nds, ds, &err);
		sb_attrs_release(&at);
		if (scols) {
			sb_table_release(&summ);
			sb_summary_cols_free(scols);
		}
		if (rc)
			sb_err_print(&err);
		else {
			rm_partial(partial);
			fprintf(stderr, "%s: wrote %s (%zu rows, %.1f s)\n", e->name, out,
				points.nrow, sb_now() - t0);
		}
	}
out:
	sb_table_release(&points);
	if (e->timing_cols)
		sb_table_release(&timing);
	for (i = 0; i < sb_exp_ndetails(e); i++)
		sb_table_release(&details[i]);
	if (e->teardown)
		e->teardown(&c);
	for (i = 0; i < c.ninputs; i++)
		sb_free(c.input_path[i]);
	return rc;
}

/* ------------------------------------------------------------------ */
/* export                                                              */
/* ------------------------------------------------------------------ */

static void print_cell(const struct sb_table *t, size_t r, int c, int exact)
{
	switch (t->cols[c].type) {
	case SB_COL_INT:
		printf("%lld", (long long)sb_table_get_int(t, r, c));
		break;
	case SB_COL_DBL:
		printf(exact ? "%a" : SB_TABLE_DBL_FMT, sb_table_get_dbl(t, r, c));
		break;
	default: {
		const char *s = sb_table_get_str(t, r, c);
		printf("%s", s[0] ? s : "-");
	}
	}
}

static int cmd_export(int argc, char **argv)
{
	struct sb_table t;
	struct sb_col *cols;
	struct sb_err err = { 0, "" };
	const char *where[16];
	int nw = 0, i, rc, exact = 0;
	size_t r;

	if (argc < 3)
		return bad_usage("%s", "export needs FILE and DATASET");
	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--where") && i + 1 < argc && nw < 16)
			where[nw++] = argv[++i];
		else if (!strcmp(argv[i], "--exact"))
			exact = 1;
		else
			return bad_usage("export: unknown option '%s'", argv[i]);
	}
	for (i = 0; i < nw; i++) {
		const char *eq = strchr(where[i], '=');
		if (!eq || (size_t)(eq - where[i]) >= 64)
			return bad_usage("--where '%s': expected col=value", where[i]);
	}
	/* only the matching rows are read whole (sb_h5_read_table_where) */
	rc = sb_h5_read_table_where(argv[1], argv[2], nw, where, &t, &cols, &err);
	if (rc) {
		sb_err_print(&err);
		return rc;
	}
	/* a header line of column names: gnuplot reads it with
	 * `set datafile columnheaders` and `using "name"` */
	for (i = 0; i < t.ncol; i++)
		printf("%s%s", i ? " " : "", t.cols[i].name);
	printf("\n");
	for (r = 0; r < t.nrow; r++) {
		for (i = 0; i < t.ncol; i++) {
			if (i)
				putchar(' ');
			print_cell(&t, r, i, exact);
		}
		putchar('\n');
	}
	sb_table_release(&t);
	sb_h5_cols_free(cols);
	return rc;
}

/* ------------------------------------------------------------------ */
/* show                                                                */
/* ------------------------------------------------------------------ */

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* sb show --attr KEYS FILE...: the named root attributes, one line a file */
static int show_attrs(const char *keys, int nfile, char **files)
{
	int f, rc = 0;
	for (f = 0; f < nfile; f++) {
		struct sb_attrs at;
		struct sb_err err = { 0, "" };
		const char *k = keys;
		int r = sb_h5_read_attrs(files[f], &at, &err);
		if (r) {
			/* the other files still answer; the exit code tells */
			sb_err_print(&err);
			rc = rc ? rc : r;
			continue;
		}
		fputs(files[f], stdout);
		while (*k) {
			size_t len = strcspn(k, ",");
			int i, found = 0;
			for (i = 0; i < at.n && !found; i++) {
				const struct sb_attr *a = &at.a[i];
				if (strlen(a->key) != len || strncmp(a->key, k, len))
					continue;
				found = 1;
				putchar('\t');
				if (a->type == SB_ATTR_STR) {
					const char *c;
					for (c = a->s; *c; c++)
						putchar(*c == '\n' || *c == '\t' ? ' ' : *c);
				} else if (a->type == SB_ATTR_INT) {
					printf("%lld", (long long)a->i);
				} else {
					printf("%.17g", a->d);
				}
			}
			if (!found)
				fputs("\t-", stdout);
			k += len + (k[len] == ',');
		}
		putchar('\n');
		sb_attrs_release(&at);
	}
	return rc;
}

static int cmd_show(int argc, char **argv)
{
	struct sb_attrs at;
	struct sb_err err = { 0, "" };
	char names[16][64];
	int n, i, k, rc;

	if (argc >= 2 && !strcmp(argv[1], "--attr")) {
		if (argc < 4 || !argv[2][0] || argv[2][0] == ',')
			return bad_usage("%s", "show --attr needs KEY[,KEY]... and at least one file");
		return show_attrs(argv[2], argc - 3, argv + 3);
	}
	if (argc < 2)
		return bad_usage("%s", "show needs a results file");
	if (argc > 2)
		return bad_usage("show takes one results file (or --attr KEYS FILE...), got '%s'",
				 argv[2]);
	rc = sb_h5_read_attrs(argv[1], &at, &err);
	if (rc) {
		sb_err_print(&err);
		return rc;
	}
	printf("results file: %s\n\nprovenance:\n", argv[1]);
	for (i = 0; i < at.n; i++) {
		const struct sb_attr *a = &at.a[i];
		if (a->type == SB_ATTR_STR)
			printf("  %-20s %s\n", a->key, a->s);
		else if (a->type == SB_ATTR_INT)
			printf("  %-20s %lld\n", a->key, (long long)a->i);
		else
			printf("  %-20s %.6g\n", a->key, a->d);
	}
	sb_attrs_release(&at);
	rc = sb_h5_list(argv[1], names, 16, &n, &err);
	for (k = 0; k < n && !rc; k++) {
		struct sb_table t;
		struct sb_col *cols;
		if (sb_h5_read_table(argv[1], names[k], &t, &cols, &err))
			continue;
		printf("\ndataset %s: %zu rows\n", names[k], t.nrow);
		printf("  %-18s %-6s %14s %14s %14s\n", "column", "type", "min", "mean", "max");
		for (i = 0; i < t.ncol; i++) {
			size_t r, cnt = 0, nd = 0;
			double lo = INFINITY, hi = -INFINITY, sum = 0;
			if (t.cols[i].type == SB_COL_STR) {
				/* count distinct values: sorted, so that a table of
				 * 300k rows (marl_train's weights) takes no time */
				const char **v = SB_NEW(const char *, t.nrow ? t.nrow : 1);
				for (r = 0; r < t.nrow; r++)
					v[r] = sb_table_get_str(&t, r, i);
				qsort(v, t.nrow, sizeof *v, cmp_strp);
				for (r = 0; r < t.nrow; r++)
					nd += r == 0 || strcmp(v[r - 1], v[r]) != 0;
				sb_free(v);
				printf("  %-18s %-6s %zu distinct values\n", t.cols[i].name, "text", nd);
				continue;
			}
			for (r = 0; r < t.nrow; r++) {
				double v = t.cols[i].type == SB_COL_INT
					? (double)sb_table_get_int(&t, r, i) : sb_table_get_dbl(&t, r, i);
				if (isnan(v))
					continue;
				cnt++;
				sum += v;
				lo = v < lo ? v : lo;
				hi = v > hi ? v : hi;
			}
			if (cnt)
				printf("  %-18s %-6s %14.6g %14.6g %14.6g\n", t.cols[i].name,
				       t.cols[i].type == SB_COL_INT ? "int" : "real", lo,
				       sum / (double)cnt, hi);
			else
				printf("  %-18s %-6s %14s\n", t.cols[i].name, "real", "(all NaN)");
		}
		sb_table_release(&t);
		sb_h5_cols_free(cols);
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* verify-claims                                                       */
/* ------------------------------------------------------------------ */

static char *field(char **line)
{
	char *s = *line, *tab;
	if (!s)
		return NULL;
	tab = strchr(s, '\t');
	if (tab) {
		*tab = 0;
		*line = tab + 1;
	} else {
		s[strcspn(s, "\r\n")] = 0;
		*line = NULL;
	}
	return s;
}

/* Was the results file written by a QUICK run? */
static int file_is_quick(const char *path)
{
	struct sb_attrs a;
	struct sb_err err;
	const struct sb_attr *q;
	int quick;
	if (sb_h5_read_attrs(path, &a, &err))
		return 0;
	q = sb_attrs_get(&a, "quick");
	quick = q && q->type == SB_ATTR_INT && q->i;
	sb_attrs_release(&a);
	return quick;
}

static int cmd_verify(int argc, char **argv)
{
	const char *claims = "experiments/claims.tsv", *resdir = "results";
	char line[4096];
	int i, lineno = 0, npass = 0, nfail = 0, nerr = 0, nskip = 0, nquick = 0, quick;
	int strict = 0, rc;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--claims") && i + 1 < argc)
			claims = argv[++i];
		else if (!strcmp(argv[i], "--results") && i + 1 < argc)
			resdir = argv[++i];
		else if (!strcmp(argv[i], "--strict"))
			strict = 1;
		else
			return bad_usage("verify-claims: unknown option '%s'", argv[i]);
	}
	f = fopen(claims, "r");
	if (!f) {
		fprintf(stderr, "error: cannot open claims file '%s': %s\n", claims,
			strerror(errno));
		return SB_EXIT_INPUT;
	}
	while (fgets(line, sizeof line, f)) {
		char *p = line, *id, *paper, *claim, *source, *file, *check;
		char path[4200], dset[64] = "points", *colon;
		struct sb_table t;
		struct sb_col *cols;
		struct sb_err err = { 0, "" };
		double lhs, rhs;
		int pass;

		lineno++;
		if (line[0] == '#' || line[strspn(line, " \t\r\n")] == 0 || lineno == 1)
			continue;
		id = field(&p);
		paper = field(&p);
		claim = field(&p);
		source = field(&p);
		file = field(&p);
		check = field(&p);
		if (!check || !check[0]) {
			fprintf(stderr, "error: %s: line %d: field 'check': missing\n", claims,
				lineno);
			fclose(f);
			return SB_EXIT_INPUT;
		}
		colon = strchr(file, ':');
		if (colon) {
			*colon = 0;
			snprintf(dset, sizeof dset, "%s", colon + 1);
		}
		snprintf(path, sizeof path, "%s/%s", resdir, file);
		if (sb_h5_read_table(path, dset, &t, &cols, &err)) {
			printf("FAIL %-8s [%s] no results  %s\n         why: %s\n", id, paper, claim,
			       err.msg);
			nfail++;
			nerr++;
			continue;
		}
		quick = file_is_quick(path);
		nquick += quick;
		rc = sb_claim_eval(check, &t, &lhs, &rhs, &pass, &err);
		if (rc == SB_EXIT_RUN && quick) {
			/* a QUICK run need not have the rows a claim reads (its
			 * sizes are small): not judged, rather than failed */
			printf("SKIP %-8s [%s] not judged (QUICK)  %s\n         why: no matching rows "
			       "in %s (%s)\n", id, paper, claim, file, err.msg);
			nskip++;
			sb_table_release(&t);
			sb_h5_cols_free(cols);
			continue;
		}
		if (rc == SB_EXIT_RUN) {
			/* the results lack the rows: a failed claim, and the
			 * other claims are still judged */
			printf("FAIL %-8s [%s] no rows  %s\n         why: no matching rows in %s (%s)\n",
			       id, paper, claim, file, err.msg);
			nfail++;
			nerr++;
			sb_table_release(&t);
			sb_h5_cols_free(cols);
			continue;
		}
		if (rc) {
			fprintf(stderr, "error: %s: line %d: field 'check': %s\n", claims, lineno,
				err.msg);
			sb_table_release(&t);
			sb_h5_cols_free(cols);
			fclose(f);
			return SB_EXIT_INPUT;
		}
		printf("%s %-8s [%s, %s] %.4g vs %.4g  %s\n         check: %s\n",
		       pass ? "PASS" : "FAIL", id, paper, source, lhs, rhs, claim, check);
		if (pass)
			npass++;
		else
			nfail++;
		sb_table_release(&t);
		sb_h5_cols_free(cols);
	}
	fclose(f);
	if (nquick)
		printf("note: %d claims were judged on QUICK results (small sizes): indicative "
		       "verdicts, not the full-size ones\n", nquick);
	if (nskip)
		printf("%d passed, %d failed, %d skipped\n", npass, nfail, nskip);
	else
		printf("%d passed, %d failed\n", npass, nfail);
	if (nerr)
		return SB_EXIT_RUN;
	return strict && nfail ? SB_EXIT_RUN : 0;
}

/* ------------------------------------------------------------------ */

/* text for troff: hyphens as \-, a leading dot or quote escaped */
static void man_text(const char *s)
{
	int bol = 1;
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", stdout);
		if (*s == '-')
			fputs("\\-", stdout);
		else if (*s == '\\')
			fputs("\\e", stdout);
		else
			putchar(*s);
		bol = *s == '\n';
	}
}

/* `sb help --man`: the manual page, from the same table as --help */
static int man_page(void)
{
	const struct command *c;
	const struct sb_family *const *f;
	int n, i;

	printf(".TH SB 1 \"\" \"schedbench %s\" \"User Commands\"\n", SB_VERSION);
	printf(".SH NAME\nsb \\- schedbench, a reproducible benchmark suite for scheduling "
	       "in distributed deep learning\n");
	printf(".SH SYNOPSIS\n.B sb\n.I command\n[options]\n");
	printf(".SH COMMANDS\n");
	for (c = commands; c->name; c++) {
		printf(".TP\n.B sb %s\n", c->name);
		man_text(c->synopsis);
		printf("\n.br\n");
		man_text(c->summary);
		printf(".\n");
		man_text(c->help);
	}
	printf(".SH FAMILIES\nThe inputs of\n.B sb eval\nper family:\n");
	f = sb_families(&n);
	for (i = 0; i < n; i++) {
		printf(".TP\n.B %s\n", f[i]->name);
		man_text(f[i]->desc);
		printf(".\n.br\n");
		man_text(f[i]->eval_usage);
		printf("\n");
	}
	printf(".SH EXIT STATUS\n0 success, 1 run-time failure, 2 usage or bad input "
	       "(the message names the file, line and field).\n");
	printf(".SH SEE ALSO\nREADME.md of the source tree; \\fBsb help\\fR \\fIcommand\\fR.\n");
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;
	const struct sb_family *f;
	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--man"))
		return man_page();
	if (!(c = command_find(argv[1])))
		return bad_usage("help: unknown command '%s'", argv[1]);
	if (!strcmp(c->name, "eval") && argc > 2) {
		if (!(f = sb_family_find(argv[2])))
			return bad_usage("help: unknown family '%s'", argv[2]);
		sb_eval_usage(stdout, f);
		printf("%s: %s\n", f->name, f->desc);
		return 0;
	}
	command_usage(stdout, c);
	printf("%s.\n\n%s", c->summary, c->help);
	return 0;
}

static int has_help(int argc, char **argv)
{
	int i;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

int sb_cli_main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} run[] = {
		{ "list", cmd_list }, { "run", cmd_run }, { "export", cmd_export },
		{ "show", cmd_show }, { "eval", cmd_eval }, { "verify-claims", cmd_verify },
		{ "adversary", sb_adversary_main },
		{ "help", cmd_help },
	};
	size_t k;
	int rc = -1;

	sb_mem_tune();
	sb_mpi_init(&argc, &argv);
	if (argc < 2) {
		usage(stderr);
		rc = SB_EXIT_INPUT;
	} else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		rc = 0;
	} else if (!strcmp(argv[1], "--version")) {
		printf("schedbench %s (%s%s)\n", SB_VERSION, SB_GIT_SHA, SB_GIT_DIRTY ? "-dirty" : "");
		rc = 0;
	} else if (!(current = command_find(argv[1]))) {
		rc = bad_usage("unknown command '%s'", argv[1]);
	} else if (has_help(argc - 1, argv + 1)) {
		/* `sb CMD ... --help` is `sb help CMD` (and `sb eval FAMILY --help`
		 * the family's eval help) */
		char *h[3] = { "help", argv[1], argc > 2 ? argv[2] : NULL };
		rc = cmd_help(strcmp(argv[1], "eval") || argc < 3 || argv[2][0] == '-' ? 2 : 3, h);
	} else {
		for (k = 0; k < sizeof run / sizeof run[0]; k++)
			if (!strcmp(run[k].name, argv[1]))
				rc = run[k].run(argc - 1, argv + 1);
		if (rc < 0)
			SB_BUG("command '%s' has no entry point", argv[1]);
	}
	/* a full disk or closed pipe on stdout is a failure, not a success */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "error: cannot write to standard output: %s\n", strerror(errno));
		if (rc == 0)
			rc = SB_EXIT_RUN;
	}
	sb_mpi_finalize();
	return rc;
}
