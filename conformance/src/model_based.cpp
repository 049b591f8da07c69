// Model-based random testing with RapidCheck's stateful API: random sequences
// of requests over a few filters, each response compared with the oracle's
// session as the model. RapidCheck shrinks a failing sequence; the smallest
// one is reported as a transcript to replay.
#include <rapidcheck.h>
#include <rapidcheck/state.h>
#include <rapidcheck/detail/Configuration.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "tlbf/conformance/behaviour.hpp"
#include "tlbf/conformance/judge.hpp"
#include "tlbf/conformance/readable.hpp"
#include "tlbf/conformance/transcript.hpp"
#include "tlbf/hex.hpp"
#include "tlbf/protocol/commands.hpp"
#include "tlbf/protocol/oracle_session.hpp"
#include "tlbf/protocol/values.hpp"

namespace tlbf::conformance {
namespace {

// Requests name filters as "{P}f0" .. "{P}f2"; each run puts a prefix of its
// own in place of {P} when it sends them. Shrinking replays the same commands
// in new runs, so the prefix cannot be baked in when a command is made.
constexpr std::string_view kPrefixSlot = "{P}";

std::string with_prefix(std::string line, const std::string& prefix) {
  for (std::size_t at; (at = line.find(kPrefixSlot)) != std::string::npos;)
    line.replace(at, kPrefixSlot.size(), prefix);
  return line;
}

struct Model {
  std::string prefix;  // filter names of this run: runs never see each other's filters
  protocol::OracleSession session;
  std::set<Capability> offered;
  // The names (f0 .. f2) of the filters that exist now. Drawn blindly, three
  // in four requests named a filter that did not exist, and two filters of one
  // shape met in a union about once in a hundred runs: a union that ANDs was
  // found at one seed in ten.
  std::vector<std::string> alive = {};
};

// Keeps Model::alive up to date with what `line` did (answered `answer`).
void track(Model& m, std::string_view line, std::string_view answer) {
  if (answer != "ok") return;
  const protocol::Command* command = protocol::command_named(line.substr(0, line.find(' ')));
  if (command == nullptr) return;
  const bool creates = command->effect == protocol::Effect::Creates;
  if (!creates && command->effect != protocol::Effect::Drops) return;
  const std::size_t at = line.find(kPrefixSlot);
  if (at == std::string_view::npos) return;
  const std::string_view rest = line.substr(at + kPrefixSlot.size());
  const std::string name(rest.substr(0, rest.find(' ')));
  const auto found = std::find(m.alive.begin(), m.alive.end(), name);
  if (creates && found == m.alive.end()) m.alive.push_back(name);
  if (!creates && found != m.alive.end()) m.alive.erase(found);
}

struct Exchanged {
  std::string request, expected, got;
};

struct Sut {
  Session* session;
  Judge judge;  // the oracle's answers, and what else is acceptable (judge.hpp)
  std::vector<Exchanged> log;
  // log[unsent, end) are requests not sent yet, each with its answer limit:
  // requests whose pattern alone decides their answer wait, and go pipelined.
  std::size_t unsent = 0;
  std::vector<std::size_t> limits;
  // Every request the current process has been sent since it started, this
  // run's and earlier runs': to replay its whole life in a fresh one.
  std::vector<std::string>* sent_since_start;
  std::optional<Fault> fault;                             // the fault that ended this run, if any
  std::optional<std::vector<std::string>> first_failure;  // the process's life up to its first wrong answer
};

// Requests that wait at most before they are sent; a run has at most 60.
constexpr std::size_t kBatch = 64;

// The first `count` requests sent to the process since it started.
std::vector<std::string> first_sent(const std::vector<std::string>& sent, std::size_t count) {
  return {sent.begin(), sent.begin() + static_cast<std::ptrdiff_t>(std::min(count, sent.size()))};
}

// Sends the waiting requests pipelined and checks each answer against its
// pattern. Fails the run at the first wrong answer (the log then ends there)
// or at a fault (the log keeps every request sent: any may have caused it).
// One round trip for a whole run instead of one per request: one at a time,
// the random sequences took most of the time of a default `tlbf check`.
void send_waiting(Sut& sut) {
  if (sut.unsent == sut.log.size()) return;
  std::vector<Request> batch;
  for (std::size_t i = sut.unsent; i < sut.log.size(); ++i)
    batch.push_back({sut.log[i].request, sut.limits[i - sut.unsent]});
  const std::size_t first = sut.unsent, already_sent = sut.sent_since_start->size();
  for (const auto& r : batch) sut.sent_since_start->emplace_back(r.line);
  sut.unsent = sut.log.size();
  sut.limits.clear();
  Answers answers = sut.session->exchange(batch, Pace::Pipelined);
  for (std::size_t i = 0; i < answers.lines.size(); ++i) {
    Exchanged& e = sut.log[first + i];
    e.got = std::move(answers.lines[i]);
    if (mismatch(e.expected, e.got)) {
      sut.log.resize(first + i + 1);
      if (!sut.first_failure) sut.first_failure = first_sent(*sut.sent_since_start, already_sent + i + 1);
      RC_FAIL("answered " + readable(e.got, 80));
    }
  }
  if (answers.fault) {
    sut.fault = answers.fault;
    if (!sut.first_failure) sut.first_failure = *sut.sent_since_start;
    RC_FAIL(answers.fault->detail);
  }
}

// RapidCheck's inRange favours small values while the size is small; these
// draws should be uniform over the whole range at every size (they still
// shrink towards the lower bound).
template <typename T>
T uniform(T low, T high) {
  return *rc::gen::resize(100, rc::gen::inRange<T>(low, high));
}

std::string hex_word(const std::vector<std::uint8_t>& bytes) { return bytes.empty() ? "-" : to_hex(bytes); }

// Items: mostly from a small pool, so that lookups find inserted items.
std::string gen_item() {
  static const std::vector<std::string> pool = {"-",        "00", "636174", "646f67",
                                                "62697264", "ff", "0000",   "616263"};
  if (uniform<int>(0, 3) > 0) return *rc::gen::elementOf(pool);
  return hex_word(*rc::gen::resize(12, rc::gen::arbitrary<std::vector<std::uint8_t>>()));
}

std::string gen_rate() {
  static const std::vector<std::string> edges = {"0.5", "0.1", "0.01", "0.001", "1e-06",
                                                 "0",   "1",   "nan",  "-0.5",  "inf"};
  if (uniform<int>(0, 2) == 0) return *rc::gen::elementOf(edges);
  return protocol::write_real(uniform<int>(1, 999999) / 1e6);
}

std::string gen_m() {
  static const std::vector<std::uint64_t> edges = {
      0, 1, 7, 8, 9, 64, 1099511627775, 1099511627776, 1099511627777};
  if (uniform<int>(0, 4) == 0) return std::to_string(*rc::gen::elementOf(edges));
  return std::to_string(uniform<std::uint64_t>(1, 2049));
}

// The requests gen_request() chooses from, each made only when chosen: the
// order of the offers and of the draws is what makes a seed repeat a run.
// An offer names its command by the table's word (protocol/commands.hpp) and
// makes only the arguments, and it is offered when the model offers the
// command's group: the word a request starts with and the capability it needs
// both come from the table. words_sent_at_random() lists the words offered, so
// that a test finds a command of the table the sequences never send.
struct Offers {
  const Model& m;
  const std::string& f;
  const std::string& g;
  struct Offer {
    std::string_view word;
    std::function<std::string()> arguments;
  };
  std::vector<Offer> choices;
  std::vector<std::string_view> words;  // every word offered, whether its group is offered or not

