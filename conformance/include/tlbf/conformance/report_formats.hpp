// The report files tlbf check writes, one row each (docs/check.md, "Report
// files"): the option that asks for it, whether it describes one
// implementation or all of them, whether a replay (--transcript) may ask for
// it, and its writer. The command's options, its checks of them and its
// writes all come from this table: a new format is a row and a writer.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/conformance/runner.hpp"
#include "tlbf/outcome.hpp"

namespace tlbf::conformance {

// What a writer may need besides the reports.
struct ReportSettings {
  bool tlbf_profile = true;  // the verdict names TLBF v1; else "behaves as a Bloom filter"
};

enum class FormatScope {
  OneImplementation,  // one implementation's cases: asked for with several --impl, a usage error
  Every,              // every implementation's report in one file
};

struct ReportFormat {
  std::string_view option;  // "--junit"
  std::string_view help;    // the option's line in --help
  FormatScope scope;
  // A replay has no cases, groups or capabilities to report: a format that
  // cannot say what a replay found is refused with --transcript, not
  // silently left unwritten.
  bool with_transcript;
  // The file's contents. For a OneImplementation format `reports` holds one report.
  std::string (*write)(const std::vector<CheckReport>& reports, const ReportSettings& settings);
};

// Every format, in the order --help lists them and their files are written.
std::span<const ReportFormat> report_formats();

// The files asked for: a format's option -> the path to write it to. A
// format with no entry, or an empty path, is not asked for.
using ReportFiles = std::map<std::string, std::string, std::less<>>;

// A Failure naming the first format asked for that a replay cannot write
// ("--html reports a check; --transcript only replays (its report is the text)").
Outcome<Done> report_files_fit_a_replay(const ReportFiles& files);

// A Failure naming the first format asked for that describes one
// implementation when `implementations` are checked ("--junit describes one
// implementation's cases; give one --impl").
Outcome<Done> report_files_fit(const ReportFiles& files, std::size_t implementations);

}  // namespace tlbf::conformance
