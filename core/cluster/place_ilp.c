/*
 * place_ilp.c - the placement ILP of the cluster family: the minimum
 * weighted cut of placing one job's workers on servers with given free
 * GPUs (solved with GLPK). Spec asrpt.md §7.4; all of it is our
 * benchmark design [O], not the paper's (see cluster/bound.h).
 *
 * Placement ILP (§7.4) as written, with weights divided by the largest
 * (conditioning; the cut is recomputed from the placement), classes of
 * servers with equal free counts (a worker v may use only the first v + 1
 * servers of a class: relabel each class by smallest worker), a fill in
 * worker order as the first incumbent, and the trivial case (one server
 * holds every worker: cut 0) answered without GLPK. By default the
 * equivalent model without server labels is solved (place_rep below); the
 * spec's model (place_z) is kept for cross-checks.
 *
 * GLPK only through lp.h, with deterministic limits (subproblems) and a
 * wall-time limit of SB_CLB_TIME_LIMIT as a safety net only; statuses are
 * reported as GLPK gave them. ILP settings and the row buffer come from
 * boundutil.h.
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Placement ILP                                                       */
/* ------------------------------------------------------------------ */

/* Argument checks shared by both models. */
static int place_check(const struct sb_jobgraph *h, const int *f, int nserver,
		       struct sb_err *err)
{
	int g = h->nv, m, e, total = 0;
	if (g > SB_CLB_PLACE_MAX)
		return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: %d workers (at most %d)",
				  g, SB_CLB_PLACE_MAX);
	if (nserver < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: %d servers", nserver);
	for (m = 0; m < nserver; m++) {
		if (f[m] < 0)
			return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: server %d: %d free "
					  "GPUs", m, f[m]);
		total += f[m] < g ? f[m] : g;
	}
	for (e = 0; e < h->ne; e++)
		if (!(h->w[e] >= 0) || !isfinite(h->w[e]) || h->eu[e] < 0 || h->eu[e] >= g ||
		    h->ev[e] < 0 || h->ev[e] >= g)
			return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: edge %d: (%d, %d) "
					  "weight %g", e, h->eu[e], h->ev[e], h->w[e]);
	if (total < g)
		return sb_err_set(err, SB_EXIT_INPUT, "placement ilp: %d workers, %d free GPUs",
				  g, total);
	return 0;
}

/* The cases without a model: one server holds every worker (best fit),
 * or nothing is exchanged. Fills asg and returns 1, else 0. */
static int place_trivial(const struct sb_jobgraph *h, const int *f, int nserver, int *asg)
{
	int g = h->nv, m, v, one = -1, e;
	double wmax = 0;
	for (m = 0; m < nserver; m++)
		if (f[m] >= g && (one < 0 || f[m] < f[one]))
			one = m;
	for (e = 0; e < h->ne; e++)
		if (h->eu[e] != h->ev[e])
			wmax = sb_max(wmax, h->w[e]);
	if (one >= 0) {
		for (v = 0; v < g; v++)
			asg[v] = one;
		return 1;
	}
	if (!(wmax > 0)) {
		for (v = 0, m = 0; v < g; m++)
			for (e = 0; e < f[m] && v < g; e++)
				asg[v++] = m;
		return 1;
	}
	return 0;
}

/* Servers with free GPUs by free count, most first (ties to the lower
 * id), at most g of them (a placement uses at most g servers, and its
 * groups fit the g largest: match the i-th largest group with the i-th
 * largest server). Fills srv[] and returns how many. */
static int place_servers(const int *f, int nserver, int g, int *srv)
{
	int m, nu = 0;
	for (m = 0; m < nserver; m++)
		if (f[m] > 0) {
			int q = nu++;
			while (q > 0 && f[srv[q - 1]] < f[m]) {
				srv[q] = srv[q - 1];
				q--;
			}
			srv[q] = m;
		}
	return nu < g ? nu : g;
}

static double place_wmax(const struct sb_jobgraph *h)
{
	double wmax = 0;
	int e;
	for (e = 0; e < h->ne; e++)
		wmax = sb_max(wmax, h->w[e]);
	return wmax;
}

/*
 * The model of spec §7.4 as written: z_{v,i} (worker v on usable server
 * i), e_uv >= |z_ui - z_vi|, with the rank rule for servers of equal free
 * count. Its LP bound is 0 (spread every worker evenly), so the search
 * enumerates; kept for cross-checks.
 */
