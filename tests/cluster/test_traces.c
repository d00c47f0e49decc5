/*
 * test_traces.c - loaders of the cluster family (trace.h) and the JSON
 * reader under them (json.h): known answers on the real files
 * (../shared/data, SOURCES.md sections 4 and 5) when present, and small
 * files written here for good input, bad input (exact message parts) and
 * running out of memory.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"
#include "tests/testutil.h"
#include "workloads/cluster/trace.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static void expect_bad(int rc, const struct sb_err *err, const char *path,
		       const char *a, const char *b)
{
	sb_test_expect_bad(rc, err, path, a, b, NULL);
	cr_assert(!strncmp(err->msg, "cannot read ", 12), "%s", err->msg);
}

static void assert_trace(const struct sb_trace *t)
{
	int i;

	cr_assert_gt(t->n, 0);
	cr_assert_not_null(t->job);
	cr_assert_eq(t->job[0].submit, 0);
	for (i = 0; i < t->n; i++) {
		const struct sb_trace_job *x = &t->job[i];
		cr_assert(isfinite(x->submit) && x->submit >= 0);
		if (i)
			cr_assert_geq(x->submit, t->job[i - 1].submit);
		cr_assert_geq(x->gpus, 1);
		cr_assert(x->runtime > 0 || x->runtime < 0);
		cr_assert(x->iters >= 1 || x->iters == -1);
		cr_assert_geq(x->attempts, 1);
		cr_assert(x->id[0] && strlen(x->id) < sizeof x->id);
		cr_assert_lt(strlen(x->model), sizeof x->model);
	}
}

static const struct sb_trace_job *job_by_id(const struct sb_trace *t,
					    const char *id)
{
	int i;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->job[i].id, id))
			return &t->job[i];
	cr_assert_fail("no job '%s'", id);
	return NULL;
}

/* Like sb_test_write, for text that holds NUL bytes. */
static const char *write_bytes(const char *s, size_t n)
{
	const char *p = sb_test_write("");
	FILE *f;

	cr_assert_not_null(p);
	f = fopen(p, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(s, 1, n, f), n);
	cr_assert_eq(fclose(f), 0);
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* ------------------------------------------------------------------ */
/* Real data                                                           */
/* ------------------------------------------------------------------ */

Test(traces, tiresias_60_job)
{
	DATA_OR_SKIP(path, "tiresias/60_job.csv");
	struct sb_trace t;
	struct sb_err err = { 0 };
	int i, gpus[9] = { 0 }, googlenet = 0;

	cr_assert_eq(sb_load_tiresias_jobs(path, &t, &err), 0, "%s", err.msg);
	assert_trace(&t);
	cr_assert_eq(t.n, 60);
	cr_assert_eq(t.ndropped, 0);
	cr_assert_str_empty(t.drop_note);
	cr_assert(strstr(t.source, "tiresias=") && strstr(t.source, "60_job.csv"));
	for (i = 0; i < 60; i++) {
		char id[8];
		snprintf(id, sizeof id, "%d", i);
		cr_assert_str_eq(t.job[i].id, id); /* already in submit order */
		cr_assert(t.job[i].gpus == 1 || t.job[i].gpus == 2 ||
			  t.job[i].gpus == 4 || t.job[i].gpus == 8);
		gpus[t.job[i].gpus]++;
		cr_assert_eq(t.job[i].attempts, 1);
		googlenet += !strcmp(t.job[i].model, "googlenet");
	}
	cr_assert_eq(gpus[1] + gpus[2] + gpus[4] + gpus[8], 60);
	cr_assert(gpus[1] && gpus[2] && gpus[4] && gpus[8]);
	cr_assert_eq(googlenet, 6);
	cr_assert_eq(t.job[0].submit, 0);
	cr_assert_eq(t.job[59].submit, 1779);
	/* 0,1,0,606,vgg19,164,30 and 49,1,1471,4861,resnet152,1800,28 */
	cr_assert_str_eq(t.job[0].model, "vgg19");
	cr_assert_eq(t.job[0].iters, 606);
	cr_assert_eq(t.job[0].runtime, 164);
	cr_assert_eq(t.job[49].submit, 1471);
	cr_assert_eq(t.job[49].iters, 4861);
	cr_assert_eq(t.job[49].runtime, 1800);
	cr_assert_str_eq(t.job[49].model, "resnet152");
	sb_trace_release(&t);
	cr_assert_null(t.job);
}

Test(traces, philly_jobs_json)
{
	DATA_OR_SKIP(path, "philly/jobs.json");
	static const int hist_gpus[][2] = {
		{ 4, 1457 }, { 8, 1353 }, { 16, 148 }, { 32, 61 }, { 12, 4 },
		{ 64, 4 }, { 24, 3 }, { 128, 2 }, { 20, 1 }, { 7, 1 },
	};
	static const int hist_attempts[6] = { 0, 2218, 442, 180, 122, 72 };
	struct sb_trace t;
	struct sb_err err = { 0 };
	int count[129] = { 0 }, att[6] = { 0 }, i, total = 0;
	double t0 = sb_now(), ms, rmin = INFINITY, rmax = 0;
	const struct sb_trace_job *x;

	cr_assert_eq(sb_load_philly_jobs(path, &t, &err), 0, "%s", err.msg);
	ms = (sb_now() - t0) * 1e3;
	cr_log_info("jobs.json loaded in %.2f ms", ms);
	cr_assert_lt(ms, 2000, "%.0f ms", ms);
	assert_trace(&t);
	cr_assert_eq(t.n, 3034);
	cr_assert_eq(t.ndropped, 0);
	cr_assert_str_empty(t.drop_note);
	for (i = 0; i < t.n; i++) {
		cr_assert_leq(t.job[i].gpus, 128);
		count[t.job[i].gpus]++;
		cr_assert_leq(t.job[i].attempts, 5);
		att[t.job[i].attempts]++;
		cr_assert_eq(t.job[i].iters, -1);
		cr_assert_str_empty(t.job[i].model);
		rmin = fmin(rmin, t.job[i].runtime);
		rmax = fmax(rmax, t.job[i].runtime);
	}
	for (i = 0; i < 10; i++) {
		cr_assert_eq(count[hist_gpus[i][0]], hist_gpus[i][1], "%d GPUs: %d jobs",
			     hist_gpus[i][0], count[hist_gpus[i][0]]);
		total += hist_gpus[i][1];
	}
	cr_assert_eq(total, 3034);
	for (i = 1; i <= 5; i++)
		cr_assert_eq(att[i], hist_attempts[i], "%d attempts: %d jobs", i, att[i]);
	/* Runtime 10.0 .. 77137.3 minutes. */
	cr_assert_float_eq(rmin, 600, 1e-6);
	cr_assert_float_eq(rmax, 4628239, 1e-6);
	/* First submission 2017-09-04 10:30:41, last 2017-12-22 04:44:24. */
	cr_assert_str_eq(t.job[0].id, "application_1504131676014_2141");
	cr_assert_str_eq(t.job[t.n - 1].id, "application_1513627406021_2548");
	cr_assert_eq(t.job[t.n - 1].submit, 9396823);
	/* ... and the second one, 7.7 days after the first. */
	cr_assert_eq(t.job[1].submit, 664859);
	x = job_by_id(&t, "application_1506638472019_14199"); /* first in the file */
	cr_assert_eq(x->gpus, 8);
	cr_assert_float_eq(x->runtime, 3221.05 * 60, 1e-6);
	cr_assert_eq(x->attempts, 2);
	cr_assert_eq(x->submit, 2817658); /* 2017-10-07 01:11:39 */
	sb_trace_release(&t);
}

Test(traces, philly_runtime_values)
{
	DATA_OR_SKIP(path, "philly/philly_runtime.csv");
	struct sb_err err = { 0 };
	double *v, t0 = sb_now(), ms;
	int n;

	cr_assert_eq(sb_load_values(path, "runtime", &v, &n, &err), 0, "%s", err.msg);
	ms = (sb_now() - t0) * 1e3;
	cr_log_info("philly_runtime.csv loaded in %.2f ms", ms);
	cr_assert_eq(n, 83154);
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	cr_assert_eq(v[0], 0);
	cr_assert_eq(v[n / 2], 1186);  /* n even: both middle values are 1186 */
	cr_assert_eq(v[n / 2 - 1], 1186);
	cr_assert_eq(v[(int)(0.9 * n)], 12860);
	cr_assert_eq(v[n - 1], 4628239);
	sb_free(v);
	/* The header names the column: another name is an error. */
	cr_assert_eq(sb_load_values(path, "duration", &v, &n, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "line 1: field 'duration'"), "%s", err.msg);
	cr_assert_null(v);
	cr_assert_eq(n, 0);
}

Test(traces, yarn_gput_values)
{
	static const struct {
		const char *file;
		int n;
		double median;
	} want[] = {
		{ "tiresias/yarn-gput1000.csv", 1001, 2227 },
		{ "tiresias/yarn-gput5000.csv", 5000, 2227.5 },
		{ "tiresias/yarn-gput10000.csv", 9999, 2227 },
	};
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *path = sb_test_data(want[i].file);
		struct sb_err err = { 0 };
		double *v, med;
		int n, k;
		if (!path)
			continue;
		found++;
		cr_assert_eq(sb_load_values(path, "duration", &v, &n, &err), 0, "%s",
			     err.msg);
		cr_assert_eq(n, want[i].n, "%s: %d values", want[i].file, n);
		for (k = 1; k < n; k++)  /* stored sorted upstream */
			cr_assert_leq(v[k - 1], v[k]);
		med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		cr_assert_eq(med, want[i].median, "%s: median %g", want[i].file, med);
		cr_assert_eq(v[0], 121);
		cr_assert_eq(v[n - 1], 53294624);
		sb_free(v);
	}
	if (!found)
		cr_skip_test("yarn-gput files not found");
}

