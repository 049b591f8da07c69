// The Session's writer: a request with a fill (Request::fill) reaches the
// implementation as one line, its start, the fill and its "\n", in order
// with the requests around it, whether they are pipelined or not.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tlbf/conformance/session.hpp"

namespace tlbf::conformance {
namespace {

using namespace std::chrono_literals;

// FNV-1a 64 (docs/format.md) of `count` copies of `byte` after `head`,
// written here from the definition, as the oracle answers fnv1a64.
std::string fnv_answer(const std::string& head, std::size_t count, std::uint8_t byte) {
  std::uint64_t h = 0xcbf29ce484222325;
  for (const char c : head) h = (h ^ static_cast<std::uint8_t>(c)) * 0x100000001b3;
  for (std::size_t i = 0; i < count; ++i) h = (h ^ byte) * 0x100000001b3;
  char out[20];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return "ok " + std::string(out);
}

Request with_fill(std::string_view start, std::size_t count, char byte) {
  return {start, Request::kDefaultAnswerLimit, {}, Fill{count, byte}};
}

TEST(Session, AFillIsWrittenAsTheRestOfItsLine) {
  EXPECT_EQ(fnv_answer("a", 0, 0), "ok af63dc4c8601ec8c");  // FNV-1a 64 of "a", a published value
  Budget budget;  // ample: this test is about what is written, not how fast
  budget.first_answer = 600s;
  budget.floor = 600s;
  budget.total = 1800s;
  auto session = start_session(TLBF_ORACLE_IMPL, budget);
  // Fills of 5 MB (five write chunks and more), after a start of 3 MiB (a
  // long line of its own), and of one byte pair.
  const std::string long_start = "fnv1a64 " + std::string(std::size_t{3} << 20, '0');
  const std::vector<Request> requests = {
      {"fnv1a64 61"},
      with_fill("fnv1a64 ", 10'000'000, 'a'),
      {"fnv1a64 62"},
      with_fill(long_start, 2'000, 'b'),
      with_fill("fnv1a64 ", 2, 'c'),
      {"fnv1a64 -"},
  };
  const std::vector<std::string> expected = {
      fnv_answer("a", 0, 0),   fnv_answer("", 5'000'000, 0xaa),
      fnv_answer("b", 0, 0),   fnv_answer(std::string((std::size_t{3} << 20) / 2, '\0'), 1'000, 0xbb),
      fnv_answer("", 1, 0xcc), "ok cbf29ce484222325",
  };
  for (const Pace pace : {Pace::Pipelined, Pace::OneAtATime}) {
    const Answers a = session->exchange(requests, pace);
    EXPECT_FALSE(a.fault) << a.fault->detail;
    EXPECT_EQ(a.lines, expected);
  }
  EXPECT_FALSE(session->finish());
}

}  // namespace
}  // namespace tlbf::conformance
