#include <map>

#include "flags.hpp"
#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {

std::string stats_markdown(const std::vector<VectorFile>& files) {
  std::string out = "| file | bytes | tests | valid | invalid | acceptable |\n|---|---|---|---|---|---|\n";
  std::map<std::string, int> per_flag;
  for (const auto& file : files) {
    std::map<std::string, int> results;
    for (const auto& group : file.doc["testGroups"]) {
      for (const auto& test : group["tests"]) {
        ++results[test["result"].get<std::string>()];
        for (const auto& flag : test["flags"]) ++per_flag[flag.get<std::string>()];
      }
    }
    out += "| " + file.name + " | " + std::to_string(serialize(file.doc).size()) + " | " +
           file.doc["numberOfTests"].dump() + " | " + std::to_string(results["valid"]) + " | " +
           std::to_string(results["invalid"]) + " | " + std::to_string(results["acceptable"]) + " |\n";
  }
  out += "\n| flag | type | tests | meaning |\n|---|---|---|---|\n";
  for (const auto& [flag, count] : per_flag) {
    const FlagNote& note = flag_notes().at(flag);
    out += "| " + flag + " | " + note.bug_type + " | " + std::to_string(count) + " | " + note.description +
           " |\n";
  }
  return out;
}

}  // namespace tlbf::vectors
