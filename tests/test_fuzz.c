/*
 * test_fuzz.c - a deterministic mutation fuzzer for the workload loaders.
 *
 * Small valid inputs are mutated with seeded edits (byte flips, truncation,
 * duplicated, deleted or swapped lines, huge numbers, NaN, "-1", very long
 * lines, NUL bytes; JSON brackets, escapes and literals for the JSON
 * inputs), written to a temporary file and loaded. A loader must
 * return 0 or SB_EXIT_INPUT (with a message naming the file), and on
 * success the instance must be consistent. Run under AddressSanitizer and
 * UBSan by `make asan`, where each test also asks LeakSanitizer at its end
 * that every path freed what it allocated. Iterations per loader:
 * $SB_FUZZ_ITERS (default 300).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/cluster/jobs.h"
#include "json.h"
#include "workloads/pipeline/load.h"
#include "testutil.h"
#include "workloads/cluster/trace.h"
#include "workloads/dag/load.h"

#if defined(__SANITIZE_ADDRESS__)
#define SB_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SB_TEST_ASAN 1
#endif
#endif
#ifdef SB_TEST_ASAN
#include <sanitizer/lsan_interface.h>
#endif

/* ------------------------------------------------------------------ */
/* Seeds                                                               */
/* ------------------------------------------------------------------ */

static const char *const graph_seeds[] = {
	"Id,(Outgoing) node,(Incoming) node,Colocation nodes,#tensorSize, #operations, RAM storage,Device constraint ,name\n"
	"2,15;11;4,1,9;6,414,604,91,NO,\n"
	"9,11,1,2,143,566,46,NO,x/y\n"
	"15,,2;11;1,6,965,213,35,NO,\n"
	"1,2;9;15;6,,,629,157,31,GPU,\n"
	"11,15,2;9,4,131,926,7,NO,\n"
	"6,4,1,2;15,535,756,69,CPU,\n"
	"4,,2;6,11,980,276,58,TPU,SINK\n",
	"Id,out,in,coloc,t,o,r,c\n"
	"0,5;1;6,,,681,250,10,NO\n1,6,0,,448,786,10,NO\n5,,0,,391,244,10,NO\n"
	"6,,0;1,,540,851,10,GPU\n",
	"Meta,1\nId,out,in,coloc,t,o\n0,2;1,,1,681,250\n2,,0,0,370,651\n1,,0,,448,786\n",
};

static const char *const device_seeds[] = {
	"Id,RAM,#operations,commnication speed,type\n"
	"0,30000,118,184;25;138;119,CPU\n1,20000,79,4;149;20,CPU\n"
	"2,10000,45,105;100,CPU\n3,40000,140,23,GPU\n4,50000,50,,CPU\n",
	"Id,RAM,#operations,commnication speed,type\n0,150000,80,100;200,CPU\n"
	"1,430000,40,100,TPU\n2,160000,20,,CPU",
};

static const char *const stg_seeds[] = {
	"          8\n"
	"          0          0          0\n"
	"          1          1          1          0\n"
	"          2          3          1          0\n"
	"          3          3          1          1\n"
	"          4          2          1          1\n"
	"          5          6          2          3          4\n"
	"          6          7          2          3          4\n"
	"          7          4          2          5          6\n"
	"          8          5          1          2\n"
	"          9          0          2          7          8\n"
	"# Standard Task Graph Set Project\n# CP Length           : 15\n",
	("     4     2\n     1    10     0\n     2    10     1     1\n"
	 "     3    10     1     1\n     4     7     2     2     3\n     5     0     1     4\n"),
	"4 2\n0 0 0\n1 10 0\n2 10 1 1\n3 10 1 1\n4 7 2 2 3\n5 0 1 4\n",
};

static const char etc_exe[] =
	"TP,P_0,P_1,P_2\nT_0,14,16,9\nT_1,13,19,18\nT_2,11,13,19\nT_3,13,8,17\n";
static const char etc_conn[] =
	"T,T0,T1,T2,T3\nT0,0,18,12,9\nT1,0,0,0,19\nT2,0,0,0,23\nT3,0,0,0,0\n";
static const char etc_bw[] =
	"P,P_0,P_1,P_2\nP_0,0,1,1\nP_1,1,0,1\nP_2,1,1,0\nStartup,0,0,0\n";

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


