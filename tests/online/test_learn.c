/*
 * test_learn.c - the learned online pricing (algorithms/advlearn/): the
 * per-round update's gradient equals finite differences of OPT/E[ALG];
 * training is bit-identical for a seed and yields distributions; the best
 * response finds ratios at least its last batch's mean; stored policy
 * tables load, and missing, truncated or foreign files are exit 2.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "online/online.h"
#include "online/ptable.h"
#include "algorithms/advlearn/train.h"
#include "workloads/online/gen.h"
#include "h5.h"

static struct sb_online_game game(int T, int C, int D, int M, double ul)
{
	struct sb_online_game g;
	struct sb_err err;
	cr_assert_eq(sb_online_game_init(&g, T, C, D, M, 1, ul, &err), 0, "%s", err.msg);
	return g;
}

static double *random_table(const struct sb_online_game *g, struct sb_rng *r)
{
	size_t n = sb_online_ptable_cells(g), c;
	double *prob = SB_NEW(double, n * (size_t)g->M);
	int m;

	for (c = 0; c < n; c++) {
		double s = 0, *q = prob + c * (size_t)g->M;
		for (m = 0; m < g->M; m++)
			s += q[m] = 0.05 + sb_rng_uniform(r);
		for (m = 0; m < g->M; m++)
			q[m] /= s;
	}
	return prob;
}

Test(advlearn, per_round_gradient_matches_finite_differences)
{
	int k;

	for (k = 0; k < 20; k++) {
		struct sb_online_game g = game(3 + k % 4, 2 + k % 4, 1 + k % 2, 4 + k % 3, 3 + k);
		struct sb_rng r = sb_rng_stream(3, (uint64_t)k, 0, SB_RNG_TEST);
		struct sb_online_inst in;
		size_t n = sb_online_ptable_cells(&g) * (size_t)g.M, i;
		double *prob = random_table(&g, &r), *G = SB_NEW(double, n), opt, worst = 0;
		double *FD = SB_NEW(double, n);

		sb_online_gen_random(&g, &in, 1, &r);
		opt = sb_online_opt(&g, &in, NULL);
		sb_advlearn_grad(&g, prob, &in, opt, G);
		for (i = 0; i < n; i++) {
			/* E[ALG] is multilinear in the entries: central differences
			 * are exact up to rounding */
			double h = 1e-5, keep = prob[i], up, dn;
			prob[i] = keep + h;
			up = sb_advlearn_table_ratio(prob, &g, &in, opt);
			prob[i] = keep - h;
			dn = sb_advlearn_table_ratio(prob, &g, &in, opt);
			prob[i] = keep;
			FD[i] = (up - dn) / (2 * h);
		}
		/* the per-round form and the raw derivative differ by a constant
		 * per cell (sum pi = 1): compare them on the simplex's tangent */
		for (i = 0; i < n; i += (size_t)g.M) {
			double mg = 0, mf = 0, scale = 1e-3;
			int m;
			for (m = 0; m < g.M; m++) {
				mg += G[i + (size_t)m] / g.M;
				mf += FD[i + (size_t)m] / g.M;
			}
			for (m = 0; m < g.M; m++)
				scale = sb_max(scale, fabs(FD[i + (size_t)m] - mf));
			for (m = 0; m < g.M; m++)
				worst = sb_max(worst, fabs((G[i + (size_t)m] - mg) -
							   (FD[i + (size_t)m] - mf)) / scale);
		}
		cr_assert_leq(worst, 1e-6, "game %d: relative error %g", k, worst);
		sb_online_inst_release(&in);
		sb_free(prob);
		sb_free(G);
		sb_free(FD);
	}
}

static void train(const struct sb_online_game *g, int update, int inputs,
		  struct sb_advlearn_out *out)
{
	struct sb_advlearn_cfg cfg;
	struct sb_err err;

	sb_advlearn_defaults(&cfg);
	cfg.update = update;
	cfg.inputs = inputs;
	cfg.iters = 6;
	cfg.batch = 8;
	cfg.hall = 8;
	cfg.br_every = 3;
	cfg.br_steps = 4;
	cfg.seed = 11;
	cr_assert_eq(sb_advlearn_train(g, &cfg, out, &err), 0, "%s", err.msg);
}

