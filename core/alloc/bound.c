/*
 * bound.c - the GLPK models of the alloc family (see bound.h): GADGET's
 * configuration ILP (gadget.md §8) and the PS-locality time-indexed
 * packing/covering ILP (pslocality.md §2), with their LP relaxations.
 * Ours [O]; the call recipe follows gadget.md §8 through core/lp.h.
 */
#include "bound.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TIME_SAFETY_S 600.0   /* a safety net only: stored solves end on nodes */
#define FAIR_TANGENTS 16

void sb_alloc_bound_limits(struct sb_lp *lp, long nodes)
{
	struct sb_lp_params par = { 0 };
	par.node_limit = nodes > 0 ? nodes : SB_ALLOC_NODE_LIMIT;
	par.iter_limit = SB_ALLOC_ITER_LIMIT;
	par.pseudocost = 1;
	sb_lp_set_params(lp, &par);
}

int sb_alloc_bound_finish(struct sb_lp *lp, const char *model, int relax, int maximize, double constant,
		  struct sb_alloc_bound *b, struct sb_err *err)
{
	struct sb_lp_result res;
	int rc;

	memset(b, 0, sizeof *b);
	snprintf(b->model, sizeof b->model, "%s-%s", model, relax ? "lp" : "ilp");
	b->ncols = sb_lp_ncols(lp);
	b->nrows = sb_lp_nrows(lp);
	if ((rc = sb_lp_solve(lp, relax, TIME_SAFETY_S, 0, &res, err)))
		return rc;
	b->seconds = res.seconds;
	b->nodes = res.nodes;
	switch (res.status) {
	case SB_LP_OPTIMAL:
		b->optimal = 1;
		b->bound = res.obj + constant;
		b->has_incumbent = !relax;
		b->incumbent = b->bound;
		snprintf(b->status, sizeof b->status, "%s", relax ? "lp-optimal" : "optimal");
		break;
	case SB_LP_FEASIBLE:
	case SB_LP_NOSOLUTION:
		if (res.stopped == SB_LP_STOP_TIME) {
			rc = sb_err_set(err, SB_EXIT_RUN, "%s: stopped by the %g s safety time limit "
					"before its node limit: no machine-independent result", b->model,
					TIME_SAFETY_S);
			break;
		}
		b->bound = res.bound + constant;
		b->has_incumbent = res.status == SB_LP_FEASIBLE;
		b->incumbent = res.obj + constant;
		snprintf(b->status, sizeof b->status, "%s-limit", sb_lp_stop_name(res.stopped));
		break;
	case SB_LP_INFEASIBLE:
		rc = sb_err_set(err, SB_EXIT_RUN, "%s: the model is infeasible (a job cannot reach "
				"its target within the %s)", b->model,
				maximize ? "capacity" : "horizon; give more slots");
		break;
	case SB_LP_UNBOUNDED:
		rc = sb_err_set(err, SB_EXIT_RUN, "%s: the model is unbounded (a modelling error)",
				b->model);
		break;
	default:
		rc = sb_err_set(err, SB_EXIT_RUN, "%s: GLPK failed", b->model);
	}
	sb_lp_result_release(&res);
	return rc;
}

/* ------------------------------------------------------------------ */
/* GADGET configuration ILP (gadget.md §8)                            */
/* ------------------------------------------------------------------ */

static int kmax_of(const struct sb_alloc_inst *in, int j)
{
	double g = 0;
	int s, k = in->job[j].max_workers;
	for (s = 0; s < in->nserver; s++)
		g += in->cap[s][0];
	return k < g ? k : (int)g;
}

int sb_alloc_bound_utility_rows(struct sb_lp *lp, const struct sb_alloc_inst *in, int j,
				int P)
{
	const struct sb_alloc_job *jb = &in->job[j];
	char nm[64];
	int th, l, c[2];
	double v[2];

	snprintf(nm, sizeof nm, "theta_%d", j);
	th = sb_lp_add_col(lp, nm, SB_LP_CONT, -SB_LP_INF, SB_LP_INF, 1);
	c[0] = th;
	c[1] = P;
	if (in->util == SB_ALLOC_FAIR) {
		v[0] = 1;
		sb_lp_add_row(lp, "a5cap", -SB_LP_INF, log(in->eps + 1), 1, c, v);
		for (l = 0; l < FAIR_TANGENTS; l++) {
			double x0 = (double)l / (FAIR_TANGENTS - 1), slope = 1 / (in->eps + x0);
			/* theta <= log(eps+x0) + slope (P/D - x0) */
			v[1] = -slope / jb->target;
			sb_lp_add_row(lp, "a5", -SB_LP_INF, log(in->eps + x0) - slope * x0, 2, c, v);
		}
	} else {
		v[0] = 1;
		v[1] = -jb->weight / jb->target;
		sb_lp_add_row(lp, "a5", -SB_LP_INF, 0, 2, c, v);
		sb_lp_add_row(lp, "a5cap", -SB_LP_INF, jb->weight, 1, c, v);
	}
	return th;
}

