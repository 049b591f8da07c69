// The served variants' folders (variants.hpp).
#include "tlbf/mutants/variants.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <set>
#include <thread>

#include "folder_files.hpp"
#include "private_folder.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/shell_quote.hpp"
#include "variant_cache.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

std::set<std::string> files_under(const fs::path& folder) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file()) out.insert(fs::relative(it->path(), folder).string());
  }
  return out;
}

std::vector<std::string> patch_stems(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  if (dir.empty()) return out;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".patch") out.push_back(entry.path().stem().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

std::atomic<int> sets_made{0};

// How long one variant's build may take: a compiled implementation built
// from nothing (cargo builds the Rust kit's in about a second).
constexpr std::chrono::minutes kBuildLimit{10};

// How one variant differs from the kit's implementation: a patch applied
// with patch -p1, or a folder whose files replace the copy's (neither: as it is).
struct Change {
  fs::path patch;
  fs::path overlay;
};

// A copy of `from` in `folder`, changed by `change`: "" or why it cannot be made.
std::string made_variant(const std::string& from, const fs::path& folder, const Change& change) {
  // Everything but a `target/` at the top: the build's own folder (as
  // VariantCache::key counts it), which a developer's cargo may have filled
  // with hundreds of MB in a source tree, 62 copies of it for a class.
  const std::string to = shell_quote(fs::absolute(folder).string());  // the find runs inside `from`
  const auto copied = conformance::run_with_input(
      "mkdir -p " + to + " && cd " + shell_quote(from) +
          " && find . -mindepth 1 -maxdepth 1 ! -name target -exec cp -a -t " + to + " {} +",
      "", std::chrono::minutes(1));
  if (!copied.exited_cleanly())
    return "cannot copy " + from + ": " + conformance::last_lines(copied.out + copied.err, 3);
  std::error_code ec;
  for (const auto& file : change.overlay.empty() ? std::set<std::string>{} : files_under(change.overlay)) {
    fs::copy_file(change.overlay / file, folder / file, fs::copy_options::overwrite_existing, ec);
    if (ec) return "cannot lay " + (change.overlay / file).string() + " over a copy of " + from;
  }
  if (change.patch.empty()) return "";
  const auto applied =
      conformance::run_with_input("cd " + shell_quote(folder.string()) +
                                      " && patch -p1 --batch --forward --silent --no-backup-if-mismatch -i " +
                                      shell_quote(fs::absolute(change.patch).string()),
                                  "", std::chrono::minutes(1));
  if (applied.exited_cleanly()) return "";
  return change.patch.filename().string() + " does not apply to " + from + " (patch " +
         applied.how_it_ended() + "): " + conformance::last_lines(applied.out + applied.err, 3);
}

// `folder`, a variant made, built by `words` run in it: "" or why not.
std::string built_variant(const fs::path& folder, const std::vector<std::string>& words) {
  if (words.empty()) return "";
  std::string command = "cd " + shell_quote(folder.string()) + " &&";
  for (const auto& word : words) command += " " + shell_quote(word);
  const auto built = conformance::run_with_input(command, "", kBuildLimit);
  if (built.exited_cleanly()) return "";
  std::string said = conformance::last_lines(built.out + built.err, 5);
  while (!said.empty() && (said.back() == '\n' || said.back() == ' '))
    said.pop_back();  // one line per variant
  return "its build (" + words.front() + ") failed (" + built.how_it_ended() + "): " + said;
}

// What the build's first word says of itself (`cargo --version`): part of
// a kept build's key, so that another toolchain builds afresh.
std::string toolchain_of(const std::vector<std::string>& build) {
  if (build.empty()) return "";
  const auto asked = conformance::run_with_input(shell_quote(build.front()) + " --version", "",
                                                 std::chrono::minutes(1), 4096);
  return asked.exited_cleanly() ? asked.out : "";
}

// How the variants of one set are built: by its words, or taken from the
// cache where a build of the same sources was kept.
struct Builder {
  const ServedSet& set;
  std::optional<VariantCache> cache;
  std::string toolchain;
  std::atomic<int> built{0}, taken{0};

  // `folder`, a variant made, built or laid out from the cache: "" or why not.
  std::string build(const fs::path& folder) {
    if (set.variant_build.empty()) return "";
    const std::string key =
        cache ? VariantCache::key(folder, set.variant_build, set.variant_command, toolchain) : "";
    if (cache && cache->take(key, folder)) {
      ++taken;
      return "";
    }
    std::string error = built_variant(folder, set.variant_build);
    ++built;
    const auto products = VariantCache::products(folder, set.variant_command);
    // A cache that cannot be written costs the next grading its builds, nothing more.
    if (error.empty() && cache && !products.empty()) (void)cache->keep(key, products, folder);
    return error;
  }
};

// Every variant `all` names, made (and built) in a folder of its own under
// `root`, `jobs` at a time: a build is a compiler's work, and a class waits
// for the last one before its first learner.
void make_all(Builder& builder, const fs::path& root, const std::vector<std::pair<std::string, Change>>& all,
              int jobs, std::map<std::string, VariantFolder>& by_id) {
  std::vector<VariantFolder*> slots;
  for (const auto& [id, change] : all)  // the map is not written by the threads
    slots.push_back(&by_id.insert_or_assign(id, failure("not made")).first->second);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t i; (i = next++) < all.size();) {
      const fs::path folder = root / random_name();
      std::string error = made_variant(builder.set.variants_from, folder, all[i].second);
      if (error.empty()) error = builder.build(folder);
      *slots[i] = error.empty() ? VariantFolder(folder) : VariantFolder(failure(error));
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(std::max(jobs, 1), static_cast<int>(all.size())); ++t)
    threads.emplace_back(work);
  work();
  for (auto& thread : threads) thread.join();
}

}  // namespace

std::shared_ptr<const VariantFolders> VariantFolders::make(const ServedSet& set, int jobs) {
  std::shared_ptr<VariantFolders> out(new VariantFolders());
  ++sets_made;
  std::vector<std::pair<std::string, Change>> all;
  if (!set.as_is.empty()) all.push_back({set.as_is, {}});
  std::error_code ec;
  if (!set.wheats.empty()) {
    for (const auto& entry : fs::directory_iterator(set.wheats, ec)) {
      if (entry.is_directory()) all.push_back({entry.path().filename().string(), {{}, entry.path()}});
    }
  }
  for (const auto& [id, change] : all) out->wheat_ids_.push_back(id);
  std::sort(out->wheat_ids_.begin(), out->wheat_ids_.end());
  for (const auto& id : patch_stems(set.chaffs))
    all.push_back({id, {fs::path(set.chaffs) / (id + ".patch"), {}}});
  for (const auto& id : patch_stems(set.mutant_patches))
    all.push_back({kMutantForm + id, {fs::path(set.mutant_patches) / (id + ".patch"), {}}});
  const auto root = make_private_folder();
  if (!root.ok()) {
    for (const auto& [id, change] : all) out->by_id_.insert_or_assign(id, root.failure());
    return out;
  }
  out->root_ = root.value();
  Builder builder{set,
                  set.variant_build.empty() ? std::nullopt : std::optional(VariantCache::from_environment()),
                  toolchain_of(set.variant_build)};
  make_all(builder, out->root_, all, jobs, out->by_id_);
  out->built_ = builder.built;
  out->taken_ = builder.taken;
  return out;
}

VariantFolders::~VariantFolders() {
  if (root_.empty()) return;
  std::error_code ec;
  fs::remove_all(root_, ec);
  conformance::forget_folder(root_.string());
}

int VariantFolders::made() { return sets_made; }

}  // namespace tlbf::mutants
