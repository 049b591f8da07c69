// Writes a finding's transcript (docs/protocol.md, section 7) where the fuzz
// targets put reproducers: $TLBF_FUZZ_REPRO_DIR, else fuzz-repro/. Shared by
// fuzz_diff and the in-process harness, which make the same files.
#pragma once

#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace tlbf::fuzz {

// SIGNATURE.transcript: `# heading`, each line of `detail` as a comment, then
// each (request, pattern) as `> request` and `< pattern`. Returns its path;
// `written` says whether it could be written.
inline std::filesystem::path write_transcript(
    const std::string& signature, const std::string& heading, const std::string& detail,
    const std::vector<std::pair<std::string, std::string>>& exchanges, bool& written) {
  const char* dir_env = std::getenv("TLBF_FUZZ_REPRO_DIR");
  const std::filesystem::path dir = dir_env && *dir_env ? dir_env : "fuzz-repro";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const auto file = dir / (signature + ".transcript");
  std::ofstream out(file);
  out << "# " << heading << "\n";
  std::size_t start = 0;
  for (std::size_t nl; (nl = detail.find('\n', start)) != std::string::npos; start = nl + 1) {
    out << "# " << detail.substr(start, nl - start) << "\n";
  }
  out << "# " << detail.substr(start) << "\n";
  for (const auto& [request, pattern] : exchanges) out << "> " << request << "\n< " << pattern << "\n";
  out.close();
  written = static_cast<bool>(out);
  return file;
}

}  // namespace tlbf::fuzz
