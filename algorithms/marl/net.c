/*
 * net.c - forward and backward passes of the marl placer's networks (see
 * net.h). Reconstructed [O], marl.md §3.2-3.5.
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/net.h"

#include <string.h>

/* ------------------------------------------------------------- graphs */

int sb_marl_graph_build(struct sb_marl_graph *g, int nsn, int ngpu, const int *sparent,
			int nserv, int nup, const int *dparent, struct sb_err *err)
{
	int *one_ptr = NULL, *one_idx = NULL, s, v, e, rc;

	memset(g, 0, sizeof *g);
	if (nserv < 1 || ngpu < 1 || nsn < ngpu || nup < 0)
		return sb_err_set(err, SB_EXIT_INPUT, "topology: %d servers of %d GPUs in %d "
				  "nodes (need >= 1 server, >= 1 GPU, GPUs among the nodes)",
				  nserv, ngpu, nsn);
	for (v = 0; v < ngpu; v++)
		for (s = 0; s < nsn; s++)
			if (sparent[s] == v)
				return sb_err_set(err, SB_EXIT_INPUT, "server tree: GPU node %d has "
						  "a child (node %d); GPUs are leaves", v, s);
	rc = sb_nn_csr_from_parents(sparent, nsn, &one_ptr, &one_idx, err);
	if (rc) {
		sb_err_prefix(err, "server tree: ");
		return rc;
	}
	rc = sb_nn_csr_from_parents(dparent, nserv + nup, &g->dptr, &g->didx, err);
	if (rc) {
		sb_err_prefix(err, "data-centre tree: ");
		goto out;
	}
	g->nserv = nserv;
	g->nsn = nsn;
	g->ngpu = ngpu;
	g->ndc = nserv + nup;
	/* nserv copies of the server tree, block-diagonal */
	g->sptr = sb_xcalloc((size_t)nserv * nsn + 1, sizeof *g->sptr);
	g->sidx = sb_xcalloc((size_t)nserv * (one_ptr[nsn] ? one_ptr[nsn] : 1), sizeof *g->sidx);
	for (s = 0; s < nserv; s++)
		for (v = 0; v < nsn; v++) {
			int row = s * nsn + v, base = s * one_ptr[nsn];
			g->sptr[row + 1] = base + one_ptr[v + 1];
			for (e = one_ptr[v]; e < one_ptr[v + 1]; e++)
				g->sidx[base + e] = s * nsn + one_idx[e];
		}
	g->gptr = sb_xcalloc((size_t)nserv + 1, sizeof *g->gptr);
	g->gidx = sb_xcalloc((size_t)nserv * ngpu, sizeof *g->gidx);
	for (s = 0; s < nserv; s++) {
		g->gptr[s + 1] = (s + 1) * ngpu;
		for (v = 0; v < ngpu; v++)
			g->gidx[s * ngpu + v] = s * nsn + v;
	}
	g->pptr[0] = 0;
	g->pptr[1] = nserv;
	g->pidx = sb_xcalloc((size_t)nserv, sizeof *g->pidx);
	for (s = 0; s < nserv; s++)
		g->pidx[s] = s;
out:
	sb_free(one_ptr);
	sb_free(one_idx);
	if (rc)
		sb_marl_graph_release(g);
	return rc;
}

void sb_marl_graph_release(struct sb_marl_graph *g)
{
	sb_free(g->sptr);
	sb_free(g->sidx);
	sb_free(g->gptr);
	sb_free(g->gidx);
	sb_free(g->dptr);
	sb_free(g->didx);
	sb_free(g->pidx);
	memset(g, 0, sizeof *g);
}

