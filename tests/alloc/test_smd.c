/*
 * test_smd.c - SMD's inputs and round variants (alloc family): the DL2
 * speed table loads with the counts SOURCES.md §8 lists and rejects every
 * kind of bad line naming file, line and field; the Optimus-form NNLS fit
 * recovers known coefficients and never goes negative.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tests/testutil.h"
#include "workloads/alloc/alloc_wl.h"

Test(smd_speeds, dl2_file)
{
	DATA_OR_SKIP(path, "dl2/config_speed.txt");
	static const char *const names[8] = {
		"resnet-50", "vgg-16", "cnn-text-classification", "dssm", "resnext-110",
		"inception-bn", "seq2seq", "wlm",
	};
	static const int rows[8] = { 210, 210, 78, 78, 57, 57, 57, 57 };
	struct sb_alloc_speeds sp;
	struct sb_err err;
	const struct sb_alloc_speed_row *r;
	int k, i, n[8] = { 0 };

	cr_assert_eq(sb_alloc_load_speeds(path, &sp, &err), 0, "%s", err.msg);
	cr_assert_eq(sp.n, 804);
	cr_assert_eq(sp.nmodel, 8);
	for (k = 0; k < 8; k++) {
		int m = sb_alloc_speeds_model(&sp, names[k]);
		cr_assert(m >= 0, "model %s missing", names[k]);
		cr_assert_str_eq(sp.sync[m], "dist_sync");
		for (i = 0; i < sp.n; i++)
			n[k] += sp.row[i].model == m;
		cr_assert_eq(n[k], rows[k], "%s: %d rows", names[k], n[k]);
	}
	/* the first line: resnet-50, batch 32, 1 PS, 1 worker, [15.783] */
	r = sb_alloc_speeds_find(&sp, sb_alloc_speeds_model(&sp, "resnet-50"), 1, 1);
	cr_assert_not_null(r);
	cr_assert(r->batch == 32 && fabs(r->speed - 15.783) < 1e-12 && fabs(r->ps_cpu - 1.908) < 1e-12);
	r = sb_alloc_speeds_find(&sp, sb_alloc_speeds_model(&sp, "resnet-50"), 1, 2);
	cr_assert(r && fabs(r->speed - 15.404) < 1e-9);
	/* line 221: one worker of eleven measured at 0 (kept); nine rows
	 * have a total speed of 0 */
	r = sb_alloc_speeds_find(&sp, sb_alloc_speeds_model(&sp, "vgg-16"), 1, 11);
	cr_assert(r && fabs(r->speed - 0.48) < 1e-9, "%g", r ? r->speed : -1);
	for (i = k = 0; i < sp.n; i++)
		k += sp.row[i].speed == 0;
	cr_assert_eq(k, 9);
	sb_alloc_speeds_release(&sp);
}

static void bad(const char *text, const char *want)
{
	const char *path = sb_test_write(text);
	struct sb_alloc_speeds sp;
	struct sb_err err;
	char pre[300];

	cr_assert_eq(sb_alloc_load_speeds(path, &sp, &err), SB_EXIT_INPUT, "accepted '%s'", text);
	snprintf(pre, sizeof pre, "cannot read speed table '%s'", path);
	cr_assert(strstr(err.msg, pre), "'%s' does not name the file", err.msg);
	cr_assert(strstr(err.msg, want), "'%s' lacks '%s'", err.msg, want);
	cr_assert(sp.n == 0 && sp.row == NULL);
	unlink(path);
}

#define OK1 "('m', 'dist_sync', 32, 1, 2, [1.5, 1.5], [0.3], [0.2, 0.2])\n"

