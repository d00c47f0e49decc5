/*
 * test_lp.c - the GLPK wrapper (core/lp.c): known optima, infeasible and
 * unbounded models, honest status after a time limit, the incumbent warm
 * start, checked indices and the error hook.
 */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <math.h>
#include <sys/wait.h>
#include <unistd.h>
#include <signal.h>
#include <string.h>

#include "lp.h"
#include "rng.h"

#define TL 10.0  /* generous time limit for models that solve instantly */

/* Wyndor Glass (Hillier & Lieberman): max 3x + 5y, x <= 4, 2y <= 12,
 * 3x + 2y <= 18; optimum 36 at (2, 6). */
Test(lp, textbook_lp)
{
	struct sb_lp *lp = sb_lp_new("wyndor", 0);
	struct sb_lp_result r;
	struct sb_err err;
	int x = sb_lp_add_col(lp, "x", SB_LP_CONT, 0, SB_LP_INF, 3);
	int y = sb_lp_add_col(lp, "y", SB_LP_CONT, 0, SB_LP_INF, 5);
	int c1[] = { x }, c2[] = { y }, c3[] = { x, y };
	double v1[] = { 1 }, v2[] = { 2 }, v3[] = { 3, 2 };

	sb_lp_add_row(lp, "plant1", -SB_LP_INF, 4, 1, c1, v1);
	sb_lp_add_row(lp, "plant2", -SB_LP_INF, 12, 1, c2, v2);
	sb_lp_add_row(lp, "plant3", -SB_LP_INF, 18, 2, c3, v3);
	cr_assert_eq(sb_lp_ncols(lp), 2);
	cr_assert_eq(sb_lp_nrows(lp), 3);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL, "status %s", sb_lp_status_name(r.status));
	cr_assert_float_eq(r.obj, 36, 1e-9);
	cr_assert_float_eq(r.bound, 36, 1e-9);
	cr_assert_float_eq(r.x[x], 2, 1e-9);
	cr_assert_float_eq(r.x[y], 6, 1e-9);
	cr_assert_eq(r.gap, 0);
	cr_assert(r.seconds >= 0);
	sb_lp_result_release(&r);
	cr_assert_null(r.x);
	sb_lp_free(lp);
}

/* 0/1 knapsack: values 60, 100, 120, weights 10, 20, 30, capacity 50:
 * optimum 220 (items 2 and 3); LP relaxation 240. */
static struct sb_lp *knap3(void)
{
	struct sb_lp *lp = sb_lp_new("knap3", 0);
	double val[] = { 60, 100, 120 }, w[] = { 10, 20, 30 };
	int cols[3], i;

	for (i = 0; i < 3; i++)
		cols[i] = sb_lp_add_col(lp, NULL, SB_LP_BIN, 0, 1, val[i]);
	sb_lp_add_row(lp, "cap", -SB_LP_INF, 50, 3, cols, w);
	return lp;
}

Test(lp, knapsack_mip)
{
	struct sb_lp *lp = knap3();
	struct sb_lp_result r;
	struct sb_err err;

	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 220, 1e-9);
	cr_assert_float_eq(r.bound, 220, 1e-9);
	cr_assert_float_eq(r.x[0], 0, 1e-9);
	cr_assert_float_eq(r.x[1], 1, 1e-9);
	cr_assert_float_eq(r.x[2], 1, 1e-9);
	sb_lp_result_release(&r);

	/* LP relaxation: fractional optimum 240 */
	cr_assert_eq(sb_lp_solve(lp, 1, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 240, 1e-9);
	cr_assert_float_eq(r.bound, 240, 1e-9);
	sb_lp_result_release(&r);
	sb_lp_free(lp);
}

Test(lp, general_integers)
{
	/* min x + y, 2x + 2y >= 3, x, y integer in [0, 5]: optimum 2 */
	struct sb_lp *lp = sb_lp_new("int", 1);
	struct sb_lp_result r;
	struct sb_err err;
	int c[] = { 0, 1 };
	double v[] = { 2, 2 };

	sb_lp_add_col(lp, "x", SB_LP_INT, 0, 5.5, 1);  /* 5.5 rounds to 5 */
	sb_lp_add_col(lp, "y", SB_LP_INT, 0, 5, 1);
	sb_lp_add_row(lp, "r", 3, SB_LP_INF, 2, c, v);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 2, 1e-9);
	sb_lp_result_release(&r);
	cr_assert_eq(sb_lp_solve(lp, 1, TL, 0, &r, &err), 0);
	cr_assert_float_eq(r.obj, 1.5, 1e-9);
	sb_lp_result_release(&r);
	sb_lp_free(lp);
}

