/*
 * lb.c - closed-form lower bounds of the dag family (spec tfpart.md §10.3,
 * our design [O]; see the design notes in bound.h).
 */
#include "boundutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_dag_lower_bounds(const struct sb_dag_inst *in, struct sb_dag_bounds *b)
{
	const struct sb_dag *g = &in->g;
	int n = g->n, nd = in->dev.n, v, d, k, i, type;
	struct sb_dag_comps c;
	unsigned char *ok;
	double *tmin, *head, *tail, sum_tmin = 0, sum_ops = 0, sum_speed = 0;

	memset(b, 0, sizeof *b);
	if (n == 0 || nd == 0) {
		if (n > 0)
			b->cp = b->work = b->work_class = b->coloc = b->lb = INFINITY;
		return;
	}
	sb_dag_comps_build(&c, in);
	ok = sb_dag_bnd_comp_ok_table(in, &c);
	tmin = SB_NEW(double, n);
	head = SB_NEW(double, n);
	tail = SB_NEW(double, n);
	sb_dag_bnd_fastest_times(in, ok, tmin);
	for (v = 0; v < n; v++)
		if (!isfinite(tmin[v])) {
			b->cp = b->work = b->work_class = b->coloc = b->lb = INFINITY;
			goto out;
		}

	/* LB_cp: precedence serialises a path; each op takes at least its
	 * fastest time, and communication only adds. */
	b->cp = sb_dag_bnd_heads_tails(g, tmin, head, tail);

	/* LB_work: by time C the devices do at most C * Σ s work (related
	 * machines); with an ETC matrix each op costs at least tmin on the
	 * device it runs on, and the devices offer |D| * C time. */
	for (v = 0; v < n; v++) {
		sum_tmin += tmin[v];
		sum_ops += g->ops[v];
	}
	for (d = 0; d < nd; d++)
		sum_speed += in->dev.speed[d];
	b->work = in->etc ? sum_tmin / nd : sum_ops / sum_speed;

	/* Per device type T: ops that may only run on devices of type T must
	 * be done by those devices. */
	for (type = SB_DEV_CPU; type <= SB_DEV_TPU; type++) {
		double tops = 0, ttime = 0, tspeed = 0;
		int tcount = 0, any = 0;
		for (d = 0; d < nd; d++)
			if (in->dev.type[d] == type) {
				tcount++;
				tspeed += in->dev.speed[d];
			}
		if (tcount == 0)
			continue;
		for (v = 0; v < n; v++) {
			int only = 1;
			for (d = 0; d < nd && only; d++)
				if (ok[(size_t)g->comp[v] * nd + d] && in->dev.type[d] != type)
					only = 0;
			if (only) {
				tops += g->ops[v];
				ttime += tmin[v];
				any = 1;
			}
		}
		if (any)
			b->work_class = sb_max(b->work_class,
					       in->etc ? ttime / tcount : tops / tspeed);
	}

	/* LB_coloc: a component runs serially on one device. */
	for (k = 0; k < c.n; k++) {
		double best = INFINITY;
		for (d = 0; d < nd; d++) {
			double s = 0;
			if (!ok[(size_t)k * nd + d])
				continue;
			for (i = c.off[k]; i < c.off[k + 1]; i++)
				s += sb_dag_time(in, c.member[i], d);
			best = sb_min(best, s);
		}
		b->coloc = sb_max(b->coloc, best);
	}
	b->lb = sb_max(sb_max(b->cp, b->work), sb_max(b->work_class, b->coloc));
out:
	sb_free(tmin);
	sb_free(head);
	sb_free(tail);
	sb_free(ok);
	sb_dag_comps_release(&c);
}

