/*
 * test_jobcsv.c - the user job-set CSV loader (jobcsv.c, sb_load_jobs_csv):
 * small files written here for good input (exact field values), bad input
 * (exact message parts naming line and field), running out of memory, and
 * a round trip of a W1 job set through CSV.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/cluster/jobs.h"
#include "tests/testutil.h"

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

/* Under `make asan`: nothing this test allocated is unreachable. (A leak
 * LeakSanitizer finds when a Criterion worker exits is printed but does
 * not fail the test, so the tests ask for the check themselves.) */
static void assert_no_leaks(void)
{
#ifdef SB_TEST_ASAN
	cr_assert_eq(__lsan_do_recoverable_leak_check(), 0, "memory leaked (report above)");
#endif
}

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

#define HEAD "arrival,model,d,t,p,iters\n"

static int model_of(const char *name)
{
	int k = sb_catalog_find(name);
	cr_assert_geq(k, 0, "model %s not in the catalogue", name);
	return k;
}

static void load_ok(const char *text, struct sb_jobset *js)
{
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);

	cr_assert_not_null(p);
	cr_assert_eq(sb_load_jobs_csv(p, js, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_jobset_validate(js, NULL, &err), 0, "%s", err.msg);
	unlink(p);
}

/* One job's fields, in the order of the CSV columns. */
static void assert_job(const struct sb_jobset *js, int i, double arrival, const char *model,
		       int d, int t, int p, long iters, int micro, int batch, int family,
		       int user)
{
	const struct sb_job *j;
	int nc;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	cr_assert_lt(i, js->n);
	j = &js->job[i];
	cr_assert_eq(j->id, i);
	cr_assert_eq(j->arrival, arrival, "job %d: arrival %.17g", i, j->arrival);
	cr_assert_eq(j->model, model_of(model), "job %d: model %d", i, j->model);
	cr_assert_str_eq(js->model[j->model].name, model);
	cr_assert_eq(j->d, d, "job %d: d %d", i, j->d);
	cr_assert_eq(j->t, t, "job %d: t %d", i, j->t);
	cr_assert_eq(j->p, p, "job %d: p %d", i, j->p);
	cr_assert_eq(j->gpus, d * t * p);
	cr_assert_eq(j->iters, iters, "job %d: iters %ld", i, j->iters);
	cr_assert_eq(j->micro, micro, "job %d: micro %d", i, j->micro);
	cr_assert_eq(j->batch, batch, "job %d: batch %d", i, j->batch);
	cr_assert_eq(j->family, family, "job %d: family %d", i, j->family);
	cr_assert_eq(j->user, user, "job %d: user %d", i, j->user);
	cr_assert_eq(j->batch_mult, (double)batch / cat[j->model].model.batch);
	cr_assert_eq(j->lr_mult, 1);
	cr_assert_eq(j->data_frac, 1);
	cr_assert_eq(j->trace_runtime, -1);
}

/* A failed load: SB_EXIT_INPUT, "cannot read job set '<path>': ..." with
 * the parts a and b, and nothing left to free. */
static void expect_bad(int rc, const struct sb_err *err, const struct sb_jobset *js,
		       const char *path, const char *a, const char *b)
{
	char head[300];

	snprintf(head, sizeof head, "cannot read job set '%s': ", path);
	cr_assert_eq(rc, SB_EXIT_INPUT, "rc %d for %s (%s)", rc, path, err->msg);
	cr_assert_eq(err->code, SB_EXIT_INPUT);
	cr_assert(!strncmp(err->msg, head, strlen(head)), "message does not start with '%s': %s",
		  head, err->msg);
	if (a)
		cr_assert(strstr(err->msg, a), "'%s' not in: %s", a, err->msg);
	if (b)
		cr_assert(strstr(err->msg, b), "'%s' not in: %s", b, err->msg);
	cr_assert_eq(js->n, 0);
	cr_assert_null(js->job);
	cr_assert_eq(js->nmodel, 0);
	cr_assert_null(js->model);
}

