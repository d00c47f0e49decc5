/*
 * test_marl.c - the cluster family's topology-and-interference mode (spec
 * marl.md): the topology tree and its loader, the fill rule, the
 * ground-truth interference, the learned predictor, the simulator's
 * piecewise progress and the checker's new invariants, and the mode's
 * placers.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cluster/bound.h"
#include "cluster/topoplace.h"
#include "workloads/cluster/marl.h"
#include "tests/testutil.h"

/* ------------------------------------------------------------------ */
/* Topology                                                            */
/* ------------------------------------------------------------------ */

Test(marl, named_topologies)
{
	static const struct { const char *name; int S, G, racks, pods; } want[] = {
		{ "T0", 4, 4, 1, 1 }, { "T1", 16, 4, 4, 2 }, { "T2", 8, 8, 4, 1 }, { "T3", 32, 4, 8, 2 },
	};
	size_t k;
	for (k = 0; k < sizeof want / sizeof want[0]; k++) {
		struct sb_cluster_tree t;
		struct sb_err err;
		int v, x;
		cr_assert_eq(sb_cluster_tree_named(want[k].name, &t, &err), 0);
		cr_assert_eq(t.nserver, want[k].S);
		cr_assert_eq(t.gpus, want[k].G);
		cr_assert_eq(t.ngpu, want[k].S * want[k].G);
		cr_assert_eq(t.nrack, want[k].racks);
		cr_assert_eq(t.npod, want[k].pods);
		/* CSR children agree with parent[] */
		for (v = 0; v < t.nnode; v++)
			for (x = t.child_off[v]; x < t.child_off[v + 1]; x++)
				cr_assert_eq(t.parent[t.child[x]], v);
		/* GPU x lies under server x / G */
		for (x = 0; x < t.ngpu; x++)
			cr_assert_eq(t.anc[x * SB_TREE_NLEVEL + SB_TREE_SERVER],
				     t.server_node[x / t.gpus]);
		sb_cluster_tree_release(&t);
	}
}

Test(marl, spread_levels)
{
	struct sb_cluster_tree t;
	struct sb_err err;
	int a[2];
	cr_assert_eq(sb_cluster_tree_named("T2", &t, &err), 0);
	/* T2: 8-GPU servers = 2 sockets x 2 switches x 2 GPUs, 2 per rack */
	a[0] = 0, a[1] = 1;
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 2), 1);
	a[1] = 2;
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 2), 2);
	a[1] = 4;
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 2), 3);
	a[1] = 8;
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 2), 4);
	a[1] = 16;
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 2), 5);
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 1), 0);
	cr_assert_eq(sb_cluster_tree_best_spread(&t, 1), 0);
	cr_assert_eq(sb_cluster_tree_best_spread(&t, 2), 1);
	cr_assert_eq(sb_cluster_tree_best_spread(&t, 4), 2);
	cr_assert_eq(sb_cluster_tree_best_spread(&t, 8), 3);
	cr_assert_eq(sb_cluster_tree_best_spread(&t, 16), 4);
	sb_cluster_tree_release(&t);
}

Test(marl, fill_rule)
{
	struct sb_cluster_tree t;
	struct sb_err err;
	unsigned char fr[64];
	int g[16], fs[16], k;
	unsigned char mask[16];

	cr_assert_eq(sb_cluster_tree_named("T2", &t, &err), 0);
	memset(fr, 1, sizeof fr);
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 0, 2, g), 0);
	cr_assert(g[0] == 0 && g[1] == 1);
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 1, 4, g), 0);
	cr_assert(g[0] == 8 && g[1] == 9 && g[2] == 10 && g[3] == 11, "%d %d %d %d", g[0], g[1],
		  g[2], g[3]);
	/* best-fitting switch: GPU 0 busy, so switch 0 has one free GPU, the
	 * one-worker job goes there */
	fr[0] = 0;
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 0, 1, g), 0);
	cr_assert_eq(g[0], 1);
	/* two workers: the best fit is switch 1 (GPUs 2, 3) */
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 0, 2, g), 0);
	cr_assert(g[0] == 2 && g[1] == 3);
	/* 12 workers from server 0 (7 free): its 7, then 5 of server 1 */
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 0, 12, g), 0);
	for (k = 0; k < 7; k++)
		cr_assert_lt(g[k], 8);
	for (k = 7; k < 12; k++)
		cr_assert(g[k] >= 8 && g[k] < 16);
	/* 16 do not fit in the rack of 15 free: no anchor there */
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 0, 16, g), -1);
	for (k = 0; k < t.nserver; k++)
		fs[k] = 8;
	fs[0] = 7;
	cr_assert_eq(sb_cluster_tree_anchor_mask(&t, fs, 16, mask), 6);
	cr_assert(!mask[0] && !mask[1] && mask[2]);
	/* a server without a free GPU is never an anchor */
	memset(fr, 1, sizeof fr);
	for (k = 0; k < 8; k++)
		fr[k] = 0;
	cr_assert_eq(sb_cluster_tree_fill(&t, fr, 0, 1, g), -1);
	fs[0] = 0;
	sb_cluster_tree_anchor_mask(&t, fs, 1, mask);
	cr_assert(!mask[0] && mask[1]);
	sb_cluster_tree_release(&t);
}

