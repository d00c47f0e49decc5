/*
 * alloc.h - the alloc family: time-slotted elastic allocation of GPUs,
 * workers and parameter servers (PSs) to data-parallel training jobs.
 * Papers: GADGET (Yu et al., INFOCOM 2022), SMD (Yu et al., INFOCOM 2021)
 * and PS-locality (Yu et al., IEEE TNSE 2022); specs ../shared/papers/
 * gadget.md, smd.md, pslocality.md. Every model below is a reconstruction
 * [R] of those specs (the papers' full texts were not available); the
 * job-type constants come from DL2's public trace.py [V].
 *
 * Model. S servers with a capacity per resource (GPU, CPU); slots
 * t = 0..T-1 of slot_s seconds. Job j arrives at slot a_j and needs D_j
 * worker-steps (DL2: epochs x epoch_size). In a slot it holds a layout:
 * workers (and, in PS mode, PSs) on servers; the layout is *local* when
 * one server holds all of them. Its progress in the slot is
 *     pi_j = slot_s * w / tau_j(w, p, local)      worker-steps,
 * capped at what remains of D_j; the job completes inside the slot at the
 * fraction (D_j - P_j) / pi_j of it.
 *   ring-all-reduce (RAR, gadget.md §2): tau = c + 2 (w-1)/w * m / B,
 *     B = B_in when local, else B_out; no PSs.
 *   parameter server (PS, smd.md §2): per layer l of size s_l,
 *     q_l = max(2 s_l / B, 2 s_l w / (p B)); with wait-free back-
 *     propagation the gradients of layer l go out once its backward pass
 *     is done (forward c/3, backward 2c/3, split evenly over the layers);
 *     layered = 0 charges compute and communication in sequence instead.
 * Objectives (gadget.md §2, smd.md §2, pslocality.md §2): total utility
 * EXC (weight x capped progress fraction), ENE (EXC minus eta per
 * GPU-slot), FAIR (log(eps + progress fraction)), or JCT (flow time).
 *
 * One simulator (sim.c) owns the slot loop and calls one hook per slot;
 * one independent checker (check.c) replays every grant.
 */
#ifndef SB_ALLOC_H
#define SB_ALLOC_H

#include "opts.h"
#include "registry.h"
#include "rng.h"
#include "sb.h"

#define SB_ALLOC_NRES 2      /* resources per server: GPU, CPU */
#define SB_ALLOC_MAXK 64     /* the largest worker or PS cap of a job */

enum sb_alloc_mode { SB_ALLOC_RAR = 0, SB_ALLOC_PS = 1 };
enum sb_alloc_util { SB_ALLOC_EXC = 0, SB_ALLOC_ENE = 1, SB_ALLOC_FAIR = 2, SB_ALLOC_JCT = 3 };

struct sb_alloc_job {
	int arrival;            /* slot */
	int mode;               /* enum sb_alloc_mode */
	char model[32];         /* job type name (DL2) */
	double target;          /* D_j, worker-steps, > 0 */
	int max_workers;        /* K_j, 1..SB_ALLOC_MAXK */
	int max_ps;             /* PS cap (0 for RAR) */
	int req_workers;        /* workers the job asks for (fixed-count baselines) */
	double compute;         /* c_j: seconds per step on one worker, > 0 */
	double model_mb;        /* m_j */
	double bw_in, bw_out;   /* MB/s inside one server / across servers */
	double wdem[SB_ALLOC_NRES], pdem[SB_ALLOC_NRES]; /* per worker, per PS */
	double weight;          /* omega_j > 0 */
	int nlayer;             /* >= 1 (PS mode); layer sizes in layer_mb */
	double *layer_mb;       /* points into the instance's pool */
	int layered;            /* 1: wait-free back-propagation overlap */
};

struct sb_alloc_inst {
	int nserver;
	double (*cap)[SB_ALLOC_NRES];   /* per server (owned) */
	int nslot;              /* horizon T */
	double slot_s;          /* Delta */
	int util;               /* enum sb_alloc_util: the objective */
	double eta;             /* ENE: price of one GPU-slot, in utility */
	double eps;             /* FAIR: log(eps + fraction) */
	int njob;
	struct sb_alloc_job *job;       /* owned; sorted by arrival */
	double *pool;                   /* layer sizes (owned) */
	char source[256];
};

void sb_alloc_inst_release(struct sb_alloc_inst *in);
/* The name of an objective ("exc", ...) and back; -1 if unknown. */
const char *sb_alloc_util_name(int util);
int sb_alloc_util_parse(const char *s);

/* Step time tau (seconds) of job jb with w workers and p PSs (p ignored
 * for RAR), local or spread; layered = -1 uses the job's own setting. */
