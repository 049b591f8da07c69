// The in-process differential harness behind tlbf/fuzz.h (docs/fuzzing.md,
// "Fuzzing your own parser"): libFuzzer's entry point, comparing the user's
// tlbf_fuzz_from_bytes with the oracle's from_bytes on every input, then the
// user's filter operations with the oracle's on what both loaded.
//
// The checks follow fuzz_diff's requests for an input, so that a finding
// here is the same finding there: the steps taken are kept, and on a
// difference they are written as protocol requests with the oracle's
// answers, a transcript that `tlbf check --transcript` replays against any
// implementation that speaks the protocol. Nothing of the protocol runs on
// the hot path; the transcript is made only when there is a finding.
#include "tlbf/fuzz.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "../transcript_file.hpp"
#include "tlbf/bloom.hpp"

// Defining tlbf_fuzz_name is optional: an undefined weak symbol is null.
#pragma weak tlbf_fuzz_name

namespace {

using tlbf::Bloom;
using tlbf::ByteView;

// The fixed item of fuzz_diff's requests, "tlbf".
constexpr std::uint8_t kItem[] = {'t', 'l', 'b', 'f'};

enum class Op { FromBytes, Info, ToBytes, CountOnes, Contains, UnionSelf, Insert };

const char* op_name(Op op) {
  switch (op) {
    case Op::FromBytes:
      return "from_bytes";
    case Op::Info:
      return "info";
    case Op::ToBytes:
      return "to_bytes";
    case Op::CountOnes:
      return "count_ones";
    case Op::Contains:
      return "contains";
    case Op::UnionSelf:
      return "union";
    case Op::Insert:
      return "insert";
  }
  return "?";
}

struct Step {
  Op op;
  ByteView item;  // for contains and insert: points into the input or kItem, which outlive the step
};

std::string hex(ByteView bytes) {
  if (bytes.empty()) return "-";
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

std::string clip(const std::string& s) { return s.size() <= 200 ? s : s.substr(0, 200) + "..."; }

std::string verdict_text(int verdict) {
  switch (verdict) {
    case TLBF_FUZZ_OK:
      return "ok";
    case TLBF_FUZZ_FORMAT:
      return "err Format";
    case TLBF_FUZZ_BAD_PARAMS:
      return "err BadParams";
    case TLBF_FUZZ_MISMATCH:
      return "err Mismatch";
    default:
      return "err (refused, kind not reported)";
  }
}

std::string parser_name() {
  const char* name = tlbf_fuzz_name ? tlbf_fuzz_name() : nullptr;
  if (!name || !*name) name = std::getenv("TLBF_FUZZ_NAME");
  std::string out = name && *name ? name : "parser";
  for (char& c : out) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  }
  return out.substr(0, 40);
}

// Which header field, or which byte of the bits, offset `at` of a file is.
std::string field_at(std::size_t at) {
  if (at < 4) return "magic";
  if (at < 8) return "version";
  if (at < 16) return "m";
  if (at < 20) return "k";
  if (at < 24) return "reserved";
  if (at < 32) return "n_inserted";
  return "bits byte " + std::to_string(at - tlbf::HEADER_LEN);
}

std::string first_difference(ByteView want, ByteView got) {
  const auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  if (w == want.end() && g == got.end()) return "none";
  const auto at = static_cast<std::size_t>(w - want.begin());
  if (w == want.end() || g == got.end()) {
    return "length: oracle " + std::to_string(want.size()) + " bytes, parser " + std::to_string(got.size()) +
           " (equal for the first " + std::to_string(at) + ")";
  }
  char buf[160];
  std::snprintf(buf, sizeof buf, "byte %zu (%s): oracle %02x, parser %02x", at, field_at(at).c_str(),
                static_cast<unsigned>(*w), static_cast<unsigned>(*g));
  return buf;
}

// The oracle's side of the steps taken, as protocol requests and answers.
// Only `ok` lines and error kinds are written: a pattern `err KIND` matches
// any message (docs/protocol.md, section 7).
std::vector<std::pair<std::string, std::string>> as_protocol(ByteView input, const std::vector<Step>& steps) {
  std::vector<std::pair<std::string, std::string>> lines;
  std::optional<Bloom> f;
  for (const Step& s : steps) {
    std::string request = std::string(op_name(s.op)) + " f", answer = "ok";
    switch (s.op) {
      case Op::FromBytes: {
        request += " " + hex(input);
        auto loaded = Bloom::from_bytes(input);
        if (loaded) {
          f.emplace(std::move(loaded).value());
        } else {
          answer = "err Format";
        }
        break;
      }
      case Op::Info:
        answer += " " + std::to_string(f->m()) + " " + std::to_string(f->k()) + " " +
                  std::to_string(f->n_inserted());
        break;
      case Op::ToBytes:
        answer += " " + hex(f->to_bytes());
        break;
      case Op::CountOnes:
        answer += " " + std::to_string(f->count_ones());
        break;
      case Op::Contains:
        request += " " + hex(s.item);
        answer += f->contains(s.item) ? " true" : " false";
        break;
      case Op::UnionSelf: {
        request += " f";
        const Bloom copy = *f;
        (void)f->union_with(copy);
        break;
      }
      case Op::Insert:
        request += " " + hex(s.item);
        f->insert(s.item);
        break;
    }
    lines.emplace_back(std::move(request), std::move(answer));
  }
  return lines;
}

class Check {
 public:
  explicit Check(ByteView input) : input_(input) {}

