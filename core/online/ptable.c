/*
 * ptable.c - stored Markov price policies of the online family (see
 * ptable.h). [O, reconstructed.]
 */
#include "online/ptable.h"
#include "h5.h"
#include "table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static struct sb_online_ptable store[SB_ONLINE_PTABLE_MAX];
static int nstore;

size_t sb_online_ptable_cells(const struct sb_online_game *g)
{
	return (size_t)g->T * (size_t)g->S * (size_t)g->ND;
}

static int same_game(const struct sb_online_game *a, const struct sb_online_game *b)
{
	return a->T == b->T && a->K == b->K && a->C == b->C && a->Ck[a->K - 1] == b->Ck[b->K - 1] &&
	       a->D == b->D && a->M == b->M && a->L == b->L && a->U == b->U;
}

const struct sb_online_ptable *sb_online_ptable_find(const char *variant,
						     const struct sb_online_game *g)
{
	int i;

	for (i = 0; i < nstore; i++)
		if (!strcmp(store[i].variant, variant) && same_game(&store[i].g, g))
			return &store[i];
	return NULL;
}

void sb_online_ptable_clear(void)
{
	int i;

	for (i = 0; i < nstore; i++)
		sb_free(store[i].prob);
	memset(store, 0, sizeof store);
	nstore = 0;
}

int sb_online_ptable_put(const char *variant, const struct sb_online_game *g, const double *prob,
			 struct sb_err *err)
{
	size_t n = sb_online_ptable_cells(g), i;
	struct sb_online_ptable *p = (struct sb_online_ptable *)sb_online_ptable_find(variant, g);
	int m;

	for (i = 0; i < n; i++) {
		double s = 0;
		for (m = 0; m < g->M; m++) {
			double q = prob[i * (size_t)g->M + (size_t)m];
			if (!(q >= 0 && q <= 1))
				return sb_err_set(err, SB_EXIT_INPUT, "policy table '%s': cell %zu, "
						  "level %d: field 'prob': %g is not in [0, 1]",
						  variant, i, m, q);
			s += q;
		}
		if (fabs(s - 1) > 1e-9)
			return sb_err_set(err, SB_EXIT_INPUT, "policy table '%s': cell %zu: field "
					  "'prob' sums to %.12g, not 1", variant, i, s);
	}
	if (!p) {
		if (nstore == SB_ONLINE_PTABLE_MAX)
			return sb_err_set(err, SB_EXIT_INPUT, "policy table '%s': more than %d "
					  "tables loaded", variant, SB_ONLINE_PTABLE_MAX);
		p = &store[nstore++];
		snprintf(p->variant, sizeof p->variant, "%s", variant);
		p->g = *g;
		p->prob = SB_NEW(double, n * (size_t)g->M);
	}
	memcpy(p->prob, prob, n * (size_t)g->M * sizeof *prob);
	return 0;
}

/* ------------------------------------------------------------- loading */

static const char *const need[] = { "kind", "variant", "ul", "T", "C", "D", "M", "t", "c",
				    "d", "m", "prob", NULL };

