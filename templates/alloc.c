/*@next (printed by make new-baseline, not copied)
 * edit its allocate hook, then 'make && bin/sb list alloc' shows it;
 * 'bin/sb eval alloc --gen 50 --policy @NAME@' tries it,
 * and 'make test' runs it through the checker on random instances.
 */
/*
 * @NAME@.c - <one line: what this alloc policy does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/alloc/alloc.h, struct sb_alloc_policy): allocate() is
 * called by the simulator at every slot with active jobs and fills the
 * slot's plan through sb_alloc_plan_add / sb_alloc_add_unit /
 * sb_alloc_embed, which refuse what does not fit; the checker validates the
 * whole run. Take every random draw from `rng`.
 */
#include "alloc/alloc.h"

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ NULL, 0, 0, 0, 0, NULL },
};

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	int i;
	/* newest job first, one worker each */
	for (i = v->nactive - 1; i >= 0; i--)
		sb_alloc_add_unit(pl, v->active[i], SB_ALLOC_PACK, rng);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.params = params,
	.allocate = allocate,
};