Test(traces, tiresias_clusters)
{
	static const struct {
		const char *file;
		struct sb_cluster_shape c;
	} want[] = {
		{ "tiresias/cluster_spec.csv", { 1, 16, 4, 128, 254 } },
		{ "tiresias/n1g4.csv", { 1, 1, 4, 40, 256 } },
		{ "tiresias/n32g4.csv", { 1, 32, 4, 40, 256 } },
		{ "tiresias/n160g8.csv", { 5, 32, 8, 128, 256 } },
		{ "tiresias/n256g8.csv", { 8, 32, 8, 64, 256 } },
	};
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *path = sb_test_data(want[i].file);
		struct sb_cluster_shape c;
		struct sb_err err = { 0 };
		if (!path)
			continue;
		found++;
		cr_assert_eq(sb_load_tiresias_cluster(path, &c, &err), 0, "%s", err.msg);
		cr_assert_eq(c.switches, want[i].c.switches, "%s", want[i].file);
		cr_assert_eq(c.nodes_per_switch, want[i].c.nodes_per_switch);
		cr_assert_eq(c.gpus_per_node, want[i].c.gpus_per_node);
		cr_assert_eq(c.cpus_per_node, want[i].c.cpus_per_node);
		cr_assert_eq(c.mem_gb, want[i].c.mem_gb);
	}
	if (!found)
		cr_skip_test("cluster files not found");
}

Test(traces, tiresias_model_tensors)
{
	DATA_OR_SKIP(path, "tiresias/tiresias_model_tensors.csv");
	static const struct {
		const char *model;
		int count;
		double total;
	} want[] = {
		{ "vgg19", 15, 547.1 }, { "vgg16", 12, 526.8 }, { "vgg11", 9, 506.5 },
		{ "alexnet", 7, 235.8 }, { "resnet152", 48, 149.6 },
		{ "resnet101", 35, 119.7 }, { "resnet50", 18, 80.6 },
		{ "inception4", 81, 132.8 }, { "inception3", 21, 56.6 },
	};
	struct sb_tensor_table t;
	struct sb_err err = { 0 };
	int i, k, count;

	cr_assert_eq(sb_load_model_tensors(path, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.nmodel, 9);
	cr_assert_eq(t.off[9], 246);
	for (i = 0; i < 9; i++) {
		const double *mb = sb_tensor_table_find(&t, want[i].model, &count);
		double sum = 0;
		cr_assert_str_eq(t.name[i], want[i].model); /* file order */
		cr_assert_not_null(mb, "%s", want[i].model);
		cr_assert_eq(count, want[i].count, "%s: %d tensors", want[i].model, count);
		for (k = 0; k < count; k++) {
			cr_assert(mb[k] > 0 && isfinite(mb[k]));
			sum += mb[k];
		}
		cr_assert_float_eq(sum, want[i].total, 0.05, "%s: %.4f MB",
				   want[i].model, sum);
	}
	/* vgg19,0,1.1 is the first row. */
	cr_assert_float_eq(t.mb[0], 1.1, 1e-12);
	/* googlenet (in 60_job.csv) is not in the table: Tiresias falls back
	 * to inception3, which is the caller's decision. */
	cr_assert_null(sb_tensor_table_find(&t, "googlenet", &count));
	cr_assert_eq(count, 0);
	cr_assert_null(sb_tensor_table_find(&t, "VGG19", NULL));
	sb_tensor_table_release(&t);
	cr_assert_eq(t.nmodel, 0);
	cr_assert_null(t.name);
}

/* ------------------------------------------------------------------ */
/* JSON reader                                                         */
/* ------------------------------------------------------------------ */

static void json_bad(const char *text, const char *a, const char *b)
{
	struct sb_json j;
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);
	int rc = sb_json_read(&j, "json", p, &err);

	expect_bad(rc, &err, p, a, b);
	cr_assert_null(j.v);
	cr_assert_eq(j.n, 0);
	unlink(p);
}

