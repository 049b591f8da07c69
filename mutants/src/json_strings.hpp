// A JSON list of strings as a vector, for the files that read what tlbf
// wrote (a kit, a report, class.json).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tlbf::mutants {

// Throws nlohmann's type_error when an element is not a string.
inline std::vector<std::string> strings_of(const nlohmann::ordered_json& list) {
  std::vector<std::string> out;
  for (const auto& s : list) out.push_back(s.get<std::string>());
  return out;
}

}  // namespace tlbf::mutants
