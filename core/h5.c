/*
 * h5.c - HDF5 results files with provenance, written atomically.
 */
#include "h5.h"

#include <hdf5.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Attribute lists                                                     */
/* ------------------------------------------------------------------ */

void sb_attrs_init(struct sb_attrs *a)
{
	memset(a, 0, sizeof *a);
}

void sb_attrs_release(struct sb_attrs *a)
{
	int i;
	for (i = 0; i < a->n; i++) {
		sb_free(a->a[i].key);
		sb_free(a->a[i].s);
	}
	sb_free(a->a);
	memset(a, 0, sizeof *a);
}

static struct sb_attr *slot(struct sb_attrs *a, const char *key)
{
	int i;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->a[i].key, key) == 0) {
			sb_free(a->a[i].s);
			a->a[i].s = NULL;
			return &a->a[i];
		}
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 32;
		a->a = sb_xrealloc(a->a, (size_t)a->cap * sizeof *a->a);
	}
	memset(&a->a[a->n], 0, sizeof a->a[0]);
	a->a[a->n].key = sb_xstrdup(key);
	return &a->a[a->n++];
}

void sb_attrs_str(struct sb_attrs *a, const char *key, const char *val)
{
	struct sb_attr *s = slot(a, key);
	s->type = SB_ATTR_STR;
	s->s = sb_xstrdup(val);
}

void sb_attrs_int(struct sb_attrs *a, const char *key, int64_t val)
{
	struct sb_attr *s = slot(a, key);
	s->type = SB_ATTR_INT;
	s->i = val;
}

void sb_attrs_dbl(struct sb_attrs *a, const char *key, double val)
{
	struct sb_attr *s = slot(a, key);
	s->type = SB_ATTR_DBL;
	s->d = val;
}

const struct sb_attr *sb_attrs_get(const struct sb_attrs *a, const char *key)
{
	int i;
	for (i = 0; i < a->n; i++)
		if (strcmp(a->a[i].key, key) == 0)
			return &a->a[i];
	return NULL;
}

const char *sb_h5_version(void)
{
	static char buf[32];
	unsigned maj, min, rel;
	H5get_libversion(&maj, &min, &rel);
	snprintf(buf, sizeof buf, "HDF5 %u.%u.%u", maj, min, rel);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */
/* ------------------------------------------------------------------ */

static int write_str_attr(hid_t obj, const char *key, const char *val)
{
	hid_t ty = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR), at;
	int rc = -1;
	H5Tset_size(ty, strlen(val) + 1);
	H5Tset_strpad(ty, H5T_STR_NULLTERM);
	at = H5Acreate2(obj, key, ty, sp, H5P_DEFAULT, H5P_DEFAULT);
	if (at >= 0) {
		rc = H5Awrite(at, ty, val) < 0 ? -1 : 0;
		H5Aclose(at);
	}
	H5Sclose(sp);
	H5Tclose(ty);
	return rc;
}

static int write_num_attr(hid_t obj, const char *key, hid_t ty, const void *val)
{
	hid_t sp = H5Screate(H5S_SCALAR), at;
	int rc = -1;
	at = H5Acreate2(obj, key, ty, sp, H5P_DEFAULT, H5P_DEFAULT);
	if (at >= 0) {
		rc = H5Awrite(at, ty, val) < 0 ? -1 : 0;
		H5Aclose(at);
	}
	H5Sclose(sp);
	return rc;
}

static hid_t compound_of(const struct sb_table *t, hid_t *strty)
{
	hid_t ty = H5Tcreate(H5T_COMPOUND, t->rowsize);
	int i;
	*strty = H5Tcopy(H5T_C_S1);
	H5Tset_size(*strty, SB_STR_LEN);
	H5Tset_strpad(*strty, H5T_STR_NULLTERM);
	for (i = 0; i < t->ncol; i++) {
		hid_t mt = t->cols[i].type == SB_COL_INT ? H5T_NATIVE_INT64
			 : t->cols[i].type == SB_COL_DBL ? H5T_NATIVE_DOUBLE : *strty;
		H5Tinsert(ty, t->cols[i].name, t->off[i], mt);
	}
	return ty;
}