  void offer(std::string_view word, std::function<std::string()> arguments) {
    words.push_back(word);
    const protocol::Command* command = protocol::command_named(word);
    if (command != nullptr && command->capability && m.offered.count(*command->capability))
      choices.push_back({word, std::move(arguments)});
  }
};

void offer_filter_requests(Offers& o) {
  const Model& m = o.m;
  const std::string& f = o.f;
  const std::string& g = o.g;
  // Parameters often come from small sets, so that two filters often match
  // and unions have something to merge.
  o.offer("with_rate", [&] {
    const int n =
        uniform<int>(0, 2) == 0 ? *rc::gen::elementOf(std::vector<int>{1, 4, 10, 100}) : uniform<int>(0, 300);
    return f + " " + std::to_string(n) + " " + gen_rate();
  });
  o.offer("new", [&] {
    // m small enough to allocate: the edges of m are for positions_for.
    if (uniform<int>(0, 2) == 0) {
      return f + " " + std::to_string(*rc::gen::elementOf(std::vector<int>{8, 20, 64})) + " " +
             std::to_string(*rc::gen::elementOf(std::vector<int>{1, 3}));
    }
    return f + " " + std::to_string(uniform<int>(0, 3000)) + " " + std::to_string(uniform<int>(0, 20));
  });
  o.offer("new", [&] {
    // A filter of F's own m and k: unions of two such merge real bits.
    protocol::OracleSession copy = m.session;
    const std::string info = copy.handle(with_prefix("info " + f, m.prefix));
    if (info.rfind("ok ", 0) != 0) return g + " 20 3";
    std::istringstream words(info.substr(3));
    std::string bits, k;
    words >> bits >> k;
    return g + " " + bits + " " + k;
  });
  for (int weight = 0; weight < 3; ++weight) {
    o.offer("insert", [&] { return f + " " + gen_item(); });
    o.offer("contains", [&] { return f + " " + gen_item(); });
  }
  o.offer("count_ones", [&] { return f; });  // what a run did shows in what it reads
  o.offer("positions", [&] { return f + " " + gen_item(); });
  o.offer("count_ones", [&] { return f; });
  o.offer("info", [&] { return f; });
  o.offer("info", [&] { return g; });
  o.offer("drop", [&] { return f; });
}

void offer_byte_requests(Offers& o) {
  const Model& m = o.m;
  const std::string& f = o.f;
  const std::string& g = o.g;
  o.offer("to_bytes", [&] { return f; });
  o.offer("from_bytes", [&] {
    // The model's own bytes of some filter, often damaged by one byte.
    protocol::OracleSession copy = m.session;
    const std::string answer = copy.handle(with_prefix("to_bytes " + g, m.prefix));
    std::vector<std::uint8_t> bytes;
    if (answer.rfind("ok ", 0) == 0) bytes = *from_hex(answer.substr(3));
    switch (uniform<int>(0, 5)) {
      case 0:
        if (!bytes.empty()) bytes.pop_back();
        break;
      case 1:
        bytes.push_back(*rc::gen::arbitrary<std::uint8_t>());
        break;
      case 2:
        if (!bytes.empty()) bytes[uniform<std::size_t>(0, bytes.size())] ^= uniform<std::uint8_t>(1, 255);
        break;
      default:
        break;
    }
    return f + " " + hex_word(bytes);
  });
}

void offer_union_requests(Offers& o) {
  const Model& m = o.m;
  const std::string& f = o.f;
  const std::string& g = o.g;
  for (int weight = 0; weight < 3; ++weight) o.offer("union", [&] { return f + " " + g; });
  o.offer("union", [&] {
    // F with another filter of its shape where there is one: the union that
    // merges bits, where a wrong operation (AND, XOR) shows.
    protocol::OracleSession copy = m.session;
    const std::string mine = copy.handle(with_prefix("info " + f, m.prefix));
    std::vector<std::string> partners;
    for (const auto& other : m.alive) {
      const std::string theirs =
          copy.handle(with_prefix("info " + std::string(kPrefixSlot) + other, m.prefix));
      if (std::string(kPrefixSlot) + other != f && mine.rfind("ok ", 0) == 0 &&
          theirs.substr(0, theirs.rfind(' ')) == mine.substr(0, mine.rfind(' '))) {
        partners.push_back(std::string(kPrefixSlot) + other);
      }
    }
    return f + " " + (partners.empty() ? g : *rc::gen::elementOf(partners));
  });
}

void offer_hashing_and_sizing_requests(Offers& o) {
  o.offer("fnv1a64", [&] { return gen_item(); });
  o.offer("mix64", [&] { return protocol::write_hash(*rc::gen::arbitrary<std::uint64_t>()); });
  o.offer("positions_for",
          [&] { return gen_m() + " " + std::to_string(uniform<int>(0, 70)) + " " + gen_item(); });
  o.offer("optimal_m", [&] { return std::to_string(uniform<int>(0, 1000000)) + " " + gen_rate(); });
  o.offer("optimal_k", [&] { return gen_m() + " " + std::to_string(uniform<int>(0, 1000)); });
  o.offer("predicted_fp_rate", [&] {
    return gen_m() + " " + std::to_string(uniform<int>(0, 30)) + " " + std::to_string(uniform<int>(0, 5000));
  });
}

void offer_every_request(Offers& o) {
  offer_filter_requests(o);
  offer_byte_requests(o);
  offer_union_requests(o);
  offer_hashing_and_sizing_requests(o);
}

// One request for the current model, over the capabilities it offers.
std::string gen_request(const Model& m) {
  // Two names, mostly of filters that exist.
  const auto name = [&m] {
    if (!m.alive.empty() && uniform<int>(0, 3) > 0)
      return std::string(kPrefixSlot) + *rc::gen::elementOf(m.alive);
    return std::string(kPrefixSlot) + "f" + std::to_string(uniform<int>(0, 2));
  };
  const std::string f = name();
  const std::string g = name();
  Offers o{m, f, g, {}, {}};
  offer_every_request(o);
  const Offers::Offer& chosen = o.choices[uniform<std::size_t>(0, o.choices.size())];
  return std::string(chosen.word) + " " + chosen.arguments();
}

}  // namespace

std::vector<std::string_view> words_sent_at_random() {
  const Model m{"",
                protocol::OracleSession(),
                {std::begin(protocol::kAllCapabilities), std::end(protocol::kAllCapabilities)}};
  const std::string f = std::string(kPrefixSlot) + "f0", g = std::string(kPrefixSlot) + "f1";
  Offers o{m, f, g, {}, {}};
  offer_every_request(o);
  std::vector<std::string_view> once;
  for (std::string_view word : o.words)
    if (std::find(once.begin(), once.end(), word) == once.end()) once.push_back(word);
  return once;
}

namespace {

struct RandomRequest : rc::state::Command<Model, Sut> {
  std::string line;

