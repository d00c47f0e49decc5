/*
 * pipedream.c - PipeDream's partitioner: a dynamic program over layer
 * ranges and worker counts that minimises the steady-state bottleneck of
 * an asynchronous pipeline whose stages may be replicated, solved level
 * by level over the hardware hierarchy; its plan run synchronously under
 * 1F1B with a flush (DAPPLE's comparison).
 *
 * D. Narayanan, A. Harlap, A. Phanishayee, V. Seshadri, N. R. Devanur,
 * G. R. Ganger, P. B. Gibbons, M. Zaharia, "PipeDream: generalized
 * pipeline parallelism for DNN training", SOSP 2019.
 *
 * Algorithm [V, spec pipeplan.md §4 from the public optimizer]: at one
 * level with n workers of bandwidth BW, A[i][j][m] is the best bottleneck
 * time per minibatch for layers i..j on m+1 workers:
 *   one stage replicated m+1 times: (C_ij + 4 m W_ij / (BW (m+1))) / (m+1);
 *   or layers i..k on m+1-m' workers followed by a last stage k+1..j
 *   replicated m' times:
 *     max(A[i][k][m-m'], (C + 4 (m'-1) W / (BW m')) / m', 2 a_k / (BW m')),
 * C the stage's compute time, W its parameter bytes, a_k the activation
 * crossing the cut (2: forward and backward); a stage is allowed only if
 * its stashed activations and weights times ceil((n - (m+1)) / m') fit a
 * worker's memory. Levels: first the GPUs of one server at the
 * intra-server bandwidth (every range i..j), then the servers at the
 * inter-server bandwidth, where a range costs its optimum on one whole
 * server. The public code applies the activation term only when an
 * activation compression ratio is given, i.e. not by default;
 * code_activation_quirk=1 reproduces that, 0 (default) keeps the term.
 *
 * Our reconstruction [O]:
 *   - bandwidths from the topology: intra = the smallest bandwidth between
 *     two GPUs of one server, inter = the smallest between servers; the
 *     hierarchy needs servers of equal size g > 1 and more than one
 *     server, otherwise one flat level over all GPUs (id order) at the
 *     smallest bandwidth of the topology;
 *   - at the server level a worker's memory is g GPUs' memory;
 *   - mapping: top-level stages on consecutive servers (id order), each
 *     server's sub-pipeline on consecutive GPUs of that server, so a stage
 *     with r GPUs inside a server replicated over m' servers has r m' GPUs;
 *   - PipeDream's runtime feeds whole minibatches round-robin to the
 *     replicas of a stage; our plans split every microbatch over them
 *     (split-concat), which needs at least one sample per replica. With
 *     the problem's M the DP runs at microbatch batch / M and only allows
 *     replications that leave every replica a sample. Without it the DP
 *     runs at the profile's batch size (the minibatch PipeDream plans for;
 *     1 for analytic profiles), and the microbatch is the smallest whole
 *     divisor of the batch that is at least that and at least the largest
 *     replica count;
 *   - the plan must then fit our memory model under the schedule it runs
 *     with (1F1B: S - s microbatches in flight on stage s), else
 *     SB_EXIT_RUN.
 * The synchronous run pays for what PipeDream's objective ignores: the
 * pipeline fill and drain of every iteration and the all-reduce tails.
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "code_activation_quirk", 0, 0, 1, 1, "1: like the public optimizer, ignore the "
	  "activation transfer term (it is only used with a compression ratio); 0: keep it" },
	{ NULL, 0, 0, 0, 0, NULL }
};

/* One level of the hierarchy. Tables are L x L x nw, index ((i L) + j) nw + m. */
struct level {
	int L, nw;
	double bw, memcap;
	int final;            /* only ranges starting at layer 0 are needed */
	int act_term;
	int rcap;             /* most GPUs a stage may have in total (0: no limit) */
	const double *comp;   /* L x L: layers i..j on one worker (INFINITY: impossible) */
	const int *inner_r;   /* L x L: most GPUs of a stage inside one worker's
				 sub-pipeline for i..j (NULL: 1) */
	const struct sb_pipeline_prefix *x;
	const struct sb_pmodel *m;
	double b;             /* samples per minibatch */
	double *A;
	int *split, *mp, *rmax;
};

static size_t at(const struct level *v, int i, int j, int m)
{
	return ((size_t)i * v->L + j) * v->nw + m;
}

/* Stashed bytes PipeDream counts for layers i..j at one minibatch:
 * activations plus weights. */
