// What a patch's text says (patch mode's mutants, the served kit's chaffs):
// the files it changes, and where its first change sits, for reports.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {

// Every file a patch changes, as `patch -p1` names them: its "+++ " lines,
// without the first path component and the timestamp after a tab.
std::set<std::string> files_changed_by(const std::string& patch);

// The first change of the first hunk: the old file's lines it removes
// (end exclusive), the lines it adds, and the patch's preamble (its text
// before the first `---`) as the description. The file's text is read from
// under `source_root`; a change that only adds lines covers a neighbouring
// line, so that a viewer shows it.
Place describe_patch(const std::string& patch, const std::filesystem::path& source_root);

}  // namespace tlbf::mutants
