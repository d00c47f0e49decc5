/*
 * test_load.c - inputs of the pipeline family (workloads/pipeline/load.h): the
 * PipeDream and DAPPLE profile loaders on the real files (../shared/data,
 * SOURCES.md section 6) when present and on small files written here
 * (good input with every layout quirk, bad input with exact message parts,
 * running out of memory), the analytic profiles and their calibration
 * against the measured ones, and the topologies (widest-path closure
 * against a brute-force search, named and random topologies).
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/pipeline/load.h"
#include "tests/testutil.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static void expect_bad(int rc, const struct sb_err *err, const char *path,
		       const char *a, const char *b)
{
	sb_test_expect_bad(rc, err, path, a, b, NULL);
	cr_assert(!strncmp(err->msg, "cannot read ", 12), "%s", err->msg);
}

static void assert_zeroed(const struct sb_pmodel *m)
{
	cr_assert(m->n == 0 && !m->layer && !m->name[0] && !m->source[0] && m->pbs == 0);
}

struct totals {
	double fwd, bwd, params, stash;
};

/* Per-sample sums over the layers, with the checks every model passes. */
static struct totals check_model(const struct sb_pmodel *m)
{
	struct totals t = { 0, 0, 0, 0 };
	int i;

	cr_assert_gt(m->n, 0);
	cr_assert_not_null(m->layer);
	cr_assert_geq(m->pbs, 1);
	cr_assert(m->name[0] && memchr(m->name, '\0', sizeof m->name));
	cr_assert(!strncmp(m->source, "real: ", 6) || !strncmp(m->source, "analytic: ", 10),
		  "%s", m->source);
	for (i = 0; i < m->n; i++) {
		const struct sb_layer *l = &m->layer[i];
		cr_assert(memchr(l->name, '\0', sizeof l->name));
		cr_assert(isfinite(l->fwd) && l->fwd >= 0, "layer %d fwd %g", i, l->fwd);
		cr_assert(isfinite(l->bwd) && l->bwd >= 0);
		cr_assert(isfinite(l->act) && l->act >= 0);
		cr_assert(isfinite(l->stash) && l->stash >= 0);
		cr_assert(isfinite(l->params) && l->params >= 0);
		t.fwd += l->fwd;
		t.bwd += l->bwd;
		t.params += l->params;
		t.stash += l->stash;
	}
	return t;
}

static void assert_near(double x, double want, double rel, const char *what)
{
	cr_assert(fabs(x - want) <= rel * fabs(want) + 1e-300,
		  "%s: %.10g, expected %.10g", what, x, want);
}

/* A file named `name` with `text` in a fresh directory (for names that
 * matter, like DAPPLE's "-pbs-<N>"); returns its path (static rotation). */