static const char *good_topo =
	"# two servers of 4 GPUs in one rack\n"
	"name tiny\n"
	"bw switch 12\n"
	"node dc dc -\n"
	"node p pod dc gpus=8\n"
	"node r rack p\n"
	"node s0 server r gpus=4\n"
	"node s1 server r\n"
	"node k0 socket s0\nnode k1 socket s0\nnode k2 socket s1\nnode k3 socket s1\n"
	"node w0 switch k0\nnode w1 switch k1\nnode w2 switch k2\nnode w3 switch k3\n"
	"node g0 gpu w0\nnode g1 gpu w0\nnode g2 gpu w1\nnode g3 gpu w1\n"
	"node g4 gpu w2\nnode g5 gpu w2\nnode g6 gpu w3\nnode g7 gpu w3\n";

Test(marl, topology_file)
{
	struct sb_cluster_tree t;
	struct sb_err err;
	const char *p = sb_test_write(good_topo);
	int a[2] = { 0, 2 };
	cr_assert_eq(sb_cluster_tree_named(p, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.name, "tiny");
	cr_assert_eq(t.nserver, 2);
	cr_assert_eq(t.gpus, 4);
	cr_assert_eq(t.bw[1], 12);
	cr_assert_eq(t.bw[2], 8);
	cr_assert_eq(sb_cluster_tree_spread(&t, a, 2), 3);
	sb_cluster_tree_release(&t);
	remove(p);
}

static void bad_topo(const char *text, const char *a, const char *b)
{
	struct sb_cluster_tree t;
	struct sb_err err;
	const char *p = sb_test_write(text);
	sb_test_expect_bad(sb_cluster_tree_load(p, &t, &err), &err, p, a, b, NULL);
	remove(p);
}

Test(marl, topology_file_errors)
{
	char buf[2048];
	/* a cycle of parents */
	bad_topo("node dc dc -\nnode p pod r\nnode r rack p\n", "cycle", "field 'parent'");
	/* zero, negative and growing bandwidths */
	snprintf(buf, sizeof buf, "bw rack 0\n%s", good_topo);
	bad_topo(buf, "line 1", "field 'bw'");
	snprintf(buf, sizeof buf, "bw pod -1\n%s", good_topo);
	bad_topo(buf, "line 1", "field 'bw'");
	snprintf(buf, sizeof buf, "bw dc 20\n%s", good_topo);
	bad_topo(buf, "line 1", "exceeds");
	/* GPU counts that do not add up */
	snprintf(buf, sizeof buf, "%s", good_topo);
	memcpy(strstr(buf, "gpus=8"), "gpus=9", 6);
	bad_topo(buf, "line 5", "field 'gpus'");
	/* unknown level, unknown keyword, unknown parent, a skipped level */
	bad_topo("node dc dc -\nnode p cabinet dc\n", "line 2", "field 'level'");
	bad_topo("rack r\n", "line 1", "field 'keyword'");
	bad_topo("node dc dc -\nnode p pod nowhere\n", "line 2", "field 'parent'");
	bad_topo("node dc dc -\nnode r rack dc\n", "line 2", "field 'level'");
	/* servers of different sizes, two roots */
	snprintf(buf, sizeof buf, "%snode g8 gpu w3\n", good_topo);
	bad_topo(buf, "field 'gpus'", NULL);
	bad_topo("node a dc -\nnode b dc -\n", "line 2", "second dc");
}

/* ------------------------------------------------------------------ */
/* Interference                                                        */
/* ------------------------------------------------------------------ */

static struct sb_marl_env *env_new(const char *topo, int on)
{
	struct sb_marl_env *e = SB_NEW(struct sb_marl_env, 1);
	struct sb_err err;
	cr_assert_eq(sb_marl_env_init(e, topo, NULL, on, 7, &err), 0, "%s", err.msg);
	return e;
}

static void env_free(struct sb_marl_env *e)
{
	sb_marl_env_release(e);
	sb_free(e);
}

Test(marl, interference_alone_and_symmetric)
{
	struct sb_marl_env *e = env_new("T2", 1);
	int ga[2] = { 0, 1 }, gb[2] = { 2, 3 }, gc[1] = { 8 };
	struct sb_interf_job j[3] = { { 10, 0, 2, ga }, { 11, 1, 2, gb }, { 12, 2, 1, gc } };
	double S[3], tau[3];
	int a, b;

	/* alone: S = 1 and tau = the isolated time at its locality */
	sb_interf_eval(&e->interf, j, 1, S, tau);
	cr_assert_eq(S[0], 1.0);
	cr_assert_eq(tau[0], sb_interf_tau_alone(&e->interf, 0, 2, 1));
	cr_assert_eq(tau[0], sb_interf_tau_iso(&e->interf, 0, 2));
	sb_interf_eval(&e->interf, j, 3, S, tau);
	cr_assert_gt(S[0], 1.0);
	cr_assert_gt(S[1], 1.0);
	cr_assert_eq(S[2], 1.0, "job 12 is on another server");
	/* the pairwise terms are symmetric; so is the noise */
	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++) {
			cr_assert_eq(sb_interf_pair(&e->interf, &j[a], &j[b]),
				     sb_interf_pair(&e->interf, &j[b], &j[a]));
			cr_assert_eq(sb_interf_noise(&e->interf, a, b),
				     sb_interf_noise(&e->interf, b, a));
		}
	cr_assert(fabs(S[0] - 1 - sb_interf_pair(&e->interf, &j[0], &j[1])) < 1e-15);
	/* random states: S >= 1 and within the spec's range */
	{
		struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_TEST);
		int it;
		for (it = 0; it < 200; it++) {
			int g[64], k, n = 8;
			struct sb_interf_job st[8];
			for (k = 0; k < 64; k++)
				g[k] = k;
			sb_rng_shuffle_int(&r, g, 64);
			for (k = 0; k < n; k++) {
				st[k].id = it * 8 + k;
				st[k].type = (int)sb_rng_below(&r, 8);
				st[k].w = 1;
				st[k].gpus = &g[k];
			}
			{
				double s8[8];
				sb_interf_eval(&e->interf, st, n, s8, NULL);
				for (k = 0; k < n; k++)
					cr_assert(s8[k] >= 1 && s8[k] < 3, "S = %g", s8[k]);
			}
		}
	}
	env_free(e);
	/* off: S = 1 always */
	e = env_new("T2", 0);
	sb_interf_eval(&e->interf, j, 3, S, NULL);
	cr_assert(S[0] == 1 && S[1] == 1 && S[2] == 1);
	env_free(e);
}

