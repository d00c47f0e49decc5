/*
 * test_nn.c - the neural-network kernel (core/nn.c): backpropagated
 * gradients against central finite differences on random small nets
 * (relative error <= 1e-6), the softmax and loss gradients, Adam against
 * its formula, a tiny regression and a tiny classification trained to a
 * set loss, bit-identical weights for a seed, the blocked kernels against
 * the plain loops bit for bit, bad sizes and failed allocations.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "nn.h"
#include "rng.h"
#include "sb.h"

/* Richardson-extrapolated central differences (error O(h^4)): with
 * h = 1e-4 truncation is near 1e-16 and rounding near 1e-12, well under the
 * 1e-6 the test asks, even for gradients of order 1e-5. */
#define FD_H 1e-4
#define FD_TOL 1e-6

static struct sb_nn *mk(int nl, const int *size, const enum sb_nn_act *act, uint64_t seed)
{
	struct sb_err err;
	struct sb_nn *nn = sb_nn_new(nl, size, act, &err);
	struct sb_rng r = sb_rng_stream(seed, 0, 0, SB_RNG_TEST);

	cr_assert_not_null(nn, "%s", err.msg);
	sb_nn_init(nn, &r);
	return nn;
}

/* Which ReLU units are active in the last forward pass: a central
 * difference across a kink is not a derivative, so such parameters are
 * skipped (and counted). */
static uint64_t relu_pattern(const struct sb_nn *nn)
{
	uint64_t h = 1469598103934665603ULL;
	int l;
	size_t i;

	for (l = 0; l < nn->nlayers; l++) {
		if (nn->act[l] != SB_NN_RELU)
			continue;
		for (i = 0; i < (size_t)nn->rows * nn->size[l + 1]; i++)
			h = (h ^ (uint64_t)(nn->a[l + 1][i] > 0)) * 1099511628211ULL;
	}
	return h;
}

/* The loss every gradient test differentiates: a random linear functional
 * of softmax(output) plus MSE to random targets on the raw output, so the
 * softmax, its backward and the MSE are all on the path. */
struct task {
	int rows, k;
	const double *x, *c, *t;
	const unsigned char *mask;
};

static double loss_of(struct sb_nn *nn, const struct task *tk, double *dout, double *dx)
{
	const double *y = sb_nn_forward(nn, tk->x, tk->rows);
	size_t n = (size_t)tk->rows * tk->k, i;
	double *p = sb_xcalloc(n, sizeof *p), *dp = sb_xcalloc(n, sizeof *dp);
	double *dy = sb_xcalloc(n, sizeof *dy);
	double L = sb_nn_mse(y, tk->t, dy, tk->rows, tk->k);

	sb_nn_softmax(y, p, tk->rows, tk->k, tk->mask);
	for (i = 0; i < n; i++)
		L += tk->c[i] * p[i];
	if (dout) {
		sb_nn_softmax_backward(p, tk->c, dp, tk->rows, tk->k);
		for (i = 0; i < n; i++)
			dout[i] = dy[i] + dp[i];
		sb_nn_zero_grad(nn);
		sb_nn_backward(nn, dout, dx);
	}
	sb_free(p);
	sb_free(dp);
	sb_free(dy);
	return L;
}

static double relerr(double a, double b)
{
	double d = fabs(a - b), s = fmax(fabs(a), fabs(b));
	/* below 1e-7 both are rounding noise of an O(1) loss: compare absolutely */
	return s < 1e-7 ? d / 1e-7 : d / s;
}

/* d loss / d *v by Richardson extrapolation; 0 if a step crosses a ReLU
 * kink (the activation pattern differs from pat). */
static int fd(struct sb_nn *nn, const struct task *tk, double *v, uint64_t pat, double *out)
{
	static const double step[4] = { FD_H, -FD_H, 2 * FD_H, -2 * FD_H };
	double v0 = *v, f[4];
	int s, ok = 1;

	for (s = 0; s < 4; s++) {
		*v = v0 + step[s];
		f[s] = loss_of(nn, tk, NULL, NULL);
		ok &= relu_pattern(nn) == pat;
	}
	*v = v0;
	*out = (8 * (f[0] - f[1]) - (f[2] - f[3])) / (12 * FD_H);
	return ok;
}

