/*
 * test_sweep.c - the sweep runner (core/sweep.c) with detail datasets: a
 * point's rows in `points` and in each detail dataset are merged in point
 * order, so one worker, two workers and a run resumed from its checkpoint
 * give byte-identical tables.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exp.h"
#include "sweep.h"

static const struct sb_col pcols[] = {
	{ "point", SB_COL_INT, "" }, { "x", SB_COL_DBL, "" }, { NULL, 0, NULL },
};
static const struct sb_col dcols[] = {
	{ "point", SB_COL_INT, "" }, { "i", SB_COL_INT, "" }, { "v", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};
static const struct sb_col ecols[] = {
	{ "tag", SB_COL_STR, "" }, { NULL, 0, NULL },
};
static const struct sb_exp_dataset details[] = {
	{ "draws", dcols }, { "tags", ecols }, { NULL, NULL },
};

/* point p: one row of points, p + 1 rows of draws, p % 2 rows of tags */
static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct sb_rng r = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_TEST);
	size_t row = sb_table_add(out);
	int i;

	(void)timing;
	(void)err;
	sb_table_set_int(out, row, "point", point);
	sb_table_set_dbl(out, row, "x", sb_rng_uniform(&r));
	for (i = 0; i <= point; i++) {
		row = sb_table_add(&c->detail[0]);
		sb_table_set_int(&c->detail[0], row, "point", point);
		sb_table_set_int(&c->detail[0], row, "i", i);
		sb_table_set_dbl(&c->detail[0], row, "v", sb_rng_uniform(&r));
	}
	if (point % 2) {
		row = sb_table_add(&c->detail[1]);
		sb_table_set_str(&c->detail[1], row, "tag", point == 1 ? "one" : "odd");
	}
	return 0;
}

static const struct sb_experiment texp = {
	.name = "sweeptest",
	.cols = pcols,
	.details = details,
	.run_point = run_point,
};

/* the tables of a run with jobs workers in a fresh checkpoint directory
 * (stop_after >= 0: interrupted after that many points, then resumed) */
static void run(int jobs, int stop_after, struct sb_table *pts, struct sb_table *det)
{
	struct sb_exp_ctx c;
	struct sb_sweep_opts so = { 0 };
	struct sb_err err = { 0, "" };
	char dir[64], buf[128];
	int k;

	memset(&c, 0, sizeof c);
	c.exp = &texp;
	c.seed = 7;
	c.npoints = 6;
	snprintf(dir, sizeof dir, "/tmp/sb_sweep_%d_%d_%d", (int)getpid(), jobs, stop_after);
	so.jobs = jobs;
	so.partial_dir = dir;
	so.config_hash = 42;
	so.quiet = 1;
	sb_table_init(pts, texp.cols);
	for (k = 0; k < sb_exp_ndetails(&texp); k++)
		sb_table_init(&det[k], details[k].cols);
	if (stop_after >= 0) {
		/* the interrupted run is another process, as a real one is (a
		 * checkpoint file is named after its writer's pid) */
		pid_t pid = fork();
		int st;
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			snprintf(buf, sizeof buf, "%d", stop_after);
			setenv("SB_SWEEP_STOP_AFTER", buf, 1);
			_exit(sb_sweep_run(&c, &so, pts, NULL, det, &err) != 0 ? 0 : 1);
		}
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the interrupted run did not stop");
	}
	cr_assert_eq(sb_sweep_run(&c, &so, pts, NULL, det, &err), 0, "%s", err.msg);
	snprintf(buf, sizeof buf, "rm -rf %s", dir);
	cr_assert_eq(system(buf), 0);
}

static void same(const struct sb_table *a, const struct sb_table *b, const char *what)
{
	cr_assert_eq(a->nrow, b->nrow, "%s: %zu rows vs %zu", what, a->nrow, b->nrow);
	cr_assert_eq(a->rowsize, b->rowsize);
	cr_assert_eq(memcmp(a->data, b->data, a->nrow * a->rowsize), 0, "%s differ", what);
}

Test(sweep, details_merged_in_point_order_whatever_the_workers)
{
	struct sb_table p1, p2, p3, d1[2], d2[2], d3[2];
	size_t r;
	int k;

	cr_assert_eq(sb_exp_ndetails(&texp), 2);
	run(1, -1, &p1, d1);
	run(2, -1, &p2, d2);
	run(1, 3, &p3, d3);
	cr_assert_eq(p1.nrow, 6);
	cr_assert_eq(d1[0].nrow, 21, "1 + 2 + ... + 6 draws");
	cr_assert_eq(d1[1].nrow, 3, "points 1, 3, 5");
	/* in point order */
	for (r = 1; r < d1[0].nrow; r++)
		cr_assert_geq(sb_table_get_int(&d1[0], r, 0), sb_table_get_int(&d1[0], r - 1, 0));
	cr_assert_str_eq(sb_table_get_str(&d1[1], 0, 0), "one");
	same(&p1, &p2, "points, 1 vs 2 workers");
	same(&p1, &p3, "points, resumed");
	for (k = 0; k < 2; k++) {
		same(&d1[k], &d2[k], details[k].name);
		same(&d1[k], &d3[k], details[k].name);
		sb_table_release(&d1[k]);
		sb_table_release(&d2[k]);
		sb_table_release(&d3[k]);
	}
	sb_table_release(&p1);
	sb_table_release(&p2);
	sb_table_release(&p3);
}