Test(traces, json_values_and_lines)
{
	const char *text =
		"{\n"
		"  \"a\": [1, -2.5e3, 0, true, false, null],\n"
		"  \"s\": \"x\\\"y\\\\z\\/\\b\\f\\n\\r\\t\\u00e9\\u20ac\\ud83d\\ude00\",\n"
		"  \"empty\": {}, \"e2\": [],\n"
		"  \"big\": 1e400,\n"
		"  \"a\": \"dup\"\n"
		"}\n";
	const char *p = sb_test_write(text);
	struct sb_json j;
	struct sb_err err = { 0 };
	const struct sb_json_val *r, *a, *x;

	cr_assert_eq(sb_json_read(&j, "json", p, &err), 0, "%s", err.msg);
	r = sb_json_at(&j, 0);
	cr_assert_eq(r->type, SB_JSON_OBJECT);
	cr_assert_eq(r->line, 1);
	cr_assert_eq(r->count, 6);
	cr_assert_null(r->key);
	a = sb_json_at(&j, r->child);
	cr_assert_str_eq(a->key, "a");
	cr_assert_eq(a->type, SB_JSON_ARRAY);
	cr_assert_eq(a->count, 6);
	cr_assert_eq(a->line, 2);
	x = sb_json_at(&j, a->child);
	cr_assert_eq(x->type, SB_JSON_NUMBER);
	cr_assert(x->is_int);
	cr_assert_eq(x->num, 1);
	cr_assert_null(x->key);
	x = sb_json_at(&j, x->next);
	cr_assert(!x->is_int);
	cr_assert_eq(x->num, -2500);
	cr_assert_eq(x->litlen, 6);
	cr_assert_eq(strncmp(x->lit, "-2.5e3", 6), 0);
	x = sb_json_at(&j, x->next);
	cr_assert_eq(x->num, 0);
	x = sb_json_at(&j, x->next);
	cr_assert_eq(x->type, SB_JSON_BOOL);
	cr_assert_eq(x->num, 1);
	x = sb_json_at(&j, x->next);
	cr_assert_eq(x->type, SB_JSON_BOOL);
	cr_assert_eq(x->num, 0);
	x = sb_json_at(&j, x->next);
	cr_assert_eq(x->type, SB_JSON_NULL);
	cr_assert_null(sb_json_at(&j, x->next));
	x = sb_json_at(&j, a->next);
	cr_assert_str_eq(x->key, "s");
	cr_assert_eq(x->line, 3);
	cr_assert_str_eq(x->str, "x\"y\\z/\b\f\n\r\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	x = sb_json_at(&j, x->next);
	cr_assert_eq(x->type, SB_JSON_OBJECT);
	cr_assert_eq(x->count, 0);
	cr_assert_eq(x->child, -1);
	x = sb_json_at(&j, x->next);
	cr_assert_eq(x->type, SB_JSON_ARRAY);
	cr_assert_eq(x->count, 0);
	x = sb_json_at(&j, x->next);
	cr_assert_str_eq(x->key, "big");
	cr_assert(isinf(x->num)); /* kept for the loader to reject by name */
	cr_assert_eq(x->line, 5);
	x = sb_json_at(&j, x->next);
	cr_assert_str_eq(x->key, "a"); /* duplicate names are kept */
	cr_assert_eq(x->line, 6);
	sb_json_release(&j);
	cr_assert_null(j.v);
	unlink(p);

	/* Scalars at the top level, CRLF, no final newline. */
	p = sb_test_write("\r\n\r\n  \"top\"");
	cr_assert_eq(sb_json_read(&j, "json", p, &err), 0, "%s", err.msg);
	cr_assert_eq(j.n, 1);
	cr_assert_eq(j.v[0].line, 3);
	cr_assert_str_eq(j.v[0].str, "top");
	sb_json_release(&j);
	unlink(p);
}

Test(traces, json_bad_input)
{
	char deep[200];
	int i;

	json_bad("", "line 1", "empty file");
	json_bad(" \n\t\n", "line 3", "empty file");
	json_bad("[1, 2", "line 1", "end of file (truncated?)");
	json_bad("[1,\n2,\n", "line 3", "unexpected end of file");
	json_bad("{\"a\": 1,\n \"b\": \"xy", "line 2: field 'b'", "unterminated string");
	json_bad("{\"a\": \"x\ny\"}", "line 1: field 'a'", "line break");
	json_bad("[\"a\tb\"]", "line 1", "control character 0x09");
	json_bad("[\"\\q\"]", "line 1", "invalid escape '\\q'");
	json_bad("[\"\\u12\"]", "line 1", "4 hex digits");
	json_bad("[\"\\u0000\"]", "line 1", "\\u0000");
	json_bad("[\"\\udc00\"]", "line 1", "lone low surrogate");
	json_bad("[\"\\ud800x\"]", "line 1", "without its low half");
	json_bad("[01]", "line 1", "leading zero");
	json_bad("[1.]", "line 1", "no digit after the decimal point");
	json_bad("[1e+]", "line 1", "no digit in the exponent");
	json_bad("[-]", "line 1", "'-' without digits");
	json_bad("[+1]", "line 1", "expected a value, found '+'");
	json_bad("[.5]", "line 1", "expected a value, found '.'");
	json_bad("[0x10]", "line 1", "found 'x'");
	json_bad("[NaN]", "line 1", "found 'N'");
	json_bad("[Infinity]", "line 1", "found 'I'");
	json_bad("[tru]", "line 1", "expected a value, found 'tru]'");
	json_bad("[nul", "line 1", "found 'nul'");
	json_bad("[1,]", "line 1", "expected a value, found ']'");
	json_bad("{\"a\": 1,}", "line 1: field 'a'", "expected a member name in quotes, found '}'");
	json_bad("{\"a\" 1}", "line 1: field 'a'", "expected ':'");
	json_bad("{\"a\": 1\n \"b\": 2}", "line 2: field 'a'",
		 "expected ',' or '}' in the object opened on line 1, found '\"'");
	json_bad("[1 2]", "line 1", "expected ',' or ']' in the array opened on line 1");
	json_bad("{1: 2}", "line 1", "expected a member name in quotes, found '1'");
	json_bad("[1]\n]", "line 2", "']' after the end of the JSON text");
	json_bad("[1] [2]", "line 1", "'[' after the end");
	json_bad("\xef\xbb\xbf[1]", "line 1", "byte 0xef");
	json_bad("[1]\x01", "line 1", "byte 0x01 after the end");
	{
		static const char nul_text[] = "[1,\n\"a\0b\"]";
		const char *p = write_bytes(nul_text, sizeof nul_text - 1);
		struct sb_json j;
		struct sb_err err = { 0 };
		expect_bad(sb_json_read(&j, "json", p, &err), &err, p, "line 2",
			   "NUL byte");
		unlink(p);
	}

	/* Nesting: 64 levels are fine, 65 are not. */
	for (i = 0; i < 64; i++) {
		deep[i] = '[';
		deep[64 + i] = ']';
	}
	deep[128] = '\0';
	{
		const char *p = sb_test_write(deep);
		struct sb_json j;
		struct sb_err err = { 0 };
		cr_assert_eq(sb_json_read(&j, "json", p, &err), 0, "%s", err.msg);
		cr_assert_eq(j.n, 64);
		sb_json_release(&j);
		unlink(p);
	}
	for (i = 0; i < 65; i++) {
		deep[i] = '[';
		deep[65 + i] = ']';
	}
	deep[130] = '\0';
	json_bad(deep, "line 1", "nested deeper than 64");
}

Test(traces, json_hostile_nesting)
{
	/* A million open brackets: an error, not a stack overflow. */
	size_t k = 1000000;
	char *text = malloc(k + 1);
	cr_assert_not_null(text);
	memset(text, '[', k);
	text[k] = '\0';
	json_bad(text, "line 1", "nested deeper than 64");
	memset(text, '{', k);
	json_bad(text, "line 1", "expected a member name");
	free(text);
}

/* ------------------------------------------------------------------ */
/* Tiresias job traces written here                                    */
/* ------------------------------------------------------------------ */

static const char tir_head[] =
	"job_id,num_gpu,submit_time,iterations,model_name,duration,interval\r\n";

/* A job trace: the header followed by body. */
static const char *write_tir(const char *body)
{
	static char buf[4096];
	snprintf(buf, sizeof buf, "%s%s", tir_head, body);
	return sb_test_write(buf);
}

static void tir_bad(const char *body, const char *a, const char *b)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	const char *p = write_tir(body);
	int rc = sb_load_tiresias_jobs(p, &t, &err);

	expect_bad(rc, &err, p, a, b);
	cr_assert(strstr(err.msg, "cannot read trace '"), "%s", err.msg);
	cr_assert_eq(t.n, 0);
	cr_assert_null(t.job);
	sb_trace_release(&t); /* harmless after a failure */
	unlink(p);
}