#define BIG_TABLE ((size_t)8 << 20)   /* bytes */

static int write_table(hid_t file, const char *name, const struct sb_table *t)
{
	hsize_t dims[1] = { t->nrow };
	hid_t strty, ty = compound_of(t, &strty);
	hid_t sp = H5Screate_simple(1, dims, NULL);
	hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), ds;
	char units[2048] = "";
	int rc = -1, i;

	H5Pset_obj_track_times(dcpl, 0);
	/* large tables (e.g. trained weights, one row per parameter) repeat
	 * their string columns row after row: chunked and deflated they take
	 * a fraction of the space; the values read back are the same */
	if (t->nrow * t->rowsize > BIG_TABLE && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
		hsize_t chunk[1] = { 4096 };
		H5Pset_chunk(dcpl, 1, chunk);
		H5Pset_shuffle(dcpl);
		H5Pset_deflate(dcpl, 1);
	}
	ds = H5Dcreate2(file, name, ty, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
	if (ds >= 0) {
		rc = 0;
		if (t->nrow && H5Dwrite(ds, ty, H5S_ALL, H5S_ALL, H5P_DEFAULT, t->data) < 0)
			rc = -1;
		for (i = 0; i < t->ncol; i++)
			if (t->cols[i].unit && t->cols[i].unit[0]) {
				size_t u = strlen(units);
				snprintf(units + u, sizeof units - u, "%s%s=%s", u ? ";" : "",
					 t->cols[i].name, t->cols[i].unit);
			}
		if (rc == 0 && write_str_attr(ds, "units", units) < 0)
			rc = -1;
		H5Dclose(ds);
	}
	H5Pclose(dcpl);
	H5Sclose(sp);
	H5Tclose(ty);
	H5Tclose(strty);
	return rc;
}

