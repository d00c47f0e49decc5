/*
 * store.h - trained marl weights in the results: one row per parameter
 * (the variant, the hash of the training inputs, the architecture, the
 * parameter's index and value) in the `weights` detail dataset of a
 * results file (marl_train's), so evaluations and figures run from a
 * results file without retraining, and a training run can reuse the
 * stored weights of a variant whose inputs hash is unchanged. The weights
 * have a dataset of their own, not rows of `points`: the ~300,000 rows of
 * a QUICK run were converted at every export of the training curves.
 *
 * Reconstructed [O]: our storage format (marl.md §3; issue #15 item 2).
 *
 * Family: cluster (core/cluster/).
 */
#ifndef SB_MARL_STORE_H
#define SB_MARL_STORE_H

#include "algorithms/marl/net.h"
#include "table.h"

#define SB_MARL_HASH_LEN 17  /* 16 hex digits + NUL */

/* The weights dataset: its name and schema (variant, inputs, arch,
 * ncritic, nserv, param, w), for an experiment's `details`. */
#define SB_MARL_STORE_DATASET "weights"
extern const struct sb_col sb_marl_store_schema[];

/* FNV-1a 64 of the canonical text of everything training read
 * (hyper-parameters, topology, workload parameters, reward source, data
 * files' sha256), as 16 hex digits: a change detector, not a signature. */
void sb_marl_inputs_hash(const char *text, char out[SB_MARL_HASH_LEN]);

/* Append the weight rows of net under `variant` to t (a table of
 * sb_marl_store_schema). */
void sb_marl_store_put(struct sb_table *t, const char *variant, const char *inputs,
		       const struct sb_marl_net *net);

/* Load variant's weights from the `weights` of results file path into a
 * new net (*out, owned by the caller). want (may be NULL) is the inputs
 * hash the caller needs. Returns 0; SB_EXIT_INPUT with err naming the
 * file, row and field when the file or a column is missing, the variant
 * has no rows, a row is inconsistent (architecture, index out of range or
 * repeated, a parameter missing, a value not finite), or the stored hash
 * differs from want (then *out stays NULL). */
int sb_marl_store_load(const char *path, const char *variant, const char *want,
		       struct sb_marl_net **out, struct sb_err *err);

/* What results file path holds for variant: 0 and its inputs hash in
 * hash; 1 when the file does not exist, has no weights dataset (results
 * of an older layout, whose weights were rows of points) or no rows of
 * the variant (a caller then trains); SB_EXIT_INPUT with err when the file cannot be
 * read or is no marl training result. Checks no more than the first row:
 * sb_marl_store_load checks the rest. */
int sb_marl_store_probe(const char *path, const char *variant, char hash[SB_MARL_HASH_LEN],
			struct sb_err *err);

#endif
