//===--- DlpackCapsuleProtocolCheck.cpp - interop-dlpack-capsule-protocol -===//

#include "DlpackCapsuleProtocolCheck.h"

#include "lib/CapsuleAPI.h"
#include "lib/DLPackCheckSupport.h"
#include "lib/DLPackNames.h"

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang::ast_matchers;
using namespace clang::interop;

namespace clang::tidy::interop {

DlpackCapsuleProtocolCheck::DlpackCapsuleProtocolCheck(
    StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      OwnershipTakingImporters(Options.getLocalOrGlobal(
          "OwnershipTakingImporters",
          llvm::join(OwnershipModelConfig().OwnershipTakingImporters, ";"))),
      ReportSkippedFunctions(Options.get("ReportSkippedFunctions", false)) {
  Config.OwnershipTakingImporters.clear();
  for (StringRef S : splitOptionList(OwnershipTakingImporters))
    Config.OwnershipTakingImporters.push_back(S.str());
}

void DlpackCapsuleProtocolCheck::storeOptions(
    ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "OwnershipTakingImporters", OwnershipTakingImporters);
  Options.store(Opts, "ReportSkippedFunctions", ReportSkippedFunctions);
}

void DlpackCapsuleProtocolCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(dlpackFunctionMatcher(), this);
  Finder->addMatcher(callExpr(callee(functionDecl(hasAnyName(
                                  "PyCapsule_New", "PyCapsule_SetDestructor",
                                  "PyCapsule_GetPointer"))),
                              unless(isExpansionInSystemHeader()))
                         .bind("capsule"),
                     this);
}

static StringRef nameFor(DLPackRecord R) {
  return R == DLPackRecord::ManagedTensorVersioned ? "dltensor_versioned"
                                                   : "dltensor";
}

void DlpackCapsuleProtocolCheck::check(const MatchFinder::MatchResult &Result) {
  Ctx = Result.Context;
  if (const auto *Call = Result.Nodes.getNodeAs<CallExpr>("capsule")) {
    CapsuleCall K = classifyCapsuleCall(Call);
    if (K == CapsuleCall::SetDestructor && Call->getNumArgs() == 2) {
      if (const FunctionDecl *D = destructorFunction(Call->getArg(1)))
        Destructors.insert(D->getCanonicalDecl());
      return;
    }
    if (K == CapsuleCall::New && Call->getNumArgs() == 3) {
      if (const FunctionDecl *D = destructorFunction(Call->getArg(2)))
        Destructors.insert(D->getCanonicalDecl());
      // The name must say which struct the capsule holds.
      DLPackRecord Held = classifyDLPackPointee(
          Call->getArg(0)->IgnoreParenImpCasts()->getType());
      CapsuleName Name = classifyCapsuleName(Call->getArg(1), *Ctx);
      std::optional<std::string> Text = constantString(Call->getArg(1), *Ctx);
      bool NamesDLPack =
          Text && (StringRef(*Text).contains_insensitive("dltensor") ||
                   StringRef(*Text).contains_insensitive("dlpack"));
      if (isManagedTensor(Held) || NamesDLPack) {
        if (Name == CapsuleName::Other || isUsedName(Name) ||
            Name == CapsuleName::Null) {
          diag(Call->getArg(1)->getBeginLoc(),
               "capsule holding a DLPack tensor created with name '%0'; "
               "consumers accept only "
               "'dltensor' or 'dltensor_versioned'")
              << (Text ? *Text : std::string("NULL"))
              << Call->getArg(1)->getSourceRange();
        } else if (isManagedTensor(Held) && isUnconsumedName(Name) &&
                   nameFor(Held) != *Text) {
          diag(Call->getArg(1)->getBeginLoc(),
               "capsule named '%0' holds a %1; a consumer will read it as "
               "the other struct")
              << *Text
              << (Held == DLPackRecord::ManagedTensorVersioned
                      ? "DLManagedTensorVersioned"
                      : "DLManagedTensor")
              << Call->getArg(1)->getSourceRange();
          diag(Call->getArg(1)->getBeginLoc(), "name it '%0'",
               DiagnosticIDs::Note)
              << nameFor(Held);
        }
      }
      return;
    }
    if (K == CapsuleCall::GetPointer && Call->getNumArgs() == 2) {
      CapsuleName Name = classifyCapsuleName(Call->getArg(1), *Ctx);
      if (Name == CapsuleName::Null || Name == CapsuleName::FromGetName) {
        diag(Call->getBeginLoc(),
             "pointer taken from the capsule without checking its name; a "
             "consumed ('used_dltensor') or foreign capsule is read as a "
             "live tensor")
            << Call->getSourceRange();
        return;
      }
      // The struct the consumer reads it as must match the name.
      if (!isUnconsumedName(Name))
        return;
      auto Parents = Ctx->getParents(*Call);
      for (int Depth = 0; Depth < 4 && !Parents.empty(); ++Depth) {
        const auto *E = Parents[0].get<Expr>();
        if (!E)
          break;
        if (const auto *Cast = dyn_cast<ExplicitCastExpr>(E)) {
          DLPackRecord As = classifyDLPackPointee(Cast->getType());
          if (isManagedTensor(As) &&
              nameFor(As) != (Name == CapsuleName::Versioned
                                  ? "dltensor_versioned"
                                  : "dltensor"))
            diag(Cast->getBeginLoc(), "capsule named '%0' read as a %1")
                << (Name == CapsuleName::Versioned ? "dltensor_versioned"
                                                   : "dltensor")
                << (As == DLPackRecord::ManagedTensorVersioned
                        ? "DLManagedTensorVersioned"
                        : "DLManagedTensor");
          break;
        }
        Parents = Ctx->getParents(*E);
      }
    }
    return;
  }
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (FD && FD->hasBody() && !FD->isDependentContext() &&
      !FD->isInvalidDecl() && mentionsOwnership(*FD))
    Functions.insert(FD);
}

