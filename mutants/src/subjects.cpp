// What `tlbf mutate` runs a suite against: served mutants of the oracle, or
// patched copies of a work directory (docs/mutants.md).
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

class Served final : public Subjects {
 public:
  Served(std::vector<std::string> suite, const std::string& tlbf, bool reveal)
      : suite_(std::move(suite)), tlbf_(tlbf), reveal_(reveal) {
    std::string pattern = (fs::temp_directory_path() / "tlbf-mutate-XXXXXX").string();
    if (mkdtemp(pattern.data())) private_ = pattern;  // mode 0700: only this user's processes look in
  }
  ~Served() override {
    servers_.clear();
    std::error_code ec;
    if (!private_.empty()) fs::remove_all(private_, ec);
  }

  std::vector<std::string> ids() const override {
    std::vector<std::string> out;
    for (const auto& m : catalog()) out.push_back(m.id);
    return out;
  }
  SuiteRun clean() override { return reveal_ ? revealed(" serve", "") : hidden(""); }
  std::optional<SuiteRun> broken() override { return reveal_ ? revealed(" serve --refuse-all", "") : hidden("refuse-all"); }
  SuiteRun mutant(const std::string& id) override { return reveal_ ? revealed(" serve --mutant " + id, id) : hidden(id); }
  void finish(const SuiteRun& run) override {
    std::lock_guard<std::mutex> lock(mutex_);
    servers_.erase(run.command);
  }
  Place place(const std::string& id) const override {
    const Mutant* m = find(id);
    Place p;
    if (!m) return p;
    p.file = m->file;
    p.description = m->description + " (" + m->function + ")";
    p.replacement = m->mutated;
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
    p.start_line = p.end_line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
    p.start_column = 1 + static_cast<int>(at - line_start);
    p.end_column = p.start_column + static_cast<int>(needle.size());
  }

  // What --reveal-mutant gives: TLBF_IMPL says what it serves, TLBF_MUTANT names the mutant.
  SuiteRun revealed(const std::string& serve, const std::string& id) const {
    return {suite_command(suite_, quote_if_needed(tlbf_) + serve, id), "", ""};
  }

  // TLBF_IMPL is the same words for every run but a random socket name, and
  // what answers there is chosen here (hidden.hpp).
  SuiteRun hidden(const std::string& choice) {
    SuiteRun run;
    if (private_.empty()) {
      run.error = "cannot make a private folder under " + fs::temp_directory_path().string();
      return run;
    }
    const std::string tlbf_mutant = (fs::path(tlbf_).parent_path() / "tlbf-mutant").string();
    std::string why;
    auto server = HiddenServer::start(private_.string(), tlbf_mutant, choice, why);
    if (!server) {
      run.error = why;
      return run;
    }
    run.command = suite_command(suite_, quote_if_needed(tlbf_mutant) + " --connect " + quote_if_needed(server->socket_path()), "");
    std::lock_guard<std::mutex> lock(mutex_);
    servers_[run.command] = std::move(server);
    return run;
  }

