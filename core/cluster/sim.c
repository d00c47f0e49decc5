/*
 * sim.c - event-driven simulation of a GPU cluster under a
 * scheduler and a placer (spec asrpt.md §2; the model is in cluster.h).
 *
 * Events are job arrivals (read in order from the sorted job set), job
 * completions and wake-ups a policy asked for (a binary heap, ties in
 * insertion order). All events at one instant are applied together -
 * completions first, then arrivals, then wake-ups - and the scheduler is
 * called once after them. Cost grows with events, never with simulated
 * time: a running job's progress is computed from its start time when it
 * is needed.
 *
 * Every run is recorded as segments (job, GPUs, start, end, iterations) so
 * that cluster/check.c can validate it without trusting this file.
 *
 * Trace-replay mode (cl->replay) has the semantics of Tiresias' simulator
 * (SymbioticLab/Tiresias simulator/run_sim.py, read, not copied): a job's
 * iteration time is its trace runtime / n_j on every placement (jobgraph.c),
 * a resumed job pays no restart, and the clock keeps whole seconds: an
 * arrival is seen at the next whole second, a wake-up is rounded up to
 * one, and completions fall on whole seconds when the durations are whole
 * seconds (the W3 replay job set makes every iteration one second). It
 * decides only at arrivals, completions and the one wake-up it recomputes
 * at every decision: here too the scheduler is not called at the planned
 * end of a preempted run, and a wake-up asked for holds until the next
 * decision only (which must ask again).
 */
#include "cluster.h"
#include "cluster/interf.h"
#include "heap.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { EV_FINISH = 0, EV_WAKE = 1 };

/* schedule() calls in a row on an idle cluster with nothing arriving
 * before the run is declared stuck */
#define IDLE_CALLS_MAX 100000

/* Per-job simulator state. */
struct cjob {
	int state;            /* enum sb_job_state */
	long done;            /* iterations completed before the current run */
	double run_start;     /* current run: start time */
	double overhead;      /* current run: restart seconds at its start */
	double tau;           /* current run: iteration time */
	int seg;              /* current run: its segment, else -1 */
	int epoch;            /* completion events of older runs are stale */
	double executed;      /* seconds of finished runs (overhead included) */
	double since;         /* when it last started or became pending */
	int prev, next;       /* active list (arrival order) */
	/* topology mode: progress (fractional iterations) as of prog_t, and
	 * the open speed piece of the current run (-1 if none) */
	double prog, prog_t;
	int piece;
};

struct sb_csim {
	const struct sb_cluster *cl;
	const struct sb_jobset *js;       /* the truth */
	struct sb_job *view;              /* what the policy sees */
	const struct sb_cluster_combo *combo;
	const struct sb_opts *popts;
	struct sb_rng prng;               /* the placer's stream */
	struct sb_jobgraph *graph;
	struct cjob *cj;
	double now;
	int next_arrival;                 /* first job not arrived yet */
	int ndone;
	struct sb_heap ev;
	unsigned char *gpu_free;
	int *free_srv;
	int nfree;
	int head, tail;                   /* active list */
	int nactive;
	int *active_buf;
	int *run_list, *run_pos, nrun;    /* running jobs */
	int *gbuf;                        /* placer output */
	int *srv_buf;                     /* servers of a placement */
	int started;                      /* jobs started by the current schedule() */
	int in_hook;
	struct sb_cluster_result *r;
	int seg_cap, gpu_cap;
	double wake_next;                 /* replay: wake-up asked by this decision */
	int wake_epoch;                   /* replay: older wake-ups are stale */
	int agent;                        /* sb_cluster_sim_agent */
	int piece_cap;                    /* topology mode (see speeds_refresh) */
	struct sb_interf_job *ij;
	double *ij_S, *ij_tau;
	char *fail_msg;                   /* sb_cluster_sim_fail: the run fails */
};

static void topo_start(struct sb_csim *s, int j);
static void topo_stop(struct sb_csim *s, int j);
static double topo_progress(const struct sb_csim *s, int j);

/* ------------------------------------------------------------------ */
/* Read access                                                         */
/* ------------------------------------------------------------------ */

