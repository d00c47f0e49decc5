/*
 * topo.c - the topology tree of the topology-and-interference mode (spec
 * marl.md §2, §3.4, §5; all [O], our design: the paper is abstract-only):
 * builders, the file loader, spread levels and the anchor -> worker fill
 * rule that every topology placer shares.
 */
#include "cluster/topo.h"
#include "wlfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const double sb_cluster_tree_default_bw[SB_TREE_NSPREAD] = { 0, 10, 8, 5, 3, 1.25, 0.6 };

static const char *const level_names[SB_TREE_NLEVEL] = { "dc", "pod", "rack", "server",
							  "socket", "switch", "gpu" };

const char *sb_cluster_tree_level_name(int level)
{
	return level >= 0 && level < SB_TREE_NLEVEL ? level_names[level] : "?";
}

void sb_cluster_tree_release(struct sb_cluster_tree *t)
{
	if (!t)
		return;
	sb_free(t->parent);
	sb_free(t->level);
	sb_free(t->child_off);
	sb_free(t->child);
	sb_free(t->server_node);
	sb_free(t->gpu_node);
	sb_free(t->anc);
	sb_free(t->server_rack);
	sb_free(t->server_pod);
	sb_free(t->rack_off);
	sb_free(t->rack_server);
	sb_free(t->rack_pod);
	memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------------ */
/* Derived arrays                                                      */
/* ------------------------------------------------------------------ */

/*
 * From parent[] and level[] of a valid tree (root 0, children exactly one
 * level down, every server with the same G > 0 GPUs; checked by the
 * callers), derive the CSR children, the depth-first numbering of servers
 * and GPUs, the ancestors of every GPU and the racks.
 */
static void finish(struct sb_cluster_tree *t)
{
	int n = t->nnode, v, k, top, *stack, *fill, *rack_of_node, *pod_of_node;
	int anc_now[SB_TREE_NLEVEL];

	t->child_off = SB_NEW(int, n + 1);
	t->child = SB_NEW(int, n > 1 ? n - 1 : 1);
	for (v = 1; v < n; v++)
		t->child_off[t->parent[v] + 1]++;
	for (v = 0; v < n; v++)
		t->child_off[v + 1] += t->child_off[v];
	fill = SB_NEW(int, n);
	for (v = 1; v < n; v++) {
		int p = t->parent[v];
		t->child[t->child_off[p] + fill[p]++] = v;
	}
	sb_free(fill);

	t->nserver = t->ngpu = t->nrack = t->npod = 0;
	for (v = 0; v < n; v++) {
		t->nserver += t->level[v] == SB_TREE_SERVER;
		t->ngpu += t->level[v] == SB_TREE_GPU;
		t->nrack += t->level[v] == SB_TREE_RACK;
		t->npod += t->level[v] == SB_TREE_POD;
	}
	t->gpus = t->nserver ? t->ngpu / t->nserver : 0;
	t->server_node = SB_NEW(int, t->nserver);
	t->gpu_node = SB_NEW(int, t->ngpu);
	t->anc = SB_NEW(int, (size_t)t->ngpu * SB_TREE_NLEVEL);
	t->server_rack = SB_NEW(int, t->nserver);
	t->server_pod = SB_NEW(int, t->nserver);
	t->rack_pod = SB_NEW(int, t->nrack);
	t->rack_off = SB_NEW(int, t->nrack + 1);
	t->rack_server = SB_NEW(int, t->nserver);
	rack_of_node = SB_NEW(int, n);
	pod_of_node = SB_NEW(int, n);

	/* depth first, children in index order: pre-order numbering */
	stack = SB_NEW(int, n);
	top = 0;
	stack[top++] = 0;
	{
		int ns = 0, ng = 0, nr = 0, np = 0;
		while (top > 0) {
			v = stack[--top];
			anc_now[t->level[v]] = v;
			switch (t->level[v]) {
			case SB_TREE_POD:
				pod_of_node[v] = np++;
				break;
			case SB_TREE_RACK:
				rack_of_node[v] = nr;
				t->rack_pod[nr++] = pod_of_node[anc_now[SB_TREE_POD]];
				break;
			case SB_TREE_SERVER:
				t->server_rack[ns] = rack_of_node[anc_now[SB_TREE_RACK]];
				t->server_pod[ns] = pod_of_node[anc_now[SB_TREE_POD]];
				t->server_node[ns++] = v;
				break;
			case SB_TREE_GPU:
				for (k = 0; k < SB_TREE_NLEVEL; k++)
					t->anc[(size_t)ng * SB_TREE_NLEVEL + k] = anc_now[k];
				t->gpu_node[ng++] = v;
				break;
			default:
				break;
			}
			/* push in reverse so the first child pops first */
			for (k = t->child_off[v + 1] - 1; k >= t->child_off[v]; k--)
				stack[top++] = t->child[k];
		}
	}
	for (v = 0; v < t->nserver; v++)
		t->rack_off[t->server_rack[v] + 1]++;
	for (v = 0; v < t->nrack; v++)
		t->rack_off[v + 1] += t->rack_off[v];
	{
		int *pos = SB_NEW(int, t->nrack > 0 ? t->nrack : 1);
		for (v = 0; v < t->nserver; v++) {
			int r = t->server_rack[v];
			t->rack_server[t->rack_off[r] + pos[r]++] = v;
		}
		sb_free(pos);
	}
	sb_free(stack);
	sb_free(rack_of_node);
	sb_free(pod_of_node);
}

void sb_cluster_tree_build(struct sb_cluster_tree *t, const char *name, int pods, int racks, int servers,
		   int sockets, int switches, int gpus, const double *bw)
{
	int per[SB_TREE_NLEVEL] = { 1, pods, racks, servers, sockets, switches, gpus };
	int cnt[SB_TREE_NLEVEL], l, v, n = 0, first_prev = 0;

	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", name);
	memcpy(t->bw, bw ? bw : sb_cluster_tree_default_bw, sizeof t->bw);
	t->bw[0] = 0;
	cnt[0] = 1;
	for (l = 1; l < SB_TREE_NLEVEL; l++)
		cnt[l] = cnt[l - 1] * per[l];
	for (l = 0; l < SB_TREE_NLEVEL; l++)
		n += cnt[l];
	t->nnode = n;
	t->parent = SB_NEW(int, n);
	t->level = SB_NEW(unsigned char, n);
	/* level by level: node i of level l has parent i / per[l] of level l-1 */
	v = 0;
	for (l = 0; l < SB_TREE_NLEVEL; l++) {
		int i, first = v;
		for (i = 0; i < cnt[l]; i++, v++) {
			t->level[v] = (unsigned char)l;
			t->parent[v] = l == 0 ? -1 : first_prev + i / per[l];
		}
		first_prev = first;
	}
	finish(t);
}

int sb_cluster_tree_named(const char *name, struct sb_cluster_tree *t, struct sb_err *err)
{
	if (!strcmp(name, "T1"))
		sb_cluster_tree_build(t, "T1", 2, 2, 4, 2, 1, 2, NULL);
	else if (!strcmp(name, "T2"))
		sb_cluster_tree_build(t, "T2", 1, 4, 2, 2, 2, 2, NULL);
	else if (!strcmp(name, "T3"))
		sb_cluster_tree_build(t, "T3", 2, 4, 4, 2, 1, 2, NULL);
	else if (!strcmp(name, "T0"))
		sb_cluster_tree_build(t, "T0", 1, 1, 4, 2, 1, 2, NULL);
	else
		return sb_cluster_tree_load(name, t, err);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The file loader                                                     */
/* ------------------------------------------------------------------ */

struct rnode {
	char *id;
	char *parent_id;
	int level, line, gpus_declared;   /* -1: not declared */
};

static int find_id(const struct rnode *nd, int n, const char *id)
{
	int i;
	for (i = 0; i < n; i++)
		if (!strcmp(nd[i].id, id))
			return i;
	return -1;
}

static int level_of(const char *s)
{
	int l;
	for (l = 0; l < SB_TREE_NLEVEL; l++)
		if (!strcmp(s, level_names[l]))
			return l;
	return -1;
}

int sb_cluster_tree_load(const char *path, struct sb_cluster_tree *t, struct sb_err *err)
{
	struct sb_wl_file f;
	struct rnode *nd = NULL;
	size_t cap = 0;
	int n = 0, rc, i, root = -1, bw_line[SB_TREE_NSPREAD] = { 0 };
	int *par = NULL, *eu = NULL, *ev = NULL, *cyc = NULL, *under = NULL, *order = NULL;
	long *ext = NULL;
	char *line, name[64];
	double bw[SB_TREE_NSPREAD];

	memset(t, 0, sizeof *t);
	memcpy(bw, sb_cluster_tree_default_bw, sizeof bw);
	{
		char *b = sb_wl_basename(path);
		snprintf(name, sizeof name, "%s", b ? b : "topology");
		sb_free(b);
	}
	if ((rc = sb_wl_open(&f, "topology", path, err)) != 0)
		return rc;
	while ((line = sb_wl_next(&f)) != NULL) {
		char *hash = strchr(line, '#'), *tok[6];
		int nt = 0;
		if (hash)
			*hash = '\0';
		{
			char *p = line;
			while (nt < 6) {
				while (*p == ' ' || *p == '\t')
					p++;
				if (!*p)
					break;
				tok[nt++] = p;
				while (*p && *p != ' ' && *p != '\t')
					p++;
				if (*p)
					*p++ = '\0';
			}
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"too many fields");
				goto out;
			}
		}
		if (nt == 0)
			continue;
		if (!strcmp(tok[0], "name")) {
			if (nt != 2) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "name",
						"expected 'name NAME'");
				goto out;
			}
			snprintf(name, sizeof name, "%s", tok[1]);
		} else if (!strcmp(tok[0], "bw")) {
			int l = nt == 3 ? level_of(tok[1]) : -1;
			if (nt != 3 || l < SB_TREE_DC || l > SB_TREE_SWITCH) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "level",
						"expected 'bw LEVEL GBPS' with LEVEL one of switch, "
						"socket, server, rack, pod, dc");
				goto out;
			}
			if ((rc = sb_wl_double(&f, err, "bw", tok[2], 1e-9, 1e9,
					       &bw[SB_TREE_GPU - l])) != 0)
				goto out;
			bw_line[SB_TREE_GPU - l] = f.lineno;
		} else if (!strcmp(tok[0], "node")) {
			struct rnode *r;
			if (nt < 4 || nt > 5) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"expected 'node ID LEVEL PARENT [gpus=N]'");
				goto out;
			}
			if (n >= 1000000) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, NULL,
						"more than 1000000 nodes");
				goto out;
			}
			if (!(nd = sb_wl_grow(nd, &cap, (size_t)n + 1, sizeof *nd))) {
				rc = sb_err_set(err, SB_EXIT_RUN, "out of memory");
				goto out;
			}
			r = &nd[n];
			memset(r, 0, sizeof *r);
			r->line = f.lineno;
			r->gpus_declared = -1;
			r->id = tok[1];
			r->parent_id = tok[3];
			if ((r->level = level_of(tok[2])) < 0) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "level",
						"unknown level '%s' (dc, pod, rack, server, socket, "
						"switch, gpu)", tok[2]);
				goto out;
			}
			if (find_id(nd, n, r->id) >= 0) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "id",
						"node '%s' defined twice", r->id);
				goto out;
			}
			if (nt == 5) {
				long g;
				if (strncmp(tok[4], "gpus=", 5) != 0) {
					rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "gpus",
							"expected gpus=N, got '%s'", tok[4]);
					goto out;
				}
				if ((rc = sb_wl_long(&f, err, "gpus", tok[4] + 5, 0, 10000000, &g)) != 0)
					goto out;
				r->gpus_declared = (int)g;
			}
			n++;
		} else {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, f.lineno, "keyword",
					"unknown keyword '%s' (name, bw, node)", tok[0]);
			goto out;
		}
	}
	for (i = 1; i < SB_TREE_NSPREAD; i++)
		if (i > 1 && bw[i] > bw[i - 1]) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, bw_line[i] ? bw_line[i] : bw_line[i - 1],
					"bw", "bandwidth %g GB/s at level '%s' exceeds %g at '%s' "
					"below it (a wider span is never faster)", bw[i],
					level_names[SB_TREE_GPU - i], bw[i - 1],
					level_names[SB_TREE_GPU - i + 1]);
			goto out;
		}
	if (n == 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, "node", "no nodes");
		goto out;
	}
	/* parents, levels, the one root */
	par = SB_NEW(int, n);
	for (i = 0; i < n; i++) {
		if (nd[i].level == SB_TREE_DC) {
			if (strcmp(nd[i].parent_id, "-") != 0) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "parent",
						"the dc node has no parent: write '-'");
				goto out;
			}
			if (root >= 0) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "level",
						"a second dc node ('%s'; the first is '%s' on line %d)",
						nd[i].id, nd[root].id, nd[root].line);
				goto out;
			}
			root = i;
			par[i] = -1;
			continue;
		}
		par[i] = find_id(nd, n, nd[i].parent_id);
		if (par[i] < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "parent",
					"unknown parent '%s'", nd[i].parent_id);
			goto out;
		}
	}
	/* a cycle of parent links (which then cannot reach the root) */
	{
		int m = 0, len;
		eu = SB_NEW(int, n);
		ev = SB_NEW(int, n);
		cyc = SB_NEW(int, n);
		ext = SB_NEW(long, n);
		for (i = 0; i < n; i++) {
			ext[i] = i;
			if (par[i] >= 0) {
				eu[m] = i;
				ev[m++] = par[i];
			}
		}
		len = sb_wl_find_cycle(n, m, eu, ev, cyc);
		if (len < 0) {
			rc = sb_err_set(err, SB_EXIT_RUN, "out of memory");
			goto out;
		}
		if (len > 0) {
			char buf[256];
			size_t k = 0;
			int c;
			buf[0] = '\0';
			for (c = 0; c < len && k < sizeof buf - 8; c++)
				k += (size_t)snprintf(buf + k, sizeof buf - k, "%s -> ",
						      nd[eu[cyc[c]]].id);
			snprintf(buf + (k < sizeof buf ? k : sizeof buf - 1),
				 sizeof buf - (k < sizeof buf ? k : sizeof buf - 1), "%s",
				 nd[eu[cyc[0]]].id);
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[eu[cyc[0]]].line, "parent",
					"parent links form a cycle: %s", buf);
			goto out;
		}
	}
	if (root < 0) {
		rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, "level", "no dc (root) node");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (par[i] >= 0 && nd[i].level != nd[par[i]].level + 1) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "level",
					"a %s under a %s ('%s'): each level sits exactly one "
					"below its parent (dc, pod, rack, server, socket, switch, gpu)",
					level_names[nd[i].level], level_names[nd[par[i]].level],
					nd[par[i]].id);
			goto out;
		}
	/* GPUs under each node: process children before parents by level */
	under = SB_NEW(int, n);
	for (i = 0; i < n; i++)
		under[i] = nd[i].level == SB_TREE_GPU;
	{
		int l;
		for (l = SB_TREE_GPU; l > SB_TREE_DC; l--)
			for (i = 0; i < n; i++)
				if (nd[i].level == l)
					under[par[i]] += under[i];
	}
	for (i = 0; i < n; i++)
		if (nd[i].gpus_declared >= 0 && nd[i].gpus_declared != under[i]) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "gpus",
					"%s '%s' declares %d GPUs, its subtree holds %d",
					level_names[nd[i].level], nd[i].id, nd[i].gpus_declared,
					under[i]);
			goto out;
		}
	{
		int G = -1, first = -1;
		for (i = 0; i < n; i++) {
			if (nd[i].level != SB_TREE_SERVER)
				continue;
			if (under[i] == 0) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "gpus",
						"server '%s' has no GPU", nd[i].id);
				goto out;
			}
			if (G < 0) {
				G = under[i];
				first = i;
			} else if (under[i] != G) {
				rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "gpus",
						"server '%s' has %d GPUs, server '%s' (line %d) %d: "
						"every server needs the same count (GPU x is GPU "
						"x %% G of server x / G)", nd[i].id, under[i],
						nd[first].id, nd[first].line, G);
				goto out;
			}
		}
		if (G < 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, 0, "level", "no server node");
			goto out;
		}
	}
	for (i = 0; i < n; i++)
		if (nd[i].level != SB_TREE_GPU && under[i] == 0) {
			rc = sb_wl_fail(&f, err, SB_EXIT_INPUT, nd[i].line, "gpus",
					"%s '%s' has no GPU under it", level_names[nd[i].level],
					nd[i].id);
			goto out;
		}
	/* renumber: root first, then file order (a stable, documented order) */
	order = SB_NEW(int, n);
	{
		int k = 0;
		order[root] = k++;
		for (i = 0; i < n; i++)
			if (i != root)
				order[i] = k++;
	}
	snprintf(t->name, sizeof t->name, "%s", name);
	memcpy(t->bw, bw, sizeof t->bw);
	t->nnode = n;
	t->parent = SB_NEW(int, n);
	t->level = SB_NEW(unsigned char, n);
	for (i = 0; i < n; i++) {
		t->parent[order[i]] = par[i] < 0 ? -1 : order[par[i]];
		t->level[order[i]] = (unsigned char)nd[i].level;
	}
	finish(t);
	rc = 0;
