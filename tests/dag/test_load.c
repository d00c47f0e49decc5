/*
 * test_load.c - loaders and generators of the dag family: known
 * answers on the real data (../shared/data, SOURCES.md), bad input for
 * every loader, and properties of the seeded generators.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/testutil.h"
#include "workloads/dag/load.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */
/* ------------------------------------------------------------------ */

static int op_of(const struct sb_dag *g, long ext)
{
	int v;
	for (v = 0; v < g->n; v++)
		if (g->ext_id[v] == ext)
			return v;
	cr_assert_fail("no op with file id %ld", ext);
	return -1;
}

static int indeg(const struct sb_dag *g, int v)
{
	return g->pred_off[v + 1] - g->pred_off[v];
}

static int outdeg(const struct sb_dag *g, int v)
{
	return g->succ_off[v + 1] - g->succ_off[v];
}

/* Longest path by ops, by dynamic programming over g->topo. */
static double crit_path(const struct sb_dag *g)
{
	double *f = calloc((size_t)g->n + 1, sizeof *f), best = 0;
	int i, k;

	cr_assert_not_null(f);
	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		double s = 0;
		for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
			if (f[g->pred[k]] > s)
				s = f[g->pred[k]];
		f[v] = s + g->ops[v];
		if (f[v] > best)
			best = f[v];
	}
	free(f);
	return best;
}

/* topo is a permutation and every edge goes forward in it. */
static void assert_consistent(const struct sb_dag *g)
{
	int *pos = malloc((size_t)g->n * sizeof *pos), i, k;

	cr_assert_not_null(pos);
	for (i = 0; i < g->n; i++)
		pos[i] = -1;
	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		cr_assert(v >= 0 && v < g->n && pos[v] < 0, "topo is not a permutation");
		pos[v] = i;
	}
	cr_assert_eq(g->succ_off[g->n], g->m);
	cr_assert_eq(g->pred_off[g->n], g->m);
	for (i = 0; i < g->n; i++)
		for (k = g->succ_off[i]; k < g->succ_off[i + 1]; k++)
			cr_assert_lt(pos[i], pos[g->succ[k]], "edge %d -> %d goes backwards",
				     i, g->succ[k]);
	for (i = 0; i < g->n; i++)
		cr_assert(g->comp[i] >= 0 && g->comp[i] < g->ncomp);
	free(pos);
}

/* Number of colocation components with at least two ops. */
static int groups(const struct sb_dag *g, int *members)
{
	int *size = calloc((size_t)g->ncomp + 1, sizeof *size), i, cnt = 0;

	cr_assert_not_null(size);
	*members = 0;
	for (i = 0; i < g->n; i++)
		size[g->comp[i]]++;
	for (i = 0; i < g->ncomp; i++)
		if (size[i] > 1) {
			cnt++;
			*members += size[i];
		}
	free(size);
	return cnt;
}


static const char tf_head[] =
	"Id,(Outgoing) node,(Incoming) node,Colocation nodes,#tensorSize, "
	"#operations, RAM storage,Device constraint ,name\n";

/* A graph CSV: the header followed by body. */
static const char *write_graph(const char *body)
{
	static char buf[4096];
	snprintf(buf, sizeof buf, "%s%s", tf_head, body);
	return sb_test_write(buf);
}

static int load_graph_text(const char *body, struct sb_err *err,
			   const char **path)
{
	struct sb_dag g;
	int rc;
	*path = write_graph(body);
	cr_assert_not_null(*path);
	rc = sb_load_tf_graph(*path, &g, err);
	if (rc == 0)
		sb_dag_release(&g);
	unlink(*path);
	return rc;
}

/* ------------------------------------------------------------------ */
/* TensorFlow graphs: known answers                                    */
/* ------------------------------------------------------------------ */

Test(workloads, tf_graphreader_known_answers)
{
	DATA_OR_SKIP(path, "tfpartsched/test/GraphReader.csv");
	struct sb_dag_inst in = { 0 };
	struct sb_err err = { 0 };
	int members, v7, v8, v12, i, ncpu = 0, ngpu = 0, dcs[3][2] = { { 0 } };
	double demand = 0;

	cr_assert_eq(sb_load_tf_graph(path, &in.g, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.n, 20);
	cr_assert_eq(in.g.m, 52);
	assert_consistent(&in.g);
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 5)), 1);
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 0)), 0);
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 14)), 9);
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 12)), 4);
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 7)), 2);
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 8)), 2);
	cr_assert_eq(outdeg(&in.g, op_of(&in.g, 6)), 4);
	cr_assert_eq(outdeg(&in.g, op_of(&in.g, 8)), 1);
	cr_assert_eq(outdeg(&in.g, op_of(&in.g, 7)), 5);
	cr_assert_eq(in.g.out[op_of(&in.g, 1)], 629);
	cr_assert_eq(in.g.ops[op_of(&in.g, 12)], 371);
	cr_assert_eq(in.g.ram[op_of(&in.g, 5)], 27);
	cr_assert_eq(groups(&in.g, &members), 3);

	v7 = op_of(&in.g, 7);
	v8 = op_of(&in.g, 8);
	v12 = op_of(&in.g, 12);
	cr_assert_eq(sb_dag_mem(&in, v7), 1531);
	cr_assert_eq(sb_dag_mem(&in, v12), 2239);
	/* The unconstrained group is {7, 8} with demand 3555; the other two
	 * groups carry a CPU and a GPU constraint. */
	cr_assert_eq(in.g.comp[v7], in.g.comp[v8]);
	for (i = 0; i < in.g.n; i++) {
		if (in.g.comp[i] == in.g.comp[v7]) {
			demand += sb_dag_mem(&in, i);
			cr_assert(i == v7 || i == v8);
			cr_assert_eq(in.g.dc[i], SB_DC_ANY);
		}
	}
	cr_assert_eq(demand, 3555);
	for (i = 0; i < in.g.n; i++) {
		int c = in.g.comp[i];
		if (c == in.g.comp[v7] || in.g.dc[i] == SB_DC_ANY)
			continue;
		ncpu += in.g.dc[i] == SB_DEV_CPU;
		ngpu += in.g.dc[i] == SB_DEV_GPU;
		if (c < 3)
			dcs[c][in.g.dc[i] == SB_DEV_GPU]++;
	}
	cr_assert(ncpu > 0 && ngpu > 0);
	/* No group mixes CPU-only and GPU-only ops. */
	for (i = 0; i < 3; i++)
		cr_assert(!(dcs[i][0] && dcs[i][1]));
	sb_dag_inst_release(&in);
}