double sb_alloc_tau(const struct sb_alloc_job *jb, int w, int p, int local, int layered);
/* Progress of job j in one full slot (worker-steps); 0 for w = 0. */
double sb_alloc_rate(const struct sb_alloc_inst *in, int j, int w, int p, int local);
/* Utility of one job with final progress P and gpu_slots GPU-slots held. */
double sb_alloc_job_utility(const struct sb_alloc_inst *in, int j, double progress,
			    double gpu_slots);

/* ------------------------------------------------------------------ */
/* The per-slot plan a policy fills                                    */
/* ------------------------------------------------------------------ */

/* workers and PSs of one job on one server in one slot */
struct sb_alloc_grant {
	int job, server, workers, ps;
};

/*
 * The allocation of one slot, built by the policy's allocate hook through
 * the functions below (they keep free capacity and per-job totals, and
 * refuse what does not fit). Owned by the simulator.
 */
struct sb_alloc_plan {
	const struct sb_alloc_inst *in;
	int n, cap;
	struct sb_alloc_grant *g;       /* grants; a cleared one has 0 and 0 */
	double (*free)[SB_ALLOC_NRES];  /* per server */
	int *w, *p;                     /* per job totals */
	int *head, *next;               /* per job list of its grants */
};

/* Can job j get dw more workers and dp more PSs on server s (capacity,
 * caps, mode)? */
int sb_alloc_plan_fits(const struct sb_alloc_plan *pl, int j, int s, int dw, int dp);
/* Add them (SB_BUG if they do not fit: policies ask first). */
void sb_alloc_plan_add(struct sb_alloc_plan *pl, int j, int s, int dw, int dp);
/* Take back dw workers and dp PSs of j from server s (SB_BUG if it does
 * not hold them). */
void sb_alloc_plan_take(struct sb_alloc_plan *pl, int j, int s, int dw, int dp);
/* Take back everything job j holds in this slot. */
void sb_alloc_plan_clear(struct sb_alloc_plan *pl, int j);
/* Is job j's layout local (one server)? 1 also for no grant. */
int sb_alloc_plan_local(const struct sb_alloc_plan *pl, int j);
/* Free GPUs in all / on server s. */
double sb_alloc_plan_free(const struct sb_alloc_plan *pl, int s, int r);

struct sb_alloc_view;

/* Placement rules the policies share (place.c). */
enum sb_alloc_how {
	SB_ALLOC_PACK = 0,   /* a server the job already uses, else the first that fits */
	SB_ALLOC_LEAST = 1,  /* the server with the least used resources (Optimus) */
	SB_ALLOC_RANDOM = 2, /* a uniformly random server among those that fit */
};
/* PSs that go with k workers of job j: one per worker up to the PS cap
 * (DL2 bundles one PS with each worker); 0 for RAR jobs. */
int sb_alloc_ps_for(const struct sb_alloc_inst *in, int j, int k);
/* One more worker of j (and its bundled PS, on the same server) where
 * `how` says; rng only for SB_ALLOC_RANDOM. Returns the server, or -1 if
 * nothing fits. */
int sb_alloc_add_unit(struct sb_alloc_plan *pl, int j, int how, struct sb_rng *rng);
/* The server SB_ALLOC_LEAST picks for a unit of demand dem[r] (resources
 * only: the caller has checked the job's caps), or -1 if none has room. */
int sb_alloc_least_server(const struct sb_alloc_plan *pl, const double *dem);
/* Replace j's layout by k workers (and their PSs) embedded as GADGET-R
 * does (gadget.md §3 step 2): the best-fitting single server that holds
 * them all, else servers by free GPUs, most first, until covered. Leaves
 * the old layout and returns 0 if they do not fit. */
int sb_alloc_embed(struct sb_alloc_plan *pl, int j, int k);
/* The same with kp PSs instead of the bundled count. */
int sb_alloc_embed_wp(struct sb_alloc_plan *pl, int j, int k, int kp);
/* Workers of j (with their bundled PSs) that fit on the roomiest single
 * server (*one) and on all servers together (*all), counting what j holds
 * in this slot as free. */
void sb_alloc_room(struct sb_alloc_plan *pl, int j, int *one, int *all);
/* Exactly k workers of j (and their PSs) unit by unit where `how` says,
 * on top of nothing it holds; all or nothing: 1 if placed, else j holds
 * nothing and 0. */
int sb_alloc_place_k(struct sb_alloc_plan *pl, int j, int k, int how, struct sb_rng *rng);
/* The active jobs of v sorted by key[job] ascending, ties in arrival
 * order, into out[0..v->nactive). */