static void grad_check(int nl, const int *size, const enum sb_nn_act *act, uint64_t seed,
		       int use_mask)
{
	struct sb_rng r = sb_rng_stream(seed, 1, 0, SB_RNG_TEST);
	struct sb_nn *nn = mk(nl, size, act, seed);
	int rows = 5, in = size[0], k = size[nl], i, skipped = 0, checked = 0;
	size_t n = (size_t)rows * k, j;
	double *x = sb_xcalloc((size_t)rows * in, sizeof *x), *c = sb_xcalloc(n, sizeof *c);
	double *t = sb_xcalloc(n, sizeof *t), *dout = sb_xcalloc(n, sizeof *dout);
	double *dx = sb_xcalloc((size_t)rows * in, sizeof *dx);
	double *g = sb_xcalloc(nn->nparams, sizeof *g);
	unsigned char *mask = sb_xcalloc(n, 1);
	struct task tk = { rows, k, x, c, t, use_mask ? mask : NULL };
	uint64_t pat;

	for (i = 0; i < rows * in; i++)
		x[i] = 2 * sb_rng_uniform(&r) - 1;
	/* random biases too: zero biases put a unit whose inputs are all zero
	 * exactly on its ReLU kink */
	for (j = 0; j < nn->nparams; j++)
		nn->w[j] += 0.2 * sb_rng_uniform(&r) - 0.1;
	for (j = 0; j < n; j++) {
		c[j] = 2 * sb_rng_uniform(&r) - 1;
		t[j] = 2 * sb_rng_uniform(&r) - 1;
		mask[j] = j % (size_t)k == 0 || sb_rng_bernoulli(&r, 0.7);
	}
	loss_of(nn, &tk, dout, dx);
	memcpy(g, nn->g, nn->nparams * sizeof *g);
	pat = relu_pattern(nn);
	for (j = 0; j < nn->nparams; j++) {
		double num;
		if (!fd(nn, &tk, &nn->w[j], pat, &num)) {
			skipped++;
			continue;
		}
		cr_assert_leq(relerr(g[j], num), FD_TOL, "param %zu: backprop %.12g, fd %.12g",
			      j, g[j], num);
		checked++;
	}
	/* the input gradient, same way */
	for (i = 0; i < rows * in; i++) {
		double num;
		if (!fd(nn, &tk, &x[i], pat, &num))
			continue;
		cr_assert_leq(relerr(dx[i], num), FD_TOL, "input %d: backprop %.12g, fd %.12g",
			      i, dx[i], num);
	}
	cr_assert_leq(skipped, (int)nn->nparams / 20, "%d of %zu parameters sit on a ReLU kink",
		      skipped, nn->nparams);
	cr_assert_gt(checked, 0);
	sb_free(x);
	sb_free(c);
	sb_free(t);
	sb_free(dout);
	sb_free(dx);
	sb_free(g);
	sb_free(mask);
	sb_nn_free(nn);
}

Test(nn, gradients_match_finite_differences)
{
	struct sb_rng r = sb_rng_stream(7, 0, 0, SB_RNG_TEST);
	int trial;

	/* random small nets: 1-3 layers, widths 1-7, random activations */
	for (trial = 0; trial < 40; trial++) {
		int nl = 1 + (int)sb_rng_below(&r, 3), size[4], l;
		enum sb_nn_act act[3];
		for (l = 0; l <= nl; l++)
			size[l] = 1 + (int)sb_rng_below(&r, 7);
		size[nl] += 1; /* softmax over >= 2 outputs */
		for (l = 0; l < nl; l++)
			act[l] = (enum sb_nn_act)sb_rng_below(&r, 3);
		grad_check(nl, size, act, 100 + (uint64_t)trial, trial & 1);
	}
}

Test(nn, gradient_of_policy_sized_net)
{
	/* the shape the learned pricing policy uses: 3 -> 32 -> 32 -> 16 */
	int size[] = { 3, 32, 32, 16 };
	enum sb_nn_act act[] = { SB_NN_RELU, SB_NN_RELU, SB_NN_LINEAR };
	grad_check(3, size, act, 5, 0);
}

