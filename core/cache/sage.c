/*
 * sage.c - a 2-layer GraphSAGE-mean on sampled blocks, trained with Adam,
 * for the cache family's accuracy check (sage.h; spec bgl.md §9.6 and
 * figure F3 [O]). The layers are the NN kernel's GNN rounds (core/nn.c);
 * this file builds the sampled blocks, moves rows between them and runs
 * the steps. Single-threaded; every draw from the caller's stream.
 */
#include "cache/sage.h"

#include <string.h>

void sb_cache_feats_release(struct sb_cache_feats *f)
{
	sb_free(f->x);
	sb_free(f->label);
	memset(f, 0, sizeof *f);
}

/* ------------------------------------------------------------------ */
/* Sampled blocks                                                      */
/* ------------------------------------------------------------------ */

void sb_cache_block_init(struct sb_cache_block *b, const struct sb_cache_graph *g)
{
	int32_t v;
	memset(b, 0, sizeof *b);
	b->pos = SB_NEW(int32_t, g->n);
	for (v = 0; v < g->n; v++)
		b->pos[v] = -1;
}

void sb_cache_block_release(struct sb_cache_block *b)
{
	sb_free(b->nodes);
	sb_free(b->ptr1);
	sb_free(b->idx1);
	sb_free(b->ptr2);
	sb_free(b->idx2);
	sb_free(b->pos);
	memset(b, 0, sizeof *b);
}

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = need > 2 * *cap ? need : 2 * *cap;
	return sb_xrealloc(p, *cap * size);
}

/* local index of global node v, appended when new */
static int local(struct sb_cache_block *b, int *len, int32_t v)
{
	if (b->pos[v] < 0) {
		b->nodes[*len] = v;
		b->pos[v] = (*len)++;
	}
	return b->pos[v];
}

/* fan draws around each of the dst first nodes into ptr/idx, new sources
 * appended after *len */
static void hop(struct sb_cache_block *b, const struct sb_cache_graph *g, int fan, int dst,
		int *len, int *ptr, int *idx, struct sb_rng *rng)
{
	int j, f, e = 0;
	for (j = 0; j < dst; j++) {
		int32_t x = b->nodes[j];
		int64_t lo = g->off[x];
		uint32_t d = (uint32_t)(g->off[x + 1] - lo);
		ptr[j] = e;
		if (!d)
			continue;   /* an isolated node aggregates an empty list: zeros */
		for (f = 0; f < fan; f++)
			idx[e++] = local(b, len, g->adj[lo + sb_rng_below(rng, d)]);
	}
	ptr[dst] = e;
}

void sb_cache_block_sample(struct sb_cache_block *b, const struct sb_cache_graph *g,
			   const int fan[2], const int32_t *seeds, int nseed, struct sb_rng *rng)
{
	size_t most = (size_t)nseed * (1 + (size_t)fan[0]) * (1 + (size_t)fan[1]);
	int len = 0, i;

	if (most > (size_t)g->n)
		most = (size_t)g->n;
	if (most < (size_t)nseed)
		most = (size_t)nseed;
	b->nodes = grow(b->nodes, &b->cap_nodes, most, sizeof *b->nodes);
	b->ptr1 = sb_xrealloc(b->ptr1, (most + 1) * sizeof *b->ptr1);
	b->ptr2 = sb_xrealloc(b->ptr2, ((size_t)nseed + 1) * sizeof *b->ptr2);
	b->idx2 = grow(b->idx2, &b->cap_idx2, (size_t)nseed * fan[0], sizeof *b->idx2);
	for (i = 0; i < nseed; i++) {
		int li = local(b, &len, seeds[i]);
		SB_ASSERT(li == i);   /* seeds are distinct */
	}
	b->nseed = nseed;
	hop(b, g, fan[0], nseed, &len, b->ptr2, b->idx2, rng);
	b->n1 = len;
	b->idx1 = grow(b->idx1, &b->cap_idx1, (size_t)b->n1 * fan[1], sizeof *b->idx1);
	hop(b, g, fan[1], b->n1, &len, b->ptr1, b->idx1, rng);
	b->n2 = len;
	for (i = 0; i < len; i++)
		b->pos[b->nodes[i]] = -1;
}

/* ------------------------------------------------------------------ */
/* Model                                                               */
/* ------------------------------------------------------------------ */

int sb_cache_sage_init(struct sb_cache_sage *m, int din, int hidden, int nclass, double lr,
		       struct sb_rng *r, struct sb_err *err)
{
	int rc = 0;
	memset(m, 0, sizeof *m);
	if (hidden < 1 || nclass < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "graphsage: hidden width %d, %d classes: "
				  "expected at least 1 of each", hidden, nclass);
	if (!(m->l1 = sb_gnn_new_act(din, hidden, SB_NN_RELU, err)) ||
	    !(m->l2 = sb_gnn_new_act(hidden, nclass, SB_NN_LINEAR, err))) {
		rc = err->code ? err->code : SB_EXIT_RUN;
		goto out;
	}
	sb_gnn_init(m->l1, r);
	sb_gnn_init(m->l2, r);
	if ((rc = sb_nn_adam_init(&m->o1, m->l1->lin->nparams, lr)) ||
	    (rc = sb_nn_adam_init(&m->o2, m->l2->lin->nparams, lr))) {
		sb_err_set(err, rc, "graphsage: out of memory");
		goto out;
	}
	m->din = din;
	m->hidden = hidden;
	m->nclass = nclass;
out:
	if (rc)
		sb_cache_sage_release(m);
	return rc;
}

