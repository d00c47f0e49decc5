/*
 * family.c - the alloc family's entry in the family table: `sb list alloc`
 * and `sb eval alloc` on a job table and a cluster a user brings (or a
 * generated instance), with --bound for the GLPK optimum or bound.
 */
#include "alloc.h"
#include "bound.h"
#include "family.h"
#include "workloads/alloc/alloc_wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(alloc_policy, sb_alloc_policies)

static void list(FILE *out)
{
	int n, i;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&n);

	fprintf(out, "%-8s %-17s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-17s %-8s %-16s %s\n", "alloc", p[i]->name, "allocate",
			p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-17s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static const char *const value_opts[] = {
	"--jobs", "--cluster", "--gen", "--mode", "--util", "--slots", "--slot-s", "--types",
	"--tensors", "--servers", "--gpus", "--cpus", "--eta", NULL,
};

/* a whole number in [lo, hi] */
static int num(const char *opt, const char *v, double lo, double hi, int integer, double *out)
{
	char *end;
	double x = strtod(v, &end);
	if (!*v || *end || !isfinite(x) || x < lo || x > hi || (integer && x != floor(x))) {
		fprintf(stderr, "error: eval alloc: %s '%s': expected %s in [%g, %g]\n", opt, v,
			integer ? "an integer" : "a number", lo, hi);
		return SB_EXIT_INPUT;
	}
	*out = x;
	return 0;
}

static int write_grants(const char *path, const struct sb_alloc_result *r)
{
	FILE *f = fopen(path, "w");
	int t, k, bad;
	if (!f) {
		fprintf(stderr, "error: eval alloc: cannot write '%s'\n", path);
		return SB_EXIT_RUN;
	}
	fprintf(f, "slot,job,server,workers,ps\n");
	for (t = 0; t < r->nslot; t++)
		for (k = r->slot_off[t]; k < r->slot_off[t + 1]; k++)
			fprintf(f, "%d,%d,%d,%d,%d\n", t, r->grant[k].job, r->grant[k].server,
				r->grant[k].workers, r->grant[k].ps);
	bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad) {
		fprintf(stderr, "error: eval alloc: cannot write '%s'\n", path);
		return SB_EXIT_RUN;
	}
	return 0;
}

