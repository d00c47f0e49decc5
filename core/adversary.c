/*
 * adversary.c - the engine's instance search (see adversary.h) and the
 * `sb adversary` command. Names no family: the family's struct
 * sb_adversary says what a gene means.
 */
#include "adversary.h"
#include "family.h"
#include "registry.h"
#include "rng.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double sb_adversary_size(const struct sb_adversary_space *sp)
{
	double n = 1;
	int k;

	for (k = 0; k < sp->ngenes; k++)
		n *= sp->hi[k];
	return n;
}

static int score(const struct sb_adversary *h, void *ctx, const int *gene, double *r,
		 struct sb_adversary_found *f, struct sb_err *err)
{
	int rc = h->ratio(ctx, gene, r, err);

	if (rc == SB_ADV_DECLINED) {
		f->rejected++;
		*r = 0;
		rc = 0;
	}

	f->evals++;
	if (!rc && isnan(*r))
		rc = sb_err_set(err, SB_EXIT_RUN, "adversary: the family returned a NaN ratio");
	return rc;
}

const char *sb_adversary_policy(const struct sb_adversary *h, int i)
{
	int n;
	const void *const *p;

	if (h->policy)
		return h->policy(i);
	p = sb_registry_list(h->policy_type, &n);
	return i >= 0 && i < n ? sb_registry_name(p[i]) : NULL;
}

void sb_adversary_close(const struct sb_adversary *h, void *ctx)
{
	if (h->close)
		h->close(ctx);
	else
		sb_free(ctx);
}

static void keep(struct sb_adversary_found *f, const int *gene, int n, double r, long it)
{
	if (!(r > f->worst))
		return;
	f->worst = r;
	f->found_at = it;
	memcpy(f->gene, gene, (size_t)n * sizeof *gene);
}

/*
 * Annealing on log(ratio): a move either redraws one gene, steps one gene
 * by +-1 (ordered genes such as value levels reward small steps), or
 * redraws three genes at once (to leave a plateau). The temperature falls
 * linearly to zero over the budget. When the walk has not improved on the
 * best for a twentieth of the budget it restarts, alternately from the
 * best (the worst cases are sharp: intensify) and from a random point (the
 * landscape of hash-like policies is rugged: diversify).
 */
int sb_adversary_anneal(const struct sb_adversary *h, void *ctx,
			const struct sb_adversary_space *sp, long iters, uint64_t seed,
			uint64_t point, struct sb_adversary_found *f, struct sb_err *err)
{
	struct sb_rng r = sb_rng_stream(seed, point, 0, SB_RNG_INSTANCE);
	int x[SB_ADV_MAXGENES], y[SB_ADV_MAXGENES], n = sp->ngenes, k, j, rc;
	double fx, fy, t0 = 0.1;
	long it, last = 0, patience = iters / 20 > 10 ? iters / 20 : 10;
	int restarts = 0;

	memset(f, 0, sizeof *f);
	f->worst = -1;
	for (k = 0; k < n; k++)
		x[k] = (int)sb_rng_below(&r, (uint32_t)sp->hi[k]);
	if ((rc = score(h, ctx, x, &fx, f, err)))
		return rc;
	keep(f, x, n, fx, 0);
	for (it = 1; it <= iters; it++) {
		double u = sb_rng_uniform(&r), tau = t0 * (1 - (double)(it - 1) / iters);
		memcpy(y, x, (size_t)n * sizeof *x);
		if (u < 0.5) {
			k = (int)sb_rng_below(&r, (uint32_t)n);
			y[k] = (int)sb_rng_below(&r, (uint32_t)sp->hi[k]);
		} else if (u < 0.85) {
			k = (int)sb_rng_below(&r, (uint32_t)n);
			y[k] += sb_rng_below(&r, 2) ? 1 : -1;
			if (y[k] < 0 || y[k] >= sp->hi[k])
				y[k] = x[k] - (y[k] - x[k]);
			if (y[k] < 0 || y[k] >= sp->hi[k])
				y[k] = x[k];
		} else {
			for (j = 0; j < 3; j++) {
				k = (int)sb_rng_below(&r, (uint32_t)n);
				y[k] = (int)sb_rng_below(&r, (uint32_t)sp->hi[k]);
			}
		}
		if ((rc = score(h, ctx, y, &fy, f, err)))
			return rc;
		if (fy > f->worst)
			last = it;
		keep(f, y, n, fy, it);
		/* log of a ratio: INFINITY compares as the worst, as it should */
		if (fy >= fx || (tau > 0 && fx > 0 && fy > 0 &&
				 sb_rng_uniform(&r) < exp((log(fy) - log(fx)) / tau))) {
			memcpy(x, y, (size_t)n * sizeof *x);
			fx = fy;
		}
		if (it - last >= patience) {
			if (restarts++ % 2 == 0) {
				memcpy(x, f->gene, (size_t)n * sizeof *x);
				fx = f->worst;
			} else {
				for (k = 0; k < n; k++)
					x[k] = (int)sb_rng_below(&r, (uint32_t)sp->hi[k]);
				if ((rc = score(h, ctx, x, &fx, f, err)))
					return rc;
				keep(f, x, n, fx, it);
			}
			last = it;
		}
	}
	return 0;
}

int sb_adversary_exhaust(const struct sb_adversary *h, void *ctx,
			 const struct sb_adversary_space *sp, double max,
			 struct sb_adversary_found *f, struct sb_err *err)
{
	int x[SB_ADV_MAXGENES], n = sp->ngenes, k, rc;
	double size = sb_adversary_size(sp), q;
	long it = 0;

