// The run-time selection of the mutant build (TLBF_MUTANTS only).
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

#include "tlbf/mutant_switch.hpp"

namespace tlbf::mutants {
namespace {

// Without allocating: active() is noexcept and runs inside the oracle's calls.
std::optional<Id> named(const char* name) noexcept {
  if (name == nullptr || *name == '\0') return Id::none;
  for (int i = 0; i < kCount; ++i) {
    if (std::strcmp(name, kNames[i]) == 0) return static_cast<Id>(i + 1);
  }
  return std::nullopt;
}

std::atomic<int> g_active{-1};  // -1: not chosen yet

}  // namespace

Outcome<Id> mutant_from_environment() {
  const char* name = std::getenv("TLBF_MUTANT");
  if (const auto id = named(name)) return *id;
  std::string why = "TLBF_MUTANT=" + std::string(name) + " names no mutant; use one of";
  for (int i = 0; i < kCount; ++i) why += std::string(" ") + kNames[i];
  return failure(why + ", or leave it unset");
}

Id active() noexcept {
  int current = g_active.load(std::memory_order_relaxed);
  if (current < 0) {
    // A name main() did not refuse is taken for none, not a reason to end
    // the process in the middle of an oracle call.
    current = static_cast<int>(named(std::getenv("TLBF_MUTANT")).value_or(Id::none));
    g_active.store(current, std::memory_order_relaxed);
  }
  return static_cast<Id>(current);
}

void set_active(Id id) noexcept { g_active.store(static_cast<int>(id), std::memory_order_relaxed); }

}  // namespace tlbf::mutants
