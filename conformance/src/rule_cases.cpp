#include "tlbf/conformance/rule_cases.hpp"

#include "header_files.hpp"

#include <cstdint>
#include <string_view>
#include <utility>

#include "tlbf/conformance/described_cases.hpp"
#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/run_with_input.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/rule_files.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {

// Generated from conformance/corpus/from_bytes at configure time: (file name, lowercase hex).
extern const std::vector<std::pair<std::string_view, std::string_view>> kFromBytesCorpus;

namespace {

using Steps = std::vector<DraftStep>;

// The oracle's response as a pattern that any conforming answer matches.
std::string pattern_of(std::string_view request, const std::string& response) {
  return pattern_for(request, response);
}

DraftStep expect(std::string request, std::string pattern) {
  return {std::move(request), std::move(pattern)};
}

// ---- bytes for items and headers --------------------------------------------

std::string hex_of(const std::vector<std::uint8_t>& bytes) { return protocol::write_bytes(bytes); }

std::vector<std::uint8_t> pattern_item(std::size_t size) {
  std::vector<std::uint8_t> item(size);
  for (std::size_t i = 0; i < size; ++i) item[i] = static_cast<std::uint8_t>((i * 7 + 3) % 251);
  return item;
}

// from_bytes NAME FILE, then everything a loaded filter tells about itself.
Steps load_and_read(const std::string& name, const std::string& hex) {
  return {ask("from_bytes " + name + " " + hex), ask("info " + name), ask("count_ones " + name),
          ask("to_bytes " + name), ask("drop " + name)};
}

// ---- the cases that are computed, not written as files ----------------------
// A case stays here when its file would be unreadable: a line of 10 KB or
// more, or a thousand filters. Every other rule case is a file
// (conformance/cases, src/rule_files.cpp).

// The rules these cases check, as docs/check.md's table words them
// (rule_cases_tests holds each case's rule to the first row that names it).
constexpr std::string_view kLongLines =
    "a line of up to 64 MiB, `\\n` included, is a request (checked above 16 MiB, not at the maximum)";
constexpr std::string_view kHashes = "FNV-1a 64, mix64 and h2 = mix64(h1) OR 1";
constexpr std::string_view kAnyItems = "items are any bytes, of any length";
constexpr std::string_view kBitLayout =
    "bit g in byte g / 8 at bit g mod 8; the bit array is ceil(m / 8) bytes";
constexpr std::string_view kCreate = "with_rate, new and from_bytes create or replace F";
constexpr std::string_view kHeader = "the header: every field little-endian at its full width";

Case about(Case c, std::string_view rule) {
  c.about = rule;
  return c;
}

std::vector<Case> long_lines() {
  std::vector<Case> out;
  // An implementation whose line reader stops at 64 KiB (or 1 MiB) fails
  // here, and so does one that cuts items at 1 MiB: the item is 1 MiB and a byte.
  out.push_back(about(case_from_draft("protocol/framing/long_line_1mib",
                                      {ask("fnv1a64 " + hex_of(pattern_item((std::size_t{1} << 20) + 1)))}),
                      kLongLines));
  // A request longer than 16 MiB, so that a reader with a limit at 16 MiB (or
  // any power of two below it) fails here. Cheap to answer (no such filter)
  // once the line has been read and its hex checked. A line at the 64 MiB
  // maximum itself would cost about 0.75 s of processor time in every run,
  // more than the rest of the default check, so it is not one of these cases.
  // Its item is a fill, written in pieces: tlbf check never holds the line.
  const std::string start = "contains absent_long ";  // odd length, so the hex fills the rest exactly
  Case longest;
  longest.name = "protocol/framing/line_above_16mib";
  longest.needs = {Capability::Filter};
  longest.about = kLongLines;
  longest.steps.push_back({start, "err NoSuchFilter",
                           Fill{(std::size_t{16} << 20) + (std::size_t{64} << 10) - 1 - start.size()}});
  out.push_back(std::move(longest));
  return out;
}

std::vector<Case> long_items() {
  std::vector<Case> out;
  const std::string big = hex_of(pattern_item(5000));
  const std::string prefix = big.substr(0, 2 * 4096);
  out.push_back(
      about(case_from_draft("items/longer_than_4kib", {ask("fnv1a64 " + big), ask("fnv1a64 " + prefix),
                                                       ask("positions_for 1000003 7 " + big)}),
            kHashes));
  out.push_back(about(case_from_draft("items/longer_than_4kib_in_a_filter",
                                      {ask("new lk 4096 4"), ask("insert lk " + big),
                                       expect("contains lk " + big, "ok true"), ask("contains lk " + prefix),
                                       ask("positions lk " + big), ask("count_ones lk"), ask("drop lk")}),
                      kAnyItems));
  // Past 64 KiB, where a reader with a 64 KiB item buffer cuts it: one item in
  // a filter of a million bits, so its 64 KiB prefix is not found.
  const std::string huge = hex_of(pattern_item(70'000));
  const std::string prefix_64kib = huge.substr(0, 2 * 65'536);
  out.push_back(
      about(case_from_draft(
                "items/longer_than_64kib_in_a_filter",
                {ask("new lh 1000003 7"), ask("insert lh " + huge), expect("contains lh " + huge, "ok true"),
                 expect("contains lh " + prefix_64kib, "ok false"), ask("positions lh " + huge),
                 ask("positions lh " + prefix_64kib), ask("drop lh")}),
            kAnyItems));
  return out;
}

// The oracle's to_bytes of filter `name` after `requests`, as hex.
std::string oracle_file(const std::vector<std::string>& requests, const std::string& name) {
  protocol::OracleSession oracle;
  for (const auto& r : requests) oracle.handle(r);
  return oracle.handle("to_bytes " + name).substr(3);
}

std::vector<Case> large_files() {
  std::vector<Case> out;
  // A file above 64 KiB loads (a filter of 600,000 bits is 75,032 bytes).
  out.push_back(about(
      case_from_draft("items/file_above_64kib_loads",
                      {ask("from_bytes bf " + oracle_file({"new t 600000 1", "insert t 636174"}, "t")),
                       ask("count_ones bf"), ask("contains bf 636174"), ask("info bf"), ask("drop bf")}),
      kBitLayout));
  // More than 65,535 bits set: count_ones is not a 16-bit count.
  std::string full = file_hex({1, 65544, 1, 0, 0, 0});
  full += std::string(2 * 8193, 'f');
  out.push_back(about(case_from_draft("format/count_ones/above_16_bits",
                                      {ask("from_bytes cf " + full), ask("count_ones cf"), ask("drop cf")}),
                      kBitLayout));
  return out;
}

std::vector<Case> many_filters() {
  std::vector<Case> out;
  // More filters than any small fixed table holds, each told apart by its m.
  Steps many;
  // 1,100: well above 128, 256, 512 and 1024, the sizes a fixed table is likely to have.
  const int count = 1100;
  for (int i = 0; i < count; ++i)
    many.push_back(expect("new many_" + std::to_string(i) + " " + std::to_string(i + 1) + " 1", "ok"));
  for (int i = 0; i < count; ++i) {
    many.push_back(expect("info many_" + std::to_string(i), "ok " + std::to_string(i + 1) + " 1 0"));
  }
  for (int i = 0; i < count; ++i) many.push_back(expect("drop many_" + std::to_string(i), "ok"));
  out.push_back(about(case_from_draft("state/many_filters_alive", many), kCreate));
  return out;
}

Case finish(std::string name, std::vector<DraftStep> steps, bool acceptable, std::string why) {
  Case c = case_from_draft(std::move(name), std::move(steps));
  c.acceptable = acceptable;
  c.why = std::move(why);
  return c;
}

}  // namespace

Case case_from_draft(std::string name, std::vector<DraftStep> steps) {
  Case c;
  c.name = std::move(name);
  bool asks = false;
  for (const auto& s : steps) asks = asks || s.stated.empty();
  protocol::OracleSession oracle;
  for (auto& s : steps) {
    // The oracle answers every request when any pattern is its own, so that
    // the requests before one it answers have had their effect.
    std::string pattern = std::move(s.stated);
    if (asks) {
      const std::string answer = oracle.handle(s.request);
      if (pattern.empty()) pattern = pattern_of(s.request, answer);
    }
    if (auto cap = capability_of(std::string_view(s.request).substr(0, s.request.find(' '))))
      c.needs.insert(*cap);
    // Moved, not copied: one request is 16 MiB.
    c.steps.push_back({std::move(s.request), std::move(pattern)});
  }
  return c;
}

namespace {

// The rules of the described families (described_cases.hpp), as docs/check.md's table words them.
struct FamilyRule {
  std::vector<Case> (*cases)();
  std::string_view rule;
};

const FamilyRule kFamilies[] = {
    {grammar_cases,
     "every value matches its line of the `grammar` block, character by character: each printable character "
     "first, in the middle and last, in place of one and inserted, and alone, in a word of each type; and "
     "each "
     "type's productions combined (`described_cases_tests` holds every expected answer to the block)"},
    {width_cases,
     "every integer field on both sides of 2^7, 2^8, 2^15, 2^16, 2^31, 2^32, 2^53, 2^63 and 2^64, where its "
     "requests reach them: m, k, n, n_inserted, positions, and the answers of optimal_k and optimal_m"},
    {identity_cases,
     "a filter is its name: names that collide under Java's hashCode, djb2, FNV-1a 32, FNV-1a 64's low half "
     "or "
     "a byte sum are two filters; filters with equal contents are two filters; every shape of `union F G`; k "
     "of "
     "127 to 65536 in every command that takes or makes one"},
    {header_edge_cases, kHeader},
    {error_order_cases, "order of checks: framing, command word, argument count, syntax, filters, operation"},
};

}  // namespace

tlbf::Outcome<std::vector<Case>> rule_cases() {
  auto files = rule_files();
  if (!files) return files.failure();
  std::vector<Case> out;
  for (auto& file : files.value()) out.push_back(case_from_file(std::move(file)));
  for (auto* computed : {long_lines, long_items, large_files, many_filters}) {
    for (auto& c : computed()) out.push_back(std::move(c));
  }
  for (const auto& family : kFamilies) {
    for (auto& c : family.cases()) out.push_back(about(std::move(c), family.rule));
  }
  return out;
}

namespace {
// The k of a file given as hex: bytes 16 to 19, little-endian.
std::uint64_t header_k(std::string_view hex) {
  std::uint64_t k = 0;
  for (int byte = 3; byte >= 0; --byte) {
    const auto at = static_cast<std::size_t>(32 + 2 * byte);
    k = k << 8 | std::stoul(std::string(hex.substr(at, 2)), nullptr, 16);
  }
  return k;
}
}  // namespace

std::vector<Case> corpus_cases() {
  std::vector<Case> out;
  for (const auto& [file, hex] : kFromBytesCorpus) {
    const std::string word = hex.empty() ? "-" : std::string(hex);
    protocol::OracleSession oracle;
    const bool loads = oracle.handle("from_bytes c " + word) == "ok";
    Steps steps = loads ? load_and_read("corpus_fb", word) : Steps{ask("from_bytes corpus_fb " + word)};
    // Refused for a k above 65536 alone? The vectors call accepting such k
    // acceptable (StrictKBound); k = 0 is refused everywhere.
    bool k_only = false;
    if (!loads && hex.size() >= 64 && header_k(hex) > MAX_K) {
      std::string with_k1(hex);
      with_k1.replace(32, 8, "01000000");
      k_only = oracle.handle("from_bytes c " + with_k1) == "ok";
    }
    out.push_back(about(finish("corpus/from_bytes/" + std::string(file.substr(0, 12)), std::move(steps),
                               k_only, k_only ? "StrictKBound" : ""),
                        kHeader));
  }
  return out;
}

InteractiveCase end_of_input_case() {
  InteractiveCase c;
  c.name = "protocol/framing/last_line_without_newline_answered";
  // A Session sends whole lines and cannot close the input halfway through
  // one, so this case runs a process of its own.
  c.run_alone = [](const std::string& command, const Budget& budget) -> std::optional<Finding> {
    const RunResult r = run_with_input(command, "hello", budget.first_answer);
    const std::string sent =
        "sent 'hello' without its \\n and closed its input (printf hello | " + command +
        "): docs/protocol.md, section 1, says such a last line is still a request and is answered, "
        "and the implementation then exits with status 0; ";
    Finding f;
    f.stderr_tail = last_lines(r.err, 10);
    if (!r.started) {
      f.reason = sent + "but it could not be started";
      f.fault = Fault{FaultKind::NotStarted, "could not be started (" + r.start_error + ")"};
      return f;
    }
    if (r.timed_out) {
      f.reason = sent + "but it had not ended after " + std::to_string(budget.first_answer.count()) +
                 " ms and was killed" +
                 (r.out.empty() ? " (it wrote nothing)" : ", having written " + readable(r.out, 200));
      f.fault = Fault{FaultKind::Hung, "gave no answer to a last line without \\n within " +
                                           std::to_string(budget.first_answer.count()) + " ms"};
      return f;
    }
    const std::size_t newline = r.out.find('\n');
    if (r.out.empty()) {
      f.reason = sent + "it wrote nothing";
    } else if (newline == std::string::npos) {
      f.reason = sent + "its answer " + readable(r.out, 200) + " has no \\n at its end";
    } else if (newline + 1 != r.out.size()) {
      f.reason = sent + "it wrote more than one line: " + readable(r.out, 200);
    } else if (const auto why = mismatch("ok 1 *", std::string_view(r.out).substr(0, newline))) {
      f.reason = sent + "its answer is wrong: " + why->what;
    }
    if (!r.exited_cleanly()) {
      f.reason += (f.reason.empty() ? sent + "it answered, but then ended with " : "; then it ended with ") +
                  r.how_it_ended();
    }
    if (f.reason.empty()) return std::nullopt;
    return f;
  };
  return c;
}

InteractiveCase fresh_start_case() {
  InteractiveCase c;
  c.name = "protocol/session/hello_not_needed";
  c.needs = {Capability::Filter};
  c.run = [](Session& session, const std::set<Capability>&) -> std::optional<Finding> {
    // A filter of one bit answers true for every item once it holds one: an
    // implementation that keeps an exact set instead shows it at once.
    const std::vector<std::string> requests = {
        "new hn 1 1",          "insert hn 78", "contains hn 79", "contains hn 636174",
        "positions hn 636174", "info hn",      "count_ones hn",  "drop hn"};
    if (auto fault = session.restart(Session::Why::Fresh)) return Finding{fault->detail, fault, {}};
    Judge limits;
    std::vector<Request> batch;
    std::string transcript;
    for (const auto& line : requests) {
      const std::string pattern = limits.expect(line);
      batch.push_back({line, limits.longest_answer() + line.size() + kAnswerSlack});
      transcript += "> " + line + "\n< " + pattern + "\n";
      limits.judge(limits.oracle_answer());
    }
    const Answers answers = session.exchange(batch, Pace::Pipelined);
    Judge judge;
    const std::string fresh = "in a fresh process, sent no hello first: ";
    for (std::size_t i = 0; i < answers.lines.size(); ++i) {
      judge.expect(requests[i]);
      const Judgement j = judge.judge(answers.lines[i]);
      if (j.verdict == Verdict::Mismatch) {
        return Finding{
            fresh + "'" + requests[i] + "' was answered " + readable(answers.lines[i], 80) + ": " + j.reason,
            {},
            transcript};
      }
    }
    if (answers.fault) return Finding{fresh + answers.fault->detail, answers.fault, transcript};
    return std::nullopt;
  };
  return c;
}

tlbf::Outcome<std::vector<Case>> deterministic_cases() {
  auto out = rule_cases();
  if (!out) return out;
  for (auto& c : corpus_cases()) out->push_back(std::move(c));
  return out;
}

}  // namespace tlbf::conformance
