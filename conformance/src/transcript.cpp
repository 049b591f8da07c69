#include "tlbf/conformance/transcript.hpp"

#include <algorithm>
#include <cmath>

#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/session.hpp"
#include "tlbf/hex.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

bool reals_agree(double want, double got) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
  if (want == got) return true;  // equal infinities included
  // Else an infinity agrees with nothing: the relative test below would call
  // inf - x <= 1e-12 * inf true, and pass an `inf` for every rate.
  if (std::isinf(want) || std::isinf(got)) return false;
  return std::abs(want - got) <= 1e-12 * std::max(std::abs(want), std::abs(got));
}

}  // namespace

tlbf::Outcome<Transcript> parse_transcript(std::string_view text, std::string name) {
  Transcript transcript{std::move(name), {}};
  bool awaiting_response = false;
  int number = 0;
  auto fail = [&](const std::string& why) { return tlbf::failure(std::to_string(number) + ": " + why); };
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("> ", 0) == 0 || line.rfind(">x ", 0) == 0) {
      if (awaiting_response) return fail("a request follows a request with no response line between");
      std::string request;
      if (line[1] == 'x') {
        const std::string_view hex = line.substr(3);
        const auto bytes = hex == "-" ? std::optional<std::vector<std::uint8_t>>(std::vector<std::uint8_t>{})
                                      : from_hex(hex);
        if (!bytes) return fail("'>x' needs hex, or - for an empty request");
        request.assign(bytes->begin(), bytes->end());
        if (request.find('\n') != std::string::npos) return fail("'>x' bytes may not contain a newline");
      } else {
        request = std::string(line.substr(2));
      }
      transcript.exchanges.push_back({std::move(request), "", number});
      awaiting_response = true;
    } else if (line.rfind("< ", 0) == 0) {
      if (!awaiting_response) return fail("a response line with no request before it");
      transcript.exchanges.back().pattern = std::string(line.substr(2));
      awaiting_response = false;
    } else {
      return fail("a line must start with '> ', '>x ', '< ' or '#'");
    }
  }
  if (awaiting_response) return fail("the last request has no response line");
  // A replay of nothing would pass whatever the implementation does.
  if (transcript.exchanges.empty()) return fail("no request in the whole transcript: nothing to replay");
  return transcript;
}

void fill_in_oracle_answers(Transcript& transcript) {
  const auto& all = transcript.exchanges;
  if (std::none_of(all.begin(), all.end(), [](const Exchange& e) { return e.pattern == "?"; })) return;
  protocol::OracleSession oracle;
  for (Exchange& e : transcript.exchanges) {
    const std::string answer = oracle.handle(e.request);
    if (e.pattern == "?") e.pattern = pattern_for(e.request, answer);
  }
}

// Words separated by single spaces; empty words where spaces repeat or lead.
std::vector<std::string_view> split_on_spaces(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t space = text.find(' ', start);
    words.push_back(text.substr(start, space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  return words;
}

std::optional<Difference> mismatch(std::string_view pattern, std::string_view response) {
  if (auto why = unprintable_in(response)) return why;
  const auto want = split_on_spaces(pattern);
  const auto got = split_on_spaces(response);
  if (want.size() == 2 && want[0] == "err") {
    if (got.size() >= 2 && got[0] == "err" && got[1] == want[1]) return std::nullopt;
    return Difference{"expected err " + std::string(want[1]) + ", got " + readable(response, 200)};
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] == "*" && i + 1 == want.size()) return std::nullopt;
    if (i >= got.size())
      return Difference{"expected " + readable(pattern, 200) + ", got " + readable(response, 200) +
                        " (too few words)"};
    if (!want[i].empty() && want[i][0] == '~') {
      const auto expected = protocol::read_real(want[i].substr(1));
      const auto actual = protocol::read_real(got[i]);
      if (expected && actual && reals_agree(*expected, *actual)) continue;
      return Difference{"word " + std::to_string(i + 1) + ": expected a real near " +
                        std::string(want[i].substr(1)) + ", got " + readable(got[i], 200)};
    }
    if (want[i] != got[i]) {
      return Difference{"expected " + readable(pattern, 200) + ", got " + readable(response, 200)};
    }
  }
  if (got.size() != want.size()) {
    return Difference{"expected " + readable(pattern, 200) + ", got " + readable(response, 200) +
                      " (extra words)"};
  }
  return std::nullopt;
}

