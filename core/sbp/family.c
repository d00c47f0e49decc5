/*
 * family.c - the sbp family's entry in the family table: `sb list sbp`
 * and `sb eval sbp`, which plans one graph a user brings (a generated
 * MLP or GPT model, or a graph file) with one planner, checks the plan
 * and prints its metrics, and with --bound the ILP optimum and the gap.
 *
 *   sb eval sbp --model gpt --layers 2 --tokens 4096 --hidden 1024 --p 8
 *               --policy greedy --bound
 *   sb eval sbp --graph g.txt --hierarchy 2x4 --policy elim
 */
#include "sbp.h"
#include "family.h"
#include "lp.h"
#include "workloads/sbp/models.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SB_REGISTRY_ACCESSORS(sbp_planner, sb_sbp_planners)

static void list(FILE *out)
{
	int n, i;
	const struct sb_sbp_planner *const *p = sb_sbp_planners(&n);

	fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "family", "name", "role", "provenance",
		"description / citation");
	for (i = 0; i < n; i++) {
		fprintf(out, "%-8s %-14s %-8s %-16s %s\n", "sbp", p[i]->name, "planner",
			p[i]->provenance, p[i]->desc);
		fprintf(out, "%-8s %-14s %-8s %-16s   %s\n", "", "", "", "", p[i]->cite);
	}
}

static const char *const value_opts[] = {
	"--model", "--layers", "--tokens", "--seq", "--hidden", "--heads", "--p", "--hierarchy",
	"--graph", "--penalty", "--cost-ratio", NULL
};
static const char *const flag_opts[] = { "--forward-only", NULL };

static int write_plan(const char *path, const struct sb_sbp_graph *g, const struct sb_sbp_plan *p,
		      struct sb_err *err)
{
	FILE *f = fopen(path, "w");
	int o, b, nd = g->pl.ndim;
	char x[48], y[48];
	if (!f)
		return sb_err_set(err, SB_EXIT_INPUT, "cannot write plan '%s'", path);
	fprintf(f, "# op kind output_sbp inputs_sbp\n");
	for (o = 0; o < g->nop; o++) {
		const struct sb_sbp_sig *s = &g->op[o].sig[p->sig[o]];
		int k;
		fprintf(f, "op %s %s %s", g->op[o].name, sb_sbp_opkind_name(g->op[o].kind),
			sb_sbp_nd_str(&s->out, nd, x, sizeof x));
		for (k = 0; k < g->op[o].nin; k++)
			fprintf(f, " %s", sb_sbp_nd_str(&s->in[k], nd, x, sizeof x));
		fputc('\n', f);
	}
	fprintf(f, "# boxing from to from_sbp to_sbp bytes seconds\n");
	for (b = 0; b < p->nbox; b++) {
		const struct sb_sbp_edge *e = &g->edge[p->box[b].edge];
		fprintf(f, "boxing %s %s %s %s %.17g %.17g\n", g->op[e->u].name, g->op[e->v].name,
			sb_sbp_nd_str(&p->box[b].from, nd, x, sizeof x),
			sb_sbp_nd_str(&p->box[b].to, nd, y, sizeof y), p->box[b].bytes,
			p->box[b].seconds);
	}
	if (ferror(f) | fclose(f))
		return sb_err_set(err, SB_EXIT_RUN, "cannot write plan '%s'", path);
	return 0;
}

