/*
 * gen.c - instances of the alloc family: from DL2 job types with Poisson,
 * Google-pattern or Philly arrivals, from a user's job table, and the small
 * instances of the exact optima. Parameters are ours [O] (gadget.md §5,
 * smd.md §5, pslocality.md §5); the type table is DL2's [V].
 */
#include "alloc_wl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_alloc_genp_defaults(struct sb_alloc_genp *g, int mode)
{
	memset(g, 0, sizeof *g);
	g->mode = mode;
	g->njob = 100;
	g->nserver = 16;
	g->gpus = 8;
	g->cpus = mode == SB_ALLOC_PS ? 24 : 32;
	g->nslot = 1000000;
	g->slot_s = 1200;       /* DL2's 20-minute slot */
	g->util = mode == SB_ALLOC_PS ? SB_ALLOC_JCT : SB_ALLOC_EXC;
	g->eta = 0.01;
	g->eps = 1e-3;
	g->epochs_max = 1000;   /* DL2 MAX_NUM_EPOCHS in its testbed mode */
	g->kmax = 16;           /* DL2's maximum workers */
	g->pmax = 16;
	g->bw_in = mode == SB_ALLOC_RAR ? 10000 : 0;   /* 10 GB/s PCIe-class */
	g->bw_out = mode == SB_ALLOC_RAR ? 1250 : 0;   /* 10 GbE */
	g->poisson = 3;
	g->layered = 1;
	g->nlayer = 8;
}

/* Tiresias names of the DL2 models both tables hold (smd.md §6). */
static const char *tiresias_name(const char *dl2)
{
	if (!strcmp(dl2, "resnet-50"))
		return "resnet50";
	if (!strcmp(dl2, "vgg-16"))
		return "vgg16";
	return NULL;
}

const char *sb_alloc_tiresias_name(const char *dl2)
{
	return tiresias_name(dl2);
}

static int layers_of(const struct sb_alloc_genp *g, const struct sb_alloc_type *t,
		     const struct sb_tensor_table *tensors, const double **tab)
{
	const char *tn = tiresias_name(t->model);
	int n = 0;
	*tab = NULL;
	if (g->mode == SB_ALLOC_RAR)
		return 1;
	if (tensors && tn && (*tab = sb_tensor_table_find(tensors, tn, &n)) && n > 0)
		return n;
	*tab = NULL;
	return g->nlayer;
}

/* Fill job jb of type t; its layers go to pool (enough room, from
 * layers_of). */
static void make_job(struct sb_alloc_job *jb, const struct sb_alloc_genp *g,
		     const struct sb_alloc_type *t, const struct sb_tensor_table *tensors,
		     double *pool, struct sb_rng *r)
{
	const double *tab;
	int L = layers_of(g, t, tensors, &tab), l;
	double sum = 0;

	memset(jb, 0, sizeof *jb);
	jb->mode = g->mode;
	snprintf(jb->model, sizeof jb->model, "%s", t->model);
	jb->compute = t->compute;
	jb->model_mb = t->model_mb;
	jb->bw_in = g->bw_in > 0 ? g->bw_in : t->bw_intra;
	jb->bw_out = g->bw_out > 0 ? g->bw_out : t->bw_inter;
	jb->max_workers = g->kmax;
	jb->req_workers = g->kmax < 4 ? g->kmax : 4;
	jb->weight = 1;
	jb->layered = g->layered;
	jb->nlayer = L;
	jb->layer_mb = pool;
	if (g->mode == SB_ALLOC_RAR) {
		jb->wdem[0] = 1;          /* one GPU per ring worker */
		jb->max_ps = 0;
		pool[0] = t->model_mb;
		return;
	}
	jb->max_ps = g->pmax;
	jb->wdem[0] = t->worker_gpu / 4;   /* DL2: 1 GPU = 4 slots */
	jb->wdem[1] = t->worker_cpu;
	jb->pdem[0] = t->ps_gpu / 4;
	jb->pdem[1] = t->ps_cpu;
	for (l = 0; l < L; l++) {
		pool[l] = tab ? tab[l] : exp(log(0.01) + sb_rng_uniform(r) * (log(1.0) - log(0.01)));
		sum += pool[l];
	}
	if (tab) {
		jb->model_mb = sum;
	} else {
		for (l = 0; l < L; l++)
			pool[l] *= t->model_mb / sum;
	}
}

