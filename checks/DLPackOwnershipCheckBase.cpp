//===--- DLPackOwnershipCheckBase.cpp - base of the ownership checks ------===//

#include "DLPackOwnershipCheckBase.h"

#include "lib/engine/JudgedFunctions.h"
#include "lib/support/NameLists.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <vector>

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

DLPackOwnershipCheckBase::DLPackOwnershipCheckBase(StringRef Name,
                                                   ClangTidyContext *Context)
    : InteropCheckBase(Name, Context),
      OwnershipTakingImporters(nameListOption(
          "OwnershipTakingImporters",
          llvm::join(OwnershipConfig().OwnershipTakingImporters, ";"),
          /*Global=*/true)) {
  Config.OwnershipTakingImporters = optionStrings(OwnershipTakingImporters);
  Config.Bounds = bounds();
  Config.Exits = exitConditionNames();
}

void DLPackOwnershipCheckBase::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OwnershipTakingImporters", OwnershipTakingImporters);
  InteropCheckBase::storeOptions(Opts);
}

OwnershipQuery &DLPackOwnershipCheckBase::query() {
  return Query ? *Query : Query.emplace(Config);
}

void DLPackOwnershipCheckBase::onStartOfTranslationUnit() {
  InteropCheckBase::onStartOfTranslationUnit();
  Functions.clear();
  Uncompiled.clear();
}

void DLPackOwnershipCheckBase::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (!FD)
    return;
  if (isJudgedFunction(*FD)) {
    if (query().use(*FD, *Ctx))
      Functions.insert(FD);
  } else if (isUncompiledDefinition(*FD)) {
    Uncompiled.push_back(FD);
  }
}

/// FD is a lambda's call operator and the function around the lambda is an
/// invalid declaration or does not compile.
static bool definedInFunctionThatDoesNotCompile(const FunctionDecl &FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(&FD);
  if (!MD || !MD->getParent()->isLambda())
    return false;
  const auto *Outer = dyn_cast<FunctionDecl>(MD->getParent()->getDeclContext());
  return Outer && (Outer->isInvalidDecl() ||
                   whyNotAnalysable(*Outer) == SkipReason::InvalidCode);
}

/// True when E (a capsule call or construction) and each of its arguments
/// compile. Its arguments, not its whole range: `return py::capsule(...)` in
/// a function whose return type does not compile is reported at the
/// capsule, which is itself fine.
static bool compilesWithArguments(const Expr &E, ArrayRef<const Expr *> Args,
                                  const ASTContext &Ctx) {
  return !E.containsErrors() && llvm::none_of(Args, [&](const Expr *Arg) {
    return statementDoesNotCompile(*Arg, Ctx);
  });
}

