/*
 * w23.c - job sets of the cluster family derived from real traces (spec
 * asrpt.md §8 [O]):
 *
 * W2 (Philly-derived): submission times, GPU counts and runtimes of the
 * Philly jobs in jobs.json (which only holds jobs of at least 4 GPUs, so
 * W2 covers large jobs only). Each GPU count maps to the catalogue
 * configuration with the nearest GPU count (ties to the smaller); among
 * the models with such a configuration one is drawn, CNNs three times as
 * likely as transformers for up to 4 GPUs; the iteration count is the
 * runtime over the job's reference iteration time, so the job keeps its
 * trace runtime on its best placement. Recurrence is synthesised: a
 * pseudo-family is (mapped configuration, runtime decile).
 * Arrivals can be compressed to a target load.
 *
 * W3 (Tiresias' 60-job trace): data-parallel CNN jobs of 1-8 GPUs with
 * their model, submission time and duration; global batch 32 per GPU; the
 * iteration count is the duration over the reference iteration time on
 * the given cluster (the trace's own iteration counts are kept as an
 * option); for trace replay, one-second iterations as many as the
 * duration's whole seconds, which the replay mode runs as measured
 * whatever the placement, as the Tiresias simulator does. A family is a
 * model.
 *
 * Philly-scale (speed benchmark only): as many jobs as the full Philly
 * trace (117,325), runtimes taken in order from the Philly runtime list
 * (philly_runtime.csv, cycled), the W2 jobs' GPU counts for every 39th job
 * and one GPU otherwise, Poisson arrivals at a target load.
 */
#include "jobs.h"
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fill job j's model-dependent fields for model k, configuration (d,t,p),
 * and its iteration count from a runtime on its reference placement. */
static void set_job(struct sb_jobset *js, int i, int k, int d, int t, int p, int batch,
		    double runtime, const struct sb_cluster *c)
{
	struct sb_job *j = &js->job[i];
	double tref;
	j->id = i;
	j->model = k;
	j->d = d;
	j->t = t;
	j->p = p;
	j->gpus = d * t * p;
	j->micro = 4 * p;
	j->batch = batch;
	j->batch_mult = (double)batch / js->model[k].batch;
	j->lr_mult = 1;
	j->data_frac = 1;
	j->iters = 1;
	j->trace_runtime = runtime;
	if (runtime > 0) {
		tref = sb_job_ref_time(c, js, i);   /* iters = 1: one iteration */
		j->iters = (long)fmax(1, floor(runtime / tref + 0.5));
	}
}

/* Compress (or stretch) arrivals so that rate x E[g p*] / N = load. */
static void scale_to_load(struct sb_jobset *js, const struct sb_cluster *c, double load)
{
	double work = 0, span, rate_now, f;
	int i, n = js->n;
	if (n < 2 || !(load > 0))
		return;
	for (i = 0; i < n; i++)
		work += js->job[i].gpus * sb_job_ref_time(c, js, i);
	span = js->job[n - 1].arrival - js->job[0].arrival;
	if (!(span > 0))
		return;
	rate_now = (n - 1) / span;
	/* offered load now: rate_now x mean work / N */
	f = (rate_now * (work / n) / ((double)c->nserver * c->gpus)) / load;
	for (i = 0; i < n; i++)
		js->job[i].arrival = (js->job[i].arrival - js->job[0].arrival) / f;
}

int sb_w3_from_trace(const struct sb_trace *t, const struct sb_cluster *c, int sizes,
		     struct sb_jobset *js, struct sb_err *err)
{
	int i, nc;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	static const char *const how[] = { "sizes from trace durations",
					   "trace iteration counts",
					   "trace durations replayed in whole seconds" };

	SB_ASSERT(sizes >= SB_W3_DURATION && sizes <= SB_W3_REPLAY);
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = t->n;
	js->job = SB_NEW(struct sb_job, t->n);
	for (i = 0; i < t->n; i++) {
		const struct sb_trace_job *tj = &t->job[i];
		int k = sb_catalog_find(tj->model);
		if (k < 0 || cat[k].model.cls != SB_MODEL_CNN) {
			sb_jobset_release(js);
			return sb_err_set(err, SB_EXIT_INPUT, "trace %s: job '%s': model '%s' is not a "
					  "CNN of the catalogue", t->source, tj->id, tj->model);
		}
		set_job(js, i, k, tj->gpus, 1, 1, 32 * tj->gpus,
			sizes == SB_W3_DURATION ? tj->runtime : -1, c);
		if (sizes == SB_W3_ITERS) {
			if (tj->iters < 1) {
				sb_jobset_release(js);
				return sb_err_set(err, SB_EXIT_INPUT, "trace %s: job '%s' has no "
						  "iteration count", t->source, tj->id);
			}
			js->job[i].iters = tj->iters;
		} else if (sizes == SB_W3_REPLAY) {
			/* Tiresias reads int(float(duration)); a job runs at least 1 s */
			js->job[i].iters = (long)fmax(1, floor(tj->runtime));
			js->job[i].trace_runtime = (double)js->job[i].iters;
		}
		js->job[i].arrival = tj->submit;
		js->job[i].family = k;
		js->job[i].user = 0;
	}
	snprintf(js->source, sizeof js->source, "real: W3 Tiresias trace (%s; %s)", t->source,
		 how[sizes]);
	return 0;
}

struct pick {
	int k, conf;
};