out:
	sb_free(nd);
	sb_free(par);
	sb_free(eu);
	sb_free(ev);
	sb_free(cyc);
	sb_free(ext);
	sb_free(under);
	sb_free(order);
	sb_wl_close(&f);
	if (rc)
		sb_cluster_tree_release(t);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Spread                                                              */
/* ------------------------------------------------------------------ */

int sb_cluster_tree_lca(const struct sb_cluster_tree *t, int x, int y)
{
	const int *ax = t->anc + (size_t)x * SB_TREE_NLEVEL, *ay = t->anc + (size_t)y * SB_TREE_NLEVEL;
	int l;
	for (l = SB_TREE_GPU; l > SB_TREE_DC; l--)
		if (ax[l] == ay[l])
			return l;
	return SB_TREE_DC;
}

int sb_cluster_tree_spread(const struct sb_cluster_tree *t, const int *gpus, int n)
{
	int v, low = SB_TREE_GPU;
	for (v = 1; v < n; v++) {
		int l = sb_cluster_tree_lca(t, gpus[0], gpus[v]);
		if (l < low)
			low = l;
	}
	return n <= 1 ? 0 : SB_TREE_GPU - low;
}

/* GPUs under the node at level l containing GPU 0 (every subtree of a
 * level has the same size in the regular trees; in a file's tree the
 * largest subtree of that level counts). */
