// What `tlbf mutate` runs a suite against: served mutants of the oracle, or
// patched copies of a work directory (docs/mutants.md).
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/sandbox.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "built_suite.hpp"
#include "folder_copy.hpp"
#include "tlbf/shell_quote.hpp"
#include "private_folder.hpp"
#include "file_text.hpp"
#include "folder_files.hpp"
#include "tlbf/mutants/variants.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

namespace {

// Every file a patch changes, as `patch -p1` names them: its "+++ " lines,
// without the first path component and the timestamp after a tab.
std::set<std::string> files_changed_by(const std::string& patch) {
  std::set<std::string> out;
  std::istringstream in(patch);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("+++ ", 0) != 0) continue;
    std::string path =
        line.substr(4, line.find('\t') == std::string::npos ? std::string::npos : line.find('\t') - 4);
    if (path == "/dev/null") continue;  // a file the patch deletes
    const std::size_t slash = path.find('/');
    out.insert(slash == std::string::npos ? path : path.substr(slash + 1));
  }
  return out;
}

// What a run's copy gets before the suite runs: nothing (a clean run), a
// patch, or a wheat's files laid over it.
struct Change {
  fs::path patch;    // applied with patch -p1
  fs::path overlay;  // a folder whose files replace the copy's
};

// A change that only adds lines replaces no text, and an empty location
// shows nothing in a viewer: cover the line the lines are added after (or,
// at the top of the file, before) and make it part of the replacement.
void cover_a_neighbour(Place& p) {
  std::vector<std::string> lines;
  std::istringstream in(p.source);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const int added_at = p.start_line;  // the old file's line the added lines go before
  const int line = added_at > 1 ? added_at - 1 : added_at;
  if (line < 1 || line > static_cast<int>(lines.size())) return;
  const std::string& text = lines[static_cast<std::size_t>(line - 1)];
  p.start_line = p.end_line = line;
  p.start_column = 1;
  p.end_column = static_cast<int>(text.size()) + 1;
  p.replacement = line < added_at ? text + "\n" + p.replacement : p.replacement + "\n" + text;
}

// The first change of the first hunk: the old file's lines it removes
// (end exclusive), the lines it adds, and the patch's preamble (its text
// before the first `---`) as the description.
Place describe_patch(const std::string& patch, const fs::path& source_root) {
  Place p;
  std::istringstream in(patch);
  int old_line = 0;  // the old file's line the next hunk line stands for; 0 before the first hunk
  bool changed = false, removed = false;
  for (std::string text; std::getline(in, text);) {
    if (old_line == 0) {
      if (text.rfind("+++ ", 0) == 0) {
        const std::string path =
            text.substr(4, text.find('\t') == std::string::npos ? std::string::npos : text.find('\t') - 4);
        p.file = path.find('/') == std::string::npos ? path
                                                     : path.substr(path.find('/') + 1);  // as patch -p1 does
      } else if (text.rfind("@@ -", 0) == 0) {
        old_line = std::max(1, std::atoi(text.c_str() + 4));
      } else if (p.description.empty() && !text.empty() && text.rfind("--- ", 0) != 0) {
        p.description = text;
      }
      continue;
    }
    const char mark = text.empty() ? ' ' : text[0];
    if (mark == ' ' || mark == '@') {
      if (changed) break;
      ++old_line;
    } else if (mark == '-' || mark == '+') {
      if (!changed) p.start_line = p.end_line = old_line;
      changed = true;
      if (mark == '-') {
        removed = true;
        // The location ends after the last removed line's text, not at the
        // start of the next line: the replacement has no final newline, and
        // a viewer would join the mutated line with the one after it.
        p.end_line = old_line++;
        p.end_column = static_cast<int>(text.size());  // the text without its '-', plus one
      } else {
        p.replacement += (p.replacement.empty() ? "" : "\n") + text.substr(1);
      }
    }
  }
  p.source = file_text(source_root / p.file);
  // The diff as patch reads it: from its first "--- " line, without the preamble.
  const std::size_t diff_at = patch.rfind("--- ", 0) == 0 ? 0 : patch.find("\n--- ");
  if (diff_at != std::string::npos) p.diff = patch.substr(diff_at == 0 ? 0 : diff_at + 1);
  if (changed && !removed) cover_a_neighbour(p);
  return p;
}

