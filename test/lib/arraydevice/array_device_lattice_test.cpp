// Unit tests of lib/arraydevice/ArrayDeviceLattice.h: provenance joins as a
// may-fact (the strongest origin, then the earliest site), accessors only
// where both sides agree.

#include "lib/arraydevice/ArrayDeviceLattice.h"

#include "ast_search.h"
#include "snippet_annotations.h"

#include "gtest/gtest.h"

using namespace clang;
using namespace clang::interop;
using namespace clang::dataflow;
using namespace interop_test;

namespace {

/// A distinct fake location; the lattice only compares their addresses.
const StorageLocation *loc(uintptr_t N) {
  return reinterpret_cast<const StorageLocation *>(N * 16);
}

TEST(ArrayDeviceLattice, OriginsAndAccessors) {
  auto AST = parseWithInputs("int a(); int b(); int f() { return a() + b(); }");
  ASSERT_TRUE(AST);
  const Stmt *Body = functionNamed(AST->getASTContext(), "f")->getBody();
  const Expr *Early = callNamed(Body, "a"), *Late = callNamed(Body, "b");
  Origin Param{Origin::Parameter, Late}, Produced{Origin::Producer, Late},
      ProducedEarly{Origin::Producer, Early},
      Global{Origin::GlobalDevices, Late};
  EXPECT_EQ(strongerOrigin(Param, Produced), Produced);
  EXPECT_EQ(strongerOrigin(Global, ProducedEarly), Global);
  EXPECT_EQ(strongerOrigin(Produced, ProducedEarly), ProducedEarly);

  ArrayDeviceLattice L, R;
  L.Origins[loc(1)] = Param;
  R.Origins[loc(1)] = Global;
  R.Origins[loc(2)] = Produced;
  auto *Elem = const_cast<StorageLocation *>(loc(9));
  L.Accessors[{loc(3), nullptr, nullptr}] = Elem;
  R.Accessors[{loc(3), nullptr, nullptr}] = Elem;
  L.Accessors[{loc(4), nullptr, nullptr}] = Elem;
  EXPECT_EQ(L.join(R), LatticeEffect::Changed);
  EXPECT_EQ(L.Origins[loc(1)], Global);
  EXPECT_EQ(L.Origins[loc(2)], Produced);
  // Only the accessor both sides cached survives.
  EXPECT_EQ(L.Accessors.size(), 1u);
  EXPECT_EQ(L.join(R), LatticeEffect::Unchanged);
  L.forgetAccessors(*loc(3));
  EXPECT_TRUE(L.Accessors.empty());
}

} // namespace