static double stashed(const struct level *v, int i, int j)
{
	return v->b * (v->x->stash[j + 1] - v->x->stash[i]) + v->x->params[j + 1] - v->x->params[i];
}

static int ceil_div(int a, int b)
{
	return a <= 0 ? 0 : (a + b - 1) / b;
}

static void solve_level(struct level *v)
{
	int L = v->L, nw = v->nw, i, j, k, m, q, ilast = v->final ? 1 : L;
	size_t n = (size_t)L * L * nw, e;

	v->A = SB_NEW(double, n);
	v->split = SB_NEW(int, n);
	v->mp = SB_NEW(int, n);
	v->rmax = SB_NEW(int, n);
	for (e = 0; e < n; e++) {
		v->A[e] = INFINITY;
		v->split[e] = -1;
	}
	for (i = 0; i < ilast; i++) {
		/* one stage i..j replicated on m+1 workers */
		for (j = i; j < L; j++) {
			double C = v->comp[i * L + j], W = v->x->params[j + 1] - v->x->params[i];
			int in = v->inner_r ? v->inner_r[i * L + j] : 1;
			if (C == INFINITY)
				continue;
			for (m = 0; m < nw; m++) {
				if (ceil_div(nw - (m + 1), m + 1) * stashed(v, i, j) > v->memcap)
					continue;
				if (v->rcap && (m + 1) * in > v->rcap)
					continue;
				e = at(v, i, j, m);
				v->A[e] = (C + 4.0 * m * W / (v->bw * (m + 1))) / (m + 1);
				v->mp[e] = m + 1;
				v->rmax[e] = (m + 1) * in;
			}
		}
		/* a pipeline i..k then a last stage k+1..j on q workers */
		for (m = 1; m < nw; m++)
			for (j = i + 1; j < L; j++) {
				size_t ej = at(v, i, j, m);
				for (k = i; k < j; k++) {
					double C = v->comp[(k + 1) * L + j];
					double W = v->x->params[j + 1] - v->x->params[k + 1];
					double act = v->b * v->m->layer[k].act, st;
					int in = v->inner_r ? v->inner_r[(k + 1) * L + j] : 1;
					if (C == INFINITY)
						continue;
					st = stashed(v, k + 1, j);
					for (q = 1; q <= m; q++) {
						size_t ep = at(v, i, k, m - q);
						double last, cand;
						if (v->A[ep] == INFINITY)
							continue;
						if (ceil_div(nw - (m + 1), q) * st > v->memcap)
							continue;
						if (v->rcap && q * in > v->rcap)
							continue;
						last = (C + 4.0 * (q - 1) * W / (v->bw * q)) / q;
						cand = sb_max(v->A[ep], last);
						if (v->act_term)
							cand = sb_max(cand, 2.0 * act / (v->bw * q));
						if (cand < v->A[ej]) {
							v->A[ej] = cand;
							v->split[ej] = k;
							v->mp[ej] = q;
							v->rmax[ej] = v->rmax[ep] > q * in ? v->rmax[ep]
											   : q * in;
						}
					}
				}
			}
	}
}

static void level_release(struct level *v)
{
	sb_free(v->A);
	sb_free(v->split);
	sb_free(v->mp);
	sb_free(v->rmax);
}

/* A stage of one level's solution: layers first..last on `w` workers. */
struct seg {
	int first, last, w;
};

/* The stages of the solution for i..j on m+1 workers, in order; returns
 * how many were appended to out. */
static int unroll(const struct level *v, int i, int j, int m, struct seg *out)
{
	size_t e = at(v, i, j, m);
	int n = 0;
	if (v->split[e] >= 0)
		n = unroll(v, i, v->split[e], m - v->mp[e], out);
	out[n].first = v->split[e] >= 0 ? v->split[e] + 1 : i;
	out[n].last = j;
	out[n].w = v->mp[e];
	return n + 1;
}

/* Equal server sizes g > 1 over more than one server: the two-level
 * hierarchy; returns g, or 0 for one flat level. */
static int hierarchy(const struct sb_topo *t)
{
	int *cnt, k, g, ok = 1;
	if (!t->server || t->nserver < 2)
		return 0;
	cnt = SB_NEW(int, t->nserver);
	for (k = 0; k < t->n; k++)
		cnt[t->server[k]]++;
	g = cnt[0];
	for (k = 1; k < t->nserver; k++)
		ok &= cnt[k] == g;
	sb_free(cnt);
	return ok && g > 1 ? g : 0;
}

/* Smallest bandwidth between GPUs of the same server (same = 1) or of
 * different servers (same = 0). */
