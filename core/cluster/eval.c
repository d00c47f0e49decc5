/*
 * eval.c - `sb eval cluster`: run one scheduler (+ placer) on a job
 * set a user brings, check the run, and print its metrics and lower bounds
 * as key: value lines.
 *
 *   sb eval cluster --jobs FILE.csv --cluster sim128 --policy asrpt [--bound]
 *   sb eval cluster --w1 1000 --load 0.8 --cluster sim128 --policy tiresias
 *   sb eval cluster --tiresias data/tiresias/60_job.csv --cluster testbed --policy fifo
 *   sb eval cluster --philly data/philly/jobs.json --cluster sim512 --load 0.8 ...
 *   sb eval cluster --tiresias data/tiresias/60_job.csv --cluster tiresias64 --replay \
 *           --history data/tiresias/yarn-gput1000.csv --policy tiresias-gittins
 *   options: --seed N, --set [sched.|place.]key=value, --b-out GBPS,
 *            --restart SECONDS, --additive, --warmup FRACTION,
 *            --replay (trace replay, Tiresias' simulator semantics),
 *            --history FILE (GPU-seconds of past jobs, column 'duration'),
 *            --schedule-out FILE (one line per run segment)
 *
 * Topology-and-interference mode (spec marl.md; cluster/interf.h):
 *   sb eval cluster --topo T1 --marl 200 --load 0.7 --policy agents+greedy-interf \
 *           [--agents 2] [--interference on|off] [--types dl2_job_types.csv] [--bound]
 *   sb eval cluster --topo T1 --philly jobs.json --runtimes philly_runtime.csv ...
 *   --topo T0|T1|T2|T3|FILE, --marl N (synthetic Philly-like jobs), --agents N
 *   (the agents scheduler's count), --interference on|off, --types FILE (DL2
 *   job types; default the built-in table), --weights FILE (a learned marl
 *   placer's weights from a marl_train results file), --pred-epochs N (training of the
 *   learned slowdown model greedy-interf uses; default 60).
 */
#include "cluster.h"
#include "bound.h"
#include "family.h"
#include "workloads/cluster/jobs.h"
#include "workloads/cluster/trace.h"
#include "workloads/cluster/marl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --set goes to the scheduler or placer that declares the key; "sched."
 * or "place." picks one explicitly. */
static int apply_set(const struct sb_cluster_combo *c, struct sb_opts *so, struct sb_opts *po,
		     const char *kv, struct sb_err *err)
{
	struct sb_opts_owner a = { "scheduler", "sched.", c->sched->name, c->sched->params, so };
	struct sb_opts_owner b = { "placer", "place.", c->place->name, c->place->params, po };
	return sb_opts_route(kv, "--set", &a, &b, err);
}

static int write_segments(const char *path, const struct sb_jobset *js,
			  const struct sb_cluster_result *r, struct sb_err *err)
{
	FILE *f = fopen(path, "w");
	int k, v;
	if (!f)
		return sb_err_set(err, SB_EXIT_RUN, "cannot write '%s'", path);
	fprintf(f, "job,start,end,overhead,iters,tau,cut_bytes,preempted,gpus\n");
	for (k = 0; k < r->nseg; k++) {
		const struct sb_cluster_seg *sg = &r->seg[k];
		fprintf(f, "%d,%.10g,%.10g,%.10g,%ld,%.10g,%.10g,%d,", sg->job, sg->start, sg->end,
			sg->overhead, sg->iters, sg->tau, sg->cut, sg->preempted);
		for (v = 0; v < js->job[sg->job].gpus; v++)
			fprintf(f, "%s%d", v ? ";" : "", r->gpu[sg->gpu_off + v]);
		fputc('\n', f);
	}
	if (fclose(f) != 0)
		return sb_err_set(err, SB_EXIT_RUN, "cannot write '%s'", path);
	return 0;
}

static const char *const flag_opts[] = { "--additive", "--replay", NULL };
static const char *const value_opts[] = { "--jobs", "--tiresias", "--philly", "--cluster",
					   "--w1", "--load", "--b-out", "--restart", "--warmup",
					   "--history", "--topo", "--marl", "--agents", "--interference",
					   "--types", "--runtimes", "--pred-epochs", "--weights", NULL };