static const char *write_named(const char *name, const char *text)
{
	static char buf[4][256];
	static int k;
	char dir[64], *p = buf[k++ & 3];
	FILE *f;

	snprintf(dir, sizeof dir, "/tmp/sbpipe-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(p, sizeof buf[0], "%s/%s", dir, name);
	f = fopen(p, "wb");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	return p;
}

static void remove_named(const char *p)
{
	char dir[256], *s;

	unlink(p);
	snprintf(dir, sizeof dir, "%s", p);
	s = strrchr(dir, '/');
	if (s) {
		*s = '\0';
		rmdir(dir);
	}
}

static int layer_named(const struct sb_pmodel *m, const char *prefix)
{
	int i;
	for (i = 0; i < m->n; i++)
		if (!strncmp(m->layer[i].name, prefix, strlen(prefix)))
			return i;
	cr_assert_fail("no layer named %s...", prefix);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Real files                                                          */
/* ------------------------------------------------------------------ */

/* Sums over the kept nodes (Input sources and __getitem__ sinks dropped)
 * of the lines of each file, in ms at the profile batch and bytes. */
static const struct {
	const char *rel;
	int pbs, layers;
	double fwd_ms, bwd_ms, params;
} pd_known[] = {
	{ "pipedream/vgg16/graph.txt", 128, 40, 233.902, 438.633, 553430176.0 },
	{ "pipedream/resnet50/graph.txt", 128, 176, 182.488, 260.931, 102228128.0 },
	{ "pipedream/alexnet/graph.txt", 256, 22, 44.801, 40.52, 244403360.0 },
	{ "pipedream/gnmt/graph.txt", 32, 34, 33.533, 55.883, 775063808.0 },
	{ "pipedream/gnmt_large/graph.txt", 32, 74, 182.563, 337.89, 1110870272.0 },
};

Test(pipeload, pipedream_real_files)
{
	size_t k;
	int found = 0;

	for (k = 0; k < sizeof pd_known / sizeof pd_known[0]; k++) {
		const char *p = sb_test_data(pd_known[k].rel);
		struct sb_pmodel m;
		struct sb_err err = { 0 };
		struct totals t;
		if (!p)
			continue;
		found++;
		cr_assert_eq(sb_load_pipedream_profile(p, pd_known[k].pbs, &m, &err), 0,
			     "%s", err.msg);
		t = check_model(&m);
		cr_assert_eq(m.n, pd_known[k].layers, "%s: %d layers", p, m.n);
		cr_assert_eq(m.pbs, pd_known[k].pbs);
		assert_near(t.fwd * 1000 * m.pbs, pd_known[k].fwd_ms, 1e-9, p);
		assert_near(t.bwd * 1000 * m.pbs, pd_known[k].bwd_ms, 1e-9, p);
		assert_near(t.params, pd_known[k].params, 1e-12, p);
		cr_assert_eq(m.layer[m.n - 1].act > 0, 1);
		sb_pmodel_release(&m);
	}
	if (!found)
		cr_skip_test("no pipedream/ data");
}

Test(pipeload, pipedream_vgg16_chain)
{
	DATA_OR_SKIP(p, "pipedream/vgg16/graph.txt");
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	int i, k;

	cr_assert_eq(sb_load_pipedream_profile(p, 128, &m, &err), 0, "%s", err.msg);
	cr_assert_str_eq(m.name, "vgg16");
	cr_assert(strstr(m.source, "pbs 128, 41 nodes -> 40 layers"), "%s", m.source);
	/* The Input node is gone; node2 (the first convolution) starts. */
	cr_assert(!strncmp(m.layer[0].name, "node2 Conv2d(3, 64", 18), "%s", m.layer[0].name);
	assert_near(m.layer[0].fwd, 22.307 / 1000 / 128, 1e-12, "fwd");
	assert_near(m.layer[0].bwd, 24.613 / 1000 / 128, 1e-12, "bwd");
	assert_near(m.layer[0].act, 1644167168.0 / 128, 1e-12, "act");
	assert_near(m.layer[0].stash, 1644167168.0 / 128, 1e-12, "stash");
	assert_near(m.layer[0].params, 7168, 1e-12, "params");
	/* One node per layer; up to the last pool a chain, where act = the
	 * layer's own output. The flatten is x.view(x.size(0), -1): after
	 * Size(0) both the pooled tensor and the size cross the cut. */
	k = layer_named(&m, "node33 Size(0)");
	cr_assert_eq(k, 31);
	for (i = 0; i < k; i++)
		assert_near(m.layer[i].act, m.layer[i].stash, 1e-12, m.layer[i].name);
	i = k;
	assert_near(m.layer[i].act, (12845056.0 + 4) / 128, 1e-12, "act after Size");
	assert_near(m.layer[i].stash, 4.0 / 128, 1e-12, "stash of Size");
	sb_pmodel_release(&m);
}

Test(pipeload, pipedream_gnmt_contraction)
{
	DATA_OR_SKIP(p, "pipedream/gnmt/graph.txt");
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	int k;

	cr_assert_eq(sb_load_pipedream_profile(p, 32, &m, &err), 0, "%s", err.msg);
	/* The attention node absorbs its ancestors outside the encoder path:
	 * the decoder embedding (node21), "hidden" (node20) and node22. */
	k = layer_named(&m, "node23 RecurrentAttention");
	assert_near(m.layer[k].fwd * 1000 * 32, 0.066 + 4.546, 1e-9, "fwd");
	assert_near(m.layer[k].params, 174362624.0, 1e-12, "params");
	/* After the encoder's last Add (node19), its output and the source
	 * sequence of node2 are gone (Input) - one tensor crosses. */
	k = layer_named(&m, "node19 Add");
	assert_near(m.layer[k].act * 32, 6291456.0, 1e-12, "cut after node19");
	sb_pmodel_release(&m);
}

/* dapple.md §5: nodes, pbs, sum fwd / sum bwd (ms at pbs), params (M). Our
 * loader drops the Input node's cost (as PipeDream and DAPPLE's planner
 * do): input_ms is that node's forward time in the file, which the table's
 * raw sums include. VGG-19's sizes are rescaled from 1e-6 MiB to bytes:
 * params_m is then 143.7M (the real VGG-19) where the table, reading them
 * as bytes, has 137M. */
static const struct {
	const char *rel;
	int nodes, pbs, layers;
	double fwd_ms, bwd_ms, params_m, input_ms, table_params_m;
} da_known[] = {
	{ "dapple/gnmt-16-pbs-64.txt", 96, 64, 74, 90.3, 158.6, 291, 0, 291 },
	{ "dapple/bert-48-pbs-2.txt", 53, 2, 53, 129.2, 214.6, 637, 0, 637 },
	{ "dapple/xlnet-36-pbs-1.txt", 43, 1, 40, 122.9, 177.8, 501, 17.0, 501 },
	{ "dapple/amoeba-36-pbs-1.txt", 44, 1, 43, 48.7, 119.4, 933, 0, 933 },
	{ "dapple/vgg-19-pbs-32.txt", 26, 32, 25, 48.0, 96.2, 143.7, 3.4, 137 },
};

Test(pipeload, dapple_known_totals)
{
	size_t k;
	int found = 0;

	for (k = 0; k < sizeof da_known / sizeof da_known[0]; k++) {
		const char *p = sb_test_data(da_known[k].rel);
		struct sb_pmodel m;
		struct sb_err err = { 0 };
		struct totals t;
		char nodes[32];
		double scale;
		if (!p)
			continue;
		found++;
		cr_assert_eq(sb_load_dapple_profile(p, &m, &err), 0, "%s", err.msg);
		t = check_model(&m);
		cr_assert_eq(m.pbs, da_known[k].pbs);
		cr_assert_eq(m.n, da_known[k].layers, "%s: %d layers", p, m.n);
		snprintf(nodes, sizeof nodes, ", %d nodes", da_known[k].nodes);
		cr_assert(strstr(m.source, nodes), "%s", m.source);
		/* Rounded as in the table (0.1 ms, 1M parameters of 4 bytes). */
		cr_assert_lt(fabs(t.fwd * 1000 * m.pbs - da_known[k].fwd_ms), 0.051,
			     "%s fwd %.3f", p, t.fwd * 1000 * m.pbs);
		cr_assert_lt(fabs(t.bwd * 1000 * m.pbs - da_known[k].bwd_ms), 0.051,
			     "%s bwd %.3f", p, t.bwd * 1000 * m.pbs);
		cr_assert_lt(fabs(t.params / 4e6 - da_known[k].params_m), 0.51, "%s %.2fM",
			     p, t.params / 4e6);
		/* ... and the table's raw sums. */
		cr_assert_lt(fabs(t.fwd * 1000 * m.pbs + da_known[k].input_ms -
				  (da_known[k].fwd_ms + da_known[k].input_ms)), 0.051);
		scale = strstr(m.source, "1e-6 MiB") ? 1.048576 : 1.0;
		cr_assert_lt(fabs(t.params / scale / 4e6 - da_known[k].table_params_m), 0.51,
			     "%s", p);
		sb_pmodel_release(&m);
	}
	if (!found)
		cr_skip_test("no dapple/ data");
}

Test(pipeload, dapple_every_file)
{
	static const char *const rel[] = {
		"dapple/gnmt-32-pbs-64.txt", "dapple/gnmt-32-pbs-64-simplified.txt",
		"dapple/bert-24-pbs-6.txt", "dapple/xlnet-24-pbs-1.txt",
		"dapple/amoeba-18-pbs-8.txt", "dapple/amoeba-6-pbs-8-complicated.txt",
		"dapple/amoeba-6-pbs-8-simplified.txt",
	};
	static const int pbs[] = { 64, 64, 6, 1, 8, 8, 8 };
	size_t k;
	int found = 0;

	for (k = 0; k < sizeof rel / sizeof rel[0]; k++) {
		const char *p = sb_test_data(rel[k]);
		struct sb_pmodel m;
		struct sb_err err = { 0 };
		if (!p)
			continue;
		found++;
		/* bert-24 edge lines start with two spaces, amoeba-36 with
		 * space+tab, gnmt-32-simplified has non-contiguous ids. */
		cr_assert_eq(sb_load_dapple_profile(p, &m, &err), 0, "%s", err.msg);
		check_model(&m);
		cr_assert_eq(m.pbs, pbs[k]);
		cr_assert(!strstr(m.source, "MiB"));
		sb_pmodel_release(&m);
	}
	if (!found)
		cr_skip_test("no dapple/ data");
}

Test(pipeload, dapple_vgg16_has_no_pbs)
{
	DATA_OR_SKIP(p, "dapple/vgg16.txt");
	const char *q = sb_test_data("pipedream/vgg16/graph.txt");
	struct sb_pmodel m, m2;
	struct sb_err err = { 0 };
	int i;

	expect_bad(sb_load_dapple_profile(p, &m, &err), &err, p,
		   "no '-pbs-<N>'", "PipeDream loader");
	assert_zeroed(&m);
	if (!q)
		return;
	/* The same bytes as PipeDream's vgg16 (plus a final newline). */
	cr_assert_eq(sb_load_pipedream_profile(p, 128, &m, &err), 0, "%s", err.msg);
	cr_assert_eq(sb_load_pipedream_profile(q, 128, &m2, &err), 0, "%s", err.msg);
	cr_assert_eq(m.n, m2.n);
	for (i = 0; i < m.n; i++) {
		cr_assert_str_eq(m.layer[i].name, m2.layer[i].name);
		cr_assert_eq(m.layer[i].fwd, m2.layer[i].fwd);
		cr_assert_eq(m.layer[i].act, m2.layer[i].act);
	}
	sb_pmodel_release(&m);
	sb_pmodel_release(&m2);
}

/* ------------------------------------------------------------------ */
/* Small files                                                         */
/* ------------------------------------------------------------------ */

/* Every layout quirk: ids out of order and not contiguous, an Input source,
 * a __getitem__ sink, a second source joining late, a list activation,
 * stage_id, edge lines with tab / two spaces / space+tab, blank and CRLF
 * lines, an edge line before a node line, no final newline. */
static const char good_text[] =
	"node10 -- Input -- forward_compute_time=5.0, backward_compute_time=0.0, "
	"activation_size=100.0, parameter_size=0.0\n"
	"node20 -- Conv -- forward_compute_time=2.0, backward_compute_time=4.0, "
	"activation_size=[10.0; 30.0], parameter_size=8.0\r\n"
	"node7 -- BranchA -- forward_compute_time=1, backward_compute_time=2, "
	"activation_size=20, parameter_size=4 \n"
	"\n"
	"node30 -- BranchB -- forward_compute_time=3, backward_compute_time=6, "
	"activation_size=5, parameter_size=0 -- stage_id=1\n"
	"\tnode40 -- node60\n"
	"node40 -- Add -- forward_compute_time=0.5, backward_compute_time=0.5, "
	"activation_size=40, parameter_size=0\n"
	"node50 -- __getitem__(0) -- forward_compute_time=0, backward_compute_time=0, "
	"activation_size=7, parameter_size=0\n"
	"node60 -- Head -- forward_compute_time=1, backward_compute_time=1, "
	"activation_size=2, parameter_size=16\n"
	"node5 -- hidden -- forward_compute_time=0.25, backward_compute_time=0, "
	"activation_size=6, parameter_size=2\n"
	"\tnode10 -- node20\n"
	"  node20 -- node7\n"
	" \tnode20 -- node30\n"
	"\tnode7 -- node40\n"
	"\tnode7 -- node40\n"
	"\tnode30 -- node40\n"
	"\tnode5 -- node40\n"
	"\tnode40 -- node50";

Test(pipeload, small_good_file)
{
	const char *p = sb_test_write(good_text);
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	/* Expected layers (pbs 2): name, fwd ms, bwd ms, act, stash, params
	 * (sizes at the profile batch). */
	static const struct {
		const char *name;
		double f, b, act, stash, params;
	} want[] = {
		{ "node20 Conv", 2, 4, 40, 40, 8 },
		{ "node7 BranchA", 1, 2, 60, 20, 4 },     /* node20 -> node30 too */
		{ "node30 BranchB", 3, 6, 25, 5, 0 },
		{ "node40 Add", 0.75, 0.5, 40, 46, 2 },   /* absorbs node5 */
		{ "node60 Head", 1, 1, 2, 2, 16 },        /* last: its output */
	};
	int i;

	cr_assert_eq(sb_load_pipedream_profile(p, 2, &m, &err), 0, "%s", err.msg);
	check_model(&m);
	cr_assert_eq(m.n, 5);
	for (i = 0; i < 5; i++) {
		const struct sb_layer *l = &m.layer[i];
		cr_assert_str_eq(l->name, want[i].name);
		assert_near(l->fwd, want[i].f / 1000 / 2, 1e-12, l->name);
		assert_near(l->bwd, want[i].b / 1000 / 2, 1e-12, l->name);
		assert_near(l->act, want[i].act / 2, 1e-12, l->name);
		assert_near(l->stash, want[i].stash / 2, 1e-12, l->name);
		assert_near(l->params, want[i].params, 1e-12, l->name);
	}
	cr_assert(strstr(m.source, "8 nodes -> 5 layers"), "%s", m.source);
	sb_pmodel_release(&m);
	unlink(p);
}

Test(pipeload, small_second_component)
{
	/* Two weakly connected parts (PipeDream would drop the second): both
	 * are kept, the second started at its first source in file order. */
	const char *p = sb_test_write(
		"node1 -- a -- forward_compute_time=1, backward_compute_time=1, "
		"activation_size=1, parameter_size=1\n"
		"node2 -- b -- forward_compute_time=2, backward_compute_time=2, "
		"activation_size=2, parameter_size=2\n"
		"node9 -- c -- forward_compute_time=3, backward_compute_time=3, "
		"activation_size=3, parameter_size=3\n"
		"node3 -- d -- forward_compute_time=4, backward_compute_time=4, "
		"activation_size=4, parameter_size=4\n"
		"\tnode1 -- node2\n\tnode9 -- node3\n");
	struct sb_pmodel m;
	struct sb_err err = { 0 };

	cr_assert_eq(sb_load_pipedream_profile(p, 1, &m, &err), 0, "%s", err.msg);
	cr_assert_eq(m.n, 4);
	cr_assert_str_eq(m.layer[0].name, "node1 a");
	cr_assert_str_eq(m.layer[1].name, "node2 b");
	cr_assert_str_eq(m.layer[2].name, "node9 c");
	cr_assert_str_eq(m.layer[3].name, "node3 d");
	cr_assert_eq(m.layer[1].act, 0); /* nothing crosses between the parts */
	cr_assert_eq(m.layer[3].act, 4);
	sb_pmodel_release(&m);
	unlink(p);
}

Test(pipeload, small_dapple_file)
{
	const char *p = write_named("toy-pbs-4.txt",
		"node1 -- Input -- forward_compute_time=9, backward_compute_time=0, "
		"activation_size=[4; 4], parameter_size=0\n"
		"node2 -- layer -- forward_compute_time=8, backward_compute_time=12, "
		"activation_size=400, parameter_size=1000\n"
		" node1 -- node2\n");
	struct sb_pmodel m;
	struct sb_err err = { 0 };

	cr_assert_eq(sb_load_dapple_profile(p, &m, &err), 0, "%s", err.msg);
	cr_assert_eq(m.pbs, 4);
	cr_assert_str_eq(m.name, "toy-pbs-4");
	cr_assert_eq(m.n, 1);
	assert_near(m.layer[0].fwd, 0.002, 1e-12, "fwd");
	assert_near(m.layer[0].bwd, 0.003, 1e-12, "bwd");
	assert_near(m.layer[0].act, 100, 1e-12, "act");
	cr_assert_eq(m.layer[0].params, 1000);
	cr_assert(strstr(m.source, "DAPPLE profile, pbs 4"), "%s", m.source);
	sb_pmodel_release(&m);
	remove_named(p);
}

#define NODE_OK(id) "node" #id " -- x -- forward_compute_time=1, " \
	"backward_compute_time=1, activation_size=1, parameter_size=1\n"

static void pd_bad(const char *text, const char *a, const char *b)
{
	const char *p = sb_test_write(text);
	struct sb_pmodel m;
	struct sb_err err = { 0 };

	cr_assert_not_null(p);
	expect_bad(sb_load_pipedream_profile(p, 1, &m, &err), &err, p, a, b);
	assert_zeroed(&m);
	unlink(p);
}

Test(pipeload, bad_input)
{
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	const char *p;

	pd_bad("", "line 1", "no node lines (empty file?)");
	pd_bad("\n  \n", "line 3", "no node lines");
	pd_bad("node1 -- x\n", "line 1", "2 parts separated by ' -- '");
	pd_bad(NODE_OK(1) "node2 -- node3\n", "line 2", "edge lines start with a blank");
	pd_bad("nodeX -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1\n",
	       "line 1: field 'node id'", "not an integer: 'X'");
	pd_bad("n1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1\n",
	       "line 1: field 'node id'", "expected 'node<integer>', got 'n1'");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=1\n", "line 1", "3 comma-separated costs, expected 4");
	pd_bad(NODE_OK(1) "node2 -- x -- forward_time=1, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1\n",
	       "line 2: field 'forward_compute_time'",
	       "expected 'forward_compute_time=<value>', got 'forward_time=1'");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=-1, "
	       "activation_size=1, parameter_size=1\n",
	       "line 1: field 'backward_compute_time'", "negative value");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=1, parameter_size=nan\n",
	       "line 1: field 'parameter_size'", "not a finite number");
	pd_bad("node1 -- x -- forward_compute_time=1e309, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1\n",
	       "line 1: field 'forward_compute_time'", "not a finite number");
	pd_bad("node1 -- x -- forward_compute_time=abc, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1\n",
	       "line 1: field 'forward_compute_time'", "not a number: 'abc'");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=[1; x], parameter_size=1\n",
	       "line 1: field 'activation_size'", "not a number: 'x'");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=[1; 2, parameter_size=1\n",
	       "line 1", "3 comma-separated costs");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=[1; 2, parameter_size=1]\n",
	       "line 1", "3 comma-separated costs");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=[], parameter_size=1\n",
	       "line 1: field 'activation_size'", "missing value");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=[3, parameter_size=1\n",
	       "line 1", "3 comma-separated costs");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=3], parameter_size=1\n",
	       "line 1: field 'activation_size'", "not a number: '3]'");
	pd_bad("node1 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=[3, parameter_size=1]\n", "line 1", NULL);
	pd_bad(NODE_OK(1) "node2 -- x -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1 -- stage=1\n",
	       "line 2: field 'stage_id'", "expected 'stage_id=<integer>'");
	pd_bad(NODE_OK(1) "\tnode1 -- node9\n", "line 2: field 'edge'",
	       "unknown node id node9");
	pd_bad(NODE_OK(1) "\tnode1 -- nodeq\n", "line 2: field 'edge'", "not an integer");
	pd_bad(NODE_OK(1) "\tnode1 -- node2 -- node3\n", "line 2: field 'edge'",
	       "3 parts separated by ' -- ', expected 'nodeA -- nodeB'");
	pd_bad(NODE_OK(1) NODE_OK(1), "line 2: field 'node id'",
	       "duplicate node id node1 (also on line 1)");
	pd_bad(NODE_OK(1) "\tnode1 -- node1\n", "line 2: field 'edge'",
	       "node1 -- node1 is a self-loop");
	pd_bad(NODE_OK(1) NODE_OK(2) NODE_OK(3) "\tnode1 -- node2\n\tnode2 -- node3\n"
	       "\tnode3 -- node2\n", "field 'edge'", "closes a cycle (");
	pd_bad("node1 -- Input -- forward_compute_time=1, backward_compute_time=1, "
	       "activation_size=1, parameter_size=1\n", NULL,
	       "no node left once the Input sources and __getitem__ sinks are dropped");

	/* A NUL byte, a missing file, a bad batch size. */
	p = sb_test_write("");
	{
		FILE *f = fopen(p, "wb");
		cr_assert_not_null(f);
		fwrite(NODE_OK(1) "\0", 1, sizeof NODE_OK(1), f);
		fclose(f);
	}
	expect_bad(sb_load_pipedream_profile(p, 1, &m, &err), &err, p, "line 2",
		   "NUL byte");
	unlink(p);
	p = "/nonexistent/graph.txt";
	expect_bad(sb_load_pipedream_profile(p, 1, &m, &err), &err, p,
		   "pipedream profile", "No such file");
	assert_zeroed(&m);
	p = sb_test_write(NODE_OK(1));
	expect_bad(sb_load_pipedream_profile(p, 0, &m, &err), &err, p,
		   "profile batch size 0, expected >= 1", NULL);
	unlink(p);

	/* DAPPLE: the batch size comes from the name. */
	p = write_named("model.txt", NODE_OK(1));
	expect_bad(sb_load_dapple_profile(p, &m, &err), &err, p, "dapple profile",
		   "no '-pbs-<N>'");
	assert_zeroed(&m);
	remove_named(p);
	p = write_named("model-pbs-0.txt", NODE_OK(1));
	expect_bad(sb_load_dapple_profile(p, &m, &err), &err, p, "no '-pbs-<N>'", NULL);
	remove_named(p);
	p = write_named("model-pbs-99999999999.txt", NODE_OK(1));
	expect_bad(sb_load_dapple_profile(p, &m, &err), &err, p, "no '-pbs-<N>'", NULL);
	remove_named(p);
	p = write_named("m-pbs-3-x.txt", "node1 -- x -- forward_compute_time=1\n");
	expect_bad(sb_load_dapple_profile(p, &m, &err), &err, p, "dapple profile",
		   "line 1");
	remove_named(p);
	p = "/nonexistent/x-pbs-2.txt";
	expect_bad(sb_load_dapple_profile(p, &m, &err), &err, p, "dapple profile",
		   "No such file");
}