int sb_cluster_tree_best_spread(const struct sb_cluster_tree *t, int w)
{
	int l, v;
	if (w <= 1)
		return 0;
	for (l = SB_TREE_SWITCH; l >= SB_TREE_DC; l--) {
		int best = 0;
		/* GPUs under each node of level l: count by ancestors */
		int *cnt = SB_NEW(int, t->nnode);
		for (v = 0; v < t->ngpu; v++) {
			int a = t->anc[(size_t)v * SB_TREE_NLEVEL + l];
			if (++cnt[a] > best)
				best = cnt[a];
		}
		sb_free(cnt);
		if (best >= w)
			return SB_TREE_GPU - l;
	}
	return SB_TREE_NSPREAD - 1;
}

/* ------------------------------------------------------------------ */
/* The anchor -> worker fill rule (spec §3.4)                          */
/* ------------------------------------------------------------------ */

/* Free GPUs under tree node v (through its GPU descendants). */
static int free_under(const struct sb_cluster_tree *t, const unsigned char *gpu_free, int v,
		      int server)
{
	int x, c = 0, l = t->level[v];
	for (x = server * t->gpus; x < (server + 1) * t->gpus; x++)
		if (gpu_free[x] && t->anc[(size_t)x * SB_TREE_NLEVEL + l] == v)
			c++;
	return c;
}

