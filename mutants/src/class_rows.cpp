// A learner's row of the class, read back from their report (docs/mutants.md,
// "A class in one command").
#include "tlbf/mutants/class_rows.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "json_strings.hpp"
#include "row_replay_json.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/strict_json.hpp"

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

// A report's status as a cell of the class's matrix: a timeout is a kill, as
// in the score; a run that could not happen (RuntimeError) was not run.
std::string outcome_of(const std::string& status) {
  if (status == "Killed" || status == "Timeout") return "caught";
  if (status == "Survived") return "survived";
  return "";
}

// The bugs of one kind in a report, (id, status, description), in id order.
void take_bugs(ClassRow& row, const std::string& kind, std::vector<const Json*> bugs) {
  std::sort(bugs.begin(), bugs.end(), [](const Json* a, const Json* b) {
    return a->at("id").get<std::string>() < b->at("id").get<std::string>();
  });
  for (const Json* bug : bugs) {
    const std::string id = bug->at("id").get<std::string>();
    row.bugs.push_back({id, kind, bug->value("description", "")});
    const std::string outcome = outcome_of(bug->at("status").get<std::string>());
    if (!outcome.empty()) row.outcomes.emplace_back(id, outcome);
  }
}

void take_outcomes(ClassRow& row, const Json& report) {
  std::vector<const Json*> mutants, chaffs;
  for (const auto& [file, entry] : report.at("files").items()) {
    for (const auto& mutant : entry.at("mutants")) mutants.push_back(&mutant);
  }
  const Json& config = report.at("config");
  if (config.at("chaffs").is_object()) {
    for (const auto& chaff : config.at("chaffs").at("runs")) chaffs.push_back(&chaff);
  }
  take_bugs(row, "mutant", mutants);
  take_bugs(row, "chaff", chaffs);
}

// config.replay, when the report has one: the replayed ids kept in the
// order of the row's outcomes, so that a row reads alike however the report
// listed them.
void take_replay(ClassRow& row, const Json& config) {
  std::optional<RowReplay> r = row_replay_of(config.value("replay", Json()));
  if (!r) return;
  const std::vector<std::string> replayed = std::move(r->replayed);
  r->replayed.clear();
  for (const auto& [id, outcome] : row.outcomes) {
    if (std::find(replayed.begin(), replayed.end(), id) != replayed.end()) r->replayed.push_back(id);
  }
  row.replay = std::move(r);
}

}  // namespace

std::optional<RowReplay> row_replay_of(const Json& replay) {
  if (replay.is_null()) return std::nullopt;
  RowReplay out;
  out.enabled = replay.at("enabled").get<bool>();
  if (const Json& deterministic = replay.at("deterministic"); !deterministic.is_null())
    out.deterministic = deterministic.get<bool>();
  if (const Json& difference = replay.at("difference"); !difference.is_null())
    out.difference = difference.get<std::string>();
  out.replayed = strings_of(replay.at("replayed"));
  return out;
}

Outcome<ClassRow> class_row(const std::string& report_json) {
  ClassRow row;
  const auto parsed = parse_json_strictly(report_json, "the report", {kReportMaxDepth, "report"});
  if (!parsed.ok()) return failure("not a report of tlbf grade: " + parsed.why());
  const Json& report = parsed.value();
  try {
    const Json& config = report.at("config");
    const Json& learner = config.at("learner");
    row.name = learner.at("name").get<std::string>();
    row.verdict = learner.at("verdict").get<std::string>();
    row.killed = config.at("killed").get<int>();
    row.ran = config.at("ran").get<int>();
    row.score = config.at("score").get<double>();
    for (const auto& s : config.at("survivors")) row.survivors.push_back(s.at("id").get<std::string>());
    if (config.at("chaffs").is_object()) {
      row.chaffs_killed = config.at("chaffs").at("killed").get<int>();
      row.chaffs_ran = config.at("chaffs").at("ran").get<int>();
      row.chaffs_missed = strings_of(config.at("chaffs").at("missed"));
    }
    take_outcomes(row, report);
    take_replay(row, config);
    if (!config.at("stopped").is_null()) {
      // No grade: what ran before it stopped is not one.
      row.reason = config.at("stopped").at("reason").get<std::string>();
      row.killed = row.ran = 0;
      row.score = 0;
      row.chaffs_killed = row.chaffs_ran = 0;
      row.chaffs_missed.clear();
      row.outcomes.clear();
      row.bugs.clear();
      if (row.replay) row.replay->replayed.clear();
    }
  } catch (const Json::exception& e) {
    return failure(std::string("not a report of tlbf grade: ") + e.what());
  }
  return row;
}

std::vector<Bug> bugs_of(const std::vector<ClassRow>& rows) {
  std::map<std::pair<bool, std::string>, Bug> all;  // (a chaff, id): mutants first, each kind in id order
  for (const auto& r : rows) {
    for (const auto& bug : r.bugs) all.emplace(std::make_pair(bug.kind == "chaff", bug.id), bug);
  }
  std::vector<Bug> out;
  for (auto& [key, bug] : all) out.push_back(std::move(bug));
  return out;
}

bool not_deterministic(const ClassRow& row) { return row.replay && row.replay->deterministic == false; }

std::string replay_words(const ClassRow& row) {
  if (!row.replay) return "";
  if (!row.replay->enabled) return "off";
  if (not_deterministic(row)) return "NOT deterministic";
  if (!row.replay->deterministic || !row.reason.empty()) return "";
  return std::to_string(row.replay->replayed.size()) + " of " + std::to_string(row.ran + row.chaffs_ran) +
         " replayed";
}

std::string replay_cell(const ClassRow& row) {
  const std::string words = replay_words(row);
  if (words.empty() || words == "off" || not_deterministic(row)) return words;
  return std::to_string(row.replay->replayed.size()) + "/" + std::to_string(row.ran + row.chaffs_ran);
}

}  // namespace tlbf::mutants