Test(nn, xent_gradient_and_value)
{
	double z[] = { 1.0, 2.0, 0.5, -1.0, 0.0, 3.0 }, dz[6], p[6];
	int label[] = { 1, 2 }, j;
	double L = sb_nn_xent(z, label, dz, 2, 3);

	sb_nn_softmax(z, p, 2, 3, NULL);
	cr_assert_float_eq(L, 0.5 * (-log(p[1]) - log(p[5])), 1e-12);
	for (j = 0; j < 6; j++) {
		double zp[6], zm[6], num;
		memcpy(zp, z, sizeof z);
		memcpy(zm, z, sizeof z);
		zp[j] += 1e-6;
		zm[j] -= 1e-6;
		num = (sb_nn_xent(zp, label, NULL, 2, 3) - sb_nn_xent(zm, label, NULL, 2, 3)) / 2e-6;
		cr_assert_leq(relerr(dz[j], num), 1e-6, "logit %d: %.12g vs %.12g", j, dz[j], num);
	}
}

Test(nn, masked_softmax)
{
	double z[] = { 5.0, 1.0, 1.0, 1.0 }, p[4];
	unsigned char m[] = { 0, 1, 1, 0 };

	sb_nn_softmax(z, p, 1, 4, m);
	cr_assert_eq(p[0], 0.0);
	cr_assert_eq(p[3], 0.0);
	cr_assert_float_eq(p[1], 0.5, 1e-15);
	cr_assert_float_eq(p[2], 0.5, 1e-15);
	/* huge logits do not overflow */
	z[1] = 1e4;
	sb_nn_softmax(z, p, 1, 4, m);
	cr_assert_float_eq(p[1], 1.0, 1e-15);
}

Test(nn, adam_matches_formula)
{
	struct sb_nn_opt o;
	double w[2] = { 1.0, -2.0 }, g[2] = { 0.5, -4.0 };
	double m, v, c1, c2, w1;

	cr_assert_eq(sb_nn_adam_init(&o, 2, 0.1), 0);
	sb_nn_opt_step(&o, w, g);
	/* first step: m_hat = g, v_hat = g^2, step = lr * g / (|g| + eps') */
	cr_assert_float_eq(w[0], 1.0 - 0.1, 1e-7);
	cr_assert_float_eq(w[1], -2.0 + 0.1, 1e-7);
	w1 = w[0];
	sb_nn_opt_step(&o, w, g);
	m = 0.9 * 0.1 * 0.5 + 0.1 * 0.5;
	v = 0.999 * 0.001 * 0.25 + 0.001 * 0.25;
	c1 = 1 - 0.81;
	c2 = 1 - 0.999 * 0.999;
	cr_assert_float_eq(w[0], w1 - 0.1 * (m / c1) / (sqrt(v / c2) + 1e-8 * sqrt(1 / c2)), 1e-12);
	sb_nn_opt_release(&o);

	cr_assert_eq(sb_nn_sgd_init(&o, 2, 0.1, 0.5), 0);
	w[0] = 1.0;
	sb_nn_opt_step(&o, w, g);
	sb_nn_opt_step(&o, w, g);
	cr_assert_float_eq(w[0], 1.0 - 0.1 * 0.5 - 0.1 * (0.5 * 0.5 + 0.5), 1e-15);
	sb_nn_opt_release(&o);
}

Test(nn, clip_grad)
{
	int size[] = { 1, 1 };
	enum sb_nn_act act[] = { SB_NN_LINEAR };
	struct sb_nn *nn = mk(1, size, act, 1);

	nn->g[0] = 3;
	nn->g[1] = 4;
	cr_assert_float_eq(sb_nn_clip_grad(nn, 1.0), 5.0, 1e-15);
	cr_assert_float_eq(nn->g[0], 0.6, 1e-15);
	cr_assert_float_eq(nn->g[1], 0.8, 1e-15);
	cr_assert_float_eq(sb_nn_clip_grad(nn, 2.0), 1.0, 1e-15);
	cr_assert_float_eq(nn->g[0], 0.6, 1e-15);
	sb_nn_free(nn);
}

/* ------------------------------------------------------------- training */