/* When job j's arrival is seen (whole seconds in replay mode). */
static double arrival_time(const struct sb_csim *s, int j)
{
	double a = s->js->job[j].arrival;
	return s->cl->replay ? ceil(a) : a;
}

double sb_cluster_sim_now(const struct sb_csim *s) { return s->now; }
const struct sb_cluster *sb_cluster_sim_cluster(const struct sb_csim *s) { return s->cl; }
int sb_cluster_sim_njobs(const struct sb_csim *s) { return s->js->n; }

const struct sb_job *sb_cluster_sim_job(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	return &s->view[j];
}

const struct sb_model *sb_cluster_sim_model(const struct sb_csim *s, int j)
{
	return &s->js->model[sb_cluster_sim_job(s, j)->model];
}

const struct sb_jobgraph *sb_cluster_sim_graph(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	return &s->graph[j];
}

double sb_cluster_sim_tau_ref(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	return s->r->tau_ref[j];
}

const double *sb_cluster_sim_history(const struct sb_csim *s, int *n)
{
	*n = s->js->nhist;
	return s->js->hist;
}

int sb_cluster_sim_state(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	return s->cj[j].state;
}

/* Whole iterations the current run has completed by now. */
static long run_iters(const struct sb_csim *s, int j)
{
	const struct cjob *c = &s->cj[j];
	double el = s->now - c->run_start - c->overhead;
	long k, rem = s->js->job[j].iters - c->done;
	if (s->cl->interf) {
		k = (long)floor(topo_progress(s, j)) - c->done;
		return k < rem ? k : rem;
	}
	if (el <= 0)
		return 0;
	k = (long)floor(el / c->tau + 1e-9);
	return k < rem ? k : rem;
}

long sb_cluster_sim_done(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	return s->cj[j].done + (s->cj[j].state == SB_JOB_RUNNING ? run_iters(s, j) : 0);
}

double sb_cluster_sim_executed(const struct sb_csim *s, int j)
{
	const struct cjob *c = &s->cj[j];
	return c->executed + (c->state == SB_JOB_RUNNING ? s->now - c->run_start : 0);
}

double sb_cluster_sim_attained(const struct sb_csim *s, int j)
{
	return s->js->job[j].gpus * sb_cluster_sim_executed(s, j);
}

double sb_cluster_sim_since(const struct sb_csim *s, int j)
{
	return s->now - s->cj[j].since;
}

int sb_cluster_sim_preemptions(const struct sb_csim *s, int j)
{
	return s->r->npreempt[j];
}

double sb_cluster_sim_tau(const struct sb_csim *s, int j)
{
	return s->cj[j].state == SB_JOB_RUNNING ? s->cj[j].tau : 0;
}

const int *sb_cluster_sim_active(struct sb_csim *s, int *n)
{
	int j, k = 0;
	for (j = s->head; j >= 0; j = s->cj[j].next)
		s->active_buf[k++] = j;
	*n = k;
	return s->active_buf;
}

const int *sb_cluster_sim_running(const struct sb_csim *s, int *n)
{
	*n = s->nrun;
	return s->run_list;
}

const int *sb_cluster_sim_gpus(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	return s->cj[j].state == SB_JOB_RUNNING ? s->r->gpu + s->r->seg[s->cj[j].seg].gpu_off
						: NULL;
}

double sb_cluster_sim_progress(const struct sb_csim *s, int j)
{
	SB_ASSERT(j >= 0 && j < s->js->n);
	if (s->cl->interf && s->cj[j].state == SB_JOB_RUNNING)
		return topo_progress(s, j);
	return s->cl->interf ? s->cj[j].prog : (double)sb_cluster_sim_done(s, j);
}

int sb_cluster_sim_agent(const struct sb_csim *s) { return s->agent; }
void sb_cluster_sim_set_agent(struct sb_csim *s, int agent) { s->agent = agent; }

int sb_cluster_sim_free(const struct sb_csim *s) { return s->nfree; }

/* A policy that cannot decide (a solver that failed or stopped on its
 * safety net) fails the run instead of deciding something else quietly:
 * the simulator stops after the hook returns. The first message wins. */
