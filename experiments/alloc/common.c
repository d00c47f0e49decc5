/*
 * common.c - see common.h.
 */
#include "common.h"

#include "algorithms/pslocality/rr.h"

#include <math.h>
#include <stdio.h>

const char *const sb_alloc_exp_gadget_set[] = {
	"gadget-r", "gadget-pd", "gadget-nolocality", "fifo", "drf", "tetris", "optimus",
	"tiresias", "firstfit", NULL,
};

void sb_alloc_exp_rar_inst(struct sb_alloc_inst *in, const struct sb_alloc_exp_rar *x,
			   uint64_t seed, int point)
{
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_rng gen = sb_rng_stream(seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	int n = (int)(x->rate * x->arrive + 0.5);

	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_RAR);
	g.njob = n > 1 ? n : 1;
	g.nserver = x->servers;
	g.nslot = x->slots;
	g.util = x->util;
	g.poisson = x->rate;
	sb_alloc_gen(in, &g, &ty, NULL, 0, NULL, &gen);
}

int sb_alloc_exp_run(const struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
		     const char *name, struct sb_alloc_result *r, double *seconds,
		     struct sb_err *err)
{
	const struct sb_alloc_policy *p = sb_alloc_policy_find(name);
	struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, 0,
					  SB_RNG_POLICY ^ sb_hash_str(name));
	struct sb_opts o;
	double t0 = sb_now();
	int rc;

	if (!p)
		return sb_err_set(err, SB_EXIT_RUN, "alloc experiment: policy %s is not registered",
				  name);
	sb_opts_defaults(&o, p->params);
	rc = sb_alloc_run(in, p, &o, &rng, r, err);
	*seconds = sb_now() - t0;
	return rc;
}

int sb_alloc_exp_each(const struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
		      const char *const *set, sb_alloc_exp_emit *emit, void *arg,
		      struct sb_err *err)
{
	int i, rc = 0;
	for (i = 0; set[i] && !rc; i++) {
		struct sb_alloc_result r;
		double secs;
		if ((rc = sb_alloc_exp_run(c, point, in, set[i], &r, &secs, err)))
			break;
		emit(arg, set[i], in, &r, secs);
		sb_alloc_result_release(&r);
	}
	return rc;
}

struct gadget_rows {
	struct sb_table *out;
	int util, rep;
	const char *xcol;
	double x;
};

static void gadget_row(void *arg, const char *policy, const struct sb_alloc_inst *in,
		       const struct sb_alloc_result *r, double seconds)
{
	struct gadget_rows *e = arg;
	size_t row = sb_table_add(e->out);
	(void)seconds;
	sb_table_set_str(e->out, row, "util", sb_alloc_util_name(e->util));
	sb_table_set_dbl(e->out, row, e->xcol, e->x);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_int(e->out, row, "jobs", in->njob);
	sb_table_set_dbl(e->out, row, "utility", r->utility);
	sb_table_set_int(e->out, row, "unfinished", r->unfinished);
	sb_table_set_dbl(e->out, row, "jct_mean", r->jct_mean);
}

int sb_alloc_exp_gadget_rows(const struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
			     struct sb_table *out, int util, int rep, const char *xcol, double x,
			     struct sb_err *err)
{
	struct gadget_rows e = { out, util, rep, xcol, x };
	double best = -INFINITY;
	size_t first = out->nrow, k;
	int rc = sb_alloc_exp_each(c, point, in, sb_alloc_exp_gadget_set, gadget_row, &e, err);
	int col = sb_table_col(out, "utility");

	for (k = first; k < out->nrow; k++)
		best = fmax(best, sb_table_get_dbl(out, k, col));
	for (k = first; k < out->nrow; k++)
		sb_table_set_dbl(out, k, "shortfall", best - sb_table_get_dbl(out, k, col));
	return rc;
}

int sb_alloc_exp_rar_setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	(void)err;
	c->npoints = 3 * (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: DL2 job types (built in), Poisson arrivals");
	return 0;
}

