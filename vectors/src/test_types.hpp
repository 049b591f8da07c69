// The kinds of test a vector file holds. For each, which keys are inputs and
// how the oracle computes the rest: the generator fills tests in with it and
// the lint recomputes them with it, so the two cannot disagree.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tlbf/outcome.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {

struct TestType {
  std::string name;                 // the testGroups "type", e.g. "Fnv1a64Test"
  std::vector<std::string> inputs;  // keys after tcId, comment, flags; all required
  // The expected outputs for the inputs, without "result"; {"errorKind": K}
  // when the operation must fail. A Failure names an input that is not
  // written as docs/vectors.md says; an input of the wrong JSON type or a
  // key missing throws json's exception.
  std::function<Outcome<json>(const json& test)> compute;
};

// The test type named `name`, or a Failure naming it.
Outcome<const TestType*> test_type(const std::string& name);

// The whole test: tcId, comment, flags, the inputs, the outputs and result.
// `lenient_flags` are the flags whose tests are "acceptable" rather than
// "valid" or "invalid". A Failure (or a json exception) as TestType::compute.
Outcome<json> complete_test(const TestType& type, const json& test,
                            const std::vector<std::string>& lenient_flags);

// Flags a generator case gets from computation rather than by hand.
bool ideal_m_depends_on_last_bit_of_log(std::uint64_t n, double p);

}  // namespace tlbf::vectors
