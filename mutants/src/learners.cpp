// Finding a class's learners and their tests files (docs/mutants.md, "A
// class in one command").
#include "tlbf/mutants/learners.hpp"

#include <algorithm>
#include <set>
#include <system_error>

namespace tlbf::mutants {
namespace {
namespace fs = std::filesystem;
}  // namespace

bool skipped_folder(const fs::path& folder) {
  static const std::set<std::string> names{"target", ".git", "__pycache__", "node_modules", ".venv", "build"};
  return names.count(folder.filename().string()) > 0;
}

Learner learner_in(const fs::path& folder, const std::string& name, const std::string& tests_file) {
  Learner learner{name, folder, {}, {}};
  std::error_code ec;
  int best_depth = -1;
  std::vector<fs::path> at_best;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_directory() && skipped_folder(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->path().filename() != tests_file) continue;
    // A link would bring whatever it names into the run (a grader's file,
    // shown back in a compile error): only a file the learner handed in counts.
    if (it->is_symlink()) {
      learner.problem = it->path().string() + " is a symbolic link; hand in the file itself";
      return learner;
    }
    if (!it->is_regular_file()) continue;
    if (best_depth < 0 || it.depth() < best_depth) {
      best_depth = it.depth();
      at_best.clear();
    }
    if (it.depth() == best_depth) at_best.push_back(it->path());
  }
  if (at_best.empty()) {
    learner.problem = "no file named " + tests_file + " in " + folder.string();
  } else if (at_best.size() > 1) {
    std::sort(at_best.begin(), at_best.end());
    learner.problem = "two files named " + tests_file + " at the same depth: " + at_best[0].string() +
                      " and " + at_best[1].string() + "; keep one";
  } else {
    learner.tests = at_best.front();
  }
  return learner;
}

std::vector<Learner> find_learners(const fs::path& class_dir, const std::string& tests_file) {
  std::vector<Learner> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(class_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || name[0] == '.') continue;
    out.push_back(learner_in(entry.path(), name, tests_file));
  }
  std::sort(out.begin(), out.end(), [](const Learner& a, const Learner& b) { return a.name < b.name; });
  return out;
}

}  // namespace tlbf::mutants
