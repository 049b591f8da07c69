// A class's grades for a terminal and for a CI (docs/mutants.md, "A class in
// one command: tlbf grade", and "In CI and in a log").
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "tlbf/conformance/readable.hpp"
#include "tlbf/markup.hpp"
#include "tlbf/mutants/class_summary.hpp"
#include "tlbf/mutants/verdicts.hpp"

namespace tlbf::mutants {
namespace {

constexpr std::size_t kWidth = 80;
// The learner column: at least this wide (the table's width before names
// could be longer), and at most this wide, so that a long name takes no
// more of a row than the survivors' ids need (five of them at the widest).
constexpr std::size_t kNameMin = 14;
constexpr std::size_t kNameMax = 20;
// verdict (15), score (6), chaffs (7) and replayed (8), each followed by a space.
constexpr std::size_t kMiddle = 16 + 7 + 8 + 9;

// On one line, every byte outside printable ASCII escaped: a folder's name
// or a suite's words must not draw on the grader's terminal.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return conformance::readable_lines(text, text.size());
}

std::string cut(const std::string& text, std::size_t width) {
  return text.size() <= width ? text : text.substr(0, width - 3) + "...";
}

// `text` in lines of at most kWidth columns, never cut.
std::string wrapped(const std::string& text) {
  std::string out;
  for (std::size_t at = 0; at < text.size(); at += kWidth) out += text.substr(at, kWidth) + "\n";
  return out;
}

std::string joined(const std::vector<std::string>& words, const char* between) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : between) + w;
  return out;
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

// A row's replay in the table's column (replay_cell's), "NOT det" spelt out
// under the table.
std::string replay_column(const ClassRow& r) { return not_deterministic(r) ? "NOT det" : replay_cell(r); }

// Every learner's name shown whole: a name that does not fit the column is
// the row's first line, and the row's cells follow on the next, so that no
// two learners whose names begin alike (g5_strip_disguise and
// g5_strip_disguise_and_hash) read alike.
std::string table(const std::vector<ClassRow>& rows) {
  std::size_t longest = 0;
  for (const auto& r : rows) longest = std::max(longest, one_line(r.name).size());
  const std::size_t name_width = std::clamp(longest, kNameMin, kNameMax);
  const std::size_t survivors_width = kWidth - name_width - 1 - kMiddle;
  const auto line = [&](const std::string& name, const std::string& verdict, const std::string& score,
                        const std::string& chaffs, const std::string& replayed,
                        const std::string& survivors) {
    return padded(name, name_width) + " " + padded(verdict, 15) + " " + padded(score, 6) + " " +
           padded(chaffs, 7) + " " + padded(replayed, 8) + " " + cut(survivors, survivors_width) + "\n";
  };
  std::string out = line("learner", "verdict", "score", "chaffs", "replayed", "survivors");
  for (const auto& r : rows) {
    const std::string name = one_line(r.name);
    const std::string score = r.ran > 0 ? std::to_string(r.killed) + "/" + std::to_string(r.ran) : "";
    const std::string chaffs =
        r.chaffs_ran > 0 ? std::to_string(r.chaffs_killed) + "/" + std::to_string(r.chaffs_ran) : "";
    if (name.size() > name_width) out += wrapped(name);
    out += line(name.size() > name_width ? "" : name, r.verdict, score, chaffs, replay_column(r),
                joined(r.survivors, ","));
  }
  return out;
}

// "NAME: TEXT", the text cut to the line; a long name on a line of its own.
std::string named_line(const std::string& raw_name, const std::string& text) {
  const std::string name = one_line(raw_name);
  const std::string said = one_line(text);
  if (name.size() + 2 <= kWidth / 2) return name + ": " + cut(said, kWidth - 2 - name.size()) + "\n";
  return wrapped(name + ":") + "  " + cut(said, kWidth - 2) + "\n";
}

// What a course author must see of a suite that is not deterministic, in
// the words of the learner's own report (replay_summary's).
std::string not_deterministic_line(const ClassRow& r) {
  return "NOT deterministic: the clean runs did not send the same requests (" + r.replay->difference +
         "); seed its random tests";
}

// Why each grading that stopped did, and each suite that is not deterministic.
std::string reasons(const std::vector<ClassRow>& rows) {
  std::string out;
  for (const auto& r : rows) {
    if (!r.reason.empty()) out += named_line(r.name, r.reason);
    if (not_deterministic(r)) out += named_line(r.name, not_deterministic_line(r));
  }
  return out;
}