int sb_h5_write(const char *path, const struct sb_attrs *root, int ndset,
		const struct sb_h5_dataset *dsets, struct sb_err *err)
{
	char tmp[4096];
	hid_t fcpl, file;
	int i, rc = 0;

	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	fcpl = H5Pcreate(H5P_FILE_CREATE);
	/* keep attributes in the order written, so `sb show` reads naturally */
	H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
	file = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
	H5Pclose(fcpl);
	if (file < 0)
		return sb_err_set(err, SB_EXIT_RUN, "cannot create results file '%s'", tmp);
	for (i = 0; root && i < root->n && rc == 0; i++) {
		const struct sb_attr *a = &root->a[i];
		if (a->type == SB_ATTR_STR)
			rc = write_str_attr(file, a->key, a->s);
		else if (a->type == SB_ATTR_INT)
			rc = write_num_attr(file, a->key, H5T_NATIVE_INT64, &a->i);
		else
			rc = write_num_attr(file, a->key, H5T_NATIVE_DOUBLE, &a->d);
	}
	for (i = 0; i < ndset && rc == 0; i++)
		rc = write_table(file, dsets[i].name, dsets[i].t);
	if (H5Fclose(file) < 0)
		rc = -1;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc) {
		unlink(tmp);
		return sb_err_set(err, SB_EXIT_RUN, "cannot write results file '%s'", path);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Reading                                                             */
/* ------------------------------------------------------------------ */

struct attr_iter {
	struct sb_attrs *out;
};

static herr_t read_attr_cb(hid_t loc, const char *name, const H5A_info_t *info,
			   void *data)
{
	struct attr_iter *it = data;
	hid_t at = H5Aopen(loc, name, H5P_DEFAULT), ty;
	(void)info;
	if (at < 0)
		return 0;
	ty = H5Aget_type(at);
	switch (H5Tget_class(ty)) {
	case H5T_STRING: {
		size_t len = H5Tget_size(ty);
		char *buf = sb_xcalloc(len + 1, 1);
		hid_t mt = H5Tcopy(H5T_C_S1);
		H5Tset_size(mt, len);
		if (H5Aread(at, mt, buf) >= 0)
			sb_attrs_str(it->out, name, buf);
		H5Tclose(mt);
		sb_free(buf);
		break;
	}
	case H5T_INTEGER: {
		int64_t v;
		if (H5Aread(at, H5T_NATIVE_INT64, &v) >= 0)
			sb_attrs_int(it->out, name, v);
		break;
	}
	case H5T_FLOAT: {
		double v;
		if (H5Aread(at, H5T_NATIVE_DOUBLE, &v) >= 0)
			sb_attrs_dbl(it->out, name, v);
		break;
	}
	default:
		break;
	}
	H5Tclose(ty);
	H5Aclose(at);
	return 0;
}

static hid_t open_file(const char *path, struct sb_err *err)
{
	hid_t f;
	H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
	if (access(path, R_OK) != 0) {
		sb_err_set(err, SB_EXIT_INPUT, "cannot open results file '%s'", path);
		return -1;
	}
	f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
	if (f < 0)
		sb_err_set(err, SB_EXIT_INPUT, "'%s' is not an HDF5 results file", path);
	return f;
}

int sb_h5_read_attrs(const char *path, struct sb_attrs *out, struct sb_err *err)
{
	struct attr_iter it = { out };
	hsize_t idx = 0;
	hid_t f = open_file(path, err);
	if (f < 0)
		return SB_EXIT_INPUT;
	sb_attrs_init(out);
	H5Aiterate2(f, H5_INDEX_CRT_ORDER, H5_ITER_NATIVE, &idx, read_attr_cb, &it);
	if (out->n == 0) {
		idx = 0;
		H5Aiterate2(f, H5_INDEX_NAME, H5_ITER_INC, &idx, read_attr_cb, &it);
	}
	H5Fclose(f);
	return 0;
}

void sb_h5_cols_free(struct sb_col *cols)
{
	int i;
	for (i = 0; cols && cols[i].name; i++) {
		sb_free((char *)cols[i].name);
		sb_free((char *)cols[i].unit);
	}
	sb_free(cols);
}

/* A transfer property list whose type-conversion buffer holds nrow rows
 * of the larger of the file type fty and the memory type mty, at most
 * HDF5's default of 1 MiB: HDF5 allocates and zeroes the whole buffer at
 * every read, which was a third of the CPU of a small `sb export` (the
 * figures start it hundreds of times). Only how many rows are converted
 * at a time changes, never what is read. H5P_DEFAULT if it cannot be made. */
static hid_t read_dxpl(hid_t fty, hid_t mty, hsize_t nrow)
{
	size_t sz = H5Tget_size(fty), msz = H5Tget_size(mty), want;
	hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);

	if (dxpl < 0)
		return H5P_DEFAULT;
	if (msz > sz)
		sz = msz;
	want = nrow < (hsize_t)((1u << 20) / (sz ? sz : 1)) ? (size_t)nrow * sz : (size_t)1 << 20;
	if (want < sz)
		want = sz;
	if (H5Pset_buffer(dxpl, want, NULL, NULL) < 0) {
		H5Pclose(dxpl);
		return H5P_DEFAULT;
	}
	return dxpl;
}

static void close_dxpl(hid_t dxpl)
{
	if (dxpl != H5P_DEFAULT)
		H5Pclose(dxpl);
}

/* the rows of ds (nrow of them) where every where[i] holds, as indices
 * into *keep (allocated, owned by the caller): only the named columns are
 * read, into a table of their own */
