// Patch mode's subjects (`tlbf mutate --patches`, and `tlbf grade` with a
// kit that names no "serves"): patched copies of a work directory, one per
// run (docs/mutants.md).
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/sandbox.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/mutants/suite_user.hpp"
#include "tlbf/shell_quote.hpp"
#include "file_text.hpp"
#include "folder_copy.hpp"
#include "folder_files.hpp"
#include "patch_text.hpp"
#include "private_folder.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

namespace {

// What a run's copy gets before the suite runs: nothing (a clean run), a
// patch, or a wheat's files laid over it.
struct Change {
  fs::path patch;    // applied with patch -p1
  fs::path overlay;  // a folder whose files replace the copy's
};

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

}  // namespace

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
