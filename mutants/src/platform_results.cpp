// One learner's grading in each platform's format (platform_results.hpp).
#include "tlbf/mutants/platform_results.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "tlbf/mutants/catalog.hpp"
#include "tlbf/mutants/report.hpp"
#include "tlbf/strict_json.hpp"

namespace tlbf::mutants {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kPrHiddenBug = "(a hidden bug)";

// `text` with every hidden word replaced, longest first, so that a chaff's
// description is replaced whole before an id inside it would be.
std::string pr_scrubbed(std::string text, std::vector<std::string> hidden) {
  std::sort(hidden.begin(), hidden.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& word : hidden) {
    if (word.empty()) continue;
    for (auto at = text.find(word); at != std::string::npos; at = text.find(word, at + kPrHiddenBug.size())) {
      text.replace(at, word.size(), kPrHiddenBug);
    }
  }
  return text;
}

// The last part of a suite's output: the end says why it failed, and a
// platform shows a result's text whole.
std::string pr_learner_tail(const std::string& text) {
  constexpr std::size_t kKeep = 3000;
  return text.size() <= kKeep ? text : "..." + text.substr(text.size() - kKeep);
}

// What the learner is to do for each verdict that is not a plain grade, and
// whether a grade could be measured at all. The words stay with the learner's
// side: a grader's own error is never blamed on the suite.
struct PrVerdictText {
  std::string_view verdict;
  bool gradable;
  std::string_view fix;
};
constexpr PrVerdictText kPrVerdictTexts[] = {
    {"no-tests", false, "No tests file to grade: hand in your tests as "},
    {"fails-clean", false,
     "Your tests fail the course's correct reference implementation, so no planted bug can be measured "
     "against them: fix the failing test (run your suite against the reference) and submit again."},
    {"flaky", false,
     "Your tests gave different results on the same code from one run to another (unseeded randomness, the "
     "clock, a fixed port or a file shared between runs): make every test deterministic and submit again."},
    {"ungradable", false,
     "The grader could not grade this submission, a problem on the grader's side and not in your tests: "
     "submit again, and tell your instructor if it happens again."},
    {"harness-error", false,
     "The grader could not grade this submission, a problem on the grader's side and not in your tests: "
     "submit again, and tell your instructor if it happens again."},
    {"passes-broken", true,
     "Your tests pass an implementation that answers every request with an error: they check nothing of "
     "the implementation. Call it and assert on what it answers."},
    {"rejects-correct", true,
     "Your tests fail a correct implementation that the specification allows: they assert something the "
     "specification leaves open, or recognise the reference by its source. Test only what the specification "
     "says."},
};

const PrVerdictText* pr_verdict_text(std::string_view verdict) {
  for (const auto& t : kPrVerdictTexts) {
    if (t.verdict == verdict) return &t;
  }
  return nullptr;
}

std::string pr_fixed2(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

std::string pr_points_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

// The graded mutants, each caught unless it survived, with its pitfall.
std::vector<Submission::Bug> pr_bugs_of(const Json& config, const ClassRow& row) {
  std::vector<Submission::Bug> out;
  for (const auto& id : config.at("selected")) {
    Submission::Bug bug;
    bug.id = id.get<std::string>();
    const Mutant* m = find(bug.id);
    bug.pitfall = m != nullptr ? m->description : "";
    bug.caught = std::find(row.survivors.begin(), row.survivors.end(), bug.id) == row.survivors.end();
    bug.by_replay = !bug.caught && row.replay &&
                    std::find(row.replay->replayed.begin(), row.replay->replayed.end(), bug.id) !=
                        row.replay->replayed.end();
    out.push_back(std::move(bug));
  }
  return out;
}

// The stop's reason and the suite's failing output, for Feedback::All.
std::string pr_stop_details(const Json& config) {
  const Json& stopped = config.at("stopped");
  if (!stopped.is_object()) return "";
  std::string out = stopped.value("reason", std::string());
  const std::string failing = stopped.value("failingOutput", std::string());
  if (!failing.empty()) out += "\n\nThe failing run's output:\n" + pr_learner_tail(failing);
  return out;
}

}  // namespace

std::optional<Feedback> feedback_named(std::string_view word) {
  if (word == "none") return Feedback::None;
  if (word == "score") return Feedback::Score;
  if (word == "mutants") return Feedback::Mutants;
  if (word == "all") return Feedback::All;
  return std::nullopt;
}

std::optional<ScorePolicy> score_policy_named(std::string_view word) {
  if (word == "bar") return ScorePolicy::Bar;
  if (word == "share") return ScorePolicy::Share;
  return std::nullopt;
}

Outcome<Submission> submission_of(const ClassRow& row, const std::string* report_json, ScorePolicy policy,
                                  double threshold, const std::string& tests_file,
                                  const std::vector<std::string>& hidden) {
  Submission s;
  s.verdict = row.verdict;
  s.policy = policy;
  s.threshold = threshold;
  s.killed = row.killed;
  s.ran = row.ran;
  s.max_points = static_cast<double>(ids().size());
  if (report_json != nullptr) {
    const auto parsed = parse_json_strictly(*report_json, "the report", {kReportMaxDepth, "report"});
    if (!parsed.ok()) return failure("not a report of tlbf grade: " + parsed.why());
    try {
      const Json& config = parsed.value().at("config");
      s.threshold = config.at("threshold").get<double>();
      s.max_points = static_cast<double>(config.at("selected").size());
      if (config.at("stopped").is_null()) s.bugs = pr_bugs_of(config, row);
      s.details = pr_scrubbed(pr_stop_details(config), hidden);
    } catch (const Json::exception& e) {
      return failure(std::string("not a report of tlbf grade: ") + e.what());
    }
  }
  s.not_deterministic = not_deterministic(row);
  if (s.not_deterministic) s.nondeterminism = pr_scrubbed(row.replay->difference, hidden);
  const bool meets = s.verdict == "meets";
  if (const PrVerdictText* t = pr_verdict_text(s.verdict)) {
    s.gradable = t->gradable;
    s.fix = std::string(t->fix);
    if (s.verdict == "no-tests") s.fix += tests_file + " (" + pr_scrubbed(row.reason, hidden) + ").";
  } else if (!meets) {
    s.fix = "The bar is a score of " + pr_fixed2(s.threshold) +
            " with every required planted bug caught: add tests for the bugs that survived.";
  }
  if (s.gradable) {
    s.points = policy == ScorePolicy::Bar ? (meets ? s.max_points : 0.0)
                                          : (s.bugs.empty() ? 0.0 : static_cast<double>(s.killed));
  }
  return s;
}

namespace {

std::string pr_policy_words(const Submission& s) {
  return s.policy == ScorePolicy::Bar
             ? "all the points for meeting the bar, a score of " + pr_fixed2(s.threshold) +
                   " with every required planted bug caught; none otherwise"
             : "a point per planted bug caught";
}

// The score line: the points, how they were given, the bugs caught.
std::string pr_score_line(const Submission& s) {
  if (!s.gradable) return "Not graded.";
  std::string out = "Score: " + pr_points_text(s.points) + " / " + pr_points_text(s.max_points) + " (" +
                    pr_policy_words(s) + ")";
  if (!s.bugs.empty()) {
    out +=
        "; your tests caught " + std::to_string(s.killed) + " of " + std::to_string(s.ran) + " planted bugs";
  }
  return out + ".";
}

// What replay decided, for the summary from Feedback::Mutants on: the bugs
// judged by replay, or a suite that is not deterministic (with where its runs
// parted at Feedback::All). "" when there is nothing to say.
std::string pr_replay_lines(const Submission& s, Feedback level) {
  std::string replayed;
  for (const auto& bug : s.bugs) {
    if (bug.by_replay) replayed += (replayed.empty() ? "" : ", ") + bug.id;
  }
  std::string out;
  if (!replayed.empty()) {
    out += "\nJudged by replay, not run: " + replayed +
           ". Each answered every request your tests send exactly as the reference does, so your tests "
           "pass it as they pass the reference: add requests whose answers it changes.";
  }
  if (s.not_deterministic) {
    out +=
        "\nYour tests did not send the same requests in every run against the reference (an unseeded "
        "random test, a request built from the clock), so every planted bug was run, none judged by "
        "replay: seed your random tests.";
    if (level == Feedback::All && !s.nondeterminism.empty())
      out += " Two runs parted at " + s.nondeterminism + ".";
  }
  return out;
}

// The learner's summary at `level`: the score, what to fix, which bugs
// survived, what replay decided, and the failing output.
std::string pr_learner_summary(const Submission& s, Feedback level) {
  if (level == Feedback::None) return s.gradable ? "" : s.fix;
  std::string out = s.gradable ? pr_score_line(s) : "";
  if (!s.fix.empty()) out += (out.empty() ? "" : "\n") + s.fix;
  if (level >= Feedback::Mutants) {
    for (const auto& bug : s.bugs) {
      if (!bug.caught)
        out += "\nSurvived: " + bug.id + ": " + bug.pitfall + (bug.by_replay ? " (by replay)" : "");
    }
    out += pr_replay_lines(s, level);
    if (out.rfind('\n', 0) == 0) out.erase(0, 1);  // an ungradable submission with no fix
  }
  if (level == Feedback::All && !s.details.empty()) out += "\n\n" + s.details;
  return out;
}

std::string pr_grade_test_name(const Submission& s) {
  return s.policy == ScorePolicy::Bar ? "Meets the bar" : "Planted bugs caught";
}

std::string pr_bug_name(const Submission::Bug& bug) { return "Planted bug " + bug.id + ": " + bug.pitfall; }

std::string pr_bug_output(const Submission::Bug& bug) {
  if (bug.caught) return "Caught: some test of yours fails on it.";
  if (bug.by_replay) {
    return "Survived, judged by replay, not run: it answered every request your tests send exactly as the "
           "reference does, so your tests pass it. The pitfall: " +
           bug.pitfall;
  }
  return "Survived: every test of yours passes on it. The pitfall: " + bug.pitfall;
}

std::string pr_results_text(const Json& json) {
  return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string gradescope_results(const Submission& s, Feedback level) {
  const std::string visibility = level == Feedback::None ? "hidden" : "visible";
  const bool passed = s.gradable && s.points >= s.max_points && s.max_points > 0;
  Json tests = Json::array();
  tests.push_back({{"name", pr_grade_test_name(s)},
                   {"score", s.points},
                   {"max_score", s.max_points},
                   {"status", passed ? "passed" : "failed"},
                   {"output", level == Feedback::None ? ""
                              : s.gradable            ? pr_score_line(s)
                                                      : s.fix},
                   {"visibility", visibility}});
  if (level >= Feedback::Mutants) {
    for (const auto& bug : s.bugs) {
      tests.push_back({{"name", pr_bug_name(bug)},
                       {"score", 0},
                       {"max_score", 0},
                       {"status", bug.caught ? "passed" : "failed"},
                       {"output", pr_bug_output(bug)},
                       {"visibility", visibility}});
    }
  }
  return pr_results_text({{"score", s.points},
                          {"max_score", s.max_points},
                          {"output", pr_learner_summary(s, level)},
                          {"visibility", visibility},
                          {"stdout_visibility", "hidden"},
                          {"tests", tests}});
}

std::string prairielearn_results(const Submission& s, Feedback level) {
  Json tests = Json::array();
  if (level >= Feedback::Score && s.gradable) {
    tests.push_back({{"name", pr_grade_test_name(s)},
                     {"description", pr_policy_words(s)},
                     {"points", s.points},
                     {"max_points", s.max_points},
                     {"output", pr_score_line(s)}});
  }
  if (level >= Feedback::Mutants) {
    for (const auto& bug : s.bugs) {
      tests.push_back({{"name", pr_bug_name(bug)},
                       {"description", bug.pitfall},
                       {"points", 0},
                       {"max_points", 0},
                       {"output", pr_bug_output(bug)}});
    }
  }
  Json out = {{"gradable", s.gradable},
              {"score", s.max_points > 0 ? s.points / s.max_points : 0.0},
              {"message", pr_learner_summary(s, level)},
              {"tests", tests}};
  return pr_results_text(out);
}

std::string github_classroom_result(const Submission& s, Feedback level) {
  const bool passed = s.gradable && s.points >= s.max_points && s.max_points > 0;
  const std::string status = !s.gradable ? "error" : passed ? "pass" : "fail";
  Json tests = Json::array();
  tests.push_back({{"name", pr_grade_test_name(s)},
                   {"status", status},
                   {"score", s.points},
                   {"message", pr_learner_summary(s, level)}});
  if (level >= Feedback::Mutants) {
    for (const auto& bug : s.bugs) {
      tests.push_back({{"name", pr_bug_name(bug)},
                       {"status", bug.caught ? "pass" : "fail"},
                       {"score", 0},
                       {"message", pr_bug_output(bug)}});
    }
  }
  return Json{{"status", status}, {"max_score", s.max_points}, {"tests", tests}}.dump(
      -1, ' ', false, Json::error_handler_t::replace);
}

std::string base64(std::string_view bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  // Byte `at` as an unsigned value, 0 past the end: the last group pads with zeros.
  const auto byte = [&bytes](std::size_t at) -> unsigned {
    return at < bytes.size() ? unsigned{static_cast<unsigned char>(bytes[at])} : 0U;
  };
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned v = byte(i) << 16U | byte(i + 1) << 8U | byte(i + 2);
    const std::size_t left = bytes.size() - i;  // 1, 2, or 3 and more
    out += kDigits[(v >> 18U) & 63U];
    out += kDigits[(v >> 12U) & 63U];
    out += left > 1 ? kDigits[(v >> 6U) & 63U] : '=';
    out += left > 2 ? kDigits[v & 63U] : '=';
  }
  return out;
}

}  // namespace tlbf::mutants
