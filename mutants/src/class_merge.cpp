// A class graded over a CI matrix (docs/mutants.md, "A class over a CI matrix").
#include "tlbf/mutants/class_merge.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>

#include "json_strings.hpp"
#include "row_replay_json.hpp"
#include "tlbf/strict_json.hpp"

namespace tlbf::mutants {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// A learner's name is a folder's: the merge makes files of it.
bool folder_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

// Each bug a row says survived by replay is one of its survivors: tlbf grade writes no other.
void replayed_survived(const ClassRow& row) {
  if (!row.replay) return;
  for (const auto& id : row.replay->replayed) {
    const auto survived = std::make_pair(id, std::string("survived"));
    if (std::find(row.outcomes.begin(), row.outcomes.end(), survived) == row.outcomes.end())
      throw std::invalid_argument("replay.replayed names " + id + ", which is no survivor of its row");
  }
}

ClassRow row_of(const Json& learner) {
  ClassRow row;
  row.name = learner.at("name").get<std::string>();
  row.verdict = learner.at("verdict").get<std::string>();
  row.killed = learner.at("killed").get<int>();
  row.ran = learner.at("ran").get<int>();
  row.score = learner.at("score").get<double>();
  row.survivors = strings_of(learner.at("survivors"));
  const Json& chaffs = learner.at("chaffs");
  row.chaffs_killed = chaffs.at("killed").get<int>();
  row.chaffs_ran = chaffs.at("ran").get<int>();
  row.chaffs_missed = strings_of(chaffs.at("missed"));
  for (const auto& [id, outcome] : learner.at("outcomes").items()) {
    const std::string cell = outcome.get<std::string>();
    if (cell != "caught" && cell != "survived")
      throw std::invalid_argument("outcome \"" + cell + "\" of " + id);
    row.outcomes.emplace_back(id, cell);
  }
  row.replay = row_replay_of(learner.at("replay"));
  replayed_survived(row);
  row.reason = learner.at("reason").get<std::string>();
  row.report = learner.at("report").get<std::string>();
  if (!folder_name(row.name))
    throw std::invalid_argument("a learner's name \"" + row.name + "\" is no folder's");
  return row;
}

// The fields of class.json, read as tlbf grade writes them; throws when one is missing or wrong.
ClassSummary summary_of(const Json& json) {
  ClassSummary summary;
  if (json.at("tool") != "tlbf grade") throw std::invalid_argument("its tool is not \"tlbf grade\"");
  summary.kind = json.at("kind").get<std::string>();
  summary.threshold = json.at("threshold").get<double>();
  summary.required = strings_of(json.at("require"));
  const Json& grading = json.at("grading");
  summary.version = grading.at("tlbf").get<std::string>();
  summary.kit = grading.at("kit").get<std::string>();
  summary.options = grading.at("options").get<std::string>();
  if (const Json& shard = json.at("shard"); !shard.is_null()) {
    summary.shard =
        ClassShard{shard.at("k").get<int>(), shard.at("n").get<int>(), shard.at("class_learners").get<int>()};
    if (summary.shard->n < 1 || summary.shard->k < 1 || summary.shard->k > summary.shard->n)
      throw std::invalid_argument("its shard is not k/n with 1 <= k <= n");
  }
  for (const auto& bug : json.at("bugs")) {
    summary.bugs.push_back({bug.at("id").get<std::string>(), bug.at("kind").get<std::string>(),
                            bug.at("description").get<std::string>()});
  }
  for (const auto& learner : json.at("learners")) summary.rows.push_back(row_of(learner));
  return summary;
}

std::string bar_of(const ClassSummary& s) {
  std::string out = Json(s.threshold).dump();
  for (const auto& id : s.required) out += " " + id;
  return out;
}

std::string split_name(const ClassShard& s) { return std::to_string(s.k) + "/" + std::to_string(s.n); }

// What every shard of one class shares; the first difference, named with the two files.
Outcome<Done> same_grading(const std::string& name, const ClassSummary& one, const std::string& first_name,
                           const ClassSummary& first) {
  const auto differ = [&](const std::string& what, const std::string& a, const std::string& b) {
    return failure(name + " and " + first_name + " were graded with different " + what + " (" + a + " and " +
                   b + "); the shards of one class are graded alike");
  };
  if (one.version != first.version) return differ("tlbf versions", one.version, first.version);
  if (one.kind != first.kind) return differ("kinds", one.kind, first.kind);
  if (one.kit != first.kit) return differ("kits", "kit digest " + one.kit, first.kit);
  if (one.options != first.options) return differ("options", one.options, first.options);
  if (one.threshold != first.threshold || one.required != first.required)
    return differ("bars (threshold, required mutants)", bar_of(one), bar_of(first));
  if (one.shard->n != first.shard->n || one.shard->class_learners != first.shard->class_learners) {
    return failure(name + " is shard " + split_name(*one.shard) + " of a class of " +
                   std::to_string(one.shard->class_learners) + ", " + first_name + " shard " +
                   split_name(*first.shard) + " of a class of " +
                   std::to_string(first.shard->class_learners) +
                   "; the shards of one class are split alike, from the same class folder");
  }
  return done();
}

// What a merge has gathered from the shards read so far.
struct Gathered {
  MergedClass out;
  std::vector<std::pair<std::string, std::size_t>> rows;  // (name, shard) of each row, as read
  std::map<int, std::string> shard_names;                 // k -> the file
  std::map<std::string, std::string> learner_from;        // name -> the file
  std::map<std::pair<bool, std::string>, Bug> bugs;
};

// One shard's summary into the merge, after the checks that it belongs.
Outcome<Done> take_class_shard(Gathered& g, const std::vector<std::pair<std::string, std::string>>& shards,
                               std::size_t index, ClassSummary one) {
  const std::string& name = shards[index].first;
  if (!one.shard) {
    return failure(name +
                   " is a whole class's class.json, not a shard's (tlbf grade --shard K/N): "
                   "there is nothing to merge it with");
  }
  if (index > 0) {
    if (auto same = same_grading(name, one, shards[0].first, g.out.summary); !same.ok()) return same;
  } else {
    g.out.summary = one;
    g.out.summary.rows.clear();
  }
  if (const auto [at, fresh] = g.shard_names.emplace(one.shard->k, name); !fresh) {
    return failure(name + " and " + at->second + " are both shard " + split_name(*one.shard) +
                   "; give each shard once");
  }
  for (auto& row : one.rows) {
    if (const auto [at, fresh] = g.learner_from.emplace(row.name, name); !fresh) {
      return failure("learner '" + row.name + "' is graded in both " + at->second + " and " + name +
                     "; each learner belongs to one shard");
    }
    g.out.summary.rows.push_back(std::move(row));
    g.out.from.push_back(index);
  }
  for (auto& bug : one.bugs) g.bugs.emplace(std::make_pair(bug.kind == "chaff", bug.id), std::move(bug));
  return done();
}

// Every shard 1..n once, and every learner of the class.
Outcome<Done> every_shard(const Gathered& g) {
  const ClassShard& split = *g.out.summary.shard;
  std::vector<std::string> missing, given;
  for (int k = 1; k <= split.n; ++k) {
    (g.shard_names.count(k) ? given : missing).push_back(std::to_string(k) + "/" + std::to_string(split.n));
  }
  const auto joined = [](const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
  };
  if (!missing.empty()) {
    return failure((missing.size() == 1 ? "shard " : "shards ") + joined(missing) +
                   (missing.size() == 1 ? " is" : " are") + " missing: the class needs every shard of 1.." +
                   std::to_string(split.n) + " (given: " + joined(given) + ")");
  }
  if (g.out.summary.rows.size() != static_cast<std::size_t>(split.class_learners)) {
    return failure("the shards hold " + std::to_string(g.out.summary.rows.size()) +
                   " learners, their class " + std::to_string(split.class_learners));
  }
  return done();
}

}  // namespace

