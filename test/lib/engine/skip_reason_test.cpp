// Unit tests of lib/engine/SkipReason.h: every reason has its own wording,
// a detail is appended in parentheses, and only real give-ups count as
// such.

#include "lib/engine/SkipReason.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace clang::interop;

namespace {

const SkipReason All[] = {SkipReason::None,          SkipReason::NoBody,
                          SkipReason::Dependent,     SkipReason::InvalidCode,
                          SkipReason::TooLarge,      SkipReason::BuildFailed,
                          SkipReason::BoundExceeded, SkipReason::Unsupported};

TEST(SkipReason, OneLowercaseWordingPerReason) {
  std::set<std::string> Seen;
  for (SkipReason R : All) {
    std::string S = describeSkip(R);
    ASSERT_FALSE(S.empty());
    // Diagnostics style: lowercase, no trailing period.
    EXPECT_TRUE(S[0] >= 'a' && S[0] <= 'z') << S;
    EXPECT_NE(S.back(), '.') << S;
    EXPECT_NE(S, "unknown");
    EXPECT_TRUE(Seen.insert(S).second) << "worded twice: " << S;
  }
  EXPECT_STREQ(describeSkip(SkipReason::TooLarge),
               "it is larger than the analysis bound");
  EXPECT_STREQ(describeSkip(SkipReason::None), "analysed");
}

TEST(SkipReason, DetailInParentheses) {
  EXPECT_EQ(describeSkip(SkipReason::BoundExceeded, "2000 block visits"),
            "the analysis exceeded its iteration bound (2000 block visits)");
  EXPECT_EQ(describeSkip(SkipReason::BoundExceeded, ""),
            describeSkip(SkipReason::BoundExceeded));
}

TEST(SkipReason, OnlyRealGiveUps) {
  EXPECT_FALSE(isGiveUp(SkipReason::None));
  EXPECT_FALSE(isGiveUp(SkipReason::NoBody));
  EXPECT_FALSE(isGiveUp(SkipReason::Dependent));
  EXPECT_TRUE(isGiveUp(SkipReason::InvalidCode));
  EXPECT_TRUE(isGiveUp(SkipReason::TooLarge));
  EXPECT_TRUE(isGiveUp(SkipReason::BuildFailed));
  EXPECT_TRUE(isGiveUp(SkipReason::BoundExceeded));
  EXPECT_TRUE(isGiveUp(SkipReason::Unsupported));
}

} // namespace
