#include "installed_files.hpp"

#include <unistd.h>

#include <string_view>
#include <system_error>

#include "mutant_binary.hpp"
#include "report_viewer.hpp"

// The install layout's paths from the folder of tlbf to tlbf-mutant and to the
// viewer, set by cli/CMakeLists.txt from GNUInstallDirs: relative (such as
// "../libexec/tlbf/tlbf-mutant") unless the install folders are absolute.
// Only this source has them, so that the command's other sources can be
// compiled together (cli/CMakeLists.txt: a source with definitions of its own
// is left out of a unity build).
#if !defined(TLBF_MUTANT_FROM_BINDIR) || !defined(TLBF_VIEWER_FROM_BINDIR) || \
    !defined(TLBF_ADAPTERS_FROM_BINDIR) || !defined(TLBF_KITS_FROM_BINDIR)
#error \
    "cli/CMakeLists.txt defines TLBF_MUTANT_FROM_BINDIR, TLBF_VIEWER_FROM_BINDIR, TLBF_ADAPTERS_FROM_BINDIR, TLBF_KITS_FROM_BINDIR"
#endif

namespace tlbf::cli {

std::vector<std::filesystem::path> installed_file_candidates(std::string_view beside,
                                                             std::string_view from_bindir) {
  std::error_code ec;
  // The link's target, so a symlink to tlbf (say /usr/local/bin/tlbf to an
  // installed tree elsewhere) still leads to that tree's files.
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const auto dir = self.parent_path();
  return {dir / beside, (dir / from_bindir).lexically_normal()};
}

std::vector<std::filesystem::path> adapter_folder_candidates() {
  return installed_file_candidates("adapters", TLBF_ADAPTERS_FROM_BINDIR);
}

std::vector<std::filesystem::path> kit_folder_candidates() {
  return installed_file_candidates("grade-kits", TLBF_KITS_FROM_BINDIR);
}

std::vector<std::filesystem::path> mutant_binary_candidates() {
  return installed_file_candidates("tlbf-mutant", TLBF_MUTANT_FROM_BINDIR);
}

Outcome<std::string> runnable_mutant_binary() {
  for (const auto& candidate : mutant_binary_candidates()) {
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return failure(
      "cannot find tlbf-mutant, the mutant build of the oracle (looked beside tlbf and in "
      "libexec/tlbf); see docs/cli.md, \"Installing\"");
}

std::vector<std::filesystem::path> report_viewer_candidates() {
  return installed_file_candidates("mutation-test-elements.js", TLBF_VIEWER_FROM_BINDIR);
}

}  // namespace tlbf::cli