/* Options of the topology-and-interference mode. */
struct topo_opts {
	const char *topo, *types, *runtimes, *interference;
	int marl, agents, pred_epochs;
	const char *weights;      /* results file of a learned placer's training */
};


/* `sb eval cluster --topo ...`: the topology-and-interference mode. */
static int eval_topo(const struct sb_eval_args *ea, const struct topo_opts *to,
		     const char *phil, double load, double warmup)
{
	struct sb_marl_env *env = SB_NEW(struct sb_marl_env, 1);
	struct sb_interf_pred *pred = NULL;
	struct sb_cluster_combo combo;
	struct sb_opts so, po;
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_cluster_metrics m;
	struct sb_err err = { 0, "" };
	struct sb_rng gr = sb_rng_stream(ea->seed, 0, 0, SB_RNG_INSTANCE);
	double mape = -1, train_mape = -1;
	char why[512];
	int rc, i, have_js = 0, have_r = 0;

	memset(&r, 0, sizeof r);
	if ((rc = sb_marl_env_init(env, to->topo, to->types,
				   !to->interference || !strcmp(to->interference, "on"),
				   ea->seed, &err)) != 0)
		goto fail;
	if ((rc = sb_cluster_combo_parse(&combo, ea->policy, &err)) != 0)
		goto fail;
	sb_opts_defaults(&so, combo.sched->params);
	sb_opts_defaults(&po, combo.place->params);
	for (i = 0; i < ea->nset; i++)
		if ((rc = apply_set(&combo, &so, &po, ea->sets[i], &err)) != 0)
			goto fail;
	if (to->agents) {
		char kv[32];
		if (strcmp(combo.sched->name, "agents")) {
			rc = sb_eval_fail(&sb_family_cluster, "--agents applies to the agents "
					  "scheduler, not to '%s'", combo.sched->name);
			goto out;
		}
		snprintf(kv, sizeof kv, "agents=%d", to->agents);
		if ((rc = sb_opts_set(&so, combo.sched->params, kv, "--agents", &err)) != 0)
			goto fail;
	}
	/* a learned placer runs from the weights of a training run */
	if (to->weights && !combo.place->load_weights) {
		rc = sb_eval_fail(&sb_family_cluster, "--weights: placer '%s' has no trained weights "
				  "(it applies to the learned marl placers)", combo.place->name);
		goto out;
	}
	if (to->weights && (rc = combo.place->load_weights(to->weights, &err)) != 0)
		goto fail;
	/* the myopic ILP is for small clusters (spec §7); its init would stop
	 * the run as a bug */
	if (!strcmp(combo.sched->name, "myopic-ilp") && env->cl.nserver > 8) {
		rc = sb_eval_fail(&sb_family_cluster, "myopic-ilp places on at most 8 servers "
				  "(topology '%s' has %d): use --topo T0 or a small topology file",
				  env->topo.name, env->cl.nserver);
		goto out;
	}
	/* the mode's own scheduler is non-preemptive and the checker holds
	 * it to that; the family's others (Tiresias) may preempt, and then
	 * migrate, paying the restart overhead */
	env->interf.migrate = !combo.sched->topo;
	if (phil) {
		struct sb_marl_gen gp;
		sb_marl_gen_defaults(&gp);
		gp.njobs = to->marl ? to->marl : 200;
		gp.load = load > 0 ? load : 0.7;
		if (!to->runtimes) {
			rc = sb_eval_fail(&sb_family_cluster, "%s", "--philly with --topo needs "
					  "--runtimes philly_runtime.csv (the trace-derived variant)");
			goto out;
		}
		if ((rc = sb_marl_from_philly(env, &gp, phil, to->runtimes, &gr, &js, &err)) != 0)
			goto fail;
	} else {
		struct sb_marl_gen gp;
		sb_marl_gen_defaults(&gp);
		gp.njobs = to->marl ? to->marl : 200;
		gp.load = load > 0 ? load : 0.7;
		sb_marl_generate(env, &gp, &gr, &js);
	}
	have_js = 1;
	if (combo.place->topo == 2 && to->pred_epochs > 0) {
		struct sb_interf_pred_params pp;
		sb_interf_pred_defaults(&pp);
		pp.epochs = to->pred_epochs;
		pp.seed = ea->seed;
		pred = sb_interf_pred_train(&env->interf, &pp, &mape, &train_mape);
		env->interf.pred = pred;
	}
	if ((rc = sb_cluster_simulate(&env->cl, &js, &combo, &so, &po, ea->seed, &r, &err)) != 0)
		goto fail;
	have_r = 1;
	if (sb_cluster_check(&env->cl, &js, &r, why, sizeof why) != 0) {
		fprintf(stderr, "error: the run of %s failed validation: %s\n", combo.label, why);
		rc = SB_EXIT_RUN;
		goto out;
	}
	sb_cluster_metrics(&env->cl, &js, &r, (int)floor(warmup * js.n), &m);
	printf("jobs: %d\ncluster: %s (%d x %d GPUs)\nmode: topology and interference "
	       "(marl.md, reconstructed)\npolicy: %s\nsource: %s\ninterference: %s\n",
	       js.n, env->cl.name, env->cl.nserver, env->cl.gpus, combo.label, js.source,
	       env->interf.on ? "on" : "off");
	if (pred)
		printf("predictor_mape_percent: %.6f\npredictor_train_mape_percent: %.6f\n", mape,
		       train_mape);
	printf("measured_jobs: %d\njct_mean: %.10g\njct_p50: %.10g\njct_p95: %.10g\n"
	       "jct_p99: %.10g\nqueue_mean: %.10g\nmakespan: %.10g\nutilisation: %.6f\n"
	       "interference_slowdown_mean: %.6f\npreemptions: %ld\nevents: %ld\n"
	       "decisions: %ld\nsim_seconds: %.6f\npolicy_seconds: %.6f\nload_offered: %.6f\n"
	       "valid: yes\n", m.n, m.jct_mean, m.jct_p50, m.jct_p95, m.jct_p99, m.queue_mean,
	       m.makespan, m.util, sb_cluster_interf_slowdown(&js, &r), m.preemptions, r.events,
	       r.decisions, r.sim_seconds, r.sched_seconds, m.load_ref);
	if (ea->bound) {
		/* spec §7: LB1 and, on traces of up to 60 jobs, the preemptive
		 * time-indexed LP (slots of 60 s), both with isolated
		 * best-locality durations; average JCT bound and gap */
		double *tl = SB_NEW(double, js.n), lb1, lb2 = NAN, asum = 0, last = 0, lb;
		struct sb_lp_result lres;
		sb_cluster_tau_lb(&env->cl, &js, tl);
		lb1 = sb_cluster_lb1(&env->cl, &js, tl);
		for (i = 0; i < js.n; i++) {
			asum += js.job[i].arrival;
			last = sb_max(last, r.finish[i]);
		}
		if (js.n <= 60) {
			int slots = (int)ceil(last / 60);
			if ((rc = sb_cluster_lb2(&env->cl, &js, tl, slots * 60.0, slots, 0, &lb2, &lres,
						 &err)) != 0) {
				sb_free(tl);
				goto fail;
			}
			printf("lb2_status: %s\n", sb_lp_status_name(lres.status));
			sb_lp_result_release(&lres);
		} else {
			printf("lb2_status: skipped (more than 60 jobs; marl.md §7 bounds 40-job traces)\n");
		}
		sb_free(tl);
		lb = ((isnan(lb2) ? lb1 : sb_max(lb1, lb2)) - asum) / js.n;
		printf("lb_jct_mean: %.10g\nratio_lb: %.6f\n", lb, m.jct_mean / lb);
	}
	if (ea->schedule_out && (rc = write_segments(ea->schedule_out, &js, &r, &err)))
		sb_err_print(&err);
	goto out;
fail:
	sb_err_print(&err);
out:
	if (have_r)
		sb_cluster_result_release(&r);
	if (have_js)
		sb_jobset_release(&js);
	sb_interf_pred_free(pred);
	sb_marl_env_release(env);
	sb_free(env);
	return rc;
}

