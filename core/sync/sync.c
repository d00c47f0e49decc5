/*
 * sync.c - the sync family's simulator and checker (model in sync.h).
 * Ours [O]: the event loop, the cost model and the checker; the protocols
 * the policies implement on top are the ADSP authors' [V, code].
 */
#include "sync.h"
#include "heap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JIT_CLAMP 3.0   /* jitter z clamped to +-3: the checker and the bound rely on it */

void sb_sync_inst_release(struct sb_sync_inst *in)
{
	sb_free(in->v);
	sb_free(in->bw);
	in->v = in->bw = NULL;
}

void sb_sync_inst_defaults(struct sb_sync_inst *in, int m)
{
	memset(in, 0, sizeof *in);
	in->m = m;
	in->jitter = 0.1;
	in->latency = 0.05;
	in->bytes_mult = 30;
	in->model = SB_SYNC_MLP;
	in->hidden = 64;
	in->lr = 0.05;
	in->batch = 32;
	in->period = 60;
	in->horizon = 1500;
	in->target = 0.5;
	in->conv_count = 10;
	in->eval_batches = 10;
	in->eval_batch = 128;
}

/* Worker i's entry of the 18-worker EC2 mix. Fewer than 18 workers take
 * every (18/m)-th entry, so that a small system keeps the mix's three
 * speed classes (the first m entries would all be the slowest class, and
 * H would stretch nothing); more than 18 repeat the mix. */
static int mix_type(int i, int m)
{
	return m < 18 ? (int)((long)i * 18 / m) : i % 18;
}

int sb_sync_speeds(struct sb_sync_inst *in, double h, double slow, struct sb_rng *r,
		   struct sb_err *err)
{
	static const double mix[18] = { 1, 1, 1, 1, 1, 1, 1, 1.8, 1.8, 1.8, 1.8, 1.8,
					3, 3, 3, 3, 1.8, 1.8 };
	double mean = 0, k;
	int i;

	if (!(h >= 1))
		return sb_err_set(err, SB_EXIT_INPUT, "heterogeneity H = %g: must be >= 1 "
				  "(H = mean speed / slowest speed)", h);
	if (!(slow > 0))
		return sb_err_set(err, SB_EXIT_INPUT, "slowest step time %g: must be > 0 s", slow);
	if (in->m < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "workers %d: must be >= 1", in->m);
	for (i = 0; i < in->m; i++)
		mean += mix[mix_type(i, in->m)];
	mean /= in->m;
	/* stretch the mix about its slowest worker: r' = 1 + (r - 1) k keeps the
	 * slowest at 1 and moves the mean to H (one worker type: all equal) */
	k = mean > 1 ? (h - 1) / (mean - 1) : 0;
	sb_free(in->v);
	sb_free(in->bw);
	in->v = SB_NEW(double, in->m);
	in->bw = SB_NEW(double, in->m);
	for (i = 0; i < in->m; i++) {
		in->v[i] = (1 + (mix[mix_type(i, in->m)] - 1) * k) / slow;
		in->bw[i] = 5 + 45 * sb_rng_uniform(r);
	}
	return 0;
}

int sb_sync_inst_validate(const struct sb_sync_inst *in, struct sb_err *err)
{
	int i;
	if (in->m < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "workers %d: must be >= 1", in->m);
	for (i = 0; i < in->m; i++) {
		if (!(in->v[i] > 0) || !isfinite(in->v[i]))
			return sb_err_set(err, SB_EXIT_INPUT, "worker %d: speed %g: must be > 0 "
					  "steps/s", i, in->v[i]);
		if (!(in->bw[i] > 0) || !isfinite(in->bw[i]))
			return sb_err_set(err, SB_EXIT_INPUT, "worker %d: bandwidth %g: must be "
					  "> 0 Mb/s", i, in->bw[i]);
	}
	if (!(in->lr > 0) || !isfinite(in->lr))
		return sb_err_set(err, SB_EXIT_INPUT, "learning rate %g: must be > 0", in->lr);
	if (!(in->ps_momentum >= 0 && in->ps_momentum < 1))
		return sb_err_set(err, SB_EXIT_INPUT, "PS momentum %g: must be in [0, 1)",
				  in->ps_momentum);
	if (!(in->jitter >= 0) || !(in->latency >= 0) || !(in->delay >= 0) ||
	    !(in->bytes_mult >= 0))
		return sb_err_set(err, SB_EXIT_INPUT, "jitter, latency, delay and byte "
				  "multiplier must be >= 0");
	if (in->batch < 1 || !(in->period > 0) || !(in->horizon > 0) || in->conv_count < 1 ||
	    in->eval_batches < 1 || in->eval_batch < 1 || in->hidden < 1)
		return sb_err_set(err, SB_EXIT_INPUT, "batch, check period, horizon, "
				  "convergence count, evaluation batches and width must be > 0");
	if (!in->train || !in->test || in->train->n < 1 || in->test->n < 1 ||
	    in->train->d != in->test->d)
		return sb_err_set(err, SB_EXIT_INPUT, "training and test sets must be "
				  "non-empty with the same features");
	return 0;
}

