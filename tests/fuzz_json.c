/*
 * fuzz_json.c - libFuzzer harness of the engine's JSON reader
 * (core/json.h): the input is the document. An accepted document must be a
 * well-formed value tree (children after their parent, counted, members
 * keyed, strings NUL-free); a rejected one must be reported as bad input
 * naming the file. Corpus tests/fuzz/json/, dictionary tests/fuzz/json.dict.
 */
#include <math.h>
#include <string.h>

#include "json.h"
#include "tests/fuzzkit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = sb_fuzz_file(0, ".json", data, size);
	struct sb_json j;
	struct sb_err err = { 0, "" };
	int k;

	if (!sb_fuzz_loaded1(sb_json_read(&j, "json", path, &err), &err, path)) {
		SB_FUZZ_CHECK(j.v == NULL && j.n == 0, "rejected but not zeroed");
		return 0;
	}
	SB_FUZZ_CHECK(j.n > 0, "accepted an empty document");
	for (k = 0; k < j.n; k++) {
		const struct sb_json_val *x = &j.v[k];
		int c = 0, e;
		SB_FUZZ_CHECK(x->line >= 1, "value %d: line %d", k, x->line);
		for (e = x->child; e >= 0; e = j.v[e].next, c++) {
			SB_FUZZ_CHECK(e > k && e < j.n, "value %d: child %d", k, e);
			SB_FUZZ_CHECK((j.v[e].key != NULL) == (x->type == SB_JSON_OBJECT),
				      "value %d: member keys", k);
		}
		SB_FUZZ_CHECK(c == x->count, "value %d: %d children, count %d", k, c, x->count);
		SB_FUZZ_CHECK((x->str != NULL) == (x->type == SB_JSON_STRING), "value %d: str", k);
		SB_FUZZ_CHECK(x->type != SB_JSON_NUMBER || !isnan(x->num), "value %d: NaN", k);
		SB_FUZZ_CHECK(x->type != SB_JSON_NUMBER || (x->lit && x->litlen > 0),
			      "value %d: number without its literal", k);
	}
	sb_json_release(&j);
	return 0;
}
