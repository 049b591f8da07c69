// Where tlbf finds the files it ships with (tlbf-mutant, the viewer of
// `tlbf mutate --html`, the adapters of tlbf check, the kits of tlbf grade),
// in the build tree and in an installed one.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace tlbf::cli {

// The places a file may be, in the order to try them: `beside` in this
// program's folder (the build tree puts them there), then `from_bindir`
// relative to that folder (where `cmake --install` puts it; docs/cli.md,
// "Installing"). Empty when this program's own path cannot be read. Says
// nothing about which exist.
std::vector<std::filesystem::path> installed_file_candidates(std::string_view beside,
                                                             std::string_view from_bindir);

// The folders that may hold tlbf check's adapters (--rust-crate, --python-module).
std::vector<std::filesystem::path> adapter_folder_candidates();

// The folders that may hold tlbf grade's bundled kits, a sub-folder a kind.
std::vector<std::filesystem::path> kit_folder_candidates();

}  // namespace tlbf::cli
