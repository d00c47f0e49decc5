/*
 * asrpt_engine.c - A-SRPT as reconstructed here: prediction (step A), the
 * virtual single machine (steps B, C) and the three dispatchers (step D).
 * See asrpt.h for the paper, what is verified and what is ours.
 *
 * Family: cluster (core/cluster/).
 */
#include "asrpt.h"
#include "cluster/util.h"
#include "heap.h"
#include "rf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct sb_param sb_asrpt_params[] = {
	{ "gamma", 0.5, 0, 10, 0, "a job that reaches its prediction gets (1+gamma) x done" },
	{ "kmin", 3, 0, 1000, 1, "completed runs of a family before the forest is asked" },
	{ "retrain", 50, 1, 1e6, 1, "retrain the forest every this many completions" },
	{ "warmup", 100, 1, 1e6, 1, "completions before the first training" },
	{ "window", 5000, 10, 1e7, 1, "train on the most recent completed jobs only" },
	{ "trees", 100, 1, 1000, 1, "trees in the forest" },
	{ "prior", 1, 1, 1e9, 0, "prediction (iterations) before any job has completed" },
	{ "noise", 0, 0, 5, 0, "oracle only: sigma of a log-normal prediction error" },
	{ "qmin", 300, 0, 1e9, 0, "D2: a running job is preempted only after this many s" },
	{ "compact", 1, 0, 1, 1, "D0: only the first job of the ranking may start on more servers "
	  "than it needs on an empty cluster" },
	{ "dispatch", 0, 0, 4, 1, "0: the variant's own; 1: strict virtual-completion list (D1), "
	  "2: D1 with backfilling (D1b), 3: preemptive (D2), 4: virtual-priority list (D0)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

#define NFEAT SB_ASRPT_NFEAT

/* A running median: the lower half in a max-heap (keys negated), the
 * upper half in a min-heap; O(log n) per value, O(1) per query. */
struct sorted {
	struct sb_heap lo, hi;
	int n;
};

/* completed counts of one (model, GPU count) */
struct shape {
	int model, gpus;
	struct sorted v;
};

#define fam sb_asrpt_fam

struct state {
	int dispatch, predict;
	double gamma, prior, noise, qmin;
	int compact;
	int kmin, retrain, warmup, window, trees;
	struct sb_rng rng;
	int n, N;
	/* predictions */
	double *nhat;
	double *x;                /* n x NFEAT: features at arrival */
	int nfam;
	struct fam *fam;
	struct sorted all, *per_model;
	int nmodel;
	struct shape *shape;
	int nshape, cshape;
	struct sb_rf rf;
	int rf_ready, since_train, ncompleted;
	int *completed;           /* jobs in completion order */
	/* virtual machine */
	double vt;                /* work drained up to this time */
	int cur;                  /* job being served, -1 if idle */
	double rcur;
	struct sb_heap wait;      /* (remaining, job | version << 32) */
	double *vrem;
	unsigned *ver;
	unsigned char *in_vm, *queued;
	double *cv;               /* first virtual completion (NAN before) */
	struct sb_clq ready;      /* D1, D1b: jobs by virtual completion */
	double *key;              /* D2 ranking */
	/* lemma check (oracle, strict list, exact predictions) */
	int check;
	double *tau_run;          /* tau of the job's run / tau_ref */
	double *tref;
	int *gpus;
	double *finish;
};

/* ------------------------------------------------------------------ */
/* Step A: predictions                                                 */
/* ------------------------------------------------------------------ */

static void sorted_add(struct sorted *s, double v)
{
	struct sb_heap_item it;
	if (s->n == 0) {
		sb_heap_init(&s->lo);
		sb_heap_init(&s->hi);
	}
	if (sb_heap_size(&s->lo) == 0 || v <= -sb_heap_peek(&s->lo)->key)
		sb_heap_push(&s->lo, -v, 0);
	else
		sb_heap_push(&s->hi, v, 0);
	/* rebalance: |lo| = |hi| or |hi| + 1 */
	if (sb_heap_size(&s->lo) > sb_heap_size(&s->hi) + 1) {
		sb_heap_pop(&s->lo, &it);
		sb_heap_push(&s->hi, -it.key, 0);
	} else if (sb_heap_size(&s->hi) > sb_heap_size(&s->lo)) {
		sb_heap_pop(&s->hi, &it);
		sb_heap_push(&s->lo, -it.key, 0);
	}
	s->n++;
}

static double sorted_median(const struct sorted *s)
{
	if (s->n == 0)
		return NAN;
	if (s->n % 2)
		return -sb_heap_peek(&s->lo)->key;
	return 0.5 * (-sb_heap_peek(&s->lo)->key + sb_heap_peek(&s->hi)->key);
}

static void sorted_release(struct sorted *s)
{
	if (s->n == 0)
		return;
	sb_heap_release(&s->lo);
	sb_heap_release(&s->hi);
}

void sb_asrpt_features(const struct sb_job *job, const struct sb_model *m,
		       const struct sb_asrpt_fam *f, double now, double *x)
{
	x[0] = log(m->params);
	x[1] = m->cls;
	x[2] = log((double)job->batch);
	x[3] = log(job->lr_mult > 0 ? job->lr_mult : 1) + 1;   /* >= 0 for mult >= 1/e */
	x[4] = job->data_frac;
	x[5] = job->gpus;
	x[6] = job->d;
	x[7] = job->t;
	x[8] = job->p;
	x[9] = job->user;
	x[10] = f && f->count ? f->sum_log / f->count : -1;
	x[11] = f && f->count ? f->last_log : -1;
	x[12] = f ? f->count : -1;
	x[13] = f && f->count ? log(1 + now - f->last_time) : -1;
}

/* Features of job j as known now (at its arrival). */
static void features(const struct state *st, struct sb_csim *s, int j, double *x)
{
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	sb_asrpt_features(job, sb_cluster_sim_model(s, j),
			  job->family >= 0 ? &st->fam[job->family] : NULL, sb_cluster_sim_now(s), x);
}

static struct shape *find_shape(struct state *st, int model, int gpus, int create)
{
	int i;
	for (i = 0; i < st->nshape; i++)
		if (st->shape[i].model == model && st->shape[i].gpus == gpus)
			return &st->shape[i];
	if (!create)
		return NULL;
	if (st->nshape == st->cshape) {
		st->cshape = st->cshape ? 2 * st->cshape : 16;
		st->shape = sb_xrealloc(st->shape, sizeof *st->shape * (size_t)st->cshape);
	}
	memset(&st->shape[st->nshape], 0, sizeof st->shape[0]);
	st->shape[st->nshape].model = model;
	st->shape[st->nshape].gpus = gpus;
	return &st->shape[st->nshape++];
}

/* Step A's fallback. The spec names the median iteration count of the
 * same model type, then of all jobs. We take medians of processing time on
 * the reference placement (n_k tau_ref_k, seconds) and convert back with
 * this job's tau_ref, and look at the same model and GPU count first [R]:
 * iteration counts of one model differ by orders of magnitude between
 * configurations (a 1-GPU job iterates far faster than an 8-GPU one),
 * processing times much less. */
static double fallback(struct state *st, const struct sb_job *job, double tau_ref)
{
	struct shape *sh = find_shape(st, job->model, job->gpus, 0);
	double m = sh ? sorted_median(&sh->v) : NAN;
	if (isnan(m))
		m = sorted_median(&st->per_model[job->model]);
	if (isnan(m))
		m = sorted_median(&st->all);
	return isnan(m) ? st->prior : m / tau_ref;
}

static void train(struct state *st);

static double predict(struct state *st, struct sb_csim *s, int j)
{
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	double p;

	if (st->predict == SB_ASRPT_ORACLE) {
		SB_ASSERT(job->iters > 0);
		p = (double)job->iters;
		if (st->noise > 0)
			p *= exp(st->noise * sb_rng_normal(&st->rng, 0, 1));
	} else if (st->predict == SB_ASRPT_RF && st->ncompleted >= st->warmup &&
		   job->family >= 0 && st->fam[job->family].count >= st->kmin) {
		/* trained when first needed, then again after every `retrain`
		 * completions: a workload whose jobs never ask costs nothing */
		if (!st->rf_ready || st->since_train >= st->retrain)
			train(st);
		p = exp(sb_rf_predict(&st->rf, st->x + (size_t)j * NFEAT));
	} else {
		p = fallback(st, job, sb_cluster_sim_tau_ref(s, j));
	}
	return p < 1 ? 1 : p;
}

static void train(struct state *st)
{
	int k0 = st->ncompleted > st->window ? st->ncompleted - st->window : 0;
	int n = st->ncompleted - k0, i;
	double *X = SB_NEW(double, (size_t)n * NFEAT), *y = SB_NEW(double, n);
	struct sb_rf_params par;
	struct sb_err err;

	for (i = 0; i < n; i++) {
		int j = st->completed[k0 + i];
		memcpy(X + (size_t)i * NFEAT, st->x + (size_t)j * NFEAT, sizeof(double) * NFEAT);
		y[i] = log((double)st->nhat[j]);   /* nhat holds the truth once done */
	}
	sb_rf_params_default(&par);
	par.ntrees = st->trees;
	sb_rf_release(&st->rf);
	if (sb_rf_fit(&st->rf, X, y, n, NFEAT, &par, sb_rng_u64(&st->rng), &err) != 0)
		SB_BUG("asrpt: forest training failed: %s", err.msg);
	st->rf_ready = 1;
	st->since_train = 0;
	sb_free(X);
	sb_free(y);
}

/* ------------------------------------------------------------------ */
/* Steps B, C: the virtual machine                                     */
/* ------------------------------------------------------------------ */

static double vwork(struct sb_csim *s, int j, double iters)
{
	return sb_cluster_sim_job(s, j)->gpus * iters * sb_cluster_sim_tau_ref(s, j);
}

static void vm_push(struct state *st, int j, double r)
{
	st->vrem[j] = r;
	st->ver[j]++;
	sb_heap_push(&st->wait, r, (int64_t)j | ((int64_t)st->ver[j] << 32));
}

/* Next waiting job into service (skipping stale heap entries). */
static void vm_next(struct state *st)
{
	struct sb_heap_item it;
	st->cur = -1;
	while (sb_heap_pop(&st->wait, &it)) {
		int j = (int)(it.val & 0xffffffff);
		unsigned v = (unsigned)(it.val >> 32);
		if (!st->in_vm[j] || v != st->ver[j])
			continue;
		st->cur = j;
		st->rcur = st->vrem[j];
		return;
	}
}

static void vm_complete(struct state *st, int j, double t)
{
	st->in_vm[j] = 0;
	if (isnan(st->cv[j])) {
		st->cv[j] = t;
		if ((st->dispatch == SB_ASRPT_D1 || st->dispatch == SB_ASRPT_D1B) && !st->queued[j]) {
			st->queued[j] = 1;
			sb_clq_push(&st->ready, j);
		}
	}
}

/* Drain work at rate N up to time T, completing jobs on the way. */
static void vm_advance(struct state *st, double T)
{
	while (st->cur >= 0) {
		double tfin = st->vt + st->rcur / st->N;
		if (tfin > T) {
			st->rcur -= (T - st->vt) * st->N;
			st->vt = T;
			return;
		}
		st->vt = tfin;
		vm_complete(st, st->cur, tfin);
		vm_next(st);
	}
	st->vt = T;
}

/* Add w of virtual work to job j (new, or more for a job already in). */
static void vm_add(struct state *st, int j, double w)
{
	if (st->in_vm[j]) {
		if (st->cur == j)
			st->rcur += w;
		else
			vm_push(st, j, st->vrem[j] + w);
	} else {
		st->in_vm[j] = 1;
		vm_push(st, j, w);
	}
	if (st->cur == j) {
		/* j grew while served: a waiting job may now be shorter */
		const struct sb_heap_item *top = sb_heap_peek(&st->wait);
		if (top && top->key < st->rcur) {
			vm_push(st, j, st->rcur);
			vm_next(st);
		}
		return;
	}
	if (st->cur < 0) {
		vm_next(st);
	} else if (st->vrem[j] < st->rcur) {
		/* preemptive SRPT: the shorter job takes the machine */
		int c = st->cur;
		vm_push(st, c, st->rcur);
		vm_next(st);
	}
}

/* Remove j (it really finished): its virtual work no longer competes. */
static void vm_remove(struct state *st, int j)
{
	if (!st->in_vm[j])
		return;
	st->in_vm[j] = 0;
	if (st->cur == j)
		vm_next(st);
}

/* ------------------------------------------------------------------ */
/* Hooks                                                               */
/* ------------------------------------------------------------------ */

void *sb_asrpt_init(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng,
		    int dispatch, int predict_mode)
{
	struct state *st = SB_NEW(struct state, 1);
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int n = sb_cluster_sim_njobs(s), j;

	st->dispatch = (int)sb_opts_get(o, "dispatch") ? (int)sb_opts_get(o, "dispatch") : dispatch;
	st->predict = predict_mode;
	st->gamma = sb_opts_get(o, "gamma");
	st->kmin = (int)sb_opts_get(o, "kmin");
	st->retrain = (int)sb_opts_get(o, "retrain");
	st->warmup = (int)sb_opts_get(o, "warmup");
	st->window = (int)sb_opts_get(o, "window");
	st->trees = (int)sb_opts_get(o, "trees");
	st->prior = sb_opts_get(o, "prior");
	st->noise = sb_opts_get(o, "noise");
	st->qmin = sb_opts_get(o, "qmin");
	st->compact = (int)sb_opts_get(o, "compact");
	st->rng = *rng;
	st->n = n;
	st->N = cl->nserver * cl->gpus;
	st->nhat = SB_NEW(double, n);
	st->x = SB_NEW(double, (size_t)n * NFEAT);
	for (j = 0; j < n; j++) {
		const struct sb_job *job = sb_cluster_sim_job(s, j);
		if (job->family + 1 > st->nfam)
			st->nfam = job->family + 1;
		if (job->model + 1 > st->nmodel)
			st->nmodel = job->model + 1;
	}
	st->fam = SB_NEW(struct fam, st->nfam + 1);
	st->per_model = SB_NEW(struct sorted, st->nmodel + 1);
	st->completed = SB_NEW(int, n);
	st->cur = -1;
	sb_heap_init(&st->wait);
	st->vrem = SB_NEW(double, n);
	st->ver = SB_NEW(unsigned, n);
	st->in_vm = SB_NEW(unsigned char, n);
	st->queued = SB_NEW(unsigned char, n);
	st->cv = SB_NEW(double, n);
	for (j = 0; j < n; j++)
		st->cv[j] = NAN;
	sb_clq_init(&st->ready);
	st->key = SB_NEW(double, n);
	st->check = predict_mode == SB_ASRPT_ORACLE && st->noise == 0 && st->dispatch == SB_ASRPT_D1;
	st->tau_run = SB_NEW(double, n);
	st->tref = SB_NEW(double, n);
	st->gpus = SB_NEW(int, n);
	st->finish = SB_NEW(double, n);
	for (j = 0; j < n; j++) {
		st->finish[j] = NAN;
		st->tref[j] = sb_cluster_sim_tau_ref(s, j);
		st->gpus[j] = sb_cluster_sim_job(s, j)->gpus;
	}
	st->vt = sb_cluster_sim_now(s);
	return st;
}

/*
 * Our Lemma 2 (spec asrpt.md §4, a reconstruction, not the paper's
 * theorem): with exact predictions and the strict list, every job obeys
 *     C_j <= (1 + rho beta) C^V_j + rho p*_j,
 * beta = N / (N - g_max + 1), rho = max over jobs of tau_actual / tau_ref,
 * p*_j = n_j tau_ref_j. Checked at the end of every such run; a violation
 * is a bug of this file or of the simulator, and stops the run.
 */
static void check_lemma(const struct state *st)
{
	double rho = 1, beta;
	int j, gmax = 1;
	for (j = 0; j < st->n; j++) {
		if (isnan(st->finish[j]))
			return;   /* the run did not complete: nothing to check */
		rho = sb_max(rho, st->tau_run[j]);
		gmax = st->gpus[j] > gmax ? st->gpus[j] : gmax;
	}
	beta = (double)st->N / (st->N - gmax + 1);
	for (j = 0; j < st->n; j++) {
		double bound = (1 + rho * beta) * st->cv[j] + rho * st->nhat[j] * st->tref[j];
		if (!(st->finish[j] <= bound * (1 + 1e-9) + 1e-9))
			SB_BUG("asrpt: lemma 2 fails for job %d: C = %.17g > (1 + %g x %g) x "
			       "C^V %.17g + %g x p* %.17g", j, st->finish[j], rho, beta, st->cv[j],
			       rho, st->nhat[j] * st->tref[j]);
	}
}

void sb_asrpt_release(void *ctx)
{
	struct state *st = ctx;
	int i;
	if (st->check)
		check_lemma(st);
	sb_free(st->nhat);
	sb_free(st->x);
	sb_free(st->fam);
	for (i = 0; i <= st->nmodel; i++)
		sorted_release(&st->per_model[i]);
	sb_free(st->per_model);
	for (i = 0; i < st->nshape; i++)
		sorted_release(&st->shape[i].v);
	sb_free(st->shape);
	sorted_release(&st->all);
	sb_rf_release(&st->rf);
	sb_free(st->completed);
	sb_heap_release(&st->wait);
	sb_free(st->vrem);
	sb_free(st->ver);
	sb_free(st->in_vm);
	sb_free(st->queued);
	sb_free(st->cv);
	sb_clq_release(&st->ready);
	sb_free(st->key);
	sb_free(st->tau_run);
	sb_free(st->tref);
	sb_free(st->gpus);
	sb_free(st->finish);
	sb_free(st);
}

void sb_asrpt_on_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	features(st, s, j, st->x + (size_t)j * NFEAT);
	st->nhat[j] = predict(st, s, j);
	vm_advance(st, sb_cluster_sim_now(s));
	vm_add(st, j, vwork(s, j, st->nhat[j]));
}