static int place_z(const struct sb_jobgraph *h, const int *f, int nserver, long node_limit,
		   int *asg, int *status, struct sb_err *err)
{
	struct sb_lp *lp = NULL;
	struct sb_lp_params par;
	struct sb_lp_result r;
	struct rowbuf rb;
	int g = h->nv, v, e, i, rc = 0, nu, dir;
	int *srv = SB_NEW(int, nserver), *cap = SB_NEW(int, nserver), *rank = SB_NEW(int, nserver);
	int *zc = NULL, *ec = SB_NEW(int, h->ne + 1), *used = NULL;
	double wmax = place_wmax(h), *x0 = NULL;
	char name[64];

	memset(&rb, 0, sizeof rb);
	memset(&r, 0, sizeof r);
	nu = place_servers(f, nserver, g, srv);
	for (i = 0; i < nu; i++) {
		cap[i] = f[srv[i]] < g ? f[srv[i]] : g;
		rank[i] = i > 0 && cap[i] == cap[i - 1] ? rank[i - 1] + 1 : 0;
	}
	lp = sb_lp_new("cluster-placement-z", 1);
	par = ilp_params;
	par.node_limit = node_limit > 0 ? node_limit : 0;
	sb_lp_set_params(lp, &par);
	/* z_{v,i} only if rank(i) <= v: relabel each class of equal servers
	 * by their smallest worker */
	zc = SB_NEW(int, (size_t)g * nu);
	for (v = 0; v < g; v++)
		for (i = 0; i < nu; i++) {
			zc[v * nu + i] = -1;
			if (rank[i] > v)
				continue;
			snprintf(name, sizeof name, "z_%d_%d", v, srv[i]);
			zc[v * nu + i] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	for (e = 0; e < h->ne; e++) {
		ec[e] = -1;
		if (!(h->w[e] > 0) || h->eu[e] == h->ev[e])
			continue;
		snprintf(name, sizeof name, "e_%d", e);
		ec[e] = sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, h->w[e] / wmax);
	}
	for (v = 0; v < g; v++) {
		rb.n = 0;
		for (i = 0; i < nu; i++)
			if (zc[v * nu + i] >= 0)
				rb_add(&rb, zc[v * nu + i], 1);
		snprintf(name, sizeof name, "one_%d", v);
		sb_lp_add_row(lp, name, 1, 1, rb.n, rb.col, rb.val);
	}
	for (i = 0; i < nu; i++) {
		rb.n = 0;
		for (v = 0; v < g; v++)
			if (zc[v * nu + i] >= 0)
				rb_add(&rb, zc[v * nu + i], 1);
		if (rb.n <= cap[i])
			continue;
		snprintf(name, sizeof name, "cap_%d", srv[i]);
		sb_lp_add_row(lp, name, -SB_LP_INF, cap[i], rb.n, rb.col, rb.val);
	}
	/* e_uv >= z_ui - z_vi and >= z_vi - z_ui (a missing z is 0) */
	for (e = 0; e < h->ne; e++) {
		int u = h->eu[e], w = h->ev[e];
		if (ec[e] < 0)
			continue;
		for (i = 0; i < nu; i++)
			for (dir = 0; dir < 2; dir++) {
				int a = zc[(dir ? w : u) * nu + i], b = zc[(dir ? u : w) * nu + i];
				if (a < 0)
					continue;
				rb.n = 0;
				rb_add(&rb, ec[e], 1);
				rb_add(&rb, a, -1);
				if (b >= 0)
					rb_add(&rb, b, 1);
				snprintf(name, sizeof name, "cut_%d_%d_%d", e, srv[i], dir);
				sb_lp_add_row(lp, name, 0, SB_LP_INF, rb.n, rb.col, rb.val);
			}
	}
	/* first incumbent: workers in order fill the servers in order (it
	 * meets the rank rule: server i of a class starts at worker >= i) */
	x0 = SB_NEW(double, sb_lp_ncols(lp));
	used = SB_NEW(int, nu);
	for (v = 0, i = 0; v < g; v++) {
		while (used[i] == cap[i])
			i++;
		used[i]++;
		asg[v] = srv[i];
		SB_ASSERT(zc[v * nu + i] >= 0);
		x0[zc[v * nu + i]] = 1;
	}
	for (e = 0; e < h->ne; e++)
		if (ec[e] >= 0)
			x0[ec[e]] = asg[h->eu[e]] != asg[h->ev[e]];
	sb_lp_set_incumbent(lp, x0);
	rc = sb_lp_solve(lp, 0, SB_CLB_TIME_LIMIT, 0, &r, err);
	if (rc) {
		sb_err_prefix(err, "placement ilp: ");
		goto out;
	}
	*status = r.status;
	if (r.status != SB_LP_OPTIMAL && r.status != SB_LP_FEASIBLE) {
		rc = sb_err_set(err, SB_EXIT_RUN, "placement ilp: solver status %s",
				sb_lp_status_name(r.status));
		goto out;
	}
	/* decode and check the capacities (else keep the fill) */
	{
		int *a2 = SB_NEW(int, g), ok = 1;
		memset(used, 0, sizeof(int) * (size_t)nu);
		for (v = 0; v < g && ok; v++) {
			a2[v] = -1;
			for (i = 0; i < nu; i++)
				if (zc[v * nu + i] >= 0 && r.x[zc[v * nu + i]] > 0.5) {
					ok &= a2[v] < 0;
					a2[v] = i;
				}
			ok &= a2[v] >= 0 && ++used[a2[v]] <= cap[a2[v]];
		}
		if (ok)
			for (v = 0; v < g; v++)
				asg[v] = srv[a2[v]];
		else
			*status = SB_LP_FEASIBLE;
		sb_free(a2);
	}
out:
	sb_lp_result_release(&r);
	sb_lp_free(lp);
	rb_release(&rb);
	sb_free(srv); sb_free(cap); sb_free(rank); sb_free(zc); sb_free(ec);
	sb_free(used); sb_free(x0);
	return rc;
}

