/*
 * tfpart_common.c - partitioning bookkeeping, MITE's normalised cost
 * factors and PCT's b-level, shared by the tfpart policies (see tfpart.h).
 * Registers no policy.
 *
 * Family: dag (core/dag/).
 */
#include "tfpart.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Bookkeeping                                                         */
/* ------------------------------------------------------------------ */

void sb_tfpart_init(struct sb_tfpart *p, const struct sb_dag_inst *in,
		    int *place, const char *who)
{
	int nd = in->dev.n, v;

	memset(p, 0, sizeof *p);
	p->in = in;
	p->who = who;
	p->place = place;
	for (v = 0; v < in->g.n; v++)
		place[v] = -1;
	sb_dag_comps_build(&p->c, in);
	p->free_mem = SB_NEW(double, nd);
	sb_dag_free_mem_init(in, p->free_mem);
	p->load_ops = SB_NEW(double, nd);
	p->feas = SB_NEW(int, nd);
	p->e = SB_NEW(double, nd);
	p->t = SB_NEW(double, nd);
	p->mark = SB_NEW(int, nd);
	p->list = SB_NEW(int, nd);
}

void sb_tfpart_release(struct sb_tfpart *p)
{
	sb_dag_comps_release(&p->c);
	sb_free(p->free_mem);
	sb_free(p->load_ops);
	sb_free(p->feas);
	sb_free(p->e);
	sb_free(p->t);
	sb_free(p->mark);
	sb_free(p->list);
	memset(p, 0, sizeof *p);
}

void sb_tfpart_assign(struct sb_tfpart *p, int k, int d)
{
	sb_dag_comp_place(&p->c, k, d, p->place, p->free_mem);
	p->load_ops[d] += p->c.ops[k];
}

int sb_tfpart_nofit(const struct sb_tfpart *p, int v, struct sb_err *err)
{
	const struct sb_dag_inst *in = p->in;
	int k = in->g.comp[v], d, typed = 0;
	const char *what = p->c.off[k + 1] - p->c.off[k] > 1
		? "colocation group of op" : "op";

	if (p->c.dc[k] == SB_DC_CONFLICT)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "%s: %s %ld mixes cpu and gpu constraints", p->who,
				  what, in->g.ext_id[v]);
	for (d = 0; d < in->dev.n; d++)
		typed |= sb_dag_comp_allowed(in, &p->c, k, d);
	return sb_err_set(err, SB_EXIT_INPUT,
			  "%s: no device can hold %s %ld (demand %g%s)", p->who, what,
			  in->g.ext_id[v], p->c.mem[k],
			  typed ? "" : "; no device of the required type");
}

/* ------------------------------------------------------------------ */
/* MITE / DFS: normalised execution and traffic factors                */
/* ------------------------------------------------------------------ */

/* Adds to p->t[d] of every feasible d the traffic of member v. */
static void add_traffic(struct sb_tfpart *p, int v, int first_succ_only)
{
	const struct sb_dag_inst *in = p->in;
	const struct sb_dag *g = &in->g;
	int nd = in->dev.n, d, j, nl = 0;

	/* Incoming tensors: the Java code floors each term (integer division);
	 * the spec keeps that in both modes. */
	for (j = g->pred_off[v]; j < g->pred_off[v + 1]; j++) {
		int pu = p->place[g->pred[j]];
		if (pu < 0)
			continue;
		for (d = 0; d < nd; d++)
			if (p->feas[d] && d != pu)
				p->t[d] += floor(sb_dag_xfer(in, g->out[g->pred[j]], pu, d));
	}

	if (first_succ_only) {
		for (d = 0; d < nd; d++) {
			if (!p->feas[d])
				continue;
			for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
				int pw = p->place[g->succ[j]];
				if (pw >= 0 && pw != d) {
					p->t[d] += sb_dag_xfer(in, g->out[v], d, pw);
					break;
				}
			}
		}
		return;
	}
	/* One Send per distinct remote device, as the execution model has. */
	for (j = g->succ_off[v]; j < g->succ_off[v + 1]; j++) {
		int pw = p->place[g->succ[j]];
		if (pw >= 0 && !p->mark[pw]) {
			p->mark[pw] = 1;
			p->list[nl++] = pw;
		}
	}
	for (j = 0; j < nl; j++)
		p->mark[p->list[j]] = 0;
	for (d = 0; d < nd; d++) {
		if (!p->feas[d])
			continue;
		for (j = 0; j < nl; j++)
			if (p->list[j] != d)
				p->t[d] += sb_dag_xfer(in, g->out[v], d, p->list[j]);
	}
}