static int filter_rows(hid_t ds, hid_t fty, hssize_t nrow, int nwhere,
		       const char *const *where, const char *path, const char *dataset,
		       hsize_t **keep, size_t *nkeep, struct sb_err *err)
{
	struct sb_col *sc = SB_NEW(struct sb_col, nwhere + 1);
	struct sb_table sub;
	hid_t mty = -1, strty = -1;
	int *wc = SB_NEW(int, nwhere), nsc = 0, i, rc = 0, init = 0;
	char (*name)[64] = sb_xcalloc((size_t)nwhere, sizeof *name);
	size_t r;

	*keep = NULL;
	*nkeep = 0;
	for (i = 0; i < nwhere; i++) {
		const char *eq = strchr(where[i], '=');
		int m, j;
		if (!eq || (size_t)(eq - where[i]) >= sizeof name[i])
			SB_BUG("where '%s' is no col=value", where[i]);
		snprintf(name[i], sizeof name[i], "%.*s", (int)(eq - where[i]), where[i]);
		m = H5Tget_member_index(fty, name[i]);
		if (m < 0) {
			rc = sb_err_set(err, SB_EXIT_INPUT, "--where '%s': dataset '%s' has no "
					"column '%s'", where[i], dataset, name[i]);
			goto out;
		}
		for (j = 0; j < nsc && strcmp(sc[j].name, name[i]); j++)
			;
		wc[i] = j;
		if (j == nsc) {
			H5T_class_t cl = H5Tget_member_class(fty, (unsigned)m);
			sc[nsc].name = name[i];
			sc[nsc].unit = "";
			sc[nsc++].type = cl == H5T_INTEGER ? SB_COL_INT
				       : cl == H5T_FLOAT ? SB_COL_DBL : SB_COL_STR;
		}
	}
	sb_table_init(&sub, sc);
	init = 1;
	mty = compound_of(&sub, &strty);
	sb_table_alloc_rows(&sub, (size_t)nrow);
	/* a memory type naming some members reads only those */
	if (nrow > 0) {
		hid_t dxpl = read_dxpl(fty, mty, (hsize_t)nrow);
		herr_t st = H5Dread(ds, mty, H5S_ALL, H5S_ALL, dxpl, sub.data);
		close_dxpl(dxpl);
		if (st < 0) {
			rc = sb_err_set(err, SB_EXIT_RUN, "cannot read dataset '%s' of '%s'",
					dataset, path);
			goto out;
		}
	}
	*keep = SB_NEW(hsize_t, nrow > 0 ? (size_t)nrow : 1);
	for (r = 0; r < (size_t)nrow; r++) {
		for (i = 0; i < nwhere; i++)
			if (!sb_table_cell_is(&sub, r, wc[i], strchr(where[i], '=') + 1))
				break;
		if (i == nwhere)
			(*keep)[(*nkeep)++] = r;
	}
out:
	if (init)
		sb_table_release(&sub);
	if (mty >= 0) H5Tclose(mty);
	if (strty >= 0) H5Tclose(strty);
	sb_free(name);
	sb_free(wc);
	sb_free(sc);
	return rc;
}

int sb_h5_read_table(const char *path, const char *dataset, struct sb_table *t,
		     struct sb_col **cols_out, struct sb_err *err)
{
	return sb_h5_read_table_where(path, dataset, 0, NULL, t, cols_out, err);
}

int sb_h5_read_table_where(const char *path, const char *dataset, int nwhere,
			   const char *const *where, struct sb_table *t,
			   struct sb_col **cols_out, struct sb_err *err)
{
	hid_t f = open_file(path, err), ds = -1, fty = -1, mty = -1, sp = -1, msp = -1,
	      strty = -1, dxpl = H5P_DEFAULT;
	struct sb_col *cols = NULL;
	hsize_t *keep = NULL;
	size_t nkeep = 0;
	int nm, i, rc = 0;
	hssize_t nrow;