/* Layer profiles (graph.txt layout): tab / two-space / space+tab edge
 * lines, a list activation, an Input source, a __getitem__ sink, a late
 * second source, stage_id, non-contiguous ids, no final newline. */
static const char *const profile_seeds[] = {
	"node10 -- Input -- forward_compute_time=5.0, backward_compute_time=0.0, "
	"activation_size=100.0, parameter_size=0.0\n"
	"node20 -- Conv -- forward_compute_time=2.0, backward_compute_time=4.0, "
	"activation_size=[10.0; 30.0], parameter_size=8.0\n"
	"node7 -- BranchA -- forward_compute_time=1, backward_compute_time=2, "
	"activation_size=20, parameter_size=4\n"
	"node30 -- BranchB -- forward_compute_time=3, backward_compute_time=6, "
	"activation_size=5, parameter_size=0 -- stage_id=1\n"
	"node40 -- Add -- forward_compute_time=0.5, backward_compute_time=0.5, "
	"activation_size=40, parameter_size=0\n"
	"node50 -- __getitem__(0) -- forward_compute_time=0, backward_compute_time=0, "
	"activation_size=7, parameter_size=0\n"
	"node5 -- hidden -- forward_compute_time=0.25, backward_compute_time=0, "
	"activation_size=6, parameter_size=2\n"
	"\tnode10 -- node20\n  node20 -- node7\n \tnode20 -- node30\n"
	"\tnode7 -- node40\n\tnode30 -- node40\n\tnode5 -- node40\n\tnode40 -- node50",
	"node1 -- input_ids -- forward_compute_time=0.01, backward_compute_time=0, "
	"activation_size=9216, parameter_size=0\n"
	"node2 -- attention_mask -- forward_compute_time=0.011, backward_compute_time=0, "
	"activation_size=3538944, parameter_size=0 \n"
	"node3 -- layer_0 -- forward_compute_time=2.69, backward_compute_time=4.47, "
	"activation_size=4325376, parameter_size=50384896\n"
	"node4 -- layer_1 -- forward_compute_time=2.69, backward_compute_time=4.47, "
	"activation_size=4325376, parameter_size=50384896\n\n"
	"\tnode1 -- node2\n\tnode1 -- node3\n\tnode2 -- node3\n\tnode3 -- node4\n"
	"\tnode2 -- node4\n",
};

/* ------------------------------------------------------------------ */
/* Mutations                                                           */
/* ------------------------------------------------------------------ */

struct buf {
	char *p;
	size_t n, cap;
};

static void buf_reserve(struct buf *b, size_t need)
{
	if (need <= b->cap)
		return;
	while (b->cap < need)
		b->cap = b->cap ? 2 * b->cap : 256;
	b->p = realloc(b->p, b->cap);
	cr_assert_not_null(b->p);
}

static void buf_set(struct buf *b, const char *s)
{
	b->n = 0;
	buf_reserve(b, strlen(s) + 1);
	memcpy(b->p, s, strlen(s));
	b->n = strlen(s);
}

static void buf_insert(struct buf *b, size_t at, const char *s, size_t k)
{
	buf_reserve(b, b->n + k + 1);
	memmove(b->p + at + k, b->p + at, b->n - at);
	memcpy(b->p + at, s, k);
	b->n += k;
}

static void buf_erase(struct buf *b, size_t at, size_t k)
{
	memmove(b->p + at, b->p + at + k, b->n - at - k);
	b->n -= k;
}

/* Start and end (after the newline) of the line containing byte at. */
static void line_span(const struct buf *b, size_t at, size_t *s, size_t *e)
{
	*s = at;
	while (*s > 0 && b->p[*s - 1] != '\n')
		(*s)--;
	*e = at;
	while (*e < b->n && b->p[*e] != '\n')
		(*e)++;
	if (*e < b->n)
		(*e)++;
}

static size_t pos(struct sb_rng *r, const struct buf *b, int end_ok)
{
	size_t k = b->n + (end_ok ? 1 : 0);
	return k ? sb_rng_below(r, (uint32_t)k) : 0;
}