/* ------------------------------------------------------------------ */
/* Running out of memory                                               */
/* ------------------------------------------------------------------ */

static int load_pd_only(const char *path, struct sb_err *err)
{
	struct sb_pmodel m;
	int rc = sb_load_pipedream_profile(path, 2, &m, err);
	sb_pmodel_release(&m);
	return rc;
}

static int load_da_only(const char *path, struct sb_err *err)
{
	struct sb_pmodel m;
	int rc = sb_load_dapple_profile(path, &m, err);
	sb_pmodel_release(&m);
	return rc;
}

static int analytic_only(const char *name, struct sb_err *err)
{
	struct sb_pmodel m;
	int rc = sb_analytic_model(name, &m, err);
	sb_pmodel_release(&m);
	return rc;
}

static int topo_only(const char *name, struct sb_err *err)
{
	struct sb_topo t;
	int rc = sb_topo_named(name, &t, err);
	sb_topo_release(&t);
	return rc;
}

Test(pipeload, out_of_memory)
{
	const char *p = sb_test_write(good_text);
	const char *q = write_named("t-pbs-2.txt", good_text);

	sb_test_oom_sweep(load_pd_only, p, "cannot read pipedream profile", 0);
	sb_test_oom_sweep(load_da_only, q, "cannot read dapple profile", 0);
	sb_test_oom_sweep(analytic_only, "gnmt-16", "cannot build analytic model", 0);
	sb_test_oom_sweep(topo_only, "2x8-nvlink-25gbe", "cannot build topology", 0);
	unlink(p);
	remove_named(q);
}

