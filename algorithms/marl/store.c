/*
 * store.c - trained marl weights in the results (see store.h).
 * Reconstructed [O].
 *
 * Family: cluster (core/cluster/).
 */
#include "algorithms/marl/store.h"
#include "h5.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

const struct sb_col sb_marl_store_schema[] = {
	{ "variant", SB_COL_STR, "placer, @topology when not trained on T1" },
	{ "inputs", SB_COL_STR, "hash of the training inputs" },
	{ "arch", SB_COL_INT, "0 GNN, 1 flat" },
	{ "ncritic", SB_COL_INT, "" },
	{ "nserv", SB_COL_INT, "servers of the flat encoder" },
	{ "param", SB_COL_INT, "parameter index" },
	{ "w", SB_COL_DBL, "value" },
	{ NULL, 0, NULL },
};

/* the schema's columns, in order */
enum { C_VARIANT, C_INPUTS, C_ARCH, C_NCRITIC, C_NSERV, C_PARAM, C_W, NCOL };

/* the index in t of every column of the schema, into col; SB_EXIT_INPUT
 * naming the first that is missing (a file that is no marl training
 * result) */
static int find_cols(const struct sb_table *t, const char *path, int *col, struct sb_err *err)
{
	int k;
	for (k = 0; k < NCOL; k++)
		if ((col[k] = sb_table_col(t, sb_marl_store_schema[k].name)) < 0)
			return sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': dataset '%s' "
					  "has no column '%s' (not a marl training result)", path,
					  SB_MARL_STORE_DATASET, sb_marl_store_schema[k].name);
	return 0;
}

void sb_marl_inputs_hash(const char *text, char out[SB_MARL_HASH_LEN])
{
	snprintf(out, SB_MARL_HASH_LEN, "%016llx", (unsigned long long)sb_hash_str(text));
}

void sb_marl_store_put(struct sb_table *t, const char *variant, const char *inputs,
		       const struct sb_marl_net *net)
{
	size_t np = sb_marl_net_nparams(net), i;
	double *w = SB_NEW(double, np);

	sb_marl_net_get(net, w);
	for (i = 0; i < np; i++) {
		size_t r = sb_table_add(t);
		sb_table_set_str(t, r, "variant", variant);
		sb_table_set_str(t, r, "inputs", inputs);
		sb_table_set_int(t, r, "arch", net->arch);
		sb_table_set_int(t, r, "ncritic", net->ncritic);
		sb_table_set_int(t, r, "nserv", net->flat_nserv);
		sb_table_set_int(t, r, "param", (int64_t)i);
		sb_table_set_dbl(t, r, "w", w[i]);
	}
	sb_free(w);
}

/*
 * The weights of every variant sit in one dataset of about 300,000 rows;
 * an experiment probes and loads several variants, and each read used to
 * decode the whole table (most of a QUICK marl experiment's time).
 * The last file read stays in memory while its identity (device, inode,
 * size, modification time) is unchanged. Owned here; a worker process
 * gets its own copy.
 */
static struct {
	char path[1024];
	struct stat st;
	struct sb_table t;
	struct sb_col *cols;
	int ok;
} cache;

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* the weights dataset of path, read once while the file is unchanged; the
 * table belongs to the cache */
static int read_weights(const char *path, const struct sb_table **t, struct sb_err *err)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': %s", path,
				  strerror(errno));
	if (!cache.ok || strcmp(cache.path, path) || !same_file(&cache.st, &st)) {
		if (cache.ok) {
			sb_table_release(&cache.t);
			sb_h5_cols_free(cache.cols);
			cache.cols = NULL;
			cache.ok = 0;
		}
		if (strlen(path) >= sizeof cache.path)
			return sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': path too long",
					  path);
		memset(&cache.t, 0, sizeof cache.t);
		if (sb_h5_read_table(path, SB_MARL_STORE_DATASET, &cache.t, &cache.cols, err)) {
			/* not sb_err_set(err, ..., err->msg): its source and
			 * destination would overlap */
			sb_err_prefix(err, "stored weights '%s': ", path);
			err->code = SB_EXIT_INPUT;
			return SB_EXIT_INPUT;
		}
		snprintf(cache.path, sizeof cache.path, "%s", path);
		cache.st = st;
		cache.ok = 1;
	}
	*t = &cache.t;
	return 0;
}

