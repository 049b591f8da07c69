#include "tlbf/mutants/catalog.hpp"

#include <nlohmann/json.hpp>

namespace tlbf::mutants {

namespace {

Outcome<std::vector<Mutant>> parse_catalog() {
  try {
    const auto json = nlohmann::json::parse(catalog_json());
    std::vector<Mutant> out;
    for (const auto& m : json.at("mutants")) {
      const auto& oracle = m.at("oracle");
      out.push_back({m.at("id").get<std::string>(), oracle.at("file").get<std::string>(),
                     oracle.at("function").get<std::string>(), m.at("description").get<std::string>(),
                     oracle.at("original").get<std::string>(), oracle.at("mutated").get<std::string>(),
                     oracle.at("switch").get<std::string>(), oracle.at("places").get<int>()});
    }
    return out;
  } catch (const nlohmann::json::exception& e) {
    return failure(std::string("the embedded mutants/catalog.json cannot be read: ") + e.what());
  }
}

}  // namespace

const Outcome<std::vector<Mutant>>& read_catalog() {
  static const Outcome<std::vector<Mutant>> read = parse_catalog();
  return read;
}

const std::vector<Mutant>& catalog() {
  static const std::vector<Mutant> none;
  return read_catalog().ok() ? read_catalog().value() : none;
}

std::vector<std::string> ids() {
  std::vector<std::string> out;
  for (const auto& m : catalog()) out.push_back(m.id);
  return out;
}

std::string id_range() {
  const auto& all = catalog();
  return all.empty() ? std::string("(none)") : all.front().id + " .. " + all.back().id;
}

const Mutant* find(std::string_view id) {
  for (const auto& m : catalog()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

namespace {

std::string prefixed(const std::string& lines, char mark) {
  if (lines.empty()) return "";
  std::string out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t nl = lines.find('\n', start);
    out += mark + lines.substr(start, nl - start) + "\n";
    if (nl == std::string::npos) return out;
    start = nl + 1;
  }
}

std::size_t count_lines(const std::string& lines) {
  if (lines.empty()) return 0;
  std::size_t n = 1;
  for (char c : lines) n += c == '\n';
  return n;
}

}  // namespace

std::string unified_diff(const Mutant& m) {
  return "--- a/" + m.file + "\n+++ b/" + m.file + "\n@@ -1," + std::to_string(count_lines(m.original)) +
         " +1," + std::to_string(count_lines(m.mutated)) + " @@ " + m.function + ": " + m.id + " " +
         m.description + "\n" + prefixed(m.original, '-') + prefixed(m.mutated, '+');
}

}  // namespace tlbf::mutants