static void mutate(struct buf *b, struct sb_rng *r)
{
	static const char *const tokens[] = {
		"99999999999999999999", "1e309", "-1e309", "NaN", "nan", "-1", "inf",
		"-0", "2147483647", "2147483648", "-2147483649", ";", ",", "\n", "#",
		"0x10", "  ", "\t", "1.5", "0", "4294967296", "1e-320", "Startup",
		"CPU", "GPU", "NO", ";;", ",,", "\r\n", "-", "+", "e", "P_9", "T_9",
		"# Critical Path 99999999999999999999999\n", "Meta,",
	};
	static const char fill[] = ",;0123456789-.\n #eE+TPN";
	int op = (int)sb_rng_below(r, 16); /* 10..15: benign digit edits */
	size_t at = pos(r, b, 0), s, e, s2, e2;
	char c;

	if (b->n == 0)
		op = 6;
	switch (op) {
	case 0: /* flip bits of a byte */
		b->p[at] ^= (char)(1 + sb_rng_below(r, 255));
		break;
	case 1: /* replace a byte by a structural character */
		b->p[at] = fill[sb_rng_below(r, sizeof fill - 1)];
		break;
	case 2: /* truncate */
		b->n = at;
		break;
	case 3: /* duplicate a line */
		line_span(b, at, &s, &e);
		{
			char *copy = malloc(e - s + 1);
			cr_assert_not_null(copy);
			memcpy(copy, b->p + s, e - s);
			buf_insert(b, e, copy, e - s);
			free(copy);
		}
		break;
	case 4: /* delete a line */
		line_span(b, at, &s, &e);
		buf_erase(b, s, e - s);
		break;
	case 5: /* swap a line with the next one */
		line_span(b, at, &s, &e);
		if (e < b->n) {
			char *tmp;
			line_span(b, e, &s2, &e2);
			tmp = malloc(e2 - s + 1);
			cr_assert_not_null(tmp);
			memcpy(tmp, b->p + e, e2 - e);
			memcpy(tmp + (e2 - e), b->p + s, e - s);
			memcpy(b->p + s, tmp, e2 - s);
			free(tmp);
		}
		break;
	case 6: /* insert a token */
	case 7: {
		const char *t = tokens[sb_rng_below(r, sizeof tokens / sizeof tokens[0])];
		buf_insert(b, pos(r, b, 1), t, strlen(t));
		break;
	}
	case 8: /* a very long run of digits or list entries */
	{
		size_t k = 1000 + sb_rng_below(r, 20000), i, at2 = pos(r, b, 1);
		char *run = malloc(k);
		int kind = (int)sb_rng_below(r, 3);
		cr_assert_not_null(run);
		for (i = 0; i < k; i++)
			run[i] = kind == 0 ? (char)('0' + i % 10)
				: kind == 1 ? (i % 2 ? ';' : '1') : (i % 2 ? ',' : ' ');
		buf_insert(b, at2, run, k);
		free(run);
		break;
	}
	case 9: /* NUL byte */
		c = '\0';
		buf_insert(b, pos(r, b, 1), &c, 1);
		break;
	default: /* replace a digit by another digit (mostly still valid) */
		for (s = 0; s < 8; s++, at = pos(r, b, 0))
			if (b->p[at] >= '0' && b->p[at] <= '9') {
				b->p[at] = (char)('0' + sb_rng_below(r, 10));
				break;
			}
		break;
	}
}

/* mutate, or insert a JSON token (structure, escapes, literals). */
static void mutate_json(struct buf *b, struct sb_rng *r)
{
	static const char *const tokens[] = {
		"{", "}", "[", "]", "\"", ":", ",", "\\", "\\u", "\\ud800", "\\u0000",
		"\\n", "true", "null", "[[[[[[[[", "{\"a\":", "\"id\"", "\"num_gpus\": 4",
		"\"runtime\": 0", "\"attempts\": []", "2017-02-29 00:00:00",
		"9999-12-31 23:59:59", "0001-01-01 00:00:00", "1e400", "-0", "4.0",
	};
	const char *t;

	if (sb_rng_below(r, 2)) {
		mutate(b, r);
		return;
	}
	t = tokens[sb_rng_below(r, sizeof tokens / sizeof tokens[0])];
	buf_insert(b, pos(r, b, 1), t, strlen(t));
}

/* mutate, or insert a token of the job CSV (column and model names, values
 * at and beyond the limits of a field). */
