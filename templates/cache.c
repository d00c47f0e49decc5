/*@next (printed by make new-baseline, not copied)
 * edit its order hook, then 'make && bin/sb list cache' shows it;
 * 'bin/sb eval cache --n 20 --policy @NAME@ --bound' tries it,
 * and 'make test' runs it through the checker against the optimum on random instances.
 */
/*
 * @NAME@.c - <one line: what this cache policy does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/cache/cache.h, struct sb_cache_policy): order() writes a
 * permutation of the jobs; the simulator runs it and the checker validates
 * it. Take every random draw from `rng`.
 */
#include "cache/cache.h"

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ NULL, 0, 0, 0, 0, NULL },
};

static int order(const struct sb_cache_inst *in, const struct sb_opts *o, struct sb_rng *rng,
		 int *out, struct sb_err *err)
{
	int j;
	for (j = 0; j < in->n; j++)
		out[j] = in->n - 1 - j;
	return 0;
}

const struct sb_cache_policy sb_cache_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.params = params,
	.order = order,
};
