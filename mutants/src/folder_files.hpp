// What a kit's folders hold, as the subjects (served_subjects.cpp,
// patched_subjects.cpp) and variants.cpp read them.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace tlbf::mutants {

// The files under `folder`, relative to it.
std::set<std::string> files_under(const std::filesystem::path& folder);

// The stems of DIR/*.patch, in name order; none for an empty `dir`.
std::vector<std::string> patch_stems(const std::filesystem::path& dir);

}  // namespace tlbf::mutants
