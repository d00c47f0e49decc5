/*
 * nn.c - the neural-network kernel (see nn.h for the design).
 *
 * Reconstructed/ours [O]: no code is copied from a framework; the
 * algorithms are the textbook ones (backpropagation; Adam: Kingma & Ba,
 * "Adam: A Method for Stochastic Optimization", ICLR 2015; He et al. 2015
 * and Glorot & Bengio 2010 initialisation).
 */
#include "nn.h"

#include <math.h>
#include <string.h>

/* The dense loops run over independent outputs (y[o], g[o]); GCC's -O2
 * cost model leaves them scalar because the lengths are not known at
 * compile time. Vectorising them changes no sum's order (each lane is its
 * own sum, no FP contraction under -std=c11), so results stay bit-identical,
 * and an SGD step of a 64-64-10 MLP runs about 1.6 times as fast. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("vect-cost-model=dynamic")
#endif

/* The two passes also get an AVX2 clone, chosen at load time where the CPU
 * has it: four lanes instead of SSE2's two, the same operations in each
 * lane (no FMA: -std=c11 turns contraction off), so the bits are those of
 * the default clone, and the advlearn training run is about a fifth
 * faster. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define SB_NN_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SB_NN_CLONES
#endif

/* ---------------------------------------------------------------- nets */

struct sb_nn *sb_nn_new(int nlayers, const int *size, const enum sb_nn_act *act,
			struct sb_err *err)
{
	struct sb_nn *nn = NULL;
	size_t np = 0;
	int l, maxw = 0;

	if (nlayers < 1) {
		sb_err_set(err, SB_EXIT_INPUT, "network needs at least one layer (got %d)", nlayers);
		return NULL;
	}
	for (l = 0; l <= nlayers; l++) {
		if (size[l] < 1 || size[l] > 1 << 20) {
			sb_err_set(err, SB_EXIT_INPUT, "network layer %d: width %d out of range [1, %d]",
				   l, size[l], 1 << 20);
			return NULL;
		}
		if (l < nlayers && (act[l] < SB_NN_LINEAR || act[l] > SB_NN_TANH)) {
			sb_err_set(err, SB_EXIT_INPUT, "network layer %d: unknown activation %d",
				   l, (int)act[l]);
			return NULL;
		}
		if (size[l] > maxw)
			maxw = size[l];
	}
	nn = sb_calloc(1, sizeof *nn);
	if (!nn)
		goto oom;
	nn->nlayers = nlayers;
	nn->maxw = maxw;
	nn->size = sb_calloc((size_t)nlayers + 1, sizeof *nn->size);
	nn->act = sb_calloc((size_t)nlayers, sizeof *nn->act);
	nn->off = sb_calloc((size_t)nlayers, sizeof *nn->off);
	nn->a = sb_calloc((size_t)nlayers + 1, sizeof *nn->a);
	if (!nn->size || !nn->act || !nn->off || !nn->a)
		goto oom;
	for (l = 0; l <= nlayers; l++)
		nn->size[l] = size[l];
	for (l = 0; l < nlayers; l++) {
		nn->act[l] = act[l];
		nn->off[l] = np;
		np += (size_t)size[l] * (size_t)size[l + 1] + (size_t)size[l + 1];
	}
	nn->nparams = np;
	nn->w = sb_calloc(np, sizeof *nn->w);
	nn->g = sb_calloc(np, sizeof *nn->g);
	if (!nn->w || !nn->g)
		goto oom;
	return nn;
oom:
	sb_nn_free(nn);
	sb_err_set(err, SB_EXIT_RUN, "out of memory for a network");
	return NULL;
}

static void free_work(struct sb_nn *nn)
{
	int l;

	for (l = 0; l <= nn->nlayers; l++) {
		sb_free(nn->a[l]);
		nn->a[l] = NULL;
	}
	sb_free(nn->d0);
	sb_free(nn->d1);
	sb_free(nn->wt);
	sb_free(nn->live);
	nn->d0 = nn->d1 = nn->wt = NULL;
	nn->live = NULL;
	nn->cap = 0;
}

