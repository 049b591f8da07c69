// What several of conformance_tests' sources use: the vector files' cases and
// the command of the misbehaving implementation (misbehaving_impl.py).
#pragma once

#include <string>
#include <vector>

#include "tlbf/conformance/cases.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::conformance::test_support {

// The cases of the vector files the oracle generates, made once per process.
inline const std::vector<Case>& all_cases() {
  static const auto cases = cases_from_vectors(vectors::generate());
  return cases;
}

// misbehaving_impl.py in `mode`; a `tag` in its command line lets a test look
// for its own processes only.
inline std::string misbehaving(const std::string& mode, const std::string& tag = "") {
  return std::string(TLBF_MISBEHAVING_IMPL) + " " + mode + (tag.empty() ? "" : " " + tag);
}

}  // namespace tlbf::conformance::test_support
