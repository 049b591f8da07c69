#include "tlbf/strict_json.hpp"

#include <gtest/gtest.h>

#include <string>

namespace tlbf {
namespace {

constexpr JsonFormat kThree{3, "test file"};

TEST(StrictJson, ReadsWhatIsWithinItsFormat) {
  const auto doc = parse_json_strictly(R"({"a": [1, {"b": 2}], "c": "d"})", "f.json", kThree);
  ASSERT_TRUE(doc.ok()) << doc.why();
  EXPECT_EQ(doc.value()["a"][1]["b"], 2);
  EXPECT_EQ(doc.value().begin().key(), "a");  // in the file's order
  EXPECT_TRUE(parse_json_strictly("1", "f.json", kThree).ok());
}

TEST(StrictJson, RefusesNestingDeeperThanItsFormatAndSaysWhere) {
  const auto doc = parse_json_strictly(R"({"a": [1, {"b": [[]]}]})", "f.json", kThree);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.why(), "f.json: nested deeper than 3 levels at /a/1/b, deeper than any test file can be");
}

// A million arrays deep: refused at the fourth, at once, with no tree a
// million levels deep to destroy and nothing that recurses over one.
TEST(StrictJson, RefusesAMillionArraysDeepWithoutCrashing) {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  const auto doc = parse_json_strictly(deep, "deep.json", kThree);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.why(), "deep.json: nested deeper than 3 levels at /0/0/0, deeper than any test file can be");
  const std::string objects = [] {
    std::string text;
    for (int i = 0; i < 1000000; ++i) text += "{\"a\":";
    return text + "1" + std::string(1000000, '}');
  }();
  EXPECT_FALSE(parse_json_strictly(objects, "deep.json", kThree).ok());
}

TEST(StrictJson, RefusesAKeyTwiceInOneObjectAndSaysWhich) {
  const auto top =
      parse_json_strictly(R"({"numberOfTests": 274, "x": 1, "numberOfTests": 272})", "v.json", kThree);
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.why(),
            "v.json: the key \"numberOfTests\" appears twice in the object at / (readers differ on which one "
            "counts, so the file has no one meaning)");
  const auto inner =
      parse_json_strictly(R"({"a": [{"k": 1}, {"k": 1, "k/~": 2, "k/~": 3}]})", "v.json", kThree);
  ASSERT_FALSE(inner.ok());
  EXPECT_NE(inner.why().find("the key \"k/~\" appears twice in the object at /a/1 "), std::string::npos)
      << inner.why();
  // The same key in two objects is no duplicate.
  EXPECT_TRUE(parse_json_strictly(R"([{"k": 1}, {"k": 2}])", "v.json", kThree).ok());
}

TEST(StrictJson, SaysWhyTextIsNotJson) {
  const auto doc = parse_json_strictly("{\"a\": tru}", "f.json", kThree);
  ASSERT_FALSE(doc.ok());
  EXPECT_EQ(doc.why().rfind("f.json: not JSON: parse error at line 1, column ", 0), 0U) << doc.why();
  EXPECT_EQ(doc.why().find("json.exception"), std::string::npos) << doc.why();
  EXPECT_FALSE(parse_json_strictly("", "f.json", kThree).ok());
  EXPECT_FALSE(parse_json_strictly("{} {}", "f.json", kThree).ok());
}

}  // namespace
}  // namespace tlbf