static void jc_bad(const char *text, const char *a, const char *b)
{
	struct sb_jobset js;
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);

	cr_assert_not_null(p);
	expect_bad(sb_load_jobs_csv(p, &js, &err), &err, &js, p, a, b);
	sb_jobset_release(&js); /* harmless after a failure */
	unlink(p);
}

/* ------------------------------------------------------------------ */
/* Good input                                                          */
/* ------------------------------------------------------------------ */

Test(jobcsv, all_columns_any_order)
{
	struct sb_jobset js;
	int nc;

	sb_catalog(&nc);
	load_ok("user,iters,batch,p,family,model,micro,t,arrival,d\n"
		"3,500,128,1,7,vgg16,2,1,12.5,8\n"
		"0,9000000000,64,2,-1,gpt2-medium,16,2,0,2\n",
		&js);
	cr_assert_eq(js.n, 2);
	cr_assert_eq(js.nmodel, nc);
	assert_job(&js, 0, 0, "gpt2-medium", 2, 2, 2, 9000000000L, 16, 64, -1, 0);
	assert_job(&js, 1, 12.5, "vgg16", 8, 1, 1, 500, 2, 128, 7, 3);
	cr_assert_eq(js.job[1].batch_mult, 0.5);
	cr_assert_eq(js.job[0].batch_mult, 1);
	cr_assert(strstr(js.source, "user job set '") && strstr(js.source, "(2 jobs)"), "%s",
		  js.source);
	sb_jobset_release(&js);
	cr_assert_null(js.job);
	cr_assert_null(js.model);
}

Test(jobcsv, optional_columns_absent)
{
	struct sb_jobset js;
	int i, nc;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	load_ok("iters,p,t,d,model,arrival\n"
		"10,1,1,1,resnet50,5\n"
		"20,4,2,2,bert-large,6\n",
		&js);
	cr_assert_eq(js.n, 2);
	/* defaults: micro 4p, the model's batch, family -1, user 0 */
	assert_job(&js, 0, 5, "resnet50", 1, 1, 1, 10, 4, 256, -1, 0);
	assert_job(&js, 1, 6, "bert-large", 2, 2, 4, 20, 16, 64, -1, 0);
	/* the model table is the catalogue */
	cr_assert_eq(js.nmodel, nc);
	for (i = 0; i < nc; i++) {
		cr_assert_str_eq(js.model[i].name, cat[i].model.name);
		cr_assert_eq(js.model[i].batch, cat[i].model.batch);
		cr_assert_eq(js.model[i].params, cat[i].model.params);
	}
	sb_jobset_release(&js);
}

Test(jobcsv, some_optional_columns)
{
	struct sb_jobset js;

	/* batch without micro, family without user, and the other way round */
	load_ok("arrival,model,d,t,p,iters,batch,family\n"
		"1,vgg19,2,1,1,30,32,4\n", &js);
	assert_job(&js, 0, 1, "vgg19", 2, 1, 1, 30, 4, 32, 4, 0);
	sb_jobset_release(&js);
	load_ok("arrival,model,d,t,p,iters,micro,user\n"
		"1,bert-base,2,2,1,30,8,19\n", &js);
	assert_job(&js, 0, 1, "bert-base", 2, 2, 1, 30, 8, 64, -1, 19);
	sb_jobset_release(&js);
}

Test(jobcsv, blank_lines_crlf_and_blanks)
{
	struct sb_jobset js;

	/* a leading blank line, CRLF, blanks around fields and header names,
	 * blank and blank-only lines between jobs, no final newline */
	load_ok("\r\n"
		" arrival , model ,d,t,p, iters \r\n"
		"\r\n"
		" 7 , googlenet ,4, 1 ,1, 70 \r\n"
		"   \r\n"
		"\t\r\n"
		"3.25,alexnet,1,1,1,30",
		&js);
	cr_assert_eq(js.n, 2);
	assert_job(&js, 0, 3.25, "alexnet", 1, 1, 1, 30, 4, 256, -1, 0);
	assert_job(&js, 1, 7, "googlenet", 4, 1, 1, 70, 4, 256, -1, 0);
	sb_jobset_release(&js);

	/* LF only, exponent and fraction arrivals */
	load_ok(HEAD "1e2,vgg11,1,1,1,1\n0.5,vgg11,1,1,1,2\n", &js);
	assert_job(&js, 0, 0.5, "vgg11", 1, 1, 1, 2, 4, 256, -1, 0);
	assert_job(&js, 1, 100, "vgg11", 1, 1, 1, 1, 4, 256, -1, 0);
	sb_jobset_release(&js);
}

