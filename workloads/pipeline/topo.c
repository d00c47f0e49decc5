/*
 * topo.c - GPU topologies of the pipeline family as bandwidth matrices
 * (spec pipeplan.md §2, §8; dapple.md §2, §5): a link graph of GPUs and
 * hubs (PCIe switches, NICs, network switches) closed under the widest
 * path, i.e. bw[g][h] = the largest bottleneck capacity of any path from g
 * to h (Floyd-Warshall with (max, min) in place of (min, +)).
 *
 * Named topologies and their sources:
 *   dgx1      8 V100 in the DGX-1 hybrid cube-mesh: every GPU has six
 *             NVLink2 links of 25 GB/s per direction (NVIDIA's DGX-1
 *             description: a cube whose 12 edges are NVLinks, some doubled,
 *             plus the diagonals of two faces); the per-pair link counts
 *             are those of `nvidia-smi topo -m` on a DGX-1V, rows GPU0
 *             (NV1 to 1 and 2, NV2 to 3 and 4) and GPU1 (NV1 to 0 and 3,
 *             NV2 to 2 and 5) as in the topology dump of
 *             github.com/NVIDIA/nccl/issues/671, the other rows by the
 *             mesh's symmetry. The doubled links form the Hamiltonian ring
 *             0-3-2-1-5-6-7-4-0, so every pair has a 50 GB/s widest path.
 *   pcie4     4 GPUs on one PCIe 3.0 x16 switch, 10 GB/s effective.
 *   2x8-nvlink-25gbe  (T-a) two dgx1 servers; each GPU reaches its server's
 *             NIC over PCIe (10 GB/s), the NICs a switch over 25 GbE
 *             (3 GB/s effective, pipeplan.md §2).
 *   4x4-pcie-10gbe    (T-b) four pcie4 servers whose switches reach a
 *             network switch over 10 GbE (1.2 GB/s, pipeplan.md §2).
 *   config-a  DAPPLE's 2 x 8 V100 with NVLink over 25 Gbps, with the
 *             authors' code constants (dapple.md §2): NVLink P2P 25 GB/s
 *             between any two GPUs of a server (src/environment/ models
 *             the server flat, not as the cube-mesh), 3.0 GB/s between
 *             servers (the 25 GbE NCCL figure of both src/environment/ and
 *             analysis_dapple.py; their 1 GB/s "Ethernet P2P" constant
 *             belongs to the split-concat rule, which a cost model can
 *             apply on top with the server ids).
 *   config-b  16 servers of 1 V100 over 25 Gbps: 3.0 GB/s.
 *   config-c  16 servers of 1 V100 over 10 Gbps: 1.25 GB/s
 *             (analysis_dapple.py's 10 GbE).
 * All have 16 GB per GPU (V100 16 GB; DAPPLE's memory constant), speed 1
 * and latency 0 (a pure bandwidth model, like DAPPLE's cost model).
 *
 * Our design: the hub vertices, the link values above, and the random
 * generator of sb_topo_random (pipeplan.md §8 T-c leaves it open).
 */
#include "load.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vertices (GPUs + hubs) of a link graph: the closure is O(V^3) time and
 * O(V^2) memory. */
#define TOPO_MAX_VERTICES 1024
#define TOPO_RANDOM_MAX_GPUS 256