/* Take the free GPUs under switch node sw (server `server`) in index
 * order into gpus[*k..), at most w in all. */
static void take_switch(const struct sb_cluster_tree *t, const unsigned char *gpu_free,
			unsigned char *taken, int sw, int server, int w, int *gpus, int *k)
{
	int x;
	for (x = server * t->gpus; x < (server + 1) * t->gpus && *k < w; x++)
		if (gpu_free[x] && !taken[x] && t->anc[(size_t)x * SB_TREE_NLEVEL + SB_TREE_SWITCH] == sw) {
			taken[x] = 1;
			gpus[(*k)++] = x;
		}
}

/*
 * Fill server s from its most suitable switch outwards: the best-fitting
 * switch that holds all `need` remaining workers (fewest free), else the
 * one with most free; then the other switches of that socket by most free,
 * then the other sockets by most free (their switches by most free).
 */
static void fill_server(const struct sb_cluster_tree *t, const unsigned char *gpu_free,
			unsigned char *taken, int s, int w, int *gpus, int *k)
{
	int node = t->server_node[s], a, b, need = w - *k;
	int best_sw = -1, best_free = -1, fit_sw = -1, fit_free = 1 << 30, sock;

	for (a = t->child_off[node]; a < t->child_off[node + 1]; a++) {
		int so = t->child[a];
		for (b = t->child_off[so]; b < t->child_off[so + 1]; b++) {
			int sw = t->child[b], fr = free_under(t, gpu_free, sw, s);
			if (fr > best_free) {
				best_free = fr;
				best_sw = sw;
			}
			if (fr >= need && fr < fit_free) {
				fit_free = fr;
				fit_sw = sw;
			}
		}
	}
	if (best_sw < 0 || best_free == 0)
		return;
	if (fit_sw >= 0)
		best_sw = fit_sw;
	take_switch(t, gpu_free, taken, best_sw, s, w, gpus, k);
	sock = t->parent[best_sw];
	/* the rest of the socket, then the other sockets: most free first */
	for (a = 0; a < 2 && *k < w; a++) {
		for (;;) {
			int pick = -1, pick_free = 0, c, d;
			for (c = t->child_off[node]; c < t->child_off[node + 1]; c++) {
				int so = t->child[c];
				if ((a == 0) != (so == sock))
					continue;
				for (d = t->child_off[so]; d < t->child_off[so + 1]; d++) {
					int sw = t->child[d], fr = 0, x;
					for (x = s * t->gpus; x < (s + 1) * t->gpus; x++)
						fr += gpu_free[x] && !taken[x] &&
						      t->anc[(size_t)x * SB_TREE_NLEVEL + SB_TREE_SWITCH] == sw;
					/* sockets other than the anchor's: prefer the switch
					 * of the socket with most free, approximated by the
					 * switch with most free (ties to the lower index) */
					if (fr > pick_free) {
						pick_free = fr;
						pick = sw;
					}
				}
			}
			if (pick < 0 || *k >= w)
				break;
			take_switch(t, gpu_free, taken, pick, s, w, gpus, k);
		}
	}
}

