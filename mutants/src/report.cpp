#include "tlbf/mutants/report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tlbf/markup.hpp"
#include "tlbf/strict_json.hpp"

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

// The schema's MutantStatus. A suite that could not be run on the mutant
// (a patch that does not apply) is a RuntimeError there.
const char* status(MutantVerdict v) {
  switch (v) {
    case MutantVerdict::Killed:
      return "Killed";
    case MutantVerdict::Survived:
      return "Survived";
    case MutantVerdict::Timeout:
      return "Timeout";
    case MutantVerdict::Error:
      return "RuntimeError";
  }
  return "RuntimeError";
}

std::optional<MutantVerdict> verdict_of(const std::string& status) {
  if (status == "Killed") return MutantVerdict::Killed;
  if (status == "Survived") return MutantVerdict::Survived;
  if (status == "Timeout") return MutantVerdict::Timeout;
  if (status == "RuntimeError") return MutantVerdict::Error;
  return std::nullopt;
}

Json position(int line, int column) { return {{"line", line}, {"column", column}}; }

// A suite's output kept in a report: its last part, as the end says why it failed.
std::string tail(const std::string& output) {
  constexpr std::size_t kKeep = 4000;
  return output.size() <= kKeep ? output : "..." + output.substr(output.size() - kKeep);
}

// tlbf's own verdict, where the schema leaves room for a tool's settings. A
// merge reads back `threshold`, `require`, `selected`, `shard`, `mode` and
// `suite` and checks the shards agree on them.
// Each killed (or timed out) required mutant's id, with the runs that agreed
// on it: up to confirmKills when each run killed it, two for a timeout.
Json kills_confirmed_by(const Score& score, const ReportContext& context) {
  Json out = Json::object();
  for (const auto& run : score.runs) {
    const bool required =
        std::find(context.required.begin(), context.required.end(), run.id) != context.required.end();
    if (required && (run.verdict == MutantVerdict::Killed || run.verdict == MutantVerdict::Timeout))
      out[run.id] = run.confirmed_by;
  }
  return out;
}

// Where kills were confirmed by tests run alone: by required mutant id, the
// tests its confirming runs ran ([] for the whole suite), and the clean runs
// of such tests alone; null where none was (a merge of shards keeps none).
Json confirmed_alone(const Score& score) {
  if (score.confirmed_alone.empty() && score.alone_control_runs == 0) return nullptr;
  Json tests = Json::object();
  for (const auto& [id, names] : score.confirmed_alone) tests[id] = names;
  return {{"tests", tests},
          {"controlRuns", score.alone_control_runs},
          {"controlPasses", score.alone_control_passes}};
}

Json config_json(const Score& score, const ReportContext& context, const Json& extra) {
  Json stopped = nullptr;
  if (score.stopped != kNotStopped) {
    stopped = {
        {"why", to_string(score.stopped)}, {"exitCode", context.exit_code}, {"reason", score.stop_reason}};
    if (!score.passing_output.empty()) stopped["passingOutput"] = tail(score.passing_output);
    if (!score.baseline_output.empty()) stopped["failingOutput"] = tail(score.baseline_output);
  }
  return {{"tool", "tlbf mutate"},
          {"mode", context.mode},
          {"suite", context.suite},
          {"threshold", context.threshold},
          {"require", context.required},
          {"selected", context.selected},
          {"shard", context.shard.empty() ? Json(nullptr) : Json(context.shard)},
          {"baselineRuns", score.baseline_runs},
          {"baselinePasses", score.baseline_passes},
          {"controlRuns", score.control_runs},
          {"controlPasses", score.control_passes},
          {"killed", score.killed()},
          {"ran", score.runs.size()},
          {"score", score.score()},
          {"meets", context.meets},
          {"exitCode", context.exit_code},
          {"stopped", stopped},
          {"confirmRuns", context.confirm_runs},
          {"confirmKills", context.confirm_kills},
          {"killsConfirmedBy", kills_confirmed_by(score, context)},
          {"confirmedAlone", confirmed_alone(score)},
          {"sandbox", context.sandbox},
          {"replay", extra.value("replay", Json(nullptr))},
          {"survivors", extra.value("survivors", Json::array())},
          {"wheats", extra.value("wheats", Json::array())},
          {"chaffs", extra.value("chaffs", Json(nullptr))},
          {"learner", extra.value("learner", Json(nullptr))}};
}

