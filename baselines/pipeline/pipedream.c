/*
 * pipedream.c - PipeDream's partitioner: a dynamic program over the
 * antichain states of the operator graph and worker counts that minimises
 * the steady-state bottleneck of an asynchronous pipeline whose stages may
 * be replicated, solved level by level over the hardware hierarchy; its
 * plan run synchronously under 1F1B with a flush (DAPPLE's comparison).
 *
 * D. Narayanan, A. Harlap, A. Phanishayee, V. Seshadri, N. R. Devanur,
 * G. R. Ganger, P. B. Gibbons, M. Zaharia, "PipeDream: generalized
 * pipeline parallelism for DNN training", SOSP 2019.
 *
 * Objective [V, code: msr-fiddle/pipedream optimizer/optimizer_graph_
 * hierarchical.py compute_partitioning, read, not copied; spec pipeplan.md
 * §4]: states 0..N-1 are the antichains of the graph in upstream's
 * topological order (pipeline/antichain.c), C, P, Act their cumulative
 * compute, parameter and activation sums at one minibatch of b samples,
 * and a range (r, j) holds states r..j (C[j] - C[r-1], also when state
 * r-1 does not precede j: upstream's arithmetic, kept). At one level of
 * n workers with bandwidth BW, each worker being d workers of the level
 * below (d = 1 at the lowest level), A[r][j][m] is the best bottleneck for
 * range (r, j) on m+1 workers:
 *   one stage replicated m+1 times: (C + 4 m P / (BW (m+1)) / d) / (m+1);
 *   a pipeline (r, k) on m+1-m' workers, then a last stage (k+1, j) on m'
 *   workers, for every k preceding j in the antichain DAG (and, above row
 *   0, not preceding r-1):
 *     max(A[r][k][m-m'], (C + 4 (m'-1) P / (BW m')) / m')
 *   - note the division by d only in the first case, as upstream;
 *   - with an activation compression ratio c (upstream's default: none)
 *     also max(2 Out[k] / (BW m' c), 2 Out[j] / (BW m' c)) (the second
 *     unless j is the last state), Out the augmented antichain's output;
 *   - with the memory constraint (upstream's --use_memory_constraint, off
 *     by default) a stage is allowed only if (Act + P) of its range times
 *     ceil((n - (m+1)) / m') fits one GPU's memory, at every level.
 * Levels: the GPUs of one server (intra-server bandwidth, every row r),
 * then the servers (inter-server bandwidth, row 0), where a range costs
 * its optimum on one whole server. The objective, upstream's "time per
 * stage in pipeline", is A[0][N-1][n-1] of the top level: seconds per
 * minibatch of b samples, printed by sb eval pipeline.
 *
 * Our reconstruction [O]:
 *   - bandwidths from the topology: intra = the smallest bandwidth between
 *     two GPUs of one server, inter = the smallest between servers; the
 *     hierarchy needs servers of equal size g > 1 and more than one
 *     server, otherwise one flat level over all GPUs (id order) at the
 *     smallest bandwidth of the topology (--topo SxG:INTRA:INTER builds
 *     PipeDream's -n G S -b INTRA INTER);
 *   - mapping: top-level stages on consecutive servers (id order), each
 *     server's sub-pipeline on consecutive GPUs of that server, so a stage
 *     with r GPUs inside a server replicated over m' servers has r m' GPUs;
 *   - the plan's stages are the differences of the chosen states' down-
 *     sets, accumulated (a union, so that a range whose start does not
 *     precede its end still yields disjoint stages; an empty stage is
 *     dropped and its GPUs stay idle); nodes upstream never reaches
 *     (another weakly connected component) join the last stage. When every
 *     cut is a cut of the loaded chain the plan indexes the chain's
 *     layers; otherwise it carries the same graph linearised along its
 *     own cuts (one layer per stage, cut activations = the tensors that
 *     cross the cut), plan->model;
 *   - a graph with more antichain states than PD_MAX_STATES_* (DAPPLE's
 *     GNMT-32: more than 100000) is cut at the loaded chain's states;
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
 *     with (1F1B: S - s microbatches in flight on stage s); when it does
 *     not, the DP runs again with upstream's memory constraint (what a
 *     PipeDream user would do), then (M chosen by the planner) with more,
 *     smaller microbatches; else SB_EXIT_RUN.
 * ours_chain=1 is our variant before issue #11 (reconstruction, labelled
 * as such): states = the loaded chain's layers only, no division by d,
 * the input activation term always (uncompressed), the memory constraint
 * always, a server's memory = g GPUs'. Scored with upstream's objective,
 * issue #11 found 4 of its 10 two-level plans worse than upstream's (up to
 * +75%) and one flat plan +0.55% (a cut off the chain).
 * The synchronous run pays for what PipeDream's objective ignores: the
 * pipeline fill and drain of every iteration and the all-reduce tails.
 */
