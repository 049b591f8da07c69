#include "tlbf/shell_quote.hpp"

#include <algorithm>
#include <cctype>

namespace tlbf {

std::string shell_quote(std::string_view word) {
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string shell_quote_if_needed(std::string_view word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
  });
  return plain ? std::string(word) : shell_quote(word);
}

}  // namespace tlbf