  explicit RandomRequest(const Model& m) : line(gen_request(m)) {}

  void apply(Model& m) const override { track(m, line, m.session.handle(with_prefix(line, m.prefix))); }

  void run(const Model& m, Sut& sut) const override {
    const std::string request = with_prefix(line, m.prefix);
    // After an acceptable difference a filter's state is open, and its k may
    // be in the billions: requests that read it are not sent (judge.hpp).
    if (sut.judge.reads_open_filter(request)) return;
    const std::string expected = sut.judge.expect(request);
    const std::size_t limit = sut.judge.longest_answer() + request.size() + kAnswerSlack;
    sut.log.push_back({request, expected, ""});
    if (sut.judge.pattern_decides()) {
      sut.limits.push_back(limit);
      sut.judge.judge(
          sut.judge.oracle_answer());  // its real answer is checked against `expected` when it comes
      if (sut.limits.size() >= kBatch) send_waiting(sut);
      return;
    }
    // This answer decides what later requests may be sent: it is needed now.
    sut.log.pop_back();
    send_waiting(sut);
    sut.log.push_back({request, expected, ""});
    sut.unsent = sut.log.size();
    sut.sent_since_start->push_back(request);
    auto [got, fault] = sut.session->ask(request, limit);
    sut.log.back().got = std::move(got);
    if (fault) {
      sut.fault = fault;
      if (!sut.first_failure) sut.first_failure = *sut.sent_since_start;
      RC_FAIL(fault->detail);
    }
    const Judgement judgement = sut.judge.judge(sut.log.back().got);
    if (judgement.verdict == Verdict::Mismatch) {
      if (!sut.first_failure) sut.first_failure = *sut.sent_since_start;
      RC_FAIL("answered " + readable(sut.log.back().got, 80));
    }
  }