/* ------------------------------------------------------------------ */
/* Analytic profiles                                                   */
/* ------------------------------------------------------------------ */

Test(pipeload, analytic_models)
{
	/* Parameter counts of pipeplan.md §5 (fp32 bytes / 4), from the
	 * formulas: VGG-19 143.67M, ResNet-50 25.56M, BERT-Large (with pooler
	 * and span head, without the pre-training heads) 335.1M, BERT-48
	 * 637.5M (DAPPLE's profile: 637.45M), GPT-2 XL 1557.6M (tied LM
	 * head), GNMT-16 290.8M (DAPPLE's profile: 290.7M). */
	static const struct {
		const char *name;
		int layers;
		double params_m;
	} want[] = {
		{ "vgg19", 25, 143.667 }, { "resnet50", 18, 25.557 },
		{ "bert-large", 26, 335.14 }, { "bert-48", 50, 637.45 },
		{ "gpt2-xl", 50, 1557.6 }, { "gnmt-16", 19, 290.8 },
	};
	const char *const *names;
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	int n, i;

	names = sb_analytic_names(&n);
	cr_assert_eq(n, 6);
	for (i = 0; i < n; i++) {
		struct totals t;
		cr_assert_str_eq(names[i], want[i].name);
		cr_assert_eq(sb_analytic_model(names[i], &m, &err), 0, "%s", err.msg);
		t = check_model(&m);
		cr_assert_eq(m.pbs, 1);
		cr_assert_eq(m.n, want[i].layers, "%s: %d layers", names[i], m.n);
		cr_assert_lt(fabs(t.params / 4e6 - want[i].params_m), 0.002 * want[i].params_m,
			     "%s: %.3fM parameters", names[i], t.params / 4e6);
		cr_assert_gt(t.fwd, 0);
		cr_assert_gt(t.bwd, t.fwd);
		cr_log_info("analytic %-10s %2d layers  %7.1fM params  fwd %8.3f ms  "
			    "bwd %8.3f ms  stash %8.1f MB per sample", names[i], m.n,
			    t.params / 4e6, t.fwd * 1e3, t.bwd * 1e3, t.stash / 1e6);
		sb_pmodel_release(&m);
	}
	/* BERT-48's layer at DAPPLE's batch 2 (spec: 2.69 / 4.47 ms). */
	cr_assert_eq(sb_analytic_model("bert-48", &m, &err), 0);
	cr_assert_lt(fabs(m.layer[1].fwd * 2e3 / 2.69 - 1), 0.1, "%g", m.layer[1].fwd * 2e3);
	cr_assert_lt(fabs(m.layer[1].bwd * 2e3 / 4.47 - 1), 0.25, "%g", m.layer[1].bwd * 2e3);
	/* Korthikanti's stash in fp32: sH(34 + 5as/H) * 2 bytes. */
	assert_near(m.layer[1].stash, 384.0 * 1024 * (34 + 5 * 16 * 384.0 / 1024) * 2,
		    1e-12, "stash");
	sb_pmodel_release(&m);
}

