//===--- CapsuleNames.cpp - what a capsule's name says --------------------===//

#include "lib/abi/CapsuleNames.h"

#include "lib/abi/CapsuleCalls.h"
#include "lib/support/AstHelpers.h"
#include "lib/support/LLVMCompat.h"
#include "lib/support/LocalStores.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"

namespace clang::interop {

namespace {

using Strings = llvm::SmallVector<std::string, 2>;

/// Adds every constant E may hold to Out; false if one is not a constant.
bool addConstantStrings(const Expr *E, ASTContext &Ctx, int Depth,
                        Strings &Out);

/// What a local pointer variable holds (LocalStores): its initialiser and
/// each `V = ...` of the function it is declared in, when nothing else
/// writes it or takes its address (nanobind: `const char *name; if
/// constexpr (V) name = "dltensor_versioned"; else name = "dltensor";`).
bool addStoredConstants(const VarDecl *VD, ASTContext &Ctx, int Depth,
                        Strings &Out) {
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!FD || !FD->getBody() || Depth >= 8)
    return false;
  LocalStores Stores(FD->getBody());
  const LocalStores::Stores *S = Stores.of(VD);
  if (!S || S->Opaque || !S->Partial.empty() || S->Whole.empty())
    return false;
  return llvm::all_of(S->Whole, [&](const Expr *V) {
    return addConstantStrings(V, Ctx, Depth + 1, Out);
  });
}

bool addConstantStrings(const Expr *E, ASTContext &Ctx, int Depth,
                        Strings &Out) {
  for (; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenCasts();
    // A braced initialiser of a scalar: `constexpr const char *k{"dltensor"}`.
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      E = List->getNumInits() == 1 ? List->getInit(0) : nullptr;
      continue;
    }
    // A template argument: release<Managed, kName>.
    if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E)) {
      E = Subst->getReplacement();
      continue;
    }
    if (const auto *SL = dyn_cast<StringLiteral>(E)) {
      if (SL->getCharByteWidth() != 1)
        return false;
      Out.push_back(SL->getString().str());
      return true;
    }
    // `versioned ? "dltensor_versioned" : "dltensor"`: the chosen arm when
    // the condition is a constant, else either.
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      bool Cond = false;
      if (!CO->getCond()->isValueDependent() &&
          CO->getCond()->EvaluateAsBooleanCondition(Cond, Ctx)) {
        E = Cond ? CO->getTrueExpr() : CO->getFalseExpr();
        continue;
      }
      return addConstantStrings(CO->getTrueExpr(), Ctx, Depth + 1, Out) &&
             addConstantStrings(CO->getFalseExpr(), Ctx, Depth + 1, Out);
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return false;
      const VarDecl *Def = VD->getDefinition();
      if (Def && Def->getInit())
        VD = Def;
      if (VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
          !VD->getType().isConstQualified() && VD->getType()->isPointerType())
        return addStoredConstants(VD, Ctx, Depth + 1, Out);
      if (!VD->getInit() ||
          !(VD->getType().isConstQualified() || VD->isConstexpr() ||
            (VD->getType()->isPointerType() &&
             VD->getType()->getPointeeType().isConstQualified() &&
             VD->hasGlobalStorage())))
        return false;
      E = VD->getInit();
      continue;
    }
    return false;
  }
  return false;
}

} // namespace

std::optional<llvm::SmallVector<std::string, 2>>
constantStrings(const Expr *E, ASTContext &Ctx) {
  Strings Out;
  if (!addConstantStrings(E, Ctx, 0, Out) || Out.empty())
    return std::nullopt;
  llvm::sort(Out);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::optional<std::string> constantString(const Expr *E, ASTContext &Ctx) {
  std::optional<Strings> All = constantStrings(E, Ctx);
  if (!All || All->size() != 1)
    return std::nullopt;
  return All->front();
}

llvm::StringRef capsuleNameFor(DLPackRecord ManagedTensor) {
  return ManagedTensor == DLPackRecord::ManagedTensorVersioned
             ? "dltensor_versioned"
             : "dltensor";
}

llvm::StringRef unconsumedNameText(CapsuleName N) {
  return N == CapsuleName::Versioned ? "dltensor_versioned" : "dltensor";
}

bool mentionsDLPack(llvm::StringRef Text) {
  return Text.contains_insensitive("dltensor") ||
         Text.contains_insensitive("dlpack");
}

CapsuleName classifyCapsuleName(const Expr *E, ASTContext &Ctx) {
  if (!E)
    return CapsuleName::Unknown;
  if (isNullConstant(E, Ctx))
    return CapsuleName::Null;
  if (nameReadOf(E))
    return CapsuleName::FromGetName;
  std::optional<llvm::SmallVector<std::string, 2>> All =
      constantStrings(E, Ctx);
  if (!All)
    return CapsuleName::Unknown;
  auto Kind = [](llvm::StringRef S) {
    return compat::StringSwitch<CapsuleName>(S)
        .Case("dltensor", CapsuleName::Legacy)
        .Case("dltensor_versioned", CapsuleName::Versioned)
        .Case("used_dltensor", CapsuleName::UsedLegacy)
        .Case("used_dltensor_versioned", CapsuleName::UsedVersioned)
        .Default(CapsuleName::Other);
  };
  if (All->size() == 1)
    return Kind(All->front());
  // A choice at run time: one kind when every choice is of it.
  if (llvm::all_of(*All, [&](const std::string &S) {
        return isUnconsumedName(Kind(S));
      }))
    return CapsuleName::EitherUnconsumed;
  if (llvm::all_of(*All,
                   [&](const std::string &S) { return isUsedName(Kind(S)); }))
    return CapsuleName::EitherUsed;
  return CapsuleName::Unknown;
}

const CallExpr *nameReadOf(const Expr *E) {
  for (int Depth = 0; E && Depth < 6; ++Depth) {
    // `std::string(name)`: a functional cast around the bound temporary.
    E = ignoreTemporaries(ignoreTemporaries(E)->IgnoreParenCasts());
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      // name.c_str(), name.data(): the string object's characters.
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (viewCapsuleCall(MC).Op != CapsuleCall::GetName && MD &&
          MD->getIdentifier() && MC->getNumArgs() == 0 &&
          (MD->getName() == "c_str" || MD->getName() == "data")) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(E))
      return viewCapsuleCall(Call).Op == CapsuleCall::GetName ? Call
                                                              : nullptr;
    // std::string name = PyCapsule_GetName(c), std::string_view(...): a
    // string object made from the characters alone.
    if (const auto *Ctor = dyn_cast<CXXConstructExpr>(E)) {
      if (Ctor->getNumArgs() < 1 ||
          (!Ctor->getArg(0)->getType()->isPointerType() &&
           !Ctor->getConstructor()->isCopyOrMoveConstructor()))
        return nullptr;
      E = Ctor->getArg(0);
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !VD->getInit())
      return nullptr;
    E = VD->getInit();
  }
  return nullptr;
}

} // namespace clang::interop
