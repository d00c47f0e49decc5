/*
 * summary.c - grouped means with Student-t 95% confidence intervals.
 */
#include "summary.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXK 8
#define MAXM 24

static int split(const char *s, char names[][64], int max)
{
	int n = 0;
	while (*s && n < max) {
		size_t len;
		while (*s == ' ')
			s++;
		len = strcspn(s, " ");
		if (!len)
			break;
		snprintf(names[n++], 64, "%.*s", (int)len, s);
		s += len;
	}
	return n;
}

void sb_summary_cols_free(struct sb_col *cols)
{
	int i;
	for (i = 0; cols && cols[i].name; i++)
		sb_free((char *)cols[i].name);
	sb_free(cols);
}

static double value(const struct sb_table *t, size_t r, int c)
{
	return t->cols[c].type == SB_COL_INT ? (double)sb_table_get_int(t, r, c)
					     : sb_table_get_dbl(t, r, c);
}

int sb_summarise(const struct sb_table *t, const char *by, const char *of,
		 struct sb_table *out, struct sb_col **cols_out, struct sb_err *err)
{
	char kn[MAXK][64], mn[MAXM][64];
	int nk = split(by, kn, MAXK), nm = split(of, mn, MAXM), kc[MAXK], mc[MAXM];
	int i, j, nc = 0;
	size_t r, g, ng = 0, *first = SB_NEW(size_t, t->nrow + 1);
	size_t *grp = SB_NEW(size_t, t->nrow + 1);
	struct sb_col *cols;

	for (i = 0; i < nk; i++)
		if ((kc[i] = sb_table_col(t, kn[i])) < 0) {
			sb_free(first); sb_free(grp);
			return sb_err_set(err, SB_EXIT_INPUT, "summary: no key column '%s'", kn[i]);
		}
	for (i = 0; i < nm; i++)
		if ((mc[i] = sb_table_col(t, mn[i])) < 0 || t->cols[mc[i]].type == SB_COL_STR) {
			sb_free(first); sb_free(grp);
			return sb_err_set(err, SB_EXIT_INPUT, "summary: no numeric column '%s'",
					  mn[i]);
		}
	cols = SB_NEW(struct sb_col, nk + 1 + 3 * nm + 1);
	for (i = 0; i < nk; i++)
		cols[nc++] = (struct sb_col){ sb_xstrdup(kn[i]), t->cols[kc[i]].type, "" };
	cols[nc++] = (struct sb_col){ sb_xstrdup("n"), SB_COL_INT, "" };
	for (i = 0; i < nm; i++) {
		char b[80];
		snprintf(b, sizeof b, "%s_mean", mn[i]);
		cols[nc++] = (struct sb_col){ sb_xstrdup(b), SB_COL_DBL, "" };
		snprintf(b, sizeof b, "%s_ci95", mn[i]);
		cols[nc++] = (struct sb_col){ sb_xstrdup(b), SB_COL_DBL, "" };
		snprintf(b, sizeof b, "%s_std", mn[i]);
		cols[nc++] = (struct sb_col){ sb_xstrdup(b), SB_COL_DBL, "" };
	}
	/* group rows (quadratic in groups; summaries are small) */
	for (r = 0; r < t->nrow; r++) {
		for (g = 0; g < ng; g++) {
			for (j = 0; j < nk; j++) {
				size_t q = first[g];
				int c = kc[j];
				if (memcmp(sb_table_row(t, q) + t->off[c], sb_table_row(t, r) + t->off[c],
					   t->cols[c].type == SB_COL_STR ? SB_STR_LEN : 8))
					break;
			}
			if (j == nk)
				break;
		}
		if (g == ng)
			first[ng++] = r;
		grp[r] = g;
	}
	sb_table_init(out, cols);
	for (g = 0; g < ng; g++) {
		size_t row = sb_table_add(out), q = first[g];
		long cnt_all = 0;
		for (j = 0; j < nk; j++) {
			int c = kc[j];
			memcpy(sb_table_row(out, row) + out->off[j], sb_table_row(t, q) + t->off[c],
			       t->cols[c].type == SB_COL_STR ? SB_STR_LEN : 8);
		}
		for (r = 0; r < t->nrow; r++)
			cnt_all += grp[r] == g;
		memcpy(sb_table_row(out, row) + out->off[nk], &(int64_t){ cnt_all }, 8);
		for (i = 0; i < nm; i++) {
			double s = 0, ss = 0, mean, sd, ci;
			long cnt = 0;
			for (r = 0; r < t->nrow; r++) {
				double v;
				if (grp[r] != g)
					continue;
				v = value(t, r, mc[i]);
				if (isnan(v))
					continue;
				s += v;
				cnt++;
			}
			mean = cnt ? s / (double)cnt : NAN;
			for (r = 0; r < t->nrow; r++) {
				double v;
				if (grp[r] != g)
					continue;
				v = value(t, r, mc[i]);
				if (!isnan(v))
					ss += (v - mean) * (v - mean);
			}
			sd = cnt ? sqrt(ss / (double)cnt) : NAN;
			ci = cnt > 1 ? gsl_cdf_tdist_Pinv(0.975, (double)(cnt - 1)) *
				       sqrt(ss / (double)(cnt - 1)) / sqrt((double)cnt) : NAN;
			memcpy(sb_table_row(out, row) + out->off[nk + 1 + 3 * i], &mean, 8);
			memcpy(sb_table_row(out, row) + out->off[nk + 2 + 3 * i], &ci, 8);
			memcpy(sb_table_row(out, row) + out->off[nk + 3 + 3 * i], &sd, 8);
		}
	}
	sb_free(first);
	sb_free(grp);
	*cols_out = cols;
	return 0;
}
