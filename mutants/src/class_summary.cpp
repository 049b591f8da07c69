// class.json (docs/mutants.md, "A class in one command").
#include "tlbf/mutants/class_summary.hpp"

#include <map>
#include <nlohmann/json.hpp>

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

// A row's replay, or null when its report says nothing of it.
Json replay_json(const ClassRow& r) {
  if (!r.replay) return nullptr;
  const RowReplay& p = *r.replay;
  return {{"enabled", p.enabled},
          {"deterministic", p.deterministic ? Json(*p.deterministic) : Json(nullptr)},
          {"difference", p.difference.empty() ? Json(nullptr) : Json(p.difference)},
          {"replayed", p.replayed}};
}

Json learner_json(const ClassRow& r) {
  Json outcomes = Json::object();
  for (const auto& [id, outcome] : r.outcomes) outcomes[id] = outcome;
  return {{"name", r.name},
          {"verdict", r.verdict},
          {"killed", r.killed},
          {"ran", r.ran},
          {"score", r.score},
          {"survivors", r.survivors},
          {"chaffs", {{"killed", r.chaffs_killed}, {"ran", r.chaffs_ran}, {"missed", r.chaffs_missed}}},
          {"outcomes", outcomes},
          {"replay", replay_json(r)},
          {"reason", r.reason},
          {"report", r.report}};
}

}  // namespace

std::string class_summary_json(const ClassSummary& summary) {
  Json learners = Json::array();
  std::map<std::string, int> counts;
  for (const auto& r : summary.rows) {
    ++counts[r.verdict];
    learners.push_back(learner_json(r));
  }
  Json verdicts = Json::object();
  for (const auto& [verdict, n] : counts) verdicts[verdict] = n;
  Json bugs = Json::array();
  for (const auto& b : summary.bugs)
    bugs.push_back({{"id", b.id}, {"kind", b.kind}, {"description", b.description}});
  Json shard = nullptr;
  if (summary.shard) {
    shard = {
        {"k", summary.shard->k}, {"n", summary.shard->n}, {"class_learners", summary.shard->class_learners}};
  }
  return Json{{"tool", "tlbf grade"},
              {"kind", summary.kind},
              {"threshold", summary.threshold},
              {"require", summary.required},
              {"grading", {{"tlbf", summary.version}, {"kit", summary.kit}, {"options", summary.options}}},
              {"shard", shard},
              {"verdicts", verdicts},
              {"bugs", bugs},
              {"learners", learners}}
             .dump(2, ' ', false, Json::error_handler_t::replace) +
         "\n";
}

namespace {

ClassSummary summary_of(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                        const std::vector<std::string>& required) {
  ClassSummary summary;
  summary.kind = kind;
  summary.threshold = threshold;
  summary.required = required;
  summary.bugs = bugs_of(rows);
  summary.rows = rows;
  return summary;
}

}  // namespace

std::string class_summary_json(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required) {
  return class_summary_json(summary_of(rows, kind, threshold, required));
}

std::string class_summary_html(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                               const std::vector<std::string>& required) {
  return class_summary_html(summary_of(rows, kind, threshold, required));
}

}  // namespace tlbf::mutants
