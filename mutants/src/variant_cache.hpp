// Built variants kept between gradings (docs/mutants.md, "The Rust kind"):
// a kit whose variants are compiled (variants.build) pays each build once a
// machine, not once a class. What is kept of a variant is what its command
// names inside its folder (the Rust kit's target/release/tlbf-rust), under a
// key made of everything that could change what the build makes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

class VariantCache {
 public:
  // The cache the environment names: variants/ in tlbf's cache folder
  // (conformance::tlbf_cache_folder: $TLBF_CACHE_DIR, else
  // $XDG_CACHE_HOME/tlbf, else ~/.cache/tlbf).
  static VariantCache from_environment();
  explicit VariantCache(std::filesystem::path root) : root_(std::move(root)) {}

  // The key of the variant in `folder` (every file under it, by path and
  // bytes, but its build folder `target`), built by `build` with the
  // toolchain that says `toolchain` of itself and served by `command`.
  static std::string key(const std::filesystem::path& folder, const std::vector<std::string>& build,
                         const std::vector<std::string>& command, const std::string& toolchain);
  // The files `command` names inside `folder`: its words that are paths
  // relative to it, of regular files there once it is built.
  static std::vector<std::string> products(const std::filesystem::path& folder,
                                           const std::vector<std::string>& command);

  // Lays the products kept under `key` into `folder`, as they were kept
  // (their mode included): true when there were some and every one is now
  // there, false when nothing is kept under `key` (or it cannot be read, or
  // its list of products is not whole).
  bool take(const std::string& key, const std::filesystem::path& folder) const;
  // Keeps `products` of `folder` under `key`, whole or not at all (a folder
  // renamed into place; when another grading kept the same key first, its
  // copy stays). A Failure saying why nothing was kept.
  Outcome<Done> keep(const std::string& key, const std::vector<std::string>& products,
                     const std::filesystem::path& folder) const;

  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

}  // namespace tlbf::mutants
