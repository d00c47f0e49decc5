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
	{ "reference", 0, 0, 1, 1, "1: the plain reference dispatch (D0, D2 rank every arrived job "
	  "at every call); the default fast path gives the same schedule (a test checks)" },
	{ "dispatch", 0, 0, 4, 1, "0: the variant's own; 1: strict virtual-completion list (D1), "
	  "2: D1 with backfilling (D1b), 3: preemptive (D2), 4: virtual-priority list (D0)" },
	{ NULL, 0, 0, 0, 0, NULL },
};

#define NFEAT SB_ASRPT_NFEAT

/* An entry of D0's ranking: virtually completed jobs (cls 0) by virtual
 * completion, then the others (cls 1) by virtual remaining work, ties to
 * the lower id - cmp_virtual's order. */
struct ritem {
	double key;
	int cls, job;
	unsigned ver;
};

struct rheap {
	struct ritem *a;
	int n, cap;
};

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
	int dispatch, predict, forest;
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
	int renew;                /* speed variant: the next tree to regrow */
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
	/* D0's fast path: the pending jobs by GPU count, each count a heap in
	 * D0's ranking order (see dispatch_virtual) */
	int reference;
	int nbk;
	struct rheap *bk;         /* one per distinct GPU count */
	int *bk_of;               /* job -> its heap */
	unsigned char *pend;      /* arrived, not started (D0 fast path) */
	unsigned *pver;           /* heap entries of j older than this are stale */
	long *done_p;             /* D2: iterations done by pending job j */
	int *rord, nrord;         /* D2: running jobs in key order as of the
				   * last sort (nearly right for the next) */
	unsigned char *inrord;    /* j is in rord */
	long *done_c;             /* iterations done by j as of done_t[j] */
	double *done_t;
	int *hist;                /* servers by free GPUs (0..G), scratch */
	/* D2's fast path: the running jobs by a lower bound on the instant
	 * each reaches its prediction (val = job | version << 32; an entry
	 * is live while its version is the job's), see watch_reach() */
	int fastpre;
	struct sb_heap reach;
	unsigned *rver;
	int *fixed, nfixed;       /* jobs adapt() corrected in this call */
	int *started, nstarted;   /* jobs dispatch_pre_fast started */
	int *due;                 /* scratch */
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

static void train(struct state *st, struct sb_csim *s);

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
			train(st, s);
		p = exp(sb_rf_predict(&st->rf, st->x + (size_t)j * NFEAT));
	} else {
		p = fallback(st, job, sb_cluster_sim_tau_ref(s, j));
	}
	return p < 1 ? 1 : p;
}

/* The speed variant [O] (measured in README, "Speed of the cluster
 * schedulers", and by cl_pred's "random-forest-hist" rows): 128 quantile
 * bins per feature; after the first training, each retraining regrows
 * the oldest tenth of the trees on the current window (the others keep
 * the windows of up to 9 retrainings before: a tree is at most
 * 10 x retrain completions old). */
#define HIST_BINS 128
#define HIST_RENEW 10   /* a retraining regrows trees / HIST_RENEW trees */

void sb_asrpt_forest_params(struct sb_rf_params *par, int forest, int trees)
{
	sb_rf_params_default(par);
	par->ntrees = trees;
	par->oob = 0;   /* the policy reads predictions only */
	if (forest == SB_ASRPT_HIST) {
		par->bins = HIST_BINS;
	}
}

/* (Re)train the forest on the window of the latest completions; its work
 * (cluster_speed) counts tree-rows: the window's rows times the trees
 * grown, each of which draws that many rows. */
static void train(struct state *st, struct sb_csim *s)
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
	sb_asrpt_forest_params(&par, st->forest, st->trees);
	if (st->forest == SB_ASRPT_HIST && st->rf_ready) {
		int count = st->trees / HIST_RENEW > 1 ? st->trees / HIST_RENEW : 1;
		if (sb_rf_refit(&st->rf, X, y, n, NFEAT, st->renew, count, sb_rng_u64(&st->rng),
				&err) != 0)
			SB_BUG("asrpt: forest renewal failed: %s", err.msg);
		st->renew = (st->renew + count) % st->trees;
		sb_cluster_sim_work(s, "tree-rows", (long)count * n);
	} else {
		sb_rf_release(&st->rf);
		if (sb_rf_fit(&st->rf, X, y, n, NFEAT, &par, sb_rng_u64(&st->rng), &err) != 0)
			SB_BUG("asrpt: forest training failed: %s", err.msg);
		sb_cluster_sim_work(s, "tree-rows", (long)st->trees * n);
	}
	st->rf_ready = 1;
	st->since_train = 0;
	sb_free(X);
	sb_free(y);
}

