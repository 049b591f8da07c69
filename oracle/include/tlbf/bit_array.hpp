// The storage of a filter's bits: zeroed bytes that, for large filters, come
// straight from the kernel and ask for transparent huge pages
// (docs/performance.md, "Memory").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tlbf {

namespace detail {

// Allocations of at least this many bytes are mapped, not taken from the heap.
inline constexpr std::size_t kMappedFrom = std::size_t{2} << 20;

void* allocate_zeroed(std::size_t bytes);  // throws std::bad_alloc
void release_zeroed(void* p, std::size_t bytes) noexcept;

}  // namespace detail

// Hands out memory that is already zero: anonymous mappings (advised to use
// huge pages) from 2 MiB up, zeroed heap memory below. Since the memory is
// zero, constructing an element with no value writes nothing, so a large
// filter's pages become resident only as its bits are first touched, and a
// filter of m bits costs close to m/8 bytes of resident memory, never twice.
//
// The price: elements that a vector value-initialises are zero only because
// fresh memory is. A vector that shrinks and then grows again without
// reallocating gets its old bytes back, not zeros. Filters never resize their
// bits after they are made, and nothing else here grows a BitArray.
template <class T>
struct ZeroedAllocator {
  using value_type = T;
  ZeroedAllocator() noexcept = default;
  template <class U>
  ZeroedAllocator(const ZeroedAllocator<U>&) noexcept {}  // NOLINT: allocators convert implicitly

  T* allocate(std::size_t n) { return static_cast<T*>(detail::allocate_zeroed(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { detail::release_zeroed(p, n * sizeof(T)); }

  // Value-initialising a byte of zeroed memory: nothing to do.
  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(static_cast<Args&&>(args)...);
  }

  friend bool operator==(const ZeroedAllocator&, const ZeroedAllocator&) noexcept { return true; }
};

using BitArray = std::vector<std::uint8_t, ZeroedAllocator<std::uint8_t>>;

}  // namespace tlbf