class Patched final : public Subjects {
 public:
  Patched(std::vector<std::string> suite, const PatchSet& set, bool reveal)
      : suite_(std::move(suite)),
        patches_(set.patches),
        workdir_(set.workdir),
        sanity_patch_(set.sanity_patch),
        chaffs_(set.chaffs),
        wheats_(set.wheats),
        seed_(workdir_),
        reveal_(reveal),
        sandbox_(set.sandbox),
        toolchain_(toolchain_folders(suite_)),
        hidden_(tlbf_own_files(suite_)) {
    if (auto made = make_private_folder(); made.ok()) {
      scratch_ = std::move(made).value();
      // The suite user reaches its run's copy here, not the seeds beside it (not listed).
      if (const auto passed = let_suite_user_pass(scratch_); !passed.ok())
        scratch_error_ = passed.why(), scratch_.clear();
    } else {
      scratch_error_ = made.why();
    }
    for (const auto& id : ids()) patched_.merge(files_changed_by(file_text(patch_of(id))));
    for (const auto& id : chaff_ids()) patched_.merge(files_changed_by(file_text(patch_of(id))));
    for (const auto& id : wheat_ids()) patched_.merge(files_under(wheats_ / id));
    if (!sanity_patch_.empty()) patched_.merge(files_changed_by(file_text(sanity_patch_)));
    patched_.erase("");
    if (!wheats_.empty()) make_disguised_wheat();
  }
  ~Patched() override {
    for (auto& removal : removals_) removal.join();
    std::error_code ec;
    if (!scratch_.empty()) {
      fs::remove_all(scratch_, ec);
      conformance::forget_folder(scratch_.string());
    }
  }

  std::vector<std::string> ids() const override { return patch_stems(patches_); }
  std::vector<std::string> chaff_ids() const override { return patch_stems(chaffs_); }
  std::vector<std::string> wheat_ids() const override {
    std::vector<std::string> out;
    std::error_code ec;
    if (wheats_.empty()) return out;
    for (const auto& entry : fs::directory_iterator(wheats_, ec)) {
      if (entry.is_directory()) out.push_back(entry.path().filename().string());
    }
    if (!disguised_.empty()) out.push_back(kDisguised);
    std::sort(out.begin(), out.end());
    return out;
  }
  std::optional<Outcome<SuiteRun>> warm_up() override { return prepare("warm", {}); }
  void warmed(const SuiteRun& run) override {
    if (!run.directory.empty()) seed_ = run.directory;
  }
  // Folders are named alike whatever they hold: a name must not tell a run what it faces.
  Outcome<SuiteRun> clean() override { return prepare(unique("run"), {}); }
  std::optional<Outcome<SuiteRun>> broken() override {
    if (sanity_patch_.empty()) return std::nullopt;
    return prepare(unique("run"), {sanity_patch_, {}});
  }
  Outcome<SuiteRun> mutant(const std::string& id) override {
    return prepare(unique("run"), {patch_of(id), {}});
  }
  Outcome<SuiteRun> wheat(const std::string& id) override {
    return prepare(unique("run"), {{}, id == kDisguised && !disguised_.empty() ? disguised_ : wheats_ / id});
  }
  void finish(const SuiteRun& run) override {
    std::error_code ec;
    if (run.job_folder >= 0) {
      // The job folder moved aside at once, and removed while the next run goes on.
      const fs::path aside = scratch_ / ("removing-" + std::to_string(++runs_));
      fs::rename(run.directory, aside, ec);
      if (!ec) {
        std::lock_guard<std::mutex> lock(job_folders_mutex_);
        removals_.emplace_back([aside] {
          std::error_code ignored;
          fs::remove_all(aside, ignored);
        });
      }
    }
    if (!run.directory.empty()) fs::remove_all(run.directory, ec);
    if (run.job_folder >= 0) {
      std::lock_guard<std::mutex> lock(job_folders_mutex_);
      job_folder_free_[static_cast<std::size_t>(run.job_folder)] = true;
    }
  }
  // Job folder k's runs happen in scratch/run-k, each a fresh copy of scratch/seed-k:
  // the warmed copy, warmed once more at scratch/run-k and moved aside.
  // The files the patches change are made afresh in each (prepare), newer
  // than the seed, so that its warming run rebuilds what depends on them
  // there: a copy that was only moved looks up to date, and its first
  // patched run would rebuild from scratch.
  std::vector<Outcome<SuiteRun>> job_folders(int n) override {
    std::vector<Outcome<SuiteRun>> out;
    job_folders_warmed_from_ = fs::file_time_type::clock::now();
    for (int k = 0; k < n; ++k) out.push_back(prepare(job_folder_path(k).filename().string(), {}));
    return out;
  }
  void job_folders_warmed() override {
    std::vector<bool> free;
    for (int k = 0;; ++k) {
      std::error_code ec;
      if (!fs::is_directory(job_folder_path(k))) break;
      fs::rename(job_folder_path(k), job_folder_seed(k), ec);
      if (ec) return;  // no job folders: runs get folders of their own
      free.push_back(true);
    }
    std::lock_guard<std::mutex> lock(job_folders_mutex_);
    job_folder_free_ = free;
  }
  Place place(const std::string& id) const override {
    Place p = describe_patch(file_text(patch_of(id)), workdir_);
    // A patch without a preamble that plants a catalog bug is described by the catalog.
    if (p.description.empty()) {
      if (const Mutant* m = find(id)) p.description = id + ": " + m->description + " (in " + p.file + ")";
    }
    return p;
  }
  std::string broken_description() const override {
    return "the work directory with " + sanity_patch_.filename().string() + " applied";
  }

