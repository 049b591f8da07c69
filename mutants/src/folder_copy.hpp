// A run's copy of a job folder, for the Subjects of patch mode.
#pragma once

#include <filesystem>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// cp -a for what a build reads (files with their modes and modification
// times, symbolic links as links, folders), except that shared products are
// hard links to the seed's: a Rust library of a dependency (target/*/deps/
// *.rlib or *.rmeta) older than `job_folders_warmed_from`, which no graded
// run rewrites. A failure names the file that could not be copied.
Outcome<Done> copy_tree(const std::filesystem::path& from, const std::filesystem::path& to,
                        std::filesystem::file_time_type job_folders_warmed_from);

}  // namespace tlbf::mutants
