// The private scratch folders of tlbf mutate and tlbf grade.
#pragma once

#include <filesystem>
#include <string>

namespace tlbf::mutants {

// A new folder, mode 0700 (only this user's processes look in), under
// $TMPDIR, or /tmp when TMPDIR is unset or empty, as POSIX says; the watchdog
// removes it if tlbf dies first. Empty, after setting `why`, when it cannot
// be made.
std::filesystem::path make_private_folder(std::string& why);

}  // namespace tlbf::mutants