int sb_cluster_tree_fill_server(const struct sb_cluster_tree *t, const unsigned char *gpu_free,
				unsigned char *taken, int s, int count, int *gpus, int *k)
{
	int k0 = *k;
	fill_server(t, gpu_free, taken, s, *k + count, gpus, k);
	return *k - k0;
}

int sb_cluster_tree_fill(const struct sb_cluster_tree *t, const unsigned char *gpu_free, int anchor, int w,
		 int *gpus)
{
	int k = 0, r, x, *srv_free, i, rc = -1;
	unsigned char *taken;

	if (anchor < 0 || anchor >= t->nserver || w < 1)
		return -1;
	r = t->server_rack[anchor];
	{
		int fa = 0, fr = 0;
		for (x = anchor * t->gpus; x < (anchor + 1) * t->gpus; x++)
			fa += gpu_free[x] != 0;
		if (fa == 0)
			return -1;
		for (i = t->rack_off[r]; i < t->rack_off[r + 1]; i++) {
			int s = t->rack_server[i];
			for (x = s * t->gpus; x < (s + 1) * t->gpus; x++)
				fr += gpu_free[x] != 0;
		}
		if (fr < w)
			return -1;
	}
	taken = SB_NEW(unsigned char, t->ngpu);
	srv_free = SB_NEW(int, t->nserver);
	fill_server(t, gpu_free, taken, anchor, w, gpus, &k);
	for (i = t->rack_off[r]; i < t->rack_off[r + 1]; i++) {
		int s = t->rack_server[i];
		for (x = s * t->gpus; x < (s + 1) * t->gpus; x++)
			srv_free[s] += gpu_free[x] != 0;
	}
	while (k < w) {
		int pick = -1;
		for (i = t->rack_off[r]; i < t->rack_off[r + 1]; i++) {
			int s = t->rack_server[i];
			if (s == anchor || srv_free[s] <= 0)
				continue;
			if (pick < 0 || srv_free[s] > srv_free[pick])
				pick = s;
		}
		if (pick < 0)
			SB_BUG("topo fill: rack %d ran out of GPUs after its count said %d fit", r, w);
		fill_server(t, gpu_free, taken, pick, w, gpus, &k);
		srv_free[pick] = 0;
	}
	rc = 0;
	sb_free(taken);
	sb_free(srv_free);
	return rc;
}

int sb_cluster_tree_anchor_mask(const struct sb_cluster_tree *t, const int *free_srv, int w,
			unsigned char *mask)
{
	int s, r, i, cnt = 0;
	for (r = 0; r < t->nrack; r++) {
		int fr = 0;
		for (i = t->rack_off[r]; i < t->rack_off[r + 1]; i++)
			fr += free_srv[t->rack_server[i]];
		for (i = t->rack_off[r]; i < t->rack_off[r + 1]; i++) {
			s = t->rack_server[i];
			mask[s] = free_srv[s] > 0 && fr >= w;
			cnt += mask[s];
		}
	}
	return cnt;
}