  std::vector<std::string> suite_;
  std::string tlbf_;
  bool reveal_;
  fs::path private_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<HiddenServer>> servers_;  // by the command of the run they serve
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Patched final : public Subjects {
 public:
  Patched(std::vector<std::string> suite, fs::path patches, fs::path workdir, fs::path sanity_patch, bool reveal)
      : suite_(std::move(suite)), patches_(std::move(patches)), workdir_(std::move(workdir)),
        sanity_patch_(std::move(sanity_patch)), seed_(workdir_), reveal_(reveal) {
    std::string pattern = (fs::temp_directory_path() / "tlbf-mutate-XXXXXX").string();
    if (mkdtemp(pattern.data())) scratch_ = pattern;
  }
  ~Patched() override {
    std::error_code ec;
    if (!scratch_.empty()) fs::remove_all(scratch_, ec);
  }

  std::vector<std::string> ids() const override {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(patches_, ec)) {
      if (entry.path().extension() == ".patch") out.push_back(entry.path().stem().string());
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  std::optional<SuiteRun> warm_up() override { return prepare("warm", ""); }
  void warmed(const SuiteRun& run) override {
    if (!run.directory.empty()) seed_ = run.directory;
  }
  SuiteRun clean() override { return prepare(unique("clean"), ""); }
  std::optional<SuiteRun> broken() override {
    if (sanity_patch_.empty()) return std::nullopt;
    return prepare(unique("sanity"), sanity_patch_);
  }
  SuiteRun mutant(const std::string& id) override { return prepare(unique(id), patches_ / (id + ".patch")); }
  void finish(const SuiteRun& run) override {
    std::error_code ec;
    if (!run.directory.empty()) fs::remove_all(run.directory, ec);
  }
  Place place(const std::string& id) const override {
    Place p = describe(slurp(patches_ / (id + ".patch")));
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
  // A folder name no other run has: a mutant's timeout is confirmed by a
  // second run, which may overlap nothing but must not reuse the first's name.
  std::string unique(const std::string& name) { return name + "-" + std::to_string(++runs_); }

  // A fresh copy of the seed (the work directory, or once warmed the warm-up's
  // copy of it), patched; `name` is the copy's folder. cp -a keeps the
  // modification times, so a build tool sees only the patched file as newer
  // than its products; --reflink shares the blocks where the file system can
  // copy on write. Hard links would not do: cargo rewrites some of its files
  // in place (fingerprints), which would change every run's copy at once.
  SuiteRun prepare(const std::string& name, const fs::path& patch) {
    SuiteRun run;
    if (scratch_.empty()) {
      run.error = "cannot make a scratch directory under " + fs::temp_directory_path().string();
      return run;
    }
    const fs::path copy = scratch_ / name;
    const auto copied = conformance::run_with_input("cp -a --reflink=auto " + conformance::shell_quote(seed_.string()) +
                                                        " " + conformance::shell_quote(copy.string()),
                                                    "", std::chrono::minutes(10));
    if (!copied.exited_cleanly()) {
      run.error = "cannot copy " + seed_.string() + " (cp " + copied.how_it_ended() +
                  "): " + conformance::last_lines(copied.out + copied.err, 3);
      return run;
    }
    run.directory = copy.string();
    const std::string mutant = reveal_ && !patch.empty() ? patch.stem().string() : "";
    run.command = suite_command(suite_, "", mutant);
    if (patch.empty()) return run;
    const auto applied = conformance::run_with_input(
        "cd " + conformance::shell_quote(copy.string()) + " && patch -p1 --batch --forward --silent -i " +
            conformance::shell_quote(fs::absolute(patch).string()),
        "", std::chrono::minutes(1));
    if (!applied.exited_cleanly()) {
      run.error = patch.filename().string() + " does not apply to " + workdir_.string() + " (patch " +
                  applied.how_it_ended() + "): " + conformance::last_lines(applied.out + applied.err, 3);
    }
    return run;
  }

  // The first change of the first hunk: the old file's lines it removes
  // (end exclusive), the lines it adds, and the patch's preamble (its text
  // before the first `---`) as the description.
  Place describe(const std::string& patch) const {
    Place p;
    std::istringstream in(patch);
    int old_line = 0;  // the old file's line the next hunk line stands for; 0 before the first hunk
    bool changed = false, removed = false;
    for (std::string text; std::getline(in, text);) {
      if (old_line == 0) {
        if (text.rfind("+++ ", 0) == 0) {
          const std::string path = text.substr(4, text.find('\t') == std::string::npos ? std::string::npos : text.find('\t') - 4);
          p.file = path.find('/') == std::string::npos ? path : path.substr(path.find('/') + 1);  // as patch -p1 does
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
    p.source = slurp(workdir_ / p.file);
    if (changed && !removed) cover_a_neighbour(p);
    return p;
  }

  // A change that only adds lines replaces no text, and an empty location
  // shows nothing in a viewer: cover the line the lines are added after (or,
  // at the top of the file, before) and make it part of the replacement.
  static void cover_a_neighbour(Place& p) {
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

  std::vector<std::string> suite_;
  fs::path patches_, workdir_, sanity_patch_, scratch_;
  fs::path seed_;  // what each run's copy is made from
  bool reveal_;
  std::atomic<int> runs_{0};
};

}  // namespace

std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite, const std::string& tlbf, bool reveal) {
  return std::make_unique<Served>(suite, tlbf, reveal);
}

std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite, const std::string& patches_dir,
                                           const std::string& workdir, const std::string& sanity_patch, bool reveal) {
  return std::make_unique<Patched>(suite, fs::absolute(patches_dir), fs::absolute(workdir),
                                   sanity_patch.empty() ? fs::path() : fs::absolute(sanity_patch), reveal);
}

}  // namespace tlbf::mutants
