//===--- ast_search.h - finding nodes in a parsed snippet -------*- C++ -*-===//
//
// The unit tests of lib/'s small recognisers parse a few lines and ask about
// one expression or declaration in them.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_TEST_LIB_AST_SEARCH_H
#define INTEROP_TEST_LIB_AST_SEARCH_H

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Casting.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace interop_test {

/// The first node of type NodeT under S (pre-order) for which Pred holds.
template <typename NodeT>
const NodeT *firstNode(
    const clang::Stmt *S, const std::function<bool(const NodeT &)> &Pred =
                              [](const NodeT &) { return true; }) {
  if (!S)
    return nullptr;
  if (const auto *N = llvm::dyn_cast<NodeT>(S))
    if (Pred(*N))
      return N;
  for (const clang::Stmt *Child : S->children())
    if (const NodeT *N = firstNode<NodeT>(Child, Pred))
      return N;
  return nullptr;
}

/// The first call of a function named Name under S.
inline const clang::CallExpr *callNamed(const clang::Stmt *S,
                                        llvm::StringRef Name) {
  return firstNode<clang::CallExpr>(S, [&](const clang::CallExpr &CE) {
    const clang::FunctionDecl *FD = CE.getDirectCallee();
    return FD && FD->getIdentifier() && FD->getName() == Name;
  });
}

/// Code parsed as C++17 with the tests' mock headers.
inline std::unique_ptr<clang::ASTUnit>
parseWithInputs(llvm::StringRef Code, std::vector<std::string> Extra = {}) {
  std::vector<std::string> Args = {"-std=c++17", "-I" INTEROP_TEST_INPUTS,
                                   "-I" INTEROP_TEST_INPUTS "/dlpack/v1"};
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  return clang::tooling::buildASTFromCodeWithArgs(Code, Args, "snippet.cpp");
}

} // namespace interop_test

#endif // INTEROP_TEST_LIB_AST_SEARCH_H
