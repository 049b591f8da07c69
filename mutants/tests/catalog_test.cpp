// The catalog describes the switches the oracle's source really has.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>

#include "tlbf/mutants/catalog.hpp"

namespace tlbf::mutants {
namespace {

std::string source(const std::string& file) {
  std::ifstream in(std::string(TLBF_SOURCE_DIR) + "/" + file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// tlbf refuses to start without it (cli/src/main.cpp).
TEST(Catalog, TheEmbeddedCatalogReads) {
  ASSERT_TRUE(read_catalog().ok()) << read_catalog().why();
  EXPECT_EQ(&catalog(), &read_catalog().value());
}

// The specification's pitfall table has ten rows, s01 .. s10: an independent
// count of what mutants/catalog.json must hold.
TEST(Catalog, HasExactlyTheTenPlantedBugs) {
  std::set<std::string> ids;
  for (const auto& m : catalog()) ids.insert(m.id);
  EXPECT_EQ(ids,
            (std::set<std::string>{"s01", "s02", "s03", "s04", "s05", "s06", "s07", "s08", "s09", "s10"}));
}

TEST(Catalog, EverySwitchIsInItsFile) {
  for (const auto& m : catalog()) {
    const std::string text = source(m.file);
    ASSERT_FALSE(text.empty()) << m.file;
    EXPECT_NE(text.find(m.switch_text), std::string::npos)
        << m.id << ": '" << m.switch_text << "' not in " << m.file;
    // As many switches as the catalog says, in the whole oracle.
    int places = 0;
    std::set<std::string> files;
    for (const auto& other : catalog()) files.insert(other.file);
    for (const auto& f : files) {
      const std::string all = source(f);
      for (std::size_t at = 0; (at = all.find("TLBF_MUTANT(" + m.id + ")", at)) != std::string::npos; ++at)
        ++places;
    }
    EXPECT_EQ(places, m.places) << m.id;
  }
}

TEST(Catalog, DiffsAreUnified) {
  const std::string diff = unified_diff(*find("s01"));
  EXPECT_EQ(diff,
            "--- a/oracle/src/sizing.cpp\n+++ b/oracle/src/sizing.cpp\n"
            "@@ -1,1 +1,1 @@ optimal_m: s01 Flooring m instead of taking the ceiling\n"
            "-  return saturating_cast<std::uint64_t>(std::ceil(ideal));\n"
            "+  return saturating_cast<std::uint64_t>(std::floor(ideal));\n");
  EXPECT_EQ(find("s99"), nullptr);
}

}  // namespace
}  // namespace tlbf::mutants