 private:
  // The file at `path` replaced by a new file with the same bytes and
  // permissions, made now. A missing file is left missing.
  static Outcome<Done> rewrite_afresh(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return done();
    if (!fs::is_regular_file(fs::symlink_status(path, ec))) return failure("not a regular file");
    const fs::path fresh = path.string() + ".tlbf-fresh";
    if (!fs::copy_file(path, fresh, fs::copy_options::overwrite_existing, ec)) return failure(ec.message());
    fs::permissions(fresh, fs::status(path, ec).permissions(), ec);
    fs::last_write_time(fresh, fs::file_time_type::clock::now(), ec);
    fs::rename(fresh, path, ec);
    if (ec) return failure(ec.message());
    return done();
  }

  // The wheat no suite can know in advance: the reference itself, each file
  // the patches change given one more line made of random digits, afresh for
  // each grading. The kit's wheats are published, so a suite could pass
  // exactly the files whose hashes it knows (the reference's and the
  // wheats') and fail every other: it would kill every mutant while testing
  // nothing. Such a suite fails this one. In Python and Rust the line is
  // code that does nothing (an unused constant), so that a suite that strips
  // comments, or compares syntax trees or compiled code, before it hashes
  // fails it too; in C and C++ (where an unused constant may be a warning
  // made an error) and in shell and TOML it is a comment. Files of a kind
  // without a known syntax are left as they are.
  static constexpr const char* kDisguised = "disguised";
  void make_disguised_wheat() {
    if (scratch_.empty()) return;
    const std::string digits = random_name();
    const fs::path folder = scratch_ / "disguised-wheat";
    bool any = false;
    for (const auto& file : patched_) {
      const std::string ext = fs::path(file).extension().string();
      const std::string line = disguise_line(ext, digits);
      std::error_code ec;
      if (line.empty() || !fs::is_regular_file(workdir_ / file, ec)) continue;
      std::string text = file_text(workdir_ / file);
      if (!text.empty() && text.back() != '\n') text += '\n';
      text += line + "\n";
      fs::create_directories((folder / file).parent_path(), ec);
      std::ofstream(folder / file, std::ios::binary) << text;
      any = true;
    }
    if (any) disguised_ = folder;
  }

  // The disguised wheat's line for a file with extension `ext`, "" for none.
  static std::string disguise_line(const std::string& ext, const std::string& digits) {
    if (ext == ".py") return "_disguise_" + digits + " = 0x" + digits;
    if (ext == ".rs") return "const _: u64 = 0x" + digits + ";";
    if (ext == ".sh" || ext == ".toml") return "# " + digits;
    if (ext == ".c" || ext == ".h" || ext == ".cpp" || ext == ".hpp") return "// " + digits;
    return "";
  }

  // A graded mutant's patch, else a chaff's.
  fs::path patch_of(const std::string& id) const {
    const fs::path graded = patches_ / (id + ".patch");
    std::error_code ec;
    return chaffs_.empty() || fs::exists(graded, ec) ? graded : chaffs_ / (id + ".patch");
  }

  fs::path job_folder_path(int k) const { return scratch_ / ("run-" + std::to_string(k + 1)); }
  fs::path job_folder_seed(int k) const { return scratch_ / ("seed-" + std::to_string(k + 1)); }

  // A free job folder, now taken; -1 before the job folders are warmed. The scorer runs
  // at most as many runs at once as there are job folders.
  int take_job_folder() {
    std::lock_guard<std::mutex> lock(job_folders_mutex_);
    for (std::size_t k = 0; k < job_folder_free_.size(); ++k) {
      if (job_folder_free_[k]) {
        job_folder_free_[k] = false;
        return static_cast<int>(k);
      }
    }
    return -1;
  }

  // A folder name no other run has: a mutant's timeout is confirmed by a
  // second run, which may overlap nothing but must not reuse the first's name.
  // Random, not counted: a suite sees its folder's name, which must not tell
  // it how many runs came before.
  std::string unique(const std::string& name) { return name + "-" + random_name(); }

