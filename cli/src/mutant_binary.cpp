#include "mutant_binary.hpp"

#include <system_error>

// The install layout's path from the folder of tlbf to tlbf-mutant, set by
// cli/CMakeLists.txt from GNUInstallDirs (relative, such as
// "../libexec/tlbf/tlbf-mutant", unless the install folders are absolute).
#ifndef TLBF_MUTANT_FROM_BINDIR
#error "cli/CMakeLists.txt defines TLBF_MUTANT_FROM_BINDIR"
#endif

namespace tlbf::cli {

std::vector<std::filesystem::path> mutant_binary_candidates() {
  std::error_code ec;
  // The link's target, so a symlink to tlbf (say /usr/local/bin/tlbf to an
  // installed tree elsewhere) still leads to that tree's tlbf-mutant.
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const auto dir = self.parent_path();
  return {dir / "tlbf-mutant", (dir / TLBF_MUTANT_FROM_BINDIR).lexically_normal()};
}

}  // namespace tlbf::cli
