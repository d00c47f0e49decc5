/*
 * cache.c - the cache family's simulator, checker and optimum (see cache.h
 * for the model this template starts with).
 */
#include "cache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_cache_inst_release(struct sb_cache_inst *in)
{
	sb_free(in->p);
	sb_free(in->w);
	memset(in, 0, sizeof *in);
}

void sb_cache_gen(struct sb_cache_inst *in, int n, struct sb_rng *r)
{
	int j;
	in->n = n;
	in->p = SB_NEW(double, n);
	in->w = SB_NEW(double, n);
	for (j = 0; j < n; j++) {
		in->p[j] = 1 + 9 * sb_rng_uniform(r);
		in->w[j] = 1 + 9 * sb_rng_uniform(r);
	}
}

void sb_cache_result_release(struct sb_cache_result *r)
{
	sb_free(r->start);
	sb_free(r->finish);
	memset(r, 0, sizeof *r);
}

int sb_cache_run(const struct sb_cache_inst *in, const struct sb_cache_policy *p,
		 const struct sb_opts *o, struct sb_rng *rng, struct sb_cache_result *r,
		 struct sb_err *err)
{
	int *order = SB_NEW(int, in->n), *seen = SB_NEW(int, in->n);
	int k, rc;
	double t = 0;
	char why[256];

	memset(r, 0, sizeof *r);
	rc = p->order(in, o, rng, order, err);
	for (k = 0; !rc && k < in->n; k++)
		if (order[k] < 0 || order[k] >= in->n || seen[order[k]]++)
			rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: order is not a permutation "
					"(position %d)", p->name, k);
	if (!rc) {
		r->start = SB_NEW(double, in->n);
		r->finish = SB_NEW(double, in->n);
		for (k = 0; k < in->n; k++) {
			int j = order[k];
			r->start[j] = t;
			t += in->p[j];
			r->finish[j] = t;
			r->objective += in->w[j] * t;
		}
		if (sb_cache_check(in, r, why, sizeof why)) {
			sb_cache_result_release(r);
			rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: checker rejects the "
					"schedule: %s", p->name, why);
		}
	}
	sb_free(order);
	sb_free(seen);
	return rc;
}

static int key_cmp(const void *a, const void *b, void *ctx)
{
	const double *s = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	return s[x] < s[y] ? -1 : s[x] > s[y] ? 1 : x - y;
}

/* insertion sort of idx[0..n) by key (n is small; no qsort_r in C11) */
static void sort_idx(int *idx, int n, const double *key)
{
	int i, j;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && key_cmp(&idx[j - 1], &idx[j], (void *)key) > 0; j--) {
			int t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
}

int sb_cache_check(const struct sb_cache_inst *in, const struct sb_cache_result *r,
		   char *why, size_t len)
{
	int *idx = SB_NEW(int, in->n), k, bad = 0;
	double obj = 0, end = 0;

	for (k = 0; k < in->n; k++)
		idx[k] = k;
	sort_idx(idx, in->n, r->start);
	for (k = 0; k < in->n && !bad; k++) {
		int j = idx[k];
		if (!(r->start[j] >= end - 1e-9)) {
			snprintf(why, len, "job %d starts at %g, before the machine is free (%g)",
				 j, r->start[j], end);
			bad = 1;
		} else if (fabs(r->finish[j] - r->start[j] - in->p[j]) > 1e-9 * (1 + in->p[j])) {
			snprintf(why, len, "job %d runs %g, not its processing time %g", j,
				 r->finish[j] - r->start[j], in->p[j]);
			bad = 1;
		}
		end = r->finish[j];
		obj += in->w[j] * r->finish[j];
	}
	if (!bad && fabs(obj - r->objective) > 1e-9 * (1 + obj)) {
		snprintf(why, len, "objective %g differs from the recomputed %g", r->objective, obj);
		bad = 1;
	}
	sb_free(idx);
	return bad;
}

double sb_cache_opt(const struct sb_cache_inst *in)
{
	int *idx = SB_NEW(int, in->n), k;
	double *ratio = SB_NEW(double, in->n), t = 0, obj = 0;

	for (k = 0; k < in->n; k++) {
		idx[k] = k;
		ratio[k] = in->p[k] / in->w[k];
	}
	sort_idx(idx, in->n, ratio);
	for (k = 0; k < in->n; k++) {
		t += in->p[idx[k]];
		obj += in->w[idx[k]] * t;
	}
	sb_free(idx);
	sb_free(ratio);
	return obj;
}
