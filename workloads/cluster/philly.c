/*
 * philly.c - the job list extracted from the Microsoft Philly trace of
 * M. Jeon, S. Venkataraman, A. Phanishayee, J. Qian, W. Xiao, F. Yang,
 * "Analysis of Large-Scale Multi-Tenant GPU Clusters for DNN Training
 * Workloads", USENIX ATC 2019.
 *
 * Format: analysis/jobs.json of github.com/marwage/philly-traces at commit
 * b7416164 (a fork of msr-fiddle/philly-traces), described in
 * ../shared/data/SOURCES.md, section 5: an array of {id, num_gpus, runtime
 * in minutes, attempts [{start_time, end_time}], submitted_time}, times as
 * "YYYY-MM-DD HH:MM:SS". Verified: the shared file loads completely (3034
 * jobs, the GPU-count and attempt histograms and the date range of
 * SOURCES.md). Our design: times are read as UTC civil time with our own
 * date arithmetic (no locale, no time zone, no timegm); submit is counted
 * from the earliest loaded submission; runtime is the file's value * 60,
 * not recomputed from the attempts (whose times are only checked); two
 * kinds of well-formed but unplayable jobs are dropped (trace.h).
 */
#include "json.h"
#include "trace.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest runtime accepted, in seconds (as in tiresias.c). */
#define PHILLY_MAX_SECONDS 1e12

enum { DROP_NONE, DROP_RUNTIME0, DROP_NO_ATTEMPT, NDROP };

static const char *const drop_name[NDROP] = {
	"", "runtime 0", "no attempt",
};