static void mutate_jobs(struct buf *b, struct sb_rng *r)
{
	static const char *const tokens[] = {
		"arrival", "model", "iters", "micro", "batch", "family", "user", "gpus",
		"resnet50", "vgg16", "bert-base", "gpt2-xl", "alexnet", "resnet", "4096",
		"4097", "64", "65", "256", "65536", "16777216", "1000000000000", "1e12",
		"-1", "-2", "0", "1e13", "1000000",
	};
	const char *t;

	if (sb_rng_below(r, 2)) {
		mutate(b, r);
		return;
	}
	t = tokens[sb_rng_below(r, sizeof tokens / sizeof tokens[0])];
	buf_insert(b, pos(r, b, 1), t, strlen(t));
}

/* ------------------------------------------------------------------ */
/* Harness                                                             */
/* ------------------------------------------------------------------ */

static long iterations(void)
{
	const char *s = getenv("SB_FUZZ_ITERS");
	long k = s ? strtol(s, NULL, 10) : 0;
	return k > 0 ? k : 300;
}

static void write_file(const char *path, const struct buf *b)
{
	FILE *f = fopen(path, "wb");
	cr_assert_not_null(f);
	if (b->n)
		cr_assert_eq(fwrite(b->p, 1, b->n, f), b->n);
	cr_assert_eq(fclose(f), 0);
}

/* A fresh temporary path (the file is rewritten by each iteration). */
static void temp_path(char *out, size_t size)
{
	int fd;
	snprintf(out, size, "/tmp/sbfuzz-XXXXXX");
	fd = mkstemp(out);
	cr_assert_geq(fd, 0);
	close(fd);
}

static void check_dag(const struct sb_dag *g)
{
	char *seen;
	int i, k;

	cr_assert_gt(g->n, 0);
	cr_assert_geq(g->m, 0);
	seen = calloc((size_t)g->n, 1);
	cr_assert_not_null(seen);
	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		cr_assert(v >= 0 && v < g->n && !seen[v], "topo is not a permutation");
		seen[v] = 1;
		cr_assert(isfinite(g->ops[i]) && g->ops[i] >= 0);
		cr_assert(isfinite(g->out[i]) && g->out[i] >= 0);
		cr_assert(g->comp[i] >= 0 && g->comp[i] < g->ncomp);
	}
	free(seen);
	cr_assert_eq(g->succ_off[0], 0);
	cr_assert_eq(g->succ_off[g->n], g->m);
	for (i = 0; i < g->n; i++)
		for (k = g->succ_off[i]; k < g->succ_off[i + 1]; k++)
			cr_assert(g->succ[k] >= 0 && g->succ[k] < g->n && g->succ[k] != i);
}

static void check_devices(const struct sb_devices *d)
{
	int i;
	cr_assert_gt(d->n, 0);
	for (i = 0; i < d->n; i++)
		cr_assert(d->speed[i] > 0 && isfinite(d->speed[i]));
}

