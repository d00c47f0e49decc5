/*
 * family.c - the online family's entry in the family table: `sb list
 * online` and `sb eval online`. The engine finds it through the generated
 * registry; no engine file names the family.
 */
#include "online.h"
#include "online/ptable.h"
#include "family.h"
#include "workloads/online/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(online_policy, sb_online_policies)

static void list(FILE *out)
{
	int n, i;
	const struct sb_online_policy *const *p = sb_online_policies(&n);

	fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "online", p[i]->name,
			p[i]->offline ? "offline" : "price", p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-14s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static const char *const value_opts[] = { "--T", "--C", "--D", "--M", "--ul", "--gen",
					  "--buyers", "--table", "--K", "--C2", NULL };

/* an integer option in [lo, hi] */
static int int_opt(const char *name, const char *v, long lo, long hi, int *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (!*v || *end || x < lo || x > hi) {
		fprintf(stderr, "error: eval online: %s '%s': expected an integer in [%ld, %ld]\n",
			name, v, lo, hi);
		return SB_EXIT_INPUT;
	}
	*out = (int)x;
	return 0;
}

int sb_online_eval(int argc, char **argv)
{
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_online_game g;
	struct sb_online_inst in = { 0 };
	struct sb_online_result r;
	const struct sb_online_policy *p;
	struct sb_opts o;
	struct sb_rng gen, rng;
	int T = 20, C = 20, D = 1, M = 16, K = 1, C2 = 0, i, rc, t;
	double ul = 10;
	const char *kind = "logrand", *buyers = NULL, *tables = NULL;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;
		if ((rc = sb_eval_next(&sb_family_online, &ea, argc, argv, &i, NULL, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!strcmp(a, "--T"))
			rc = int_opt(a, v, 1, SB_ONLINE_MAXT, &T);
		else if (!strcmp(a, "--C"))
			rc = int_opt(a, v, 1, SB_ONLINE_MAXC, &C);
		else if (!strcmp(a, "--K"))
			rc = int_opt(a, v, 1, SB_ONLINE_MAXK, &K);
		else if (!strcmp(a, "--C2"))
			rc = int_opt(a, v, 1, SB_ONLINE_MAXC, &C2);
		else if (!strcmp(a, "--D"))
			rc = int_opt(a, v, 1, SB_ONLINE_MAXC, &D);
		else if (!strcmp(a, "--M"))
			rc = int_opt(a, v, 2, SB_ONLINE_MAXM, &M);
		else if (!strcmp(a, "--ul")) {
			ul = strtod(v, &end);
			if (!*v || *end || !(ul > 1) || ul > SB_ONLINE_MAXRATIO)
				return sb_eval_fail(&sb_family_online, "--ul '%s': expected U/L in (1, 1e6]", v);
		} else if (!strcmp(a, "--gen")) {
			if (strcmp(v, "rand") && strcmp(v, "logrand") && strcmp(v, "staircase"))
				return sb_eval_fail(&sb_family_online, "--gen '%s': expected rand, logrand or staircase", v);
			kind = v;
		} else if (!strcmp(a, "--table")) {
			tables = v;
		} else {
			buyers = v;
		}
		if (rc)
			return rc;
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_online, &err);
	if (!(p = sb_online_policy_find(ea.policy)))
		return sb_eval_fail(&sb_family_online, "'%s' is not a registered online policy", ea.policy);
	sb_opts_defaults(&o, p->params);
	for (i = 0; i < ea.nset; i++)
		if (sb_opts_set(&o, p->params, ea.sets[i], "--set", &err))
			return sb_eval_fail_err(&sb_family_online, &err);
	if (tables) {
		int nt;
		if ((rc = sb_online_ptable_load(tables, &nt, &err))) {
			sb_err_print(&err);
			return rc;
		}
	}
	if (K == 1 && C2)
		return sb_eval_fail(&sb_family_online, "--C2: a second capacity needs --K 2");
	if (K == 2 && !C2)
		C2 = C;   /* the same capacity for both types unless told */
	if (buyers) {
		if (D > C || (K == 2 && D > C2))
			return sb_eval_fail(&sb_family_online, "--D: largest demand above the capacity");
		if ((rc = sb_online_load(buyers, K, D, 1, ul, &in, &err))) {
			sb_err_print(&err);
			return rc;
		}
		T = in.T;
	}
	{
		int cap[2] = { C, C2 };
		rc = sb_online_game_init_k(&g, T, K, cap, D, M, 1, ul, &err);
	}
	if (rc) {
		sb_online_inst_release(&in);
		return sb_eval_fail_err(&sb_family_online, &err);
	}
	gen = sb_rng_stream(ea.seed, 0, 0, SB_RNG_INSTANCE);
	rng = sb_rng_stream(ea.seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(p->name));
	if (!buyers) {
		if (!strcmp(kind, "staircase"))
			sb_online_gen_staircase(&g, &in, M, M - 1, 1);
		else
			sb_online_gen_random(&g, &in, !strcmp(kind, "logrand"), &gen);
	}
	rc = sb_online_run(&g, &in, p, &o, &rng, &r, &err);
	if (rc) {
		sb_err_print(&err);
	} else {
		double opt = sb_online_opt(&g, &in, NULL);
		printf("rounds: %d\ncapacity: %d\n", g.T, g.C);
		if (g.K == 2)
			printf("resource_types: 2\ncapacity2: %d\n", g.Ck[1]);
		printf("U/L: %g\nprice_levels: %d\npolicy: %s\n"
		       "expected_welfare: %.10g\nsampled_welfare: %.10g\nvalid: yes\n",
		       ul, g.M, p->name, r.ealg, r.welfare);
		printf("opt: %.10g\nratio_opt: %.6f\n", opt, r.ealg > 0 ? opt / r.ealg : INFINITY);
		if (p->proven_ratio)
			printf("proven_ratio: %.6f\n", p->proven_ratio(&g, &o));
		if (ea.bound) {
			double ilp = 0, lp = 0;
			if ((rc = sb_online_opt_glpk(&g, &in, &ilp, &lp, &err)))
				sb_err_print(&err);
			else
				printf("opt_glpk: %.10g\nopt_lp: %.10g\nratio_lp: %.6f\n", ilp, lp,
				       r.ealg > 0 ? lp / r.ealg : INFINITY);
		}
		if (ea.schedule_out) {
			FILE *f = fopen(ea.schedule_out, "w");
			if (!f) {
				fprintf(stderr, "error: cannot write '%s'\n", ea.schedule_out);
				rc = SB_EXIT_RUN;
			} else {
				fprintf(f, g.K == 1 ? "t,d,v,price,x\n" : "t,d1,d2,v,price,x\n");
				for (t = 0; t < g.T; t++) {
					fprintf(f, "%d,%d,", t, sb_online_dem(&g, in.d[t], 0));
					if (g.K == 2)
						fprintf(f, "%d,", sb_online_dem(&g, in.d[t], 1));
					fprintf(f, "%.17g,%.17g,%d\n", in.v[t], r.price[t], r.x[t]);
				}
				if (fclose(f)) {
					fprintf(stderr, "error: cannot write '%s'\n", ea.schedule_out);
					rc = SB_EXIT_RUN;
				}
			}
		}
		sb_online_result_release(&r);
	}
	sb_online_inst_release(&in);
	return rc;
}

static const char *const roles[] = { "online_policy", NULL };

const struct sb_family sb_family_online = {
	.name = "online",
	.desc = "posted-price online allocation (online knapsack), exact per-round DP",
	.roles = roles,
	.eval_usage = "[--T N] [--C N] [--D N] [--M N] [--ul U/L] [--gen rand|logrand|staircase] "
		      "[--buyers FILE.csv (d,v; K = 2: d1,d2,v)] [--table online_learn.h5 "
		      "(stored policy tables)] [--K 1|2] [--C2 N (type 2's capacity, default C)]",
	.eval = sb_online_eval,
	.list = list,
	.adversary = &sb_online_adversary,
};
