// Served mode's subjects: the oracle's mutants, and the kit's variants (wheats,
// chaffs, a mutant's second form), each served where the suite cannot see it
// (docs/mutants.md). Patch mode's are patched_subjects.cpp's.
#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

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
#include "patch_text.hpp"
#include "tlbf/mutants/variants.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

namespace {

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
  Outcome<SuiteRun> mutant(const std::string& id) override { return mutant_only(id, {}); }
  // Alone only when the kit names its runner (ServedSet::test_runner) and
  // the mutants are hidden: --reveal-mutant runs a course author's own suite whole.
  bool runs_tests_alone() const override { return set_.test_runner != TestRunner::kUnnamed && !reveal_; }
  std::vector<std::string> failed_tests(const std::string& out) const override {
    return runs_tests_alone() ? mutants::failed_tests(set_.test_runner, out) : std::vector<std::string>{};
  }
  Outcome<SuiteRun> mutant_only(const std::string& id, const std::vector<std::string>& tests) override {
    if (variant_.count(id) > 0) return hidden("", id, false, tests);  // a chaff
    if (reveal_) return revealed(" serve --mutant " + id, id);
    if (variant_.count(kMutantForm + id) > 0) {
      int turn = 0;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (turns_.count(id) == 0) turns_[id] = static_cast<int>(std::random_device{}() % 2);
        turn = turns_[id]++;
      }
      if (turn % 2 == 1) return hidden("", kMutantForm + id, false, tests);
    }
    return hidden(id, {}, false, tests);
  }
  Outcome<SuiteRun> clean_only(const std::vector<std::string>& tests, int form) override {
    if (reveal_) return clean();
    // The variant as it is is a wheat: in its form, a clean subject.
    if (form % 2 == 1 && variant_.count(set_.as_is) > 0) return hidden("", set_.as_is, false, tests);
    return hidden("", {}, false, tests);
  }
  Outcome<SuiteRun> wheat(const std::string& id) override {
    if (variant_.count(id) == 0) return Subjects::wheat(id);
    return hidden("", id);
  }
  std::string about_wheat(const std::string& id) override {
    if (id != kAlternativesWheat || variant_.count(id) == 0 || !variant_.at(id).ok()) return {};
    return alternatives_taken(variant_.at(id).value() / "notes");
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
      if (!form.empty() && (!variant_.at(form).ok() || (variant = references.variant()) == nullptr))
        return std::nullopt;  // its run says why the variant cannot be served; or there is nothing to compare
      const Transcript& reference = form.empty() ? references.oracle : *variant;
      auto started = form.empty() ? HiddenServer::start(sockets, tlbf_mutant_, id)
                                  : HiddenServer::start_program(sockets, set_.variant_command,
                                                                variant_.at(form).value().string());
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
    wheat_ids_.push_back(kAlternativesWheat);
    std::error_code ec;
    const fs::path folder = variants_ / random_name();
    if (variants_.empty() || !fs::create_directory(folder, ec)) {
      variant_.insert_or_assign(
          kAlternativesWheat,
          failure(private_error_.empty() ? "cannot make a folder for the alternatives wheat"
                                         : private_error_));
      return;
    }
    variant_.insert_or_assign(kAlternativesWheat, folder);
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
  // `tests`, when not empty, are the only tests it runs (Subjects::mutant_only).
  Outcome<SuiteRun> hidden(const std::string& choice, const std::string& variant, bool record = false,
                           const std::vector<std::string>& tests = {}) {
    SuiteRun run;
    if (private_.empty() || (!set_.directory.empty() && runs_.empty())) return failure(private_error_);
    if (!build_error_.empty()) return failure(build_error_);
    // Absolute: a relative TMPDIR would name a socket the suite cannot find once it changes folder.
    std::error_code ec;
    const std::string sockets = fs::absolute(private_, ec).string();
    if (!variant.empty() && !variant_.at(variant).ok()) return variant_.at(variant).failure();
    const auto& program = variant == kAlternativesWheat ? alternatives_command_ : set_.variant_command;
    auto started = variant.empty()
                       ? HiddenServer::start(sockets, tlbf_mutant_, choice)
                       : HiddenServer::start_program(sockets, program, variant_.at(variant).value().string());
    if (!started.ok()) return started.failure();
    std::unique_ptr<HiddenServer> server = std::move(started).value();
    // The relay, run as the suite user, must reach and connect to the socket.
    if (const auto given = give_to_suite_user(server->socket_folder()); !given.ok()) return given.failure();
    std::string folder = fs::current_path(ec).string();
    if (!set_.directory.empty()) {
      // A fresh copy for each run: a suite must not leave itself notes from
      // one run to the next (how many runs it has seen) where it runs. Every
      // time in it is the fixed epoch, as in a built suite's folder: the time
      // the class copied the learner's file would tell the clean runs, early,
      // from the later ones by the file's age.
      folder = (runs_ / ("run-" + random_name())).string();  // no count of runs in its name
      if (const auto copied = copy_at_epoch(set_.directory, folder, kRunFolderEpoch); !copied.ok())
        return failure("cannot copy " + set_.directory + ": " + copied.why());
      run.directory = folder;
    }
    const std::string relay = (fs::path(tlbf_mutant_).parent_path() / "tlbf-relay").string();
    run.command =
        suite_command(tests.empty() ? suite_ : running_only(set_.test_runner, suite_, tests),
                      shell_quote_if_needed(relay) + " " + shell_quote_if_needed(server->socket_path()), "");
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

}  // namespace tlbf::mutants
