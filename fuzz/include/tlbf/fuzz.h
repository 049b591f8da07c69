/* The in-process differential harness (docs/fuzzing.md, "Fuzzing your own
 * parser"). Link the CMake target tlbf::fuzz and define one function,
 * tlbf_fuzz_from_bytes: the harness supplies libFuzzer's
 * LLVMFuzzerTestOneInput, which gives every input to that function and to
 * the oracle's from_bytes and compares the two, then the filter operations
 * on what both loaded. A difference aborts with a message naming it and a
 * transcript that `tlbf check --transcript` replays.
 *
 * Plain C, so that a parser in C, C++ or Rust (through a staticlib with a
 * C ABI, as fuzz/rust/ does for the tl_ds crate) links without glue in the
 * other direction. */
#ifndef TLBF_FUZZ_H
#define TLBF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a call answered. A parser that cannot tell why it refused says
 * TLBF_FUZZ_REFUSED, and only the refusal itself is compared; one that can
 * names the kind (from_bytes must refuse with Format), and the kind is
 * compared too. */
enum tlbf_fuzz_verdict {
  TLBF_FUZZ_OK = 0,
  TLBF_FUZZ_REFUSED = 1,
  TLBF_FUZZ_FORMAT = 2,
  TLBF_FUZZ_BAD_PARAMS = 3,
  TLBF_FUZZ_MISMATCH = 4
};

/* A filter the parser loaded, as tlbf_fuzz_from_bytes reports it. The
 * harness zeroes it before each call. Any operation left NULL is not
 * checked (the harness says which, once, on stderr); `handle` is passed to
 * every operation as is. */
struct tlbf_fuzz_filter {
  void* handle;
  /* The header fields as the parser read them. */
  uint64_t m;
  uint32_t k;
  uint64_t n_inserted;

  /* Nonzero when every one of the item's k bits is set. */
  int (*contains)(void* handle, const uint8_t* item, size_t size);
  /* Writes the filter's bytes (header and bits) into out when they fit in
   * capacity, and returns their length either way: the harness asks again
   * with a larger buffer when the first was short. */
  size_t (*to_bytes)(void* handle, uint8_t* out, size_t capacity);
  void (*insert)(void* handle, const uint8_t* item, size_t size);
  uint64_t (*count_ones)(void* handle);
  /* The filter becomes the union of itself with itself: the bits stay and
   * n_inserted doubles (saturating). Returns a tlbf_fuzz_verdict. */
  int (*union_with_self)(void* handle);
  /* Releases the handle; called once for every accepted input. */
  void (*free)(void* handle);
};

/* Written by you: parse data[0, size) with your own from_bytes. On
 * acceptance fill *filter and return TLBF_FUZZ_OK; otherwise return the
 * verdict and leave *filter as it is (nothing is freed). */
int tlbf_fuzz_from_bytes(const uint8_t* data, size_t size, struct tlbf_fuzz_filter* filter);

/* Optional, written by you: a short name for the parser, used in findings'
 * signatures (oracle-vs-NAME-OP-HOW). Without it the harness uses
 * $TLBF_FUZZ_NAME, else "parser". */
const char* tlbf_fuzz_name(void);

#ifdef __cplusplus
}
#endif

#endif /* TLBF_FUZZ_H */