/* y = sin(2 x1) + x2^2 - 0.5 on 64 points of [-1, 1]^2. */
static double train_regression(uint64_t seed, int steps, double *wout, size_t *np)
{
	int size[] = { 2, 16, 16, 1 };
	enum sb_nn_act act[] = { SB_NN_TANH, SB_NN_TANH, SB_NN_LINEAR };
	struct sb_nn *nn = mk(3, size, act, seed);
	struct sb_rng r = sb_rng_stream(seed, 2, 0, SB_RNG_TEST);
	struct sb_nn_opt o;
	double x[128], t[64], dy[64], L = 0;
	int i, s;

	for (i = 0; i < 64; i++) {
		x[2 * i] = 2 * sb_rng_uniform(&r) - 1;
		x[2 * i + 1] = 2 * sb_rng_uniform(&r) - 1;
		t[i] = sin(2 * x[2 * i]) + x[2 * i + 1] * x[2 * i + 1] - 0.5;
	}
	cr_assert_eq(sb_nn_adam_init(&o, nn->nparams, 1e-2), 0);
	for (s = 0; s < steps; s++) {
		const double *y = sb_nn_forward(nn, x, 64);
		L = sb_nn_mse(y, t, dy, 64, 1);
		sb_nn_zero_grad(nn);
		sb_nn_backward(nn, dy, NULL);
		sb_nn_opt_step(&o, nn->w, nn->g);
	}
	if (wout) {
		memcpy(wout, nn->w, nn->nparams * sizeof *wout);
		*np = nn->nparams;
	}
	sb_nn_opt_release(&o);
	sb_nn_free(nn);
	return L;
}

Test(nn, tiny_regression_trains)
{
	double L = train_regression(3, 1500, NULL, NULL);
	/* the targets' variance is about 0.5; 0.5 * MSE < 1e-3 is a fit */
	cr_assert_lt(L, 1e-3, "regression loss %g after 1500 Adam steps", L);
}

/* three interleaved arcs ("spirals") in the plane, 30 points each */
Test(nn, tiny_classification_trains)
{
	int size[] = { 2, 24, 24, 3 };
	enum sb_nn_act act[] = { SB_NN_RELU, SB_NN_RELU, SB_NN_LINEAR };
	struct sb_nn *nn = mk(3, size, act, 11);
	struct sb_nn_opt o;
	double x[180], dz[270], L = 0;
	int label[90], i, s, correct = 0;

	for (i = 0; i < 90; i++) {
		int c = i % 3;
		double rr = 0.1 + 0.9 * (i / 3) / 29.0, th = 2.0 * c + 3.0 * rr;
		x[2 * i] = rr * cos(th);
		x[2 * i + 1] = rr * sin(th);
		label[i] = c;
	}
	cr_assert_eq(sb_nn_adam_init(&o, nn->nparams, 1e-2), 0);
	for (s = 0; s < 2000; s++) {
		const double *z = sb_nn_forward(nn, x, 90);
		L = sb_nn_xent(z, label, dz, 90, 3);
		sb_nn_zero_grad(nn);
		sb_nn_backward(nn, dz, NULL);
		sb_nn_opt_step(&o, nn->w, nn->g);
	}
	{
		const double *z = sb_nn_forward(nn, x, 90);
		for (i = 0; i < 90; i++) {
			int j, best = 0;
			for (j = 1; j < 3; j++)
				if (z[3 * i + j] > z[3 * i + best])
					best = j;
			correct += best == label[i];
		}
	}
	cr_assert_lt(L, 0.05, "cross-entropy %g after 2000 Adam steps", L);
	cr_assert_eq(correct, 90);
	sb_nn_opt_release(&o);
	sb_nn_free(nn);
}

Test(nn, bit_identical_for_a_seed)
{
	double a[512], b[512], c[512];
	size_t na, nb, nc;

	train_regression(42, 200, a, &na);
	train_regression(42, 200, b, &nb);
	train_regression(43, 200, c, &nc);
	cr_assert_eq(na, nb);
	cr_assert_leq(na, 512);
	cr_assert_eq(memcmp(a, b, na * sizeof *a), 0, "same seed, different weights");
	cr_assert_neq(memcmp(a, c, na * sizeof *a), 0, "different seeds, same weights");
}

