/*
 * alloc_gadget_time.c - figure gadget-F5 (gadget.md §7, ours [O]):
 * scheduler runtime per slot against the cluster size, under EXC, for the
 * GADGET comparison set. The arrival rate grows with the cluster (rate =
 * servers / 2 jobs per slot), so the load per GPU stays the same. The
 * runtimes are wall-clock (the `timing` dataset, not bit-identical); the
 * points dataset keeps what is deterministic (slots simulated, utility).
 */
#include "common.h"

#include <math.h>
#include <stdio.h>

static const struct sb_param params[] = {
	{ "reps", 3, 1, 1000, 1, "instances per size" },
	{ "sizes", 4, 1, 8, 1, "cluster sizes 8, 16, 32, ... servers (this many)" },
	{ "arrive", 48, 1, 10000, 1, "slots with arrivals" },
	{ "tail", 12, 0, 10000, 1, "slots after the arrivals before the horizon" },
	{ NULL, 0, 0, 0, 0, NULL },
};

static const struct sb_col cols[] = {
	{ "servers", SB_COL_INT, "" },
	{ "gpus", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "jobs", SB_COL_INT, "" },
	{ "slots", SB_COL_INT, "" },
	{ "utility", SB_COL_DBL, "utility units" },
	{ NULL, 0, NULL },
};

static const struct sb_col timing_cols[] = {
	{ "servers", SB_COL_INT, "" },
	{ "rep", SB_COL_INT, "" },
	{ "policy", SB_COL_STR, "" },
	{ "ms_per_slot", SB_COL_DBL, "ms" },
	{ NULL, 0, NULL },
};

struct emit {
	struct sb_table *out, *timing;
	int servers, rep;
};

static void emit(void *arg, const char *policy, const struct sb_alloc_inst *in,
		 const struct sb_alloc_result *r, double seconds)
{
	struct emit *e = arg;
	size_t row = sb_table_add(e->out);
	sb_table_set_int(e->out, row, "servers", e->servers);
	sb_table_set_int(e->out, row, "gpus", 8 * e->servers);
	sb_table_set_int(e->out, row, "rep", e->rep);
	sb_table_set_str(e->out, row, "policy", policy);
	sb_table_set_int(e->out, row, "jobs", in->njob);
	sb_table_set_int(e->out, row, "slots", r->nslot);
	sb_table_set_dbl(e->out, row, "utility", r->utility);
	if (e->timing) {
		row = sb_table_add(e->timing);
		sb_table_set_int(e->timing, row, "servers", e->servers);
		sb_table_set_int(e->timing, row, "rep", e->rep);
		sb_table_set_str(e->timing, row, "policy", policy);
		sb_table_set_dbl(e->timing, row, "ms_per_slot",
				 1e3 * seconds / (r->nslot > 0 ? r->nslot : 1));
	}
}

static int setup(struct sb_exp_ctx *c, struct sb_err *err)
{
	(void)err;
	c->npoints = (int)sb_opts_get(&c->opts, "sizes") * (int)sb_opts_get(&c->opts, "reps");
	snprintf(c->inputs_note, sizeof c->inputs_note,
		 "synthetic: DL2 job types (built in), Poisson arrivals");
	return 0;
}

static int run_point(struct sb_exp_ctx *c, int point, struct sb_table *out,
		     struct sb_table *timing, struct sb_err *err)
{
	int reps = (int)sb_opts_get(&c->opts, "reps"), rc;
	struct emit e = { out, timing, 8 << (point / reps), point % reps };
	struct sb_alloc_exp_rar x = { SB_ALLOC_EXC, e.servers / 2.0,
				      (int)sb_opts_get(&c->opts, "arrive"), 0, e.servers };
	struct sb_alloc_inst in;

	x.slots = x.arrive + (int)sb_opts_get(&c->opts, "tail");
	sb_alloc_exp_rar_inst(&in, &x, c->seed, point);
	rc = sb_alloc_exp_each(c, point, &in, sb_alloc_exp_gadget_set, emit, &e, err);
	sb_alloc_inst_release(&in);
	return rc;
}

const struct sb_experiment sb_experiment_alloc_gadget_time = {
	.name = "alloc_gadget_time",
	.desc = "scheduler runtime per slot against the cluster size, EXC (GADGET-R and GADGET-PD reconstructed)",
	.figure = "gadget-F5",
	.family = "alloc",
	.params = params,
	.quick_set = "reps=1 sizes=2 arrive=24 tail=6",
	.cols = cols,
	.timing_cols = timing_cols,
	.summary_by = "servers policy",
	.summary_of = "utility",
	.setup = setup,
	.run_point = run_point,
};
