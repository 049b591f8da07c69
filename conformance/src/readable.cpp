#include "tlbf/conformance/readable.hpp"

#include <cstdio>

namespace tlbf::conformance {
namespace {

void escape_into(std::string& out, std::string_view text, bool keep_newlines = false) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n' && keep_newlines) {
      out += c;
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte > 0x7e) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else {
      out += c;
    }
  }
}

}  // namespace

std::string readable(std::string_view text, std::size_t max) {
  std::string out = "'";
  if (text.size() <= max) {
    escape_into(out, text);
  } else {
    const std::size_t head = max * 2 / 3, tail = max - head;
    escape_into(out, text.substr(0, head));
    out += "...[" + std::to_string(text.size()) + " bytes in all]...";
    escape_into(out, text.substr(text.size() - tail));
  }
  return out + "'";
}

std::string readable_lines(std::string_view text, std::size_t max) {
  std::string out;
  if (text.size() > max) {
    out = "[...]";
    text.remove_prefix(text.size() - max);
  }
  escape_into(out, text, true);
  return out;
}

}  // namespace tlbf::conformance