void sb_nn_free(struct sb_nn *nn)
{
	if (!nn)
		return;
	if (nn->a)
		free_work(nn);
	sb_free(nn->a);
	sb_free(nn->size);
	sb_free(nn->act);
	sb_free(nn->off);
	sb_free(nn->w);
	sb_free(nn->g);
	sb_free(nn);
}

int sb_nn_inputs(const struct sb_nn *nn) { return nn->size[0]; }
int sb_nn_outputs(const struct sb_nn *nn) { return nn->size[nn->nlayers]; }

void sb_nn_init(struct sb_nn *nn, struct sb_rng *r)
{
	int l;
	size_t i;

	for (l = 0; l < nn->nlayers; l++) {
		int in = nn->size[l], out = nn->size[l + 1];
		/* He for ReLU keeps the activations' variance across layers;
		 * Glorot for tanh and linear layers. Uniform, so no sampler
		 * beyond the PCG stream is involved. */
		double lim = nn->act[l] == SB_NN_RELU ? sqrt(6.0 / in) : sqrt(6.0 / (in + out));
		double *w = nn->w + nn->off[l];
		size_t nw = (size_t)in * (size_t)out;

		for (i = 0; i < nw; i++)
			w[i] = lim * (2.0 * sb_rng_uniform(r) - 1.0);
		memset(w + nw, 0, (size_t)out * sizeof *w);
	}
	sb_nn_zero_grad(nn);
}

static void reserve(struct sb_nn *nn, int rows)
{
	int l;
	size_t nw = 1;

	if (rows <= nn->cap)
		return;
	free_work(nn);
	for (l = 0; l <= nn->nlayers; l++)
		nn->a[l] = sb_xcalloc((size_t)rows * (size_t)nn->size[l], sizeof(double));
	nn->d0 = sb_xcalloc((size_t)rows * (size_t)nn->maxw, sizeof(double));
	nn->d1 = sb_xcalloc((size_t)rows * (size_t)nn->maxw, sizeof(double));
	for (l = 0; l < nn->nlayers; l++)
		if ((size_t)nn->size[l] * (size_t)nn->size[l + 1] > nw)
			nw = (size_t)nn->size[l] * (size_t)nn->size[l + 1];
	nn->wt = sb_xcalloc(nw, sizeof(double));
	nn->live = sb_xcalloc((size_t)rows, sizeof *nn->live);
	nn->cap = rows;
}

/* ------------------------------------------------------ dense kernels
 *
 * The two products of a dense layer, blocked so that partial sums stay in
 * registers: a block of rows times a block of outputs (forward, dx), or a
 * block of inputs times a block of outputs summed over the rows (weight
 * gradient). Blocking changes which sums are computed together, never the
 * order of the terms within one sum: every y[r][o] is still b[o] + x[r][0]
 * w[0][o] + x[r][1] w[1][o] + ... and every g[i][o] still adds its rows in
 * increasing order, each product rounded before its addition (no FMA:
 * -std=c11 turns contraction off). So the bits are those of the plain
 * loops (tests/test_nn.c compares them), and the advlearn training run is
 * about twice as fast.
 *
 * The plain loops skipped a zero input (and a zero delta): adding x w =
 * +-0 to a partial sum changes no bit unless the sum is -0, and a sum
 * that starts at +0 or at a bias is -0 only if the bias itself is -0
 * (x + -x rounds to +0), which no initialisation or optimiser step here
 * produces; weights are finite. The kernels add those zeros instead of
 * branching on each. Rows whose whole delta is zero are still skipped
 * (they are common: unreached states of a policy table).
 */
#if defined(__GNUC__)
typedef double sb_v4 __attribute__((vector_size(32)));
#define V4_LOAD(v, p) memcpy(&(v), (p), sizeof(sb_v4))
#define V4_STORE(p, v) memcpy((p), &(v), sizeof(sb_v4))
#define V4_SPLAT(x) ((sb_v4){ (x), (x), (x), (x) })
/* A 4 x 8 block of partial sums in a0/a1 .. d0/d1: rows (or inputs) p0..p3
 * at column o; one step adds x_k times the two vectors e0/e1 to row k. */
