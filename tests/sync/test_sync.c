/*
 * test_sync.c - the sync family: the protocol identities of adsp.md §11
 * (ADSP never blocks; BSP blocks 0 s with equal speeds; SSP with s = inf
 * is ASP, SSP with s = 1 is BSP), the wait-free bound for every policy,
 * the checker rejecting broken traces, PS conservation (every push applied
 * once, the PS model equal to the replay), determinism, the curve fit, the
 * ADACOMM tau rules, and bad input.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sync/sync.h"
#include "algorithms/adsp/adsp.h"

long sb_adacomm_next_tau(long tau, long tau0, double f0, double f, int variant);

/* a small world: m workers, softmax model, 300 simulated seconds */
static void small(struct sb_sync_world *w, int m, double h, uint64_t seed)
{
	struct sb_sync_world_cfg cfg = { NULL, 0.4, m, h, 0.5, 0.1, SB_SYNC_SOFTMAX, seed, 0 };
	struct sb_err err;
	cr_assert_eq(sb_sync_world_make(w, &cfg, &err), 0, "%s", err.msg);
	w->in.horizon = 300;
	w->in.target = 0.5;
}

static void run(const struct sb_sync_inst *in, const char *name, const char *set,
		struct sb_sync_result *r)
{
	const struct sb_sync_policy *p = sb_sync_policy_find(name);
	struct sb_opts o;
	struct sb_err err;
	cr_assert_not_null(p, "%s", name);
	sb_opts_defaults(&o, p->params);
	if (set)
		cr_assert_eq(sb_opts_set(&o, p->params, set, "--set", &err), 0, "%s", err.msg);
	cr_assert_eq(sb_sync_run(in, p, &o, r, &err), 0, "%s: %s", name, err.msg);
}

static void same_trajectory(const struct sb_sync_result *a, const struct sb_sync_result *b)
{
	int k;
	cr_assert_eq(a->steps, b->steps);
	cr_assert_eq(a->neval, b->neval);
	for (k = 0; k < a->neval; k++)
		cr_assert_eq(a->eval_loss[k], b->eval_loss[k], "evaluation %d: %.17g vs %.17g", k,
			     a->eval_loss[k], b->eval_loss[k]);
	cr_assert_eq(a->blocked, b->blocked);
}

Test(sync, adsp_never_blocks)
{
	uint64_t seed;
	for (seed = 1; seed <= 3; seed++) {
		struct sb_sync_world w;
		struct sb_sync_result r;
		small(&w, 6, 1.5 + seed, seed);
		run(&w.in, "adsp", NULL, &r);
		cr_assert_eq(r.blocked, 0.0);
		cr_assert_gt(r.commits, 0);
		sb_sync_result_release(&r);
		run(&w.in, "adsp-plus", "dc=3", &r);
		cr_assert_eq(r.blocked, 0.0);
		sb_sync_result_release(&r);
		sb_sync_world_release(&w);
	}
}

Test(sync, bsp_blocks_zero_with_equal_speeds)
{
	struct sb_sync_world w;
	struct sb_sync_result r;
	int i;
	small(&w, 5, 1, 4);
	w.in.jitter = 0;
	for (i = 0; i < w.in.m; i++)
		w.in.bw[i] = 20;
	run(&w.in, "bsp", NULL, &r);
	cr_assert_eq(r.blocked, 0.0, "blocked %g s", r.blocked);
	cr_assert_gt(r.commits, 10);
	sb_sync_result_release(&r);
	/* and heterogeneous speeds do make BSP wait */
	sb_sync_world_release(&w);
	small(&w, 5, 2, 4);
	run(&w.in, "bsp", NULL, &r);
	cr_assert_gt(r.blocked, 1.0);
	sb_sync_result_release(&r);
	sb_sync_world_release(&w);
}