double sb_sync_comm(const struct sb_sync_inst *in, size_t nparams, int i)
{
	double mbit = (double)nparams * 4 * 8 * in->bytes_mult / 1e6;
	return 2 * (in->latency + mbit / in->bw[i]) + in->delay;
}

double sb_sync_bound(const struct sb_sync_inst *in, long n)
{
	double rate = 0;
	int i;
	for (i = 0; i < in->m; i++)
		rate += in->v[i] * exp(JIT_CLAMP * in->jitter);
	return (double)n / rate;
}

static struct sb_nn *new_net(const struct sb_sync_inst *in, struct sb_err *err)
{
	int size[3] = { in->train->d, in->hidden, in->train->k };
	enum sb_nn_act act[2] = { SB_NN_RELU, SB_NN_LINEAR };
	if (in->model == SB_SYNC_SOFTMAX) {
		size[1] = in->train->k;
		act[0] = SB_NN_LINEAR;
		return sb_nn_new(1, size, act, err);
	}
	return sb_nn_new(2, size, act, err);
}

size_t sb_sync_nparams(const struct sb_sync_inst *in)
{
	size_t d = (size_t)in->train->d, k = (size_t)in->train->k, h = (size_t)in->hidden;
	return in->model == SB_SYNC_SOFTMAX ? d * k + k : d * h + h + h * k + k;
}

void sb_sync_result_release(struct sb_sync_result *r)
{
	sb_free(r->rec);
	sb_free(r->eval_t);
	sb_free(r->eval_loss);
	sb_free(r->eval_steps);
	sb_free(r->w0);
	sb_free(r->wfinal);
	sb_free(r->delta);
	sb_free(r->upd);
	memset(r, 0, sizeof *r);
}

double sb_sync_time_to_steps(const struct sb_sync_result *r, long n)
{
	size_t k;
	long c = 0;
	/* STEP records are appended when the step ends, in time order */
	for (k = 0; k < r->nrec; k++)
		if (r->rec[k].kind == SB_SYNC_STEP && ++c == n)
			return r->rec[k].t1;
	return -1;
}

/* ---------------------------------------------------------------- simulator */

enum { EV_STEP = 0, EV_RESUME = 1, EV_EVAL = 2 };

struct sim {
	struct sb_sync_sim pub;
	const struct sb_sync_inst *in;
	struct sb_nn *nn;
	double *W, *snap, **wi, **ws;    /* PS model, snapshot, local, last pulled */
	double *vel;                     /* PS momentum (in->ps_momentum > 0) */
	double *step_start, *wait_since;
	int *waiting, *cur_batch;
	struct sb_rng *wr;               /* one stream per worker */
	double *xb;                      /* batch rows */
	int *yb, **shard, *nshard;
	double *dz;
	struct sb_heap q;
	struct sb_sync_result *r;
	struct sb_sync_ctl ctl;
};

static void rec(struct sim *s, int kind, int w, double t0, double t1, long bound, int batch)
{
	struct sb_sync_result *r = s->r;
	if (r->nrec == r->caprec) {
		r->caprec = r->caprec ? 2 * r->caprec : 4096;
		r->rec = sb_xrealloc(r->rec, r->caprec * sizeof *r->rec);
	}
	r->rec[r->nrec++] = (struct sb_sync_rec){ kind, w, t0, t1, bound, batch };
}

/* One real SGD step of worker i on a batch from its shard: the net's
 * parameter pointer is pointed at W_i so no copy is made. */