double sb_alloc_bound_theta(const struct sb_alloc_inst *in, int j, double P)
{
	const struct sb_alloc_job *jb = &in->job[j];
	double th;
	int l;

	if (in->util != SB_ALLOC_FAIR)
		return sb_min(jb->weight * P / jb->target, jb->weight);
	th = log(in->eps + 1);
	for (l = 0; l < FAIR_TANGENTS; l++) {
		double x0 = (double)l / (FAIR_TANGENTS - 1), slope = 1 / (in->eps + x0);
		th = sb_min(th, log(in->eps + x0) + slope * (P / jb->target - x0));
	}
	return th;
}

/* ------------------------------------------------------------------ */
/* A start schedule for the search                                    */
/* ------------------------------------------------------------------ */

void sb_alloc_start_init(struct sb_alloc_start *st, const struct sb_alloc_inst *in,
			 const struct sb_alloc_result *r)
{
	int J = in->njob, S = in->nserver, t, g;
	size_t n = (size_t)in->nslot * J;

	st->k = SB_NEW(int, n + 1);
	st->on = SB_NEW(int, n + 1);
	st->w = SB_NEW(int, n * S + 1);
	for (t = 0; t < r->nslot && t < in->nslot; t++)
		for (g = r->slot_off[t]; g < r->slot_off[t + 1]; g++) {
			const struct sb_alloc_grant *gr = &r->grant[g];
			size_t i = (size_t)t * J + gr->job;
			if (gr->workers <= 0)
				continue;
			/* on = server + 1 while one server holds them all */
			st->on[i] = st->k[i] == 0 ? gr->server + 1 :
				    st->on[i] == gr->server + 1 ? st->on[i] : 0;
			st->k[i] += gr->workers;
			st->w[i * S + gr->server] += gr->workers;
		}
	for (n = 0; n < (size_t)in->nslot * J; n++)
		st->on[n] -= 1;
}

void sb_alloc_start_release(struct sb_alloc_start *st)
{
	sb_free(st->k);
	sb_free(st->on);
	sb_free(st->w);
	memset(st, 0, sizeof *st);
}

void sb_alloc_colval(struct sb_alloc_colvals *cv, int col, double v)
{
	if (col >= cv->cap) {
		int c = cv->cap ? cv->cap : 256;
		while (c <= col)
			c *= 2;
		cv->x = sb_xrealloc(cv->x, sizeof(double) * (size_t)c);
		memset(cv->x + cv->cap, 0, sizeof(double) * (size_t)(c - cv->cap));
		cv->cap = c;
	}
	cv->x[col] = v;
	if (col >= cv->n)
		cv->n = col + 1;
}

int sb_alloc_bound_solve_from(struct sb_lp *lp, const char *model, int relax, int maximize,
			      struct sb_alloc_colvals *cv, struct sb_alloc_bound *b,
			      struct sb_err *err)
{
	int rc;

	if (cv && !relax) {
		int n = sb_lp_ncols(lp);
		SB_ASSERT(cv->n <= n);
		if (n > 0)
			sb_alloc_colval(cv, n - 1, cv->n == n ? cv->x[n - 1] : 0);
		sb_lp_set_incumbent(lp, cv->x);
	}
	rc = sb_alloc_bound_finish(lp, model, relax, maximize, 0, b, err);
	if (!rc)
		b->start_used = cv && !relax && !sb_lp_warning(lp);
	return rc;
}

static int gadget_compact(const struct sb_alloc_inst *in, int relax, long nodes,
			  const struct sb_alloc_start *st, struct sb_alloc_bound *b,
			  struct sb_err *err)
{
	struct sb_alloc_colvals cv = { 0 };
	int J = in->njob, S = in->nserver, T = in->nslot, j, s, t, k, rc;
	struct sb_lp *lp = sb_lp_new("gadget-config", 0);
	/* per (s, t) capacity row terms, gathered as columns are made */
	int nmax = 0;
	int **cap_cols, *cap_n, *cap_cap;
	double **cap_vals;
	char nm[64];