static double level_bw(const struct sb_topo *t, int same)
{
	double bw = INFINITY;
	int g, h;
	for (g = 0; g < t->n; g++)
		for (h = 0; h < t->n; h++)
			if (g != h && (t->server[g] == t->server[h]) == same)
				bw = sb_min(bw, t->bw[g * t->n + h]);
	return bw;
}

/*
 * Run the (one- or two-level) DP at minibatch b with replica cap rcap
 * (0: none) and write the plan's stages into out (S and st set, GPUs
 * mapped). 0, or SB_EXIT_RUN when no plan passes PipeDream's memory check
 * or a stage would need more than 64 GPUs.
 */
static int pd_solve(const struct sb_pmodel *m, const struct sb_pipeline_prefix *x,
		    const struct sb_topo *t, double b, int rcap, int act_term,
		    struct sb_pipeline_plan *out, struct sb_err *err)
{
	int L = m->n, g = hierarchy(t), i, j, s, S = 0, rc = 0;
	double speed = t->speed > 0 ? t->speed : 1;
	double *comp = SB_NEW(double, (size_t)L * L);
	int *inner = NULL, *gpus = SB_NEW(int, t->n), ntop;
	struct level lo, hi;
	struct seg *top = SB_NEW(struct seg, L), *sub = SB_NEW(struct seg, L);

	memset(&lo, 0, sizeof lo);
	memset(&hi, 0, sizeof hi);
	for (i = 0; i < L; i++)
		for (j = i; j < L; j++)
			comp[i * L + j] = b * (x->fwd[j + 1] - x->fwd[i] + x->bwd[j + 1] - x->bwd[i]) /
					  speed;
	if (g) {
		lo.L = L;
		lo.nw = g;
		lo.bw = level_bw(t, 1);
		lo.memcap = t->mem;
		lo.act_term = act_term;
		lo.rcap = rcap;
		lo.comp = comp;
		lo.x = x;
		lo.m = m;
		lo.b = b;
		solve_level(&lo);
		/* a range costs its best sub-pipeline on one whole server */
		inner = SB_NEW(int, (size_t)L * L);
		for (i = 0; i < L; i++)
			for (j = i; j < L; j++) {
				size_t e = at(&lo, i, j, g - 1);
				comp[i * L + j] = lo.A[e];
				inner[i * L + j] = lo.A[e] < INFINITY ? lo.rmax[e] : 1;
			}
		hi.nw = t->nserver;
		hi.bw = level_bw(t, 0);
		hi.memcap = t->mem * g;
		hi.inner_r = inner;
	} else {
		hi.nw = t->n;
		for (i = 0; i < t->n; i++)
			gpus[i] = i;
		hi.bw = sb_pipeline_min_bw(t, gpus, t->n, gpus, t->n);
		hi.memcap = t->mem;
	}
	hi.L = L;
	hi.final = 1;
	hi.act_term = act_term;
	hi.rcap = rcap;
	hi.comp = comp;
	hi.x = x;
	hi.m = m;
	hi.b = b;
	solve_level(&hi);
	if (hi.A[at(&hi, 0, L - 1, hi.nw - 1)] == INFINITY) {
		rc = sb_err_set(err, SB_EXIT_RUN, "pipedream: no partition over %d %s passes "
				"PipeDream's memory check (%.4g GB per GPU) at minibatch %g", hi.nw,
				g ? "servers" : "GPUs", t->mem / 1e9, b);
		goto out;
	}
	ntop = unroll(&hi, 0, L - 1, hi.nw - 1, top);
	for (s = 0; s < ntop; s++)
		S += g ? unroll(&lo, top[s].first, top[s].last, g - 1, sub) : 1;
	sb_pipeline_plan_init(out, S, 1);
	S = 0;
	{
		int srv = 0, gpu = 0;   /* next free server (hierarchy) or GPU (flat) */
		for (s = 0; s < ntop; s++) {
			int nsub = 1, q, pos = 0, k, c;
			if (g) {
				nsub = unroll(&lo, top[s].first, top[s].last, g - 1, sub);
			} else {
				sub[0] = top[s];
				sub[0].w = 1;
			}
			for (q = 0; q < nsub; q++) {
				struct sb_pipeline_stage *st = &out->st[S++];
				int r = sub[q].w * top[s].w;
				if (r > 64) {
					rc = sb_err_set(err, SB_EXIT_RUN, "pipedream: a stage on %d GPUs "
							"(plans hold at most 64 per stage)", r);
					sb_pipeline_plan_release(out);
					goto out;
				}
				st->first = sub[q].first;
				st->last = sub[q].last;
				st->r = r;
				if (!g) {
					for (k = 0; k < r; k++)
						st->gpu[k] = gpu + k;
					continue;
				}
				for (c = 0; c < top[s].w; c++) {
					sb_pbase_server_gpus(t, srv + c, gpus);
					for (k = 0; k < sub[q].w; k++)
						st->gpu[c * sub[q].w + k] = gpus[pos + k];
				}
				pos += sub[q].w;
			}
			if (g)
				srv += top[s].w;
			else
				gpu += top[s].w;
		}
	}
out:
	level_release(&lo);
	level_release(&hi);
	sb_free(comp);
	sb_free(inner);
	sb_free(gpus);
	sb_free(top);
	sb_free(sub);
	return rc;
}