/* The plain per-row loops the blocked kernels of nn.c replaced (one sum
 * per output, its terms in input order, zero inputs and zero deltas
 * skipped): forward into y (rows x out per layer, concatenated), then
 * backward of dout into g and dx. */
static void ref_pass(const struct sb_nn *nn, const double *x, int rows, const double *dout,
		     double **a, double *g, double *dx)
{
	int l, r, i, o, L = nn->nlayers;
	double *d = NULL, *dn;

	memcpy(a[0], x, (size_t)rows * nn->size[0] * sizeof *x);
	for (l = 0; l < L; l++) {
		int in = nn->size[l], out = nn->size[l + 1];
		const double *w = nn->w + nn->off[l], *b = w + (size_t)in * out;
		for (r = 0; r < rows; r++) {
			double *y = a[l + 1] + (size_t)r * out;
			memcpy(y, b, (size_t)out * sizeof *y);
			for (i = 0; i < in; i++)
				if (a[l][(size_t)r * in + i] != 0.0)
					for (o = 0; o < out; o++)
						y[o] += a[l][(size_t)r * in + i] * w[(size_t)i * out + o];
			for (o = 0; o < out; o++)
				if (nn->act[l] == SB_NN_RELU)
					y[o] = y[o] > 0 ? y[o] : 0;
				else if (nn->act[l] == SB_NN_TANH)
					y[o] = tanh(y[o]);
		}
	}
	d = sb_xcalloc((size_t)rows * 64, sizeof *d);
	dn = sb_xcalloc((size_t)rows * 64, sizeof *dn);
	memcpy(d, dout, (size_t)rows * nn->size[L] * sizeof *d);
	for (l = L - 1; l >= 0; l--) {
		int in = nn->size[l], out = nn->size[l + 1], nz;
		const double *w = nn->w + nn->off[l];
		double *gw = g + nn->off[l], *gb = gw + (size_t)in * out, *t;
		for (r = 0; r < rows; r++) {
			const double *y = a[l + 1] + (size_t)r * out;
			double *dr = d + (size_t)r * out, *dxr = (l > 0 ? dn : dx) + (size_t)r * in;
			for (o = nz = 0; o < out; o++) {
				if (nn->act[l] == SB_NN_RELU && y[o] <= 0)
					dr[o] = 0;
				else if (nn->act[l] == SB_NN_TANH)
					dr[o] *= 1.0 - y[o] * y[o];
				nz |= dr[o] != 0;
			}
			if (nz) {
				for (o = 0; o < out; o++)
					gb[o] += dr[o];
				for (i = 0; i < in; i++)
					if (a[l][(size_t)r * in + i] != 0.0)
						for (o = 0; o < out; o++)
							gw[(size_t)i * out + o] +=
								a[l][(size_t)r * in + i] * dr[o];
			}
			memset(dxr, 0, (size_t)in * sizeof *dxr);
			for (o = 0; o < out; o++)
				if (dr[o] != 0.0)
					for (i = 0; i < in; i++)
						dxr[i] += w[(size_t)i * out + o] * dr[o];
		}
		t = d;
		d = dn;
		dn = t;
	}
	sb_free(d);
	sb_free(dn);
}