Json report_json(Json files, const Score& score, const ReportContext& context,
                 const Json& extra = Json::object()) {
  // One bar, so both bounds sit on it: the dashboard shows green at or above
  // it, red below. A grading that falls short for another reason (a required
  // mutant survived) or has no grade puts the bar at 100, so that its score
  // is never green on the page while the verdict says no.
  const int percent = context.meets ? static_cast<int>(std::lround(context.threshold * 100)) : 100;
  return {{"schemaVersion", "2"},
          {"thresholds", {{"high", percent}, {"low", percent}}},
          {"files", std::move(files)},
          {"framework", {{"name", "tlbf mutate"}, {"version", context.version}}},
          {"performance",
           {{"setup", std::round(score.warm_up_seconds * 1000)},
            {"initialRun", std::round(score.baseline_seconds * 1000)},
            {"mutation", std::round(score.mutants_seconds * 1000)}}},
          {"config", config_json(score, context, extra)}};
}

// config.replay: what the baseline's transcripts said, and which subjects survived by replay, not run.
Json replay_json(const Score& score) {
  const TranscriptCheck& t = score.transcript;
  Json replayed = Json::array(), otherwise = Json::array();
  for (const auto* runs : {&score.runs, &score.chaff_runs}) {
    for (const auto& r : *runs) {
      if (r.replayed) replayed.push_back(r.id);
      if (r.answered_otherwise) otherwise.push_back(r.id);
    }
  }
  const auto text_or_null = [](const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); };
  return {{"enabled", t.asked},
          {"recorded", t.recorded},
          {"unrecorded", text_or_null(t.unrecorded)},
          {"deterministic", t.recorded ? Json(t.deterministic) : Json(nullptr)},
          {"difference", text_or_null(t.difference)},
          {"variantRecorded", t.variant_recorded},
          {"variantUnrecorded", text_or_null(t.variant_unrecorded)},
          {"sessions", t.sessions},
          {"requests", t.requests},
          {"replayed", replayed},
          {"answeredOtherwise", otherwise},
          {"seconds", std::round(t.seconds * 1000) / 1000}};
}

Json survivors_json(const std::vector<Survivor>& list) {
  Json out = Json::array();
  for (const auto& s : list) {
    out.push_back(
        {{"id", s.id}, {"description", s.description}, {"file", s.file}, {"line", s.line}, {"diff", s.diff}});
  }
  return out;
}

std::vector<std::string> strings_at(const Json& config, const char* key) {
  std::vector<std::string> out;
  for (const auto& s : config.at(key)) out.push_back(s.get<std::string>());
  return out;
}

// Done when each field of a report's config that a merge reads has the type
// tlbf mutate writes, else what is wrong, naming the field. A damaged or
// hand-edited report gets this, not the JSON library's words.
Outcome<Done> config_checked(const Json& config) {
  const auto shown = [&](const char* key) {
    return config.contains(key) ? config.at(key).dump() : "missing";
  };
  for (const char* key : {"suite", "require", "selected"}) {
    const Json list = config.value(key, Json());
    if (!list.is_array() ||
        !std::all_of(list.begin(), list.end(), [](const Json& s) { return s.is_string(); })) {
      return failure(std::string("config.") + key + " is " + shown(key) + ", not a list of strings");
    }
  }
  const Json threshold = config.value("threshold", Json());
  if (!threshold.is_number() || !(threshold.get<double>() >= 0 && threshold.get<double>() <= 1)) {
    return failure("config.threshold is " + shown("threshold") + ", not a number in 0 ..= 1");
  }
  if (!config.value("mode", Json()).is_string())
    return failure("config.mode is " + shown("mode") + ", not a string");
  const Json shard = config.value("shard", Json());
  if (!config.contains("shard") || !(shard.is_null() || shard.is_string())) {
    return failure("config.shard is " + shown("shard") + ", not k/n or null");
  }
  return done();
}

}  // namespace

