#include "tlbf/outcome.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace {

tlbf::Outcome<int> half(int n) {
  if (n % 2 != 0) return tlbf::failure(std::to_string(n) + " is odd");
  return n / 2;
}

TEST(Outcome, HoldsEitherTheValueOrTheWords) {
  const auto four = half(8);
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four.value(), 4);
  const auto odd = half(7);
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.why(), "7 is odd");
  EXPECT_EQ(odd.failure_in("half(7): ").why, "half(7): 7 is odd");
  EXPECT_THROW((void)odd.value(), std::bad_variant_access);
}

TEST(Outcome, CarriesMoveOnlyValuesAndNothing) {
  tlbf::Outcome<std::unique_ptr<int>> owned = std::make_unique<int>(3);
  ASSERT_TRUE(owned.ok());
  std::unique_ptr<int> taken = std::move(owned).value();
  EXPECT_EQ(*taken, 3);
  EXPECT_TRUE(tlbf::done().ok());
  const tlbf::Outcome<tlbf::Done> refused = tlbf::failure("no");
  EXPECT_EQ(refused.why(), "no");
}

}  // namespace