int sb_alloc_eval(int argc, char **argv)
{
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_tensor_table tt = { 0 };
	struct sb_alloc_inst in = { 0 };
	struct sb_alloc_result r;
	struct sb_alloc_jobrow *rows = NULL;
	double (*cap)[SB_ALLOC_NRES] = NULL;
	const struct sb_alloc_policy *p;
	const char *jobs = NULL, *cluster = NULL, *types = NULL, *tensors = NULL;
	struct sb_opts o;
	struct sb_rng gen, rng;
	double ngen = 0, slots = 0, slot_s = 1200, servers = 16, gpus = 8, cpus = -1, eta = -1;
	int i, rc, mode = SB_ALLOC_RAR, util = -1, nrow = 0, ns = 0;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *val;
		if ((rc = sb_eval_next(&sb_family_alloc, &ea, argc, argv, &i, NULL, value_opts, &val)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!strcmp(a, "--jobs"))
			jobs = val;
		else if (!strcmp(a, "--cluster"))
			cluster = val;
		else if (!strcmp(a, "--types"))
			types = val;
		else if (!strcmp(a, "--tensors"))
			tensors = val;
		else if (!strcmp(a, "--mode")) {
			if (strcmp(val, "rar") && strcmp(val, "ps"))
				return sb_eval_fail(&sb_family_alloc, "--mode '%s': expected rar or ps", val);
			mode = val[0] == 'r' ? SB_ALLOC_RAR : SB_ALLOC_PS;
		} else if (!strcmp(a, "--util")) {
			if ((util = sb_alloc_util_parse(val)) < 0)
				return sb_eval_fail(&sb_family_alloc, "--util '%s': expected exc, ene, fair or jct", val);
		} else if (!strcmp(a, "--gen"))
			rc = num(a, val, 1, 1000000, 1, &ngen);
		else if (!strcmp(a, "--slots"))
			rc = num(a, val, 1, 10000000, 1, &slots);
		else if (!strcmp(a, "--slot-s"))
			rc = num(a, val, 1, 1e7, 0, &slot_s);
		else if (!strcmp(a, "--servers"))
			rc = num(a, val, 1, 100000, 1, &servers);
		else if (!strcmp(a, "--gpus"))
			rc = num(a, val, 0, 1000000, 1, &gpus);
		else if (!strcmp(a, "--cpus"))
			rc = num(a, val, 0, 1000000, 1, &cpus);
		else if (!strcmp(a, "--eta"))
			rc = num(a, val, 0, 1e6, 0, &eta);
		if (rc)
			return rc;
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_alloc, &err);
	if (!jobs == !ngen)
		return sb_eval_fail(&sb_family_alloc, "%s", "give one job set: --jobs FILE.csv or --gen N");
	if (!(p = sb_alloc_policy_find(ea.policy)))
		return sb_eval_fail(&sb_family_alloc, "'%s' is not a registered alloc policy (see sb list alloc)", ea.policy);
	sb_opts_defaults(&o, p->params);
	for (i = 0; i < ea.nset; i++)
		if (sb_opts_set(&o, p->params, ea.sets[i], "--set", &err))
			return sb_eval_fail_err(&sb_family_alloc, &err);

	sb_alloc_genp_defaults(&g, mode);
	if (util >= 0)
		g.util = util;
	if (slots > 0)
		g.nslot = (int)slots;
	g.slot_s = slot_s;
	g.nserver = (int)servers;
	g.gpus = (int)gpus;
	if (cpus >= 0)
		g.cpus = (int)cpus;
	if (eta >= 0)
		g.eta = eta;
	if (types)
		rc = sb_alloc_load_types(types, &ty, &err);
	else
		sb_alloc_types_builtin(&ty), rc = 0;
	if (!rc && tensors)
		rc = sb_load_model_tensors(tensors, &tt, &err);
	if (!rc && cluster)
		rc = sb_alloc_load_cluster(cluster, &cap, &ns, &err);
	if (!rc && jobs)
		rc = sb_alloc_load_jobs(jobs, &ty, &rows, &nrow, &err);
	if (rc) {
		sb_err_print(&err);
		goto out;
	}
	gen = sb_rng_stream(ea.seed, 0, 0, SB_RNG_INSTANCE);
	rng = sb_rng_stream(ea.seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(p->name));
	if (jobs) {
		double (*c)[SB_ALLOC_NRES] = cap;
		if (!cluster) {
			int k;
			ns = g.nserver;
			c = cap = sb_xcalloc((size_t)(ns), sizeof(double[SB_ALLOC_NRES]));
			for (k = 0; k < ns; k++) {
				c[k][0] = g.gpus;
				c[k][1] = g.cpus;
			}
		}
		sb_alloc_build(&in, &g, &ty, rows, nrow, c, ns, tensors ? &tt : NULL, &gen);
		for (i = 0; i < in.njob; i++) {
			const struct sb_alloc_job *jb = &in.job[i];
			int s, fits = 0;
			for (s = 0; s < in.nserver && !fits; s++)
				fits = jb->wdem[0] <= in.cap[s][0] &&
				       jb->wdem[1] + (jb->mode == SB_ALLOC_PS) * jb->pdem[1] <= in.cap[s][1];
			if (!fits) {
				fprintf(stderr, "error: eval alloc: job %d (%s): one worker%s needs more "
					"than any server of the cluster has\n", i, jb->model,
					jb->mode == SB_ALLOC_PS ? " and its PS" : "");
				rc = SB_EXIT_INPUT;
				goto out;
			}
		}
	} else {
		g.njob = (int)ngen;
		sb_alloc_gen(&in, &g, &ty, NULL, 0, tensors ? &tt : NULL, &gen);
		if (cluster) {
			sb_free(in.cap);
			in.cap = cap;
			in.nserver = ns;
			cap = NULL;
		}
	}
	if (slots <= 0) {
		/* no horizon given: room for every job after the last arrival */
		in.nslot = in.njob ? in.job[in.njob - 1].arrival + 20000 : 1;
	}
	rc = sb_alloc_run(&in, p, &o, &rng, &r, &err);
	if (rc) {
		sb_err_print(&err);
		goto out;
	}
	printf("source: %s\njobs: %d\nservers: %d\nslots: %d\npolicy: %s\nobjective: %s\n",
	       in.source, in.njob, in.nserver, r.nslot, p->name, sb_alloc_util_name(in.util));
	printf("utility: %.10g\njct_mean: %.10g\nflow_slots: %.10g\nunfinished: %d\n"
	       "local_fraction: %.6f\nvalid: yes\n", r.utility, r.jct_mean, r.flow_slots,
	       r.unfinished, r.job_slots ? (double)r.local_slots / r.job_slots : 0);
	if (ea.bound) {
		struct sb_alloc_bound b;
		if ((rc = sb_alloc_bound(&in, 0, &b, &err))) {
			sb_err_print(&err);
		} else {
			double alg = in.util == SB_ALLOC_JCT ? r.flow_slots : r.utility;
			printf("bound_model: %s\nbound_status: %s\nbound: %.10g\n", b.model,
			       b.status, b.bound);
			if (b.has_incumbent)
				printf("bound_incumbent: %.10g\n", b.incumbent);
			printf("ratio_bound: %.6f\n", b.bound != 0 ? alg / b.bound : NAN);
		}
	}
	if (!rc && ea.schedule_out)
		rc = write_grants(ea.schedule_out, &r);
	sb_alloc_result_release(&r);
out:
	sb_alloc_inst_release(&in);
	sb_free(rows);
	sb_free(cap);
	sb_tensor_table_release(&tt);
	return rc;
}

static const char *const roles[] = { "alloc_policy", NULL };

const struct sb_family sb_family_alloc = {
	.name = "alloc",
	.desc = "time-slotted elastic allocation of GPUs, workers and PSs (GADGET, SMD, PS-locality)",
	.roles = roles,
	.eval_usage = "(--jobs FILE.csv | --gen N [--mode rar|ps]) [--cluster FILE.csv | "
		      "--servers N --gpus G --cpus C] [--util exc|ene|fair|jct] [--slots T] "
		      "[--slot-s S] [--eta E] [--types dl2_job_types.csv] [--tensors FILE]",
	.eval = sb_alloc_eval,
	.list = list,
	.adversary = &sb_alloc_adversary,
};
