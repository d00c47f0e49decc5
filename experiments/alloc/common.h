/*
 * common.h - what the alloc-family experiments share: the comparison set
 * and medium ring-all-reduce instances of GADGET's figures (gadget.md §5,
 * §7; ours [O]) and running one policy through
 * the simulator and its checker with a stream keyed by the policy's name.
 */
#ifndef SB_EXPERIMENTS_ALLOC_COMMON_H
#define SB_EXPERIMENTS_ALLOC_COMMON_H

#include "alloc/alloc.h"
#include "alloc/bound.h"
#include "exp.h"
#include "workloads/alloc/alloc_wl.h"

/* gadget.md §7's series: GADGET-R, GADGET-PD and the comparison set. */
extern const char *const sb_alloc_exp_gadget_set[];

/* One medium instance of the GADGET figures: `servers` x 8 GPUs (PCIe
 * inside, 10 GbE across), DL2 job types, Poisson arrivals at `rate` jobs
 * per slot for `arrive` slots, a horizon of `slots` slots (at least the
 * last arrival), objective util. Jobs still running at the horizon count
 * with their capped progress: that is what the utilities compare. */
struct sb_alloc_exp_rar {
	int util;
	double rate;
	int arrive, slots, servers;
};
void sb_alloc_exp_rar_inst(struct sb_alloc_inst *in, const struct sb_alloc_exp_rar *x,
			   uint64_t seed, int point);

/* Run the registered policy `name` on in (checked by sb_alloc_run); its
 * random stream is keyed by (seed, point, name); *seconds = wall clock
 * (timing only). */
int sb_alloc_exp_run(const struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
		     const char *name, struct sb_alloc_result *r, double *seconds,
		     struct sb_err *err);

/* Run every policy of the NULL-terminated list `set` on in in turn and hand
 * each checked result to emit (which adds the rows); stops at the first
 * error. */
typedef void sb_alloc_exp_emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
			       const struct sb_alloc_result *r, double seconds);
int sb_alloc_exp_each(const struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
		      const char *const *set, sb_alloc_exp_emit *emit, void *arg,
		      struct sb_err *err);

/* gadget.md §7's series on in, one row each (gadget-F1 and F1p): util,
 * the column xcol = x (the load axis), rep, policy, jobs, utility,
 * unfinished, jct_mean, and shortfall = the best utility of these rows
 * minus its own (0 for the best). */
int sb_alloc_exp_gadget_rows(const struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
			     struct sb_table *out, int util, int rep, const char *xcol, double x,
			     struct sb_err *err);

/* The parameters and point layout the GADGET figures F2-F4 share: one
 * instance per (rep), run under EXC, ENE and FAIR in turn (point = util x
 * reps + rep, the instance keyed by rep alone: the same jobs for the three
 * objectives). */
#define SB_ALLOC_EXP_RAR_PARAMS(reps, rate) \
	{ "reps", reps, 1, 1000, 1, "instances per objective" }, \
	{ "rate", rate, 0.01, 1000, 0, "jobs arriving per slot" }, \
	{ "arrive", 48, 1, 10000, 1, "slots with arrivals" }, \
	{ "tail", 12, 0, 10000, 1, "slots after the arrivals before the horizon" }, \
	{ "servers", 8, 1, 4096, 1, "servers of 8 GPUs" }
/* setup of such an experiment (points and the inputs note). */
int sb_alloc_exp_rar_setup(struct sb_exp_ctx *c, struct sb_err *err);
/* run_point of such an experiment: builds the point's instance and runs the
 * GADGET comparison set, emit getting a struct sb_alloc_exp_rows. */
struct sb_alloc_exp_rows {
	struct sb_table *out;
	int util, rep;
};
int sb_alloc_exp_rar_run(struct sb_exp_ctx *c, int point, struct sb_table *out,
			 sb_alloc_exp_emit *emit, struct sb_err *err);

/* What the SMD figures (smd.md §8) share: DL2's job types and Tiresias's
 * per-layer tensor sizes read from DATA_DIR when there (sha256 recorded),
 * else the built-in types and synthetic layers; the inputs note says
 * which, followed by `arrivals`. setup puts it in c->state. */
struct sb_alloc_exp_smd {
	struct sb_alloc_types ty;
	struct sb_tensor_table tensors;
	int have_tensors;
	struct sb_alloc_speeds speeds;  /* DL2's config_speed.txt, when asked */
	int have_speeds;
};
/* speeds = 1 also reads dl2/config_speed.txt when it is there. */
int sb_alloc_exp_smd_setup(struct sb_exp_ctx *c, const char *arrivals, int speeds,
			   struct sb_err *err);
void sb_alloc_exp_smd_teardown(struct sb_exp_ctx *c);
/* The PS instance of point: njob jobs of random DL2 types, Poisson
 * arrivals at 3 per slot, `servers` servers of 8 GPUs and 24 CPUs,
 * W_i, P_i <= 12 (smd.md §5), run to completion. */
void sb_alloc_exp_smd_inst(const struct sb_exp_ctx *c, int point, int njob, int servers,
			   struct sb_alloc_inst *in);
