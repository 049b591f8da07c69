// Every flag a vector may carry, with what it means (docs/vectors.md, "Flags").
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tlbf::vectors {

struct FlagNote {
  std::string bug_type;  // BASIC, EDGE_CASE, MALFORMED, DECISION or PLATFORM
  std::string description;
  bool lenient = false;  // tests carrying it are "acceptable", not "valid"/"invalid"
};

const std::map<std::string, FlagNote>& flag_notes();

// The flags that make a test "acceptable".
std::vector<std::string> lenient_flags();

}  // namespace tlbf::vectors
