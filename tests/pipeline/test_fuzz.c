/*
 * test_fuzz.c - the mutation fuzzer (tests/fuzz.h) on the layer-profile
 * loaders of the pipeline family (workloads/pipeline/load.h): PipeDream
 * and DAPPLE profiles.
 */
#include <criterion/criterion.h>

#include <math.h>
#include <string.h>

#include "tests/fuzz.h"
#include "workloads/pipeline/load.h"

/* ------------------------------------------------------------------ */
/* Seeds                                                              */
/* ------------------------------------------------------------------ */

/* Layer profiles (graph.txt layout): tab / two-space / space+tab edge
 * lines, a list activation, an Input source, a __getitem__ sink, a late
 * second source, stage_id, non-contiguous ids, no final newline. */
static const char *const profile_seeds[] = {
	"node10 -- Input -- forward_compute_time=5.0, backward_compute_time=0.0, "
	"activation_size=100.0, parameter_size=0.0\n"
	"node20 -- Conv -- forward_compute_time=2.0, backward_compute_time=4.0, "
	"activation_size=[10.0; 30.0], parameter_size=8.0\n"
	"node7 -- BranchA -- forward_compute_time=1, backward_compute_time=2, "
	"activation_size=20, parameter_size=4\n"
	"node30 -- BranchB -- forward_compute_time=3, backward_compute_time=6, "
	"activation_size=5, parameter_size=0 -- stage_id=1\n"
	"node40 -- Add -- forward_compute_time=0.5, backward_compute_time=0.5, "
	"activation_size=40, parameter_size=0\n"
	"node50 -- __getitem__(0) -- forward_compute_time=0, backward_compute_time=0, "
	"activation_size=7, parameter_size=0\n"
	"node5 -- hidden -- forward_compute_time=0.25, backward_compute_time=0, "
	"activation_size=6, parameter_size=2\n"
	"\tnode10 -- node20\n  node20 -- node7\n \tnode20 -- node30\n"
	"\tnode7 -- node40\n\tnode30 -- node40\n\tnode5 -- node40\n\tnode40 -- node50",
	"node1 -- input_ids -- forward_compute_time=0.01, backward_compute_time=0, "
	"activation_size=9216, parameter_size=0\n"
	"node2 -- attention_mask -- forward_compute_time=0.011, backward_compute_time=0, "
	"activation_size=3538944, parameter_size=0 \n"
	"node3 -- layer_0 -- forward_compute_time=2.69, backward_compute_time=4.47, "
	"activation_size=4325376, parameter_size=50384896\n"
	"node4 -- layer_1 -- forward_compute_time=2.69, backward_compute_time=4.47, "
	"activation_size=4325376, parameter_size=50384896\n\n"
	"\tnode1 -- node2\n\tnode1 -- node3\n\tnode2 -- node3\n\tnode3 -- node4\n"
	"\tnode2 -- node4\n",
};

/* ------------------------------------------------------------------ */
/* Tests                                                              */
/* ------------------------------------------------------------------ */

/* A model as the profile loaders promise it. */
static void check_pmodel(const struct sb_pmodel *m, const char *path, int pbs)
{
	int i;

	cr_assert_gt(m->n, 0);
	cr_assert_not_null(m->layer);
	cr_assert_eq(m->pbs, pbs);
	cr_assert(memchr(m->name, '\0', sizeof m->name) && m->name[0]);
	cr_assert(!strncmp(m->source, "real: ", 6) && strstr(m->source, path),
		  "source %s", m->source);
	for (i = 0; i < m->n; i++) {
		const struct sb_layer *l = &m->layer[i];
		cr_assert(memchr(l->name, '\0', sizeof l->name));
		cr_assert(isfinite(l->fwd) && l->fwd >= 0);
		cr_assert(isfinite(l->bwd) && l->bwd >= 0);
		cr_assert(isfinite(l->act) && l->act >= 0);
		cr_assert(isfinite(l->stash) && l->stash >= 0);
		cr_assert(isfinite(l->params) && l->params >= 0);
	}
}

/* A profile loaded by either loader: checked, or rejected and zeroed. */
static int profile_result(int rc, const struct sb_err *err, struct sb_pmodel *m,
			  const char *path, int pbs)
{
	int ok = sb_test_accepted(rc, err, path);

	if (ok)
		check_pmodel(m, path, pbs);
	else
		cr_assert(m->n == 0 && !m->layer && !m->source[0], "not zeroed");
	sb_pmodel_release(m);
	return ok;
}

/* r: the profile batch size given to the loader. */
FUZZ(pipedream_profile, profile_seeds, 4, sb_test_mutate, "")
{
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	int pbs = 1 + (int)sb_rng_below(r, 64);
	return profile_result(sb_load_pipedream_profile(path, pbs, &m, &err), &err, &m, path,
			      pbs);
}

/* DAPPLE's loader reads the profile batch size from the file name. */
FUZZ(dapple_profile, profile_seeds, 4, sb_test_mutate, "-pbs-4.txt")
{
	struct sb_pmodel m;
	struct sb_err err = { 0 };
	return profile_result(sb_load_dapple_profile(path, &m, &err), &err, &m, path, 4);
}
