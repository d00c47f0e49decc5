/*
 * test_fuzz.c - the mutation fuzzer (tests/fuzz.h) on the loaders of the
 * cluster family (workloads/cluster/trace.h, jobs.h) and the JSON reader
 * under the Philly loader (json.h): Tiresias job and cluster CSVs, Philly
 * JSON, one-column value lists, model tensor tables and job-set CSVs.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "json.h"
#include "tests/fuzz.h"
#include "workloads/cluster/jobs.h"
#include "workloads/cluster/trace.h"

/* ------------------------------------------------------------------ */
/* Seeds                                                              */
/* ------------------------------------------------------------------ */

static const char tiresias_seed[] =
	"job_id,num_gpu,submit_time,iterations,model_name,duration,interval\r\n"
	"0,1,0,606,vgg19,164,30\r\n1,8,30,133,vgg11,147,23\r\n"
	"2,2,53,157,inception4,127,26\r\n3,1,53,513,googlenet,121.5,20\r\n";

static const char *const philly_seeds[] = {
	"[\n    {\n        \"id\": \"application_1506638472019_14199\",\n"
	"        \"num_gpus\": 8,\n        \"runtime\": 3221.05,\n"
	"        \"attempts\": [\n            {\n"
	"                \"start_time\": \"2017-10-07 01:12:09\",\n"
	"                \"end_time\": \"2017-10-07 01:13:23\"\n            },\n"
	"            {\n                \"start_time\": \"2017-10-07 01:13:30\",\n"
	"                \"end_time\": \"2017-10-09 06:53:12\"\n            }\n"
	"        ],\n        \"submitted_time\": \"2017-10-07 01:11:39\"\n    },\n"
	"    {\n        \"id\": \"application_1508364558011_25820\",\n"
	"        \"num_gpus\": 4,\n        \"runtime\": 8812.2,\n"
	"        \"attempts\": [\n            {\n"
	"                \"start_time\": \"2017-11-02 05:56:51\",\n"
	"                \"end_time\": \"2017-11-08 08:49:03\"\n            }\n"
	"        ],\n        \"submitted_time\": \"2016-02-29 05:43:55\"\n    }\n]",
	"[{\"id\":\"a\\u00e9\",\"num_gpus\":4,\"runtime\":0,\"attempts\":[],"
	"\"submitted_time\":\"2017-01-01 00:00:00\",\"x\":[true,false,null,{}]},"
	"{\"id\":\"b\",\"num_gpus\":16,\"runtime\":1.5e1,\"attempts\":[{\"start_time\":"
	"\"2017-01-01 00:00:00\",\"end_time\":\"2017-01-01 00:15:00\"}],"
	"\"submitted_time\":\"2017-01-01 00:00:00\"}]",
};

static const char *const values_seeds[] = {
	"runtime\n0.0\n1.0\n1186.0\n4628239.0\n",
	"runtime\r\n121\r\n\r\n2227\r\n53294624",
};

static const char *const cluster_seeds[] = {
	"num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n1,16,4,128,254",
	"num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n5,32,8,128,256\n",
};

static const char tensors_seed[] =
	"model,tensor_index,size_mb\nvgg19,0,1.1\nvgg19,1,2.3\nalexnet,0,0.1\n"
	"vgg19,2,392.0\nalexnet,2,144.0\nalexnet,1,36.0\n";

static const char *const jobs_seeds[] = {
	"arrival,model,d,t,p,iters,micro,batch,family,user\n"
	"0,resnet50,4,1,1,1000,4,256,3,1\n30,bert-large,2,2,2,500,8,64,-1,0\n"
	"30,gpt2-xl,1,8,4,250,16,64,7,19\n12.5,vgg16,2,1,2,80,8,128,3,2\n",
	"iters,p,t,d,model,arrival\r\n10,1,1,8,googlenet,5\r\n\r\n"
	"20,4,2,2,bert-large,0.25\r\n5,2,2,2,gpt2-medium,5\r\n",
	"\n user , family , arrival , model , d , t , p , iters \n"
	" 4 , 0 , 1e2 , alexnet , 1 , 1 , 1 , 1 \n\n 4 , 0 , 0 , inception4 , 8 , 1 , 1 , 2 ",
};

/* ------------------------------------------------------------------ */
/* Mutations                                                          */
/* ------------------------------------------------------------------ */

/* Mutate, or insert a JSON token (structure, escapes, literals). */
static void mutate_json(struct fuzz_buf *b, struct sb_rng *r)
{
	static const char *const tokens[] = {
		"{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "\\ud800", "\\u0000",
		"\\n", "true", "null", "[[[[[[[[", "{\"a\":", "\"id\"", "\"num_gpus\": 4",
		"\"runtime\": 0", "\"attempts\": []", "2017-02-29 00:00:00",
		"9999-12-31 23:59:59", "0001-01-01 00:00:00", "1e400", "-0", "4.0",
	};

	sb_test_mutate_tokens(b, r, tokens, (int)(sizeof tokens / sizeof tokens[0]));
}