	cap_cols = SB_NEW(int *, (size_t)S * T + 1);
	cap_vals = SB_NEW(double *, (size_t)S * T + 1);
	cap_n = SB_NEW(int, (size_t)S * T + 1);
	cap_cap = SB_NEW(int, (size_t)S * T + 1);
#define CAP_PUSH(st, col, val)                                                             \
	do {                                                                               \
		int _i = (st);                                                             \
		if (cap_n[_i] == cap_cap[_i]) {                                            \
			cap_cap[_i] = cap_cap[_i] ? 2 * cap_cap[_i] : 16;                  \
			cap_cols[_i] = sb_xrealloc(cap_cols[_i], sizeof(int) * cap_cap[_i]); \
			cap_vals[_i] = sb_xrealloc(cap_vals[_i],                           \
						   sizeof(double) * cap_cap[_i]);          \
		}                                                                          \
		cap_cols[_i][cap_n[_i]] = (col);                                           \
		cap_vals[_i][cap_n[_i]++] = (val);                                         \
	} while (0)
	for (j = 0; j < J; j++) {
		int K = kmax_of(in, j), n = (S * K + K + S + 2) + 2;
		if (n > nmax)
			nmax = n;
	}
	{
		int *cols = SB_NEW(int, (size_t)nmax * (T + 1) + 8);
		double *vals = SB_NEW(double, (size_t)nmax * (T + 1) + 8);
		for (j = 0; j < J; j++) {
			const struct sb_alloc_job *jb = &in->job[j];
			int K = kmax_of(in, j), np = 0, P, th;
			double pin[SB_ALLOC_MAXK + 1], pout[SB_ALLOC_MAXK + 1], prog = 0;
			int *pcols = SB_NEW(int, (size_t)(S * K + K) * T + 2);
			double *pvals = SB_NEW(double, (size_t)(S * K + K) * T + 2);
			for (k = 1; k <= K; k++) {
				pin[k] = sb_alloc_rate(in, j, k, 0, 1);
				pout[k] = sb_alloc_rate(in, j, k, 0, 0);
			}
			for (t = jb->arrival; t < T; t++) {
				int n = 0, n2 = 0, ucol;
				int *c2 = cols + nmax; double *v2 = vals + nmax;
				/* the start's layout of j in t: sk workers, on server son
				 * (-1: spread) */
				int sk = st ? st->k[t * J + j] : 0, son = st ? st->on[t * J + j] : -1;
				/* (A1) one configuration; (A2) spread GPUs = k of v */
				for (s = 0; s < S; s++)
					for (k = 1; k <= K && k <= in->cap[s][0]; k++) {
						snprintf(nm, sizeof nm, "u_%d_%d_%d_%d", j, s, k, t);
						ucol = sb_lp_add_col(lp, nm, SB_LP_BIN, 0, 1,
								     in->util == SB_ALLOC_ENE ? -in->eta * k : 0);
						if (sk == k && son == s)
							sb_alloc_colval(&cv, ucol, 1);
						cols[n] = ucol; vals[n++] = 1;
						CAP_PUSH(s * T + t, ucol, k);
						pcols[np] = ucol; pvals[np++] = -pin[k];
					}
				for (k = 2; k <= K && S > 1; k++) {
					snprintf(nm, sizeof nm, "v_%d_%d_%d", j, k, t);
					ucol = sb_lp_add_col(lp, nm, SB_LP_BIN, 0, 1,
							     in->util == SB_ALLOC_ENE ? -in->eta * k : 0);
					if (sk == k && son < 0)
						sb_alloc_colval(&cv, ucol, 1);
					cols[n] = ucol; vals[n++] = 1;
					c2[n2] = ucol; v2[n2++] = -k;
					pcols[np] = ucol; pvals[np++] = -pout[k];
				}
				if (n2) {
					for (s = 0; s < S; s++) {
						double hi = sb_min(in->cap[s][0], K - 1);
						snprintf(nm, sizeof nm, "x_%d_%d_%d", j, s, t);
						ucol = sb_lp_add_col(lp, nm, SB_LP_INT, 0, hi, 0);
						if (sk && son < 0)
							sb_alloc_colval(&cv, ucol,
									st->w[((size_t)t * J + j) * S + s]);
						c2[n2] = ucol; v2[n2++] = 1;
						CAP_PUSH(s * T + t, ucol, 1);
					}
					snprintf(nm, sizeof nm, "a2_%d_%d", j, t);
					sb_lp_add_row(lp, nm, 0, 0, n2, c2, v2);
				}
				if (n) {
					snprintf(nm, sizeof nm, "a1_%d_%d", j, t);
					sb_lp_add_row(lp, nm, -SB_LP_INF, 1, n, cols, vals);
				}
			}
			/* (A4) P_j = progress; (A5) theta_j under the utility's pieces */
			snprintf(nm, sizeof nm, "P_%d", j);
			P = sb_lp_add_col(lp, nm, SB_LP_CONT, 0, SB_LP_INF, 0);
			if (st) {
				int i;
				for (i = 0; i < np; i++)
					prog -= pvals[i] * (pcols[i] < cv.n ? cv.x[pcols[i]] : 0);
				sb_alloc_colval(&cv, P, prog);
			}
			pcols[np] = P; pvals[np++] = 1;
			snprintf(nm, sizeof nm, "a4_%d", j);
			sb_lp_add_row(lp, nm, 0, 0, np, pcols, pvals);
			th = sb_alloc_bound_utility_rows(lp, in, j, P);
			if (st)
				sb_alloc_colval(&cv, th, sb_alloc_bound_theta(in, j, prog));
			sb_free(pcols);
			sb_free(pvals);
		}
		/* (A3) capacity per server and slot */
		for (s = 0; s < S; s++)
			for (t = 0; t < T; t++)
				if (cap_n[s * T + t]) {
					snprintf(nm, sizeof nm, "a3_%d_%d", s, t);
					sb_lp_add_row(lp, nm, -SB_LP_INF, in->cap[s][0],
						      cap_n[s * T + t], cap_cols[s * T + t],
						      cap_vals[s * T + t]);
				}
		sb_free(cols);
		sb_free(vals);
	}
#undef CAP_PUSH
	for (s = 0; s < S * T; s++) {
		sb_free(cap_cols[s]);
		sb_free(cap_vals[s]);
	}
	sb_free(cap_cols);
	sb_free(cap_vals);
	sb_free(cap_n);
	sb_free(cap_cap);
	sb_alloc_bound_limits(lp, nodes);
	rc = sb_alloc_bound_solve_from(lp, "gadget-config", relax, 1, st ? &cv : NULL, b, err);
	sb_lp_free(lp);
	sb_free(cv.x);
	return rc;
}