int sb_cluster_eval(int argc, char **argv)
{
	const char *jobs = NULL, *tir = NULL, *phil = NULL, *policy, *cname = "sim128", *seg_out;
	const char *hist = NULL;
	int bound, additive = 0, replay = 0, w1 = 0, i, rc, first;
	double load = -1, bout = -1, restart = -1, warmup = 0, x;
	unsigned long long seed;
	struct sb_eval_args ea;
	struct sb_cluster cl;
	struct sb_jobset js;
	struct sb_cluster_combo combo;
	struct sb_opts so, po;
	struct sb_cluster_result r;
	struct sb_cluster_metrics m;
	struct sb_err err = { 0, "" };
	char why[512];
	struct topo_opts to = { NULL, NULL, NULL, NULL, 0, 0, 60, NULL };

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		if ((rc = sb_eval_next(&sb_family_cluster, &ea, argc, argv, &i, flag_opts, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!strcmp(a, "--additive")) { additive = 1; continue; }
		if (!strcmp(a, "--replay")) { replay = 1; continue; }
		if (!strcmp(a, "--jobs")) jobs = v;
		else if (!strcmp(a, "--tiresias")) tir = v;
		else if (!strcmp(a, "--philly")) phil = v;
		else if (!strcmp(a, "--cluster")) cname = v;
		else if (!strcmp(a, "--history")) hist = v;
		else if (!strcmp(a, "--topo")) to.topo = v;
		else if (!strcmp(a, "--types")) to.types = v;
		else if (!strcmp(a, "--runtimes")) to.runtimes = v;
		else if (!strcmp(a, "--weights")) to.weights = v;
		else if (!strcmp(a, "--interference")) {
			if (strcmp(v, "on") && strcmp(v, "off"))
				return sb_eval_fail(&sb_family_cluster, "--interference '%s': expected on or off", v);
			to.interference = v;
		} else if (!strcmp(a, "--marl") || !strcmp(a, "--agents") || !strcmp(a, "--pred-epochs")) {
			if (sb_eval_num(&sb_family_cluster, a, v, a[2] == 'p' ? 0 : 1,
					a[2] == 'a' ? 64 : 1e6, &x)) return SB_EXIT_INPUT;
			*(a[2] == 'm' ? &to.marl : a[2] == 'a' ? &to.agents : &to.pred_epochs) = (int)x;
		}
		else if (!strcmp(a, "--w1")) {
			if (sb_eval_num(&sb_family_cluster, a, v, 1, 1e7, &x)) return SB_EXIT_INPUT;
			w1 = (int)x;
		} else if (!strcmp(a, "--load")) {
			if (sb_eval_num(&sb_family_cluster, a, v, 0.01, 10, &load)) return SB_EXIT_INPUT;
		} else if (!strcmp(a, "--b-out")) {
			if (sb_eval_num(&sb_family_cluster, a, v, 1e-6, 1e6, &bout)) return SB_EXIT_INPUT;
		} else if (!strcmp(a, "--restart")) {
			if (sb_eval_num(&sb_family_cluster, a, v, 0, 1e6, &restart)) return SB_EXIT_INPUT;
		} else {
			if (sb_eval_num(&sb_family_cluster, a, v, 0, 0.99, &warmup)) return SB_EXIT_INPUT;
		}
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_cluster, &err);
	policy = ea.policy;
	seg_out = ea.schedule_out;
	seed = ea.seed;
	bound = ea.bound;
	if (to.topo)
		return eval_topo(&ea, &to, phil, load, warmup);
	if (to.marl || to.agents || to.interference || to.types || to.runtimes || to.weights)
		return sb_eval_fail(&sb_family_cluster, "%s", "--marl, --agents, --interference, "
				    "--types, --runtimes and --weights need --topo (the topology mode)");
	if ((jobs != NULL) + (tir != NULL) + (phil != NULL) + (w1 > 0) != 1)
		return sb_eval_fail(&sb_family_cluster, "%s", "give one job set: --jobs, --w1, --tiresias or --philly");
	/* --load scales the arrivals of a generated (--w1) or resampled (--philly)
	 * job set; a job file or the Tiresias trace keeps its own arrivals */
	if (load > 0 && (jobs || tir))
		return sb_eval_fail(&sb_family_cluster, "--load applies to --w1 and --philly, not to %s: the file's arrivals "
			     "are used as they are", jobs ? "--jobs" : "--tiresias");
	if (sb_cluster_named(cname, &cl, &err) ||
	    sb_cluster_combo_parse(&combo, policy, &err)) {
		sb_err_print(&err);
		return SB_EXIT_INPUT;
	}
	if (bout > 0)
		cl.b_out = bout * 1e9;
	if (restart >= 0)
		cl.restart = restart;
	cl.additive = additive;
	cl.replay = replay;
	sb_opts_defaults(&so, combo.sched->params);
	sb_opts_defaults(&po, combo.place->params);
	for (i = 0; i < ea.nset; i++)
		if (apply_set(&combo, &so, &po, ea.sets[i], &err)) {
			sb_err_print(&err);
			return SB_EXIT_INPUT;
		}
	if (sb_cluster_validate(&cl, &err)) {
		sb_err_print(&err);
		return SB_EXIT_INPUT;
	}
	if (jobs || tir || phil) {
		struct sb_trace t;
		struct sb_rng gr = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);
		if (jobs) {
			rc = sb_load_jobs_csv(jobs, &js, &err);
			if (!rc && (rc = sb_jobset_validate(&js, &cl, &err)) != 0) {
				sb_err_prefix(&err, "job set '%s': ", jobs);
				sb_jobset_release(&js);
			}
		} else {
			rc = tir ? sb_load_tiresias_jobs(tir, &t, &err) : sb_load_philly_jobs(phil, &t, &err);
			if (!rc)
				rc = tir ? sb_w3_from_trace(&t, &cl, replay ? SB_W3_REPLAY
							    : SB_W3_DURATION, &js, &err)
					 : sb_w2_from_trace(&t, &cl, load, &gr, &js, &err);
			if (!rc || tir || phil)
				sb_trace_release(&t);
		}
		if (rc) {
			sb_err_print(&err);
			return rc;
		}
	} else {
		struct sb_w1_params wp;
		struct sb_rng gr = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);
		sb_w1_defaults(&wp);
		wp.njobs = w1;
		wp.load = load > 0 ? load : 0.8;
		sb_w1_generate(&js, &wp, &cl, &gr);
	}
	if (hist && (rc = sb_load_values(hist, "duration", &js.hist, &js.nhist, &err)) != 0) {
		sb_err_print(&err);
		sb_jobset_release(&js);
		return rc;
	}
	rc = sb_cluster_simulate(&cl, &js, &combo, &so, &po, seed, &r, &err);
	if (rc) {
		sb_err_print(&err);
		sb_jobset_release(&js);
		return rc;
	}
	if (sb_cluster_check(&cl, &js, &r, why, sizeof why) != 0) {
		fprintf(stderr, "error: the run of %s failed validation: %s\n", combo.label, why);
		rc = SB_EXIT_RUN;
		goto out;
	}
	first = (int)floor(warmup * js.n);
	sb_cluster_metrics(&cl, &js, &r, first, &m);
	printf("jobs: %d\ncluster: %s (%d x %d GPUs)\nmode: %s\npolicy: %s\nsource: %s\n", js.n,
	       cl.name, cl.nserver, cl.gpus, replay ? "trace replay (Tiresias' simulator)" :
	       "placement model", combo.label, js.source);
	printf("measured_jobs: %d\njct_mean: %.10g\njct_p50: %.10g\njct_p95: %.10g\n"
	       "jct_p99: %.10g\nqueue_mean: %.10g\nmakespan: %.10g\nutilisation: %.6f\n"
	       "total_completion: %.10g\ninter_server_bytes: %.10g\nslowdown_mean: %.6f\n"
	       "preemptions: %ld\nevents: %ld\ndecisions: %ld\nsim_seconds: %.6f\n"
	       "policy_seconds: %.6f\nload_offered: %.6f\nload_effective: %.6f\n"
	       "idle_fit: %.6f\nspread: %.6f\nvalid: yes\n", m.n, m.jct_mean, m.jct_p50,
	       m.jct_p95, m.jct_p99, m.queue_mean, m.makespan, m.util, m.total_completion,
	       m.inter_bytes, m.slowdown_mean, m.preemptions, r.events, r.decisions,
	       r.sim_seconds, r.sched_seconds, m.load_ref, m.load_eff, m.idle_fit, m.spread);
	/* the policy's own work (sb_cluster_sim_work), when it counts any */
	if (r.work_what)
		printf("work: %ld %s\n", r.work, r.work_what);
	if (bound) {
		double lb1 = sb_cluster_lb1(&cl, &js, r.tau_lb), total = 0;
		for (i = 0; i < js.n; i++)
			total += r.finish[i];
		printf("lb1_total_completion: %.10g\nratio_lb1: %.6f\n", lb1, total / lb1);
	}
	if (seg_out && (rc = write_segments(seg_out, &js, &r, &err)))
		sb_err_print(&err);
out:
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
	return rc;
}
