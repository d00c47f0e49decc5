/*
 * w1.c - workload W1 of the cluster family: synthetic recurring job
 * families with a known generator (spec asrpt.md §8 [O]). Because the
 * generator is known, a predictor's error can be compared with the
 * irreducible noise sigma.
 */
#include "jobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* W1 draws models from the spec's catalogue table (the first seven). */
#define W1_MODELS 7

void sb_w1_defaults(struct sb_w1_params *p)
{
	memset(p, 0, sizeof *p);
	p->njobs = 1000;
	p->nfamilies = 50;
	p->family_share = 0.8;
	p->nusers = 20;
	p->sigma = 0.2;
	p->load = 0.8;
	p->min_base = 1e3;
	p->max_base = 1e5;
}

struct family {
	int model, conf, user;
	double base, alpha, gamma;
};

/* The (model, configuration) pairs W1 may use: at most max_gpus GPUs. */
struct choices {
	int n;
	int model[W1_MODELS * 16], conf[W1_MODELS * 16];
};

static void list_choices(struct choices *ch, int max_gpus)
{
	int nc, k, c;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	ch->n = 0;
	for (k = 0; k < W1_MODELS; k++)
		for (c = 0; c < cat[k].nconf; c++) {
			const struct sb_config *f = &cat[k].conf[c];
			if (f->d * f->t * f->p > max_gpus)
				continue;
			ch->model[ch->n] = k;
			ch->conf[ch->n] = c;
			ch->n++;
		}
}

/* A model uniformly among those with an allowed configuration, then one
 * of its allowed configurations uniformly. */
static void draw_family(struct family *f, const struct sb_w1_params *p,
			const struct choices *ch, struct sb_rng *r)
{
	int models[W1_MODELS], nm = 0, i, k, pick, seen = 0;
	for (i = 0; i < ch->n; i++)
		if (nm == 0 || models[nm - 1] != ch->model[i])
			models[nm++] = ch->model[i];
	f->model = models[sb_rng_below(r, (uint32_t)nm)];
	for (i = k = 0; i < ch->n; i++)
		k += ch->model[i] == f->model;
	pick = (int)sb_rng_below(r, (uint32_t)k);
	for (i = 0; i < ch->n; i++)
		if (ch->model[i] == f->model && seen++ == pick)
			f->conf = ch->conf[i];
	f->user = (int)sb_rng_below(r, (uint32_t)p->nusers);
	f->base = exp(log(p->min_base) + sb_rng_uniform(r) * (log(p->max_base) - log(p->min_base)));
	f->alpha = 0.3 + 0.7 * sb_rng_uniform(r);
	f->gamma = 0.5 * sb_rng_uniform(r);
}

double sb_job_ref_time(const struct sb_cluster *c, const struct sb_jobset *js, int j)
{
	const struct sb_job *job = &js->job[j];
	struct sb_jobgraph h;
	int *server = SB_NEW(int, job->gpus);
	double tau;
	sb_jobgraph_build(&h, job, &js->model[job->model], c);
	tau = sb_job_ref_placement(c, &h, server);
	sb_jobgraph_release(&h);
	sb_free(server);
	return (double)job->iters * tau;
}

void sb_w1_generate(struct sb_jobset *js, const struct sb_w1_params *p,
		    const struct sb_cluster *c, struct sb_rng *r)
{
	static const double mult[3] = { 0.5, 1, 2 };
	struct sb_rng arr = sb_rng_split(r);  /* arrivals: sizes do not depend on load */
	struct family *fam = SB_NEW(struct family, p->nfamilies > 0 ? p->nfamilies : 1);
	const struct sb_catalog_entry *cat;
	struct choices ch;
	double work = 0, rate, t = 0;
	int i, nc;

	SB_ASSERT(p->njobs >= 1 && p->nfamilies >= 1 && p->nusers >= 1 && p->load > 0);
	cat = sb_catalog(&nc);
	list_choices(&ch, p->max_gpus > 0 ? p->max_gpus : c->nserver * c->gpus);
	SB_ASSERT(ch.n > 0);
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = p->njobs;
	js->job = SB_NEW(struct sb_job, p->njobs);
	for (i = 0; i < p->nfamilies; i++)
		draw_family(&fam[i], p, &ch, r);
	for (i = 0; i < p->njobs; i++) {
		struct sb_job *j = &js->job[i];
		struct family one, *f;
		const struct sb_config *cf;
		double n;

		if (sb_rng_bernoulli(r, p->family_share)) {
			j->family = (int)sb_rng_below(r, (uint32_t)p->nfamilies);
			f = &fam[j->family];
		} else {
			j->family = -1;
			draw_family(&one, p, &ch, r);
			f = &one;
		}
		cf = &cat[f->model].conf[f->conf];
		j->id = i;
		j->model = f->model;
		j->d = cf->d;
		j->t = cf->t;
		j->p = cf->p;
		j->gpus = cf->d * cf->t * cf->p;
		j->micro = 4 * cf->p;
		j->user = f->user;
		j->batch_mult = mult[sb_rng_below(r, 3)];
		j->lr_mult = mult[sb_rng_below(r, 3)];
		j->data_frac = 0.25 + 0.75 * sb_rng_uniform(r);
		j->batch = (int)lround(cat[f->model].model.batch * j->batch_mult);
		SB_ASSERT(j->batch >= j->d * j->micro);
		n = f->base * pow(1.0 / j->batch_mult, f->alpha) * pow(1.0 / j->lr_mult, f->gamma) *
		    j->data_frac * sb_rng_lognormal(r, 0, p->sigma);
		j->iters = n < 1 ? 1 : (long)lround(n);
		j->trace_runtime = -1;
	}
	/* Poisson arrivals at load = rate x E[g p*] / N */
	for (i = 0; i < p->njobs; i++)
		work += js->job[i].gpus * sb_job_ref_time(c, js, i);
	work /= p->njobs;
	rate = p->load * c->nserver * c->gpus / work;
	for (i = 0; i < p->njobs; i++) {
		js->job[i].arrival = t;
		t += sb_rng_exp(&arr, rate);
	}
	snprintf(js->source, sizeof js->source,
		 "synthetic: W1 recurring families (%d jobs, %d families, load %.2f on %s)",
		 p->njobs, p->nfamilies, p->load, c->name);
	sb_free(fam);
}
