/*
 * alloc_smd_jobs.c - figure smd-F1 (smd.md §8, ours [O]): mean job
 * completion time against the number of parameter-server jobs, for SMD
 * (reconstructed), its layer-oblivious ablation and the PS-mode baselines
 * (Optimus, DRF, FIFO, Tetris, SRTF), every run to completion and checked.
 * Inputs: DL2's job-type table and Tiresias's per-layer tensor sizes when
 * DATA_DIR has them (sha256 recorded), else the built-in transcription and
 * synthetic layers; 20 servers of 8 GPUs and 24 CPUs (smd.md §5), Poisson
 * arrivals at 3 jobs per slot, so more jobs means a longer busy period.
 */
#include "common.h"

#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 5, 1, 1000, 1, "instances per size" },
	{ "sizes", 3, 1, 8, 1, "job counts 50, 100, 200, ... (this many)" },
	{ "servers", 20, 1, 4096, 1, "servers of 8 GPUs and 24 CPUs" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "jobs", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jct_mean", SB_COL_DBL, "s" },
	{ "flow_slots", SB_COL_DBL, "slots" },
	{ "unfinished", SB_COL_INT, "" },
	{ "local", SB_COL_DBL, "" },
	{ NULL, 0, NULL },
};

static const char *const set[] = {
	"smd", "smd-oblivious", "optimus", "drf", "fifo", "tetris", "srtf", NULL,
};

struct state {
	struct sb_alloc_types ty;
	struct sb_tensor_table tensors;
	int have_tensors;
};

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	struct state *s = SB_NEW(struct state, 1);
	char buf[1024];
	const char *p;
	int rc;

	c->state = s;
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	sb_alloc_types_builtin(&s->ty);
	if ((p = sb_exp_data(c, "dl2/dl2_job_types.csv", buf, sizeof buf)) &&
	    ((rc = sb_alloc_load_types(p, &s->ty, err)) || (rc = sb_exp_add_input(c, p, err))))
		return rc;
	if ((p = sb_exp_data(c, "tiresias/tiresias_model_tensors.csv", buf, sizeof buf))) {
		if ((rc = sb_load_model_tensors(p, &s->tensors, err)) ||
		    (rc = sb_exp_add_input(c, p, err)))
			return rc;
		s->have_tensors = 1;
	}
	snprintf(c->inputs_note, sizeof c->inputs_note, "%s; %s; Poisson arrivals (synthetic)",
		 s->ty.source[0] == 'f' ? "real: DL2 job types" : "synthetic fallback: built-in DL2 types",
		 s->have_tensors ? "real: Tiresias tensor sizes (resnet-50, vgg-16)" :
				   "synthetic fallback: log-uniform layers");
	return 0;
}

static void teardown(struct sb_exp_ctx *c)
{
	struct state *s = c->state;
	if (!s)
		return;
	if (s->have_tensors)
		sb_tensor_table_release(&s->tensors);
	sb_free(s);
}

struct emit {
	struct sb_table *out;
	int rep;
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct emit *e = arg;
	size_t row = sb_table_add(e->out);
	(void)seconds;
	sb_table_set_int(e->out, row, "jobs", in->njob);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_dbl(e->out, row, "jct_mean", r->jct_mean);
	sb_table_set_dbl(e->out, row, "flow_slots", r->flow_slots);
	sb_table_set_int(e->out, row, "unfinished", r->unfinished);
	sb_table_set_dbl(e->out, row, "local",
			 r->job_slots ? (double)r->local_slots / r->job_slots : 1);
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	struct state *s = c->state;
	int reps = (int)sb_opts_get(&c->opts, "reps"), rc;
	struct emit e = { out, point % reps };
	struct sb_alloc_genp g;
	struct sb_alloc_inst in;
	struct sb_rng gen = sb_rng_stream(c->seed, (uint64_t)point, 0, SB_RNG_INSTANCE);

	(void)timing;
	sb_alloc_genp_defaults(&g, SB_ALLOC_PS);
	g.njob = 50 << (point / reps);
	g.nserver = (int)sb_opts_get(&c->opts, "servers");
	g.kmax = g.pmax = 12;   /* smd.md §5: W_i, P_i <= 12 */
	sb_alloc_gen(&in, &g, &s->ty, NULL, 0, s->have_tensors ? &s->tensors : NULL, &gen);
	rc = sb_alloc_exp_each(c, point, &in, set, emit, &e, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_smd_jobs = {
	.name = "alloc_smd_jobs",
	.desc = "mean JCT of parameter-server jobs against their number (SMD reconstructed)",
	.figure = "smd-F1",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=2",
	.cols = cols,
	.summary_by = "jobs policy",
	.summary_of = "jct_mean",
	.setup = setup,
	.run_point = run_point,
	.teardown = teardown,
};
