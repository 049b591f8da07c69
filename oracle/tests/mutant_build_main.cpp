// The main of the oracle's suite against the mutant build: like every main of
// that build it refuses a TLBF_MUTANT that names no mutant, with status 2,
// which oracle_suite_kills_ID does not count as a kill.
#include <gtest/gtest.h>

#include <iostream>

#include "tlbf/mutant_switch.hpp"

int main(int argc, char** argv) {
  const auto chosen = tlbf::mutants::mutant_from_environment();
  if (!chosen.ok()) {
    std::cerr << chosen.why() << "\n";
    return 2;
  }
  tlbf::mutants::set_active(chosen.value());
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
