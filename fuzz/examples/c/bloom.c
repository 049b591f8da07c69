/* See bloom.h. Written from docs/format.md alone, as a user would write it. */
#include "bloom.h"

#include <stdlib.h>
#include <string.h>

#define HEADER_LEN 32u
#define MAX_BITS ((uint64_t)1 << 40)
#define MAX_K ((uint32_t)1 << 16)

static uint64_t read_le(const uint8_t* p, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static void write_le(uint8_t* p, uint64_t v, unsigned width) {
  for (unsigned i = 0; i < width; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t fnv1a64(const uint8_t* item, size_t size) {
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < size; ++i) {
    h ^= item[i];
    h *= 0x00000100000001b3u;
  }
  return h;
}

static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

static size_t bytes_for(uint64_t m) { return (size_t)(m / 8 + (m % 8 != 0)); }

int bloom_from_bytes(const uint8_t* data, size_t size, struct bloom* out) {
  if (size < HEADER_LEN || memcmp(data, "TLBF", 4) != 0 || read_le(data + 4, 4) != 1) return -1;
  const uint64_t m = read_le(data + 8, 8);
  const uint64_t k = read_le(data + 16, 4);
  if (m < 1 || m > MAX_BITS || k < 1 || k > MAX_K || read_le(data + 20, 4) != 0) return -1;
  /* The length before anything is allocated: a forged m costs nothing. */
  if (size - HEADER_LEN != bytes_for(m)) return -1;
  if (m % 8 != 0) {
#ifdef TLBF_EXAMPLE_PADDING_BUG
    const unsigned first_padding_bit = (unsigned)(m % 8) + 1; /* the planted bug: one bit too high */
#else
    const unsigned first_padding_bit = (unsigned)(m % 8);
#endif
    if ((data[size - 1] >> first_padding_bit) != 0) return -1;
  }
  uint8_t* bits = malloc(bytes_for(m));
  if (!bits) return -1;
  memcpy(bits, data + HEADER_LEN, bytes_for(m));
  out->m = m;
  out->k = (uint32_t)k;
  out->n_inserted = read_le(data + 24, 8);
  out->bits = bits;
  return 0;
}

size_t bloom_to_bytes(const struct bloom* b, uint8_t* out, size_t capacity) {
  const size_t size = HEADER_LEN + bytes_for(b->m);
  if (size > capacity) return size;
  memcpy(out, "TLBF", 4);
  write_le(out + 4, 1, 4);
  write_le(out + 8, b->m, 8);
  write_le(out + 16, b->k, 4);
  write_le(out + 20, 0, 4);
  write_le(out + 24, b->n_inserted, 8);
  memcpy(out + HEADER_LEN, b->bits, bytes_for(b->m));
  return size;
}

void bloom_insert(struct bloom* b, const uint8_t* item, size_t size) {
  uint64_t h = fnv1a64(item, size);
  const uint64_t step = mix64(h) | 1;
  for (uint32_t i = 0; i < b->k; ++i, h += step) {
    const uint64_t g = h % b->m;
    b->bits[g / 8] = (uint8_t)(b->bits[g / 8] | (1u << (g % 8)));
  }
  if (b->n_inserted != UINT64_MAX) ++b->n_inserted;
}

int bloom_contains(const struct bloom* b, const uint8_t* item, size_t size) {
  uint64_t h = fnv1a64(item, size);
  const uint64_t step = mix64(h) | 1;
  for (uint32_t i = 0; i < b->k; ++i, h += step) {
    const uint64_t g = h % b->m;
    if (!(b->bits[g / 8] >> (g % 8) & 1)) return 0;
  }
  return 1;
}

uint64_t bloom_count_ones(const struct bloom* b) {
  uint64_t n = 0;
  for (size_t i = 0; i < bytes_for(b->m); ++i) n += (uint64_t)__builtin_popcount(b->bits[i]);
  return n;
}

int bloom_union(struct bloom* into, const struct bloom* other) {
  if (into->m != other->m || into->k != other->k) return -1;
  for (size_t i = 0; i < bytes_for(into->m); ++i) into->bits[i] |= other->bits[i];
  into->n_inserted =
      other->n_inserted > UINT64_MAX - into->n_inserted ? UINT64_MAX : into->n_inserted + other->n_inserted;
  return 0;
}

void bloom_free(struct bloom* b) {
  free(b->bits);
  b->bits = NULL;
}