Test(smd_speeds, bad_lines)
{
	bad("", "no measurement");
	bad("\n  \n", "no measurement");
	bad("'m', 'dist_sync', 32, 1, 1, [1], [0], [0])\n", "line 1: expected '(' at the start");
	bad(OK1 "(m, 'dist_sync', 32, 1, 1, [1], [0], [0])\n", "line 2: field 'model': expected a quoted string");
	bad("('m, 'dist_sync', 32, 1, 1, [1], [0], [0])\n", "line 1: field 'model'");
	bad("('', 'dist_sync', 32, 1, 1, [1], [0], [0])\n", "field 'model': empty");
	bad("('m\\x', 'dist_sync', 32, 1, 1, [1], [0], [0])\n", "field 'model': escapes");
	bad("('m' 'dist_sync', 32, 1, 1, [1], [0], [0])\n", "field 'model': expected ','");
	bad("('m', 'dist_sync', 3.5, 1, 1, [1], [0], [0])\n", "field 'tot_batch_size'");
	bad("('m', 'dist_sync', 32, 0, 1, [1], [0], [0])\n", "field 'num_ps'");
	bad("('m', 'dist_sync', 32, 1, 65, [1], [0], [0])\n", "field 'num_worker'");
	bad("('m', 'dist_sync', 32, 1, 2, [1], [0], [0, 0])\n", "field 'speeds': 1 entries, expected 2");
	bad("('m', 'dist_sync', 32, 1, 1, [-0.5], [0], [0])\n", "field 'speeds': negative");
	bad("('m', 'dist_sync', 32, 1, 1, [nan], [0], [0])\n", "field 'speeds': not a finite number");
	bad("('m', 'dist_sync', 32, 1, 1, [1 2], [0], [0])\n", "field 'speeds'");
	bad("('m', 'dist_sync', 32, 2, 1, [1], [0], [0])\n", "field 'ps_cpu_usages': 1 entries, expected 2");
	bad("('m', 'dist_sync', 32, 1, 1, [1], [-1], [0])\n", "field 'ps_cpu_usages': negative");
	bad("('m', 'dist_sync', 32, 1, 1, [1], [0], [])\n", "field 'worker_cpu_usages': 0 entries");
	bad("('m', 'dist_sync', 32, 1, 1, [1], [0], 0)\n", "field 'worker_cpu_usages': expected a list");
	bad("('m', 'dist_sync', 32, 1, 1, [1], [0], [0]\n", "field 'worker_cpu_usages': expected ')'");
	bad("('m', 'dist_sync', 32, 1, 1, [1], [0], [0]) x\n", "line 1: text after the tuple");
	bad(OK1 OK1, "line 2: field 'num_worker': duplicate measurement of 'm' with 1 PSs and 2 workers");
	bad(OK1 "('m', 'dist_async', 32, 1, 1, [1], [0], [0])\n",
	    "line 2: field 'sync_mode': 'dist_async', but model 'm' was measured in 'dist_sync'");
}

Test(smd_speeds, accepts_variants)
{
	/* blank lines, CRLF, no final newline, double quotes, no blanks */
	const char *path = sb_test_write("\n" OK1 "\r\n(\"n\",\"dist_sync\",8,2,1,[2.0],[0.1,0.1],[0.5])");
	struct sb_alloc_speeds sp;
	struct sb_err err;
	cr_assert_eq(sb_alloc_load_speeds(path, &sp, &err), 0, "%s", err.msg);
	cr_assert(sp.n == 2 && sp.nmodel == 2);
	cr_assert(sp.row[0].speed == 3.0 && sp.row[0].workers == 2 && sp.row[0].ps == 1);
	cr_assert(sp.row[1].ps == 2 && sp.row[1].batch == 8 && fabs(sp.row[1].ps_cpu - 0.2) < 1e-12);
	sb_alloc_speeds_release(&sp);
	unlink(path);
}

/* Rows generated from known non-negative coefficients are fitted back
 * exactly; a negative true coefficient is clipped, never returned. */
