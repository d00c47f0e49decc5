/*
 * fuzz_buyers.c - libFuzzer harness of the online family's buyer CSV loader
 * (sb_online_load, `sb eval online FILE`): the input is the file, read with
 * the largest demand D = 1..4 (the input's last byte) and values in [1, 10]
 * as `sb eval online` does with its defaults (C = 20, M = 16, U/L = 10).
 * What it accepts must make a game (sb_online_game_init) and a valid
 * instance of it (sb_online_inst_check); a cheap policy then runs through
 * sb_online_run, whose episode and expectation checkers must accept it,
 * and neither the expected nor the sampled welfare may exceed the offline
 * optimum. Corpus tests/online/fuzz/buyers/, dictionary
 * tests/online/fuzz/buyers.dict.
 */
#include <math.h>
#include <string.h>

#include "online/online.h"
#include "tests/fuzzkit.h"
#include "workloads/online/gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* online, no table, no training: cheap enough for every input */
	static const char *const policies[] = { "greedy", "zcl", "zlw", "randthresh" };
	const char *path = sb_fuzz_file(0, ".csv", data, size);
	struct sb_err err = { 0, "" };
	struct sb_online_inst in;
	struct sb_online_game g;
	struct sb_online_result r;
	const struct sb_online_policy *p;
	struct sb_opts o;
	struct sb_rng rng = sb_rng_stream(1, 0, 0, SB_RNG_POLICY);
	/* pick: D from its low bits, the policy from the next, K from the top
	 * (K = 2 reads the header "d1,d2,v", on capacities 4 + 4) */
	int pick = sb_fuzz_pick(data, size, 32), D = 1 + pick % 4, K = 1 + (pick >= 16);
	static const int caps[2] = { 4, 4 };
	double opt;

	if (!sb_fuzz_loaded1(sb_online_load(path, K, D, 1, 10, &in, &err), &err, path)) {
		SB_FUZZ_CHECK(in.T == 0 && !in.d && !in.v, "rejected but not zeroed");
		return 0;
	}
	if (K == 1)
		SB_FUZZ_CHECK(sb_online_game_init(&g, in.T, 20, D, 16, 1, 10, &err) == 0,
			      "accepted %d buyers, but no game: %s", in.T, err.msg);
	else
		SB_FUZZ_CHECK(sb_online_game_init_k(&g, in.T, 2, caps, D, 16, 1, 10, &err) == 0,
			      "accepted %d buyers (K = 2), but no game: %s", in.T, err.msg);
	SB_FUZZ_CHECK(sb_online_inst_check(&g, &in, &err) == 0, "accepted, but invalid: %s",
		      err.msg);
	p = sb_online_policy_find(policies[pick % 16 / 4]);
	SB_FUZZ_CHECK(p != NULL, "policy %s not registered", policies[pick % 16 / 4]);
	sb_opts_defaults(&o, p->params);
	SB_FUZZ_CHECK(sb_online_run(&g, &in, p, &o, &rng, &r, &err) == 0, "%s: %s", p->name,
		      err.msg);
	opt = sb_online_opt(&g, &in, NULL);
	SB_FUZZ_CHECK(isfinite(r.ealg) && r.ealg >= 0 && r.ealg <= opt * (1 + 1e-9),
		      "%s: expected welfare %.17g, offline optimum %.17g", p->name, r.ealg, opt);
	SB_FUZZ_CHECK(r.welfare >= 0 && r.welfare <= opt * (1 + 1e-9),
		      "%s: sampled welfare %.17g, offline optimum %.17g", p->name, r.welfare, opt);
	sb_online_result_release(&r);
	sb_online_inst_release(&in);
	return 0;
}
