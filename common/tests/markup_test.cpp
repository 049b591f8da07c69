// Expected strings are written by hand from the HTML and XML rules: the five
// markup characters, what UTF-8 allows (RFC 3629's table of well-formed
// sequences), and what docs/check.md says JUnit XML does with other bytes.
#include "tlbf/markup.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using tlbf::escape_html;
using tlbf::escape_xml_ascii;
using namespace std::string_literals;

const std::string kReplacement = "\xEF\xBF\xBD";

TEST(EscapeHtml, EscapesTheFiveMarkupCharacters) {
  EXPECT_EQ(escape_html("<a href=\"x\">Tom & Jerry's</a>"),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
}

TEST(EscapeHtml, KeepsNewlineTabAndWellFormedUtf8) {
  EXPECT_EQ(escape_html("a\tb\nc"), "a\tb\nc");
  EXPECT_EQ(escape_html("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"),
            "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
}

TEST(EscapeHtml, ReplacesControlBytesAndDel) {
  EXPECT_EQ(escape_html("a\0b"s), "a" + kReplacement + "b");
  EXPECT_EQ(escape_html("\r\x1b\x7f"), kReplacement + kReplacement + kReplacement);
}

TEST(EscapeHtml, ReplacesEachByteThatIsNotUtf8) {
  EXPECT_EQ(escape_html("\xff"), kReplacement);
  EXPECT_EQ(escape_html("\xC0\xAF"), kReplacement + kReplacement);                     // overlong '/'
  EXPECT_EQ(escape_html("\xED\xA0\x80"), kReplacement + kReplacement + kReplacement);  // a surrogate
  EXPECT_EQ(escape_html("\xF4\x90\x80\x80"),
            kReplacement + kReplacement + kReplacement + kReplacement);  // past U+10FFFF
  EXPECT_EQ(escape_html("\xE2\x82"), kReplacement + kReplacement);       // cut short at the end
  EXPECT_EQ(escape_html("\xC3<"), kReplacement + "&lt;");                // cut short by markup
}

TEST(EscapeXmlAscii, EscapesMarkupButNotTheApostrophe) {
  EXPECT_EQ(escape_xml_ascii("<x a=\"1\">&'</x>"), "&lt;x a=&quot;1&quot;&gt;&amp;'&lt;/x&gt;");
}

TEST(EscapeXmlAscii, ReplacesEveryByteOutsidePrintableAsciiButNewlineAndTab) {
  EXPECT_EQ(escape_xml_ascii("a\tb\nc"), "a\tb\nc");
  EXPECT_EQ(escape_xml_ascii("\0\r\x7f"s), "???");
  EXPECT_EQ(escape_xml_ascii("caf\xC3\xA9"), "caf??");
}

}  // namespace
