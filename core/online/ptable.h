/*
 * ptable.h - a stored Markov price policy of the online family: a table of
 * price distributions over the grid (t, c, d) x the M price levels, as the
 * learned algorithm (algorithms/advlearn/) produces it. Trained tables live
 * in the results (rows of kind "policy" of online_learn.h5) and are loaded
 * into a process-wide store that the table-reading policies look up by
 * variant and game, so figures and evaluations redraw without retraining.
 * [O: advlearn.md §3 tabulation; reconstructed.]
 */
#ifndef SB_ONLINE_PTABLE_H
#define SB_ONLINE_PTABLE_H

#include "online/online.h"
#include "table.h"

#define SB_ONLINE_PTABLE_MAX 32   /* tables the store holds */

struct sb_online_ptable {
	char variant[SB_STR_LEN];  /* "learned", "learned-random", "learned-reinforce" */
	struct sb_online_game g;
	/* prob[cell * M + m], cell = (t S + c) ND + d - 1 (capacity state c,
	 * demand code d; K = 1: (t (C + 1) + c) D + d - 1); owned */
	double *prob;
};
size_t sb_online_ptable_cells(const struct sb_online_game *g);
static inline size_t sb_online_ptable_cell(const struct sb_online_game *g, int t, int c, int d)
{
	return ((size_t)t * (size_t)g->S + (size_t)c) * (size_t)g->ND + (size_t)(d - 1);
}

/* Copy a table into the store (replacing one of the same variant and
 * game). Returns 0 or SB_EXIT_INPUT if the store is full or a cell is not
 * a distribution (err names the variant and cell). */
int sb_online_ptable_put(const char *variant, const struct sb_online_game *g, const double *prob,
			 struct sb_err *err);
/* The stored table of `variant` for game g (same T, K, capacities, D, M,
 * L, U), or NULL. Tables are loaded from files for K = 1 only; K = 2
 * tables are put by the experiment that trains them. */
const struct sb_online_ptable *sb_online_ptable_find(const char *variant,
						     const struct sb_online_game *g);
void sb_online_ptable_clear(void);
/* Load every table of an online_learn results file into the store. Missing
 * file, dataset or columns, an incomplete or duplicated cell, a value out
 * of range or a cell that is not a distribution: SB_EXIT_INPUT with err
 * naming the file, row and field. *n gets the number of tables loaded. */
int sb_online_ptable_load(const char *path, int *n, struct sb_err *err);

/* The tabulated decisions of a table on instance `in`, in the simulator's
 * form (for sb_online_expect and the checkers). */
void sb_online_ptable_tab(const struct sb_online_game *g, const double *prob,
			  const struct sb_online_inst *in, struct sb_online_table *tb);

/* The reset and decide hooks shared by the table-reading policies: the
 * policy's name is the variant; a missing table is SB_EXIT_INPUT. */
int sb_online_ptable_reset(const char *variant, const struct sb_online_game *g, void **ctx,
			   int *ncomp, double *weight, struct sb_err *err);
int sb_online_ptable_decide(void *ctx, const struct sb_online_game *g, int comp, int t, int c,
			    int d, double *price, double *prob);

#endif