void sb_cluster_sim_fail(struct sb_csim *s, const char *fmt, ...)
{
	va_list ap;
	if (s->fail_msg)
		return;
	s->fail_msg = SB_NEW(char, 256);
	va_start(ap, fmt);
	vsnprintf(s->fail_msg, 256, fmt, ap);
	va_end(ap);
}
const int *sb_cluster_sim_free_per_server(const struct sb_csim *s) { return s->free_srv; }
const unsigned char *sb_cluster_sim_gpu_free(const struct sb_csim *s) { return s->gpu_free; }

/* ------------------------------------------------------------------ */
/* Actions                                                             */
/* ------------------------------------------------------------------ */

static void active_remove(struct sb_csim *s, int j)
{
	struct cjob *c = &s->cj[j];
	if (c->prev >= 0)
		s->cj[c->prev].next = c->next;
	else
		s->head = c->next;
	if (c->next >= 0)
		s->cj[c->next].prev = c->prev;
	else
		s->tail = c->prev;
	c->prev = c->next = -1;
	s->nactive--;
}

static void active_append(struct sb_csim *s, int j)
{
	struct cjob *c = &s->cj[j];
	c->prev = s->tail;
	c->next = -1;
	if (s->tail >= 0)
		s->cj[s->tail].next = j;
	else
		s->head = j;
	s->tail = j;
	s->nactive++;
}

static int64_t ev_code(int type, int j, int epoch)
{
	return ((int64_t)epoch << 34) | ((int64_t)j << 2) | type;
}

void sb_cluster_sim_wake(struct sb_csim *s, double t)
{
	if (!(t > s->now) || !isfinite(t))
		SB_BUG("clustersim: wake-up at %g is not after now (%g)", t, s->now);
	if (s->cl->replay) {
		/* one wake-up at a time, recomputed at every decision, as
		 * Tiresias' simulator's next_job_jump (pushed by the loop) */
		s->wake_next = sb_min(s->wake_next, ceil(t));
		return;
	}
	sb_heap_push(&s->ev, t, ev_code(EV_WAKE, 0, 0));
}

void sb_cluster_sim_start_on(struct sb_csim *s, int j, const int *gpus)
{
	const struct sb_job *job = &s->js->job[j];
	const struct sb_cluster *cl = s->cl;
	struct cjob *c = &s->cj[j];
	struct sb_cluster_result *r = s->r;
	struct sb_cluster_seg *sg;
	int g = job->gpus, v, N = cl->nserver * cl->gpus;

	if (!s->in_hook)
		SB_BUG("clustersim: start outside a policy hook");
	if (c->state != SB_JOB_PENDING)
		SB_BUG("clustersim: policy %s started job %d in state %d", s->combo->label, j,
		       c->state);
	for (v = 0; v < g; v++) {
		if (gpus[v] < 0 || gpus[v] >= N || !s->gpu_free[gpus[v]])
			SB_BUG("clustersim: policy %s started job %d on GPU %d, which is not free",
			       s->combo->label, j, gpus[v]);
		s->gpu_free[gpus[v]] = 0;   /* also catches duplicates */
	}
	for (v = 0; v < g; v++) {
		s->srv_buf[v] = gpus[v] / cl->gpus;
		s->free_srv[s->srv_buf[v]]--;
	}
	s->nfree -= g;

	if (r->nseg == s->seg_cap) {
		s->seg_cap = s->seg_cap ? 2 * s->seg_cap : 1024;
		r->seg = sb_xrealloc(r->seg, sizeof *r->seg * (size_t)s->seg_cap);
	}
	{
		int off = r->nseg ? r->seg[r->nseg - 1].gpu_off +
			s->js->job[r->seg[r->nseg - 1].job].gpus : 0;
		if (off + g > s->gpu_cap) {
			while (off + g > s->gpu_cap)
				s->gpu_cap = s->gpu_cap ? 2 * s->gpu_cap : 4096;
			r->gpu = sb_xrealloc(r->gpu, sizeof(int) * (size_t)s->gpu_cap);
		}
		memcpy(r->gpu + off, gpus, sizeof(int) * (size_t)g);
		sg = &r->seg[r->nseg];
		memset(sg, 0, sizeof *sg);
		sg->job = j;
		sg->gpu_off = off;
	}
	c->seg = r->nseg++;
	c->state = SB_JOB_RUNNING;
	s->run_pos[j] = s->nrun;
	s->run_list[s->nrun++] = j;
	c->run_start = s->now;
	c->overhead = r->npreempt[j] > 0 ? sb_cluster_restart(cl) : 0;
	/* topology mode: topo_start below sets the iteration time */
	c->tau = cl->interf ? 0 : sb_job_iter_time(cl, &s->graph[j], s->srv_buf);
	c->since = s->now;
	c->epoch++;
	sg->start = s->now;
	sg->end = NAN;
	sg->overhead = c->overhead;
	sg->tau = c->tau;
	sg->cut = sb_jobgraph_cut(&s->graph[j], s->srv_buf);
	if (isnan(r->first_start[j]))
		r->first_start[j] = s->now;
	if (cl->interf)
		topo_start(s, j);
	else
		sb_heap_push(&s->ev, s->now + c->overhead + (double)(job->iters - c->done) * c->tau,
			     ev_code(EV_FINISH, j, c->epoch));
	s->started++;
}

