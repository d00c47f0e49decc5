/*
 * rng.h - PCG32 random numbers with independent streams.
 *
 * PCG32 is the "XSH RR" 64/32 generator of M. E. O'Neill, "PCG: A family
 * of simple fast space-efficient statistically good algorithms for random
 * number generation", HMC-CS-2014-0905 (2014). The state advances by the
 * 64-bit LCG with multiplier 6364136223846793005 and an odd increment that
 * selects the stream; seeding follows the published pcg32_srandom_r.
 *
 * Every random draw of schedbench comes from a stream derived from
 * (experiment seed, sweep point, replicate, purpose), see sb_rng_stream(),
 * so that results do not depend on the number of workers or on the order
 * in which points run. There is no global generator.
 */
#ifndef SB_RNG_H
#define SB_RNG_H

#include <stdint.h>
#include <stddef.h>

struct sb_rng {
	uint64_t state;
	uint64_t inc; /* always odd */
};

/* Purposes: the fourth coordinate of a stream. Policies use
 * SB_RNG_POLICY ^ sb_hash_str(policy name) so each policy has its own. */
enum sb_rng_purpose {
	SB_RNG_INSTANCE = 1,  /* generating the instance (graph, devices, trace) */
	SB_RNG_POLICY = 2,    /* random choices of a policy */
	SB_RNG_NOISE = 3,     /* perturbations, prediction errors */
	SB_RNG_TEST = 4,      /* tests */
};

/* pcg32_srandom_r: seed with initial state and stream selector. */
void sb_rng_seed(struct sb_rng *r, uint64_t initstate, uint64_t initseq);
/* The stream for (seed, point, replicate, purpose): the four words are
 * mixed with SplitMix64 into initstate and initseq. */
struct sb_rng sb_rng_stream(uint64_t seed, uint64_t point, uint64_t replicate,
			    uint64_t purpose);
/* A child stream of r (consumes two draws of r). */
struct sb_rng sb_rng_split(struct sb_rng *r);

/* Inline: a graph sampler draws ~10^8 numbers per run, and a call per
 * draw cost it about 10% (same numbers). */
static inline uint32_t sb_rng_u32(struct sb_rng *r)
{
	uint64_t old = r->state;
	uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
	uint32_t rot = (uint32_t)(old >> 59);
	r->state = old * 6364136223846793005ULL + r->inc;   /* the LCG step */
	return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));   /* XSH RR */
}
uint64_t sb_rng_u64(struct sb_rng *r);
/* Uniform integer in [0, bound), bound >= 1, without modulo bias. */
uint32_t sb_rng_below(struct sb_rng *r, uint32_t bound);
/* Uniform integer in [lo, hi] inclusive (hi - lo < 2^32). */
int64_t sb_rng_int(struct sb_rng *r, int64_t lo, int64_t hi);
/* Uniform double in [0, 1) with 53 random bits. */
double sb_rng_uniform(struct sb_rng *r);
/* Uniform double in (0, 1): never 0, for logarithms. */
double sb_rng_uniform_pos(struct sb_rng *r);
/* Exponential with the given rate (mean 1/rate). */
double sb_rng_exp(struct sb_rng *r, double rate);
/* Normal (mu, sigma) and log-normal exp(N(mu, sigma)) through GSL. */
double sb_rng_normal(struct sb_rng *r, double mu, double sigma);
double sb_rng_lognormal(struct sb_rng *r, double mu, double sigma);
/* Bernoulli(p). */
int sb_rng_bernoulli(struct sb_rng *r, double p);
/* Fisher-Yates shuffle of a[0..n). */
void sb_rng_shuffle_int(struct sb_rng *r, int *a, size_t n);

/* A gsl_rng driven by this stream, for GSL samplers: storage must point to
 * SB_RNG_GSL_STORAGE bytes that live as long as the result is used. */
#define SB_RNG_GSL_STORAGE 64
void *sb_rng_gsl(struct sb_rng *r, void *storage);

#endif