void DLPackOwnershipCheckBase::onEndOfTranslationUnit() {
  std::vector<const FunctionDecl *> Work(Functions.begin(), Functions.end());
  Functions.clear();
  // Every destructor is known before any function is judged.
  std::vector<CapsuleSites> Sites;
  Sites.reserve(Work.size());
  llvm::SmallPtrSet<const FunctionDecl *, 8> Destructors, RoleUnknown;
  // A destructor has a DLPack capsule's duties only when installed on one
  // (a capsule made elsewhere, for PyCapsule_SetDestructor, may be), or
  // when it reads its capsule's pointer as a managed tensor.
  auto OfDLPack = [&](const auto &Make, const FunctionDecl &D) {
    if (isa<CallExpr>(Make) &&
        classifyCapsuleCall(cast<CallExpr>(&Make)) != CapsuleCall::New)
      return true;
    if (Make.getNumArgs() >= 2 &&
        makesDLPackCapsule(Make.getArg(0), Make.getArg(1), *Ctx))
      return true;
    const FunctionDecl *Def = D.getDefinition();
    return Def && Def->getBody() &&
           llvm::any_of(findCapsuleSites(Def->getBody()).PointerCasts,
                        [](const auto &CastAndCall) {
                          return isManagedPointer(
                              CastAndCall.first->getType());
                        });
  };
  for (const FunctionDecl *FD : Work) {
    Sites.push_back(findCapsuleSites(FD->getBody()));
    for (const FunctionDecl *L : Sites.back().LambdasOfInvalidCalls)
      RoleUnknown.insert(L->getCanonicalDecl());
    for (const CallExpr *Call : Sites.back().CapsuleCalls)
      if (const FunctionDecl *D = installedDestructor(*Call);
          D && OfDLPack(*Call, *D))
        Destructors.insert(D->getCanonicalDecl());
    for (const CXXConstructExpr *E : Sites.back().CapsuleConstructs)
      if (const FunctionDecl *D = installedDestructor(*E);
          D && OfDLPack(*E, *D))
        Destructors.insert(D->getCanonicalDecl());
  }
  // A function that is not judged because it does not compile (XLA 2020's
  // exporter returns a StatusOr of a missing header) still says, in the
  // statements of it that compile, which lambda it installs as a capsule's
  // destructor: that lambda is judged as one.
  for (const FunctionDecl *FD : Uncompiled) {
    CapsuleSites S = findCapsuleSites(FD->getBody());
    for (const CallExpr *Call : S.CapsuleCalls)
      if (const FunctionDecl *D = installedDestructor(*Call);
          D && compilesWithArguments(
                   *Call, ArrayRef(Call->getArgs(), Call->getNumArgs()), *Ctx))
        Destructors.insert(D->getCanonicalDecl());
    for (const CXXConstructExpr *E : S.CapsuleConstructs)
      if (const FunctionDecl *D = installedDestructor(*E);
          D && compilesWithArguments(
                   *E, ArrayRef(E->getArgs(), E->getNumArgs()), *Ctx))
        Destructors.insert(D->getCanonicalDecl());
  }
  Uncompiled.clear();
  // Then the names capsules are read back under, and the casts of pointers.
  ReadBack.clear();
  CastOf.clear();
  for (const CapsuleSites &S : Sites) {
    for (const CallExpr *Call : S.CapsuleCalls)
      ReadBack.add(*Call, Destructors, *Ctx);
    for (auto [Cast, Call] : S.PointerCasts)
      CastOf.try_emplace(Call, Cast);
  }
  // A lambda's body is walked with its enclosing function and on its own.
  llvm::DenseSet<const Stmt *> Judged;
  for (size_t I = 0; I < Work.size(); ++I) {
    const FunctionDecl &FD = *Work[I];
    SiteFunction = &FD;
    for (const CallExpr *Call : Sites[I].CapsuleCalls)
      if (Judged.insert(Call).second)
        checkCapsuleCall(*Call, viewCapsuleCall(Call).Op, *Ctx);
    for (const CXXConstructExpr *E : Sites[I].CapsuleConstructs)
      if (Judged.insert(E).second)
        checkCapsuleConstruct(*E, *Ctx);
    for (const CallExpr *Call : Sites[I].DeleterCalls)
      if (Judged.insert(Call).second)
        checkDeleterCall(*Call, FD, *Ctx);
    for (auto [Cast, Call] : Sites[I].PointerCasts)
      if (Judged.insert(Cast).second)
        checkPointerCast(*Cast, *Call, *Ctx);
    for (const ExplicitCastExpr *Cast : Sites[I].ObjectCasts)
      if (Judged.insert(Cast).second)
        checkObjectCast(*Cast, *Ctx);
    bool IsDestructor = Destructors.contains(FD.getCanonicalDecl());
    // A lambda given to code that does not compile may be a capsule
    // destructor or not, when it has that shape: judged as neither.
    bool MayBeDestructor = !IsDestructor && hasCapsuleDestructorShape(FD);
    if (MayBeDestructor && RoleUnknown.contains(FD.getCanonicalDecl())) {
      skipped(FD, SkipReason::InvalidCode,
              "it is passed to an expression that does not compile");
      continue;
    }
    // So may a lambda of that shape in a function that does not compile
    // (whose capsule calls are not read); any other lambda is judged on its
    // own.
    if (MayBeDestructor && definedInFunctionThatDoesNotCompile(FD)) {
      skipped(FD, SkipReason::InvalidCode,
              "the function it is defined in does not compile");
      continue;
    }
    checkFunction(FD, IsDestructor, *Ctx);
    const OwnershipFacts &Facts = query().facts(
        FD, *Ctx, IsDestructor ? CapsuleDestructor : PlainFunction);
    if (!skipped(FD, Facts.Skipped, Facts.Detail))
      checkFacts(FD, Facts, *Ctx);
  }
  // After judging: the functions dropped at a bound are now known.
  InteropCheckBase::onEndOfTranslationUnit();
}

} // namespace clang::tidy::interop