static void sgd_step(struct sim *s, int i, int b)
{
	const struct sb_sync_data *tr = s->in->train;
	double *own = s->nn->w, lr = s->in->lr;
	size_t p, np = s->pub.nparams;
	int j, d = tr->d;

	for (j = 0; j < b; j++) {
		int row = s->shard[i][sb_rng_below(&s->wr[i], (uint32_t)s->nshard[i])];
		memcpy(s->xb + (size_t)j * d, tr->x + (size_t)row * d, (size_t)d * sizeof *s->xb);
		s->yb[j] = tr->y[row];
	}
	s->nn->w = s->wi[i];
	sb_nn_zero_grad(s->nn);
	sb_nn_xent(sb_nn_forward(s->nn, s->xb, b), s->yb, s->dz, b, tr->k);
	sb_nn_backward(s->nn, s->dz, NULL);
	for (p = 0; p < np; p++)
		s->wi[i][p] -= lr * s->nn->g[p];
	s->nn->w = own;
}

static double eval_loss(struct sim *s)
{
	const struct sb_sync_data *te = s->in->test;
	double *own = s->nn->w, sum = 0;
	int k, j, eb = s->in->eval_batch, d = te->d, n = s->in->eval_batches * eb;
	double *x = sb_xmalloc((size_t)eb * d * sizeof *x);
	int *y = sb_xmalloc((size_t)eb * sizeof *y);

	s->nn->w = s->W;
	for (k = 0; k < n; k += eb) {
		for (j = 0; j < eb; j++) {
			int row = (k + j) % te->n;
			memcpy(x + (size_t)j * d, te->x + (size_t)row * d, (size_t)d * sizeof *x);
			y[j] = te->y[row];
		}
		sum += sb_nn_xent(sb_nn_forward(s->nn, x, eb), y, NULL, eb, te->k) * eb;
	}
	s->nn->w = own;
	sb_free(x);
	sb_free(y);
	return sum / n;
}

static void start_step(struct sim *s, const struct sb_sync_policy *p, void *ctx, int i)
{
	const struct sb_sync_inst *in = s->in;
	int b = p->batch ? p->batch(ctx, &s->pub, i) : in->batch;
	double z = sb_rng_normal(&s->wr[i], 0, 1);
	z = z > JIT_CLAMP ? JIT_CLAMP : z < -JIT_CLAMP ? -JIT_CLAMP : z;
	if (b < 1)
		b = 1;
	if (b > 4096)
		b = 4096;
	s->cur_batch[i] = b;
	s->step_start[i] = s->pub.now;
	sb_heap_push(&s->q, s->pub.now + (b / 32.0) / in->v[i] * exp(in->jitter * z),
		     (int64_t)i * 4 + EV_STEP);
}

/* Release every waiting worker whose gate is open: commits_j - min < s. */
static void open_gates(struct sim *s)
{
	long mn = s->pub.commits[0];
	int j, m = s->in->m;
	for (j = 1; j < m; j++)
		if (s->pub.commits[j] < mn)
			mn = s->pub.commits[j];
	for (j = 0; j < m; j++) {
		if (!s->waiting[j] || s->pub.commits[j] - mn >= s->ctl.bound)
			continue;
		s->waiting[j] = 0;
		rec(s, SB_SYNC_RELEASE, j, s->wait_since[j], s->pub.now, s->ctl.bound, 0);
		s->r->blocked += s->pub.now - s->wait_since[j];
		memcpy(s->wi[j], s->W, s->pub.nparams * sizeof *s->W);
		memcpy(s->ws[j], s->W, s->pub.nparams * sizeof *s->W);
		rec(s, SB_SYNC_PULL, j, s->pub.now, s->pub.now + s->pub.o[j], 0, 0);
		s->r->comm += s->pub.o[j];
		sb_heap_push(&s->q, s->pub.now + s->pub.o[j], (int64_t)j * 4 + EV_RESUME);
	}
}

/* Log a change to the PS model (in->log_updates); a push's Delta is
 * copied to the result's delta array. */
static void log_upd(struct sim *s, int kind, int w, const double *delta)
{
	struct sb_sync_result *r = s->r;
	size_t np = s->pub.nparams;
	if (!s->in->log_updates)
		return;
	if (r->nupd == r->capupd) {
		r->capupd = r->capupd ? 2 * r->capupd : 256;
		r->upd = sb_xrealloc(r->upd, r->capupd * sizeof *r->upd);
	}
	r->upd[r->nupd++] = (struct sb_sync_upd){ kind, w, s->pub.now, r->ndelta };
	if (delta) {
		r->delta = sb_xrealloc(r->delta, (r->ndelta + 1) * np * sizeof *r->delta);
		memcpy(r->delta + r->ndelta * np, delta, np * sizeof *delta);
		r->ndelta++;
	}
}

