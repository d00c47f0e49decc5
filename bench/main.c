/*
 * main.c - `make bench`: runs every family's part (or only
 * SB_BENCH_FAMILY's), writes one dataset per family to results/bench.h5
 * with the wall time of the last `make reproduce` as attributes, and prints
 * each part's table. The parts come from a registry generated from
 * the bench sources: a new family adds bench/<family>.c and nothing else.
 */
#include "bench.h"
#include "exp.h"
#include "h5.h"
#include "lp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SB_REG(type, var, file) extern const struct sb_##type var;
#include "bench.def"
#undef SB_REG

static const struct sb_bench *const parts[] = {
#define SB_REG(type, var, file) &var,
#include "bench.def"
#undef SB_REG
	NULL
};

/* Targets that issues set on a family's whole figure set, in wall seconds
 * on 2 cores (--jobs 2): at full size and at QUICK size; 0 = none set. */
static const struct {
	const char *family;
	double full, quick;
} set_target[] = {
	{ "sync", 600, 30 },    /* #18 */
};

/* Wall time of the last `make reproduce`: the sum of the wall_seconds
 * attributes of the experiment results in results/ (reported, not run),
 * in all and per family, each family's sum split by QUICK and full size
 * and printed against its target where an issue sets one. */
static void bench_reproduce(struct sb_attrs *extra)
{
	int ne, i, j, nf = 0, found = 0;
	const struct sb_experiment *const *ex = sb_experiments(&ne);
	const char *fam[64];
	double sum[64][2], total = 0;
	int cnt[64][2];
	sb_attrs_init(extra);
	for (i = 0; i < ne; i++) {
		const char *nm = ex[i]->name;
		char path[256];
		struct sb_attrs a;
		struct sb_err err;
		const struct sb_attr *w, *q;
		snprintf(path, sizeof path, "results/%s.h5", nm);
		if (sb_h5_read_attrs(path, &a, &err))
			continue;
		w = sb_attrs_get(&a, "wall_seconds");
		q = sb_attrs_get(&a, "quick");
		if (w && w->type == SB_ATTR_DBL) {
			char key[64];
			int quick = q && q->i ? 1 : 0;
			snprintf(key, sizeof key, "reproduce_%s_seconds%s", nm,
				 quick ? "_quick" : "");
			sb_attrs_dbl(extra, key, w->d);
			total += w->d;
			found++;
			for (j = 0; j < nf && strcmp(fam[j], ex[i]->family); j++)
				;
			if (j == nf && nf < 64) {
				fam[nf] = ex[i]->family;
				sum[nf][0] = sum[nf][1] = 0;
				cnt[nf][0] = cnt[nf][1] = 0;
				nf++;
			}
			if (j < nf) {
				sum[j][quick] += w->d;
				cnt[j][quick]++;
			}
		}
		sb_attrs_release(&a);
	}
	if (!found)
		return;
	sb_attrs_dbl(extra, "reproduce_experiments_seconds", total);
	printf("\nlast make reproduce: %d experiments, %.1f s of sweeps (from results/*.h5)\n",
	       found, total);
	for (j = 0; j < nf; j++) {
		int k, size;
		for (size = 0; size < 2; size++) {
			double target = 0;
			if (!cnt[j][size])
				continue;
			for (k = 0; k < (int)(sizeof set_target / sizeof set_target[0]); k++)
				if (!strcmp(set_target[k].family, fam[j]))
					target = size ? set_target[k].quick : set_target[k].full;
			int all = 0;
			for (k = 0; k < ne; k++)
				all += !strcmp(ex[k]->family, fam[j]);
			printf("  %-9s %-5s %2d of %2d experiments, %7.1f s wall", fam[j],
			       size ? "QUICK" : "full", cnt[j][size], all, sum[j][size]);
			if (target > 0 && cnt[j][size] == all)
				printf("; target <= %.0f s on 2 cores (--jobs 2): %s", target,
				       sum[j][size] <= target ? "met" : "MISSED");
			printf("\n");
		}
	}
}

int main(int argc, char **argv)
{
	const char *data = getenv("DATA_DIR") ? getenv("DATA_DIR") : "data";
	const char *out = argc > 1 ? argv[1] : "results/bench.h5";
	const char *only = getenv("SB_BENCH_FAMILY");    /* one part, or unset: all */
	struct sb_table t[sizeof parts / sizeof parts[0]];
	struct sb_h5_dataset ds[sizeof parts / sizeof parts[0]];
	struct sb_attrs at, at_extra;
	struct sb_err err;
	int i, n = 0, rc = 0;

	sb_mem_tune();
	for (i = 0; parts[i]; i++) {
		if (only && strcmp(only, parts[i]->name))
			continue;
		printf("%s== %s: %s\n", n ? "\n" : "", parts[i]->name, parts[i]->desc);
		fflush(stdout);
		sb_table_init(&t[n], parts[i]->cols);
		parts[i]->run(&t[n], data);
		ds[n].name = parts[i]->name;
		ds[n].t = &t[n];
		n++;
	}
	if (only && !n) {
		fprintf(stderr, "error: bench: SB_BENCH_FAMILY '%s': no such part\n", only);
		return 2;
	}
	bench_reproduce(&at_extra);
	sb_attrs_init(&at);
	sb_attrs_str(&at, "experiment", "bench");
	sb_attrs_str(&at, "glpk_version", sb_lp_version());
	sb_attrs_str(&at, "hdf5_version", sb_h5_version());
	sb_attrs_str(&at, "compiler", "gcc " __VERSION__);
	sb_attrs_str(&at, "nondeterministic", "every time and rate here is wall clock");
	for (i = 0; i < at_extra.n; i++)
		sb_attrs_dbl(&at, at_extra.a[i].key, at_extra.a[i].d);
	sb_attrs_release(&at_extra);
	if (sb_h5_write(out, &at, n, ds, &err)) {
		sb_err_print(&err);
		rc = 1;
	} else {
		fprintf(stderr, "bench: wrote %s\n", out);
	}
	sb_attrs_release(&at);
	for (i = 0; i < n; i++)
		sb_table_release(&t[i]);
	return rc;
}
