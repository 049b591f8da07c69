/* The one function a user writes for the in-process harness
 * (docs/fuzzing.md, "Fuzzing your own parser"): parse with your own
 * from_bytes and report what you got, with the operations the harness may
 * call on the filter. Here the parser is the C example beside it. */
#include <stdlib.h>

#include "bloom.h"
#include "tlbf/fuzz.h"

static int contains(void* h, const uint8_t* item, size_t size) { return bloom_contains(h, item, size); }
static size_t to_bytes(void* h, uint8_t* out, size_t capacity) { return bloom_to_bytes(h, out, capacity); }
static void insert(void* h, const uint8_t* item, size_t size) { bloom_insert(h, item, size); }
static uint64_t count_ones(void* h) { return bloom_count_ones(h); }
static int union_with_self(void* h) { return bloom_union(h, h) == 0 ? TLBF_FUZZ_OK : TLBF_FUZZ_MISMATCH; }
static void release(void* h) {
  bloom_free(h);
  free(h);
}

const char* tlbf_fuzz_name(void) { return "example"; }

int tlbf_fuzz_from_bytes(const uint8_t* data, size_t size, struct tlbf_fuzz_filter* filter) {
  struct bloom* b = malloc(sizeof *b);
  if (!b) abort();
  if (bloom_from_bytes(data, size, b) != 0) {
    free(b);
    return TLBF_FUZZ_FORMAT; /* this parser refuses only what is not a TLBF v1 file */
  }
  filter->handle = b;
  filter->m = b->m;
  filter->k = b->k;
  filter->n_inserted = b->n_inserted;
  filter->contains = contains;
  filter->to_bytes = to_bytes;
  filter->insert = insert;
  filter->count_ones = count_ones;
  filter->union_with_self = union_with_self;
  filter->free = release;
  return TLBF_FUZZ_OK;
}