void DlpackCapsuleProtocolCheck::onStartOfTranslationUnit() {
  // The ownership facts are shared with the other ownership check for one
  // translation unit; a new one starts afresh.
  Functions.clear();
  Destructors.clear();
  clearOwnershipFactsCache();
}

void DlpackCapsuleProtocolCheck::onEndOfTranslationUnit() {
  std::vector<const FunctionDecl *> Work(Functions.begin(), Functions.end());
  Functions.clear();
  for (const FunctionDecl *FD : Work) {
    bool IsDestructor = Destructors.contains(FD->getCanonicalDecl());
    // A consumer that imports the tensor but never marks the capsule used.
    if (!IsDestructor)
      for (const CapsuleConsumption &C :
           findCapsuleConsumptions(FD->getBody(), *Ctx))
        if (C.PointerPassedOn && !C.Claimed) {
          diag(C.GetPointer->getBeginLoc(),
               "capsule consumed without renaming it to its used_ name (or "
               "clearing its destructor); its destructor will delete the "
               "tensor again")
              << C.GetPointer->getSourceRange();
        }
    const OwnershipFacts &Facts =
        getOwnershipFacts(*FD, *Ctx, IsDestructor, Config);
    if (Facts.Skipped != SkipReason::None) {
      if (ReportSkippedFunctions)
        diag(FD->getLocation(),
             describeSkippedFunction(
                 *FD, DLPackFacts{Facts.Skipped, Facts.Detail, {}}));
      continue;
    }
    for (const OwnershipEvent &E : Facts.Events) {
      switch (E.K) {
      case OwnershipEvent::CapsulePointerUnchecked:
        diag(E.At->getBeginLoc(),
             "pointer from PyCapsule_GetPointer used without checking for "
             "NULL; a consumed or misnamed capsule returns NULL");
        if (E.Related)
          diag(E.Related->getBeginLoc(), "pointer taken here",
               DiagnosticIDs::Note);
        break;
      case OwnershipEvent::RenameBeforeImport:
        diag(E.Related ? E.Related->getBeginLoc() : E.At->getBeginLoc(),
             "capsule renamed to its used_ name before the import has "
             "succeeded; if the import fails, nobody deletes the tensor");
        diag(E.At->getBeginLoc(), "the import happens here",
             DiagnosticIDs::Note);
        break;
      case OwnershipEvent::NotClaimedAfterImport:
        diag(E.At->getBeginLoc(),
             "%0 takes ownership even when it fails, but the capsule is not "
             "renamed on some path after it; the capsule's destructor will "
             "delete the tensor again")
            << (isa<CallExpr>(E.At) && cast<CallExpr>(E.At)->getDirectCallee()
                    ? cast<CallExpr>(E.At)->getDirectCallee()->getName()
                    : StringRef("the importer"));
        diag(E.ExitLoc, "the function leaves here without renaming it",
             DiagnosticIDs::Note);
        break;
      case OwnershipEvent::DestructorUncheckedDelete:
        diag(E.At->getBeginLoc(),
             "capsule destructor calls the deleter without checking that the "
             "capsule is unconsumed; a consumer that renamed it owns the "
             "tensor");
        diag(E.At->getBeginLoc(),
             "check PyCapsule_IsValid(capsule, \"dltensor\") first",
             DiagnosticIDs::Note);
        break;
      case OwnershipEvent::DestructorClearsError:
        diag(E.At->getBeginLoc(),
             "capsule destructor clears the error indicator, discarding an "
             "exception that may be in flight");
        diag(E.At->getBeginLoc(),
             "save it with PyErr_Fetch (or PyErr_GetRaisedException) first "
             "and restore it before returning",
             DiagnosticIDs::Note);
        break;
      default:
        break;
      }
    }
  }
  Destructors.clear();
}

} // namespace clang::tidy::interop
