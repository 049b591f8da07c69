// What a patch changes and where, and the patches of a folder: for the
// Subjects of patch mode and the served chaffs (docs/mutants.md, "Patch mode").
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {

// Every file a patch changes, as `patch -p1` names them: its "+++ " lines,
// without the first path component and the timestamp after a tab.
std::set<std::string> files_changed_by(const std::string& patch);

// The regular files under `folder`, relative to it.
std::set<std::string> files_under(const std::filesystem::path& folder);

// The stems of DIR/*.patch, in name order; none for an empty `dir`.
std::vector<std::string> patch_stems(const std::filesystem::path& dir);

// Where the patch's first change of its first hunk is, for reports: the old
// file's lines it removes (end exclusive), the lines it adds, the patch's
// preamble (its text before the first `---`) as the description, the file's
// text read from `source_root`, and the diff. A change that only adds lines
// covers a neighbouring line, so that a viewer shows something.
Place describe_patch(const std::string& patch, const std::filesystem::path& source_root);

}  // namespace tlbf::mutants
