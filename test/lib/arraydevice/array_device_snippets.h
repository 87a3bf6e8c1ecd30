//===--- array_device_snippets.h - array/device snippets --------*- C++ -*-===//
//
// The array/device tests parse snippets against the runtime's mock API
// (interop/interop.h) and ask for one function's facts, or for what the flow
// analysis alone proves at its sinks.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_ARRAYDEVICE_ARRAY_DEVICE_SNIPPETS_H
#define INTEROP_TEST_LIB_ARRAYDEVICE_ARRAY_DEVICE_SNIPPETS_H

#include "lib/arraydevice/ArrayDeviceFacts.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>
#include <string>
#include <vector>

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

/// What the flow analysis alone (no syntactic proof) proves at each sink
/// call of the one definition named Name, in source order, as Describe
/// writes it; {"skipped"} when the function was not analysed.
inline std::vector<std::string> flowAtSinks(
    std::unique_ptr<clang::ASTUnit> &AST, llvm::StringRef Name,
    llvm::function_ref<std::string(const clang::interop::SinkFact &)> Describe,
    const clang::interop::ApiModelOptions &Options = {}) {
  using namespace clang::interop;
  ArrayDeviceQuery Flow(
      {Options, FlowBounds(), AllFacts, /*SyntacticProofs=*/false});
  const ArrayDeviceFacts &F = analyzeOnly(AST, Flow, Name);
  if (F.Skipped != SkipReason::None)
    return {"skipped"};
  std::vector<const SinkFact *> Sinks;
  for (const SinkFact &S : F.Events)
    Sinks.push_back(&S);
  llvm::sort(Sinks, [](const SinkFact *A, const SinkFact *B) {
    return A->Call->getBeginLoc() < B->Call->getBeginLoc();
  });
  std::vector<std::string> Out;
  for (const SinkFact *S : Sinks)
    Out.push_back(Describe(*S));
  return Out;
}

/// The name of an origin kind, for expectations.
inline const char *originName(clang::interop::Origin::Kind K) {
  switch (K) {
  case clang::interop::Origin::None:
    return "none";
  case clang::interop::Origin::Parameter:
    return "parameter";
  case clang::interop::Origin::Producer:
    return "producer";
  case clang::interop::Origin::GlobalDevices:
    return "global";
  }
  return "?";
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_ARRAYDEVICE_ARRAY_DEVICE_SNIPPETS_H
