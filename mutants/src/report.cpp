#include "tlbf/mutants/report.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace tlbf::mutants {
namespace {

// The schema's MutantStatus. A suite that could not be run on the mutant
// (a patch that does not apply) is a RuntimeError there.
const char* status(Verdict v) {
  switch (v) {
    case Verdict::Killed: return "Killed";
    case Verdict::Survived: return "Survived";
    case Verdict::Timeout: return "Timeout";
    case Verdict::Error: return "RuntimeError";
  }
  return "RuntimeError";
}

nlohmann::ordered_json position(int line, int column) { return {{"line", line}, {"column", column}}; }

}  // namespace

std::string mutation_report_json(const Subjects& subjects, const Score& score, const ReportContext& context) {
  nlohmann::ordered_json files = nlohmann::ordered_json::object();
  for (const auto& run : score.runs) {
    const Place place = subjects.place(run.id);
    const std::string file = place.file.empty() ? "(unknown)" : place.file;
    auto& entry = files[file];
    if (entry.is_null()) {
      entry = {{"language", file.size() > 3 && file.substr(file.size() - 3) == ".py" ? "python"
                            : file.size() > 3 && file.substr(file.size() - 3) == ".rs" ? "rust"
                                                                                        : "cpp"},
               {"source", place.source},
               {"mutants", nlohmann::ordered_json::array()}};
    }
    entry["mutants"].push_back({{"id", run.id},
                                {"mutatorName", "PlantedBug"},
                                {"description", place.description},
                                {"replacement", place.replacement},
                                {"location",
                                 {{"start", position(place.start_line, place.start_column)},
                                  {"end", position(place.end_line, place.end_column)}}},
                                {"status", status(run.verdict)},
                                {"statusReason", run.evidence},
                                {"duration", std::round(run.seconds * 1000)}});
  }
  const int percent = static_cast<int>(std::lround(context.threshold * 100));
  nlohmann::ordered_json report = {
      {"schemaVersion", "2"},
      // One bar, so both bounds sit on it: the dashboard shows green at or above it, red below.
      {"thresholds", {{"high", percent}, {"low", percent}}},
      {"files", files},
      {"framework", {{"name", "tlbf mutate"}, {"version", context.version}}},
      {"performance",
       {{"setup", 0}, {"initialRun", std::round(score.baseline_seconds * 1000)}, {"mutation", std::round(score.mutants_seconds * 1000)}}},
      {"config",
       {{"mode", context.mode},
        {"suite", context.suite},
        {"threshold", context.threshold},
        {"require", context.required},
        {"killed", score.killed()},
        {"ran", score.runs.size()},
        {"score", score.score()},
        {"meets", context.meets}}}};
  return report.dump(2) + "\n";
}

}  // namespace tlbf::mutants
