/*
 * piper.c - Piper's planner specialised to a chain of layers: a dynamic
 * program choosing contiguous stages and a data-parallel degree per stage
 * that minimises the time per microbatch of the slowest stage under a
 * per-device memory limit; run under 1F1B with a flush.
 *
 * J. Tarnawski, D. Narayanan, A. Phanishayee, "Piper: multidimensional
 * planner for DNN parallelization", NeurIPS 2021.
 *
 * Algorithm [V, spec pipeplan.md §4 from the public code]: a DP over the
 * downsets (ideals) of the layer DAG; each stage gets a data-parallel
 * degree d and a tensor-parallel degree t from per-layer options; its time
 * per sample is (edge bytes / d + DP-resync bytes) / bandwidth +
 * compute / d, with resync = 4 (d-1) w / (d N_mb) for w parameter bytes
 * and N_mb microbatches per batch, edge bytes counted twice (forward and
 * backward); its memory per device is sum over its layers of (a y + b),
 * y = ceil(sum of the DP degrees of this and every later stage / d); the
 * objective is the largest stage time (bubbles ignored, one bandwidth).
 *
 * Specialised to our models [O]:
 *   - a chain's downsets are its prefixes, so the DP runs over suffixes:
 *     best[i][n] = the best largest stage time of layers i..L-1 on n
 *     devices, trying every first stage i..j and degree d <= n, whose
 *     memory needs y = ceil(n / d) (n counts this stage and the later
 *     ones); the answer is the best over n <= N devices (fewer devices on
 *     ties; Piper may leave devices idle). O(L^2 N^2);
 *   - tensor parallelism t = 1: our profiles carry no per-layer
 *     tensor-parallel options (TMPCs), so there is nothing to choose;
 *   - costs per microbatch of beta = batch / M samples: compute =
 *     beta (fwd + bwd) / speed, edge bytes = 2 beta (activation entering
 *     + activation leaving the stage), a = beta stash bytes, b = kappa
 *     parameter bytes;
 *   - the one bandwidth: the smallest between two GPUs of the topology
 *     (Piper's model has a single figure; the smallest is what a stage
 *     spanning the slowest link gets);
 *   - Piper replicas take whole microbatches round-robin; our plans split
 *     each microbatch over a stage's d GPUs, so d <= beta;
 *   - stages on consecutive GPUs in id order;
 *   - microbatches when the problem leaves them open: Piper's objective
 *     per sample does not depend on beta except through d <= beta and
 *     memory, so we first plan with the largest M whose microbatch still
 *     allows any degree (beta >= N, a whole divisor of the batch; more
 *     and smaller microbatches while nothing fits), then re-plan with the
 *     most microbatches that still allow the degrees found: the same time
 *     per sample, a shorter fill and drain that Piper does not model;
 *   - the plan must fit our memory model under the schedule it runs with
 *     (under 1F1B it always does when Piper's does: Piper counts at least
 *     as many microbatches in flight).
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

struct piper {
	const struct sb_pmodel *m;
	const struct sb_pipeline_prefix *x;
	int L, N, M, dcap;
	double beta, bw, speed, kappa, limit;
	double *best;         /* (L+1) x (N+1) */
	int *cut, *deg;       /* last layer and degree of the first stage */
};

/* Piper's time of layers i..j as one stage of degree d, per microbatch. */
static double stage_time(const struct piper *p, int i, int j, int d)
{
	const struct sb_pipeline_prefix *x = p->x;
	double edge = (i > 0 ? p->m->layer[i - 1].act : 0) + (j + 1 < p->L ? p->m->layer[j].act : 0);
	double W = x->params[j + 1] - x->params[i];
	double comp = p->beta * (x->fwd[j + 1] - x->fwd[i] + x->bwd[j + 1] - x->bwd[i]) / p->speed;
	double sync = 2 * p->beta * edge / d + 4.0 * (d - 1) * W / ((double)d * p->M);
	return (sync > 0 ? sync / p->bw : 0) + comp / d;
}

static int stage_fits(const struct piper *p, int i, int j, int d, int n)
{
	const struct sb_pipeline_prefix *x = p->x;
	int y = (n + d - 1) / d;
	return p->beta * (x->stash[j + 1] - x->stash[i]) * y +
	       p->kappa * (x->params[j + 1] - x->params[i]) <= p->limit;
}

static void solve(struct piper *p)
{
	int L = p->L, N = p->N, i, j, n, d;
	size_t k;
	for (k = 0; k < (size_t)(L + 1) * (N + 1); k++)
		p->best[k] = INFINITY;
	p->best[(size_t)L * (N + 1)] = 0;
	for (i = L - 1; i >= 0; i--)
		for (n = 1; n <= N; n++) {
			size_t e = (size_t)i * (N + 1) + n;
			for (j = i; j < L; j++)
				for (d = 1; d <= n && d <= p->dcap; d++) {
					double rest = p->best[(size_t)(j + 1) * (N + 1) + n - d], v;
					if (rest >= p->best[e] || !stage_fits(p, i, j, d, n))
						continue;
					v = sb_max(rest, stage_time(p, i, j, d));
					if (v < p->best[e]) {
						p->best[e] = v;
						p->cut[e] = j;
						p->deg[e] = d;
					}
				}
		}
}

/* Plan with M microbatches into out; SB_EXIT_RUN when nothing fits. */
static int plan_M(struct piper *p, const struct sb_pipeline_problem *pb,
		  const struct sb_pipeline_schedule *sc, const struct sb_opts *so, int M,
		  struct sb_pipeline_plan *out, struct sb_err *err)
{
	int n, nbest = 0, S = 0, i, s, g = 0, k, rc;
	double opt = INFINITY;