static void check_trace(const struct sb_trace *t)
{
	int i, k;

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

static void check_fail(int rc, const struct sb_err *err, const char *path)
{
	cr_assert(rc == SB_EXIT_INPUT, "rc %d: %s", rc, err->msg);
	cr_assert(strstr(err->msg, path), "message without the file: %s", err->msg);
}

/* Under `make asan`: nothing the test allocated is unreachable. LeakSanitizer's
 * report when a Criterion worker exits does not fail the test, so each
 * test asks for the check itself. */
static void assert_no_leaks(void)
{
#ifdef SB_TEST_ASAN
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (report above)");
#endif
}

static uint64_t test_seed(const char *name)
{
	return sb_hash_str(name);
}

/* ------------------------------------------------------------------ */
/* The driver                                                          */
/* ------------------------------------------------------------------ */

/* One loader under fuzzing: its seed files, how they are mutated, and
 * what to do with a mutated file. */
struct fuzz_target {
	const char *name;
	const char *const *seeds;
	int nseeds;
	int maxmut;                  /* 1..maxmut mutations per input */
	void (*mutate)(struct buf *b, struct sb_rng *r);
	const char *suffix;          /* of the temporary file's name ("": none) */
	/* Load path and check the result (accepted) or the error and the
	 * zeroed output (rejected); 1 if accepted. r: extra random choices. */
	int (*check)(const char *path, struct sb_rng *r);
};

static void fuzz_run(const struct fuzz_target *f)
{
	struct sb_rng r = sb_rng_stream(test_seed(f->name), 0, 0, SB_RNG_TEST);
	struct buf b = { 0 };
	char path[64];
	long it, n = iterations(), ok = 0;
	int fd;

	snprintf(path, sizeof path, "/tmp/sbfuzz-XXXXXX%s", f->suffix);
	fd = mkstemps(path, (int)strlen(f->suffix));
	cr_assert_geq(fd, 0);
	close(fd);
	for (it = 0; it < n; it++) {
		int k, muts = 1 + (int)sb_rng_below(&r, (uint32_t)f->maxmut);
		buf_set(&b, f->seeds[sb_rng_below(&r, (uint32_t)f->nseeds)]);
		for (k = 0; k < muts; k++)
			f->mutate(&b, &r);
		write_file(path, &b);
		ok += f->check(path, &r);
	}
	cr_log_info("fuzz %s: %ld of %ld mutated inputs accepted", f->name, ok, n);
	free(b.p);
	unlink(path);
	assert_no_leaks();
}

#define FUZZ(name_, seeds_, maxmut_, mutate_, suffix_)                              \
	Test(fuzz, name_)                                                            \
	{                                                                            \
		const struct fuzz_target f = { #name_, seeds_,                       \
					       (int)(sizeof seeds_ / sizeof seeds_[0]), \
					       maxmut_, mutate_, suffix_, check_##name_ }; \
		fuzz_run(&f);                                                        \
	}

/* ------------------------------------------------------------------ */
/* Tests                                                               */
/* ------------------------------------------------------------------ */

static int check_tf_graph(const char *path, struct sb_rng *r)
{
	struct sb_dag g;
	struct sb_err err = { 0 };
	int rc = sb_load_tf_graph(path, &g, &err);
	(void)r;
	if (rc) {
		check_fail(rc, &err, path);
		return 0;
	}
	check_dag(&g);
	sb_dag_release(&g);
	return 1;
}
FUZZ(tf_graph, graph_seeds, 4, mutate, "")

static int check_tf_devices(const char *path, struct sb_rng *r)
{
	struct sb_devices d;
	struct sb_err err = { 0 };
	int rc = sb_load_tf_devices(path, &d, &err);
	(void)r;
	if (rc) {
		check_fail(rc, &err, path);
		return 0;
	}
	check_devices(&d);
	sb_devices_release(&d);
	return 1;
}
FUZZ(tf_devices, device_seeds, 4, mutate, "")

Test(fuzz, tf_inst)
{
	struct sb_rng r = sb_rng_stream(test_seed("tf_inst"), 0, 0, SB_RNG_TEST);
	struct buf bg = { 0 }, bd = { 0 };
	char gpath[64], dpath[64];
	long it, n = iterations() / 3 + 1;

	temp_path(gpath, sizeof gpath);
	temp_path(dpath, sizeof dpath);
	for (it = 0; it < n; it++) {
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		struct buf *which;
		int rc;
		buf_set(&bg, graph_seeds[0]);
		buf_set(&bd, device_seeds[0]);
		which = sb_rng_below(&r, 2) ? &bg : &bd;
		mutate(which, &r);
		write_file(gpath, &bg);
		write_file(dpath, &bd);
		rc = sb_load_tf_inst(gpath, dpath, &in, &err);
		if (rc == 0) {
			check_dag(&in.g);
			check_devices(&in.dev);
			cr_assert_not_null(in.name);
			sb_dag_inst_release(&in);
		} else {
			check_fail(rc, &err, which == &bg ? gpath : dpath);
			cr_assert_null(in.name);
		}
	}
	free(bg.p);
	free(bd.p);
	unlink(gpath);
	unlink(dpath);
	assert_no_leaks();
}

static int check_stg(const char *path, struct sb_rng *r)
{
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	long cp;
	int ndev = 1 + (int)sb_rng_below(r, 4);
	int rc = sb_load_stg(path, ndev, &in, &cp, &err);
	if (rc) {
		check_fail(rc, &err, path);
		return 0;
	}
	check_dag(&in.g);
	check_devices(&in.dev);
	cr_assert_eq(in.dev.n, ndev);
	cr_assert_geq(cp, -1);
	sb_dag_inst_release(&in);
	return 1;
}
FUZZ(stg, stg_seeds, 4, mutate, "")

Test(fuzz, etc)
{
	struct sb_rng r = sb_rng_stream(test_seed("etc"), 0, 0, SB_RNG_TEST);
	struct buf b[3] = { { 0 }, { 0 }, { 0 } };
	const char *seed[3] = { etc_exe, etc_conn, etc_bw };
	char path[3][64];
	long it, n = iterations(), ok = 0;
	int i;

	for (i = 0; i < 3; i++)
		temp_path(path[i], sizeof path[i]);
	for (it = 0; it < n; it++) {
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		int k, which = (int)sb_rng_below(&r, 3), rc;
		int muts = 1 + (int)sb_rng_below(&r, 3);
		for (i = 0; i < 3; i++)
			buf_set(&b[i], seed[i]);
		for (k = 0; k < muts; k++)
			mutate(&b[which], &r);
		for (i = 0; i < 3; i++)
			write_file(path[i], &b[i]);
		rc = sb_load_etc(path[0], path[1], path[2], &in, &err);
		if (rc == 0) {
			int v, d;
			check_dag(&in.g);
			check_devices(&in.dev);
			for (v = 0; v < in.g.n; v++)
				for (d = 0; d < in.dev.n; d++)
					cr_assert(isfinite(in.etc[v * in.dev.n + d]));
			sb_dag_inst_release(&in);
			ok++;
		} else {
			/* A size change in one file may be reported on another. */
			cr_assert(rc == SB_EXIT_INPUT, "rc %d: %s", rc, err.msg);
			cr_assert(strstr(err.msg, path[0]) || strstr(err.msg, path[1]) ||
				  strstr(err.msg, path[2]), "message without a file: %s",
				  err.msg);
		}
	}
	cr_log_info("fuzz etc: %ld of %ld mutated inputs accepted", ok, n);
	for (i = 0; i < 3; i++) {
		free(b[i].p);
		unlink(path[i]);
	}
	assert_no_leaks();
}

/* ------------------------------------------------------------------ */
/* Cluster-family loaders (trace.h)                                    */
/* ------------------------------------------------------------------ */

static const char *const tiresias_seeds[] = { tiresias_seed };

static int check_tiresias_jobs(const char *path, struct sb_rng *r)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	int k, rc = sb_load_tiresias_jobs(path, &t, &err);
	(void)r;
	if (rc == 0) {
		check_trace(&t);
		cr_assert_eq(t.ndropped, 0);
		for (k = 0; k < t.n; k++)
			cr_assert(t.job[k].runtime > 0 && t.job[k].iters >= 1 && t.job[k].model[0]);
	} else {
		check_fail(rc, &err, path);
		cr_assert_null(t.job);
	}
	sb_trace_release(&t);
	return rc == 0;
}
FUZZ(tiresias_jobs, tiresias_seeds, 4, mutate, "")

static int check_philly_jobs(const char *path, struct sb_rng *r)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	int k, rc = sb_load_philly_jobs(path, &t, &err);
	(void)r;
	if (rc == 0) {
		check_trace(&t);
		for (k = 0; k < t.n; k++)
			cr_assert(t.job[k].runtime > 0 && t.job[k].iters == -1 &&
				  !t.job[k].model[0]);
	} else {
		check_fail(rc, &err, path);
		cr_assert_null(t.job);
	}
	sb_trace_release(&t);
	return rc == 0;
}
FUZZ(philly_jobs, philly_seeds, 4, mutate_json, "")