Test(marl, tor_uplink_sharing)
{
	struct sb_marl_env *e = env_new("T1", 0);
	/* T1 racks hold 16 GPUs: GPUs 0 and 16 are in two racks of pod 0 */
	int ga[2] = { 0, 16 }, gb[2] = { 1, 17 };
	struct sb_interf_job j[2] = { { 0, 1, 2, ga }, { 1, 1, 2, gb } };
	double tau[2], alone = sb_interf_tau_alone(&e->interf, 1, 2, 5);
	sb_interf_eval(&e->interf, j, 1, NULL, tau);
	cr_assert_eq(tau[0], alone);
	sb_interf_eval(&e->interf, j, 2, NULL, tau);
	/* two cross-rack jobs halve each other's bandwidth */
	cr_assert(fabs(tau[0] - (sb_interf_tau_alone(&e->interf, 1, 1, 0) +
				 2 * (alone - sb_interf_tau_alone(&e->interf, 1, 1, 0)))) < 1e-12);
	env_free(e);
}

/* The table of marl.md §2 is the fallback for dl2_job_types.csv: it must
 * hold the file's numbers. */
Test(marl, dl2_table_matches_file)
{
	DATA_OR_SKIP(path, "dl2/dl2_job_types.csv");
	struct sb_marl_env a, b;
	struct sb_err err;
	int k;
	cr_assert_eq(sb_marl_env_init(&a, "T1", path, 1, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_marl_env_init(&b, "T1", NULL, 1, 1, &err), 0);
	cr_assert_eq(a.interf.ntype, SB_MARL_NTYPE);
	for (k = 0; k < SB_MARL_NTYPE; k++) {
		cr_assert_str_eq(a.interf.type[k].name, b.interf.type[k].name);
		cr_assert_eq(a.interf.type[k].t_comp, b.interf.type[k].t_comp);
		cr_assert_eq(a.interf.type[k].size_mb, b.interf.type[k].size_mb);
		cr_assert_eq(memcmp(a.interf.type[k].r, b.interf.type[k].r, sizeof a.interf.type[k].r), 0);
	}
	sb_marl_env_release(&a);
	sb_marl_env_release(&b);
}

/* ------------------------------------------------------------------ */
/* Simulation and checker                                              */
/* ------------------------------------------------------------------ */

static void gen(const struct sb_marl_env *e, int n, double load, int w1, uint64_t seed,
		struct sb_jobset *js)
{
	struct sb_marl_gen p;
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);
	sb_marl_gen_defaults(&p);
	p.njobs = n;
	p.load = load;
	p.w1_only = w1;
	sb_marl_generate(e, &p, &r, js);
}