ReplayReport replay(const Transcript& transcript, const std::string& command, const Budget& budget,
                    const Launch& launch) {
  // The answers are read before any is judged, so each limit allows what the
  // judge could accept there: once a request has latitude, the filter it
  // names may be left open by the answer (a k above 65536 taken, an m one ulp
  // off), and an answer about an open filter may be as long as any answer.
  std::vector<Request> requests;
  Judge ahead;
  bool latitude_before = false;
  for (const Exchange& e : transcript.exchanges) {
    ahead.expect(e.request);
    std::size_t limit = std::max(answer_limit(e.request, e.pattern),
                                 ahead.longest_answer() + e.request.size() + kAnswerSlack);
    if (latitude_before)
      limit = std::max(limit, Request::kDefaultAnswerLimit + e.request.size() + kAnswerSlack);
    if (!ahead.zone().empty()) latitude_before = true;
    requests.push_back({e.request, limit});
  }
  const auto session = start_session(command, budget, launch);
  const Answers answers = session->exchange(requests, Pace::Pipelined);

  ReplayReport report;
  auto fail = [&](std::string why) { report.failures.push_back(transcript.name + ":" + std::move(why)); };
  // An answer that does not match its pattern may still be acceptable (judge.hpp).
  Judge judge;
  bool differed = false;  // the judge called an answer acceptable
  for (std::size_t i = 0; i < answers.lines.size(); ++i) {
    const Exchange& e = transcript.exchanges[i];
    // An answer that matches its pattern on a filter an acceptable answer
    // opened may still contradict the state the implementation took.
    const bool read_open = judge.reads_open_filter(e.request);
    judge.expect(e.request);
    const Judgement judgement = judge.judge(answers.lines[i]);
    const bool follows = judgement.verdict == Verdict::Match && differed;
    differed = differed || judgement.verdict == Verdict::Acceptable;
    auto why = mismatch(e.pattern, answers.lines[i]);
    if (!why && (!read_open || judgement.verdict != Verdict::Mismatch)) continue;
    if (!why) why = Difference{judgement.reason};
    const std::string where =
        transcript.name + ":" + std::to_string(e.line) + ": " + readable(e.request, 120) + ": " + why->what;
    if (judgement.verdict == Verdict::Acceptable || follows) {
      // Right in the state an earlier acceptable difference left (an m one ulp off, taken).
      const std::string reason =
          follows ? "it follows from the state an earlier acceptable difference left" : judgement.reason;
      report.acceptable.push_back(where + "; acceptable: " + reason);
    } else {
      fail(std::to_string(e.line) + ": " + readable(e.request, 120) + ": " + why->what);
    }
  }
  if (answers.fault) {
    const Exchange& e = transcript.exchanges[answers.lines.size()];
    fail(std::to_string(e.line) + ": no answer to " + readable(e.request, 120) + ": the implementation " +
         answers.fault->detail);
  } else if (const auto ended = session->finish()) {
    fail(" the implementation " + ended->what);
  }
  report.passed = report.failures.empty();
  if (!report.passed) report.stderr_tail = session->stderr_tail();
  return report;
}

std::size_t answer_limit(const std::string& request, const std::string& pattern) {
  // An error's message is free text and may quote the request; a '*' stands
  // for words of any length.
  const bool open_ended = !pattern.empty() && pattern.back() == '*';
  const std::size_t longest = std::max(pattern.size(), longest_acceptable_answer(request));
  return longest + request.size() + kAnswerSlack + (open_ended ? Request::kDefaultAnswerLimit : 0);
}

}  // namespace tlbf::conformance
