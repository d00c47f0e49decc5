/*
 * stg.c - Standard Task Graph Set files of T. Tobita and H. Kasahara,
 * "A standard task graph set for fair evaluation of multiprocessor
 * scheduling algorithms", Journal of Scheduling 5(5), 2002.
 *
 * Format: the STG pages of the Kasahara Laboratory (kasahara.cs.waseda.ac.jp/
 * schedule) as described in ../shared/data/SOURCES.md, section 2, for the
 * copies from github.com/sandy2008/Scheduling-With-Dependencies:
 *   standard  - line 1 "n"; n+2 lines "id time k pred_1 .. pred_k" (any
 *               order), entry dummy 0 and exit dummy n+1;
 *   prototype - line 1 "n p"; tasks 1..n+1 (exit dummy n+1), optionally an
 *               added entry line "0 0 0";
 *   lines starting with '#' are the information part; in the original files
 *   (e.g. github.com/mcsweeney90/heterogeneous_optimistic_finish_time,
 *   simulator/graphs/random/STG) it holds "# CP Length : 1401".
 * Verified: both layouts load and sample00 has critical path 15. Our design:
 * identical unit-speed devices with free transfers (the STG model has no
 * communication), dummies kept as zero-work ops, strict checks (exact task
 * count, unique ids, k matching the ids given, no self-loop or cycle).
 */
#include "load.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest device count accepted: the rate matrix is ndev^2 doubles. */
#define STG_MAX_DEV 4096

struct stg_task {
	long id;
	long time;
	int line;
	size_t pred_at, npred;
};

/* Next blank-separated token of *s, NUL-terminated in place, or NULL. */
static char *next_tok(char **s)
{
	char *p = *s, *t;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p) {
		*s = p;
		return NULL;
	}
	t = p;
	while (*p && *p != ' ' && *p != '\t')
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return t;
}

/* Case-insensitive substring test. */
static int has_word(const char *s, const char *w)
{
	size_t k = strlen(w);

	for (; *s; s++) {
		size_t i;
		for (i = 0; i < k && s[i] &&
		     tolower((unsigned char)s[i]) == tolower((unsigned char)w[i]); i++)
			;
		if (i == k)
			return 1;
	}
	return 0;
}

/* The critical-path length on an information line, or -1: the first
 * integer after a ':' if there is one, else the last integer of the line. */
static long trailer_value(const char *s)
{
	const char *colon, *p, *best = NULL;
	long v;
	char *end;

	if (!has_word(s, "critical path") && !has_word(s, "cp length"))
		return -1;
	colon = strchr(s, ':');
	for (p = colon ? colon + 1 : s; *p; p++)
		if (isdigit((unsigned char)*p)) {
			best = p;
			if (colon)
				break;
			while (isdigit((unsigned char)p[1]))
				p++;
		}
	if (!best)
		return -1;
	errno = 0;
	v = strtol(best, &end, 10);
	return errno == ERANGE ? -1 : v;
}

