// The run-time selection of the mutant build (TLBF_MUTANTS only).
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tlbf/mutant_switch.hpp"

namespace tlbf::mutants {
namespace {

Id from_environment() noexcept {
  const char* name = std::getenv("TLBF_MUTANT");
  if (name == nullptr || *name == '\0') return Id::none;
  // "s01" .. "s10"
  if (std::strlen(name) == 3 && name[0] == 's' && name[1] >= '0' && name[1] <= '1' && name[2] >= '0' && name[2] <= '9') {
    const int n = (name[1] - '0') * 10 + (name[2] - '0');
    if (n >= 1 && n <= 10) return static_cast<Id>(n);
  }
  std::fprintf(stderr, "TLBF_MUTANT=%s names no mutant; use s01 .. s10, or leave it unset\n", name);
  std::exit(2);
}

std::atomic<int> g_active{-1};  // -1: not chosen yet

}  // namespace

Id active() noexcept {
  int current = g_active.load(std::memory_order_relaxed);
  if (current < 0) {
    current = static_cast<int>(from_environment());
    g_active.store(current, std::memory_order_relaxed);
  }
  return static_cast<Id>(current);
}

void set_active(Id id) noexcept { g_active.store(static_cast<int>(id), std::memory_order_relaxed); }

}  // namespace tlbf::mutants
