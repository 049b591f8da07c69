// A run's copy of a folder: a job folder's, for the Subjects of patch mode,
// and a served run's folder, made from one folder for every run.
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

// What cp -a and then `find TO -exec touch -h -d @EPOCH {} +` made, with
// one process where there were four (a served run's folder, made for every
// run): `from` copied to `to` by cp -a, given to the suite user where there
// is one (suite_user.hpp), then every file's, link's and folder's access and
// modification time set to `epoch` (seconds since 1970), `to` included. A
// failure names what could not be copied, given or touched.
Outcome<Done> copy_at_epoch(const std::filesystem::path& from, const std::filesystem::path& to,
                            long long epoch);

}  // namespace tlbf::mutants
