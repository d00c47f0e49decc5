/*
 * common.h - what the sync family's experiments share: the world of one
 * replicate (data, workers, threshold) built from the experiment's options,
 * one checked run of a policy, and the per-scheme ranking columns.
 * Ours [O]: the small-scale reproduction of papers/adsp.md §7, with two
 * departures kept on purpose and labelled in every experiment: the
 * Gaussian mixture's class spread is 0.4 (adsp.md: 1.5, which every scheme
 * learns within a few check periods, leaving nothing to compare) and the
 * slowest worker's step is 1.0 s (adsp.md: 0.2 s; a round trip of the
 * x30-inflated MLP costs 0.3-2 s, i.e. up to ten of the slowest worker's
 * steps at 0.2 s, where the authors' CIFAR run had about one: 0.3-1 s per
 * step against a comparable transfer).
 */
#ifndef SB_SYNC_EXP_COMMON_H
#define SB_SYNC_EXP_COMMON_H

#include "exp.h"
#include "sync/sync.h"

/* The slowest worker's step, s (departure from adsp.md §7: 0.2 s). */
#define SB_SYNC_EXP_SLOW 1.0

/* The options every sync experiment reads (put them in its params):
 * "mlp", "horizon", "sep" and "digits" (default d). */
#define SB_SYNC_EXP_PARAMS_D(d) \
	{ "mlp", 1, 0, 1, 1, "1: MLP 64-64-10, 0: softmax regression" }, \
	{ "horizon", 4000, 10, 1e6, 0, "simulated seconds" }, \
	{ "sep", 0.4, 0.01, 10, 0, "Gaussian-mixture class-mean spread (adsp.md: 1.5)" }, \
	{ "digits", d, 0, 1, 1, "1: the scikit-learn digits from DATA_DIR/digits/digits.csv " \
	  "when present (else the mixture)" }
#define SB_SYNC_EXP_PARAMS SB_SYNC_EXP_PARAMS_D(0)
/* The system of most experiments: M workers at heterogeneity H. */
#define SB_SYNC_EXP_SYSTEM \
	{ "workers", 18, 1, 1000, 1, "workers M" }, \
	{ "h", 2.6, 1, 100, 0, "heterogeneity H = mean v / min v" }

/* setup's part: the inputs note, and the digits file (sha256 recorded)
 * when digits=1 and DATA_DIR has it; c->state then holds its path
 * (freed by sb_sync_exp_teardown). */
int sb_sync_exp_setup(struct sb_exp_ctx *c, struct sb_err *err);
void sb_sync_exp_teardown(struct sb_exp_ctx *c);

/* The world of replicate `rep` with m workers at heterogeneity h: the same
 * data, initial model and bandwidths for every h and m of one replicate
 * (common random numbers), convergence threshold 1.05 x the single-node
 * loss after 30 epochs, runs stopped at convergence. */
int sb_sync_exp_world(struct sb_exp_ctx *c, int rep, int m, double h,
		      struct sb_sync_world *w, struct sb_err *err);

/* Run policy `name` with its defaults and then `set` ("k=v,k=v" or NULL);
 * the simulator runs the checker, so a returned result is valid. */
int sb_sync_exp_run(const struct sb_sync_inst *in, const char *name, const char *set,
		    struct sb_sync_result *r, struct sb_err *err);

/* Convergence time, or the horizon when the run did not converge (a lower
 * bound on its convergence time: the figures and ratios use it). */
double sb_sync_exp_conv(const struct sb_sync_inst *in, const struct sb_sync_result *r);

/* Rows of a scheme comparison: for each run i, the columns "policy",
 * "conv_time", "converged", "conv_eff", "vs_adsp" (conv_eff over ADSP's, 0
 * when ADSP is not among them), "n_faster", "n_slower", "compute",
 * "blocked", "comm" (per worker), "steps", "steps_per_s", "target" and
 * "gap_bound"; the caller sets its own key columns on rows first..first+n-1. */
void sb_sync_exp_rows(const struct sb_sync_inst *in, const char *const *names,
		      const struct sb_sync_result *r, int n, struct sb_table *out,
		      size_t first);
