// Text from an implementation, made fit for a report: whatever bytes it
// wrote, a person reads printable ASCII of a bounded length.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tlbf::conformance {

// `text` with every byte outside printable ASCII (and the backslash) escaped
// as \xNN, \n, \r or \t, in single quotes. Longer than `max` bytes, it keeps
// the beginning and the end and says how long the whole was:
// 'ok 0000...[40005 bytes in all]...0000'.
std::string readable(std::string_view text, std::size_t max = 200);

// Lines of text (a stderr tail) for a report: escaped as above but keeping
// its newlines, without quotes, and at most `max` bytes from its end.
std::string readable_lines(std::string_view text, std::size_t max = 2000);

}  // namespace tlbf::conformance
