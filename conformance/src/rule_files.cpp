#include "tlbf/conformance/rule_files.hpp"

#include <charconv>
#include <utility>

#include "tlbf/conformance/transcript.hpp"
#include "tlbf/hex.hpp"

namespace tlbf::conformance {

// Generated from conformance/cases at configure time: (path under it, its bytes as lowercase hex).
extern const std::vector<std::pair<std::string_view, std::string_view>> kRuleCaseFiles;

namespace {

constexpr std::string_view kRule = "# rule: ";
constexpr std::string_view kFlags = "# flags: ";
constexpr std::string_view kPatience = "# patience: ";

bool starts(std::string_view line, std::string_view with) { return line.substr(0, with.size()) == with; }

// "30 s": whole seconds, as the one case that needs patience states it.
std::optional<std::chrono::milliseconds> read_patience(std::string_view words) {
  if (words.size() < 3 || words.substr(words.size() - 2) != " s") return std::nullopt;
  const std::string_view digits = words.substr(0, words.size() - 2);
  unsigned seconds = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
  if (error != std::errc() || end != digits.data() + digits.size() || seconds == 0 || seconds > 3600)
    return std::nullopt;
  return std::chrono::seconds(seconds);
}

// The header lines (`# rule:`, `# flags:`, `# patience:`), which come before the first request.
tlbf::Outcome<RuleFile> read_header(std::string_view text, std::string name) {
  RuleFile file;
  file.name = std::move(name);
  int number = 0;
  auto fail = [&](const std::string& why) { return tlbf::failure(std::to_string(number) + ": " + why); };
  bool requests_begun = false;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    // An editor that saves CRLF line ends would add a '\r' to every request.
    if (line.find('\r') != std::string_view::npos)
      return fail("a '\\r' in the line (CRLF line ends?): write a request that holds one as '>x HEX'");
    requests_begun = requests_begun || starts(line, ">");
    const bool header = starts(line, kRule) || starts(line, kFlags) || starts(line, kPatience);
    if (header && requests_begun)
      return fail("a '# rule:', '# flags:' or '# patience:' line after a request");
    if (starts(line, kRule)) {
      file.rules.emplace_back(line.substr(kRule.size()));
    } else if (starts(line, kFlags)) {
      if (!file.flags.empty()) return fail("a second '# flags:' line");
      file.flags = std::string(line.substr(kFlags.size()));
    } else if (starts(line, kPatience)) {
      const auto patience = read_patience(line.substr(kPatience.size()));
      if (!patience) return fail("'# patience:' takes whole seconds, 1 to 3600, as '30 s'");
      file.patience = *patience;
    }
  }
  if (file.rules.empty())
    return tlbf::failure("1: no '# rule:' line: every rule case says which rule it checks");
  return file;
}

}  // namespace

tlbf::Outcome<RuleFile> parse_rule_file(std::string_view text, std::string name) {
  auto file = read_header(text, name);
  if (!file) return file.failure();
  const auto transcript = parse_transcript(text, std::move(name));
  if (!transcript) return transcript.failure();
  for (const Exchange& e : transcript->exchanges) {
    // `< ?` stands for the oracle's answer (case_from_draft).
    file->steps.push_back({e.request, e.pattern == "?" ? "" : e.pattern});
  }
  return file;
}

tlbf::Outcome<std::vector<RuleFile>> rule_files() {
  std::vector<RuleFile> files;
  for (const auto& [path, hex] : kRuleCaseFiles) {
    const auto bytes = from_hex(hex);
    const std::string where = "conformance/cases/" + std::string(path) + ":";
    if (!bytes) return tlbf::failure(where + " not compiled in as hex");  // CMakeLists.txt writes it so
    const std::string_view text(reinterpret_cast<const char*>(bytes->data()), bytes->size());
    auto file = parse_rule_file(text, std::string(path.substr(0, path.size() - 4)));
    if (!file) return file.failure_in(where);
    files.push_back(std::move(file.value()));
  }
  return files;
}

Case case_from_file(RuleFile file) {
  Case c = case_from_draft(std::move(file.name), std::move(file.steps));
  c.acceptable = !file.flags.empty();
  c.why = std::move(file.flags);
  c.about = file.rules.front();
  c.patience = file.patience;
  return c;
}

}  // namespace tlbf::conformance
