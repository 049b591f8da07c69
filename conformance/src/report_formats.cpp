#include "tlbf/conformance/report_formats.hpp"

#include <array>

#include "tlbf/conformance/reports.hpp"

namespace tlbf::conformance {
namespace {

// Implementations may write any bytes; JSON holds only UTF-8, so others become U+FFFD.
std::string json_file(const std::vector<CheckReport>& reports, const ReportSettings&) {
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& report : reports) all.push_back(to_json(report));
  const auto& one_or_all = reports.size() == 1 ? all[0] : all;
  return one_or_all.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string junit_file(const std::vector<CheckReport>& reports, const ReportSettings&) {
  return to_junit(reports.front());
}

std::string html_file(const std::vector<CheckReport>& reports, const ReportSettings& settings) {
  return html_report(reports, settings.tlbf_profile);
}

std::string tap_file(const std::vector<CheckReport>& reports, const ReportSettings&) {
  return to_tap(reports.front());
}

constexpr std::array kFormats = {
    ReportFormat{"--json", "Also write every case's outcome to this file as JSON", FormatScope::Every, false,
                 json_file},
    ReportFormat{"--junit", "Also write JUnit XML for CI systems (one --impl)",
                 FormatScope::OneImplementation, false, junit_file},
    ReportFormat{"--html",
                 "Also write the report as one self-contained HTML page (with several --impl, the parity "
                 "matrix first, linked to each failure)",
                 FormatScope::Every, false, html_file},
    ReportFormat{"--tap",
                 "Also write TAP (the Test Anything Protocol, version 13) for CI systems (one --impl)",
                 FormatScope::OneImplementation, false, tap_file},
};

bool asked(const ReportFiles& files, std::string_view option) {
  const auto file = files.find(option);
  return file != files.end() && !file->second.empty();
}

}  // namespace

std::span<const ReportFormat> report_formats() { return kFormats; }

Outcome<Done> report_files_fit_a_replay(const ReportFiles& files) {
  for (const auto& format : kFormats) {
    if (!format.with_transcript && asked(files, format.option)) {
      return failure(std::string(format.option) +
                     " reports a check; --transcript only replays (its report is the text)");
    }
  }
  return done();
}

Outcome<Done> report_files_fit(const ReportFiles& files, std::size_t implementations) {
  for (const auto& format : kFormats) {
    if (format.scope == FormatScope::OneImplementation && implementations > 1 && asked(files, format.option))
      return failure(std::string(format.option) + " describes one implementation's cases; give one --impl");
  }
  return done();
}

}  // namespace tlbf::conformance