int sb_tfpart_et(struct sb_tfpart *p, int k, int first_succ_only)
{
	const struct sb_dag_inst *in = p->in;
	int nd = in->dev.n, d, i, nf = 0;
	double maxe = 0, maxt = 0;

	for (d = 0; d < nd; d++) {
		p->e[d] = p->t[d] = 0;
		p->feas[d] = sb_dag_comp_fits(in, &p->c, k, d, p->free_mem);
		if (!p->feas[d])
			continue;
		nf++;
		p->e[d] = (p->load_ops[d] + p->c.ops[k]) / in->dev.speed[d];
	}
	if (!nf)
		return 0;
	for (i = p->c.off[k]; i < p->c.off[k + 1]; i++)
		add_traffic(p, p->c.member[i], first_succ_only);
	for (d = 0; d < nd; d++)
		if (p->feas[d]) {
			maxe = sb_max(maxe, p->e[d]);
			maxt = sb_max(maxt, p->t[d]);
		}
	for (d = 0; d < nd; d++) {
		if (!p->feas[d])
			continue;
		p->e[d] = maxe > 0 ? p->e[d] / maxe : 1.0;
		p->t[d] = maxt > 0 ? p->t[d] / maxt : 1.0;
		if (p->e[d] == 0)
			p->e[d] = 1e-6;
		if (p->t[d] == 0)
			p->t[d] = 1e-6;
	}
	return nf;
}

/* ------------------------------------------------------------------ */
/* PCT b-level                                                         */
/* ------------------------------------------------------------------ */

/* Largest bl(s) + delay over the exec successors of task t. */
static double tail(const struct sb_dag_exec *x, int t, const double *bl)
{
	double m = 0;
	int k;
	for (k = x->x_off[t]; k < x->x_off[t + 1]; k++)
		m = sb_max(m, bl[x->x_to[k]] + x->x_delay[k]);
	return m;
}

void sb_tfpart_pct_blevel(const struct sb_dag_exec *x, double *bl)
{
	const struct sb_dag_inst *in = x->in;
	const struct sb_dag *g = &in->g;
	double w = in->send_ops > 0 ? in->send_ops : 0;
	int i, k;

	/* Reverse topological order of the ops; the Sends of u come between u
	 * and u's consumers, so they are done just before u. */
	for (i = g->n - 1; i >= 0; i--) {
		int u = g->topo[i];
		for (k = x->x_off[u]; k < x->x_off[u + 1]; k++) {
			int s = x->x_to[k];
			if (s < x->n)
				continue;
			bl[s] = w / in->dev.speed[x->dev[s]] +
				w / in->dev.speed[x->send_dst[s - x->n]] + tail(x, s, bl);
		}
		bl[u] = x->dur[u] + tail(x, u, bl);
	}
}

void sb_tfpart_pct_keys(const struct sb_dag_exec *x, double *key)
{
	int t;
	sb_tfpart_pct_blevel(x, key);
	for (t = 0; t < x->ntask; t++)
		key[t] = -key[t];
}

/* ------------------------------------------------------------------ */
/* Averaged upward rank (CP and the authors' HEFT)                     */
/* ------------------------------------------------------------------ */

static double java_mean_rate(const struct sb_dag_inst *in)
{
	int nd = in->dev.n, j;
	double s = 0;
	for (j = 1; j < nd; j++)
		s += in->dev.rate[j];
	return s / nd;
}

void sb_tfpart_rank_up(const struct sb_dag_inst *in, int compat, double *rank,
			int *next)
{
	const struct sb_dag *g = &in->g;
	double sbar = sb_dag_mean_speed(in);
	double rbar = compat ? java_mean_rate(in) : sb_dag_mean_rate(in);
	int i, k;

	/* An infinite mean rate means free transfers; a zero one (one device
	 * under compat) has no transfers to price at all. */
	if (!(rbar > 0) || isinf(rbar))
		rbar = INFINITY;
	for (i = g->n - 1; i >= 0; i--) {
		int v = g->topo[i], best = -1;
		double comm = isinf(rbar) ? 0 : g->out[v] / rbar, run = -INFINITY;

		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++) {
			int w = g->succ[k];
			if (rank[w] > run) {
				best = w;
				run = compat ? rank[w] + comm : rank[w];
			}
		}
		next[v] = best;
		rank[v] = g->ops[v] / sbar;
		if (best >= 0)
			rank[v] += compat ? run : run + comm;
	}
}
