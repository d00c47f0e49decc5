/*@next (printed by make new-baseline, not copied)
 * edit its hooks, then 'make && bin/sb list sync' shows it;
 * 'bin/sb eval sync --policy @NAME@ --bound' tries it, and 'make test'
 * runs it through the checker and the wait-free bound.
 */
/*
 * @NAME@.c - <one line: what this synchronisation scheme does>.
 *
 * <Authors, "Title", Venue Year.>
 * <The protocol in a few sentences. Say what is verified from a public
 *  source and what is your own choice.>
 *
 * Contract (core/sync/sync.h, struct sb_sync_policy): init sets the
 * staleness bound ctl->bound (1 = barrier, SB_SYNC_INF = never wait);
 * should_commit says after each local step whether the worker pushes;
 * on_eval (optional) sees the global test loss every check period / 2.
 */
#include "sync/sync.h"

static const struct sb_param params[] = {
	{ "tau", 10, 1, 100000, 1, "local steps between commits" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx { long tau; };

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	c->tau = (long)sb_opts_get(o, "tau");
	*ctx = c;
	ctl->bound = SB_SYNC_INF;
	ctl->setting = (double)c->tau;
	return 0;
}

static int should_commit(void *ctx, const struct sb_sync_sim *s, int i)
{
	return s->since[i] >= ((struct ctx *)ctx)->tau;
}

const struct sb_sync_policy sb_sync_policy_@IDENT@ = {
	.name = "@NAME@",
	.cite = "<Authors, Title, Venue Year>",
	.desc = "<one line>",
	.provenance = "reconstructed",
	.params = params,
	.init = init,
	.release = sb_free,
	.should_commit = should_commit,
};