static double weibull2(struct sb_rng *r)
{
	/* shape 2, mean 1: scale 1 / Gamma(3/2) */
	return 1.1283791670955126 * sqrt(-log(sb_rng_uniform_pos(r)));
}

/* Allocate in for njob jobs; returns the pool room per job. */
static int alloc_inst(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
		      const struct sb_alloc_types *ty, const struct sb_tensor_table *tensors,
		      int njob)
{
	int k, maxl = 1;
	memset(in, 0, sizeof *in);
	for (k = 0; k < ty->n; k++) {
		const double *tab;
		int L = layers_of(g, &ty->t[k], tensors, &tab);
		if (L > maxl)
			maxl = L;
	}
	in->nserver = g->nserver;
	in->cap = sb_xcalloc((size_t)(g->nserver > 0 ? g->nserver : 1), sizeof(double[SB_ALLOC_NRES]));
	for (k = 0; k < g->nserver; k++) {
		in->cap[k][0] = g->gpus;
		in->cap[k][1] = g->cpus;
	}
	in->nslot = g->nslot;
	in->slot_s = g->slot_s;
	in->util = g->util;
	in->eta = g->eta;
	in->eps = g->eps;
	in->njob = njob;
	in->job = SB_NEW(struct sb_alloc_job, njob > 0 ? njob : 1);
	in->pool = SB_NEW(double, (size_t)(njob > 0 ? njob : 1) * (size_t)maxl);
	return maxl;
}

/* Targets from DL2's epoch fractions (epochs x epoch size worker-steps),
 * and a horizon that covers every arrival. */
static void finish_jobs(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			const struct sb_alloc_types *ty, const int *type, struct sb_rng *r)
{
	int j;
	for (j = 0; j < in->njob; j++) {
		const struct sb_alloc_type *t = &ty->t[type[j]];
		double epochs = sb_max(1, t->epoch_frac * g->epochs_max * weibull2(r));
		in->job[j].target = epochs * t->epoch_size;
		if (in->job[j].arrival >= in->nslot)
			in->nslot = in->job[j].arrival + 1;
	}
}

void sb_alloc_gen(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
		  const struct sb_alloc_types *ty, const int *pattern, int npat,
		  const struct sb_tensor_table *tensors, struct sb_rng *r)
{
	int *type = SB_NEW(int, g->njob > 0 ? g->njob : 1), j, slot = 0, left;
	int room = alloc_inst(in, g, ty, tensors, g->njob);
	double clock = 0;

	left = npat ? pattern[0] : 0;
	for (j = 0; j < g->njob; j++) {
		int a;
		if (npat) {
			while (left == 0) {
				if (++slot > 100000000)
					SB_BUG("arrival pattern without arrivals");
				left = pattern[slot % npat];
			}
			left--;
			a = slot;
		} else {
			clock += sb_rng_exp(r, g->poisson);
			a = (int)clock;
		}
		type[j] = (int)sb_rng_below(r, (uint32_t)ty->n);
		make_job(&in->job[j], g, &ty->t[type[j]], tensors, in->pool + (size_t)j * room, r);
		in->job[j].arrival = a;
	}
	finish_jobs(in, g, ty, type, r);
	snprintf(in->source, sizeof in->source, "%s arrivals; types %s",
		 npat ? "DL2 Google-trace pattern" : "Poisson", ty->source);
	sb_free(type);
}

void sb_alloc_gen_trace(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			const struct sb_alloc_types *ty, const struct sb_trace *tr,
			const struct sb_tensor_table *tensors, struct sb_rng *r)
{
	int n = g->njob < tr->n ? g->njob : tr->n, j;
	int *type = SB_NEW(int, n > 0 ? n : 1), room = alloc_inst(in, g, ty, tensors, n);

	for (j = 0; j < n; j++) {
		type[j] = (int)sb_rng_below(r, (uint32_t)ty->n);
		make_job(&in->job[j], g, &ty->t[type[j]], tensors, in->pool + (size_t)j * room, r);
		/* trace jobs are sorted by submit time, so arrivals stay sorted */
		in->job[j].arrival = (int)sb_min(floor(tr->job[j].submit / g->slot_s), 1e8);
		in->job[j].req_workers = tr->job[j].gpus < g->kmax ? tr->job[j].gpus : g->kmax;
	}
	finish_jobs(in, g, ty, type, r);
	snprintf(in->source, sizeof in->source, "trace arrivals and GPUs (%s); types %s",
		 tr->source, ty->source);
	sb_free(type);
}

