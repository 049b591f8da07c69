// Built variants kept between gradings (variant_cache.hpp).
#include "variant_cache.hpp"

#include <sys/stat.h>

#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "file_text.hpp"
#include "tlbf/conformance/adapters.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/sha256.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

namespace {

// The file products are listed in, one path a line, inside a kept key, and
// the line that ends it: a list cut short (a full disk) is not taken for a
// shorter one.
constexpr const char* kManifest = "products";
constexpr const char* kManifestEnd = "# end";

// Whether `word` names a place inside a folder: relative, no "." or ".."
// part, not an option.
bool inside_folder(const std::string& word) {
  const fs::path path(word);
  if (word.empty() || word.front() == '-' || !path.is_relative()) return false;
  for (const auto& part : path) {
    if (part == "." || part == "..") return false;
  }
  return true;
}

bool copy_into(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  if (ec) return false;
  // copy_file keeps the permissions: an executable stays one.
  return fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec) && !ec;
}

// The products listed in the kept folder `kept`, when the list is whole:
// ended by its end line, nothing after it, at least one product.
std::optional<std::vector<std::string>> whole_list_at(const fs::path& kept) {
  std::istringstream manifest(file_text(kept / kManifest));
  std::vector<std::string> listed;
  bool ended = false;
  for (std::string line; std::getline(manifest, line);) {
    if (ended) return std::nullopt;  // anything after the end: not a list keep() wrote
    if (line == kManifestEnd) {
      ended = true;
    } else {
      listed.push_back(line);
    }
  }
  if (!ended || listed.empty()) return std::nullopt;
  return listed;
}

}  // namespace

VariantCache VariantCache::from_environment() {
  return VariantCache(conformance::tlbf_cache_folder() / "variants");
}

std::string VariantCache::key(const fs::path& folder, const std::vector<std::string>& build,
                              const std::vector<std::string>& command, const std::string& toolchain) {
  std::string framed;
  const auto add = [&framed](const std::string& part) { framed += std::to_string(part.size()) + ":" + part; };
  // The cache's own format: 2 since a kept list of products ends with its
  // end line. An entry of another format has another key, so it is never
  // read, nor does it hold a key a new build should take.
  add("tlbf variant 2");
  add(std::to_string(build.size()));
  for (const auto& word : build) add(word);
  add(std::to_string(command.size()));
  for (const auto& word : command) add(word);
  add(toolchain);
  std::map<std::string, std::string> files;  // sorted: the walk's order does not matter
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const fs::path relative = fs::relative(it->path(), folder);
    if (it->is_directory() && relative == "target") {
      it.disable_recursion_pending();  // the build's own folder: what it makes, not what it is made from
    } else if (it->is_regular_file()) {
      const auto mode = it->status().permissions();
      files[relative.string()] =
          std::string((mode & fs::perms::owner_exec) != fs::perms::none ? "x" : "-") + file_text(it->path());
    }
  }
  for (const auto& [name, text] : files) add(name), add(text);
  return sha256_hex(framed);
}

std::vector<std::string> VariantCache::products(const fs::path& folder,
                                                const std::vector<std::string>& command) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& word : command) {
    if (inside_folder(word) && fs::is_regular_file(folder / word, ec)) out.push_back(word);
  }
  return out;
}

bool VariantCache::take(const std::string& key, const fs::path& folder) const {
  const fs::path kept = root_ / key;
  const auto listed = whole_list_at(kept);
  if (!listed) return false;
  for (const auto& product : *listed) {
    if (!inside_folder(product) || !copy_into(kept / "files" / product, folder / product)) return false;
  }
  return true;
}

Outcome<Done> VariantCache::keep(const std::string& key, const std::vector<std::string>& products,
                                 const fs::path& folder) const {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (ec) return failure("cannot make " + root_.string() + ": " + ec.message());
  // Nothing of it under its key until it is whole: a grading that reads the
  // key meanwhile finds nothing and builds.
  const fs::path draft = root_ / ("draft-" + random_name());
  std::string manifest;
  for (const auto& product : products) {
    if (!copy_into(folder / product, draft / "files" / product)) {
      fs::remove_all(draft, ec);
      return failure("cannot copy " + (folder / product).string() + " into " + draft.string());
    }
    manifest += product + "\n";
  }
  std::ofstream out(draft / kManifest);
  out << manifest << kManifestEnd << "\n";
  out.close();
  if (!out) {
    fs::remove_all(draft, ec);
    return failure("cannot write " + (draft / kManifest).string());
  }
  fs::rename(draft, root_ / key, ec);
  if (ec && !whole_list_at(root_ / key)) {
    // What holds the key is damaged (take() refuses it): the new build replaces it.
    fs::remove_all(root_ / key, ec);
    fs::rename(draft, root_ / key, ec);
  }
  if (ec) {
    fs::remove_all(draft, ec);  // kept by another grading first, or not keepable: the same build either way
  }
  return done();
}

}  // namespace tlbf::mutants
