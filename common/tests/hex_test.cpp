#include "tlbf/hex.hpp"

#include <gtest/gtest.h>

namespace tlbf {
namespace {

using Bytes = std::vector<std::uint8_t>;

TEST(Hex, EncodesLowercaseTwoDigitsPerByte) {
  EXPECT_EQ(to_hex(Bytes{}), "");
  EXPECT_EQ(to_hex(Bytes{0x00, 0x0f, 0xa0, 0xff}), "000fa0ff");
}

TEST(Hex, DecodesBothCases) {
  EXPECT_EQ(from_hex("000fA0Ff"), (Bytes{0x00, 0x0f, 0xa0, 0xff}));
  EXPECT_EQ(from_hex(""), Bytes{});
}

TEST(Hex, RefusesOddLengthAndNonDigits) {
  EXPECT_FALSE(from_hex("abc").has_value());
  EXPECT_FALSE(from_hex("0g").has_value());
  EXPECT_FALSE(from_hex("0 ").has_value());
  EXPECT_FALSE(from_hex("-").has_value());
}

// is_hex says what from_hex accepts: every character value, in either place
// of a digit pair, and odd lengths.
TEST(Hex, IsHexAgreesWithFromHex) {
  for (int c = 0; c < 256; ++c) {
    for (const std::string& text :
         {std::string{static_cast<char>(c), '0'}, std::string{'0', static_cast<char>(c)},
          std::string{static_cast<char>(c)}, std::string("00aB") + static_cast<char>(c) + "f"}) {
      EXPECT_EQ(is_hex(text), from_hex(text).has_value()) << "character " << c;
    }
  }
  EXPECT_TRUE(is_hex(""));
  EXPECT_TRUE(is_hex("09afAF"));
  EXPECT_FALSE(is_hex("0"));
  EXPECT_FALSE(is_hex("-"));
}

TEST(Hex, RoundTripsEveryByteValue) {
  Bytes all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<std::uint8_t>(b));
  const std::string text = to_hex(all);
  ASSERT_EQ(text.size(), 512U);
  EXPECT_EQ(text.substr(0, 6), "000102");
  EXPECT_EQ(text.substr(506), "fdfeff");
  EXPECT_EQ(from_hex(text), all);
}

}  // namespace
}  // namespace tlbf