#define ACC8_DECL sb_v4 a0, a1, b0, b1, c0, c1, d0, d1
#define ACC8_LOAD(p0, p1, p2, p3, o) do { \
	V4_LOAD(a0, (p0) + (o)); V4_LOAD(a1, (p0) + (o) + 4); \
	V4_LOAD(b0, (p1) + (o)); V4_LOAD(b1, (p1) + (o) + 4); \
	V4_LOAD(c0, (p2) + (o)); V4_LOAD(c1, (p2) + (o) + 4); \
	V4_LOAD(d0, (p3) + (o)); V4_LOAD(d1, (p3) + (o) + 4); } while (0)
#define ACC8_STORE(p0, p1, p2, p3, o) do { \
	V4_STORE((p0) + (o), a0); V4_STORE((p0) + (o) + 4, a1); \
	V4_STORE((p1) + (o), b0); V4_STORE((p1) + (o) + 4, b1); \
	V4_STORE((p2) + (o), c0); V4_STORE((p2) + (o) + 4, c1); \
	V4_STORE((p3) + (o), d0); V4_STORE((p3) + (o) + 4, d1); } while (0)
#define ACC8_STEP(x0, x1, x2, x3, e0, e1) do { sb_v4 s_; \
	s_ = V4_SPLAT(x0); a0 += s_ * (e0); a1 += s_ * (e1); \
	s_ = V4_SPLAT(x1); b0 += s_ * (e0); b1 += s_ * (e1); \
	s_ = V4_SPLAT(x2); c0 += s_ * (e0); c1 += s_ * (e1); \
	s_ = V4_SPLAT(x3); d0 += s_ * (e0); d1 += s_ * (e1); } while (0)
#define SB_NN_VEC 1
#define SB_NN_INLINE static inline __attribute__((always_inline))
#else
#define SB_NN_VEC 0
#define SB_NN_INLINE static inline
#endif

/* Y[r][o] += sum over i = 0..in-1, in that order, of X[r][i] W[i][o], for
 * rows rows (Y rows x out and W in x out row-major, X rows x in). */
SB_NN_INLINE void kern_xw(int rows, int in, int out, const double *X, const double *W,
			  double *Y)
{
	int r = 0, o, i;

#if SB_NN_VEC
	for (; r + 4 <= rows; r += 4) {
		int k;
		const double *x0 = X + (size_t)r * in, *x1 = x0 + in, *x2 = x1 + in, *x3 = x2 + in;
		double *y0 = Y + (size_t)r * out, *y1 = y0 + out, *y2 = y1 + out, *y3 = y2 + out;
		for (o = 0; o + 8 <= out; o += 8) {
			ACC8_DECL;
			ACC8_LOAD(y0, y1, y2, y3, o);
			for (i = 0; i < in; i++) {
				sb_v4 w0, w1;
				V4_LOAD(w0, W + (size_t)i * out + o);
				V4_LOAD(w1, W + (size_t)i * out + o + 4);
				ACC8_STEP(x0[i], x1[i], x2[i], x3[i], w0, w1);
			}
			ACC8_STORE(y0, y1, y2, y3, o);
		}
		for (; o < out; o++)
			for (k = 0; k < 4; k++) {
				const double *xr = X + (size_t)(r + k) * in;
				double acc = Y[(size_t)(r + k) * out + o];
				for (i = 0; i < in; i++)
					acc += xr[i] * W[(size_t)i * out + o];
				Y[(size_t)(r + k) * out + o] = acc;
			}
	}
#endif
	for (; r < rows; r++) {
		const double *xr = X + (size_t)r * in;
		double *y = Y + (size_t)r * out;
		for (i = 0; i < in; i++) {
			double xi = xr[i];
			const double *wi = W + (size_t)i * out;
			for (o = 0; o < out; o++)
				y[o] += xi * wi[o];
		}
	}
}

/* G[i][o] += sum over the listed rows r = list[0], list[1], ..., in that
 * order, of X[r][i] D[r][o] (G in x out, X rows x in, D rows x out). */
