// The private scratch folders of tlbf mutate and tlbf grade.
#include "private_folder.hpp"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "tlbf/conformance/process.hpp"

namespace tlbf::mutants {

Outcome<std::filesystem::path> make_private_folder() {
  const char* tmpdir = std::getenv("TMPDIR");
  const bool from_env = tmpdir && *tmpdir;
  const std::string root = from_env ? tmpdir : "/tmp";
  std::string pattern = root + "/tlbf-mutate-XXXXXX";
  if (mkdtemp(pattern.data())) {
    // Removed by the watchdog if tlbf dies first (SIGKILL, a CI timeout).
    conformance::remove_folder_if_tlbf_dies(pattern);
    return std::filesystem::path(pattern);
  }
  return failure("cannot make a private folder under " + (from_env ? "TMPDIR=" + root : root) + ": " +
                 std::strerror(errno));
}

}  // namespace tlbf::mutants
