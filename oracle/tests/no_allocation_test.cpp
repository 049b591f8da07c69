// insert and contains promise to allocate nothing. This binary replaces the
// global allocation functions with counting ones to hold them to it; it is a
// separate executable so that no other test shares the replacement.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "tlbf/oracle.hpp"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
// Not inlined: GCC 12 at -Os inlines these into gtest's `new TestClass` and
// then reports free() on memory from operator new (-Wmismatched-new-delete),
// not seeing that the operator new it pairs with is the one above, which
// allocates with malloc. Called, they are what the standard expects of a
// replacement, and the pairing is plain to the compiler.
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace tlbf {
namespace {

TEST(NoAllocation, InsertAndContainsAllocateNothing) {
  Bloom filter = Bloom::with_rate(1000, 0.01).value();
  const std::string long_item(4096, 'x');  // allocated before the window
  const long before = g_allocations.load();
  for (int i = 0; i < 100; ++i) {
    filter.insert("cat");
    filter.insert(long_item);
    EXPECT_TRUE(filter.contains("cat"));
    EXPECT_TRUE(filter.contains(long_item));
    (void)filter.contains("bird");
  }
  EXPECT_EQ(g_allocations.load(), before);
}

TEST(NoAllocation, TheCounterSeesAllocations) {
  // Without this, a counter that never counts would pass the test above.
  const Bloom filter = Bloom::with_rate(1000, 0.01).value();
  const long before = g_allocations.load();
  const auto positions = filter.bit_positions("cat");
  EXPECT_EQ(positions.size(), filter.k());
  EXPECT_GT(g_allocations.load(), before);
}

}  // namespace
}  // namespace tlbf