Test(smd_speeds, optimus_fit)
{
	static const double truth[2][SB_ALLOC_FIT_N] = { { 0.01, 0.2, 0.05, 0.003, 0.0 },
							 { 0.02, 0.1, 0.0, 0.01, -0.004 } };
	int t;
	for (t = 0; t < 2; t++) {
		char buf[20000], *q = buf;
		struct sb_alloc_speeds sp;
		struct sb_err err;
		double th[SB_ALLOC_FIT_N], rms;
		const char *path;
		int p, w, k;
		for (p = 1; p <= 6; p++)
			for (w = 1; w <= 6; w++) {
				double tau = sb_alloc_speed_fit_tau(truth[t], 64, p, w);
				q += sprintf(q, "('m', 's', 64, %d, %d, [%.17g", p, w, 1 / tau);
				for (k = 1; k < w; k++)
					q += sprintf(q, ", %.17g", 1 / tau);
				q += sprintf(q, "], [0");
				for (k = 1; k < p; k++)
					q += sprintf(q, ", 0");
				q += sprintf(q, "], [0");
				for (k = 1; k < w; k++)
					q += sprintf(q, ", 0");
				q += sprintf(q, "])\n");
			}
		path = sb_test_write(buf);
		cr_assert_eq(sb_alloc_load_speeds(path, &sp, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_alloc_speed_fit(&sp, 0, th, &rms), 0);
		for (k = 0; k < SB_ALLOC_FIT_N; k++)
			cr_assert(th[k] >= 0, "coefficient %d negative: %g", k, th[k]);
		if (t == 0) {
			cr_assert(rms < 1e-9, "rms %g", rms);
			for (k = 0; k < SB_ALLOC_FIT_N; k++)
				cr_assert(fabs(th[k] - truth[0][k]) < 1e-7, "theta %d = %g", k, th[k]);
		} else {
			cr_assert(th[4] == 0 && rms > 0);
		}
		cr_assert_eq(sb_alloc_speed_fit(&sp, 1, th, &rms), -1);
		sb_alloc_speeds_release(&sp);
		unlink(path);
	}
}

/* ------------------------------------------------------------------ */
/* Round variants: LP-outer, Dinkelbach, enumeration, the round check  */
/* ------------------------------------------------------------------ */

#include "algorithms/smd/smd.h"
#include "tests/alloc/small.h"

static void round_of(struct sb_alloc_inst *in, struct sb_smd_round *rd, int njob, int S, int K,
		     uint64_t seed)
{
	int jobs[16], i;
	double rem[16];
	sb_test_alloc_small(in, SB_ALLOC_PS, SB_ALLOC_JCT, njob, S, 8, 10, K, 0, seed);
	for (i = 0; i < in->njob; i++) {
		jobs[i] = i;
		rem[i] = in->job[i].target;
	}
	sb_smd_round_build(rd, in, jobs, in->njob, rem, -1);
}

/* LP-outer's choice passes the check, is never below the ILP optimum, and
 * the ILP is never below the LP relaxation. */
Test(smd_round, lp_outer_feasible_above_ilp)
{
	int k;
	for (k = 0; k < 30; k++) {
		struct sb_alloc_inst in;
		struct sb_smd_round rd;
		struct sb_alloc_bound ilp, lp;
		struct sb_err err;
		int choice[16];
		double total, cost, greedy;
		char why[200];
		round_of(&in, &rd, 4 + k % 6, 1 + k % 2, 6, 7700 + k);
		cr_assert_eq(sb_smd_round_solve_lp(&rd, choice, &total, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_alloc_mmkp_check(&rd.m, choice, &cost, why, sizeof why), 0, "%s", why);
		cr_assert_float_eq(cost, total, 1e-9 * (1 + total));
		cr_assert_eq(sb_alloc_mmkp_bound(&rd.m, 0, &ilp, &err), 0, "%s", err.msg);
		cr_assert_eq(sb_alloc_mmkp_bound(&rd.m, 1, &lp, &err), 0, "%s", err.msg);
		cr_assert(ilp.optimal);
		cr_assert_geq(cost, ilp.bound * (1 - 1e-9), "LP-outer %.9g below the optimum %.9g",
			      cost, ilp.bound);
		cr_assert_geq(ilp.bound, lp.bound * (1 - 1e-9));
		greedy = sb_smd_round_solve(&rd, choice);
		cr_assert_geq(greedy, ilp.bound * (1 - 1e-9));
		sb_smd_round_release(&rd);
		sb_alloc_inst_release(&in);
	}
}

/* The round check rejects a foreign configuration and an overfull choice. */
Test(smd_round, check_rejects)
{
	struct sb_alloc_inst in;
	struct sb_smd_round rd;
	int choice[16], i;
	double cost;
	char why[200];
	round_of(&in, &rd, 6, 1, 6, 4242);
	for (i = 0; i < rd.m.n; i++)
		choice[i] = rd.m.off[i];
	cr_assert_eq(sb_alloc_mmkp_check(&rd.m, choice, &cost, why, sizeof why), 0);
	choice[0] = rd.m.off[1];
	cr_assert_eq(sb_alloc_mmkp_check(&rd.m, choice, &cost, why, sizeof why), 1);
	cr_assert(strstr(why, "item 0"), "%s", why);
	for (i = 0; i < rd.m.n; i++)
		choice[i] = rd.m.off[i + 1] - 1;   /* every job at its largest */
	cr_assert_eq(sb_alloc_mmkp_check(&rd.m, choice, &cost, why, sizeof why), 1);
	cr_assert(strstr(why, "used of"), "%s", why);
	sb_smd_round_release(&rd);
	sb_alloc_inst_release(&in);
}

/* Dinkelbach (smd.md §9), plain and weighted: never below the enumerated
 * optimum, feasible, every job running; with one job it is Dinkelbach's
 * exact method and reaches the optimum. */
Test(smd_round, dinkelbach_vs_enumeration)
{
	int k, hit = 0, n = 40;
	for (k = 0; k < n; k++) {
		struct sb_alloc_inst in;
		struct sb_smd_round rd;
		struct sb_err err;
		int run[16], choice[16], opt[16], i, iters, conv, njob = 1 + k % 3;
		double sum, best, cost;
		char why[200];
		round_of(&in, &rd, njob, 1, 5, 5100 + k);
		for (i = 0; i < njob; i++)
			run[i] = 1;
		cr_assert_eq(sb_smd_enumerate(&rd, run, 100000000L, opt, &best), 0);
		cr_assert_eq(sb_smd_dinkelbach(&rd, run, k % 2, choice, &sum, &iters, &conv, &err), 0,
			     "%s", err.msg);
		cr_assert_eq(sb_alloc_mmkp_check(&rd.m, choice, &cost, why, sizeof why), 0, "%s", why);
		cr_assert_float_eq(cost, sum, 1e-9 * (1 + sum));
		for (i = 0; i < njob; i++)
			cr_assert(choice[i] > rd.m.off[i], "job %d left idle", i);
		cr_assert_geq(sum, best * (1 - 1e-9), "Dinkelbach %.9g below enumeration %.9g", sum,
			      best);
		if (njob == 1)
			cr_assert_float_eq(sum, best, 1e-6 * best, "one job: %.9g, optimum %.9g", sum,
					   best);
		hit += sum <= best * (1 + 1e-6);
		sb_smd_round_release(&rd);
		sb_alloc_inst_release(&in);
	}
	cr_log_info("dinkelbach reached the enumerated optimum on %d of %d instances", hit, n);
}