// "class: 11 learners: 1 fails-clean, 1 flaky, ...", wrapped at 80 columns.
std::string counts_line(const std::vector<ClassRow>& rows) {
  std::map<std::string, int> counts;
  for (const auto& r : rows) ++counts[r.verdict];
  std::string out;
  std::string line =
      "class: " + std::to_string(rows.size()) + (rows.size() == 1 ? " learner:" : " learners:");
  for (const auto& [verdict, n] : counts) {
    const std::string part = " " + std::to_string(n) + " " + one_line(verdict);
    if (line.size() + part.size() + 1 > kWidth) {
      out += line + "\n";
      line = "      ";
    }
    line += part + (&verdict == &counts.rbegin()->first ? "" : ",");
  }
  return out + line + "\n";
}

}  // namespace

std::string class_summary_text(const std::vector<ClassRow>& rows, const std::string& class_page) {
  return table(rows) + "\n" + reasons(rows) + "reports: " + one_line(class_page) + "\n" + counts_line(rows);
}

namespace {

bool harness_to_blame(const ClassRow& r) {
  return r.verdict == to_string(LearnerVerdict::Harness) ||
         r.verdict == to_string(LearnerVerdict::Ungradable);
}

std::string fixed2(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", x);
  return text;
}

// Why a learner does not meet the bar, on one line: their verdict first.
std::string failure_message(const ClassRow& r, double threshold, const std::vector<std::string>& required) {
  if (!r.reason.empty() || r.ran == 0) {
    const std::string first = r.reason.substr(0, r.reason.find('\n'));
    return r.verdict + ": " + cut(first, 300);
  }
  std::vector<std::string> missed;
  for (const auto& id : r.survivors) {
    if (std::find(required.begin(), required.end(), id) != required.end()) missed.push_back(id);
  }
  std::string out = r.verdict + ": score " + std::to_string(r.killed) + "/" + std::to_string(r.ran) + " = " +
                    fixed2(r.score) + ", threshold " + fixed2(threshold);
  if (!missed.empty()) out += "; required mutants that survived: " + joined(missed, " ");
  return out;
}

// What a person reading the CI's page needs besides the message.
std::string details(const ClassRow& r) {
  std::string out;
  if (r.ran > 0) out += "score: " + std::to_string(r.killed) + "/" + std::to_string(r.ran) + "\n";
  if (!r.survivors.empty()) out += "survivors: " + joined(r.survivors, " ") + "\n";
  if (r.chaffs_ran > 0) {
    out += "chaffs caught: " + std::to_string(r.chaffs_killed) + "/" + std::to_string(r.chaffs_ran) + "\n";
  }
  if (not_deterministic(r)) {
    out += "replay: " + not_deterministic_line(r) + "\n";
  } else if (const std::string replay = replay_words(r); !replay.empty()) {
    out += "replay: " + replay + "\n";
  }
  if (!r.reason.empty()) out += "why it stopped: " + r.reason + "\n";
  if (!r.report.empty()) out += "report: " + r.report + "\n";
  return out;
}

}  // namespace

std::string class_summary_junit(const std::vector<ClassRow>& rows, const std::string& kind, double threshold,
                                const std::vector<std::string>& required) {
  std::size_t failures = 0, errors = 0;
  for (const auto& r : rows) {
    if (r.verdict == to_string(LearnerVerdict::Meets)) continue;
    ++(harness_to_blame(r) ? errors : failures);
  }
  const std::string counts = " tests=\"" + std::to_string(rows.size()) + "\" failures=\"" +
                             std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\"";
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"tlbf grade\"" << counts << ">\n"
      << "<testsuite name=\"tlbf grade\"" << counts << " skipped=\"0\">\n <properties>\n"
      << "  <property name=\"kind\" value=\"" << escape_xml_ascii(kind) << "\"/>\n"
      << "  <property name=\"threshold\" value=\"" << fixed2(threshold) << "\"/>\n"
      << "  <property name=\"require\" value=\"" << escape_xml_ascii(joined(required, " ")) << "\"/>\n"
      << " </properties>\n";
  for (const auto& r : rows) {
    out << " <testcase name=\"" << escape_xml_ascii(r.name) << "\" classname=\"tlbf.grade."
        << escape_xml_ascii(kind) << "\">";
    if (r.verdict == to_string(LearnerVerdict::Meets)) {
      out << "<system-out>" << escape_xml_ascii(details(r)) << "</system-out></testcase>\n";
      continue;
    }
    const char* tag = harness_to_blame(r) ? "error" : "failure";
    out << "<" << tag << " message=\"" << escape_xml_ascii(failure_message(r, threshold, required))
        << "\" type=\"" << escape_xml_ascii(r.verdict) << "\">" << escape_xml_ascii(details(r)) << "</" << tag
        << "></testcase>\n";
  }
  out << "</testsuite>\n</testsuites>\n";
  return out.str();
}

}  // namespace tlbf::mutants
