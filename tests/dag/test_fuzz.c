/*
 * test_fuzz.c - the mutation fuzzer (tests/fuzz.h) on the loaders of the
 * dag family (workloads/dag/load.h): TensorFlow graph and device CSVs,
 * both together, STG task graphs and ETC matrices.
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/fuzz.h"
#include "workloads/dag/load.h"

/* ------------------------------------------------------------------ */
/* Seeds                                                              */
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

/* ------------------------------------------------------------------ */
/* Checks                                                             */
/* ------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------ */
/* Tests                                                              */
/* ------------------------------------------------------------------ */

FUZZ(tf_graph, graph_seeds, 4, sb_test_mutate, "")
{
	struct sb_dag g;
	struct sb_err err = { 0 };

	if (!sb_test_accepted(sb_load_tf_graph(path, &g, &err), &err, path))
		return 0;
	check_dag(&g);
	sb_dag_release(&g);
	return 1;
}

FUZZ(tf_devices, device_seeds, 4, sb_test_mutate, "")
{
	struct sb_devices d;
	struct sb_err err = { 0 };

	if (!sb_test_accepted(sb_load_tf_devices(path, &d, &err), &err, path))
		return 0;
	check_devices(&d);
	sb_devices_release(&d);
	return 1;
}

Test(fuzz, tf_inst)
{
	struct sb_rng r = sb_rng_stream(sb_test_seed("tf_inst"), 0, 0, SB_RNG_TEST);
	struct fuzz_buf bg = { 0 }, bd = { 0 };
	char gpath[64], dpath[64];
	long it, n = sb_test_fuzz_iters() / 3 + 1;

	sb_test_temp_path(gpath, sizeof gpath);
	sb_test_temp_path(dpath, sizeof dpath);
	for (it = 0; it < n; it++) {
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		struct fuzz_buf *which;
		int rc;
		sb_test_buf_set(&bg, graph_seeds[0]);
		sb_test_buf_set(&bd, device_seeds[0]);
		which = sb_rng_below(&r, 2) ? &bg : &bd;
		sb_test_mutate(which, &r);
		sb_test_write_file(gpath, &bg);
		sb_test_write_file(dpath, &bd);
		rc = sb_load_tf_inst(gpath, dpath, &in, &err);
		if (sb_test_accepted(rc, &err, which == &bg ? gpath : dpath)) {
			check_dag(&in.g);
			check_devices(&in.dev);
			cr_assert_not_null(in.name);
			sb_dag_inst_release(&in);
		} else {
			cr_assert_null(in.name);
		}
	}
	free(bg.p);
	free(bd.p);
	unlink(gpath);
	unlink(dpath);
	sb_test_assert_no_leaks();
}

/* r: the number of devices the instance gets. */
FUZZ(stg, stg_seeds, 4, sb_test_mutate, "")
{
	struct sb_dag_inst in;
	struct sb_err err = { 0 };
	long cp;
	int ndev = 1 + (int)sb_rng_below(r, 4);

	if (!sb_test_accepted(sb_load_stg(path, ndev, &in, &cp, &err), &err, path))
		return 0;
	check_dag(&in.g);
	check_devices(&in.dev);
	cr_assert_eq(in.dev.n, ndev);
	cr_assert_geq(cp, -1);
	sb_dag_inst_release(&in);
	return 1;
}

Test(fuzz, etc)
{
	struct sb_rng r = sb_rng_stream(sb_test_seed("etc"), 0, 0, SB_RNG_TEST);
	struct fuzz_buf b[3] = { { 0 }, { 0 }, { 0 } };
	const char *seed[3] = { etc_exe, etc_conn, etc_bw };
	char path[3][64];
	long it, n = sb_test_fuzz_iters(), ok = 0;
	int i;

	for (i = 0; i < 3; i++)
		sb_test_temp_path(path[i], sizeof path[i]);
	for (it = 0; it < n; it++) {
		struct sb_dag_inst in;
		struct sb_err err = { 0 };
		int k, which = (int)sb_rng_below(&r, 3), rc;
		int muts = 1 + (int)sb_rng_below(&r, 3);
		for (i = 0; i < 3; i++)
			sb_test_buf_set(&b[i], seed[i]);
		for (k = 0; k < muts; k++)
			sb_test_mutate(&b[which], &r);
		for (i = 0; i < 3; i++)
			sb_test_write_file(path[i], &b[i]);
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
	sb_test_assert_no_leaks();
}
