// Helpers shared by the oracle's tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "tlbf/error.hpp"

namespace tlbf::test {

// The value of a Result that the test expects to be ok; fails the test with
// the error's description otherwise.
template <typename T>
T unwrap(Result<T> result) {
  if (!result.ok()) {
    ADD_FAILURE() << "unexpected error: " << result.error().describe();
    throw std::runtime_error(result.error().describe());
  }
  return std::move(result).value();
}

// Expects an error of the given kind whose message mentions `fragment`, so
// that each refusal is known to name what it refused.
template <typename T>
void expect_error(const Result<T>& result, ErrorKind kind, std::string_view fragment) {
  ASSERT_FALSE(result.ok()) << "expected " << to_string(kind) << " mentioning '" << fragment << "'";
  EXPECT_EQ(result.error().kind, kind) << result.error().describe();
  EXPECT_NE(result.error().message.find(fragment), std::string::npos)
      << "message '" << result.error().message << "' does not mention '" << fragment << "'";
}

inline std::vector<std::uint8_t> bytes(std::string_view text) { return {text.begin(), text.end()}; }

// `count` distinct items: the tag and a serial number (so that items of two
// calls with different tags never collide), then 0 to 23 random bytes.
inline std::vector<std::string> random_items(std::mt19937_64& rng, std::size_t count, std::string_view tag) {
  std::vector<std::string> items;
  items.reserve(count);
  std::uniform_int_distribution<int> length(0, 23);
  std::uniform_int_distribution<int> byte(0, 255);
  for (std::size_t i = 0; i < count; ++i) {
    std::string item(tag);
    item += ':' + std::to_string(i) + ':';
    for (int j = length(rng); j > 0; --j) item += static_cast<char>(byte(rng));
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace tlbf::test