  void show(std::ostream& os) const override { os << line; }
};

// A transcript (docs/protocol.md, section 7) of requests, each with the
// pattern the oracle's answer gives; whole, for files and --json. Replaying it
// judges with judge.hpp too, so acceptable differences stay acceptable.
std::string transcript_of(const std::vector<std::string>& requests) {
  Judge judge;
  std::string out;
  for (const auto& request : requests) {
    out += "> " + request + "\n< " + judge.expect(request) + "\n";
    judge.judge(judge.oracle_answer());
  }
  return out;
}

// The transcript for people: each line shortened, at most `max_lines` of them.
std::string shortened(const std::string& transcript, std::size_t max_lines) {
  std::string out;
  std::size_t lines = 0, start = 0;
  for (std::size_t nl; (nl = transcript.find('\n', start)) != std::string::npos; start = nl + 1) {
    if (++lines > max_lines) continue;
    const std::string_view line(transcript.data() + start, nl - start);
    out += line.size() <= 160 ? std::string(line)
                              : std::string(line.substr(0, 2)) + readable(line.substr(2), 150);
    out += "\n";
  }
  if (lines > max_lines)
    out += "# ... " + std::to_string(lines - max_lines) + " more lines in the transcript (--json)\n";
  return out;
}

// Replays `requests` in a fresh process and compares every answer with the
// oracle's. nullopt when all match; else what went wrong, and whether it was a
// fault that cost a timeout.
struct ReplayFailure {
  std::string what;
  bool cost_a_timeout = false;
};

std::optional<ReplayFailure> replay_fails(Session& session, const std::vector<std::string>& requests) {
  if (auto fault = session.restart(Session::Why::Fresh))
    return ReplayFailure{fault->detail, fault->cost_a_timeout()};
  // Answer limits, from the oracle's answers; after a request where other
  // answers are acceptable, reads of an open filter may be long.
  Judge limits;
  std::vector<Request> batch;
  for (const auto& line : requests) {
    limits.expect(line);
    const bool open_read = limits.reads_open_filter(line);
    batch.push_back({line, std::max(limits.longest_answer() + line.size() + kAnswerSlack,
                                    open_read ? Request::kDefaultAnswerLimit : std::size_t{0})});
    limits.judge(limits.oracle_answer());
  }
  const Answers answers = session.exchange(batch, Pace::Pipelined);
  Judge judge;
  for (std::size_t i = 0; i < answers.lines.size(); ++i) {
    const std::string pattern = judge.expect(requests[i]);
    if (judge.judge(answers.lines[i]).verdict == Verdict::Mismatch) {
      return ReplayFailure{"request " + std::to_string(i + 1) + " " + readable(requests[i], 60) +
                           " was answered " + readable(answers.lines[i], 80) + ", expected '" + pattern +
                           "'"};
    }
  }
  if (answers.fault) return ReplayFailure{answers.fault->detail, answers.fault->cost_a_timeout()};
  return std::nullopt;
}

// The shortest sequence found that still fails from a fresh start, by taking
// out ever smaller chunks (keeping the last request, the one that failed). A
// bounded number of replays; it stops at the first that costs a timeout.
std::vector<std::string> shortest_failing(Session& session, std::vector<std::string> requests) {
  int replays = 0;
  for (std::size_t chunk = requests.size() / 2; chunk >= 1 && replays < 200; chunk /= 2) {
    for (std::size_t at = 0; at + chunk < requests.size() && replays < 200 && !session.out_of_time();) {
      std::vector<std::string> fewer(requests.begin(), requests.begin() + static_cast<std::ptrdiff_t>(at));
      fewer.insert(fewer.end(), requests.begin() + static_cast<std::ptrdiff_t>(at + chunk), requests.end());
      ++replays;
      const auto failure = replay_fails(session, fewer);
      if (failure && failure->cost_a_timeout) return requests;
      if (failure) {
        requests = std::move(fewer);
      } else {
        at += chunk;
      }
    }
  }
  return requests;
}

std::vector<std::string> requests_of(const std::vector<Exchanged>& log) {
  std::vector<std::string> out;
  for (const auto& e : log) out.push_back(e.request);
  return out;
}

// What the runs of one model-based case share: the requests sent to the current process, and the
// last failing run, which after RapidCheck's shrinking is the smallest.
struct ModelRuns {
  Session& session;
  const std::set<Capability>& offered;
  std::vector<std::string> sent_since_start;  // to the current process (Sut::sent_since_start)
  int run_number = 0;
  std::vector<Exchanged> failing;  // the last failing run: after shrinking, the smallest
  std::optional<Fault> fault;      // its fault, if it was one
  std::optional<std::vector<std::string>> first_failure;  // the process's life up to the first wrong answer
  bool stop_provoking = false;  // a fault cost a timeout: shrinking would cost one a step