/* The schemes of smd-F1 and F2 and their columns (jobs, servers, rep,
 * policy, jct_mean, flow_slots, unfinished, local, spread). */
extern const char *const sb_alloc_exp_smd_set[];
extern const struct sb_col sb_alloc_exp_smd_cols[];
/* Run the set on in with sb_alloc_exp_each and add its rows to out, with
 * spread = the slowest scheme's mean JCT over the fastest one's. */
int sb_alloc_exp_smd_compare(struct sb_exp_ctx *c, int point, const struct sb_alloc_inst *in,
			     struct sb_table *out, int servers, int rep, struct sb_err *err);
/* One job per DL2 type (sb_alloc_gen_each_type) from the experiment's
 * first instance stream, so smd-F3 and F6 see the same layers; worker and
 * PS caps kmax. */
void sb_alloc_exp_smd_types(const struct sb_exp_ctx *c, int kmax, struct sb_alloc_inst *in);
/* "tiresias" if job jb's layers are Tiresias's tensor sizes, else
 * "synthetic". */
const char *sb_alloc_exp_smd_layers(const struct sb_exp_ctx *c, const struct sb_alloc_job *jb);
/* The independent check of a round's choice (sb_alloc_mmkp_check) as an
 * experiment error naming the experiment and the method. */
int sb_alloc_exp_smd_check(const struct sb_alloc_mmkp *m, const int *choice, const char *exp,
			   const char *method, double *cost, struct sb_err *err);
/* Rows (jobs, servers, rep, policy, jct_mean, flow_slots, unfinished,
 * local) for sb_alloc_exp_each; arg is a struct sb_alloc_exp_smd_rows. */
struct sb_alloc_exp_smd_rows {
	struct sb_table *out;
	int servers, rep;
};
void sb_alloc_exp_smd_emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
			   const struct sb_alloc_result *r, double seconds);

/* ------------------------------------------------------------------ */
/* PS-locality figures F1-F3 and F6 (pslocality.md §5, §8; ours [O])   */
/* ------------------------------------------------------------------ */

/* pslocality.md §8's online series: RR-kappa (ours), OASiS, Optimus, DRF,
 * FIFO, Tetris, Local-first, Spread, Random. */
extern const char *const sb_alloc_exp_ps_set[];

/* The inputs of those figures: DL2's job types and Google-trace arrival
 * patterns from DATA_DIR when present (sha256 recorded), else the built-in
 * types and Poisson arrivals at intensity / 2 jobs per slot. */
struct sb_alloc_exp_psdata {
	struct sb_alloc_types ty;
	int *pat[6], npat[6];   /* pattern of intensity K = 1..5 (index K) */
	int real_pat;
};
int sb_alloc_exp_ps_setup(struct sb_exp_ctx *c, struct sb_err *err);
void sb_alloc_exp_ps_teardown(struct sb_exp_ctx *c);
/* One medium PS instance: `jobs` jobs arriving with intensity K (at most K
 * per slot), `servers` servers of 8 GPUs and 24 CPUs (DL2), objective JCT,
 * horizon `tail` slots after the last arrival; keyed by key. */
void sb_alloc_exp_ps_inst(struct sb_alloc_inst *in, const struct sb_exp_ctx *c, int K,
			  int servers, int jobs, int tail, int key);
/* The rounding studies' input (pslocality-F4-F6): one small seeded PS
 * instance (jobs x servers x slots, worker and PS caps 4, drawn from the
 * stream (seed, point, instance)), the time-indexed model over its whole
 * horizon and that model's LP relaxation, solved to optimality; *lp = the
 * LP optimum in flow slots, *seconds = the solve's wall clock (timing
 * only). On success in, m and res are the caller's (release them with
 * sb_alloc_exp_ps_lp_release); on error nothing is left to release and
 * err names the experiment and the instance. */
struct sb_alloc_exp_pslp {
	struct sb_alloc_inst in;
	struct sb_alloc_psmodel m;
	struct sb_lp_result res;
	double lp;
};
int sb_alloc_exp_ps_lp(const struct sb_exp_ctx *c, int point, int jobs, int servers, int slots,
		       struct sb_alloc_exp_pslp *x, double *seconds, struct sb_err *err);
void sb_alloc_exp_ps_lp_release(struct sb_alloc_exp_pslp *x);
/* `trials` randomized roundings of x's LP at scaling kappa
 * (algorithms/pslocality/rr.c, before repair), trial n from the stream
 * (seed, point, key0 + n), each one's statistics handed to emit. */
struct sb_rr_stats;
typedef void sb_alloc_exp_round_emit(void *arg, int trial, const struct sb_rr_stats *st);
void sb_alloc_exp_ps_rounds(const struct sb_exp_ctx *c, int point,
			    const struct sb_alloc_exp_pslp *x, double kappa, uint64_t key0,
			    int trials, sb_alloc_exp_round_emit *emit, void *arg);

/* Mean completion time in hours over all jobs, an unfinished job counted
 * to the horizon (flow slots x slot length / jobs). */
double sb_alloc_exp_ps_mean_h(const struct sb_alloc_inst *in, const struct sb_alloc_result *r);

#endif