int sb_topo_from_links(struct sb_topo *t, const char *name, int ngpu, int nhub,
		       const int *server, int nlinks, const int *a, const int *b,
		       const double *cap, struct sb_err *err)
{
	double *w = NULL;
	int V, i, j, k, rc = 0;

	memset(t, 0, sizeof *t);
	if (!name)
		name = "topology";
	if (ngpu < 1 || nhub < 0 || ngpu > TOPO_MAX_VERTICES ||
	    nhub > TOPO_MAX_VERTICES - ngpu)
		return sb_err_set(err, SB_EXIT_INPUT,
				  "cannot build topology '%s': %d GPUs and %d hubs, "
				  "expected >= 1 GPU and at most %d vertices", name,
				  ngpu, nhub, TOPO_MAX_VERTICES);
	if (nlinks < 0 || (nlinks > 0 && (!a || !b || !cap)))
		return sb_err_set(err, SB_EXIT_INPUT,
				  "cannot build topology '%s': %d links", name, nlinks);
	V = ngpu + nhub;
	for (k = 0; k < nlinks; k++) {
		if (a[k] < 0 || a[k] >= V || b[k] < 0 || b[k] >= V)
			return sb_err_set(err, SB_EXIT_INPUT,
					  "cannot build topology '%s': link %d: endpoint "
					  "%d or %d outside 0..%d", name, k, a[k], b[k], V - 1);
		if (a[k] == b[k])
			return sb_err_set(err, SB_EXIT_INPUT,
					  "cannot build topology '%s': link %d joins vertex "
					  "%d to itself", name, k, a[k]);
		if (!(cap[k] > 0) || !isfinite(cap[k]))
			return sb_err_set(err, SB_EXIT_INPUT,
					  "cannot build topology '%s': link %d: capacity %g, "
					  "expected a finite value > 0", name, k, cap[k]);
	}
	for (i = 0; server && i < ngpu; i++)
		if (server[i] < 0 || server[i] >= ngpu)
			return sb_err_set(err, SB_EXIT_INPUT,
					  "cannot build topology '%s': GPU %d in server %d, "
					  "expected 0..%d", name, i, server[i], ngpu - 1);

	w = sb_calloc((size_t)V * V, sizeof *w);
	t->bw = sb_malloc((size_t)ngpu * ngpu * sizeof *t->bw);
	t->server = sb_calloc((size_t)ngpu, sizeof *t->server);
	if (!w || !t->bw || !t->server) {
		rc = sb_err_set(err, SB_EXIT_RUN,
				"cannot build topology '%s': out of memory", name);
		goto out;
	}
	for (k = 0; k < nlinks; k++) {
		w[(size_t)a[k] * V + b[k]] += cap[k];
		w[(size_t)b[k] * V + a[k]] += cap[k];
	}
	for (i = 0; i < V; i++)
		w[(size_t)i * V + i] = INFINITY;
	/* Widest paths: after step k, w[i][j] is the best bottleneck of the
	 * paths whose inner vertices are < k + 1. Only comparisons: exact. */
	for (k = 0; k < V; k++)
		for (i = 0; i < V; i++) {
			double wik = w[(size_t)i * V + k];
			if (wik <= 0)
				continue;
			for (j = 0; j < V; j++) {
				double via = sb_min(wik, w[(size_t)k * V + j]);
				if (via > w[(size_t)i * V + j])
					w[(size_t)i * V + j] = via;
			}
		}
	for (i = 0; i < ngpu; i++)
		for (j = 0; j < ngpu; j++) {
			double x = w[(size_t)i * V + j];
			if (!(x > 0)) {
				rc = sb_err_set(err, SB_EXIT_INPUT,
						"cannot build topology '%s': GPUs %d and %d are "
						"not connected", name, i, j);
				goto out;
			}
			t->bw[(size_t)i * ngpu + j] = x;
		}
	snprintf(t->name, sizeof t->name, "%s", name);
	t->n = ngpu;
	for (i = 0; i < ngpu; i++) {
		t->server[i] = server ? server[i] : 0;
		if (t->server[i] + 1 > t->nserver)
			t->nserver = t->server[i] + 1;
	}
	t->mem = SB_GPU_MEM_16G;
	t->speed = 1;
	t->latency = 0;
out:
	sb_free(w);
	if (rc)
		sb_topo_release(t);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Named topologies                                                    */
/* ------------------------------------------------------------------ */

/* A growing link list (named topologies are small and fixed). */
struct links {
	int n, cap;
	int *a, *b;
	double *c;
	int oom;
};

static void link_add(struct links *l, int a, int b, double c)
{
	if (l->oom)
		return;
	if (l->n == l->cap) {
		int nc = l->cap ? 2 * l->cap : 64;
		int *na = sb_realloc(l->a, (size_t)nc * sizeof *na);
		int *nb = na ? sb_realloc(l->b, (size_t)nc * sizeof *nb) : NULL;
		double *ncap = nb ? sb_realloc(l->c, (size_t)nc * sizeof *ncap) : NULL;
		if (na)
			l->a = na;
		if (nb)
			l->b = nb;
		if (!ncap) {
			l->oom = 1;
			return;
		}
		l->c = ncap;
		l->cap = nc;
	}
	l->a[l->n] = a;
	l->b[l->n] = b;
	l->c[l->n++] = c;
}

static void links_free(struct links *l)
{
	sb_free(l->a);
	sb_free(l->b);
	sb_free(l->c);
}

/* The DGX-1V NVLink pairs: (GPU, GPU, number of NVLink2 links). */
static const int dgx1_pairs[16][3] = {
	{ 0, 1, 1 }, { 0, 2, 1 }, { 0, 3, 2 }, { 0, 4, 2 },
	{ 1, 2, 2 }, { 1, 3, 1 }, { 1, 5, 2 }, { 2, 3, 2 },
	{ 2, 6, 1 }, { 3, 7, 1 }, { 4, 5, 1 }, { 4, 6, 1 },
	{ 4, 7, 2 }, { 5, 6, 2 }, { 5, 7, 1 }, { 6, 7, 2 },
};

static void add_dgx1(struct links *l, int base)
{
	int i;
	for (i = 0; i < 16; i++)
		link_add(l, base + dgx1_pairs[i][0], base + dgx1_pairs[i][1],
			 dgx1_pairs[i][2] * SB_BW_NVLINK2);
}

/* nserv servers of per GPUs; in each, every GPU joins hub `intra` of its
 * server at bw_in (when bw_in > 0); every server hub joins one switch at
 * bw_out. Hubs: server s has hub ngpu + s, the switch is ngpu + nserv. */
static void add_servers(struct links *l, int nserv, int per, double bw_in,
			double bw_out, int *server)
{
	int ngpu = nserv * per, s, g;

	for (s = 0; s < nserv; s++) {
		for (g = 0; g < per; g++) {
			server[s * per + g] = s;
			if (bw_in > 0)
				link_add(l, s * per + g, ngpu + s, bw_in);
		}
		if (nserv > 1)
			link_add(l, ngpu + s, ngpu + nserv, bw_out);
	}
}

static const char *const topo_names[] = {
	"dgx1", "pcie4", "2x8-nvlink-25gbe", "4x4-pcie-10gbe", "config-a",
	"config-b", "config-c",
};

const char *const *sb_topo_names(int *n)
{
	*n = (int)(sizeof topo_names / sizeof topo_names[0]);
	return topo_names;
}

/* A whole number in [1, 256] from s[0..len). */
static int spec_count(const char *s, size_t len, int *out)
{
	char buf[16], *end;
	long v;
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	v = strtol(buf, &end, 10);
	if (*end || buf[0] == '-' || buf[0] == '+' || v < 1 || v > 256)
		return -1;
	*out = (int)v;
	return 0;
}

static int spec_bw(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (!*s || *end || !(v > 0 && v <= 1e15))
		return -1;
	*out = v;
	return 0;
}

/*
 * "SxG:INTRA[:INTER]": S servers of G GPUs, every pair of GPUs of one
 * server at INTRA bytes/s, of different servers at INTER (required when
 * S > 1): PipeDream's -n G S -b INTRA INTER. The matrix is set directly,
 * not closed over a link graph, so that INTER > INTRA means what it says.
 */
static int topo_spec(const char *spec, struct sb_topo *t, struct sb_err *err)
{
	const char *x = strchr(spec, 'x'), *c1 = strchr(spec, ':'), *c2;
	int S, G, g, h;
	double intra, inter = 0;
	char bw1[64];

	if (!x || !c1 || x > c1 || spec_count(spec, (size_t)(x - spec), &S) ||
	    spec_count(x + 1, (size_t)(c1 - x - 1), &G))
		return sb_err_set(err, SB_EXIT_INPUT, "topology '%s': expected SERVERSxGPUS:INTRA"
				  "[:INTER] with 1..256 servers and GPUs per server (e.g. "
				  "4x8:25e9:3e9)", spec);
	if (S * G > 256)
		return sb_err_set(err, SB_EXIT_INPUT, "topology '%s': %d GPUs, at most 256",
				  spec, S * G);
	c2 = strchr(c1 + 1, ':');
	snprintf(bw1, sizeof bw1, "%.*s", c2 ? (int)(c2 - c1 - 1) : (int)strlen(c1 + 1), c1 + 1);
	if (spec_bw(bw1, &intra))
		return sb_err_set(err, SB_EXIT_INPUT, "topology '%s': intra-server bandwidth '%s' "
				  "is not a number in (0, 1e15] bytes/s", spec, bw1);
	if (S > 1 && !c2)
		return sb_err_set(err, SB_EXIT_INPUT, "topology '%s': %d servers need the "
				  "inter-server bandwidth (SxG:INTRA:INTER)", spec, S);
	if (c2 && spec_bw(c2 + 1, &inter))
		return sb_err_set(err, SB_EXIT_INPUT, "topology '%s': inter-server bandwidth '%s' "
				  "is not a number in (0, 1e15] bytes/s", spec, c2 + 1);
	if (c2 && S == 1)
		return sb_err_set(err, SB_EXIT_INPUT, "topology '%s': one server has no "
				  "inter-server bandwidth", spec);
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "%s", spec);
	t->n = S * G;
	t->nserver = S;
	t->bw = SB_NEW(double, (size_t)t->n * t->n);
	t->server = SB_NEW(int, t->n);
	t->mem = SB_GPU_MEM_16G;
	t->speed = 1;
	for (g = 0; g < t->n; g++) {
		t->server[g] = g / G;
		for (h = 0; h < t->n; h++)
			t->bw[g * t->n + h] = g == h ? INFINITY : g / G == h / G ? intra : inter;
	}
	return 0;
}

