/* A TLBF v1 Bloom filter in C, standing in for a user's own parser in the
 * in-process harness's example and tests (docs/fuzzing.md, "Fuzzing your
 * own parser"). Built with TLBF_EXAMPLE_PADDING_BUG defined it has a
 * planted bug: its padding check skips the lowest padding bit, so it
 * accepts a file the format refuses. */
#ifndef TLBF_EXAMPLE_BLOOM_H
#define TLBF_EXAMPLE_BLOOM_H

#include <stddef.h>
#include <stdint.h>

struct bloom {
  uint64_t m;
  uint32_t k;
  uint64_t n_inserted;
  uint8_t* bits; /* ceil(m / 8) bytes */
};

/* 0 and *out filled, or -1 when the bytes are not one TLBF v1 filter. */
int bloom_from_bytes(const uint8_t* data, size_t size, struct bloom* out);
/* The file's length; writes it into out only when it fits in capacity. */
size_t bloom_to_bytes(const struct bloom* b, uint8_t* out, size_t capacity);
void bloom_insert(struct bloom* b, const uint8_t* item, size_t size);
int bloom_contains(const struct bloom* b, const uint8_t* item, size_t size);
uint64_t bloom_count_ones(const struct bloom* b);
/* 0, or -1 (and nothing changed) when m or k differ. */
int bloom_union(struct bloom* into, const struct bloom* other);
void bloom_free(struct bloom* b);

#endif