static void run(const struct sb_marl_env *e, const struct sb_jobset *js, const char *policy,
		uint64_t seed, struct sb_cluster_result *r)
{
	struct sb_cluster_combo cb;
	struct sb_opts so, po;
	struct sb_err err;
	char why[512];
	cr_assert_eq(sb_cluster_combo_parse(&cb, policy, &err), 0, "%s", err.msg);
	sb_opts_defaults(&so, cb.sched->params);
	sb_opts_defaults(&po, cb.place->params);
	cr_assert_eq(sb_cluster_simulate(&e->cl, js, &cb, &so, &po, seed, r, &err), 0, "%s: %s",
		     policy, err.msg);
	cr_assert_eq(sb_cluster_check(&e->cl, js, r, why, sizeof why), 0, "%s: %s", policy, why);
}

/* The topology placers, and the family's flat placers, which run here too. */
static const char *const placers[] = { "consolidate", "spread", "tetris", "marl-random",
				       "greedy-interf", "packed", "firstfit", "random", NULL };

/* Issue #15 item 1: no interference and one worker each, so placement
 * cannot matter: every placer gives the same JCTs, job by job. */
Test(marl, w1_no_interference_placement_is_irrelevant)
{
	struct sb_marl_env *e = env_new("T1", 0);
	struct sb_jobset js;
	const char *sched[] = { "agents", "fifo" };
	int s, p, j;
	gen(e, 150, 0.9, 1, 11, &js);
	for (s = 0; s < 2; s++) {
		struct sb_cluster_result r0;
		char label[64];
		snprintf(label, sizeof label, "%s+%s", sched[s], placers[0]);
		run(e, &js, label, 5, &r0);
		for (p = 1; placers[p]; p++) {
			struct sb_cluster_result r;
			snprintf(label, sizeof label, "%s+%s", sched[s], placers[p]);
			run(e, &js, label, 5, &r);
			for (j = 0; j < js.n; j++)
				cr_assert_eq(r.finish[j], r0.finish[j], "%s: job %d", label, j);
			sb_cluster_result_release(&r);
		}
		sb_cluster_result_release(&r0);
	}
	sb_jobset_release(&js);
	env_free(e);
}