static void push(struct sim *s, int i)
{
	size_t p, np = s->pub.nparams;
	double inv = 1.0 / s->in->m;
	if (s->in->log_updates) {
		double *d = SB_NEW(double, np);
		for (p = 0; p < np; p++)
			d[p] = s->wi[i][p] - s->ws[i][p];
		log_upd(s, SB_SYNC_UPD_PUSH, i, d);
		sb_free(d);
	}
	if (s->in->ps_momentum > 0)
		for (p = 0; p < np; p++) {
			s->vel[p] = s->in->ps_momentum * s->vel[p] + (s->wi[i][p] - s->ws[i][p]) * inv;
			s->W[p] += s->vel[p];
		}
	else
		for (p = 0; p < np; p++)
			s->W[p] += (s->wi[i][p] - s->ws[i][p]) * inv;
	s->pub.commits[i]++;
	s->r->commits++;
	s->pub.since[i] = 0;
	s->waiting[i] = 1;
	s->wait_since[i] = s->pub.now;
	rec(s, SB_SYNC_PUSH, i, s->pub.now, s->pub.now, s->ctl.bound, 0);
	open_gates(s);
}

static void add_eval(struct sb_sync_result *r, double t, double loss, long steps)
{
	if (r->neval == r->capeval) {
		r->capeval = r->capeval ? 2 * r->capeval : 64;
		r->eval_t = sb_xrealloc(r->eval_t, (size_t)r->capeval * sizeof *r->eval_t);
		r->eval_loss = sb_xrealloc(r->eval_loss, (size_t)r->capeval * sizeof *r->eval_loss);
		r->eval_steps = sb_xrealloc(r->eval_steps, (size_t)r->capeval * sizeof *r->eval_steps);
	}
	r->eval_t[r->neval] = t;
	r->eval_loss[r->neval] = loss;
	r->eval_steps[r->neval++] = steps;
}

/* Shards: worker i trains on rows i, i + M, i + 2M, ... (IID). */
static void make_shards(struct sim *s)
{
	int m = s->in->m, n = s->in->train->n, i, k;
	s->shard = SB_NEW(int *, m);
	s->nshard = SB_NEW(int, m);
	for (i = 0; i < m; i++) {
		s->shard[i] = SB_NEW(int, n / m + 1);
		for (k = i; k < n; k += m)
			s->shard[i][s->nshard[i]++] = k;
		if (!s->nshard[i])   /* fewer rows than workers: share row i mod n */
			s->shard[i][s->nshard[i]++] = i % n;
	}
}

static void sim_free(struct sim *s)
{
	int i;
	for (i = 0; s->wi && i < s->in->m; i++) {
		sb_free(s->wi[i]);
		sb_free(s->ws[i]);
		sb_free(s->shard[i]);
	}
	sb_free(s->wi);
	sb_free(s->ws);
	sb_free(s->shard);
	sb_free(s->nshard);
	sb_free(s->W);
	sb_free(s->snap);
	sb_free(s->vel);
	sb_free(s->step_start);
	sb_free(s->wait_since);
	sb_free(s->waiting);
	sb_free(s->cur_batch);
	sb_free(s->wr);
	sb_free(s->xb);
	sb_free(s->yb);
	sb_free(s->dz);
	sb_free(s->pub.steps);
	sb_free(s->pub.since);
	sb_free(s->pub.last_commit);
	sb_free(s->pub.o);
	sb_free(s->pub.commits);
	sb_heap_release(&s->q);
	sb_nn_free(s->nn);
}

