/*
 * family.c - the cache family's entry in the family table: `sb list cache`
 * and `sb eval cache`, which samples the feature-request trace of one
 * graph a user brings (an edge list, or a generated R-MAT or SBM graph),
 * replays it through one cache policy, checks the replay and prints the
 * hit counts and the modelled times; with --bound also Belady's MIN (with
 * and without bypass) and the optimal static content, and the ratios.
 *
 *   sb eval cache --graph com-amazon.ungraph.txt --fanouts 10,25 --cache-frac 0.05
 *                 --P 1 --k 4 --policy fifo --bound
 *   sb eval cache --rmat 16 --policy lru --epochs 2
 */
#include "cache.h"
#include "cache/part.h"
#include "family.h"
#include "workloads/cache/graphs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(cache_policy, sb_cache_policies)
SB_REGISTRY_ACCESSORS(cache_order, sb_cache_orders)

/* One entry of `sb list cache`: the line and its citation below it. */
static void list_row(FILE *out, const char *name, const char *role, const char *prov,
		     const char *desc, const char *cite)
{
	fprintf(out, "%-8s %-18s %-8s %-16s %s\n", "cache", name, role, prov, desc);
	fprintf(out, "%-8s %-18s %-8s %-16s   %s\n", "", "", "", "", cite);
}

static void list(FILE *out)
{
	int n, m, np, i;
	const struct sb_cache_policy *const *p = sb_cache_policies(&n);
	const struct sb_cache_order *const *q = sb_cache_orders(&m);
	const struct sb_cache_partitioner *const *r = sb_cache_partitioners(&np);

	fprintf(out, "%-8s %-18s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++)
		list_row(out, p[i]->name, "policy", p[i]->provenance, p[i]->desc, p[i]->cite);
	for (i = 0; i < m; i++)
		list_row(out, q[i]->name, "order", q[i]->provenance, q[i]->desc, q[i]->cite);
	for (i = 0; i < np; i++)
		list_row(out, r[i]->name, "partitioner", r[i]->provenance, r[i]->desc, r[i]->cite);
}

/* --partitioner: the machines' node sets of s from partitioner pp (its
 * defaults), checked, into pt and s->part. */
static int eval_partition(struct sb_cache_setup *s, const struct sb_cache_partitioner *pp,
			  uint64_t seed, struct sb_cache_part *pt, struct sb_cache_part_metrics *pm,
			  struct sb_err *err)
{
	uint8_t *mask = sb_calloc((size_t)s->g->n, 1);
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(pp->name));
	struct sb_opts o;
	int32_t v;
	int rc;

	if (!mask)
		return sb_err_set(err, SB_EXIT_RUN, "out of memory");
	for (v = 0; v < s->ntrain; v++)
		mask[s->train[v]] = 1;
	sb_opts_defaults(&o, pp->params);
	rc = sb_cache_part_run(s->g, mask, s->P, pp, &o, &r, &s->smp, pt, pm, err);
	sb_free(mask);
	s->part = pt->part;
	return rc;
}

static const char *const value_opts[] = {
	"--graph", "--rmat", "--sbm", "--fanouts", "--batch", "--cache", "--cache-frac", "--P",
	"--k", "--epochs", "--train-frac", "--order", "--partitioner", NULL
};

static int write_trace(const char *path, const struct sb_cache_trace *t, struct sb_err *err)
{
	FILE *f = fopen(path, "w");
	int32_t b;
	int64_t i;
	if (!f)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot write trace '%s'", path);
	fprintf(f, "# epoch batch machine gpu node (feature requests in replay order)\n");
	for (b = 0; b < t->nbatch; b++)
		for (i = t->b[b].first; i < t->b[b].first + t->b[b].count; i++)
			fprintf(f, "%d %d %d %d %d\n", t->b[b].epoch, b, t->b[b].machine,
				t->b[b].gpu, t->req[i]);
	if (fclose(f))
		return sb_err_set(err, SB_EXIT_RUN, "cannot write trace '%s'", path);
	return 0;
}