Test(jobcsv, sorted_by_arrival_ties_in_file_order)
{
	struct sb_jobset js;
	int i;

	/* iters identify the file rows: arrivals 30, 10, 20, 0, 10, 10 */
	load_ok(HEAD
		"30,resnet50,1,1,1,1\n"
		"10,resnet50,1,1,1,2\n"
		"20,resnet50,1,1,1,3\n"
		"10,resnet50,1,1,1,4\n"
		"0,resnet50,1,1,1,5\n"
		"10,resnet50,1,1,1,6\n",
		&js);
	cr_assert_eq(js.n, 6);
	/* sorted, file order within the tie at 10, renumbered 0..n-1 */
	cr_assert_eq(js.job[0].iters, 5);
	for (i = 0; i < 6; i++) {
		static const double arr[] = { 0, 10, 10, 10, 20, 30 };
		cr_assert_eq(js.job[i].id, i);
		cr_assert_eq(js.job[i].arrival, arr[i]);
	}
	cr_assert_eq(js.job[1].iters, 2);
	cr_assert_eq(js.job[2].iters, 4);
	cr_assert_eq(js.job[3].iters, 6);
	cr_assert_eq(js.job[4].iters, 3);
	cr_assert_eq(js.job[5].iters, 1);
	sb_jobset_release(&js);
}

Test(jobcsv, many_equal_arrivals_keep_file_order)
{
	/* qsort is not stable: the tie-break on the line must hold for many
	 * equal keys, not only for a handful */
	char *text = malloc(64 * 1000 + 64);
	size_t k = 0;
	struct sb_jobset js;
	int i;

	cr_assert_not_null(text);
	k += (size_t)sprintf(text + k, HEAD);
	for (i = 0; i < 1000; i++)
		k += (size_t)sprintf(text + k, "%d,resnet50,1,1,1,%d\n", i % 3 ? 5 : 1, i + 1);
	load_ok(text, &js);
	free(text);
	cr_assert_eq(js.n, 1000);
	for (i = 1; i < js.n; i++) {
		const struct sb_job *a = &js.job[i - 1], *b = &js.job[i];
		cr_assert_eq(b->id, i);
		cr_assert(a->arrival < b->arrival ||
			  (a->arrival == b->arrival && a->iters < b->iters),
			  "jobs %d and %d out of file order", i - 1, i);
	}
	cr_assert_eq(js.job[0].arrival, 1);
	cr_assert_eq(js.job[999].arrival, 5);
	sb_jobset_release(&js);
}

Test(jobcsv, cnn_and_transformer)
{
	struct sb_jobset js;
	int nc;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);

	load_ok(HEAD
		"0,resnet50,16,1,1,1000\n"
		"0,gpt2-xl,1,8,4,250\n",
		&js);
	cr_assert_eq(js.n, 2);
	assert_job(&js, 0, 0, "resnet50", 16, 1, 1, 1000, 4, 256, -1, 0);
	assert_job(&js, 1, 0, "gpt2-xl", 1, 8, 4, 250, 16, 64, -1, 0);
	cr_assert_eq(js.model[js.job[0].model].cls, SB_MODEL_CNN);
	cr_assert_eq(js.model[js.job[1].model].cls, SB_MODEL_TRANSFORMER);
	cr_assert_eq(js.job[0].gpus, 16);
	cr_assert_eq(js.job[1].gpus, 32);
	cr_assert_eq(js.model[js.job[1].model].layers, cat[model_of("gpt2-xl")].model.layers);
	/* a CNN may be pipeline-parallel (only tensor parallelism is out) */
	sb_jobset_release(&js);
	load_ok(HEAD "0,vgg16,2,1,2,10\n", &js);
	assert_job(&js, 0, 0, "vgg16", 2, 1, 2, 10, 8, 256, -1, 0);
	sb_jobset_release(&js);
}