/* Every placer, with and without interference, on three topologies:
 * valid runs (the checker recomputes every speed piece), identical on a
 * second run, and placement matters once interference is on. */
Test(marl, every_placer_valid_and_deterministic)
{
	const char *topos[] = { "T1", "T2", "T3" };
	int t, p, on, j;
	for (t = 0; t < 3; t++)
		for (on = 0; on < 2; on++) {
			struct sb_marl_env *e = env_new(topos[t], on);
			struct sb_jobset js;
			double first_mean = -1;
			int differ = 0;
			gen(e, 120, 0.8, 0, 20 + t, &js);
			for (p = 0; placers[p]; p++) {
				struct sb_cluster_result a, b;
				char label[64];
				double mean = 0;
				snprintf(label, sizeof label, "agents+%s", placers[p]);
				run(e, &js, label, 9, &a);
				run(e, &js, label, 9, &b);
				cr_assert_eq(a.npiece, b.npiece);
				for (j = 0; j < js.n; j++) {
					cr_assert_eq(a.finish[j], b.finish[j], "%s", label);
					mean += a.finish[j] - js.job[j].arrival;
				}
				if (first_mean < 0)
					first_mean = mean;
				differ |= mean != first_mean;
				sb_cluster_result_release(&a);
				sb_cluster_result_release(&b);
			}
			cr_assert(differ, "%s: every placer gave the same mean JCT", topos[t]);
			sb_jobset_release(&js);
			env_free(e);
		}
}

/* A run with interference and several speed changes per job, to break. */
static void base_run(struct sb_marl_env **e, struct sb_jobset *js, struct sb_cluster_result *r)
{
	*e = env_new("T1", 1);
	gen(*e, 80, 0.9, 0, 31, js);
	run(*e, js, "agents+consolidate", 3, r);
	cr_assert_gt(r->npiece, r->nseg, "no job changed speed");
}

static void expect_reject(const struct sb_marl_env *e, const struct sb_jobset *js,
			  const struct sb_cluster_result *r, const char *what)
{
	char why[512];
	cr_assert_eq(sb_cluster_check(&e->cl, js, r, why, sizeof why), -1, "accepted: %s", what);
	cr_assert(strstr(why, what), "'%s' not in: %s", what, why);
}

Test(marl, checker_rejects_broken_runs)
{
	struct sb_marl_env *e;
	struct sb_jobset js;
	struct sb_cluster_result r;
	int k, other = -1, saved;
	double sv;

	base_run(&e, &js, &r);
	/* a piece's iteration time */
	for (k = 0; k < r.npiece && r.piece[k].slow == 1; k++)
		;
	cr_assert_lt(k, r.npiece);
	sv = r.piece[k].tau;
	r.piece[k].tau *= 1.01;
	expect_reject(e, &js, &r, "records tau");
	r.piece[k].tau = sv;
	sv = r.piece[k].slow;
	r.piece[k].slow = 1;
	expect_reject(e, &js, &r, "records slowdown");
	r.piece[k].slow = sv;
	/* a gap between pieces */
	for (k = 1; k < r.npiece && r.piece[k].seg != r.piece[k - 1].seg; k++)
		;
	cr_assert_lt(k, r.npiece);
	sv = r.piece[k].start;
	r.piece[k].start += 1;
	expect_reject(e, &js, &r, "gap or overlap");
	r.piece[k].start = sv;
	/* the last job to finish runs one second longer (its pieces too): the
	 * speeds are right, but they integrate to more than n_j */
	{
		int last = 0, lp = -1;
		for (k = 1; k < r.nseg; k++)
			if (r.seg[k].end > r.seg[last].end)
				last = k;
		for (k = 0; k < r.npiece; k++)
			if (r.piece[k].seg == last && (lp < 0 || r.piece[k].end > r.piece[lp].end))
				lp = k;
		r.seg[last].end += 1;
		r.finish[r.seg[last].job] += 1;
		r.piece[lp].end += 1;
		expect_reject(e, &js, &r, "integrate to");
		r.seg[last].end -= 1;
		r.finish[r.seg[last].job] -= 1;
		r.piece[lp].end -= 1;
	}
	/* two jobs on one GPU: put segment 1 on segment 0's first GPU */
	for (k = 1; k < r.nseg; k++)
		if (r.seg[k].start < r.seg[0].end && r.seg[k].end > r.seg[0].start &&
		    js.job[r.seg[k].job].gpus == 1) {
			other = k;
			break;
		}
	cr_assert_geq(other, 0);
	saved = r.gpu[r.seg[other].gpu_off];
	r.gpu[r.seg[other].gpu_off] = r.gpu[r.seg[0].gpu_off];
	expect_reject(e, &js, &r, "at once");
	r.gpu[r.seg[other].gpu_off] = saved;
	{
		char why[512];
		cr_assert_eq(sb_cluster_check(&e->cl, &js, &r, why, sizeof why), 0, "%s", why);
	}
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
	env_free(e);
}