Test(pipeload, analytic_unknown_name)
{
	struct sb_pmodel m;
	struct sb_err err = { 0 };

	cr_assert_eq(sb_analytic_model("vgg16", &m, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "unknown analytic model 'vgg16'"), "%s", err.msg);
	cr_assert(strstr(err.msg, "known: vgg19, resnet50, bert-large, bert-48, "
			 "gpt2-xl, gnmt-16"), "%s", err.msg);
	assert_zeroed(&m);
}

/* Analytic vs measured V100 profiles: per-sample sums of forward time,
 * backward time and parameters. Prints the table; asserts only that each
 * ratio is within a factor 3. */
Test(pipeload, analytic_calibration)
{
	static const struct {
		const char *name, *rel;
		int dapple, pbs;
	} pair[] = {
		{ "vgg19", "dapple/vgg-19-pbs-32.txt", 1, 0 },
		{ "bert-48", "dapple/bert-48-pbs-2.txt", 1, 0 },
		{ "gnmt-16", "dapple/gnmt-16-pbs-64.txt", 1, 0 },
		{ "resnet50", "pipedream/resnet50/graph.txt", 0, 128 },
	};
	size_t k;
	int found = 0;

	for (k = 0; k < sizeof pair / sizeof pair[0]; k++) {
		const char *p = sb_test_data(pair[k].rel);
		struct sb_pmodel a, r;
		struct sb_err err = { 0 };
		struct totals ta, tr;
		double rf, rb, rp;
		if (!p)
			continue;
		found++;
		cr_assert_eq(sb_analytic_model(pair[k].name, &a, &err), 0, "%s", err.msg);
		cr_assert_eq(pair[k].dapple ? sb_load_dapple_profile(p, &r, &err)
			     : sb_load_pipedream_profile(p, pair[k].pbs, &r, &err), 0,
			     "%s", err.msg);
		ta = check_model(&a);
		tr = check_model(&r);
		rf = ta.fwd / tr.fwd;
		rb = ta.bwd / tr.bwd;
		rp = ta.params / tr.params;
		cr_log_info("calibration %-9s vs %-30s fwd %.3f/%.3f ms (x%.2f)  "
			    "bwd %.3f/%.3f ms (x%.2f)  params %.1f/%.1fM (x%.3f)",
			    pair[k].name, pair[k].rel, ta.fwd * 1e3, tr.fwd * 1e3, rf,
			    ta.bwd * 1e3, tr.bwd * 1e3, rb, ta.params / 4e6,
			    tr.params / 4e6, rp);
		cr_assert(rf > 1.0 / 3 && rf < 3, "%s fwd ratio %g", pair[k].name, rf);
		cr_assert(rb > 1.0 / 3 && rb < 3, "%s bwd ratio %g", pair[k].name, rb);
		cr_assert(rp > 1.0 / 3 && rp < 3, "%s params ratio %g", pair[k].name, rp);
		sb_pmodel_release(&a);
		sb_pmodel_release(&r);
	}
	if (!found)
		cr_skip_test("no measured profiles");
}

