/*
 * fuzzcheck.c - the dag family's checks of accepted inputs for the
 * libFuzzer harnesses (fuzzcheck.h).
 */
#include "tests/dag/fuzzcheck.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dag/bound.h"
#include "tests/fuzzkit.h"

void sb_fuzz_dag_graph(const struct sb_dag *g)
{
	char *seen;
	int i, k;

	SB_FUZZ_CHECK(g->n > 0 && g->m >= 0, "graph of %d ops, %d edges", g->n, g->m);
	seen = calloc((size_t)g->n, 1);
	SB_FUZZ_CHECK(seen != NULL, "out of memory");
	for (i = 0; i < g->n; i++) {
		int v = g->topo[i];
		SB_FUZZ_CHECK(v >= 0 && v < g->n && !seen[v], "topo is not a permutation");
		seen[v] = 1;
		SB_FUZZ_CHECK(isfinite(g->ops[i]) && g->ops[i] >= 0, "op %d: ops %g", i, g->ops[i]);
		SB_FUZZ_CHECK(isfinite(g->out[i]) && g->out[i] >= 0, "op %d: out %g", i, g->out[i]);
		SB_FUZZ_CHECK(isfinite(g->ram[i]) && g->ram[i] >= 0, "op %d: ram %g", i, g->ram[i]);
		SB_FUZZ_CHECK(g->comp[i] >= 0 && g->comp[i] < g->ncomp, "op %d: component", i);
	}
	free(seen);
	SB_FUZZ_CHECK(g->succ_off[0] == 0 && g->succ_off[g->n] == g->m, "CSR offsets");
	SB_FUZZ_CHECK(g->pred_off[0] == 0 && g->pred_off[g->n] == g->m, "CSR offsets");
	for (i = 0; i < g->n; i++)
		for (k = g->succ_off[i]; k < g->succ_off[i + 1]; k++)
			SB_FUZZ_CHECK(g->succ[k] >= 0 && g->succ[k] < g->n && g->succ[k] != i &&
				      isfinite(g->succ_size[k]) && g->succ_size[k] >= 0,
				      "op %d: edge %d", i, k);
}

void sb_fuzz_dag_devices(const struct sb_devices *d)
{
	int i, k;

	SB_FUZZ_CHECK(d->n > 0, "%d devices", d->n);
	for (i = 0; i < d->n; i++) {
		SB_FUZZ_CHECK(isfinite(d->speed[i]) && d->speed[i] > 0, "device %d: speed %g", i,
			      d->speed[i]);
		SB_FUZZ_CHECK(d->mem[i] >= 0, "device %d: memory %g", i, d->mem[i]);
		for (k = 0; k < d->n; k++)
			SB_FUZZ_CHECK(k == i || (d->rate[i * d->n + k] > 0 &&
						 d->rate[i * d->n + k] == d->rate[k * d->n + i]),
				      "rate %d-%d: %g", i, k, d->rate[i * d->n + k]);
	}
}

void sb_fuzz_dag_inst(const struct sb_dag_inst *in, int choice)
{
	static const char *const combos[] = { "heft", "hash+fifo", "cp+pct" };
	const char *label = combos[choice % 3];
	struct sb_dag_combo c;
	struct sb_opts po, so;
	struct sb_dag_metrics m;
	struct sb_dag_bounds b;
	struct sb_rng rng = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
	struct sb_err err = { 0, "" };
	int rc, v, d;

	sb_fuzz_dag_graph(&in->g);
	sb_fuzz_dag_devices(&in->dev);
	if (in->etc)
		for (v = 0; v < in->g.n; v++)
			for (d = 0; d < in->dev.n; d++)
				SB_FUZZ_CHECK(in->etc[v * in->dev.n + d] >= 0 &&
					      !isnan(in->etc[v * in->dev.n + d]),
					      "etc %d,%d: %g", v, d, in->etc[v * in->dev.n + d]);
	SB_FUZZ_CHECK(sb_dag_combo_parse(&c, label, &err) == 0, "%s", err.msg);
	sb_opts_defaults(&po, c.part->params);
	sb_opts_defaults(&so, c.sched->params);
	rc = sb_dag_run_combo(in, &c, &po, &so, &rng, &m, NULL, &err);
	SB_FUZZ_CHECK(rc == 0 || rc == SB_EXIT_INPUT, "%s on an accepted instance: %s", label,
		      err.msg);
	if (rc)
		return;
	sb_dag_lower_bounds(in, &b);
	SB_FUZZ_CHECK(isfinite(m.makespan) && m.makespan >= 0, "%s: makespan %g", label,
		      m.makespan);
	SB_FUZZ_CHECK(m.makespan >= b.lb * (1 - 1e-9), "%s: makespan %.17g below the bound %.17g",
		      label, m.makespan, b.lb);
}
