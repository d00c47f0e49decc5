/*
 * fuzz_topo.c - libFuzzer harness of the topology file loader of the
 * cluster family's topology-and-interference mode (sb_cluster_tree_load,
 * core/cluster/topo.h). What it accepts must be a tree as topo.h promises
 * (one root, levels one apart, every server with the same GPUs, falling
 * bandwidths, a fill rule that fills what the mask says fits); small ones
 * then run a generated trace in the simulator, validated by the checker.
 * Corpus tests/cluster/fuzz/topo/, dictionary tests/cluster/fuzz/topo.dict.
 */
#include "tests/fuzzkit.h"
#include "cluster/topoplace.h"
#include "workloads/cluster/marl.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".topo", data, size);
	struct sb_err err = { 0, "" };
	struct sb_cluster_tree t;
	struct sb_marl_env *e;
	int v, x, l, roots = 0, ngpu;

	if (!sb_fuzz_loaded1(sb_cluster_tree_load(path, &t, &err), &err, path))
		return 0;
	SB_FUZZ_CHECK(t.nserver > 0 && t.gpus > 0 && t.ngpu == t.nserver * t.gpus,
		      "%d servers x %d GPUs, %d GPUs", t.nserver, t.gpus, t.ngpu);
	for (v = 0; v < t.nnode; v++) {
		roots += t.parent[v] < 0;
		SB_FUZZ_CHECK(t.parent[v] < 0 || t.level[v] == t.level[t.parent[v]] + 1,
			      "node %d: level %d under %d", v, t.level[v], t.level[t.parent[v]]);
	}
	SB_FUZZ_CHECK(roots == 1 && t.parent[0] < 0, "%d roots", roots);
	for (l = 2; l < SB_TREE_NSPREAD; l++)
		SB_FUZZ_CHECK(t.bw[l] > 0 && t.bw[l] <= t.bw[l - 1], "bandwidth %d", l);
	for (x = 0; x < t.ngpu; x++)
		SB_FUZZ_CHECK(t.anc[x * SB_TREE_NLEVEL + SB_TREE_SERVER] == t.server_node[x / t.gpus],
			      "GPU %d not under server %d", x, x / t.gpus);
	ngpu = t.ngpu;
	sb_cluster_tree_release(&t);
	if (ngpu > 256 || size > 20000)
		return 0;
	/* a short trace on it, through the simulator and the checker */
	e = SB_NEW(struct sb_marl_env, 1);
	SB_FUZZ_CHECK(sb_marl_env_init(e, path, NULL, 1, 1, &err) == 0, "env: %s", err.msg);
	{
		struct sb_marl_gen gp;
		struct sb_jobset js;
		struct sb_cluster_combo cb;
		struct sb_cluster_result r;
		struct sb_opts so, po;
		struct sb_rng rng = sb_rng_stream(1, 0, 0, SB_RNG_TEST);
		char why[512];
		sb_marl_gen_defaults(&gp);
		gp.njobs = 20;
		gp.load = 0.9;
		sb_marl_generate(e, &gp, &rng, &js);
		SB_FUZZ_CHECK(sb_cluster_combo_parse(&cb, "agents+consolidate", &err) == 0, "%s",
			      err.msg);
		sb_opts_defaults(&so, cb.sched->params);
		sb_opts_defaults(&po, cb.place->params);
		SB_FUZZ_CHECK(sb_cluster_simulate(&e->cl, &js, &cb, &so, &po, 1, &r, &err) == 0,
			      "simulate: %s", err.msg);
		SB_FUZZ_CHECK(sb_cluster_check(&e->cl, &js, &r, why, sizeof why) == 0, "check: %s",
			      why);
		sb_cluster_result_release(&r);
		sb_jobset_release(&js);
	}
	sb_marl_env_release(e);
	sb_free(e);
	return 0;
}