void sb_asrpt_on_finish(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	double n = (double)sb_cluster_sim_done(s, j), ln = log(n);

	vm_advance(st, sb_cluster_sim_now(s));
	vm_remove(st, j);
	st->finish[j] = sb_cluster_sim_now(s);
	/* the true count is known now: history and training data */
	st->nhat[j] = n;
	if (job->family >= 0) {
		struct fam *f = &st->fam[job->family];
		f->count++;
		f->sum_log += ln;
		f->last_log = ln;
		f->last_time = sb_cluster_sim_now(s);
	}
	sorted_add(&find_shape(st, job->model, job->gpus, 1)->v, n * st->tref[j]);
	sorted_add(&st->per_model[job->model], n * st->tref[j]);
	sorted_add(&st->all, n * st->tref[j]);
	st->completed[st->ncompleted++] = j;
	st->since_train++;
}

/* Step A's adaptive correction for running jobs; returns the earliest
 * time a running job reaches its (corrected) prediction. */
static double adapt(struct state *st, struct sb_csim *s)
{
	int n, i;
	const int *run = sb_cluster_sim_running(s, &n);
	double now = sb_cluster_sim_now(s), next = INFINITY;
	for (i = 0; i < n; i++) {
		int j = run[i];
		double done;
		if (st->tau_run[j] == 0)
			st->tau_run[j] = sb_cluster_sim_tau(s, j) / sb_cluster_sim_tau_ref(s, j);
		done = (double)sb_cluster_sim_done(s, j);
		if (done >= st->nhat[j]) {
			double nh = sb_max(st->nhat[j], ceil((1 + st->gamma) * done));
			if (nh <= done)
				nh = done + 1;
			vm_add(st, j, vwork(s, j, nh - st->nhat[j]));
			st->nhat[j] = nh;
		}
		next = sb_min(next, now + (st->nhat[j] - done) * sb_cluster_sim_tau(s, j));
	}
	return next;
}