/* ------------------------------------------------------------------ */
/* D0's ranking, kept incrementally (the fast path of dispatch_virtual) */
/* ------------------------------------------------------------------ */

static int rless(const struct ritem *a, const struct ritem *b)
{
	if (a->cls != b->cls)
		return a->cls < b->cls;
	if (a->key != b->key)
		return a->key < b->key;
	return a->job < b->job;
}

static void rheap_push(struct rheap *h, struct ritem it)
{
	int i;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->a = sb_xrealloc(h->a, sizeof *h->a * (size_t)h->cap);
	}
	for (i = h->n++; i > 0 && rless(&it, &h->a[(i - 1) / 2]); i = (i - 1) / 2)
		h->a[i] = h->a[(i - 1) / 2];
	h->a[i] = it;
}

static void rheap_pop(struct rheap *h)
{
	struct ritem last = h->a[--h->n];
	int i = 0, c;
	while ((c = 2 * i + 1) < h->n) {
		if (c + 1 < h->n && rless(&h->a[c + 1], &h->a[c]))
			c++;
		if (!rless(&h->a[c], &last))
			break;
		h->a[i] = h->a[c];
		i = c;
	}
	if (h->n)
		h->a[i] = last;
}

/* Virtual work of `iters` iterations of job j (step B). */
static double vwork(const struct state *st, int j, double iters)
{
	return st->gpus[j] * iters * st->tref[j];
}

/* (Re-)enter pending job j at its current place in the ranking of the
 * fast path (D0: cmp_virtual's order; D2: the key of sb_asrpt_schedule);
 * its older entries become stale. */
static void pend_push(struct state *st, int j)
{
	struct ritem it;
	double vr = st->cur == j ? st->rcur : st->vrem[j];
	if (st->reference || !st->pend[j])
		return;
	if (st->dispatch == SB_ASRPT_D0) {
		it.cls = isnan(st->cv[j]) ? 1 : 0;
		it.key = it.cls ? vr : st->cv[j];
	} else if (st->dispatch == SB_ASRPT_D2) {
		it.cls = 0;
		it.key = st->in_vm[j] ? vr
				      : vwork(st, j, sb_max(0, st->nhat[j] - (double)st->done_p[j]));
	} else {
		return;
	}
	it.job = j;
	it.ver = ++st->pver[j];
	rheap_push(&st->bk[st->bk_of[j]], it);
}

/* Is the job being served by the virtual machine pending in heap b,
 * ranked by its remaining work? Its key changes while it is served, so
 * pend_head() ranks it at its current value, not by its heap entry (a
 * new entry is pushed when it stops being served, pend_push()). */
static int cur_pending(const struct state *st, int b)
{
	int c = st->cur;
	return c >= 0 && st->pend[c] && st->bk_of[c] == b &&
	       (st->dispatch == SB_ASRPT_D2 || isnan(st->cv[c]));
}

/* The first pending job of heap b in the ranking (stale entries dropped);
 * 0 if none. */
static int pend_head(struct state *st, int b, struct ritem *out)
{
	struct rheap *h = &st->bk[b];
	int have, cp = cur_pending(st, b);
	while (h->n && (!st->pend[h->a[0].job] || h->a[0].ver != st->pver[h->a[0].job] ||
			(cp && h->a[0].job == st->cur)))
		rheap_pop(h);
	have = h->n > 0;
	if (have)
		*out = h->a[0];
	if (cp) {
		struct ritem it = { st->rcur, st->dispatch == SB_ASRPT_D2 ? 0 : 1, st->cur,
				    st->pver[st->cur] };
		if (!have || rless(&it, out))
			*out = it;
		have = 1;
	}
	return have;
}

/* ------------------------------------------------------------------ */
/* Steps B, C: the virtual machine                                     */
/* ------------------------------------------------------------------ */