/* Catalogue configurations with GPU count nearest to g (ties: fewer). */
static int nearest(int g, int max_gpus, struct pick *out)
{
	int nc, k, c, best = -1, n = 0;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	for (k = 0; k < nc; k++)
		for (c = 0; c < cat[k].nconf; c++) {
			const struct sb_config *f = &cat[k].conf[c];
			int gc = f->d * f->t * f->p;
			if (gc > max_gpus)
				continue;
			if (best < 0 || abs(gc - g) < abs(best - g) ||
			    (abs(gc - g) == abs(best - g) && gc < best))
				best = gc;
		}
	for (k = 0; k < nc; k++)
		for (c = 0; c < cat[k].nconf; c++) {
			const struct sb_config *f = &cat[k].conf[c];
			if (f->d * f->t * f->p == best) {
				out[n].k = k;
				out[n].conf = c;
				n++;
			}
		}
	return n;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int sb_w2_from_trace(const struct sb_trace *t, const struct sb_cluster *c, double load,
		     struct sb_rng *r, struct sb_jobset *js, struct sb_err *err)
{
	int i, nc, N = c->nserver * c->gpus;
	const struct sb_catalog_entry *cat = sb_catalog(&nc);
	struct pick cand[256];
	double *rt = SB_NEW(double, t->n > 0 ? t->n : 1), dec[11];

	memset(js, 0, sizeof *js);
	if (t->n < 1) {
		sb_free(rt);
		return sb_err_set(err, SB_EXIT_INPUT, "trace %s has no jobs", t->source);
	}
	for (i = 0; i < t->n; i++)
		rt[i] = t->job[i].runtime;
	qsort(rt, (size_t)t->n, sizeof *rt, cmp_dbl);
	for (i = 0; i <= 10; i++)
		dec[i] = rt[(size_t)((double)i / 10 * (t->n - 1))];
	sb_catalog_models(js);
	js->n = t->n;
	js->job = SB_NEW(struct sb_job, t->n);
	for (i = 0; i < t->n; i++) {
		const struct sb_trace_job *tj = &t->job[i];
		int m = nearest(tj->gpus, N, cand), w = 0, x, pick, d;
		const struct sb_config *f;
		if (tj->runtime <= 0) {
			sb_jobset_release(js);
			sb_free(rt);
			return sb_err_set(err, SB_EXIT_INPUT, "trace %s: job '%s' has no runtime",
					  t->source, tj->id);
		}
		/* CNNs weigh 3 up to 4 GPUs */
		for (x = 0; x < m; x++)
			w += cat[cand[x].k].model.cls == SB_MODEL_CNN && tj->gpus <= 4 ? 3 : 1;
		pick = (int)sb_rng_below(r, (uint32_t)w);
		for (x = 0; x < m; x++) {
			int wx = cat[cand[x].k].model.cls == SB_MODEL_CNN && tj->gpus <= 4 ? 3 : 1;
			if (pick < wx)
				break;
			pick -= wx;
		}
		f = &cat[cand[x].k].conf[cand[x].conf];
		set_job(js, i, cand[x].k, f->d, f->t, f->p, cat[cand[x].k].model.batch,
			tj->runtime, c);
		js->job[i].arrival = tj->submit;
		for (d = 0; d < 9 && tj->runtime > dec[d + 1]; d++)
			;
		/* pseudo-family: (model, configuration, runtime decile) */
		js->job[i].family = (cand[x].k * 16 + cand[x].conf) * 10 + d;
		js->job[i].user = 0;
	}
	sb_free(rt);
	if (load > 0)
		scale_to_load(js, c, load);
	snprintf(js->source, sizeof js->source,
		 "real: W2 Philly-derived (%s; %d jobs of >= 4 GPUs%s%s; models synthetic)",
		 t->source, t->n, load > 0 ? "; arrivals scaled to the load" : "",
		 t->ndropped ? "; some jobs dropped" : "");
	return 0;
}

void sb_philly_scale(const double *runtimes, int nrt, const struct sb_trace *w2, int njobs,
		     const struct sb_cluster *c, double load, struct sb_rng *r,
		     struct sb_jobset *js)
{
	int i, k = sb_catalog_find("resnet50"), nw = 0;
	double work = 0, rate, tm = 0;

	SB_ASSERT(nrt > 0 && njobs > 0 && k >= 0);
	memset(js, 0, sizeof *js);
	sb_catalog_models(js);
	js->n = njobs;
	js->job = SB_NEW(struct sb_job, njobs);
	for (i = 0; i < njobs; i++) {
		int g = 1;
		double rt = runtimes[i % nrt];
		if (w2 && w2->n > 0 && i % 39 == 0)
			g = w2->job[nw++ % w2->n].gpus;
		if (g > c->nserver * c->gpus)
			g = c->nserver * c->gpus;
		/* ResNet-50 data parallel: every GPU count is a valid config */
		set_job(js, i, k, g, 1, 1, 256 > 4 * g ? 256 : 4 * g, rt > 1 ? rt : 1, c);
		js->job[i].family = -1;
		work += g * sb_job_ref_time(c, js, i);
	}
	rate = load * c->nserver * c->gpus / (work / njobs);
	for (i = 0; i < njobs; i++) {
		js->job[i].arrival = tm;
		tm += sb_rng_exp(r, rate);
	}
	snprintf(js->source, sizeof js->source,
		 "Philly-scale: %d jobs, runtimes from the Philly runtime list, Poisson "
		 "arrivals at load %.2f", njobs, load);
}
