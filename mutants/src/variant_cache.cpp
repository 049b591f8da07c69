// Built variants kept between gradings (variant_cache.hpp).
#include "variant_cache.hpp"

#include <sys/stat.h>

#include <fstream>
#include <map>
#include <sstream>

#include "file_text.hpp"
#include "tlbf/conformance/adapters.hpp"
#include "tlbf/mutants/hidden.hpp"
#include "tlbf/sha256.hpp"

namespace tlbf::mutants {

namespace fs = std::filesystem;

namespace {

// The folder products are listed in, one path a line, inside a kept key.
constexpr const char* kManifest = "products";

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

}  // namespace

VariantCache VariantCache::from_environment() {
  return VariantCache(conformance::tlbf_cache_folder() / "variants");
}

std::string VariantCache::key(const fs::path& folder, const std::vector<std::string>& build,
                              const std::vector<std::string>& command, const std::string& toolchain) {
  std::string framed;
  const auto add = [&framed](const std::string& part) { framed += std::to_string(part.size()) + ":" + part; };
  add("tlbf variant 1");
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
  std::istringstream manifest(file_text(kept / kManifest));
  bool any = false;
  for (std::string product; std::getline(manifest, product);) {
    if (!inside_folder(product) || !copy_into(kept / "files" / product, folder / product)) return false;
    any = true;
  }
  return any;
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
  std::ofstream(draft / kManifest) << manifest;
  fs::rename(draft, root_ / key, ec);
  if (ec) {
    fs::remove_all(draft, ec);  // kept by another grading first, or not keepable: the same build either way
  }
  return done();
}

}  // namespace tlbf::mutants