/* Non-preemptive: a preemptive scheduler's run is rejected unless the
 * environment allows migration (then it is valid). */
Test(marl, checker_rejects_migration)
{
	struct sb_marl_env *e = env_new("T1", 1);
	struct sb_jobset js;
	struct sb_cluster_result r;
	char why[512];
	gen(e, 120, 0.9, 0, 41, &js);
	e->interf.migrate = 1;
	run(e, &js, "tiresias+consolidate", 3, &r);
	cr_assert_gt(r.nseg, js.n, "tiresias did not preempt");
	e->interf.migrate = 0;
	cr_assert_eq(sb_cluster_check(&e->cl, &js, &r, why, sizeof why), -1);
	cr_assert(strstr(why, "non-preemptive"), "%s", why);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
	env_free(e);
}

/* ------------------------------------------------------------------ */
/* The learned predictor                                               */
/* ------------------------------------------------------------------ */

Test(marl, predictor_deterministic_and_accurate)
{
	struct sb_marl_env *e = env_new("T1", 1);
	struct sb_interf_pred_params p;
	struct sb_interf_pred *a, *b;
	double ma, mb, ta;
	size_t na, nb;
	const double *wa, *wb;
	sb_interf_pred_defaults(&p);
	p.nsamples = 1500;
	p.nheld = 300;
	p.epochs = 15;
	a = sb_interf_pred_train(&e->interf, &p, &ma, &ta);
	b = sb_interf_pred_train(&e->interf, &p, &mb, NULL);
	wa = sb_interf_pred_weights(a, &na);
	wb = sb_interf_pred_weights(b, &nb);
	cr_assert_eq(na, nb);
	cr_assert_eq(na, (size_t)(27 * 64 + 64 + 64 * 32 + 32 + 32 + 1));
	cr_assert_eq(memcmp(wa, wb, na * sizeof *wa), 0, "same seed, different weights");
	cr_assert_eq(ma, mb);
	/* S ranges over about 1 .. 1.8: a useless constant predictor has a
	 * MAPE of several percent */
	cr_assert_lt(ma, 5.0, "held-out MAPE %g%%", ma);
	sb_interf_pred_free(a);
	sb_interf_pred_free(b);
	env_free(e);
}

/* Training episodes may take their speeds from S^ (spec §3.7): the run is
 * valid against the same model and differs from the ground truth's. */
Test(marl, speeds_from_the_predictor)
{
	struct sb_marl_env *e = env_new("T1", 1);
	struct sb_interf_pred_params p;
	struct sb_interf_pred *pr;
	struct sb_jobset js;
	struct sb_cluster_result a, b;
	int j, differ = 0;
	sb_interf_pred_defaults(&p);
	p.nsamples = 600;
	p.nheld = 100;
	p.epochs = 5;
	pr = sb_interf_pred_train(&e->interf, &p, NULL, NULL);
	gen(e, 60, 0.9, 0, 51, &js);
	run(e, &js, "agents+consolidate", 2, &a);
	e->interf.pred = pr;
	e->interf.use_pred = 1;
	run(e, &js, "agents+consolidate", 2, &b);
	for (j = 0; j < js.n; j++)
		differ |= a.finish[j] != b.finish[j];
	cr_assert(differ, "S^ and the ground truth gave the same run");
	sb_cluster_result_release(&a);
	sb_cluster_result_release(&b);
	sb_jobset_release(&js);
	sb_interf_pred_free(pr);
	env_free(e);
}

