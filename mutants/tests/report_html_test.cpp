// The page of tlbf mutate --html: the report inlined so that no text in it
// can end its script, and a viewer bundle refused when it cannot be inlined.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tlbf/mutants/report.hpp"

namespace tlbf::mutants {
namespace {

// What the page's JSON script holds: the text between its tags.
std::string inlined_json(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"tlbf-mutation-report\">";
  const auto start = html.find(open);
  if (start == std::string::npos) return "";
  const auto from = start + open.size();
  // Where an HTML parser ends the script: the first "</script", in any case.
  std::string lower = html;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return html.substr(from, lower.find("</script", from) - from);
}

TEST(ReportHtml, TheSuitesTextCannotEndTheScript) {
  const nlohmann::json report = {
      {"schemaVersion", "2"},
      {"files",
       {{"a.py",
         {{"language", "python"},
          {"source", "x = '</script><script>alert(1)</script>'\n"},
          {"mutants",
           {{{"id", "s01"}, {"status", "Killed"}, {"statusReason", "FAILED </SCRIPT ><!-- <script>"}}}}}}}}};
  const auto page = mutation_report_html(report.dump(), "var viewer = 1 < 2;");
  ASSERT_TRUE(page.ok()) << page.why();
  const std::string& html = page.value();
  EXPECT_EQ(html.find("</script><script>alert"), std::string::npos);
  // The script ends where the JSON ends, and reads back as the same report.
  const auto json = nlohmann::json::parse(inlined_json(html), nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << inlined_json(html);
  EXPECT_EQ(json, report);
  EXPECT_NE(html.find("<script>\nvar viewer = 1 < 2;\n</script>"), std::string::npos)
      << "the bundle is inlined whole";
  EXPECT_NE(html.find("<mutation-test-report-app"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos) << "the page forbids itself the network";
}

TEST(ReportHtml, ABundleThatCannotBeInlinedIsRefused) {
  for (const char* bundle : {"x = '</SCRIPT>';", "x = '<script>';", "x = '</script'"}) {
    const auto page = mutation_report_html("{}", bundle);
    ASSERT_FALSE(page.ok()) << bundle;
    EXPECT_NE(page.why().find("</script"), std::string::npos) << bundle;
  }
}

}  // namespace
}  // namespace tlbf::mutants