#include "pbase_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const struct sb_param params[] = {
	{ "activation_compression_ratio", 0, 0, 1e6, 0, "upstream's --activation_compression_"
	  "ratio: > 0 adds the activation transfer terms divided by it; 0 (upstream's "
	  "default): no activation term" },
	{ "memory_constraint", 0, 0, 1, 1, "1: upstream's --use_memory_constraint with the "
	  "GPUs' memory; 0 (upstream's default): none, and only when the plan does not fit "
	  "our memory model, again with it" },
	{ "ours_chain", 0, 0, 1, 1, "1: our variant before issue #11 (reconstruction): the "
	  "loaded chain only, no per-server division, input activation term and memory "
	  "check always" },
	{ NULL, 0, 0, 0, 0, NULL }
};

/* Most antichain states planned for: flat levels keep O(N) rows, two
 * levels an (N+1) x N table of the lower level's optima. */
#define PD_MAX_STATES_FLAT 20000
#define PD_MAX_STATES_TWO 4096
/* Most doubles of the lower level's precomputed pair terms (128 MB). */
#define PD_MAX_PAIR_TERMS ((size_t)1 << 24)

/* One cell of a DP row: the best time of range (r, j) on m+1 workers. */
struct cell {
	double t;      /* INFINITY: none */
	int k;         /* last split state, -1: one replicated stage */
	int mleft;     /* workers left to (r, k), as an index m */
	int mp;        /* workers of the last stage */
	int rmax;      /* most GPUs of one stage in this solution */
};

struct pd {
	const struct sb_pipeline_states *st;
	int N;
	double b, speed;
	double ratio;         /* activation compression ratio, 0: no term */
	int ours;             /* our variant: input activation term only */
	int rcap;             /* most GPUs a stage may have in total (0: none) */
};

/* One level of the hierarchy. */
struct level {
	int nw;
	double bw, d, memcap; /* memcap 0: no memory constraint */
	int final;
	const double *comp;   /* (N+1) x N from the level below, NULL: states */
	const int *inner;     /* (N+1) x N most GPUs of a stage inside a range */
	const double *pair;   /* per ancestor pair e (k, j): pair_terms(), nw
			       * each, or NULL: computed in solve_row */
};

/* Cumulative sums of range (r, j): C, P or Act (INFINITY: j < r). */
static double range(const struct pd *d, const double *cum, int r, int j, double scale)
{
	if (j < r)
		return INFINITY;
	return scale * (r == 0 ? cum[j] : cum[j] - cum[r - 1]);
}

static double range_comp(const struct pd *d, const struct level *v, int r, int j)
{
	if (v->comp)
		return j < r ? INFINITY : v->comp[(size_t)r * d->N + j];
	/* upstream subtracts cumulative seconds; so do we, per sample x b */
	return j < r ? INFINITY : d->b * (r == 0 ? d->st->comp[j]
				     : d->st->comp[j] - d->st->comp[r - 1]) / d->speed;
}

static int range_inner(const struct pd *d, const struct level *v, int r, int j)
{
	return v->inner ? v->inner[(size_t)r * d->N + j] : 1;
}

static double ceil_ratio(int a, int q)
{
	return a <= 0 ? 0 : ceil((double)a / q);
}

/* The terms of a last stage (k+1, j) that do not depend on the row r:
 * out[q] for q = 1 .. nw-1 its time on q workers, out[0] its (act + P)
 * for the memory test, or INFINITY when the range is empty. The lower
 * level is solved for every row, so solve_plan computes these once per
 * pair (level.pair); the arithmetic is the same either way. */