std::string replay_summary(const Score& score) {
  const TranscriptCheck& t = score.transcript;
  if (!t.asked || (!t.recorded && t.unrecorded.empty())) return "";
  if (!t.recorded)
    return "replay: the clean runs' sessions could not be recorded (" + t.unrecorded +
           "); every subject was run";
  if (!t.deterministic) {
    return "NOT deterministic: the clean runs did not send the same requests (" + t.difference +
           "); seed its random tests. Every subject was run, none replayed";
  }
  if (t.sessions == 0) return "replay: the clean runs never started TLBF_IMPL; nothing was replayed";
  const std::size_t subjects = score.runs.size() + score.chaff_runs.size();
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", t.seconds);
  return "replay: every clean run sent the same " + std::to_string(t.requests) + " requests in " +
         std::to_string(t.sessions) + " sessions; " + std::to_string(t.replayed) + " of the " +
         std::to_string(subjects) +
         " mutants and chaffs answered them as the reference did and survived without a run (" + seconds +
         " s of replays); " + std::to_string(t.evidenced) +
         " chaffs answered one otherwise and ran once (chaffs are outside the grade)";
}

bool meets_bar(const Score& score, double threshold, const std::vector<std::string>& required,
               std::vector<std::string>& missed) {
  std::set<std::string> ran, killed;
  for (const auto& r : score.runs) {
    ran.insert(r.id);
    if (r.verdict == MutantVerdict::Killed || r.verdict == MutantVerdict::Timeout) killed.insert(r.id);
  }
  missed.clear();
  for (const auto& id : required) {
    if (ran.count(id) && !killed.count(id)) missed.push_back(id);
  }
  return score.score() >= threshold && missed.empty();
}

std::vector<Survivor> survivors(const Subjects& subjects, const std::vector<MutantRun>& runs) {
  std::vector<Survivor> out;
  for (const auto& run : runs) {
    if (run.verdict != MutantVerdict::Survived) continue;
    const Place place = subjects.place(run.id);
    // "s04: Truncating k ..." is shown beside its id already.
    std::string description = place.description;
    if (description.rfind(run.id + ": ", 0) == 0) description.erase(0, run.id.size() + 2);
    out.push_back({run.id, description, place.file, place.start_line, place.diff});
  }
  return out;
}

