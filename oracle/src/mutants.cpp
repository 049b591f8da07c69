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
  for (int i = 0; i < kCount; ++i) {
    if (std::strcmp(name, kNames[i]) == 0) return static_cast<Id>(i + 1);
  }
  // The process can go on neither as a mutant it is not nor as the oracle:
  // status 2, which the kill tests do not count as a kill
  // (oracle/tests/CMakeLists.txt).
  std::fprintf(stderr, "TLBF_MUTANT=%s names no mutant; use one of", name);
  for (int i = 0; i < kCount; ++i) std::fprintf(stderr, " %s", kNames[i]);
  std::fprintf(stderr, ", or leave it unset\n");
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