/* spec §7, §9: no scheme's average JCT beats the preemptive time-indexed LP
 * lower bound (LB2 with isolated best-locality durations, maxed with LB1)
 * on small traces of T0. Slots of 300 s keep the LP small; the bound holds
 * for any slot length (cluster/lb2.c). */
Test(marl, every_scheme_above_the_lp_bound)
{
	static const char *const schemes[] = {
		"agents+marl-random", "agents+consolidate", "agents+spread", "agents+tetris",
		"agents+greedy-interf", "fifo+consolidate", "tiresias+consolidate", "myopic-ilp",
		"fifo+packed", NULL,
	};
	int rep, k, j;
	for (rep = 0; rep < 3; rep++) {
		struct sb_marl_env *e = env_new("T0", 1);
		struct sb_jobset js;
		struct sb_err err;
		double jct[16], last = 0, asum = 0, lb1, lb2, lb, *tl;
		gen(e, 20, 0.8, 0, 60 + rep, &js);
		for (k = 0; schemes[k]; k++) {
			struct sb_cluster_result r;
			e->interf.migrate = !strncmp(schemes[k], "tiresias", 8);
			run(e, &js, schemes[k], 4, &r);
			jct[k] = 0;
			for (j = 0; j < js.n; j++) {
				jct[k] += (r.finish[j] - js.job[j].arrival) / js.n;
				last = sb_max(last, r.finish[j]);
			}
			sb_cluster_result_release(&r);
		}
		tl = SB_NEW(double, js.n);
		sb_cluster_tau_lb(&e->cl, &js, tl);
		lb1 = sb_cluster_lb1(&e->cl, &js, tl);
		cr_assert_eq(sb_cluster_lb2(&e->cl, &js, tl, 300 * ceil(last / 300),
					    (int)ceil(last / 300), 0, &lb2, NULL, &err), 0, "%s", err.msg);
		cr_assert(!isnan(lb2), "the LP did not reach its optimum");
		for (j = 0; j < js.n; j++)
			asum += js.job[j].arrival;
		lb = (sb_max(lb1, lb2) - asum) / js.n;
		cr_assert_gt(lb, 0);
		for (k = 0; schemes[k]; k++)
			cr_assert(jct[k] >= lb * (1 - 1e-9), "%s: average JCT %.9g < LP bound %.9g "
				  "(trace %d)", schemes[k], jct[k], lb, rep);
		sb_free(tl);
		sb_jobset_release(&js);
		env_free(e);
	}
}

/* The trace-derived variant: Philly's arrivals (rescaled) and GPU counts
 * (4 or 8 workers), durations from the run-time file, labelled so. */
Test(marl, trace_derived_workload)
{
	DATA_OR_SKIP(jobs, "philly/jobs.json");
	DATA_OR_SKIP(rt, "philly/philly_runtime.csv");
	struct sb_marl_env *e = env_new("T2", 1);
	struct sb_marl_gen p;
	struct sb_jobset js;
	struct sb_cluster_result r;
	struct sb_err err;
	struct sb_rng g = sb_rng_stream(2, 0, 0, SB_RNG_TEST);
	int j;
	sb_marl_gen_defaults(&p);
	p.njobs = 50;
	cr_assert_eq(sb_marl_from_philly(e, &p, jobs, rt, &g, &js, &err), 0, "%s", err.msg);
	cr_assert_eq(js.n, 50);
	cr_assert(strstr(js.source, "trace-derived"), "%s", js.source);
	for (j = 0; j < js.n; j++) {
		cr_assert(js.job[j].gpus == 4 || js.job[j].gpus == 8);
		cr_assert(j == 0 || js.job[j].arrival >= js.job[j - 1].arrival);
	}
	run(e, &js, "agents+greedy-interf", 1, &r);
	sb_cluster_result_release(&r);
	sb_jobset_release(&js);
	/* a missing run-time file is bad input naming it */
	cr_assert_eq(sb_marl_from_philly(e, &p, jobs, "/nonexistent/rt.csv", &g, &js, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "/nonexistent/rt.csv"), "%s", err.msg);
	env_free(e);
}
