// A learner's row of the class, read back from their report (docs/mutants.md,
// "A class in one command").
#include "tlbf/mutants/class_rows.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "json_strings.hpp"
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

}  // namespace

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
    if (!config.at("stopped").is_null()) {
      // No grade: what ran before it stopped is not one.
      row.reason = config.at("stopped").at("reason").get<std::string>();
      row.killed = row.ran = 0;
      row.score = 0;
      row.chaffs_killed = row.chaffs_ran = 0;
      row.chaffs_missed.clear();
      row.outcomes.clear();
      row.bugs.clear();
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

}  // namespace tlbf::mutants