/* ------------------------------------------------------------------ */
/* Topologies                                                          */
/* ------------------------------------------------------------------ */

static void check_topo(const struct sb_topo *t)
{
	int g, h;

	cr_assert_gt(t->n, 0);
	cr_assert(t->name[0]);
	cr_assert(t->mem > 0 && t->speed == 1 && t->latency == 0);
	cr_assert_gt(t->nserver, 0);
	for (g = 0; g < t->n; g++) {
		cr_assert(t->server[g] >= 0 && t->server[g] < t->nserver);
		cr_assert(isinf(t->bw[(size_t)g * t->n + g]));
		for (h = 0; h < t->n; h++) {
			double x = t->bw[(size_t)g * t->n + h];
			cr_assert(x > 0, "bw[%d][%d] = %g", g, h, x);
			cr_assert_eq(x, t->bw[(size_t)h * t->n + g], "not symmetric");
		}
	}
}

static double bw(const struct sb_topo *t, int g, int h)
{
	return t->bw[(size_t)g * t->n + h];
}

/* Brute force: the best bottleneck over all simple paths (DFS). */
static double brute(int V, const double *w, int at, int to, int *seen, double cur)
{
	double best = 0;
	int v;

	if (at == to)
		return cur;
	seen[at] = 1;
	for (v = 0; v < V; v++)
		if (!seen[v] && w[at * V + v] > 0) {
			double x = brute(V, w, v, to, seen, sb_min(cur, w[at * V + v]));
			if (x > best)
				best = x;
		}
	seen[at] = 0;
	return best;
}

