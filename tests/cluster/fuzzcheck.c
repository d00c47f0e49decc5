/*
 * fuzzcheck.c - the cluster family's checks of accepted inputs for the
 * libFuzzer harnesses (fuzzcheck.h).
 */
#include "tests/cluster/fuzzcheck.h"

#include <math.h>
#include <string.h>

#include "cluster/bound.h"
#include "tests/fuzzkit.h"
#include "workloads/cluster/jobs.h"

void sb_fuzz_cluster(struct sb_cluster *cl)
{
	struct sb_err err = { 0, "" };

	SB_FUZZ_CHECK(sb_cluster_named("testbed", cl, &err) == 0, "%s", err.msg);
}

void sb_fuzz_cluster_trace(const struct sb_trace *t)
{
	int i, k;

	SB_FUZZ_CHECK(t->n > 0 && t->ndropped >= 0, "%d jobs, %d dropped", t->n, t->ndropped);
	SB_FUZZ_CHECK(memchr(t->drop_note, '\0', sizeof t->drop_note) &&
		      (t->ndropped > 0) == (t->drop_note[0] != '\0'), "drop note");
	SB_FUZZ_CHECK(t->job[0].submit == 0, "first submit %g", t->job[0].submit);
	for (i = 0; i < t->n; i++) {
		const struct sb_trace_job *x = &t->job[i];
		SB_FUZZ_CHECK(isfinite(x->submit) && x->submit >= 0, "job %d: submit %g", i,
			      x->submit);
		SB_FUZZ_CHECK(i == 0 || x->submit >= t->job[i - 1].submit, "job %d: not sorted", i);
		SB_FUZZ_CHECK(x->gpus >= 1, "job %d: %d GPUs", i, x->gpus);
		SB_FUZZ_CHECK(isfinite(x->runtime) && x->runtime != 0, "job %d: runtime %g", i,
			      x->runtime);
		SB_FUZZ_CHECK(x->iters >= 1 || x->iters == -1, "job %d: iters %ld", i, x->iters);
		SB_FUZZ_CHECK(x->attempts >= 1, "job %d: attempts %d", i, x->attempts);
		SB_FUZZ_CHECK(x->id[0] && memchr(x->id, '\0', sizeof x->id), "job %d: id", i);
		SB_FUZZ_CHECK(memchr(x->model, '\0', sizeof x->model) != NULL, "job %d: model", i);
	}
	for (i = 0; i < t->n && t->n <= 256; i++)
		for (k = i + 1; k < t->n; k++)
			SB_FUZZ_CHECK(strcmp(t->job[i].id, t->job[k].id), "duplicate id '%s'",
				      t->job[i].id);
}

void sb_fuzz_cluster_jobset(const struct sb_jobset *js, const struct sb_cluster *cl,
			    int choice)
{
	static const char *const combos[] = { "fifo", "tiresias", "srpt-oracle" };
	const char *label = combos[choice % 3];
	struct sb_cluster_combo c;
	struct sb_opts so, po;
	struct sb_cluster_result r;
	struct sb_err err = { 0, "" };
	char why[512];
	double lb1, total = 0;
	int i, rc;

	SB_FUZZ_CHECK(sb_jobset_validate(js, NULL, &err) == 0, "accepted job set is invalid: %s",
		      err.msg);
	if (sb_jobset_validate(js, cl, &err))
		return;
	SB_FUZZ_CHECK(sb_cluster_combo_parse(&c, label, &err) == 0, "%s", err.msg);
	sb_opts_defaults(&so, c.sched->params);
	sb_opts_defaults(&po, c.place->params);
	rc = sb_cluster_simulate(cl, js, &c, &so, &po, 1, &r, &err);
	SB_FUZZ_CHECK(rc == 0, "%s on an accepted job set: %s", label, err.msg);
	SB_FUZZ_CHECK(sb_cluster_check(cl, js, &r, why, sizeof why) == 0,
		      "%s: the checker rejects the run: %s", label, why);
	for (i = 0; i < js->n; i++)
		total += r.finish[i];
	lb1 = sb_cluster_lb1(cl, js, r.tau_lb);
	SB_FUZZ_CHECK(isfinite(total) && total >= lb1 * (1 - 1e-9),
		      "%s: total completion %.17g below LB1 %.17g", label, total, lb1);
	sb_cluster_result_release(&r);
}