void sb_cache_sage_release(struct sb_cache_sage *m)
{
	sb_gnn_free(m->l1);
	sb_gnn_free(m->l2);
	sb_nn_opt_release(&m->o1);
	sb_nn_opt_release(&m->o2);
	sb_free(m->xin);
	sb_free(m->dz);
	sb_free(m->dh1);
	sb_free(m->fptr);
	sb_free(m->fidx);
	memset(m, 0, sizeof *m);
}

static void gather(struct sb_cache_sage *m, const struct sb_cache_feats *f, const int32_t *nodes,
		   int n)
{
	int i, d = f->dim;
	m->xin = grow(m->xin, &m->cap_in, (size_t)n * d, sizeof *m->xin);
	for (i = 0; i < n; i++)
		memcpy(m->xin + (size_t)i * d, f->x + (size_t)nodes[i] * d, (size_t)d * sizeof *m->xin);
}

const double *sb_cache_sage_forward(struct sb_cache_sage *m, const struct sb_cache_block *b,
				    const struct sb_cache_feats *f)
{
	const double *h1;
	gather(m, f, b->nodes, b->n2);
	h1 = sb_gnn_forward(m->l1, b->ptr1, b->idx1, b->n1, m->xin);
	return sb_gnn_forward(m->l2, b->ptr2, b->idx2, b->nseed, h1);
}

double sb_cache_sage_loss(struct sb_cache_sage *m, const struct sb_cache_block *b,
			  const struct sb_cache_feats *f, int grad)
{
	const double *z = m->l2->lin->a[1];   /* the logits of the last forward pass */
	int lab[1024], *labels = b->nseed <= 1024 ? lab : SB_NEW(int, b->nseed), i;
	double loss;

	for (i = 0; i < b->nseed; i++)
		labels[i] = f->label[b->nodes[i]];
	m->dz = grow(m->dz, &m->cap_z, (size_t)b->nseed * m->nclass, sizeof *m->dz);
	loss = sb_nn_xent(z, labels, grad ? m->dz : NULL, b->nseed, m->nclass);
	if (grad) {
		m->dh1 = grow(m->dh1, &m->cap_h1, (size_t)b->n1 * m->hidden, sizeof *m->dh1);
		memset(m->dh1, 0, (size_t)b->n1 * m->hidden * sizeof *m->dh1);
		sb_nn_zero_grad(m->l1->lin);
		sb_nn_zero_grad(m->l2->lin);
		sb_gnn_backward(m->l2, m->dz, m->dh1);
		sb_gnn_backward(m->l1, m->dh1, NULL);
	}
	if (labels != lab)
		sb_free(labels);
	return loss;
}

double sb_cache_sage_step(struct sb_cache_sage *m, const struct sb_cache_block *b,
			  const struct sb_cache_feats *f)
{
	double loss;
	sb_cache_sage_forward(m, b, f);
	loss = sb_cache_sage_loss(m, b, f, 1);
	sb_nn_opt_step(&m->o1, m->l1->lin->w, m->l1->lin->g);
	sb_nn_opt_step(&m->o2, m->l2->lin->w, m->l2->lin->g);
	return loss;
}

double sb_cache_sage_accuracy(struct sb_cache_sage *m, const struct sb_cache_graph *g,
			      const struct sb_cache_feats *f, const int32_t *nodes, int32_t n)
{
	const double *h1, *z;
	int32_t i, v, correct = 0;
	int c;

	if (m->fg != g) {
		/* the graph's CSR with int offsets, as the kernel's lists are */
		sb_free(m->fptr);
		sb_free(m->fidx);
		m->fptr = SB_NEW(int, (size_t)g->n + 1);
		m->fidx = SB_NEW(int, (size_t)(2 * g->m) + 1);
		for (v = 0; v <= g->n; v++)
			m->fptr[v] = (int)g->off[v];
		for (i = 0; i < 2 * g->m; i++)
			m->fidx[i] = g->adj[i];
		m->fg = g;
	}
	h1 = sb_gnn_forward(m->l1, m->fptr, m->fidx, g->n, f->x);
	z = sb_gnn_forward(m->l2, m->fptr, m->fidx, g->n, h1);
	for (i = 0; i < n; i++) {
		const double *r = z + (size_t)nodes[i] * m->nclass;
		int best = 0;
		for (c = 1; c < m->nclass; c++)
			if (r[c] > r[best])
				best = c;
		correct += best == f->label[nodes[i]];
	}
	return n ? (double)correct / n : 0;
}
