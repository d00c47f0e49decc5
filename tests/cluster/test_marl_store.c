/*
 * test_marl_store.c - trained marl weights in a results file
 * (algorithms/marl/store.c): a round trip gives the same weights bit for
 * bit; a wrong inputs hash, a missing parameter, a repeated or
 * out-of-range index, a value that is not finite, a missing column, a
 * file without the `weights` dataset or a missing file are errors
 * (SB_EXIT_INPUT) naming the file, row and field.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/marl/store.h"
#include "h5.h"
#include "rng.h"
#include "sb.h"

static char path[64];

/* t as the dataset `name` of the results file at path */
static void write_as(struct sb_table *t, const char *name)
{
	struct sb_attrs a;
	struct sb_h5_dataset d = { name, t };
	struct sb_err err;

	sb_attrs_init(&a);
	sb_attrs_str(&a, "experiment", "test");
	cr_assert_eq(sb_h5_write(path, &a, 1, &d, &err), 0, "%s", err.msg);
	sb_attrs_release(&a);
}

static void write_file(struct sb_table *t)
{
	write_as(t, SB_MARL_STORE_DATASET);
}

static struct sb_marl_net *fresh(enum sb_marl_arch arch, int nc, uint64_t seed)
{
	struct sb_err err;
	struct sb_marl_net *n = sb_marl_net_new(arch, nc, 4, &err);
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);

	sb_marl_net_init(n, &r);
	return n;
}

static int load_err(const char *variant, const char *want, struct sb_err *err)
{
	struct sb_marl_net *n = NULL;
	int rc = sb_marl_store_load(path, variant, want, &n, err);

	cr_assert_null(n);
	return rc;
}

Test(marl_store, round_trip_and_corruption)
{
	struct sb_table t;
	struct sb_marl_net *a = fresh(SB_MARL_ARCH_GNN, 1, 1), *b = fresh(SB_MARL_ARCH_FLAT, 4, 2);
	struct sb_marl_net *got = NULL;
	struct sb_err err;
	char h[SB_MARL_HASH_LEN], h2[SB_MARL_HASH_LEN];
	size_t np = sb_marl_net_nparams(a), rows;
	double *wa = SB_NEW(double, np), *wg = SB_NEW(double, np);

	snprintf(path, sizeof path, "/tmp/sb_marl_store_%d.h5", (int)getpid());
	sb_marl_inputs_hash("episodes=400 topology=T1", h);
	sb_marl_inputs_hash("episodes=401 topology=T1", h2);
	cr_assert_str_neq(h, h2);
	sb_table_init(&t, sb_marl_store_schema);
	sb_marl_store_put(&t, "marl", h, a);
	sb_marl_store_put(&t, "marl-flat", h, b);
	rows = t.nrow;
	write_file(&t);
	cr_assert_eq(sb_marl_store_load(path, "marl", h, &got, &err), 0, "%s", err.msg);
	sb_marl_net_get(a, wa);
	sb_marl_net_get(got, wg);
	cr_assert_eq(memcmp(wa, wg, np * sizeof *wa), 0);
	sb_marl_net_free(got);
	cr_assert_eq(sb_marl_store_load(path, "marl-flat", NULL, &got, &err), 0, "%s", err.msg);
	cr_assert_eq(got->arch, SB_MARL_ARCH_FLAT);
	cr_assert_eq(got->ncritic, 4);
	sb_marl_net_free(got);

	/* the inputs changed: the stored weights are stale */
	cr_assert_eq(load_err("marl", h2, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "field 'inputs'"), "%s", err.msg);
	cr_assert_not_null(strstr(err.msg, path), "%s", err.msg);
	cr_assert_eq(load_err("marl-a2c", NULL, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "no weights of variant 'marl-a2c'"), "%s", err.msg);

	/* a value that is not finite */
	sb_table_set_dbl(&t, 7, "w", NAN);
	write_file(&t);
	cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "row 7: field 'w'"), "%s", err.msg);
	sb_table_set_dbl(&t, 7, "w", 0.5);
	/* a repeated index, then one out of range */
	sb_table_set_int(&t, 9, "param", 8);
	write_file(&t);
	cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "row 9: field 'param': 8 repeated"), "%s", err.msg);
	sb_table_set_int(&t, 9, "param", (int64_t)np + 3);
	write_file(&t);
	cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "out of range"), "%s", err.msg);
	sb_table_set_int(&t, 9, "param", 9);
	/* a truncated variant: the last parameter is missing */
	t.nrow = np - 1;
	write_file(&t);
	cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "parameters stored"), "%s", err.msg);
	t.nrow = rows;
	/* an architecture that changes mid-variant */
	sb_table_set_int(&t, 11, "ncritic", 4);
	write_file(&t);
	cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "row 11: field 'ncritic'"), "%s", err.msg);
	sb_table_release(&t);

	/* not a training result, no file */
	{
		static const struct sb_col other[] = { { "kind", SB_COL_STR, "" }, { NULL, 0, NULL } };
		sb_table_init(&t, other);
		sb_table_add(&t);
		write_file(&t);
		cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
		cr_assert_not_null(strstr(err.msg, "no column 'variant'"), "%s", err.msg);
		/* weights stored as rows of points (before they had a dataset
		 * of their own): the file has no `weights` */
		write_as(&t, "points");
		cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
		cr_assert_not_null(strstr(err.msg, "no dataset 'weights'"), "%s", err.msg);
		/* an experiment's probe trains instead of failing on such a
		 * file (a --weights FILE of the user's stays an error) */
		{
			char hh[SB_MARL_HASH_LEN];
			cr_assert_eq(sb_marl_store_probe(path, "marl", hh, &err), 1);
		}
		sb_table_release(&t);
	}
	unlink(path);
	cr_assert_eq(load_err("marl", NULL, &err), SB_EXIT_INPUT);
	sb_free(wa);
	sb_free(wg);
	sb_marl_net_free(a);
	sb_marl_net_free(b);
}
