// The class's seed: the reference copied and warmed once (docs/mutants.md,
// "For course authors").
#include "tlbf/mutants/grade.hpp"

#include <chrono>
#include <fstream>

#include "private_folder.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/shell_quote.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

Outcome<Done> copy_folder(const fs::path& from, const fs::path& to) {
  const auto copied = conformance::run_with_input(
      "cp -a --reflink=auto " + shell_quote(from.string()) + " " + shell_quote(to.string()), "",
      std::chrono::minutes(10));
  if (copied.exited_cleanly()) return done();
  return failure("cannot copy " + from.string() + " (cp " + copied.how_it_ended() +
                 "): " + conformance::last_lines(copied.out + copied.err, 3));
}

}  // namespace

Outcome<std::unique_ptr<ClassSeed>> ClassSeed::make(const Kit& kit, std::chrono::milliseconds limit) {
  const auto made = make_private_folder();
  if (!made.ok()) return made.failure();
  const fs::path& scratch = made.value();
  std::unique_ptr<ClassSeed> seed(new ClassSeed(kit, scratch));
  // The learners' copies are made here, and their suites run as the suite user.
  if (const auto passed = let_suite_user_pass(scratch); !passed.ok()) return passed.failure();
  const auto start = std::chrono::steady_clock::now();
  // Warmed where every learner's copy will be, then moved aside: a build
  // tool that keys its cache by absolute path (rustc's incremental cache, a
  // CMake build tree) finds it valid in each learner's copy.
  const fs::path warm_at = seed->learner_folder();
  if (const auto copied = copy_folder(kit.reference, warm_at); !copied.ok()) return copied.failure();
  for (const auto& file : kit.left_out) {
    std::error_code ec;
    fs::remove_all(warm_at / file, ec);
    if (ec) return failure("cannot leave " + file + " out of the reference's copy: " + ec.message());
  }
  if (const auto warmed = seed->warm(warm_at, limit); !warmed.ok()) return warmed.failure();
  seed->warm_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return seed;
}

// Ungraded: the learners' gradings say whether their suites pass. The
// reference's own tests file, if it has one, builds what theirs will share.
// A served suite needs TLBF_IMPL, and builds nothing the class shares unless
// its kit builds it once (the Rust kind): that build, with an empty tests
// file where a learner's will be, builds the dependencies and the binding
// each learner's copy then reuses, and a failure of it grades nobody.
Outcome<Done> ClassSeed::warm(const fs::path& at, std::chrono::milliseconds limit) {
  std::error_code ec;
  if (!kit_.serves.empty() && !kit_.served.build.empty()) {
    const fs::path tests = at / kit_.tests_into / kit_.tests_file;
    fs::create_directories(tests.parent_path(), ec);
    if (!fs::exists(tests, ec)) std::ofstream{tests};
  }
  if (kit_.serves.empty() || !kit_.served.build.empty()) {
    const auto& warm_with = kit_.serves.empty() ? kit_.suite : kit_.served.build;
    const auto built = conformance::run_with_input(
        "cd " + shell_quote(at.string()) + " && " + suite_command(warm_with, "", ""), "", limit);
    // A served kit's build of the reference with an empty tests file is the
    // one build that must succeed: if it cannot (no cargo on PATH, a broken
    // toolchain), no learner's can, and that is not the learners' to fix.
    if (!kit_.serves.empty() && !built.exited_cleanly()) {
      std::string words;
      for (const auto& word : warm_with) words += (words.empty() ? "" : " ") + word;
      return failure("the kit's build (" + words +
                     ") fails on the course's reference with an empty tests file (" + built.how_it_ended() +
                     "), so no learner's suite could be built; is its toolchain on PATH? " +
                     conformance::last_lines(built.err.empty() ? built.out : built.err, 3));
    }
  }
  fs::rename(at, scratch_ / "reference", ec);
  if (ec)
    return failure("cannot move the warmed reference aside in " + scratch_.string() + ": " + ec.message());
  return done();
}

ClassSeed::~ClassSeed() {
  std::error_code ec;
  fs::remove_all(scratch_, ec);
  conformance::forget_folder(scratch_.string());
}

Outcome<std::string> ClassSeed::workdir_for(const Learner& learner) {
  const fs::path copy = learner_folder();
  std::error_code ec;
  fs::remove_all(copy, ec);  // the last learner's, had it not been done with
  if (const auto copied = copy_folder(scratch_ / "reference", copy); !copied.ok()) return copied.failure();
  const fs::path into = copy / kit_.tests_into;
  fs::create_directories(into, ec);
  fs::copy_file(learner.tests, into / kit_.tests_file, fs::copy_options::overwrite_existing, ec);
  if (ec) return failure("cannot copy " + learner.tests.string() + " into the reference: " + ec.message());
  return copy.string();
}

void ClassSeed::done_with(const std::string& workdir) {
  std::error_code ec;
  fs::remove_all(workdir, ec);
}

}  // namespace tlbf::mutants
