/*
 * iso.c - stage isolation in the cache family's cost model (cache.h;
 * spec bgl.md §7 and §9.8). BGL pins each preprocessing stage to its own
 * core set, sized to balance the stages [V, abstract; the formula is not
 * public]; the spec's stand-in [O] is an integer core split minimising
 * the slowest stage, against a shared mode in which every stage runs on
 * every core with a slowdown alpha per co-running stage. Here the model
 * is priced from a replay's exact per-GPU counts: a steady-state pipeline
 * whose epoch time is its busiest resource's time (spec §9.8 asks for a
 * DES; with bounded buffers and a long epoch the DES converges to this
 * bottleneck time, so we state the closed form instead [O]). Not a
 * measurement of any machine: "simulated with cost model bgl-9.5 with
 * stage isolation".
 */
#include "cache.h"

#include <string.h>

void sb_cache_iso_from_opts(struct sb_cache_iso *iso, const struct sb_opts *o, int isolate)
{
	iso->cores = (int)sb_opts_get(o, "cores");
	iso->alpha = sb_opts_get(o, "alpha");
	iso->copy_gbs = sb_opts_get(o, "copy_gbs");
	iso->inflight = (int)sb_opts_get(o, "inflight");
	iso->isolate = isolate;
}

static double dmax(double a, double b) { return a > b ? a : b; }

/* CPU time of a machine with sampling work ws and gather work wg
 * (core-seconds); the stage times and the cores chosen */
static void cpu(const struct sb_cache_iso *iso, double ws, double wg, double *ts, double *tg,
		int *cs, int *cg)
{
	int c, C = iso->cores;
	if (!iso->isolate) {
		double slow = 1 + iso->alpha;   /* two CPU stages: one co-runner each */
		*ts = ws * slow / C;
		*tg = wg * slow / C;
		*cs = *cg = C;
		return;
	}
	*cs = 1;
	*ts = ws;
	*tg = wg / (C - 1);
	for (c = 2; c < C; c++) {
		double a = ws / c, b = wg / (C - c);
		if (dmax(a, b) < dmax(*ts, *tg)) {
			*ts = a;
			*tg = b;
			*cs = c;
		}
	}
	*cg = C - *cs;
}

void sb_cache_iso_price(const struct sb_cache_setup *s, const struct sb_cache_cost *cost,
			double meta_ns, const struct sb_cache_iso *iso,
			const struct sb_cache_gpu_counts *gpu, int epochs,
			struct sb_cache_iso_times *out)
{
	double row = 4.0 * cost->feat_dim, worst_cpu = -1;
	int m, w;

	memset(out, 0, sizeof *out);
	for (m = 0; m < s->P; m++) {
		double ws = 0, wg = 0, bytes = 0, ts = 0, tg = 0;
		int cs, cg;
		for (w = 0; w < s->k; w++) {
			const struct sb_cache_gpu_counts *g = &gpu[m * s->k + w];
			double miss = (double)(g->miss_host + g->miss_remote);
			ws += (double)g->sampled_edges * cost->edge_ns * 1e-9;
			wg += (double)g->requests * meta_ns * 1e-9 + miss * row / (iso->copy_gbs * 1e9);
			bytes += (double)g->miss_remote * row;
			out->t_rpc = dmax(out->t_rpc, (double)(g->remote_sample_msgs + g->remote_feat_msgs) *
						       cost->rtt_us * 1e-6 / iso->inflight);
			out->t_h2d = dmax(out->t_h2d, miss * row / (cost->pcie_gbs * 1e9));
			out->t_nvlink = dmax(out->t_nvlink,
					     (double)g->hit_peer * row / (cost->nvlink_gbs * 1e9));
			out->t_compute = dmax(out->t_compute, 3 * g->flops / (cost->gpu_tflops * 1e12));
		}
		cpu(iso, ws, wg, &ts, &tg, &cs, &cg);
		/* shared stages take turns on the cores, isolated ones run side
		 * by side */
		if ((iso->isolate ? dmax(ts, tg) : ts + tg) > worst_cpu) {
			worst_cpu = iso->isolate ? dmax(ts, tg) : ts + tg;
			out->t_sample = ts;
			out->t_gather = tg;
			out->c_sample = cs;
			out->c_gather = cg;
		}
		out->t_net = dmax(out->t_net, bytes / (cost->net_gbs * 1e9));
	}
	out->t_epoch = dmax(worst_cpu, dmax(dmax(out->t_net, out->t_rpc),
					    dmax(dmax(out->t_h2d, out->t_nvlink), out->t_compute)));
	if (epochs > 1) {
		double e = epochs;
		out->t_epoch /= e;
		out->t_sample /= e;
		out->t_gather /= e;
		out->t_net /= e;
		out->t_rpc /= e;
		out->t_h2d /= e;
		out->t_nvlink /= e;
		out->t_compute /= e;
	}
}
