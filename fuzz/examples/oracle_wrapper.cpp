// tlbf_fuzz_from_bytes over the oracle itself: the harness's control, on
// which it must find nothing (fuzz/CMakeLists.txt). A difference here is a
// bug in the harness, not in a parser.
#include <cstdint>
#include <cstring>
#include <new>

#include "tlbf/bloom.hpp"
#include "tlbf/fuzz.h"

namespace {

tlbf::Bloom& bloom(void* h) { return *static_cast<tlbf::Bloom*>(h); }

}  // namespace

extern "C" const char* tlbf_fuzz_name(void) { return "oracle-wrapper"; }

extern "C" int tlbf_fuzz_from_bytes(const std::uint8_t* data, std::size_t size, tlbf_fuzz_filter* filter) {
  auto loaded = tlbf::Bloom::from_bytes(tlbf::ByteView(data, size));
  if (!loaded) return TLBF_FUZZ_FORMAT;
  auto* b = new tlbf::Bloom(std::move(loaded).value());
  filter->handle = b;
  filter->m = b->m();
  filter->k = b->k();
  filter->n_inserted = b->n_inserted();
  filter->contains = [](void* h, const std::uint8_t* item, std::size_t n) {
    return bloom(h).contains(tlbf::ByteView(item, n)) ? 1 : 0;
  };
  filter->to_bytes = [](void* h, std::uint8_t* out, std::size_t capacity) {
    const auto file = bloom(h).to_bytes();
    if (file.size() <= capacity) std::memcpy(out, file.data(), file.size());
    return file.size();
  };
  filter->insert = [](void* h, const std::uint8_t* item, std::size_t n) {
    bloom(h).insert(tlbf::ByteView(item, n));
  };
  filter->count_ones = [](void* h) { return bloom(h).count_ones(); };
  filter->union_with_self = [](void* h) -> int {
    const tlbf::Bloom copy = bloom(h);
    return bloom(h).union_with(copy) ? TLBF_FUZZ_OK : TLBF_FUZZ_MISMATCH;
  };
  filter->free = [](void* h) { delete static_cast<tlbf::Bloom*>(h); };
  return TLBF_FUZZ_OK;
}
