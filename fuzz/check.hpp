// How a fuzz target reports a broken invariant: a message on stderr and
// abort(), which libFuzzer turns into a crash artifact and the replay
// driver into a failed test.
#pragma once

#include <cstdio>
#include <cstdlib>

#define TLBF_FUZZ_CHECK(condition, ...)                                               \
  do {                                                                                \
    if (!(condition)) {                                                               \
      std::fprintf(stderr, "tlbf fuzz: %s:%d: %s: ", __FILE__, __LINE__, #condition); \
      std::fprintf(stderr, __VA_ARGS__);                                              \
      std::fprintf(stderr, "\n");                                                     \
      std::abort();                                                                   \
    }                                                                                 \
  } while (false)
