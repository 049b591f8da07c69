// The folders a served kit's variants run in (docs/mutants.md, "For course
// authors"): one per wheat, chaff and mutant form, each a copy of the kit's
// implementation changed as it says. tlbf grade makes them once for a class
// and every learner's grading serves from the same folders
// (ServedSet::variants); tlbf mutate makes them for its one grading.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

struct ServedSet;

// A variant's folder, or why it cannot be served.
using VariantFolder = Outcome<std::filesystem::path>;

// The key of a mutant's other form among the variants: "mutant:s01".
inline constexpr const char* kMutantForm = "mutant:";

class VariantFolders {
 public:
  // Every variant `set` names (its as_is, each folder of its wheats, each
  // patch of its chaffs and of its mutant_patches, not the alternatives
  // wheat, which is tlbf serve), each in a folder named at random (the
  // folder a served variant runs in says nothing of what it is) under a new
  // private folder removed when this is destroyed. What cannot be made is
  // an error of that variant, said when it is to run: a copy, a patch that
  // does not apply, or a build (`set.variant_build`) that fails. `jobs`
  // variants are made and built at a time (a class's -j; tlbf mutate's one
  // grading takes the default).
  static std::shared_ptr<const VariantFolders> make(const ServedSet& set, int jobs = 2);
  ~VariantFolders();
  VariantFolders(const VariantFolders&) = delete;
  VariantFolders& operator=(const VariantFolders&) = delete;

  // By wheat or chaff id, or kMutantForm + mutant id.
  const std::map<std::string, VariantFolder>& by_id() const { return by_id_; }
  // The wheats among them (as_is and the wheats' folders), in name order.
  const std::vector<std::string>& wheat_ids() const { return wheat_ids_; }
  // The private folder they are in ("" when it could not be made).
  const std::filesystem::path& root() const { return root_; }
  // How many sets this process has made: a class makes one however many
  // learners it grades (class_grading_test counts them).
  static int made();
  // Of this set's variants, how many its build words built, and how many
  // were laid out from the cache of builds kept between gradings
  // (variant_cache.hpp: $TLBF_CACHE_DIR, else the user's cache folder).
  int built() const { return built_; }
  int taken_from_cache() const { return taken_; }

 private:
  VariantFolders() = default;
  std::filesystem::path root_;
  std::map<std::string, VariantFolder> by_id_;
  std::vector<std::string> wheat_ids_;
  int built_ = 0, taken_ = 0;
};

}  // namespace tlbf::mutants
