/*
 * pipetest.h - instance builders shared by the pipeline-family tests:
 * identical layers, a flat topology (every pair of GPUs at one bandwidth,
 * one server) and straight plans (one layer and one GPU per stage).
 */
#ifndef SB_PIPETEST_H
#define SB_PIPETEST_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pipeline/pipeline.h"

/* L identical layers: per sample f and b seconds, a bytes of activation
 * (also the stash), w bytes of parameters. Owned: sb_pmodel_release. */
static inline void sb_test_model_uniform(struct sb_pmodel *m, int L, double f, double b,
					 double a, double w)
{
	int i;
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "test");
	m->n = L;
	m->pbs = 1;
	m->layer = SB_NEW(struct sb_layer, L);
	for (i = 0; i < L; i++) {
		m->layer[i].fwd = f;
		m->layer[i].bwd = b;
		m->layer[i].act = a;
		m->layer[i].stash = a;
		m->layer[i].params = w;
	}
}

/* n GPUs in one server, every pair joined by bw bytes/s (INFINITY: free
 * transfers), mem bytes each. Owned: sb_topo_release. */
static inline void sb_test_topo_flat(struct sb_topo *t, int n, double bw, double mem)
{
	int i, j;
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "test");
	t->n = n;
	t->nserver = 1;
	t->bw = SB_NEW(double, n * n);
	t->server = SB_NEW(int, n);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			t->bw[i * n + j] = i == j ? INFINITY : bw;
	t->mem = mem;
	t->speed = 1;
}

/* S stages of one layer each on GPUs 0..S-1, M microbatches of one
 * sample. Owned: sb_pipeline_plan_release. */
static inline void sb_test_straight(struct sb_pipeline_plan *p, int S, int M)
{
	int s;
	sb_pipeline_plan_init(p, S, 1);
	p->M = M;
	p->batch = M;
	snprintf(p->planner, sizeof p->planner, "test");
	for (s = 0; s < S; s++) {
		p->st[s].first = p->st[s].last = s;
		p->st[s].r = 1;
		p->st[s].gpu[0] = s;
	}
}

#endif
