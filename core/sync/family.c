/*
 * family.c - the sync family's entry in the family table: `sb list sync`
 * and `sb eval sync`. The engine finds it through the generated registry;
 * no engine file names the family.
 */
#include "sync.h"
#include "family.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(sync_policy, sb_sync_policies)

static void list(FILE *out)
{
	int n, i;
	const struct sb_sync_policy *const *p = sb_sync_policies(&n);

	fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "sync", p[i]->name, "sync",
			p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-14s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static const char *const value_opts[] = { "--workers", "--h", "--model", "--digits",
	"--horizon", "--delay", "--lr", "--slow", "--jitter", "--target", "--bw", "--sep", NULL };

static int num(const char *opt, const char *v, double *out)
{
	char *end;
	*out = strtod(v, &end);
	if (!*v || *end || !isfinite(*out)) {
		fprintf(stderr, "error: eval sync: %s '%s': not a number\n", opt, v);
		return SB_EXIT_INPUT;
	}
	return 0;
}

int sb_sync_eval(int argc, char **argv)
{
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_sync_world_cfg cfg = { NULL, 0.4, 18, 2.0, 1.0, 0.05, SB_SYNC_MLP, 1, 0 };
	struct sb_sync_world w;
	struct sb_sync_result r;
	const struct sb_sync_policy *p;
	struct sb_opts o;
	double horizon = 1500, delay = 0, jitter = 0.1, target = -1, bw = -1, x;
	int i, rc, lr_set = 0;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		if ((rc = sb_eval_next(&sb_family_sync, &ea, argc, argv, &i, NULL, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!strcmp(a, "--model")) {
			if (!strcmp(v, "mlp"))
				cfg.model = SB_SYNC_MLP;
			else if (!strcmp(v, "softmax"))
				cfg.model = SB_SYNC_SOFTMAX;
			else
				return sb_eval_fail(&sb_family_sync, "--model '%s': expected mlp or softmax", v);
			continue;
		}
		if (!strcmp(a, "--digits")) {
			cfg.digits = v;
			continue;
		}
		if (num(a, v, &x))
			return SB_EXIT_INPUT;
		if (!strcmp(a, "--workers")) {
			if (x < 1 || x > 10000 || x != floor(x))
				return sb_eval_fail(&sb_family_sync, "--workers '%s': expected 1..10000", v);
			cfg.m = (int)x;
		} else if (!strcmp(a, "--h")) {
			cfg.h = x;
		} else if (!strcmp(a, "--horizon")) {
			horizon = x;
		} else if (!strcmp(a, "--delay")) {
			delay = x;
		} else if (!strcmp(a, "--lr")) {
			cfg.lr = x;
			lr_set = 1;
		} else if (!strcmp(a, "--slow")) {
			cfg.slow = x;
		} else if (!strcmp(a, "--jitter")) {
			jitter = x;
		} else if (!strcmp(a, "--sep")) {
			cfg.sep = x;
		} else if (!strcmp(a, "--target")) {
			target = x;
		} else {
			bw = x;
		}
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_sync, &err);
	if (!(p = sb_sync_policy_find(ea.policy)))
		return sb_eval_fail(&sb_family_sync, "'%s' is not a registered sync policy", ea.policy);
	sb_opts_defaults(&o, p->params);
	for (i = 0; i < ea.nset; i++)
		if (sb_opts_set(&o, p->params, ea.sets[i], "--set", &err))
			return sb_eval_fail_err(&sb_family_sync, &err);
	if (!lr_set && cfg.model == SB_SYNC_SOFTMAX)
		cfg.lr = 0.1;
	cfg.seed = ea.seed;
	if ((rc = sb_sync_world_make(&w, &cfg, &err))) {
		sb_err_prefix(&err, "eval sync");
		sb_err_print(&err);
		return rc;
	}
	w.in.horizon = horizon;
	w.in.delay = delay;
	w.in.jitter = jitter;
	w.in.target = target > 0 ? target : 1.05 * sb_sync_reference_loss(&w.in, 30);
	if (bw != -1)
		for (i = 0; i < w.in.m; i++)
			w.in.bw[i] = bw;
	rc = sb_sync_run(&w.in, p, &o, &r, &err);
	if (rc) {
		sb_err_prefix(&err, "eval sync");
		sb_err_print(&err);
	} else {
		printf("data: %s\nworkers: %d\npolicy: %s\nsteps: %ld\ncommits: %ld\n"
		       "compute_s: %.6g\nblocked_s: %.6g\ncomm_s: %.6g\nfinal_loss: %.6g\n"
		       "conv_time_s: %.6g\nsetting: %g\ntarget: %.6g\nvalid: yes\n", w.source,
		       w.in.m, p->name,
		       r.steps, r.commits, r.compute, r.blocked, r.comm, r.final_loss,
		       r.conv_time, r.dc_final, w.in.target);
		if (ea.bound && r.steps > 0) {
			double b = sb_sync_bound(&w.in, r.steps);
			double t = sb_sync_time_to_steps(&r, r.steps);
			printf("time_to_steps_s: %.6g\nbound_s: %.6g\ngap_bound: %.6f\n", t, b, t / b);
		}
		sb_sync_result_release(&r);
	}
	sb_sync_world_release(&w);
	return rc;
}

static const char *const roles[] = { "sync_policy", NULL };

const struct sb_family sb_family_sync = {
	.name = "sync",
	.desc = "parameter-server training, heterogeneous workers, real SGD on a virtual clock",
	.roles = roles,
	.eval_usage = "[--workers M] [--h H] [--model mlp|softmax] [--digits FILE] "
		      "[--horizon S] [--delay S] [--lr X] [--slow S] [--jitter X] [--target L] "
		      "[--bw MBPS] [--sep X]",
	.eval = sb_sync_eval,
	.list = list,
};