int sb_alloc_exp_rar_run(struct sb_exp_ctx *c, int point, struct sb_table *out,
			 sb_alloc_exp_emit *emit, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), rc;
	struct sb_alloc_exp_rar x = { point / reps, sb_opts_get(&c->opts, "rate"),
				      (int)sb_opts_get(&c->opts, "arrive"), 0,
				      (int)sb_opts_get(&c->opts, "servers") };
	struct sb_alloc_exp_rows e = { out, x.util, point % reps };
	struct sb_alloc_inst in;

	x.slots = x.arrive + (int)sb_opts_get(&c->opts, "tail");
	/* keyed by rep alone: the three objectives see the same jobs */
	sb_alloc_exp_rar_inst(&in, &x, c->seed, e.rep);
	rc = sb_alloc_exp_each(c, point, &in, sb_alloc_exp_gadget_set, emit, &e, err);
	sb_alloc_inst_release(&in);
	return rc;
}

/* ------------------------------------------------------------------ */
/* SMD figures                                                         */
/* ------------------------------------------------------------------ */

int sb_alloc_exp_smd_setup(struct sb_exp_ctx *c, const char *arrivals, int speeds,
			   struct sb_err *err)
{
	struct sb_alloc_exp_smd *s = SB_NEW(struct sb_alloc_exp_smd, 1);
	char buf[1024];
	const char *p;
	int rc;

	c->state = s;
	sb_alloc_types_builtin(&s->ty);
	if ((p = sb_exp_data(c, "dl2/dl2_job_types.csv", buf, sizeof buf)) &&
	    ((rc = sb_alloc_load_types(p, &s->ty, err)) || (rc = sb_exp_add_input(c, p, err))))
		return rc;
	if ((p = sb_exp_data(c, "tiresias/tiresias_model_tensors.csv", buf, sizeof buf))) {
		if ((rc = sb_load_model_tensors(p, &s->tensors, err)) ||
		    (rc = sb_exp_add_input(c, p, err)))
			return rc;
		s->have_tensors = 1;
	}
	if (speeds && (p = sb_exp_data(c, "dl2/config_speed.txt", buf, sizeof buf))) {
		if ((rc = sb_alloc_load_speeds(p, &s->speeds, err)) ||
		    (rc = sb_exp_add_input(c, p, err)))
			return rc;
		s->have_speeds = 1;
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s; %s; %s%s",
		 s->ty.source[0] == 'f' ? "real: DL2 job types" : "synthetic fallback: built-in DL2 types",
		 s->have_tensors ? "real: Tiresias tensor sizes (resnet-50, vgg-16)" :
				   "synthetic fallback: log-uniform layers",
		 arrivals, !speeds ? "" : s->have_speeds ? "; real: DL2 measured speeds" :
				 "; no DL2 speed table (the model alone, no measured series)");
	return 0;
}

void sb_alloc_exp_smd_teardown(struct sb_exp_ctx *c)
{
	struct sb_alloc_exp_smd *s = c->state;
	if (!s)
		return;
	if (s->have_tensors)
		sb_tensor_table_release(&s->tensors);
	if (s->have_speeds)
		sb_alloc_speeds_release(&s->speeds);
	sb_free(s);
	c->state = NULL;
}

void sb_alloc_exp_smd_inst(const struct sb_exp_ctx *c, int point, int njob, int servers,
			   struct sb_alloc_inst *in)
{
	const struct sb_alloc_exp_smd *s = c->state;
	struct sb_alloc_genp g;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);

	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = njob;
	g.nserver = servers;
	g.kmax = g.pmax = 12;   /* smd.md §5: W_i, P_i <= 12 */
	sb_alloc_gen(in, &g, &s->ty, NULL, 0, s->have_tensors ? &s->tensors : NULL, &gen);
}

void sb_alloc_exp_smd_emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
			   const struct sb_alloc_result *r, double seconds)
{
	struct sb_alloc_exp_smd_rows *e = arg;
	size_t row = sb_table_add(e->out);
	(void)seconds;
	sb_table_set_int(e->out, row, "jobs", in->njob);
	sb_table_set_int(e->out, row, "servers", e->servers);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_dbl(e->out, row, "jct_mean", r->jct_mean);
	sb_table_set_dbl(e->out, row, "flow_slots", r->flow_slots);
	sb_table_set_int(e->out, row, "unfinished", r->unfinished);
	sb_table_set_dbl(e->out, row, "local",
			 r->job_slots ? (double)r->local_slots / r->job_slots : 1);
}