std::vector<Learner> learners_of_shard(const std::vector<Learner>& learners, const ClassShard& shard) {
  std::vector<Learner> out;
  for (std::size_t i = 0; i < learners.size(); ++i) {
    if (static_cast<int>(i % static_cast<std::size_t>(shard.n)) == shard.k - 1) out.push_back(learners[i]);
  }
  return out;
}

Outcome<ClassSummary> read_class_summary(const std::string& name, const std::string& text) {
  const auto parsed = parse_json_strictly(text, name, {kClassMaxDepth, "class summary"});
  if (!parsed.ok()) return failure("not a class.json of tlbf grade: " + parsed.why());
  try {
    return summary_of(parsed.value());
  } catch (const std::exception& e) {
    return failure(name + " is not a class.json tlbf grade wrote: " + e.what());
  }
}

Outcome<MergedClass> merge_class_shards(const std::vector<std::pair<std::string, std::string>>& shards) {
  if (shards.empty()) return failure("no shards to merge");
  Gathered g;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    auto one = read_class_summary(shards[i].first, shards[i].second);
    if (!one.ok()) return one.failure();
    if (auto taken = take_class_shard(g, shards, i, std::move(one).value()); !taken.ok())
      return taken.failure();
  }
  if (auto complete = every_shard(g); !complete.ok()) return complete.failure();
  MergedClass& out = g.out;
  // In name order, as one run lists them, and the row's shard with it.
  std::vector<std::size_t> order(out.summary.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return out.summary.rows[a].name < out.summary.rows[b].name;
  });
  std::vector<ClassRow> rows;
  std::vector<std::size_t> from;
  for (std::size_t i : order) {
    rows.push_back(std::move(out.summary.rows[i]));
    from.push_back(out.from[i]);
  }
  out.summary.rows = std::move(rows);
  out.from = std::move(from);
  out.summary.shard.reset();
  out.summary.bugs.clear();
  for (auto& [key, bug] : g.bugs) out.summary.bugs.push_back(std::move(bug));
  return std::move(out);
}

Outcome<Done> copy_learner_files(const fs::path& shard_dir, const fs::path& out, const ClassRow& row) {
  for (const std::string ext : {".json", ".html"}) {
    const fs::path from = shard_dir / "learners" / (row.name + ext);
    std::error_code ec;
    const bool linked = ext == ".html" && !row.report.empty();
    if (!fs::is_regular_file(from, ec)) {
      if (!linked) continue;
      return failure("cannot read " + from.string() + ": the class page links to it, and it is not there");
    }
    const fs::path to = out / "learners" / (row.name + ext);
    if (fs::exists(to, ec) && fs::equivalent(from, to, ec)) continue;  // -o is that shard's own folder
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec)
      return failure("cannot copy " + from.string() + " into " + (out / "learners").string() + ": " +
                     ec.message());
  }
  return done();
}

}  // namespace tlbf::mutants