Test(workloads, tf_device_reader_rates)
{
	DATA_OR_SKIP(path, "tfpartsched/test/DeviceReaderTest.csv");
	static const double row0[5] = { 0, 184, 25, 138, 119 };
	static const double row3[5] = { 138, 149, 105, 0, 23 };
	static const double row4[5] = { 119, 20, 100, 23, 0 };
	struct sb_devices d;
	struct sb_err err = { 0 };
	int j;

	cr_assert_eq(sb_load_tf_devices(path, &d, &err), 0, "%s", err.msg);
	cr_assert_eq(d.n, 5);
	for (j = 0; j < 5; j++) {
		if (j != 0)
			cr_assert_eq(d.rate[0 * 5 + j], row0[j]);
		if (j != 3)
			cr_assert_eq(d.rate[3 * 5 + j], row3[j]);
		if (j != 4)
			cr_assert_eq(d.rate[4 * 5 + j], row4[j]);
	}
	cr_assert_eq(d.speed[0], 118);
	cr_assert_eq(d.mem[4], 50000);
	cr_assert_eq(d.type[3], SB_DEV_GPU);
	sb_devices_release(&d);
}

Test(workloads, tf_scheduling_fixture_sinks)
{
	DATA_OR_SKIP(path, "tfpartsched/test/Scheduling_Test_graph.csv");
	struct sb_dag g;
	struct sb_err err = { 0 };
	int v, sinks = 0;

	cr_assert_eq(sb_load_tf_graph(path, &g, &err), 0, "%s", err.msg);
	cr_assert_eq(g.n, 7);
	for (v = 0; v < g.n; v++)
		if (outdeg(&g, v) == 0) {
			sinks++;
			cr_assert(g.ext_id[v] == 2 || g.ext_id[v] == 5 || g.ext_id[v] == 6);
		}
	cr_assert_eq(sinks, 3);
	sb_dag_release(&g);
}

Test(workloads, tf_training_graphs)
{
	static const struct {
		const char *file;
		int n, m, cpu, gpu;
	} want[3] = {
		{ "tfpartsched/graph/convolutional_network_graph.csv", 346, 531, 5, 5 },
		{ "tfpartsched/graph/recurrent_network.csv", 3068, 5506, 30, 32 },
		{ "tfpartsched/graph/dynamic_rnn_graph.csv", 5270, 9155, 61, 42 },
	};
	int i, v, found = 0;

	for (i = 0; i < 3; i++) {
		const char *path = sb_test_data(want[i].file);
		struct sb_dag g;
		struct sb_err err = { 0 };
		int cpu = 0, gpu = 0, members;
		if (!path)
			continue;
		found++;
		cr_assert_eq(sb_load_tf_graph(path, &g, &err), 0, "%s", err.msg);
		cr_assert_eq(g.n, want[i].n, "%s: %d ops", want[i].file, g.n);
		cr_assert_eq(g.m, want[i].m, "%s: %d edges", want[i].file, g.m);
		assert_consistent(&g);
		for (v = 0; v < g.n; v++) {
			cpu += g.dc[v] == SB_DEV_CPU;
			gpu += g.dc[v] == SB_DEV_GPU;
			cr_assert(g.ops[v] >= 1 && g.ops[v] <= 100);
			cr_assert_eq(g.ext_id[v], v + 1); /* ids 1..N in order */
		}
		cr_assert_eq(cpu, want[i].cpu);
		cr_assert_eq(gpu, want[i].gpu);
		cr_assert_gt(groups(&g, &members), 0);
		sb_dag_release(&g);
	}
	if (!found)
		cr_skip_test("TensorFlow graphs not found");
}

Test(workloads, tf_legacy_sample_graph)
{
	DATA_OR_SKIP(path, "tfpartsched/graph/sample_graph.csv");
	struct sb_dag g;
	struct sb_err err = { 0 };
	int v;

	cr_assert_eq(sb_load_tf_graph(path, &g, &err), 0, "%s", err.msg);
	cr_assert_eq(g.n, 22);
	cr_assert_eq(g.m, 68);
	for (v = 0; v < g.n; v++) {
		cr_assert_eq(g.ram[v], 0);
		cr_assert_eq(g.dc[v], SB_DC_ANY);
	}
	cr_assert_eq(g.out[op_of(&g, 0)], 681);
	sb_dag_release(&g);
}

Test(workloads, tf_devices_50)
{
	DATA_OR_SKIP(path, "tfpartsched/device/2017_02_03_11_22_48-50-10-100-100000000-10-60-0.6.csv");
	struct sb_devices d;
	struct sb_err err = { 0 };
	int i, j, cpu = 0, gpu = 0, best = 0;
	double sum = 0;

	cr_assert_eq(sb_load_tf_devices(path, &d, &err), 0, "%s", err.msg);
	cr_assert_eq(d.n, 50);
	for (i = 0; i < d.n; i++) {
		cpu += d.type[i] == SB_DEV_CPU;
		gpu += d.type[i] == SB_DEV_GPU;
		sum += d.speed[i];
		if (d.speed[i] > d.speed[best])
			best = i;
		for (j = 0; j < d.n; j++) {
			cr_assert_eq(d.rate[i * 50 + j], d.rate[j * 50 + i]);
			if (i != j)
				cr_assert(d.rate[i * 50 + j] >= 10 && d.rate[i * 50 + j] <= 60);
		}
	}
	cr_assert_eq(cpu, 31);
	cr_assert_eq(gpu, 19);
	cr_assert_eq(sum, 2550);
	cr_assert_eq(best, 39);
	cr_assert_eq(d.ext_id[best], 39);
	cr_assert_eq(d.speed[best], 100);
	cr_assert_eq(d.type[best], SB_DEV_CPU);
	cr_assert_eq(d.speed[0], 28);
	cr_assert_eq(d.mem[0], 35714285);
	sb_devices_release(&d);
}