/* Mutate, or insert a token of the job CSV (column and model names,
 * values at and beyond the limits of a field). */
static void mutate_jobs(struct fuzz_buf *b, struct sb_rng *r)
{
	static const char *const tokens[] = {
		"arrival", "model", "iters", "micro", "batch", "family", "user", "gpus",
		"resnet50", "vgg16", "bert-base", "gpt2-xl", "alexnet", "resnet", "4096",
		"4097", "64", "65", "256", "65536", "16777216", "1000000000000", "1e12",
		"-1", "-2", "0", "1e13", "1000000",
	};

	sb_test_mutate_tokens(b, r, tokens, (int)(sizeof tokens / sizeof tokens[0]));
}

/* ------------------------------------------------------------------ */
/* Checks                                                             */
/* ------------------------------------------------------------------ */

/* A trace loaded by either trace loader: checked, or rejected and empty;
 * 1 if accepted. */
static int trace_result(int rc, const struct sb_err *err, const struct sb_trace *t,
			const char *path)
{
	int i, k;

	if (!sb_test_accepted(rc, err, path)) {
		cr_assert_null(t->job);
		return 0;
	}
	cr_assert_gt(t->n, 0);
	cr_assert_geq(t->ndropped, 0);
	cr_assert_lt(strlen(t->drop_note), sizeof t->drop_note);
	cr_assert_eq(t->ndropped > 0, t->drop_note[0] != '\0');
	cr_assert_eq(t->job[0].submit, 0);
	for (i = 0; i < t->n; i++) {
		const struct sb_trace_job *x = &t->job[i];
		cr_assert(isfinite(x->submit) && x->submit >= 0);
		if (i)
			cr_assert_geq(x->submit, t->job[i - 1].submit, "not sorted");
		cr_assert_geq(x->gpus, 1);
		cr_assert(isfinite(x->runtime) && (x->runtime > 0 || x->runtime < 0));
		cr_assert(x->iters >= 1 || x->iters == -1);
		cr_assert_geq(x->attempts, 1);
		cr_assert(x->id[0] && memchr(x->id, '\0', sizeof x->id));
		cr_assert(memchr(x->model, '\0', sizeof x->model));
	}
	for (i = 0; i < t->n && t->n <= 64; i++)
		for (k = i + 1; k < t->n; k++)
			cr_assert(strcmp(t->job[i].id, t->job[k].id), "duplicate id");
	return 1;
}

/* A job set as sb_load_jobs_csv promises it (jobs.h, cluster.h). */
static void check_jobset(const struct sb_jobset *js, const char *path)
{
	const struct sb_catalog_entry *cat;
	struct sb_err err = { 0 };
	int i, nc;

	cat = sb_catalog(&nc);
	cr_assert_gt(js->n, 0);
	cr_assert_not_null(js->job);
	cr_assert_eq(js->nmodel, nc);
	for (i = 0; i < nc; i++)
		cr_assert_str_eq(js->model[i].name, cat[i].model.name);
	cr_assert(strstr(js->source, path), "source without the file: %s", js->source);
	for (i = 0; i < js->n; i++) {
		const struct sb_job *j = &js->job[i];
		const struct sb_model *m;
		cr_assert_eq(j->id, i);
		cr_assert(isfinite(j->arrival) && j->arrival >= 0 && j->arrival <= 1e12);
		if (i)
			cr_assert_geq(j->arrival, js->job[i - 1].arrival, "not sorted");
		cr_assert(j->model >= 0 && j->model < js->nmodel);
		m = &js->model[j->model];
		cr_assert(j->d >= 1 && j->t >= 1 && j->p >= 1);
		cr_assert_eq((long)j->gpus, (long)j->d * j->t * j->p);
		cr_assert_leq(j->gpus, 65536);
		cr_assert(m->cls != SB_MODEL_CNN || j->t == 1, "tensor-parallel CNN");
		cr_assert_geq(j->iters, 1);
		cr_assert_geq(j->micro, 1);
		cr_assert_geq((long)j->batch, (long)j->d * j->micro);
		cr_assert_geq(j->family, -1);
		cr_assert_geq(j->user, 0);
		cr_assert_eq(j->batch_mult, (double)j->batch / m->batch);
		cr_assert(j->lr_mult == 1 && j->data_frac == 1 && j->trace_runtime == -1);
	}
	cr_assert_eq(sb_jobset_validate(js, NULL, &err), 0, "%s", err.msg);
}

/* ------------------------------------------------------------------ */
/* Tests                                                              */
/* ------------------------------------------------------------------ */

static const char *const tiresias_seeds[] = { tiresias_seed };

