//===--- OwnershipNames.cpp - capsule names read back ---------------------===//

#include "lib/ownership/OwnershipNames.h"

#include "lib/abi/CapsuleAPI.h"
#include "lib/engine/CallSites.h"
#include "lib/engine/ValueFacts.h"

#include "llvm/ADT/STLExtras.h"

namespace clang::interop::ownership {

using namespace clang::dataflow;

void transferGetName(const CallExpr &E, Environment &Env, RunContext &RC) {
  if (E.getNumArgs() != 1 || !E.getType()->isPointerType())
    return;
  Value *V = valueOrFresh(E, Env);
  if (!V)
    return;
  RC.NameResults.try_emplace(V, &E);
}

bool nameCheckedBefore(const CallExpr &Get, ASTContext &Ctx) {
  if (nameComparedBefore(Get, Ctx))
    return true;
  const Expr *Capsule = viewCapsuleCall(&Get).Capsule;
  const ValueDecl *Root = capsuleRoot(Capsule);
  const auto *FD =
      Root ? dyn_cast<FunctionDecl>(Root->getDeclContext()) : nullptr;
  if (!FD || !FD->getBody())
    return false;
  // Through the function's aliases of the capsule (`PyObject *c =
  // cap.ptr();`), to the parameter it came in by.
  const auto *Param =
      dyn_cast_or_null<ParmVarDecl>(CapsuleRoots(FD->getBody()).of(Capsule));
  if (!Param)
    return false;
  return everyCallVouches(
      *FD, Param->getFunctionScopeIndex(),
      [&](const CallSite &Site, const Expr *Arg) {
        return Site.Caller &&
               nameComparedBefore(*Site.Call, Arg, *Site.Caller, Ctx);
      },
      // A recursive call may rename the capsule on the way down.
      [](const CallSite &) { return false; });
}

bool readsCString(const CallExpr &Call, unsigned I) {
  const FunctionDecl *FD = Call.getDirectCallee();
  if (!FD || !FD->getIdentifier() || I >= Call.getNumArgs())
    return false;
  StringRef Name = FD->getName();
  Name.consume_front("__builtin_");
  // The functions reading both string arguments, and those reading only
  // the first.
  static constexpr StringRef Both[] = {
      "strcmp", "strncmp", "strcasecmp", "strncasecmp", "strcoll",
      "strstr", "strspn",  "strcspn",    "strpbrk"};
  static constexpr StringRef First[] = {"strlen", "strdup", "strndup",
                                        "strchr", "strrchr"};
  return (I < 2 && llvm::is_contained(Both, Name)) ||
         (I == 0 && llvm::is_contained(First, Name));
}

namespace {

/// What the readers below receive.
struct NameState {
  Environment &Env;
  RunContext &RC;
  ASTContext &Ctx;
};

/// The capsule whose name E is (nameReadOf), or -1.
int capsuleOfName(const Expr *E, NameState &Own) {
  const CallExpr *Read = nameReadOf(E);
  if (!Read || classifyCapsuleCall(Read) != CapsuleCall::GetName ||
      Read->getNumArgs() != 1)
    return -1;
  return Own.RC.capsuleIdOf(Read->getArg(0));
}

/// For a comparison of a capsule's name with a name (either side first):
/// the capsule's "unconsumed" ghost, and in N what the other side names;
/// null when neither side is a tracked capsule's name.
BoolValue *comparedCapsule(const Expr *L, const Expr *R, NameState &Own,
                           CapsuleName &N) {
  Environment &Env = Own.Env;
  int C = capsuleOfName(L, Own);
  if (C < 0) {
    std::swap(L, R);
    C = capsuleOfName(L, Own);
  }
  if (C < 0)
    return nullptr;
  auto *U = Env.get<BoolValue>(*Own.RC.Capsules[C].Unconsumed);
  if (U)
    N = classifyCapsuleName(R, Own.Ctx);
  return U;
}

} // namespace

namespace {

/// The two names differ (L and R compared as strings, either side the
/// capsule's name); null when neither is a tracked capsule's name.
BoolValue *stringsDiffer(const Expr *L, const Expr *R, NameState &Own) {
  Environment &Env = Own.Env;
  CapsuleName N;
  BoolValue *U = comparedCapsule(L, R, Own, N);
  if (!U)
    return nullptr;
  if (N == CapsuleName::EitherUnconsumed || N == CapsuleName::EitherUsed) {
    // One of two names chosen at run time: equal names tell which kind
    // the capsule's name is; different names do not tell the other kind.
    BoolValue &Differ = Env.makeAtomicBoolValue();
    Arena &A = Env.arena();
    Env.assume(A.makeImplies(A.makeNot(Differ.formula()),
                             N == CapsuleName::EitherUsed
                                 ? A.makeNot(U->formula())
                                 : U->formula()));
    return &Differ;
  }
  if (checksOwnName(N, Own.RC))
    return &Env.makeNot(*U);
  if (isUsedName(N))
    return U;
  return nullptr;
}

} // namespace

BoolValue *namesDiffer(const Expr *E, Environment &Env, RunContext &RC,
                       ASTContext &Ctx) {
  NameState Own{Env, RC, Ctx};
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() ||
      (FD->getName() != "strcmp" && FD->getName() != "__builtin_strcmp") ||
      Call->getNumArgs() != 2)
    return nullptr;
  return stringsDiffer(Call->getArg(0), Call->getArg(1), Own);
}

BoolValue *stringNamesCompared(const CXXOperatorCallExpr &E, Environment &Env,
                               RunContext &RC, ASTContext &Ctx) {
  OverloadedOperatorKind Op = E.getOperator();
  if ((Op != OO_EqualEqual && Op != OO_ExclaimEqual) || E.getNumArgs() != 2)
    return nullptr;
  NameState Own{Env, RC, Ctx};
  BoolValue *Differ = stringsDiffer(E.getArg(0), E.getArg(1), Own);
  if (!Differ || Op == OO_ExclaimEqual)
    return Differ;
  return &Env.makeNot(*Differ);
}

BoolValue *namePointerEquals(const Expr *L, const Expr *R, Environment &Env,
                             RunContext &RC, ASTContext &Ctx) {
  NameState Own{Env, RC, Ctx};
  CapsuleName N;
  BoolValue *U = comparedCapsule(L, R, Own, N);
  if (!U || (!checksOwnName(N, Own.RC) && !isUsedName(N)))
    return nullptr;
  BoolValue &Eq = Env.makeAtomicBoolValue();
  Arena &A = Env.arena();
  Env.assume(A.makeImplies(Eq.formula(), checksOwnName(N, Own.RC)
                                             ? U->formula()
                                             : A.makeNot(U->formula())));
  return &Eq;
}

} // namespace clang::interop::ownership