Test(lp, duplicate_columns_are_merged)
{
	/* max x, x + x <= 4 (given as two entries of column 0): x = 2 */
	struct sb_lp *lp = sb_lp_new("dup", 0);
	struct sb_lp_result r;
	struct sb_err err;
	int c[] = { 0, 0 };
	double v[] = { 1, 1 };

	sb_lp_add_col(lp, "x", SB_LP_CONT, 0, SB_LP_INF, 1);
	sb_lp_add_row(lp, "r", -SB_LP_INF, 4, 2, c, v);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 2, 1e-9);
	sb_lp_result_release(&r);
	sb_lp_free(lp);
}

static struct sb_lp *infeasible_model(int kind)
{
	/* x + y >= 5 with x, y in [0, 2] */
	struct sb_lp *lp = sb_lp_new("infeasible", 1);
	int c[] = { 0, 1 };
	double v[] = { 1, 1 };
	sb_lp_add_col(lp, "x", kind, 0, 2, 1);
	sb_lp_add_col(lp, "y", kind, 0, 2, 1);
	sb_lp_add_row(lp, "r", 5, SB_LP_INF, 2, c, v);
	return lp;
}

Test(lp, infeasible)
{
	int kind, relax;
	for (kind = SB_LP_CONT; kind <= SB_LP_INT; kind++)
		for (relax = 0; relax <= 1; relax++) {
			struct sb_lp *lp = infeasible_model(kind);
			struct sb_lp_result r;
			struct sb_err err;
			cr_assert_eq(sb_lp_solve(lp, relax, TL, 0, &r, &err), 0);
			cr_assert_eq(r.status, SB_LP_INFEASIBLE, "kind %d relax %d: %s",
				     kind, relax, sb_lp_status_name(r.status));
			cr_assert_null(r.x);
			cr_assert(isnan(r.obj));
			sb_lp_result_release(&r);
			sb_lp_free(lp);
		}
}

Test(lp, empty_bound_interval_is_infeasible)
{
	struct sb_lp *lp = sb_lp_new("empty", 1);
	struct sb_lp_result r;
	struct sb_err err;
	int c[] = { 0 };
	double v[] = { 1 };

	sb_lp_add_col(lp, "x", SB_LP_CONT, 0, 10, 1);
	sb_lp_add_row(lp, "r", 3, 2, 1, c, v);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_INFEASIBLE);
	sb_lp_free(lp);
}

Test(lp, unbounded)
{
	int kind, relax;
	for (kind = SB_LP_CONT; kind <= SB_LP_INT; kind++)
		for (relax = 0; relax <= 1; relax++) {
			/* max x + y, x - y <= 1, x, y >= 0 */
			struct sb_lp *lp = sb_lp_new("unbounded", 0);
			struct sb_lp_result r;
			struct sb_err err;
			int c[] = { 0, 1 };
			double v[] = { 1, -1 };
			sb_lp_add_col(lp, "x", kind, 0, SB_LP_INF, 1);
			sb_lp_add_col(lp, "y", kind, 0, SB_LP_INF, 1);
			sb_lp_add_row(lp, "r", -SB_LP_INF, 1, 2, c, v);
			cr_assert_eq(sb_lp_solve(lp, relax, TL, 0, &r, &err), 0);
			cr_assert_eq(r.status, SB_LP_UNBOUNDED, "kind %d relax %d: %s",
				     kind, relax, sb_lp_status_name(r.status));
			cr_assert_null(r.x);
			sb_lp_result_release(&r);
			sb_lp_free(lp);
		}
}

/* A random multi-constraint 0/1 knapsack with strongly correlated values:
 * hard for GLPK's branch and bound. */
static struct sb_lp *hard_knapsack(int n, int m, uint64_t seed, double **wout,
				   double *capout)
{
	struct sb_lp *lp = sb_lp_new("mknap", 0);
	struct sb_rng rng = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);
	double *w = calloc((size_t)n * m, sizeof *w);
	int *cols = calloc((size_t)n, sizeof *cols);
	int i, k;

	for (i = 0; i < n * m; i++)
		w[i] = (double)sb_rng_int(&rng, 100, 1000);
	for (i = 0; i < n; i++) {
		double s = 0;
		for (k = 0; k < m; k++)
			s += w[k * n + i];
		cols[i] = sb_lp_add_col(lp, NULL, SB_LP_BIN, 0, 1,
					s / m + (double)sb_rng_int(&rng, 0, 50));
	}
	for (k = 0; k < m; k++) {
		double cap = 0;
		for (i = 0; i < n; i++)
			cap += w[k * n + i];
		cap = floor(cap / 2);
		capout[k] = cap;
		sb_lp_add_row(lp, NULL, -SB_LP_INF, cap, n, cols, w + (size_t)k * n);
	}
	free(cols);
	*wout = w;
	return lp;
}

