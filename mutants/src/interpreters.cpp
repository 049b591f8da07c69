// A kit's interpreters, found once (interpreters.hpp).
#include "tlbf/mutants/interpreters.hpp"

#include <unistd.h>

#include <chrono>
#include <regex>

#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

bool bare_python(const std::string& word) {
  static const std::regex python("python(3(\\.[0-9]+)?)?");
  return std::regex_match(word, python);
}

std::string python_executable(const std::string& word, const fs::path& folder) {
  if (!bare_python(word)) return "";
  std::error_code ec;
  const std::string cd = folder.empty() || !fs::is_directory(folder, ec)
                             ? std::string()
                             : "cd " + shell_quote(folder.string()) + " && ";
  const auto asked = conformance::run_with_input(
      cd + shell_quote(word) + " -c 'import sys; sys.stdout.write(sys.executable)'", "",
      std::chrono::minutes(1), 4096);
  if (!asked.exited_cleanly()) return "";
  const std::string& path = asked.out;
  if (path.empty() || path.front() != '/' || path.find_first_of("\n\r") != std::string::npos) return "";
  if (!fs::is_regular_file(path, ec) || ::access(path.c_str(), X_OK) != 0) return "";
  return path;
}

Kit with_interpreters_resolved(Kit kit) {
  const auto resolve = [](std::vector<std::string>& words, const fs::path& folder) {
    if (words.empty()) return;
    if (const std::string found = python_executable(words.front(), folder); !found.empty())
      words.front() = found;
  };
  resolve(kit.suite, kit.reference);
  resolve(kit.served.variant_command, kit.served.variants_from);
  return kit;
}

}  // namespace tlbf::mutants