  // A fresh copy of the seed (the work directory, or once warmed the warm-up's
  // copy of it), patched; `name` is the copy's folder. Once the job folders are
  // warmed, a free job folder's seed copied to the job folder instead. cp -a keeps the
  // modification times, so a build tool sees only the patched file as newer
  // than its products; --reflink shares the blocks where the file system can
  // copy on write. Hard links for everything would not do: cargo rewrites some
  // of its files in place (fingerprints), which would change every run's copy
  // at once; a job folder's copies link only the products no run rewrites (copy_tree).
  // A run that cannot be prepared is undone here (finish: its folder, its
  // job folder), and only its Failure is given back.
  Outcome<SuiteRun> prepare(const std::string& name, const Change& change) {
    const fs::path& patch = change.patch;
    SuiteRun run;
    const auto undone = [&](std::string why) -> Outcome<SuiteRun> {
      finish(run);
      return failure(std::move(why));
    };
    if (scratch_.empty()) return failure(scratch_error_);
    fs::path from = seed_, copy = scratch_ / name;
    run.job_folder = take_job_folder();
    if (run.job_folder >= 0) {
      from = job_folder_seed(run.job_folder);
      copy = job_folder_path(run.job_folder);
      std::error_code ec;
      fs::remove_all(copy, ec);  // what a process of its last run may have written after it ended
      if (const auto copied = copy_tree(from, copy, job_folders_warmed_from_); !copied.ok())
        return undone("cannot copy " + from.string() + ": " + copied.why());
    } else {
      const auto copied = conformance::run_with_input(
          "cp -a --reflink=auto " + shell_quote(from.string()) + " " + shell_quote(copy.string()), "",
          std::chrono::minutes(10));
      if (!copied.exited_cleanly()) {
        return undone("cannot copy " + from.string() + " (cp " + copied.how_it_ended() +
                      "): " + conformance::last_lines(copied.out + copied.err, 3));
      }
    }
    run.directory = copy.string();
    run.command =
        run_in(copy, suite_command(suite_, "", reveal_ && !patch.empty() ? patch.stem().string() : ""));
    // Every run's files that patches change are written afresh, the clean
    // runs' too: else a patched file alone would be new (its inode, its
    // change time equal to its modification time, its build products), and a
    // suite could tell a mutant by looking at the file instead of testing it.
    std::map<std::string, fs::file_time_type>
        seeded;  // each file's time in the seed, what its caches were built from
    for (const auto& file : patched_) {
      std::error_code ec;
      seeded[file] = fs::last_write_time(copy / file, ec);
      if (const auto renewed = renew(copy, file); !renewed.ok()) return undone(renewed.why());
    }
    if (const auto changed = make_change(copy, change); !changed.ok()) return undone(changed.why());
    for (const auto& [file, then] : seeded) set_time_unlike(copy / file, then);
    // Last, the patched files included: the suite user's to write (suite_user.hpp).
    if (const auto given = give_to_suite_user(copy); !given.ok()) return undone(given.why());
    return run;
  }

  // `change` made in `copy`: a wheat's files laid over it, or a patch applied.
  Outcome<Done> make_change(const fs::path& copy, const Change& change) const {
    if (!change.overlay.empty()) {
      // Into the files just written afresh, so that a wheat's file is made like every other run's.
      for (const auto& file : files_under(change.overlay)) {
        std::error_code ec;
        fs::copy_file(change.overlay / file, copy / file, fs::copy_options::overwrite_existing, ec);
        if (ec) {
          return failure("cannot lay " + (change.overlay / file).string() + " over " + copy.string() + ": " +
                         ec.message());
        }
      }
    }
    const fs::path& patch = change.patch;
    if (patch.empty()) return done();
    // No backup: a patch that applies with an offset would leave a .orig
    // file, which only a patched copy has.
    const auto applied = conformance::run_with_input(
        "cd " + shell_quote(copy.string()) +
            " && patch -p1 --batch --forward --silent --no-backup-if-mismatch -i " +
            shell_quote(fs::absolute(patch).string()),
        "", std::chrono::minutes(1));
    if (applied.exited_cleanly()) return done();
    return failure(patch.filename().string() + " does not apply to " + workdir_.string() + " (patch " +
                   applied.how_it_ended() + "): " + conformance::last_lines(applied.out + applied.err, 3));
  }

  // `line` as run in `copy`: sandboxed, its own copy writable and nothing
  // else of the scratch folder (the warmed copies, the seeds) or of the work
  // directory it came from; or not, as the suite user where it reaches its
  // copy and toolchain.
  std::string run_in(const fs::path& copy, const std::string& line) const {
    return sandbox_ ? sandboxed({toolchain_, {copy.string()}, hidden_}, copy.string(), line)
                    : as_suite_user_reaching({toolchain_, {copy.string()}, {}}, line);
  }

  // FILE of `copy` written afresh, with no compiled cache of it beside it.
  static Outcome<Done> renew(const fs::path& copy, const std::string& file) {
    if (const auto rewritten = rewrite_afresh(copy / file); !rewritten.ok())
      return failure("cannot rewrite " + file + " in " + copy.string() + ": " + rewritten.why());
    return forget_compiled(copy / file);
  }