Test(lp, time_limit_is_honest)
{
	double cap[5], *w;
	struct sb_lp *lp = hard_knapsack(60, 5, 7, &w, cap);
	struct sb_lp_result r, rl;
	struct sb_err err;
	char why[200];

	cr_assert_eq(sb_lp_solve(lp, 1, TL, 0, &rl, &err), 0);
	cr_assert_eq(rl.status, SB_LP_OPTIMAL);
	cr_assert_eq(sb_lp_solve(lp, 0, 0.2, 0, &r, &err), 0);
	cr_assert(r.status == SB_LP_FEASIBLE || r.status == SB_LP_NOSOLUTION ||
		  r.status == SB_LP_OPTIMAL, "status %s", sb_lp_status_name(r.status));
	cr_assert(r.seconds < 5.0, "took %g s for a 0.2 s limit", r.seconds);
	if (r.status != SB_LP_OPTIMAL)
		cr_assert_eq(r.stopped, SB_LP_STOP_TIME);
	if (r.status == SB_LP_OPTIMAL) {
		/* only if GLPK proved it: then bound and value agree */
		cr_assert_float_eq(r.obj, r.bound, 1e-6 * fabs(r.obj));
	}
	if (r.status == SB_LP_FEASIBLE) {
		cr_assert_not_null(r.x);
		cr_assert(r.bound >= r.obj - 1e-9, "max problem: bound %g < obj %g",
			  r.bound, r.obj);
		cr_assert(r.gap >= 0);
		cr_assert_eq(sb_lp_check(lp, r.x, why, sizeof why), 0, "%s", why);
	}
	if (r.status == SB_LP_NOSOLUTION)
		cr_assert_null(r.x);
	/* any bound it reports can be no better than the LP relaxation */
	cr_assert(r.bound <= rl.obj + 1e-6 * fabs(rl.obj), "bound %g > LP %g",
		  r.bound, rl.obj);
	cr_log_info("mknap 60x5, 0.2 s: %s obj %g bound %g gap %g",
		    sb_lp_status_name(r.status), r.obj, r.bound, r.gap);
	sb_lp_result_release(&r);
	sb_lp_result_release(&rl);
	sb_lp_free(lp);
	free(w);
}

/* With the CPU clock (sb run's), a MIP search stops at its limit of CPU
 * seconds and says so; a pause, which spends none, does not count: the
 * solve runs in a child that is stopped (SIGSTOP) for 0.6 s of its 0.4 s
 * limit, and still spends 0.4 s of CPU before it stops. */
Test(lp, cpu_clock_limit_ignores_a_pause)
{
	int status;
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (pid == 0) {
		double cap[5], *w, c0;
		struct sb_lp *lp = hard_knapsack(60, 5, 7, &w, cap);
		struct sb_lp_result r;
		struct sb_err err;
		sb_lp_set_clock(SB_LP_CPU);
		c0 = sb_cpu_now();
		if (sb_lp_solve(lp, 0, 0.4, 0, &r, &err))
			_exit(3);
		if (r.status == SB_LP_OPTIMAL)
			_exit(0);   /* proven before the limit: nothing to tell */
		_exit(r.stopped == SB_LP_STOP_TIME && sb_cpu_now() - c0 >= 0.4 &&
		      r.seconds >= 0.9 ? 0 : 1);
	}
	usleep(50000);
	kill(pid, SIGSTOP);
	usleep(600000);
	kill(pid, SIGCONT);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status), "the solving child died");
	cr_assert_eq(WEXITSTATUS(status), 0, "the search stopped before 0.4 s of CPU, or "
		     "did not say time (exit %d)", WEXITSTATUS(status));
}

/* A node limit is work, not time: the same model stops at the same place
 * with the same answer every time, and says why it stopped. */