int sb_marl_graph_regular(struct sb_marl_graph *g, int pods, int racks, int servers,
			  int sockets, int pcie, int gpus, struct sb_err *err)
{
	int ngpu = sockets * pcie * gpus, nsn, nserv, nup, v, k, rc;
	int *sp, *dp;

	memset(g, 0, sizeof *g);
	if (pods < 1 || racks < 1 || servers < 1 || sockets < 1 || pcie < 1 || gpus < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "topology %dx%dx%d servers of %dx%dx%d GPUs: "
				  "every count must be >= 1", pods, racks, servers, sockets, pcie,
				  gpus);
	/* server nodes: GPUs, then switches, then sockets, then the root */
	nsn = ngpu + sockets * pcie + sockets + 1;
	sp = SB_NEW(int, nsn);
	for (v = 0; v < ngpu; v++)
		sp[v] = ngpu + v / gpus;
	for (k = 0; k < sockets * pcie; k++)
		sp[ngpu + k] = ngpu + sockets * pcie + k / pcie;
	for (k = 0; k < sockets; k++)
		sp[ngpu + sockets * pcie + k] = nsn - 1;
	sp[nsn - 1] = -1;
	/* data-centre nodes: servers, racks, pods, the root */
	nserv = pods * racks * servers;
	nup = pods * racks + pods + 1;
	dp = SB_NEW(int, nserv + nup);
	for (v = 0; v < nserv; v++)
		dp[v] = nserv + v / servers;
	for (k = 0; k < pods * racks; k++)
		dp[nserv + k] = nserv + pods * racks + k / racks;
	for (k = 0; k < pods; k++)
		dp[nserv + pods * racks + k] = nserv + nup - 1;
	dp[nserv + nup - 1] = -1;
	rc = sb_marl_graph_build(g, nsn, ngpu, sp, nserv, nup, dp, err);
	sb_free(sp);
	sb_free(dp);
	return rc;
}

/* --------------------------------------------------------------- nets */

#define FLAT_IN (SB_MARL_GF + 1)  /* per server: mean GPU features, free */
#define FLAT_HID 128

static struct sb_nn *mlp(int in, int h1, int h2, struct sb_err *err)
{
	int size[4] = { in, h1, h2, 1 };
	enum sb_nn_act act[3] = { SB_NN_RELU, SB_NN_RELU, SB_NN_LINEAR };
	return sb_nn_new(h2 ? 3 : 2, h2 ? size : (int[]){ in, h1, 1 }, act, err);
}

struct sb_marl_net *sb_marl_net_new(enum sb_marl_arch arch, int ncritic, int nserv,
				    struct sb_err *err)
{
	struct sb_marl_net *n = sb_xcalloc(1, sizeof *n);
	int k, ok = 1;

	SB_ASSERT(ncritic == 1 || ncritic == SB_MARL_MAXAG);
	n->arch = arch;
	n->ncritic = ncritic;
	if (arch == SB_MARL_ARCH_GNN) {
		ok &= !!(n->s1 = sb_gnn_new(SB_MARL_GF, SB_MARL_H1, err));
		ok &= !!(n->s2 = ok ? sb_gnn_new(SB_MARL_H1, SB_MARL_H1, err) : NULL);
		ok &= !!(n->d1 = ok ? sb_gnn_new(SB_MARL_EMB + 1, SB_MARL_H2, err) : NULL);
		ok &= !!(n->d2 = ok ? sb_gnn_new(SB_MARL_H2, SB_MARL_H2, err) : NULL);
		if (ok) {
			n->pol[n->npol++] = n->s1->lin;
			n->pol[n->npol++] = n->s2->lin;
			n->pol[n->npol++] = n->d1->lin;
			n->pol[n->npol++] = n->d2->lin;
		}
	} else {
		int size[3] = { nserv * FLAT_IN, FLAT_HID, nserv * SB_MARL_H2 };
		enum sb_nn_act act[2] = { SB_NN_RELU, SB_NN_RELU };
		SB_ASSERT(nserv >= 1);
		n->flat_nserv = nserv;
		ok &= !!(n->flat = sb_nn_new(2, size, act, err));
		if (ok)
			n->pol[n->npol++] = n->flat;
	}
	ok &= !!(n->actor = ok ? mlp(SB_MARL_AIN, 64, 32, err) : NULL);
	ok &= !!(n->defer = ok ? mlp(SB_MARL_DIN, 32, 0, err) : NULL);
	if (ok) {
		n->pol[n->npol++] = n->actor;
		n->pol[n->npol++] = n->defer;
	}
	for (k = 0; ok && k < ncritic; k++) {
		ok &= !!(n->critic[k] = mlp(SB_MARL_VIN, 64, 32, err));
		if (ok)
			n->val[n->nval++] = n->critic[k];
	}
	if (!ok) {
		sb_marl_net_free(n);
		return NULL;
	}
	return n;
}

