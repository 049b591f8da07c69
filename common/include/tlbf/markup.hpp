// Text made safe to place in HTML or XML, between tags or in a quoted
// attribute. What gets escaped is whatever an implementation, a learner's
// suite or a patched file wrote, so no byte of it may break the page.
#pragma once

#include <string>
#include <string_view>

namespace tlbf {

// For HTML: & < > " ' as entities; well-formed UTF-8 (no overlong forms, no
// surrogates, at most U+10FFFF) kept whole; control bytes other than newline
// and tab, DEL, and bytes that are not UTF-8 each become U+FFFD.
std::string escape_html(std::string_view text);

// For XML 1.0 read by tools that may expect ASCII (JUnit consumers): & < > "
// as entities; control bytes other than newline and tab, DEL and every byte
// past ASCII become '?' (docs/check.md says so of --junit).
std::string escape_xml_ascii(std::string_view text);

}  // namespace tlbf