	p->M = M;
	p->beta = pb->batch / M;
	/* a stage holds at most 64 GPUs (sb_pipeline_stage.gpu) */
	p->dcap = (int)sb_min(64, floor(p->beta + 1e-9));
	solve(p);
	for (n = 1; n <= p->N; n++)
		if (p->best[n] < opt) {
			opt = p->best[n];
			nbest = n;
		}
	if (opt == INFINITY)
		return sb_err_set(err, SB_EXIT_RUN, "piper: no stages and data-parallel degrees fit "
				  "%.4g GB per GPU with %d microbatches", pb->topo->mem / 1e9, M);
	for (i = 0, n = nbest; i < p->L; S++) {
		size_t e = (size_t)i * (p->N + 1) + n;
		n -= p->deg[e];
		i = p->cut[e] + 1;
	}
	sb_pipeline_plan_init(out, S, 1);
	out->M = M;
	for (i = 0, n = nbest, s = 0; i < p->L; s++) {
		size_t e = (size_t)i * (p->N + 1) + n;
		struct sb_pipeline_stage *st = &out->st[s];
		st->first = i;
		st->last = p->cut[e];
		st->r = p->deg[e];
		for (k = 0; k < st->r; k++)
			st->gpu[k] = g++;
		n -= p->deg[e];
		i = p->cut[e] + 1;
	}
	sb_pbase_finish(out, pb, "piper", sc);
	rc = sb_pbase_check_mem(out, p->m, p->x, pb->topo, sc, so, err);
	if (rc)
		sb_pipeline_plan_release(out);
	return rc;
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_topo *t = pb->topo;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;
	struct sb_pipeline_prefix x;
	struct piper p;
	int *all, g, M, M0, rc;
	size_t cells;

	(void)o;
	sc = sb_pbase_sched(pb, "1f1b", &so, err);
	if (!sc)
		return SB_EXIT_INPUT;
	if (!(pb->batch >= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "piper: batch %g < 1", pb->batch);
	if (pb->M > pb->batch)
		return sb_err_set(err, SB_EXIT_INPUT, "piper: %d microbatches of a batch of %g "
				  "samples", pb->M, pb->batch);
	memset(&p, 0, sizeof p);
	sb_pipeline_prefix_init(&x, pb->model);
	p.m = pb->model;
	p.x = &x;
	p.L = pb->model->n;
	p.N = t->n;
	p.speed = t->speed > 0 ? t->speed : 1;
	p.kappa = pb->kappa > 0 ? pb->kappa : 2;
	p.limit = sb_pbase_mem_limit(t);
	all = SB_NEW(int, t->n);
	for (g = 0; g < t->n; g++)
		all[g] = g;
	p.bw = sb_pipeline_min_bw(t, all, t->n, all, t->n);
	sb_free(all);
	cells = (size_t)(p.L + 1) * (p.N + 1);
	p.best = SB_NEW(double, cells);
	p.cut = SB_NEW(int, cells);
	p.deg = SB_NEW(int, cells);
	if (pb->M > 0) {
		rc = plan_M(&p, pb, sc, &so, pb->M, out, err);
		goto out;
	}
	g = sb_pbase_divisor_ge(pb->batch, p.N);
	M0 = g ? (int)floor(pb->batch / g + 0.5) : (int)sb_max(1, floor(pb->batch / p.N));
	rc = SB_EXIT_RUN;
	for (M = M0; rc == SB_EXIT_RUN && M <= pb->batch; M++) {
		if (sb_pbase_whole(pb->batch) && (long)floor(pb->batch + 0.5) % M)
			continue;
		rc = plan_M(&p, pb, sc, &so, M, out, err);
	}
	if (rc == SB_EXIT_RUN) {
		sb_err_set(err, rc, "piper: no stages and data-parallel degrees fit %.4g GB per GPU "
			   "under schedule %s with any number of microbatches from %d", t->mem / 1e9,
			   sc->name, M0);
		goto out;
	}
	/* The same stages fit any microbatch of at least their largest degree
	 * at the same time per sample: take the most microbatches that allow
	 * them (Piper's ties, broken towards a shorter fill and drain). */
	{
		struct sb_pipeline_plan more;
		struct sb_err ignored;
		int s, dmax = 1, d, M1;
		M = out->M;
		for (s = 0; s < out->S; s++)
			dmax = out->st[s].r > dmax ? out->st[s].r : dmax;
		d = sb_pbase_divisor_ge(pb->batch, dmax);
		M1 = d ? (int)floor(pb->batch / d + 0.5) : (int)floor(pb->batch / dmax + 1e-9);
		if (M1 > M && plan_M(&p, pb, sc, &so, M1, &more, &ignored) == 0) {
			sb_pipeline_plan_release(out);
			*out = more;
		}
	}
out:
	sb_free(p.best);
	sb_free(p.cut);
	sb_free(p.deg);
	sb_pipeline_prefix_release(&x);
	return rc;
}

const struct sb_pipeline_planner sb_pipeline_planner_piper = {
	.name = "piper",
	.cite = "Tarnawski, Narayanan, Phanishayee, Piper: multidimensional planner for DNN "
		"parallelization, NeurIPS 2021",
	.desc = "DP over prefixes and per-stage data-parallel degrees minimising the slowest "
		"stage's time per sample (chain, t = 1)",
	.provenance = "public code",
	.params = NULL,
	.schedule = "1f1b",
	.plan = plan,
};
