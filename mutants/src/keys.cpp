// The keys a reused report depends on, and a kit's digest (docs/mutants.md,
// "A run that stopped resumes").
#include "tlbf/mutants/keys.hpp"

#include <cstdio>
#include <map>
#include <string>
#include <system_error>

#include "file_text.hpp"
#include "tlbf/hash.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;

// Appends each part framed by its length, so that no two different sets of
// inputs read alike.
class Framed {
 public:
  void add(const std::string& part) { all_ += std::to_string(part.size()) + ":" + part; }
  std::string digest() const {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(tlbf::fnv1a64(all_)));
    return hex;
  }

 private:
  std::string all_;
};

// The kit's files, and how its variants are served.
void add_kit_files(Framed& framed, const Kit& kit) {
  framed.add(kit.serves);
  for (const auto& word : kit.served.variant_command) framed.add(word);
  framed.add(std::to_string(kit.served.variant_build.size()));  // where the command's words end
  for (const auto& word : kit.served.variant_build) framed.add(word);
  framed.add(kit.served.as_is);
  for (const auto& word : kit.served.build) framed.add(word);
  framed.add(kit.served.executable);
  for (const auto& dir : {kit.reference.string(), kit.set.patches, kit.set.chaffs, kit.set.wheats,
                          kit.served.variants_from, kit.served.mutant_patches}) {
    if (dir.empty()) continue;
    std::map<std::string, std::string> files;  // sorted, so the order of the walk does not matter
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_directory() && skipped_folder(it->path())) {
        it.disable_recursion_pending();
      } else if (it->is_regular_file()) {
        files[fs::relative(it->path(), dir).string()] = file_text(it->path());
      }
    }
    for (const auto& [name, text] : files) {
      framed.add(name);
      framed.add(text);
    }
  }
  if (!kit.set.sanity_patch.empty()) framed.add(file_text(kit.set.sanity_patch));
}

}  // namespace

std::string learner_key(const Kit& kit, const Learner& learner, const std::string& options) {
  // Everything the grade depends on.
  Framed framed;
  framed.add(kit.kind);
  framed.add(options);
  framed.add(file_text(learner.tests));
  add_kit_files(framed, kit);
  return framed.digest();
}

std::string kit_digest(const Kit& kit) {
  Framed framed;
  framed.add(kit.kind);
  for (const auto& word : kit.suite) framed.add(word);
  framed.add(kit.tests_file);
  framed.add(kit.tests_into);
  for (const auto& file : kit.left_out) framed.add(file);
  add_kit_files(framed, kit);
  return framed.digest();
}

}  // namespace tlbf::mutants