static void vm_push(struct state *st, int j, double r)
{
	st->vrem[j] = r;
	st->ver[j]++;
	sb_heap_push(&st->wait, r, (int64_t)j | ((int64_t)st->ver[j] << 32));
	pend_push(st, j);
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
	/* a pending job's key changes (D0: to its first virtual completion;
	 * D2: to its predicted remaining work, also on a later completion
	 * after a corrected prediction put it back) */
	pend_push(st, j);
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
	return sb_asrpt_init_forest(s, o, rng, dispatch, predict_mode, SB_ASRPT_EXACT);
}

void *sb_asrpt_init_forest(struct sb_csim *s, const struct sb_opts *o, struct sb_rng *rng,
			   int dispatch, int predict_mode, int forest)
{
	struct state *st = SB_NEW(struct state, 1);
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int n = sb_cluster_sim_njobs(s), j;

	st->dispatch = (int)sb_opts_get(o, "dispatch") ? (int)sb_opts_get(o, "dispatch") : dispatch;
	st->predict = predict_mode;
	st->forest = forest;
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
	st->reference = (int)sb_opts_get(o, "reference");
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
	st->bk_of = SB_NEW(int, n);
	st->pend = SB_NEW(unsigned char, n);
	st->pver = SB_NEW(unsigned, n);
	st->done_p = SB_NEW(long, n);
	st->rord = SB_NEW(int, n > 0 ? n : 1);
	st->inrord = SB_NEW(unsigned char, n > 0 ? n : 1);
	st->done_c = SB_NEW(long, n > 0 ? n : 1);
	st->done_t = SB_NEW(double, n > 0 ? n : 1);
	for (j = 0; j < n; j++)
		st->done_t[j] = NAN;
	st->hist = SB_NEW(int, cl->gpus + 1);
	st->fastpre = st->dispatch == SB_ASRPT_D2 && !st->reference;
	sb_heap_init(&st->reach);
	st->rver = SB_NEW(unsigned, n > 0 ? n : 1);
	st->fixed = SB_NEW(int, n > 0 ? n : 1);
	st->started = SB_NEW(int, n > 0 ? n : 1);
	st->due = SB_NEW(int, n > 0 ? n : 1);
	/* one heap per distinct GPU count (a job never needs more than N) */
	{
		int *of = SB_NEW(int, st->N + 1);
		for (j = 0; j <= st->N; j++)
			of[j] = -1;
		for (j = 0; j < n; j++) {
			SB_ASSERT(st->gpus[j] >= 1 && st->gpus[j] <= st->N);
			if (st->dispatch == SB_ASRPT_D2)
				continue;   /* one heap: D2 ranks all sizes together */
			if (of[st->gpus[j]] < 0)
				of[st->gpus[j]] = st->nbk++;
			st->bk_of[j] = of[st->gpus[j]];
		}
		sb_free(of);
		if (st->dispatch == SB_ASRPT_D2)
			st->nbk = 1;
	}
	st->bk = SB_NEW(struct rheap, st->nbk > 0 ? st->nbk : 1);
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
	for (i = 0; i < st->nbk; i++)
		sb_free(st->bk[i].a);
	sb_free(st->bk);
	sb_free(st->bk_of);
	sb_free(st->pend);
	sb_free(st->pver);
	sb_free(st->done_p);
	sb_free(st->rord);
	sb_free(st->inrord);
	sb_free(st->done_c);
	sb_free(st->done_t);
	sb_free(st->hist);
	sb_heap_release(&st->reach);
	sb_free(st->rver);
	sb_free(st->fixed);
	sb_free(st->started);
	sb_free(st->due);
	sb_free(st);
}

void sb_asrpt_on_arrival(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	features(st, s, j, st->x + (size_t)j * NFEAT);
	st->nhat[j] = predict(st, s, j);
	vm_advance(st, sb_cluster_sim_now(s));
	st->pend[j] = 1;   /* before vm_add, which enters it in D0's ranking */
	vm_add(st, j, vwork(st, j, st->nhat[j]));
}

