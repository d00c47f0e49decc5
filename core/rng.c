/*
 * rng.c - PCG32 (O'Neill 2014, "XSH RR" output on a 64-bit LCG) with
 * streams, stream derivation and samplers. The normal and log-normal
 * samplers are GSL's, driven by our generator through a gsl_rng_type.
 */
#include "rng.h"
#include "sb.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>

/* sb_rng_u32, the LCG step and the XSH RR output, is inline in rng.h */

void sb_rng_seed(struct sb_rng *r, uint64_t initstate, uint64_t initseq)
{
	r->state = 0;
	r->inc = (initseq << 1) | 1u;
	sb_rng_u32(r);
	r->state += initstate;
	sb_rng_u32(r);
}

/* SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective mixer. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct sb_rng sb_rng_stream(uint64_t seed, uint64_t point, uint64_t replicate,
			    uint64_t purpose)
{
	struct sb_rng r;
	uint64_t h = mix64(seed + 0x9e3779b97f4a7c15ULL);
	h = mix64(h ^ (point + 0x632be59bd9b4e019ULL));
	h = mix64(h ^ (replicate + 0x85157af5ULL));
	h = mix64(h ^ purpose);
	sb_rng_seed(&r, h, mix64(h ^ 0xda942042e4dd58b5ULL));
	return r;
}

uint64_t sb_rng_u64(struct sb_rng *r)
{
	uint64_t hi = sb_rng_u32(r);
	return hi << 32 | sb_rng_u32(r);
}

struct sb_rng sb_rng_split(struct sb_rng *r)
{
	struct sb_rng c;
	uint64_t a = sb_rng_u64(r), b = sb_rng_u64(r);
	sb_rng_seed(&c, a, b);
	return c;
}

/* The published pcg32_boundedrand_r: reject the low 2^32 mod bound values. */
uint32_t sb_rng_below(struct sb_rng *r, uint32_t bound)
{
	uint32_t threshold, x;

	SB_ASSERT(bound >= 1);
	threshold = (uint32_t)(-bound) % bound;
	for (;;) {
		x = sb_rng_u32(r);
		if (x >= threshold)
			return x % bound;
	}
}

int64_t sb_rng_int(struct sb_rng *r, int64_t lo, int64_t hi)
{
	uint64_t span;

	SB_ASSERT(lo <= hi);
	span = (uint64_t)(hi - lo) + 1;
	if (span == 0 || span > 0xffffffffULL)
		SB_BUG("sb_rng_int: range too wide");
	return lo + (int64_t)sb_rng_below(r, (uint32_t)span);
}

double sb_rng_uniform(struct sb_rng *r)
{
	return (double)(sb_rng_u64(r) >> 11) * 0x1.0p-53;
}

double sb_rng_uniform_pos(struct sb_rng *r)
{
	double u;
	do
		u = sb_rng_uniform(r);
	while (u == 0.0);
	return u;
}

double sb_rng_exp(struct sb_rng *r, double rate)
{
	SB_ASSERT(rate > 0);
	return -log(sb_rng_uniform_pos(r)) / rate;
}

int sb_rng_bernoulli(struct sb_rng *r, double p)
{
	return sb_rng_uniform(r) < p;
}

void sb_rng_shuffle_int(struct sb_rng *r, int *a, size_t n)
{
	size_t i;
	for (i = n; i > 1; i--) {
		size_t j = sb_rng_below(r, (uint32_t)i);
		int t = a[i - 1];
		a[i - 1] = a[j];
		a[j] = t;
	}
}

/* ------------------------------------------------------------------ */
/* GSL bridge: a gsl_rng_type whose state is a pointer to our stream    */
/* ------------------------------------------------------------------ */

struct gsl_bridge {
	struct sb_rng *r;
};

static void bridge_set(void *state, unsigned long seed)
{
	(void)state;
	(void)seed; /* seeding happens through sb_rng_stream, never here */
}

static unsigned long bridge_get(void *state)
{
	return sb_rng_u32(((struct gsl_bridge *)state)->r);
}

static double bridge_get_double(void *state)
{
	return sb_rng_uniform(((struct gsl_bridge *)state)->r);
}

static const gsl_rng_type bridge_type = {
	"schedbench-pcg32", 0xffffffffUL, 0, sizeof(struct gsl_bridge),
	bridge_set, bridge_get, bridge_get_double,
};

struct gsl_with_state {
	gsl_rng g;
	struct gsl_bridge b;
};

void *sb_rng_gsl(struct sb_rng *r, void *storage)
{
	struct gsl_with_state *s = storage;
	s->b.r = r;
	s->g.type = &bridge_type;
	s->g.state = &s->b;
	return &s->g;
}

double sb_rng_normal(struct sb_rng *r, double mu, double sigma)
{
	struct gsl_with_state s;
	gsl_rng *g = sb_rng_gsl(r, &s);
	return mu + gsl_ran_gaussian_ziggurat(g, sigma);
}

double sb_rng_lognormal(struct sb_rng *r, double mu, double sigma)
{
	struct gsl_with_state s;
	gsl_rng *g = sb_rng_gsl(r, &s);
	return gsl_ran_lognormal(g, mu, sigma);
}