SB_NN_INLINE void kern_xtd(int n, const int *list, int in, int out, const double *X,
			   const double *D, double *G)
{
	int i = 0, o, j;

#if SB_NN_VEC
	for (; i + 4 <= in; i += 4) {
		double *g0 = G + (size_t)i * out, *g1 = g0 + out, *g2 = g1 + out, *g3 = g2 + out;
		for (o = 0; o + 8 <= out; o += 8) {
			ACC8_DECL;
			ACC8_LOAD(g0, g1, g2, g3, o);
			for (j = 0; j < n; j++) {
				const double *xr = X + (size_t)list[j] * in + i;
				const double *dr = D + (size_t)list[j] * out + o;
				sb_v4 e0, e1;
				V4_LOAD(e0, dr);
				V4_LOAD(e1, dr + 4);
				ACC8_STEP(xr[0], xr[1], xr[2], xr[3], e0, e1);
			}
			ACC8_STORE(g0, g1, g2, g3, o);
		}
		for (; o < out; o++) {
			double a[4];
			int k;
			for (k = 0; k < 4; k++)
				a[k] = G[(size_t)(i + k) * out + o];
			for (j = 0; j < n; j++) {
				const double *xr = X + (size_t)list[j] * in + i;
				double dv = D[(size_t)list[j] * out + o];
				for (k = 0; k < 4; k++)
					a[k] += xr[k] * dv;
			}
			for (k = 0; k < 4; k++)
				G[(size_t)(i + k) * out + o] = a[k];
		}
	}
#endif
	for (j = 0; j < n; j++) {
		const double *xr = X + (size_t)list[j] * in, *dr = D + (size_t)list[j] * out;
		int ii;
		for (ii = i; ii < in; ii++) {
			double xi = xr[ii], *gi = G + (size_t)ii * out;
			for (o = 0; o < out; o++)
				gi[o] += xi * dr[o];
		}
	}
}

/* ------------------------------------------------------------- forward */

SB_NN_CLONES const double *sb_nn_forward(struct sb_nn *nn, const double *x, int rows)
{
	int l, r;

	SB_ASSERT(rows >= 1);
	reserve(nn, rows);
	nn->rows = rows;
	memcpy(nn->a[0], x, (size_t)rows * (size_t)nn->size[0] * sizeof *x);
	for (l = 0; l < nn->nlayers; l++) {
		int in = nn->size[l], out = nn->size[l + 1];
		const double *w = nn->w + nn->off[l], *b = w + (size_t)in * out;
		double *Y = nn->a[l + 1];
		size_t n = (size_t)rows * (size_t)out, e;

		for (r = 0; r < rows; r++)
			memcpy(Y + (size_t)r * out, b, (size_t)out * sizeof *Y);
		kern_xw(rows, in, out, nn->a[l], w, Y);
		switch (nn->act[l]) {
		case SB_NN_RELU:
			for (e = 0; e < n; e++)
				Y[e] = Y[e] > 0 ? Y[e] : 0;
			break;
		case SB_NN_TANH:
			for (e = 0; e < n; e++)
				Y[e] = tanh(Y[e]);
			break;
		case SB_NN_LINEAR:
			break;
		}
	}
	return nn->a[nn->nlayers];
}

/* ------------------------------------------------------------ backward */