/* Union-find root with path halving. */
static int uf_root(int *par, int x)
{
	while (par[x] != x) {
		par[x] = par[par[x]];
		x = par[x];
	}
	return x;
}

/* Edges e of h by weight, heaviest first (ties to the lower index). */
static const struct sb_jobgraph *sort_h;
static int cmp_edge_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (sort_h->w[x] != sort_h->w[y])
		return sort_h->w[x] > sort_h->w[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Valid rows on the cut variables alone, given that no group holds more
 * than fmax workers (the largest free count):
 *   - star: a worker shares its group with at most fmax - 1 of its k
 *     neighbours, so at least k - fmax + 1 of its edges are cut (one edge
 *     per neighbour);
 *   - a connected set U of workers with |U| > fmax spans at least
 *     q = ceil(|U| / fmax) groups: the uncut edges of a spanning tree of
 *     U leave >= q components, so >= q - 1 tree edges are cut; if U is a
 *     simple cycle, its uncut edges form paths (a forest) and >= q cycle
 *     edges are cut. U: the connected pieces of the edges of each type
 *     and of type pairs (tensor rings, pipeline chains, data rings,
 *     replica blocks, ...) and of the whole graph, with the heaviest
 *     spanning tree (the LP then has to cut heavy edges).
 * They change no integer solution, but lift the LP bound from near 0
 * where free GPUs are scattered (measured: 16 workers on 2-3 free GPUs
 * per server, from minutes to well under a second).
 */
static void place_cuts(struct sb_lp *lp, const struct sb_jobgraph *h, const int *ec,
		       const int *capd, int ncap, struct rowbuf *rb)
{
	int fmax = capd[0];
	static const int sets[] = { 1, 2, 4, 3, 5, 6, 7 };   /* bits: 1 << edge type */
	int g = h->nv, v, e, k, q, si;
	int *seen = SB_NEW(int, g), *par = SB_NEW(int, g), *par2 = SB_NEW(int, g);
	int *deg = SB_NEW(int, g), *cnt = SB_NEW(int, g), *order = SB_NEW(int, h->ne + 1);
	char name[64];

	for (v = 0; v < g; v++)
		seen[v] = -1;
	for (v = 0; v < g; v++) {
		rb->n = 0;
		for (e = 0; e < h->ne; e++) {
			int u;
			if (ec[e] < 0 || (h->eu[e] != v && h->ev[e] != v))
				continue;
			u = h->eu[e] == v ? h->ev[e] : h->eu[e];
			if (seen[u] == v)
				continue;
			seen[u] = v;
			rb_add(rb, ec[e], 1);
		}
		if (rb->n - fmax + 1 <= 0)
			continue;
		snprintf(name, sizeof name, "star_%d", v);
		sb_lp_add_row(lp, name, rb->n - fmax + 1, SB_LP_INF, rb->n, rb->col, rb->val);
	}
	for (e = 0; e < h->ne; e++)
		order[e] = e;
	sort_h = h;
	qsort(order, (size_t)h->ne, sizeof *order, cmp_edge_desc);
	for (si = 0; si < (int)(sizeof sets / sizeof sets[0]); si++) {
		for (v = 0; v < g; v++) {
			par[v] = v;
			deg[v] = cnt[v] = 0;
		}
		for (e = 0; e < h->ne; e++) {
			if (ec[e] < 0 || !(sets[si] & (1 << h->type[e])))
				continue;
			par[uf_root(par, h->eu[e])] = uf_root(par, h->ev[e]);
			deg[h->eu[e]]++;
			deg[h->ev[e]]++;
		}
		for (v = 0; v < g; v++)
			cnt[uf_root(par, v)]++;
		for (v = 0; v < g; v++) {
			int n = cnt[v], m = 0, cycle = 1, need;
			if (uf_root(par, v) != v || n <= fmax)
				continue;
			rb->n = 0;
			for (e = 0; e < h->ne; e++)
				if (ec[e] >= 0 && (sets[si] & (1 << h->type[e])) &&
				    uf_root(par, h->eu[e]) == v)
					m++;
			for (q = 0; q < g; q++)
				if (uf_root(par, q) == v && deg[q] != 2)
					cycle = 0;
			cycle &= m == n;
			/* groups needed: the fewest servers (largest first)
			 * with room for n */
			for (q = 0, need = 0; q < ncap && need < n; q++)
				need += capd[q];
			need = q - (cycle ? 0 : 1);
			if (need <= 0)
				continue;
			if (cycle) {
				for (e = 0; e < h->ne; e++)
					if (ec[e] >= 0 && (sets[si] & (1 << h->type[e])) &&
					    uf_root(par, h->eu[e]) == v)
						rb_add(rb, ec[e], 1);
			} else {
				/* heaviest spanning tree (Kruskal) */
				for (q = 0; q < g; q++)
					par2[q] = q;
				for (k = 0; k < h->ne; k++) {
					int x = order[k], a, b;
					if (ec[x] < 0 || !(sets[si] & (1 << h->type[x])) ||
					    uf_root(par, h->eu[x]) != v)
						continue;
					a = uf_root(par2, h->eu[x]);
					b = uf_root(par2, h->ev[x]);
					if (a == b)
						continue;
					par2[a] = b;
					rb_add(rb, ec[x], 1);
				}
			}
			snprintf(name, sizeof name, "split_%d_%d", sets[si], v);
			sb_lp_add_row(lp, name, need, SB_LP_INF, rb->n, rb->col, rb->val);
		}
	}
	sb_free(seen);
	sb_free(par);
	sb_free(par2);
	sb_free(deg);
	sb_free(cnt);
	sb_free(order);
}

/* Moves of a worker to a usable server with room and swaps of two
 * workers, while the cut drops (a start for the search). srv[0..nu) are
 * the usable servers, asg[] server ids. */
static void place_improve(const struct sb_jobgraph *h, const int *f, const int *srv, int nu,
			  int *asg)
{
	int g = h->nv, v, u, i, pass, better = 1, *load = SB_NEW(int, nu), *idx;
	double cur = sb_jobgraph_cut(h, asg), tol = 0;
	int e;

	for (e = 0; e < h->ne; e++)
		tol += h->w[e];
	tol *= 1e-12;
	idx = SB_NEW(int, g);
	for (v = 0; v < g; v++) {
		for (i = 0; i < nu && srv[i] != asg[v]; i++)
			;
		SB_ASSERT(i < nu);
		idx[v] = i;
		load[i]++;
	}
	for (pass = 0; pass < 50 && better; pass++) {
		better = 0;
		for (v = 0; v < g; v++) {
			for (i = 0; i < nu; i++) {
				int from = idx[v];
				double c;
				if (i == from || load[i] >= f[srv[i]])
					continue;
				asg[v] = srv[i];
				c = sb_jobgraph_cut(h, asg);
				if (c < cur - tol) {
					cur = c;
					idx[v] = i;
					load[from]--;
					load[i]++;
					better = 1;
				} else {
					asg[v] = srv[from];
				}
			}
			for (u = v + 1; u < g; u++) {
				double c;
				int t;
				if (idx[u] == idx[v])
					continue;
				t = asg[u];
				asg[u] = asg[v];
				asg[v] = t;
				c = sb_jobgraph_cut(h, asg);
				if (c < cur - tol) {
					cur = c;
					t = idx[u];
					idx[u] = idx[v];
					idx[v] = t;
					better = 1;
				} else {
					asg[v] = asg[u];
					asg[u] = t;
				}
			}
		}
	}
	sb_free(load);
	sb_free(idx);
}

/*
 * The same problem without server labels (what we solve by default). A
 * placement is a partition of the workers into groups, each on its own
 * server with enough free GPUs. Binaries x_{u,v}, u <= v: worker v is in
 * the group whose smallest worker is u (x_{u,u}: u leads a group);
 * y_{u,c}: group u goes to a server of class c (the servers with free
 * count f_c, n_c of them):
 *   sum_{u <= v} x_{u,v} = 1            every worker in one group
 *   x_{u,v} <= x_{u,u}                  only leaders have groups
 *   sum_c y_{u,c} = x_{u,u}             a group gets a class
 *   sum_{v >= u} x_{u,v} <= sum_c f_c y_{u,c}   and fits it
 *   sum_u y_{u,c} <= n_c                servers of the class
 *   e_ab >= x_{u,a} - x_{u,b}, e_ab >= x_{u,b} - x_{u,a}  (a missing x is 0)
 * Every placement maps to one solution (and back, by giving the groups of
 * a class distinct servers of it), with the same cut. Unlike the spec's
 * model there is no symmetry between servers, and its LP bound is not 0:
 * worker 0 leads its group, so splitting its neighbours off costs. On 16
 * workers and 16 servers of mixed free counts it solves in a fraction of
 * a second where the spec's model needs minutes.
 */
static int place_rep(const struct sb_jobgraph *h, const int *f, int nserver, long node_limit,
		     int *asg, int *status, struct sb_err *err)
{
	struct sb_lp *lp = NULL;
	struct sb_lp_params par;
	struct sb_lp_result r;
	struct rowbuf rb;
	int g = h->nv, u, v, e, i, c, rc = 0, nu, ncls = 0;
	int *srv = SB_NEW(int, nserver), *cf = SB_NEW(int, nserver), *cn = SB_NEW(int, nserver);
	int *cls = SB_NEW(int, nserver), *xc = SB_NEW(int, (size_t)g * g), *yc, *ec;
	int *grp = SB_NEW(int, g), *gcls = SB_NEW(int, g), *next = SB_NEW(int, nserver);
	double wmax = place_wmax(h), *x0 = NULL;
	char name[64];

	memset(&rb, 0, sizeof rb);
	memset(&r, 0, sizeof r);
	nu = place_servers(f, nserver, g, srv);
	for (i = 0; i < nu; i++) {
		int cap = f[srv[i]] < g ? f[srv[i]] : g;
		if (ncls == 0 || cf[ncls - 1] != cap) {
			cf[ncls] = cap;
			cn[ncls++] = 0;
		}
		cls[i] = ncls - 1;
		cn[ncls - 1]++;
	}
	yc = SB_NEW(int, (size_t)g * ncls);
	ec = SB_NEW(int, h->ne + 1);
	lp = sb_lp_new("cluster-placement", 1);
	par = ilp_params;
	par.node_limit = node_limit > 0 ? node_limit : 0;
	if (getenv("CLB_PC")) par.pseudocost = atoi(getenv("CLB_PC"));
	if (getenv("CLB_CUTS")) par.cuts = atoi(getenv("CLB_CUTS"));
	sb_lp_set_params(lp, &par);
	for (u = 0; u < g; u++)
		for (v = 0; v < g; v++) {
			xc[u * g + v] = -1;
			if (u > v)
				continue;
			snprintf(name, sizeof name, "x_%d_%d", u, v);
			xc[u * g + v] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	for (u = 0; u < g; u++)
		for (c = 0; c < ncls; c++) {
			snprintf(name, sizeof name, "y_%d_%d", u, cf[c]);
			yc[u * ncls + c] = sb_lp_add_col(lp, name, SB_LP_BIN, 0, 1, 0);
		}
	for (e = 0; e < h->ne; e++) {
		ec[e] = -1;
		if (!(h->w[e] > 0) || h->eu[e] == h->ev[e])
			continue;
		snprintf(name, sizeof name, "e_%d", e);
		ec[e] = sb_lp_add_col(lp, name, SB_LP_CONT, 0, 1, h->w[e] / wmax);
	}
	for (v = 0; v < g; v++) {
		rb.n = 0;
		for (u = 0; u <= v; u++)
			rb_add(&rb, xc[u * g + v], 1);
		snprintf(name, sizeof name, "one_%d", v);
		sb_lp_add_row(lp, name, 1, 1, rb.n, rb.col, rb.val);
	}
	for (u = 0; u < g; u++) {
		for (v = u + 1; v < g; v++) {
			int cc[2] = { xc[u * g + v], xc[u * g + u] };
			double vv[2] = { 1, -1 };
			snprintf(name, sizeof name, "lead_%d_%d", u, v);
			sb_lp_add_row(lp, name, -SB_LP_INF, 0, 2, cc, vv);
		}
		rb.n = 0;
		rb_add(&rb, xc[u * g + u], -1);
		for (c = 0; c < ncls; c++)
			rb_add(&rb, yc[u * ncls + c], 1);
		snprintf(name, sizeof name, "class_%d", u);
		sb_lp_add_row(lp, name, 0, 0, rb.n, rb.col, rb.val);
		rb.n = 0;
		for (v = u; v < g; v++)
			rb_add(&rb, xc[u * g + v], 1);
		for (c = 0; c < ncls; c++)
			rb_add(&rb, yc[u * ncls + c], -cf[c]);
		snprintf(name, sizeof name, "fit_%d", u);
		sb_lp_add_row(lp, name, -SB_LP_INF, 0, rb.n, rb.col, rb.val);
	}
	for (c = 0; c < ncls; c++) {
		rb.n = 0;
		for (u = 0; u < g; u++)
			rb_add(&rb, yc[u * ncls + c], 1);
		if (rb.n <= cn[c])
			continue;
		snprintf(name, sizeof name, "servers_%d", cf[c]);
		sb_lp_add_row(lp, name, -SB_LP_INF, cn[c], rb.n, rb.col, rb.val);
	}
	for (e = 0; e < h->ne; e++) {
		int a = h->eu[e] < h->ev[e] ? h->eu[e] : h->ev[e];
		int b = h->eu[e] < h->ev[e] ? h->ev[e] : h->eu[e], dir;
		if (ec[e] < 0)
			continue;
		for (u = 0; u <= b; u++)
			for (dir = 0; dir < 2; dir++) {
				/* e >= x_{u,p} - x_{u,q} with (p, q) = (a, b), (b, a) */
				int p = dir ? b : a, q = dir ? a : b;
				if (u > p)
					continue;
				rb.n = 0;
				rb_add(&rb, ec[e], 1);
				rb_add(&rb, xc[u * g + p], -1);
				if (u <= q)
					rb_add(&rb, xc[u * g + q], 1);
				snprintf(name, sizeof name, "cut_%d_%d_%d", e, u, dir);
				sb_lp_add_row(lp, name, 0, SB_LP_INF, rb.n, rb.col, rb.val);
			}
	}
	{
		int *capd = SB_NEW(int, nu);
		for (i = 0; i < nu; i++)
			capd[i] = f[srv[i]] < g ? f[srv[i]] : g;
		place_cuts(lp, h, ec, capd, nu, &rb);
		sb_free(capd);
	}
	/* first incumbent: workers in order fill the servers in order, then
	 * improving moves and swaps; groups are the servers' workers, led by
	 * their smallest */
	x0 = SB_NEW(double, sb_lp_ncols(lp));
	{
		int *used = SB_NEW(int, nu), *lead = SB_NEW(int, nu);
		for (v = 0, i = 0; v < g; v++) {
			while (used[i] == (f[srv[i]] < g ? f[srv[i]] : g))
				i++;
			used[i]++;
			asg[v] = srv[i];
		}
		place_improve(h, f, srv, nu, asg);
		for (i = 0; i < nu; i++)
			lead[i] = -1;
		for (v = 0; v < g; v++) {
			for (i = 0; srv[i] != asg[v]; i++)
				;
			if (lead[i] < 0) {
				lead[i] = v;
				x0[yc[v * ncls + cls[i]]] = 1;
			}
			x0[xc[lead[i] * g + v]] = 1;
		}
		sb_free(used);
		sb_free(lead);
	}
	for (e = 0; e < h->ne; e++)
		if (ec[e] >= 0)
			x0[ec[e]] = asg[h->eu[e]] != asg[h->ev[e]];
	sb_lp_set_incumbent(lp, x0);
	rc = sb_lp_solve(lp, 0, SB_CLB_TIME_LIMIT, 0, &r, err);
	if (rc) {
		sb_err_prefix(err, "placement ilp: ");
		goto out;
	}
	*status = r.status;
	if (r.status != SB_LP_OPTIMAL && r.status != SB_LP_FEASIBLE) {
		rc = sb_err_set(err, SB_EXIT_RUN, "placement ilp: solver status %s",
				sb_lp_status_name(r.status));
		goto out;
	}
	/* decode: groups, their classes, then servers of each class in order;
	 * any inconsistency keeps the fill (and says so) */
	{
		int ok = 1, *size = SB_NEW(int, g);
		for (v = 0; v < g && ok; v++) {
			grp[v] = -1;
			for (u = 0; u <= v; u++)
				if (r.x[xc[u * g + v]] > 0.5) {
					ok &= grp[v] < 0;
					grp[v] = u;
				}
			ok &= grp[v] >= 0 && r.x[xc[grp[v] * g + grp[v]]] > 0.5;
			if (ok)
				size[grp[v]]++;
		}
		for (u = 0; u < g && ok; u++) {
			gcls[u] = -1;
			if (!size[u])
				continue;
			for (c = 0; c < ncls; c++)
				if (r.x[yc[u * ncls + c]] > 0.5)
					gcls[u] = c;
			ok &= gcls[u] >= 0 && size[u] <= cf[gcls[u]];
		}
		/* next[c]: next unused server of class c (usable servers are
		 * sorted, so a class is a run) */
		for (c = 0; c < ncls; c++)
			next[c] = -1;
		for (i = nu - 1; i >= 0; i--)
			next[cls[i]] = i;
		for (u = 0; u < g && ok; u++) {
			if (!size[u])
				continue;
			c = gcls[u];
			ok &= next[c] >= 0 && next[c] < nu && cls[next[c]] == c;
			if (ok)
				gcls[u] = srv[next[c]++];
		}
		if (ok)
			for (v = 0; v < g; v++)
				asg[v] = gcls[grp[v]];
		else
			*status = SB_LP_FEASIBLE;
		sb_free(size);
	}
out:
	sb_lp_result_release(&r);
	sb_lp_free(lp);
	rb_release(&rb);
	sb_free(srv); sb_free(cf); sb_free(cn); sb_free(cls); sb_free(xc); sb_free(yc);
	sb_free(ec); sb_free(grp); sb_free(gcls); sb_free(next); sb_free(x0);
	return rc;
}

static int place_ilp(const struct sb_jobgraph *h, const int *free_per_server, int nserver,
		     long node_limit, int spec_model, double *cut, int *server_of_vertex,
		     int *status, struct sb_err *err)
{
	int *asg, rc;

	*cut = NAN;
	*status = SB_LP_ERROR;
	if ((rc = place_check(h, free_per_server, nserver, err)) != 0)
		return rc;
	asg = SB_NEW(int, h->nv + 1);
	if (place_trivial(h, free_per_server, nserver, asg))
		*status = SB_LP_OPTIMAL;
	else if (spec_model)
		rc = place_z(h, free_per_server, nserver, node_limit, asg, status, err);
	else
		rc = place_rep(h, free_per_server, nserver, node_limit, asg, status, err);
	if (!rc) {
		*cut = sb_jobgraph_cut(h, asg);
		if (server_of_vertex)
			memcpy(server_of_vertex, asg, sizeof(int) * (size_t)h->nv);
	}
	sb_free(asg);
	return rc;
}

int sb_cluster_place_ilp(const struct sb_jobgraph *h, const int *free_per_server,
			 int nserver, long node_limit, double *cut, int *server_of_vertex,
			 int *status, struct sb_err *err)
{
	return place_ilp(h, free_per_server, nserver, node_limit, 0, cut, server_of_vertex,
			 status, err);
}

int sb_cluster_place_ilp_spec(const struct sb_jobgraph *h, const int *free_per_server,
			      int nserver, long node_limit, double *cut, int *server_of_vertex,
			      int *status, struct sb_err *err)
{
	return place_ilp(h, free_per_server, nserver, node_limit, 1, cut, server_of_vertex,
			 status, err);
}