Test(traces, tiresias_small)
{
	/* Unsorted, a tie, blanks, a blank line, no final newline, and an
	 * earliest submission of 100 (shifted to 0). */
	const char *p = write_tir("a, 2 ,300,10,vgg16,50.5,0\r\n"
				  "b,1,100,20,googlenet,60,0\r\n"
				  "\r\n"
				  "c,4,300,30, resnet50 ,70,0\r\n"
				  "d,8,200.5,1,x,1e3,0");
	struct sb_trace t;
	struct sb_err err = { 0 };

	cr_assert_eq(sb_load_tiresias_jobs(p, &t, &err), 0, "%s", err.msg);
	assert_trace(&t);
	cr_assert_eq(t.n, 4);
	cr_assert_str_eq(t.job[0].id, "b");
	cr_assert_str_eq(t.job[1].id, "d");
	cr_assert_str_eq(t.job[2].id, "a"); /* tie at 300: file order */
	cr_assert_str_eq(t.job[3].id, "c");
	cr_assert_eq(t.job[0].submit, 0);
	cr_assert_eq(t.job[1].submit, 100.5);
	cr_assert_eq(t.job[2].submit, 200);
	cr_assert_eq(t.job[2].gpus, 2);
	cr_assert_eq(t.job[2].runtime, 50.5);
	cr_assert_eq(t.job[2].iters, 10);
	cr_assert_str_eq(t.job[3].model, "resnet50");
	cr_assert_eq(t.job[1].runtime, 1000);
	cr_assert_eq(t.job[0].attempts, 1);
	cr_assert_eq(t.ndropped, 0);
	sb_trace_release(&t);
	unlink(p);
}