SB_NN_CLONES void sb_nn_backward(struct sb_nn *nn, const double *dout, double *dx)
{
	int rows = nn->rows, l, r, i, o, n;
	double *d = nn->d0, *dn = nn->d1;

	SB_ASSERT(rows >= 1 && rows <= nn->cap);
	memcpy(d, dout, (size_t)rows * (size_t)nn->size[nn->nlayers] * sizeof *d);
	for (l = nn->nlayers - 1; l >= 0; l--) {
		int in = nn->size[l], out = nn->size[l + 1];
		const double *w = nn->w + nn->off[l];
		double *gw = nn->g + nn->off[l], *gb = gw + (size_t)in * out;
		int need_dx = l > 0 || dx;

		/* dL/d(pre-activation), from the layer's output alone; the rows
		 * with a nonzero delta, in order */
		for (r = n = 0; r < rows; r++) {
			const double *y = nn->a[l + 1] + (size_t)r * out;
			double *dr = d + (size_t)r * out;
			int nz = 0;

			switch (nn->act[l]) {
			case SB_NN_RELU:
				for (o = 0; o < out; o++)
					if (y[o] <= 0)
						dr[o] = 0;
				break;
			case SB_NN_TANH:
				for (o = 0; o < out; o++)
					dr[o] *= 1.0 - y[o] * y[o];
				break;
			case SB_NN_LINEAR:
				break;
			}
			for (o = 0; o < out; o++)
				nz |= dr[o] != 0;
			if (nz) {
				for (o = 0; o < out; o++)
					gb[o] += dr[o];
				nn->live[n++] = r;
			}
		}
		kern_xtd(n, nn->live, in, out, nn->a[l], d, gw);
		if (need_dx) {
			double *DX = l > 0 ? dn : dx;
			/* W transposed: dx[r][i] sums over the outputs in order */
			for (i = 0; i < in; i++)
				for (o = 0; o < out; o++)
					nn->wt[(size_t)o * in + i] = w[(size_t)i * out + o];
			memset(DX, 0, (size_t)rows * (size_t)in * sizeof *DX);
			kern_xw(rows, out, in, d, nn->wt, DX);
		}
		if (l > 0) {
			double *t = d;
			d = dn;
			dn = t;
		}
	}
}

void sb_nn_zero_grad(struct sb_nn *nn)
{
	memset(nn->g, 0, nn->nparams * sizeof *nn->g);
}

double sb_nn_clip_grad(struct sb_nn *nn, double maxnorm)
{
	double s = 0, norm;
	size_t i;

	for (i = 0; i < nn->nparams; i++)
		s += nn->g[i] * nn->g[i];
	norm = sqrt(s);
	if (norm > maxnorm && norm > 0) {
		double k = maxnorm / norm;
		for (i = 0; i < nn->nparams; i++)
			nn->g[i] *= k;
	}
	return norm;
}

/* ------------------------------------------------------ softmax, losses */

void sb_nn_softmax(const double *z, double *p, int rows, int k,
		   const unsigned char *mask)
{
	int r, j;

	for (r = 0; r < rows; r++) {
		const double *zr = z + (size_t)r * k;
		const unsigned char *mr = mask ? mask + (size_t)r * k : NULL;
		double *pr = p + (size_t)r * k;
		double mx = -INFINITY, s = 0;

		for (j = 0; j < k; j++)
			if ((!mr || mr[j]) && zr[j] > mx)
				mx = zr[j];
		SB_ASSERT(mx > -INFINITY); /* a row with every entry masked */
		for (j = 0; j < k; j++) {
			pr[j] = (!mr || mr[j]) ? exp(zr[j] - mx) : 0.0;
			s += pr[j];
		}
		for (j = 0; j < k; j++)
			pr[j] /= s;
	}
}

void sb_nn_softmax_backward(const double *p, const double *dp, double *dz,
			    int rows, int k)
{
	int r, j;

	for (r = 0; r < rows; r++) {
		const double *pr = p + (size_t)r * k, *gr = dp + (size_t)r * k;
		double *zr = dz + (size_t)r * k;
		double s = 0;

		for (j = 0; j < k; j++)
			s += pr[j] * gr[j];
		for (j = 0; j < k; j++)
			zr[j] = pr[j] * (gr[j] - s);
	}
}

double sb_nn_mse(const double *y, const double *t, double *dy, int rows, int k)
{
	double loss = 0;
	size_t i, n = (size_t)rows * (size_t)k;

	for (i = 0; i < n; i++) {
		double e = y[i] - t[i];
		loss += 0.5 * e * e;
		if (dy)
			dy[i] = e / rows;
	}
	return loss / rows;
}

double sb_nn_xent(const double *z, const int *label, double *dz, int rows, int k)
{
	double loss = 0;
	int r, j;

	for (r = 0; r < rows; r++) {
		const double *zr = z + (size_t)r * k;
		double mx = zr[0], s = 0, lse;

		SB_ASSERT(label[r] >= 0 && label[r] < k);
		for (j = 1; j < k; j++)
			if (zr[j] > mx)
				mx = zr[j];
		for (j = 0; j < k; j++)
			s += exp(zr[j] - mx);
		lse = mx + log(s);
		loss += lse - zr[label[r]];
		if (dz)
			for (j = 0; j < k; j++)
				dz[(size_t)r * k + j] =
					(exp(zr[j] - lse) - (j == label[r])) / rows;
	}
	return loss / rows;
}

