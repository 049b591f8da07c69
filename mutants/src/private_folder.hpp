// The private scratch folders of tlbf mutate and tlbf grade.
#pragma once

#include <filesystem>
#include <string>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// A new folder, mode 0700 (only this user's processes look in), under
// $TMPDIR, or /tmp when TMPDIR is unset or empty, as POSIX says; the watchdog
// removes it if tlbf dies first. A failure when it cannot be made.
Outcome<std::filesystem::path> make_private_folder();

}  // namespace tlbf::mutants