void sb_alloc_order(const struct sb_alloc_view *v, const double *key, int *out);
/* Progress of j in this slot with its planned layout. */
double sb_alloc_plan_rate(const struct sb_alloc_plan *pl, int j);

/* ------------------------------------------------------------------ */
/* The policy interface                                                */
/* ------------------------------------------------------------------ */

/* What the simulator shows a policy at the start of slot t. */
struct sb_alloc_view {
	const struct sb_alloc_inst *in;
	int t;
	int nactive;
	const int *active;      /* arrived, unfinished jobs, in arrival order */
	const double *progress; /* per job, worker-steps done so far */
	const double *attained; /* per job, GPU-seconds received so far */
	const int *prev_w, *prev_p; /* per job, last slot's totals */
};

struct sb_alloc_policy {
	const char *name;        /* = file name = CLI name */
	const char *cite;        /* "Authors, Title, Venue Year" */
	const char *desc;        /* one line */
	const char *provenance;  /* "reconstructed", "verified: ...", "ours" */
	const struct sb_param *params;   /* NULL-terminated, or NULL */
	/* The job modes it schedules: a bit (1 << enum sb_alloc_mode) per
	 * mode; 0 means both. The simulator refuses an instance with a job of
	 * another mode (SB_EXIT_INPUT). */
	unsigned modes;
	/* Once before slot 0 (optional): private state, owned by the policy
	 * and freed by release. May draw from rng only. */
	void *(*init)(const struct sb_alloc_inst *in, const struct sb_opts *o,
		      struct sb_rng *rng);
	void (*release)(void *ctx);
	/* Every slot with active jobs: fill pl (empty, full capacity) through
	 * sb_alloc_plan_*. Returns 0 or an exit code with err. */
	int (*allocate)(void *ctx, const struct sb_alloc_view *v, const struct sb_opts *o,
			struct sb_rng *rng, struct sb_alloc_plan *pl, struct sb_err *err);
};
SB_REGISTERED(sb_alloc_policy);

const struct sb_alloc_policy *const *sb_alloc_policies(int *n);
const struct sb_alloc_policy *sb_alloc_policy_find(const char *name);
const char *sb_alloc_policy_file(const struct sb_alloc_policy *p);

/* ------------------------------------------------------------------ */
/* Results, simulator, checker                                         */
/* ------------------------------------------------------------------ */

struct sb_alloc_result {
	int nslot;              /* slots simulated (<= in->nslot) */
	int ngrant;
	struct sb_alloc_grant *grant;   /* every grant of every slot */
	int *slot_off;          /* nslot + 1 offsets into grant */
	double *progress;       /* per job: worker-steps done (<= target) */
	double *finish;         /* per job: completion time in s, or -1 */
	double *gpu_slots;      /* per job: GPU-slots held */
	double *busy;           /* per slot: GPUs held */
	/* metrics (the checker recomputes each) */
	double utility;         /* sum of job utilities under in->util */
	double jct_mean;        /* mean completion - arrival time, s (finished jobs) */
	double flow_slots;      /* sum over jobs of (completion slot - arrival + 1);
	                           an unfinished job counts T - a_j + 1 */
	int unfinished;
	long job_slots, local_slots; /* job-slots with workers; of which local */
};
void sb_alloc_result_release(struct sb_alloc_result *r);

/* Does p schedule every job of in (its modes)? */
int sb_alloc_policy_fits(const struct sb_alloc_policy *p, const struct sb_alloc_inst *in);
/* Run policy p on in (the simulator owns the loop), then validate with the
 * checker; a rejected run is SB_EXIT_RUN, never a result. */
int sb_alloc_run(const struct sb_alloc_inst *in, const struct sb_alloc_policy *p,
		 const struct sb_opts *o, struct sb_rng *rng, struct sb_alloc_result *r,
		 struct sb_err *err);
/* The independent checker: 0 if r is a valid run of in (indices, arrival
 * and completion windows, one layout per job and server per slot, mode,
 * worker and PS caps, capacity, progress capped and recomputed, finish
 * times and metrics recomputed), else 1 with why[] filled. */
int sb_alloc_check(const struct sb_alloc_inst *in, const struct sb_alloc_result *r,
		   char *why, size_t len);

/* `sb eval alloc ...` (family.c) and the family's entry in the table. */
int sb_alloc_eval(int argc, char **argv);
extern const struct sb_family sb_family_alloc;
/* The family's `sb adversary` hook (adversary.c). */
struct sb_adversary;
extern const struct sb_adversary sb_alloc_adversary;
/* The instance the hook's context (its open) codes by gene, for the tests.
 * Owner: in (sb_alloc_inst_release). */
void sb_alloc_adversary_decode(void *ctx, const int *gene, struct sb_alloc_inst *in);

#endif