Test(sync, ssp_infinite_is_asp_and_ssp_one_is_bsp)
{
	struct sb_sync_world w;
	struct sb_sync_result a, b;
	small(&w, 6, 2.6, 5);
	run(&w.in, "asp", NULL, &a);
	run(&w.in, "ssp", "s=1e9", &b);
	same_trajectory(&a, &b);
	cr_assert_eq(b.blocked, 0.0);
	sb_sync_result_release(&a);
	sb_sync_result_release(&b);
	run(&w.in, "bsp", NULL, &a);
	run(&w.in, "ssp", "s=1", &b);
	same_trajectory(&a, &b);
	sb_sync_result_release(&a);
	sb_sync_result_release(&b);
	/* batchtune with equal batches is BSP: its batches differ here */
	run(&w.in, "fixed-adacomm", "tau=1", &a);
	run(&w.in, "bsp", NULL, &b);
	same_trajectory(&a, &b);
	sb_sync_result_release(&a);
	sb_sync_result_release(&b);
	sb_sync_world_release(&w);
}

/* adsp.md §10: no system of these workers does N steps faster than
 * N / sum v_i (with the jitter's fastest draw) */
Test(sync, every_policy_respects_the_wait_free_bound)
{
	int np, i;
	uint64_t seed;
	const struct sb_sync_policy *const *p = sb_sync_policies(&np);
	cr_assert_geq(np, 8);
	for (seed = 1; seed <= 2; seed++) {
		struct sb_sync_world w;
		small(&w, 4 + 2 * (int)seed, 1 + seed, seed);
		for (i = 0; i < np; i++) {
			struct sb_sync_result r;
			long n;
			run(&w.in, p[i]->name, NULL, &r);
			cr_assert_gt(r.steps, 0, "%s", p[i]->name);
			for (n = 1; n <= r.steps; n += 1 + r.steps / 7)
				cr_assert_geq(sb_sync_time_to_steps(&r, n), sb_sync_bound(&w.in, n),
					      "%s: %ld steps", p[i]->name, n);
			sb_sync_result_release(&r);
		}
		sb_sync_world_release(&w);
	}
}

Test(sync, checker_rejects_broken_traces)
{
	struct sb_sync_world w;
	struct sb_sync_result r;
	char why[256];
	size_t k, np;
	small(&w, 4, 2, 6);
	np = sb_sync_nparams(&w.in);
	run(&w.in, "ssp", "s=2", &r);
	cr_assert_eq(sb_sync_check(&w.in, np, &r, why, sizeof why), 0, "%s", why);
	for (k = 0; k < r.nrec && r.rec[k].kind != SB_SYNC_RELEASE; k++)
		;
	cr_assert_lt(k, r.nrec);
	r.rec[k].bound = 0;                 /* released through a shut gate */
	cr_assert_eq(sb_sync_check(&w.in, np, &r, why, sizeof why), 1);
	r.rec[k].bound = 2;
	r.blocked += 1;                     /* totals that do not match the trace */
	cr_assert_eq(sb_sync_check(&w.in, np, &r, why, sizeof why), 1);
	r.blocked -= 1;
	r.rec[0].t1 = r.rec[0].t0 + 1e-6;   /* a step faster than the worker can go */
	cr_assert_eq(sb_sync_check(&w.in, np, &r, why, sizeof why), 1);
	sb_sync_result_release(&r);
	/* a worker held at an open gate */
	run(&w.in, "asp", NULL, &r);
	for (k = 0; k < r.nrec && r.rec[k].kind != SB_SYNC_RELEASE; k++)
		;
	r.rec[k].t1 += 1;
	cr_assert_eq(sb_sync_check(&w.in, np, &r, why, sizeof why), 1);
	sb_sync_result_release(&r);
	sb_sync_world_release(&w);
}

Test(sync, same_seed_same_run)
{
	struct sb_sync_world w1, w2;
	struct sb_sync_result a, b;
	size_t k;
	small(&w1, 5, 2, 9);
	small(&w2, 5, 2, 9);
	run(&w1.in, "adsp", NULL, &a);
	run(&w2.in, "adsp", NULL, &b);
	same_trajectory(&a, &b);
	cr_assert_eq(a.nrec, b.nrec);
	/* field by field: memcmp would also compare the records' padding */
	for (k = 0; k < a.nrec; k++)
		cr_assert(a.rec[k].kind == b.rec[k].kind && a.rec[k].worker == b.rec[k].worker &&
			  a.rec[k].t0 == b.rec[k].t0 && a.rec[k].t1 == b.rec[k].t1 &&
			  a.rec[k].bound == b.rec[k].bound && a.rec[k].batch == b.rec[k].batch,
			  "record %zu differs", k);
	sb_sync_result_release(&a);
	sb_sync_result_release(&b);
	sb_sync_world_release(&w1);
	sb_sync_world_release(&w2);
}