void sb_alloc_gen_each_type(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			    const struct sb_alloc_types *ty, const struct sb_tensor_table *tensors,
			    struct sb_rng *r)
{
	int *type = SB_NEW(int, ty->n > 0 ? ty->n : 1), j;
	int room = alloc_inst(in, g, ty, tensors, ty->n);

	for (j = 0; j < ty->n; j++) {
		type[j] = j;
		make_job(&in->job[j], g, &ty->t[j], tensors, in->pool + (size_t)j * room, r);
	}
	finish_jobs(in, g, ty, type, r);
	snprintf(in->source, sizeof in->source, "one job per type, all at slot 0; types %s",
		 ty->source);
	sb_free(type);
}

static int row_cmp(const void *a, const void *b)
{
	const struct sb_alloc_jobrow *x = *(const struct sb_alloc_jobrow *const *)a;
	const struct sb_alloc_jobrow *y = *(const struct sb_alloc_jobrow *const *)b;
	if (x->arrival != y->arrival)
		return x->arrival < y->arrival ? -1 : 1;
	return x < y ? -1 : x > y;
}

void sb_alloc_build(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
		    const struct sb_alloc_types *ty, const struct sb_alloc_jobrow *rows, int n,
		    double (*cap)[SB_ALLOC_NRES], int ns, const struct sb_tensor_table *tensors,
		    struct sb_rng *r)
{
	const struct sb_alloc_jobrow **ord = SB_NEW(const struct sb_alloc_jobrow *, n > 0 ? n : 1);
	struct sb_alloc_genp gm = *g;
	int j, room;

	gm.nserver = ns;
	gm.mode = SB_ALLOC_PS;    /* room for layers whatever each row's mode */
	room = alloc_inst(in, &gm, ty, tensors, n);
	memcpy(in->cap, cap, (size_t)ns * sizeof *cap);
	for (j = 0; j < n; j++)
		ord[j] = &rows[j];
	qsort(ord, (size_t)n, sizeof *ord, row_cmp);
	for (j = 0; j < n; j++) {
		const struct sb_alloc_jobrow *jr = ord[j];
		const struct sb_alloc_type *t = &ty->t[jr->type];
		gm.mode = jr->mode;
		gm.kmax = jr->max_workers;
		gm.pmax = jr->max_ps;
		make_job(&in->job[j], &gm, t, tensors, in->pool + (size_t)j * room, r);
		in->job[j].arrival = jr->arrival;
		in->job[j].weight = jr->weight;
		in->job[j].target = jr->epochs * t->epoch_size;
		if (jr->arrival >= in->nslot)
			in->nslot = jr->arrival + 1;
	}
	snprintf(in->source, sizeof in->source, "user job table (%d jobs); types %s", n,
		 ty->source);
	sb_free(ord);
}

void sb_alloc_gen_small(struct sb_alloc_inst *in, const struct sb_alloc_genp *g,
			const struct sb_alloc_types *ty, struct sb_rng *r)
{
	int j, room = alloc_inst(in, g, ty, NULL, g->njob), *arr = SB_NEW(int, g->njob + 1);

	for (j = 0; j < g->njob; j++)
		arr[j] = (int)sb_rng_below(r, (uint32_t)(g->nslot / 4 > 0 ? g->nslot / 4 : 1));
	/* sorted arrivals: insertion sort of a handful */
	for (j = 1; j < g->njob; j++) {
		int k = j, a = arr[j];
		while (k > 0 && arr[k - 1] > a) {
			arr[k] = arr[k - 1];
			k--;
		}
		arr[k] = a;
	}
	for (j = 0; j < g->njob; j++) {
		const struct sb_alloc_type *t = &ty->t[sb_rng_below(r, (uint32_t)ty->n)];
		struct sb_alloc_job *jb = &in->job[j];
		int w = g->kmax < 4 ? g->kmax : 4;
		make_job(jb, g, t, NULL, in->pool + (size_t)j * room, r);
		jb->arrival = arr[j];
		jb->target = in->slot_s * w / sb_alloc_tau(jb, w, w, 0, -1) *
			     (g->small_slots > 0 ? g->small_slots : g->nslot / 2.0) *
			     (0.5 + sb_rng_uniform(r));
	}
	snprintf(in->source, sizeof in->source, "small synthetic (%d jobs, %d servers, %d slots)",
		 g->njob, g->nserver, g->nslot);
	sb_free(arr);
}
