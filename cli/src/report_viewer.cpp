#include "report_viewer.hpp"

#include <system_error>

// The install layout's path from the folder of tlbf to the viewer, set by
// cli/CMakeLists.txt from GNUInstallDirs (relative, such as
// "../share/tlbf/mutation-test-elements.js", unless the install folders are absolute).
#ifndef TLBF_VIEWER_FROM_BINDIR
#error "cli/CMakeLists.txt defines TLBF_VIEWER_FROM_BINDIR"
#endif

namespace tlbf::cli {

std::vector<std::filesystem::path> report_viewer_candidates() {
  std::error_code ec;
  // The link's target, so a symlink to an installed tlbf still leads to its tree.
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const auto dir = self.parent_path();
  return {dir / "mutation-test-elements.js", (dir / TLBF_VIEWER_FROM_BINDIR).lexically_normal()};
}

}  // namespace tlbf::cli