Test(sync, curve_fit_recovers_the_parameters)
{
	double t[5] = { 0, 30, 60, 100, 200 }, l[5], p[3];
	const double a = 0.07, b = 0.5, e = 0.3;
	int k;
	for (k = 0; k < 5; k++)
		l[k] = 1 / (a * a * t[k] + b) + e;
	cr_assert_eq(sb_adsp_fit(t, l, 5, p), 0);
	cr_assert_float_eq(p[0], a, 1e-6, "a = %.10g", p[0]);
	cr_assert_float_eq(p[1], b, 1e-6, "b = %.10g", p[1]);
	cr_assert_float_eq(p[2], e, 1e-6, "e = %.10g", p[2]);
	/* three points, as the scheduler fits them */
	cr_assert_eq(sb_adsp_fit(t, l, 3, p), 0);
	cr_assert_float_eq(p[2], e, 1e-6, "e = %.10g", p[2]);
	/* the score is the inverse time to the target: l(t*) = 1 */
	{
		double ts = (1 / (1 - e) - b) / (a * a);
		cr_assert_float_eq(sb_adsp_reward(p, 1.0), 1 / ts, 1e-6);
		cr_assert_eq(sb_adsp_reward(p, 0.2), 0.0);  /* below the floor e */
	}
}

Test(sync, adacomm_tau_rules)
{
	/* F_t/F_0 = 0.25 -> ceil(0.5 tau0); the variant halves when the rule
	 * does not shrink tau */
	cr_assert_eq(sb_adacomm_next_tau(40, 40, 2.0, 0.5, 0), 20);
	cr_assert_eq(sb_adacomm_next_tau(40, 40, 2.0, 2.0, 0), 40);
	cr_assert_eq(sb_adacomm_next_tau(40, 40, 2.0, 0.5, 1), 20);
	cr_assert_eq(sb_adacomm_next_tau(20, 40, 2.0, 0.5, 1), 10);
	cr_assert_eq(sb_adacomm_next_tau(1, 40, 2.0, 0.5, 1), 1);
	cr_assert_eq(sb_adacomm_next_tau(10, 10, 1.0, 0.81, 0), 9);
	cr_assert_eq(sb_adacomm_next_tau(5, 10, 1.0, 1e-9, 0), 1);
}