int sb_cluster_sim_start(struct sb_csim *s, int j)
{
	const struct sb_cluster_policy *pl = s->combo->place;
	int g = s->js->job[j].gpus;
	if (s->cj[j].state != SB_JOB_PENDING)
		SB_BUG("clustersim: policy %s started job %d in state %d", s->combo->label, j,
		       s->cj[j].state);
	if (g > s->nfree)
		return -1;
	if (pl->place(s, j, s->popts, &s->prng, s->gbuf) != 0)
		return -1;
	sb_cluster_sim_start_on(s, j, s->gbuf);
	return 0;
}

/* Close the current run of j at now with k iterations. */
static void close_run(struct sb_csim *s, int j, long k, int preempted)
{
	struct cjob *c = &s->cj[j];
	struct sb_cluster_result *r = s->r;
	struct sb_cluster_seg *sg = &r->seg[c->seg];
	const struct sb_cluster *cl = s->cl;
	int v, g = s->js->job[j].gpus;

	sg->end = s->now;
	sg->iters = k;
	sg->preempted = preempted;
	for (v = 0; v < g; v++) {
		int gp = r->gpu[sg->gpu_off + v];
		s->gpu_free[gp] = 1;
		s->free_srv[gp / cl->gpus]++;
	}
	s->nfree += g;
	/* off the running list: the last one takes its place */
	s->run_list[s->run_pos[j]] = s->run_list[--s->nrun];
	s->run_pos[s->run_list[s->run_pos[j]]] = s->run_pos[j];
	c->done += k;
	c->executed += s->now - c->run_start;
	c->seg = -1;
	c->since = s->now;
	c->epoch++;
	if (cl->interf)
		topo_stop(s, j);
}

void sb_cluster_sim_preempt(struct sb_csim *s, int j)
{
	struct cjob *c = &s->cj[j];
	if (!s->in_hook)
		SB_BUG("clustersim: preempt outside a policy hook");
	if (c->state != SB_JOB_RUNNING)
		SB_BUG("clustersim: policy %s preempted job %d in state %d", s->combo->label, j,
		       c->state);
	close_run(s, j, run_iters(s, j), 1);
	c->state = SB_JOB_PENDING;
	s->r->npreempt[j]++;
}

/* ------------------------------------------------------------------ */
/* The event loop                                                      */
/* ------------------------------------------------------------------ */

void sb_cluster_sim_work(struct sb_csim *s, const char *what, long n)
{
	/* the same static string at every call: the pointer test spares the
	 * hot paths (tens of millions of calls) a strcmp */
	if (s->r->work_what != what && s->r->work_what && strcmp(s->r->work_what, what) != 0)
		SB_BUG("clustersim: a policy counts both %s and %s", s->r->work_what, what);
	s->r->work_what = what;
	s->r->work += n;
}

void sb_cluster_result_release(struct sb_cluster_result *r)
{
	if (!r)
		return;
	sb_free(r->first_start);
	sb_free(r->finish);
	sb_free(r->npreempt);
	sb_free(r->tau_ref);
	sb_free(r->tau_lb);
	sb_free(r->seg);
	sb_free(r->gpu);
	sb_free(r->piece);
	memset(r, 0, sizeof *r);
}