Test(jobcsv, limits_accepted)
{
	struct sb_jobset js;

	/* the largest values each field accepts */
	load_ok("arrival,model,d,t,p,iters,micro,batch,family,user\n"
		"1e12,bert-base,16,64,64,1000000000000,1,16777216,1000000,1000000\n"
		"0,resnet50,1,1,1,1,1,1,-1,0\n",
		&js);
	cr_assert_eq(js.n, 2);
	assert_job(&js, 0, 0, "resnet50", 1, 1, 1, 1, 1, 1, -1, 0);
	assert_job(&js, 1, 1e12, "bert-base", 16, 64, 64, 1000000000000L, 1, 16777216, 1000000,
		   1000000);
	cr_assert_eq(js.job[1].gpus, 65536);
	sb_jobset_release(&js);
}

/* ------------------------------------------------------------------ */
/* Bad input                                                           */
/* ------------------------------------------------------------------ */

Test(jobcsv, bad_header)
{
	char head[400];
	size_t k = 0;
	int i;

	jc_bad("", "line 1", "empty file (expected a header line)");
	jc_bad("\n \r\n\t\n", "line 4", "empty file");
	jc_bad(HEAD, "line 2", "no jobs after the header");
	jc_bad(HEAD "\n\r\n  \n", "line 5", "no jobs after the header");
	jc_bad("arrival,model,d,t,p,iters,gpus\n0,vgg16,1,1,1,1,1\n", "line 1: field 'gpus'",
	       "unknown column");
	jc_bad("arrival,Model,d,t,p,iters\n", "line 1: field 'Model'", "unknown column");
	jc_bad("arrival,model,d,t,p,iters,\n", "line 1: field ''", "unknown column");
	jc_bad("\narrival,model,d,t,p,iters,d\n0,vgg16,1,1,1,1,1\n", "line 2: field 'd'",
	       "column given twice");
	jc_bad("arrival,model,d,t,p,iters,user, user \n", "line 1: field 'user'",
	       "column given twice");
	jc_bad("arrival,model,d,t,p\n0,vgg16,1,1,1\n", "line 1: field 'iters'",
	       "required column missing");
	jc_bad("model,d,t,p,iters\n", "line 1: field 'arrival'", "required column missing");
	jc_bad("arrival,d,t,p,iters,micro\n", "line 1: field 'model'", "required column missing");
	jc_bad("arrival;model;d;t;p;iters\n", "line 1: field 'arrival;model;d;t;p;iters'",
	       "unknown column");
	for (i = 0; i < 33; i++)
		k += (size_t)snprintf(head + k, sizeof head - k, "%sc%d", i ? "," : "", i);
	snprintf(head + k, sizeof head - k, "\n");
	jc_bad(head, "line 1", "more than 32 columns");
	assert_no_leaks();
}