int sb_alloc_gadget_bound(const struct sb_alloc_inst *in, int relax, long nodes, int form,
			  const struct sb_alloc_result *start, struct sb_alloc_bound *b,
			  struct sb_err *err)
{
	struct sb_alloc_start st = { 0 };
	int j, rc;

	memset(b, 0, sizeof *b);
	for (j = 0; j < in->njob; j++)
		if (in->job[j].mode != SB_ALLOC_RAR)
			return sb_err_set(err, SB_EXIT_INPUT, "the utility bound (gadget.md §8) "
					  "models ring-all-reduce jobs; job %d is a PS job", j);
	if (start)
		sb_alloc_start_init(&st, in, start);
	if (form == SB_ALLOC_FORM_PRICE && !relax) {
		rc = sb_alloc_gadget_price(in, nodes, start ? &st : NULL, b, err);
		if (rc == SB_ALLOC_PATTERN_TOO_BIG)
			rc = sb_err_set(err, SB_EXIT_INPUT, "the slot-pattern model of this instance "
					"is too large to enumerate; use the compact one");
		goto out;
	}
	if (form != SB_ALLOC_FORM_COMPACT) {
		rc = sb_alloc_gadget_pattern(in, relax, nodes, start ? &st : NULL, b, err);
		if (rc != SB_ALLOC_PATTERN_TOO_BIG)
			goto out;
		if (form != SB_ALLOC_FORM_AUTO) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "the slot-pattern model of this instance "
					"is too large to enumerate; use the compact one");
			goto out;
		}
	}
	rc = gadget_compact(in, relax, nodes, start ? &st : NULL, b, err);
out:
	if (start)
		sb_alloc_start_release(&st);
	return rc;
}

int sb_alloc_best_run(const struct sb_alloc_inst *in, uint64_t seed, struct sb_alloc_result *r,
		      const char **name, struct sb_err *err)
{
	int np, i, have = 0, rc = 0;
	const struct sb_alloc_policy *const *p = sb_alloc_policies(&np);
	double best = 0;

	memset(r, 0, sizeof *r);
	*name = NULL;
	for (i = 0; i < np; i++) {
		struct sb_opts o;
		struct sb_alloc_result cur;
		struct sb_rng rng = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(p[i]->name));
		double v;
		if (!sb_alloc_policy_fits(p[i], in))
			continue;
		sb_opts_defaults(&o, p[i]->params);
		if ((rc = sb_alloc_run(in, p[i], &o, &rng, &cur, err)))
			break;
		v = in->util == SB_ALLOC_JCT ? -cur.flow_slots : cur.utility;
		if (!have || v > best) {
			if (have)
				sb_alloc_result_release(r);
			*r = cur;
			*name = p[i]->name;
			best = v;
			have = 1;
		} else {
			sb_alloc_result_release(&cur);
		}
	}
	if (rc && have)
		sb_alloc_result_release(r);
	else if (!rc && !have)
		rc = sb_err_set(err, SB_EXIT_INPUT, "no registered alloc policy schedules this "
				"instance's jobs");
	return rc;
}

/* ------------------------------------------------------------------ */
/* PS-locality time-indexed ILP (pslocality.md §2)                     */
/* ------------------------------------------------------------------ */