int sb_marl_store_load(const char *path, const char *variant, const char *want,
		       struct sb_marl_net **out, struct sb_err *err)
{
	const struct sb_table *t;
	struct sb_marl_net *net = NULL;
	unsigned char *seen = NULL;
	double *w = NULL;
	int col[NCOL], rc, arch = -1, ncritic = -1, nserv = -1;
	size_t r, np = 0, got = 0;
	char hash[SB_MARL_HASH_LEN] = "";

	*out = NULL;
	if ((rc = read_weights(path, &t, err)))
		return rc;
	if ((rc = find_cols(t, path, col, err)))
		goto out;
	for (r = 0; r < t->nrow; r++) {
		int64_t a, c, s, p;
		double v;

		if (strcmp(sb_table_get_str(t, r, col[C_VARIANT]), variant))
			continue;
		a = sb_table_get_int(t, r, col[C_ARCH]);
		c = sb_table_get_int(t, r, col[C_NCRITIC]);
		s = sb_table_get_int(t, r, col[C_NSERV]);
		if (!net) {
			struct sb_err e2;
			if ((a != SB_MARL_ARCH_GNN && a != SB_MARL_ARCH_FLAT) ||
			    (c != 1 && c != SB_MARL_MAXAG) ||
			    (a == SB_MARL_ARCH_FLAT && (s < 1 || s > 4096))) {
				rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': row %zu: "
						"field 'arch/ncritic/nserv': %lld/%lld/%lld is no "
						"marl network", path, r, (long long)a, (long long)c,
						(long long)s);
				goto out;
			}
			arch = (int)a;
			ncritic = (int)c;
			nserv = (int)s;
			snprintf(hash, sizeof hash, "%s", sb_table_get_str(t, r, col[C_INPUTS]));
			net = sb_marl_net_new(arch, ncritic, nserv, &e2);
			if (!net) {
				rc = sb_err_set(err, SB_EXIT_RUN, "%s", e2.msg);
				goto out;
			}
			np = sb_marl_net_nparams(net);
			w = SB_NEW(double, np);
			seen = SB_NEW(unsigned char, np);
		}
		if (a != arch || c != ncritic || s != nserv ||
		    strcmp(sb_table_get_str(t, r, col[C_INPUTS]), hash)) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': row %zu: field "
					"'%s': differs from the variant's first row", path, r,
					a != arch ? "arch" : c != ncritic ? "ncritic" :
					s != nserv ? "nserv" : "inputs");
			goto out;
		}
		p = sb_table_get_int(t, r, col[C_PARAM]);
		v = sb_table_get_dbl(t, r, col[C_W]);
		if (p < 0 || (size_t)p >= np || seen[p]) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': row %zu: field "
					"'param': %lld %s (the network has %zu)", path, r,
					(long long)p, p >= 0 && (size_t)p < np ? "repeated" :
					"out of range", np);
			goto out;
		}
		if (!isfinite(v)) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': row %zu: field "
					"'w': %g is not finite", path, r, v);
			goto out;
		}
		seen[p] = 1;
		w[p] = v;
		got++;
	}
	if (!net) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': no weights of variant "
				"'%s'", path, variant);
		goto out;
	}
	if (got != np) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': variant '%s': field "
				"'param': %zu of %zu parameters stored", path, variant, got, np);
		goto out;
	}
	if (want && strcmp(want, hash)) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "stored weights '%s': variant '%s': field "
				"'inputs': trained on inputs %s, the current inputs hash to %s",
				path, variant, hash, want);
		goto out;
	}
	sb_marl_net_set(net, w);
	*out = net;
	net = NULL;
	rc = 0;
out:
	sb_marl_net_free(net);
	sb_free(w);
	sb_free(seen);
	return rc;
}

int sb_marl_store_probe(const char *path, const char *variant, char hash[SB_MARL_HASH_LEN],
			struct sb_err *err)
{
	const struct sb_table *t;
	int col[NCOL], k;
	size_t r;

	hash[0] = 0;
	if (access(path, F_OK) != 0)
		return 1;
	/* results of an older layout (the weights were rows of points) hold
	 * no weights this code can read: train, as for a missing variant */
	if ((k = sb_h5_has_dataset(path, SB_MARL_STORE_DATASET, err)) != 1)
		return k == 0 ? 1 : k;
	if ((k = read_weights(path, &t, err)))
		return k;
	if ((k = find_cols(t, path, col, err)))
		return k;
	for (r = 0; r < t->nrow; r++)
		if (!strcmp(sb_table_get_str(t, r, col[C_VARIANT]), variant)) {
			snprintf(hash, SB_MARL_HASH_LEN, "%s", sb_table_get_str(t, r, col[C_INPUTS]));
			return 0;
		}
	return 1;
}
