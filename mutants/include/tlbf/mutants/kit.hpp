// What one kind of suite is graded against: a kit, and reading one from its
// kit.json (docs/mutants.md, "Kits").
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "tlbf/mutants/scorer.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// What one kind of suite is graded against: a kit. A learner hands in one
// tests file; it goes into a copy of the reference, where the suite command
// runs it. The patches, the sanity patch, the chaffs and the wheats all apply
// to the reference, never to the learner's own code.
struct Kit {
  std::string kind;                 // "python", "rust"
  std::filesystem::path reference;  // the course's implementation
  std::string tests_file;           // the file a learner hands in, by name
  std::string tests_into;           // the folder of the reference it goes into ("" the top)
  std::vector<std::string> suite;   // the command that runs it there
  // Files of the reference a learner's copy does not have: the course's own
  // tests, which a learner's file could otherwise import and hand in as theirs.
  std::vector<std::string> left_out;
  PatchSet set;  // workdir unused: each learner gets a copy of the reference
  // "oracle" for a kit of protocol suites: the reference is then the course's
  // folder the tests file goes into, the mutants are the oracle's, served
  // hidden, and the wheats and chaffs are variants of `served` (its
  // variants_from, with set.wheats and set.chaffs); set.patches is unused.
  std::string serves;
  ServedSet served;  // directory and sandbox set per learner
};

// The kit described by `path` (a kit.json, docs/mutants.md, "Kits"); paths in
// it are relative to its folder. A failure names the first thing wrong with it:
// a file that is not a regular one or is longer than kMaxKitBytes, JSON nested
// deeper than kKitMaxDepth (a kit's `variants` is 2 levels down) or with a key
// twice, then its fields.
inline constexpr int kKitMaxDepth = 3;
inline constexpr std::size_t kMaxKitBytes = std::size_t{1} << 20;
Outcome<Kit> read_kit(const std::filesystem::path& path);

}  // namespace tlbf::mutants