  ModelRuns(Session& s, const std::set<Capability>& o) : session(s), offered(o) {}

  // One random sequence, RapidCheck's property: throws when it fails.
  void run_one() {
    if (stop_provoking) return;  // every later run passes, so the failure found is the one reported
    Model initial{"r" + std::to_string(run_number++) + "_", {}, offered};
    Sut sut{&session, {}, {}, 0, {}, &sent_since_start, {}, {}};
    if (!session.alive()) {
      sent_since_start.clear();
      if (auto f = session.restart()) {
        stop_provoking = true;
        failing.clear();
        fault = f;
        RC_FAIL(f->detail);
      }
    }
    try {
      rc::state::check(initial, sut, rc::state::gen::execOneOfWithArgs<RandomRequest>());
      send_waiting(sut);
    } catch (...) {
      failing = sut.log;
      fault = sut.fault;
      if (sut.first_failure && !first_failure) first_failure = sut.first_failure;
      if (fault && (fault->cost_a_timeout() || session.out_of_time())) stop_provoking = true;
      throw;
    }
  }
};

// RapidCheck announces its configuration on stderr when it first loads it;
// each run's parameters are set by the caller, so it is loaded saying nothing.
void load_rapidcheck_quietly() {
  std::ostringstream quiet;
  auto* const saved = std::cerr.rdbuf(quiet.rdbuf());
  rc::detail::configuration();
  std::cerr.rdbuf(saved);
}

// Replays the shrunk failing sequence in a fresh process and tells `out` what
// that showed; returns the requests to show, the shortest that still fail.
std::vector<std::string> replayed(ModelRuns& r, std::ostringstream& out) {
  std::vector<std::string> shown = requests_of(r.failing);
  if (r.fault && r.fault->cost_a_timeout()) {
    out << ": " << r.fault->detail
        << ". Not shrunk, nor replayed: each step would wait out the timeout again.";
    return shown;
  }
  out << "; shrunk to " << shown.size() << " requests" << (r.fault ? " (" + r.fault->detail + ")" : "")
      << ".";
  const auto again = replay_fails(r.session, shown);
  if (again) {
    out << " Replayed in a fresh process, it fails again: " << again->what << ".";
  } else if (r.first_failure) {
    out << " Replayed in a fresh process, it passes: the failure depends on earlier state.";
    if (replay_fails(r.session, *r.first_failure)) {
      shown = shortest_failing(r.session, *r.first_failure);
      out << " The shortest sequence found that fails from a fresh start has " << shown.size()
          << " requests.";
    } else {
      out << " Even the process's whole life up to the failure (" << r.first_failure->size()
          << " requests) passes when replayed: it may depend on timing or load.";
    }
  } else {
    out << " Replayed in a fresh process, it passes: it may depend on timing or load.";
  }
  return shown;
}

// The finding of a failed check: what failed, how its replays went, and the
// transcript that replays it.
Finding failure_found(ModelRuns& r, const rc::detail::FailureResult& failure, std::uint64_t seed, int runs) {
  std::ostringstream out;
  out << "a random request sequence fails after " << failure.numSuccess << " passing runs (seed " << seed
      << ", --runs " << runs << ")";
  const std::vector<std::string> shown = replayed(r, out);
  const std::string transcript = transcript_of(shown);
  out << "\nReplay it: tlbf's transcript format (docs/protocol.md, section 7); the filter names carry the "
         "run's prefix:\n"
      << shortened(transcript, 40);
  if (!r.failing.empty() && shown.size() == r.failing.size()) {
    out << "# the implementation answered: " << readable(r.failing.back().got, 200) << "\n";
  }
  if (!r.session.alive()) r.session.restart();
  return Finding{out.str(), std::nullopt, transcript};
}

std::optional<Finding> run_model(Session& session, const std::set<Capability>& offered, std::uint64_t seed,
                                 int runs) {
  // A process of its own, so that what it is sent is all the model's.
  if (session.requests_sent() != 0) {
    if (auto fault = session.restart(Session::Why::Fresh)) return Finding{fault->detail, fault, {}};
  }
  ModelRuns r{session, offered};
  const auto property = [&r] { r.run_one(); };
  load_rapidcheck_quietly();
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = runs;
  params.maxSize = 60;  // requests per run at most
  const auto result = rc::detail::checkTestable(property, rc::detail::TestMetadata{}, params);
  rc::detail::FailureResult failure;
  if (!result.match(failure)) {
    rc::detail::GaveUpResult gave_up;
    if (result.match(gave_up)) return Finding{"RapidCheck gave up: " + gave_up.description, {}, {}};
    return std::nullopt;
  }
  return failure_found(r, failure, seed, runs);
}

}  // namespace

InteractiveCase model_based_case(std::uint64_t seed, int runs) {
  // Every capability's requests are drawn only if offered, so it needs none.
  return {"model/random_request_sequences",
          {},
          [seed, runs](Session& session, const std::set<Capability>& offered) -> std::optional<Finding> {
            return run_model(session, offered, seed, runs);
          }};
}

}  // namespace tlbf::conformance