void sb_alloc_psmodel_release(struct sb_alloc_psmodel *m)
{
	if (m->lp)
		sb_lp_free(m->lp);
	sb_free(m->y);
	sb_free(m->wl);
	sb_free(m->pl);
	sb_free(m->wd);
	sb_free(m->pd);
	sb_free(m->z);
	sb_free(m->f);
	sb_free(m->rho_l);
	sb_free(m->rho_d);
	sb_free(m->need);
	memset(m, 0, sizeof *m);
}

void sb_alloc_psmodel_build(const struct sb_alloc_inst *in, const double *need, int t0, int T,
			    int force, struct sb_alloc_psmodel *m)
{
	int J = in->njob, H = in->nserver, i, h, t, r, n;
	size_t nv = (size_t)J * H * T;
	struct sb_lp *lp;
	int *cols;
	double *vals;
	char nm[64];

	memset(m, 0, sizeof *m);
	m->J = J;
	m->H = H;
	m->T = T;
	m->t0 = t0;
	m->force = force;
	m->lp = lp = sb_lp_new("pslocality", 1);
	m->y = SB_NEW(int, nv + 1);
	m->wl = SB_NEW(int, nv + 1);
	m->pl = SB_NEW(int, nv + 1);
	m->wd = SB_NEW(int, nv + 1);
	m->pd = SB_NEW(int, nv + 1);
	m->z = SB_NEW(int, (size_t)J * T + 1);
	m->f = SB_NEW(int, (size_t)J * T + 1);
	m->rho_l = SB_NEW(double, J + 1);
	m->rho_d = SB_NEW(double, J + 1);
	m->need = SB_NEW(double, J + 1);
	n = 2 * H * T + 4 * H > 4 * J ? 2 * H * T + 4 * H : 4 * J;
	cols = SB_NEW(int, (size_t)n + 8);
	vals = SB_NEW(double, (size_t)n + 8);
#define IX(i, h, t) (((size_t)(i) * H + (h)) * T + (t))
	for (i = 0; i < J; i++) {
		const struct sb_alloc_job *jb = &in->job[i];
		int a = jb->arrival > t0 ? jb->arrival - t0 : 0;
		/* full PS provisioning: q_l = 2 s_l / B, so tau no longer
		 * depends on w (an upper bound on every layout's rate) */
		m->rho_l[i] = in->slot_s / sb_alloc_tau(jb, 1, 1, 1, -1);
		m->rho_d[i] = in->slot_s / sb_alloc_tau(jb, 1, 1, 0, -1);
		m->need[i] = need ? need[i] : jb->target;
		for (t = 0; t < T; t++) {
			int live = t >= a && m->need[i] > 0;
			m->z[i * T + t] = m->f[i * T + t] = -1;
			for (h = 0; h < H; h++)
				m->y[IX(i, h, t)] = m->wl[IX(i, h, t)] = m->pl[IX(i, h, t)] =
					m->wd[IX(i, h, t)] = m->pd[IX(i, h, t)] = -1;
			if (!live)
				continue;
			snprintf(nm, sizeof nm, "f_%d_%d", i, t);
			m->f[i * T + t] = sb_lp_add_col(lp, nm, SB_LP_BIN,
							force && t == T - 1 ? 1 : 0, 1, -1);
			m->constant += 1;
			snprintf(nm, sizeof nm, "z_%d_%d", i, t);
			m->z[i * T + t] = sb_lp_add_col(lp, nm, SB_LP_BIN, 0, 1, 0);
			for (h = 0; h < H; h++) {
				snprintf(nm, sizeof nm, "y_%d_%d_%d", i, h, t);
				m->y[IX(i, h, t)] = sb_lp_add_col(lp, nm, SB_LP_BIN, 0, 1, 0);
				snprintf(nm, sizeof nm, "wl_%d_%d_%d", i, h, t);
				m->wl[IX(i, h, t)] = sb_lp_add_col(lp, nm, SB_LP_INT, 0,
								   jb->max_workers, 0);
				snprintf(nm, sizeof nm, "pl_%d_%d_%d", i, h, t);
				m->pl[IX(i, h, t)] = sb_lp_add_col(lp, nm, SB_LP_INT, 0,
								   jb->max_ps, 0);
				snprintf(nm, sizeof nm, "wd_%d_%d_%d", i, h, t);
				m->wd[IX(i, h, t)] = sb_lp_add_col(lp, nm, SB_LP_INT, 0,
								   jb->max_workers, 0);
				snprintf(nm, sizeof nm, "pd_%d_%d_%d", i, h, t);
				m->pd[IX(i, h, t)] = sb_lp_add_col(lp, nm, SB_LP_INT, 0,
								   jb->max_ps, 0);
			}
		}
		for (t = 0; t < T; t++) {
			int zc = m->z[i * T + t];
			if (zc < 0)
				continue;
			/* (C2) one regime; linking; (C3) a PS per running regime */
			n = 0;
			for (h = 0; h < H; h++) {
				int yc = m->y[IX(i, h, t)], c2[2];
				double v2[2];
				cols[n] = yc; vals[n++] = 1;
				c2[0] = m->wl[IX(i, h, t)]; c2[1] = yc;
				v2[0] = 1; v2[1] = -jb->max_workers;
				sb_lp_add_row(lp, "c2wl", -SB_LP_INF, 0, 2, c2, v2);
				c2[0] = m->pl[IX(i, h, t)]; v2[1] = -jb->max_ps;
				sb_lp_add_row(lp, "c2pl", -SB_LP_INF, 0, 2, c2, v2);
				v2[1] = -1;
				sb_lp_add_row(lp, "c3pl", 0, SB_LP_INF, 2, c2, v2);
				/* workers only with a regime: y <= wl */
				c2[0] = m->wl[IX(i, h, t)];
				sb_lp_add_row(lp, "c3wl", 0, SB_LP_INF, 2, c2, v2);
			}
			cols[n] = zc; vals[n++] = 1;
			sb_lp_add_row(lp, "c2", -SB_LP_INF, 1, n, cols, vals);
			for (r = 0; r < 2; r++) {
				/* r = 0: sum wd <= W z and sum wd >= z; r = 1: the same for PSs */
				n = 0;
				for (h = 0; h < H; h++) {
					cols[n] = r ? m->pd[IX(i, h, t)] : m->wd[IX(i, h, t)];
					vals[n++] = 1;
				}
				cols[n] = zc;
				vals[n] = -(r ? jb->max_ps : jb->max_workers);
				sb_lp_add_row(lp, "c2d", -SB_LP_INF, 0, n + 1, cols, vals);
				vals[n] = -1;
				sb_lp_add_row(lp, "c3d", 0, SB_LP_INF, n + 1, cols, vals);
			}
		}
		/* (C4) covering: progress by the end of t >= need f_t; (C5) monotone */
		n = 0;
		for (t = 0; t < T; t++) {
			int fc = m->f[i * T + t];
			if (fc < 0)
				continue;
			for (h = 0; h < H; h++) {
				cols[n] = m->wl[IX(i, h, t)]; vals[n++] = m->rho_l[i];
				cols[n] = m->wd[IX(i, h, t)]; vals[n++] = m->rho_d[i];
			}
			cols[n] = fc;
			vals[n] = -m->need[i];
			snprintf(nm, sizeof nm, "c4_%d_%d", i, t);
			sb_lp_add_row(lp, nm, 0, SB_LP_INF, n + 1, cols, vals);
			if (t + 1 < T && m->f[i * T + t + 1] >= 0) {
				int c2[2] = { m->f[i * T + t + 1], fc };
				double v2[2] = { 1, -1 };
				sb_lp_add_row(lp, "c5", 0, SB_LP_INF, 2, c2, v2);
			}
		}
		/* the +1 of (C_i - a_i + 1) */
		if (m->need[i] > 0 && a < T)
			m->constant += 1;
	}
	/* (C1) packing per server, resource and slot */
	for (h = 0; h < H; h++)
		for (r = 0; r < SB_ALLOC_NRES; r++)
			for (t = 0; t < T; t++) {
				n = 0;
				for (i = 0; i < J; i++) {
					const struct sb_alloc_job *jb = &in->job[i];
					if (m->y[IX(i, h, t)] < 0)
						continue;
					if (jb->wdem[r] > 0) {
						cols[n] = m->wl[IX(i, h, t)]; vals[n++] = jb->wdem[r];
						cols[n] = m->wd[IX(i, h, t)]; vals[n++] = jb->wdem[r];
					}
					if (jb->pdem[r] > 0) {
						cols[n] = m->pl[IX(i, h, t)]; vals[n++] = jb->pdem[r];
						cols[n] = m->pd[IX(i, h, t)]; vals[n++] = jb->pdem[r];
					}
				}
				if (n) {
					snprintf(nm, sizeof nm, "c1_%d_%d_%d", h, r, t);
					sb_lp_add_row(lp, nm, -SB_LP_INF, in->cap[h][r], n, cols, vals);
				}
			}
#undef IX
	sb_free(cols);
	sb_free(vals);
	sb_alloc_bound_limits(lp, 0);
}