	memset(f, 0, sizeof *f);
	f->worst = -1;
	if (size > max)
		return sb_err_set(err, SB_EXIT_INPUT, "adversary: the space has %.3g instances, "
				  "more than the %.3g --exhaustive enumerates", size, max);
	memset(x, 0, sizeof x);
	for (;;) {
		if ((rc = score(h, ctx, x, &q, f, err)))
			return rc;
		keep(f, x, n, q, it++);
		for (k = 0; k < n && ++x[k] == sp->hi[k]; k++)
			x[k] = 0;
		if (k == n) {
					return 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* sb adversary                                                        */
/* ------------------------------------------------------------------ */

static const char usage_line[] =
	"usage: sb adversary FAMILY --policy NAME [--versus NAME] [--iters N] [--seed N] "
	"[--set key=value]... [--exhaustive]\n";

static int fail(const char *fmt, const char *a, const char *b)
{
	fputs("error: adversary: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputs("\n", stderr);
	fputs(usage_line, stderr);
	return SB_EXIT_INPUT;
}

static int number(const char *opt, const char *v, double lo, double hi, double *out)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (!*v || *end || errno || !(x >= lo && x <= hi) || x != floor(x)) {
		fputs("error: adversary: ", stderr);
		fprintf(stderr, "%s '%s': expected a whole number in [%.0f, %.0f]\n", opt, v, lo,
			hi);
		fputs(usage_line, stderr);
		return SB_EXIT_INPUT;
	}
	*out = x;
	return 0;
}

static void families_with_hook(char *buf, size_t len)
{
	const struct sb_family *const *fam;
	int n, i;
	size_t off = 0;

	buf[0] = 0;
	fam = sb_families(&n);
	for (i = 0; i < n; i++)
		if (fam[i]->adversary && off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
						fam[i]->name);
}

int sb_adversary_main(int argc, char **argv)
{
	const struct sb_family *f = argc > 1 ? sb_family_find(argv[1]) : NULL;
	const struct sb_adversary *h;
	const char *policy = NULL, *versus = NULL;
	struct sb_adversary_space sp;
	struct sb_adversary_found found;
	struct sb_opts o;
	struct sb_err err = { 0, "" };
	double iters = 2000, seed = 1;
	int i, k, rc, exhaustive = 0;
	void *ctx = NULL;
	char known[256];

	families_with_hook(known, sizeof known);
	if (!f || !f->adversary)
		return fail("unknown family or no adversary hook: '%s' (families with one: %s)",
			    argc > 1 ? argv[1] : "", known);
	h = f->adversary;
	sb_opts_defaults(&o, h->params);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i];
		int val = !strcmp(a, "--policy") || !strcmp(a, "--versus") ||
			  !strcmp(a, "--iters") || !strcmp(a, "--seed") || !strcmp(a, "--set");
		if (!strcmp(a, "--exhaustive")) {
			exhaustive = 1;
			continue;
		}
		if (!val)
			return fail("unknown option '%s'%s", a, "");
		if (i + 1 >= argc)
			return fail("%s needs a value%s", a, "");
		if (!strcmp(a, "--policy") || !strcmp(a, "--versus")) {
			const char **dst = a[2] == 'p' ? &policy : &versus;
			if (*dst)
				return fail("%s given twice%s", a, "");
			*dst = argv[++i];
		} else if (!strcmp(a, "--iters")) {
			if ((rc = number(a, argv[++i], 1, 1e9, &iters)))
				return rc;
		} else if (!strcmp(a, "--seed")) {
			if ((rc = number(a, argv[++i], 0, 9007199254740992.0, &seed)))
				return rc;
		} else if ((rc = sb_opts_set(&o, h->params, argv[++i], "adversary --set", &err))) {
			return fail("%s%s", err.msg, "");
		}
	}
	if (!policy)
		return fail("--policy is required%s%s", "", "");
	if ((rc = h->open(policy, versus, &o, &ctx, &sp, &err)))
		return rc == SB_EXIT_INPUT ? fail("%s%s", err.msg, "") :
			(fprintf(stderr, "error: adversary %s: %s\n", f->name, err.msg), rc);
	if (exhaustive)
		rc = sb_adversary_exhaust(h, ctx, &sp, 1e8, &found, &err);
	else
		rc = sb_adversary_anneal(h, ctx, &sp, (long)iters, (uint64_t)seed, 0, &found,
					 &err);
	if (rc) {
		fprintf(stderr, "error: adversary %s: %s\n", f->name, err.msg);
	} else {
		char set[512] = "";
		sb_opts_format(&o, set, sizeof set);
		printf("family: %s\npolicy: %s\nversus: %s\nsearch: %s\nspace: %s\n", f->name,
		       policy, versus ? versus : "optimum",
		       exhaustive ? "exhaustive" : "simulated annealing", set);
		printf("space_size: %.6g\nevaluations: %ld\nrejected: %ld\nfound_at: %ld\n",
		       sb_adversary_size(&sp), found.evals, found.rejected, found.found_at);
		printf("worst_ratio: %.10g\ngenes:", found.worst);
		for (k = 0; k < sp.ngenes; k++)
			printf(" %d", found.gene[k]);
		printf("\n");
		h->print(ctx, found.gene, stdout);
	}
	sb_adversary_close(h, ctx);
	return rc;
}