static int check_json(const char *path, struct sb_rng *r)
{
	struct sb_json j;
	struct sb_err err = { 0 };
	int k, rc = sb_json_read(&j, "json", path, &err);
	(void)r;
	if (rc) {
		check_fail(rc, &err, path);
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
FUZZ(json, philly_seeds, 6, mutate_json, "")

static int check_values(const char *path, struct sb_rng *r)
{
	struct sb_err err = { 0 };
	double *v;
	int k, nv, rc = sb_load_values(path, "runtime", &v, &nv, &err);
	(void)r;
	if (rc) {
		check_fail(rc, &err, path);
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
FUZZ(values, values_seeds, 4, mutate, "")

static int check_tiresias_cluster(const char *path, struct sb_rng *r)
{
	struct sb_cluster_shape c;
	struct sb_err err = { 0 };
	int rc = sb_load_tiresias_cluster(path, &c, &err);
	(void)r;
	if (rc) {
		check_fail(rc, &err, path);
		cr_assert_eq(c.switches, 0);
		return 0;
	}
	cr_assert(c.switches >= 1 && c.nodes_per_switch >= 1 && c.gpus_per_node >= 1 &&
		  c.cpus_per_node >= 1);
	cr_assert_leq((double)c.switches * c.nodes_per_switch * c.gpus_per_node, 2147483647.0);
	cr_assert(isfinite(c.mem_gb) && c.mem_gb > 0);
	return 1;
}
FUZZ(tiresias_cluster, cluster_seeds, 3, mutate, "")

static const char *const tensors_seeds[] = { tensors_seed };

static int check_model_tensors(const char *path, struct sb_rng *r)
{
	struct sb_tensor_table t;
	struct sb_err err = { 0 };
	int k, i, rc = sb_load_model_tensors(path, &t, &err);
	(void)r;
	if (rc == 0) {
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
		check_fail(rc, &err, path);
		cr_assert_null(t.mb);
	}
	sb_tensor_table_release(&t);
	return rc == 0;
}
FUZZ(model_tensors, tensors_seeds, 4, mutate, "")

static int check_job_csv(const char *path, struct sb_rng *r)
{
	struct sb_jobset js;
	struct sb_err err = { 0 };
	int rc = sb_load_jobs_csv(path, &js, &err);
	(void)r;
	if (rc == 0) {
		check_jobset(&js, path);
	} else {
		check_fail(rc, &err, path);
		cr_assert(js.n == 0 && !js.job && js.nmodel == 0 && !js.model);
	}
	sb_jobset_release(&js);
	return rc == 0;
}
FUZZ(job_csv, jobs_seeds, 4, mutate_jobs, "")

/* ------------------------------------------------------------------ */
/* Pipeline-family profiles (workloads/pipeline/load.h)                               */
/* ------------------------------------------------------------------ */

/* A model as the profile loaders promise it. */
static void check_pmodel(const struct sb_pmodel *m, const char *path, int pbs)
{
	int i;

	cr_assert_gt(m->n, 0);
	cr_assert_not_null(m->layer);
	cr_assert_eq(m->pbs, pbs);
	cr_assert(memchr(m->name, '\0', sizeof m->name) && m->name[0]);
	cr_assert(!strncmp(m->source, "real: ", 6) && strstr(m->source, path),
		  "source %s", m->source);
	for (i = 0; i < m->n; i++) {
		const struct sb_layer *l = &m->layer[i];
		cr_assert(memchr(l->name, '\0', sizeof l->name));
		cr_assert(isfinite(l->fwd) && l->fwd >= 0);
		cr_assert(isfinite(l->bwd) && l->bwd >= 0);
		cr_assert(isfinite(l->act) && l->act >= 0);
		cr_assert(isfinite(l->stash) && l->stash >= 0);
		cr_assert(isfinite(l->params) && l->params >= 0);
	}
}

/* A profile loaded by either loader: checked, or rejected and zeroed. */
static int profile_result(int rc, const struct sb_err *err, struct sb_pmodel *m,
			  const char *path, int pbs)
{
	if (rc == 0) {
		check_pmodel(m, path, pbs);
	} else {
		check_fail(rc, err, path);
		cr_assert(m->n == 0 && !m->layer && !m->source[0], "not zeroed");
	}
	sb_pmodel_release(m);
	return rc == 0;
}

static int check_pipedream_profile(const char *path, struct sb_rng *r)
{
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	int pbs = 1 + (int)sb_rng_below(r, 64);
	return profile_result(sb_load_pipedream_profile(path, pbs, &m, &err), &err, &m, path,
			      pbs);
}
FUZZ(pipedream_profile, profile_seeds, 4, mutate, "")

/* DAPPLE's loader reads the profile batch size from the file name. */
static int check_dapple_profile(const char *path, struct sb_rng *r)
{
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	(void)r;
	return profile_result(sb_load_dapple_profile(path, &m, &err), &err, &m, path, 4);
}
FUZZ(dapple_profile, profile_seeds, 4, mutate, "-pbs-4.txt")