/* Plan at minibatch b with replica cap rcap, run with M microbatches
 * (M = 0: derived from the plan's replication, see the header); fits
 * our memory model under sc, else SB_EXIT_RUN and out released. */
static int try_plan(const struct sb_pipeline_problem *pb, const struct sb_pipeline_prefix *x,
		    const struct sb_pipeline_schedule *sc, const struct sb_opts *so, double b, int rcap,
		    int M, int act_term, struct sb_pipeline_plan *out, struct sb_err *err)
{
	int rc = pd_solve(pb->model, x, pb->topo, b, rcap, act_term, out, err), s, rmax = 1, d;
	double want;
	if (rc)
		return rc;
	if (M == 0) {
		for (s = 0; s < out->S; s++)
			rmax = out->st[s].r > rmax ? out->st[s].r : rmax;
		want = sb_max(b, rmax);
		d = sb_pbase_divisor_ge(pb->batch, (int)ceil(want - 1e-9));
		M = d ? (int)floor(pb->batch / d + 0.5) : (int)floor(pb->batch / want + 1e-9);
		if (M < 1) {
			sb_pipeline_plan_release(out);
			return sb_err_set(err, SB_EXIT_RUN, "pipedream: the plan replicates a stage "
					  "%d times, more than the batch of %g samples", rmax,
					  pb->batch);
		}
	}
	out->M = M;
	sb_pbase_finish(out, pb, "pipedream", sc);
	rc = sb_pbase_check_mem(out, pb->model, x, pb->topo, sc, so, err);
	if (rc)
		sb_pipeline_plan_release(out);
	return rc;
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;
	struct sb_pipeline_prefix x;
	struct sb_err first;
	int act_term = !(int)sb_opts_get(o, "code_activation_quirk"), M, rc;
	double b;

	sc = sb_pbase_sched(pb, "1f1b", &so, err);
	if (!sc)
		return SB_EXIT_INPUT;
	if (!(pb->batch >= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "pipedream: batch %g < 1", pb->batch);
	if (pb->M > pb->batch)
		return sb_err_set(err, SB_EXIT_INPUT, "pipedream: %d microbatches of a batch of %g "
				  "samples", pb->M, pb->batch);
	sb_pipeline_prefix_init(&x, m);
	if (pb->M > 0) {
		b = pb->batch / pb->M;
		rc = try_plan(pb, &x, sc, &so, b, (int)floor(b + 1e-9), pb->M, act_term, out, err);
		goto out;
	}
	b = sb_min(m->pbs > 1 ? m->pbs : 1, pb->batch);
	rc = try_plan(pb, &x, sc, &so, b, 0, 0, act_term, out, &first);
	/* PipeDream's own plan does not fit under the flush: more, smaller
	 * microbatches (each planned with the replicas it allows) */
	for (M = 1; rc == SB_EXIT_RUN && M <= pb->batch; M++) {
		if (sb_pbase_whole(pb->batch) && (long)floor(pb->batch + 0.5) % M)
			continue;
		b = pb->batch / M;
		rc = try_plan(pb, &x, sc, &so, b, (int)floor(b + 1e-9), M, act_term, out, err);
	}
	if (rc == SB_EXIT_RUN)
		sb_err_set(err, rc, "%s; nor does any other number of microbatches", first.msg);
out:
	sb_pipeline_prefix_release(&x);
	return rc;
}

const struct sb_pipeline_planner sb_pipeline_planner_pipedream = {
	.name = "pipedream",
	.cite = "Narayanan et al., PipeDream: generalized pipeline parallelism for DNN "
		"training, SOSP 2019",
	.desc = "hierarchical DP over layer ranges and replicated stages (steady-state "
		"bottleneck), run synchronously",
	.provenance = "public code",
	.params = params,
	.schedule = "1f1b",
	.plan = plan,
};
