//===--- array_device_snippets.h - array/device snippets --------*- C++ -*-===//
//
// The array/device tests parse snippets against the runtime's mock API
// (interop/interop.h) and ask for one function's facts.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_ARRAYDEVICE_ARRAY_DEVICE_SNIPPETS_H
#define INTEROP_TEST_LIB_ARRAYDEVICE_ARRAY_DEVICE_SNIPPETS_H

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <memory>

namespace interop_test {

/// Code parsed with the mock API, after forgetting every fact (a fresh
/// ASTContext may reuse the address of the previous snippet's).
inline std::unique_ptr<clang::ASTUnit> parseInteropCode(llvm::StringRef Code) {
  clang::interop::resetFactCache();
  return clang::tooling::buildASTFromCodeWithArgs(
      Code, {"-std=c++17", "-I" INTEROP_TEST_INPUTS}, "snippet.cpp");
}

/// The facts of the one definition named Name.
inline const clang::interop::ArrayDeviceFacts &
analyzeOnly(std::unique_ptr<clang::ASTUnit> &AST,
            clang::interop::ArrayDeviceQuery &Facts, llvm::StringRef Name) {
  using namespace clang::ast_matchers;
  clang::ASTContext &Ctx = AST->getASTContext();
  auto Found =
      match(functionDecl(hasName(Name), isDefinition()).bind("fn"), Ctx);
  EXPECT_EQ(Found.size(), 1u);
  return Facts.facts(*Found[0].getNodeAs<clang::FunctionDecl>("fn"), Ctx);
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_ARRAYDEVICE_ARRAY_DEVICE_SNIPPETS_H