int sb_alloc_psmodel_solve(struct sb_alloc_psmodel *m, int relax, struct sb_lp_result *res,
			   struct sb_err *err)
{
	return sb_lp_solve(m->lp, relax, TIME_SAFETY_S, 0, res, err);
}

int sb_alloc_psmodel_lp_sym(const struct sb_alloc_inst *in, const struct sb_alloc_psmodel *m,
			    struct sb_lp_result *res, struct sb_err *err)
{
	struct sb_alloc_inst one = *in;
	struct sb_alloc_psmodel m1;
	double cap1[1][SB_ALLOC_NRES];
	int H = in->nserver, i, h, t, r, rc;

	memset(res, 0, sizeof *res);
	for (h = 1; h < H; h++)
		for (r = 0; r < SB_ALLOC_NRES; r++)
			if (in->cap[h][r] != in->cap[0][r])
				return sb_err_set(err, SB_EXIT_INPUT, "pslocality lp: servers 0 and %d "
						  "differ in resource %d: no symmetric form", h, r);
	for (r = 0; r < SB_ALLOC_NRES; r++)
		cap1[0][r] = H * in->cap[0][r];
	one.nserver = 1;
	one.cap = cap1;
	sb_alloc_psmodel_build(&one, m->need, m->t0, m->T, m->force, &m1);
	if ((rc = sb_alloc_psmodel_solve(&m1, 1, res, err)))
		goto out;
	if (res->x) {
		double *x = SB_NEW(double, sb_lp_ncols(m->lp) + 1);
#define MAP(arr)                                                                           \
	do {                                                                               \
		size_t k1 = (size_t)i * m->T + t, k = ((size_t)i * H + h) * m->T + t;      \
		if (m->arr[k] >= 0)                                                        \
			x[m->arr[k]] = res->x[m1.arr[k1]] / H;                              \
	} while (0)
		for (i = 0; i < m->J; i++)
			for (t = 0; t < m->T; t++) {
				if (m->z[i * m->T + t] < 0)
					continue;
				x[m->z[i * m->T + t]] = res->x[m1.z[i * m->T + t]];
				x[m->f[i * m->T + t]] = res->x[m1.f[i * m->T + t]];
				for (h = 0; h < H; h++) {
					MAP(y);
					MAP(wl);
					MAP(pl);
					MAP(wd);
					MAP(pd);
				}
			}
#undef MAP
		sb_free(res->x);
		res->x = x;
		res->ncols = sb_lp_ncols(m->lp);
	}
out:
	sb_alloc_psmodel_release(&m1);
	return rc;
}