  void step(Op op, ByteView item = {}) { steps_.push_back({op, item}); }

  // `how`: accepts, refuses or differs, as in fuzz_diff's signatures.
  [[noreturn]] void finding(const char* how, const std::string& parser_answer,
                            const std::string& difference) {
    const std::string name = parser_name();
    const std::string signature = "oracle-vs-" + name + "-" + op_name(steps_.back().op) + "-" + how;
    const auto lines = as_protocol(input_, steps_);
    std::string detail = "request: " + clip(lines.back().first) + "\noracle: " + clip(lines.back().second) +
                         "\n" + name + ": " + clip(parser_answer);
    if (!difference.empty()) detail += "\nfirst difference: " + difference;

    bool out = false;
    const auto file = tlbf::fuzz::write_transcript(
        signature, signature + " (the in-process harness, tlbf/fuzz.h)", detail, lines, out);
    const char* impl = std::getenv("TLBF_IMPL");
    std::fprintf(
        stderr,
        "\n==%d== tlbf fuzz: %s\n%s\ntranscript: %s%s\nreplay: tlbf check --impl '%s' --transcript %s\n",
        static_cast<int>(::getpid()), signature.c_str(), detail.c_str(), file.c_str(),
        out ? "" : " (could not be written)", impl && *impl ? impl : "YOUR PROTOCOL SERVER", file.c_str());
    std::abort();
  }

