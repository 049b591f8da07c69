#include "tlbf/markup.hpp"

#include <cstddef>

namespace tlbf {
namespace {

// The entity for a markup character, or nullptr for any other byte.
const char* entity_for(char c, bool apostrophe) {
  switch (c) {
    case '&':
      return "&amp;";
    case '<':
      return "&lt;";
    case '>':
      return "&gt;";
    case '"':
      return "&quot;";
    case '\'':
      return apostrophe ? "&#39;" : nullptr;
    default:
      return nullptr;
  }
}

bool is_text_ascii(unsigned char c) { return c >= 0x20 ? c < 0x7f : c == '\n' || c == '\t'; }

// The length of the well-formed UTF-8 sequence at text[i] (a byte past ASCII), or 0.
std::size_t utf8_sequence_at(std::string_view text, std::size_t i) {
  const auto c = static_cast<unsigned char>(text[i]);
  const std::size_t length = c >= 0xC2 && c <= 0xDF   ? 2
                             : c >= 0xE0 && c <= 0xEF ? 3
                             : c >= 0xF0 && c <= 0xF4 ? 4
                                                      : 0;
  if (length == 0 || i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return 0;
  if (length >= 3) {
    const auto second = static_cast<unsigned char>(text[i + 1]);
    if ((c == 0xE0 && second < 0xA0) || (c == 0xED && second > 0x9F) || (c == 0xF0 && second < 0x90) ||
        (c == 0xF4 && second > 0x8F))
      return 0;
  }
  return length;
}

}  // namespace

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (const char* entity = entity_for(text[i], true)) {
        out += entity;
      } else {
        out += is_text_ascii(c) ? std::string(1, text[i]) : "\xEF\xBF\xBD";
      }
      ++i;
    } else if (const std::size_t length = utf8_sequence_at(text, i)) {
      out.append(text.substr(i, length));
      i += length;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string escape_xml_ascii(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (const char* entity = entity_for(c, false)) {
      out += entity;
    } else {
      out += is_text_ascii(static_cast<unsigned char>(c)) ? c : '?';
    }
  }
  return out;
}

}  // namespace tlbf