Test(jobcsv, bad_rows)
{
	/* wrong field count */
	jc_bad(HEAD "0,vgg16,1,1,1\n", "line 2", "5 fields, the header has 6");
	jc_bad(HEAD "0,vgg16,1,1,1,1,\n", "line 2", "7 fields, the header has 6");
	jc_bad(HEAD "0,vgg16,1,1,1,1\n\n\n0,vgg16,1,1,1\n", "line 5",
	       "5 fields, the header has 6");
	/* not a number */
	jc_bad(HEAD "x,vgg16,1,1,1,10\n", "line 2: field 'arrival'", "not a number: 'x'");
	jc_bad(HEAD "nan,vgg16,1,1,1,10\n", "line 2: field 'arrival'", "not a finite number");
	jc_bad(HEAD "inf,vgg16,1,1,1,10\n", "line 2: field 'arrival'", "not a finite number");
	jc_bad(HEAD " ,vgg16,1,1,1,10\n", "line 2: field 'arrival'", "missing value");
	jc_bad(HEAD "0,vgg16,2.5,1,1,10\n", "line 2: field 'd'", "not an integer: '2.5'");
	jc_bad(HEAD "0,vgg16,1,1,1,ten\n", "line 2: field 'iters'", "not an integer: 'ten'");
	jc_bad(HEAD "0,vgg16,1,1,1,1e3\n", "line 2: field 'iters'", "not an integer: '1e3'");
	jc_bad(HEAD "0,vgg16,1,1,1,99999999999999999999\n", "line 2: field 'iters'",
	       "out of range");
	/* ranges */
	jc_bad(HEAD "-1,vgg16,1,1,1,10\n", "line 2: field 'arrival'", "negative value -1");
	jc_bad(HEAD "1e13,vgg16,1,1,1,10\n", "line 2: field 'arrival'", "out of range");
	jc_bad(HEAD "0,vgg16,0,1,1,10\n", "line 2: field 'd'", "value '0' out of range [1, 4096]");
	jc_bad(HEAD "0,vgg16,-2,1,1,10\n", "line 2: field 'd'", "value '-2' out of range [1, 4096]");
	jc_bad(HEAD "0,bert-base,1,0,1,10\n", "line 2: field 't'", "value '0' out of range [1, 64]");
	jc_bad(HEAD "0,bert-base,1,1,0,10\n", "line 2: field 'p'", "value '0' out of range [1, 256]");
	jc_bad(HEAD "0,vgg16,1,1,1,0\n", "line 2: field 'iters'",
	       "value '0' out of range [1, 1000000000000]");
	jc_bad(HEAD "0,vgg16,1,1,1,-5\n", "line 2: field 'iters'", "out of range");
	/* models */
	jc_bad(HEAD "0,resnet51,1,1,1,10\n", "line 2: field 'model'",
	       "'resnet51' is not in the catalogue");
	jc_bad(HEAD "0,VGG16,1,1,1,10\n", "line 2: field 'model'", "'VGG16' is not in the catalogue");
	jc_bad(HEAD "0,,1,1,1,10\n", "line 2: field 'model'", "'' is not in the catalogue");
	jc_bad(HEAD "0,resnet50,1,2,1,10\n", "line 2: field 't'",
	       "resnet50 is a CNN: tensor parallelism is not modelled");
	jc_bad(HEAD "0,resnet50,1,1,1,10\n5,inception3,2,4,1,10\n", "line 3: field 't'",
	       "inception3 is a CNN");
	/* batch and micro-batches */
	jc_bad("arrival,model,d,t,p,iters,batch\n0,vgg16,4,1,1,10,15\n", "line 2: field 'batch'",
	       "15 is below d x micro = 16");
	jc_bad(HEAD "0,vgg16,128,1,1,10\n", "line 2: field 'batch'",
	       "256 is below d x micro = 512");
	jc_bad("arrival,model,d,t,p,iters,micro,batch\n0,bert-base,4,1,2,10,20,64\n",
	       "line 2: field 'batch'", "64 is below d x micro = 80");
	jc_bad("arrival,model,d,t,p,iters,micro\n0,vgg16,1,1,1,10,0\n", "line 2: field 'micro'",
	       "out of range [1, 65536]");
	jc_bad("arrival,model,d,t,p,iters,batch\n0,vgg16,1,1,1,10,0\n", "line 2: field 'batch'",
	       "out of range");
	/* family, user */
	jc_bad("arrival,model,d,t,p,iters,family\n0,vgg16,1,1,1,10,-2\n",
	       "line 2: field 'family'", "value '-2' out of range [-1, 1000000]");
	jc_bad("arrival,model,d,t,p,iters,family\n0,vgg16,1,1,1,10,x\n",
	       "line 2: field 'family'", "not an integer: 'x'");
	jc_bad("arrival,model,d,t,p,iters,user\n0,vgg16,1,1,1,10,-1\n", "line 2: field 'user'",
	       "negative value -1");
	/* too many GPUs */
	jc_bad(HEAD "0,bert-base,4096,64,1,10\n", "line 2: field 'd'",
	       "d x t x p = 262144 GPUs is too many");
	jc_bad(HEAD "0,bert-base,16,64,65,10\n", "line 2: field 'd'",
	       "d x t x p = 66560 GPUs is too many");
	jc_bad(HEAD "0,vgg16,4097,1,1,10\n", "line 2: field 'd'", "out of range [1, 4096]");
	/* the line number counts blank lines */
	jc_bad("\r\n" HEAD "0,vgg16,1,1,1,10\r\n\r\n  \r\n5,vgg16,1,1,1,zero\r\n",
	       "line 6: field 'iters'", "not an integer: 'zero'");
	assert_no_leaks();
}