static void free_work(struct sb_marl_net *n)
{
	double **b[] = { &n->x1, &n->emb, &n->x2, &n->zs, &n->a, &n->logit, &n->p, &n->dh2,
			 &n->dh1, &n->dx2, &n->dz1, &n->dz2, &n->da, &n->demb };
	size_t i;

	for (i = 0; i < sizeof b / sizeof b[0]; i++) {
		sb_free(*b[i]);
		*b[i] = NULL;
	}
	sb_free(n->arg);
	n->arg = NULL;
	n->cap_serv = n->cap_dc = 0;
}

void sb_marl_net_free(struct sb_marl_net *n)
{
	int k;

	if (!n)
		return;
	free_work(n);
	sb_gnn_free(n->s1);
	sb_gnn_free(n->s2);
	sb_gnn_free(n->d1);
	sb_gnn_free(n->d2);
	sb_nn_free(n->flat);
	sb_nn_free(n->actor);
	sb_nn_free(n->defer);
	for (k = 0; k < SB_MARL_MAXAG; k++)
		sb_nn_free(n->critic[k]);
	sb_free(n);
}

void sb_marl_net_init(struct sb_marl_net *n, struct sb_rng *r)
{
	int k;

	for (k = 0; k < n->npol; k++)
		sb_nn_init(n->pol[k], r);
	for (k = 0; k < n->nval; k++)
		sb_nn_init(n->val[k], r);
}

size_t sb_marl_net_nparams(const struct sb_marl_net *n)
{
	size_t s = 0;
	int k;

	for (k = 0; k < n->npol; k++)
		s += n->pol[k]->nparams;
	for (k = 0; k < n->nval; k++)
		s += n->val[k]->nparams;
	return s;
}

void sb_marl_net_get(const struct sb_marl_net *n, double *w)
{
	int k;

	for (k = 0; k < n->npol; k++, w += n->pol[k - 1]->nparams)
		memcpy(w, n->pol[k]->w, n->pol[k]->nparams * sizeof *w);
	for (k = 0; k < n->nval; k++, w += n->val[k - 1]->nparams)
		memcpy(w, n->val[k]->w, n->val[k]->nparams * sizeof *w);
}

void sb_marl_net_set(struct sb_marl_net *n, const double *w)
{
	int k;

	for (k = 0; k < n->npol; k++, w += n->pol[k - 1]->nparams)
		memcpy(n->pol[k]->w, w, n->pol[k]->nparams * sizeof *w);
	for (k = 0; k < n->nval; k++, w += n->val[k - 1]->nparams)
		memcpy(n->val[k]->w, w, n->val[k]->nparams * sizeof *w);
}

void sb_marl_net_zero_grad(struct sb_marl_net *n)
{
	int k;

	for (k = 0; k < n->npol; k++)
		sb_nn_zero_grad(n->pol[k]);
	for (k = 0; k < n->nval; k++)
		sb_nn_zero_grad(n->val[k]);
}

/* ------------------------------------------------------------ forward */

/* Workspace sized for graph gr; reallocated only when the shape changes
 * (the same placer alternates T1, T2, T3 only between runs). */
static void reserve(struct sb_marl_net *n, const struct sb_marl_graph *gr)
{
	int S = gr->nserv, N1 = gr->nserv * gr->nsn, D = gr->ndc;

	if (n->x1 && S == n->cap_serv && D == n->cap_dc && gr->nsn == n->cap_nsn)
		return;
	free_work(n);
	n->x1 = SB_NEW(double, (size_t)N1 * SB_MARL_GF);
	n->dh2 = SB_NEW(double, (size_t)N1 * SB_MARL_H1);
	n->dh1 = SB_NEW(double, (size_t)N1 * SB_MARL_H1);
	n->emb = SB_NEW(double, (size_t)S * SB_MARL_EMB);
	n->demb = SB_NEW(double, (size_t)S * SB_MARL_EMB);
	n->arg = SB_NEW(int, (size_t)S * SB_MARL_H1);
	n->x2 = SB_NEW(double, (size_t)D * (SB_MARL_EMB + 1) + (size_t)S * FLAT_IN);
	n->dx2 = SB_NEW(double, (size_t)D * (SB_MARL_EMB + 1));
	n->zs = SB_NEW(double, (size_t)D * SB_MARL_H2);
	n->dz1 = SB_NEW(double, (size_t)D * SB_MARL_H2);
	n->dz2 = SB_NEW(double, (size_t)D * SB_MARL_H2);
	n->a = SB_NEW(double, (size_t)S * SB_MARL_AIN);
	n->da = SB_NEW(double, (size_t)S * SB_MARL_AIN);
	n->logit = SB_NEW(double, (size_t)S + 1);
	n->p = SB_NEW(double, (size_t)S + 1);
	n->cap_serv = S;
	n->cap_dc = D;
	n->cap_nsn = gr->nsn;
}

