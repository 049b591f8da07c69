#include "tlbf/bit_array.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace tlbf::detail {
namespace {

std::size_t mapped_length(std::size_t bytes) { return (bytes + kMappedFrom - 1) / kMappedFrom * kMappedFrom; }

}  // namespace

void* allocate_zeroed(std::size_t bytes) {
  if (bytes < kMappedFrom) {
    // operator new, so that the tests that count the heap's allocations see these too.
    void* p = ::operator new(bytes == 0 ? 1 : bytes);
    std::memset(p, 0, bytes);
    return p;
  }
  void* p = ::mmap(nullptr, mapped_length(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  // A hint: where transparent huge pages are off, nothing changes.
  ::madvise(p, mapped_length(bytes), MADV_HUGEPAGE);
#endif
  return p;
}

void release_zeroed(void* p, std::size_t bytes) noexcept {
  if (!p) return;
  if (bytes < kMappedFrom) {
    ::operator delete(p);
  } else {
    ::munmap(p, mapped_length(bytes));
  }
}

}  // namespace tlbf::detail
