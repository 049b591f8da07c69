// The protocol's value syntax (docs/protocol.md, section 2).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tlbf/protocol/values.hpp"

namespace tlbf::protocol {
namespace {

TEST(Values, IntegersAreDigitsWithinTheirType) {
  EXPECT_EQ(read_u64("0"), 0U);
  EXPECT_EQ(read_u64("0020"), 20U);
  EXPECT_EQ(read_u64("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  for (const char* bad : {"", "-1", "+1", "1_0", " 1", "1 ", "18446744073709551616", "0x14", "1e3"}) {
    EXPECT_FALSE(read_u64(bad).has_value()) << bad;
  }
  EXPECT_EQ(read_u32("4294967295"), 4294967295U);
  EXPECT_FALSE(read_u32("4294967296").has_value());
}

TEST(Values, HashesAreSixteenLowercaseHexDigits) {
  EXPECT_EQ(read_hash("f5e307190ce4a327"), 0xf5e307190ce4a327ULL);
  EXPECT_EQ(write_hash(0), "0000000000000000");
  EXPECT_EQ(write_hash(0xf5e307190ce4a327ULL), "f5e307190ce4a327");
  for (const char* bad : {"F5E307190CE4A327", "f5e307190ce4a32", "0f5e307190ce4a327", "g5e307190ce4a327"}) {
    EXPECT_FALSE(read_hash(bad).has_value()) << bad;
  }
}

TEST(Values, BytesAreHexOrADash) {
  EXPECT_EQ(read_bytes("-"), std::vector<std::uint8_t>{});
  EXPECT_EQ(read_bytes("0aFf"), (std::vector<std::uint8_t>{0x0a, 0xff}));
  for (const char* bad : {"", "0", "0g", "--", "- "}) EXPECT_FALSE(read_bytes(bad).has_value()) << bad;
  EXPECT_EQ(write_bytes(std::vector<std::uint8_t>{}), "-");
  EXPECT_EQ(write_bytes(std::vector<std::uint8_t>{0x0a, 0xff}), "0aff");
}

TEST(Values, RealsFollowTheGrammarAndRoundCorrectly) {
  EXPECT_EQ(read_real("0.1"), 0.1);
  EXPECT_EQ(read_real("1e-06"), 1e-06);
  EXPECT_EQ(read_real("1E-6"), 1e-06);
  EXPECT_EQ(read_real(".5"), 0.5);
  EXPECT_EQ(read_real("1."), 1.0);
  EXPECT_EQ(read_real("-2.5e+3"), -2500.0);
  EXPECT_EQ(read_real("5e-324"), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(read_real("1e400"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(read_real("1e-400"), 0.0);
  // 0.1 + one part in 10^17: still the double nearest 0.1 (correct rounding).
  EXPECT_EQ(read_real("0.10000000000000001"), 0.1);
  EXPECT_TRUE(std::isnan(*read_real("nan")));
  EXPECT_EQ(read_real("inf"), std::numeric_limits<double>::infinity());
  EXPECT_EQ(read_real("-inf"), -std::numeric_limits<double>::infinity());
  for (const char* bad :
       {"", ".", "-", "1e", "e5", "+0.1", "0x1p-3", "1_0", "NaN", "infinity", "0.1.2", " 1"}) {
    EXPECT_FALSE(read_real(bad).has_value()) << bad;
  }
}

TEST(Values, RealsAreWrittenShortest) {
  EXPECT_EQ(write_real(0.1), "0.1");
  EXPECT_EQ(write_real(1e-06), "1e-06");
  EXPECT_EQ(write_real(std::nan("")), "nan");
  EXPECT_EQ(write_real(-std::numeric_limits<double>::infinity()), "-inf");
  for (double x : {0.017410586496326586, 5e-324, 1.7976931348623157e308, 123456789.125}) {
    EXPECT_EQ(read_real(write_real(x)), x);
  }
}

TEST(Values, IsBytesSaysWhatReadBytesAccepts) {
  for (const char* word : {"-", "", "--", "0", "00", "aB", "0g", "-0", "0-", "ff00", "FF 00"}) {
    EXPECT_EQ(is_bytes(word), read_bytes(word).has_value()) << "'" << word << "'";
  }
}

TEST(Values, Names) {
  EXPECT_TRUE(is_name("f"));
  EXPECT_TRUE(is_name("Abc_123_xyz_0123456789_ABCDEFGHI"));    // 32
  EXPECT_FALSE(is_name("abcdefghijklmnopqrstuvwxyz0123456"));  // 33
  for (const char* bad : {"", "a-b", "a.b", "a b", "\xc3\xa9"}) EXPECT_FALSE(is_name(bad)) << bad;
}

// Every byte value at every place of lines from 1 to 40 bytes long, so that
// each of the eight lanes of a word and the bytes after the last whole word
// are all tried, against the definition byte by byte.
TEST(Values, PrintableMeansEveryByteFrom0x20To0x7e) {
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (int value = 0; value < 256; ++value) {
        std::string line(length, 'a');
        line[at] = static_cast<char>(value);
        const bool expected = value >= 0x20 && value <= 0x7e;
        ASSERT_EQ(all_printable(line), expected) << "length " << length << ", byte " << value << " at " << at;
      }
    }
  }
  // Neighbours of the bounds, side by side in one word: borrows from one
  // byte must not hide or invent another's.
  EXPECT_TRUE(all_printable("\x20\x7e\x20\x7e\x20\x7e\x20\x7e"));
  EXPECT_FALSE(all_printable("\x20\x20\x20\x20\x20\x20\x20\x1f"));
  EXPECT_FALSE(all_printable("\x7f\x20\x20\x20\x20\x20\x20\x20"));
  EXPECT_FALSE(all_printable("\x21\x21\x21\x21\x21\x21\x7f\x80"));
  EXPECT_TRUE(all_printable(""));
}

TEST(Values, FramingSplitsOnSingleSpaces) {
  using Words = std::vector<std::string_view>;
  EXPECT_EQ(split_words("insert f 00"), (Words{"insert", "f", "00"}));
  EXPECT_EQ(split_words("hello"), (Words{"hello"}));
  for (const char* bad : {"", " ", "a  b", " a", "a ", "a\tb", "a\x7f"}) {
    EXPECT_FALSE(split_words(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace tlbf::protocol
