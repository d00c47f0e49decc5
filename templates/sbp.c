/*@next (printed by make new-baseline, not copied)
 * edit its plan hook, then 'make && bin/sb list sbp' shows it;
 * 'bin/sb eval sbp --model gpt --layers 2 --tokens 4096 --hidden 1024 --p 8 --policy @NAME@ --bound'
 * tries it against the ILP optimum, and 'make test' runs it through the legality checker.
 */
/*
 * @NAME@.c - <one line: what this sbp planner does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The algorithm in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/sbp/sbp.h, struct sb_sbp_planner): plan() writes one
 * signature index per op (into g->op[o].sig); the harness adds the boxing
 * ops and checks the plan's legality before any metric is recorded.
 */
#include "sbp/sbp.h"

static const struct sb_param params[] = {
	/* { "name", default, min, max, integer?, "help" }, */
	{ NULL, 0, 0, 0, 0, NULL },
};

static int plan(const struct sb_sbp_graph *g, const struct sb_opts *o, int *sig,
		struct sb_err *err)
{
	(void)o;
	/* the greedy completion with nothing pinned */
	return sb_sbp_greedy(g, NULL, NULL, sig, err);
}

const struct sb_sbp_planner sb_sbp_planner_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "ours",
	.params = params,
	.plan = plan,
};