Test(pipeload, widest_path_vs_brute_force)
{
	struct sb_rng r = sb_rng_stream(sb_hash_str("widest_path"), 0, 0, SB_RNG_TEST);
	static const double caps[5] = { 1, 2.5, 3, 10, 25 };
	int it, ok = 0, disconnected = 0;

	for (it = 0; it < 400; it++) {
		int ngpu = (int)sb_rng_int(&r, 1, 5), nhub = (int)sb_rng_int(&r, 0, 3);
		int V = ngpu + nhub, nl = (int)sb_rng_int(&r, 0, 10), k, g, h, rc;
		int a[10], b[10], server[5], seen[8] = { 0 };
		double c[10], w[64] = { 0 };
		struct sb_topo t;
		struct sb_err err = { 0 };
		int connected = 1;

		if (V < 2)
			continue;
		for (k = 0; k < nl; k++) {
			a[k] = (int)sb_rng_below(&r, (uint32_t)V);
			b[k] = (int)sb_rng_below(&r, (uint32_t)V - 1);
			if (b[k] >= a[k])
				b[k]++;
			c[k] = caps[sb_rng_below(&r, 5)];
			w[a[k] * V + b[k]] += c[k];
			w[b[k] * V + a[k]] += c[k];
		}
		for (g = 0; g < ngpu; g++)
			server[g] = (int)sb_rng_below(&r, (uint32_t)ngpu);
		rc = sb_topo_from_links(&t, "rand", ngpu, nhub, server, nl, a, b, c, &err);
		for (g = 0; g < ngpu; g++)
			for (h = 0; h < ngpu; h++)
				if (g != h && brute(V, w, g, h, seen, INFINITY) == 0)
					connected = 0;
		if (!connected) {
			cr_assert_eq(rc, SB_EXIT_INPUT, "disconnected graph accepted");
			cr_assert(strstr(err.msg, "are not connected"), "%s", err.msg);
			cr_assert_null(t.bw);
			disconnected++;
			continue;
		}
		cr_assert_eq(rc, 0, "%s", err.msg);
		check_topo(&t);
		for (g = 0; g < ngpu; g++)
			for (h = 0; h < ngpu; h++)
				if (g != h)
					cr_assert_eq(bw(&t, g, h), brute(V, w, g, h, seen, INFINITY),
						     "it %d: bw[%d][%d]", it, g, h);
		sb_topo_release(&t);
		ok++;
	}
	cr_assert_gt(ok, 50);
	cr_assert_gt(disconnected, 20);
}

