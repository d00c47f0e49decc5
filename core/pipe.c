/*
 * pipe.c - owners of the pipeline family's structs (pipe.h): releasing a
 * model or a topology. Everything else of the family builds on pipe.h.
 */
#include "pipe.h"

#include <string.h>

void sb_pmodel_release(struct sb_pmodel *m)
{
	if (!m)
		return;
	sb_free(m->layer);
	memset(m, 0, sizeof *m);
}

void sb_topo_release(struct sb_topo *t)
{
	if (!t)
		return;
	sb_free(t->bw);
	sb_free(t->server);
	memset(t, 0, sizeof *t);
}