/* ----------------------------------------------------------- optimisers */

static int opt_init(struct sb_nn_opt *o, enum sb_nn_opt_kind kind, size_t n, double lr)
{
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->n = n;
	o->lr = lr;
	o->beta1 = 0.9;
	o->beta2 = 0.999;
	o->eps = 1e-8;
	o->m = sb_calloc(n ? n : 1, sizeof *o->m);
	o->v = kind == SB_NN_ADAM ? sb_calloc(n ? n : 1, sizeof *o->v) : NULL;
	if (!o->m || (kind == SB_NN_ADAM && !o->v)) {
		sb_nn_opt_release(o);
		return SB_EXIT_RUN;
	}
	return 0;
}

int sb_nn_adam_init(struct sb_nn_opt *o, size_t n, double lr)
{
	return opt_init(o, SB_NN_ADAM, n, lr);
}

int sb_nn_sgd_init(struct sb_nn_opt *o, size_t n, double lr, double momentum)
{
	int rc = opt_init(o, SB_NN_SGD, n, lr);
	o->momentum = momentum;
	return rc;
}

void sb_nn_opt_step(struct sb_nn_opt *o, double *w, const double *g)
{
	size_t i;

	o->t++;
	if (o->kind == SB_NN_SGD) {
		for (i = 0; i < o->n; i++) {
			o->m[i] = o->momentum * o->m[i] + g[i];
			w[i] -= o->lr * o->m[i];
		}
		return;
	}
	{
		double c1 = 1.0 - pow(o->beta1, (double)o->t);
		double c2 = 1.0 - pow(o->beta2, (double)o->t);
		double a = o->lr * sqrt(c2) / c1;
		/* Kingma & Ba's "efficient" form: the bias corrections are
		 * folded into the step size, eps stays un-corrected. */
		for (i = 0; i < o->n; i++) {
			o->m[i] = o->beta1 * o->m[i] + (1.0 - o->beta1) * g[i];
			o->v[i] = o->beta2 * o->v[i] + (1.0 - o->beta2) * g[i] * g[i];
			w[i] -= a * o->m[i] / (sqrt(o->v[i]) + o->eps);
		}
	}
}

void sb_nn_opt_release(struct sb_nn_opt *o)
{
	sb_free(o->m);
	sb_free(o->v);
	o->m = o->v = NULL;
}

double sb_nn_clip_grads(struct sb_nn *const *nets, int n, double maxnorm)
{
	double s = 0, norm;
	size_t i;
	int k;

	for (k = 0; k < n; k++)
		for (i = 0; i < nets[k]->nparams; i++)
			s += nets[k]->g[i] * nets[k]->g[i];
	norm = sqrt(s);
	if (norm > maxnorm && norm > 0) {
		double f = maxnorm / norm;
		for (k = 0; k < n; k++)
			for (i = 0; i < nets[k]->nparams; i++)
				nets[k]->g[i] *= f;
	}
	return norm;
}

/* -------------------------------------------------------- graph pieces */

int sb_nn_csr_from_parents(const int *parent, int n, int **ptr, int **idx,
			   struct sb_err *err)
{
	int *p = NULL, *x = NULL, *fill = NULL, v, rc = 0;