 private:
  ByteView input_;
  std::vector<Step> steps_;
};

// A k above 65536, and nothing else wrong, may be accepted
// (docs/check.md, "What is acceptable"): the oracle caps k, the course's
// specification does not.
bool only_k_too_large(ByteView input) {
  if (input.size() < tlbf::HEADER_LEN) return false;
  std::uint32_t k = 0;
  std::memcpy(&k, input.data() + 16, sizeof k);  // little-endian, as the machines this runs on
  if (k <= tlbf::MAX_K) return false;
  std::vector<std::uint8_t> copy(input.begin(), input.end());
  copy[16] = 1, copy[17] = copy[18] = copy[19] = 0;
  return Bloom::from_bytes(ByteView(copy)).ok();
}

void say_unchecked(const tlbf_fuzz_filter& f) {
  static bool said = false;
  if (said) return;
  said = true;
  std::string missing;
  const auto note = [&](bool absent, const char* what) {
    if (absent) missing += missing.empty() ? what : std::string(", ") + what;
  };
  note(!f.contains, "contains");
  note(!f.to_bytes, "to_bytes");
  note(!f.insert, "insert");
  note(!f.count_ones, "count_ones");
  note(!f.union_with_self, "union_with_self");
  if (!missing.empty())
    std::fprintf(stderr, "tlbf fuzz: not checked (their callbacks are NULL): %s\n", missing.c_str());
}

std::vector<std::uint8_t>& scratch() {
  static std::vector<std::uint8_t> buffer(4096);
  return buffer;
}

ByteView user_bytes(const tlbf_fuzz_filter& f, std::size_t expected) {
  auto& buf = scratch();
  if (buf.size() < expected) buf.resize(expected);
  std::size_t n = f.to_bytes(f.handle, buf.data(), buf.size());
  if (n > buf.size()) {
    buf.resize(n);
    n = f.to_bytes(f.handle, buf.data(), buf.size());
    if (n > buf.size()) n = buf.size();  // a parser whose length changes between calls: compared as written
  }
  return {buf.data(), n};
}

// The checks that probe (contains, insert) cost k probes each, on both
// sides, and a fuzzer that has found a large k keeps it in most of its
// mutations: run on every input, k = 65536 would cost milliseconds each
// and most of the run. So above kProbeK they run on one input in
// k / kProbeK, chosen by the input's last two bytes (so that a replay makes
// the same choice, and the fuzzer can steer into it): on average an input
// costs at most the probes of k = kProbeK. Everything else (the header,
// the bytes, count_ones, the union) is checked on every input.
constexpr std::uint32_t kProbeK = 64;

bool probes_this_input(std::uint32_t k, ByteView input) {
  if (k <= kProbeK) return true;
  const unsigned tail =
      input.size() >= 2 ? input[input.size() - 1] | unsigned{input[input.size() - 2]} << 8 : 0;
  return tail % (k / kProbeK) == 0;
}

// After from_bytes: the operations both filters offer, in fuzz_diff's order.
void compare_filter(Check& check, Bloom& oracle, const tlbf_fuzz_filter& f, ByteView input, ByteView tail) {
  const bool probe = probes_this_input(oracle.k(), input);
  check.step(Op::Info);
  if (f.m != oracle.m() || f.k != oracle.k() || f.n_inserted != oracle.n_inserted()) {
    const char* field = f.m != oracle.m() ? "m" : f.k != oracle.k() ? "k" : "n_inserted";
    check.finding(
        "differs",
        "ok " + std::to_string(f.m) + " " + std::to_string(f.k) + " " + std::to_string(f.n_inserted),
        std::string(field) + " as the parser reported it");
  }
  const auto bytes_agree = [&] {
    if (!f.to_bytes) return;
    check.step(Op::ToBytes);
    const auto want = oracle.to_bytes();
    const ByteView got = user_bytes(f, want.size());
    if (!std::equal(want.begin(), want.end(), got.begin(), got.end())) {
      check.finding("differs", "ok " + hex(got), first_difference(want, got));
    }
  };
  const auto count_agrees = [&] {
    if (!f.count_ones) return;
    check.step(Op::CountOnes);
    const std::uint64_t got = f.count_ones(f.handle);
    if (got != oracle.count_ones()) check.finding("differs", "ok " + std::to_string(got), "");
  };
  const auto contains_agrees = [&](ByteView item) {
    if (!f.contains || !probe) return;
    check.step(Op::Contains, item);
    const bool got = f.contains(f.handle, item.data(), item.size()) != 0;
    if (got != oracle.contains(item)) check.finding("differs", got ? "ok true" : "ok false", "");
  };
  const ByteView fixed(kItem, sizeof kItem);
  bytes_agree();
  count_agrees();
  for (const ByteView item : {fixed, ByteView{}, tail}) contains_agrees(item);
  if (f.union_with_self) {
    check.step(Op::UnionSelf);
    const int got = f.union_with_self(f.handle);
    // Counts that pass 2^64 - 1 may saturate, wrap or be refused
    // (docs/check.md, "What is acceptable"): from here the filter's count
    // is open, so nothing more is compared.
    if (oracle.n_inserted() > UINT64_MAX - oracle.n_inserted()) return;
    const Bloom copy = oracle;
    (void)oracle.union_with(copy);
    if (got != TLBF_FUZZ_OK) check.finding("refuses", verdict_text(got), "");
    bytes_agree();
    count_agrees();
  }
  if (f.insert && probe) {
    for (const ByteView item : {fixed, tail}) {
      check.step(Op::Insert, item);
      f.insert(f.handle, item.data(), item.size());
      oracle.insert(item);
    }
    // No false negatives: both must now answer true.
    for (const ByteView item : {fixed, tail}) contains_agrees(item);
    bytes_agree();
    count_agrees();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const ByteView input(data, size);
  Check check(input);
  check.step(Op::FromBytes);
  auto oracle = Bloom::from_bytes(input);
  tlbf_fuzz_filter f;
  std::memset(&f, 0, sizeof f);
  const int verdict = tlbf_fuzz_from_bytes(data, size, &f);
  if (verdict < TLBF_FUZZ_OK || verdict > TLBF_FUZZ_MISMATCH) {
    std::fprintf(stderr,
                 "tlbf fuzz: tlbf_fuzz_from_bytes returned %d, which is no tlbf_fuzz_verdict (tlbf/fuzz.h)\n",
                 verdict);
    std::exit(2);
  }
  if (!oracle) {
    if (verdict != TLBF_FUZZ_OK) {
      if (verdict != TLBF_FUZZ_REFUSED && verdict != TLBF_FUZZ_FORMAT) {
        check.finding("differs", verdict_text(verdict), "the kind of the refusal");
      }
      return 0;
    }
    if (only_k_too_large(input)) {
      // Acceptable: from here the filter's state is open, so nothing more is compared.
      if (f.free) f.free(f.handle);
      return 0;
    }
    check.finding("accepts", "ok", "the oracle refuses: " + oracle.error().describe());
  }
  if (verdict != TLBF_FUZZ_OK) check.finding("refuses", verdict_text(verdict), "");
  say_unchecked(f);
  // The input's last six bytes, an item the fuzzer steers (as fuzz_diff's).
  const std::size_t n = std::min<std::size_t>(size, 6);
  compare_filter(check, oracle.value(), f, input, input.subspan(size - n, n));
  if (f.free) f.free(f.handle);
  return 0;
}
