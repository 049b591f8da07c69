#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tlbf/vectors/vectors.hpp"

namespace tlbf::vectors {

LoadedFolder load_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  LoadedFolder out;
  const auto expected = generate();
  for (const auto& file : expected) {
    const fs::path path = fs::path(dir) / file.name;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      out.problems.push_back(path.string() + ": cannot be read");
      out.readable = false;
      continue;
    }
    std::ostringstream bytes;
    bytes << in.rdbuf();
    VectorFile loaded{file.name, json::parse(bytes.str(), nullptr, false)};
    if (loaded.doc.is_discarded()) {
      out.problems.push_back(file.name + ": not JSON");
      continue;
    }
    for (auto& problem : lint(file.name, loaded.doc)) out.problems.push_back(std::move(problem));
    if (loaded.doc.is_object() && loaded.doc.contains("numberOfTests") &&
        loaded.doc["numberOfTests"].is_number_integer()) {
      out.tests += loaded.doc["numberOfTests"].get<int>();
    }
    out.files.push_back(std::move(loaded));
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool known =
        std::any_of(expected.begin(), expected.end(), [&](const auto& f) { return f.name == name; });
    if (entry.is_regular_file() && entry.path().extension() == ".json" && !known) {
      out.problems.push_back(name + ": not a vector file of schema v1");
    }
  }
  if (ec) {
    out.problems.push_back(dir + ": cannot be listed: " + ec.message());
    out.readable = false;
  }
  return out;
}

}  // namespace tlbf::vectors
