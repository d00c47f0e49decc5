/*
 * batchtune.c - BatchTune: each worker's mini-batch proportional to its
 * speed (mean batch = the instance's batch), so steps take about equally
 * long, with a barrier every tau steps: tau = 1 is BatchTune BSP, tau = 40
 * BatchTune Fixed-ADACOMM. Verified [V, code: the "R2SP" runs of
 * compared2R2SP.py] as to the idea; the rounding is ours [O].
 */
#include "sync/sync.h"

#include <math.h>

static const struct sb_param params[] = {
	{ "tau", 1, 1, 100000, 1, "local steps between barriers (1: BSP, 40: Fixed ADACOMM)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

struct ctx { long tau; int *b; };

static int init(const struct sb_sync_sim *s, const struct sb_opts *o, void **ctx,
		struct sb_sync_ctl *ctl, struct sb_err *err)
{
	struct ctx *c = SB_NEW(struct ctx, 1);
	double mean = 0;
	int i, m = s->in->m;
	c->tau = (long)sb_opts_get(o, "tau");
	c->b = SB_NEW(int, m);
	for (i = 0; i < m; i++)
		mean += s->in->v[i] / m;
	for (i = 0; i < m; i++) {
		c->b[i] = (int)lround(s->in->batch * s->in->v[i] / mean);
		if (c->b[i] < 1)
			c->b[i] = 1;
	}
	*ctx = c;
	ctl->bound = 1;
	ctl->setting = (double)c->tau;
	return 0;
}

static void release(void *ctx)
{
	struct ctx *c = ctx;
	if (c)
		sb_free(c->b);
	sb_free(c);
}

static int batch(void *ctx, const struct sb_sync_sim *s, int i)
{
	return ((struct ctx *)ctx)->b[i];
}

static int should_commit(void *ctx, const struct sb_sync_sim *s, int i)
{
	return s->since[i] >= ((struct ctx *)ctx)->tau;
}

const struct sb_sync_policy sb_sync_policy_batchtune = {
	.name = "batchtune",
	.cite = "Hu, Wang & Wu, AAAI 2020 (the BatchTune comparison, R2SP in their scripts)",
	.desc = "mini-batch proportional to speed, barrier every tau steps",
	.provenance = "verified: adsp code (compared2R2SP.py)",
	.params = params,
	.init = init,
	.release = release,
	.batch = batch,
	.should_commit = should_commit,
};
