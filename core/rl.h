/*
 * rl.h - generic pieces of on-policy actor-critic training (PPO, A2C) that
 * any learned scheduler can use: generalised advantage estimation, the
 * clipped surrogate and plain policy-gradient losses, the entropy of a
 * masked softmax policy and its gradient, the value loss, advantage
 * normalisation and linear schedules.
 *
 * [O] textbook algorithms, no framework code: Schulman et al., "High-
 * Dimensional Continuous Control Using Generalized Advantage Estimation",
 * ICLR 2016 (GAE); Schulman et al., "Proximal Policy Optimization
 * Algorithms", arXiv:1707.06347, 2017 (clipped surrogate); Mnih et al.,
 * "Asynchronous Methods for Deep Reinforcement Learning", ICML 2016 (A2C's
 * loss, the entropy bonus).
 *
 * Every loss is to be minimised and comes with its derivative with respect
 * to the quantity the network produces (a log-probability, logits, a
 * value), which the caller backpropagates with the NN kernel (core/nn.h).
 * Sums run in index order: results are bit-identical for the same inputs.
 */
#ifndef SB_RL_H
#define SB_RL_H

/* Advantages and returns of one finite episode of n steps (the last step
 * is terminal, its successor's value is 0): delta_t = r_t + gamma
 * v_{t+1} - v_t, adv_t = sum_k (gamma lambda)^k delta_{t+k}, ret_t =
 * adv_t + v_t. adv and ret have n entries. */
void sb_rl_gae(const double *r, const double *v, int n, double gamma, double lambda,
	       double *adv, double *ret);
/* Shift and scale x (n entries) to mean 0 and standard deviation 1; a
 * constant x becomes all zeros. */
void sb_rl_normalise(double *x, int n);

/* Entropy -sum p log p of a distribution over k entries (zero entries,
 * e.g. masked actions, contribute 0). */
double sb_rl_entropy(const double *p, int k);
/* dL/dz for p = softmax(z) (masked entries have p = 0) and L = dlogp *
 * log p_a + dent * H(p): the gradient of the chosen action's
 * log-probability is onehot(a) - p, that of the entropy -p_j (log p_j +
 * H). Masked entries get exactly 0. */
void sb_rl_logits_grad(const double *p, int k, int a, double dlogp, double dent, double *dz);

/* PPO's clipped surrogate for one sample, L = -min(rho A, clip(rho, 1 -
 * eps, 1 + eps) A) with rho = exp(logp - logp_old); *dlogp = dL/dlogp (0
 * where the clipped branch is the minimum). */
double sb_rl_ppo_loss(double logp, double logp_old, double adv, double eps, double *dlogp);
/* The plain policy-gradient (A2C) loss L = -A logp; *dlogp = -A. */
double sb_rl_pg_loss(double logp, double adv, double *dlogp);
/* L = 0.5 (v - ret)^2; *dv = v - ret. */
double sb_rl_value_loss(double v, double ret, double *dv);

/* a + (b - a) clamp(frac, 0, 1): entropy and load schedules. */
double sb_rl_linear(double a, double b, double frac);

#endif