static void sim_release(struct sb_csim *s)
{
	int j;
	if (s->graph)
		for (j = 0; j < s->js->n; j++)
			sb_jobgraph_release(&s->graph[j]);
	sb_free(s->graph);
	sb_free(s->view);
	sb_free(s->cj);
	sb_free(s->fail_msg);
	sb_free(s->gpu_free);
	sb_free(s->free_srv);
	sb_free(s->active_buf);
	sb_free(s->run_list);
	sb_free(s->run_pos);
	sb_free(s->gbuf);
	sb_free(s->srv_buf);
	sb_free(s->ij);
	sb_free(s->ij_S);
	sb_free(s->ij_tau);
	sb_heap_release(&s->ev);
}

/* Time of the next event, INFINITY if none. */
static double next_time(const struct sb_csim *s)
{
	const struct sb_heap_item *top = sb_heap_peek(&s->ev);
	double t = top ? top->key : INFINITY;
	if (s->next_arrival < s->js->n)
		t = sb_min(t, arrival_time(s, s->next_arrival));
	return t;
}

static void finish_job(struct sb_csim *s, int j, void *ctx)
{
	const struct sb_cluster_policy *sp = s->combo->sched;
	struct cjob *c = &s->cj[j];
	close_run(s, j, s->js->job[j].iters - c->done, 0);
	c->state = SB_JOB_DONE;
	s->r->finish[j] = s->now;
	active_remove(s, j);
	s->ndone++;
	if (sp->on_finish)
		sp->on_finish(ctx, s, j);
}

int sb_cluster_simulate(const struct sb_cluster *cl, const struct sb_jobset *js,
			const struct sb_cluster_combo *combo, const struct sb_opts *sopts,
			const struct sb_opts *popts, uint64_t seed,
			struct sb_cluster_result *r, struct sb_err *err)
{
	const struct sb_cluster_policy *sp = combo->sched;
	struct sb_csim s;
	struct sb_rng srng;
	void *ctx = NULL;
	int n = js->n, N, j, rc = 0, v, maxg = 1, idle_calls = 0, live;
	double t0 = sb_now(), c0 = sb_cpu_now(), th, active_sum = 0;