const char *const sb_alloc_exp_smd_set[] = {
	"smd", "smd-oblivious", "optimus", "drf", "fifo", "tetris", "srtf", NULL,
};

const struct sb_col sb_alloc_exp_smd_cols[] = {
	{ "jobs", SB_COL_INT, "" },
	{ "servers", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jct_mean", SB_COL_DBL, "s" },
	{ "flow_slots", SB_COL_DBL, "slots" },
	{ "unfinished", SB_COL_INT, "" },
	{ "local", SB_COL_DBL, "" },
	{ "spread", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

int sb_alloc_exp_smd_compare(struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
			     struct sb_table *out, int servers, int rep, struct sb_err *err)
{
	struct sb_alloc_exp_smd_rows e = { out, servers, rep };
	size_t first = out->nrow, r;
	double lo = INFINITY, hi = 0;
	int col = sb_table_col(out, "jct_mean"), rc;

	if ((rc = sb_alloc_exp_each(c, point, in, sb_alloc_exp_smd_set, sb_alloc_exp_smd_emit, &e,
				    err)))
		return rc;
	/* every run finishes every job, so the means compare */
	for (r = first; r < out->nrow; r++) {
		double v = sb_table_get_dbl(out, r, col);
		lo = sb_min(lo, v);
		hi = sb_max(hi, v);
	}
	for (r = first; r < out->nrow; r++)
		sb_table_set_dbl(out, r, "spread", hi / lo);
	return 0;
}

void sb_alloc_exp_smd_types(const struct sb_exp_ctx *c, int kmax, struct sb_alloc_inst *in)
{
	const struct sb_alloc_exp_smd *s = c->state;
	struct sb_alloc_genp g;
	struct sb_rng gen = sb_rng_stream(c->seed, 0, 0, SB_RNG_INSTANCE);

	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.nserver = 1;
	g.kmax = g.pmax = kmax;
	sb_alloc_gen_each_type(in, &g, &s->ty, s->have_tensors ? &s->tensors : NULL, &gen);
}

const char *sb_alloc_exp_smd_layers(const struct sb_exp_ctx *c, const struct sb_alloc_job *jb)
{
	const struct sb_alloc_exp_smd *s = c->state;
	const char *tn = sb_alloc_tiresias_name(jb->model);
	int n = 0;
	return s->have_tensors && tn && sb_tensor_table_find(&s->tensors, tn, &n) &&
			       n == jb->nlayer ? "tiresias" : "synthetic";
}

int sb_alloc_exp_smd_check(const struct sb_alloc_mmkp *m, const int *choice, const char *exp,
			   const char *method, double *cost, struct sb_err *err)
{
	char why[200];
	if (sb_alloc_mmkp_check(m, choice, cost, why, sizeof why))
		return sb_err_set(err, SB_EXIT_RUN, "%s: %s's choice rejected: %s", exp, method, why);
	return 0;
}

/* ------------------------------------------------------------------ */
/* PS-locality figures                                                 */
/* ------------------------------------------------------------------ */

const char *const sb_alloc_exp_ps_set[] = {
	"pslocality", "oasis", "optimus", "drf", "fifo", "tetris", "local-first", "spread",
	"random", NULL,
};

int sb_alloc_exp_ps_setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct sb_alloc_exp_psdata *d = SB_NEW(struct sb_alloc_exp_psdata, 1);
	char buf[1024];
	const char *p;
	int rc, K;

	c->state = d;
	sb_alloc_types_builtin(&d->ty);
	if ((p = sb_exp_data(c, "dl2/dl2_job_types.csv", buf, sizeof buf)) &&
	    ((rc = sb_alloc_load_types(p, &d->ty, err)) || (rc = sb_exp_add_input(c, p, err))))
		return rc;
	if ((p = sb_exp_data(c, "dl2/dl2_arrival_patterns.csv", buf, sizeof buf))) {
		for (K = 1; K <= 5; K++)
			if ((rc = sb_alloc_load_arrivals(p, K, &d->pat[K], &d->npat[K], err)))
				return rc;
		if ((rc = sb_exp_add_input(c, p, err)))
			return rc;
		d->real_pat = 1;
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s; %s",
		 d->ty.source[0] == 'f' ? "real: DL2 job types" :
					  "synthetic fallback: built-in DL2 types",
		 d->real_pat ? "real: DL2 Google-trace arrival patterns (capped at K per slot)" :
			       "synthetic fallback: Poisson arrivals at K/2 per slot");
	return 0;
}

void sb_alloc_exp_ps_teardown(struct sb_exp_ctx *c)
{
	struct sb_alloc_exp_psdata *d = c->state;
	int K;
	if (!d)
		return;
	for (K = 0; K <= 5; K++)
		sb_free(d->pat[K]);
	sb_free(d);
	c->state = NULL;
}

void sb_alloc_exp_ps_inst(struct sb_alloc_inst *in, const struct sb_exp_ctx *c, int K,
			  int servers, int jobs, int tail, int key)
{
	const struct sb_alloc_exp_psdata *d = c->state;
	struct sb_alloc_genp g;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)key, 0, SB_RNG_INSTANCE);
	int j, last = 0;

	SB_ASSERT(K >= 1 && K <= 5);
	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = jobs;
	g.nserver = servers;
	g.poisson = K / 2.0;
	sb_alloc_gen(in, &g, &d->ty, d->real_pat ? d->pat[K] : NULL, d->real_pat ? d->npat[K] : 0,
		     NULL, &gen);
	for (j = 0; j < in->njob; j++)
		last = in->job[j].arrival > last ? in->job[j].arrival : last;
	in->nslot = last + 1 + tail;
}

