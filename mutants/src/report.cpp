#include "tlbf/mutants/report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

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

std::optional<Verdict> verdict_of(const std::string& status) {
  if (status == "Killed") return Verdict::Killed;
  if (status == "Survived") return Verdict::Survived;
  if (status == "Timeout") return Verdict::Timeout;
  if (status == "RuntimeError") return Verdict::Error;
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
Json config_json(const Score& score, const ReportContext& context, const Json& extra) {
  Json stopped = nullptr;
  if (score.stopped != kNotStopped) {
    stopped = {{"why", to_string(score.stopped)}, {"exitCode", context.exit_code}, {"reason", score.stop_reason}};
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
          {"sandbox", context.sandbox},
          {"survivors", extra.value("survivors", Json::array())},
          {"wheats", extra.value("wheats", Json::array())},
          {"chaffs", extra.value("chaffs", Json(nullptr))},
          {"learner", extra.value("learner", Json(nullptr))}};
}

Json report_json(Json files, const Score& score, const ReportContext& context, const Json& extra = Json::object()) {
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

Json survivors_json(const std::vector<Survivor>& list) {
  Json out = Json::array();
  for (const auto& s : list) {
    out.push_back({{"id", s.id}, {"description", s.description}, {"file", s.file}, {"line", s.line}, {"diff", s.diff}});
  }
  return out;
}

std::vector<std::string> strings_at(const Json& config, const char* key) {
  std::vector<std::string> out;
  for (const auto& s : config.at(key)) out.push_back(s.get<std::string>());
  return out;
}

// What is wrong with the fields of a report's config that a merge reads,
// naming the field; empty when each has the type tlbf mutate writes. A
// damaged or hand-edited report gets this, not the JSON library's words.
std::string config_problem(const Json& config) {
  const auto shown = [&](const char* key) { return config.contains(key) ? config.at(key).dump() : "missing"; };
  for (const char* key : {"suite", "require", "selected"}) {
    const Json list = config.value(key, Json());
    if (!list.is_array() || !std::all_of(list.begin(), list.end(), [](const Json& s) { return s.is_string(); })) {
      return std::string("config.") + key + " is " + shown(key) + ", not a list of strings";
    }
  }
  const Json threshold = config.value("threshold", Json());
  if (!threshold.is_number() || !(threshold.get<double>() >= 0 && threshold.get<double>() <= 1)) {
    return "config.threshold is " + shown("threshold") + ", not a number in 0 ..= 1";
  }
  if (!config.value("mode", Json()).is_string()) return "config.mode is " + shown("mode") + ", not a string";
  const Json shard = config.value("shard", Json());
  if (!config.contains("shard") || !(shard.is_null() || shard.is_string())) {
    return "config.shard is " + shown("shard") + ", not k/n or null";
  }
  return {};
}

}  // namespace

bool meets_bar(const Score& score, double threshold, const std::vector<std::string>& required,
               std::vector<std::string>& missed) {
  std::set<std::string> ran, killed;
  for (const auto& r : score.runs) {
    ran.insert(r.id);
    if (r.verdict == Verdict::Killed || r.verdict == Verdict::Timeout) killed.insert(r.id);
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
    if (run.verdict != Verdict::Survived) continue;
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
      entry = {{"language", file.size() > 3 && file.substr(file.size() - 3) == ".py" ? "python"
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
  extra["survivors"] = survivors_json(score.stopped == kNotStopped ? survivors(subjects, score.runs) : std::vector<Survivor>{});
  Json wheats = Json::array();
  for (const auto& w : score.wheats) wheats.push_back({{"id", w.id}, {"runs", w.runs}, {"passes", w.passes}});
  extra["wheats"] = wheats;
  if (!score.chaff_runs.empty()) {
    Json missed = Json::array(), runs = Json::array();
    for (const auto& r : score.chaff_runs) {
      const Place place = subjects.place(r.id);
      runs.push_back({{"id", r.id}, {"status", status(r.verdict)}, {"description", place.description}});
      if (r.verdict == Verdict::Survived) missed.push_back(r.id);
    }
    extra["chaffs"] = {{"ran", score.chaff_runs.size()}, {"killed", score.chaffs_killed()}, {"missed", missed}, {"runs", runs}};
  }
  if (!context.learner.empty()) {
    extra["learner"] = {{"name", context.learner}, {"key", context.learner_key}, {"verdict", context.learner_verdict}};
  }
  // Replace, not throw: a patched source file need not be UTF-8.
  return report_json(std::move(files), score, context, extra).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string html_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

std::string joined(const Json& list) {
  std::string out;
  for (const auto& s : list) out += (out.empty() ? "" : " ") + (s.is_string() ? s.get<std::string>() : s.dump());
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
  std::snprintf(score, sizeof score, "%d/%d = %.2f (threshold %.2f)", config.value("killed", 0), config.value("ran", 0),
                config.value("score", 0.0), config.value("threshold", 0.0));
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
    out += "<p class=\"learner\">Learner: <b>" + html_escaped(config["learner"].value("name", std::string())) + "</b></p>\n";
  }
  out += "<p class=\"verdict\">" + html_escaped(verdict) + "</p>\n<ul>\n";
  const Json required = config.value("require", Json::array());
  std::string survived_required;
  for (const auto& s : config.value("survivors", Json::array())) {
    for (const auto& r : required) survived_required += r == s.value("id", Json()) ? " " + r.get<std::string>() : "";
  }
  out += "<li>Required mutants: " + html_escaped(joined(required)) +
         (survived_required.empty() ? "" : "; <b>not killed:" + html_escaped(survived_required) + "</b>") + "</li>\n";
  out += "<li>Suite: <code>" + html_escaped(joined(config.value("suite", Json::array()))) + "</code> (sandbox: " +
         html_escaped(config.value("sandbox", std::string("off"))) + ")</li>\n";
  const Json wheats = config.value("wheats", Json::array());
  if (!wheats.empty()) {
    std::string list;
    for (const auto& w : wheats) {
      list += (list.empty() ? "" : ", ") + w.value("id", std::string()) + " " + std::to_string(w.value("passes", 0)) +
              "/" + std::to_string(w.value("runs", 0));
    }
    out += "<li>Correct variants passed (wheats): " + html_escaped(list) + "</li>\n";
  }
  const Json chaffs = config.value("chaffs", Json());
  if (chaffs.is_object()) {
    out += "<li>Chaffs (more bugs, not part of the grade): " + std::to_string(chaffs.value("killed", 0)) + " of " +
           std::to_string(chaffs.value("ran", 0)) + " caught" +
           (chaffs.value("missed", Json::array()).empty() ? "" : "; missed: " + html_escaped(joined(chaffs["missed"]))) +
           "</li>\n";
  }
  out += "</ul>\n";
  // Each survivor's diff folds, open for the first few, so that the
  // viewer's tables stay near the top of a page with many survivors.
  int shown = 0;
  for (const auto& s : config.value("survivors", Json::array())) {
    out += std::string("<details class=\"survivor\"") + (shown++ < 3 ? " open" : "") + "><summary><b>MISSED " +
           html_escaped(s.value("id", std::string())) + "</b> " + html_escaped(s.value("file", std::string())) + ":" +
           std::to_string(s.value("line", 0)) + " " + html_escaped(s.value("description", std::string())) +
           "</summary>\n<pre>" + html_escaped(s.value("diff", std::string())) + "</pre></details>\n";
  }
  if (!stopped.is_null() && stopped.contains("failingOutput")) {
    out += "<details><summary>The suite's output on the failing run</summary><pre>" +
           html_escaped(stopped.value("failingOutput", std::string())) + "</pre></details>\n";
  }
  return out + "</section>\n";
}

}  // namespace

std::string mutation_report_html(const std::string& report_json, const std::string& viewer_js, std::string& error) {
  // Inside a <script>, HTML ends the element at "</script", and "<!--" matters
  // only when a "<script" follows it: with neither "<script" nor "</script"
  // (the bundle of 3.8.4 has a "<!--", in a regular expression), the text is
  // the script's whatever else it holds.
  std::string lower(viewer_js.size(), ' ');
  std::transform(viewer_js.begin(), viewer_js.end(), lower.begin(),
                 [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  if (lower.find("<script") != std::string::npos || lower.find("</script") != std::string::npos) {
    error = "the viewer bundle holds \"<script\" or \"</script\", which would end or nest the page's script";
    return "";
  }
  // "<" appears in JSON only inside strings, where \u003c means the same.
  std::string json;
  json.reserve(report_json.size());
  for (char c : report_json) json += c == '<' ? std::string("\\u003c") : std::string(1, c);
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         // Scripts and styles inline only, images from data: URLs; nothing from the network.
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
         "style-src 'unsafe-inline'; img-src data:; font-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>tlbf mutate</title>\n"
         "<style>body { margin: 0; font-family: system-ui, sans-serif; }\n"
         "#tlbf-verdict { padding: 0.5em 1.5em; border-bottom: 4px solid #999; }\n"
         "#tlbf-verdict.meets { background: #e3f6dc; border-color: #2e7d32; }\n"
         "#tlbf-verdict.short { background: #fde4df; border-color: #c62828; }\n"
         "#tlbf-verdict.stopped { background: #fff4d0; border-color: #b28704; }\n"
         "#tlbf-verdict .verdict { font-size: 1.3em; font-weight: bold; }\n"
         "#tlbf-verdict pre { background: #fff; padding: 0.5em; overflow-x: auto; }</style>\n</head>\n<body>\n" +
         verdict_banner(Json::parse(report_json, nullptr, false).is_discarded() ? Json::object()
                                                                                 : Json::parse(report_json, nullptr, false)) +
         "<noscript><p>This report is drawn by JavaScript, all of it inside this file: allow scripts for it, or read "
         "the same report as JSON (tlbf mutate --json).</p></noscript>\n"
         "<mutation-test-report-app title-postfix=\"tlbf mutate\"></mutation-test-report-app>\n"
         "<!-- mutation-testing-elements, Apache License 2.0: https://github.com/stryker-mutator/mutation-testing-elements -->\n"
         "<script>\n" +
         viewer_js +
         "\n</script>\n<script type=\"application/json\" id=\"tlbf-mutation-report\">\n" + json +
         "</script>\n<script>\ndocument.querySelector('mutation-test-report-app').report =\n"
         "  JSON.parse(document.getElementById('tlbf-mutation-report').textContent);\n</script>\n</body>\n</html>\n";
}

Merged merge_reports(const std::vector<std::pair<std::string, std::string>>& reports) {
  Merged out;
  if (reports.empty()) {
    out.error = "no reports to merge";
    return out;
  }
  Json files = Json::object();
  std::map<std::string, MutantRun> runs;      // by id
  std::map<std::string, std::string> where;   // id -> the report it came from
  std::set<std::string> shards_seen;
  std::string split_into;  // n of the first report's k/n
  std::string first_name;
  Json first;
  for (const auto& [name, text] : reports) {
    const Json report = Json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (report.is_discarded() || !report.is_object()) {
      out.error = name + " is not JSON";
      return out;
    }
    const auto config = report.value("config", Json());
    if (!config.is_object() || config.value("tool", "") != "tlbf mutate" || !config.contains("selected") ||
        !config.contains("stopped") || !report.contains("files")) {
      out.error = name + " is not a report of this version of tlbf mutate --json (its config has no tool, selected or stopped)";
      return out;
    }
    try {
      if (!config.at("stopped").is_null()) {
        // A shard that could not be graded leaves the whole ungraded.
        const auto why = stop_named(config.at("stopped").at("why").get<std::string>());
        if (!why) {
          out.error = name + ": its stopped.why is not a reason tlbf mutate stops for";
          return out;
        }
        out.score.stopped = *why;
        out.score.stop_reason = name + " stopped: " + config.at("stopped").at("reason").get<std::string>();
        return out;
      }
      if (const std::string problem = config_problem(config); !problem.empty()) {
        out.error = name + ": " + problem;
        return out;
      }
      if (first.is_null()) {
        first = config;
        first_name = name;
        out.context.suite = strings_at(config, "suite");
        out.context.threshold = config.at("threshold").get<double>();
        out.context.required = strings_at(config, "require");
        out.context.mode = config.at("mode").get<std::string>();
        out.context.selected = strings_at(config, "selected");
        out.context.version = report.at("framework").value("version", "");
      } else {
        for (const char* key : {"suite", "threshold", "require", "mode", "selected"}) {
          if (config.at(key) != first.at(key)) {
            out.error = name + " and " + first_name + " disagree on " + key + ": " + config.at(key).dump() + " and " +
                        first.at(key).dump() + "; shards of one grading share them";
            return out;
          }
        }
      }
      const std::string shard = config.at("shard").is_null() ? "" : config.at("shard").get<std::string>();
      if (!shard.empty() && !shards_seen.insert(shard).second) {
        out.error = name + " is shard " + shard + " again";
        return out;
      }
      const std::string of_n = shard.substr(shard.find('/') + 1);  // empty when not a shard
      if (name != first_name && of_n != split_into) {
        out.error = name + " is " + (shard.empty() ? "a whole run" : "shard " + shard) + ", the others are " +
                    (split_into.empty() ? "a whole run" : "shards of " + split_into);
        return out;
      }
      split_into = of_n;
      for (const auto& [file, entry] : report.at("files").items()) {
        auto& merged = files[file];
        if (merged.is_null()) {
          merged = {{"language", entry.at("language")}, {"source", entry.at("source")}, {"mutants", Json::array()}};
        } else if (merged.at("source") != entry.at("source")) {
          out.error = name + " and another report show different sources of " + file;
          return out;
        }
        for (const auto& m : entry.at("mutants")) {
          const std::string id = m.at("id").get<std::string>();
          const auto verdict = verdict_of(m.at("status").get<std::string>());
          if (!verdict) {
            out.error = name + ": mutant " + id + " has status " + m.at("status").dump() + ", which tlbf mutate does not write";
            return out;
          }
          if (where.count(id)) {
            out.error = "mutant " + id + " is in both " + where[id] + " and " + name + "; shards must not overlap";
            return out;
          }
          where[id] = name;
          MutantRun& run = runs[id];
          run.id = id;
          run.verdict = *verdict;
          run.seconds = m.value("duration", 0.0) / 1000;
          run.evidence = m.value("statusReason", "");
          merged["mutants"].push_back(m);
        }
      }
      out.score.baseline_seconds = std::max(out.score.baseline_seconds, report.at("performance").at("initialRun").get<double>() / 1000);
      out.score.warm_up_seconds = std::max(out.score.warm_up_seconds, report.at("performance").at("setup").get<double>() / 1000);
      out.score.mutants_seconds += report.at("performance").at("mutation").get<double>() / 1000;
    } catch (const Json::exception& e) {
      out.error = name + " is not a report tlbf mutate wrote: " + e.what();
      return out;
    }
  }
  std::string missing;
  for (const auto& id : out.context.selected) {
    if (!runs.count(id)) missing += " " + id;
  }
  for (const auto& [id, from] : where) {
    if (std::find(out.context.selected.begin(), out.context.selected.end(), id) == out.context.selected.end()) {
      out.error = from + " holds mutant " + id + ", which its config does not select";
      return out;
    }
  }
  if (!missing.empty()) {
    out.error = "no report holds" + missing + ": a shard is missing (the whole verdict needs every one)";
    return out;
  }
  for (const auto& id : out.context.selected) out.score.runs.push_back(runs[id]);
  out.context.meets = meets_bar(out.score, out.context.threshold, out.context.required, out.missed);
  out.context.exit_code = out.context.meets ? 0 : 1;
  out.json = report_json(std::move(files), out.score, out.context).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  return out;
}

}  // namespace tlbf::mutants
