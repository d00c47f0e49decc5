/*
 * exp.c - helpers every experiment's setup uses: real input files (with
 * their sha256 for the provenance attributes) and lists of labels.
 */
#include "exp.h"

#include <stdio.h>
#include <unistd.h>

int sb_exp_add_input(struct sb_exp_ctx *c, const char *path, struct sb_err *err)
{
	int rc;
	if (c->ninputs == SB_MAX_INPUTS)
		SB_BUG("too many inputs");
	rc = sb_sha256_file(path, c->input_sha[c->ninputs], err);
	if (rc)
		return rc;
	c->input_path[c->ninputs++] = sb_xstrdup(path);
	return 0;
}

const char *sb_exp_data(const struct sb_exp_ctx *c, const char *rel, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", c->data_dir, rel);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

void sb_exp_free_list(char **list)
{
	int i;
	for (i = 0; list && list[i]; i++)
		sb_free(list[i]);
	sb_free(list);
}

int sb_exp_ndetails(const struct sb_experiment *e)
{
	int n = 0;
	while (e->details && e->details[n].name)
		n++;
	if (n > SB_MAX_DETAILS)
		SB_BUG("experiment %s: more than %d detail datasets", e->name, SB_MAX_DETAILS);
	return n;
}