double sb_alloc_exp_ps_mean_h(const struct sb_alloc_inst *in, const struct sb_alloc_result *r)
{
	return in->njob ? r->flow_slots * in->slot_s / 3600 / in->njob : 0;
}

int sb_alloc_exp_ps_lp(const struct sb_exp_ctx *c, int point, int jobs, int servers, int slots,
		       struct sb_alloc_exp_pslp *x, double *seconds, struct sb_err *err)
{
	struct sb_alloc_genp g;
	struct sb_alloc_types ty;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);
	double t0;
	int rc;

	sb_alloc_types_builtin(&ty);
	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = jobs;
	g.nserver = servers;
	g.nslot = slots;
	g.kmax = g.pmax = 4;
	sb_alloc_gen_small(&x->in, &g, &ty, &gen);
	sb_alloc_psmodel_build(&x->in, NULL, 0, x->in.nslot, 1, &x->m);
	t0 = sb_now();
	if ((rc = sb_alloc_psmodel_solve(&x->m, 1, &x->res, err))) {
		sb_alloc_psmodel_release(&x->m);
		sb_alloc_inst_release(&x->in);
		return rc;
	}
	*seconds = sb_now() - t0;
	if (x->res.status != SB_LP_OPTIMAL || !x->res.x) {
		rc = sb_err_set(err, SB_EXIT_RUN, "%s: instance %d: the LP relaxation ended %s, "
				"not optimal", c->exp->name, point,
				sb_lp_status_name(x->res.status));
		sb_alloc_exp_ps_lp_release(x);
		return rc;
	}
	x->lp = x->res.obj + x->m.constant;
	return 0;
}

void sb_alloc_exp_ps_lp_release(struct sb_alloc_exp_pslp *x)
{
	sb_lp_result_release(&x->res);
	sb_alloc_psmodel_release(&x->m);
	sb_alloc_inst_release(&x->in);
}

void sb_alloc_exp_ps_rounds(const struct sb_exp_ctx *c, int point,
			    const struct sb_alloc_exp_pslp *x, double kappa, uint64_t key0,
			    int trials, sb_alloc_exp_round_emit *emit, void *arg)
{
	struct sb_rr_plan r;
	int n;

	sb_rr_plan_init(&r, x->m.J, x->m.H, x->m.T);
	for (n = 0; n < trials; n++) {
		struct sb_rng rng = sb_rng_stream(c->seed, (uint64_t)point, key0 + (uint64_t)n,
						  SB_RNG_POLICY);
		struct sb_rr_stats st;
		sb_rr_round(&x->in, &x->m, x->res.x, kappa, &rng, &r);
		sb_rr_stats(&x->in, &x->m, &r, &st);
		emit(arg, n, &st);
	}
	sb_rr_plan_release(&r);
}