  // Removes Python's compiled cache of `file` (__pycache__/STEM.*.pyc beside
  // it). The warm-up ran the clean reference, so the cache holds its code: a
  // suite could read it before importing the module, and compare the module
  // with it, or run it as a hidden copy of the reference to test against,
  // instead of testing (an adversary's suites did both, and met the bar).
  // Every run's is removed, the clean runs' too, so its absence tells nothing.
  static Outcome<Done> forget_compiled(const fs::path& file) {
    if (file.extension() != ".py") return done();
    std::error_code ec;
    std::vector<fs::path> caches;
    for (const auto& entry : fs::directory_iterator(file.parent_path() / "__pycache__", ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(file.stem().string() + ".", 0) == 0 && entry.path().extension() == ".pyc")
        caches.push_back(entry.path());
    }
    for (const auto& cache : caches) {
      if (!fs::remove(cache, ec) && ec)
        return failure("cannot remove " + cache.string() + ": " + ec.message());
    }
    return done();
  }

  // Gives the file at `path` the time now, or a whole second after `seeded`
  // when now is in the same second. A cache that trusts a file whose time in
  // whole seconds and size are unchanged (Python's .pyc) would otherwise run
  // the seed's clean code for a same-size patch made in the second the seed
  // was built (s08 and s10 keep the size). Clean and patched runs get the
  // same rule, so the time says nothing about which one a run is.
  static void set_time_unlike(const fs::path& path, fs::file_time_type seeded) {
    using std::chrono::seconds;
    std::error_code ec;
    if (!fs::is_regular_file(fs::symlink_status(path, ec))) return;
    auto when = fs::file_time_type::clock::now();
    const auto second_of_seed = std::chrono::floor<seconds>(seeded);
    if (std::chrono::floor<seconds>(when) <= second_of_seed) when = second_of_seed + seconds(1);
    fs::last_write_time(path, when, ec);
  }

  std::vector<std::string> suite_;
  fs::path patches_, workdir_, sanity_patch_, chaffs_, wheats_, scratch_;
  fs::path seed_;              // what each run's copy is made from
  std::string scratch_error_;  // why there is no scratch_
  bool reveal_;
  bool sandbox_;
  std::vector<std::string> toolchain_;  // what a sandboxed run sees read-only
  std::vector<std::string> hidden_;     // tlbf's own files, which it does not
  fs::path disguised_;                  // the disguised wheat's files, "" when there is none
  std::set<std::string> patched_;       // the files, relative to the work directory, that some patch changes
  std::atomic<int> runs_{0};
  std::mutex job_folders_mutex_;
  std::vector<bool> job_folder_free_;           // by job folder; empty until the job folders are warmed
  fs::file_time_type job_folders_warmed_from_;  // what the job folders' warming runs wrote is newer
  std::vector<std::thread> removals_;           // of job folders moved aside
};

class Served final : public Subjects {
 public:
  Served(std::vector<std::string> suite, const std::string& tlbf, const std::string& tlbf_mutant, bool reveal,
         const ServedSet& set)
      : suite_(std::move(suite)), tlbf_(tlbf), tlbf_mutant_(tlbf_mutant), reveal_(reveal), set_(set) {
    private_ = private_folder(true);
    if (!set_.directory.empty() || !set_.variants_from.empty()) runs_ = private_folder(true);
    if (!set_.variants_from.empty()) make_variants();
    // The learner's copy, where a built suite builds and whence each run's copy comes (cp -a keeps its
    // owner).
    if (!set_.directory.empty()) {
      if (const auto given = give_to_suite_user(set_.directory); !given.ok()) build_error_ = given.why();
    }
  }
  ~Served() override {
    servers_.clear();
    for (const fs::path& folder : {private_, runs_, variants_}) {
      std::error_code ec;
      if (folder.empty()) continue;
      fs::remove_all(folder, ec);
      conformance::forget_folder(folder.string());
    }
  }