	*ptr = *idx = NULL;
	for (v = 0; v < n; v++)
		if (parent[v] < -1 || parent[v] >= n || parent[v] == v)
			return sb_err_set(err, SB_EXIT_INPUT, "tree node %d: parent %d out of range "
					  "[-1, %d) or itself", v, parent[v], n);
	/* walking up from every node must reach a root within n steps */
	for (v = 0; v < n; v++) {
		int u = v, steps = 0;
		while (u >= 0 && steps <= n) {
			u = parent[u];
			steps++;
		}
		if (u >= 0)
			return sb_err_set(err, SB_EXIT_INPUT, "tree node %d: its parents form a "
					  "cycle", v);
	}
	p = sb_xcalloc((size_t)n + 1, sizeof *p);
	fill = sb_xcalloc((size_t)n + 1, sizeof *fill);
	for (v = 0; v < n; v++)
		if (parent[v] >= 0) {
			p[v + 1]++;
			p[parent[v] + 1]++;
		}
	for (v = 0; v < n; v++)
		p[v + 1] += p[v];
	x = sb_xcalloc(p[n] ? (size_t)p[n] : 1, sizeof *x);
	for (v = 0; v < n; v++)
		fill[v] = p[v];
	for (v = 0; v < n; v++)
		if (parent[v] >= 0)
			x[fill[v]++] = parent[v];
	/* children in increasing order, after the parent */
	for (v = 0; v < n; v++)
		if (parent[v] >= 0)
			x[fill[parent[v]]++] = v;
	sb_free(fill);
	*ptr = p;
	*idx = x;
	return rc;
}

void sb_nn_csr_mean(const int *ptr, const int *idx, int nout, const double *h, int d,
		    double *out)
{
	int v, e, c;

	for (v = 0; v < nout; v++) {
		double *o = out + (size_t)v * d;
		int deg = ptr[v + 1] - ptr[v];

		memset(o, 0, (size_t)d * sizeof *o);
		for (e = ptr[v]; e < ptr[v + 1]; e++) {
			const double *hu = h + (size_t)idx[e] * d;
			for (c = 0; c < d; c++)
				o[c] += hu[c];
		}
		if (deg > 1)
			for (c = 0; c < d; c++)
				o[c] /= deg;
	}
}

void sb_nn_csr_mean_backward(const int *ptr, const int *idx, int nout, const double *dout,
			     int d, double *dh)
{
	int v, e, c;

	for (v = 0; v < nout; v++) {
		const double *go = dout + (size_t)v * d;
		int deg = ptr[v + 1] - ptr[v];

		for (e = ptr[v]; e < ptr[v + 1]; e++) {
			double *gu = dh + (size_t)idx[e] * d;
			for (c = 0; c < d; c++)
				gu[c] += go[c] / deg;
		}
	}
}

void sb_nn_csr_max(const int *ptr, const int *idx, int nout, const double *h, int d,
		   double *out, int *arg)
{
	int v, e, c;

	for (v = 0; v < nout; v++) {
		double *o = out + (size_t)v * d;
		int *a = arg + (size_t)v * d;

		for (c = 0; c < d; c++) {
			o[c] = 0;
			a[c] = -1;
		}
		for (e = ptr[v]; e < ptr[v + 1]; e++) {
			const double *hu = h + (size_t)idx[e] * d;
			for (c = 0; c < d; c++)
				if (a[c] < 0 || hu[c] > o[c]) {
					o[c] = hu[c];
					a[c] = idx[e];
				}
		}
	}
}

void sb_nn_csr_max_backward(const int *arg, int nout, const double *dout, int d, double *dh)
{
	size_t i, n = (size_t)nout * d;

	for (i = 0; i < n; i++)
		if (arg[i] >= 0)
			dh[(size_t)arg[i] * d + i % (size_t)d] += dout[i];
}

void sb_nn_readout(const int *ptr, const int *idx, int nout, const double *h, int d,
		   double *out, int *arg)
{
	double *mean = sb_xcalloc((size_t)nout * d, sizeof *mean);
	double *mx = sb_xcalloc((size_t)nout * d, sizeof *mx);
	int v;

	sb_nn_csr_mean(ptr, idx, nout, h, d, mean);
	sb_nn_csr_max(ptr, idx, nout, h, d, mx, arg);
	for (v = 0; v < nout; v++) {
		memcpy(out + (size_t)v * 2 * d, mean + (size_t)v * d, (size_t)d * sizeof *out);
		memcpy(out + (size_t)v * 2 * d + d, mx + (size_t)v * d, (size_t)d * sizeof *out);
	}
	sb_free(mean);
	sb_free(mx);
}