/* ------------------------------------------------------------------ */
/* SMD's per-round MMKP (smd.md §2)                                    */
/* ------------------------------------------------------------------ */

static struct sb_lp *mmkp_model(const struct sb_alloc_mmkp *m)
{
	struct sb_lp *lp = sb_lp_new("smd-mmkp", 1);
	int nc = m->off[m->n], i, c, r;
	int *cols = SB_NEW(int, nc + 1);
	double *vals = SB_NEW(double, nc + 1);

	for (c = 0; c < nc; c++)
		sb_lp_add_col(lp, "z", SB_LP_BIN, 0, 1, m->cost[c]);
	for (i = 0; i < m->n; i++) {
		int n = 0;
		for (c = m->off[i]; c < m->off[i + 1]; c++) {
			cols[n] = c;
			vals[n++] = 1;
		}
		sb_lp_add_row(lp, "one", 1, 1, n, cols, vals);
	}
	for (r = 0; r < SB_ALLOC_NRES; r++) {
		int n = 0;
		for (c = 0; c < nc; c++)
			if (m->dem[c][r] > 0) {
				cols[n] = c;
				vals[n++] = m->dem[c][r];
			}
		if (n)
			sb_lp_add_row(lp, "cap", -SB_LP_INF, m->cap[r], n, cols, vals);
	}
	sb_alloc_bound_limits(lp, 0);
	sb_free(cols);
	sb_free(vals);
	return lp;
}

int sb_alloc_mmkp_bound(const struct sb_alloc_mmkp *m, int relax, struct sb_alloc_bound *b,
			struct sb_err *err)
{
	struct sb_lp *lp = mmkp_model(m);
	int rc = sb_alloc_bound_finish(lp, "smd-mmkp", relax, 0, 0, b, err);
	sb_lp_free(lp);
	return rc;
}

int sb_alloc_mmkp_choose(const struct sb_alloc_mmkp *m, const int *start, int *choice,
			 int *optimal, struct sb_err *err)
{
	struct sb_lp *lp;
	struct sb_lp_result res;
	int nc = m->off[m->n], i, c, rc;
	double *x0, dpcost;

	if (sb_alloc_mmkp_dp(m, start, choice, &dpcost)) {
		*optimal = 1;
		return 0;
	}
	lp = mmkp_model(m);
	x0 = SB_NEW(double, nc + 1);
	for (i = 0; i < m->n; i++)
		x0[start[i]] = 1;
	sb_lp_set_incumbent(lp, x0);
	*optimal = 0;
	if ((rc = sb_lp_solve(lp, 0, TIME_SAFETY_S, 0, &res, err)))
		goto out;
	if (res.stopped == SB_LP_STOP_TIME || !res.x ||
	    (res.status != SB_LP_OPTIMAL && res.status != SB_LP_FEASIBLE)) {
		rc = sb_err_set(err, SB_EXIT_RUN, "smd-mmkp: no integer choice (%s%s)",
				sb_lp_status_name(res.status),
				res.stopped == SB_LP_STOP_TIME ? ", safety time limit" : "");
	} else {
		*optimal = res.status == SB_LP_OPTIMAL;
		for (i = 0; i < m->n; i++)
			for (c = m->off[i]; c < m->off[i + 1]; c++)
				if (res.x[c] > 0.5)
					choice[i] = c;
	}
	sb_lp_result_release(&res);
out:
	sb_free(x0);
	sb_lp_free(lp);
	return rc;
}

