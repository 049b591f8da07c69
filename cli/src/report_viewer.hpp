// Where tlbf finds the viewer that `tlbf mutate --html` inlines: the
// single-file bundle of mutation-testing-elements (mutants/report-viewer).
#pragma once

#include <filesystem>
#include <vector>

namespace tlbf::cli {

// The places mutation-test-elements.js may be, in the order to try them:
// beside this program (the build puts it in build/cli), then where
// `cmake --install` puts it relative to this program (share/tlbf; docs/cli.md,
// "Installing"). Empty when this program's own path cannot be read. Says
// nothing about which exist.
std::vector<std::filesystem::path> report_viewer_candidates();

}  // namespace tlbf::cli
