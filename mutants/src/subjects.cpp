// What `tlbf mutate` runs a suite against: served mutants of the oracle, or
// patched copies of a work directory (docs/mutants.md).
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/scorer.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

class Served final : public Subjects {
 public:
  Served(std::vector<std::string> suite, const std::string& tlbf)
      : suite_(std::move(suite)), tlbf_(conformance::shell_quote(tlbf)) {}

  std::vector<std::string> ids() const override {
    std::vector<std::string> out;
    for (const auto& m : catalog()) out.push_back(m.id);
    return out;
  }
  SuiteRun clean() override { return {suite_command(suite_, tlbf_ + " serve", ""), "", ""}; }
  std::optional<SuiteRun> broken() override {
    return SuiteRun{suite_command(suite_, tlbf_ + " serve --refuse-all", ""), "", ""};
  }
  SuiteRun mutant(const std::string& id) override {
    return {suite_command(suite_, tlbf_ + " serve --mutant " + id, id), "", ""};
  }
  void finish(const SuiteRun&) override {}
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

  std::vector<std::string> suite_;
  std::string tlbf_;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class Patched final : public Subjects {
 public:
  Patched(std::vector<std::string> suite, fs::path patches, fs::path workdir, fs::path sanity_patch)
      : suite_(std::move(suite)), patches_(std::move(patches)), workdir_(std::move(workdir)),
        sanity_patch_(std::move(sanity_patch)) {
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
  SuiteRun clean() override { return prepare("clean", ""); }
  std::optional<SuiteRun> broken() override {
    if (sanity_patch_.empty()) return std::nullopt;
    return prepare("sanity", sanity_patch_);
  }
  SuiteRun mutant(const std::string& id) override { return prepare(id, patches_ / (id + ".patch")); }
  void finish(const SuiteRun& run) override {
    std::error_code ec;
    if (!run.directory.empty()) fs::remove_all(run.directory, ec);
  }
  Place place(const std::string& id) const override { return describe(slurp(patches_ / (id + ".patch"))); }
  std::string broken_description() const override {
    return "the work directory with " + sanity_patch_.filename().string() + " applied";
  }

 private:
  // A fresh copy of the work directory, patched; `name` is the copy's folder.
  SuiteRun prepare(const std::string& name, const fs::path& patch) {
    SuiteRun run;
    if (scratch_.empty()) {
      run.error = "cannot make a scratch directory under " + fs::temp_directory_path().string();
      return run;
    }
    const fs::path copy = scratch_ / name;
    std::error_code ec;
    fs::copy(workdir_, copy, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (ec) {
      run.error = "cannot copy " + workdir_.string() + ": " + ec.message();
      return run;
    }
    run.directory = copy.string();
    const std::string mutant = patch.empty() ? "" : name;
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
    bool changed = false;
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
        if (mark == '-') p.end_line = ++old_line;
        else p.replacement += (p.replacement.empty() ? "" : "\n") + text.substr(1);
      }
    }
    p.source = slurp(workdir_ / p.file);
    return p;
  }

  std::vector<std::string> suite_;
  fs::path patches_, workdir_, sanity_patch_, scratch_;
};

}  // namespace

std::unique_ptr<Subjects> served_subjects(const std::vector<std::string>& suite, const std::string& tlbf) {
  return std::make_unique<Served>(suite, tlbf);
}

std::unique_ptr<Subjects> patched_subjects(const std::vector<std::string>& suite, const std::string& patches_dir,
                                           const std::string& workdir, const std::string& sanity_patch) {
  return std::make_unique<Patched>(suite, fs::absolute(patches_dir), fs::absolute(workdir),
                                   sanity_patch.empty() ? fs::path() : fs::absolute(sanity_patch));
}

}  // namespace tlbf::mutants