int sb_cache_eval(int argc, char **argv)
{
	const struct sb_family *F = &sb_family_cache;
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_cache_graph g = { 0 };
	struct sb_cache_setup s;
	struct sb_cache_trace t = { 0 };
	struct sb_cache_stats st;
	struct sb_cache_cost cost;
	const struct sb_cache_policy *p;
	const struct sb_cache_order *ord;
	const struct sb_cache_partitioner *pp = NULL;
	struct sb_cache_part pt = { 0 };
	struct sb_cache_part_metrics pm;
	struct sb_opts po, oo, co;
	const char *graph = NULL, *order = "shuffle", *fanouts = "5,10,15", *partitioner = NULL;
	double rmat = 0, sbm = 0, batch = 1000, cache = 0, frac = 0.05, P = 1, k = 1, epochs = 1;
	double train_frac = 0.08;
	int32_t *train = NULL;
	char sha[65] = "", fo[64];
	int i, rc, nsrc = 0;

	memset(&s, 0, sizeof s);
	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *v, *a;
		if ((rc = sb_eval_next(F, &ea, argc, argv, &i, NULL, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		a = argv[i - 1];
		if (!strcmp(a, "--graph")) {
			graph = v;
			nsrc++;
		} else if (!strcmp(a, "--rmat")) {
			if ((rc = sb_eval_num(F, a, v, 1, 26, &rmat)))
				return rc;
			nsrc++;
		} else if (!strcmp(a, "--sbm")) {
			if ((rc = sb_eval_num(F, a, v, 64, 1e8, &sbm)))
				return rc;
			nsrc++;
		} else if (!strcmp(a, "--fanouts")) {
			fanouts = v;
		} else if (!strcmp(a, "--batch")) {
			if ((rc = sb_eval_num(F, a, v, 1, 1e7, &batch)))
				return rc;
		} else if (!strcmp(a, "--cache")) {
			if ((rc = sb_eval_num(F, a, v, 1, 2147483647.0, &cache)))
				return rc;
		} else if (!strcmp(a, "--cache-frac")) {
			if ((rc = sb_eval_num(F, a, v, 1e-9, 1e9, &frac)))
				return rc;
		} else if (!strcmp(a, "--P")) {
			if ((rc = sb_eval_num(F, a, v, 1, SB_CACHE_MAX_MACHINES, &P)))
				return rc;
		} else if (!strcmp(a, "--k")) {
			if ((rc = sb_eval_num(F, a, v, 1, SB_CACHE_MAX_GPUS, &k)))
				return rc;
		} else if (!strcmp(a, "--epochs")) {
			if ((rc = sb_eval_num(F, a, v, 1, 1000, &epochs)))
				return rc;
		} else if (!strcmp(a, "--train-frac")) {
			if ((rc = sb_eval_num(F, a, v, 1e-6, 1, &train_frac)))
				return rc;
		} else if (!strcmp(a, "--order")) {
			order = v;
		} else if (!strcmp(a, "--partitioner")) {
			partitioner = v;
		}
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(F, &err);
	if (nsrc > 1)
		return sb_eval_fail(F, "give one graph: --graph FILE, --rmat SCALE or --sbm NODES");
	if (floor(rmat) != rmat || floor(sbm) != sbm || floor(batch) != batch ||
	    floor(cache) != cache || floor(P) != P || floor(k) != k || floor(epochs) != epochs)
		return sb_eval_fail(F, "--rmat, --sbm, --batch, --cache, --P, --k and --epochs take "
				    "whole numbers");
	if (!(p = sb_cache_policy_find(ea.policy)))
		return sb_eval_fail(F, "'%s' is not a registered cache policy", ea.policy);
	if (!(ord = sb_cache_order_find(order)))
		return sb_eval_fail(F, "--order '%s': not a registered cache order", order);
	if (partitioner && !(pp = sb_cache_partitioner_find(partitioner)))
		return sb_eval_fail(F, "--partitioner '%s': not a registered cache partitioner",
				    partitioner);
	if (sb_cache_fanouts_parse(fanouts, &s.smp, &err))
		return sb_eval_fail(F, "--%s", err.msg);
	sb_opts_defaults(&po, p->params);
	sb_opts_defaults(&oo, ord->params);
	sb_opts_defaults(&co, sb_cache_cost_params);
	for (i = 0; i < ea.nset; i++) {
		struct sb_opts_owner a = { "policy", "policy.", p->name, p->params, &po };
		struct sb_opts_owner b = { "cost", "cost.", "cost model", sb_cache_cost_params, &co };
		if (sb_opts_route(ea.sets[i], "--set", &a, &b, &err))
			return sb_eval_fail_err(F, &err);
	}
	sb_cache_cost_from_opts(&cost, &co);

	if (graph) {
		if ((rc = sb_cache_load_edgelist(&g, "graph", graph, &err)) ||
		    (rc = sb_sha256_file(graph, sha, &err))) {
			sb_err_print(&err);
			goto out;
		}
	} else if (sbm > 0) {
		rc = sb_cache_gen_sbm(&g, (int32_t)sbm, 64, 25, 0.1, ea.seed, &err);
	} else {
		rc = sb_cache_gen_rmat(&g, rmat > 0 ? (int)rmat : 14, 16, 0.57, 0.19, 0.19, ea.seed,
				       &err);
	}
	if (rc) {
		if (!graph)
			sb_err_print(&err);
		goto out;
	}
	sb_cache_graph_note(&g);
	s.g = &g;
	s.P = (int)P;
	s.k = (int)k;
	s.capacity = cache > 0 ? (int64_t)cache : (int64_t)ceil(frac * g.n);
	s.smp.batch = (int)batch;
	s.epochs = (int)epochs;
	s.seed = ea.seed;
	s.order = ord;
	s.order_opts = &oo;
	train = sb_cache_train_uniform(&g, train_frac, ea.seed, &s.ntrain);
	s.train = train;
	if ((rc = sb_cache_setup_check(&s, &err))) {
		sb_eval_fail(F, "%s", err.msg);
		goto out;
	}
	if (pp && (rc = eval_partition(&s, pp, ea.seed, &pt, &pm, &err))) {
		sb_err_print(&err);
		goto out;
	}
	if ((rc = sb_cache_trace_build(&s, 0, s.epochs, &t, &err)) ||
	    (rc = sb_cache_run(&s, &t, p, &po, &cost, 1, &st, &err))) {
		sb_err_print(&err);
		goto out;
	}
	sb_cache_fanouts_format(&s.smp, fo, sizeof fo);
	printf("graph: %s\nnodes: %d\nedges: %lld\nself_loops_dropped: %lld\n"
	       "duplicates_dropped: %lld\n", g.name, g.n, (long long)g.m,
	       (long long)g.self_loops, (long long)g.duplicates);
	if (graph)
		printf("sha256: %s\n", sha);
	printf("train_nodes: %d\nfanouts: %s\nbatch: %d\nmachines: %d\ngpus_per_machine: %d\n"
	       "cache_per_gpu: %lld\nepochs: %d\norder: %s\npolicy: %s\nprovenance: %s\n",
	       s.ntrain, fo, s.smp.batch, s.P, s.k, (long long)s.capacity, s.epochs, ord->name,
	       p->name, p->provenance);
	printf("batches: %d\nrequests: %lld\nsampled_edges: %lld\nhits: %lld\nhit_local: %lld\n"
	       "hit_peer: %lld\nmiss_host: %lld\nmiss_remote: %lld\nhit_ratio: %.6f\n"
	       "admitted: %lld\nevicted: %lld\nmeta_ops_per_request: %.4f\n",
	       t.nbatch, (long long)st.requests, (long long)st.sampled_edges,
	       (long long)sb_cache_hits(&st), (long long)st.hit_local, (long long)st.hit_peer,
	       (long long)st.miss_host, (long long)st.miss_remote,
	       st.requests ? (double)sb_cache_hits(&st) / (double)st.requests : 0,
	       (long long)st.inserts, (long long)st.evictions,
	       st.requests ? (double)st.meta_ops / (double)st.requests : 0);
	printf("time_model: simulated with cost model bgl-9.5 (pcie %g GB/s, nvlink %g GB/s, "
	       "net %g GB/s, rtt %g us, %g ns/edge, %g ns/request metadata, %g TFLOP/s, d %d)\n",
	       cost.pcie_gbs, cost.nvlink_gbs, cost.net_gbs, cost.rtt_us, cost.edge_ns,
	       cost.meta_ns >= 0 ? cost.meta_ns : p->meta_ns, cost.gpu_tflops, cost.feat_dim);
	printf("epoch_s: %.6g\nsample_s: %.6g\nfeature_s: %.6g\nh2d_s: %.6g\ncompute_s: %.6g\n"
	       "valid: yes\n", st.t_epoch, st.t_sample, st.t_feat, st.t_h2d, st.t_compute);
	if (ea.bound) {
		int64_t bound, cold, coldn, warm, sopt;
		if ((rc = sb_cache_bound(&s, &t, p, &bound, &err)) ||
		    (rc = sb_cache_belady(&s, &t, p->replicated, SB_CACHE_MIN_BYPASS, &cold, &err)) ||
		    (rc = sb_cache_belady(&s, &t, p->replicated, 0, &coldn, &err)) ||
		    (rc = sb_cache_belady(&s, &t, p->replicated,
					  SB_CACHE_MIN_BYPASS | SB_CACHE_MIN_WARM, &warm, &err)) ||
		    (rc = sb_cache_static_opt(&s, &t, p->replicated, &sopt, &err))) {
			sb_err_print(&err);
			goto out;
		}
		printf("belady_hits: %lld\nbelady_nobypass_hits: %lld\nbelady_warm_hits: %lld\n"
		       "static_opt_hits: %lld\nbound: %s\nratio_belady: %.6f\n", (long long)cold,
		       (long long)coldn, (long long)warm, (long long)sopt,
		       p->contents ? "belady_warm (a static cache starts full)" : "belady",
		       bound ? (double)sb_cache_hits(&st) / (double)bound : 1.0);
	}
	if (pp)
		printf("partitioner: %s\ncut_frac: %.6f\nbalance_nodes: %.4f\nbalance_edges: %.4f\n"
		       "balance_train: %.4f\nreplication: %.4f\nremote_sample_nodes: %lld\n"
		       "remote_sample_msgs: %lld\n", pp->name, pm.cut_frac, pm.bal_nodes,
		       pm.bal_edges, pm.bal_train, pm.repl, (long long)st.remote_sample_nodes,
		       (long long)st.remote_sample_msgs);
	if (ea.schedule_out && (rc = write_trace(ea.schedule_out, &t, &err)))
		sb_err_print(&err);
out:
	sb_cache_trace_release(&t);
	sb_cache_graph_release(&g);
	sb_cache_part_release(&pt);
	sb_free(train);
	return rc;
}

static const char *const roles[] = { "cache_policy", "cache_order", "cache_partitioner", NULL };

const struct sb_family sb_family_cache = {
	.name = "cache",
	.desc = "GNN sampling traces, per-GPU feature caches, offline optima (BGL)",
	.roles = roles,
	.eval_usage = "[--graph FILE | --rmat SCALE | --sbm NODES] [--fanouts 5,10,15] "
		      "[--batch B] [--cache N | --cache-frac F] [--P M] [--k G] [--epochs E] "
		      "[--train-frac F] [--order NAME] [--partitioner NAME]",
	.eval = sb_cache_eval,
	.list = list,
	.adversary = &sb_cache_adversary,
};