FUZZ(tiresias_jobs, tiresias_seeds, 4, sb_test_mutate, "")
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	int k, ok = trace_result(sb_load_tiresias_jobs(path, &t, &err), &err, &t, path);

	if (ok) {
		cr_assert_eq(t.ndropped, 0);
		for (k = 0; k < t.n; k++)
			cr_assert(t.job[k].runtime > 0 && t.job[k].iters >= 1 && t.job[k].model[0]);
	}
	sb_trace_release(&t);
	return ok;
}

FUZZ(philly_jobs, philly_seeds, 4, mutate_json, "")
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	int k, ok = trace_result(sb_load_philly_jobs(path, &t, &err), &err, &t, path);

	for (k = 0; ok && k < t.n; k++)
		cr_assert(t.job[k].runtime > 0 && t.job[k].iters == -1 && !t.job[k].model[0]);
	sb_trace_release(&t);
	return ok;
}

/* The JSON reader under the Philly loader (json.h), on the same inputs. */
FUZZ(json, philly_seeds, 6, mutate_json, "")
{
	struct sb_json j;
	struct sb_err err = { 0 };
	int k;

	if (!sb_test_accepted(sb_json_read(&j, "json", path, &err), &err, path)) {
		cr_assert_null(j.v);
		return 0;
	}
	/* Every child list is well formed and counted. */
	cr_assert_gt(j.n, 0);
	for (k = 0; k < j.n; k++) {
		const struct sb_json_val *x = &j.v[k];
		int c = 0, e;
		cr_assert_geq(x->line, 1);
		for (e = x->child; e >= 0; e = j.v[e].next, c++) {
			cr_assert(e > k && e < j.n);
			cr_assert_eq(j.v[e].key != NULL, x->type == SB_JSON_OBJECT);
		}
		cr_assert_eq(c, x->count);
		cr_assert_eq(x->str != NULL, x->type == SB_JSON_STRING);
	}
	sb_json_release(&j);
	return 1;
}

FUZZ(values, values_seeds, 4, sb_test_mutate, "")
{
	struct sb_err err = { 0 };
	double *v;
	int k, nv;

	if (!sb_test_accepted(sb_load_values(path, "runtime", &v, &nv, &err), &err, path)) {
		cr_assert_null(v);
		cr_assert_eq(nv, 0);
		return 0;
	}
	cr_assert_gt(nv, 0);
	for (k = 0; k < nv; k++)
		cr_assert(isfinite(v[k]) && v[k] >= 0);
	sb_free(v);
	return 1;
}

FUZZ(tiresias_cluster, cluster_seeds, 3, sb_test_mutate, "")
{
	struct sb_cluster_shape c;
	struct sb_err err = { 0 };

	if (!sb_test_accepted(sb_load_tiresias_cluster(path, &c, &err), &err, path)) {
		cr_assert_eq(c.switches, 0);
		return 0;
	}
	cr_assert(c.switches >= 1 && c.nodes_per_switch >= 1 && c.gpus_per_node >= 1 &&
		  c.cpus_per_node >= 1);
	cr_assert_leq((double)c.switches * c.nodes_per_switch * c.gpus_per_node, 2147483647.0);
	cr_assert(isfinite(c.mem_gb) && c.mem_gb > 0);
	return 1;
}

static const char *const tensors_seeds[] = { tensors_seed };

FUZZ(model_tensors, tensors_seeds, 4, sb_test_mutate, "")
{
	struct sb_tensor_table t;
	struct sb_err err = { 0 };
	int k, i, ok = sb_test_accepted(sb_load_model_tensors(path, &t, &err), &err, path);

	if (ok) {
		cr_assert_gt(t.nmodel, 0);
		cr_assert_eq(t.off[0], 0);
		for (i = 0; i < t.nmodel; i++) {
			int count;
			const double *mb = sb_tensor_table_find(&t, t.name[i], &count);
			cr_assert(t.name[i][0] && memchr(t.name[i], '\0', 32));
			cr_assert_gt(t.off[i + 1], t.off[i]);
			cr_assert_eq(mb, t.mb + t.off[i]);
			cr_assert_eq(count, t.off[i + 1] - t.off[i]);
			for (k = t.off[i]; k < t.off[i + 1]; k++)
				cr_assert(isfinite(t.mb[k]) && t.mb[k] >= 0);
		}
	} else {
		cr_assert_null(t.mb);
	}
	sb_tensor_table_release(&t);
	return ok;
}

FUZZ(job_csv, jobs_seeds, 4, mutate_jobs, "")
{
	struct sb_jobset js;
	struct sb_err err = { 0 };
	int ok = sb_test_accepted(sb_load_jobs_csv(path, &js, &err), &err, path);

	if (ok)
		check_jobset(&js, path);
	else
		cr_assert(js.n == 0 && !js.job && js.nmodel == 0 && !js.model);
	sb_jobset_release(&js);
	return ok;
}
