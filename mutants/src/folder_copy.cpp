// A run's copy of a job folder (docs/mutants.md, "Patch mode").
#include "folder_copy.hpp"

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "tlbf/shell_quote.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>
#include <vector>

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

// A build product that no graded run rewrites, so that all runs of a job folder
// can share one copy of it: a Rust library of a dependency (target/*/deps/
// *.rlib or *.rmeta) that the job folder's warming run did not rebuild. That run
// rebuilt whatever depends on a file a patch changes (job_folders() touches them),
// so what it left alone no patch rebuilds; rustc replaces a library it
// rebuilds (a new file renamed over the old) rather than writing into it.
bool shared_product(const fs::directory_entry& file, fs::file_time_type job_folders_warmed_from) {
  const auto ext = file.path().extension();
  std::error_code ec;
  return (ext == ".rlib" || ext == ".rmeta") && file.path().parent_path().filename() == "deps" &&
         file.last_write_time(ec) < job_folders_warmed_from && !ec;
}

}  // namespace

Outcome<Done> copy_tree(const fs::path& from, const fs::path& to,
                        fs::file_time_type job_folders_warmed_from) {
  std::error_code ec;
  std::vector<std::pair<fs::path, fs::file_time_type>> folders{{to, fs::last_write_time(from, ec)}};
  fs::create_directory(to, from, ec);
  for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    // Lexically: fs::relative follows links, and would copy a link to a file as that file's copy.
    const fs::path target = to / it->path().lexically_relative(from);
    if (it->is_symlink()) {
      fs::copy_symlink(it->path(), target, ec);
    } else if (it->is_directory()) {
      fs::create_directory(target, it->path(), ec);
      if (!ec) folders.emplace_back(target, it->last_write_time());
    } else if (shared_product(*it, job_folders_warmed_from)) {
      fs::create_hard_link(it->path(), target, ec);
    } else {
      fs::copy_file(it->path(), target, ec);
      if (!ec) fs::last_write_time(target, it->last_write_time(), ec);
    }
    if (ec) return failure(it->path().string() + ": " + ec.message());
  }
  if (ec) return failure(from.string() + ": " + ec.message());
  // Last, as adding to a folder changes its time.
  for (auto f = folders.rbegin(); f != folders.rend(); ++f) fs::last_write_time(f->first, f->second, ec);
  return done();
}

namespace {

Outcome<Done> touch_at(const fs::path& path, long long epoch) {
  const timespec times[2] = {{static_cast<time_t>(epoch), 0}, {static_cast<time_t>(epoch), 0}};
  if (::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) != 0)
    return failure("cannot set the time of " + path.string() + ": " + std::strerror(errno));
  return done();
}

}  // namespace

Outcome<Done> copy_at_epoch(const fs::path& from, const fs::path& to, long long epoch) {
  // cp, not copy_tree: a file this multithreaded process writes is open for
  // writing in every child forked meanwhile until it execs, and a run that
  // execs the copied test executable then fails with "Text file busy".
  const auto copied =
      conformance::run_with_input("exec cp -a " + shell_quote(from.string()) + " " + shell_quote(to.string()),
                                  "", std::chrono::minutes(10));
  if (!copied.exited_cleanly()) return failure(conformance::last_lines(copied.out + copied.err, 3));
  if (auto given = give_to_suite_user(to); !given.ok()) return given;
  // Last, as adding to a folder or giving it away changes its times, and
  // once every folder is listed: listing one sets its access time.
  std::error_code ec;
  std::vector<fs::path> all{to};
  for (auto it = fs::recursive_directory_iterator(to, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    all.push_back(it->path());
  if (ec) return failure(to.string() + ": " + ec.message());
  for (const auto& path : all) {
    if (auto touched = touch_at(path, epoch); !touched.ok()) return touched;
  }
  return done();
}

}  // namespace tlbf::mutants