Test(lp, node_limit_is_deterministic)
{
	double cap[5], *w;
	struct sb_lp *lp = hard_knapsack(60, 5, 7, &w, cap);
	struct sb_lp_params par = { .node_limit = 40 };
	struct sb_lp_result r1, r2, rl;
	struct sb_err err;
	int j;

	cr_assert_eq(sb_lp_solve(lp, 1, TL, 0, &rl, &err), 0);
	sb_lp_set_params(lp, &par);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r1, &err), 0);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r2, &err), 0);
	cr_assert_eq(r1.stopped, SB_LP_STOP_NODES, "stopped: %s",
		     sb_lp_stop_name(r1.stopped));
	cr_assert_eq(r1.nodes, 40);
	cr_assert(r1.status == SB_LP_FEASIBLE || r1.status == SB_LP_NOSOLUTION);
	cr_assert_eq(r2.status, r1.status);
	cr_assert_eq(r2.nodes, r1.nodes);
	/* bit-identical, not just close */
	cr_assert(memcmp(&r1.bound, &r2.bound, sizeof r1.bound) == 0);
	if (r1.status == SB_LP_FEASIBLE) {
		cr_assert(memcmp(&r1.obj, &r2.obj, sizeof r1.obj) == 0);
		for (j = 0; j < r1.ncols; j++)
			cr_assert(memcmp(&r1.x[j], &r2.x[j], sizeof(double)) == 0);
		cr_assert(r1.bound >= r1.obj - 1e-9);
	}
	cr_assert(r1.bound <= rl.obj + 1e-6 * fabs(rl.obj));
	cr_assert_str_eq(sb_lp_status_name(SB_LP_NOSOLUTION), "no-solution");
	sb_lp_result_release(&r1);
	sb_lp_result_release(&r2);
	sb_lp_result_release(&rl);
	sb_lp_free(lp);
	free(w);
}

Test(lp, time_limit_min_problem)
{
	/* the same knapsack as a min problem: max v.x == -min(-v).x */
	double cap[5], *w;
	struct sb_lp *lp = hard_knapsack(60, 5, 11, &w, cap);
	struct sb_lp *mn = sb_lp_new("mknap-min", 1);
	struct sb_lp_result r;
	struct sb_err err;
	int i, k, cols[60];

	for (i = 0; i < 60; i++) {
		double s = 0;
		for (k = 0; k < 5; k++)
			s += w[k * 60 + i];
		cols[i] = sb_lp_add_col(mn, NULL, SB_LP_BIN, 0, 1, -(s / 5 + i % 7));
	}
	for (k = 0; k < 5; k++)
		sb_lp_add_row(mn, NULL, -SB_LP_INF, cap[k], 60, cols, w + k * 60);
	cr_assert_eq(sb_lp_solve(mn, 0, 0.2, 0, &r, &err), 0);
	if (r.status == SB_LP_FEASIBLE)
		cr_assert(r.bound <= r.obj + 1e-9, "min problem: bound %g > obj %g",
			  r.bound, r.obj);
	else
		cr_assert(r.status == SB_LP_OPTIMAL || r.status == SB_LP_NOSOLUTION);
	sb_lp_result_release(&r);
	sb_lp_free(mn);
	sb_lp_free(lp);
	free(w);
}

Test(lp, warm_start_is_used)
{
	double cap[5], *w;
	struct sb_lp *lp = hard_knapsack(60, 5, 3, &w, cap);
	struct sb_lp_result r;
	struct sb_err err;
	double x[60], used[5] = { 0 }, incobj = 0;
	int i, k;

	/* greedy incumbent: take items in index order while they fit */
	for (i = 0; i < 60; i++) {
		int fits = 1;
		for (k = 0; k < 5; k++)
			if (used[k] + w[k * 60 + i] > cap[k])
				fits = 0;
		x[i] = fits;
		if (fits)
			for (k = 0; k < 5; k++)
				used[k] += w[k * 60 + i];
	}
	cr_assert_eq(sb_lp_check(lp, x, NULL, 0), 0);
	sb_lp_set_incumbent(lp, x);
	cr_assert_eq(sb_lp_solve(lp, 0, 0.3, 0, &r, &err), 0);
	cr_assert(r.status == SB_LP_FEASIBLE || r.status == SB_LP_OPTIMAL,
		  "status %s", sb_lp_status_name(r.status));
	cr_assert_not_null(r.x);
	/* GLPK took it at its first heuristic call */
	cr_assert_null(sb_lp_warning(lp), "%s", sb_lp_warning(lp));
	/* objective of the incumbent, from the model itself */
	{
		struct sb_lp_result r0;
		double *w2;
		struct sb_lp *fix = hard_knapsack(60, 5, 3, &w2, cap);
		free(w2);
		for (i = 0; i < 60; i++) {
			int c[] = { i };
			double one[] = { 1 };
			sb_lp_add_row(fix, NULL, x[i], x[i], 1, c, one);
		}
		cr_assert_eq(sb_lp_solve(fix, 0, TL, 0, &r0, &err), 0);
		cr_assert_eq(r0.status, SB_LP_OPTIMAL);
		incobj = r0.obj;
		sb_lp_result_release(&r0);
		sb_lp_free(fix);
	}
	cr_assert(r.obj >= incobj - 1e-9, "obj %g worse than the incumbent %g",
		  r.obj, incobj);
	cr_assert(r.bound >= r.obj - 1e-9);
	sb_lp_result_release(&r);

	/* a time limit too short for anything still returns the incumbent */
	cr_assert_eq(sb_lp_solve(lp, 0, 1e-6, 0, &r, &err), 0);
	cr_assert(r.status == SB_LP_FEASIBLE || r.status == SB_LP_OPTIMAL);
	cr_assert(r.obj >= incobj - 1e-9);
	sb_lp_result_release(&r);
	sb_lp_free(lp);
	free(w);
}