Test(workloads, tf_every_device_file)
{
	const char *dir = sb_test_data("tfpartsched/device");
	DIR *dp;
	struct dirent *de;
	int count = 0;

	if (!dir)
		cr_skip_test("device folder not found");
	dp = opendir(dir);
	cr_assert_not_null(dp);
	while ((de = readdir(dp))) {
		char path[1200];
		struct sb_devices d;
		struct sb_err err = { 0 };
		size_t k = strlen(de->d_name);
		if (k < 4 || strcmp(de->d_name + k - 4, ".csv"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		cr_assert_eq(sb_load_tf_devices(path, &d, &err), 0, "%s", err.msg);
		cr_assert_gt(d.n, 0);
		sb_devices_release(&d);
		count++;
	}
	closedir(dp);
	cr_assert_geq(count, 10);
}

Test(workloads, tf_send_receive_is_cyclic)
{
	DATA_OR_SKIP(path, "tfpartsched/test/SendReceiveNodes_graph.csv");
	struct sb_dag g;
	struct sb_err err = { 0 };
	int rc = sb_load_tf_graph(path, &g, &err);

	sb_test_expect_bad(rc, &err, path, "cycle", "4 -> 8", "field '(Outgoing) node'");
	cr_assert_eq(g.n, 0);
	sb_dag_release(&g); /* harmless after a failure */
}

Test(workloads, tf_instance)
{
	DATA_OR_SKIP(gpath, "tfpartsched/test/GraphReader.csv");
	DATA_OR_SKIP(dpath, "tfpartsched/test/GraphPartitioner_device.csv");
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	char want[2400];

	cr_assert_eq(sb_load_tf_inst(gpath, dpath, &in, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.n, 20);
	cr_assert_eq(in.dev.n, 5);
	cr_assert_eq(in.send_ops, 10);
	cr_assert_null(in.etc);
	cr_assert_str_eq(in.name, "GraphReader");
	snprintf(want, sizeof want, "graph=%s devices=%s", gpath, dpath);
	cr_assert_str_eq(in.source, want);
	cr_assert_eq(in.dev.mem[0], 4000);
	sb_dag_inst_release(&in);

	/* A bad device file fails the whole instance and leaves nothing. */
	{
		const char *bad = sb_test_write("Id,RAM,#operations,commnication speed,type\n0,1,x,,CPU\n");
		int rc = sb_load_tf_inst(gpath, bad, &in, &err);
		sb_test_expect_bad(rc, &err, bad, "line 2", "field '#operations'", "not a number");
		cr_assert_null(in.name);
		cr_assert_eq(in.g.n, 0);
		unlink(bad);
	}
}

Test(workloads, tf_meta_and_layouts)
{
	struct sb_dag g;
	struct sb_err err = { 0 };
	const char *p;

	/* "Meta" skips line 2 as well; ids in any order; edges listed once or
	 * twice; colocation transitive. */
	p = sb_test_write("Meta,whatever\nId,out,in,coloc,t,o,r,c\n"
			  "7,3,,5,1,2,3,NO\n3,,7,,1,2,3,GPU\n5,,,9,1,2,3,NO\n9,,,,1,2,3,TPU\n");
	cr_assert_eq(sb_load_tf_graph(p, &g, &err), 0, "%s", err.msg);
	cr_assert_eq(g.n, 4);
	cr_assert_eq(g.m, 1);
	cr_assert_eq(g.ext_id[0], 3);
	cr_assert_eq(g.ext_id[3], 9);
	cr_assert_eq(g.succ[0], 0);  /* 7 -> 3 */
	cr_assert_eq(g.dc[0], SB_DEV_GPU);
	cr_assert_eq(g.dc[3], SB_DEV_TPU);
	cr_assert_eq(g.comp[1], g.comp[2]); /* 5 ~ 7 */
	cr_assert_eq(g.comp[2], g.comp[3]); /* 7 ~ 9 via 5 */
	cr_assert_neq(g.comp[0], g.comp[1]);
	sb_dag_release(&g);
	unlink(p);
}

/* ------------------------------------------------------------------ */
/* TensorFlow CSVs: bad input                                          */
/* ------------------------------------------------------------------ */

Test(workloads, tf_graph_bad_input)
{
	struct sb_err err = { 0 };
	const char *p;
	int rc;

	/* empty file */
	p = sb_test_write("");
	{
		struct sb_dag g;
		rc = sb_load_tf_graph(p, &g, &err);
		sb_test_expect_bad(rc, &err, p, "line 1", "empty", NULL);
		unlink(p);
	}
	/* header only */
	rc = load_graph_text("", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2", "no operations", NULL);
	/* truncated line */
	rc = load_graph_text("1,2,,,5,6,7,NO,a\n2,,1,,5", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 3", "5 fields, expected 9", NULL);
	/* non-numeric field */
	rc = load_graph_text("1,2,,,5,6,7,NO,a\n2,,1,,5,abc,7,NO,b\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 3: field '#operations': not a number", NULL, NULL);
	/* negative work */
	rc = load_graph_text("1,,,,5,-6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field '#operations'", "negative", NULL);
	/* infinite and NaN values */
	rc = load_graph_text("1,,,,inf,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field '#tensorSize'", "not a finite number", NULL);
	rc = load_graph_text("1,,,,5,6,nan,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field 'RAM storage'", "not a finite number", NULL);
	/* unknown constraint */
	rc = load_graph_text("1,,,,5,6,7,FPGA,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field 'Device constraint'", "unknown constraint 'FPGA'", NULL);
	/* unknown id */
	rc = load_graph_text("1,2,,,5,6,7,NO,a\n2,,1;99,,5,6,7,NO,b\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 3: field '(Incoming) node'", "unknown op id 99", NULL);
	rc = load_graph_text("1,,,42,5,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field 'Colocation nodes'", "unknown op id 42", NULL);
	/* id out of range */
	rc = load_graph_text("-1,,,,5,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field 'Id'", "negative", NULL);
	rc = load_graph_text("99999999999,,,,5,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field 'Id'", "out of range", NULL);
	rc = load_graph_text("1,2x,,,5,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field '(Outgoing) node'", "not an integer", NULL);
	rc = load_graph_text("1,2;;3,,,5,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field '(Outgoing) node'", "empty entry", NULL);
	/* duplicate id */
	rc = load_graph_text("1,,,,5,6,7,NO,a\n2,,,,5,6,7,NO,b\n1,,,,5,6,7,NO,c\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 4: field 'Id'", "duplicate id 1 (also on line 2)", NULL);
	/* self-loop */
	rc = load_graph_text("1,1,,,5,6,7,NO,a\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2: field '(Outgoing) node'", "self-loop", NULL);
	/* cycle through three ops, listed in incoming lists only */
	rc = load_graph_text("1,,3,,5,6,7,NO,a\n2,,1,,5,6,7,NO,b\n3,,2,,5,6,7,NO,c\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "field '(Incoming) node'", "closes a cycle", "line ");
	/* wrong column count */
	rc = load_graph_text("1,,,,5,6,7\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2", "7 fields, expected 9, 8", NULL);
	rc = load_graph_text("1,,,,5,6,7,NO,a,b\n", &err, &p);
	sb_test_expect_bad(rc, &err, p, "line 2", "10 fields", NULL);
	/* missing file, a directory */
	{
		struct sb_dag g;
		rc = sb_load_tf_graph("/nonexistent/x.csv", &g, &err);
		sb_test_expect_bad(rc, &err, "/nonexistent/x.csv", "cannot read graph", NULL, NULL);
		rc = sb_load_tf_graph("/tmp", &g, &err);
		sb_test_expect_bad(rc, &err, "/tmp", "cannot read graph", NULL, NULL);
	}
}

Test(workloads, tf_devices_bad_input)
{
	static const char head[] = "Id,RAM,#operations,commnication speed,type\n";
	static const struct {
		const char *body, *a, *b;
	} cases[] = {
		{ "0,10,5,1;2,CPU\n1,10,5,3,GPU\n2,10,5,,CPU\n", NULL, NULL },
		{ "0,10,5,1,CPU\n1,10,5,3,GPU\n2,10,5,,CPU\n",
		  "line 2: field 'commnication speed'", "1 rates, expected 2" },
		{ "0,10,5,1;2,CPU\n1,10,5,,GPU\n2,10,5,,CPU\n",
		  "line 3: field 'commnication speed'", "0 rates, expected 1" },
		{ "0,10,5,1;2,CPU\n1,10,5,3,GPU\n2,10,5,4,CPU\n",
		  "line 4: field 'commnication speed'", "1 rates, expected 0" },
		{ "0,10,5,1;2;,CPU\n", "line 2: field 'commnication speed'", "empty entry" },
		{ "0,10,5,1;x,CPU\n", "line 2: field 'commnication speed'", "not a number" },
		{ "0,10,5,1;0,CPU\n", "line 2: field 'commnication speed'", "positive" },
		{ "0,10,5,,FPGA\n", "line 2: field 'type'", "unknown device type" },
		{ "0,ten,5,,CPU\n", "line 2: field 'RAM'", "not a number" },
		{ "0,-10,5,,CPU\n", "line 2: field 'RAM'", "negative" },
		{ "0,10,0,,CPU\n", "line 2: field '#operations'", "positive" },
		{ "1,10,5,,CPU\n", "line 2: field 'Id'", "expected 0" },
		{ "0,10,5,CPU\n", "line 2", "4 fields, expected 5" },
		{ "", "line 2", "no devices" },
	};
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[512];
		struct sb_devices d;
		struct sb_err err = { 0 };
		const char *p;
		int rc;
		snprintf(text, sizeof text, "%s%s", head, cases[i].body);
		p = sb_test_write(text);
		rc = sb_load_tf_devices(p, &d, &err);
		if (!cases[i].a) {
			cr_assert_eq(rc, 0, "%s", err.msg);
			cr_assert_eq(d.n, 3);
			cr_assert_eq(d.rate[0 * 3 + 2], 2);
			cr_assert_eq(d.rate[2 * 3 + 1], 3);
			sb_devices_release(&d);
		} else {
			sb_test_expect_bad(rc, &err, p, cases[i].a, cases[i].b, NULL);
		}
		unlink(p);
	}
	{
		struct sb_devices d;
		struct sb_err err = { 0 };
		const char *p = sb_test_write("");
		sb_test_expect_bad(sb_load_tf_devices(p, &d, &err), &err, p, "line 1", "empty", NULL);
		unlink(p);
	}
}

/* ------------------------------------------------------------------ */
/* STG                                                                 */
/* ------------------------------------------------------------------ */

Test(workloads, stg_sample00)
{
	DATA_OR_SKIP(path, "stg/sample00.stg");
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	long cp = 0;
	int d;

	cr_assert_eq(sb_load_stg(path, 2, &in, &cp, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.n, 10);
	cr_assert_eq(cp, -1);
	cr_assert_eq(crit_path(&in.g), 15);
	cr_assert_eq(in.g.ops[0], 0);
	cr_assert_eq(in.g.ops[9], 0);
	cr_assert_eq(in.g.ops[6], 7);
	cr_assert_eq(in.dev.n, 2);
	cr_assert_eq(in.send_ops, 0);
	cr_assert_null(in.etc);
	cr_assert_str_eq(in.name, "sample00");
	for (d = 0; d < 2; d++) {
		cr_assert_eq(in.dev.speed[d], 1);
		cr_assert(isinf(in.dev.mem[d]));
		cr_assert_eq(in.dev.type[d], SB_DEV_CPU);
	}
	cr_assert(isinf(in.dev.rate[1]));
	cr_assert_eq(sb_dag_xfer(&in, 5, 0, 1), 0);
	assert_consistent(&in.g);
	sb_dag_inst_release(&in);
}

Test(workloads, stg_sample01_unsorted)
{
	DATA_OR_SKIP(path, "stg/sample01.stg");
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	int v2;

	cr_assert_eq(sb_load_stg(path, 4, &in, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.n, 12);
	v2 = op_of(&in.g, 2);
	cr_assert_eq(in.g.ops[v2], 8000);
	cr_assert_eq(indeg(&in.g, v2), 3);  /* 7, 9, 5 */
	cr_assert_eq(indeg(&in.g, op_of(&in.g, 11)), 4);
	assert_consistent(&in.g);
	sb_dag_inst_release(&in);
}

Test(workloads, stg_every_file)
{
	const char *dir = sb_test_data("stg");
	DIR *dp;
	struct dirent *de;
	int count = 0;

	if (!dir)
		cr_skip_test("stg folder not found");
	dp = opendir(dir);
	cr_assert_not_null(dp);
	while ((de = readdir(dp))) {
		char path[1200];
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		size_t k = strlen(de->d_name);
		if (k < 4 || strcmp(de->d_name + k - 4, ".stg"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		cr_assert_eq(sb_load_stg(path, 4, &in, NULL, &err), 0, "%s", err.msg);
		assert_consistent(&in.g);
		cr_assert_gt(crit_path(&in.g), 0);
		sb_dag_inst_release(&in);
		count++;
	}
	closedir(dp);
	cr_assert_geq(count, 16);
}

Test(workloads, stg_prototypes)
{
	static const struct {
		const char *file;
		int n;
		long first;
	} want[] = {
		{ "stg/proto151.stg", 81, 1 },   /* tasks 1..81 */
		{ "stg/proto000.stg", 453, 1 },
		{ "stg/proto006.stg", 275, 0 },  /* added entry line 0 */
		{ "stg/proto001.stg", 475, 0 },
		{ "stg/proto048.stg", 2066, 0 },
	};
	size_t i;
	int found = 0;

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const char *path = sb_test_data(want[i].file);
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		int last;
		if (!path)
			continue;
		found++;
		cr_assert_eq(sb_load_stg(path, 2, &in, NULL, &err), 0, "%s", err.msg);
		cr_assert_eq(in.g.n, want[i].n, "%s: %d ops", want[i].file, in.g.n);
		cr_assert_eq(in.g.ext_id[0], want[i].first);
		last = in.g.n - 1;
		cr_assert_eq(outdeg(&in.g, last), 0);  /* the exit dummy */
		cr_assert_eq(in.g.ops[last], 0);
		assert_consistent(&in.g);
		sb_dag_inst_release(&in);
	}
	if (!found)
		cr_skip_test("prototype STG files not found");
}

static const char stg_sample00_text[] =
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
	"          9          0          2          7          8\n";

Test(workloads, stg_trailer_cp)
{
	static const char *trailers[] = {
		"# Standard Task Graph Set Project\n"
		"#   Random Seed       : 2811\n"
		"# CP Length           : 15\n"
		"# Parallelism         : 1.9\n",
		"# STG 2002 sample\n# Critical Path Length (CPL) 15\n",
		"# critical path: 15 time units\n",
		"# cp length : 15",
	};
	size_t i;

	for (i = 0; i < sizeof trailers / sizeof trailers[0]; i++) {
		char text[2048];
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		const char *p;
		long cp = -7;
		snprintf(text, sizeof text, "%s%s", stg_sample00_text, trailers[i]);
		p = sb_test_write(text);
		cr_assert_eq(sb_load_stg(p, 3, &in, &cp, &err), 0, "%s", err.msg);
		cr_assert_eq(cp, 15, "trailer %zu gave %ld", i, cp);
		cr_assert_eq((double)cp, crit_path(&in.g));
		sb_dag_inst_release(&in);
		unlink(p);
	}
	/* No trailer: -1. */
	{
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		const char *p = sb_test_write(stg_sample00_text);
		long cp = 0;
		cr_assert_eq(sb_load_stg(p, 1, &in, &cp, &err), 0, "%s", err.msg);
		cr_assert_eq(cp, -1);
		sb_dag_inst_release(&in);
		unlink(p);
	}
}

static void stg_bad(const char *text, int ndev, const char *a, const char *b)
{
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	const char *p = sb_test_write(text);
	int rc = sb_load_stg(p, ndev, &in, NULL, &err);

	sb_test_expect_bad(rc, &err, p, a, b, NULL);
	cr_assert_null(in.name);
	unlink(p);
}

Test(workloads, stg_bad_input)
{
	stg_bad("", 2, "no task count", "line 1");
	stg_bad("\n\n", 2, "no task count", "line 3");
	stg_bad("2\n0 0 0\n1 5 1 0\n2 5 2 1\n3 0 1 2\n", 2,
		"line 4: field 'predecessor'", "1 ids, expected the count 2");
	stg_bad("2\n0 0 0\n1 5 1 0\n2 five 1 1\n3 0 1 2\n", 2,
		"line 4: field 'processing time'", "not an integer");
	stg_bad("2\n0 0 0\n1 -5 1 0\n2 5 1 1\n3 0 1 2\n", 2,
		"line 3: field 'processing time'", "negative");
	stg_bad("2\n0 0 0\n1 5 1 0\n7 5 1 1\n3 0 1 2\n", 2,
		"line 4: field 'task id'", "out of range");
	stg_bad("2\n0 0 0\n1 5 1 0\n2 5 1 9\n3 0 1 2\n", 2,
		"line 4: field 'predecessor'", "out of range");
	stg_bad("2\n0 0 0\n1 5 1 0\n1 5 1 0\n3 0 1 2\n", 2,
		"line 4: field 'task id'", "duplicate task id 1 (also on line 3)");
	stg_bad("2\n0 0 0\n1 5 2 0 2\n2 5 1 1\n3 0 1 2\n", 2,
		"field 'predecessor'", "closes a cycle");
	stg_bad("2\n0 0 0\n1 5 1 1\n2 5 1 0\n3 0 1 2\n", 2,
		"line 3: field 'predecessor'", "self-loop");
	stg_bad("2\n0 0 0\n1 5 1 0\n2 5 1 1\n", 2, "3 task lines, expected 4", "line 5");
	stg_bad("2\n0 0 0\n1 5 1 0\n2 5 1 1\n3 0 1 2\n4 0 0\n", 2,
		"line 6", "more task lines");
	stg_bad("2\n0 0 0\n1 5 0 0\n2 5 1 1\n3 0 1 2\n", 2,
		"line 3: field 'predecessor'", "more ids than the count 0");
	stg_bad("2 4 8\n", 2, "line 1", "expected 'n' or 'n p'");
	stg_bad("x\n", 2, "line 1: field 'n'", "not an integer");
	/* prototype without an entry line may not refer to task 0 */
	stg_bad("2 4\n1 5 0\n2 5 1 0\n3 0 1 2\n", 2,
		"line 3: field 'predecessor'", "unknown task id 0");
	stg_bad(stg_sample00_text, 0, "0 devices", "stg");
}

/* ------------------------------------------------------------------ */
/* ETC matrices                                                        */
/* ------------------------------------------------------------------ */

Test(workloads, etc_canonical)
{
	DATA_OR_SKIP(exe, "heft/canonicalgraph_task_exe_time.csv");
	struct sb_dag_inst in, in2;
	struct sb_err err = { 0 };
	char prefix[1100];
	int k;

	snprintf(prefix, sizeof prefix, "%.*s", (int)(strlen(exe) - strlen("_task_exe_time.csv")), exe);
	cr_assert_eq(sb_load_etc_prefix(prefix, &in, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.n, 10);
	cr_assert_eq(in.dev.n, 3);
	cr_assert_eq(in.g.m, 15);
	cr_assert_not_null(in.etc);
	cr_assert_eq(in.etc[0], 14);
	cr_assert_eq(in.etc[1], 16);
	cr_assert_eq(in.etc[2], 9);
	cr_assert_eq(in.etc[9 * 3 + 1], 7);
	cr_assert_eq(sb_dag_time(&in, 0, 2), 9);
	cr_assert_eq(in.g.ops[0], 13);     /* (14 + 16 + 9) / 3 */
	cr_assert_eq(in.g.out[0], 18);     /* largest outgoing data */
	cr_assert_eq(in.g.succ[in.g.succ_off[0]], 1);
	cr_assert_eq(in.g.succ_size[in.g.succ_off[0]], 18);
	for (k = in.g.succ_off[0]; k < in.g.succ_off[1]; k++)
		if (in.g.succ[k] == 3)
			cr_assert_eq(in.g.succ_size[k], 9);
	/* Communication cost = data / bandwidth (bandwidth 1 here). */
	cr_assert_eq(sb_dag_xfer(&in, 18, 0, 1), 18);
	cr_assert_eq(in.dev.rate[0 * 3 + 1], 1);
	cr_assert_eq(in.send_ops, 0);
	cr_assert_str_eq(in.name, "canonicalgraph");
	assert_consistent(&in.g);

	/* The same with the Startup variant of the bandwidth file. */
	{
		DATA_OR_SKIP(conn, "heft/canonicalgraph_task_connectivity.csv");
		DATA_OR_SKIP(bws, "heft/canonicalgraph_resource_BW_startup.csv");
		cr_assert_eq(sb_load_etc(exe, conn, bws, &in2, &err), 0, "%s", err.msg);
		cr_assert_eq(in2.g.m, in.g.m);
		cr_assert_eq(memcmp(in2.etc, in.etc, 30 * sizeof *in.etc), 0);
		sb_dag_inst_release(&in2);
	}
	sb_dag_inst_release(&in);
}

Test(workloads, etc_random_graph)
{
	DATA_OR_SKIP(exe, "heft/randomgraph_task_exe_time.csv");
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	char prefix[1100];

	snprintf(prefix, sizeof prefix, "%.*s", (int)(strlen(exe) - strlen("_task_exe_time.csv")), exe);
	cr_assert_eq(sb_load_etc_prefix(prefix, &in, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.n, 10);
	cr_assert_eq(in.dev.n, 3);
	cr_assert_eq(in.dev.rate[1], 10);
	cr_assert_float_eq(in.etc[0], 61.548682758145361, 1e-12);
	cr_assert_eq(in.g.out[0], 90);
	assert_consistent(&in.g);
	sb_dag_inst_release(&in);
}

static void etc_bad(const char *exe, const char *conn, const char *bw,
		    int which, const char *a, const char *b)
{
	const char *p[3];
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	int rc, i;

	p[0] = sb_test_write(exe);
	p[1] = sb_test_write(conn);
	p[2] = sb_test_write(bw);
	rc = sb_load_etc(p[0], p[1], p[2], &in, &err);
	sb_test_expect_bad(rc, &err, p[which], a, b, NULL);
	cr_assert_null(in.etc);
	for (i = 0; i < 3; i++)
		unlink(p[i]);
}

Test(workloads, etc_bad_input)
{
	static const char exe[] = "TP,P_0,P_1\nT_0,1,2\nT_1,3,4\nT_2,5,6\n";
	static const char conn[] = "T,T0,T1,T2\nT0,0,5,0\nT1,0,0,7\nT2,0,0,0\n";
	static const char bw[] = "P,P_0,P_1\nP_0,0,2\nP_1,2,0\n";
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	const char *p[3];
	int i;

	/* The good instance first. */
	p[0] = sb_test_write(exe);
	p[1] = sb_test_write(conn);
	p[2] = sb_test_write(bw);
	cr_assert_eq(sb_load_etc(p[0], p[1], p[2], &in, &err), 0, "%s", err.msg);
	cr_assert_eq(in.g.m, 2);
	cr_assert_eq(sb_dag_xfer(&in, 5, 0, 1), 2.5);
	sb_dag_inst_release(&in);
	for (i = 0; i < 3; i++)
		unlink(p[i]);

	etc_bad("", conn, bw, 0, "line 1", "empty");
	etc_bad("TP,P_0,P_1\n", conn, bw, 0, "line 2", "0 rows");
	etc_bad("TP,P_0,P_1\n\n", conn, bw, 0, "line 3", "0 rows");
	etc_bad("TP,P_0,P_1\nT_0,1,2\nT_1,3\nT_2,5,6\n", conn, bw, 0,
		"line 3", "2 fields, expected 3");
	etc_bad("TP,P_0,P_1\nT_0,1,2\nT_1,3,x\nT_2,5,6\n", conn, bw, 0,
		"line 3: field 'P_1'", "not a number");
	etc_bad("TP,P_0,P_1\nT_0,1,2\nT_1,3,-4\nT_2,5,6\n", conn, bw, 0,
		"line 3: field 'P_1'", "negative");
	etc_bad(exe, "T,T0,T1\nT0,0,5\nT1,0,0\n", bw, 1, "line 1", "2 columns, expected 3");
	etc_bad(exe, "T,T0,T1,T2\nT0,0,5,0\nT1,0,0,7\n", bw, 1, "line 4", "2 rows, expected 3");
	etc_bad(exe, "T,T0,T1,T2\nT0,0,5,0\nT2,0,0,7\nT1,0,0,0\n", bw, 1,
		"line 3: field 'row label'", "does not match");
	etc_bad(exe, "T,T0,T1,T2\nT0,0,5,0\nT1,0,3,7\nT2,0,0,0\n", bw, 1,
		"line 3: field 'T1'", "self-loop");
	etc_bad(exe, "T,T0,T1,T2\nT0,0,5,0\nT1,0,0,7\nT2,1,0,0\n", bw, 1,
		"field 'T", "closes a cycle");
	etc_bad(exe, conn, "P,P_0,P_1\nP_0,0,2\nP_1,3,0\n", 2,
		"line 3: field 'P_0'", "symmetric");
	etc_bad(exe, conn, "P,P_0,P_1\nP_0,0,0\nP_1,0,0\n", 2,
		"line 2: field 'P_1'", "positive");
	etc_bad(exe, conn, "P,P_0,P_1,P_2\nP_0,0,2,2\nP_1,2,0,2\nP_2,2,2,0\n", 2,
		"line 1", "3 columns, expected 2");
	etc_bad(exe, conn, "P,P_0,P_1\nP_0,0,2\nP_1,2,0\nStartup,0,1.5\n", 2,
		"line 4: field 'P_1'", "not supported");
	etc_bad(exe, conn, "P,P_0,P_1\nP_0,0,2\nStartup,0,0\nP_1,2,0\n", 2,
		"line 4", "after the Startup row");

	/* Zero start-up costs are accepted. */
	p[0] = sb_test_write(exe);
	p[1] = sb_test_write(conn);
	p[2] = sb_test_write("P,P_0,P_1\nP_0,0,2\nP_1,2,0\nStartup,0,0\n");
	cr_assert_eq(sb_load_etc(p[0], p[1], p[2], &in, &err), 0, "%s", err.msg);
	sb_dag_inst_release(&in);
	for (i = 0; i < 3; i++)
		unlink(p[i]);
}

/* ------------------------------------------------------------------ */
/* Running out of memory                                               */
/* ------------------------------------------------------------------ */

static int load_graph_only(const char *path, struct sb_err *err)
{
	struct sb_dag g;
	int rc = sb_load_tf_graph(path, &g, err);
	if (!rc)
		sb_dag_release(&g);
	return rc;
}

static int load_devices_only(const char *path, struct sb_err *err)
{
	struct sb_devices d;
	int rc = sb_load_tf_devices(path, &d, err);
	if (!rc)
		sb_devices_release(&d);
	return rc;
}

static int load_stg_only(const char *path, struct sb_err *err)
{
	struct sb_dag_inst in;
	int rc = sb_load_stg(path, 2, &in, NULL, err);
	if (!rc)
		sb_dag_inst_release(&in);
	return rc;
}

static int load_etc_only(const char *path, struct sb_err *err)
{
	struct sb_dag_inst in;
	char prefix[1100];
	int rc;
	snprintf(prefix, sizeof prefix, "%.*s",
		 (int)(strlen(path) - strlen("_task_exe_time.csv")), path);
	rc = sb_load_etc_prefix(prefix, &in, err);
	if (!rc)
		sb_dag_inst_release(&in);
	return rc;
}

Test(workloads, out_of_memory)
{
	const char *g = sb_test_data("tfpartsched/test/GraphReader.csv");
	const char *d = sb_test_data("tfpartsched/test/DeviceReaderTest.csv");
	const char *s = sb_test_data("stg/sample01.stg");
	const char *e = sb_test_data("heft/canonicalgraph_task_exe_time.csv");

	if (!g || !d || !s || !e)
		cr_skip_test("data files not found");
	sb_test_oom_sweep(load_graph_only, g, "cannot read ", 1);
	sb_test_oom_sweep(load_devices_only, d, "cannot read ", 1);
	sb_test_oom_sweep(load_stg_only, s, "cannot read ", 1);
	sb_test_oom_sweep(load_etc_only, e, "cannot read ", 1);
}

/* ------------------------------------------------------------------ */
/* Generators                                                          */
/* ------------------------------------------------------------------ */

static void assert_same_dag(const struct sb_dag *a, const struct sb_dag *b)
{
	size_t n = (size_t)a->n, m = (size_t)a->m;

	cr_assert_eq(a->n, b->n);
	cr_assert_eq(a->m, b->m);
	cr_assert_eq(a->ncomp, b->ncomp);
	cr_assert_eq(memcmp(a->ops, b->ops, n * sizeof *a->ops), 0);
	cr_assert_eq(memcmp(a->out, b->out, n * sizeof *a->out), 0);
	cr_assert_eq(memcmp(a->ram, b->ram, n * sizeof *a->ram), 0);
	cr_assert_eq(memcmp(a->dc, b->dc, n * sizeof *a->dc), 0);
	cr_assert_eq(memcmp(a->comp, b->comp, n * sizeof *a->comp), 0);
	cr_assert_eq(memcmp(a->succ_off, b->succ_off, (n + 1) * sizeof *a->succ_off), 0);
	cr_assert_eq(memcmp(a->succ, b->succ, m * sizeof *a->succ), 0);
	cr_assert_eq(memcmp(a->succ_size, b->succ_size, m * sizeof *a->succ_size), 0);
	cr_assert_eq(memcmp(a->topo, b->topo, n * sizeof *a->topo), 0);
}

Test(workloads, gen_layered_deterministic)
{
	struct sb_layered_params p;
	struct sb_dag a, b, c;
	struct sb_rng r1 = sb_rng_stream(7, 1, 0, SB_RNG_INSTANCE);
	struct sb_rng r2 = sb_rng_stream(7, 1, 0, SB_RNG_INSTANCE);
	struct sb_rng r3 = sb_rng_stream(8, 1, 0, SB_RNG_INSTANCE);

	sb_layered_defaults(&p);
	sb_gen_layered(&a, &p, &r1);
	sb_gen_layered(&b, &p, &r2);
	sb_gen_layered(&c, &p, &r3);
	assert_same_dag(&a, &b);
	cr_assert_eq(memcmp(&r1, &r2, sizeof r1), 0);
	cr_assert(c.n != a.n || c.m != a.m ||
		  memcmp(c.ops, a.ops, (size_t)a.n * sizeof *a.ops));
	sb_dag_release(&a);
	sb_dag_release(&b);
	sb_dag_release(&c);
}

Test(workloads, gen_layered_properties)
{
	struct sb_layered_params p;
	struct sb_dag g;
	struct sb_rng r = sb_rng_stream(3, 0, 0, SB_RNG_INSTANCE);
	int v, k, members, cpu = 0, gpu = 0;
	int *size, *type;

	sb_layered_defaults(&p);
	sb_gen_layered(&g, &p, &r);
	cr_assert(g.n >= 100 && g.n <= 8000, "n = %d", g.n);
	assert_consistent(&g);
	for (v = 0; v < g.n; v++) {
		for (k = g.succ_off[v]; k < g.succ_off[v + 1]; k++) {
			cr_assert_lt(v, g.succ[k]);  /* lower to higher index */
			cr_assert_eq(g.succ_size[k], g.out[v]);
		}
		cr_assert(g.ops[v] >= 1 && g.ops[v] <= 100 && g.ops[v] == floor(g.ops[v]));
		cr_assert(g.out[v] >= 1 && g.out[v] <= 100);
		cr_assert(g.ram[v] >= 1 && g.ram[v] <= 100);
		cpu += g.dc[v] == SB_DEV_CPU;
		gpu += g.dc[v] == SB_DEV_GPU;
	}
	/* About 1% each. */
	cr_assert(cpu > 0 && cpu < g.n / 20 && gpu > 0 && gpu < g.n / 20);
	/* Colocation groups exist and never mix CPU-only with GPU-only ops. */
	cr_assert_gt(groups(&g, &members), 10);
	size = calloc((size_t)g.ncomp, sizeof *size);
	type = malloc((size_t)g.ncomp * sizeof *type);
	for (k = 0; k < g.ncomp; k++)
		type[k] = SB_DC_ANY;
	for (v = 0; v < g.n; v++) {
		int c = g.comp[v];
		size[c]++;
		if (g.dc[v] == SB_DC_ANY)
			continue;
		cr_assert(type[c] == SB_DC_ANY || type[c] == g.dc[v]);
		type[c] = g.dc[v];
	}
	free(size);
	free(type);
	sb_dag_release(&g);
}

Test(workloads, gen_layered_density)
{
	static const double ps[] = { 0.002, 0.02, 0.2, 1.0 };
	struct sb_layered_params p;
	int i, prev = -1;

	sb_layered_defaults(&p);
	for (i = 0; i < 4; i++) {
		struct sb_rng r = sb_rng_stream(11, 0, 0, SB_RNG_INSTANCE);
		struct sb_dag g;
		p.p = ps[i];
		sb_gen_layered(&g, &p, &r);
		cr_assert_gt(g.m, prev, "p=%g: %d edges after %d", ps[i], g.m, prev);
		/* m is about 1.1 * (candidates) * p */
		prev = g.m;
		assert_consistent(&g);
		sb_dag_release(&g);
	}
	/* p = 0 gives no layered edges and no long-range attempts. */
	{
		struct sb_rng r = sb_rng_stream(11, 0, 0, SB_RNG_INSTANCE);
		struct sb_dag g;
		p.p = 0;
		sb_gen_layered(&g, &p, &r);
		cr_assert_eq(g.m, 0);
		sb_dag_release(&g);
	}
}

Test(workloads, gen_layered_large_is_fast)
{
	struct sb_layered_params p;
	struct sb_rng r = sb_rng_stream(5, 0, 0, SB_RNG_INSTANCE);
	struct sb_dag g;
	double t0, dt;

	sb_layered_defaults(&p);
	p.p = 0.95;
	t0 = sb_now();
	sb_gen_layered(&g, &p, &r);
	dt = sb_now() - t0;
	cr_log_info("sb_gen_layered: %d ops, %d edges in %.3f s", g.n, g.m, dt);
	cr_assert_gt(g.m, 400000, "only %d edges", g.m);
	cr_assert_lt(dt, 10.0, "%d edges took %.2f s", g.m, dt);
	assert_consistent(&g);
	sb_dag_release(&g);
}

Test(workloads, gen_devices)
{
	struct sb_devgen_params p;
	struct sb_devices a, b;
	struct sb_rng r1 = sb_rng_stream(1, 2, 3, SB_RNG_INSTANCE);
	struct sb_rng r2 = sb_rng_stream(1, 2, 3, SB_RNG_INSTANCE);
	int i, j, cpu = 0;

	sb_devgen_defaults(&p);
	cr_assert_eq(p.n, 50);
	sb_gen_devices(&a, &p, &r1);
	sb_gen_devices(&b, &p, &r2);
	cr_assert_eq(a.n, 50);
	cr_assert_eq(memcmp(a.speed, b.speed, 50 * sizeof *a.speed), 0);
	cr_assert_eq(memcmp(a.mem, b.mem, 50 * sizeof *a.mem), 0);
	cr_assert_eq(memcmp(a.type, b.type, 50 * sizeof *a.type), 0);
	cr_assert_eq(memcmp(a.rate, b.rate, 2500 * sizeof *a.rate), 0);
	for (i = 0; i < 50; i++) {
		cr_assert(a.speed[i] >= 10 && a.speed[i] <= 100 && a.speed[i] == floor(a.speed[i]));
		cr_assert_eq(a.mem[i], floor(1e9 / a.speed[i]));
		cr_assert(a.type[i] == SB_DEV_CPU || a.type[i] == SB_DEV_GPU);
		cpu += a.type[i] == SB_DEV_CPU;
		cr_assert_eq(a.rate[i * 50 + i], 0);
		for (j = 0; j < 50; j++) {
			if (i == j)
				continue;
			cr_assert_eq(a.rate[i * 50 + j], a.rate[j * 50 + i]);
			cr_assert(a.rate[i * 50 + j] >= 10 && a.rate[i * 50 + j] <= 60);
		}
	}
	cr_assert(cpu > 15 && cpu < 45, "%d CPUs", cpu);
	sb_devices_release(&a);
	sb_devices_release(&b);
}

Test(workloads, gen_small)
{
	struct sb_dag_inst a, b;
	struct sb_rng r1 = sb_rng_stream(9, 0, 0, SB_RNG_INSTANCE);
	struct sb_rng r2 = sb_rng_stream(9, 0, 0, SB_RNG_INSTANCE);
	int v, k, d;

	sb_gen_small(&a, 12, 3, 0.3, &r1);
	sb_gen_small(&b, 12, 3, 0.3, &r2);
	assert_same_dag(&a.g, &b.g);
	cr_assert_eq(memcmp(a.dev.rate, b.dev.rate, 9 * sizeof *a.dev.rate), 0);
	cr_assert_eq(a.g.n, 12);
	cr_assert_eq(a.dev.n, 3);
	cr_assert_eq(a.send_ops, 1);
	cr_assert_str_eq(a.name, "small-n12-d3");
	cr_assert_not_null(a.source);
	cr_assert_eq(a.g.ncomp, 12);
	assert_consistent(&a.g);
	for (v = 0; v < 12; v++) {
		cr_assert(a.g.ops[v] >= 1 && a.g.ops[v] <= 20);
		cr_assert(a.g.out[v] >= 1 && a.g.out[v] <= 10);
		cr_assert_eq(a.g.dc[v], SB_DC_ANY);
		for (k = a.g.succ_off[v]; k < a.g.succ_off[v + 1]; k++)
			cr_assert_lt(v, a.g.succ[k]);
	}
	cr_assert_eq(a.dev.speed[0], 1);
	cr_assert_eq(a.dev.speed[1], 1);
	cr_assert_eq(a.dev.speed[2], 2);
	for (d = 0; d < 3; d++) {
		double need = 0;
		for (v = 0; v < 12; v++)
			need += sb_dag_mem(&a, v);
		cr_assert_geq(a.dev.mem[d], need);
	}
	cr_assert(a.dev.rate[1] >= 1 && a.dev.rate[1] <= 5);
	cr_assert_eq(a.dev.rate[1], a.dev.rate[5]);
	sb_dag_inst_release(&a);
	sb_dag_inst_release(&b);
}

Test(workloads, gen_relations)
{
	struct sb_layered_params p;
	struct sb_dag g, h;
	struct sb_rng r = sb_rng_stream(4, 0, 0, SB_RNG_INSTANCE);
	struct sb_rng r1 = sb_rng_stream(4, 1, 0, SB_RNG_INSTANCE);
	struct sb_rng r2 = sb_rng_stream(4, 1, 0, SB_RNG_INSTANCE);
	int v, k;

	sb_layered_defaults(&p);
	p.levels = 20;
	sb_gen_layered(&g, &p, &r);
	r = sb_rng_stream(4, 0, 0, SB_RNG_INSTANCE);
	sb_gen_layered(&h, &p, &r);
	sb_gen_relations(&g, 0.05, &r1);
	sb_gen_relations(&h, 0.05, &r2);
	assert_same_dag(&g, &h);
	for (v = 0; v < g.n; v++) {
		double base = g.ops[v] / 0.05;
		cr_assert(g.out[v] >= 100 && g.out[v] <= 1000 && g.out[v] == floor(g.out[v]));
		cr_assert(base >= 100 - 1e-9 && base <= 1000 + 1e-9);
		cr_assert(fabs(base - floor(base + 0.5)) < 1e-9);
		for (k = g.succ_off[v]; k < g.succ_off[v + 1]; k++)
			cr_assert_eq(g.succ_size[k], g.out[v]);
	}
	sb_dag_release(&g);
	sb_dag_release(&h);
}

Test(workloads, gen_relations_on_lstm)
{
	DATA_OR_SKIP(path, "tfpartsched/graph/recurrent_network.csv");
	struct sb_dag g;
	struct sb_err err = { 0 };
	struct sb_rng r = sb_rng_stream(1, 0, 0, SB_RNG_INSTANCE);
	int m;

	cr_assert_eq(sb_load_tf_graph(path, &g, &err), 0, "%s", err.msg);
	m = g.m;
	sb_gen_relations(&g, 10, &r);
	cr_assert_eq(g.n, 3068);
	cr_assert_eq(g.m, m);
	cr_assert_geq(g.ops[0], 1000);
	sb_dag_release(&g);
}
