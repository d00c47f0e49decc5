/*
 * test_fuzz.c - the mutation fuzzer (tests/fuzz.h) on the alloc family's
 * loaders (workloads/alloc/alloc_wl.h): job types, arrival patterns, job
 * tables and cluster files.
 */
#include <criterion/criterion.h>

#include <math.h>

#include "tests/fuzz.h"
#include "workloads/alloc/alloc_wl.h"

static const char *const types_seeds[] = {
	"type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
	"intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
	"1,resnet-50,0.449,102.2,115,91.875,306.5,2,4,2,0,0.3\n"
	"2,dssm,0.567,6.0,349,92.125,65.625,2,0,2,0,0.33\n",
};
static const char *const arrival_seeds[] = {
	"max_arrivals_per_ts,timeslot,num_arrivals\n1,0,1\n1,1,22\n2,0,3\n2,1,0\n2,2,5\n",
};
static const char *const job_seeds[] = {
	"arrival,mode,model,epochs,max_workers,max_ps,weight\n0,rar,resnet-50,10,4,0,1\n"
	"2,ps,dssm,3.5,8,2,2\n1,ps,wlm,1e2,1,1,0.5\n",
};
static const char *const cluster_seeds[] = {
	"count,gpus,cpus\n2,8,24\n1,4,8\n",
	"num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n1,4,8,64,256",
};

FUZZ(alloc_types, types_seeds, 4, sb_test_mutate, "")
{
	struct sb_alloc_types ty;
	struct sb_err err = { 0 };
	int k, ok = sb_test_accepted(sb_alloc_load_types(path, &ty, &err), &err, path);
	(void)r;
	if (!ok)
		cr_assert_eq(ty.n, 0);
	for (k = 0; ok && k < ty.n; k++)
		cr_assert(ty.t[k].compute > 0 && ty.t[k].epoch_frac > 0 && ty.t[k].epoch_frac <= 1 &&
			  ty.t[k].model[0] && isfinite(ty.t[k].model_mb));
	return ok;
}

FUZZ(alloc_arrivals, arrival_seeds, 4, sb_test_mutate, "")
{
	int *c, n, k, K = 1 + (int)sb_rng_below(r, 2), ok;
	struct sb_err err = { 0 };
	ok = sb_test_accepted(sb_alloc_load_arrivals(path, K, &c, &n, &err), &err, path);
	if (!ok)
		cr_assert(c == NULL && n == 0);
	for (k = 0; ok && k < n; k++)
		cr_assert(c[k] >= 0 && c[k] <= K);
	sb_free(c);
	return ok;
}

FUZZ(alloc_jobs, job_seeds, 4, sb_test_mutate, "")
{
	struct sb_alloc_types ty;
	struct sb_alloc_jobrow *rows;
	struct sb_err err = { 0 };
	int n, k, ok;
	(void)r;
	sb_alloc_types_builtin(&ty);
	ok = sb_test_accepted(sb_alloc_load_jobs(path, &ty, &rows, &n, &err), &err, path);
	if (!ok)
		cr_assert(rows == NULL && n == 0);
	for (k = 0; ok && k < n; k++)
		cr_assert(rows[k].arrival >= 0 && rows[k].epochs > 0 && rows[k].weight > 0 &&
			  rows[k].max_workers >= 1 && rows[k].type >= 0 && rows[k].type < ty.n &&
			  (rows[k].mode == SB_ALLOC_PS) == (rows[k].max_ps >= 1));
	sb_free(rows);
	return ok;
}

FUZZ(alloc_cluster, cluster_seeds, 4, sb_test_mutate, "")
{
	double (*cap)[SB_ALLOC_NRES];
	struct sb_err err = { 0 };
	int n, k, ok;
	(void)r;
	ok = sb_test_accepted(sb_alloc_load_cluster(path, &cap, &n, &err), &err, path);
	if (!ok)
		cr_assert(cap == NULL && n == 0);
	for (k = 0; ok && k < n; k++)
		cr_assert(cap[k][0] >= 0 && cap[k][1] >= 0 && cap[k][0] + cap[k][1] > 0);
	sb_free(cap);
	return ok;
}