Test(jobcsv, bad_files)
{
	static const char text[] = HEAD "0,vgg16,1,1,1,10\n0,vg\0g16,1,1,1,10\n";
	struct sb_jobset js;
	struct sb_err err = { 0 };
	const char *p = sb_test_write("");
	FILE *f;
	int rc;

	cr_assert_not_null(p);
	f = fopen(p, "wb");
	cr_assert_not_null(f);
	cr_assert_eq(fwrite(text, 1, sizeof text - 1, f), sizeof text - 1);
	cr_assert_eq(fclose(f), 0);
	rc = sb_load_jobs_csv(p, &js, &err);
	expect_bad(rc, &err, &js, p, "line 3", "NUL byte");
	unlink(p);

	p = "/nonexistent/jobs.csv";
	rc = sb_load_jobs_csv(p, &js, &err);
	expect_bad(rc, &err, &js, p, "No such file", NULL);
	assert_no_leaks();
}

/* ------------------------------------------------------------------ */
/* Out of memory                                                       */
/* ------------------------------------------------------------------ */

/*
 * Make the k-th allocation fail for k = 1, 2, ... in a child process: the
 * load must return SB_EXIT_RUN with a message naming the file and "out of
 * memory" and clear its output, never crash or exit; the loop ends when the
 * load succeeds. Returns the number of allocations that failed.
 */
static int oom_sweep(const char *path)
{
	int k, reported = 0;
	char head[300];

	snprintf(head, sizeof head, "cannot read job set '%s': out of memory", path);
	for (k = 1; k < 400; k++) {
		pid_t pid = fork();
		int st;
		cr_assert_geq(pid, 0);
		if (pid == 0) {
			struct sb_jobset js;
			struct sb_err err = { 0 };
			int rc;
			sb_mem_fail_at(k);
			rc = sb_load_jobs_csv(path, &js, &err);
			sb_mem_fail_at(0);
			if (rc == 0) {
				int ok = js.n == 3 && js.job[2].iters == 1;
				sb_jobset_release(&js);
				_exit(ok ? 11 : 14);
			}
			if (js.job || js.model || js.n)
				_exit(15);
			if (rc == SB_EXIT_RUN && err.code == SB_EXIT_RUN && !strcmp(err.msg, head))
				_exit(10);
			_exit(12);
		}
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_assert(WIFEXITED(st), "k=%d: child died with signal %d", k,
			  WIFSIGNALED(st) ? WTERMSIG(st) : 0);
		cr_assert(WEXITSTATUS(st) == 10 || WEXITSTATUS(st) == 11,
			  "k=%d: exit %d (1: the loader exited, 12: wrong code or message, "
			  "15: output not cleared)", k, WEXITSTATUS(st));
		reported += WEXITSTATUS(st) == 10;
		if (WEXITSTATUS(st) == 11)
			break;
	}
	cr_assert_lt(k, 400, "never succeeded");
	cr_assert_geq(reported, 3, "only %d allocations failed before success", reported);
	return reported;
}

Test(jobcsv, out_of_memory)
{
	/* three rows, so that the row array grows, and every optional column */
	const char *p = sb_test_write("arrival,model,d,t,p,iters,micro,batch,family,user\n"
				      "2,vgg16,1,1,1,1,4,32,1,2\n"
				      "1,bert-base,2,2,1,10,4,64,-1,0\n"
				      "0,resnet50,1,1,1,5,4,256,3,1\n");

	int k, nfail;

	cr_assert_not_null(p);
	nfail = oom_sweep(p);
	/* The same failures in this process (the sweep showed that none
	 * exits), so that LeakSanitizer sees what each path leaves behind. */
	for (k = 1; k <= nfail; k++) {
		struct sb_jobset js;
		struct sb_err err = { 0 };
		int rc;
		sb_mem_fail_at(k);
		rc = sb_load_jobs_csv(p, &js, &err);
		sb_mem_fail_at(0);
		cr_assert_eq(rc, SB_EXIT_RUN, "k=%d: %s", k, err.msg);
		sb_jobset_release(&js);
	}
	assert_no_leaks();
	unlink(p);
}

