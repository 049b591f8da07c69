// The served variants' folders (variants.hpp).
#include "tlbf/mutants/variants.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <set>

#include "folder_files.hpp"
#include "private_folder.hpp"
#include "tlbf/conformance/process.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/mutants/scorer.hpp"
#include "tlbf/shell_quote.hpp"

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

// How one variant differs from the kit's implementation: a patch applied
// with patch -p1, or a folder whose files replace the copy's (neither: as it is).
struct Change {
  fs::path patch;
  fs::path overlay;
};

// A copy of `from` in `folder`, changed by `change`: "" or why it cannot be made.
std::string made_variant(const std::string& from, const fs::path& folder, const Change& change) {
  const auto copied = conformance::run_with_input(
      "cp -a " + shell_quote(from) + " " + shell_quote(folder.string()), "", std::chrono::minutes(1));
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

}  // namespace

std::shared_ptr<const VariantFolders> VariantFolders::make(const ServedSet& set) {
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
  if (root.ok()) out->root_ = root.value();
  for (const auto& [id, change] : all) {
    VariantFolder& v = out->by_id_[id];
    if (!root.ok()) {
      v.error = root.why();
      continue;
    }
    const fs::path folder = out->root_ / random_name();
    v.error = made_variant(set.variants_from, folder, change);
    if (v.error.empty()) v.folder = folder;
  }
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