  std::vector<std::string> ids() const override {
    std::vector<std::string> out;
    for (const auto& m : catalog()) out.push_back(m.id);
    return out;
  }
  std::vector<std::string> wheat_ids() const override { return wheat_ids_; }
  std::vector<std::string> chaff_ids() const override { return patch_stems(set_.chaffs); }
  // A suite compiled once (ServedSet::build): the build, in the learner's folder, is the warm-up.
  std::optional<Outcome<SuiteRun>> warm_up() override {
    if (set_.build.empty()) return std::nullopt;
    SuiteRun run{suite_command(set_.build, "", ""), set_.directory, -1};
    if (set_.sandbox) {
      const Sandbox box{toolchain_folders(set_.build), {set_.directory}, tlbf_own_files(set_.build)};
      run.command = sandboxed(box, set_.directory, run.command);
    } else {
      run.command =
          as_suite_user_reaching({toolchain_folders(set_.build), {set_.directory}, {}}, run.command);
    }
    return run;
  }
  std::string after_warm_up(const SuiteRun&, bool succeeded, const std::string& out) override {
    if (set_.build.empty()) return "";
    if (!succeeded) {
      std::string words;
      for (const auto& word : set_.build) words += (words.empty() ? "" : " ") + word;
      return "the suite does not build (" + words + "); fix it before grading it";
    }
    // What cannot be made here is the harness's: every run then says so (hidden()).
    const auto executable = built_executable(out);
    if (!executable.ok()) {
      build_error_ = executable.why();
      return "";
    }
    auto folder = run_folder_from(set_.directory, executable.value(), set_.executable, runs_);
    if (folder.ok()) {
      set_.directory = std::move(folder).value().string();
      if (const auto given = give_to_suite_user(set_.directory); !given.ok()) build_error_ = given.why();
    } else {
      build_error_ = folder.why();
    }
    return "";
  }
  Outcome<SuiteRun> clean() override { return reveal_ ? revealed(" serve", "") : hidden("", {}); }
  Outcome<SuiteRun> clean_recorded() override {
    return reveal_ ? revealed(" serve", "") : hidden("", {}, true);
  }
  std::optional<Outcome<SuiteRun>> broken() override {
    return reveal_ ? revealed(" serve --refuse-all", "") : hidden("refuse-all", {});
  }
  Outcome<SuiteRun> mutant(const std::string& id) override {
    if (variant_.count(id) > 0) return hidden("", id);  // a chaff
    if (reveal_) return revealed(" serve --mutant " + id, id);
    if (variant_.count(kMutantForm + id) > 0) {
      int turn = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (turns_.count(id) == 0) turns_[id] = static_cast<int>(std::random_device{}() % 2);
        turn = turns_[id]++;
      }
      if (turn % 2 == 1) return hidden("", kMutantForm + id);
    }
    return hidden(id, {});
  }
  Outcome<SuiteRun> wheat(const std::string& id) override {
    if (variant_.count(id) == 0) return Subjects::wheat(id);
    return hidden("", id);
  }
  std::string about_wheat(const std::string& id) override {
    if (id != kAlternativesWheat || variant_.count(id) == 0) return {};
    return alternatives_taken(variant_.at(id).folder / "notes");
  }
  ServingRecord serving_record(const SuiteRun& run) override {
    HiddenServer* server = nullptr;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto found = servers_.find(run.command);
      if (found == servers_.end()) return {};  // revealed: nothing watched the run
      server = found->second.get();
    }
    ServingRecord record{server->connections() > 0, server->fault(), std::nullopt};
    if (recorded_.count(run.command) > 0) record.transcript = server->transcript();
    return record;
  }
  // The kit's variant as it is (the as_is wheat), recorded.
  std::optional<Outcome<SuiteRun>> variant_recorded() override {
    if (reveal_ || set_.as_is.empty() || variant_.count(set_.as_is) == 0) return std::nullopt;
    return hidden("", set_.as_is, true);
  }
  // Each form `id` is served in: the oracle's, and its variant's when it
  // has one (a chaff has only that one).
  std::optional<Replayed> replay(const std::string& id, const References& references,
                                 std::chrono::milliseconds limit) override {
    if (reveal_ || private_.empty()) return std::nullopt;
    std::vector<std::string> forms;  // "" the oracle's, else a key of variant_
    if (variant_.count(id) > 0) {
      forms = {id};
    } else {
      forms = {""};
      if (variant_.count(kMutantForm + id) > 0) forms.push_back(kMutantForm + id);
    }
    std::error_code ec;
    const std::string sockets = fs::absolute(private_, ec).string();
    for (const auto& form : forms) {
      const Transcript* variant = nullptr;
      if (!form.empty() && (!variant_.at(form).error.empty() || (variant = references.variant()) == nullptr))
        return std::nullopt;  // its run says why the variant cannot be served; or there is nothing to compare
      const Transcript& reference = form.empty() ? references.oracle : *variant;
      auto started = form.empty() ? HiddenServer::start(sockets, tlbf_mutant_, id)
                                  : HiddenServer::start_program(sockets, set_.variant_command,
                                                                variant_.at(form).folder.string());
      if (!started.ok()) return std::nullopt;
      const std::string differs = started.value()->replay(reference, limit);
      if (!differs.empty()) {
        const std::string which = forms.size() < 2 ? ""
                                  : form.empty()   ? "in the oracle's form, "
                                                   : "in the variant's form, ";
        return Replayed{false, which + differs};
      }
    }
    return Replayed{true, ""};
  }
  void finish(const SuiteRun& run) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      servers_.erase(run.command);
      recorded_.erase(run.command);
    }
    std::error_code ec;
    if (!runs_.empty() && !run.directory.empty()) fs::remove_all(run.directory, ec);
  }
  Place place(const std::string& id) const override {
    if (variant_.count(id) > 0) {  // a chaff: where its patch changes the implementation it was applied to
      Place p = describe_patch(file_text(fs::path(set_.chaffs) / (id + ".patch")), set_.variants_from);
      return p;
    }
    const Mutant* m = find(id);
    Place p;
    if (!m) return p;
    p.file = m->file;
    p.description = m->description + " (" + m->function + ")";
    p.replacement = m->mutated;
    p.diff = unified_diff(*m);
    if (const std::string* text = oracle_source(m->file)) {
      p.source = *text;
      locate(*text, m->switch_text, p);
    }
    return p;
  }
  std::string broken_description() const override {
    return "an implementation that answers every request with an error (does it read TLBF_IMPL?)";
  }

 private:
  // The switch's line and columns in the source.
  static void locate(const std::string& text, const std::string& needle, Place& p) {
    const std::size_t at = text.find(needle);
    if (at == std::string::npos) return;
    const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
    p.start_line = p.end_line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
    p.start_column = 1 + static_cast<int>(at - line_start);
    p.end_column = p.start_column + static_cast<int>(needle.size());
  }

  // A new private folder, or none after noting why in private_error_; one
  // the suite user may pass through (not list) with `passable`.
  fs::path private_folder(bool passable = false) {
    auto made = make_private_folder();
    if (made.ok() && passable) {
      if (const auto passed = let_suite_user_pass(made.value()); !passed.ok()) made = passed.failure();
    }
    if (made.ok()) return std::move(made).value();
    private_error_ = made.why();
    return {};
  }

  // The wheats' and chaffs' folders: the class's (ServedSet::variants), or
  // made here for this grading alone (VariantFolders); this grading's own
  // folder holds only the alternatives wheat's notes.
  void make_variants() {
    variant_folders_ = set_.variants ? set_.variants : VariantFolders::make(set_);
    variant_ = variant_folders_->by_id();
    wheat_ids_ = variant_folders_->wheat_ids();
    variants_ = private_folder();
    if (!set_.tlbf.empty()) make_alternatives_wheat();
    std::sort(wheat_ids_.begin(), wheat_ids_.end());
  }

  // The alternatives wheat: `tlbf serve --alternatives SEED`, in a folder of
  // its own where it notes each request it answers otherwise than the oracle.
  void make_alternatives_wheat() {
    VariantFolder& v = variant_[kAlternativesWheat];
    wheat_ids_.push_back(kAlternativesWheat);
    std::error_code ec;
    const fs::path folder = variants_ / random_name();
    if (variants_.empty() || !fs::create_directory(folder, ec)) {
      v.error = private_error_.empty() ? "cannot make a folder for the alternatives wheat" : private_error_;
      return;
    }
    v.folder = folder;
    alternatives_command_ = {set_.tlbf,          "serve",   "--alternatives",
                             alternatives_seed_, "--notes", (folder / "notes").string()};
  }

  // The report's words on the alternatives wheat: its seed, and the requests
  // its runs answered otherwise than the oracle, as `tlbf serve --notes` wrote them.
  std::string alternatives_taken(const fs::path& notes) const {
    std::string out = "the wheat 'alternatives' (tlbf serve --alternatives " + alternatives_seed_ + ")";
    std::istringstream in(file_text(notes));
    std::set<std::string> seen;
    std::string listed;
    for (std::string line; std::getline(in, line) && seen.size() < 12;) {
      if (!seen.insert(line).second) continue;
      std::vector<std::string> fields;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
      if (fields.size() != 4) continue;
      listed += "\n  " + fields[0] + "  ->  " + fields[1] + "  (" + fields[2] + ": the oracle's answer, or " +
                fields[3] + ")";
    }
    if (listed.empty()) return out + " answered every request as the oracle does";
    return out + " answered these requests otherwise than the oracle, as docs/check.md allows:" + listed;
  }

  // What --reveal-mutant gives: TLBF_IMPL says what it serves, TLBF_MUTANT names the mutant.
  SuiteRun revealed(const std::string& serve, const std::string& id) const {
    return {as_suite_user_reaching({toolchain_folders(suite_), {}, {}},
                                   suite_command(suite_, shell_quote_if_needed(tlbf_) + serve, id)),
            "", -1};
  }

  // TLBF_IMPL is the same words for every run but a random socket name, and
  // what answers there is chosen here (hidden.hpp): the oracle with `choice`,
  // or the variant `variant`.
  Outcome<SuiteRun> hidden(const std::string& choice, const std::string& variant, bool record = false) {
    SuiteRun run;
    if (private_.empty() || (!set_.directory.empty() && runs_.empty())) return failure(private_error_);
    if (!build_error_.empty()) return failure(build_error_);
    // Absolute: a relative TMPDIR would name a socket the suite cannot find once it changes folder.
    std::error_code ec;
    const std::string sockets = fs::absolute(private_, ec).string();
    if (!variant.empty() && !variant_.at(variant).error.empty()) return failure(variant_.at(variant).error);
    const auto& program = variant == kAlternativesWheat ? alternatives_command_ : set_.variant_command;
    auto started = variant.empty()
                       ? HiddenServer::start(sockets, tlbf_mutant_, choice)
                       : HiddenServer::start_program(sockets, program, variant_.at(variant).folder.string());
    if (!started.ok()) return started.failure();
    std::unique_ptr<HiddenServer> server = std::move(started).value();
    // The relay, run as the suite user, must reach and connect to the socket.
    if (const auto given = give_to_suite_user(server->socket_folder()); !given.ok()) return given.failure();
    std::string folder = fs::current_path(ec).string();
    if (!set_.directory.empty()) {
      // A fresh copy for each run: a suite must not leave itself notes from
      // one run to the next (how many runs it has seen) where it runs.
      folder = (runs_ / ("run-" + random_name())).string();  // no count of runs in its name
      const auto copied = conformance::run_with_input(
          "cp -a " + shell_quote(set_.directory) + " " + shell_quote(folder), "", std::chrono::minutes(10));
      if (!copied.exited_cleanly())
        return failure("cannot copy " + set_.directory + ": " +
                       conformance::last_lines(copied.out + copied.err, 3));
      run.directory = folder;
    }
    const std::string relay = (fs::path(tlbf_mutant_).parent_path() / "tlbf-relay").string();
    run.command = suite_command(
        suite_, shell_quote_if_needed(relay) + " " + shell_quote_if_needed(server->socket_path()), "");
    run.command =
        set_.sandbox
            ? sandboxed(run_sandbox(server->socket_folder(), relay, folder), folder, run.command)
            : as_suite_user_reaching(run_sandbox(server->socket_folder(), relay, folder), run.command);
    if (record) server->record();  // only the baseline's runs: the others keep the suite's own pipes
    std::lock_guard<std::mutex> lock(mutex_);
    if (record) recorded_.insert(run.command);
    servers_[run.command] = std::move(server);
    return run;
  }

  // The suite sees, read-only, its run's socket folder and the relay (not
  // tlbf-mutant, which could serve it any mutant, nor tlbf beside it), and
  // its folder; in a PID namespace of its own it cannot see the served
  // processes at all. A suite built once runs its executable, in its
  // folder: no toolchain's program.
  Sandbox run_sandbox(const std::string& socket_folder, const std::string& relay,
                      const std::string& folder) const {
    const std::vector<std::string> program = set_.build.empty() ? suite_ : std::vector<std::string>{};
    Sandbox box{toolchain_folders(program), {}, tlbf_own_files(program)};
    box.read_only.push_back(socket_folder);
    box.read_only.push_back(relay);
    (set_.directory.empty() ? box.read_only : box.read_write).push_back(folder);
    return box;
  }

  std::vector<std::string> suite_;
  std::string tlbf_;
  std::string tlbf_mutant_;
  bool reveal_;
  ServedSet set_;
  fs::path private_;           // the sockets
  fs::path runs_;              // each run's copy of set_.directory
  fs::path variants_;          // the alternatives wheat's folder
  std::string private_error_;  // why one of them is missing
  std::string build_error_;    // why the runs' folder could not be made from a suite built once
  std::vector<std::string> wheat_ids_;
  std::string alternatives_seed_ = random_name();  // drawn for each grading, in the report
  std::vector<std::string> alternatives_command_;
  std::map<std::string, VariantFolder>
      variant_;  // by wheat or chaff id, or kMutantForm + mutant id; filled before any run
  // The other wheats' and chaffs' folders, the class's or this grading's, kept while served.
  std::shared_ptr<const VariantFolders> variant_folders_;
  std::map<std::string, int> turns_;  // by mutant id: its runs so far, from a random start (under mutex_)
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<HiddenServer>> servers_;  // by the command of the run they serve
  std::set<std::string> recorded_;  // the commands of the runs whose sessions are recorded (under mutex_)
};

}  // namespace