/* ------------------------------------------------------------------ */
/* Round trip                                                          */
/* ------------------------------------------------------------------ */

/* Write every column the format has, in a shuffled order. */
static void write_jobset(const char *path, const struct sb_jobset *js)
{
	FILE *f = fopen(path, "w");
	int i;

	cr_assert_not_null(f);
	fprintf(f, "family,iters,model,arrival,d,t,p,micro,batch,user\r\n");
	for (i = 0; i < js->n; i++) {
		const struct sb_job *j = &js->job[i];
		fprintf(f, "%d,%ld,%s,%.17g,%d,%d,%d,%d,%d,%d\r\n", j->family, j->iters,
			js->model[j->model].name, j->arrival, j->d, j->t, j->p, j->micro, j->batch,
			j->user);
	}
	cr_assert_eq(fclose(f), 0);
}

Test(jobcsv, w1_round_trip)
{
	struct sb_cluster c;
	struct sb_w1_params wp;
	struct sb_rng r = sb_rng_stream(11, 0, 0, SB_RNG_INSTANCE);
	struct sb_jobset w, back;
	struct sb_err err = { 0 };
	const char *p = sb_test_write("");
	int i, fam = 0, tp = 0, pp = 0;

	cr_assert_not_null(p);
	cr_assert_eq(sb_cluster_named("sim128", &c, &err), 0, "%s", err.msg);
	sb_w1_defaults(&wp);
	wp.njobs = 500;
	sb_w1_generate(&w, &wp, &c, &r);
	cr_assert_eq(sb_jobset_validate(&w, &c, &err), 0, "%s", err.msg);
	write_jobset(p, &w);
	cr_assert_eq(sb_load_jobs_csv(p, &back, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_jobset_validate(&back, &c, &err), 0, "%s", err.msg);
	cr_assert_eq(back.n, w.n);
	cr_assert_eq(back.nmodel, w.nmodel);
	for (i = 0; i < w.n; i++) {
		const struct sb_job *a = &w.job[i], *b = &back.job[i];
		cr_assert_eq(b->id, a->id);
		cr_assert_eq(b->arrival, a->arrival, "job %d: arrival %.17g vs %.17g", i,
			     b->arrival, a->arrival);
		cr_assert_str_eq(back.model[b->model].name, w.model[a->model].name);
		cr_assert_eq(b->model, a->model);
		cr_assert_eq(b->d, a->d, "job %d", i);
		cr_assert_eq(b->t, a->t, "job %d", i);
		cr_assert_eq(b->p, a->p, "job %d", i);
		cr_assert_eq(b->gpus, a->gpus, "job %d", i);
		cr_assert_eq(b->micro, a->micro, "job %d", i);
		cr_assert_eq(b->batch, a->batch, "job %d", i);
		cr_assert_eq(b->iters, a->iters, "job %d", i);
		cr_assert_eq(b->family, a->family, "job %d", i);
		cr_assert_eq(b->user, a->user, "job %d", i);
		/* derived from batch, so it survives too */
		cr_assert_eq(b->batch_mult, a->batch_mult, "job %d", i);
		/* not carried by the format: neutral values */
		cr_assert_eq(b->lr_mult, 1);
		cr_assert_eq(b->data_frac, 1);
		cr_assert_eq(b->trace_runtime, -1);
		fam += a->family >= 0;
		tp += a->t > 1;
		pp += a->p > 1;
	}
	for (i = 0; i < w.nmodel; i++)
		cr_assert_str_eq(back.model[i].name, w.model[i].name);
	/* the set exercised what it should */
	cr_assert(fam > 0 && fam < w.n, "families: %d of %d", fam, w.n);
	cr_assert(tp > 0 && pp > 0, "tensor %d, pipeline %d", tp, pp);
	sb_jobset_release(&w);
	sb_jobset_release(&back);
	unlink(p);
	assert_no_leaks();
}