int sb_sync_run(const struct sb_sync_inst *in, const struct sb_sync_policy *p,
		const struct sb_opts *o, struct sb_sync_result *r, struct sb_err *err)
{
	struct sim s;
	struct sb_heap_item ev;
	struct sb_rng init;
	void *ctx = NULL;
	int m = in->m, i, rc, below = 0, half = 0;
	size_t np;
	char why[256];

	memset(r, 0, sizeof *r);
	memset(&s, 0, sizeof s);
	if ((rc = sb_sync_inst_validate(in, err)))
		return rc;
	s.in = s.pub.in = in;
	s.r = r;
	if (!(s.nn = new_net(in, err)))
		return SB_EXIT_INPUT;
	init = sb_rng_stream(in->seed, in->point, 0, SB_RNG_INSTANCE ^ sb_hash_str("sync-init"));
	sb_nn_init(s.nn, &init);
	np = s.pub.nparams = s.nn->nparams;
	s.W = SB_NEW(double, np);
	s.snap = SB_NEW(double, np);
	s.vel = SB_NEW(double, np);
	memcpy(s.W, s.nn->w, np * sizeof *s.W);
	memcpy(s.snap, s.W, np * sizeof *s.W);
	if (in->log_updates) {
		r->nparams = np;
		r->w0 = SB_NEW(double, np);
		memcpy(r->w0, s.W, np * sizeof *s.W);
	}
	s.wi = SB_NEW(double *, m);
	s.ws = SB_NEW(double *, m);
	s.wr = SB_NEW(struct sb_rng, m);
	for (i = 0; i < m; i++) {
		s.wi[i] = SB_NEW(double, np);
		s.ws[i] = SB_NEW(double, np);
		memcpy(s.wi[i], s.W, np * sizeof *s.W);
		memcpy(s.ws[i], s.W, np * sizeof *s.W);
		s.wr[i] = sb_rng_stream(in->seed, in->point, (uint64_t)i + 1, SB_RNG_NOISE);
	}
	make_shards(&s);
	s.step_start = SB_NEW(double, m);
	s.wait_since = SB_NEW(double, m);
	s.waiting = SB_NEW(int, m);
	s.cur_batch = SB_NEW(int, m);
	s.xb = SB_NEW(double, (size_t)4096 * in->train->d);
	s.yb = SB_NEW(int, 4096);
	s.dz = SB_NEW(double, (size_t)4096 * in->train->k);
	s.pub.steps = SB_NEW(long, m);
	s.pub.since = SB_NEW(long, m);
	s.pub.last_commit = SB_NEW(double, m);
	s.pub.o = SB_NEW(double, m);
	s.pub.commits = SB_NEW(long, m);
	for (i = 0; i < m; i++)
		s.pub.o[i] = sb_sync_comm(in, np, i);
	sb_heap_init(&s.q);
	s.ctl.bound = SB_SYNC_INF;
	r->conv_time = -1;
	if ((rc = p->init(&s.pub, o, &ctx, &s.ctl, err)))
		goto out;
	sb_heap_push(&s.q, 0, EV_EVAL);
	for (i = 0; i < m; i++)
		start_step(&s, p, ctx, i);
	while (sb_heap_pop(&s.q, &ev) && ev.key <= in->horizon) {
		int w = (int)(ev.val / 4), kind = (int)(ev.val % 4);
		s.pub.now = ev.key;
		if (kind == EV_STEP) {
			sgd_step(&s, w, s.cur_batch[w]);
			rec(&s, SB_SYNC_STEP, w, s.step_start[w], s.pub.now, 0, s.cur_batch[w]);
			r->compute += s.pub.now - s.step_start[w];
			r->steps++;
			s.pub.steps[w]++;
			s.pub.since[w]++;
			if (p->should_commit(ctx, &s.pub, w))
				push(&s, w);
			else
				start_step(&s, p, ctx, w);
		} else if (kind == EV_RESUME) {
			s.pub.last_commit[w] = s.pub.now;
			start_step(&s, p, ctx, w);
		} else {
			double loss = eval_loss(&s);
			int full = half % 2 == 0;
			add_eval(r, s.pub.now, loss, r->steps);
			r->final_loss = loss;
			if (full && half > 0 && loss < in->target && ++below == in->conv_count &&
			    r->conv_time < 0) {
				r->conv_time = s.pub.now;
				r->conv_steps = r->steps;
			}
			if (r->conv_time >= 0 && in->stop_at_conv)
				break;
			s.ctl.snapshot = s.ctl.restore = 0;
			if (p->on_eval)
				p->on_eval(ctx, &s.pub, loss, full, &s.ctl);
			if (s.ctl.snapshot) {
				memcpy(s.snap, s.W, np * sizeof *s.W);
				log_upd(&s, SB_SYNC_UPD_SNAPSHOT, -1, NULL);
			}
			if (s.ctl.restore) {
				memcpy(s.W, s.snap, np * sizeof *s.W);
				memset(s.vel, 0, np * sizeof *s.vel);
				log_upd(&s, SB_SYNC_UPD_RESTORE, -1, NULL);
				for (i = 0; i < m; i++) {
					memcpy(s.wi[i], s.W, np * sizeof *s.W);
					memcpy(s.ws[i], s.W, np * sizeof *s.W);
				}
			}
			if (s.ctl.bound < 1)
				s.ctl.bound = 1;
			open_gates(&s);
			half++;
			sb_heap_push(&s.q, s.pub.now + in->period / 2, EV_EVAL);
		}
	}
	r->end = s.pub.now < in->horizon && r->conv_time < 0 ? in->horizon : s.pub.now;
	r->dc_final = s.ctl.setting;
	if (in->log_updates) {
		r->wfinal = SB_NEW(double, np);
		memcpy(r->wfinal, s.W, np * sizeof *s.W);
	}
	if (sb_sync_check(in, np, r, why, sizeof why) ||
	    (in->log_updates && sb_sync_check_updates(in, r, why, sizeof why))) {
		rc = sb_err_set(err, SB_EXIT_RUN, "policy %s: checker rejects the run: %s",
				p->name, why);
		sb_sync_result_release(r);
	}
out:
	if (p->release)
		p->release(ctx);
	sim_free(&s);
	return rc;
}

