/*
 * rl.c - generic actor-critic training pieces (see rl.h). [O]
 */
#include "rl.h"

#include <math.h>

void sb_rl_gae(const double *r, const double *v, int n, double gamma, double lambda,
	       double *adv, double *ret)
{
	double a = 0;
	int t;

	for (t = n - 1; t >= 0; t--) {
		double vnext = t + 1 < n ? v[t + 1] : 0.0;
		double delta = r[t] + gamma * vnext - v[t];
		a = delta + gamma * lambda * a;
		adv[t] = a;
		ret[t] = a + v[t];
	}
}

void sb_rl_normalise(double *x, int n)
{
	double mean = 0, var = 0, sd;
	int i;

	if (n < 1)
		return;
	for (i = 0; i < n; i++)
		mean += x[i];
	mean /= n;
	for (i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean);
	sd = sqrt(var / n);
	for (i = 0; i < n; i++)
		x[i] = sd > 1e-12 ? (x[i] - mean) / sd : 0.0;
}

double sb_rl_entropy(const double *p, int k)
{
	double h = 0;
	int j;

	for (j = 0; j < k; j++)
		if (p[j] > 0)
			h -= p[j] * log(p[j]);
	return h;
}

void sb_rl_logits_grad(const double *p, int k, int a, double dlogp, double dent, double *dz)
{
	double h = sb_rl_entropy(p, k);
	int j;

	for (j = 0; j < k; j++) {
		if (p[j] <= 0) {
			dz[j] = 0;
			continue;
		}
		dz[j] = dlogp * ((j == a) - p[j]) - dent * p[j] * (log(p[j]) + h);
	}
}

double sb_rl_ppo_loss(double logp, double logp_old, double adv, double eps, double *dlogp)
{
	double rho = exp(logp - logp_old);
	double rc = rho < 1 - eps ? 1 - eps : rho > 1 + eps ? 1 + eps : rho;
	double un = rho * adv, cl = rc * adv;

	/* the unclipped term carries the gradient only where it is the
	 * minimum, i.e. where the ratio has not yet moved past the clip in
	 * the direction the advantage rewards */
	if (un <= cl) {
		*dlogp = -un;
		return -un;
	}
	*dlogp = 0;
	return -cl;
}

double sb_rl_pg_loss(double logp, double adv, double *dlogp)
{
	*dlogp = -adv;
	return -adv * logp;
}

double sb_rl_value_loss(double v, double ret, double *dv)
{
	*dv = v - ret;
	return 0.5 * (v - ret) * (v - ret);
}

double sb_rl_linear(double a, double b, double frac)
{
	frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
	return a + (b - a) * frac;
}
