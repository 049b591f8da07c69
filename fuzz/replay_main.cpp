// Runs files through a fuzz target without libFuzzer, for the tests: every
// file named, and every file in every directory named. Built by the normal
// build, so the corpus and every crash ever found are replayed by ctest.
// Exit status 0 when every input replayed without a finding (a finding
// aborts); 2 when no input is named or one cannot be read (missing, not a
// regular file, above 64 MiB), which is no replay and must not pass as one.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tlbf/whole_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fs = std::filesystem;

namespace {

// Above any input a fuzzer keeps: libFuzzer's -max_len is 4 KiB by default,
// and a protocol line is at most 64 MiB.
constexpr std::size_t kInputLimit = std::size_t{64} << 20;

// False, having said why, when the file cannot be read: an unreadable input
// is no replay, and must not pass as one.
bool replay(const fs::path& file) {
  const auto bytes = tlbf::read_whole_file(file.string(), kInputLimit, "fuzz input");
  if (!bytes) {
    std::fprintf(stderr, "%s\n", bytes.why().c_str());
    return false;
  }
  // Print first, so that a crash names its file.
  std::fprintf(stderr, "replaying %s\n", file.c_str());
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path path(argv[i]);
    if (fs::is_directory(path)) {
      std::vector<fs::path> files;
      for (const auto& entry : fs::directory_iterator(path)) {
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
          files.push_back(entry.path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) {
        if (!replay(f)) return 2;
        ++count;
      }
    } else {
      // Anything else is read as a file: the reader says what is wrong with
      // it (missing, a FIFO, too long).
      if (!replay(path)) return 2;
      ++count;
    }
  }
  std::printf("replayed %zu inputs, no finding\n", count);
  return 0;
}
