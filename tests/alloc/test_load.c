/*
 * test_load.c - the alloc family's loaders (workloads/alloc/alloc_wl.h):
 * the shared DL2 files load with the counts SOURCES.md §8 lists, the
 * built-in table equals the file, and every kind of bad input is rejected
 * naming the file, the line and the field.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/testutil.h"
#include "workloads/alloc/alloc_wl.h"

Test(alloc_load, dl2_files)
{
	DATA_OR_SKIP(types, "dl2/dl2_job_types.csv");
	struct sb_alloc_types ty, bi;
	struct sb_err err;
	int *c, n, k, K[] = { 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50 };
	cr_assert_eq(sb_alloc_load_types(types, &ty, &err), 0, "%s", err.msg);
	cr_assert_eq(ty.n, 8);
	sb_alloc_types_builtin(&bi);
	for (k = 0; k < 8; k++) {
		cr_assert_str_eq(ty.t[k].model, bi.t[k].model);
		cr_assert(!memcmp(&ty.t[k].compute, &bi.t[k].compute,
				  sizeof(double) * 10), "type %d differs from the built-in copy", k);
	}
	{
		const char *arr = sb_test_data("dl2/dl2_arrival_patterns.csv");
		cr_assert_not_null(arr);
		for (k = 0; k < 11; k++) {
			int i;
			cr_assert_eq(sb_alloc_load_arrivals(arr, K[k], &c, &n, &err), 0, "%s", err.msg);
			cr_assert_eq(n, 75);
			for (i = 0; i < n; i++)
				cr_assert(c[i] >= 0 && c[i] <= K[k]);
			sb_free(c);
		}
		/* the 10-per-slot pattern starts 6, 134, 8, 7 (gadget.md §5), capped */
		sb_alloc_load_arrivals(arr, 10, &c, &n, &err);
		cr_assert(c[0] == 6 && c[1] == 10 && c[2] == 8 && c[3] == 7);
		sb_free(c);
		cr_assert_eq(sb_alloc_load_arrivals(arr, 7, &c, &n, &err), SB_EXIT_INPUT);
		cr_assert(strstr(err.msg, "the file has: 1, 2, 3, 4, 5, 10"), "%s", err.msg);
	}
}

static void bad(int rc, const struct sb_err *err, const char *path, const char *want)
{
	char pre[128];
	cr_assert_eq(rc, SB_EXIT_INPUT, "accepted, expected '%s'", want);
	snprintf(pre, sizeof pre, "'%s'", path);
	cr_assert(strstr(err->msg, pre), "'%s' does not name the file", err->msg);
	cr_assert(strstr(err->msg, want), "'%s' lacks '%s'", err->msg, want);
}

Test(alloc_load, bad_types)
{
	static const char *const cases[][2] = {
		{ "", "empty file" },
		{ "type_id,model\n", "column 3 must be 'local_comp_time_s'" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n",
		  "no job type" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
		  "1,a,0.4,10,100,90,300,2,4,2,0,0.3\n3,b,0.4,10,100,90,300,2,4,2,0,0.3\n",
		  "line 3: field 'type_id': 3, expected 2" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
		  "1,a,0,10,100,90,300,2,4,2,0,0.3\n", "line 2: field 'local_comp_time_s'" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
		  "1,a,0.4,10,100,90,300,2,4,2,0,1.5\n", "field 'num_epochs_fraction'" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
		  "1,a,0.4,10,100,90,300,2,4,2,0,0.3\n2,a,0.4,10,100,90,300,2,4,2,0,0.3\n",
		  "line 3: field 'model': duplicate model 'a'" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
		  "1,a,0.4,10,100,90,300,0,0,2,0,0.3\n", "a worker needs some CPU or GPU" },
		{ "type_id,model,local_comp_time_s,model_size_mb,epoch_size,inter_bw_mb_per_s,"
		  "intra_bw_mb_per_s,worker_cpu,worker_gpu,ps_cpu,ps_gpu,num_epochs_fraction\n"
		  "1,a,0.4,10\n", "line 2: 4 fields, expected 12" },
	};
	size_t k;
	for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		const char *path = sb_test_write(cases[k][0]);
		struct sb_alloc_types ty;
		struct sb_err err;
		bad(sb_alloc_load_types(path, &ty, &err), &err, path, cases[k][1]);
		cr_assert_eq(ty.n, 0);
		unlink(path);
	}
}

