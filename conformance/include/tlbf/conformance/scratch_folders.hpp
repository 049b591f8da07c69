// Scratch folders that do not outlive tlbf, however it ends.
#pragma once

#include <string>

namespace tlbf::conformance {

// A scratch folder of this process's that must not outlive it: if the
// process dies before forget_folder(folder) (SIGKILL, a Ctrl-C, a CI job's
// timeout), the watchdog removes it (`rm -rf`) after killing the children.
// At most 16 folders at once, each path shorter than 4000 bytes; false when
// it cannot be promised (no watchdog, too many, too long).
bool remove_folder_if_tlbf_dies(const std::string& folder);
void forget_folder(const std::string& folder);

}  // namespace tlbf::conformance