int sb_sbp_eval(int argc, char **argv)
{
	struct sb_eval_args ea;
	struct sb_err err = { 0, "" };
	struct sb_sbp_graph g;
	struct sb_sbp_plan plan;
	struct sb_sbp_place pl;
	struct sb_sbp_net net = { 5e-6, 25e9 };
	const struct sb_sbp_planner *p;
	struct sb_opts o;
	const char *model = NULL, *graph = NULL, *hier = NULL;
	double layers = 2, tokens = 4096, seq = -1, hidden = 1024, heads = -1, P = -1;
	double penalty = SB_SBP_PENALTY_DEFAULT, ratio = -1;
	int fwd_only = 0, i, rc;

	sb_eval_args_init(&ea, argc, argv);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v;
		if ((rc = sb_eval_next(&sb_family_sbp, &ea, argc, argv, &i, flag_opts, value_opts, &v)) != 1) {
			if (rc)
				return rc;
			continue;
		}
		rc = 0;
		if (!v) {   /* --forward-only, the one flag */
			fwd_only = 1;
			continue;
		}
		if (!strcmp(a, "--model"))
			model = v;
		else if (!strcmp(a, "--graph"))
			graph = v;
		else if (!strcmp(a, "--hierarchy"))
			hier = v;
		else if (!strcmp(a, "--layers") ? sb_eval_num(&sb_family_sbp, a, v, 1, 256, &layers) :
			 !strcmp(a, "--tokens") ? sb_eval_num(&sb_family_sbp, a, v, 1, 1e9, &tokens) :
			 !strcmp(a, "--seq") ? sb_eval_num(&sb_family_sbp, a, v, 1, 1e9, &seq) :
			 !strcmp(a, "--hidden") ? sb_eval_num(&sb_family_sbp, a, v, 1, 1e6, &hidden) :
			 !strcmp(a, "--heads") ? sb_eval_num(&sb_family_sbp, a, v, 1, 1e5, &heads) :
			 !strcmp(a, "--p") ? sb_eval_num(&sb_family_sbp, a, v, 1, 4096, &P) :
			 !strcmp(a, "--penalty") ? sb_eval_num(&sb_family_sbp, a, v, 1, 3, &penalty) :
			 sb_eval_num(&sb_family_sbp, a, v, 0, 1e6, &ratio))
			return SB_EXIT_INPUT;
	}
	if (sb_eval_args_finish(&ea, &err))
		return sb_eval_fail_err(&sb_family_sbp, &err);
	if (!(p = sb_sbp_planner_find(ea.policy)))
		return sb_eval_fail(&sb_family_sbp, "--policy '%s': not a registered sbp planner (sb list sbp)", ea.policy);
	if (model && graph)
		return sb_eval_fail(&sb_family_sbp, "give one of --model and --graph");
	if (!hier && P < 0)
		P = 8;
	if (hier) {
		if (sb_sbp_place_parse(&pl, hier, P > 0 ? (int)P : 0, "--hierarchy", &err))
			return sb_eval_fail_err(&sb_family_sbp, &err);
	} else {
		sb_sbp_place_1d(&pl, (int)P);
	}
	sb_opts_defaults(&o, p->params);
	for (i = 0; i < ea.nset; i++)
		if (sb_opts_set(&o, p->params, ea.sets[i], "--set", &err))
			return sb_eval_fail_err(&sb_family_sbp, &err);
	if (graph) {
		if ((rc = sb_sbp_load_graph(&g, graph, &pl, &err))) {
			sb_err_print(&err);
			return rc;
		}
	} else {
		int64_t T = (int64_t)tokens, h = (int64_t)hidden;
		sb_sbp_graph_init(&g, "model");
		if (!model || !strcmp(model, "gpt")) {
			int64_t s = seq > 0 ? (int64_t)seq : T < 512 ? T : 512;
			int64_t nh = heads > 0 ? (int64_t)heads : h >= 128 ? h / 128 : 1;
			if (T % s || h % nh) {
				sb_sbp_graph_release(&g);
				return sb_eval_fail(&sb_family_sbp, "--tokens must be a multiple of --seq and --hidden of "
					     "--heads%s", "");
			}
			sb_sbp_build_gpt(&g, (int)layers, T / s, s, h, nh, !fwd_only);
		} else if (!strcmp(model, "mlp")) {
			sb_sbp_build_mlp(&g, (int)layers, T, h, !fwd_only);
		} else {
			sb_sbp_graph_release(&g);
			return sb_eval_fail(&sb_family_sbp, "--model '%s': expected gpt or mlp", model);
		}
		if ((rc = sb_sbp_graph_finish(&g, &pl, &err))) {
			sb_sbp_graph_release(&g);
			return sb_eval_fail_err(&sb_family_sbp, &err);
		}
	}
	g.penalty = (int)penalty;
	if (ratio >= 0)
		g.cost_ratio = ratio;
	if ((rc = sb_sbp_run(&g, p, &o, &net, &plan, &err))) {
		sb_err_print(&err);
		sb_sbp_graph_release(&g);
		return rc;
	}
	printf("graph: %s\nops: %d\nedges: %d\np: %d\nhierarchy: %dx%d\npolicy: %s\n", g.name,
	       g.nop, g.nedge, g.pl.p, g.pl.h[0], g.pl.ndim == 2 ? g.pl.h[1] : 1, p->name);
	printf("cost: %.10g\nboxing_bytes: %.10g\nboxing_ops: %d\ncomm_seconds: %.6g\n"
	       "flops_per_device: %.6g\nmem_per_device: %.6g\nstrategy: %s\ntp_fraction: %.4f\n"
	       "valid: yes\n", plan.cost, plan.bytes, plan.nbox, plan.comm_s, plan.flops, plan.mem,
	       plan.strategy, plan.tp_frac);
	if (ea.bound) {
		struct sb_sbp_ilp_opts io = { 0 };
		struct sb_sbp_ilp_result res;
		int *sig = SB_NEW(int, g.nop);
		io.node_limit = 20000;
		io.start = plan.sig;
		if ((rc = sb_sbp_ilp(&g, &io, sig, &res, &err))) {
			sb_err_print(&err);
		} else {
			printf("ilp_status: %s\nilp_stopped: %s\nilp_opt: %.10g\nilp_bound: %.10g\n"
			       "gap_opt: %.6f\nilp_seconds: %.3f\n", sb_lp_status_name(res.status),
			       sb_lp_stop_name(res.stopped), res.obj, res.bound,
			       res.bound > 0 ? plan.cost / res.bound : 1.0, res.seconds);
		}
		sb_free(sig);
	}
	if (!rc && ea.schedule_out && (rc = write_plan(ea.schedule_out, &g, &plan, &err)))
		sb_err_print(&err);
	sb_sbp_plan_release(&plan);
	sb_sbp_graph_release(&g);
	return rc;
}

static const char *const roles[] = { "sbp_planner", NULL };

const struct sb_family sb_family_sbp = {
	.name = "sbp",
	.desc = "SBP signature search over a layer graph with boxing costs; OneFlow's actor DES",
	.roles = roles,
	.eval_usage = "[--model gpt|mlp --layers L --tokens T --hidden H [--seq S] [--heads N] "
		      "[--forward-only] | --graph FILE] [--p P] [--hierarchy AxB] [--penalty 1|2|3] "
		      "[--cost-ratio R]",
	.eval = sb_sbp_eval,
	.list = list,
	.adversary = &sb_sbp_adversary,
};