/* z_s (rows 0 .. nserv - 1 of n->zs) and g from the observation. */
static void encode(struct sb_marl_net *n, const struct sb_marl_graph *gr,
		   const struct sb_marl_obs *o)
{
	int S = gr->nserv, s, v, c;

	if (n->arch == SB_MARL_ARCH_GNN) {
		const double *h1, *h2, *z1, *z2;
		int w1 = SB_MARL_EMB + 1;

		/* GPU rows carry the features; switches, sockets and the
		 * server root start at zero and learn from their GPUs */
		memset(n->x1, 0, (size_t)S * gr->nsn * SB_MARL_GF * sizeof *n->x1);
		for (s = 0; s < S; s++)
			memcpy(n->x1 + (size_t)s * gr->nsn * SB_MARL_GF,
			       o->gpu + (size_t)s * gr->ngpu * SB_MARL_GF,
			       (size_t)gr->ngpu * SB_MARL_GF * sizeof *n->x1);
		h1 = sb_gnn_forward(n->s1, gr->sptr, gr->sidx, S * gr->nsn, n->x1);
		h2 = sb_gnn_forward(n->s2, gr->sptr, gr->sidx, S * gr->nsn, h1);
		sb_nn_readout(gr->gptr, gr->gidx, S, h2, SB_MARL_H1, n->emb, n->arg);
		memset(n->x2, 0, (size_t)gr->ndc * w1 * sizeof *n->x2);
		for (s = 0; s < S; s++) {
			memcpy(n->x2 + (size_t)s * w1, n->emb + (size_t)s * SB_MARL_EMB,
			       SB_MARL_EMB * sizeof *n->x2);
			n->x2[(size_t)s * w1 + SB_MARL_EMB] = o->free[s];
		}
		z1 = sb_gnn_forward(n->d1, gr->dptr, gr->didx, gr->ndc, n->x2);
		z2 = sb_gnn_forward(n->d2, gr->dptr, gr->didx, gr->ndc, z1);
		memcpy(n->zs, z2, (size_t)gr->ndc * SB_MARL_H2 * sizeof *n->zs);
	} else {
		double *x = n->x2;
		const double *z;

		SB_ASSERT(S == n->flat_nserv);
		for (s = 0; s < S; s++) {
			double *xs = x + (size_t)s * FLAT_IN;
			memset(xs, 0, FLAT_IN * sizeof *xs);
			for (v = 0; v < gr->ngpu; v++)
				for (c = 0; c < SB_MARL_GF; c++)
					xs[c] += o->gpu[((size_t)s * gr->ngpu + v) * SB_MARL_GF + c];
			for (c = 0; c < SB_MARL_GF; c++)
				xs[c] /= gr->ngpu;
			xs[SB_MARL_GF] = o->free[s];
		}
		z = sb_nn_forward(n->flat, x, 1);
		memcpy(n->zs, z, (size_t)S * SB_MARL_H2 * sizeof *n->zs);
	}
	sb_nn_csr_mean(gr->pptr, gr->pidx, 1, n->zs, SB_MARL_H2, n->gvec);
}

static void fill_vin(struct sb_marl_net *n, const struct sb_marl_obs *o)
{
	memcpy(n->vin, n->gvec, SB_MARL_H2 * sizeof *n->vin);
	memcpy(n->vin + SB_MARL_H2, o->crit, SB_MARL_CF * sizeof *n->vin);
	n->critic_used = n->ncritic == 1 ? 0 : o->agent;
}