int sb_load_stg(const char *path, int ndev, struct sb_dag_inst *in,
		long *trailer_cp, struct sb_err *err)
{
	struct sb_wl_file f;
	struct stg_task *task = NULL;
	long *pred = NULL, n = -1, nproc = 0, cp = -1;
	size_t ntask = 0, cap_task = 0, npred = 0, cap_pred = 0, k;
	int *row_of = NULL, *eu = NULL, *ev = NULL, *eline = NULL, *cyc = NULL;
	int rc, proto = 0, header_line = 0, base, nops, i, j, ne = 0;
	char *line, *s, *tok;
	void *t;

	memset(in, 0, sizeof *in);
	if (trailer_cp)
		*trailer_cp = -1;
	if (ndev < 1 || ndev > STG_MAX_DEV)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "cannot read stg '%s': %d devices, expected 1..%d",
				  path, ndev, STG_MAX_DEV);
	rc = sb_wl_open(&f, "stg", path, err);
	if (rc)
		return rc;

	while ((line = sb_wl_next(&f))) {
		struct stg_task *x;
		long v, kk;

		s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#') {
			long c = trailer_value(s);
			if (cp < 0 && c >= 0)
				cp = c;
			continue;
		}
		if (!*s)
			continue;
		if (n < 0) {
			/* The header: "n" (standard) or "n p" (prototype). */
			header_line = f.lineno;
			tok = next_tok(&s);
			if ((rc = sb_wl_long(&f, err, "n", tok, 0, INT_MAX - 3, &n)))
				goto out;
			tok = next_tok(&s);
			if (tok) {
				proto = 1;
				if ((rc = sb_wl_long(&f, err, "processors", tok, 1,
						     INT_MAX, &nproc)))
					goto out;
			}
			if (next_tok(&s)) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"expected 'n' or 'n p' on the first line");
				goto out;
			}
			continue;
		}
		if (ntask >= (size_t)n + 2) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
					"more task lines than line %d announces (n = %ld: %s)",
					header_line, n, proto ? "tasks 1..n+1, optionally 0"
					: "tasks 0..n+1");
			goto out;
		}
		if (!(t = sb_wl_grow(task, &cap_task, ntask + 1, sizeof *task))) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		task = t;
		x = &task[ntask];
		x->line = f.lineno;
		x->pred_at = npred;
		x->npred = 0;
		/* next_tok may return NULL: sb_wl_long reports a missing value. */
		tok = next_tok(&s);
		if ((rc = sb_wl_long(&f, err, "task id", tok ? tok : "", 0, n + 1, &x->id)))
			goto out;
		tok = next_tok(&s);
		if ((rc = sb_wl_long(&f, err, "processing time", tok ? tok : "", 0,
				     LONG_MAX, &x->time)))
			goto out;
		tok = next_tok(&s);
		if ((rc = sb_wl_long(&f, err, "predecessor count", tok ? tok : "", 0,
				     INT_MAX, &kk)))
			goto out;
		while ((tok = next_tok(&s))) {
			if ((long)x->npred == kk) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "predecessor",
						"more ids than the count %ld", kk);
				goto out;
			}
			if ((rc = sb_wl_long(&f, err, "predecessor", tok, 0, n + 1, &v)))
				goto out;
			if (v == x->id) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "predecessor",
						"task %ld lists itself (self-loop)", v);
				goto out;
			}
			if (!(t = sb_wl_grow(pred, &cap_pred, npred + 1, sizeof *pred))) {
				rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
				goto out;
			}
			pred = t;
			pred[npred++] = v;
			x->npred++;
		}
		if ((long)x->npred != kk) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "predecessor",
					"%zu ids, expected the count %ld (truncated line?)",
					x->npred, kk);
			goto out;
		}
		ntask++;
	}
	if (n < 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, "n",
				"no task count (empty file?)");
		goto out;
	}
	/* Standard: exactly tasks 0..n+1. Prototype: tasks 1..n+1, and 0 when
	 * an entry line was added. */
	if (ntask != (size_t)n + 2 && !(proto && ntask == (size_t)n + 1)) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno + 1, NULL,
				"%zu task lines, expected %ld%s as line %d announces",
				ntask, n + 2 - proto, proto ? " (or one more with task 0)" : "",
				header_line);
		goto out;
	}
	base = ntask == (size_t)n + 2 ? 0 : 1;
	nops = (int)ntask;
	row_of = sb_malloc(((size_t)n + 2) * sizeof *row_of);
	eu = sb_malloc((npred + 1) * sizeof *eu);
	ev = sb_malloc((npred + 1) * sizeof *ev);
	eline = sb_malloc((npred + 1) * sizeof *eline);
	cyc = sb_malloc((size_t)nops * sizeof *cyc);
	if (!row_of || !eu || !ev || !eline || !cyc) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	for (i = 0; i < n + 2; i++)
		row_of[i] = -1;
	for (k = 0; k < ntask; k++) {
		long id = task[k].id;
		if (id < base) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, task[k].line, "task id",
					"task %ld in a prototype file without an entry line "
					"(expected %ld task lines)", id, n + 2);
			goto out;
		}
		if (row_of[id] >= 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, task[k].line, "task id",
					"duplicate task id %ld (also on line %d)", id,
					task[row_of[id]].line);
			goto out;
		}
		row_of[id] = (int)k;
	}
	/* Unique ids in [base, n+1] and exactly that many lines: none missing. */
	for (k = 0; k < ntask && pred; k++)
		for (j = 0; j < (int)task[k].npred; j++) {
			long u = pred[task[k].pred_at + (size_t)j];
			if (u < base) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, task[k].line,
						"predecessor", "unknown task id %ld", u);
				goto out;
			}
			eu[ne] = (int)(u - base);
			ev[ne] = (int)(task[k].id - base);
			eline[ne++] = task[k].line;
		}

	sb_dag_alloc(&in->g, nops);
	for (i = 0; i < nops; i++) {
		const struct stg_task *x = &task[row_of[i + base]];
		in->g.ext_id[i] = x->id;
		in->g.ops[i] = (double)x->time;
	}
	{
		int len = sb_wl_find_cycle(nops, ne, eu, ev, cyc);
		if (len < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
			goto out;
		}
		if (len > 0) {
			char c[200];
			int e = cyc[len - 1];
			sb_wl_cycle_str(c, sizeof c, in->g.ext_id, eu, cyc, len);
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, eline[e], "predecessor",
					"edge %ld -> %ld closes a cycle (%s)",
					in->g.ext_id[eu[e]], in->g.ext_id[ev[e]], c);
			goto out;
		}
	}
	rc = sb_dag_finish(&in->g, ne, eu, ev, NULL, 0, NULL, NULL, err);
	if (rc) {
		sb_err_prefix(err, "cannot read stg '%s': ", path);
		goto out;
	}

	sb_devices_alloc(&in->dev, ndev);
	for (i = 0; i < ndev; i++) {
		in->dev.speed[i] = 1;
		in->dev.mem[i] = INFINITY;
		in->dev.type[i] = SB_DEV_CPU;
		for (j = 0; j < ndev; j++)
			in->dev.rate[(size_t)i * ndev + j] = i == j ? 0 : INFINITY;
	}
	in->send_ops = 0;
	in->name = sb_wl_basename(path);
	{
		size_t len = strlen(path) + 48;
		in->source = sb_malloc(len);
		if (in->source)
			snprintf(in->source, len, "stg=%s ndev=%d", path, ndev);
	}
	if (!in->name || !in->source) {
		rc = sb_wl_fail(&f, err, SB_EXIT_RUN, 0, NULL, "out of memory");
		goto out;
	}
	if (trailer_cp)
		*trailer_cp = cp;
out:
	(void)nproc;
	sb_wl_close(&f);
	sb_free(task);
	sb_free(pred);
	sb_free(row_of);
	sb_free(eu);
	sb_free(ev);
	sb_free(eline);
	sb_free(cyc);
	if (rc)
		sb_dag_inst_release(in);
	return rc;
}