std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite, const std::string& tlbf,
                                          const std::string& tlbf_mutant, bool reveal, bool sandbox) {
  ServedSet set;
  set.sandbox = sandbox;
  return std::make_unique<Served>(suite, tlbf, tlbf_mutant, reveal, set);
}

std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite,
                                          const std::string& tlbf_mutant, const ServedSet& set) {
  const auto absolute = [](const std::string& path) {
    return path.empty() ? std::string() : fs::absolute(path).string();
  };
  ServedSet whole = set;
  for (std::string* path : {&whole.directory, &whole.variants_from, &whole.wheats, &whole.chaffs,
                            &whole.mutant_patches, &whole.tlbf}) {
    *path = absolute(*path);
  }
  return std::make_unique<Served>(suite, "", tlbf_mutant, false, whole);
}

std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite,
                                           const std::string& patches_dir, const std::string& workdir,
                                           const std::string& sanity_patch, bool reveal) {
  return patched_subjects(suite, PatchSet{patches_dir, workdir, sanity_patch, "", "", false}, reveal);
}

std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite, const PatchSet& set,
                                           bool reveal) {
  const auto absolute = [](const std::string& path) {
    return path.empty() ? std::string() : fs::absolute(path).string();
  };
  return std::make_unique<Patched>(
      suite,
      PatchSet{absolute(set.patches), absolute(set.workdir), absolute(set.sanity_patch), absolute(set.chaffs),
               absolute(set.wheats), set.sandbox},
      reveal);
}

}  // namespace tlbf::mutants