	*cols_out = NULL;
	if (f < 0)
		return SB_EXIT_INPUT;
	if (H5Lexists(f, dataset, H5P_DEFAULT) <= 0) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "results file '%s' has no dataset '%s'",
				path, dataset);
		goto out;
	}
	ds = H5Dopen2(f, dataset, H5P_DEFAULT);
	fty = H5Dget_type(ds);
	if (H5Tget_class(fty) != H5T_COMPOUND) {
		rc = sb_err_set(err, SB_EXIT_INPUT, "dataset '%s' of '%s' is not a table",
				dataset, path);
		goto out;
	}
	sp = H5Dget_space(ds);
	nrow = H5Sget_simple_extent_npoints(sp);
	if (nrow < 0) {
		rc = sb_err_set(err, SB_EXIT_RUN, "cannot read the size of dataset '%s' of '%s'",
				dataset, path);
		goto out;
	}
	if (nwhere > 0 &&
	    (rc = filter_rows(ds, fty, nrow, nwhere, where, path, dataset, &keep, &nkeep, err)))
		goto out;
	nm = H5Tget_nmembers(fty);
	cols = SB_NEW(struct sb_col, nm + 1);
	for (i = 0; i < nm; i++) {
		char *name = H5Tget_member_name(fty, (unsigned)i);
		H5T_class_t cl = H5Tget_member_class(fty, (unsigned)i);
		cols[i].name = sb_xstrdup(name);
		H5free_memory(name);
		cols[i].type = cl == H5T_INTEGER ? SB_COL_INT
			     : cl == H5T_FLOAT ? SB_COL_DBL : SB_COL_STR;
		cols[i].unit = sb_xstrdup("");
	}
	sb_table_init(t, cols);
	mty = compound_of(t, &strty);
	/* H5Dread writes every byte of every row */
	if (nwhere == 0) {
		sb_table_alloc_rows(t, (size_t)nrow);
		if (nrow > 0) {
			dxpl = read_dxpl(fty, mty, (hsize_t)nrow);
			if (H5Dread(ds, mty, H5S_ALL, H5S_ALL, dxpl, t->data) < 0)
				rc = -1;
		}
	} else if (nkeep > 0) {
		hsize_t dim[1] = { nkeep };
		sb_table_alloc_rows(t, nkeep);
		msp = H5Screate_simple(1, dim, NULL);
		dxpl = read_dxpl(fty, mty, nkeep);
		if (H5Sselect_elements(sp, H5S_SELECT_SET, nkeep, keep) < 0 ||
		    H5Dread(ds, mty, msp, sp, dxpl, t->data) < 0)
			rc = -1;
	}
	if (rc) {
		rc = sb_err_set(err, SB_EXIT_RUN, "cannot read dataset '%s' of '%s'",
				dataset, path);
		sb_table_release(t);
		goto out;
	}
	*cols_out = cols;
	cols = NULL;
out:
	sb_h5_cols_free(cols);
	sb_free(keep);
	close_dxpl(dxpl);
	if (msp >= 0) H5Sclose(msp);
	if (sp >= 0) H5Sclose(sp);
	if (mty >= 0) H5Tclose(mty);
	if (strty >= 0) H5Tclose(strty);
	if (fty >= 0) H5Tclose(fty);
	if (ds >= 0) H5Dclose(ds);
	H5Fclose(f);
	return rc;
}

struct list_iter {
	char (*names)[64];
	int max, n;
};

static herr_t list_cb(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
	struct list_iter *it = data;
	(void)g; (void)info;
	if (it->n < it->max) {
		snprintf(it->names[it->n], 64, "%s", name);
		it->n++;
	}
	return 0;
}

int sb_h5_has_dataset(const char *path, const char *name, struct sb_err *err)
{
	hid_t f = open_file(path, err);
	int has;

	if (f < 0)
		return SB_EXIT_INPUT;
	has = H5Lexists(f, name, H5P_DEFAULT) > 0;
	H5Fclose(f);
	return has;
}

int sb_h5_list(const char *path, char (*names)[64], int max, int *n, struct sb_err *err)
{
	struct list_iter it = { names, max, 0 };
	hsize_t idx = 0;
	hid_t f = open_file(path, err);
	if (f < 0)
		return SB_EXIT_INPUT;
	H5Literate(f, H5_INDEX_NAME, H5_ITER_INC, &idx, list_cb, &it);
	H5Fclose(f);
	*n = it.n;
	return 0;
}