/* The matching column schema entries, to put in the experiment's cols. */
#define SB_SYNC_EXP_COLS \
	{ "policy", SB_COL_STR, "" }, \
	{ "conv_time", SB_COL_DBL, "s (-1: not converged)" }, \
	{ "converged", SB_COL_INT, "" }, \
	{ "conv_eff", SB_COL_DBL, "s (the horizon if not converged)" }, \
	{ "vs_adsp", SB_COL_DBL, "conv_eff / ADSP's" }, \
	{ "n_faster", SB_COL_INT, "schemes" }, \
	{ "n_slower", SB_COL_INT, "schemes" }, \
	{ "compute", SB_COL_DBL, "s per worker" }, \
	{ "blocked", SB_COL_DBL, "s per worker" }, \
	{ "comm", SB_COL_DBL, "s per worker" }, \
	{ "steps", SB_COL_INT, "" }, \
	{ "steps_per_s", SB_COL_DBL, "steps per simulated s" }, \
	{ "target", SB_COL_DBL, "loss" }, \
	{ "gap_bound", SB_COL_DBL, "time to the steps / wait-free bound" }

/* Run the schemes names[0..n-1] on w and add their rows; the caller's key
 * columns are set through set_keys(out, row, arg) on each new row. With
 * curves = 1 the table has SB_SYNC_EXP_CURVE_COLS too: each run also adds
 * its loss curve, and its totals row gets kind = "scheme". */
int sb_sync_exp_schemes(const struct sb_sync_world *w, const char *const *names, int n,
			int curves, struct sb_table *out,
			void (*set_keys)(struct sb_table *out, size_t row, const void *arg),
			const void *arg, struct sb_err *err);

/* Loss curves: one row per full check (multiples of Γ) of run r, with
 * "kind" = "curve", "policy" = name, "t" = check time + shift (a search
 * done before the run), "loss" and "csteps" (steps so far); set_keys sets
 * the caller's key columns first. */
void sb_sync_exp_curve(const char *name, const struct sb_sync_result *r, double shift,
		       struct sb_table *out,
		       void (*set_keys)(struct sb_table *out, size_t row, const void *arg),
		       const void *arg);
#define SB_SYNC_EXP_CURVE_COLS \
	{ "kind", SB_COL_STR, "curve: a check of a loss curve; scheme: a run's totals" }, \
	{ "t", SB_COL_DBL, "s (simulated)" }, \
	{ "loss", SB_COL_DBL, "global test loss" }, \
	{ "csteps", SB_COL_INT, "steps so far" }

/* A sweep of one world setting over fixed values x reps (F3, F4, F8): point
 * p is replicate p / n at value vals[p % n]; every scheme runs on that
 * world, and its rows carry "rep" and the column `col` (the value). */
enum sb_sync_sweep_of { SB_SYNC_SWEEP_H, SB_SYNC_SWEEP_WORKERS, SB_SYNC_SWEEP_DELAY };
struct sb_sync_sweep {
	enum sb_sync_sweep_of of;   /* H, workers (vals: multiples of "workers"), delay */
	const char *col;            /* its column (SB_COL_INT for workers, else DBL) */
	const double *vals;
	int n;
	const char *const *schemes;
	int ns;
};
int sb_sync_exp_sweep_setup(struct sb_exp_ctx *c, const struct sb_sync_sweep *sw,
			    struct sb_err *err);
int sb_sync_exp_sweep_point(struct sb_exp_ctx *c, const struct sb_sync_sweep *sw, int point,
			    struct sb_table *out, struct sb_err *err);
/* The experiment's setup and run_point for the sweep `sw` (a static const
 * struct sb_sync_sweep of the file). */
#define SB_SYNC_SWEEP_HOOKS(sw) \
	static int setup(struct sb_exp_ctx *c, struct sb_err *err) \
	{ \
		return sb_sync_exp_sweep_setup(c, &(sw), err); \
	} \
	static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out, \
			     struct sb_table *timing, struct sb_err *err) \
	{ \
		return sb_sync_exp_sweep_point(c, &(sw), point, out, err); \
	}

/* The F1 comparison (sync_schemes, sync_digits): one point per seed, every
 * scheme (BSP, SSP, Fixed ADACOMM, ADACOMM, ADSP, ASP) on the same world;
 * options "reps", "workers" and "h" besides SB_SYNC_EXP_PARAMS. */
extern const struct sb_col sb_sync_exp_f1_cols[];
int sb_sync_exp_f1_setup(struct sb_exp_ctx *c, struct sb_err *err);
int sb_sync_exp_f1_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
			 struct sb_table *timing, struct sb_err *err);
/* F2 (sync_curves): the same schemes, each run lasting the whole horizon,
 * with loss curves (columns SB_SYNC_EXP_CURVE_COLS too) */
int sb_sync_exp_curves_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
			     struct sb_table *timing, struct sb_err *err);

#endif
