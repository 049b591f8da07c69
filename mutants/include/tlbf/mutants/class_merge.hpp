// A class graded over a CI matrix: `tlbf grade --shard K/N` grades one
// shard's learners, `tlbf grade --merge` makes the class of the shards'
// outputs (docs/mutants.md, "A class over a CI matrix").
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "tlbf/mutants/class_summary.hpp"
#include "tlbf/mutants/learners.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::mutants {

// The learners of shard k of n: `learners` in name order (find_learners'),
// the i-th from 0 in shard i mod n + 1, so that the shards differ in size by
// one at most. The split depends on the whole class's list of names: every
// shard must be graded from the same class folder.
std::vector<Learner> learners_of_shard(const std::vector<Learner>& learners, const ClassShard& shard);

// class.json's nesting at its deepest (learners[i].chaffs.missed).
inline constexpr int kClassMaxDepth = 5;

// The class.json `text` (of `name`, for messages) read back, or a failure
// naming the file and what is wrong: not JSON as tlbf reads it (strict_json),
// not tlbf grade's, a field missing or of the wrong type, a learner's name
// that is no folder name.
Outcome<ClassSummary> read_class_summary(const std::string& name, const std::string& text);

// The class of its shards' class.json files, (name, text) pairs: every row
// of every shard, in name order, and the bugs of them all; `from[i]` is the
// index of the shard row i came from. A failure, naming the files, when one
// cannot be read back, is a whole class's and not a shard's, when two were
// graded with different tlbf versions, kits, options, kinds, thresholds or
// required mutants, are of different splits or classes, are the same shard,
// hold the same learner, or when a shard of 1..n is missing.
struct MergedClass {
  ClassSummary summary;
  std::vector<std::size_t> from;
};
Outcome<MergedClass> merge_class_shards(const std::vector<std::pair<std::string, std::string>>& shards);

// The learner's report and page (learners/NAME.json and .html) copied from
// the shard's folder into `out`'s: those there are, and the page the row
// links to, which must be there.
Outcome<Done> copy_learner_files(const std::filesystem::path& shard_dir, const std::filesystem::path& out,
                                 const ClassRow& row);

}  // namespace tlbf::mutants
