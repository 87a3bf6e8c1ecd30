//===--- DLPackOwnershipCheckBase.h - ownership checks' base ----*- C++ -*-===//
//
// interop-dlpack-capsule-protocol, -deleter-ownership and -null-deleter read
// the same ownership facts (lib/ownership/OwnershipFacts.h), and a
// function's role depends on the whole translation unit: it is a capsule
// destructor if any PyCapsule_New or PyCapsule_SetDestructor installs it,
// possibly after its definition. This base collects the functions the
// pre-filter keeps; at the end of the translation unit it finds their
// capsule calls (so every destructor is known first), hands the calls and
// casts the checks judge one by one to the check, then each function's
// facts (computed once for both checks). Only function definitions are
// matched: the calls are found by one walk of the bodies the pre-filter
// kept, which costs less than a matcher per call kind over the whole
// translation unit.
//
//===----------------------------------------------------------------------===//

#ifndef INTEROP_CHECKS_DLPACKOWNERSHIPCHECKBASE_H
#define INTEROP_CHECKS_DLPACKOWNERSHIPCHECKBASE_H

#include "InteropCheckBase.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/ownership/OwnershipFacts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <vector>

namespace clang::tidy::interop {

class DLPackOwnershipCheckBase : public InteropCheckBase {
public:
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) final;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() final;

protected:
  DLPackOwnershipCheckBase(StringRef Name, ClangTidyContext *Context);

  /// One PyCapsule_New, _SetDestructor, _GetPointer or _IsValid call, once
  /// every capsule destructor of the translation unit is known.
  virtual void checkCapsuleCall(const CallExpr &Call,
                                clang::interop::CapsuleCall Kind,
                                ASTContext &Ctx) {}
  /// A pybind11 capsule made with a destructor (`py::capsule(ptr, name,
  /// dtor)`), once every capsule destructor of the translation unit is known.
  virtual void checkCapsuleConstruct(const CXXConstructExpr &E,
                                     ASTContext &Ctx) {}
  /// A call through a field named `deleter`, in FD's body.
  virtual void checkDeleterCall(const CallExpr &Call, const FunctionDecl &FD,
                                ASTContext &Ctx) {}
  /// An explicit cast of a PyCapsule_GetPointer call.
  virtual void checkPointerCast(const ExplicitCastExpr &Cast,
                                const CallExpr &GetPointer, ASTContext &Ctx) {}
  /// An explicit cast of a capsule object itself to a managed tensor.
  virtual void checkObjectCast(const ExplicitCastExpr &Cast, ASTContext &Ctx) {}
  /// Every collected function at the end of the translation unit, before
  /// its facts: for findings that need no flow analysis.
  virtual void checkFunction(const FunctionDecl &FD, bool IsCapsuleDestructor,
                             ASTContext &Ctx) {}
  /// Reports what the facts of an analysed function show.
  virtual void checkFacts(const FunctionDecl &FD,
                          const clang::interop::OwnershipFacts &Facts,
                          ASTContext &Ctx) = 0;

  /// The names the translation unit reads its capsules back under outside
  /// their destructors (complete when checkCapsuleCall runs).
  const clang::interop::ReadBackCapsuleNames &readBackNames() const {
    return ReadBack;
  }
  /// The function whose capsule calls and constructions are being judged
  /// (set around checkCapsuleCall and checkCapsuleConstruct).
  const FunctionDecl *siteFunction() const { return SiteFunction; }
  /// The explicit cast a PyCapsule_GetPointer call's result is read
  /// through, or null.
  const ExplicitCastExpr *pointerCastOf(const CallExpr &GetPointer) const {
    return CastOf.lookup(&GetPointer);
  }

  /// The model's configuration; a check's options adjust it in its
  /// constructor. Checks with equal configurations share one analysis.
  clang::interop::OwnershipConfig Config;

private:
  const FunctionDecl *SiteFunction = nullptr;
  clang::interop::OwnershipQuery &query();

  const std::string OwnershipTakingImporters;
  /// Made from Config on first use (Config is final then).
  std::optional<clang::interop::OwnershipQuery> Query;
  llvm::SetVector<const FunctionDecl *> Functions;
  /// Definitions not judged because they do not compile
  /// (isUncompiledDefinition): read only for the destructors they install.
  std::vector<const FunctionDecl *> Uncompiled;
  clang::interop::ReadBackCapsuleNames ReadBack;
  llvm::DenseMap<const CallExpr *, const ExplicitCastExpr *> CastOf;
  ASTContext *Ctx = nullptr;
};

} // namespace clang::tidy::interop

#endif // INTEROP_CHECKS_DLPACKOWNERSHIPCHECKBASE_H
