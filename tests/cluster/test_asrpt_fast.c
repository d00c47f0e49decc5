/*
 * test_asrpt_fast.c - A-SRPT's fast dispatch paths (D0 by per-GPU-count
 * heaps, D2 by an incremental ranking) give exactly the schedules of the
 * plain reference paths (reference=1: rank every arrived job at every
 * call), on seeded W1 instances from light load to overload, with and
 * without restart overheads: the same start and end of every run segment
 * on the same GPUs, bit for bit. A-SRPT is our reconstruction (see
 * algorithms/asrpt/asrpt.h).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "cluster/cluster.h"
#include "workloads/cluster/jobs.h"

/* Run policy with the options of `set` ("k=v,k=v", may be NULL). */
static void run(const struct sb_cluster *c, const struct sb_jobset *js, const char *policy,
		const char *set, struct sb_cluster_result *r)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_err err;
	char buf[256], *tok, *save = NULL, why[256];

	cr_assert_eq(sb_cluster_combo_parse(&cb, policy, &err), 0, "%s", err.msg);
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	snprintf(buf, sizeof buf, "%s", set ? set : "");
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		cr_assert_eq(sb_opts_set(&so, cb.sched->params, tok, policy, &err), 0, "%s",
			     err.msg);
	cr_assert_eq(sb_cluster_simulate(c, js, &cb, &so, &po, 11, r, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_cluster_check(c, js, r, why, sizeof why), 0, "%s: %s", policy, why);
}

static void expect_same(const struct sb_cluster_result *a, const struct sb_cluster_result *b,
			const struct sb_jobset *js, const char *what)
{
	int k, j;
	cr_assert_eq(a->nseg, b->nseg, "%s: %d run segments, reference %d", what, a->nseg,
		     b->nseg);
	for (j = 0; j < js->n; j++)
		cr_assert(a->finish[j] == b->finish[j] && a->npreempt[j] == b->npreempt[j],
			  "%s: job %d ends at %.17g, reference %.17g", what, j, a->finish[j],
			  b->finish[j]);
	for (k = 0; k < a->nseg; k++) {
		const struct sb_cluster_seg *x = &a->seg[k], *y = &b->seg[k];
		cr_assert(x->job == y->job && x->start == y->start && x->end == y->end &&
			  x->iters == y->iters && x->preempted == y->preempted,
			  "%s: segment %d differs (job %d at %.17g, reference job %d at %.17g)", what,
			  k, x->job, x->start, y->job, y->start);
		cr_assert(memcmp(a->gpu + x->gpu_off, b->gpu + y->gpu_off,
				 sizeof(int) * (size_t)js->job[x->job].gpus) == 0,
			  "%s: segment %d on other GPUs", what, k);
	}
}

