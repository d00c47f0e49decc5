/*
 * features.c - Cora's cora.content loader and synthetic features for a
 * labelled graph (features.h). Ours [O]; the file layout is the LINQS
 * Cora release's.
 */
#include "features.h"

#include "wlfile.h"
#include "workloads/cache/graphs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* cora.content                                                        */
/* ------------------------------------------------------------------ */

/* Split s in place at blanks: at most max tokens into tok, their count
 * returned (max + 1 when there are more). */
static int blank_split(char *s, char **tok, int max)
{
	int k = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t')
			*s++ = '\0';
		if (!*s)
			return k;
		if (k == max)
			return max + 1;
		tok[k++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
	}
}

static int node_of(const struct sb_cache_graph *g, int64_t id)
{
	int32_t lo = 0, hi = g->n;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (g->ext_id[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->ext_id[lo] == id ? lo : -1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sb_cache_load_cora_content(struct sb_cache_feats *f, const struct sb_cache_graph *g,
			       const char *path, struct sb_err *err)
{
	struct sb_wl_file w;
	char **tok = NULL, *cls[SB_CACHE_MAX_CLASSES], *sorted[SB_CACHE_MAX_CLASSES];
	int32_t *raw = NULL, v;
	int ncls = 0, maxtok = 1 << 16, rc, c;
	char *line;

	memset(f, 0, sizeof *f);
	if (!g->ext_id)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot read cora content '%s': the graph "
				  "was not loaded from cora.cites (no paper ids)", path);
	if ((rc = sb_wl_open(&w, "cora content", path, err)))
		return rc;
	tok = SB_NEW(char *, maxtok + 1);
	raw = SB_NEW(int32_t, g->n);
	for (v = 0; v < g->n; v++)
		raw[v] = -1;
	f->n = g->n;
	while ((line = sb_wl_next(&w))) {
		long id;
		int nt, i, node;
		char field[32];
		if (sb_wl_blank(line))
			continue;
		nt = blank_split(line, tok, maxtok);
		if (nt > maxtok) {
			rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, w.lineno, NULL,
					"more than %d fields", maxtok);
			goto out;
		}
		if (nt < 3) {
			rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, w.lineno, nt < 2 ? "word 1" : "class",
					"missing: a line holds a paper id, its words and its class");
			goto out;
		}
		if (!f->dim) {
			f->dim = nt - 2;
			f->x = SB_NEW(double, (size_t)g->n * f->dim);
		} else if (nt - 2 != f->dim) {
			snprintf(field, sizeof field, "word %d", nt - 2 < f->dim ? nt - 1 : f->dim + 1);
			rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, w.lineno, field,
					"%d words where the first line has %d", nt - 2, f->dim);
			goto out;
		}
		if ((rc = sb_wl_long(&w, err, "paper", tok[0], 0, SB_CACHE_MAX_ID, &id)))
			goto out;
		if ((node = node_of(g, id)) < 0) {
			rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, w.lineno, "paper",
					"paper %ld is not a node of the graph (cora.cites)", id);
			goto out;
		}
		if (raw[node] >= 0) {
			rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, w.lineno, "paper",
					"paper %ld listed twice", id);
			goto out;
		}
		for (i = 0; i < f->dim; i++) {
			snprintf(field, sizeof field, "word %d", i + 1);
			if ((rc = sb_wl_double(&w, err, field, tok[i + 1], -1e6, 1e6,
					       &f->x[(size_t)node * f->dim + i])))
				goto out;
		}
		for (c = 0; c < ncls && strcmp(cls[c], tok[nt - 1]); c++)
			;
		if (c == ncls) {
			if (ncls == SB_CACHE_MAX_CLASSES) {
				rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, w.lineno, "class",
						"more than %d classes", SB_CACHE_MAX_CLASSES);
				goto out;
			}
			cls[ncls++] = tok[nt - 1];   /* points into w's buffer */
		}
		raw[node] = c;
	}
	if (!f->dim) {
		rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, 0, NULL, "empty: no paper");
		goto out;
	}
	for (v = 0; v < g->n; v++)
		if (raw[v] < 0) {
			rc = sb_wl_fail(&w, err, SB_EXIT_INPUT, 0, NULL, "no line for paper %lld "
					"(a node of the graph)", (long long)g->ext_id[v]);
			goto out;
		}
	/* classes numbered by sorted name, whatever the order of the lines */
	memcpy(sorted, cls, (size_t)ncls * sizeof *cls);
	qsort(sorted, (size_t)ncls, sizeof *sorted, cmp_str);
	f->label = SB_NEW(int32_t, g->n);
	for (v = 0; v < g->n; v++)
		for (c = 0; c < ncls; c++)
			if (!strcmp(sorted[c], cls[raw[v]]))
				f->label[v] = c;
	f->nclass = ncls;
out:
	if (rc)
		sb_cache_feats_release(f);
	sb_free(tok);
	sb_free(raw);
	sb_wl_close(&w);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Synthetic features                                                  */
/* ------------------------------------------------------------------ */

int sb_cache_feats_synthetic(struct sb_cache_feats *f, const struct sb_cache_graph *g, int dim,
			     double signal, uint64_t seed, struct sb_err *err)
{
	struct sb_rng r = sb_rng_stream(seed, (uint64_t)g->n, (uint64_t)dim,
					SB_RNG_INSTANCE ^ sb_hash_str("cache-feats"));
	double *mu;
	int32_t v;
	int c, i;

	memset(f, 0, sizeof *f);
	if (!g->label || g->nlabel < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "features: graph %s has no labels", g->name);
	if (dim < 1 || dim > 4096 || !(signal >= 0 && signal <= 100))
		return sb_err_set(err, SB_EXIT_INPUT, "features: dimension %d, signal %g: expected "
				  "1..4096 and 0..100", dim, signal);
	mu = SB_NEW(double, (size_t)g->nlabel * dim);
	for (i = 0; i < g->nlabel * dim; i++)
		mu[i] = sb_rng_normal(&r, 0, 1);
	f->n = g->n;
	f->dim = dim;
	f->nclass = g->nlabel;
	f->x = SB_NEW(double, (size_t)g->n * dim);
	f->label = SB_NEW(int32_t, g->n);
	for (v = 0; v < g->n; v++) {
		c = g->label[v];
		f->label[v] = c;
		for (i = 0; i < dim; i++)
			f->x[(size_t)v * dim + i] = signal * mu[(size_t)c * dim + i] +
						    sb_rng_normal(&r, 0, 1);
	}
	sb_free(mu);
	return 0;
}