Test(traces, tiresias_bad_input)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	const char *p;
	char longid[100];

	p = sb_test_write("");
	expect_bad(sb_load_tiresias_jobs(p, &t, &err), &err, p, "line 1", "empty file");
	unlink(p);
	p = sb_test_write("\n\n");
	expect_bad(sb_load_tiresias_jobs(p, &t, &err), &err, p, "line 3", "empty file");
	unlink(p);
	p = sb_test_write("0,1,0,606,vgg19,164,30\n");
	expect_bad(sb_load_tiresias_jobs(p, &t, &err), &err, p,
		   "line 1: field 'job_id'", "header column 1 is '0'");
	unlink(p);
	p = sb_test_write("job_id,gpus,submit_time,iterations,model_name,duration,interval\n");
	expect_bad(sb_load_tiresias_jobs(p, &t, &err), &err, p,
		   "line 1: field 'num_gpu'", "header column 2 is 'gpus'");
	unlink(p);
	p = sb_test_write("job_id,num_gpu,submit_time,iterations,model_name,duration\n");
	expect_bad(sb_load_tiresias_jobs(p, &t, &err), &err, p, "line 1",
		   "header with 6 columns, expected 7");
	unlink(p);

	tir_bad("", "line 2", "no jobs after the header");
	tir_bad("0,1,0,606,vgg19,164\r\n", "line 2", "6 columns, expected 7");
	tir_bad("0,1,0,606,vgg19,164,30,1\r\n", "line 2", "8 columns, expected 7");
	tir_bad("0,1,0,606,vgg19,164,30\r\n1,two,5,6,vgg19,164,30\r\n",
		"line 3: field 'num_gpu'", "not an integer: 'two'");
	tir_bad("0,2.5,0,606,vgg19,164,30\r\n", "line 2: field 'num_gpu'",
		"not an integer: '2.5'");
	tir_bad("0,0,0,606,vgg19,164,30\r\n", "line 2: field 'num_gpu'",
		"out of range [1,");
	tir_bad("0,-1,0,606,vgg19,164,30\r\n", "line 2: field 'num_gpu'", "out of range");
	tir_bad("0,1,-5,606,vgg19,164,30\r\n", "line 2: field 'submit_time'",
		"negative value");
	tir_bad("0,1,nan,606,vgg19,164,30\r\n", "line 2: field 'submit_time'",
		"not a finite number");
	tir_bad("0,1,0,606,vgg19,inf,30\r\n", "line 2: field 'duration'",
		"not a finite number");
	tir_bad("0,1,0,606,vgg19,1e309,30\r\n", "line 2: field 'duration'",
		"not a finite number");
	tir_bad("0,1,0,606,vgg19,0,30\r\n", "line 2: field 'duration'", "zero duration");
	tir_bad("0,1,0,6.5,vgg19,10,30\r\n", "line 2: field 'iterations'",
		"not an integer");
	tir_bad("0,1,0,0,vgg19,10,30\r\n", "line 2: field 'iterations'", "out of range");
	tir_bad("0,1,0,5,,10,30\r\n", "line 2: field 'model_name'", "missing value");
	tir_bad("0,1,0,5,a_model_name_of_more_than_31_chars,10,30\r\n",
		"line 2: field 'model_name'", "longer than 31 characters");
	tir_bad(" ,1,0,5,m,10,30\r\n", "line 2: field 'job_id'", "missing value");
	tir_bad("0,1,0,5,m,10,-3\r\n", "line 2: field 'interval'", "negative value");
	tir_bad("0,1,0,5,m,10,\r\n", "line 2: field 'interval'", "missing value");
	tir_bad("7,1,0,5,m,10,1\r\n8,1,0,5,m,10,1\r\n\r\n7,2,9,5,m,10,1\r\n8,1,0,5,m,10,1\r\n",
		"line 5: field 'job_id'", "duplicate id '7' (also on line 2)");
	memset(longid, 'x', 64);
	longid[64] = '\0';
	{
		char body[200];
		snprintf(body, sizeof body, "%s,1,0,5,m,10,1\r\n", longid);
		tir_bad(body, "line 2: field 'job_id'", "longer than 63 characters");
		longid[63] = '\0'; /* 63 characters fit */
		snprintf(body, sizeof body, "%s,1,0,5,m,10,1\r\n", longid);
		p = write_tir(body);
		cr_assert_eq(sb_load_tiresias_jobs(p, &t, &err), 0, "%s", err.msg);
		cr_assert_str_eq(t.job[0].id, longid);
		sb_trace_release(&t);
		unlink(p);
	}
	p = "/nonexistent/60_job.csv";
	expect_bad(sb_load_tiresias_jobs(p, &t, &err), &err, p, "No such file", NULL);
}

/* ------------------------------------------------------------------ */
/* Philly job lists written here                                       */
/* ------------------------------------------------------------------ */

static const char philly_text[] =
	"[\n"
	"    {\n"
	"        \"id\": \"application_2\",\n"
	"        \"num_gpus\": 8,\n"
	"        \"runtime\": 3221.05,\n"
	"        \"attempts\": [\n"
	"            {\n"
	"                \"start_time\": \"2017-10-07 01:12:09\",\n"
	"                \"end_time\": \"2017-10-07 01:13:23\"\n"
	"            },\n"
	"            {\n"
	"                \"start_time\": \"2017-10-07 01:13:30\",\n"
	"                \"end_time\": \"2017-10-09 06:53:12\"\n"
	"            }\n"
	"        ],\n"
	"        \"submitted_time\": \"2017-10-07 01:11:39\"\n"
	"    },\n"
	"    {\n"
	"        \"id\": \"application_1\",\n"
	"        \"num_gpus\": 4,\n"
	"        \"runtime\": 10,\n"
	"        \"attempts\": [\n"
	"            {\n"
	"                \"start_time\": \"2016-02-28 23:59:50\",\n"
	"                \"end_time\": \"2016-03-01 00:09:50\"\n"
	"            }\n"
	"        ],\n"
	"        \"submitted_time\": \"2016-02-28 23:59:59\"\n"
	"    }\n"
	"]";

/* philly_text with its first occurrence of `from` replaced by `to`. */
static const char *write_philly(const char *from, const char *to)
{
	static char buf[8192];
	const char *at = from ? strstr(philly_text, from) : NULL;

	if (!from)
		snprintf(buf, sizeof buf, "%s", philly_text);
	else {
		cr_assert_not_null(at, "'%s' not in the seed", from);
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - philly_text),
			 philly_text, to, at + strlen(from));
	}
	return sb_test_write(buf);
}

static void philly_bad(const char *from, const char *to, const char *a,
		       const char *b)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	const char *p = write_philly(from, to);
	int rc = sb_load_philly_jobs(p, &t, &err);

	expect_bad(rc, &err, p, a, b);
	cr_assert(strstr(err.msg, "cannot read trace '"), "%s", err.msg);
	cr_assert_eq(t.n, 0);
	cr_assert_null(t.job);
	unlink(p);
}

static void philly_text_bad(const char *text, const char *a, const char *b)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);
	int rc = sb_load_philly_jobs(p, &t, &err);

	expect_bad(rc, &err, p, a, b);
	cr_assert_null(t.job);
	unlink(p);
}