Test(cluster, asrpt_fast_paths_match_reference)
{
	/* each policy with the options that reach its less common paths:
	 * D0 without the compact rule, with noisy predictions (corrections of
	 * running jobs), another placer; D2 without the preemption quantum,
	 * and with noisy predictions (preempted jobs that re-enter and leave
	 * the virtual machine) */
	static const char *const runs[][2] = {
		{ "asrpt", "" }, { "asrpt", "compact=0" }, { "asrpt-median", "" },
		{ "asrpt-oracle", "" }, { "asrpt-oracle", "noise=1" },
		{ "asrpt-oracle+firstfit", "noise=0.5,compact=0" },
		{ "asrpt-pre", "" }, { "asrpt-pre", "qmin=0" },
		{ "asrpt-oracle", "dispatch=3,noise=1" },
		{ "asrpt-oracle", "dispatch=3,noise=0.5,qmin=0" },
		{ "asrpt-oracle+firstfit", "dispatch=3" },
		{ NULL, NULL },
	};
	static const double loads[] = { 0.5, 0.9, 1.3 };
	const char *names[] = { "testbed", "sim128" };
	int ci, li, ri, seed, compared = 0;
	double restart;

	for (ci = 0; ci < 2; ci++) {
		struct sb_cluster c;
		struct sb_err err;
		cr_assert_eq(sb_cluster_named(names[ci], &c, &err), 0);
		restart = c.restart;
		for (li = 0; li < 3; li++)
			for (seed = 1; seed <= 2; seed++) {
				struct sb_jobset js;
				struct sb_w1_params p;
				struct sb_rng r = sb_rng_stream(100 + seed, li, ci, SB_RNG_INSTANCE);
				sb_w1_defaults(&p);
				p.njobs = ci ? 300 : 120;
				p.load = loads[li];
				p.max_base = 3e3;
				p.max_gpus = c.nserver * c.gpus;
				sb_w1_generate(&js, &p, &c, &r);
				c.restart = seed == 2 ? 0 : restart;
				for (ri = 0; runs[ri][0]; ri++) {
					struct sb_cluster_result a, b;
					char set[128], what[256];
					snprintf(set, sizeof set, "%s%sreference=1", runs[ri][1],
						 *runs[ri][1] ? "," : "");
					snprintf(what, sizeof what, "%s [%s] on %s, load %g, seed %d",
						 runs[ri][0], runs[ri][1], names[ci], loads[li], seed);
					run(&c, &js, runs[ri][0], runs[ri][1], &a);
					run(&c, &js, runs[ri][0], set, &b);
					expect_same(&a, &b, &js, what);
					compared++;
					sb_cluster_result_release(&a);
					sb_cluster_result_release(&b);
				}
				sb_jobset_release(&js);
			}
	}
	cr_expect_eq(compared, 2 * 3 * 2 * 11, "%d comparisons", compared);
}

/* The speed variants asrpt-hist, asrpt-pre-hist (histogram forest,
 * renewed a tenth at a time [O]) on instances long enough for the forest
 * to be trained and renewed many times: every schedule passes the checker
 * (in run()), the same seed gives the same schedule, the fast dispatch
 * paths still match the reference ones, and the schedules differ from
 * the exact forest's (the variant's forest is in use). */
Test(cluster, asrpt_hist_variants_valid_and_deterministic)
{
	static const char *const pol[][2] = {
		{ "asrpt-hist", "asrpt" }, { "asrpt-pre-hist", "asrpt-pre" }, { NULL, NULL },
	};
	const char *set = "warmup=40,retrain=10,kmin=1";
	struct sb_cluster c;
	struct sb_err err;
	int li, pi, differ = 0;

	cr_assert_eq(sb_cluster_named("sim128", &c, &err), 0);
	for (li = 0; li < 2; li++) {
		struct sb_jobset js;
		struct sb_w1_params p;
		struct sb_rng r = sb_rng_stream(300, li, 0, SB_RNG_INSTANCE);
		sb_w1_defaults(&p);
		p.njobs = 500;
		p.load = li ? 0.9 : 0.6;
		p.max_base = 3e3;
		p.max_gpus = c.nserver * c.gpus;
		sb_w1_generate(&js, &p, &c, &r);
		for (pi = 0; pol[pi][0]; pi++) {
			struct sb_cluster_result a, b, ref, exact;
			char what[128], rset[128];
			snprintf(what, sizeof what, "%s, load %g", pol[pi][0], p.load);
			snprintf(rset, sizeof rset, "%s,reference=1", set);
			run(&c, &js, pol[pi][0], set, &a);
			run(&c, &js, pol[pi][0], set, &b);
			expect_same(&a, &b, &js, what);
			run(&c, &js, pol[pi][0], rset, &ref);
			expect_same(&a, &ref, &js, what);
			run(&c, &js, pol[pi][1], set, &exact);
			differ += a.nseg != exact.nseg ||
				  memcmp(a.finish, exact.finish, sizeof *a.finish * (size_t)js.n);
			sb_cluster_result_release(&a);
			sb_cluster_result_release(&b);
			sb_cluster_result_release(&ref);
			sb_cluster_result_release(&exact);
		}
		sb_jobset_release(&js);
	}
	cr_expect_geq(differ, 3, "only %d of 4 runs differ from the exact forest's", differ);
}
