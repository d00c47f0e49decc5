/*
 * catalog.c - the model catalogue and the named cluster shapes of the
 * cluster family (spec asrpt.md §2.1 and §8).
 *
 * Model facts are public (parameter counts; forward cost per sample in
 * multiply-adds at 224 x 224, the figure usually quoted as "FLOPs";
 * transformer depth, width and sequence length); the parallel
 * configurations, batch sizes and activation sizes at a stage boundary are
 * our choices [O]. Gradients: fp16 (2 bytes per parameter) for the
 * transformers, fp32 (4 bytes) for the CNNs. The latter is close to the
 * per-model gradient lists of the Tiresias simulator where those list every
 * tensor (VGG-16: 526.8 MiB there, 138.4 M x 4 B = 527.9 MiB here); they
 * keep only the large tensors of the ResNets (ResNet-50: 80.6 vs 97.7 MiB).
 */
#include "jobs.h"

#include <string.h>

#define CNN(nm, P, gf, act, ...) \
	{ { nm, SB_MODEL_CNN, P, 0, 0, 0, gf, 4.0 * (P), act, 256 }, \
	  sizeof((struct sb_config[]){ __VA_ARGS__ }) / sizeof(struct sb_config), { __VA_ARGS__ } }
#define TRF(nm, P, L, h, s, ...) \
	{ { nm, SB_MODEL_TRANSFORMER, P, L, h, s, 0, 2.0 * (P), 2.0 * (s) * (h), 64 }, \
	  sizeof((struct sb_config[]){ __VA_ARGS__ }) / sizeof(struct sb_config), { __VA_ARGS__ } }

/* activation of one sample at a mid-network stage boundary: 28 x 28 x 512
 * fp16 values (VGG conv4 / ResNet layer3 input) */
#define ACT_CNN (28.0 * 28 * 512 * 2)
#define DP1 { 1, 1, 1 }
#define DP2 { 2, 1, 1 }
#define DP4 { 4, 1, 1 }
#define DP8 { 8, 1, 1 }

static const struct sb_catalog_entry catalog[] = {
	CNN("resnet50", 25.6e6, 4.1e9, ACT_CNN, DP1, DP2, DP4, DP8, { 16, 1, 1 }),
	CNN("vgg16", 138.4e6, 15.5e9, ACT_CNN, DP1, DP2, DP4, DP8, { 2, 1, 2 }),
	TRF("bert-base", 110e6, 12, 768, 512, DP2, DP4, DP8, { 2, 2, 1 }),
	TRF("bert-large", 340e6, 24, 1024, 512, { 2, 2, 2 }, { 4, 2, 1 }, { 2, 1, 4 }),
	TRF("gpt2-medium", 355e6, 24, 1024, 1024, { 2, 2, 2 }, { 4, 2, 2 }),
	TRF("gpt2-large", 774e6, 36, 1280, 1024, { 2, 4, 2 }, { 1, 4, 4 }),
	TRF("gpt2-xl", 1.5e9, 48, 1600, 1024, { 2, 4, 4 }, { 1, 8, 4 }),
	/* the other CNNs of the Tiresias trace: data-parallel only */
	CNN("alexnet", 61.1e6, 0.72e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("googlenet", 6.6e6, 1.5e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("inception3", 23.8e6, 5.7e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("inception4", 42.7e6, 12.3e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("resnet101", 44.5e6, 7.8e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("resnet152", 60.2e6, 11.5e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("vgg11", 132.9e6, 7.6e9, ACT_CNN, DP1, DP2, DP4, DP8),
	CNN("vgg19", 143.7e6, 19.6e9, ACT_CNN, DP1, DP2, DP4, DP8),
};

#define NCAT ((int)(sizeof catalog / sizeof catalog[0]))

const struct sb_catalog_entry *sb_catalog(int *n)
{
	*n = NCAT;
	return catalog;
}

int sb_catalog_find(const char *name)
{
	int i;
	for (i = 0; i < NCAT; i++)
		if (strcmp(catalog[i].model.name, name) == 0)
			return i;
	return -1;
}

void sb_catalog_models(struct sb_jobset *js)
{
	int i;
	sb_free(js->model);
	js->nmodel = NCAT;
	js->model = SB_NEW(struct sb_model, NCAT);
	for (i = 0; i < NCAT; i++)
		js->model[i] = catalog[i].model;
}

/* ------------------------------------------------------------------ */
/* Clusters                                                            */
/* ------------------------------------------------------------------ */

static const struct sb_cluster clusters[] = {
	{ "testbed", 4, 4, 16e9, 1.25e9, 312e12, 0.35, 30, 0, 0, NULL },
	{ "sim128", 16, 8, 300e9, 12.5e9, 312e12, 0.35, 30, 0, 0, NULL },
	{ "sim512", 64, 8, 300e9, 12.5e9, 312e12, 0.35, 30, 0, 0, NULL },
	{ "pai6500", 1625, 4, 300e9, 12.5e9, 312e12, 0.35, 30, 0, 0, NULL },
	/* the shape of the Tiresias trace's own cluster_spec.csv (1 switch x
	 * 16 nodes x 4 GPUs); the file gives no link speeds: the testbed's */
	{ "tiresias64", 16, 4, 16e9, 1.25e9, 312e12, 0.35, 30, 0, 0, NULL },
};

int sb_cluster_named(const char *name, struct sb_cluster *c, struct sb_err *err)
{
	size_t i;
	for (i = 0; i < sizeof clusters / sizeof clusters[0]; i++)
		if (strcmp(clusters[i].name, name) == 0) {
			*c = clusters[i];
			return 0;
		}
	return sb_err_set(err, SB_EXIT_INPUT,
			  "unknown cluster '%s' (known: testbed, sim128, sim512, pai6500, "
			  "tiresias64)", name);
}