/*
 * D0: every arrived job is eligible at once, ranked by where the virtual
 * SRPT machine puts it - jobs it has completed first (by their virtual
 * completion), then the others by virtual remaining work (the order in
 * which it would complete them if nothing else arrived) - and the list is
 * dispatched with first-fit backfilling, non-preemptively. The virtual
 * machine thus orders the real cluster without holding a job back while
 * GPUs that could run it are idle; its completions age large jobs to the
 * front, so small ones do not overtake them forever.
 *
 * With compact = 1 (the default) only the first job of the ranking may
 * start on more servers than it needs on an empty cluster; the others
 * wait for room on as few servers. Minimising inter-server communication
 * is the abstract's placement goal [V], and the free GPUs of a busy
 * cluster are scattered: a job started on them runs up to several times
 * slower (a tensor-parallel ring across servers shares one NIC), which
 * raises the load the cluster really carries above the offered load and
 * can tip it into overload (issue #11; experiment cluster_mech). The first
 * job keeps the old rule so that it is never starved by the check.
 */
static const struct state *rank_st;

static int cmp_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

static int cmp_virtual(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	const struct state *st = rank_st;
	int dx = !isnan(st->cv[x]), dy = !isnan(st->cv[y]);
	double kx, ky;
	if (dx != dy)
		return dx ? -1 : 1;
	kx = dx ? st->cv[x] : st->key[x];
	ky = dy ? st->cv[y] : st->key[y];
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return (x > y) - (x < y);
}