	memset(r, 0, sizeof *r);
	memset(&s, 0, sizeof s);
	rc = sb_cluster_validate(cl, err);
	if (!rc)
		rc = sb_jobset_validate(js, cl, err);
	if (rc)
		return rc;
	N = cl->nserver * cl->gpus;
	s.cl = cl;
	s.js = js;
	s.combo = combo;
	s.popts = popts;
	s.head = s.tail = -1;
	s.now = n ? arrival_time(&s, 0) : 0;
	sb_heap_init(&s.ev);
	s.prng = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(combo->place->name));
	srng = sb_rng_stream(seed, 0, 0, SB_RNG_POLICY ^ sb_hash_str(sp->name));

	r->n = n;
	r->first_start = SB_NEW(double, n);
	r->finish = SB_NEW(double, n);
	r->npreempt = SB_NEW(int, n);
	r->tau_ref = SB_NEW(double, n);
	r->tau_lb = SB_NEW(double, n);
	s.r = r;
	s.view = SB_NEW(struct sb_job, n);
	s.cj = SB_NEW(struct cjob, n);
	s.graph = SB_NEW(struct sb_jobgraph, n);
	for (j = 0; j < n; j++)
		if (js->job[j].gpus > maxg)
			maxg = js->job[j].gpus;
	s.gbuf = SB_NEW(int, maxg);
	s.srv_buf = SB_NEW(int, maxg);
	for (j = 0; j < n; j++) {
		const struct sb_job *job = &js->job[j];
		s.view[j] = *job;
		if (!sp->clairvoyant)
			s.view[j].iters = -1;
		r->first_start[j] = r->finish[j] = NAN;
		s.cj[j].seg = s.cj[j].prev = s.cj[j].next = -1;
		sb_jobgraph_build(&s.graph[j], job, &js->model[job->model], cl);
		r->tau_ref[j] = sb_job_ref_placement(cl, &s.graph[j], s.srv_buf);
		r->tau_lb[j] = sb_job_iter_time_lb(cl, &s.graph[j]);
		if (cl->interf)   /* alone at best locality: no placement is faster */
			r->tau_ref[j] = r->tau_lb[j] =
				sb_interf_tau_iso(cl->interf, job->model, job->gpus);
		s.cj[j].piece = -1;
	}
	if (cl->interf) {
		s.ij = SB_NEW(struct sb_interf_job, n > 0 ? n : 1);
		s.ij_S = SB_NEW(double, n > 0 ? n : 1);
		s.ij_tau = SB_NEW(double, n > 0 ? n : 1);
	}
	s.gpu_free = SB_NEW(unsigned char, N);
	memset(s.gpu_free, 1, (size_t)N);
	s.free_srv = SB_NEW(int, cl->nserver);
	for (v = 0; v < cl->nserver; v++)
		s.free_srv[v] = cl->gpus;
	s.nfree = N;
	s.active_buf = SB_NEW(int, n > 0 ? n : 1);
	s.run_list = SB_NEW(int, n > 0 ? n : 1);
	s.run_pos = SB_NEW(int, n > 0 ? n : 1);

	s.in_hook = 1;
	th = sb_now();
	ctx = sp->init ? sp->init(&s, sopts, &srng) : NULL;
	r->sched_seconds += sb_now() - th;
	s.in_hook = 0;
	if (s.fail_msg)
		rc = sb_err_set(err, SB_EXIT_RUN, "policy %s failed before the first event: %s",
				combo->label, s.fail_msg);

	while (!rc && s.ndone < n) {
		double t = next_time(&s);
		struct sb_heap_item it;
		if (!isfinite(t)) {
			rc = sb_err_set(err, SB_EXIT_RUN,
					"policy %s left %d job(s) waiting on an idle cluster with "
					"nothing to wait for (at t = %g s)", combo->label,
					n - s.ndone, s.now);
			break;
		}
		s.now = t;
		s.in_hook = 1;
		th = sb_now();
		/* completions first, then arrivals, then wake-ups */
		live = 0;
		while ((sb_heap_peek(&s.ev)) && sb_heap_peek(&s.ev)->key == t) {
			int type, jj, ep;
			sb_heap_pop(&s.ev, &it);
			type = (int)(it.val & 3);
			jj = (int)((it.val >> 2) & 0xffffffff);
			ep = (int)(it.val >> 34);
			r->events++;
			if (type == EV_FINISH && s.cj[jj].state == SB_JOB_RUNNING &&
			    s.cj[jj].epoch == ep) {
				finish_job(&s, jj, ctx);
				live = 1;
			} else if (type == EV_WAKE && (!cl->replay || ep == s.wake_epoch)) {
				live = 1;
			}
		}
		while (s.next_arrival < n && arrival_time(&s, s.next_arrival) == t) {
			j = s.next_arrival++;
			s.cj[j].state = SB_JOB_PENDING;
			s.cj[j].since = t;
			active_append(&s, j);
			r->events++;
			live = 1;
			if (sp->on_arrival)
				sp->on_arrival(ctx, &s, j);
		}
		/* Tiresias' simulator decides only at arrivals, completions and
		 * its wake-ups, never at the planned end of a run it preempted
		 * (the placement model keeps its historical extra decisions
		 * there, which policies that re-rank at every decision see) */
		if (!live && cl->replay) {
			r->sched_seconds += sb_now() - th;
			s.in_hook = 0;
			continue;
		}
		s.started = 0;
		s.wake_next = INFINITY;
		active_sum += s.nactive;
		sp->schedule(ctx, &s);
		r->decisions++;
		if (s.fail_msg) {
			rc = sb_err_set(err, SB_EXIT_RUN, "policy %s failed at t = %g s: %s",
					combo->label, s.now, s.fail_msg);
			s.in_hook = 0;
			break;
		}
		if (cl->replay) {
			s.wake_epoch++;
			if (isfinite(s.wake_next))
				sb_heap_push(&s.ev, s.wake_next, ev_code(EV_WAKE, 0, s.wake_epoch));
		}
		r->sched_seconds += sb_now() - th;
		s.in_hook = 0;
		/* a policy may keep the cluster idle for a while (waiting for
		 * a virtual completion, say), but not forever */
		if (s.ndone < n && s.nfree == N && s.next_arrival == n && s.started == 0) {
			if (++idle_calls > IDLE_CALLS_MAX) {
				rc = sb_err_set(err, SB_EXIT_RUN,
						"policy %s left %d job(s) waiting on an idle cluster "
						"for %d decisions (at t = %g s)", combo->label,
						n - s.ndone, IDLE_CALLS_MAX, s.now);
				break;
			}
		} else {
			idle_calls = 0;
		}
	}
	if (sp->release)
		sp->release(ctx);
	sim_release(&s);
	r->sim_seconds = sb_now() - t0;
	r->sim_cpu_seconds = sb_cpu_now() - c0;
	r->active_mean = r->decisions ? active_sum / (double)r->decisions : 0;
	if (rc)
		sb_cluster_result_release(r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Probing a placer on a frozen cluster state                          */
/* ------------------------------------------------------------------ */

int sb_cluster_probe_place(const struct sb_cluster *cl, const struct sb_jobset *js, int j,
			   const unsigned char *gpu_free, const struct sb_cluster_policy *pl,
			   const struct sb_opts *o, uint64_t seed, int *gpus, double *cut,
			   double *tau)
{
	struct sb_csim s;
	struct sb_cluster_result r;
	struct sb_cluster_combo cb;
	struct sb_rng rng = sb_rng_stream(seed, (uint64_t)j, 0,
					  SB_RNG_POLICY ^ sb_hash_str(pl->name));
	int N = cl->nserver * cl->gpus, x, v, rc, g = js->job[j].gpus;
	int *server = SB_NEW(int, g);
	unsigned char *seen = SB_NEW(unsigned char, N);

	memset(&s, 0, sizeof s);
	memset(&r, 0, sizeof r);
	memset(&cb, 0, sizeof cb);
	cb.place = pl;
	snprintf(cb.label, sizeof cb.label, "probe+%s", pl->name);
	s.cl = cl;
	s.js = js;
	s.combo = &cb;
	s.r = &r;
	s.view = SB_NEW(struct sb_job, js->n);
	memcpy(s.view, js->job, sizeof(struct sb_job) * (size_t)js->n);
	s.cj = SB_NEW(struct cjob, js->n);
	s.graph = SB_NEW(struct sb_jobgraph, js->n);
	r.tau_ref = SB_NEW(double, js->n);
	sb_jobgraph_build(&s.graph[j], &js->job[j], &js->model[js->job[j].model], cl);
	r.tau_ref[j] = sb_job_ref_placement(cl, &s.graph[j], server);
	s.cj[j].state = SB_JOB_PENDING;
	s.gpu_free = SB_NEW(unsigned char, N);
	s.free_srv = SB_NEW(int, cl->nserver);
	for (x = 0; x < N; x++) {
		s.gpu_free[x] = gpu_free[x] ? 1 : 0;
		s.free_srv[x / cl->gpus] += s.gpu_free[x];
		s.nfree += s.gpu_free[x];
	}
	rc = s.nfree >= g ? pl->place(&s, j, o, &rng, gpus) : -1;
	if (rc == 0) {
		for (v = 0; v < g; v++) {
			if (gpus[v] < 0 || gpus[v] >= N || !gpu_free[gpus[v]] || seen[gpus[v]])
				SB_BUG("placer %s chose GPU %d, which is not free or is twice",
				       pl->name, gpus[v]);
			seen[gpus[v]] = 1;
			server[v] = gpus[v] / cl->gpus;
		}
		if (cut)
			*cut = sb_jobgraph_cut(&s.graph[j], server);
		if (tau)
			*tau = sb_job_iter_time(cl, &s.graph[j], server);
	}
	sb_jobgraph_release(&s.graph[j]);
	sb_free(s.graph);
	sb_free(s.view);
	sb_free(s.cj);
	sb_free(s.gpu_free);
	sb_free(s.free_srv);
	sb_free(r.tau_ref);
	sb_free(server);
	sb_free(seen);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Topology-and-interference mode (spec marl.md §2, cluster/interf.h)  */
/* ------------------------------------------------------------------ */

/* Progress of running job j at now: what it had at prog_t plus what it
 * made since at its current speed (nothing during a restart overhead,
 * which ends at prog_t). */
static double topo_progress(const struct sb_csim *s, int j)
{
	const struct cjob *c = &s->cj[j];
	double p = c->prog;
	if (c->state == SB_JOB_RUNNING && s->now > c->prog_t)
		p += (s->now - c->prog_t) / c->tau;
	return p < (double)s->js->job[j].iters ? p : (double)s->js->job[j].iters;
}

static void piece_close(struct sb_csim *s, int j)
{
	struct cjob *c = &s->cj[j];
	if (c->piece >= 0)
		s->r->piece[c->piece].end = s->now;
	c->piece = -1;
}

/* Open a piece of j's current run at now with iteration time tau
 * (replacing one opened at this same instant: several starts in one
 * decision change a job's speed several times without time passing). */
static void piece_open(struct sb_csim *s, int j, double tau, double slow)
{
	struct cjob *c = &s->cj[j];
	struct sb_cluster_result *r = s->r;
	struct sb_cluster_piece *p;
	if (c->piece >= 0 && r->piece[c->piece].start == s->now) {
		p = &r->piece[c->piece];
	} else {
		piece_close(s, j);
		if (r->npiece == s->piece_cap) {
			s->piece_cap = s->piece_cap ? 2 * s->piece_cap : 1024;
			r->piece = sb_xrealloc(r->piece, sizeof *r->piece * (size_t)s->piece_cap);
		}
		c->piece = r->npiece++;
		p = &r->piece[c->piece];
		p->seg = c->seg;
		p->start = s->now;
	}
	p->end = NAN;
	p->tau = tau;
	p->slow = slow;
}

/*
 * Recompute the iteration time of every running job from the co-location
 * state (a start or stop changes the neighbours' speeds, and a cross-rack
 * job the ToR uplinks' sharing); a job whose speed changed banks its
 * progress at the old speed, opens a new piece and gets a new completion
 * event (older ones become stale through the epoch).
 */
static void speeds_refresh(struct sb_csim *s)
{
	const struct sb_interf *m = s->cl->interf;
	int i, n = s->nrun;
	for (i = 0; i < n; i++) {
		int j = s->run_list[i];
		const struct sb_job *job = &s->js->job[j];
		s->ij[i].id = j;
		s->ij[i].type = job->model;
		s->ij[i].w = job->gpus;
		s->ij[i].gpus = s->r->gpu + s->r->seg[s->cj[j].seg].gpu_off;
	}
	sb_interf_eval(m, s->ij, n, s->ij_S, s->ij_tau);
	for (i = 0; i < n; i++) {
		int j = s->run_list[i];
		struct cjob *c = &s->cj[j];
		double rem;
		if (c->piece >= 0 && c->tau == s->ij_tau[i])
			continue;
		if (c->piece >= 0 && s->now > c->prog_t) {
			c->prog = topo_progress(s, j);
			c->prog_t = s->now;
		}
		c->tau = s->ij_tau[i];
		piece_open(s, j, c->tau, s->ij_S[i]);
		rem = (double)s->js->job[j].iters - c->prog;
		c->epoch++;
		sb_heap_push(&s->ev, c->prog_t + (rem > 0 ? rem : 0) * c->tau,
			     ev_code(EV_FINISH, j, c->epoch));
	}
}

/* j has just started on its GPUs (its segment is open). */
static void topo_start(struct sb_csim *s, int j)
{
	struct cjob *c = &s->cj[j];
	c->prog_t = s->now + c->overhead;
	speeds_refresh(s);
	s->r->seg[c->seg].tau = c->tau;
}

/* j's run has just ended (finished or preempted; its GPUs are free): bank
 * its progress, close its piece, speed its neighbours up. */
static void topo_stop(struct sb_csim *s, int j)
{
	struct cjob *c = &s->cj[j];
	if (c->state == SB_JOB_RUNNING && s->now > c->prog_t) {
		c->prog += (s->now - c->prog_t) / c->tau;
		c->prog_t = s->now;
	}
	/* a finished job has made exactly n_j iterations: absorb rounding */
	if (c->done >= s->js->job[j].iters || c->prog > (double)s->js->job[j].iters)
		c->prog = (double)s->js->job[j].iters;
	piece_close(s, j);
	speeds_refresh(s);
}