const double *sb_marl_forward(struct sb_marl_net *n, const struct sb_marl_graph *gr,
			      const struct sb_marl_obs *o, double *value)
{
	int S = gr->nserv, s;
	double onehot[SB_MARL_MAXAG] = { 0 };
	const double *y;

	SB_ASSERT(o->agent >= 0 && o->agent < SB_MARL_MAXAG);
	reserve(n, gr);
	n->gr = gr;
	n->agent = o->agent;
	onehot[o->agent] = 1;
	encode(n, gr, o);
	for (s = 0; s < S; s++) {
		double *a = n->a + (size_t)s * SB_MARL_AIN;
		memcpy(a, n->zs + (size_t)s * SB_MARL_H2, SB_MARL_H2 * sizeof *a);
		memcpy(a + SB_MARL_H2, n->gvec, SB_MARL_H2 * sizeof *a);
		memcpy(a + 2 * SB_MARL_H2, o->job, SB_MARL_JF * sizeof *a);
		memcpy(a + 2 * SB_MARL_H2 + SB_MARL_JF, onehot, sizeof onehot);
	}
	y = sb_nn_forward(n->actor, n->a, S);
	memcpy(n->logit, y, (size_t)S * sizeof *n->logit);
	memcpy(n->din, n->gvec, SB_MARL_H2 * sizeof *n->din);
	memcpy(n->din + SB_MARL_H2, o->job, SB_MARL_JF * sizeof *n->din);
	memcpy(n->din + SB_MARL_H2 + SB_MARL_JF, onehot, sizeof onehot);
	n->logit[S] = sb_nn_forward(n->defer, n->din, 1)[0];
	sb_nn_softmax(n->logit, n->p, 1, S + 1, o->mask);
	fill_vin(n, o);
	n->v = sb_nn_forward(n->critic[n->critic_used], n->vin, 1)[0];
	if (value)
		*value = n->v;
	return n->p;
}

double sb_marl_value(struct sb_marl_net *n, const struct sb_marl_graph *gr,
		     const struct sb_marl_obs *o)
{
	reserve(n, gr);
	n->gr = gr;
	encode(n, gr, o);
	fill_vin(n, o);
	return sb_nn_forward(n->critic[n->critic_used], n->vin, 1)[0];
}

/* ----------------------------------------------------------- backward */

void sb_marl_backward(struct sb_marl_net *n, const double *dlogit, double dvalue)
{
	const struct sb_marl_graph *gr = n->gr;
	int S = gr->nserv, s, c;
	double dg[SB_MARL_H2] = { 0 }, dd[SB_MARL_DIN], dv[SB_MARL_VIN];

	sb_nn_backward(n->actor, dlogit, n->da);
	sb_nn_backward(n->defer, dlogit + S, dd);
	sb_nn_backward(n->critic[n->critic_used], &dvalue, dv);
	memset(n->dz2, 0, (size_t)gr->ndc * SB_MARL_H2 * sizeof *n->dz2);
	for (s = 0; s < S; s++) {
		const double *da = n->da + (size_t)s * SB_MARL_AIN;
		for (c = 0; c < SB_MARL_H2; c++) {
			n->dz2[(size_t)s * SB_MARL_H2 + c] += da[c];
			dg[c] += da[SB_MARL_H2 + c];
		}
	}
	for (c = 0; c < SB_MARL_H2; c++)
		dg[c] += dd[c] + dv[c];
	sb_nn_csr_mean_backward(gr->pptr, gr->pidx, 1, dg, SB_MARL_H2, n->dz2);
	if (n->arch == SB_MARL_ARCH_FLAT) {
		sb_nn_backward(n->flat, n->dz2, NULL);
		return;
	}
	memset(n->dz1, 0, (size_t)gr->ndc * SB_MARL_H2 * sizeof *n->dz1);
	sb_gnn_backward(n->d2, n->dz2, n->dz1);
	memset(n->dx2, 0, (size_t)gr->ndc * (SB_MARL_EMB + 1) * sizeof *n->dx2);
	sb_gnn_backward(n->d1, n->dz1, n->dx2);
	for (s = 0; s < S; s++)
		memcpy(n->demb + (size_t)s * SB_MARL_EMB, n->dx2 + (size_t)s * (SB_MARL_EMB + 1),
		       SB_MARL_EMB * sizeof *n->demb);
	memset(n->dh2, 0, (size_t)S * gr->nsn * SB_MARL_H1 * sizeof *n->dh2);
	sb_nn_readout_backward(gr->gptr, gr->gidx, n->arg, S, n->demb, SB_MARL_H1, n->dh2);
	memset(n->dh1, 0, (size_t)S * gr->nsn * SB_MARL_H1 * sizeof *n->dh1);
	sb_gnn_backward(n->s2, n->dh2, n->dh1);
	sb_gnn_backward(n->s1, n->dh1, NULL);
}