/* Does a job of g GPUs fit on as few servers as on an empty cluster?
 * fr: scratch of S ints. */
static int fits_compact(struct sb_csim *s, int g, int *fr)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int need = (g + cl->gpus - 1) / cl->gpus, k, sum = 0;
	memcpy(fr, sb_cluster_sim_free_per_server(s), sizeof(int) * (size_t)cl->nserver);
	qsort(fr, (size_t)cl->nserver, sizeof(int), cmp_desc);
	for (k = 0; k < need; k++)
		sum += fr[k];
	return sum >= g;
}

static void dispatch_virtual(struct state *st, struct sb_csim *s)
{
	int n, i;
	const int *act = sb_cluster_sim_active(s, &n);
	int *fr = SB_NEW(int, sb_cluster_sim_cluster(s)->nserver);

	/* the list is scratch, rebuilt from the arrived jobs at every call */
	st->ready.n = 0;
	for (i = 0; i < n; i++) {
		int j = act[i];
		if (sb_cluster_sim_state(s, j) != SB_JOB_PENDING)
			continue;
		st->key[j] = st->cur == j ? st->rcur : st->vrem[j];
		sb_clq_push(&st->ready, j);
	}
	rank_st = st;
	qsort(st->ready.job, (size_t)st->ready.n, sizeof(int), cmp_virtual);
	for (i = 0; i < st->ready.n && sb_cluster_sim_free(s) > 0; i++) {
		int j = st->ready.job[i];
		if (st->gpus[j] > sb_cluster_sim_free(s))
			continue;
		if (st->compact && i > 0 && !fits_compact(s, st->gpus[j], fr))
			continue;
		sb_cluster_sim_start(s, j);
	}
	sb_free(fr);
}

