// Scratch folders promised to the watchdog, which removes them if tlbf dies
// before it forgets them. The promise is kept here as the watchdog keeps it,
// so that no folder is promised twice and at most watchdog::kMaxFolders are.
#include "tlbf/conformance/scratch_folders.hpp"

#include <filesystem>
#include <mutex>
#include <set>

#include "watchdog.hpp"

namespace tlbf::conformance {
namespace {

// The folders promised to the watchdog and not yet forgotten, as it keeps them.
std::mutex g_folders_mutex;
std::set<std::string> g_promised;

std::string absolute_path(const std::string& folder) {
  std::error_code ec;
  const auto path = std::filesystem::absolute(folder, ec);
  return ec ? folder : path.string();
}

}  // namespace

bool remove_folder_if_tlbf_dies(const std::string& folder) {
  const std::string path = absolute_path(folder);  // the watchdog's folder is where tlbf started
  std::lock_guard<std::mutex> lock(g_folders_mutex);
  if (g_promised.size() >= watchdog::kMaxFolders || g_promised.count(path) || !watchdog::watch_folder(path))
    return false;
  g_promised.insert(path);
  return true;
}

void forget_folder(const std::string& folder) {
  const std::string path = absolute_path(folder);
  std::lock_guard<std::mutex> lock(g_folders_mutex);
  if (g_promised.erase(path)) (void)watchdog::forget_folder(path);
}

}  // namespace tlbf::conformance