Test(nn, blocked_kernels_match_the_plain_loops_bit_for_bit)
{
	/* widths around the kernels' blocks (4 rows or inputs, 8 outputs) and
	 * their remainders; ReLU nets give zero inputs and all-zero deltas */
	static const int shapes[][4] = { { 3, 32, 32, 16 }, { 9, 32, 32, 64 }, { 5, 7, 13, 1 },
					 { 1, 8, 4, 3 }, { 12, 33, 9, 17 } };
	static const int rowsv[] = { 1, 3, 4, 7, 29 };
	enum sb_nn_act acts[3][3] = { { SB_NN_RELU, SB_NN_RELU, SB_NN_LINEAR },
				      { SB_NN_TANH, SB_NN_RELU, SB_NN_TANH },
				      { SB_NN_RELU, SB_NN_LINEAR, SB_NN_RELU } };
	int s, k, ri, checked = 0;

	for (s = 0; s < 5; s++)
		for (k = 0; k < 3; k++)
			for (ri = 0; ri < 5; ri++) {
				int rows = rowsv[ri], l, in = shapes[s][0], out = shapes[s][3];
				struct sb_nn *nn = mk(3, shapes[s], acts[k], 100 + s * 10 + k);
				struct sb_rng r = sb_rng_stream(7, s, k * 10 + ri, SB_RNG_TEST);
				double *x = sb_xcalloc((size_t)rows * in, sizeof *x);
				double *dout = sb_xcalloc((size_t)rows * out, sizeof *dout);
				double *dx = sb_xcalloc((size_t)rows * in, sizeof *dx);
				double *dx2 = sb_xcalloc((size_t)rows * in, sizeof *dx2);
				double *g = sb_xcalloc(nn->nparams, sizeof *g), *a[4];
				const double *y;
				int e;
				for (e = 0; e < rows * in; e++)
					x[e] = sb_rng_uniform(&r) < 0.3 ? 0 : 2 * sb_rng_uniform(&r) - 1;
				for (e = 0; e < rows * out; e++)
					/* whole rows of zero deltas, as unreached states give */
					dout[e] = (e / out) % 3 == 1 ? 0 : 2 * sb_rng_uniform(&r) - 1;
				for (l = 0; l < 4; l++)
					a[l] = sb_xcalloc((size_t)rows * 64, sizeof *a[l]);
				ref_pass(nn, x, rows, dout, a, g, dx);
				y = sb_nn_forward(nn, x, rows);
				cr_assert_eq(memcmp(y, a[3], (size_t)rows * out * sizeof *y), 0,
					     "forward differs (shape %d, acts %d, rows %d)", s, k, rows);
				sb_nn_zero_grad(nn);
				sb_nn_backward(nn, dout, dx2);
				cr_assert_eq(memcmp(nn->g, g, nn->nparams * sizeof *g), 0,
					     "weight gradient differs (shape %d, acts %d, rows %d)",
					     s, k, rows);
				cr_assert_eq(memcmp(dx, dx2, (size_t)rows * in * sizeof *dx), 0,
					     "input gradient differs (shape %d, acts %d, rows %d)",
					     s, k, rows);
				checked++;
				for (l = 0; l < 4; l++)
					sb_free(a[l]);
				sb_free(x);
				sb_free(dout);
				sb_free(dx);
				sb_free(dx2);
				sb_free(g);
				sb_nn_free(nn);
			}
	cr_assert_eq(checked, 75);
}

/* -------------------------------------------------------- bad input, OOM */

Test(nn, bad_sizes_are_errors)
{
	struct sb_err err;
	int size[] = { 3, 0, 2 };
	enum sb_nn_act act[] = { SB_NN_RELU, SB_NN_LINEAR }, bad[] = { SB_NN_RELU, 9 };
	int ok[] = { 3, 4, 2 };

	err.code = 0;
	cr_assert_null(sb_nn_new(2, size, act, &err));
	cr_assert_eq(err.code, SB_EXIT_INPUT);
	cr_assert_not_null(strstr(err.msg, "layer 1"), "%s", err.msg);
	cr_assert_null(sb_nn_new(0, ok, act, &err));
	cr_assert_eq(err.code, SB_EXIT_INPUT);
	cr_assert_null(sb_nn_new(2, ok, bad, &err));
	cr_assert_not_null(strstr(err.msg, "activation"), "%s", err.msg);
}

Test(nn, failed_allocations_are_reported)
{
	int size[] = { 3, 4, 2 };
	enum sb_nn_act act[] = { SB_NN_RELU, SB_NN_LINEAR };
	struct sb_err err;
	struct sb_nn_opt o;
	long k;

	for (k = 1; k <= 8; k++) {
		struct sb_nn *nn;
		sb_mem_fail_at(k);
		nn = sb_nn_new(2, size, act, &err);
		sb_mem_fail_at(0);
		if (nn) {
			sb_nn_free(nn);
			break;
		}
		cr_assert_eq(err.code, SB_EXIT_RUN);
	}
	cr_assert_gt(k, 1, "the first allocation failed yet a net came back");
	sb_mem_fail_at(1);
	cr_assert_eq(sb_nn_adam_init(&o, 10, 0.1), SB_EXIT_RUN);
	sb_mem_fail_at(0);
	cr_assert_null(o.m);
}