void sb_asrpt_schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	double now = sb_cluster_sim_now(s), wake;

	vm_advance(st, now);
	adapt(st, s);
	if (st->dispatch == SB_ASRPT_D2) {
		int n, i;
		const int *act = sb_cluster_sim_active(s, &n);
		for (i = 0; i < n; i++) {
			int j = act[i];
			if (st->in_vm[j])
				st->key[j] = st->cur == j ? st->rcur : st->vrem[j];
			else
				st->key[j] = vwork(s, j, sb_max(0, st->nhat[j] -
							   (double)sb_cluster_sim_done(s, j)));
		}
		sb_cluster_dispatch_priority(s, st->key, st->qmin);
	} else if (st->dispatch == SB_ASRPT_D0) {
		dispatch_virtual(st, s);
	} else {
		sb_cluster_dispatch_list(s, &st->ready, st->dispatch == SB_ASRPT_D1);
	}
	/* the runs started now get their slowdown recorded, and the next
	 * instant a running job reaches its prediction is a wake-up (exact
	 * predictions are never reached early: no wake-up needed) */
	wake = adapt(st, s);
	if (st->predict == SB_ASRPT_ORACLE && st->noise == 0)
		wake = INFINITY;
	/* D0 starts jobs only when GPUs free up or jobs arrive, both events
	 * already: a virtual completion in between changes the ranking, not
	 * what can start, and neither does a corrected prediction of a
	 * running job */
	if (st->dispatch == SB_ASRPT_D0)
		wake = INFINITY;
	else if (st->cur >= 0)
		wake = sb_min(wake, st->vt + st->rcur / st->N);
	if (wake > now && isfinite(wake))
		sb_cluster_sim_wake(s, wake);
}