Test(lp, warm_start_on_small_mip)
{
	/* the incumbent is the optimum: status optimal, same value */
	struct sb_lp *lp = knap3();
	struct sb_lp_result r;
	struct sb_err err;
	double x[] = { 0, 1, 1 };

	sb_lp_set_incumbent(lp, x);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 220, 1e-9);
	sb_lp_result_release(&r);
	sb_lp_free(lp);
}

Test(lp, infeasible_incumbent_is_ignored)
{
	struct sb_lp *lp = knap3();
	struct sb_lp_result r;
	struct sb_err err;
	double x[] = { 1, 1, 1 };  /* weight 60 > 50 */

	sb_lp_set_incumbent(lp, x);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 220, 1e-9);
	cr_assert_not_null(sb_lp_warning(lp));
	cr_assert(strstr(sb_lp_warning(lp), "cap") != NULL, "%s", sb_lp_warning(lp));
	sb_lp_result_release(&r);
	sb_lp_free(lp);
}

Test(lp, glpk_fault_does_not_abort)
{
	struct sb_lp *lp = knap3();
	struct sb_lp_result r;
	struct sb_err err;

	memset(&err, 0, sizeof err);
	sb_lp_test_fault(lp);
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), SB_EXIT_RUN);
	cr_assert_eq(r.status, SB_LP_ERROR);
	cr_assert_null(r.x);
	cr_assert_eq(err.code, SB_EXIT_RUN);
	cr_assert(strstr(err.msg, "glpk error") != NULL, "%s", err.msg);
	cr_assert(strstr(err.msg, "out of range") != NULL, "%s", err.msg);
	sb_lp_free(lp);

	/* GLPK's environment was rebuilt: the next solve works */
	lp = knap3();
	cr_assert_eq(sb_lp_solve(lp, 0, TL, 0, &r, &err), 0);
	cr_assert_eq(r.status, SB_LP_OPTIMAL);
	cr_assert_float_eq(r.obj, 220, 1e-9);
	sb_lp_result_release(&r);
	sb_lp_free(lp);
}

/* expected failures: SB_BUG aborts; its message is captured, not printed */
Test(lp, bad_column_index_is_a_bug, .signal = SIGABRT, .init = cr_redirect_stderr)
{
	struct sb_lp *lp = sb_lp_new("bad", 1);
	int c[] = { 2 };
	double v[] = { 1 };

	sb_lp_add_col(lp, "x", SB_LP_CONT, 0, 1, 1);
	sb_lp_add_row(lp, "r", 0, 1, 1, c, v);  /* column 2 does not exist */
}

Test(lp, missing_time_limit_is_a_bug, .signal = SIGABRT, .init = cr_redirect_stderr)
{
	struct sb_lp *lp = knap3();
	struct sb_lp_result r;
	struct sb_err err;
	sb_lp_solve(lp, 0, 0, 0, &r, &err);
}

Test(lp, version_and_names)
{
	cr_assert(strncmp(sb_lp_version(), "GLPK ", 5) == 0, "%s", sb_lp_version());
	cr_assert_str_eq(sb_lp_status_name(SB_LP_OPTIMAL), "optimal");
	cr_assert_str_eq(sb_lp_status_name(SB_LP_FEASIBLE), "feasible");
	cr_assert_str_eq(sb_lp_status_name(SB_LP_INFEASIBLE), "infeasible");
}