int sb_online_ptable_load(const char *path, int *n, struct sb_err *err)
{
	struct sb_table t = { 0 };
	struct sb_col *cols = NULL;
	int col[12], k, rc, nt = 0, i;
	size_t r;
	/* tables being assembled: key row, game, prob with NaN for unset */
	struct { char variant[SB_STR_LEN]; struct sb_online_game g; double *prob; } part[SB_ONLINE_PTABLE_MAX];

	*n = 0;
	if ((rc = sb_h5_read_table(path, "points", &t, &cols, err))) {
		/* not sb_err_set(err, ..., err->msg): source and destination
		 * would overlap */
		sb_err_prefix(err, "stored policy '%s': ", path);
		err->code = SB_EXIT_INPUT;
		return SB_EXIT_INPUT;
	}
	for (k = 0; need[k]; k++)
		if ((col[k] = sb_table_col(&t, need[k])) < 0) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': dataset 'points' "
					"has no column '%s' (not an online_learn result)", path,
					need[k]);
			goto out;
		}
	for (r = 0; r < t.nrow; r++) {
		struct sb_online_game g;
		const char *var = sb_table_get_str(&t, r, col[1]);
		int T, C, D, M, tt, c, d, m;
		double q;
		size_t x;
		if (strcmp(sb_table_get_str(&t, r, col[0]), "policy"))
			continue;
		T = (int)sb_table_get_int(&t, r, col[3]);
		C = (int)sb_table_get_int(&t, r, col[4]);
		D = (int)sb_table_get_int(&t, r, col[5]);
		M = (int)sb_table_get_int(&t, r, col[6]);
		if ((rc = sb_online_game_init(&g, T, C, D, M, 1, sb_table_get_dbl(&t, r, col[2]),
					      err))) {
			sb_err_prefix(err, "stored policy '%s': row %zu: ", path, r);
			rc = err->code = SB_EXIT_INPUT;
			goto out;
		}
		tt = (int)sb_table_get_int(&t, r, col[7]);
		c = (int)sb_table_get_int(&t, r, col[8]);
		d = (int)sb_table_get_int(&t, r, col[9]);
		m = (int)sb_table_get_int(&t, r, col[10]);
		q = sb_table_get_dbl(&t, r, col[11]);
		if (tt < 0 || tt >= T || c < 0 || c > C || d < 1 || d > D || m < 0 || m >= M) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': row %zu: field "
					"'t/c/d/m': cell (%d, %d, %d, %d) outside the game", path, r,
					tt, c, d, m);
			goto out;
		}
		if (!(q >= 0 && q <= 1)) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': row %zu: field "
					"'prob': %g is not in [0, 1]", path, r, q);
			goto out;
		}
		for (i = 0; i < nt; i++)
			if (!strcmp(part[i].variant, var) && same_game(&part[i].g, &g))
				break;
		if (i == nt) {
			size_t cells = sb_online_ptable_cells(&g) * (size_t)M, j;
			if (nt == SB_ONLINE_PTABLE_MAX) {
				rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': more than "
						"%d tables", path, SB_ONLINE_PTABLE_MAX);
				goto out;
			}
			snprintf(part[nt].variant, sizeof part[nt].variant, "%s", var);
			part[nt].g = g;
			part[nt].prob = SB_NEW(double, cells);
			for (j = 0; j < cells; j++)
				part[nt].prob[j] = NAN;
			nt++;
		}
		x = sb_online_ptable_cell(&g, tt, c, d) * (size_t)M + (size_t)m;
		if (!isnan(part[i].prob[x])) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': row %zu: cell (%d, "
					"%d, %d, %d) of '%s' given twice", path, r, tt, c, d, m, var);
			goto out;
		}
		part[i].prob[x] = q;
	}
	if (!nt) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': no rows of kind 'policy'",
				path);
		goto out;
	}
	for (i = 0; i < nt; i++) {
		size_t cells = sb_online_ptable_cells(&part[i].g) * (size_t)part[i].g.M, j;
		for (j = 0; j < cells; j++)
			if (isnan(part[i].prob[j])) {
				rc = sb_err_set(err, SB_EXIT_INPUT, "stored policy '%s': table '%s' "
						"(U/L %g): cell %zu, level %zu missing (truncated "
						"or corrupt)", path, part[i].variant, part[i].g.U,
						j / (size_t)part[i].g.M, j % (size_t)part[i].g.M);
				goto out;
			}
		if ((rc = sb_online_ptable_put(part[i].variant, &part[i].g, part[i].prob, err))) {
			sb_err_prefix(err, "stored policy '%s': ", path);
			rc = err->code = SB_EXIT_INPUT;
			goto out;
		}
	}
	*n = nt;
out:
	for (i = 0; i < nt; i++)
		sb_free(part[i].prob);
	sb_table_release(&t);
	sb_h5_cols_free(cols);
	return rc;
}

/* ------------------------------------------------------------ policies */

void sb_online_ptable_tab(const struct sb_online_game *g, const double *prob,
			  const struct sb_online_inst *in, struct sb_online_table *tb)
{
	size_t n = (size_t)g->T * (size_t)g->S, i = 0;
	int t, c, m;

	memset(tb, 0, sizeof *tb);
	tb->ncomp = 1;
	tb->weight[0] = 1;
	tb->T = g->T;
	tb->S = g->S;
	tb->start = SB_NEW(int, n);
	tb->n = SB_NEW(int, n);
	tb->len = tb->cap = n * (size_t)g->M;
	tb->price = SB_NEW(double, tb->cap);
	tb->prob = SB_NEW(double, tb->cap);
	for (t = 0; t < g->T; t++)
		for (c = 0; c < g->S; c++, i++) {
			const double *q = prob + sb_online_ptable_cell(g, t, c, in->d[t]) * (size_t)g->M;
			tb->start[i] = (int)(i * (size_t)g->M);
			tb->n[i] = g->M;
			for (m = 0; m < g->M; m++) {
				tb->price[i * (size_t)g->M + (size_t)m] = g->price[m];
				tb->prob[i * (size_t)g->M + (size_t)m] = q[m];
			}
		}
}

int sb_online_ptable_reset(const char *variant, const struct sb_online_game *g, void **ctx,
			   int *ncomp, double *weight, struct sb_err *err)
{
	const struct sb_online_ptable *p = sb_online_ptable_find(variant, g);

	if (!p)
		return sb_err_set(err, SB_EXIT_INPUT, "%s: no stored policy table for T = %d, "
				  "K = %d, C = %d, D = %d, M = %d, U/L = %g (load one with --table "
				  "results/online_learn.h5, trained by 'sb run online_learn'; "
				  "K = 2 tables are trained inside 'sb run online_ratio' and not "
				  "stored)",
				  variant, g->T, g->K, g->C, g->D, g->M, g->U / g->L);
	*ctx = (void *)p;
	*ncomp = 1;
	weight[0] = 1;
	return 0;
}

int sb_online_ptable_decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c,
			    int d, double *price, double *prob)
{
	const struct sb_online_ptable *p = ctx;
	const double *q = p->prob + sb_online_ptable_cell(g, t, c, d) * (size_t)g->M;
	int m;

	for (m = 0; m < g->M; m++) {
		price[m] = g->price[m];
		prob[m] = q[m];
	}
	return g->M;
}