Test(advlearn, training_is_deterministic_and_yields_distributions)
{
	struct sb_online_game g = game(6, 4, 2, 8, 10);
	size_t n = sb_online_ptable_cells(&g) * (size_t)g.M;
	int u, in;

	for (u = 0; u < 2; u++)
		for (in = 0; in < 2; in++) {
			struct sb_advlearn_out a, b;
			struct sb_err err;
			int i;
			train(&g, u, in, &a);
			train(&g, u, in, &b);
			cr_assert_eq(memcmp(a.prob, b.prob, n * sizeof *a.prob), 0);
			cr_assert_eq(a.nlog, 3);
			cr_assert_eq(memcmp(a.log, b.log, (size_t)a.nlog * sizeof *a.log), 0);
			cr_assert_eq(sb_online_ptable_put("learned", &g, a.prob, &err), 0, "%s",
				     err.msg);
			for (i = 0; i < a.nlog; i++) {
				/* a ratio is >= 1; the best response's worst >= its mean */
				cr_assert_geq(a.log[i].game, 1 - 1e-12);
				cr_assert_geq(a.log[i].br, 1 - 1e-12);
				cr_assert_geq(a.log[i].br_max, a.log[i].br - 1e-12);
				cr_assert_geq(a.log[i].zcl, 1 - 1e-12);
			}
			cr_assert((in == 0) == (a.nhall > 0));
			for (i = 0; i < a.nhall; i++)
				cr_assert_geq(a.hall_ratio[i], 1 - 1e-12);
			sb_advlearn_out_release(&a);
			sb_advlearn_out_release(&b);
		}
}

/* ------------------------------------------------------- stored tables */

static const struct sb_col cols[] = {
	{ "kind", SB_COL_STR, "" }, { "variant", SB_COL_STR, "" }, { "ul", SB_COL_DBL, "" },
	{ "T", SB_COL_INT, "" }, { "C", SB_COL_INT, "" }, { "D", SB_COL_INT, "" },
	{ "M", SB_COL_INT, "" }, { "t", SB_COL_INT, "" }, { "c", SB_COL_INT, "" },
	{ "d", SB_COL_INT, "" }, { "m", SB_COL_INT, "" }, { "prob", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

/* write the table of g as policy rows, leaving out `skip` rows at the end
 * and, if bad >= 0, writing prob = 2 in row bad */
static void write_table(const char *path, const struct sb_online_game *g, const double *prob,
			int skip, int bad)
{
	struct sb_table t;
	struct sb_attrs at;
	struct sb_h5_dataset ds = { "points", &t };
	struct sb_err err;
	int tt, c, d, m, n = 0, total = (int)(sb_online_ptable_cells(g) * (size_t)g->M);

	sb_table_init(&t, cols);
	sb_attrs_init(&at);
	for (tt = 0; tt < g->T; tt++)
		for (c = 0; c <= g->C; c++)
			for (d = 1; d <= g->D; d++)
				for (m = 0; m < g->M; m++, n++) {
					size_t r;
					if (n >= total - skip)
						continue;
					r = sb_table_add(&t);
					sb_table_set_str(&t, r, "kind", "policy");
					sb_table_set_str(&t, r, "variant", "learned");
					sb_table_set_dbl(&t, r, "ul", g->U);
					sb_table_set_int(&t, r, "T", g->T);
					sb_table_set_int(&t, r, "C", g->C);
					sb_table_set_int(&t, r, "D", g->D);
					sb_table_set_int(&t, r, "M", g->M);
					sb_table_set_int(&t, r, "t", tt);
					sb_table_set_int(&t, r, "c", c);
					sb_table_set_int(&t, r, "d", d);
					sb_table_set_int(&t, r, "m", m);
					sb_table_set_dbl(&t, r, "prob", n == bad ? 2 : prob[
						sb_online_ptable_cell(g, tt, c, d) * (size_t)g->M + (size_t)m]);
				}
	cr_assert_eq(sb_h5_write(path, &at, 1, &ds, &err), 0, "%s", err.msg);
	sb_table_release(&t);
	sb_attrs_release(&at);
}

Test(advlearn, stored_tables_load_and_bad_ones_are_input_errors)
{
	struct sb_online_game g = game(3, 2, 2, 4, 5);
	struct sb_rng r = sb_rng_stream(5, 0, 0, SB_RNG_TEST);
	double *prob = random_table(&g, &r);
	const struct sb_online_ptable *p;
	struct sb_err err;
	char path[] = "/tmp/sb-test-ptable-XXXXXX";
	int fd = mkstemp(path), n;

	cr_assert_geq(fd, 0);
	close(fd);
	sb_online_ptable_clear();
	write_table(path, &g, prob, 0, -1);
	cr_assert_eq(sb_online_ptable_load(path, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(n, 1);
	cr_assert_not_null(p = sb_online_ptable_find("learned", &g));
	cr_assert_eq(memcmp(p->prob, prob, sb_online_ptable_cells(&g) * (size_t)g.M *
			    sizeof *prob), 0);
	write_table(path, &g, prob, 3, -1);
	cr_assert_eq(sb_online_ptable_load(path, &n, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "missing"), "%s", err.msg);
	write_table(path, &g, prob, 0, 7);
	cr_assert_eq(sb_online_ptable_load(path, &n, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "row 7: field 'prob'"), "%s", err.msg);
	cr_assert_eq(sb_online_ptable_load("/nonexistent/x.h5", &n, &err), SB_EXIT_INPUT);
	cr_assert(strstr(err.msg, "/nonexistent/x.h5"), "%s", err.msg);
	remove(path);
	sb_free(prob);
	sb_online_ptable_clear();
}
