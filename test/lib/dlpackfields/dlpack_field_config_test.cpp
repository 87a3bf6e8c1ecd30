// Unit tests of DLPackFieldConfig::key()
// (lib/dlpackfields/DLPackFieldConfig.h): the cache key of the field facts
// differs for every option that changes them, and only for those.

#include "lib/dlpackfields/DLPackFieldConfig.h"

#include "gtest/gtest.h"

#include <functional>
#include <string>
#include <vector>

using namespace clang::interop;

namespace {

TEST(DLPackFieldConfig, SameOptionsSameKey) {
  DLPackFieldConfig A, B;
  EXPECT_EQ(A.key(), B.key());
  A.ImportFunctions = {"::mylib::consume$"};
  B.ImportFunctions = {"::mylib::consume$"};
  EXPECT_EQ(A.key(), B.key());
}

TEST(DLPackFieldConfig, EveryOptionChangesTheKey) {
  const std::string Default = DLPackFieldConfig().key();
  std::vector<std::pair<const char *, std::function<void(DLPackFieldConfig &)>>>
      Changes = {
          {"DebugOnlyAssertMacros",
           [](DLPackFieldConfig &C) { C.DebugOnlyAssertMacros.pop_back(); }},
          {"HostDeviceGuards",
           [](DLPackFieldConfig &C) { C.HostDeviceGuards = {"onHost"}; }},
          {"ImportFunctions",
           [](DLPackFieldConfig &C) {
             C.ImportFunctions.push_back("::mylib::consume$");
           }},
          {"Bounds.MaxBlockVisits",
           [](DLPackFieldConfig &C) { C.Bounds.MaxBlockVisits = 10; }},
          {"Bounds.MaxSummaryStatements",
           [](DLPackFieldConfig &C) { C.Bounds.MaxSummaryStatements = 1; }},
          {"SyntacticProofs",
           [](DLPackFieldConfig &C) { C.SyntacticProofs = false; }},
      };
  std::vector<std::string> Keys;
  for (auto &[Name, Change] : Changes) {
    DLPackFieldConfig C;
    Change(C);
    EXPECT_NE(C.key(), Default) << Name;
    for (const std::string &K : Keys)
      EXPECT_NE(C.key(), K) << Name;
    Keys.push_back(C.key());
  }
}

TEST(DLPackFieldConfig, ListsKeepTheirPlace) {
  // The same name in another list is another configuration.
  DLPackFieldConfig A, B;
  A.HostDeviceGuards = {};
  A.ImportFunctions = {"x"};
  B.HostDeviceGuards = {"x"};
  B.ImportFunctions = {};
  EXPECT_NE(A.key(), B.key());
  // Where one element ends and the next begins counts.
  DLPackFieldConfig C, D;
  C.HostDeviceGuards = {"a", "b"};
  D.HostDeviceGuards = {"ab"};
  EXPECT_NE(C.key(), D.key());
}

} // namespace