Test(traces, philly_small)
{
	const char *p = write_philly(NULL, NULL);
	struct sb_trace t;
	struct sb_err err = { 0 };

	cr_assert_eq(sb_load_philly_jobs(p, &t, &err), 0, "%s", err.msg);
	assert_trace(&t);
	cr_assert_eq(t.n, 2);
	cr_assert_str_eq(t.job[0].id, "application_1");
	cr_assert_eq(t.job[0].submit, 0);
	/* 2016-02-28 23:59:59 -> 2017-10-07 01:11:39: 2016 is a leap year. */
	cr_assert_eq(t.job[1].submit, 50634700);
	cr_assert_eq(t.job[0].gpus, 4);
	cr_assert_eq(t.job[0].runtime, 600);
	cr_assert_eq(t.job[0].attempts, 1);
	cr_assert_eq(t.job[0].iters, -1);
	cr_assert_str_empty(t.job[0].model);
	cr_assert_float_eq(t.job[1].runtime, 193263, 1e-6);
	cr_assert_eq(t.job[1].attempts, 2);
	cr_assert_eq(t.ndropped, 0);
	cr_assert(strstr(t.source, "philly="));
	sb_trace_release(&t);
	unlink(p);

	/* Extra keys are ignored; escapes are decoded; times in UTC. */
	p = write_philly("\"num_gpus\": 8,",
			 "\"num_gpus\": 8, \"user\": {\"x\": [null, true]}, \"vc\": \"a\",");
	cr_assert_eq(sb_load_philly_jobs(p, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.job[1].gpus, 8);
	sb_trace_release(&t);
	unlink(p);
	p = write_philly("\"application_1\"", "\"app\\u00e9\\/1\"");
	cr_assert_eq(sb_load_philly_jobs(p, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.job[0].id, "app\xc3\xa9/1");
	sb_trace_release(&t);
	unlink(p);
	/* Equal submission times keep file order. */
	p = write_philly("2016-02-28 23:59:59", "2017-10-07 01:11:39");
	cr_assert_eq(sb_load_philly_jobs(p, &t, &err), 0, "%s", err.msg);
	cr_assert_str_eq(t.job[0].id, "application_2");
	cr_assert_str_eq(t.job[1].id, "application_1");
	cr_assert_eq(t.job[1].submit, 0);
	sb_trace_release(&t);
	unlink(p);
}

Test(traces, philly_dropped)
{
	struct sb_trace t;
	struct sb_err err = { 0 };
	const char *p;
	static const char three[] =
		"[{\"id\": \"a\", \"num_gpus\": 4, \"runtime\": 0, \"attempts\": "
		"[{\"start_time\": \"2017-01-01 00:00:00\", \"end_time\": \"2017-01-01 00:00:00\"}], "
		"\"submitted_time\": \"2017-01-01 00:00:00\"},\n"
		"{\"id\": \"b\", \"num_gpus\": 4, \"runtime\": 5, \"attempts\": [], "
		"\"submitted_time\": \"2017-01-01 00:00:01\"},\n"
		"{\"id\": \"c\", \"num_gpus\": 4, \"runtime\": 0.0, \"attempts\": [], "
		"\"submitted_time\": \"2017-01-01 00:00:02\"},\n"
		"{\"id\": \"a\", \"num_gpus\": 16, \"runtime\": 1.5, \"attempts\": "
		"[{\"start_time\": \"2017-01-01 00:01:00\", \"end_time\": \"2017-01-01 00:02:30\"}], "
		"\"submitted_time\": \"2017-01-01 00:01:00\"}]";

	/* Dropped jobs are not loaded (and do not clash with kept ids); the
	 * earliest loaded submission is time 0. */
	p = sb_test_write(three);
	cr_assert_eq(sb_load_philly_jobs(p, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.n, 1);
	cr_assert_eq(t.ndropped, 3);
	cr_assert_str_eq(t.drop_note, "3 jobs dropped: runtime 0 (2), no attempt (1)");
	cr_assert_str_eq(t.job[0].id, "a");
	cr_assert_eq(t.job[0].gpus, 16);
	cr_assert_eq(t.job[0].submit, 0);
	cr_assert_eq(t.job[0].runtime, 90);
	sb_trace_release(&t);
	unlink(p);

	/* Nothing left: an error that says why. */
	p = sb_test_write("[{\"id\": \"a\", \"num_gpus\": 4, \"runtime\": 0, \"attempts\": [], "
			  "\"submitted_time\": \"2017-01-01 00:00:00\"}]");
	expect_bad(sb_load_philly_jobs(p, &t, &err), &err, p, "line 1",
		   "no job left (1 job dropped: runtime 0 (1))");
	unlink(p);
}

Test(traces, philly_bad_input)
{
	philly_text_bad("", "line 1", "empty file");
	philly_text_bad("[]", "line 1", "no jobs (empty array)");
	philly_text_bad("\n{\"id\": 1}", "line 2", "the text is an object, expected an array");
	philly_text_bad("[1]", "line 1", "array element 0 (from 0) is a number, expected a job object");
	/* Truncated JSON. */
	{
		char cut[2048];
		snprintf(cut, sizeof cut, "%.*s", 600, philly_text);
		philly_text_bad(cut, "line 24: field 'start_time'", "unterminated string");
		snprintf(cut, sizeof cut, "%.*s", (int)strlen(philly_text) - 1, philly_text);
		philly_text_bad(cut, "line 30", "expected ',' or ']' in the array opened on "
				"line 1, found end of file (truncated?)");
	}
	/* Missing keys: the line where the object starts. */
	philly_bad("\"num_gpus\": 8,", "", "line 2: field 'num_gpus'",
		   "missing from the object that starts on this line");
	philly_bad("\"start_time\": \"2017-10-07 01:13:30\",", "",
		   "line 11: field 'attempts[1].start_time'", "missing");
	philly_bad("\"submitted_time\": \"2016-02-28 23:59:59\"", "\"s\": 1",
		   "line 18: field 'submitted_time'", "missing");
	/* Wrong types. */
	philly_bad("\"num_gpus\": 4", "\"num_gpus\": \"4\"", "line 20: field 'num_gpus'",
		   "a string, expected a number");
	philly_bad("\"application_1\"", "17", "line 19: field 'id'",
		   "a number, expected a string");
	philly_bad("\"runtime\": 10", "\"runtime\": null", "line 21: field 'runtime'",
		   "null, expected a number");
	philly_bad("\"attempts\": [\n            {\n                \"start_time\": \"2016",
		   "\"attempts\": {\"x\": 1}, \"a2\": [\n            {\n"
		   "                \"start_time\": \"2016", "line 22: field 'attempts'",
		   "an object, expected an array");
	philly_bad("{\n                \"start_time\": \"2016-02-28 23:59:50\",\n"
		   "                \"end_time\": \"2016-03-01 00:09:50\"\n            }",
		   "true", "line 23: field 'attempts[0]'", "a boolean, expected an object");
	philly_bad("\"start_time\": \"2016-02-28 23:59:50\"", "\"start_time\": 5",
		   "line 24: field 'attempts[0].start_time'", "a number, expected a string");
	/* Bad numbers. */
	philly_bad("\"num_gpus\": 4", "\"num_gpus\": 4.0", "line 20: field 'num_gpus'",
		   "not an integer: '4.0'");
	philly_bad("\"num_gpus\": 4", "\"num_gpus\": 4e0", "line 20: field 'num_gpus'",
		   "not an integer: '4e0'");
	philly_bad("\"num_gpus\": 4", "\"num_gpus\": 0", "line 20: field 'num_gpus'",
		   "out of range [1,");
	philly_bad("\"num_gpus\": 4", "\"num_gpus\": -4", "line 20: field 'num_gpus'",
		   "out of range");
	philly_bad("\"num_gpus\": 4", "\"num_gpus\": 99999999999", "line 20: field 'num_gpus'",
		   "out of range");
	philly_bad("\"runtime\": 10", "\"runtime\": -10", "line 21: field 'runtime'",
		   "negative value");
	philly_bad("\"runtime\": 10", "\"runtime\": 1e999", "line 21: field 'runtime'",
		   "not a finite number: '1e999'");
	philly_bad("\"runtime\": 10", "\"runtime\": 1e20", "line 21: field 'runtime'",
		   "out of range");
	philly_bad("\"runtime\": 10", "\"runtime\": NaN", "line 21: field 'runtime'",
		   "expected a value, found 'N'");
	/* Malformed dates. */
	philly_bad("2016-02-28 23:59:59", "2016-02-30 23:59:59",
		   "line 28: field 'submitted_time'", "'2016-02-30 23:59:59': no such date");
	philly_bad("2016-02-28 23:59:59", "2017-02-29 00:00:00",
		   "line 28: field 'submitted_time'", "no such date");
	philly_bad("2016-02-28 23:59:59", "2016-02-28 24:00:00",
		   "line 28: field 'submitted_time'", "no such date");
	philly_bad("2016-02-28 23:59:59", "2016-02-28 23:59:60",
		   "line 28: field 'submitted_time'", "no such date");
	philly_bad("2016-02-28 23:59:59", "2016-13-28 23:59:59",
		   "line 28: field 'submitted_time'", "no such date");
	philly_bad("2016-02-28 23:59:59", "0000-02-28 23:59:59",
		   "line 28: field 'submitted_time'", "no such date");
	philly_bad("2016-02-28 23:59:59", "2016-02-28T23:59:59",
		   "line 28: field 'submitted_time'", "expected 'YYYY-MM-DD HH:MM:SS'");
	philly_bad("2016-02-28 23:59:59", "2016-2-28 23:59:59",
		   "line 28: field 'submitted_time'", "expected 'YYYY-MM-DD");
	philly_bad("2016-02-28 23:59:59", "2016-02-28 23:59:59Z",
		   "line 28: field 'submitted_time'", "expected 'YYYY-MM-DD");
	philly_bad("2016-02-28 23:59:59", "", "line 28: field 'submitted_time'",
		   "expected 'YYYY");
	philly_bad("\"end_time\": \"2016-03-01 00:09:50\"", "\"end_time\": \"2016-02-28 00:09:50\"",
		   "line 25: field 'attempts[0].end_time'", "is before the start");
	/* Duplicates. */
	philly_bad("\"num_gpus\": 4,", "\"num_gpus\": 4, \"num_gpus\": 4,",
		   "line 20: field 'num_gpus'", "given twice in one object (also on line 20)");
	philly_bad("\"application_1\"", "\"application_2\"", "line 19: field 'id'",
		   "duplicate id 'application_2' (also on line 3)");
	philly_bad("\"application_1\"", "\"\"", "line 19: field 'id'", "empty");
}

/* ------------------------------------------------------------------ */
/* Values, cluster shapes, tensor tables written here                  */
/* ------------------------------------------------------------------ */

static void values_bad(const char *text, const char *a, const char *b)
{
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);
	double *v = (double *)&err;
	int n = 7;

	expect_bad(sb_load_values(p, "runtime", &v, &n, &err), &err, p, a, b);
	cr_assert(strstr(err.msg, "cannot read values '"), "%s", err.msg);
	cr_assert_null(v);
	cr_assert_eq(n, 0);
	unlink(p);
}

Test(traces, values_small)
{
	const char *p = sb_test_write(" runtime \r\n0.0\r\n\r\n 12.5 \r\n1e3");
	struct sb_err err = { 0 };
	double *v;
	int n;

	cr_assert_eq(sb_load_values(p, "runtime", &v, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 3);
	cr_assert_eq(v[0], 0);
	cr_assert_eq(v[1], 12.5);
	cr_assert_eq(v[2], 1000);
	sb_free(v);
	unlink(p);

	values_bad("", "line 1", "empty file");
	values_bad("runtime\n", "line 2", "no values after the header");
	values_bad("duration\n5\n", "line 1: field 'runtime'", "header column 1 is 'duration'");
	values_bad("runtime,x\n5,6\n", "line 1", "header with 2 columns, expected 1");
	values_bad("runtime\n5\n6,7\n", "line 3", "2 columns, expected 1");
	values_bad("runtime\n5\nabc\n", "line 3: field 'runtime'", "not a number: 'abc'");
	values_bad("runtime\n5\n-1\n", "line 3: field 'runtime'", "negative value");
	values_bad("runtime\nnan\n", "line 2: field 'runtime'", "not a finite number");
	values_bad("runtime\n-inf\n", "line 2: field 'runtime'", "not a finite number");
	values_bad("runtime\n1e400\n", "line 2: field 'runtime'", "not a finite number");
}

static void cluster_bad(const char *text, const char *a, const char *b)
{
	struct sb_cluster_shape c;
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);

	expect_bad(sb_load_tiresias_cluster(p, &c, &err), &err, p, a, b);
	cr_assert(strstr(err.msg, "cannot read cluster '"), "%s", err.msg);
	cr_assert_eq(c.switches, 0);
	cr_assert_eq(c.mem_gb, 0);
	unlink(p);
}

#define CL_HEAD "num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n"

Test(traces, cluster_small)
{
	static const char *good[] = {
		CL_HEAD "2,16,4,128,254.5",          /* no final newline */
		CL_HEAD "2,16,4,128,254.5\n",
		CL_HEAD "2, 16 ,4,128,254.5\r\n\r\n",
	};
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		const char *p = sb_test_write(good[i]);
		struct sb_cluster_shape c;
		struct sb_err err = { 0 };
		cr_assert_eq(sb_load_tiresias_cluster(p, &c, &err), 0, "%s", err.msg);
		cr_assert_eq(c.switches, 2);
		cr_assert_eq(c.nodes_per_switch, 16);
		cr_assert_eq(c.gpus_per_node, 4);
		cr_assert_eq(c.cpus_per_node, 128);
		cr_assert_eq(c.mem_gb, 254.5);
		unlink(p);
	}
	cluster_bad("", "line 1", "empty file");
	cluster_bad(CL_HEAD, "line 2", "no data row");
	cluster_bad("num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node\n1,2,3,4\n",
		    "line 1", "header with 4 columns, expected 5");
	cluster_bad(CL_HEAD "1,16,4,128\n", "line 2", "4 columns, expected 5");
	cluster_bad(CL_HEAD "1,16,4,128,254\n1,16,4,128,254\n", "line 3",
		    "a second data row (line 2 is the only one allowed)");
	cluster_bad(CL_HEAD "1,16,x,128,254", "line 2: field 'num_gpu_p_node'",
		    "not an integer: 'x'");
	cluster_bad(CL_HEAD "1,0,4,128,254", "line 2: field 'num_node_p_switch'",
		    "out of range [1,");
	cluster_bad(CL_HEAD "1,16,4,1.5,254", "line 2: field 'num_cpu_p_node'",
		    "not an integer");
	cluster_bad(CL_HEAD "1,16,4,128,-254", "line 2: field 'mem_p_node'", "negative");
	cluster_bad(CL_HEAD "1,16,4,128,0", "line 2: field 'mem_p_node'", "zero memory");
	cluster_bad(CL_HEAD "1,16,4,128,inf", "line 2: field 'mem_p_node'", "not a finite");
	cluster_bad(CL_HEAD "65536,65536,8,1,1", "line 2", "more than 2147483647 in all");
}

static void tensors_bad(const char *body, const char *a, const char *b)
{
	struct sb_tensor_table t;
	struct sb_err err = { 0 };
	char text[4096];
	const char *p;

	snprintf(text, sizeof text, "model,tensor_index,size_mb\n%s", body);
	p = sb_test_write(text);
	expect_bad(sb_load_model_tensors(p, &t, &err), &err, p, a, b);
	cr_assert(strstr(err.msg, "cannot read tensors '"), "%s", err.msg);
	cr_assert_eq(t.nmodel, 0);
	cr_assert_null(t.mb);
	sb_tensor_table_release(&t);
	unlink(p);
}

Test(traces, tensors_small)
{
	const char *p = sb_test_write("model,tensor_index,size_mb\r\n"
				      "b,1,2.5\r\na,0,1\r\nb,0,1.5\r\n\r\nb,2,0\r\n");
	struct sb_tensor_table t;
	struct sb_err err = { 0 };
	const double *mb;
	int count;

	cr_assert_eq(sb_load_model_tensors(p, &t, &err), 0, "%s", err.msg);
	cr_assert_eq(t.nmodel, 2);
	cr_assert_str_eq(t.name[0], "b"); /* first appearance */
	cr_assert_str_eq(t.name[1], "a");
	cr_assert_eq(t.off[0], 0);
	cr_assert_eq(t.off[1], 3);
	cr_assert_eq(t.off[2], 4);
	mb = sb_tensor_table_find(&t, "b", &count);
	cr_assert_eq(count, 3);
	cr_assert_eq(mb[0], 1.5);
	cr_assert_eq(mb[1], 2.5);
	cr_assert_eq(mb[2], 0);
	mb = sb_tensor_table_find(&t, "a", &count);
	cr_assert_eq(count, 1);
	cr_assert_eq(mb[0], 1);
	sb_tensor_table_release(&t);
	unlink(p);

	p = sb_test_write("");
	expect_bad(sb_load_model_tensors(p, &t, &err), &err, p, "line 1", "empty file");
	unlink(p);
	tensors_bad("", "line 2", "no rows after the header");
	tensors_bad("a,0\n", "line 2", "2 columns, expected 3");
	tensors_bad("a,0,1\na,2,1\n", "line 3: field 'tensor_index'",
		    "model 'a' has index 2 but not 1");
	tensors_bad("a,1,1\n", "line 2: field 'tensor_index'",
		    "model 'a' has index 1 but not 0");
	tensors_bad("a,0,1\nb,0,1\na,1,1\na,0,2\n", "line 5: field 'tensor_index'",
		    "index 0 of model 'a' repeated (also on line 2)");
	tensors_bad("a,0.5,1\n", "line 2: field 'tensor_index'", "not an integer");
	tensors_bad("a,-1,1\n", "line 2: field 'tensor_index'", "negative");
	tensors_bad("a,0,x\n", "line 2: field 'size_mb'", "not a number");
	tensors_bad("a,0,-1\n", "line 2: field 'size_mb'", "negative");
	tensors_bad("a,0,nan\n", "line 2: field 'size_mb'", "not a finite number");
	tensors_bad(",0,1\n", "line 2: field 'model'", "missing value");
	p = sb_test_write("model,index,size_mb\n");
	expect_bad(sb_load_model_tensors(p, &t, &err), &err, p,
		   "line 1: field 'tensor_index'", "header column 2 is 'index'");
	unlink(p);
}

/* ------------------------------------------------------------------ */
/* Running out of memory                                               */
/* ------------------------------------------------------------------ */

static int load_tiresias_only(const char *path, struct sb_err *err)
{
	struct sb_trace t;
	int rc = sb_load_tiresias_jobs(path, &t, err);
	sb_trace_release(&t);
	return rc;
}

static int load_philly_only(const char *path, struct sb_err *err)
{
	struct sb_trace t;
	int rc = sb_load_philly_jobs(path, &t, err);
	sb_trace_release(&t);
	return rc;
}

static int load_values_only(const char *path, struct sb_err *err)
{
	double *v;
	int n, rc = sb_load_values(path, "runtime", &v, &n, err);
	sb_free(v);
	return rc;
}

static int load_cluster_only(const char *path, struct sb_err *err)
{
	struct sb_cluster_shape c;
	return sb_load_tiresias_cluster(path, &c, err);
}

static int load_tensors_only(const char *path, struct sb_err *err)
{
	struct sb_tensor_table t;
	int rc = sb_load_model_tensors(path, &t, err);
	sb_tensor_table_release(&t);
	return rc;
}

Test(traces, out_of_memory)
{
	const char *p[5];
	int i;

	p[0] = write_tir("a,2,300,10,vgg16,50,0\r\nb,1,100,20,x,60,0\r\n");
	p[1] = write_philly(NULL, NULL);
	p[2] = sb_test_write("runtime\n1\n2\n3\n");
	p[3] = sb_test_write(CL_HEAD "1,2,3,4,5\n");
	p[4] = sb_test_write("model,tensor_index,size_mb\nb,1,2\na,0,1\nb,0,1\n");
	sb_test_oom_sweep(load_tiresias_only, p[0], "cannot read ", 0);
	sb_test_oom_sweep(load_philly_only, p[1], "cannot read ", 0);
	sb_test_oom_sweep(load_values_only, p[2], "cannot read ", 0);
	sb_test_oom_sweep(load_cluster_only, p[3], "cannot read ", 0);
	sb_test_oom_sweep(load_tensors_only, p[4], "cannot read ", 0);
	for (i = 0; i < 5; i++)
		unlink(p[i]);
}