static void pair_terms(const struct pd *d, const struct level *v, int k, int j, double *out)
{
	const struct sb_pipeline_states *st = d->st;
	double C = range_comp(d, v, k + 1, j), P, act, Ok, Oj;
	int in, q, N = d->N;

	out[0] = INFINITY;
	if (C == INFINITY)
		return;
	P = range(d, st->params, k + 1, j, 1);
	act = range(d, st->stash, k + 1, j, d->b);
	in = range_inner(d, v, k + 1, j);
	Ok = d->b * st->out_act[k];
	Oj = d->b * st->out_act[j];
	out[0] = act + P;
	for (q = 1; q < v->nw; q++) {
		double last = (C + 4.0 * (q - 1) * P / (v->bw * q)) / q;
		if (d->ours) {
			last = sb_max(last, 2.0 * Ok / (v->bw * q));
		} else if (d->ratio > 0) {
			last = sb_max(last, 2.0 * Ok / (v->bw * q) / d->ratio);
			if (j < N - 1)
				last = sb_max(last, 2.0 * Oj / (v->bw * q) / d->ratio);
		}
		if (d->rcap && q * in > d->rcap)
			last = INFINITY;
		out[q] = last;
	}
}

/* Row r of one level into row[j * nw + m]. */
static void solve_row(const struct pd *d, const struct level *v, int r, struct cell *row)
{
	const struct sb_pipeline_states *st = d->st;
	int N = d->N, nw = v->nw, j, m, k, q, e;
	double *buf;

	for (e = 0; e < N * nw; e++) {
		row[e].t = INFINITY;
		row[e].k = -1;
	}
	for (j = r; j < N; j++) {
		double C = range_comp(d, v, r, j), P = range(d, st->params, r, j, 1);
		double act = range(d, st->stash, r, j, d->b);
		int in = range_inner(d, v, r, j);
		if (C == INFINITY)
			continue;
		for (m = 0; m < nw; m++) {
			struct cell *c = &row[j * nw + m];
			double dp;
			if (v->memcap > 0 && ceil_ratio(nw - (m + 1), m + 1) * (act + P) > v->memcap)
				continue;
			if (d->rcap && (m + 1) * in > d->rcap)
				continue;
			dp = 4.0 * m * P / (v->bw * (m + 1)) / v->d;
			c->t = (C + dp) / (m + 1);
			c->mp = m + 1;
			c->rmax = (m + 1) * in;
		}
	}
	if (v->final && r > 0)
		return;
	buf = SB_NEW(double, nw + 1);
	/* Upstream loops m, j, k, m'; for one (j, m) the candidates come in
	 * the same (k, m') order with j outermost, and every row[k] (k < j)
	 * is final by then, so this order gives the same optimum and the same
	 * ties, with the per-(j, k) terms computed once. */
	for (j = r + 1; j < N; j++) {
		int lo = st->anc_off[j], hi = st->anc_off[j + 1];
		while (lo < hi) { /* the first ancestor k >= r (ascending list) */
			int mid = lo + (hi - lo) / 2;
			if (st->anc_idx[mid] < r)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (e = lo; e < st->anc_off[j + 1]; e++) {
			const double *lastq;
			double actp;
			int in;
			k = st->anc_idx[e];
			/* upstream also skips the k preceding state r-1; they come
			 * before r - 1 in the topological order, so k >= r already
			 * excludes them */
			if (v->pair) {
				lastq = v->pair + (size_t)e * nw;
			} else {
				pair_terms(d, v, k, j, buf);
				lastq = buf;
			}
			actp = lastq[0];
			if (actp == INFINITY)
				continue;
			in = range_inner(d, v, k + 1, j);
			for (m = 1; m < nw; m++) {
				struct cell *best = &row[j * nw + m];
				for (q = 1; q <= m; q++) {
					const struct cell *prev = &row[k * nw + m - q];
					double pt;
					/* the candidate is max(prev, last), taken only when
					 * below best: skip before the memory test */
					if (!(lastq[q] < best->t) || !(prev->t < best->t))
						continue;
					if (v->memcap > 0 &&
					    actp * ceil_ratio(nw - (m + 1), q) > v->memcap)
						continue;
					pt = sb_max(prev->t, lastq[q]);
					if (best->t > pt) {
						best->t = pt;
						best->k = k;
						best->mleft = m - q;
						best->mp = q;
						best->rmax = prev->rmax > q * in ? prev->rmax : q * in;
					}
				}
			}
		}
	}
	sb_free(buf);
}

/* A stage of one level's solution: states (r, j) on w workers. */
struct seg {
	int r, j, w;
};

/* The stages of row r's solution for (r, j) on m+1 workers, in order. */
static int unroll(const struct cell *row, int nw, int r, int j, int m, struct seg *out)
{
	const struct cell *c = &row[j * nw + m];
	int n = 0;
	if (c->k >= 0)
		n = unroll(row, nw, r, c->k, c->mleft, out);
	out[n].r = c->k >= 0 ? c->k + 1 : r;
	out[n].j = j;
	out[n].w = c->mp;
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

/* ------------------------------------------------------------------ */
/* From the chosen states to a plan                                    */
/* ------------------------------------------------------------------ */

/* Last chain layer of node set U when U is a prefix of the chain, else -1
 * (layer_of NULL: nodes are layers). */
static int chain_cut(const unsigned char *U, int nn, const int *layer_of)
{
	int v, top = -1, ok = 1;
	for (v = 0; v < nn; v++)
		if (U[v]) {
			int l = layer_of ? layer_of[v] : v;
			top = l > top ? l : top;
		}
	for (v = 0; v < nn && ok; v++)
		ok = !!U[v] == ((layer_of ? layer_of[v] : v) <= top);
	return ok ? top : -1;
}

/* The graph linearised along the stages: layer s = the nodes of stage s
 * (owner[v] = s). */
static struct sb_pmodel *stage_model(const struct sb_pmodel *m, const struct sb_pgraph *g,
				     const int *owner, int S)
{
	struct sb_pmodel *o = SB_NEW(struct sb_pmodel, 1);
	int v, k, s;
	snprintf(o->name, sizeof o->name, "%s", m->name);
	snprintf(o->source, sizeof o->source, "%.200s, cut by pipedream", m->source);
	o->pbs = m->pbs;
	o->n = S;
	o->layer = SB_NEW(struct sb_layer, S);
	for (s = 0; s < S; s++)
		snprintf(o->layer[s].name, sizeof o->layer[s].name, "pipedream stage %d", s);
	for (v = 0; v < g->n; v++) {
		struct sb_layer *l = &o->layer[owner[v]];
		int crosses = 0, sink = g->off[v] == g->off[v + 1];
		l->fwd += g->fwd[v];
		l->bwd += g->bwd[v];
		l->stash += g->act[v];
		l->params += g->params[v];
		for (k = g->off[v]; k < g->off[v + 1]; k++)
			crosses |= owner[g->succ[k]] > owner[v];
		/* the tensors crossing the cut after the stage; the last
		 * stage's outputs are its sinks' */
		if (crosses || (sink && owner[v] == S - 1))
			l->act += g->act[v];
	}
	return o;
}

/*
 * Turn the ordered cuts (state j of every stage, GPUs per stage) into
 * out->st and, when needed, out->model. cut_state[s], nrep[s] for s < S.
 */
static int build_stages(const struct sb_pmodel *m, const struct sb_pipeline_states *st,
			int use_graph, const int *cut_state, int S, struct sb_pipeline_plan *out,
			int **keep_out)
{
	const struct sb_pgraph *g = use_graph ? m->graph : NULL;
	int nn = st->nodes, s, v, n = 0, on_path = 1;
	unsigned char *U = SB_NEW(unsigned char, nn);
	int *owner = SB_NEW(int, nn), *last = SB_NEW(int, S), *keep = SB_NEW(int, S);

	for (v = 0; v < nn; v++)
		owner[v] = -1;
	for (s = 0; s < S; s++) {
		int added = 0;
		for (v = 0; v < nn; v++)
			if (!U[v] && (sb_pipeline_states_has(st, cut_state[s], v) ||
				      s == S - 1)) {
				U[v] = 1;
				owner[v] = n;
				added = 1;
			}
		keep[s] = added;
		if (!added)
			continue;
		last[n] = chain_cut(U, nn, g ? g->layer : NULL);
		on_path &= last[n] >= 0;
		n++;
	}
	sb_pipeline_plan_init(out, n, 1);
	if (!on_path) {
		out->model = stage_model(m, g, owner, n);
		for (s = 0; s < n; s++)
			last[s] = s;
	}
	for (s = 0; s < n; s++) {
		out->st[s].first = s ? last[s - 1] + 1 : 0;
		out->st[s].last = last[s];
	}
	sb_free(U);
	sb_free(owner);
	sb_free(last);
	*keep_out = keep;
	return n;
}

/*
 * Run the (one- or two-level) DP at minibatch b with replica cap rcap
 * (0: none) and write the plan's stages into out (S, st, GPUs, objective
 * set). 0, or SB_EXIT_RUN when no plan passes the memory constraint, the
 * graph has too many states, or a stage would need more than 64 GPUs.
 */
static int pd_solve(const struct sb_pmodel *m, const struct sb_pipeline_states *sts,
		    int use_graph, const struct sb_topo *t, const struct sb_opts *o, double b,
		    int rcap, struct sb_pipeline_plan *out, struct sb_err *err)
{
	int ours = (int)sb_opts_get(o, "ours_chain"), memc = (int)sb_opts_get(o, "memory_constraint");
	int g = hierarchy(t), N, r, j, s, rc = 0, S = 0, ntop;
	int *keep = NULL;
	const struct sb_pipeline_states st = *sts;
	struct pd d;
	struct level lo, hi;
	struct cell *row = NULL, *top = NULL;
	double *U = NULL, *pair = NULL;
	int *inner = NULL, *cut = NULL, *nrep = NULL, *gpus = SB_NEW(int, t->n);
	struct seg *tops = NULL, *sub = NULL;

	N = st.n;
	memset(&d, 0, sizeof d);
	d.st = &st;
	d.N = N;
	d.b = b;
	d.speed = t->speed > 0 ? t->speed : 1;
	d.ratio = sb_opts_get(o, "activation_compression_ratio");
	d.ours = ours;
	d.rcap = rcap;
	memset(&lo, 0, sizeof lo);
	memset(&hi, 0, sizeof hi);
	hi.final = 1;
	hi.d = 1;
	if (g) {
		lo.nw = g;
		lo.bw = level_bw(t, 1);
		lo.d = 1;
		lo.memcap = ours || memc ? t->mem : 0;
		/* the lower level's pair terms, once for its N+1 rows (2.3 M
		 * doubles for GNMT-16's 1,495 states; up to PD_MAX_PAIR_TERMS,
		 * else computed in every row as the top level does) */
		if ((size_t)st.anc_off[N] * g <= PD_MAX_PAIR_TERMS) {
			pair = SB_NEW(double, (size_t)st.anc_off[N] * g + 1);
			for (j = 0; j < N; j++)
				for (s = st.anc_off[j]; s < st.anc_off[j + 1]; s++)
					pair_terms(&d, &lo, st.anc_idx[s], j, pair + (size_t)s * g);
			lo.pair = pair;
		}
		/* every row of the lower level: a range's optimum on one server */
		U = SB_NEW(double, (size_t)(N + 1) * N);
		inner = SB_NEW(int, (size_t)(N + 1) * N);
		row = SB_NEW(struct cell, (size_t)N * g);
		for (r = 0; r <= N; r++) {
			if (r < N)
				solve_row(&d, &lo, r, row);
			for (j = 0; j < N; j++) {
				const struct cell *c = &row[j * g + g - 1];
				int ok = r < N && j >= r && c->t < INFINITY;
				U[(size_t)r * N + j] = ok ? c->t : INFINITY;
				inner[(size_t)r * N + j] = ok ? c->rmax : 1;
			}
		}
		hi.nw = t->nserver;
		hi.bw = level_bw(t, 0);
		hi.d = ours ? 1 : g;
		hi.memcap = ours ? t->mem * g : (memc ? t->mem : 0);
		hi.comp = U;
		hi.inner = inner;
	} else {
		for (j = 0; j < t->n; j++)
			gpus[j] = j;
		hi.nw = t->n;
		hi.bw = sb_pipeline_min_bw(t, gpus, t->n, gpus, t->n);
		hi.memcap = ours || memc ? t->mem : 0;
	}
	top = SB_NEW(struct cell, (size_t)N * hi.nw);
	solve_row(&d, &hi, 0, top);
	if (top[(N - 1) * hi.nw + hi.nw - 1].t == INFINITY) {
		rc = sb_err_set(err, SB_EXIT_RUN, "pipedream: no partition over %d %s passes "
				"PipeDream's memory check (%.4g GB per GPU) at minibatch %g", hi.nw,
				g ? "servers" : "GPUs", t->mem / 1e9, b);
		goto out;
	}
	tops = SB_NEW(struct seg, N);
	sub = SB_NEW(struct seg, N);
	ntop = unroll(top, hi.nw, 0, N - 1, hi.nw - 1, tops);
	/* the cut states of every (sub-)stage in order, with its GPUs per
	 * server (nrep) and servers (top w) */
	cut = SB_NEW(int, N * (g ? g : 1) + 1);
	nrep = SB_NEW(int, N * (g ? g : 1) + 1);
	{
		int *topw = SB_NEW(int, N * (g ? g : 1) + 1), *topi = SB_NEW(int, N * (g ? g : 1) + 1);
		int n, q, srv = 0, gpu = 0, S2 = 0, pos = 0, prev_top = -1, i;
		for (s = 0; s < ntop; s++) {
			if (g) {
				solve_row(&d, &lo, tops[s].r, row);
				n = unroll(row, g, tops[s].r, tops[s].j, g - 1, sub);
			} else {
				sub[0] = tops[s];
				sub[0].w = 1;
				n = 1;
			}
			for (q = 0; q < n; q++) {
				cut[S] = sub[q].j;
				nrep[S] = sub[q].w;
				topw[S] = tops[s].w;
				topi[S] = s;
				S++;
			}
		}
		S2 = build_stages(m, &st, use_graph, cut, S, out, &keep);
		out->objective = top[(N - 1) * hi.nw + hi.nw - 1].t;
		out->objective_batch = b;
		for (i = 0, q = 0; i < S; i++) {
			struct sb_pipeline_stage *sp;
			int rr = nrep[i] * topw[i], c, k;
			if (topi[i] != prev_top) {
				if (prev_top >= 0) {
					if (g)
						srv += tops[prev_top].w;
					else
						gpu += tops[prev_top].w;
				}
				prev_top = topi[i];
				pos = 0;
			}
			if (!keep[i]) {
				pos += nrep[i];
				continue;
			}
			sp = &out->st[q++];
			if (rr > 64) {
				rc = sb_err_set(err, SB_EXIT_RUN, "pipedream: a stage on %d GPUs "
						"(plans hold at most 64 per stage)", rr);
				sb_pipeline_plan_release(out);
				sb_free(topw);
				sb_free(topi);
				goto out;
			}
			sp->r = rr;
			if (!g) {
				for (k = 0; k < rr; k++)
					sp->gpu[k] = gpu + k;
				continue;
			}
			for (c = 0; c < topw[i]; c++) {
				sb_pbase_server_gpus(t, srv + c, gpus);
				for (k = 0; k < nrep[i]; k++)
					sp->gpu[c * nrep[i] + k] = gpus[pos + k];
			}
			pos += nrep[i];
		}
		SB_ASSERT(q == S2);
		sb_free(topw);
		sb_free(topi);
	}
out:
	sb_free(row);
	sb_free(top);
	sb_free(U);
	sb_free(pair);
	sb_free(inner);
	sb_free(cut);
	sb_free(nrep);
	sb_free(gpus);
	sb_free(tops);
	sb_free(sub);
	sb_free(keep);
	return rc;
}

/* Plan at minibatch b with replica cap rcap, run with M microbatches
 * (M = 0: derived from the plan's replication, see the header); fits
 * our memory model under sc, else SB_EXIT_RUN and out released. */
static int try_plan(const struct sb_pipeline_problem *pb, const struct sb_pipeline_states *st,
		    int use_graph, const struct sb_opts *o, const struct sb_pipeline_schedule *sc,
		    const struct sb_opts *so, double b, int rcap, int M,
		    struct sb_pipeline_plan *out, struct sb_err *err)
{
	int rc = pd_solve(pb->model, st, use_graph, pb->topo, o, b, rcap, out, err), s, rmax = 1, d;
	struct sb_pipeline_prefix x;
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
	sb_pipeline_prefix_init(&x, sb_pipeline_plan_model(out, pb->model));
	rc = sb_pbase_check_mem(out, sb_pipeline_plan_model(out, pb->model), &x, pb->topo, sc, so,
				err);
	sb_pipeline_prefix_release(&x);
	if (rc)
		sb_pipeline_plan_release(out);
	return rc;
}

/* try_plan, and when its plan does not fit our memory model under the
 * flush, again with upstream's memory constraint (what a PipeDream user
 * whose plan runs out of memory does) unless it was on already. */
static int attempt(const struct sb_pipeline_problem *pb, const struct sb_pipeline_states *st,
		   int use_graph, const struct sb_opts *o, const struct sb_pipeline_schedule *sc,
		   const struct sb_opts *so, double b, int rcap, int M,
		   struct sb_pipeline_plan *out, struct sb_err *err)
{
	struct sb_opts mc = *o;
	int rc = try_plan(pb, st, use_graph, o, sc, so, b, rcap, M, out, err);
	if (rc != SB_EXIT_RUN || sb_opts_get(o, "memory_constraint") > 0)
		return rc;
	if (sb_opts_set(&mc, params, "memory_constraint=1", "pipedream", err))
		return SB_EXIT_RUN;
	return try_plan(pb, st, use_graph, &mc, sc, so, b, rcap, M, out, err);
}

static int plan(const struct sb_pipeline_problem *pb, const struct sb_opts *o,
		struct sb_pipeline_plan *out, struct sb_err *err)
{
	const struct sb_pmodel *m = pb->model;
	const struct sb_pipeline_schedule *sc;
	struct sb_opts so;
	struct sb_pipeline_states st;
	struct sb_err first;
	int use_graph = !(int)sb_opts_get(o, "ours_chain") && m->graph, M, rc;
	double b;

	sc = sb_pbase_sched(pb, "1f1b", &so, err);
	if (!sc)
		return SB_EXIT_INPUT;
	if (!(pb->batch >= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "pipedream: batch %g < 1", pb->batch);
	if (pb->M > pb->batch)
		return sb_err_set(err, SB_EXIT_INPUT, "pipedream: %d microbatches of a batch of %g "
				  "samples", pb->M, pb->batch);
	rc = sb_pipeline_states_build(m, use_graph, hierarchy(pb->topo) ? PD_MAX_STATES_TWO
				      : PD_MAX_STATES_FLAT, &st, err);
	if (rc == SB_EXIT_RUN && use_graph) {
		/* antichains grow exponentially with the graph's width
		 * (DAPPLE's GNMT-32 has more than 100000; upstream's Python
		 * never finishes on it): the loaded chain's cuts instead */
		use_graph = 0;
		rc = sb_pipeline_states_build(m, 0, PD_MAX_STATES_FLAT, &st, err);
	}
	if (rc)
		return rc;
	if (pb->M > 0) {
		b = pb->batch / pb->M;
		rc = attempt(pb, &st, use_graph, o, sc, &so, b, (int)floor(b + 1e-9), pb->M, out, err);
		goto out;
	}
	b = sb_min(m->pbs > 1 ? m->pbs : 1, pb->batch);
	rc = attempt(pb, &st, use_graph, o, sc, &so, b, 0, 0, out, &first);
	/* PipeDream's own plan does not fit under the flush: more, smaller
	 * microbatches (each planned with the replicas it allows) */
	for (M = 1; rc == SB_EXIT_RUN && M <= pb->batch; M++) {
		if (sb_pbase_whole(pb->batch) && (long)floor(pb->batch + 0.5) % M)
			continue;
		b = pb->batch / M;
		rc = attempt(pb, &st, use_graph, o, sc, &so, b, (int)floor(b + 1e-9), M, out, err);
	}
	if (rc == SB_EXIT_RUN)
		sb_err_set(err, rc, "%s; nor does any other number of microbatches", first.msg);
out:
	sb_pipeline_states_release(&st);
	return rc;
}

const struct sb_pipeline_planner sb_pipeline_planner_pipedream = {
	.name = "pipedream",
	.cite = "Narayanan et al., PipeDream: generalized pipeline parallelism for DNN "
		"training, SOSP 2019",
	.desc = "hierarchical DP over antichain states and replicated stages (steady-state "
		"bottleneck, upstream's objective), run synchronously",
	.provenance = "public code (ours_chain=1: reconstruction)",
	.params = params,
	.schedule = "1f1b",
	.plan = plan,
};