/* A key of n bytes, eight at a time (sb_hash_bytes takes one: hashing the
 * data sets byte by byte was 7% of a sync experiment's time). Process-local
 * memo keys only: nothing stored depends on its value. */
static uint64_t hash_words(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	uint64_t w;

	for (; n >= sizeof w; n -= sizeof w, c += sizeof w) {
		memcpy(&w, c, sizeof w);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	return sb_hash_bytes(h, c, n);
}

static uint64_t hash_data(uint64_t h, const struct sb_sync_data *d)
{
	h = sb_hash_bytes(h, &d->n, sizeof d->n);
	h = sb_hash_bytes(h, &d->d, sizeof d->d);
	h = sb_hash_bytes(h, &d->k, sizeof d->k);
	h = hash_words(h, d->x, (size_t)d->n * (size_t)d->d * sizeof *d->x);
	return hash_words(h, d->y, (size_t)d->n * sizeof *d->y);
}

/* Everything the reference loss depends on, hashed: the data, the model,
 * the SGD and evaluation settings and the streams. */
static uint64_t reference_key(const struct sb_sync_inst *in, double epochs)
{
	uint64_t h = hash_data(hash_data(SB_HASH_INIT, in->train), in->test);
	int m = (int)in->model;
	h = sb_hash_bytes(h, &m, sizeof m);
	h = sb_hash_bytes(h, &in->hidden, sizeof in->hidden);
	h = sb_hash_bytes(h, &in->lr, sizeof in->lr);
	h = sb_hash_bytes(h, &in->batch, sizeof in->batch);
	h = sb_hash_bytes(h, &in->eval_batches, sizeof in->eval_batches);
	h = sb_hash_bytes(h, &in->eval_batch, sizeof in->eval_batch);
	h = sb_hash_bytes(h, &in->seed, sizeof in->seed);
	h = sb_hash_bytes(h, &in->point, sizeof in->point);
	return sb_hash_bytes(h, &epochs, sizeof epochs);
}

/* Single-node SGD for `epochs` passes (batch in->batch, rows drawn at
 * random from the whole training set, the same initial model): the
 * reference of the convergence threshold (adsp.md §7). Sweep points that
 * share a replicate's world share its reference, which was most of a sync
 * experiment's time: the last few are remembered per process, keyed by a
 * hash of every input of the computation, so the value is the same as
 * computed afresh. */
double sb_sync_reference_loss(const struct sb_sync_inst *in, double epochs)
{
	static struct { uint64_t key; double loss; int used; } memo[16];
	static int next;
	struct sim s;
	struct sb_err err;
	struct sb_rng init;
	long k, n = (long)(epochs * in->train->n / in->batch);
	double loss;
	uint64_t key = reference_key(in, epochs);

	for (k = 0; k < 16; k++)
		if (memo[k].used && memo[k].key == key)
			return memo[k].loss;
	memset(&s, 0, sizeof s);
	s.in = s.pub.in = in;
	if (!(s.nn = new_net(in, &err)))
		SB_BUG("sync: reference net: %s", err.msg);
	init = sb_rng_stream(in->seed, in->point, 0, SB_RNG_INSTANCE ^ sb_hash_str("sync-init"));
	sb_nn_init(s.nn, &init);
	s.pub.nparams = s.nn->nparams;
	s.W = SB_NEW(double, s.pub.nparams);
	memcpy(s.W, s.nn->w, s.pub.nparams * sizeof *s.W);
	s.wi = SB_NEW(double *, 1);
	s.wi[0] = s.W;
	s.wr = SB_NEW(struct sb_rng, 1);
	s.wr[0] = sb_rng_stream(in->seed, in->point, 0, SB_RNG_NOISE ^ sb_hash_str("sync-ref"));
	s.shard = SB_NEW(int *, 1);
	s.nshard = SB_NEW(int, 1);
	s.shard[0] = SB_NEW(int, in->train->n);
	for (k = 0; k < in->train->n; k++)
		s.shard[0][s.nshard[0]++] = (int)k;
	s.xb = SB_NEW(double, (size_t)in->batch * in->train->d);
	s.yb = SB_NEW(int, in->batch);
	s.dz = SB_NEW(double, (size_t)in->batch * in->train->k);
	for (k = 0; k < n; k++)
		sgd_step(&s, 0, in->batch);
	loss = eval_loss(&s);
	sb_free(s.shard[0]);
	sb_free(s.shard);
	sb_free(s.nshard);
	sb_free(s.wi);
	sb_free(s.wr);
	sb_free(s.W);
	sb_free(s.xb);
	sb_free(s.yb);
	sb_free(s.dz);
	sb_nn_free(s.nn);
	memo[next].key = key;
	memo[next].loss = loss;
	memo[next].used = 1;
	next = (next + 1) % 16;
	return loss;
}

/* ---------------------------------------------------------------- checker */

/* Independent of the simulator: replays the trace with its own counters. */
int sb_sync_check(const struct sb_sync_inst *in, size_t nparams,
		  const struct sb_sync_result *r, char *why, size_t len)
{
	int m = in->m, bad = 0, i;
	long *commits = SB_NEW(long, m), steps = 0, ncommit = 0;
	double *free_at = SB_NEW(double, m), compute = 0, blocked = 0, comm = 0;
	int *state = SB_NEW(int, m);   /* 0 running, 1 pushed, 2 released */
	int *open_at_push = SB_NEW(int, m);
	double *push_t = SB_NEW(double, m), tol = 1e-9, lo = exp(-JIT_CLAMP * in->jitter),
	       hi = exp(JIT_CLAMP * in->jitter), last = 0;
	size_t k;

	for (k = 0; k < r->nrec && !bad; k++) {
		const struct sb_sync_rec *e = &r->rec[k];
		long mn;
		double now;
		int w = e->worker;
		if (w < 0 || w >= m) {
			snprintf(why, len, "record %zu: worker %d out of range", k, w);
			bad = 1;
			break;
		}
		/* records are written when they happen: a step or a release at its
		 * end, a push or a pull at its start */
		now = e->kind == SB_SYNC_STEP || e->kind == SB_SYNC_RELEASE ? e->t1 : e->t0;
		if (now < last - tol) {
			snprintf(why, len, "record %zu: time %g before %g", k, now, last);
			bad = 1;
			break;
		}
		last = now;
		switch (e->kind) {
		case SB_SYNC_STEP: {
			double base = (e->batch / 32.0) / in->v[w], d = e->t1 - e->t0;
			if (state[w] != 0 || fabs(e->t0 - free_at[w]) > tol * (1 + e->t0) ||
			    d < base * lo * (1 - 1e-9) || d > base * hi * (1 + 1e-9)) {
				snprintf(why, len, "worker %d: step [%g, %g] does not follow its "
					 "previous activity (%g) or has a duration outside [%g, %g]",
					 w, e->t0, e->t1, free_at[w], base * lo, base * hi);
				bad = 1;
			}
			free_at[w] = e->t1;
			compute += d;
			steps++;
			break;
		}
		case SB_SYNC_PUSH:
			if (state[w] != 0 || fabs(e->t0 - free_at[w]) > tol * (1 + e->t0)) {
				snprintf(why, len, "worker %d: push at %g not right after a step", w, e->t0);
				bad = 1;
			}
			commits[w]++;
			ncommit++;
			state[w] = 1;
			push_t[w] = e->t0;
			for (mn = commits[0], i = 1; i < m; i++)
				mn = commits[i] < mn ? commits[i] : mn;
			/* it may only wait if the gate was shut when it pushed */
			open_at_push[w] = commits[w] - mn < e->bound;
			break;
		case SB_SYNC_RELEASE:
			for (mn = commits[0], i = 1; i < m; i++)
				mn = commits[i] < mn ? commits[i] : mn;
			if (state[w] != 1 || fabs(e->t0 - push_t[w]) > tol * (1 + e->t0) ||
			    e->t1 < e->t0 || commits[w] - mn >= e->bound ||
			    (open_at_push[w] && e->t1 > e->t0 + tol)) {
				snprintf(why, len, "worker %d: released at %g with commits %ld, min %ld, "
					 "bound %ld (the gate is shut) or without a push", w, e->t1,
					 commits[w], mn, e->bound);
				bad = 1;
			}
			blocked += e->t1 - e->t0;
			state[w] = 2;
			break;
		case SB_SYNC_PULL:
			if (state[w] != 2 || fabs(e->t1 - e->t0 - sb_sync_comm(in, nparams, w)) >
			    tol * (1 + e->t1)) {
				snprintf(why, len, "worker %d: pull [%g, %g] not after a release or not "
					 "lasting o_i = %g", w, e->t0, e->t1, sb_sync_comm(in, nparams, w));
				bad = 1;
			}
			comm += e->t1 - e->t0;
			free_at[w] = e->t1;
			state[w] = 0;
			break;
		default:
			snprintf(why, len, "record %zu: unknown kind %d", k, e->kind);
			bad = 1;
		}
	}
	if (!bad && (steps != r->steps || ncommit != r->commits ||
		     fabs(compute - r->compute) > 1e-6 * (1 + compute) ||
		     fabs(blocked - r->blocked) > 1e-6 * (1 + blocked) ||
		     fabs(comm - r->comm) > 1e-6 * (1 + comm))) {
		snprintf(why, len, "totals differ from the trace: steps %ld/%ld, commits %ld/%ld, "
			 "compute %g/%g, blocked %g/%g, comm %g/%g", r->steps, steps, r->commits,
			 ncommit, r->compute, compute, r->blocked, blocked, r->comm, comm);
		bad = 1;
	}
	sb_free(commits);
	sb_free(free_at);
	sb_free(state);
	sb_free(push_t);
	sb_free(open_at_push);
	return bad;
}

int sb_sync_check_updates(const struct sb_sync_inst *in, const struct sb_sync_result *r,
			  char *why, size_t len)
{
	size_t np = r->nparams, k, u = 0, p;
	double *W, *snap, *v, inv = 1.0 / in->m, mu = in->ps_momentum;
	int bad = 0;

	if (!r->w0 || !r->wfinal) {
		snprintf(why, len, "the run kept no update log (log_updates = 0)");
		return 1;
	}
	/* exactly once: the pushes of the log are the PUSH records of the trace */
	for (k = 0; k < r->nrec && !bad; k++) {
		const struct sb_sync_rec *e = &r->rec[k];
		if (e->kind != SB_SYNC_PUSH)
			continue;
		while (u < r->nupd && r->upd[u].kind != SB_SYNC_UPD_PUSH)
			u++;
		if (u == r->nupd || r->upd[u].worker != e->worker || r->upd[u].t != e->t0) {
			snprintf(why, len, "push of worker %d at %g: %s", e->worker, e->t0,
				 u == r->nupd ? "never applied by the PS" : "applied out of order");
			bad = 1;
		}
		u++;
	}
	for (; u < r->nupd && !bad; u++)
		if (r->upd[u].kind == SB_SYNC_UPD_PUSH) {
			snprintf(why, len, "the PS applied an update of worker %d at %g that no "
				 "worker pushed", r->upd[u].worker, r->upd[u].t);
			bad = 1;
		}
	if (bad)
		return 1;
	/* the PS state is the replay of what it accepted, in the same order
	 * and arithmetic: bit for bit */
	W = SB_NEW(double, np);
	snap = SB_NEW(double, np);
	v = SB_NEW(double, np);
	memcpy(W, r->w0, np * sizeof *W);
	memcpy(snap, r->w0, np * sizeof *W);
	for (u = 0; u < r->nupd; u++) {
		const struct sb_sync_upd *e = &r->upd[u];
		if (e->kind == SB_SYNC_UPD_PUSH && mu > 0)
			for (p = 0; p < np; p++) {
				v[p] = mu * v[p] + r->delta[e->k * np + p] * inv;
				W[p] += v[p];
			}
		else if (e->kind == SB_SYNC_UPD_PUSH)
			for (p = 0; p < np; p++)
				W[p] += r->delta[e->k * np + p] * inv;
		else if (e->kind == SB_SYNC_UPD_SNAPSHOT)
			memcpy(snap, W, np * sizeof *W);
		else {
			memcpy(W, snap, np * sizeof *W);
			memset(v, 0, np * sizeof *v);
		}
	}
	for (p = 0; p < np && !bad; p++)
		if (W[p] != r->wfinal[p]) {
			snprintf(why, len, "PS parameter %zu is %.17g, the replay of the %zu accepted "
				 "updates gives %.17g", p, r->wfinal[p], r->ndelta, W[p]);
			bad = 1;
		}
	sb_free(W);
	sb_free(snap);
	sb_free(v);
	return bad;
}

int sb_sync_every_step(void *ctx, const struct sb_sync_sim *s, int i)
{
	return 1;
}
