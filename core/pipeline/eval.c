/*
 * eval.c - `sb eval pipeline`: plan one model on one topology with a
 * registered planner, simulate one synchronous iteration under a schedule,
 * check the timeline, and print the plan and its metrics (and, with
 * --bound, lower bounds and the gap) as key: value lines.
 *
 *   sb eval pipeline --model bert-48 --topo config-a --batch 64 --policy dapple
 *   sb eval pipeline --dapple data/dapple/vgg-19-pbs-32.txt --topo 4x4-pcie-10gbe \
 *                    --batch 256 --microbatches 16 --policy sppr+1f1b --bound
 *   sb eval pipeline --pipedream graph.txt --pbs 64 --random-topo 16 --seed 3 ...
 *   sb eval pipeline --pipedream graph.txt --pbs 64 --topo 4x8:25e9:3e9 ...
 *                    (4 servers x 8 GPUs, PipeDream's -n 8 4 -b 25e9 3e9)
 *   options: --mem GB, --kappa K, --set [plan.|sched.]key=value,
 *            --schedule-out FILE (the timeline, one line per task or transfer),
 *            --opt (tiny instances: the exact optimum of the MILP's plan
 *            space by enumeration, and the gap to it)
 */
#include "pipeline.h"
#include "bound.h"
#include "family.h"
#include "workloads/pipeline/load.h"
#include "rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int write_timeline(const char *path, const struct sb_pipeline_result *r, struct sb_err *err)
{
	FILE *f = fopen(path, "w");
	int e;
	if (!f)
		return sb_err_set(err, SB_EXIT_RUN, "cannot write '%s'", path);
	fprintf(f, "copy,stage,link,kind,microbatch,start,end\n");
	for (e = 0; e < r->nev; e++) {
		const struct sb_pipeline_event *ev = &r->ev[e];
		fprintf(f, "%d,%d,%d,%s,%d,%.10g,%.10g\n", ev->copy, ev->stage, ev->link,
			ev->stage >= 0 ? (ev->kind == SB_PIPELINE_F ? "F" : "B")
				       : (ev->kind == SB_PIPELINE_F ? "act" : "grad"),
			ev->mb, ev->start, ev->end);
	}
	if (fclose(f) != 0)
		return sb_err_set(err, SB_EXIT_RUN, "cannot write '%s'", path);
	return 0;
}

static const char *const flag_opts[] = { "--opt", NULL };
static const char *const value_opts[] = { "--model", "--dapple", "--pipedream", "--topo",
					   "--pbs", "--random-topo", "--batch", "--microbatches",
					   "--mem", "--kappa", NULL };

