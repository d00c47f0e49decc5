/*
 * drf.c - dominant resource fairness: one worker (with its bundled PS) at
 * a time to the job with the smallest dominant share
 * max_r(allocated_r / capacity_r), ties to the earlier arrival; the slot
 * ends at the first job that cannot get one more.
 * Rule [V, DL2 drf_env.py]; placement (pack, then first fit) ours [O].
 * tests/alloc/test_fast.c checks the heap against the linear scan, grant
 * by grant, on seeded instances.
 */
#include "alloc/alloc.h"

#include <math.h>

static double share(const struct sb_alloc_plan *pl, const double *total, int j)
{
	const struct sb_alloc_job *jb = &pl->in->job[j];
	double d = 0;
	int r;
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (total[r] > 0)
			d = sb_max(d, (pl->w[j] * jb->wdem[r] + pl->p[j] * jb->pdem[r]) / total[r]);
	return d;
}

/* A min-heap of (share, position in the active list): the position breaks
 * ties, so the pop order is the linear scan's (smallest share, earliest
 * arrival) and schedules stay what they were before the heap, while a
 * slot costs O(units x log jobs) instead of O(units x jobs) (bursts of
 * thousands of queued jobs made the scan quadratic). */
struct item {
	double d;
	int pos;
};

static int before(const struct item *a, const struct item *b)
{
	return a->d < b->d || (a->d == b->d && a->pos < b->pos);
}

static void sift_down(struct item *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		struct item t;
		if (l < n && before(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && before(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static int allocate(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
		    struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err)
{
	double total[SB_ALLOC_NRES] = { 0 };
	struct item *h = SB_NEW(struct item, v->nactive + 1);
	int s, r, i, n = 0;

	for (s = 0; s < v->in->nserver; s++)
		for (r = 0; r < SB_ALLOC_NRES; r++)
			total[r] += v->in->cap[s][r];
	for (i = 0; i < v->nactive; i++) {
		int j = v->active[i];
		if (pl->w[j] < v->in->job[j].max_workers)
			h[n++] = (struct item){ share(pl, total, j), i };
	}
	for (i = n / 2 - 1; i >= 0; i--)
		sift_down(h, n, i);
	while (n > 0) {
		int j = v->active[h[0].pos];
		if (sb_alloc_add_unit(pl, j, SB_ALLOC_PACK, rng) < 0)
			break;
		/* only the job that grew changes its share */
		if (pl->w[j] >= v->in->job[j].max_workers)
			h[0] = h[--n];
		else
			h[0].d = share(pl, total, j);
		sift_down(h, n, 0);
	}
	sb_free(h);
	return 0;
}

const struct sb_alloc_policy sb_alloc_policy_drf = {
	.name = "drf",
	.cite = "Ghodsi et al., Dominant Resource Fairness, NSDI 2011; DL2 drf_env.py",
	.desc = "one worker at a time to the smallest dominant share",
	.provenance = "verified: DL2 code",
	.allocate = allocate,
};