std::string mutation_report_json(const Subjects& subjects, const Score& score, const ReportContext& context) {
  Json files = Json::object();
  for (const auto& run : score.runs) {
    const Place place = subjects.place(run.id);
    const std::string file = place.file.empty() ? "(unknown)" : place.file;
    auto& entry = files[file];
    if (entry.is_null()) {
      entry = {{"language", file.size() > 3 && file.substr(file.size() - 3) == ".py"   ? "python"
                            : file.size() > 3 && file.substr(file.size() - 3) == ".rs" ? "rust"
                                                                                       : "cpp"},
               {"source", place.source},
               {"mutants", Json::array()}};
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
  Json extra = Json::object();
  // A grading that stopped has no survivors: its outcomes are not a grade.
  extra["survivors"] = survivors_json(score.stopped == kNotStopped ? survivors(subjects, score.runs)
                                                                   : std::vector<Survivor>{});
  Json wheats = Json::array();
  for (const auto& w : score.wheats) {
    Json wheat = {{"id", w.id}, {"runs", w.runs}, {"passes", w.passes}};
    if (!w.about.empty()) wheat["about"] = w.about;
    wheats.push_back(std::move(wheat));
  }
  extra["wheats"] = wheats;
  extra["replay"] = replay_json(score);
  if (!score.chaff_runs.empty()) {
    Json missed = Json::array(), runs = Json::array();
    for (const auto& r : score.chaff_runs) {
      const Place place = subjects.place(r.id);
      runs.push_back({{"id", r.id}, {"status", status(r.verdict)}, {"description", place.description}});
      if (r.verdict == MutantVerdict::Survived) missed.push_back(r.id);
    }
    extra["chaffs"] = {{"ran", score.chaff_runs.size()},
                       {"killed", score.chaffs_killed()},
                       {"missed", missed},
                       {"runs", runs}};
  }
  if (!context.learner.empty()) {
    extra["learner"] = {
        {"name", context.learner}, {"key", context.learner_key}, {"verdict", context.learner_verdict}};
  }
  // Replace, not throw: a patched source file need not be UTF-8.
  return report_json(std::move(files), score, context, extra)
             .dump(2, ' ', false, Json::error_handler_t::replace) +
         "\n";
}

namespace {

std::string joined(const Json& list) {
  std::string out;
  for (const auto& s : list)
    out += (out.empty() ? "" : " ") + (s.is_string() ? s.get<std::string>() : s.dump());
  return out;
}

// The verdict as the terminal says it, before the viewer's tables: the bar,
// the required mutants and which survived, why a grading stopped, the suite,
// and each survivor's bug with its diff. Static HTML, so it shows with
// scripts off too, and in the page's first screen.
std::string verdict_banner(const Json& report) {
  const Json config = report.value("config", Json::object());
  const Json stopped = config.value("stopped", Json());
  const bool meets = config.value("meets", false);
  char score[96];
  std::snprintf(score, sizeof score, "%d/%d = %.2f (threshold %.2f)", config.value("killed", 0),
                config.value("ran", 0), config.value("score", 0.0), config.value("threshold", 0.0));
  std::string verdict, css;
  if (!stopped.is_null()) {
    css = "stopped";
    verdict = "No grade: stopped with exit " + std::to_string(stopped.value("exitCode", 0)) + ": " +
              stopped.value("reason", std::string());
  } else {
    css = meets ? "meets" : "short";
    verdict = std::string("The suite ") + (meets ? "meets" : "does NOT meet") + " the bar: score " + score;
  }
  std::string out = "<section id=\"tlbf-verdict\" class=\"" + css + "\">\n";
  if (config.value("learner", Json()).is_object()) {
    out += "<p class=\"learner\">Learner: <b>" + escape_html(config["learner"].value("name", std::string())) +
           "</b></p>\n";
  }
  out += "<p class=\"verdict\">" + escape_html(verdict) + "</p>\n<ul>\n";
  const Json required = config.value("require", Json::array());
  std::string survived_required;
  for (const auto& s : config.value("survivors", Json::array())) {
    for (const auto& r : required)
      survived_required += r == s.value("id", Json()) ? " " + r.get<std::string>() : "";
  }
  out += "<li>Required mutants: " + escape_html(joined(required)) +
         (survived_required.empty() ? "" : "; <b>not killed:" + escape_html(survived_required) + "</b>") +
         "</li>\n";
  out += "<li>Suite: <code>" + escape_html(joined(config.value("suite", Json::array()))) +
         "</code> (sandbox: " + escape_html(config.value("sandbox", std::string("off"))) + ")</li>\n";
  const Json wheats = config.value("wheats", Json::array());
  if (!wheats.empty()) {
    std::string list;
    for (const auto& w : wheats) {
      list += (list.empty() ? "" : ", ") + w.value("id", std::string()) + " " +
              std::to_string(w.value("passes", 0)) + "/" + std::to_string(w.value("runs", 0));
    }
    out += "<li>Correct variants passed (wheats): " + escape_html(list) + "</li>\n";
  }
  const Json chaffs = config.value("chaffs", Json());
  if (chaffs.is_object()) {
    out += "<li>Chaffs (more bugs, not part of the grade): " + std::to_string(chaffs.value("killed", 0)) +
           " of " + std::to_string(chaffs.value("ran", 0)) + " caught" +
           (chaffs.value("missed", Json::array()).empty()
                ? ""
                : "; missed: " + escape_html(joined(chaffs["missed"]))) +
           "</li>\n";
  }
  out += "</ul>\n";
  // Each survivor's diff folds, open for the first few, so that the
  // viewer's tables stay near the top of a page with many survivors.
  int shown = 0;
  for (const auto& s : config.value("survivors", Json::array())) {
    out += std::string("<details class=\"survivor\"") + (shown++ < 3 ? " open" : "") +
           "><summary><b>MISSED " + escape_html(s.value("id", std::string())) + "</b> " +
           escape_html(s.value("file", std::string())) + ":" + std::to_string(s.value("line", 0)) + " " +
           escape_html(s.value("description", std::string())) + "</summary>\n<pre>" +
           escape_html(s.value("diff", std::string())) + "</pre></details>\n";
  }
  if (!stopped.is_null() && stopped.contains("failingOutput")) {
    out += "<details><summary>The suite's output on the failing run</summary><pre>" +
           escape_html(stopped.value("failingOutput", std::string())) + "</pre></details>\n";
  }
  return out + "</section>\n";
}

}  // namespace

Outcome<std::string> mutation_report_html(const std::string& report_json, const std::string& viewer_js) {
  // Inside a <script>, HTML ends the element at "</script", and "<!--" matters
  // only when a "<script" follows it: with neither "<script" nor "</script"
  // (the bundle of 3.8.4 has a "<!--", in a regular expression), the text is
  // the script's whatever else it holds.
  std::string lower(viewer_js.size(), ' ');
  std::transform(viewer_js.begin(), viewer_js.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  if (lower.find("<script") != std::string::npos || lower.find("</script") != std::string::npos) {
    return failure(
        "the viewer bundle holds \"<script\" or \"</script\", which would end or nest the page's script");
  }
  // "<" appears in JSON only inside strings, where \u003c means the same.
  std::string json;
  json.reserve(report_json.size());
  for (char c : report_json) json += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         // Scripts and styles inline only, images from data: URLs; nothing from the network.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src "
         "'unsafe-inline'; "
         "style-src 'unsafe-inline'; img-src data:; font-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>tlbf "
         "mutate</title>\n"
         "<style>body { margin: 0; font-family: system-ui, sans-serif; }\n"
         "#tlbf-verdict { padding: 0.5em 1.5em; border-bottom: 4px solid #999; }\n"
         "#tlbf-verdict.meets { background: #e3f6dc; border-color: #2e7d32; }\n"
         "#tlbf-verdict.short { background: #fde4df; border-color: #c62828; }\n"
         "#tlbf-verdict.stopped { background: #fff4d0; border-color: #b28704; }\n"
         "#tlbf-verdict .verdict { font-size: 1.3em; font-weight: bold; }\n"
         "#tlbf-verdict pre { background: #fff; padding: 0.5em; overflow-x: auto; "
         "}</style>\n</head>\n<body>\n" +
         verdict_banner(Json::parse(report_json, nullptr, false).is_discarded()
                            ? Json::object()
                            : Json::parse(report_json, nullptr, false)) +
         "<noscript><p>This report is drawn by JavaScript, all of it inside this file: allow scripts for it, "
         "or read "
         "the same report as JSON (tlbf mutate --json).</p></noscript>\n"
         "<mutation-test-report-app title-postfix=\"tlbf mutate\"></mutation-test-report-app>\n"
         "<!-- mutation-testing-elements, Apache License 2.0: "
         "https://github.com/stryker-mutator/mutation-testing-elements -->\n"
         "<script>\n" +
         viewer_js + "\n</script>\n<script type=\"application/json\" id=\"tlbf-mutation-report\">\n" + json +
         "</script>\n<script>\ndocument.querySelector('mutation-test-report-app').report =\n"
         "  "
         "JSON.parse(document.getElementById('tlbf-mutation-report').textContent);\n</script>\n</body>\n</"
         "html>\n";
}

namespace {

// What a merge has gathered from the reports read so far.
struct Merging {
  Merged out;
  Json files = Json::object();
  std::map<std::string, MutantRun> runs;     // by id
  std::map<std::string, std::string> where;  // id -> the report it came from
  std::set<std::string> shards_seen;
  std::string split_into;  // n of the first report's k/n
  std::string first_name;
  Json first;
};

// The report `text`, when it is JSON and its config says tlbf mutate wrote it.
Outcome<Json> tlbf_report(const std::string& name, const std::string& text) {
  auto parsed = parse_json_strictly(text, name, {kReportMaxDepth, "report of tlbf mutate"});
  if (!parsed.ok()) return parsed.failure();
  Json report = std::move(parsed).value();
  if (!report.is_object()) return failure(name + " is not a JSON object");
  const auto config = report.value("config", Json());
  if (!config.is_object() || config.value("tool", "") != "tlbf mutate" || !config.contains("selected") ||
      !config.contains("stopped") || !report.contains("files")) {
    return failure(name +
                   " is not a report of this version of tlbf mutate --json (its config has no tool, selected "
                   "or stopped)");
  }
  return report;
}

// A report's numbers and shape, as the report schema (mutation-testing-elements
// version 2, docs/mutants.md) has them and as tlbf mutate writes them: each
// Failure names the field. A merge adds durations and counts into the
// whole's, so one out of range (negative, not finite, longer than a week,
// more passes than runs) would make the merged report wrong without a word.

bool whole_in(const Json& value, std::uint64_t max) {
  return value.is_number_unsigned() && value.get<std::uint64_t>() <= max;
}

bool milliseconds(const Json& value) {
  if (!value.is_number()) return false;
  const double ms = value.get<double>();
  return std::isfinite(ms) && ms >= 0 && ms <= kMaxDurationMs;
}

// The schema's Position: a line and a column, each from 1.
bool position(const Json& value) {
  constexpr std::uint64_t kMax = std::uint64_t{1} << 31;
  return value.is_object() && whole_in(value.value("line", Json()), kMax) &&
         whole_in(value.value("column", Json()), kMax) && value.at("line").get<std::uint64_t>() >= 1 &&
         value.at("column").get<std::uint64_t>() >= 1;
}

constexpr const char* kNotADuration = ", not a duration in milliseconds in 0 ..= 604800000 (a week)";

Outcome<Done> mutant_checked(const std::string& where, const Json& mutant) {
  if (!mutant.is_object()) return failure(where + " is " + mutant.dump() + ", not an object");
  for (const char* key : {"id", "mutatorName", "status"}) {
    if (!mutant.contains(key) || !mutant.at(key).is_string() || mutant.at(key).get<std::string>().empty())
      return failure(where + "." + key + " is missing or not a string");
  }
  const Json location = mutant.value("location", Json());
  if (!location.is_object() || !position(location.value("start", Json())) ||
      !position(location.value("end", Json()))) {
    return failure(where + ".location is not {\"start\": {\"line\": N, \"column\": N}, \"end\": ...}, " +
                   "lines and columns from 1");
  }
  if (mutant.contains("duration") && !milliseconds(mutant.at("duration")))
    return failure(where + ".duration is " + mutant.at("duration").dump() + kNotADuration);
  for (const char* key : {"statusReason", "description", "replacement"}) {
    if (mutant.contains(key) && !mutant.at(key).is_string())
      return failure(where + "." + key + " is not a string");
  }
  return done();
}

// The files and their mutants; `count` gets how many mutants there are.
Outcome<Done> files_checked(const Json& report, std::size_t& count) {
  const Json files = report.value("files", Json());
  if (!files.is_object()) return failure("files is not an object");
  for (const auto& [file, entry] : files.items()) {
    const std::string where = "files[\"" + file + "\"]";
    if (!entry.is_object() || !entry.value("language", Json()).is_string() ||
        !entry.value("source", Json()).is_string() || !entry.value("mutants", Json()).is_array()) {
      return failure(where + " is not {\"language\": ..., \"source\": ..., \"mutants\": [...]}");
    }
    std::size_t index = 0;
    for (const auto& mutant : entry.at("mutants")) {
      const auto checked = mutant_checked(where + ".mutants[" + std::to_string(index++) + "]", mutant);
      if (!checked.ok()) return checked;
    }
    count += index;
  }
  return done();
}

// What the schema requires beside the files, and the times of the phases.
Outcome<Done> top_checked(const Json& report) {
  if (report.value("schemaVersion", Json()) != "2") return failure("schemaVersion is not \"2\"");
  const Json performance = report.value("performance", Json());
  if (!performance.is_object()) return failure("performance is not an object");
  for (const char* key : {"setup", "initialRun", "mutation"}) {
    const Json value = performance.value(key, Json());
    if (!milliseconds(value))
      return failure(std::string("performance.") + key + " is " + value.dump() + kNotADuration);
  }
  const Json thresholds = report.value("thresholds", Json());
  if (!thresholds.is_object() || !whole_in(thresholds.value("high", Json()), 100) ||
      !whole_in(thresholds.value("low", Json()), 100)) {
    return failure("thresholds is not {\"high\": 0 ..= 100, \"low\": 0 ..= 100}");
  }
  return done();
}

// config's counts: runs and passes, kills of the mutants the report holds.
Outcome<Done> counts_checked(const Json& config, std::size_t mutants) {
  constexpr std::uint64_t kMaxRuns = 1'000'000;
  const auto count = [&](const char* key, std::uint64_t max) -> Outcome<Done> {
    const Json value = config.value(key, Json());
    if (whole_in(value, max)) return done();
    return failure(std::string("config.") + key + " is " + value.dump() +
                   ", not a count in 0 ..= " + std::to_string(max));
  };
  for (const auto& [runs, passes] :
       {std::pair{"baselineRuns", "baselinePasses"}, {"controlRuns", "controlPasses"}}) {
    if (auto ok = count(runs, kMaxRuns); !ok.ok()) return ok;
    if (auto ok = count(passes, config.at(runs).get<std::uint64_t>()); !ok.ok()) return ok;
  }
  if (auto ok = count("ran", kMaxRuns); !ok.ok()) return ok;
  if (auto ok = count("killed", config.at("ran").get<std::uint64_t>()); !ok.ok()) return ok;
  if (config.at("ran").get<std::uint64_t>() != mutants) {
    return failure("config.ran is " + config.at("ran").dump() + ", but the report holds " +
                   std::to_string(mutants) + " mutants");
  }
  if (auto ok = count("confirmRuns", 20); !ok.ok()) return ok;
  // Reports from before these two were written have neither.
  if (config.contains("confirmKills")) {
    if (auto ok = count("confirmKills", 20); !ok.ok()) return ok;
  }
  const Json by = config.value("killsConfirmedBy", Json::object());
  if (!by.is_object()) return failure("config.killsConfirmedBy is " + by.dump() + ", not an object");
  for (const auto& [id, runs] : by.items()) {
    if (!whole_in(runs, 20) || runs.get<std::uint64_t>() < 1)
      return failure("config.killsConfirmedBy." + id + " is " + runs.dump() + ", not a count in 1 ..= 20");
  }
  return done();
}

// The whole report's shape and numbers, before the merge reads any of it.
Outcome<Done> report_checked(const std::string& name, const Json& report) {
  std::size_t mutants = 0;
  if (auto ok = files_checked(report, mutants); !ok.ok()) return ok.failure_in(name + ": ");
  if (auto ok = top_checked(report); !ok.ok()) return ok.failure_in(name + ": ");
  if (auto ok = counts_checked(report.at("config"), mutants); !ok.ok()) return ok.failure_in(name + ": ");
  return done();
}

// Whether the shard stopped: a shard that could not be graded leaves the
// whole ungraded, with its reason.
Outcome<bool> took_stop(Merging& m, const std::string& name, const Json& config) {
  if (config.at("stopped").is_null()) return false;
  const auto why = stop_named(config.at("stopped").at("why").get<std::string>());
  if (!why) return failure(name + ": its stopped.why is not a reason tlbf mutate stops for");
  m.out.score.stopped = *why;
  m.out.score.stop_reason = name + " stopped: " + config.at("stopped").at("reason").get<std::string>();
  return true;
}

// The first report's config is the whole grading's; every other shares it.
Outcome<Done> take_config(Merging& m, const std::string& name, const Json& report, const Json& config) {
  if (m.first.is_null()) {
    m.first = config;
    m.first_name = name;
    m.out.context.suite = strings_at(config, "suite");
    m.out.context.threshold = config.at("threshold").get<double>();
    m.out.context.required = strings_at(config, "require");
    m.out.context.mode = config.at("mode").get<std::string>();
    m.out.context.selected = strings_at(config, "selected");
    m.out.context.version = report.at("framework").value("version", "");
    m.out.context.confirm_runs = config.at("confirmRuns").get<int>();
    m.out.context.confirm_kills = config.value("confirmKills", m.out.context.confirm_runs);
    return done();
  }
  for (const char* key : {"suite", "threshold", "require", "mode", "selected"}) {
    if (config.at(key) != m.first.at(key)) {
      return failure(name + " and " + m.first_name + " disagree on " + key + ": " + config.at(key).dump() +
                     " and " + m.first.at(key).dump() + "; shards of one grading share them");
    }
  }
  return done();
}

// Each shard k/n once, all of one n; or a single whole run.
Outcome<Done> take_shard(Merging& m, const std::string& name, const Json& config) {
  const std::string shard = config.at("shard").is_null() ? "" : config.at("shard").get<std::string>();
  if (!shard.empty() && !m.shards_seen.insert(shard).second)
    return failure(name + " is shard " + shard + " again");
  const std::string of_n = shard.substr(shard.find('/') + 1);  // empty when not a shard
  if (name != m.first_name && of_n != m.split_into) {
    return failure(name + " is " + (shard.empty() ? "a whole run" : "shard " + shard) + ", the others are " +
                   (m.split_into.empty() ? "a whole run" : "shards of " + m.split_into));
  }
  m.split_into = of_n;
  return done();
}

// The report's files and mutants added to the merge's: one source per file,
// each mutant in one report only.
Outcome<Done> take_mutants(Merging& m, const std::string& name, const Json& report) {
  for (const auto& [file, entry] : report.at("files").items()) {
    auto& merged = m.files[file];
    if (merged.is_null()) {
      merged = {
          {"language", entry.at("language")}, {"source", entry.at("source")}, {"mutants", Json::array()}};
    } else if (merged.at("source") != entry.at("source")) {
      return failure(name + " and another report show different sources of " + file);
    }
    for (const auto& mutant : entry.at("mutants")) {
      const std::string id = mutant.at("id").get<std::string>();
      const auto verdict = verdict_of(mutant.at("status").get<std::string>());
      if (!verdict) {
        return failure(name + ": mutant " + id + " has status " + mutant.at("status").dump() +
                       ", which tlbf mutate does not write");
      }
      if (m.where.count(id)) {
        return failure("mutant " + id + " is in both " + m.where[id] + " and " + name +
                       "; shards must not overlap");
      }
      m.where[id] = name;
      MutantRun& run = m.runs[id];
      run.id = id;
      run.verdict = *verdict;
      run.seconds = mutant.value("duration", 0.0) / 1000;
      run.evidence = mutant.value("statusReason", "");
      merged["mutants"].push_back(mutant);
    }
  }
  return done();
}

// The shards ran side by side: the whole's setup and baseline took as long
// as the slowest shard's, its mutants as long as all of them.
void add_times(Score& score, const Json& report) {
  const Json& performance = report.at("performance");
  score.baseline_seconds =
      std::max(score.baseline_seconds, performance.at("initialRun").get<double>() / 1000);
  score.warm_up_seconds = std::max(score.warm_up_seconds, performance.at("setup").get<double>() / 1000);
  score.mutants_seconds += performance.at("mutation").get<double>() / 1000;
}

// One report into the merge; true when it stopped, which settles the whole.
Outcome<bool> merge_one(Merging& m, const std::string& name, const std::string& text) {
  const auto read = tlbf_report(name, text);
  if (!read.ok()) return read.failure();
  const Json& report = read.value();
  const Json config = report.value("config", Json());
  // Every report is checked whole, one that stopped too: its reason and
  // exit code are what the merge will say.
  if (const auto checked = config_checked(config); !checked.ok()) return checked.failure_in(name + ": ");
  if (const auto checked = report_checked(name, report); !checked.ok()) return checked.failure();
  try {
    const auto stopped = took_stop(m, name, config);
    if (!stopped.ok() || stopped.value()) return stopped;
    if (const auto taken = take_config(m, name, report, config); !taken.ok()) return taken.failure();
    if (const auto taken = take_shard(m, name, config); !taken.ok()) return taken.failure();
    if (const auto taken = take_mutants(m, name, report); !taken.ok()) return taken.failure();
    const Json confirmed = config.value("killsConfirmedBy", Json::object());
    for (const auto& [id, runs] : confirmed.items()) {
      if (m.where.count(id) && m.where[id] == name) m.runs[id].confirmed_by = runs.get<int>();
    }
    add_times(m.out.score, report);
  } catch (const Json::exception& e) {
    return failure(name + " is not a report tlbf mutate wrote: " + e.what());
  }
  return false;
}

// Every mutant the shards selected is in one report, and no other is.
Outcome<Done> every_selected_once(const Merging& m) {
  const auto& selected = m.out.context.selected;
  std::string missing;
  for (const auto& id : selected) {
    if (!m.runs.count(id)) missing += " " + id;
  }
  for (const auto& [id, from] : m.where) {
    if (std::find(selected.begin(), selected.end(), id) == selected.end()) {
      return failure(from + " holds mutant " + id + ", which its config does not select");
    }
  }
  if (!missing.empty()) {
    return failure("no report holds" + missing + ": a shard is missing (the whole verdict needs every one)");
  }
  return done();
}

}  // namespace

Outcome<Merged> merge_reports(const std::vector<std::pair<std::string, std::string>>& reports) {
  if (reports.empty()) return failure("no reports to merge");
  Merging m;
  for (const auto& [name, text] : reports) {
    const auto stopped = merge_one(m, name, text);
    if (!stopped.ok()) return stopped.failure();
    if (stopped.value()) return std::move(m.out);
  }
  if (const auto complete = every_selected_once(m); !complete.ok()) return complete.failure();
  Merged& out = m.out;
  for (const auto& id : out.context.selected) out.score.runs.push_back(m.runs[id]);
  out.context.meets = meets_bar(out.score, out.context.threshold, out.context.required, out.missed);
  out.context.exit_code = out.context.meets ? 0 : 1;
  out.json = report_json(std::move(m.files), out.score, out.context)
                 .dump(2, ' ', false, Json::error_handler_t::replace) +
             "\n";
  return std::move(out);
}

}  // namespace tlbf::mutants
