#include "tlbf/mutants/transcript.hpp"

#include <algorithm>
#include <iterator>
#include <optional>

namespace tlbf::mutants {
namespace {

std::optional<std::string> line_at(const std::string& text, std::size_t n) {
  std::size_t begin = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) return std::nullopt;
    begin = end + 1;
  }
  if (begin >= text.size()) return std::nullopt;
  const std::size_t end = text.find('\n', begin);
  return text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

std::size_t common_prefix(const std::string& a, const std::string& b) {
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin());
}

// Which line of `text` the byte at `at` is on, from 0.
std::size_t line_of(const std::string& text, std::size_t at) {
  return static_cast<std::size_t>(
      std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(at, text.size())), '\n'));
}

// Where `session` (of one run) parts from `other` (the most alike session
// of the other run).
std::string where_they_part(const Session& session, const Session& other) {
  if (session.sent != other.sent) {
    const std::size_t line = line_of(session.sent, common_prefix(session.sent, other.sent));
    return "request " + std::to_string(line + 1) + " of a session: " + shown_line(session.sent, line) +
           " in one clean run, " + shown_line(other.sent, line) + " in another";
  }
  if (session.answered != other.answered) {
    const std::size_t line = line_of(session.answered, common_prefix(session.answered, other.answered));
    return "the same requests, answered otherwise at request " + std::to_string(line + 1) + " (" +
           shown_line(session.sent, line) + "): " + shown_line(session.answered, line) +
           " in one clean run, " + shown_line(other.answered, line) + " in another";
  }
  return "the session that begins " + shown_line(session.sent, 0) + " is made more times in one clean run";
}

}  // namespace

std::size_t requests_in(const std::string& sent) {
  const auto lines = static_cast<std::size_t>(std::count(sent.begin(), sent.end(), '\n'));
  return lines + (!sent.empty() && sent.back() != '\n' ? 1 : 0);
}

std::size_t requests_in(const Transcript& transcript) {
  std::size_t n = 0;
  for (const auto& session : transcript) n += requests_in(session.sent);
  return n;
}

std::string shown_line(const std::string& text, std::size_t n) {
  const auto line = line_at(text, n);
  if (!line) return "nothing";
  constexpr std::size_t kShown = 120;
  std::string out = "`";
  for (std::size_t i = 0; i < line->size() && i < kShown; ++i) {
    const auto byte = static_cast<unsigned char>((*line)[i]);
    if (byte >= 0x20 && byte < 0x7f) {
      out += static_cast<char>(byte);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    }
  }
  return out + (line->size() > kShown ? "...`" : "`");
}

std::string first_difference(const Transcript& a, const Transcript& b) {
  Transcript x = a, y = b;
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  Transcript only_x, only_y;  // multiset differences: a session twice in one, once in the other, is left once
  std::set_difference(x.begin(), x.end(), y.begin(), y.end(), std::back_inserter(only_x));
  std::set_difference(y.begin(), y.end(), x.begin(), x.end(), std::back_inserter(only_y));
  if (only_x.empty() && only_y.empty()) return "";
  const bool x_has_more = !only_x.empty();
  const Session& session = x_has_more ? only_x.front() : only_y.front();
  const Transcript& pool =
      !(x_has_more ? only_y : only_x).empty() ? (x_has_more ? only_y : only_x) : (x_has_more ? y : x);
  std::string counts;
  if (x.size() != y.size())
    counts =
        "clean runs made " + std::to_string(x.size()) + " and " + std::to_string(y.size()) + " sessions; ";
  if (pool.empty()) return counts + "the first begins " + shown_line(session.sent, 0);
  const auto alike = std::max_element(pool.begin(), pool.end(), [&](const Session& p, const Session& q) {
    return common_prefix(session.sent, p.sent) < common_prefix(session.sent, q.sent);
  });
  return counts + where_they_part(session, *alike);
}

std::string answer_difference(const Session& reference, const std::string& answered) {
  const std::size_t at = common_prefix(reference.answered, answered);
  if (at == reference.answered.size() && at == answered.size()) return "";
  const std::size_t line = line_of(reference.answered, at);
  const std::string request = line < requests_in(reference.sent) ? "request " + std::to_string(line + 1) +
                                                                       ", " + shown_line(reference.sent, line)
                                                                 : "after the last request";
  return request + ": the reference answered " + shown_line(reference.answered, line) + ", this subject " +
         shown_line(answered, line);
}

}  // namespace tlbf::mutants