Test(alloc_load, bad_arrivals_jobs_clusters)
{
	struct sb_alloc_types ty;
	struct sb_err err;
	const char *p;
	int *c, n;
	struct sb_alloc_jobrow *rows;
	double (*cap)[SB_ALLOC_NRES];

	sb_alloc_types_builtin(&ty);
	p = sb_test_write("max_arrivals_per_ts,timeslot,num_arrivals\n1,0,1\n1,2,1\n");
	bad(sb_alloc_load_arrivals(p, 1, &c, &n, &err), &err, p, "line 3: field 'timeslot': 2, expected 1");
	cr_assert_null(c);
	p = sb_test_write("max_arrivals_per_ts,timeslot,num_arrivals\n1,0,-1\n");
	bad(sb_alloc_load_arrivals(p, 1, &c, &n, &err), &err, p, "line 2: field 'num_arrivals'");
	p = sb_test_write("max_arrivals_per_ts,timeslot\n");
	bad(sb_alloc_load_arrivals(p, 1, &c, &n, &err), &err, p, "header: column 3");

	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n0,x,dssm,1,1,1,1\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "line 2: field 'mode'");
	cr_assert_null(rows);
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n0,ps,dssm,1,65,1,1\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "line 2: field 'max_workers'");
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n0,ps,dssm,1,4,0,1\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "line 2: field 'max_ps'");
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n-1,ps,dssm,1,4,1,1\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "line 2: field 'arrival'");
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n0,ps,dssm,nan,4,1,1\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "line 2: field 'epochs'");
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n0,ps,dssm,1,4,1,0\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "line 2: field 'weight'");
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\n\n");
	bad(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), &err, p, "no job after the header");
	p = sb_test_write("arrival,mode,model,epochs,max_workers,max_ps,weight\r\n3,rar,wlm,2,4,0,1\r\n\n0,ps,dssm,1,4,2,2");
	cr_assert_eq(sb_alloc_load_jobs(p, &ty, &rows, &n, &err), 0, "%s", err.msg);
	cr_assert(n == 2 && rows[0].arrival == 3 && rows[1].mode == SB_ALLOC_PS && rows[1].max_ps == 2);
	sb_free(rows);

	p = sb_test_write("count,gpus,cpus\n0,8,8\n");
	bad(sb_alloc_load_cluster(p, &cap, &n, &err), &err, p, "line 2: field 'count'");
	cr_assert_null(cap);
	p = sb_test_write("count,gpus,cpus\n2,0,0\n");
	bad(sb_alloc_load_cluster(p, &cap, &n, &err), &err, p, "neither GPUs nor CPUs");
	p = sb_test_write("count,gpus,cpus\n100000,8,8\n1,8,8\n");
	bad(sb_alloc_load_cluster(p, &cap, &n, &err), &err, p, "line 3: field 'count': more than");
	p = sb_test_write("count,gpus\n");
	bad(sb_alloc_load_cluster(p, &cap, &n, &err), &err, p, "header");
	p = sb_test_write("count,gpus,cpus\n2,8,24\n1,4,8");
	cr_assert_eq(sb_alloc_load_cluster(p, &cap, &n, &err), 0, "%s", err.msg);
	cr_assert(n == 3 && cap[2][0] == 4 && cap[2][1] == 8);
	sb_free(cap);
	p = sb_test_write("num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n2,4,8,64,256\n");
	cr_assert_eq(sb_alloc_load_cluster(p, &cap, &n, &err), 0, "%s", err.msg);
	cr_assert(n == 8 && cap[7][0] == 8 && cap[7][1] == 64);
	sb_free(cap);
	p = sb_test_write("num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n2,4,x,64,256\n");
	bad(sb_alloc_load_cluster(p, &cap, &n, &err), &err, p, "field 'num_gpu_p_node'");
}