int sb_topo_named(const char *name, struct sb_topo *t, struct sb_err *err)
{
	struct links l = { 0 };
	int server[16], ngpu, nhub, k = -1, i, nn, rc;

	memset(t, 0, sizeof *t);
	sb_topo_names(&nn);
	for (i = 0; i < nn; i++)
		if (!strcmp(name, topo_names[i]))
			k = i;
	switch (k) {
	case 0: /* dgx1 */
		ngpu = 8;
		nhub = 0;
		for (i = 0; i < 8; i++)
			server[i] = 0;
		add_dgx1(&l, 0);
		break;
	case 1: /* pcie4 */
		ngpu = 4;
		nhub = 1;
		add_servers(&l, 1, 4, SB_BW_PCIE3, 0, server);
		break;
	case 2: /* 2x8-nvlink-25gbe */
		ngpu = 16;
		nhub = 3;
		add_dgx1(&l, 0);
		add_dgx1(&l, 8);
		add_servers(&l, 2, 8, SB_BW_PCIE3, SB_BW_25GBE, server);
		break;
	case 3: /* 4x4-pcie-10gbe */
		ngpu = 16;
		nhub = 5;
		add_servers(&l, 4, 4, SB_BW_PCIE3, SB_BW_10GBE, server);
		break;
	case 4: /* config-a */
		ngpu = 16;
		nhub = 3;
		add_servers(&l, 2, 8, SB_BW_NVLINK2, SB_BW_25GBE, server);
		break;
	case 5: /* config-b */
	case 6: /* config-c */
		/* One GPU per server: the GPU is the server's endpoint. */
		ngpu = 16;
		nhub = 1;
		for (i = 0; i < 16; i++) {
			server[i] = i;
			link_add(&l, i, 16, k == 5 ? SB_BW_25GBE : SB_BW_DAPPLE_10GBE);
		}
		break;
	default:
		if (*name >= '0' && *name <= '9')
			return topo_spec(name, t, err);
		return sb_err_set(err, SB_EXIT_INPUT,
				  "unknown topology '%s' (known: dgx1, pcie4, "
				  "2x8-nvlink-25gbe, 4x4-pcie-10gbe, config-a, config-b, "
				  "config-c, or SERVERSxGPUS:INTRA[:INTER] in bytes/s)", name);
	}
	if (l.oom) {
		links_free(&l);
		return sb_err_set(err, SB_EXIT_RUN,
				  "cannot build topology '%s': out of memory", name);
	}
	rc = sb_topo_from_links(t, name, ngpu, nhub, server, l.n, l.a, l.b, l.c, err);
	links_free(&l);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Random irregular topologies (T-c)                                   */
/* ------------------------------------------------------------------ */

/*
 * Draws, in this order:
 *   - server sizes from {1, 2, 4, 8} (the last one cut to what is left);
 *   - per server: a PCIe speed U(10, 12) GB/s joining every GPU to the
 *     server's PCIe hub; then NVLink islands: sizes U{1..left} in turn; in
 *     an island of k >= 2 GPUs, consecutive members are linked (a ring when
 *     k >= 3) with 1 or 2 NVLink2 links each (probability 1/2), and when
 *     k >= 4 every other pair gets one link with probability 0.3;
 *   - per server (when there are several): an uplink from its hub to the
 *     network switch, 25 GbE (3 GB/s), 10 GbE (1.2 GB/s) or 100 Gb
 *     InfiniBand (12 GB/s) with equal probability;
 *   - floor(nservers / 4) direct links between two distinct random servers'
 *     hubs, with a speed drawn from the same table;
 *   - memory 16 or 32 GB per GPU (probability 1/2).
 */
void sb_topo_random(struct sb_topo *t, int ngpus, struct sb_rng *r)
{
	static const int sizes[4] = { 1, 2, 4, 8 };
	static const double net[3] = { SB_BW_25GBE, SB_BW_10GBE, SB_BW_IB100 };
	struct links l = { 0 };
	struct sb_err err = { 0 };
	int *server = sb_xcalloc((size_t)ngpus, sizeof *server);
	int *first = sb_xcalloc((size_t)ngpus + 1, sizeof *first);
	int nserv = 0, g = 0, s, i, j, rc;
	char name[64];

	SB_ASSERT(ngpus >= 1 && ngpus <= TOPO_RANDOM_MAX_GPUS);
	while (g < ngpus) {
		int k = sizes[sb_rng_below(r, 4)];
		if (k > ngpus - g)
			k = ngpus - g;
		first[nserv] = g;
		for (i = 0; i < k; i++)
			server[g + i] = nserv;
		g += k;
		nserv++;
	}
	first[nserv] = ngpus;
	/* Hubs: ngpus + s for server s's PCIe hub, ngpus + nserv the switch. */
	for (s = 0; s < nserv; s++) {
		int lo = first[s], hi = first[s + 1], at = lo;
		double pcie = 10e9 + 2e9 * sb_rng_uniform(r);
		for (i = lo; i < hi; i++)
			link_add(&l, i, ngpus + s, pcie);
		while (at < hi) {
			int k = (int)sb_rng_int(r, 1, hi - at);
			for (i = 0; k >= 2 && i < (k == 2 ? 1 : k); i++)
				link_add(&l, at + i, at + (i + 1) % k,
					 (1 + (int)sb_rng_below(r, 2)) * SB_BW_NVLINK2);
			for (i = 0; k >= 4 && i < k; i++)
				for (j = i + 2; j < k; j++)
					if (!(i == 0 && j == k - 1) && sb_rng_bernoulli(r, 0.3))
						link_add(&l, at + i, at + j, SB_BW_NVLINK2);
			at += k;
		}
	}
	for (s = 0; nserv > 1 && s < nserv; s++)
		link_add(&l, ngpus + s, ngpus + nserv, net[sb_rng_below(r, 3)]);
	for (i = 0; nserv > 1 && i < nserv / 4; i++) {
		int x = (int)sb_rng_below(r, (uint32_t)nserv);
		int y = (int)sb_rng_below(r, (uint32_t)nserv - 1);
		if (y >= x)
			y++;
		link_add(&l, ngpus + x, ngpus + y, net[sb_rng_below(r, 3)]);
	}
	if (l.oom)
		sb_die(SB_EXIT_RUN, "out of memory");
	snprintf(name, sizeof name, "random-%dgpu-%dserver", ngpus, nserv);
	rc = sb_topo_from_links(t, name, ngpus, nserv + 1, server, l.n, l.a, l.b,
				l.c, &err);
	if (rc == SB_EXIT_RUN)
		sb_die(SB_EXIT_RUN, "out of memory");
	if (rc)
		SB_BUG("random topology rejected: %s", err.msg);
	t->mem = sb_rng_bernoulli(r, 0.5) ? SB_GPU_MEM_32G : SB_GPU_MEM_16G;
	links_free(&l);
	sb_free(server);
	sb_free(first);
}