void sb_nn_readout_backward(const int *ptr, const int *idx, const int *arg, int nout,
			    const double *dout, int d, double *dh)
{
	double *dm = sb_xcalloc((size_t)nout * d, sizeof *dm);
	double *dx = sb_xcalloc((size_t)nout * d, sizeof *dx);
	int v;

	for (v = 0; v < nout; v++) {
		memcpy(dm + (size_t)v * d, dout + (size_t)v * 2 * d, (size_t)d * sizeof *dm);
		memcpy(dx + (size_t)v * d, dout + (size_t)v * 2 * d + d, (size_t)d * sizeof *dx);
	}
	sb_nn_csr_mean_backward(ptr, idx, nout, dm, d, dh);
	sb_nn_csr_max_backward(arg, nout, dx, d, dh);
	sb_free(dm);
	sb_free(dx);
}

/* ------------------------------------------------------------ GNN round */

struct sb_gnn *sb_gnn_new(int din, int dout, struct sb_err *err)
{
	return sb_gnn_new_act(din, dout, SB_NN_RELU, err);
}

struct sb_gnn *sb_gnn_new_act(int din, int dout, enum sb_nn_act actv, struct sb_err *err)
{
	int size[2] = { 2 * din, dout };
	enum sb_nn_act act[1] = { actv };
	struct sb_gnn *g;

	if (din < 1 || din > 1 << 19) {
		sb_err_set(err, SB_EXIT_INPUT, "gnn layer: input width %d out of range [1, %d]",
			   din, 1 << 19);
		return NULL;
	}
	g = sb_calloc(1, sizeof *g);
	if (!g) {
		sb_err_set(err, SB_EXIT_RUN, "out of memory for a gnn layer");
		return NULL;
	}
	g->lin = sb_nn_new(1, size, act, err);
	if (!g->lin) {
		sb_free(g);
		return NULL;
	}
	g->din = din;
	g->dout = dout;
	return g;
}

void sb_gnn_free(struct sb_gnn *g)
{
	if (!g)
		return;
	sb_nn_free(g->lin);
	sb_free(g->x);
	sb_free(g->dx);
	sb_free(g->dm);
	sb_free(g);
}

void sb_gnn_init(struct sb_gnn *g, struct sb_rng *r)
{
	sb_nn_init(g->lin, r);
}

const double *sb_gnn_forward(struct sb_gnn *g, const int *ptr, const int *idx, int n,
			     const double *h)
{
	int d = g->din, v;
	double *m;

	SB_ASSERT(n >= 1);
	if (n > g->cap) {
		sb_free(g->x);
		sb_free(g->dx);
		sb_free(g->dm);
		g->x = sb_xcalloc((size_t)n * 2 * d, sizeof *g->x);
		g->dx = sb_xcalloc((size_t)n * 2 * d, sizeof *g->dx);
		g->dm = sb_xcalloc((size_t)n * d, sizeof *g->dm);
		g->cap = n;
	}
	g->ptr = ptr;
	g->idx = idx;
	g->n = n;
	m = g->dm;
	sb_nn_csr_mean(ptr, idx, n, h, d, m);
	for (v = 0; v < n; v++) {
		memcpy(g->x + (size_t)v * 2 * d, h + (size_t)v * d, (size_t)d * sizeof *h);
		memcpy(g->x + (size_t)v * 2 * d + d, m + (size_t)v * d, (size_t)d * sizeof *h);
	}
	return sb_nn_forward(g->lin, g->x, n);
}

void sb_gnn_backward(struct sb_gnn *g, const double *dout, double *dh)
{
	int d = g->din, v, c;
	double *dm = g->dm;

	sb_nn_backward(g->lin, dout, dh ? g->dx : NULL);
	if (!dh)
		return;
	/* dx rows are [dh_self || dmean]: the first half is the gradient of
	 * h itself, the second is scattered back through the mean */
	for (v = 0; v < g->n; v++) {
		const double *r = g->dx + (size_t)v * 2 * d;
		for (c = 0; c < d; c++)
			dh[(size_t)v * d + c] += r[c];
		memcpy(dm + (size_t)v * d, r + d, (size_t)d * sizeof *dm);
	}
	sb_nn_csr_mean_backward(g->ptr, g->idx, g->n, dm, d, dh);
}
