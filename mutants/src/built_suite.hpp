// A suite compiled once and run many times (the served Rust kind,
// docs/mutants.md, "The Rust kind"): the build's executable, and the one
// folder every run's folder is copied from.
#pragma once

#include <filesystem>
#include <string>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// The one executable that cargo's JSON messages in `cargo_out` (a build's
// standard output, --message-format=json-render-diagnostics) name; a
// failure when they name none or more than one.
Outcome<std::string> built_executable(const std::string& cargo_out);

// A new folder under `under`: `built` (the folder the build ran in) without
// its build products (target/), with `executable` copied to `place` inside
// it, and every file's and folder's time set to one fixed epoch
// (kRunFolderEpoch), so that no run can tell by a time when, or from what,
// its folder was made.
inline constexpr long long kRunFolderEpoch = 946684800;  // 2000-01-01T00:00:00Z
Outcome<std::filesystem::path> run_folder_from(const std::filesystem::path& built,
                                               const std::string& executable, const std::string& place,
                                               const std::filesystem::path& under);

}  // namespace tlbf::mutants