/* ------------------------------------------------------------------ */
/* Dates                                                               */
/* ------------------------------------------------------------------ */

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar
 * (H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, int m, int d)
{
	long long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static int digits(const char *s, int k, int *out)
{
	int v = 0, i;

	for (i = 0; i < k; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* "YYYY-MM-DD HH:MM:SS" (years 0001..9999) as seconds since the epoch;
 * -1 when malformed, with the reason in why. */
static int parse_time(const char *s, long long *secs, const char **why)
{
	static const int mdays[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, se, leap, dim;

	*why = "expected 'YYYY-MM-DD HH:MM:SS'";
	if (strlen(s) != 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' ||
	    s[13] != ':' || s[16] != ':' || digits(s, 4, &y) || digits(s + 5, 2, &mo) ||
	    digits(s + 8, 2, &d) || digits(s + 11, 2, &h) || digits(s + 14, 2, &mi) ||
	    digits(s + 17, 2, &se))
		return -1;
	*why = "no such date or time";
	if (y < 1 || mo < 1 || mo > 12 || h > 23 || mi > 59 || se > 59)
		return -1;
	leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	dim = mdays[mo - 1] + (mo == 2 && leap);
	if (d < 1 || d > dim)
		return -1;
	*secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Jobs                                                                */
/* ------------------------------------------------------------------ */

static const char *a_type(enum sb_json_type t)
{
	switch (t) {
	case SB_JSON_NULL: return "null";
	case SB_JSON_BOOL: return "a boolean";
	case SB_JSON_NUMBER: return "a number";
	case SB_JSON_STRING: return "a string";
	case SB_JSON_ARRAY: return "an array";
	case SB_JSON_OBJECT: return "an object";
	}
	return "a value";
}

static int bad(const struct sb_json *j, struct sb_err *err, int line,
	       const char *field, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int bad(const struct sb_json *j, struct sb_err *err, int line,
	       const char *field, const char *fmt, ...)
{
	char what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	return sb_wl_fail(&j->f, err, SB_EXIT_INPUT, line, field, "%s", what);
}

static int want_type(const struct sb_json *j, struct sb_err *err,
		     const struct sb_json_val *x, const char *field,
		     enum sb_json_type t)
{
	if (x->type == t)
		return 0;
	return bad(j, err, x->line, field, "%s, expected %s", a_type(x->type),
		   a_type(t));
}

static int read_time(const struct sb_json *j, struct sb_err *err,
		     const struct sb_json_val *x, const char *field, long long *secs)
{
	const char *why;
	int rc;

	if ((rc = want_type(j, err, x, field, SB_JSON_STRING)))
		return rc;
	if (parse_time(x->str, secs, &why))
		return bad(j, err, x->line, field, "'%.40s': %s", x->str, why);
	return 0;
}

/* Look up the members named in keys[0..k) of object o into got[] (NULL
 * when absent); a name given twice is an error. Other members are
 * ignored. */
static int members(const struct sb_json *j, struct sb_err *err,
		   const struct sb_json_val *o, const char *const *keys, int k,
		   const struct sb_json_val **got, const char *const *field)
{
	const struct sb_json_val *x;
	int i;

	for (i = 0; i < k; i++)
		got[i] = NULL;
	for (x = sb_json_at(j, o->child); x; x = sb_json_at(j, x->next))
		for (i = 0; i < k; i++) {
			if (strcmp(x->key, keys[i]))
				continue;
			if (got[i])
				return bad(j, err, x->line, field[i], "given twice in "
					   "one object (also on line %d)", got[i]->line);
			got[i] = x;
			break;
		}
	for (i = 0; i < k; i++)
		if (!got[i])
			return bad(j, err, o->line, field[i], "missing from the "
				   "object that starts on this line");
	return 0;
}

static int read_attempts(const struct sb_json *j, struct sb_err *err,
			 const struct sb_json_val *a, int *count)
{
	static const char *const keys[2] = { "start_time", "end_time" };
	const struct sb_json_val *x, *got[2];
	int rc, i = 0;

	if ((rc = want_type(j, err, a, "attempts", SB_JSON_ARRAY)))
		return rc;
	for (x = sb_json_at(j, a->child); x; x = sb_json_at(j, x->next), i++) {
		char f0[48], f1[48];
		const char *field[2] = { f0, f1 };
		long long t0, t1;

		snprintf(f0, sizeof f0, "attempts[%d].start_time", i);
		snprintf(f1, sizeof f1, "attempts[%d].end_time", i);
		if (x->type != SB_JSON_OBJECT) {
			snprintf(f0, sizeof f0, "attempts[%d]", i);
			return want_type(j, err, x, f0, SB_JSON_OBJECT);
		}
		if ((rc = members(j, err, x, keys, 2, got, field)) ||
		    (rc = read_time(j, err, got[0], f0, &t0)) ||
		    (rc = read_time(j, err, got[1], f1, &t1)))
			return rc;
		if (t1 < t0)
			return bad(j, err, got[1]->line, f1, "'%s' is before the "
				   "start '%s'", got[1]->str, got[0]->str);
	}
	*count = i;
	return 0;
}

/* Read the job object o into x (submit: absolute seconds); *id_line is
 * the line of its id, *drop says whether and why it is not loaded. */
static int read_job(const struct sb_json *j, struct sb_err *err,
		    const struct sb_json_val *o, int index,
		    struct sb_trace_job *x, int *id_line, int *drop)
{
	static const char *const keys[5] = {
		"id", "num_gpus", "runtime", "attempts", "submitted_time",
	};
	const struct sb_json_val *got[5], *v;
	long long submit;
	size_t len;
	int rc;

	memset(x, 0, sizeof *x);
	*drop = DROP_NONE;
	if (o->type != SB_JSON_OBJECT)
		return bad(j, err, o->line, NULL, "array element %d (from 0) is "
			   "%s, expected a job object", index, a_type(o->type));
	if ((rc = members(j, err, o, keys, 5, got, keys)))
		return rc;

	v = got[0];
	if ((rc = want_type(j, err, v, "id", SB_JSON_STRING)))
		return rc;
	len = strlen(v->str);
	if (len == 0)
		return bad(j, err, v->line, "id", "empty");
	if (len >= sizeof x->id)
		return bad(j, err, v->line, "id", "'%.40s...' is longer than %zu "
			   "characters", v->str, sizeof x->id - 1);
	memcpy(x->id, v->str, len + 1);
	*id_line = v->line;

	v = got[1];
	if ((rc = want_type(j, err, v, "num_gpus", SB_JSON_NUMBER)))
		return rc;
	if (!v->is_int)
		return bad(j, err, v->line, "num_gpus", "not an integer: '%.*s'",
			   v->litlen > 40 ? 40 : v->litlen, v->lit);
	if (!(v->num >= 1 && v->num <= INT_MAX))
		return bad(j, err, v->line, "num_gpus", "value '%.*s' out of range "
			   "[1, %d]", v->litlen > 40 ? 40 : v->litlen, v->lit, INT_MAX);
	x->gpus = (int)v->num;

	v = got[2];
	if ((rc = want_type(j, err, v, "runtime", SB_JSON_NUMBER)))
		return rc;
	if (!isfinite(v->num))
		return bad(j, err, v->line, "runtime", "not a finite number: '%.*s'",
			   v->litlen > 40 ? 40 : v->litlen, v->lit);
	if (v->num < 0)
		return bad(j, err, v->line, "runtime", "negative value %g", v->num);
	if (v->num * 60 > PHILLY_MAX_SECONDS)
		return bad(j, err, v->line, "runtime", "value %g minutes out of "
			   "range (at most %g)", v->num, PHILLY_MAX_SECONDS / 60);
	x->runtime = v->num * 60;
	x->iters = -1;

	if ((rc = read_attempts(j, err, got[3], &x->attempts)))
		return rc;
	if ((rc = read_time(j, err, got[4], "submitted_time", &submit)))
		return rc;
	x->submit = (double)submit;

	if (x->runtime == 0)
		*drop = DROP_RUNTIME0;
	else if (x->attempts == 0)
		*drop = DROP_NO_ATTEMPT;
	return 0;
}

/* "3 jobs dropped: runtime 0 (2), no attempt (1)" or "". */
static void drop_note(char *buf, size_t size, const int *count, int total)
{
	size_t used;
	int k, first = 1;

	buf[0] = '\0';
	if (!total)
		return;
	used = (size_t)snprintf(buf, size, "%d job%s dropped:", total,
				total == 1 ? "" : "s");
	for (k = 1; k < NDROP && used < size; k++)
		if (count[k]) {
			used += (size_t)snprintf(buf + used, size - used, "%s %s (%d)",
						 first ? "" : ",", drop_name[k], count[k]);
			first = 0;
		}
}

int sb_load_philly_jobs(const char *path, struct sb_trace *t,
			struct sb_err *err)
{
	struct sb_json j;
	const struct sb_json_val *root, *o;
	int *line = NULL, ndrop[NDROP] = { 0 }, rc, index = 0;

	memset(t, 0, sizeof *t);
	if ((rc = sb_json_read(&j, "trace", path, err)))
		return rc;
	root = &j.v[0];
	if (root->type != SB_JSON_ARRAY) {
		rc = bad(&j, err, root->line, NULL, "the text is %s, expected an "
			 "array of jobs", a_type(root->type));
		goto out;
	}
	if (root->count == 0) {
		rc = bad(&j, err, root->line, NULL, "no jobs (empty array)");
		goto out;
	}
	t->job = sb_malloc((size_t)root->count * sizeof *t->job);
	line = sb_malloc((size_t)root->count * sizeof *line);
	if (!t->job || !line) {
		rc = sb_wl_fail(&j.f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (o = sb_json_at(&j, root->child); o; o = sb_json_at(&j, o->next)) {
		int drop;
		if ((rc = read_job(&j, err, o, index++, &t->job[t->n], &line[t->n],
				   &drop)))
			goto out;
		if (drop) {
			ndrop[drop]++;
			t->ndropped++;
			continue;
		}
		t->n++;
	}
	drop_note(t->drop_note, sizeof t->drop_note, ndrop, t->ndropped);
	if (t->n == 0) {
		rc = bad(&j, err, root->line, NULL, "no job left (%s)", t->drop_note);
		goto out;
	}
	if ((rc = sb_trace_unique_ids(t->job, t->n, line, &j.f, "id", err)) ||
	    (rc = sb_trace_order(t, &j.f, err)))
		goto out;
	snprintf(t->source, sizeof t->source, "philly=%s", path);
out:
	sb_json_release(&j);
	sb_free(line);
	if (rc)
		sb_trace_release(t);
	return rc;
}