int sb_pipeline_eval(int argc, char **argv)
{
	const char *model = NULL, *dapple = NULL, *pdream = NULL, *topo = NULL, *policy, *out;
	int bound, opt = 0, i, rc, rtopo = 0;
	double batch = -1, x, mem = -1, kappa = 2, pbs = -1, mbs = 0;
	unsigned long long seed;
	struct sb_eval_args ea;
	struct sb_pmodel m;
	struct sb_topo t;
	struct sb_pipeline_plan plan;
	struct sb_pipeline_result r;
	struct sb_pipeline_problem pb;
	struct sb_opts po, so;
	struct sb_err err = { 0, "" };
	const struct sb_pipeline_planner *pl;
	const struct sb_pipeline_schedule *sc;
	char pname[64], buf[4096];
	const char *plus;

	memset(&m, 0, sizeof m);
	memset(&t, 0, sizeof t);
	memset(&plan, 0, sizeof plan);
	memset(&r, 0, sizeof r);
	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		if ((rc = sb_eval_next(&sb_family_pipeline, &ea, argc, argv, &i, flag_opts, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!strcmp(a, "--opt")) { opt = 1; continue; }
		if (!strcmp(a, "--model")) model = v;
		else if (!strcmp(a, "--dapple")) dapple = v;
		else if (!strcmp(a, "--pipedream")) pdream = v;
		else if (!strcmp(a, "--topo")) topo = v;
		else if (!strcmp(a, "--pbs")) {
			if (sb_eval_num(&sb_family_pipeline, a, v, 1, 1e6, &pbs)) return SB_EXIT_INPUT;
		} else if (!strcmp(a, "--random-topo")) {
			if (sb_eval_num(&sb_family_pipeline, a, v, 1, 256, &x)) return SB_EXIT_INPUT;
			rtopo = (int)x;
		} else if (!strcmp(a, "--batch")) {
			if (sb_eval_num(&sb_family_pipeline, a, v, 1, 1e9, &batch)) return SB_EXIT_INPUT;
		} else if (!strcmp(a, "--microbatches")) {
			if (sb_eval_num(&sb_family_pipeline, a, v, 1, 1e6, &mbs)) return SB_EXIT_INPUT;
		} else if (!strcmp(a, "--mem")) {
			if (sb_eval_num(&sb_family_pipeline, a, v, 0.001, 1e6, &mem)) return SB_EXIT_INPUT;
		} else {
			if (sb_eval_num(&sb_family_pipeline, a, v, 1, 64, &kappa)) return SB_EXIT_INPUT;
		}
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_pipeline, &err);
	policy = ea.policy;
	out = ea.schedule_out;
	seed = ea.seed;
	bound = ea.bound;
	if (!!model + !!dapple + !!pdream != 1)
		return sb_eval_fail(&sb_family_pipeline, "give exactly one of --model, --dapple, --pipedream");
	if (pdream && pbs < 0)
		return sb_eval_fail(&sb_family_pipeline, "--pipedream needs --pbs (the profile's batch size)");
	if (!!topo + !!rtopo != 1)
		return sb_eval_fail(&sb_family_pipeline, "give exactly one of --topo, --random-topo");
	if (batch < 0)
		return sb_eval_fail(&sb_family_pipeline, "--batch is required");
	if (mbs > batch) {
		snprintf(buf, sizeof buf, "--microbatches %g is more than --batch %g: each "
			 "microbatch needs at least one sample", mbs, batch);
		return sb_eval_fail(&sb_family_pipeline, "%s", buf);
	}
	plus = strchr(policy, '+');
	snprintf(pname, sizeof pname, "%.*s", plus ? (int)(plus - policy) : (int)strlen(policy),
		 policy);
	pl = sb_pipeline_planner_find(pname);
	if (!pl) {
		fprintf(stderr, "error: eval pipeline: --policy '%s': '%s' is not a registered "
			"pipeline planner (sb list pipeline)\n", policy, pname);
		return SB_EXIT_INPUT;
	}
	sc = plus ? sb_pipeline_schedule_find(plus + 1) : NULL;
	if (plus && !sc) {
		fprintf(stderr, "error: eval pipeline: --policy '%s': '%s' is not a registered "
			"pipeline schedule (sb list pipeline)\n", policy, plus + 1);
		return SB_EXIT_INPUT;
	}

	if (model)
		rc = sb_analytic_model(model, &m, &err);
	else if (dapple)
		rc = sb_load_dapple_profile(dapple, &m, &err);
	else
		rc = sb_load_pipedream_profile(pdream, (int)pbs, &m, &err);
	if (rc)
		goto fail;
	if (topo) {
		rc = sb_topo_named(topo, &t, &err);
		if (rc) {
			struct sb_err e2 = err;
			sb_err_set(&err, rc, "eval pipeline: --topo: %s", e2.msg);
			goto fail;
		}
	} else {
		struct sb_rng rng;
		sb_rng_seed(&rng, seed, 0);
		sb_topo_random(&t, rtopo, &rng);
	}
	if (mem > 0)
		t.mem = mem * 1e9;
	/* --opt enumerates every plan: refuse too large an instance before
	 * planning it (M, when the planner chooses it, is checked again) */
	if (opt && (m.n > SB_PIPELINE_MILP_MAX_L || t.n > SB_PIPELINE_MILP_MAX_N ||
		    mbs > SB_PIPELINE_MILP_MAX_M)) {
		rc = sb_err_set(&err, SB_EXIT_INPUT, "eval pipeline: --opt: %d layers, %d GPUs, "
				"%g microbatches is too large for the exact optimum (at most %d, "
				"%d, %d)", m.n, t.n, mbs, SB_PIPELINE_MILP_MAX_L,
				SB_PIPELINE_MILP_MAX_N, SB_PIPELINE_MILP_MAX_M);
		goto fail;
	}

	sb_opts_defaults(&po, pl->params);
	sb_opts_defaults(&so, NULL);
	if (sc)
		sb_opts_defaults(&so, sc->params);
	for (i = 0; i < ea.nset; i++) {
		struct sb_opts_owner a = { "planner", "plan.", pl->name, pl->params, &po };
		struct sb_opts_owner b = { "schedule", "sched.", sc ? sc->name : "(the planner's)",
					   sc ? sc->params : NULL, &so };
		rc = sb_opts_route(ea.sets[i], "--set", &a, &b, &err);
		if (rc)
			goto fail;
	}
	memset(&pb, 0, sizeof pb);
	pb.model = &m;
	pb.topo = &t;
	pb.batch = batch;
	pb.M = (int)mbs;
	pb.kappa = kappa;
	pb.sched = sc;
	rc = pl->plan(&pb, &po, &plan, &err);
	if (rc)
		goto fail;
	if (plan.kappa <= 0)
		plan.kappa = kappa;
	if (!sc) {
		sc = sb_pipeline_schedule_find(plan.schedule[0] ? plan.schedule : pl->schedule);
		if (!sc) {
			rc = sb_err_set(&err, SB_EXIT_RUN, "planner %s names schedule '%s', which is "
					"not registered", pl->name, plan.schedule[0] ? plan.schedule
					: pl->schedule);
			goto fail;
		}
		sb_opts_defaults(&so, sc->params);
	}
	rc = sb_pipeline_evaluate(&plan, &m, &t, sc, &so, &r, &err);
	if (rc)
		goto fail;
	sb_pipeline_plan_format(&plan, buf, sizeof buf);
	printf("model: %s (%d layers; %s)\n", m.name, m.n, m.source);
	printf("topology: %s (%d GPUs, %d servers, %.4g GB each)\n", t.name, t.n, t.nserver,
	       t.mem / 1e9);
	printf("planner: %s\n", pl->name);
	printf("schedule: %s\n", sc->name);
	printf("plan: %s\n", buf);
	if (plan.model)
		printf("plan_layers: the plan's own linearisation of the graph, one layer per "
		       "stage (its cuts are not cuts of the loaded chain)\n");
	printf("batch: %g\n", plan.batch);
	printf("microbatches: %d\n", plan.M);
	printf("iteration_time_s: %.9g\n", r.iter_time);
	printf("throughput_samples_per_s: %.9g\n", r.throughput);
	printf("bubble_fraction: %.6f\n", r.bubble);
	printf("peak_memory_gb: %.6g\n", r.peak_mem / 1e9);
	printf("fits_memory: %s\n", r.fits ? "yes" : "no");
	printf("checker: ok\n");
	if (plan.objective > 0)
		printf("planner_objective_s: %.12g (the planner's own prediction per minibatch of "
		       "%g samples)\n", plan.objective, plan.objective_batch);
	if (bound) {
		struct sb_pipeline_lb_parts parts;
		double lbp = sb_pipeline_lb_plan(&plan, &m, &t, &parts);
		/* a plan on its own linearisation of the graph is bounded on it */
		double lb = sb_pipeline_lb_problem(sb_pipeline_plan_model(&plan, &m), &t, plan.batch,
						   plan.M);
		printf("lb_plan_s: %.9g (stages %.6g, links %.6g, one microbatch %.6g)\n", lbp,
		       parts.stage, parts.link, parts.chain);
		printf("gap_to_lb_plan: %.6f\n", r.iter_time / lbp - 1);
		printf("lb_any_plan_s: %.9g\n", lb);
		printf("gap_to_lb_any_plan: %.6f\n", r.iter_time / lb - 1);
	}
	if (opt) {
		/* the MILP's plan space: one copy, no re-computation, the plan's
		 * overlap; a node limit keeps the answer machine-independent */
		struct sb_pipeline_milp_opts mo;
		struct sb_pipeline_enum_result er;
		struct sb_pipeline_problem ep = pb;
		memset(&mo, 0, sizeof mo);
		mo.node_limit = 20000;
		mo.time_limit = 600;
		mo.overlap = plan.overlap;
		ep.M = plan.M;
		rc = sb_pipeline_enumerate(&ep, &mo, &er, &err);
		if (rc)
			goto fail;
		printf("opt_s: %.9g (%s; %ld plans, %ld pruned by their bound)\n", er.best,
		       er.exact ? "proven" : "best found: a scheduling MILP stopped at its node "
		       "limit", er.plans, er.pruned);
		printf("gap_to_opt: %.6f%s\n", r.iter_time / er.best - 1,
		       plan.copies == 1 && !plan.recompute ? "" : " (this plan lies outside the "
		       "MILP's space: one copy, no re-computation)");
		sb_pipeline_enum_result_release(&er);
	}
	if (out) {
		rc = write_timeline(out, &r, &err);
		if (rc)
			goto fail;
	}
	rc = 0;
	goto done;
fail:
	fprintf(stderr, "error: %s\n", err.msg);
done:
	sb_pipeline_result_release(&r);
	sb_pipeline_plan_release(&plan);
	sb_topo_release(&t);
	sb_pmodel_release(&m);
	return rc;
}