void sb_asrpt_on_finish(void *ctx, struct sb_csim *s, int j)
{
	struct state *st = ctx;
	const struct sb_job *job = sb_cluster_sim_job(s, j);
	double n = (double)sb_cluster_sim_done(s, j), ln = log(n);

	vm_advance(st, sb_cluster_sim_now(s));
	vm_remove(st, j);
	st->rver[j]++;
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

/* sb_cluster_sim_done(s, j) now. Within one decision it is the same
 * whatever the decision does to j (a run preempted now has banked its
 * iterations, one started now has made none), so it is asked once per
 * job and decision. */
static long done_now(struct state *st, struct sb_csim *s, int j)
{
	double now = sb_cluster_sim_now(s);
	if (st->done_t[j] != now) {
		st->done_c[j] = sb_cluster_sim_done(s, j);
		st->done_t[j] = now;
	}
	return st->done_c[j];
}

/* Step A's adaptive correction for running jobs; returns the earliest
 * time a running job reaches its (corrected) prediction if want_next,
 * else +inf. */
static double adapt(struct state *st, struct sb_csim *s, int want_next)
{
	int n, i;
	const int *run = sb_cluster_sim_running(s, &n);
	double now = sb_cluster_sim_now(s), next = INFINITY;
	for (i = 0; i < n; i++) {
		int j = run[i];
		double done;
		if (st->tau_run[j] == 0)
			st->tau_run[j] = sb_cluster_sim_tau(s, j) / sb_cluster_sim_tau_ref(s, j);
		done = (double)done_now(st, s, j);
		if (done >= st->nhat[j]) {
			double nh = sb_max(st->nhat[j], ceil((1 + st->gamma) * done));
			if (nh <= done)
				nh = done + 1;
			vm_add(st, j, vwork(st, j, nh - st->nhat[j]));
			st->nhat[j] = nh;
			if (st->fastpre)
				st->fixed[st->nfixed++] = j;
		}
		if (want_next)
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

/* fits_compact from a histogram of free GPUs per server (built on first
 * use in a dispatch, *ok = 0 after every start): the `need` fullest
 * servers are the top of the histogram. */
static int fits_hist(struct state *st, struct sb_csim *s, int g, int *ok)
{
	const struct sb_cluster *cl = sb_cluster_sim_cluster(s);
	int G = cl->gpus, rem = (g + G - 1) / G, c, sum = 0, i;
	if (!*ok) {
		const int *fr = sb_cluster_sim_free_per_server(s);
		memset(st->hist, 0, sizeof(int) * (size_t)(G + 1));
		for (i = 0; i < cl->nserver; i++)
			st->hist[fr[i]]++;
		*ok = 1;
	}
	for (c = G; c > 0 && rem > 0; c--) {
		int take = st->hist[c] < rem ? st->hist[c] : rem;
		sum += take * c;
		rem -= take;
	}
	return sum >= g;
}

/*
 * D0 as dispatch_virtual below, without ranking every arrived job at every
 * call: the pending jobs of each GPU count wait in a heap in ranking order,
 * and the ranking is walked by merging the heads of the heaps. Free GPUs
 * only shrink during a call, so once the head of one GPU count cannot start
 * (too few GPUs, or no compact room) no job of that count can: the heap is
 * closed for the rest of the call. The cost is the jobs started plus the
 * number of GPU counts, not the length of the queue.
 */
static void dispatch_virtual_fast(struct state *st, struct sb_csim *s)
{
	unsigned char *open = SB_NEW(unsigned char, st->nbk > 0 ? st->nbk : 1);
	int *skip = NULL, nskip = 0, first = 1, hist_ok = 0, b, i;

	memset(open, 1, (size_t)st->nbk);
	while (sb_cluster_sim_free(s) > 0) {
		struct ritem best = { 0, 0, -1, 0 }, it;
		int bb = -1, j;
		for (b = 0; b < st->nbk; b++)
			if (open[b] && pend_head(st, b, &it) && (bb < 0 || rless(&it, &best))) {
				best = it;
				bb = b;
			}
		if (bb < 0)
			break;
		j = best.job;
		if (st->gpus[j] > sb_cluster_sim_free(s) ||
		    (st->compact && !first && !fits_hist(st, s, st->gpus[j], &hist_ok))) {
			open[bb] = 0;
		} else if (sb_cluster_sim_start(s, j) == 0) {
			st->pend[j] = 0;
			hist_ok = 0;
		} else {
			/* the placer found no room for j: the next job is tried,
			 * and j keeps its place for the next call */
			skip = sb_xrealloc(skip, sizeof *skip * (size_t)(nskip + 1));
			skip[nskip++] = j;
			st->pend[j] = 0;
		}
		first = 0;
	}
	for (i = 0; i < nskip; i++) {
		st->pend[skip[i]] = 1;
		pend_push(st, skip[i]);
	}
	sb_free(skip);
	sb_free(open);
}

/* D2's order of running jobs: smaller key first, ties to the lower id
 * (rless on entries of one class). */
static int run_before(const struct state *st, int x, int y)
{
	if (st->key[x] != st->key[y])
		return st->key[x] < st->key[y];
	return x < y;
}

static int cmp_run(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	if (x == y)
		return 0;
	return run_before(rank_st, x, y) ? -1 : 1;
}

/*
 * The running jobs run[0..nr) sorted by run_before into st->rord. The
 * order of the last sort is the start: the jobs that stopped leave it,
 * those started since join its end, and an insertion sort restores the
 * order, which moves little between decisions (keys shrink as jobs run,
 * and jump only at a virtual completion or a corrected prediction). Past
 * a budget of moves a full sort takes over. The order is a strict total
 * one, so the result is the sort's whatever the start.
 */
/* D2's key of job j (arrived, unfinished) now. */
static double pre_key(struct state *st, struct sb_csim *s, int j)
{
	if (st->in_vm[j])
		return st->cur == j ? st->rcur : st->vrem[j];
	return vwork(st, j, sb_max(0, st->nhat[j] - (double)done_now(st, s, j)));
}

static void sort_running(struct state *st, struct sb_csim *s, const int *run, int nr)
{
	int i, k, w = 0;
	long moves = 0, budget = 8L * nr + 64;

	/* the running jobs' keys, needed only here (and after, in the same
	 * call): the walk asks for them only when the admitted jobs might
	 * not all fit */
	for (i = 0; i < nr; i++)
		st->key[run[i]] = pre_key(st, s, run[i]);

	for (i = 0; i < st->nrord; i++) {
		int j = st->rord[i];
		if (sb_cluster_sim_state(s, j) == SB_JOB_RUNNING)
			st->rord[w++] = j;
		else
			st->inrord[j] = 0;
	}
	for (i = 0; i < nr; i++)
		if (!st->inrord[run[i]]) {
			st->inrord[run[i]] = 1;
			st->rord[w++] = run[i];
		}
	SB_ASSERT(w == nr);
	st->nrord = nr;
	for (i = 1; i < nr; i++) {
		int j = st->rord[i];
		for (k = i; k > 0 && run_before(st, j, st->rord[k - 1]); k--)
			st->rord[k] = st->rord[k - 1];
		st->rord[k] = j;
		moves += i - k;
		if (moves > budget) {
			rank_st = st;
			qsort(st->rord, (size_t)nr, sizeof *st->rord, cmp_run);
			break;
		}
	}
}

/*
 * D2 as sb_cluster_dispatch_priority with the keys of sb_asrpt_schedule,
 * without sorting every arrived job at every call. The ranking is the
 * running jobs (keys recomputed: their work shrinks as they run) merged
 * with the pending ones, whose keys do not change while they wait and
 * which wait in a heap. The admitted prefix is found by walking the
 * pending jobs in order; the running jobs are sorted only in a call where
 * the admitted jobs might not all fit, and once, from the order of the
 * last sort (sort_running). Actions come in the
 * reference's order: preemptions in rank order, then starts in rank order.
 */
static void dispatch_pre_fast(struct state *st, struct sb_csim *s)
{
	int nr, i, k, N = st->N, rg = 0, P = 0, nadm = 0, sorted = 0, ptr = 0, arun = 0;
	int have_cut = 0;
	const int *run = sb_cluster_sim_running(s, &nr);
	const int *so = st->rord;   /* the running jobs in rank order, once sorted */
	struct ritem it, cut = { 0, 0, -1, 0 };
	int *adm = NULL;

	for (i = 0; i < nr; i++)
		rg += st->gpus[run[i]];
	for (;;) {
		int have = pend_head(st, 0, &it), A = rg;
		if (have && rg + P + st->gpus[it.job] > N) {
			/* the running GPUs ranked before it */
			if (!sorted) {
				sort_running(st, s, run, nr);
				sorted = 1;
			}
			for (; ptr < nr; ptr++) {
				struct ritem u = { st->key[so[ptr]], 0, so[ptr], 0 };
				if (!rless(&u, &it))
					break;
				arun += st->gpus[so[ptr]];
			}
			A = arun;
		}
		if (A + P > N) {
			/* the cut is a running job ranked after the last admitted
			 * pending one and before it (a scan sorted them) */
			int sum = 0, lim = have ? ptr : nr;
			SB_ASSERT(sorted || !have);
			if (!sorted) {
				sort_running(st, s, run, nr);
				sorted = 1;
			}
			for (i = 0; i < lim; i++) {
				sum += st->gpus[so[i]];
				if (sum + P > N)
					break;
			}
			SB_ASSERT(i < lim);
			cut.key = st->key[so[i]];
			cut.job = so[i];
			have_cut = 1;
			break;
		}
		if (!have)
			break;   /* everything admitted */
		if (A + P + st->gpus[it.job] > N) {
			cut = it;
			have_cut = 1;
			break;
		}
		/* admitted: out of the heap's view until the walk is over */
		P += st->gpus[it.job];
		adm = sb_xrealloc(adm, sizeof *adm * (size_t)(nadm + 1));
		adm[nadm++] = it.job;
		st->pend[it.job] = 0;
	}
	if (have_cut) {
		/* running jobs from the cut on, preempted in rank order (a cut
		 * needs a scan: they are sorted; so is a copy, which the
		 * preemptions leave as it is) */
		SB_ASSERT(sorted);
		for (k = 0; k < nr; k++) {
			int j = so[k];
			struct ritem u = { st->key[j], 0, j, 0 };
			if (rless(&u, &cut) || sb_cluster_sim_since(s, j) < st->qmin)
				continue;
			sb_cluster_sim_preempt(s, j);
			st->rver[j]++;
			st->pend[j] = 1;
			st->done_p[j] = sb_cluster_sim_done(s, j);
			pend_push(st, j);
		}
	}
	st->nstarted = 0;
	for (k = 0; k < nadm; k++) {
		int j = adm[k];
		if (sb_cluster_sim_start(s, j) != 0) {
			st->pend[j] = 1;   /* no room: it keeps its place */
			pend_push(st, j);
		} else {
			st->started[st->nstarted++] = j;
		}
	}
	sb_free(adm);
}

/* The plain reference of D0 (and the reading of record): rank every
 * arrived job at every call. */
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

/*
 * D2's fast decision. adapt() looks at every running job twice per
 * decision, to correct those that reached their prediction and to find
 * the earliest instant one will; both ask only for the jobs near that
 * instant. Each running job waits in st->reach keyed by a lower bound on
 * the instant it reaches its prediction: from a look at time t1 with d
 * iterations done, done grows by at most one per iteration time tau plus
 * one, so now + (nhat - done(now)) tau >= t1 + (nhat - d - 1) tau for
 * every later now of the same run (less a rounding margin, 1e-8
 * relative). A correction is due only for jobs whose bound is <= now;
 * when one is, the plain adapt() runs (the corrections in its order);
 * the earliest reach is computed exactly over the jobs whose bound lies
 * below the best exact value found. Same decisions and wake-ups as the
 * plain path (tests/cluster/test_asrpt_fast.c).
 */
static double reach_margin(double t, double now)
{
	return 1e-8 * (1 + fabs(t) + fabs(now));
}

/* Enter running job j with a new bound from d = done(now) (its older
 * entry goes stale). */
static void watch_reach(struct state *st, struct sb_csim *s, int j, double now)
{
	double d = (double)done_now(st, s, j), tau = sb_cluster_sim_tau(s, j);
	double t = now + (st->nhat[j] - d - 1) * tau;
	st->rver[j]++;
	sb_heap_push(&st->reach, t - reach_margin(t, now),
		     (int64_t)j | ((int64_t)st->rver[j] << 32));
}

static int reach_live(const struct state *st, const struct sb_heap_item *it)
{
	return (unsigned)(it->val >> 32) == st->rver[(int)(it->val & 0xffffffff)];
}

/* Does a running job need a correction now? (Looks at the jobs whose
 * bound is due and gives them fresh bounds.) */
static int reach_due(struct state *st, struct sb_csim *s, double now)
{
	const struct sb_heap_item *top;
	struct sb_heap_item it;
	int nd = 0, i, any = 0;

	while ((top = sb_heap_peek(&st->reach)) && top->key <= now) {
		sb_heap_pop(&st->reach, &it);
		if (reach_live(st, &it))
			st->due[nd++] = (int)(it.val & 0xffffffff);
	}
	for (i = 0; i < nd; i++) {
		int j = st->due[i];
		any |= (double)done_now(st, s, j) >= st->nhat[j];
		watch_reach(st, s, j, now);
	}
	return any;
}

/* next_reach's walk: the job's reach instant if its entry is live */
struct reach_walk {
	struct state *st;
	struct sb_csim *s;
	double now;
};

static double reach_visit(void *ctx, const struct sb_heap_item *it, double best)
{
	struct reach_walk *w = ctx;
	int j;

	if (!reach_live(w->st, it))
		return best;
	j = (int)(it->val & 0xffffffff);
	return sb_min(best, w->now + (w->st->nhat[j] - (double)done_now(w->st, w->s, j)) *
		      sb_cluster_sim_tau(w->s, j));
}

/* min over running jobs of now + (nhat - done) tau, as adapt() computes
 * it, when no job needs a correction: the heap's keys are lower bounds,
 * so only entries keyed at most the best found so far can improve it. */
static double next_reach(struct state *st, struct sb_csim *s, double now)
{
	struct reach_walk w = { st, s, now };

	while (sb_heap_peek(&st->reach) && !reach_live(st, sb_heap_peek(&st->reach))) {
		struct sb_heap_item it;
		sb_heap_pop(&st->reach, &it);
	}
	return sb_heap_walk_le(&st->reach, INFINITY, reach_visit, &w);
}

static void schedule_pre_fast(struct state *st, struct sb_csim *s)
{
	double now = sb_cluster_sim_now(s), wake = INFINITY;
	int i, fix = 0;

	vm_advance(st, now);
	st->nfixed = 0;
	if (reach_due(st, s, now))
		adapt(st, s, 0);
	for (i = 0; i < st->nfixed; i++)
		watch_reach(st, s, st->fixed[i], now);
	dispatch_pre_fast(st, s);
	/* the runs started now: their slowdown, a correction if one is
	 * already due (then the plain adapt() as the reference does) */
	for (i = 0; i < st->nstarted; i++) {
		int j = st->started[i];
		if (st->tau_run[j] == 0)
			st->tau_run[j] = sb_cluster_sim_tau(s, j) / sb_cluster_sim_tau_ref(s, j);
		fix |= (double)done_now(st, s, j) >= st->nhat[j];
	}
	st->nfixed = 0;
	if (fix) {
		wake = adapt(st, s, 1);
		for (i = 0; i < st->nfixed; i++)
			watch_reach(st, s, st->fixed[i], now);
	}
	for (i = 0; i < st->nstarted; i++)
		watch_reach(st, s, st->started[i], now);
	if (!fix)
		wake = next_reach(st, s, now);
	if (st->predict == SB_ASRPT_ORACLE && st->noise == 0)
		wake = INFINITY;
	if (st->cur >= 0)
		wake = sb_min(wake, st->vt + st->rcur / st->N);
	if (wake > now && isfinite(wake))
		sb_cluster_sim_wake(s, wake);
}

void sb_asrpt_schedule(void *ctx, struct sb_csim *s)
{
	struct state *st = ctx;
	double now = sb_cluster_sim_now(s), wake;

	if (st->fastpre) {
		schedule_pre_fast(st, s);
		return;
	}
	vm_advance(st, now);
	adapt(st, s, 0);
	if (st->dispatch == SB_ASRPT_D2) {
		int n, i;
		const int *act = sb_cluster_sim_active(s, &n);
		for (i = 0; i < n; i++)
			st->key[act[i]] = pre_key(st, s, act[i]);
		sb_cluster_dispatch_priority(s, st->key, st->qmin);
	} else if (st->dispatch == SB_ASRPT_D0) {
		if (st->reference)
			dispatch_virtual(st, s);
		else
			dispatch_virtual_fast(st, s);
	} else {
		sb_cluster_dispatch_list(s, &st->ready, st->dispatch == SB_ASRPT_D1);
	}
	/* the runs started now get their slowdown recorded, and the next
	 * instant a running job reaches its prediction is a wake-up (exact
	 * predictions are never reached early: no wake-up needed) */
	wake = adapt(st, s, 1);
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
