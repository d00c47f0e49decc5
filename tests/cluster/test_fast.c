/*
 * test_fast.c - the fast paths of the cluster policies (issue #11 item 7)
 * give exactly the schedules of the plain ones: every waiting or running
 * job re-keyed and the whole queue sorted at every decision.
 *
 * The plain rank is the dispatcher's reference path
 * (sb_cluster_dispatch_plain = 1: sort everything, then D2 over the full
 * order); srpt-oracle's incremental keys are compared with a reference
 * copy here that recomputes every key. Seeded W1 instances, loaded enough
 * that queues form and jobs are preempted; segments compared field by
 * field, bit for bit.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/util.h"
#include "workloads/cluster/jobs.h"

/* ------------------------------------------------------------------ */
/* Plain srpt-oracle: every active job re-keyed, the whole rank sorted  */
/* ------------------------------------------------------------------ */

struct ref_state {
	double qmin;
	double *key;
};

static void *ref_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng)
{
	struct ref_state *st = SB_NEW(struct ref_state, 1);
	(void)rng;
	st->qmin = sb_opts_get(o, "qmin");
	st->key = SB_NEW(double, sb_cluster_sim_njobs(s));
	return st;
}

static void ref_release(void *ctx)
{
	struct ref_state *st = ctx;
	sb_free(st->key);
	sb_free(st);
}

static const double *ref_key;

static int ref_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (ref_key[x] != ref_key[y])
		return ref_key[x] < ref_key[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static void ref_schedule(void *ctx, struct sb_csim *s)
{
	struct ref_state *st = ctx;
	int n, i, *order;
	const int *act = sb_cluster_sim_active(s, &n);
	order = SB_NEW(int, n > 0 ? n : 1);
	for (i = 0; i < n; i++) {
		const struct sb_job *j = sb_cluster_sim_job(s, act[i]);
		st->key[act[i]] = (double)j->gpus * (double)(j->iters - sb_cluster_sim_done(s, act[i])) *
				  sb_cluster_sim_tau_ref(s, act[i]);
		order[i] = act[i];
	}
	ref_key = st->key;
	qsort(order, (size_t)n, sizeof *order, ref_cmp);
	sb_cluster_dispatch_order(s, order, n, st->qmin, 0);
	sb_free(order);
}

/* ------------------------------------------------------------------ */
/* Comparison                                                          */
/* ------------------------------------------------------------------ */

static void w1(struct sb_jobset *js, const struct sb_cluster *c, int n, double load,
	       uint64_t seed)
{
	struct sb_w1_params p;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_INSTANCE);
	sb_w1_defaults(&p);
	p.njobs = n;
	p.load = load;
	p.max_base = 3e3;
	p.max_gpus = c->nserver * c->gpus;
	sb_w1_generate(js, &p, c, &r);
}

static void simulate(const struct sb_cluster *c, const struct sb_jobset *js,
		     const struct sb_cluster_policy *sched, struct sb_cluster_result *r)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_err err;
	memset(&cb, 0, sizeof cb);
	cb.sched = sched;
	cb.place = sb_cluster_policy_find(sched->default_place);
	cr_assert(cb.place);
	snprintf(cb.label, sizeof cb.label, "%s", sched->name);
	sb_opts_defaults(&so, sched->params);
	sb_opts_defaults(&po, cb.place->params);
	cr_assert_eq(sb_cluster_simulate(c, js, &cb, &so, &po, 7, r, &err), 0, "%s", err.msg);
}

/* Same segments (job, times, iterations, GPUs) in the same order. */
static void same(const struct sb_cluster_result *a, const struct sb_cluster_result *b,
		 const struct sb_jobset *js, const char *what, int inst)
{
	int k, g;
	cr_assert_eq(a->nseg, b->nseg, "%s, instance %d: %d vs %d segments", what, inst,
		     a->nseg, b->nseg);
	for (k = 0; k < a->nseg; k++) {
		const struct sb_cluster_seg *x = &a->seg[k], *y = &b->seg[k];
		cr_assert(x->job == y->job && x->start == y->start && x->end == y->end &&
			  x->iters == y->iters && x->preempted == y->preempted,
			  "%s, instance %d: segment %d differs", what, inst, k);
		for (g = 0; g < js->job[x->job].gpus; g++)
			cr_assert_eq(a->gpu[x->gpu_off + g], b->gpu[y->gpu_off + g],
				     "%s, instance %d: GPUs of segment %d", what, inst, k);
	}
	for (k = 0; k < a->n; k++)
		cr_assert(a->finish[k] == b->finish[k], "%s, instance %d: job %d", what, inst, k);
}

/* Fast path (the registered policy) against the plain one: the reference
 * policy ref if given, else the same policy with the dispatcher sorting
 * the whole rank. Returns the preemptions seen, so that the instances are
 * known to exercise the preemptive path. */
static int compare(const char *name, const struct sb_cluster_policy *ref)
{
	const struct sb_cluster_policy *fast = sb_cluster_policy_find(name);
	struct sb_cluster c;
	struct sb_err err;
	int inst, k, npre = 0;

	cr_assert(fast, "%s is registered", name);
	cr_assert_eq(sb_cluster_named("sim128", &c, &err), 0);
	for (inst = 0; inst < 4; inst++) {
		struct sb_jobset js;
		struct sb_cluster_result rf, rp;
		w1(&js, &c, 300, 0.8 + 0.2 * inst, 40 + inst);
		sb_cluster_dispatch_plain = 0;
		simulate(&c, &js, fast, &rf);
		sb_cluster_dispatch_plain = ref == NULL;
		simulate(&c, &js, ref ? ref : fast, &rp);
		sb_cluster_dispatch_plain = 0;
		same(&rf, &rp, &js, name, inst);
		for (k = 0; k < rf.nseg; k++)
			npre += rf.seg[k].preempted;
		sb_cluster_result_release(&rf);
		sb_cluster_result_release(&rp);
		sb_jobset_release(&js);
	}
	return npre;
}

Test(cluster_fast, srpt_oracle_incremental_keys)
{
	struct sb_cluster_policy ref = {
		.name = "srpt-oracle-plain",
		.clairvoyant = 1,
		.init = ref_init,
		.release = ref_release,
		.schedule = ref_schedule,
		.default_place = "packed",
	};
	ref.params = sb_cluster_policy_find("srpt-oracle")->params;
	cr_expect(compare("srpt-oracle", &ref) > 0, "instances with preemptions");
	/* and the dispatcher's own reference path agrees with the copy */
	cr_expect(compare("srpt-oracle", NULL) > 0);
}

Test(cluster_fast, srpt_mean)
{
	cr_expect(compare("srpt-mean", NULL) > 0, "instances with preemptions");
}

Test(cluster_fast, tiresias)
{
	cr_expect(compare("tiresias", NULL) > 0, "instances with preemptions");
}

Test(cluster_fast, tiresias_gittins)
{
	cr_expect(compare("tiresias-gittins", NULL) > 0, "instances with preemptions");
}

Test(cluster_fast, optimus)
{
	cr_expect(compare("optimus", NULL) > 0, "instances with preemptions");
}