Test(pipeload, topo_from_links_bad)
{
	struct sb_topo t;
	struct sb_err err = { 0 };
	int a[2] = { 0, 1 }, b[2] = { 1, 3 }, srv[3] = { 0, 0, 0 };
	double c[2] = { 5, 5 }, bad[2] = { 5, NAN };

	cr_assert_eq(sb_topo_from_links(&t, "x", 3, 1, NULL, 2, a, b, c, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "cannot build topology 'x': GPUs 0 and 2 are not "
			 "connected"), "%s", err.msg);
	cr_assert_null(t.bw);
	cr_assert_eq(t.n, 0);
	cr_assert_eq(sb_topo_from_links(&t, "x", 3, 0, NULL, 2, a, b, c, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "link 1: endpoint 1 or 3 outside 0..2"), "%s", err.msg);
	cr_assert_eq(sb_topo_from_links(&t, "x", 2, 2, NULL, 2, a, b, bad, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "link 1: capacity nan"), "%s", err.msg);
	a[1] = b[1] = 1;
	cr_assert_eq(sb_topo_from_links(&t, "x", 2, 0, NULL, 2, a, b, c, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "link 1 joins vertex 1 to itself"), "%s", err.msg);
	cr_assert_eq(sb_topo_from_links(&t, "x", 0, 0, NULL, 0, a, b, c, &err),
		     SB_EXIT_INPUT);
	srv[1] = 3;
	cr_assert_eq(sb_topo_from_links(&t, "x", 3, 0, srv, 1, a, b, c, &err),
		     SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "GPU 1 in server 3"), "%s", err.msg);
	/* One GPU alone is connected; bonded links add up. */
	cr_assert_eq(sb_topo_from_links(&t, "one", 1, 0, NULL, 0, a, b, c, &err), 0);
	check_topo(&t);
	sb_topo_release(&t);
	a[1] = 0;
	b[1] = 1;
	cr_assert_eq(sb_topo_from_links(&t, "two", 2, 0, NULL, 2, a, b, c, &err), 0);
	cr_assert_eq(bw(&t, 0, 1), 10);
	sb_topo_release(&t);
}

Test(pipeload, topo_named)
{
	const char *const *names;
	struct sb_topo t;
	struct sb_err err = { 0 };
	int n, i, g, h;

	names = sb_topo_names(&n);
	cr_assert_eq(n, 7);
	for (i = 0; i < n; i++) {
		cr_assert_eq(sb_topo_named(names[i], &t, &err), 0, "%s", err.msg);
		check_topo(&t);
		cr_assert_str_eq(t.name, names[i]);
		cr_assert_eq(t.mem, 16e9);
		sb_topo_release(&t);
	}

	/* DGX-1: six NVLinks per GPU; the doubled links form the ring
	 * 0-3-2-1-5-6-7-4-0, so even the single-link pair (0,1) and the
	 * unlinked pair (0,5) have a 50 GB/s widest path. */
	cr_assert_eq(sb_topo_named("dgx1", &t, &err), 0);
	cr_assert_eq(t.n, 8);
	cr_assert_eq(t.nserver, 1);
	for (g = 0; g < 8; g++)
		for (h = 0; h < 8; h++)
			if (g != h)
				cr_assert_eq(bw(&t, g, h), 50e9, "dgx1 %d-%d", g, h);
	sb_topo_release(&t);

	cr_assert_eq(sb_topo_named("pcie4", &t, &err), 0);
	cr_assert_eq(t.n, 4);
	cr_assert_eq(bw(&t, 0, 3), 10e9);
	sb_topo_release(&t);

	/* T-a, T-b and DAPPLE's configurations: inside / across servers. */
	{
		static const struct {
			const char *name;
			int per;
			double in, out;
		} want[] = {
			{ "2x8-nvlink-25gbe", 8, 50e9, 3e9 },
			{ "4x4-pcie-10gbe", 4, 10e9, 1.2e9 },
			{ "config-a", 8, 25e9, 3e9 },
			{ "config-b", 1, 0, 3e9 },
			{ "config-c", 1, 0, 1.25e9 },
		};
		size_t k;
		for (k = 0; k < sizeof want / sizeof want[0]; k++) {
			cr_assert_eq(sb_topo_named(want[k].name, &t, &err), 0);
			cr_assert_eq(t.n, 16);
			cr_assert_eq(t.nserver, 16 / want[k].per);
			for (g = 0; g < 16; g++) {
				cr_assert_eq(t.server[g], g / want[k].per);
				for (h = 0; h < 16; h++)
					if (g != h)
						cr_assert_eq(bw(&t, g, h),
							     g / want[k].per == h / want[k].per
							     ? want[k].in : want[k].out,
							     "%s %d-%d", want[k].name, g, h);
			}
			sb_topo_release(&t);
		}
	}
	cr_assert_eq(sb_topo_named("dgx2", &t, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "unknown topology 'dgx2' (known: dgx1, pcie4"), "%s",
		  err.msg);
	cr_assert_null(t.bw);
}

Test(pipeload, topo_random)
{
	int n, rep;

	for (n = 8; n <= 64; n += 7) {
		for (rep = 0; rep < 3; rep++) {
			struct sb_rng r1 = sb_rng_stream(7, (uint64_t)n, (uint64_t)rep,
							 SB_RNG_INSTANCE);
			struct sb_rng r2 = r1;
			struct sb_topo a, b;
			int g, h;
			sb_topo_random(&a, n, &r1);
			sb_topo_random(&b, n, &r2);
			check_topo(&a);
			cr_assert_eq(a.n, n);
			cr_assert_str_eq(a.name, b.name);
			cr_assert_eq(a.mem, b.mem);
			cr_assert(a.mem == 16e9 || a.mem == 32e9);
			cr_assert_eq(memcmp(a.bw, b.bw, (size_t)n * n * sizeof *a.bw), 0,
				     "not deterministic");
			cr_assert_eq(memcmp(a.server, b.server, (size_t)n * sizeof *a.server), 0);
			for (g = 0; g < n; g++) {
				cr_assert(g == 0 || a.server[g] >= a.server[g - 1]);
				for (h = 0; h < n; h++) {
					if (g == h)
						continue;
					/* Inside a server at least PCIe; across servers
					 * at most the fastest network link. */
					if (a.server[g] == a.server[h])
						cr_assert_geq(bw(&a, g, h), 10e9);
					else
						cr_assert_leq(bw(&a, g, h), 12e9);
				}
			}
			sb_topo_release(&a);
			sb_topo_release(&b);
		}
	}
}