Test(sync, bad_input_names_the_field)
{
	struct sb_sync_world w;
	struct sb_sync_world_cfg cfg = { NULL, 0.4, 4, 0.5, 1, 0.1, SB_SYNC_SOFTMAX, 1, 0 };
	struct sb_sync_result r;
	struct sb_opts o;
	struct sb_err err;
	char path[] = "/tmp/sb_sync_digitsXXXXXX";
	FILE *f;
	int fd, i, j;

	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "H = 0.5"), "%s", err.msg);
	cfg.h = 2;
	cfg.slow = 0;
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), SB_EXIT_INPUT);
	cfg.slow = 1;
	cfg.lr = -1;
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "learning rate"), "%s", err.msg);
	cfg.lr = 0.1;
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), 0, "%s", err.msg);
	sb_opts_defaults(&o, sb_sync_policy_find("bsp")->params);
	w.in.v[2] = 0;
	cr_assert_eq(sb_sync_run(&w.in, sb_sync_policy_find("bsp"), &o, &r, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "worker 2: speed"), "%s", err.msg);
	w.in.v[2] = 1;
	w.in.bw[1] = -3;
	cr_assert_eq(sb_sync_run(&w.in, sb_sync_policy_find("bsp"), &o, &r, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "worker 1: bandwidth"), "%s", err.msg);
	sb_sync_world_release(&w);

	/* digits: 25 good rows, then one with a pixel out of 0..16 */
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	for (i = 0; i < 26; i++) {
		for (j = 0; j < 64; j++)
			fprintf(f, "%d,", i == 25 && j == 7 ? 17 : (i + j) % 17);
		fprintf(f, "%d\n", i % 10);
	}
	fclose(f);
	cfg.digits = path;
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 26") && strstr(err.msg, "pixel 8"), "%s", err.msg);
	f = fopen(path, "w");
	for (i = 0; i < 25; i++) {
		for (j = 0; j < 64; j++)
			fprintf(f, "%d,", (i + j) % 17);
		fprintf(f, "%d\n", i % 10);
	}
	fprintf(f, "1,2,3\n");
	fclose(f);
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 26") && strstr(err.msg, "65"), "%s", err.msg);
	f = fopen(path, "w");
	for (i = 0; i < 25; i++) {
		for (j = 0; j < 64; j++)
			fprintf(f, "%d,", (i + j) % 17);
		fprintf(f, "%d\n", i == 3 ? 12 : i % 10);
	}
	fclose(f);
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 4") && strstr(err.msg, "label"), "%s", err.msg);
	/* a good file loads and trains */
	f = fopen(path, "w");
	for (i = 0; i < 25; i++) {
		for (j = 0; j < 64; j++)
			fprintf(f, "%d,", (i + j) % 17);
		fprintf(f, "%d\n", i % 10);
	}
	fclose(f);
	cr_assert_eq(sb_sync_world_make(&w, &cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(w.train.n + w.test.n, 25);
	w.in.horizon = 60;
	cr_assert_eq(sb_sync_run(&w.in, sb_sync_policy_find("bsp"), &o, &r, &err), 0, "%s",
		     err.msg);
	sb_sync_result_release(&r);
	sb_sync_world_release(&w);
	remove(path);
}

/* PS conservation: every pushed update is applied exactly once and the PS
 * model is the replay of the accepted updates, for every policy (ADACOMM's
 * search adds snapshots and restores); a log with an update changed,
 * dropped or added is rejected. */
Test(sync, ps_applies_every_push_once_and_equals_the_replay)
{
	int np, i;
	const struct sb_sync_policy *const *p = sb_sync_policies(&np);
	struct sb_sync_world w;
	struct sb_sync_result r;
	char why[256];

	small(&w, 5, 2.6, 11);
	w.in.log_updates = 1;
	w.in.horizon = 600;
	for (i = 0; i < np; i++) {
		run(&w.in, p[i]->name, NULL, &r);
		cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 0, "%s: %s",
			     p[i]->name, why);
		cr_assert_eq((long)r.ndelta, r.commits, "%s", p[i]->name);
		cr_assert_gt(r.commits, 0, "%s", p[i]->name);
		sb_sync_result_release(&r);
	}
	run(&w.in, "adacomm", NULL, &r);
	{
		size_t k, nr = 0;
		for (k = 0; k < r.nupd; k++)
			nr += r.upd[k].kind == SB_SYNC_UPD_RESTORE;
		cr_assert_geq(nr, 7, "the tau0 search restores the model after each trial");
	}
	sb_sync_result_release(&r);

	/* the PS's explicit momentum path, with ADACOMM's restores */
	w.in.ps_momentum = 0.4;
	run(&w.in, "adsp-plus", "dc=4", &r);
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 0, "%s", why);
	sb_sync_result_release(&r);
	run(&w.in, "adacomm", NULL, &r);
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 0, "%s", why);
	w.in.ps_momentum = 0;   /* replayed without momentum, the same log does not fit */
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 1);
	sb_sync_result_release(&r);

	run(&w.in, "ssp", "s=3", &r);
	cr_assert_geq(r.ndelta, 3);
	/* an update the PS applied twice / with another value: the replay differs */
	r.delta[r.nparams + 7] += 1e-3;
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 1);
	cr_assert(strstr(why, "replay"), "%s", why);
	r.delta[r.nparams + 7] -= 1e-3;
	r.wfinal[3] = nextafter(r.wfinal[3], 1e300);   /* one ulp off */
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 1);
	r.wfinal[3] = nextafter(r.wfinal[3], -1e300);
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 0, "%s", why);
	/* a push the PS never applied */
	r.upd[1].kind = SB_SYNC_UPD_SNAPSHOT;
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 1);
	cr_assert(strstr(why, "never applied") || strstr(why, "out of order"), "%s", why);
	r.upd[1].kind = SB_SYNC_UPD_PUSH;
	/* an update no worker pushed */
	r.upd[r.nupd - 1].t += 1;
	cr_assert_eq(sb_sync_check_updates(&w.in, &r, why, sizeof why), 1);
	sb_sync_result_release(&r);
	sb_sync_world_release(&w);
}