int sb_alloc_mmkp_check(const struct sb_alloc_mmkp *m, const int *choice, double *cost,
			char *why, size_t len)
{
	double used[SB_ALLOC_NRES] = { 0 };
	int i, r;

	*cost = 0;
	for (i = 0; i < m->n; i++) {
		if (choice[i] < m->off[i] || choice[i] >= m->off[i + 1]) {
			snprintf(why, len, "item %d: configuration %d is not one of its own", i,
				 choice[i]);
			return 1;
		}
		*cost += m->cost[choice[i]];
		for (r = 0; r < SB_ALLOC_NRES; r++)
			used[r] += m->dem[choice[i]][r];
	}
	for (r = 0; r < SB_ALLOC_NRES; r++)
		if (used[r] > m->cap[r] + 1e-9) {
			snprintf(why, len, "resource %d: %g used of %g", r, used[r], m->cap[r]);
			return 1;
		}
	return 0;
}

int sb_alloc_mmkp_lp(const struct sb_alloc_mmkp *m, double *x, double *obj,
		     struct sb_err *err)
{
	struct sb_lp *lp = mmkp_model(m);
	struct sb_lp_result res;
	int nc = m->off[m->n], c, rc;

	if ((rc = sb_lp_solve(lp, 1, TIME_SAFETY_S, 0, &res, err)))
		goto out;
	if (res.stopped != SB_LP_STOP_NONE || res.status != SB_LP_OPTIMAL || !res.x) {
		rc = sb_err_set(err, SB_EXIT_RUN, "smd-mmkp: LP relaxation not solved (%s%s)",
				sb_lp_status_name(res.status),
				res.stopped == SB_LP_STOP_TIME ? ", safety time limit" :
				res.stopped ? ", iteration limit" : "");
	} else {
		for (c = 0; c < nc; c++)
			x[c] = res.x[c];
		*obj = res.obj;
	}
	sb_lp_result_release(&res);
out:
	sb_lp_free(lp);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Dispatch                                                            */
/* ------------------------------------------------------------------ */

long sb_alloc_bound_size(const struct sb_alloc_inst *in)
{
	long n = 0;
	int j;
	for (j = 0; j < in->njob; j++) {
		long slots = in->nslot - in->job[j].arrival;
		if (in->util == SB_ALLOC_JCT)
			n += slots * (2 + 5L * in->nserver);
		else
			n += slots * ((long)in->nserver * kmax_of(in, j) + kmax_of(in, j) + in->nserver);
	}
	return n;
}

int sb_alloc_bound(const struct sb_alloc_inst *in, int relax, struct sb_alloc_bound *b,
		   struct sb_err *err)
{
	return sb_alloc_bound_nodes(in, relax, SB_ALLOC_NODE_LIMIT, b, err);
}

int sb_alloc_bound_nodes(const struct sb_alloc_inst *in, int relax, long nodes,
			 struct sb_alloc_bound *b, struct sb_err *err)
{
	struct sb_alloc_psmodel m;
	int j, rc;

	memset(b, 0, sizeof *b);
	if (sb_alloc_bound_size(in) > 3000000)
		return sb_err_set(err, SB_EXIT_INPUT, "the bound model would have %ld columns "
				  "(at most 3000000): use fewer slots (--slots) or jobs",
				  sb_alloc_bound_size(in));
	if (in->util != SB_ALLOC_JCT)
		return sb_alloc_gadget_bound(in, relax, nodes, SB_ALLOC_FORM_AUTO, NULL, b, err);
	for (j = 0; j < in->njob; j++)
		if (in->job[j].mode != SB_ALLOC_PS)
			return sb_err_set(err, SB_EXIT_INPUT, "the JCT bound (pslocality.md §2) "
					  "models PS jobs; job %d is a ring-all-reduce job", j);
	sb_alloc_psmodel_build(in, NULL, 0, in->nslot, 1, &m);
	sb_alloc_bound_limits(m.lp, nodes);
	rc = sb_alloc_bound_finish(m.lp, "pslocality", relax, 0, m.constant, b, err);
	sb_alloc_psmodel_release(&m);
	return rc;
}
