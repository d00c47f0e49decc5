/*
 * gen.c - the online family's instance generators (see gen.h).
 */
#include "gen.h"
#include "wlfile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void sb_online_gen_random(const struct sb_online_game *g, struct sb_online_inst *in, int logu,
			  struct sb_rng *r)
{
	int t;

	sb_online_inst_alloc(in, g->T);
	for (t = 0; t < g->T; t++) {
		double u = sb_rng_uniform(r);
		in->d[t] = 1 + (int)sb_rng_below(r, (uint32_t)g->ND);
		in->v[t] = logu ? g->L * pow(g->U / g->L, u) : g->L + (g->U - g->L) * u;
		if (in->v[t] > g->U) /* pow's rounding */
			in->v[t] = g->U;
	}
}

/* Buyers of demand code dem that fill the capacity: K = 1, ceil(C / d);
 * K = 2, enough to fill the bottleneck type, min_k ceil(C_k / d_k) (no
 * further buyer of that demand fits). */
static int per_level(const struct sb_online_game *g, int dem)
{
	int k, per = 0;

	if (g->K == 1)
		return (g->C + dem - 1) / dem;
	for (k = 0; k < g->K; k++) {
		int dk = sb_online_dem(g, dem, k), n = (g->Ck[k] + dk - 1) / dk;
		per = k == 0 || n < per ? n : per;
	}
	return per;
}

void sb_online_gen_staircase(const struct sb_online_game *g, struct sb_online_inst *in,
			     int levels, int top, int dem)
{
	int per = per_level(g, dem), t = 0, l, k;

	sb_online_inst_alloc(in, g->T);
	for (l = 0; l <= top && l < levels; l++)
		for (k = 0; k < per && t < g->T; k++, t++) {
			in->v[t] = sb_online_level(g->L, g->U, levels, l);
			in->d[t] = dem;
		}
	for (; t < g->T; t++) {
		in->v[t] = g->L;
		in->d[t] = 1;
	}
}

void sb_online_gen_enum(const struct sb_online_game *g, struct sb_online_inst *in, int nv,
			unsigned long long code)
{
	int t, base = nv * g->ND;

	sb_online_inst_alloc(in, g->T);
	for (t = 0; t < g->T; t++) {
		int k = (int)(code % (unsigned long long)base);
		code /= (unsigned long long)base;
		in->v[t] = sb_online_level(g->L, g->U, nv, k / g->ND);
		in->d[t] = 1 + k % g->ND;
	}
}

int sb_online_gen_evalset(const struct sb_online_game *g, uint64_t seed, uint64_t point,
			  int nrand, int extra, struct sb_online_inst **set,
			  char (**kind)[SB_ONLINE_KIND_LEN])
{
	int d, k, n = 0, cap = g->ND * g->M + 2 * nrand + extra;
	struct sb_online_inst *s = SB_NEW(struct sb_online_inst, cap);
	char (*kd)[SB_ONLINE_KIND_LEN] = sb_xcalloc((size_t)cap, sizeof *kd);

	for (d = 1; d <= g->ND; d++) {
		int per = per_level(g, d), levels = g->T / per < g->M ? g->T / per : g->M;
		if (levels < 2)
			levels = 2;
		for (k = 0; k < levels; k++, n++) {
			sb_online_gen_staircase(g, &s[n], levels, k, d);
			snprintf(kd[n], sizeof kd[n], "stair%d.%d", d, k);
		}
	}
	for (k = 0; k < 2 * nrand; k++, n++) {
		struct sb_rng gen = sb_rng_stream(seed, point, (uint64_t)k, SB_RNG_NOISE);
		sb_online_gen_random(g, &s[n], k >= nrand, &gen);
		snprintf(kd[n], sizeof kd[n], k >= nrand ? "logrand" : "rand");
	}
	*set = s;
	*kind = kd;
	return n;
}

int sb_online_load(const char *path, int K, int D, double L, double U,
		   struct sb_online_inst *in, struct sb_err *err)
{
	static const char *const names[2][3] = { { "d", "v" }, { "d1", "d2", "v" } };
	const char *const *name = names[K == 2];
	struct sb_wl_file f;
	char *line, *fld[4];
	int rc, cap = 16, header = 0, nf = K + 1, k;

	memset(in, 0, sizeof *in);
	if ((rc = sb_wl_open(&f, "buyers", path, err)))
		return rc;
	in->d = SB_NEW(int, cap);
	in->v = SB_NEW(double, cap);
	while ((line = sb_wl_next(&f))) {
		long d[SB_ONLINE_MAXK];
		int dv[SB_ONLINE_MAXK] = { 1, 1 }, bad = 0;
		double v;
		line = sb_wl_trim(line);
		if (sb_wl_blank(line) || line[0] == '#')
			continue;
		if (!header) {
			bad = sb_wl_split(line, ',', fld, 4) != nf;
			for (k = 0; k < nf && !bad; k++)
				bad = strcmp(sb_wl_trim(fld[k]), name[k]) != 0;
			if (bad) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"expected the header '%s'", K == 1 ? "d,v" : "d1,d2,v");
				goto out;
			}
			header = 1;
			continue;
		}
		if (sb_wl_split(line, ',', fld, 4) != nf) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"expected %d fields '%s'", nf, K == 1 ? "d,v" : "d1,d2,v");
			goto out;
		}
		for (k = 0; k < K; k++)
			if ((rc = sb_wl_long(&f, err, name[k], sb_wl_trim(fld[k]), 1, D, &d[k])))
				goto out;
		if ((rc = sb_wl_double(&f, err, "v", sb_wl_trim(fld[K]), L, U, &v)))
			goto out;
		/* the demand code of the vector (K = 1: the demand itself) */
		for (k = 0; k < K; k++)
			dv[k] = (int)d[k];
		if (in->T == SB_ONLINE_MAXT) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"more than %d buyers", SB_ONLINE_MAXT);
			goto out;
		}
		if (in->T == cap) {
			cap *= 2;
			in->d = sb_xrealloc(in->d, (size_t)cap * sizeof *in->d);
			in->v = sb_xrealloc(in->v, (size_t)cap * sizeof *in->v);
		}
		in->d[in->T] = K == 1 ? dv[0] : (dv[0] - 1) * D + dv[1];
		in->v[in->T] = v;
		in->T++;
	}
	if (!in->T)
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, NULL, "no buyers");
out:
	sb_wl_close(&f);
	if (rc)
		sb_online_inst_release(in);
	return rc;
}
