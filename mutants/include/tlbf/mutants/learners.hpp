// The learners of a class: a folder each, and in it their tests file
// (docs/mutants.md, "A class in one command").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tlbf::mutants {

// One learner: a folder of the class, and in it the tests file.
struct Learner {
  std::string name;  // the folder's name
  std::filesystem::path folder;
  std::filesystem::path tests;  // empty when the folder holds none
  std::string problem;          // why the learner cannot be graded ("" when they can)
};

// The learner `name` whose folder is `folder`: their tests file is the file
// named `tests_file` nearest the folder's top (build products and version
// control skipped); none, or two at the same depth, is a problem.
Learner learner_in(const std::filesystem::path& folder, const std::string& name,
                   const std::string& tests_file);

// Every sub-folder of `class_dir`, in name order. A learner's tests file is
// the file named `tests_file` nearest the folder's top (build products and
// version control skipped); none, or two at the same depth, is a problem.
std::vector<Learner> find_learners(const std::filesystem::path& class_dir, const std::string& tests_file);

// Whether `folder` is one that holds what a build or a tool made (target,
// build, __pycache__, .git, ...), not what a learner or a course wrote:
// neither a learner's tests file nor a kit's digest is looked for in it.
bool skipped_folder(const std::filesystem::path& folder);

}  // namespace tlbf::mutants
